"""Batch runs on a Dask cluster: ``batch --scheduler tcp://HOST:8786`` (a
cluster started with ``dask scheduler`` and ``dask worker``) or ``--scheduler
local --workers N`` (a ``LocalCluster`` on this machine). docs/batch.md.

The client walks the deals as a local batch does (:class:`solver.batch.feed.Feed`)
and submits chunks of them as tasks, a few more than the cluster has threads,
so that the scheduler holds a short queue and never the whole range. Each
finished chunk comes back to the client, which alone writes the store; a chunk
whose worker died is run again by Dask. A chunk that killed
``distributed.scheduler.allowed-failures`` + 1 workers comes back as
``KilledWorker``: its deals go again one a task, and a deal that kills its
workers alone is stored as unknown with the reason ``crashed``.

Before the first chunk, every worker must run the same solver as the client:
:func:`identity` (the version, a digest of the package's files, and the
results of two small searches of the variant, which differ whenever the C
core searches differently) is compared; each task compares it again on the
worker that runs it, for workers that join later.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import logging
import os
import queue
import signal
import time
import uuid
from collections.abc import Callable, Hashable
from importlib.metadata import PackageNotFoundError, version
from multiprocessing import resource_tracker
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..api import Limit, solve
from ..errors import WrongVersion
from ..variants import BaseVariant
from . import workers as batch_workers
from .feed import Feed
from .progress import Progress
from .rows import BatchError, crashed_row

if TYPE_CHECKING:
    from distributed import Client, Future, LocalCluster

    #: A chunk's task on the cluster.
    _Future = Future[tuple[Any, float]]

#: The task of a chunk on a worker: (variant, deals, limit, pack) -> its rows packed and its wall time.
SolveChunk = Callable[[str | BaseVariant, list[int], Limit, str | None], tuple[Any, float]]

INSTALL = "pip install 'patience-solver[cluster]'"
#: Seconds of work a chunk is cut to: the overhead of a task (a few
#: milliseconds, docs/batch.md) stays under 1%, and a Ctrl-C or a dead worker
#: costs at most this much work per thread.
CHUNK_SECONDS = 5.0
CHUNK_MOST = 20_000
#: Chunks in flight per thread of the cluster: one running, one queued.
IN_FLIGHT = 2
_PROBE_DEALS = (1, 2)
_PROBE_LIMIT = Limit(positions=20_000, seconds=None)


def require_dask() -> None:
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise BatchError(
            f"--scheduler needs Dask distributed, which is not installed: {INSTALL} "
            "(or pip install 'dask[distributed]' pyarrow)"
        ) from None


# ---------------------------------------------------------------------------
# The same solver everywhere


@functools.cache
def _files_digest() -> str:
    """A digest of the package's Python and variant files, as installed here."""
    root = Path(__file__).resolve().parent.parent  # solver/, of solver/batch/cluster.py
    h = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if path.suffix in (".py", ".toml") and "__pycache__" not in path.parts:
            h.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


@functools.cache
def identity(variant: str | BaseVariant) -> dict[str, str]:
    """What must be equal on the client and every worker for their rows to be
    the same: the package's version, its files, and what its C core finds."""
    try:
        release = version("patience-solver")
    except PackageNotFoundError:
        release = "not installed"
    probe = hashlib.sha256()
    for n in _PROBE_DEALS:
        r = solve(n, variant, _PROBE_LIMIT)
        probe.update(
            json.dumps([r.verdict, r.reason, r.score, r.stats.positions, [m.to_json() for m in r.moves]]).encode()
        )
    return {"version": release, "files": _files_digest(), "core": probe.hexdigest()[:16]}


_WHAT = {"version": "the package version", "files": "the digest of its files", "core": "what its C core finds"}


def _differences(theirs: dict[str, str], ours: dict[str, str]) -> str:
    return "; ".join(f"{_WHAT[k]}: {theirs.get(k)} there, {ours[k]} here" for k in ours if theirs.get(k) != ours[k])


def run_chunk(
    expected: dict[str, str],
    solve_chunk: SolveChunk,
    variant: str | BaseVariant,
    deals: list[int],
    limit: Limit,
    pack: str | None,
) -> tuple[Any, float]:
    """The task of one chunk, on a worker: ``solve_chunk`` (solver.batch.workers.solve_chunk)
    once the worker is found to run the client's solver."""
    mine = identity(variant)
    if mine != expected:
        try:
            from distributed import get_worker

            where = f"the worker {get_worker().address}"
        except ValueError:
            where = "a worker"
        raise WrongVersion(
            f"{where} runs another version of patience-solver than this client "
            f"({_differences(mine, expected)}): install the same one on every worker"
        )
    return solve_chunk(variant, deals, limit, pack)


