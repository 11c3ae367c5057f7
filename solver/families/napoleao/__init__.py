"""Paciência Napoleão: the record of the family, and its parts by module:
variant, position, core (the two-deck core's structs), player.

>>> FAMILY.name, FAMILY.position.__name__
('napoleao', 'NapoleaoPosition')
"""

from __future__ import annotations

from ...rules import napoleao as engine
from .. import deck2
from ..base import Family
from . import core, player, variant
from .position import NapoleaoPosition
from .variant import NapoleaoVariant

__all__ = ["FAMILY", "NapoleaoPosition", "NapoleaoVariant"]

FAMILY = Family(
    name="napoleao",
    variant=NapoleaoVariant,
    schema=variant.SCHEMA,
    make_variant=variant.make,
    position=NapoleaoPosition,
    engine=engine,
    player=player.Player(),
    core_new=deck2.NEW,
    core_reset=deck2.RESET,
    rules_struct=core.rules,
    position_struct=core.position,
    shortcuts=deck2.SHORTCUTS,
)
