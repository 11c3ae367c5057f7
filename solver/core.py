"""A thin wrapper over the C core's handle API (csrc/solver.h), through cffi.

The search runs in a worker thread (cffi releases the GIL during C calls), so
threads can solve different deals at once and Ctrl-C in the main thread stops
the search cleanly: :func:`run` then reports ``interrupted``.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from .cards import Card
from .game import Move, Position

try:
    from ._core import ffi, lib
except ImportError as exc:  # pragma: no cover - only without a build
    raise ImportError(
        "the C core (solver._core) is not built: run `make build` or `pip install -e .`"
    ) from exc

#: Shortcut names (docs/search.md) and their C flags.
SHORTCUTS = {
    "cell-home": lib.SOLVER_FORCE_CELL_HOME,
    "reserve-home": lib.SOLVER_FORCE_RESERVE_HOME,
    "suit-symmetry": lib.SOLVER_SUIT_SYMMETRY,
    "summaries": lib.SOLVER_SUMMARIES,
    "waste-home": lib.SOLVER_FORCE_WASTE_HOME,
    "sixes-reserve": lib.SOLVER_FORCE_SIXES_RESERVE,
}

STATUS = {
    lib.SOLVER_WON: ("won", None),
    lib.SOLVER_LOST: ("lost", None),
    lib.SOLVER_LIMIT_POSITIONS: ("unknown", "positions"),
    lib.SOLVER_LIMIT_SECONDS: ("unknown", "seconds"),
    lib.SOLVER_LIMIT_MEMORY: ("unknown", "memory"),
    lib.SOLVER_INTERRUPTED: ("unknown", "interrupted"),
}

_PLACES = {
    lib.SOLVER_PLACE_STOCK: "stock",
    lib.SOLVER_PLACE_WASTE: "waste",
    lib.SOLVER_PLACE_CELL: "cell",
    lib.SOLVER_PLACE_RESERVE: "reserve",
    lib.SOLVER_PLACE_CORNER: "corner",
    lib.SOLVER_PLACE_TOMB: "tomb",
}


class CoreError(ValueError):
    """The C core refused the rules or the position."""


@dataclass(frozen=True)
class CoreOutcome:
    verdict: str
    reason: str | None
    score: int
    moves: tuple[Move, ...]
    positions: int
    seconds: float
    table_bytes: int
    peak_bytes: int


def flags_for(shortcuts) -> int:
    """C flags for ``True`` (all shortcuts), ``False`` (none) or a collection of names."""
    if shortcuts is True:
        return lib.SOLVER_ALL_SHORTCUTS
    if shortcuts is False or shortcuts is None:
        return 0
    flags = 0
    for name in shortcuts:
        if name not in SHORTCUTS:
            raise ValueError(f"unknown shortcut {name!r}; shortcuts are {', '.join(SHORTCUTS)}")
        flags |= SHORTCUTS[name]
    return flags


def _rules(variant):
    r = ffi.new("solver_rules *")
    r.turn = variant.turn
    r.passes = variant.passes
    r.cells = variant.cells
    r.cell_from_cell = "cell" in variant.cell_sources
    r.cell_to_foundation = "foundation" in variant.cell_targets
    r.cell_to_reserve = "reserve" in variant.cell_targets
    r.cell_to_waste = "waste" in variant.cell_targets
    r.sixes_reserve = variant.sixes_reserve
    return r


def _position(pos: Position):
    p = ffi.new("solver_position *")
    for name in ("stock", "waste"):
        if len(getattr(pos, name)) > 52:
            raise CoreError(f"position: the {name} holds {len(getattr(pos, name))} cards; a deck has 52")
    p.nstock = len(pos.stock)
    p.stock[0 : len(pos.stock)] = [c.index for c in pos.stock]
    p.nwaste = len(pos.waste)
    p.waste[0 : len(pos.waste)] = [c.index for c in pos.waste]
    if len(pos.cells) > lib.SOLVER_MAX_CELLS:
        raise CoreError(f"{len(pos.cells)} cells; the core handles at most {lib.SOLVER_MAX_CELLS}")
    cells = [c.index if c is not None else lib.SOLVER_NO_CARD for c in pos.cells]
    cells += [lib.SOLVER_NO_CARD] * (lib.SOLVER_MAX_CELLS - len(cells))
    p.cells[0 : lib.SOLVER_MAX_CELLS] = cells
    if len(pos.reserve) > 4:
        raise CoreError(f"{len(pos.reserve)} cards in the sixes reserve; there are four 6s")
    p.nreserve = len(pos.reserve)
    p.reserve[0 : len(pos.reserve)] = [c.index for c in pos.reserve]
    for i, pile in enumerate(pos.corners):
        p.corners[i] = len(pile)
    p.tomb = len(pos.tomb)
    p.redeals = pos.redeals
    return p


def _move(m) -> Move:
    if m.action == lib.SOLVER_TURN:
        return Move.turn(Card.from_index(m.cards[i]) for i in range(m.ncards))
    if m.action == lib.SOLVER_REDEAL:
        return Move.redeal()
    return Move.move(Card.from_index(m.card), _PLACES[m.src], _PLACES[m.dst])


class Search:
    """One search handle: create, set limits, run (resumable), read the line."""

    def __init__(self, pos: Position, flags: int):
        err = ffi.new("char[]", 256)
        handle = lib.solver_new(_rules(pos.variant), _position(pos), flags, err, 256)
        if handle == ffi.NULL:
            raise CoreError(ffi.string(err).decode())
        self._handle = ffi.gc(handle, lib.solver_free)

    def set_limits(self, positions: int | None, seconds: float | None, memory: int | None) -> None:
        lib.solver_set_limits(self._handle, positions or 0, seconds or 0.0, memory or 0)

    def run(self) -> int:
        """Runs the search in a worker thread; Ctrl-C stops it (status interrupted).

        The wait is on an Event the worker sets when the C call returns, not on
        Thread.join, which a KeyboardInterrupt can leave believing the thread
        ended while the C search still runs."""
        box: list[int] = []
        done = threading.Event()

        def work() -> None:
            try:
                box.append(lib.solver_run(self._handle))
            finally:
                done.set()

        threading.Thread(target=work, daemon=True).start()
        while not done.is_set():
            try:
                done.wait(0.05)
            except KeyboardInterrupt:
                self.stop()
        return box[0] if box else lib.SOLVER_ERROR

    def stop(self) -> None:
        """Asks a running search to stop soon (safe from any thread or signal handler)."""
        lib.solver_stop(self._handle)

    def outcome(self, status: int) -> CoreOutcome:
        if status not in STATUS:
            raise CoreError(f"the search core failed (status {status}): an internal error, please report it")
        verdict, reason = STATUS[status]
        stats = ffi.new("solver_stats *")
        lib.solver_get_stats(self._handle, stats)
        which = 0 if verdict == "won" else 1
        out = ffi.new("solver_move *")
        moves = []
        for i in range(max(0, lib.solver_line_length(self._handle, which))):
            if lib.solver_line_move(self._handle, which, i, out) < 0:
                raise MemoryError("the C core could not rebuild the line")
            moves.append(_move(out))
        return CoreOutcome(
            verdict=verdict,
            reason=reason,
            score=52 if verdict == "won" else stats.best_score,
            moves=tuple(moves),
            positions=stats.positions,
            seconds=stats.seconds,
            table_bytes=stats.table_bytes,
            peak_bytes=stats.peak_bytes,
        )