def _missing(exc: BaseException | None) -> bool:
    return (
        isinstance(exc, ImportError) and (getattr(exc, "name", None) or "").split(".")[0] == "solver"
    ) or "No module named 'solver'" in str(exc)


def _lacks(where: str) -> BatchError:
    return BatchError(
        f"{where} cannot import the solver package: install it on every worker ({INSTALL}, the same version as here)"
    )


def check_workers(client: Client, variant: str | BaseVariant) -> dict[str, str]:
    """The client's :func:`identity`, once every worker is found to share it."""
    ours = identity(variant)
    answers = client.run(identity, variant, on_error="return")
    for address, theirs in sorted(answers.items()):
        if isinstance(theirs, BaseException):
            if _missing(theirs):
                raise _lacks(f"the worker {address}")
            raise BatchError(f"the worker {address} cannot run the solver: {type(theirs).__name__}: {theirs}")
        if theirs != ours:
            raise BatchError(
                f"the worker {address} runs another version of patience-solver than this client "
                f"({_differences(theirs, ours)}): install the same one on every worker"
            )
    return ours


# ---------------------------------------------------------------------------
# Connecting


def connect(scheduler: str, workers: int | None, timeout: float) -> tuple[Client, LocalCluster | None]:
    """A Client of the scheduler at ``scheduler`` (or of a new LocalCluster),
    and the LocalCluster if one was started; errors name the address."""
    from distributed import Client, LocalCluster

    # The threads that Dask starts, and the worker processes they start, inherit
    # this mask: Ctrl-C in a terminal reaches the whole process group, and
    # must stop the batch (the client), not kill LocalCluster's workers mid-task.
    # multiprocessing's resource tracker, when it first starts, unblocks these
    # signals in the thread that starts it (CPython 3.11): start it before.
    resource_tracker.ensure_running()
    old = signal.pthread_sigmask(signal.SIG_BLOCK, batch_workers.STOP_SIGNALS)
    cluster = None
    try:
        if scheduler == "local":
            # One process a worker (a crash kills one search; see also start()).
            cluster = LocalCluster(
                n_workers=workers or os.cpu_count() or 1,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address=":0",
                silence_logs=logging.CRITICAL,
            )
            client = Client(cluster, timeout=timeout, direct_to_workers=True)
        else:
            client = Client(scheduler, timeout=timeout, direct_to_workers=True)
    except OSError as exc:
        if cluster is not None:
            cluster.close()
        raise BatchError(
            f"no Dask scheduler answers at {scheduler} (waited {timeout:g} s): start one with "
            f"`dask scheduler`, or check the address ({exc})"
        ) from None
    except (ValueError, TypeError) as exc:
        raise BatchError(
            f"--scheduler {scheduler!r} is not a scheduler address such as tcp://HOST:8786 or local ({exc})"
        ) from None
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
    try:
        client.wait_for_workers(1, timeout=timeout)
    except Exception:  # dask.distributed.TimeoutError, OSError
        close(client, cluster)
        raise BatchError(
            f"the Dask scheduler at {scheduler} has no workers (waited {timeout:g} s): "
            f"start some with `dask worker {scheduler}`"
        ) from None
    return client, cluster


def close(client: Client, cluster: LocalCluster | None) -> None:
    # A LocalCluster's worker still in a search (a stop) is killed after 2 s;
    # the client's exit would end it anyway.
    try:
        client.close(timeout=5)
    except Exception:
        pass
    if cluster is not None:
        try:
            cluster.close(timeout=2.5)
        except Exception:
            pass


def _threads(client: Client) -> int:
    try:
        threads: dict[str, int] = client.nthreads()  # (an untyped method of Dask's)
        return max(1, sum(threads.values()))
    except Exception:
        return 1


# ---------------------------------------------------------------------------
# The batch on a cluster


