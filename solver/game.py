"""The moves' old home: :class:`Move`, its places and its errors live in
:mod:`solver.notation` (every written form of a move) and
:mod:`solver.errors`; they stay importable from here.

>>> Move.parse("8H waste -> cell").to_json()
{'action': 'move', 'card': '8H', 'from': 'waste', 'to': 'cell'}
"""

from __future__ import annotations

import warnings
from typing import Any

from .errors import IllegalMoveError, MoveError
from .families.tomb.position import TombPosition as _TombPosition
from .notation import FOUNDATIONS, INDEXED_PLACES, PLACES, Move, is_place, place_index, place_kind

__all__ = [
    "FOUNDATIONS",
    "INDEXED_PLACES",
    "PLACES",
    "IllegalMoveError",
    "Move",
    "MoveError",
    "is_place",
    "place_index",
    "place_kind",
]


def __getattr__(name: str) -> Any:
    """``TombPosition`` (and its old name ``Position``), which moved to
    :mod:`solver.families.tomb`: importable from here, with a
    DeprecationWarning, until the next release."""
    if name in ("TombPosition", "Position"):
        warnings.warn(
            f"solver.game.{name} is deprecated: import TombPosition from solver", DeprecationWarning, stacklevel=2
        )
        return _TombPosition
    raise AttributeError(f"module 'solver.game' has no attribute {name!r}")
