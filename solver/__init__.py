"""The exhaustive solver for Napoleon's Tomb: proven wins, proven losses.

>>> from solver import solve, Limit
>>> result = solve(1, "napoleons-tomb", limit=Limit(seconds=30))
>>> result.verdict in ("won", "lost", "unknown")
True
"""

try:
    from . import _core  # noqa: F401  (the C core: every module below reaches it)
except ImportError as exc:  # pragma: no cover - only without a build
    raise ImportError("the C core (solver._core) is not built: run `make build` or `pip install -e .`") from exc

from .api import (
    DEFAULT_VARIANT,
    Cancel,
    Limit,
    LimitError,
    Result,
    ResultError,
    Stats,
    position_after,
    solve,
    start_position,
)
from .blind import STRATEGIES, BlindGame, Strategy, View, play
from .cards import Card, CardError
from .deals import Deal, DealError
from .errors import InputError, SolverError
from .families.tomb.position import Position, TombPosition
from .hints import DEFAULT_HINT_LIMIT, Hint, hint, hint_after
from .notation import IllegalMoveError, Move, MoveError
from .session import Game, GameError
from .variants import TombVariant, Variant, VariantError
from .vocabulary import REASONS, VERDICTS, Reason, Verdict

__all__ = [
    "Cancel",
    "Card",
    "CardError",
    "DEFAULT_VARIANT",
    "Deal",
    "DealError",
    "IllegalMoveError",
    "Limit",
    "LimitError",
    "Move",
    "MoveError",
    "Position",
    "Result",
    "ResultError",
    "Stats",
    "TombPosition",
    "TombVariant",
    "Variant",
    "VariantError",
    "position_after",
    "solve",
    "start_position",
    "DEFAULT_HINT_LIMIT",
    "Hint",
    "hint",
    "hint_after",
    "BlindGame",
    "STRATEGIES",
    "Strategy",
    "View",
    "play",
    "Game",
    "GameError",
    "REASONS",
    "Reason",
    "VERDICTS",
    "Verdict",
    "InputError",
    "SolverError",
]
