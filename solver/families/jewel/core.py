"""The jewel box in the C core (csrc/families/deck2/jewel.c): its rules and
positions as the two-deck core's structs.

>>> from solver.variants import load
>>> rules(load("paciencia-porta-joias")).reserves
3
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..._core import ffi, lib
from ...cards import Card
from ..base import count, fill, places, slot_index
from .position import JewelPosition
from .variant import JewelVariant

if TYPE_CHECKING:
    from ..._core import CData


def rules(variant: JewelVariant) -> CData:
    """The core's rules struct of ``variant``."""
    r = ffi.new("jewel_rules *")
    r.reserves = variant.reserves
    r.runs_move = variant.runs_move
    r.empty_pile = {"none": lib.JEWEL_EMPTY_NONE, "any": lib.JEWEL_EMPTY_ANY, "king": lib.JEWEL_EMPTY_KING}[
        variant.empty_pile
    ]
    r.empty_lid = {"none": lib.JEWEL_EMPTY_NONE, "any": lib.JEWEL_EMPTY_ANY}[variant.empty_lid]
    r.reserve_when_stuck = variant.reserve_takes == "unplaceable"
    return r


def position(pos: JewelPosition) -> CData:
    """The core's struct of ``pos``, or a CoreError naming what is wrong in it."""
    p = ffi.new("jewel_position *")
    p.turned = lib.DECK2_NO_CARD
    p.nstock = fill(p.stock, pos.stock, "the stock")
    p.turned = slot_index(pos.turned, "the turned card", lib.DECK2_NO_CARD)
    lid = places(pos.lid, 5, "the lid (a card or None a place)")
    p.lid[0:5] = [slot_index(c, f"lid place {i}", lib.DECK2_NO_CARD) for i, c in enumerate(lid, 1)]
    for i, pile in enumerate(places(pos.sides, 4, "the side piles") + places(pos.bottoms, 4, "the bottom piles")):
        p.ntableau[i] = fill(p.tableau[i], pile, f"pile {i + 1}")
    p.njewels = fill(p.jewels, pos.jewels, "the jewels", 13)
    reserves = places(pos.reserves, pos.variant.reserves, f"the reserves of {pos.variant.name}")
    for i, res in enumerate(reserves):
        p.nreserves[i] = fill(p.reserves[i], res, f"reserve {i + 1}")
    foundations = places(pos.foundations, 4, "the foundations (a pair of counts per suit)")
    for i, (suit, pair) in enumerate(zip("CSHD", foundations)):
        pair = places(pair, 2, f"the foundations of {suit} (two counts)")
        p.foundations[i][0:2] = [count(n, f"a foundation of {suit}", 13) for n in pair]
    return p


_CARDS = tuple(Card.from_index(i) for i in range(52))


def from_table(p: CData, variant: JewelVariant) -> JewelPosition:
    """The position a jewel_position of the jewel box holds (no deal, no
    moves played)."""
    cards = _CARDS

    def pile(n: int, array: CData) -> tuple[Card, ...]:
        return tuple(cards[c] for c in array[0:n])

    return JewelPosition(
        variant=variant,
        stock=pile(p.nstock, p.stock),
        turned=None if p.turned == lib.DECK2_NO_CARD else cards[p.turned],
        lid=tuple(None if c == lib.DECK2_NO_CARD else cards[c] for c in p.lid[0:5]),
        sides=tuple(pile(p.ntableau[i], p.tableau[i]) for i in range(4)),
        bottoms=tuple(pile(p.ntableau[i], p.tableau[i]) for i in range(4, 8)),
        jewels=pile(p.njewels, p.jewels),
        reserves=tuple(pile(p.nreserves[i], p.reserves[i]) for i in range(variant.reserves)),
        foundations=tuple((p.foundations[s][0], p.foundations[s][1]) for s in range(4)),
    )
