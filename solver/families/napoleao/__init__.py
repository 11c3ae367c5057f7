"""Paciência Napoleão: the record of the family, and its parts by module:
variant, position, core (the two-deck core's structs), player.

>>> FAMILY.name, FAMILY.position.__name__
('napoleao', 'NapoleaoPosition')
"""

from __future__ import annotations

from .. import deck2
from . import core, variant
from .position import NapoleaoPosition
from .variant import NapoleaoVariant

__all__ = ["FAMILY", "NapoleaoPosition", "NapoleaoVariant"]

FAMILY = deck2.family("napoleao", "Paciência Napoleão", NapoleaoPosition, variant, core)
