"""A thin wrapper over the C core's handle API (csrc/solver.h), through cffi:
one :class:`Search` for every game family; only the rules and positions the
constructors take, and the shortcut names, are the family's.

The search runs in a worker thread (cffi releases the GIL during C calls), so
threads can solve different deals at once and Ctrl-C in the main thread stops
the search cleanly: :func:`run` then reports ``interrupted``. Each thread
keeps the search of its last deal of a variant for its next
(:func:`search_for`, :func:`keep`), which the core resets in the memory of
the last.
"""

from __future__ import annotations

import functools
import operator
import os
import queue
import threading
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from .errors import SolverError
from .cards import Card
from .deals import _FRESH_INDEXES, LC_LIMIT, MIN_NUMBER, Deal
from .deals import card_indexes as deals_card_indexes
from .game import Move, TombPosition
from .variants import BaseVariant, JewelVariant, NapoleaoVariant, TombVariant
from .vocabulary import Reason, Verdict

if TYPE_CHECKING:
    from ._core import CData
    from .families import AnyPosition
    from .rules.jewel import JewelPosition
    from .rules.napoleao import NapoleaoPosition

try:
    from ._core import ffi, lib
except ImportError as exc:  # pragma: no cover - only without a build
    raise ImportError(
        "the C core (solver._core) is not built: run `make build` or `pip install -e .`"
    ) from exc

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

STATUS: dict[int, tuple[Verdict, Reason | None]] = {
    lib.SOLVER_WON: ("won", None),
    lib.SOLVER_LOST: ("lost", None),
    lib.SOLVER_LIMIT_POSITIONS: ("unknown", "positions"),
    lib.SOLVER_LIMIT_SECONDS: ("unknown", "seconds"),
    lib.SOLVER_LIMIT_MEMORY: ("unknown", "memory"),
    lib.SOLVER_INTERRUPTED: ("unknown", "interrupted"),
}

#: Shortcuts of the two-deck games (docs/search.md) and their C flags.
SHORTCUTS_D2 = {
    "last-copy-home": lib.D2_LAST_COPY_HOME,
    "interchangeable": lib.D2_INTERCHANGEABLE,
    "restarts": lib.D2_RESTARTS,
    "dead-cards": lib.D2_DEAD_CARDS,
}

#: Each family's shortcuts (a variant's ``family``): the Tomb's, or the two-deck games'.
_SHORTCUTS_OF = {"tomb": SHORTCUTS, "napoleao": SHORTCUTS_D2, "jewel": SHORTCUTS_D2}

#: The places of a line's moves (SOLVER_PLACE_*) by their names in the
#: solution format; the Tomb's have no index.
_PLACES = {
    lib.SOLVER_PLACE_STOCK: "stock",
    lib.SOLVER_PLACE_WASTE: "waste",
    lib.SOLVER_PLACE_CELL: "cell",
    lib.SOLVER_PLACE_RESERVE: "reserve",
    lib.SOLVER_PLACE_CORNER: "corner",
    lib.SOLVER_PLACE_TOMB: "tomb",
    lib.SOLVER_PLACE_PILE: "pile",
    lib.SOLVER_PLACE_KBASE: "kbase",
    lib.SOLVER_PLACE_ABASE: "abase",
    lib.SOLVER_PLACE_LID: "lid",
    lib.SOLVER_PLACE_SIDE: "side",
    lib.SOLVER_PLACE_BOTTOM: "bottom",
    lib.SOLVER_PLACE_RESERVE_PILE: "reserve",
    lib.SOLVER_PLACE_FOUNDATION: "foundation",
}
#: Places named with their index (``pile:3``), and those whose index is a suit (``kbase:H``).
_NUMBERED_PLACES = frozenset((lib.SOLVER_PLACE_PILE, lib.SOLVER_PLACE_LID, lib.SOLVER_PLACE_SIDE,
                              lib.SOLVER_PLACE_BOTTOM, lib.SOLVER_PLACE_RESERVE_PILE))
_SUIT_PLACES = frozenset((lib.SOLVER_PLACE_KBASE, lib.SOLVER_PLACE_ABASE, lib.SOLVER_PLACE_FOUNDATION))


#: The parts of the memory a search holds (csrc/solver.h, SOLVER_MEM_*), by index.
MEMORY_PARTS = tuple(ffi.string(lib.solver_memory_part(i)).decode() for i in range(lib.SOLVER_MEM_PARTS))


