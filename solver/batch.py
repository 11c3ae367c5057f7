"""Batch runs: solve ranges of deals in parallel processes into SQLite, and
the statistics of what is stored.

``python -m solver batch --variant V --deals 1-1000000 --db results.sqlite``
solves every deal of the range that the database does not hold yet (so the
same command resumes after Ctrl-C or a crash), one row per deal::

    results(variant, deal, verdict, reason, score, positions, seconds,
            table_bytes, line, limits, solved_at)

``line`` is the result in the solution format (:meth:`Result.dumps`),
``limits`` the limits of the search as JSON, ``solved_at`` an ISO-8601 UTC
time. A second table holds the rules each variant's rows were solved under::

    variants(variant, fingerprint, rules)

and a batch refuses to add deals of a variant whose rules differ from those
recorded (:func:`check_rules`), so that one database holds one set of rules
per variant name. The parent process is the only writer (WAL mode, a commit for each chunk
of deals a worker hands back); the workers only solve.

``--scheduler tcp://HOST:8786`` (or ``local``) sends the chunks to a Dask
cluster instead (solver/cluster.py); ``--out DIR`` writes a Parquet file per
chunk instead of the database (solver/parquet.py). Either way the client alone
writes, and the rows are the same.

``python -m solver stats --db results.sqlite`` (or ``--out DIR``) reads it
back: counts, the win rate with its Wilson interval, distributions, the
hardest deals.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import multiprocessing
import os
import shutil
import signal
import sqlite3
import sys
import threading
import time
from array import array
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from datetime import UTC, datetime
from itertools import islice
from pathlib import Path
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future
from types import FrameType
from typing import Any, Never, Protocol, TextIO, TypeVar

from tqdm import tqdm

from .errors import SolverError
from .inputs import brief, shown_path
from . import core
from .api import Limit, deal_text, result_of, start_position, text_of
from .blind import wilson
from .deals import MIN_NUMBER, DealError, number_from_text
from .variants import BaseVariant, TombVariant, load, names

N = TypeVar("N", int, float)

#: SQLite integers are signed 64-bit: the largest deal number a row can hold.
MAX_STORED_DEAL = 2**63 - 1
#: The page size of a new database, in bytes (SQLite's largest).
PAGE_SIZE = 65536
SCHEMA_VERSION = 2             # 2: the variants table of rules fingerprints
COLUMNS = ("variant", "deal", "verdict", "reason", "score", "positions", "seconds",
           "table_bytes", "line", "limits", "solved_at")
#: One row of the results, in the order of COLUMNS.
Row = tuple[str, int, str, str | None, int, int, float, int, str, str, str]
#: Ranges of deal numbers, both ends included.
Ranges = Sequence[tuple[int, int]]
#: A path as the caller gives it.
StrPath = str | os.PathLike[str]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    variant     TEXT    NOT NULL,
    deal        INTEGER NOT NULL,
    verdict     TEXT    NOT NULL CHECK (verdict IN ('won', 'lost', 'unknown')),
    reason      TEXT,
    score       INTEGER NOT NULL,
    positions   INTEGER NOT NULL,
    seconds     REAL    NOT NULL,
    table_bytes INTEGER NOT NULL,
    line        TEXT    NOT NULL,
    limits      TEXT    NOT NULL,
    solved_at   TEXT    NOT NULL,
    PRIMARY KEY (variant, deal)
) WITHOUT ROWID
"""

# The rules of each variant stored: one row a variant, written by its first batch.
_RULES_SCHEMA = """
CREATE TABLE IF NOT EXISTS variants (
    variant     TEXT    NOT NULL PRIMARY KEY,
    fingerprint TEXT    NOT NULL,
    rules       TEXT    NOT NULL
) WITHOUT ROWID
"""

# A stored decision is final: a row is only ever replaced when it is unknown.
_UPSERT = f"""
INSERT INTO results ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})
ON CONFLICT (variant, deal) DO UPDATE SET
    {', '.join(f'{c} = excluded.{c}' for c in COLUMNS[2:])}
WHERE results.verdict = 'unknown'
"""


class BatchError(SolverError, ValueError):
    """A batch or stats command cannot go on (bad database, dead worker, ...)."""


# ---------------------------------------------------------------------------
# Deal ranges


def _shown(text: str) -> str:
    """``text`` quoted for an error message, cut short past 40 characters."""
    return repr(text) if len(text) <= 40 else repr(text[:20] + "…" + text[-8:]) + f" ({len(text)} characters)"


def parse_deals(text: str) -> list[tuple[int, int]]:
    """``"1-1000"``, ``"5"``, ``"1-10,20-30"`` as sorted, merged inclusive ranges.

    >>> parse_deals("20-30, 1-10,5,9-12")
    [(1, 12), (20, 30)]
    """
    if not isinstance(text, str) or not text.strip():
        raise DealError("--deals: give deal numbers: N, A-B, or a comma list of both (e.g. 1-10,20-30)")
    ranges = []
    for part in text.split(","):
        part = part.strip()
        lo, sep, hi = part.partition("-")
        lo, hi = lo.strip(), hi.strip()
        if not (lo.isascii() and lo.isdigit()) or (sep and not (hi.isascii() and hi.isdigit())):
            raise DealError(f"--deals: {_shown(part)} is not a deal number N or a range A-B")
        try:
            a = number_from_text(lo)
            b = number_from_text(hi) if sep else a
        except DealError:
            raise DealError(f"--deals: {_shown(part)}: deal numbers are {MIN_NUMBER}..10**20") from None
        if a > b:
            raise DealError(f"--deals: {_shown(part)} runs backwards; write the low number first")
        if b > MAX_STORED_DEAL:
            raise DealError(f"--deals: {_shown(part)}: a batch stores deal numbers up to 2**63-1 ({MAX_STORED_DEAL})")
        ranges.append((a, b))
    ranges.sort()
    merged = [ranges[0]]
    for a, b in ranges[1:]:
        if a <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], b))
        else:
            merged.append((a, b))
    return merged


