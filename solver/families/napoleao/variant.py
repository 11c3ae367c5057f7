"""The variant of Paciência Napoleão: its rule parameters and the fields of
its variant file.

>>> SCHEMA["rounds.deal_when"][2]
"one of 'nothing-fits', 'any-time'"
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..base import BOOLEAN, BaseVariant, Schema, int_range, one_of

#: When a round (or a redeal) may be dealt.
DEAL_WHEN = ("nothing-fits", "any-time")


@dataclass(frozen=True)
class NapoleaoVariant(BaseVariant):
    """Paciência Napoleão (family ``napoleao``): twelve piles dealt in rounds
    around four King bases and four Ace bases."""

    start_bases: bool  # the first King and first Ace turned start their bases
    restricted_rounds: int  # first rounds of the game in which only Kings and Aces leave the piles
    restricted_again: bool  # the restriction comes back after each redeal
    redeals: int
    deal_from: str  # "pile-1": the gathered pack deals pile 1 (bottom up) first; or "pile-12"
    deal_when: str  # "nothing-fits": a round or a redeal only when no playable card fits a
    # base (the sheet); "any-time": whenever the player likes

    decks = 2
    cards = 104

    @property
    def passes(self) -> int:
        return self.redeals + 1


#: The class of the family's variants.
VARIANT = NapoleaoVariant

SCHEMA: Schema = {
    "setup.start_bases": (bool, *BOOLEAN),
    "rounds.restricted": (int, *int_range(0, 9)),
    "rounds.restricted_after_redeal": (bool, *BOOLEAN),
    "redeal.count": (int, *int_range(0, 5)),
    "redeal.deal_from": (str, *one_of(("pile-1", "pile-12"))),
    "rounds.deal_when": (str, *one_of(DEAL_WHEN)),
}


def make(values: dict[str, Any], common: dict[str, Any], where: str) -> NapoleaoVariant:
    """The variant of a file's checked ``values`` (by dotted field) and ``common`` fields."""
    return NapoleaoVariant(
        **common,
        start_bases=values["setup.start_bases"],
        restricted_rounds=values["rounds.restricted"],
        restricted_again=values["rounds.restricted_after_redeal"],
        redeals=values["redeal.count"],
        deal_from=values["redeal.deal_from"],
        deal_when=values["rounds.deal_when"],
    )
