"""A batch run (:func:`run_batch`): the store opened, the engine chosen
(the local pool of pool.py, or a Dask cluster of cluster.py), the stop
signals caught, the progress shown, and the :class:`Summary` of the run."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from types import FrameType
from typing import Any, TextIO

from ..api import Limit
from ..variants import BaseVariant, load
from . import cluster
from .feed import Feed
from .pool import run_pool
from .progress import Progress, Summary
from .ranges import Ranges, format_ranges
from .rows import BatchError, StrPath
from .store import open_store
from .workers import STOP_SIGNALS

#: What a stop signal sets: ``{"signal": None}`` until one comes, then its number.
Stop = dict[str, int | None]


def run_batch(
    db: StrPath | None,
    variant: str | BaseVariant,
    ranges: Ranges,
    limit: Limit,
    jobs: int | None = None,
    retry_unknown: bool = False,
    progress: TextIO | None = sys.stderr,
    progress_every: float | None = None,
    *,
    out: StrPath | None = None,
    scheduler: str | None = None,
    workers: int | None = None,
    connect_timeout: float = 10.0,
) -> Summary:
    """Solve the deals of ``ranges`` missing from ``db`` in ``jobs`` processes.

    ``out``: a directory of Parquet files instead of the database ``db``.
    ``scheduler``: the address of a Dask scheduler, or ``"local"`` for a
    LocalCluster of ``workers`` processes, instead of local processes
    (solver/batch/cluster.py).

    ``variant``: a shipped variant's name, or a variant object (of
    :func:`solver.variants.load_file`); the store must hold no deal of its
    name solved under other rules (:func:`~solver.batch.database.check_rules`).

    Ctrl-C (SIGINT) or SIGTERM stops the run cleanly: the workers stop their
    searches and are ended, every finished deal is committed, and the summary
    says which signal stopped it (``stopped_by``)."""
    jobs = _jobs(jobs, scheduler, workers)
    rules = load(variant)
    store = open_store(db, out, rules)
    summary = Summary(rules.name, ranges, store.where, jobs, sum(b - a + 1 for a, b in ranges), engine=f"{jobs} jobs")
    session = None
    try:
        if scheduler is not None:
            session = cluster.start(scheduler, workers, connect_timeout, rules)
            summary.engine = session.engine
        summary.skipped = store.count_done(rules.name, ranges, retry_unknown)
        summary.todo = summary.total - summary.skipped
        _announce(progress, rules, summary)
        bar = Progress(progress, summary.todo, progress_every)
        chunks = (0.25, 500) if session is None else (cluster.CHUNK_SECONDS, cluster.CHUNK_MOST)
        feed = Feed(store, store.to_solve(rules.name, ranges, retry_unknown), summary, *chunks)
        _solve(feed, session, rules, limit, jobs, bar)
        return summary
    finally:
        if session is not None:
            session.close()
        store.close()


def _announce(progress: TextIO | None, rules: BaseVariant, summary: Summary) -> None:
    """The run's first line: what it solves, what it skips, on what."""
    if progress is not None:
        progress.write(
            f"batch: {rules.name} (rules {rules.fingerprint}), deals {format_ranges(summary.ranges)}: "
            f"{summary.todo:,} to solve, "
            f"{summary.skipped:,} already in {summary.db}; {summary.engine}\n"
        )
        progress.flush()


def _jobs(jobs: int | None, scheduler: str | None, workers: int | None) -> int:
    """The number of local processes, once --jobs, --scheduler and --workers agree."""
    if scheduler is None and workers is not None:
        raise BatchError("--workers is the size of a LocalCluster: give it with --scheduler local")
    if scheduler is not None and jobs is not None:
        raise BatchError(
            "--jobs is for local processes; on a Dask cluster its workers decide "
            "(with --scheduler local, give --workers)"
        )
    return jobs or os.cpu_count() or 1


def _solve(
    feed: Feed, session: cluster.Session | None, rules: BaseVariant, limit: Limit, jobs: int, bar: Progress
) -> None:
    """Solve what ``feed`` holds on the pool (or the cluster of ``session``),
    with the stop signals caught for the time: the one that stopped it goes
    in the summary."""
    summary = feed.summary
    stop: Stop = {"signal": None}
    handlers = _catch_stop_signals(stop)
    start = time.monotonic()
    try:
        if session is None:
            run_pool(feed, rules, limit, jobs, bar, stop)
        else:
            session.run(feed, rules, limit, bar, stop)
    finally:
        summary.seconds = time.monotonic() - start
        for sig, old in handlers.items():
            signal.signal(sig, old)
        c = summary.counts
        bar.close(summary.solved, c["won"], c["lost"], c["unknown"])
    summary.stopped_by = stop["signal"]


def _catch_stop_signals(stop: Stop) -> dict[signal.Signals, Callable[[int, FrameType | None], Any] | int | None]:
    """SIGINT and SIGTERM set ``stop["signal"]`` (in the main thread only:
    Python takes signals there); the handlers they had, to put back."""

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop["signal"] = signum

    handlers: dict[signal.Signals, Callable[[int, FrameType | None], Any] | int | None] = {}
    if threading.current_thread() is threading.main_thread():
        for sig in STOP_SIGNALS:
            handlers[sig] = signal.signal(sig, on_signal)
    return handlers