def format_ranges(ranges: Iterable[tuple[int, int]], most: int = 6) -> str:
    """``[(1, 12), (20, 20)]`` as ``"1-12,20"`` (the first ``most`` ranges, then ``...``)."""
    ranges = list(ranges)
    text = ",".join(f"{a}" if a == b else f"{a}-{b}" for a, b in ranges[:most])
    return text + (f",... ({len(ranges)} ranges)" if len(ranges) > most else "")


# ---------------------------------------------------------------------------
# The database


def _check_foreign(path: Path) -> list[str]:
    """Refuses an existing file that is not a batch database: not SQLite, or
    SQLite holding other tables and no results table. The tables it holds."""
    if not path.is_file() or path.stat().st_size == 0:
        return []
    with open(path, "rb") as f:
        if f.read(16) != b"SQLite format 3\x00":
            raise BatchError(f"{path}: is not an SQLite database (give a new file or a batch database)")
    conn = _open_readonly(path)
    try:
        tables = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    finally:
        conn.close()
    if tables and "results" not in tables:
        raise BatchError(f"{path}: holds the tables {', '.join(tables)} and no results table: not a batch"
                         " database (give a new file or the database of an earlier batch)")
    return tables


def _open_readonly(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True)


def _db_path(path: StrPath) -> Path:
    """``path`` as a Path, refused with a BatchError naming it when no file
    can be there (a NUL character, a name too long, a file for a folder)."""
    p = Path(path)
    if "\0" in str(p):
        raise BatchError(f"{brief(str(p))}: cannot use the database (a path cannot hold a NUL character)")
    try:
        os.stat(p)
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise BatchError(f"{shown_path(p)}: cannot use the database ({exc.strerror or exc})") from None
    return p


def found_note(path: StrPath) -> str:
    """What a batch finds at ``path``, for its first line: ``" (a new
    database)"``, ``" (an empty file, made a new database)"``, or nothing for
    an existing database."""
    p = _db_path(path)
    if not p.exists():
        return " (a new database)"
    if p.is_file() and p.stat().st_size == 0:
        return " (an empty file, made a new database)"
    return ""


def connect(path: StrPath, *, readonly: bool = False) -> sqlite3.Connection:
    """Open (for a batch: create) the results database and check its table."""
    path = _db_path(path)
    try:
        if readonly:
            if not path.is_file():
                raise BatchError(f"{path}: no such database file")
            conn = _open_readonly(path)
        else:
            if path.is_dir():
                raise BatchError(f"{path}: is a directory, not a database file")
            _check_foreign(path)
            conn = sqlite3.connect(path, timeout=30)
            # A new database's pages (none of one made already): a row holds
            # a line of 5 to 30 KB, which 4 KiB pages spill over several
            # overflow pages (docs/batch.md, "The table").
            conn.execute(f"PRAGMA page_size = {PAGE_SIZE}")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")  # WAL: a commit survives a crash of the process
            conn.execute(_SCHEMA)
            conn.execute(_RULES_SCHEMA)
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            conn.commit()
        have = [row[1] for row in conn.execute("PRAGMA table_info(results)")]
    except sqlite3.Error as exc:
        raise BatchError(f"{path}: cannot use the database ({exc})") from None
    if not have:
        conn.close()
        raise BatchError(f"{path}: holds no results table (not a batch database)")
    missing = [c for c in COLUMNS if c not in have]
    if missing:
        conn.close()
        raise BatchError(f"{path}: the results table lacks the columns {', '.join(missing)} (not a batch database)")
    return conn


# ---------------------------------------------------------------------------
# The rules of the variants stored


def recorded_rules(conn: sqlite3.Connection, variant: str) -> str | None:
    """The fingerprint of the rules ``variant``'s rows were solved under, or
    ``None`` when the database does not say (made before it recorded them)."""
    if conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'variants'").fetchone() is None:
        return None
    row = conn.execute("SELECT fingerprint FROM variants WHERE variant = ?", (variant,)).fetchone()
    return None if row is None else str(row[0])


def _describe(v: BaseVariant) -> str:
    where = f" of {v.path}" if v.path is not None else ""
    return f"the rules {v.fingerprint}{where}"


def rules_conflict(where: str, v: BaseVariant, recorded: str | None, unrecorded: bool) -> str | None:
    """Why the rows of ``v``'s name at ``where`` cannot be joined by rows of
    ``v``'s rules, or ``None`` when they can. ``recorded``: the fingerprint
    they were solved under; ``unrecorded``: there are rows that do not say
    (stored before results carried the fingerprint), which are taken as the
    rules of the shipped variant of that name."""
    if recorded is not None and recorded != v.fingerprint:
        return f"{where}: holds {v.name} deals solved under the rules {recorded}, not {_describe(v)}"
    if unrecorded and not v.shipped():
        shipped = (f"the rules of the shipped {v.name} ({load(v.name).fingerprint})" if v.name in names()
                   else f"rules it cannot tell ({v.name} is no shipped variant)")
        return (f"{where}: holds {v.name} deals stored before the rules were recorded, taken as {shipped}, "
                f"not {_describe(v)}")
    return None


def check_rules(conn: sqlite3.Connection, v: BaseVariant, where: str) -> None:
    """Refuses (:class:`BatchError`) to add ``v``'s deals to a database that
    holds deals of its name solved under other rules."""
    recorded = recorded_rules(conn, v.name)
    unrecorded = recorded is None and conn.execute(
        "SELECT 1 FROM results WHERE variant = ? LIMIT 1", (v.name,)).fetchone() is not None
    why = rules_conflict(where, v, recorded, unrecorded)
    if why is not None:
        raise BatchError(f"{why}: one store holds one set of rules a variant; give another --db or --out")


