"""The batch on a pool of local processes (:func:`run_pool`): how the
workers start (:func:`start_method`), the chunks submitted with the stop
signals blocked, two chunks a process in flight, each stored as it comes
back; a stop signal, a dead worker and a broken pool handled."""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ..api import Limit
from ..variants import BaseVariant
from . import workers
from .feed import Feed
from .progress import Progress
from .rows import BatchError

_WORKER_DIED = (
    "a worker process died (killed, out of memory, or a crash in the C core); "
    "the deals done so far are stored: rerun to resume"
)

#: A chunk's future: its rows (as the store packs them) and its wall time.
_Chunk = Future[tuple[Any, float]]


def start_method() -> str:
    """How the batch starts its workers: ``fork`` on Linux when the batch's
    process runs one thread, so that a worker starts with the imports made
    (a spawned one imports the package again, 0.07 to 0.13 s of CPU: the
    searches of 200 to 400 3-card deals); ``spawn`` otherwise, since a fork
    copies the calling thread alone, and a lock another thread held would
    stay locked in the worker."""
    if sys.platform == "linux" and threading.active_count() == 1:
        return "fork"
    return "spawn"


def _workers(executor: ProcessPoolExecutor) -> list[multiprocessing.Process]:
    """The pool's worker processes (a private attribute; none once it is shut down)."""
    return list((getattr(executor, "_processes", None) or {}).values())


def _terminate(executor: ProcessPoolExecutor) -> None:
    # SIGKILL: a worker answers SIGTERM by stopping its search and handing back
    # its chunk, and that could wait forever on the result pipe's lock when a
    # dead worker holds it.
    kill = getattr(executor, "kill_workers", None)  # Python 3.14
    if kill is not None:
        kill()
        return
    for p in _workers(executor):
        if p.is_alive():
            p.kill()


def _worker_died(executor: ProcessPoolExecutor) -> bool:
    """Whether a worker process has ended while the batch still needs it.

    The pool notices a dead worker by itself, except when the worker died while
    writing its result (a chunk's rows, lines included, are megabytes): the
    pool's thread has read the start of the message and waits for the rest,
    forever (CPython 3.11). So the batch looks at the processes itself."""
    try:
        return any(p.exitcode is not None for p in _workers(executor))
    except RuntimeError:  # the pool's thread changed the dict meanwhile: ask again next time
        return False


def _release_results(executor: ProcessPoolExecutor) -> None:
    """Close this process's end for writing of the pool's result pipe. Once the
    workers are ended too, a pool thread stuck reading a result cut short (see
    _worker_died) gets end-of-file, takes the pool as broken and ends, so that
    shutdown returns instead of waiting forever. Taking the pool as broken, that
    thread fails every future not finished; it must not find one cancelled by
    another thread (InvalidStateError, 3.11), so the batch never cancels futures
    itself: shutdown(cancel_futures=True) has that thread cancel them."""
    results = getattr(executor, "_result_queue", None)
    writer = getattr(results, "_writer", None)
    if writer is not None:
        writer.close()


def _signal_workers(executor: ProcessPoolExecutor, signum: int) -> None:
    for p in _workers(executor):
        try:
            if p.is_alive() and p.pid:
                os.kill(p.pid, signum)
        except (OSError, ValueError):
            pass


def _submit(
    executor: ProcessPoolExecutor, variant: BaseVariant, deals: list[int], limit: Limit, pack: str | None
) -> _Chunk:
    # submit() may start a worker process, which inherits the signal mask:
    # SIGINT and SIGTERM stay blocked in it until its handlers are in place (workers.init_worker).
    old = signal.pthread_sigmask(signal.SIG_BLOCK, workers.STOP_SIGNALS)
    try:
        if pack is None:
            return executor.submit(workers.solve_chunk, variant, deals, limit)
        return executor.submit(workers.solve_chunk, variant, deals, limit, pack)
    except BrokenProcessPool:  # a worker died before its future was read
        raise BatchError(_WORKER_DIED) from None
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def run_pool(
    feed: Feed, variant: BaseVariant, limit: Limit, jobs: int, bar: Progress, stop: dict[str, int | None]
) -> None:
    """The batch on a pool of ``jobs`` local processes, until the feed runs
    dry or ``stop["signal"]`` is set."""
    executor = ProcessPoolExecutor(
        jobs,
        mp_context=multiprocessing.get_context(start_method()),
        initializer=workers.init_worker,
        initargs=(os.getpid(),),
    )
    clean = False
    try:
        pending = _solve_all(executor, feed, variant, limit, jobs, bar, stop)
        if stop["signal"] is not None:
            _stop_workers(executor, feed, pending)
        else:
            clean = True
    finally:
        if not clean:
            _terminate(executor)
            _release_results(executor)
        executor.shutdown(wait=True, cancel_futures=True)


def _solve_all(
    executor: ProcessPoolExecutor,
    feed: Feed,
    variant: BaseVariant,
    limit: Limit,
    jobs: int,
    bar: Progress,
    stop: dict[str, int | None],
) -> set[_Chunk]:
    """Two chunks a process in flight, each stored as it comes back, until
    the feed runs dry or a stop signal comes: the chunks still pending then."""
    summary = feed.summary
    pending: set[_Chunk] = set()
    exhausted = False
    while True:
        while stop["signal"] is None and not exhausted and len(pending) < 2 * jobs:
            deals = feed.take()
            if not deals:
                exhausted = True
                break
            pending.add(_submit(executor, variant, deals, limit, feed.store.pack))
        if not pending or stop["signal"] is not None:
            return pending
        done, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
        _store_all(executor, feed, done)
        c = summary.counts
        bar.update(summary.solved, c["won"], c["lost"], c["unknown"])


def _store(feed: Feed, future: _Chunk) -> None:
    try:
        packed, wall = future.result()
    except BrokenProcessPool:
        raise BatchError(_WORKER_DIED) from None
    feed.record(packed, wall)


def _store_all(executor: ProcessPoolExecutor, feed: Feed, done: set[_Chunk]) -> None:
    """Store the chunks ``done``; a dead worker (or pool) raised after them."""
    broken = None
    for future in done:
        try:
            _store(feed, future)
        except BatchError as exc:  # store the others first
            broken = exc
    if broken is None and _worker_died(executor):
        broken = BatchError(_WORKER_DIED)
    if broken is not None:
        raise broken


def _stop_workers(executor: ProcessPoolExecutor, feed: Feed, pending: set[_Chunk]) -> None:
    # Stop: the searches running stop (SIGINT) and hand back the deals their
    # chunk finished; a chunk started after that hands back none at once (the
    # workers' _stop); whatever is left after a moment is lost. The futures
    # are not cancelled here: see _release_results.
    _signal_workers(executor, signal.SIGINT)
    done, _ = wait(pending, timeout=3.0)
    for future in done:
        try:
            _store(feed, future)
        except BatchError:
            pass