class Session:
    """A client of a Dask cluster whose workers were checked for ``variant``
    (:func:`start`), ready to run a batch."""

    def __init__(self, client: Client, cluster: LocalCluster | None, variant: str | BaseVariant) -> None:
        self.client = client
        self.cluster = cluster
        scheduler = client.scheduler
        assert scheduler is not None  # a connected client has its scheduler
        self.address = scheduler.address
        self.restore: Callable[[], None] = lambda: None
        self.expected = check_workers(client, variant)
        self.engine = (
            f"Dask {'LocalCluster ' if cluster is not None else ''}{self.address}, "
            f"{len(client.nthreads())} workers, {_threads(client)} threads at start"
        )

    def close(self) -> None:
        close(self.client, self.cluster)
        self.restore()

    def lost(self, why: str = "") -> BatchError:
        return BatchError(
            f"lost the Dask scheduler at {self.address}{why}: the deals done so far are stored; rerun to resume"
        )

    def run(
        self, feed: Feed, variant: str | BaseVariant, limit: Limit, bar: Progress, stop: dict[str, int | None]
    ) -> None:
        """Solve what ``feed`` hands out on the cluster."""
        try:
            self._run(feed, variant, limit, bar, stop)
        except OSError as exc:  # the connection to the scheduler
            raise self.lost(f" ({exc})") from None
        finally:
            try:
                self.client.unsubscribe_topic("all")
            except Exception:
                pass

    def _run(
        self, feed: Feed, variant: str | BaseVariant, limit: Limit, bar: Progress, stop: dict[str, int | None]
    ) -> None:
        run = _Run(self, feed, variant, limit, bar)
        self.client.subscribe_topic("all", run.on_event)
        run.solve_all(stop)
        if stop["signal"] is not None:
            run.wind_down()


class _Run:
    """One batch on the cluster: the chunks in flight (``flying``), each
    submitted as the feed hands it out and handled as it comes back."""

    def __init__(self, session: Session, feed: Feed, variant: str | BaseVariant, limit: Limit, bar: Progress) -> None:
        self.session = session
        self.client = session.client
        self.feed = feed
        self.variant = variant
        self.limit = limit
        self.bar = bar
        self.finished: queue.SimpleQueue[_Future] = queue.SimpleQueue()
        self.flying: dict[Hashable, tuple[_Future, list[int]]] = {}  # key: (future, deals)
        self.pack = feed.store.pack
        self.run_id = uuid.uuid4().hex[:8]
        self.serial = itertools.count()
        # The workers removed, from the scheduler's events (on_event).
        self.left: queue.SimpleQueue[dict[str, Any]] = queue.SimpleQueue()

    def submit(self, deals: list[int]) -> None:
        key = f"solve-{self.variant}-{deals[0]}-{deals[-1]}-{self.run_id}-{next(self.serial)}"
        future = self.client.submit(
            run_chunk,
            self.session.expected,
            batch_workers.solve_chunk,
            self.variant,
            deals,
            self.limit,
            self.pack,
            key=key,
            pure=False,
        )
        self.flying[key] = (future, deals)
        future.add_done_callback(self.finished.put)

    def solve_all(self, stop: dict[str, int | None]) -> None:
        """Keep ``IN_FLIGHT`` chunks a thread of the cluster in flight and handle
        each as it comes back, until the feed runs dry or a stop signal comes."""
        summary = self.feed.summary
        threads = _threads(self.client)
        exhausted = False
        counted = time.monotonic()
        while True:
            self.note_deaths()
            if time.monotonic() - counted > 2.0:
                threads, counted = _threads(self.client), time.monotonic()
            while stop["signal"] is None and not exhausted and len(self.flying) < IN_FLIGHT * threads:
                deals = self.feed.take(share=2 * IN_FLIGHT * threads)
                if not deals:
                    exhausted = True
                    break
                self.submit(deals)
            if not self.flying or stop["signal"] is not None:
                return
            self.handle_all(self.come_back())
            c = summary.counts
            self.bar.update(summary.solved, c["won"], c["lost"], c["unknown"])

    def come_back(self) -> list[_Future]:
        """The chunks finished: those come back so far, or the first within 0.2 s."""
        try:
            done = [self.finished.get(timeout=0.2)]
        except queue.Empty:
            done = []
        while not self.finished.empty():
            done.append(self.finished.get())
        return done

    def handle_all(self, done: list[_Future]) -> None:
        broken = None
        for future in done:
            try:
                self.handle(future)
            except BatchError as exc:  # store the others first
                broken = broken or exc
        if broken is not None:
            raise broken

    def handle(self, future: _Future) -> None:
        """Store a chunk come back, or raise what its failure means."""
        from distributed import CancelledError

        status = future.status
        if status not in ("finished", "error", "cancelled"):
            # Its result was lost with its worker before it came here: Dask runs it again.
            future.add_done_callback(self.finished.put)
            return
        _, deals = self.flying.pop(future.key)
        exc: BaseException | None = None
        if status == "finished":
            try:
                packed, wall = future.result()
            except (Exception, CancelledError) as e:  # failed when run again
                exc = e
            else:
                future.release()
                self.feed.record(packed, wall)
                return
        elif status == "error":
            exc = future.exception()
        future.release()
        self.failed(deals, exc, cancelled=status == "cancelled")

    def failed(self, deals: list[int], exc: BaseException | None, cancelled: bool) -> None:
        """A chunk of ``deals`` failed with ``exc``: run again alone, stored as
        crashed, or the batch stopped with the reason."""
        from distributed import CancelledError, KilledWorker

        if cancelled or isinstance(exc, CancelledError):
            raise self.session.lost()
        if isinstance(exc, KilledWorker):
            if len(deals) > 1:
                self.bar.note(
                    f"dask: the workers running deals {deals[0]}-{deals[-1]} ({len(deals)} deals) "
                    "died; each of them goes again alone"
                )
                for n in deals:
                    self.submit([n])
            else:
                why = (
                    f"{exc.allowed_failures + 1} workers died running it "
                    f"(KilledWorker; the last was {exc.last_worker.address})"
                )
                self.bar.note(f"dask: deal {deals[0]} stored as unknown (crashed): {why}")
                row = crashed_row(str(self.variant), deals[0], self.limit, why)
                self.feed.record(self.feed.store.pack_rows([row]), 0.0)
            return
        if isinstance(exc, WrongVersion):
            raise BatchError(str(exc))
        if _missing(exc):
            raise _lacks("a worker")
        raise BatchError(f"a chunk of deals {deals[0]}-{deals[-1]} failed on the cluster: {type(exc).__name__}: {exc}")

    def on_event(self, event: tuple[float, Any]) -> None:
        """The scheduler's events: a worker removed is kept for note_deaths."""
        if isinstance(event[1], dict) and event[1].get("action") == "remove-worker":
            self.left.put(event[1])

    def note_deaths(self) -> None:
        while not self.left.empty():
            event = self.left.get()
            if event.get("expected"):
                continue
            running = sorted(self.flying[k][1][0] for k in event.get("processing-tasks", ()) if k in self.flying)
            what = f"; Dask runs its chunk again (deals from {', '.join(map(str, running))})" if running else ""
            self.bar.note(f"dask: the worker {event.get('worker')} died{what}")

    def wind_down(self) -> None:
        """After a stop signal: what finishes within 3 s is stored; the rest is
        cancelled (a chunk running goes on on its worker, and its result is dropped)."""
        end = time.monotonic() + 3.0
        while self.flying and time.monotonic() < end:
            try:
                future = self.finished.get(timeout=max(0.0, end - time.monotonic()))
            except queue.Empty:
                break
            if future.status == "finished":
                try:
                    self.handle(future)
                except BatchError:
                    pass
            else:
                self.flying.pop(future.key, None)
        self.client.cancel([f for f, _ in self.flying.values()])


