"""The variant of Paciência do Porta-Jóias (the jewel box): its rule
parameters and the fields of its variant file.

>>> SCHEMA["reserves.takes"][2]
"one of 'unplaceable', 'any'"
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..base import BOOLEAN, BaseVariant, Schema, int_range, one_of

#: Which turned cards a reserve takes.
RESERVE_TAKES = ("unplaceable", "any")


@dataclass(frozen=True)
class JewelVariant(BaseVariant):
    """Paciência do Porta-Jóias (family ``jewel``): the jewel box."""

    reserves: int  # reserves fed by the stock, 0..3
    runs_move: bool  # a run in alternating colours moves as a unit between side/bottom piles
    empty_pile: str  # once the jewels are gone, an empty side/bottom place takes: "any", "king", "none"
    empty_lid: str  # once the jewels are gone, an empty lid place takes: "any" or "none"
    reserve_takes: str  # "unplaceable": a turned card goes onto a reserve only when no foundation
    # and no pile top takes it (the sheet); "any": any turned card

    decks = 2
    cards = 104


#: The class of the family's variants.
VARIANT = JewelVariant

SCHEMA: Schema = {
    "reserves.count": (int, *int_range(0, 3)),
    "piles.runs_move": (bool, *BOOLEAN),
    "piles.empty_takes": (str, *one_of(("any", "king", "none"))),
    "lid.empty_takes": (str, *one_of(("any", "none"))),
    "reserves.takes": (str, *one_of(RESERVE_TAKES)),
}


def make(values: dict[str, Any], common: dict[str, Any], where: str) -> JewelVariant:
    """The variant of a file's checked ``values`` (by dotted field) and ``common`` fields."""
    return JewelVariant(
        **common,
        reserves=values["reserves.count"],
        runs_move=values["piles.runs_move"],
        empty_pile=values["piles.empty_takes"],
        empty_lid=values["lid.empty_takes"],
        reserve_takes=values["reserves.takes"],
    )
