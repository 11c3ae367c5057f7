"""The exhaustive solver for Napoleon's Tomb: proven wins, proven losses.

>>> from solver import solve, Limit
>>> result = solve(1, "napoleons-tomb", limit=Limit(seconds=30))
>>> result.verdict in ("won", "lost", "unknown")
True
"""

from .api import (DEFAULT_VARIANT, Cancel, Limit, LimitError, Result, ResultError, Stats, position_after, solve,
                  start_position)
from .cards import Card, CardError
from .deals import Deal, DealError
from .errors import InputError, SolverError
from .game import IllegalMoveError, Move, MoveError, Position, TombPosition
from .variants import TombVariant, Variant, VariantError
from .hints import DEFAULT_HINT_LIMIT, Hint, hint, hint_after
from .blind import STRATEGIES, Strategy, View, play
from .session import Game, GameError
from .vocabulary import REASONS, VERDICTS, Reason, Verdict

__all__ = [
    "Cancel", "Card", "CardError", "DEFAULT_VARIANT", "Deal", "DealError", "IllegalMoveError", "Limit", "LimitError",
    "Move", "MoveError", "Position", "Result", "ResultError", "Stats", "TombPosition", "TombVariant", "Variant",
    "VariantError",
    "position_after", "solve", "start_position",
    "DEFAULT_HINT_LIMIT", "Hint", "hint", "hint_after", "STRATEGIES", "Strategy", "View", "play",
    "Game", "GameError", "REASONS", "Reason", "VERDICTS", "Verdict",
    "InputError", "SolverError",
]
