"""The game families, each in its folder (variant, position, core, player)
with its record, :class:`~solver.families.base.Family`: the one place
that says what a family is. Everything else asks the record.

Adding a family: one folder here, one C module under ``csrc/families/``,
one registration in :data:`FAMILIES` below.

>>> from solver.variants import load
>>> of(load("napoleons-tomb-3")).name
'tomb'
"""

from __future__ import annotations

from typing import Any, TypeAlias, TypeGuard

from ..errors import VariantError
from .base import BaseVariant, Family
from .jewel import FAMILY as JEWEL
from .jewel import JewelPosition
from .napoleao import FAMILY as NAPOLEAO
from .napoleao import NapoleaoPosition
from .tomb import FAMILY as TOMB
from .tomb import TombPosition

__all__ = [
    "FAMILIES",
    "JEWEL",
    "NAPOLEAO",
    "TOMB",
    "AnyPosition",
    "Family",
    "POSITION_CLASSES",
    "get",
    "JewelPosition",
    "NapoleaoPosition",
    "TombPosition",
    "is_position",
    "of",
    "of_position",
]

#: The families by name, as a variant file's ``family`` names them.
FAMILIES: dict[str, Family] = {f.name: f for f in (TOMB, NAPOLEAO, JEWEL)}

#: A position of any family.
AnyPosition: TypeAlias = TombPosition | NapoleaoPosition | JewelPosition

#: The position classes of the families (for ``isinstance``).
POSITION_CLASSES: tuple[type[Any], ...] = tuple(f.position for f in FAMILIES.values())
_BY_POSITION = {f.position: f for f in FAMILIES.values()}


def get(name: str) -> Family:
    """The family called ``name``, or a VariantError naming the families."""
    if name not in FAMILIES:
        raise VariantError(f"no family {name!r}; families are {', '.join(FAMILIES)}")
    return FAMILIES[name]


def of(variant: BaseVariant) -> Family:
    """The family of a variant."""
    return get(variant.family)


def of_position(pos: object) -> Family | None:
    """The family of a position, or None for what is no family's position."""
    return _BY_POSITION.get(type(pos))


def is_position(value: object) -> TypeGuard[AnyPosition]:
    """Whether ``value`` is a position of one of the families."""
    return type(value) in _BY_POSITION
