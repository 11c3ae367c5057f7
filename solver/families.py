"""The game families: for each, its reference rules engine and position class.

>>> engine("tomb").__name__
'solver.rules.tomb'
"""

from __future__ import annotations

import importlib
from types import ModuleType

#: family -> (reference engine module, position class name in it)
_FAMILIES = {
    "tomb": ("solver.rules.tomb", "Position"),
    "napoleao": ("solver.rules.napoleao", "NapoleaoPosition"),
    "jewel": ("solver.rules.jewel", "JewelPosition"),
}


def engine(family: str) -> ModuleType:
    """The reference rules engine of ``family`` (legal_moves, play, replay, search)."""
    return importlib.import_module(_FAMILIES[family][0])


def position_class(family: str) -> type:
    """The class of the positions of ``family``."""
    if family == "tomb":
        from .game import Position

        return Position
    return getattr(engine(family), _FAMILIES[family][1])


def position_classes() -> tuple[type, ...]:
    return tuple(position_class(f) for f in _FAMILIES)
