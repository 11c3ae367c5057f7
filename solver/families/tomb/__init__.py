"""Napoleon's Tomb and its variants (the one-deck family): the record of
the family, and its parts by module: variant, position, core, player.

>>> FAMILY.name, FAMILY.position.__name__
('tomb', 'TombPosition')
"""

from __future__ import annotations

from ...rules import tomb as engine
from ..base import Family
from ..play import core_number
from . import core, player, variant
from .position import TombPosition
from .variant import TombVariant

__all__ = ["FAMILY", "TombPosition", "TombVariant"]

FAMILY = Family(
    name="tomb",
    variant=TombVariant,
    schema=variant.SCHEMA,
    make_variant=variant.make,
    position=TombPosition,
    engine=engine,
    player=player.Player(),
    core_number=core_number("tomb"),
    rules_struct=core.rules,
    position_struct=core.position,
    shortcuts=core.SHORTCUTS,
    deal_struct=core.deal_position,
    blind_players=True,
)