def memory_parts(stats: CData) -> tuple[tuple[str, int], ...]:
    """The parts a search holds (of a ``solver_stats``), largest first, none empty."""
    parts = [(name, int(stats.part_bytes[i])) for i, name in enumerate(MEMORY_PARTS)]
    return tuple(sorted(((n, b) for n, b in parts if b), key=lambda p: -p[1]))


class CoreError(SolverError, ValueError):
    """The C core refused the rules or the position."""


@dataclass(frozen=True)
class CoreOutcome:
    verdict: Verdict
    reason: Reason | None
    score: int
    moves: tuple[Move, ...]
    positions: int
    seconds: float
    table_bytes: int
    peak_bytes: int
    held_bytes: int = 0
    held: tuple[tuple[str, int], ...] = ()
    refused_bytes: int = 0
    #: The line's text (Search.outcome(text=True)), its moves left unmade.
    text: str = ""


class TextOutcome(NamedTuple):
    """What a run found, as a batch stores it: the numbers of its row, and
    the line and the stats as the solution format's texts, written by the
    core (Search.texts)."""

    verdict: Verdict
    reason: Reason | None
    score: int
    positions: int
    seconds: float
    table_bytes: int
    held_bytes: int
    #: The line's moves (Search.line_text).
    line: str
    #: The stats object (Stats.text), or None where the core would not
    #: write it as Python does (seconds not a number).
    stats: str | None


def shortcuts_of(family: str = "tomb") -> dict[str, int]:
    """The shortcut names of a game family and their C flags."""
    if family not in _SHORTCUTS_OF:
        raise CoreError(f"the core has no family {family!r}")
    return _SHORTCUTS_OF[family]


def flags_for(shortcuts: bool | Iterable[str] | None, family: str = "tomb") -> int:
    """C flags for ``True`` (all shortcuts), ``False`` (none) or a collection of names.
    All are the family's C flag of them all (SOLVER_ALL_SHORTCUTS, D2_ALL_SHORTCUTS:
    tests/test_core.py checks that the names cover them)."""
    known = shortcuts_of(family)
    if shortcuts is True:
        return functools.reduce(operator.or_, known.values(), 0)
    if shortcuts is False or shortcuts is None:
        return 0
    flags = 0
    for name in shortcuts:
        if name not in known:
            raise CoreError(f"unknown shortcut {name!r}; shortcuts are {', '.join(known)}")
        flags |= known[name]
    return flags


def _rules(variant: TombVariant) -> CData:
    r = ffi.new("tomb_rules *")
    r.turn = variant.turn
    r.passes = variant.passes
    r.cells = variant.cells
    r.cell_from_cell = "cell" in variant.cell_sources
    r.cell_to_foundation = "foundation" in variant.cell_targets
    r.cell_to_reserve = "reserve" in variant.cell_targets
    r.cell_to_waste = "waste" in variant.cell_targets
    r.sixes_reserve = variant.sixes_reserve
    return r


_CARD_TYPE = frozenset((Card,))


def _pile(pile: object, what: str, size: int = 104) -> list[int]:
    """The card indexes of a pile (a tuple of cards), or a CoreError naming
    the place: the struct takes only card indexes, so anything else there
    would fail in cffi, and a pile the struct cannot hold would overflow it."""
    if not isinstance(pile, (tuple, list)):
        raise CoreError(f"position: {what} is {pile!r}, not a tuple of cards")
    if not _CARD_TYPE.issuperset(map(type, pile)):
        for card in pile:
            if not isinstance(card, Card):
                raise CoreError(f"position: {what} holds {card!r}, which is not a Card")
    if len(pile) > size:
        raise CoreError(f"position: {what} holds {len(pile)} cards; at most {size}")
    return [c.index for c in pile]


def _slot(card: object, what: str, empty: int) -> int:
    """The index of the card in a single place (a cell, a lid place), or ``empty``."""
    if card is None:
        return empty
    if not isinstance(card, Card):
        raise CoreError(f"position: {what} is {card!r}, not a Card or None")
    return card.index


def _places(value: object, count: int, what: str) -> tuple[Any, ...]:
    """A tuple of ``count`` places: the engines and the core must see the same ones."""
    if not isinstance(value, (tuple, list)) or len(value) != count:
        raise CoreError(f"position: {what} must be a tuple of {count}, not {repr(value)[:80]}")
    return tuple(value)


