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
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from . import families
from .cards import Card
from .deals import MAX_NUMBER, MIN_NUMBER, Deal
from .deals import card_indexes as deals_card_indexes
from .errors import CoreError as CoreError
from .families.base import BaseVariant
from .families.play import place_name
from .inputs import brief
from .notation import Move
from .vocabulary import Reason, Verdict

if TYPE_CHECKING:
    from ._core import CData
    from .families import AnyPosition

from ._core import ffi, lib

#: The Tomb's shortcuts (each family's record holds its own).
SHORTCUTS = families.TOMB.shortcuts

STATUS: dict[int, tuple[Verdict, Reason | None]] = {
    lib.SOLVER_WON: ("won", None),
    lib.SOLVER_LOST: ("lost", None),
    lib.SOLVER_LIMIT_POSITIONS: ("unknown", "positions"),
    lib.SOLVER_LIMIT_SECONDS: ("unknown", "seconds"),
    lib.SOLVER_LIMIT_MEMORY: ("unknown", "memory"),
    lib.SOLVER_INTERRUPTED: ("unknown", "interrupted"),
}

#: The parts of the memory a search holds (csrc/solver.h, SOLVER_MEM_*), by index.
MEMORY_PARTS = tuple(ffi.string(lib.solver_memory_part(i)).decode() for i in range(lib.SOLVER_MEM_PARTS))


def memory_parts(stats: CData) -> tuple[tuple[str, int], ...]:
    """The parts a search holds (of a ``solver_stats``), largest first, none empty."""
    parts = [(name, int(stats.part_bytes[i])) for i, name in enumerate(MEMORY_PARTS)]
    return tuple(sorted(((n, b) for n, b in parts if b), key=lambda p: -p[1]))


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


def shortcuts_of(family: str = "tomb") -> Mapping[str, int]:
    """The shortcut names of a game family and their C flags."""
    if family not in families.FAMILIES:
        raise CoreError(f"the core has no family {family!r}")
    return families.FAMILIES[family].shortcuts


def flags_for(shortcuts: bool | Iterable[str] | None, family: str = "tomb") -> int:
    """C flags for ``True`` (all shortcuts), ``False`` (none) or a collection of names.
    All are the family's C flag of them all (SOLVER_ALL_SHORTCUTS, DECK2_ALL_SHORTCUTS:
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


_DEAL_OUT = threading.local()


def card_indexes(number: int, decks: int = 1) -> bytes:
    """:func:`solver.deals.card_indexes`: the same bytes, shuffled in the
    core (solver_deal, by either generator), with deals.py's errors."""
    if type(number) is not int or not MIN_NUMBER <= number <= MAX_NUMBER or decks not in (1, 2):
        return deals_card_indexes(number, decks)
    out = getattr(_DEAL_OUT, "buf", None)
    if out is None:
        out = _DEAL_OUT.buf = ffi.new("uint8_t[]", 104)
    n = lib.solver_deal(str(number).encode(), decks, out)
    return bytes(ffi.buffer(out, n))


#: The moves of the lines read so far, by their packed records
#: (solver_line_pack): a line repeats few distinct moves (a card between two
#: places), and a Move is immutable, so one object serves every line.
_MOVES: dict[bytes, Move] = {}
_CARDS = tuple(Card.from_index(i) for i in range(52))


def _record_move(record: bytes) -> Move:
    """The Move of a packed record: action, card, src, src_index, dst,
    dst_index, ncards, then the cards."""
    action, card, src, src_index, dst, dst_index = record[:6]
    if action == lib.SOLVER_TURN or action == lib.SOLVER_DEAL:
        return Move("turn" if action == lib.SOLVER_TURN else "deal", cards=tuple(_CARDS[c] for c in record[7:]))
    if action == lib.SOLVER_REDEAL:
        return Move.redeal()
    if action == lib.SOLVER_JEWEL_FILL:
        return Move.jewel(Card.from_index(card), place_name(dst, dst_index, engine=True))
    return Move.move(
        Card.from_index(card), place_name(src, src_index, engine=True), place_name(dst, dst_index, engine=True)
    )


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
        except BaseException:  # reported as a thread of its own would; the caller sees no status
            traceback.print_exc()
        finally:
            with _IDLE_LOCK:  # idle before the caller sees done
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
        family = families.of_position(pos)
        if family is None:
            raise CoreError(f"{brief(pos)} is not a position of any game family")
        err = ffi.new("char[]", 256)
        self._struct = family.position_struct
        handle = lib.solver_new(
            family.core_number, family.rules_struct(pos.variant), self._struct(pos), flags, err, 256
        )
        if handle == ffi.NULL:
            raise CoreError(ffi.string(err).decode())
        self._handle = ffi.gc(handle, lib.solver_free)
        self.max_score = pos.variant.cards
        self._family = family
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
        if type(pos) is not self._family.position:
            raise CoreError(f"a search of a {self._family.position.__name__} cannot take a {type(pos).__name__}")
        err = ffi.new("char[]", 256)
        if lib.solver_reset(self._handle, self._family.core_number, self._struct(pos), err, 256) < 0:
            raise CoreError(ffi.string(err).decode())
        self.max_score = pos.variant.cards

    def reset_deal(self, indexes: bytes) -> None:
        """:meth:`reset` to the start of the Tomb deal of these cards'
        indexes (deals.card_indexes), without making its position: what a
        batch does for each deal."""
        deal_struct = self._family.deal_struct
        if deal_struct is None or len(indexes) > 52:
            raise CoreError(
                f"a search of a {self._family.position.__name__} cannot take a one-deck deal of {len(indexes)} cards"
            )
        err = ffi.new("char[]", 256)
        if lib.solver_reset(self._handle, self._family.core_number, deal_struct(indexes), err, 256) < 0:
            raise CoreError(ffi.string(err).decode())

    def set_limits(self, positions: int | None, seconds: float | None, memory: int | None) -> None:
        limits = (positions or 0, seconds or 0.0, memory or 0)
        if limits != self._limits:  # a reset keeps them: a batch sets them once
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
        n = lib.solver_stats_text(stats, buf, TEXT_BYTES)  # a few hundred bytes
        stats_text = str(ffi.buffer(buf, n), "ascii") if 0 <= n < TEXT_BYTES else None
        won = verdict == "won"
        which = 0 if won else 1
        n = lib.solver_line_text(self._handle, which, buf, TEXT_BYTES)
        line = str(ffi.buffer(buf, n), "ascii") if 0 <= n < TEXT_BYTES else self.line_text(which)
        return TextOutcome(
            verdict,
            reason,
            self.max_score if won else stats.best_score,
            stats.positions,
            stats.seconds,
            stats.table_bytes,
            stats.held_bytes,
            line,
            stats_text,
        )

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


def search_for_deal(number: int, indexes: bytes, variant: BaseVariant, flags: int) -> Search:
    """:func:`search_for` the start of Tomb deal ``number``, whose cards'
    indexes are ``indexes`` (deals.card_indexes), without making its
    position when this thread kept a search of the variant and shortcuts."""
    search: Search | None = getattr(_kept, "search", None)
    _kept.search = None
    position = families.of(variant).position
    if search is None or search.kept_as != _kept_as(position, variant, flags):
        return Search(position.start(Deal.from_number(number, 1), variant), flags)
    search.reset_deal(indexes)
    return search


def keep(search: Search, held_bytes: int) -> None:
    """Keeps a search done with (its outcome read), which holds
    ``held_bytes``, for this thread's next deal."""
    _kept.search = search if held_bytes <= KEEP_BYTES else None
