"""Paciência Napoleão in the C core (csrc/families/deck2/napoleao.c): its
rules and positions as the two-deck core's structs.

>>> from solver.variants import load
>>> rules(load("paciencia-napoleao")).redeals
2
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..._core import ffi
from ...cards import Card
from ..base import count, fill, places
from .position import NapoleaoPosition
from .variant import NapoleaoVariant

if TYPE_CHECKING:
    from ..._core import CData


def rules(variant: NapoleaoVariant) -> CData:
    """The core's rules struct of ``variant``."""
    r = ffi.new("napoleao_rules *")
    r.restricted_rounds = variant.restricted_rounds
    r.restricted_again = variant.restricted_again
    r.redeals = variant.redeals
    r.deal_from_last = variant.deal_from == "pile-12"
    r.start_bases = variant.start_bases
    r.deal_when_stuck = variant.deal_when == "nothing-fits"
    return r


def position(pos: NapoleaoPosition) -> CData:
    """The core's struct of ``pos``, or a CoreError naming what is wrong in it."""
    p = ffi.new("napoleao_position *")
    p.nstock = fill(p.stock, pos.stock, "the stock")
    for i, pile in enumerate(places(pos.piles, 12, "the piles of the ring")):
        p.npiles[i] = fill(p.piles[i], pile, f"pile {i + 1}")
    kbases = places(pos.kbases, 4, "the King bases (a count per suit)")
    abases = places(pos.abases, 4, "the Ace bases (a count per suit)")
    p.kbases[0:4] = [count(n, f"King base {s}", 13) for s, n in zip("CSHD", kbases)]
    p.abases[0:4] = [count(n, f"Ace base {s}", 13) for s, n in zip("CSHD", abases)]
    p.redeals = count(pos.redeals, "the redeals made", pos.variant.redeals)
    p.rounds = count(pos.rounds, "the rounds dealt", 104)
    return p


_CARDS = tuple(Card.from_index(i) for i in range(52))


def from_table(p: CData, variant: NapoleaoVariant) -> NapoleaoPosition:
    """The position a napoleao_position of Paciência Napoleão holds (no deal,
    no moves played)."""
    cards = _CARDS
    return NapoleaoPosition(
        variant=variant,
        stock=tuple(cards[c] for c in p.stock[0 : p.nstock]),
        piles=tuple(tuple(cards[c] for c in p.piles[i][0 : p.npiles[i]]) for i in range(12)),
        kbases=tuple(p.kbases[0:4]),
        abases=tuple(p.abases[0:4]),
        redeals=p.redeals,
        rounds=p.rounds,
    )