def _count(value: object, what: str, top: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= top:
        allowed = "0" if top == 0 else f"a whole number 0..{top}"
        raise CoreError(f"position: {what} is {value!r}, not {allowed}")
    return value


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
    places = [("the stock", pos.stock), ("the waste", pos.waste), ("the cells", pos.cells),
              ("the reserve", pos.reserve), ("the tomb", pos.tomb)]
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
    if (type(stock) is not tuple or len(stock) != 52 or pos.waste != () or pos.reserve != () or pos.tomb != ()
            or pos.corners != _EMPTY_CORNERS or pos.redeals != 0 or not _CARD_TYPE.issuperset(map(type, stock))
            or pos.cells != (None,) * pos.variant.cells or pos.variant.cells > lib.SOLVER_MAX_CELLS):
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


#: The indexes of the one deck the LC generator shuffles, in the order it starts from.
_LC_FRESH = bytes(_FRESH_INDEXES[True, 1])
_LC_OUT = threading.local()


def card_indexes(number: int) -> bytes:
    """:func:`solver.deals.card_indexes` of a one-deck deal: the same bytes,
    shuffled in the core for the numbers of the LC generator (solver_lc_deal),
    by deals.py for the others (and its errors)."""
    if type(number) is not int or not MIN_NUMBER <= number < LC_LIMIT:
        return deals_card_indexes(number)
    out = getattr(_LC_OUT, "buf", None)
    if out is None:
        out = _LC_OUT.buf = ffi.new("uint8_t[]", len(_LC_FRESH))
    lib.solver_lc_deal(number, _LC_FRESH, len(_LC_FRESH), out)
    return bytes(ffi.buffer(out))


def _deal_position(indexes: bytes) -> CData:
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


def _position(pos: TombPosition) -> CData:
    """The struct of a Tomb position, or a CoreError naming what is wrong in it."""
    start = _start_position(pos)
    return start if start is not None else _checked_position(pos)


def _checked_position(pos: TombPosition) -> CData:
    """:func:`_position`, checking every place."""
    p = ffi.new("tomb_position *")
    stock, waste = _pile(pos.stock, "the stock", 52), _pile(pos.waste, "the waste", 52)
    p.nstock, p.nwaste = len(stock), len(waste)
    p.stock[0 : len(stock)] = stock
    p.waste[0 : len(waste)] = waste
    cells = _places(pos.cells, pos.variant.cells, f"the cells of {pos.variant.name}")
    if len(cells) > lib.SOLVER_MAX_CELLS:
        raise CoreError(f"{len(cells)} cells; the core handles at most {lib.SOLVER_MAX_CELLS}")
    slots = [_slot(c, f"cell {i}", lib.SOLVER_NO_CARD) for i, c in enumerate(cells, 1)]
    slots += [lib.SOLVER_NO_CARD] * (lib.SOLVER_MAX_CELLS - len(slots))
    p.cells[0 : lib.SOLVER_MAX_CELLS] = slots
    reserve = _pile(pos.reserve, "the sixes reserve")
    if len(reserve) > 4:
        raise CoreError(f"{len(reserve)} cards in the sixes reserve; there are four 6s")
    p.nreserve = len(reserve)
    p.reserve[0 : len(reserve)] = reserve
    corners = [_pile(pile, f"corner {i}") for i, pile in enumerate(_places(pos.corners, 4, "the corners"), 1)]
    p.corners[0:4] = [len(c) for c in corners]
    tomb = _pile(pos.tomb, "the tomb")
    p.tomb = len(tomb)
    _check_tomb_foundations(pos, stock + waste + [c for c in slots if c != lib.SOLVER_NO_CARD] + reserve + tomb
                            + [c for corner in corners for c in corner])
    p.redeals = _count(pos.redeals, "the redeals made", pos.variant.passes - 1)
    return p


#: The moves of the lines read so far, by their packed records
#: (solver_line_pack): a line repeats few distinct moves (a card between two
#: places), and a Move is immutable, so one object serves every line.
_MOVES: dict[bytes, Move] = {}
_CARDS = tuple(Card.from_index(i) for i in range(52))


def _place(kind: int, index: int) -> str:
    """The solution format's name of a place of a ``solver_move``."""
    name = _PLACES[kind]
    if kind in _SUIT_PLACES:
        return f"{name}:{'CSHD'[index]}"
    return f"{name}:{index}" if kind in _NUMBERED_PLACES else name


def _record_move(record: bytes) -> Move:
    """The Move of a packed record: action, card, src, src_index, dst,
    dst_index, ncards, then the cards."""
    action, card, src, src_index, dst, dst_index = record[:6]
    if action == lib.SOLVER_TURN or action == lib.SOLVER_DEAL:
        return Move("turn" if action == lib.SOLVER_TURN else "deal", cards=tuple(_CARDS[c] for c in record[7:]))
    if action == lib.SOLVER_REDEAL:
        return Move.redeal()
    if action == lib.SOLVER_JEWEL_FILL:
        return Move.jewel(Card.from_index(card), _place(dst, dst_index))
    return Move.move(Card.from_index(card), _place(src, src_index), _place(dst, dst_index))


def unpack_line(packed: bytes) -> tuple[Move, ...]:
    """The moves of a line packed by solver_line_pack. Those of one card or
    none are made once (few, and met again in every line); turns and deals
    of several cards, which few lines share, each time."""
    moves = []
    known = _MOVES.get
    i, end = 0, len(packed)
    while i < end:
        n = packed[i + 6]
        j = i + 7 + n
        record = packed[i:j]
        move = known(record)
        if move is None:
            move = _record_move(record)
            if n <= 1:
                _MOVES[record] = move
        moves.append(move)
        i = j
    return tuple(moves)


def _rules_d2(variant: BaseVariant) -> CData:
    r = ffi.new("d2_rules *")
    if isinstance(variant, NapoleaoVariant):
        r.family = lib.D2_NAPOLEAO
        r.restricted_rounds = variant.restricted_rounds
        r.restricted_again = variant.restricted_again
        r.redeals = variant.redeals
        r.deal_from_last = variant.deal_from == "pile-12"
        r.deal_when_stuck = variant.deal_when == "nothing-fits"
    elif isinstance(variant, JewelVariant):
        r.family = lib.D2_JEWEL
        r.reserves = variant.reserves
        r.runs_move = variant.runs_move
        r.empty_pile = {"none": lib.D2_EMPTY_NONE, "any": lib.D2_EMPTY_ANY, "king": lib.D2_EMPTY_KING}[
            variant.empty_pile
        ]
        r.empty_lid = {"none": lib.D2_EMPTY_NONE, "any": lib.D2_EMPTY_ANY}[variant.empty_lid]
        r.reserve_when_stuck = variant.reserve_takes == "unplaceable"
    else:
        raise CoreError(f"the two-deck core has no family {variant.family!r}")
    return r


def _fill(array: CData, cards: Iterable[Card], what: str, size: int = 104) -> int:
    indexes = _pile(cards, what, size)
    array[0 : len(indexes)] = indexes
    return len(indexes)


def _position_d2(pos: NapoleaoPosition | JewelPosition) -> CData:
    """The C struct of a NapoleaoPosition or JewelPosition."""
    from .rules.napoleao import NapoleaoPosition

    p = ffi.new("d2_position *")
    p.turned = lib.D2_NO_CARD
    p.nstock = _fill(p.stock, pos.stock, "the stock")
    if isinstance(pos, NapoleaoPosition):
        for i, pile in enumerate(_places(pos.piles, 12, "the piles of the ring")):
            p.npiles[i] = _fill(p.piles[i], pile, f"pile {i + 1}")
        kbases = _places(pos.kbases, 4, "the King bases (a count per suit)")
        abases = _places(pos.abases, 4, "the Ace bases (a count per suit)")
        p.kbases[0:4] = [_count(n, f"King base {s}", 13) for s, n in zip("CSHD", kbases)]
        p.abases[0:4] = [_count(n, f"Ace base {s}", 13) for s, n in zip("CSHD", abases)]
        p.redeals = _count(pos.redeals, "the redeals made", pos.variant.redeals)
        p.rounds = _count(pos.rounds, "the rounds dealt", 104)
        return p
    p.turned = _slot(pos.turned, "the turned card", lib.D2_NO_CARD)
    lid = _places(pos.lid, 5, "the lid (a card or None a place)")
    p.lid[0:5] = [_slot(c, f"lid place {i}", lib.D2_NO_CARD) for i, c in enumerate(lid, 1)]
    for i, pile in enumerate(_places(pos.sides, 4, "the side piles") + _places(pos.bottoms, 4, "the bottom piles")):
        p.ntableau[i] = _fill(p.tableau[i], pile, f"pile {i + 1}")
    p.njewels = _fill(p.jewels, pos.jewels, "the jewels", 13)
    reserves = _places(pos.reserves, pos.variant.reserves, f"the reserves of {pos.variant.name}")
    for i, res in enumerate(reserves):
        p.nreserves[i] = _fill(p.reserves[i], res, f"reserve {i + 1}")
    foundations = _places(pos.foundations, 4, "the foundations (a pair of counts per suit)")
    for i, (suit, pair) in enumerate(zip("CSHD", foundations)):
        pair = _places(pair, 2, f"the foundations of {suit} (two counts)")
        p.foundations[i][0:2] = [_count(n, f"a foundation of {suit}", 13) for n in pair]
    return p


def _family_calls(pos: AnyPosition) -> tuple[Callable[..., Any], Callable[[Any], CData], Callable[..., Any]]:
    """The constructor of the position's family, given its rules struct; the
    maker of its position struct; and its reset."""
    if isinstance(pos, TombPosition):
        return functools.partial(lib.solver_new_tomb, _rules(pos.variant)), _position, lib.solver_reset_tomb
    return functools.partial(lib.solver_new_deck2, _rules_d2(pos.variant)), _position_d2, lib.solver_reset_deck2


# The threads searches run in. A thread is kept for the next search once its
# search is done (starting one for each search cost a batch of classic deals
# 6% of its rate: 308-310 against 324-336 deals/s on deals 1-10,000); there
# are as many as searches ever ran at once.
# They are daemon threads, so a search still running never holds the
# interpreter at exit, and a child process forgets its parent's (they do not
# exist in it).
#: A search thread's queue: the work to run and the event to set after it.
_Jobs = queue.SimpleQueue[tuple[Callable[[], object], threading.Event]]
_IDLE: list[_Jobs] = []
_IDLE_LOCK = threading.Lock()


def _forget_threads() -> None:
    global _IDLE, _IDLE_LOCK
    _IDLE, _IDLE_LOCK = [], threading.Lock()


os.register_at_fork(after_in_child=_forget_threads)


def _search_thread(jobs: _Jobs) -> None:
    while True:
        work, done = jobs.get()
        try:
            work()
        except BaseException:     # reported as a thread of its own would; the caller sees no status
            traceback.print_exc()
        finally:
            with _IDLE_LOCK:      # idle before the caller sees done
                _IDLE.append(jobs)
            done.set()


def _run_in_thread(work: Callable[[], object], done: threading.Event) -> None:
    """Runs work() in an idle search thread, or a new one; sets done after."""
    with _IDLE_LOCK:
        jobs = _IDLE.pop() if _IDLE else None
    if jobs is None:
        jobs = queue.SimpleQueue()
        threading.Thread(target=_search_thread, args=(jobs,), daemon=True, name="solver-search").start()
    jobs.put((work, done))


#: The bytes of the buffer a search writes a batch's texts into: most lines fit.
TEXT_BYTES = 16384


class Search:
    """One search handle: create, set limits, run (resumable), read the line;
    :meth:`reset` gives it the next deal of a batch in the memory of the last."""

    def __init__(self, pos: AnyPosition, flags: int) -> None:
        err = ffi.new("char[]", 256)
        new, self._struct, self._reset = _family_calls(pos)
        handle = new(self._struct(pos), flags, err, 256)
        if handle == ffi.NULL:
            raise CoreError(ffi.string(err).decode())
        self._handle = ffi.gc(handle, lib.solver_free)
        self.max_score = pos.variant.cards
        self._family = type(pos)
        #: What a search kept for the next deal is kept by (search_for).
        self.kept_as = _kept_as(type(pos), pos.variant, flags)
        #: The limits last set (none: 0).
        self._limits: tuple[int, float, int] = (0, 0.0, 0)
        #: What the core writes a batch's texts and stats into (texts), made once.
        self._text = ffi.new("char[]", TEXT_BYTES)
        self._stats = ffi.new("solver_stats *")

    def reset(self, pos: AnyPosition) -> None:
        """The search of ``pos`` from its start, as a new Search of the same
        rules and shortcuts would be (the limits are kept)."""
        if type(pos) is not self._family:
            raise CoreError(f"a search of a {self._family.__name__} cannot take a {type(pos).__name__}")
        err = ffi.new("char[]", 256)
        if self._reset(self._handle, self._struct(pos), err, 256) < 0:
            raise CoreError(ffi.string(err).decode())
        self.max_score = pos.variant.cards

    def reset_deal(self, indexes: bytes) -> None:
        """:meth:`reset` to the start of the Tomb deal of these cards'
        indexes (deals.card_indexes), without making its position: what a
        batch does for each deal."""
        if self._family is not TombPosition or len(indexes) > 52:
            raise CoreError(f"a search of a {self._family.__name__} cannot take a Tomb deal of {len(indexes)} cards")
        err = ffi.new("char[]", 256)
        if self._reset(self._handle, _deal_position(indexes), err, 256) < 0:
            raise CoreError(ffi.string(err).decode())

    def set_limits(self, positions: int | None, seconds: float | None, memory: int | None) -> None:
        limits = (positions or 0, seconds or 0.0, memory or 0)
        if limits != self._limits:      # a reset keeps them: a batch sets them once
            lib.solver_set_limits(self._handle, *limits)
            self._limits = limits

    def run(self) -> int:
        """Runs the search in a worker thread; Ctrl-C stops it (status interrupted).

        The wait is on an Event the worker sets when the C call returns, not on
        Thread.join, which a KeyboardInterrupt can leave believing the thread
        ended while the C search still runs."""
        box: list[int] = []
        done = threading.Event()
        _run_in_thread(lambda: box.append(lib.solver_run(self._handle)), done)
        while not done.is_set():
            try:
                done.wait(0.05)
            except KeyboardInterrupt:
                self.stop()
        return box[0] if box else lib.SOLVER_ERROR

    def run_here(self) -> int:
        """Runs the search in the calling thread, which a signal does not
        interrupt: for a caller that stops it otherwise (:meth:`stop` from
        another thread), such as a batch's worker."""
        return int(lib.solver_run(self._handle))

    def stop(self) -> None:
        """Asks a running search to stop soon (safe from any thread or signal handler)."""
        lib.solver_stop(self._handle)

    def _line(self, make: Callable[[CData, int, CData, int], int], which: int, cdecl: str, size: int) -> bytes:
        """What ``make`` (solver_line_pack, solver_line_text) writes of line
        ``which``, in a buffer made as large as it asks."""
        while True:
            out = ffi.new(cdecl, size)
            n = make(self._handle, which, out, size)
            if n < 0:
                raise MemoryError("the C core could not make the line")
            if n < size:
                return bytes(ffi.buffer(out, n))
            size = n + 1

    def packed_line(self, which: int) -> bytes:
        """Line 0 (the win) or 1 (to the best score) as solver_line_pack
        packs it, in one call to the core."""
        return self._line(lib.solver_line_pack, which, "uint8_t[]", 8192)

    def line_text(self, which: int) -> str:
        """Line 0 or 1 as the JSON texts of its moves (:meth:`Move.text`),
        joined by ", ", written by the core: what a batch stores."""
        return self._line(lib.solver_line_text, which, "char[]", 16384).decode("ascii")

    def texts(self, status: int) -> TextOutcome:
        """What the run that ended with ``status`` found, with its line and
        its stats as texts (:meth:`line_text`, solver_stats_text), for a
        batch's row: no move, stats or result object is made."""
        if status not in STATUS:
            raise CoreError(f"the search core failed (status {status}): an internal error, please report it")
        verdict, reason = STATUS[status]
        stats, buf = self._stats, self._text
        lib.solver_get_stats(self._handle, stats)
        n = lib.solver_stats_text(stats, buf, TEXT_BYTES)           # a few hundred bytes
        stats_text = str(ffi.buffer(buf, n), "ascii") if 0 <= n < TEXT_BYTES else None
        won = verdict == "won"
        which = 0 if won else 1
        n = lib.solver_line_text(self._handle, which, buf, TEXT_BYTES)
        line = str(ffi.buffer(buf, n), "ascii") if 0 <= n < TEXT_BYTES else self.line_text(which)
        return TextOutcome(verdict, reason, self.max_score if won else stats.best_score, stats.positions,
                           stats.seconds, stats.table_bytes, stats.held_bytes, line, stats_text)

    def outcome(self, status: int, text: bool = False) -> CoreOutcome:
        """What the run that ended with ``status`` found; ``text``: its line
        as :meth:`line_text` writes it, in ``text``, instead of its moves."""
        if status not in STATUS:
            raise CoreError(f"the search core failed (status {status}): an internal error, please report it")
        verdict, reason = STATUS[status]
        stats = ffi.new("solver_stats *")
        lib.solver_get_stats(self._handle, stats)
        which = 0 if verdict == "won" else 1
        return CoreOutcome(
            verdict=verdict,
            reason=reason,
            score=self.max_score if verdict == "won" else stats.best_score,
            moves=() if text else unpack_line(self.packed_line(which)),
            text=self.line_text(which) if text else "",
            positions=stats.positions,
            seconds=stats.seconds,
            table_bytes=stats.table_bytes,
            peak_bytes=stats.peak_bytes,
            held_bytes=stats.held_bytes,
            held=memory_parts(stats),
            refused_bytes=stats.refused_bytes,
        )


class Cancel:
    """A way to stop searches from another thread, or from a signal handler.

    Give it to :func:`solver.solve` (and :func:`solver.hint`,
    :meth:`solver.Game.hint`, :func:`solver.verdicts.verdict`); :meth:`cancel`
    stops every search running under it, which then answers ``unknown`` with
    the reason ``interrupted``, and every search started under it later
    stops at its first look at the flag (a search looks every 1,024 steps:
    one decided before its first look answers with its proof). A token is
    for one piece of work: once cancelled it stays so.

    >>> token = Cancel()
    >>> token.cancel()
    >>> from solver import solve
    >>> solve(1, "napoleons-tomb", cancel=token).reason
    'interrupted'
    """

    def __init__(self) -> None:
        # Re-entrant: a signal handler may call cancel() in the thread that
        # holds the lock in run().
        self._lock = threading.RLock()
        self._running: list[Search] = []
        self._cancelled = False

    @property
    def cancelled(self) -> bool:
        return self._cancelled

    def cancel(self) -> None:
        """Stop the searches running under this token, and every later one."""
        with self._lock:
            self._cancelled = True
            for search in self._running:
                search.stop()

    def run(self, search: Search, here: bool = False) -> int:
        """``search.run()`` (``search.run_here()`` with ``here``) under this
        token. A stop that comes after the run returned is left in the
        handle, and cleared by its next reset (which every reuse makes)."""
        with self._lock:
            if self._cancelled:
                search.stop()
            self._running.append(search)
        try:
            return search.run_here() if here else search.run()
        finally:
            with self._lock:
                self._running.remove(search)


# Each thread keeps the search of its last deal for its next, of the same
# variant and shortcuts (Search.reset): a new search makes its first table
# (2 MiB for the 3-card deal), which took 0.3 ms of a solve() whose search
# took 0.02 ms. One search a thread, and only one that holds at most
# KEEP_BYTES after its deal (what it holds stays held until the next), so
# that idle threads (a web server's pool) keep little: 8 MiB takes the
# 3-card deal's, most classic wins' and the two-deck games' short searches.
_kept = threading.local()
KEEP_BYTES = 8 * 2**20


def _kept_as(family: type, variant: BaseVariant, flags: int) -> tuple[object, ...]:
    return (family, variant.name, variant.fingerprint, flags)


def search_for(pos: AnyPosition, flags: int) -> Search:
    """A search of ``pos``: the one this thread kept (:func:`keep`) if it is
    of the same variant and shortcuts, reset, or a new one."""
    search: Search | None = getattr(_kept, "search", None)
    _kept.search = None
    if search is None or search.kept_as != _kept_as(type(pos), pos.variant, flags):
        return Search(pos, flags)
    search.reset(pos)
    return search


def search_for_deal(number: int, indexes: bytes, variant: TombVariant, flags: int) -> Search:
    """:func:`search_for` the start of Tomb deal ``number``, whose cards'
    indexes are ``indexes`` (deals.card_indexes), without making its
    position when this thread kept a search of the variant and shortcuts."""
    search: Search | None = getattr(_kept, "search", None)
    _kept.search = None
    if search is None or search.kept_as != _kept_as(TombPosition, variant, flags):
        return Search(TombPosition.start(Deal.from_number(number, 1), variant), flags)
    search.reset_deal(indexes)
    return search


def keep(search: Search, held_bytes: int) -> None:
    """Keeps a search done with (its outcome read), which holds
    ``held_bytes``, for this thread's next deal."""
    _kept.search = search if held_bytes <= KEEP_BYTES else None