def record_rules(conn: sqlite3.Connection, v: BaseVariant, where: str) -> None:
    """Check (as :func:`check_rules`) and record ``v``'s rules, in one write
    transaction, so that two batches started at once cannot both record."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        check_rules(conn, v, where)
        conn.execute("INSERT INTO variants (variant, fingerprint, rules) VALUES (?, ?, ?) "
                     "ON CONFLICT (variant) DO NOTHING", (v.name, v.fingerprint, v.rules_json()))
    except BaseException:
        conn.rollback()
        raise
    conn.commit()


def _done_clause(retry_unknown: bool) -> str:
    return " AND verdict != 'unknown'" if retry_unknown else ""


def count_done(conn: sqlite3.Connection, variant: str, ranges: Ranges, retry_unknown: bool = False) -> int:
    """How many deals of ``ranges`` the database already holds (decided ones only with retry)."""
    sql = f"SELECT COUNT(*) FROM results WHERE variant = ? AND deal BETWEEN ? AND ?{_done_clause(retry_unknown)}"
    return sum(int(conn.execute(sql, (variant, a, b)).fetchone()[0]) for a, b in ranges)


def to_solve(conn: sqlite3.Connection, variant: str, ranges: Ranges, retry_unknown: bool = False,
             window: int = 20_000) -> Iterator[int]:
    """The deals of ``ranges`` not in the database (or stored as unknown, with retry), in order.

    Reads the database a window of deal numbers at a time, so a range of a
    million deals never sits in memory."""
    sql = f"SELECT deal FROM results WHERE variant = ? AND deal BETWEEN ? AND ?{_done_clause(retry_unknown)}"
    for a, b in ranges:
        lo = a
        while lo <= b:
            hi = min(b, lo + window - 1)
            done = {row[0] for row in conn.execute(sql, (variant, lo, hi))}
            for n in range(lo, hi + 1):
                if n not in done:
                    yield n
            lo = hi + 1


# ---------------------------------------------------------------------------
# Workers

_STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}
#: Cancelled by Ctrl-C or SIGTERM in a worker: the deal being solved stops,
#: the worker hands back what is done and starts nothing new.
_stop = core.Cancel()
_watching = False       # a thread stops the search on a stop signal (_watch_signals)


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
            if any(sig in _STOP_SIGNALS for sig in os.read(read, 64)):
                _stop.cancel()

    threading.Thread(target=watch, daemon=True, name="solver-signals").start()
    _watching = True


def _watch_parent(parent: int) -> None:
    # A worker whose batch died (SIGKILL, crash) has nobody to hand results to: quit.
    while True:
        time.sleep(0.5)
        if os.getppid() != parent:
            os._exit(1)


def _init_worker(parent: int) -> None:
    # SIGTERM as Ctrl-C: `timeout`, systemd and `kill -- -PGID` signal the whole
    # process group, and the batch stops cleanly then too. The batch ends its
    # workers with SIGKILL (_terminate).
    for sig in _STOP_SIGNALS:
        signal.signal(sig, _on_sigint)
    # The batch starts its workers with SIGINT and SIGTERM blocked (see _submit),
    # so that a signal during start-up waits for this handler instead of a
    # traceback or a death.
    _watch_signals()
    # What the imports made lives as long as the worker: out of the
    # collector's way (a deal's objects are few, and freed at once).
    gc.freeze()
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def _solve_deal(variant: BaseVariant, number: int, limit: Limit, flags: int) -> tuple[core.TextOutcome, str]:
    """Solve deal ``number`` as :func:`solver.solve` would, on the search this
    thread keeps for the variant (core.search_for): the numbers of its row,
    and its JSON text (``solve(number).dumps()``, but the seconds), written
    from the core's texts. A Tomb deal's start position is not made: the
    core takes its cards' indexes (core.search_for_deal). ``flags``: the shortcuts,
    all of them (core.flags_for(True, ...))."""
    if isinstance(variant, TombVariant):
        indexes = core.card_indexes(number)
        search = core.search_for_deal(number, indexes, variant, flags)
    else:
        pos = start_position(number, variant)
        search = core.search_for(pos, flags)
    search.set_limits(limit.positions, limit.seconds, limit.memory)
    in_main = threading.current_thread() is threading.main_thread()
    status = _stop.run(search, here=_watching or not in_main)
    out = search.texts(status)
    text = deal_text(variant, number, indexes, out) if isinstance(variant, TombVariant) else text_of(pos, out)
    if text is None:                # seconds the core does not write as Python does
        full = search.outcome(status, text=True)
        text = result_of(start_position(number, variant), full).text_with(full.text)
    core.keep(search, out.held_bytes)
    return out, text


def _solve_chunk(variant: str | BaseVariant, deals: list[int], limit: Limit,
                 pack: str | None = None) -> tuple[Any, float]:
    """Solve ``deals``; the rows for the database and the wall time. Stops early
    (handing back the deals done) on Ctrl-C; an interrupted search is not a row.
    ``pack="parquet"``: the rows as a Parquet file's bytes instead
    (:func:`solver.parquet.pack_rows`), encoded where they were solved."""
    start = time.perf_counter()
    v = load(variant)
    limits = json.dumps({"positions": limit.positions, "seconds": limit.seconds, "memory": limit.memory})
    flags = core.flags_for(True, v.family)
    rows: list[Row] = []
    for n in deals:
        if _stop.cancelled:
            break
        r, text = _solve_deal(v, n, limit, flags)
        if r.reason == "interrupted":
            break
        rows.append((v.name, n, r.verdict, r.reason, r.score, r.positions, r.seconds, r.table_bytes, text,
                     limits, datetime.now(UTC).isoformat()))
    if pack == "parquet":
        from .parquet import pack_rows

        return pack_rows(rows, v.fingerprint), time.perf_counter() - start
    return rows, time.perf_counter() - start


def crashed_row(variant: str, deal: int, limit: Limit, why: str) -> Row:
    """The row of a deal whose search crashed every process that ran it: unknown,
    reason ``crashed``, no line to replay (``line`` holds the error instead)."""
    limits = json.dumps({"positions": limit.positions, "seconds": limit.seconds, "memory": limit.memory})
    line = json.dumps({"variant": variant, "deal": deal, "verdict": "unknown", "reason": "crashed", "error": why},
                      ensure_ascii=False)
    return (variant, deal, "unknown", "crashed", 0, 0, 0.0, 0, line, limits, datetime.now(UTC).isoformat())


# ---------------------------------------------------------------------------
# Progress


def _duration(seconds: float) -> str:
    seconds = round(seconds)
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}h{m:02d}m{s:02d}s" if h else f"{m}m{s:02d}s" if m else f"{s}s"


class _Bar(tqdm):  # type: ignore[type-arg]
    """tqdm's bar without its monitor thread, which only tunes how often a
    bar over an iterable redraws: the batch forks its workers from a process
    of one thread (start_method)."""

    monitor_interval = 0


class Progress:
    """Deals done, rate, wins, time left on ``stream``: a tqdm bar redrawn in
    place on a terminal; on anything else (a log file, a pipe), a plain line
    every ``every`` seconds, since tqdm's carriage returns would pile up there
    into one endless line."""

    def __init__(self, stream: TextIO | None, total: int, every: float | None = None):
        self.stream = stream
        self.total = total
        self.tty = bool(stream is not None and getattr(stream, "isatty", lambda: False)())
        self.every = every if every is not None else (0.2 if self.tty else 30.0)
        self.start = time.monotonic()
        self.last = self.start
        self.bar: tqdm[Never] | None = None      # a bar over no iterable
        if self.tty:
            # A terminal of no size (a bare pseudo-terminal) gets a width, not an empty bar.
            sized = shutil.get_terminal_size((0, 0)).columns > 0
            self.bar = _Bar(total=total, file=stream, unit=" deals", mininterval=self.every, smoothing=0.05,
                            dynamic_ncols=sized, ncols=None if sized else 100, nrows=None if sized else 24)

    def counts(self, won: int, lost: int, unknown: int) -> str:
        return f"won {won:,}  lost {lost:,}  unknown {unknown:,}"

    def line(self, done: int, won: int, lost: int, unknown: int) -> str:
        elapsed = max(time.monotonic() - self.start, 1e-9)
        rate = done / elapsed
        left = _duration((self.total - done) / rate) if done else "?"
        share = done / self.total if self.total else 1.0
        return (f"{done:,}/{self.total:,} deals ({100 * share:.1f}%)  {rate:,.1f} deals/s  "
                f"{self.counts(won, lost, unknown)}  left {left}")

    def update(self, done: int, won: int, lost: int, unknown: int, force: bool = False) -> None:
        if self.stream is None:
            return
        if self.bar is not None:
            self.bar.set_postfix_str(self.counts(won, lost, unknown), refresh=False)
            self.bar.update(done - self.bar.n)
            if force:
                self.bar.refresh()
            return
        now = time.monotonic()
        if not force and now - self.last < self.every:
            return
        self.last = now
        self.stream.write(self.line(done, won, lost, unknown) + "\n")
        self.stream.flush()

    def note(self, text: str) -> None:
        """A line of its own (on a terminal, above the bar)."""
        if self.stream is None:
            return
        if self.bar is not None:
            self.bar.write(text, file=self.stream)
            return
        self.stream.write(text + "\n")
        self.stream.flush()

    def close(self, done: int, won: int, lost: int, unknown: int) -> None:
        if self.stream is None:
            return
        self.update(done, won, lost, unknown, force=True)
        if self.bar is not None:
            self.bar.close()


# ---------------------------------------------------------------------------
# The batch


@dataclass
class Summary:
    variant: str
    ranges: Ranges
    db: str
    jobs: int
    total: int = 0            # deals in the ranges
    skipped: int = 0          # already stored (decided, with retry)
    todo: int = 0
    solved: int = 0           # stored by this run
    counts: dict[str, int] = field(default_factory=lambda: {"won": 0, "lost": 0, "unknown": 0})
    seconds: float = 0.0
    stopped_by: int | None = None   # the signal that stopped the run
    engine: str = ""          # what solved them: "2 jobs", or the Dask cluster

    def __str__(self) -> str:
        c = self.counts
        rate = self.solved / self.seconds if self.seconds > 0 else 0.0
        lines = [
            f"{self.variant}, deals {format_ranges(self.ranges)} -> {self.db}",
            f"solved {self.solved:,} this run in {self.seconds:.1f} s ({rate:,.1f} deals/s, "
            f"{self.engine or f'{self.jobs} jobs'}): "
            f"won {c['won']:,}, lost {c['lost']:,}, unknown {c['unknown']:,}",
            f"{self.skipped:,} of the {self.total:,} deals were already stored",
        ]
        if self.stopped_by is not None:
            left = self.todo - self.solved
            lines.append(f"interrupted: {left:,} deals still to solve; run the same command again to resume")
        return "\n".join(lines)


class Store(Protocol):
    """Where a batch keeps its rows: a :class:`Database`, or a directory of
    Parquet files (:class:`solver.parquet.ParquetStore`). Its rows travel to
    and from the workers as ``pack`` makes them (plain rows, or a Parquet
    file's bytes): whatever ``pack_rows`` gives, ``write`` takes."""

    @property
    def pack(self) -> str | None: ...

    @property
    def where(self) -> str: ...

    def count_done(self, variant: str, ranges: Ranges, retry_unknown: bool) -> int: ...

    def to_solve(self, variant: str, ranges: Ranges, retry_unknown: bool) -> Iterator[int]: ...

    def pack_rows(self, rows: list[Row]) -> Any: ...

    def write(self, packed: Any) -> dict[str, int]: ...

    def close(self) -> None: ...


class Database:
    """The SQLite results database as the store of a batch: which deals it holds,
    and a commit for each chunk of rows."""

    pack: str | None = None           # the workers hand back plain rows

    def __init__(self, path: StrPath, variant: BaseVariant | None = None) -> None:
        self.where = f"{path}{found_note(path)}"
        if variant is not None:
            _check_before(Path(path), variant)
        self.conn = connect(path)
        if variant is not None:
            try:
                record_rules(self.conn, variant, str(path))
            except BaseException:
                self.conn.close()
                raise

    def count_done(self, variant: str, ranges: Ranges, retry_unknown: bool) -> int:
        return count_done(self.conn, variant, ranges, retry_unknown)

    def to_solve(self, variant: str, ranges: Ranges, retry_unknown: bool) -> Iterator[int]:
        return to_solve(self.conn, variant, ranges, retry_unknown)

    @staticmethod
    def pack_rows(rows: list[Row]) -> list[Row]:
        return rows

    def write(self, rows: list[Row]) -> dict[str, int]:
        """Store one chunk's rows (committed on return); their verdicts counted."""
        counts = {"won": 0, "lost": 0, "unknown": 0}
        if rows:
            self.conn.executemany(_UPSERT, rows)
            self.conn.commit()
        for row in rows:
            counts[row[2]] += 1
        return counts

    def close(self) -> None:
        self.conn.commit()
        self.conn.close()


def _check_before(path: Path, variant: BaseVariant) -> None:
    """:func:`check_rules` on an existing database, read-only: a batch refused
    leaves the file as it was."""
    try:
        tables = _check_foreign(path)
    except sqlite3.Error as exc:
        raise BatchError(f"{path}: cannot use the database ({exc})") from None
    if "results" not in tables:
        return
    conn = connect(path, readonly=True)         # checks the table's columns
    try:
        check_rules(conn, variant, str(path))
    except sqlite3.Error as exc:
        raise BatchError(f"{path}: cannot use the database ({exc})") from None
    finally:
        conn.close()


def _one_store(db: StrPath | None, out: StrPath | None) -> None:
    if (db is None) == (out is None):
        raise BatchError("give --db FILE (an SQLite database) or --out DIR (Parquet files)"
                         + (", not both" if db is not None else ""))


def open_store(db: StrPath | None, out: StrPath | None, variant: BaseVariant | None = None) -> Store:
    """The store of a batch: the SQLite database ``db`` or the Parquet directory
    ``out``; with ``variant``, one that holds no deal of its name under other rules."""
    _one_store(db, out)
    if db is not None:
        return Database(db, variant)
    from .parquet import ParquetStore

    assert out is not None          # one of the two (_one_store)
    return ParquetStore(out, variant)


class Feed:
    """The deals still to solve, cut into chunks of about ``target`` seconds of
    work (at most ``most`` deals), and the recording of each chunk handed back.

    The chunk size follows the mean time a deal has taken so far in this run."""

    def __init__(self, store: Store, deals: Iterator[int], summary: Summary, target: float, most: int) -> None:
        self.store = store
        self.deals = deals
        self.summary = summary
        self.target = target
        self.most = most
        self.chunk = 4
        self.taken = 0
        self.work_seconds = 0.0
        self.timed = 0            # deals behind work_seconds

    def take(self, share: int = 1) -> list[int]:
        """The next chunk; with ``share`` > 1, at most 1/share of the deals left,
        so that the last chunks of a run are small and end together."""
        size = self.chunk
        if share > 1:
            left = self.summary.todo - self.taken
            size = min(size, max(1, -(-left // share)))
        deals = list(islice(self.deals, size))
        self.taken += len(deals)
        return deals

    def record(self, packed: Any, wall: float) -> int:
        """Store a chunk's rows (as :attr:`store.pack` made them); how many."""
        counts = self.store.write(packed)
        n = sum(counts.values())
        for verdict, k in counts.items():
            self.summary.counts[verdict] += k
        self.summary.solved += n
        if n and wall > 0:
            self.work_seconds += wall
            self.timed += n
            per_deal = self.work_seconds / self.timed
            self.chunk = max(1, min(self.most, int(self.target / max(per_deal, 1e-6))))
        return n


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
    except RuntimeError:            # the pool's thread changed the dict meanwhile: ask again next time
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


def run_batch(db: StrPath | None, variant: str | BaseVariant, ranges: Ranges, limit: Limit,
              jobs: int | None = None, retry_unknown: bool = False,
              progress: TextIO | None = sys.stderr, progress_every: float | None = None, *,
              out: StrPath | None = None, scheduler: str | None = None, workers: int | None = None,
              connect_timeout: float = 10.0) -> Summary:
    """Solve the deals of ``ranges`` missing from ``db`` in ``jobs`` processes.

    ``out``: a directory of Parquet files instead of the database ``db``.
    ``scheduler``: the address of a Dask scheduler, or ``"local"`` for a
    LocalCluster of ``workers`` processes, instead of local processes
    (solver/cluster.py).

    ``variant``: a shipped variant's name, or a variant object (of
    :func:`solver.variants.load_file`); the store must hold no deal of its
    name solved under other rules (:func:`check_rules`).

    Ctrl-C (SIGINT) or SIGTERM stops the run cleanly: the workers stop their
    searches and are ended, every finished deal is committed, and the summary
    says which signal stopped it (``stopped_by``)."""
    if scheduler is None and workers is not None:
        raise BatchError("--workers is the size of a LocalCluster: give it with --scheduler local")
    if scheduler is not None and jobs is not None:
        raise BatchError("--jobs is for local processes; on a Dask cluster its workers decide "
                         "(with --scheduler local, give --workers)")
    jobs = jobs or os.cpu_count() or 1
    rules = load(variant)
    variant = rules.name
    store = open_store(db, out, rules)
    summary = Summary(variant, ranges, store.where, jobs, engine=f"{jobs} jobs")
    summary.total = sum(b - a + 1 for a, b in ranges)
    session = None
    try:
        if scheduler is not None:
            from . import cluster

            session = cluster.start(scheduler, workers, connect_timeout, rules)
            summary.engine = session.engine
        summary.skipped = store.count_done(variant, ranges, retry_unknown)
        summary.todo = summary.total - summary.skipped
        if progress is not None:
            progress.write(f"batch: {variant} (rules {rules.fingerprint}), deals {format_ranges(ranges)}: "
                           f"{summary.todo:,} to solve, "
                           f"{summary.skipped:,} already in {store.where}; {summary.engine}\n")
            progress.flush()
        bar = Progress(progress, summary.todo, progress_every)
        stop: dict[str, int | None] = {"signal": None}

        def on_signal(signum: int, frame: FrameType | None) -> None:
            stop["signal"] = signum

        handlers: dict[signal.Signals, Callable[[int, FrameType | None], Any] | int | None] = {}
        if threading.current_thread() is threading.main_thread():
            for sig in _STOP_SIGNALS:
                handlers[sig] = signal.signal(sig, on_signal)
        start = time.monotonic()
        try:
            deals = store.to_solve(variant, ranges, retry_unknown)
            if session is None:
                _run(Feed(store, deals, summary, 0.25, 500), rules, limit, jobs, bar, stop)
            else:
                session.run(Feed(store, deals, summary, cluster.CHUNK_SECONDS, cluster.CHUNK_MOST), rules,
                            limit, bar, stop)
        finally:
            summary.seconds = time.monotonic() - start
            for sig, old in handlers.items():
                signal.signal(sig, old)
            c = summary.counts
            bar.close(summary.solved, c["won"], c["lost"], c["unknown"])
        summary.stopped_by = stop["signal"]
        return summary
    finally:
        if session is not None:
            session.close()
        store.close()


_WORKER_DIED = ("a worker process died (killed, out of memory, or a crash in the C core); "
                "the deals done so far are stored: rerun to resume")


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


def _submit(executor: ProcessPoolExecutor, variant: BaseVariant, deals: list[int], limit: Limit,
            pack: str | None) -> Future[tuple[Any, float]]:
    # submit() may start a worker process, which inherits the signal mask:
    # SIGINT and SIGTERM stay blocked in it until its handlers are in place (_init_worker).
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
    try:
        if pack is None:
            return executor.submit(_solve_chunk, variant, deals, limit)
        return executor.submit(_solve_chunk, variant, deals, limit, pack)
    except BrokenProcessPool:       # a worker died before its future was read
        raise BatchError(_WORKER_DIED) from None
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _run(feed: Feed, variant: BaseVariant, limit: Limit, jobs: int, bar: Progress,
         stop: dict[str, int | None]) -> None:
    """The batch on a pool of ``jobs`` local processes."""
    summary = feed.summary
    pending: set[Future[tuple[Any, float]]] = set()
    exhausted = False

    def store(future: Future[tuple[Any, float]]) -> None:
        try:
            packed, wall = future.result()
        except BrokenProcessPool:
            raise BatchError(_WORKER_DIED) from None
        feed.record(packed, wall)

    executor = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context(start_method()),
                                   initializer=_init_worker, initargs=(os.getpid(),))
    clean = False
    try:
        while True:
            while stop["signal"] is None and not exhausted and len(pending) < 2 * jobs:
                batch = feed.take()
                if not batch:
                    exhausted = True
                    break
                pending.add(_submit(executor, variant, batch, limit, feed.store.pack))
            if not pending or stop["signal"] is not None:
                break
            done, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
            broken = None
            for future in done:
                try:
                    store(future)
                except BatchError as exc:   # store the others first
                    broken = exc
            if broken is None and _worker_died(executor):
                broken = BatchError(_WORKER_DIED)
            if broken is not None:
                raise broken
            c = summary.counts
            bar.update(summary.solved, c["won"], c["lost"], c["unknown"])
        if stop["signal"] is not None:
            # Stop: the searches running stop (SIGINT) and hand back the deals their
            # chunk finished; a chunk started after that hands back none at once (the
            # workers' _stop); whatever is left after a moment is lost. The futures
            # are not cancelled here: see _release_results.
            _signal_workers(executor, signal.SIGINT)
            done, pending = wait(pending, timeout=3.0)
            for future in done:
                try:
                    store(future)
                except BatchError:
                    pass
        else:
            clean = True
    finally:
        if not clean:
            _terminate(executor)
            _release_results(executor)
        executor.shutdown(wait=True, cancel_futures=True)


# ---------------------------------------------------------------------------
# Statistics


def percentile(sorted_values: Sequence[N], p: float) -> N:
    """The nearest-rank percentile ``p`` (0..100) of sorted values (at least one)."""
    if not len(sorted_values):
        raise ValueError("no values to take a percentile of")
    k = max(1, math.ceil(p / 100 * len(sorted_values)))
    return sorted_values[k - 1]


@dataclass
class VariantStats:
    variant: str
    won: int
    lost: int
    unknown: int
    reasons: dict[str, int]
    ranges: list[tuple[int, int]]
    positions: array[int]
    seconds: array[float]
    hardest: list[tuple[Any, ...]]          # (deal, verdict, reason, score, positions, seconds)
    lost_scores: list[tuple[int, int]]   # (best score, deals)
    #: verdict: (positions, seconds)
    split: dict[str, tuple[array[int], array[float]]] = field(default_factory=dict, repr=False)
    fingerprint: str | None = None      # the rules the rows were solved under, when the store says

    @property
    def n(self) -> int:
        return self.won + self.lost + self.unknown

    def interval(self) -> tuple[float, float]:
        """95% Wilson interval of the win rate, unknowns counted both ways: the low
        end of won/all (unknowns lost) to the high end of (won+unknown)/all (unknowns won)."""
        return wilson(self.won, self.n)[0], wilson(self.won + self.unknown, self.n)[1]


#: A row that :func:`gather` cannot count: a column of the wrong type, or a
#: verdict that is none of the three (a database not written by a batch).
_BAD_ROW = """
SELECT deal, verdict, score, positions, seconds FROM results WHERE variant = ? AND (
    typeof(deal) != 'integer' OR verdict NOT IN ('won', 'lost', 'unknown') OR typeof(score) != 'integer'
    OR typeof(positions) != 'integer' OR typeof(seconds) NOT IN ('real', 'integer'))
LIMIT 1
"""


def gather(conn: sqlite3.Connection, variant: str) -> VariantStats:
    q = conn.execute
    bad = q(_BAD_ROW, (variant,)).fetchone()
    if bad is not None:
        shown = ", ".join(f"{k} {brief(v)}" for k, v in zip(("deal", "verdict", "score", "positions", "seconds"), bad))
        raise BatchError(f"the database holds a row of {variant} that no batch wrote ({shown}): its deal must be"
                         " a whole number, its verdict won, lost or unknown, its score and positions whole"
                         " numbers and its seconds a number")
    counts = dict(q("SELECT verdict, COUNT(*) FROM results WHERE variant = ? GROUP BY verdict", (variant,)))
    reasons = dict(q("SELECT reason, COUNT(*) FROM results WHERE variant = ? AND verdict = 'unknown' "
                     "GROUP BY reason ORDER BY 2 DESC", (variant,)))
    ranges = [tuple(r) for r in q(
        "SELECT MIN(deal), MAX(deal) FROM (SELECT deal, deal - ROW_NUMBER() OVER (ORDER BY deal) AS g "
        "FROM results WHERE variant = ?) GROUP BY g ORDER BY 1", (variant,))]
    split = {v: (array("q"), array("d")) for v in ("won", "lost", "unknown")}
    for verdict, pos, sec in q("SELECT verdict, positions, seconds FROM results WHERE variant = ?", (variant,)):
        split[verdict][0].append(pos)
        split[verdict][1].append(sec)
    positions = array("q", sorted(x for p, _ in split.values() for x in p))
    seconds = array("d", sorted(x for _, sec in split.values() for x in sec))
    hardest = [tuple(r) for r in q(
        "SELECT deal, verdict, reason, score, positions, seconds FROM results WHERE variant = ? "
        "ORDER BY seconds DESC, deal LIMIT 10", (variant,))]
    lost_scores = [tuple(r) for r in q(
        "SELECT score, COUNT(*) FROM results WHERE variant = ? AND verdict = 'lost' GROUP BY score ORDER BY score",
        (variant,))]
    return VariantStats(variant, counts.get("won", 0), counts.get("lost", 0), counts.get("unknown", 0),
                        {str(k): v for k, v in reasons.items()}, ranges, positions, seconds, hardest, lost_scores,
                        split,
                        recorded_rules(conn, variant))


def stored_variants(conn: sqlite3.Connection) -> list[str]:
    return [r[0] for r in conn.execute("SELECT DISTINCT variant FROM results ORDER BY variant")]


def _seconds(x: float) -> str:
    return f"{x:.3g}" if x < 10 else f"{x:.1f}"


def rules_line(s: VariantStats) -> str:
    """Which rules the rows were solved under: their fingerprint, and whether
    they are the shipped variant's."""
    shipped = load(s.variant).fingerprint if s.variant in names() else None
    if s.fingerprint is None:
        return "rules not recorded (stored before results carried them; a batch takes them as the shipped ones)"
    if shipped is None:
        return f"rules {s.fingerprint}"
    which = "the shipped rules" if s.fingerprint == shipped else f"not the shipped rules, {shipped}"
    return f"rules {s.fingerprint} ({which})"


def report(s: VariantStats) -> str:
    n = s.n

    def pct(k: int) -> str:
        return f"{100 * k / n:6.2f}%" if n else "      -"

    lines = [f"{s.variant}: {n:,} deals stored (deals {format_ranges(s.ranges)})", f"  {rules_line(s)}"]
    why = ", ".join(f"{k} {v:,}" for k, v in s.reasons.items())
    for name, k, extra in (("won", s.won, ""), ("lost", s.lost, ""),
                           ("unknown", s.unknown, f"  (stopped by: {why})" if why else "")):
        lines.append(f"  {name:<8}{k:>12,}  {pct(k)}{extra}")
    lo, hi = s.interval()
    if s.unknown:
        lines.append(f"  win rate {100 * s.won / n:.2f}% to {100 * (s.won + s.unknown) / n:.2f}%, "
                     f"95% Wilson interval {100 * lo:.2f}% to {100 * hi:.2f}%")
        lines.append("    (unknowns counted both ways: the low end counts them as lost, "
                     "the high end as won)")
    else:
        lines.append(f"  win rate {100 * s.won / n:.2f}%, 95% Wilson interval {100 * lo:.2f}% to {100 * hi:.2f}%")
    lines.append("")
    lines.append(f"  {'':<10}{'p50':>12}{'p90':>12}{'p99':>12}{'max':>12}")
    lines.append(f"  {'positions':<10}" + "".join(f"{percentile(s.positions, p):>12,}" for p in (50, 90, 99, 100)))
    lines.append(f"  {'seconds':<10}" + "".join(f"{_seconds(percentile(s.seconds, p)):>12}" for p in (50, 90, 99, 100)))
    lines.append("")
    lines.append(f"  hardest deals (top {len(s.hardest)} by seconds):")
    lines.append(f"  {'deal':>12}  {'verdict':<9}{'reason':<12}{'score':>5}{'positions':>14}{'seconds':>10}")
    for deal, verdict, reason, score, positions, seconds in s.hardest:
        lines.append(f"  {deal:>12}  {verdict:<9}{reason or '-':<12}{score:>5}{positions:>14,}{seconds:>10.3f}")
    lines.append("")
    if s.lost_scores:
        top = max(k for _, k in s.lost_scores)
        lines.append(f"  best score of the {s.lost:,} lost deals (cards home on the best line):")
        lines.append(f"  {'score':>6}{'deals':>10}{'share':>9}")
        for score, k in s.lost_scores:
            bar = "#" * max(1, round(40 * k / top))
            lines.append(f"  {score:>6}{k:>10,}{100 * k / s.lost:>8.1f}%  {bar}")
    else:
        lines.append("  no lost deals stored")
    return "\n".join(lines)


COLOURS = {"won": "#4c72b0", "lost": "#dd8452", "unknown": "#8c8c8c"}


def log_edges(a: float, b: float, bins: int = 40) -> list[float]:
    """``bins`` + 1 edges from ``a`` to ``b`` spaced evenly on a log scale;
    the last is ``b`` itself (``a * (b / a) ** 1.0`` can fall just below it,
    which would leave the largest value out of the histogram).

    >>> e = log_edges(0.22570802607848045, 59.894870794326096)
    >>> e[-1] == 59.894870794326096, len(e)
    (True, 41)
    """
    return [a * (b / a) ** (i / bins) for i in range(bins)] + [b]


def plot(all_stats: list[VariantStats], path: StrPath) -> None:
    """Draw the distributions to a PNG: a row per variant with seconds and positions
    per deal (log-log histograms stacked by verdict, percentiles marked) and the
    best scores of the lost deals."""
    try:
        import matplotlib
    except ImportError:
        raise BatchError("--plot needs matplotlib: pip install 'tomb-solver[plot]' "
                         "(or pip install matplotlib)") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    rows = len(all_stats)
    fig = plt.figure(figsize=(16, 5 * rows), layout="constrained")
    subfigs = fig.subfigures(rows, 1, squeeze=False)[:, 0] if rows > 1 else [fig]

    def in_seconds(x: float) -> str:
        return f"{_seconds(x)} s"

    def in_positions(x: float) -> str:
        return f"{x:,}"

    for sub, s in zip(subfigs, all_stats):
        ax_s, ax_p, ax_l = sub.subplots(1, 3)
        lo, hi = s.interval()
        columns: tuple[tuple[Any, int, Sequence[float], str, Callable[[float], str]], ...] = (
            (ax_s, 1, s.seconds, "seconds", in_seconds),
            (ax_p, 0, s.positions, "positions", in_positions),
        )
        for ax, which, values, what, fmt in columns:
            floor = 1e-6 if which else 1
            a = max(min(values), floor)
            b = max(max(values), a * 10)
            edges = log_edges(a, b)
            names = [v for v in ("won", "lost", "unknown") if len(s.split[v][which])]
            ax.hist([[max(x, floor) for x in s.split[v][which]] for v in names], bins=edges, stacked=True,
                    color=[COLOURS[v] for v in names], label=names)
            ax.set_xscale("log")
            ax.set_yscale("log")
            marks = []
            for p, style in ((50, "-"), (90, "--"), (99, ":")):
                x = percentile(values, p)
                ax.axvline(max(x, floor), color="#c44e52", linestyle=style, linewidth=1.2)
                marks.append(f"p{p} {fmt(x)}")
            ax.legend(fontsize=8, loc="upper center", ncol=3, framealpha=0.9)
            ax.set_xlabel(f"{what} per deal (log scale; red: p50, p90, p99)")
            ax.set_ylabel("deals (log scale)")
            ax.set_title(f"{what}: {', '.join(marks)}, max {fmt(values[-1])}", fontsize=10)
            ax.margins(y=0.25)
        if s.lost_scores:
            ax_l.bar([k for k, _ in s.lost_scores], [c for _, c in s.lost_scores], color=COLOURS["lost"])
            ax_l.set_xlim(min(k for k, _ in s.lost_scores) - 1.5, max(k for k, _ in s.lost_scores) + 1.5)
        else:
            ax_l.text(0.5, 0.5, "no lost deals", ha="center", va="center", transform=ax_l.transAxes)
            ax_l.set_xlim(-0.5, 52.5)
        ax_l.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax_l.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax_l.set_xlabel("best score of a lost deal (cards home on the best line)")
        ax_l.set_ylabel("lost deals")
        ax_l.set_title(f"best scores of the {s.lost:,} lost deals", fontsize=10)
        unk = " (unknowns counted both ways)" if s.unknown else ""
        sub.suptitle(
            f"{s.variant}: {s.n:,} deals: won {s.won:,}, lost {s.lost:,}, unknown {s.unknown:,}; "
            f"win rate {100 * s.won / s.n:.2f}%, 95% Wilson interval {100 * lo:.2f}% to {100 * hi:.2f}%{unk}",
            fontsize=12, fontweight="bold")
    try:
        fig.savefig(path, dpi=100)
    except (OSError, ValueError) as exc:
        raise BatchError(f"cannot write the plot {path}: {exc}") from None
    finally:
        plt.close(fig)


def stats(db: StrPath | None, variant: str | None = None, *,
          out: StrPath | None = None) -> list[VariantStats]:
    """The statistics of each variant stored in ``db`` (or of ``variant`` only);
    ``out``: of the Parquet files of ``batch --out`` instead."""
    _one_store(db, out)
    if out is not None:
        from . import parquet

        parquet.require()
        if not Path(out).is_dir():
            raise BatchError(f"{out}: no such directory of Parquet files")
        where = out
        found = [parquet.gather(out, name) for name in ([variant] if variant else parquet.variants(out))]
    else:
        assert db is not None       # one of the two (_one_store)
        where = db
        conn = connect(db, readonly=True)
        try:
            names = [variant] if variant else stored_variants(conn)
            found = [gather(conn, name) for name in names]
        except sqlite3.Error as exc:
            raise BatchError(f"{db}: cannot read the database ({exc})") from None
        finally:
            conn.close()
    found = [s for s in found if s.n]
    if not found:
        raise BatchError(f"{where}: no results stored" + (f" for variant {variant!r}" if variant else ""))
    return found


# ---------------------------------------------------------------------------
# Command line (the parsers are in solver/cli.py)


def cli_batch(args: argparse.Namespace) -> int:
    from .cli import variant_of

    variant = variant_of(args)
    assert variant is not None      # --variant has a default
    ranges = parse_deals(args.deals)
    if args.jobs is not None and args.jobs < 1:
        raise BatchError("--jobs must be at least 1")
    if args.workers is not None and args.workers < 1:
        raise BatchError("--workers must be at least 1")
    from .cli import limit_of

    limit = limit_of(args)
    summary = run_batch(args.db, variant, ranges, limit, jobs=args.jobs, retry_unknown=args.retry_unknown,
                        out=args.out, scheduler=args.scheduler, workers=args.workers,
                        connect_timeout=args.connect_timeout)
    print(summary)
    sys.stdout.flush()
    if summary.stopped_by is not None:
        return 128 + int(summary.stopped_by)
    return 0


def cli_stats(args: argparse.Namespace) -> int:
    from .cli import variant_of

    variant = variant_of(args)
    found = stats(args.db, variant.name if variant is not None else None, out=args.out)
    if args.variant_file is not None and variant is not None:
        s = found[0]
        why = rules_conflict(str(args.db or args.out), variant, s.fingerprint, s.fingerprint is None)
        if why is not None:
            raise BatchError(why)
    print("\n\n".join(report(s) for s in found))
    if args.plot:
        plot(found, args.plot)
        print(f"\nplot: {args.plot}")
    return 0
