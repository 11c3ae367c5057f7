"""Paciência do Porta-Jóias (the jewel box): the record of the family, and
its parts by module: variant, position, core (the two-deck core's
structs), player.

>>> FAMILY.name, FAMILY.position.__name__
('jewel', 'JewelPosition')
"""

from __future__ import annotations

from ...rules import jewel as engine
from .. import deck2
from ..base import Family
from . import core, player, variant
from .position import JewelPosition
from .variant import JewelVariant

__all__ = ["FAMILY", "JewelPosition", "JewelVariant"]

FAMILY = Family(
    name="jewel",
    variant=JewelVariant,
    schema=variant.SCHEMA,
    make_variant=variant.make,
    position=JewelPosition,
    engine=engine,
    player=player.Player(),
    core_new=deck2.NEW,
    core_reset=deck2.RESET,
    rules_struct=core.rules,
    position_struct=core.position,
    shortcuts=deck2.SHORTCUTS,
)
