"""Paciência do Porta-Jóias (the jewel box): the record of the family, and
its parts by module: variant, position, core (the two-deck core's
structs), player.

>>> FAMILY.name, FAMILY.position.__name__
('jewel', 'JewelPosition')
"""

from __future__ import annotations

from .. import deck2
from . import core, variant
from .position import JewelPosition
from .variant import JewelVariant

__all__ = ["FAMILY", "JewelPosition", "JewelVariant"]

FAMILY = deck2.family("jewel", "Paciência do Porta-Jóias", JewelPosition, variant, core)
