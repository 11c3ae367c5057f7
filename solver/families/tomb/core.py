"""The Napoleon's Tomb family in the C core (csrc/families/tomb/): its rules
and positions as the core's structs, and its shortcuts (docs/search.md).

>>> sorted(SHORTCUTS)[:3]
['by-places', 'cell-home', 'earliest-home']
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..._core import ffi, lib
from ...cards import Card
from ...errors import CoreError
from ..base import all_cards, count, pile_indexes, places, slot_index
from .position import TombPosition
from .variant import TombVariant

if TYPE_CHECKING:
    from ..._core import CData

#: Shortcut names of the Tomb (docs/search.md) and their C flags.
SHORTCUTS = {
    "cell-home": lib.SOLVER_FORCE_CELL_HOME,
    "reserve-home": lib.SOLVER_FORCE_RESERVE_HOME,
    "suit-symmetry": lib.SOLVER_SUIT_SYMMETRY,
    "summaries": lib.SOLVER_SUMMARIES,
    "waste-home": lib.SOLVER_FORCE_WASTE_HOME,
    "sixes-reserve": lib.SOLVER_FORCE_SIXES_RESERVE,
    "restarts": lib.SOLVER_RESTARTS,
    "seven-home": lib.SOLVER_FORCE_SEVEN_HOME,
    "by-places": lib.SOLVER_BY_PLACES,
    "stuck-cells": lib.SOLVER_STUCK_CELLS,
    "frozen-foundations": lib.SOLVER_FROZEN_FOUNDATIONS,
    "full-cells": lib.SOLVER_FULL_CELLS,
    "hand-home": lib.SOLVER_HAND_HOME,
    "moves-cache": lib.SOLVER_MOVES_CACHE,
    "earliest-home": lib.SOLVER_EARLIEST_HOME,
}


def rules(variant: TombVariant) -> CData:
    r = ffi.new("tomb_rules *")
    r.turn = variant.turn
    r.passes = variant.passes
    r.cells = variant.cells
    r.cell_from_cell = "cell" in variant.cell_sources and "cell" in variant.cell_targets
    r.cell_to_foundation = "foundation" in variant.cell_targets
    r.cell_to_reserve = "reserve" in variant.cell_targets
    r.cell_to_waste = "waste" in variant.cell_targets
    r.sixes_reserve = variant.sixes_reserve
    return r


def _check_tomb_foundations(pos: TombPosition, indexes: list[int]) -> None:
    """The core is given only how many cards each foundation holds; the
    engines read their top cards. So a foundation must hold the ranks its
    count says, and no card may lie there and elsewhere too (``indexes``:
    every card's, of every place)."""
    if not pos.tomb and not any(pos.corners) and len(set(indexes)) == len(indexes):
        return
    for i, corner in enumerate(pos.corners, 1):
        if [c.rank for c in corner] != list(range(7, 7 + len(corner))):
            shown = " ".join(str(c) for c in corner)
            raise CoreError(f"position: corner {i} holds {shown}; a corner builds up 7, 8, ... K")
    if [c.rank for c in pos.tomb] != [6 - i % 6 for i in range(len(pos.tomb))]:
        shown = " ".join(str(c) for c in pos.tomb)
        raise CoreError(f"position: the tomb holds {shown}; it builds down 6, 5, ... A four times")
    seen: dict[Card, str] = {}
    places = [
        ("the stock", pos.stock),
        ("the waste", pos.waste),
        ("the cells", pos.cells),
        ("the reserve", pos.reserve),
        ("the tomb", pos.tomb),
    ]
    places += [(f"corner {i}", c) for i, c in enumerate(pos.corners, 1)]
    for where, pile in places:
        for card in pile:
            if card is None:
                continue
            if card in seen:
                both = f"twice in {where}" if seen[card] == where else f"in {seen[card]} and in {where}"
                raise CoreError(f"position: card {card} appears twice ({both})")
            seen[card] = where


_EMPTY_CORNERS: tuple[tuple[Card, ...], ...] = ((), (), (), ())


def _start_position(pos: TombPosition) -> CData | None:
    """The struct of a position whose cards are all in its stock, each once
    (a deal's start), with only the checks such a position needs; None for
    any other position (which :func:`_position` checks place by place)."""
    stock = pos.stock
    if (
        type(stock) is not tuple
        or len(stock) != 52
        or pos.waste != ()
        or pos.reserve != ()
        or pos.tomb != ()
        or pos.corners != _EMPTY_CORNERS
        or pos.redeals != 0
        or not all_cards(stock)
        or pos.cells != (None,) * pos.variant.cells
        or pos.variant.cells > lib.SOLVER_MAX_CELLS
    ):
        return None
    indexes = [c.index for c in stock]
    if len(set(indexes)) != 52:
        return None
    p = ffi.new("tomb_position *")
    p.nstock = 52
    p.stock[0:52] = indexes
    p.cells[0 : lib.SOLVER_MAX_CELLS] = [lib.SOLVER_NO_CARD] * lib.SOLVER_MAX_CELLS
    return p


_NO_CARDS = bytes([lib.SOLVER_NO_CARD] * lib.SOLVER_MAX_CELLS)


def deal_position(indexes: bytes) -> CData:
    """The struct of the start of a Tomb deal of these cards' indexes
    (Card.index, in turning order: deals.card_indexes), as
    :func:`_start_position` makes that of its TombPosition: every card in
    the stock. Nothing is checked here: the core refuses a position that
    does not hold each card once, naming the card."""
    p = ffi.new("tomb_position *")
    p.nstock = len(indexes)
    ffi.memmove(p.stock, indexes, len(indexes))
    ffi.memmove(p.cells, _NO_CARDS, lib.SOLVER_MAX_CELLS)
    return p


def position(pos: TombPosition) -> CData:
    """The struct of a Tomb position, or a CoreError naming what is wrong in it."""
    start = _start_position(pos)
    return start if start is not None else _checked_position(pos)


def _checked_position(pos: TombPosition) -> CData:
    """:func:`position`, checking every place."""
    p = ffi.new("tomb_position *")
    stock, waste = pile_indexes(pos.stock, "the stock", 52), pile_indexes(pos.waste, "the waste", 52)
    p.nstock, p.nwaste = len(stock), len(waste)
    p.stock[0 : len(stock)] = stock
    p.waste[0 : len(waste)] = waste
    cells = places(pos.cells, pos.variant.cells, f"the cells of {pos.variant.name}")
    if len(cells) > lib.SOLVER_MAX_CELLS:
        raise CoreError(f"{len(cells)} cells; the core handles at most {lib.SOLVER_MAX_CELLS}")
    slots = [slot_index(c, f"cell {i}", lib.SOLVER_NO_CARD) for i, c in enumerate(cells, 1)]
    slots += [lib.SOLVER_NO_CARD] * (lib.SOLVER_MAX_CELLS - len(slots))
    p.cells[0 : lib.SOLVER_MAX_CELLS] = slots
    reserve = pile_indexes(pos.reserve, "the sixes reserve")
    if len(reserve) > 4:
        raise CoreError(f"{len(reserve)} cards in the sixes reserve; there are four 6s")
    p.nreserve = len(reserve)
    p.reserve[0 : len(reserve)] = reserve
    corners = [pile_indexes(pile, f"corner {i}") for i, pile in enumerate(places(pos.corners, 4, "the corners"), 1)]
    p.corners[0:4] = [len(c) for c in corners]
    tomb = pile_indexes(pos.tomb, "the tomb")
    p.tomb = len(tomb)
    _check_tomb_foundations(
        pos,
        stock
        + waste
        + [c for c in slots if c != lib.SOLVER_NO_CARD]
        + reserve
        + tomb
        + [c for corner in corners for c in corner],
    )
    p.redeals = count(pos.redeals, "the redeals made", pos.variant.passes - 1)
    return p


def table(pos: TombPosition) -> CData:
    """The core's play struct of ``pos`` (csrc/play.h's tomb_table): its
    position and the cards of its foundations."""
    t = ffi.new("tomb_table *")
    t.pos = position(pos)[0]
    for i, corner in enumerate(pos.corners):
        t.corner_cards[i][0 : len(corner)] = [c.index for c in corner]
    t.tomb_cards[0 : len(pos.tomb)] = [c.index for c in pos.tomb]
    return t


_CARDS = tuple(Card.from_index(i) for i in range(52))


def from_table(t: CData, variant: TombVariant) -> TombPosition:
    """The position a tomb_table holds (no deal, no moves played)."""
    p = t.pos
    cards = _CARDS
    return TombPosition(
        variant=variant,
        stock=tuple(cards[c] for c in p.stock[0 : p.nstock]),
        waste=tuple(cards[c] for c in p.waste[0 : p.nwaste]),
        cells=tuple(None if c == lib.SOLVER_NO_CARD else cards[c] for c in p.cells[0 : variant.cells]),
        reserve=tuple(cards[c] for c in p.reserve[0 : p.nreserve]),
        corners=tuple(tuple(cards[c] for c in t.corner_cards[i][0 : p.corners[i]]) for i in range(4)),
        tomb=tuple(cards[c] for c in t.tomb_cards[0 : p.tomb]),
        redeals=p.redeals,
    )
