"""What runs in a worker process of a batch (of the local pool, or a Dask
worker): the stop signals and the worker's start (:func:`init_worker`), and
the solving of a chunk of deals into rows (:func:`solve_chunk`).

The pool and the cluster submit ``workers.solve_chunk``, looked up when they
submit, so that a test can put another chunk function in its place
(tests/dying_worker.py, tests/chaos_chunk.py)."""

from __future__ import annotations

import gc
import os
import signal
import threading
import time
from types import FrameType
from typing import Any

from .. import core, families
from ..api import Limit, deal_text, result_of, start_position, text_of
from ..variants import BaseVariant, load
from .parquet import pack_rows
from .rows import Row, limits_text, solved_at

STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}
#: Cancelled by Ctrl-C or SIGTERM in a worker: the deal being solved stops,
#: the worker hands back what is done and starts nothing new.
_stop = core.Cancel()
_watching = False  # a thread stops the search on a stop signal (_watch_signals)


def _fresh_stop() -> None:
    global _stop
    _stop = core.Cancel()


os.register_at_fork(after_in_child=_fresh_stop)


def _on_sigint(signum: int, frame: FrameType | None) -> None:
    # Stop the C search through the token rather than raise KeyboardInterrupt:
    # on Python < 3.13 a KeyboardInterrupt inside Thread.join() (where
    # solver.core waits for the search thread) can mark the thread finished while
    # the C search still runs.
    _stop.cancel()


def _watch_signals() -> None:
    """Stop the deal being solved as soon as a stop signal comes. A worker
    runs its searches in its main thread (Search.run_here), where Python's
    handlers wait until the C call returns; the wakeup fd is written at once,
    and a thread reading it stops the search."""
    global _watching
    read, write = os.pipe()
    os.set_blocking(write, False)
    signal.set_wakeup_fd(write, warn_on_full_buffer=False)

    def watch() -> None:
        while True:
            if any(sig in STOP_SIGNALS for sig in os.read(read, 64)):
                _stop.cancel()

    threading.Thread(target=watch, daemon=True, name="solver-signals").start()
    _watching = True


def _watch_parent(parent: int) -> None:
    # A worker whose batch died (SIGKILL, crash) has nobody to hand results to: quit.
    while True:
        time.sleep(0.5)
        if os.getppid() != parent:
            os._exit(1)


def init_worker(parent: int) -> None:
    """The start of a worker process of the local pool (``parent``: the batch's pid)."""
    # SIGTERM as Ctrl-C: `timeout`, systemd and `kill -- -PGID` signal the whole
    # process group, and the batch stops cleanly then too. The batch ends its
    # workers with SIGKILL (pool._terminate).
    for sig in STOP_SIGNALS:
        signal.signal(sig, _on_sigint)
    # The batch starts its workers with SIGINT and SIGTERM blocked (see pool._submit),
    # so that a signal during start-up waits for this handler instead of a
    # traceback or a death.
    _watch_signals()
    # What the imports made lives as long as the worker: out of the
    # collector's way (a deal's objects are few, and freed at once).
    gc.freeze()
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def _solve_deal(variant: BaseVariant, number: int, limit: Limit, flags: int) -> tuple[core.TextOutcome, str]:
    """Solve deal ``number`` as :func:`solver.solve` would, on the search this
    thread keeps for the variant (core.search_for): the numbers of its row,
    and its JSON text (``solve(number).dumps()``, but the seconds), written
    from the core's texts. A Tomb deal's start position is not made: the
    core takes its cards' indexes (core.search_for_deal), where the family's
    core can (its record's ``deal_struct``). ``flags``: the shortcuts,
    all of them (core.flags_for(True, ...))."""
    by_indexes = families.of(variant).deal_struct is not None
    if by_indexes:
        indexes = core.card_indexes(number)
        search = core.search_for_deal(number, indexes, variant, flags)
    else:
        pos = start_position(number, variant)
        search = core.search_for(pos, flags)
    search.set_limits(limit.positions, limit.seconds, limit.memory)
    in_main = threading.current_thread() is threading.main_thread()
    status = _stop.run(search, here=_watching or not in_main)
    out = search.texts(status)
    text = deal_text(variant, number, indexes, out) if by_indexes else text_of(pos, out)
    if text is None:  # seconds the core does not write as Python does
        full = search.outcome(status, text=True)
        text = result_of(start_position(number, variant), full).text_with(full.text)
    core.keep(search, out.held_bytes)
    return out, text


def solve_chunk(
    variant: str | BaseVariant, deals: list[int], limit: Limit, pack: str | None = None
) -> tuple[Any, float]:
    """Solve ``deals``; the rows for the database and the wall time. Stops early
    (handing back the deals done) on Ctrl-C; an interrupted search is not a row.
    ``pack="parquet"``: the rows as a Parquet file's bytes instead
    (:func:`solver.batch.parquet.pack_rows`), encoded where they were solved."""
    start = time.perf_counter()
    v = load(variant)
    limits = limits_text(limit)
    flags = core.flags_for(True, v.family)
    rows: list[Row] = []
    for n in deals:
        if _stop.cancelled:
            break
        r, text = _solve_deal(v, n, limit, flags)
        if r.reason == "interrupted":
            break
        rows.append(
            (v.name, n, r.verdict, r.reason, r.score, r.positions, r.seconds, r.table_bytes, text, limits, solved_at())
        )
    if pack == "parquet":
        return pack_rows(rows, v.fingerprint), time.perf_counter() - start
    return rows, time.perf_counter() - start