def start(scheduler: str, workers: int | None, timeout: float, variant: str | BaseVariant) -> Session:
    """Connect to the cluster (or start a LocalCluster) and check its workers."""
    require_dask()
    import dask

    # For this session (and a LocalCluster's scheduler): results are fetched
    # from the workers directly, and a worker that does not answer (dead just
    # after its chunk ended) is given up after `timeout` rather than Dask's 30 s;
    # no task queued on a worker behind the running one, since Dask counts a
    # worker's death against every task it holds (allowed-failures). A
    # LocalCluster's workers run without the statistical profiler (it samples
    # their stacks every 10 ms) and without the MALLOC_TRIM_THRESHOLD_ that Dask
    # sets for them: with it, glibc maps every search table afresh (about 1,200
    # page faults a classic deal, 20% more CPU time; docs/batch.md). What goes
    # wrong is said by the batch itself (a worker that died, a deal that
    # crashed, a lost scheduler), where Dask would log tracebacks.
    environ = {
        k: v
        for k, v in (dask.config.get("distributed.nanny.pre-spawn-environ") or {}).items()
        if k != "MALLOC_TRIM_THRESHOLD_"
    }
    settings = dask.config.set(
        {
            "distributed.comm.timeouts.connect": f"{timeout}s",
            "distributed.scheduler.worker-saturation": 1.0,
            "distributed.worker.profile.enabled": False,
            "distributed.nanny.pre-spawn-environ": environ,
        }
    )
    log = logging.getLogger("distributed")
    level = log.level
    log.setLevel(logging.CRITICAL)

    def restore() -> None:
        settings.__exit__(None, None, None)
        log.setLevel(level)

    try:
        client, cluster = connect(scheduler, workers, timeout)
    except BaseException:
        restore()
        raise
    try:
        session = Session(client, cluster, variant)
    except BaseException:
        close(client, cluster)
        restore()
        raise
    session.restore = restore
    return session
