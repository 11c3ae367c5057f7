"""Napoleon's Tomb and its variants (the one-deck family): the record of
the family, and its parts by module: variant, position, core, player.

>>> FAMILY.name, FAMILY.position.__name__
('tomb', 'TombPosition')
"""

from __future__ import annotations

from ..base import Family
from ..play import CorePlay, core_number
from ..player import Player
from . import core, variant
from .position import TombPosition
from .variant import TombVariant

__all__ = ["FAMILY", "TombPosition", "TombVariant"]

FAMILY = Family(
    name="tomb",
    title="Napoleon's Tomb",
    variant=TombVariant,
    schema=variant.SCHEMA,
    make_variant=variant.make,
    position=TombPosition,
    player=Player(CorePlay("tomb", core.rules, core.table, core.from_table)),
    core_number=core_number("tomb"),
    rules_struct=core.rules,
    position_struct=core.position,
    shortcuts=core.SHORTCUTS,
    deal_struct=core.deal_position,
    blind_players=True,
)
