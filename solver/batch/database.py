"""The SQLite results database: its schema, opening it (:func:`connect`),
the rules each variant's rows were solved under, which deals it holds, and
:class:`Database`, the store of a batch that writes to it.

One row per deal::

    results(variant, deal, verdict, reason, score, positions, seconds,
            table_bytes, line, limits, solved_at)

``line`` is the result in the solution format (:meth:`Result.dumps`),
``limits`` the limits of the search as JSON, ``solved_at`` an ISO-8601 UTC
time. A second table holds the rules each variant's rows were solved under::

    variants(variant, fingerprint, rules)

and a batch refuses to add deals of a variant whose rules differ from those
recorded (:func:`check_rules`), so that one database holds one set of rules
per variant name. The parent process is the only writer (WAL mode, a commit
for each chunk of deals a worker hands back); the workers only solve.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from ..inputs import brief, shown_path
from ..variants import BaseVariant, load, names, shipped
from .ranges import Ranges
from .rows import COLUMNS, BatchError, Row, StrPath

#: The page size of a new database, in bytes (SQLite's largest).
PAGE_SIZE = 65536
SCHEMA_VERSION = 2  # 2: the variants table of rules fingerprints

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
INSERT INTO results ({", ".join(COLUMNS)}) VALUES ({", ".join("?" * len(COLUMNS))})
ON CONFLICT (variant, deal) DO UPDATE SET
    {", ".join(f"{c} = excluded.{c}" for c in COLUMNS[2:])}
WHERE results.verdict = 'unknown'
"""


# ---------------------------------------------------------------------------
# Opening the database


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
        raise BatchError(
            f"{path}: holds the tables {', '.join(tables)} and no results table: not a batch"
            " database (give a new file or the database of an earlier batch)"
        )
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
    rules of the shipped variant of that name. (A directory of Parquet files
    asks it too: :meth:`solver.batch.parquet.ParquetStore.check_rules`.)"""
    if recorded is not None and recorded != v.fingerprint:
        return f"{where}: holds {v.name} deals solved under the rules {recorded}, not {_describe(v)}"
    if unrecorded and not shipped(v):
        taken = (
            f"the rules of the shipped {v.name} ({load(v.name).fingerprint})"
            if v.name in names()
            else f"rules it cannot tell ({v.name} is no shipped variant)"
        )
        return (
            f"{where}: holds {v.name} deals stored before the rules were recorded, taken as {taken}, not {_describe(v)}"
        )
    return None


def check_rules(conn: sqlite3.Connection, v: BaseVariant, where: str) -> None:
    """Refuses (:class:`BatchError`) to add ``v``'s deals to a database that
    holds deals of its name solved under other rules."""
    recorded = recorded_rules(conn, v.name)
    unrecorded = (
        recorded is None
        and conn.execute("SELECT 1 FROM results WHERE variant = ? LIMIT 1", (v.name,)).fetchone() is not None
    )
    why = rules_conflict(where, v, recorded, unrecorded)
    if why is not None:
        raise BatchError(f"{why}: one store holds one set of rules a variant; give another --db or --out")


def record_rules(conn: sqlite3.Connection, v: BaseVariant, where: str) -> None:
    """Check (as :func:`check_rules`) and record ``v``'s rules, in one write
    transaction, so that two batches started at once cannot both record."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        check_rules(conn, v, where)
        conn.execute(
            "INSERT INTO variants (variant, fingerprint, rules) VALUES (?, ?, ?) ON CONFLICT (variant) DO NOTHING",
            (v.name, v.fingerprint, v.rules_json()),
        )
    except BaseException:
        conn.rollback()
        raise
    conn.commit()


def _check_before(path: Path, variant: BaseVariant) -> None:
    """:func:`check_rules` on an existing database, read-only: a batch refused
    leaves the file as it was."""
    try:
        tables = _check_foreign(path)
    except sqlite3.Error as exc:
        raise BatchError(f"{path}: cannot use the database ({exc})") from None
    if "results" not in tables:
        return
    conn = connect(path, readonly=True)  # checks the table's columns
    try:
        check_rules(conn, variant, str(path))
    except sqlite3.Error as exc:
        raise BatchError(f"{path}: cannot use the database ({exc})") from None
    finally:
        conn.close()


# ---------------------------------------------------------------------------
# The deals stored


def _done_clause(retry_unknown: bool) -> str:
    return " AND verdict != 'unknown'" if retry_unknown else ""


def count_done(conn: sqlite3.Connection, variant: str, ranges: Ranges, retry_unknown: bool = False) -> int:
    """How many deals of ``ranges`` the database already holds (decided ones only with retry)."""
    sql = f"SELECT COUNT(*) FROM results WHERE variant = ? AND deal BETWEEN ? AND ?{_done_clause(retry_unknown)}"
    return sum(int(conn.execute(sql, (variant, a, b)).fetchone()[0]) for a, b in ranges)


def to_solve(
    conn: sqlite3.Connection, variant: str, ranges: Ranges, retry_unknown: bool = False, window: int = 20_000
) -> Iterator[int]:
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
# The store of a batch


class Database:
    """The SQLite results database as the store of a batch: which deals it holds,
    and a commit for each chunk of rows."""

    pack: str | None = None  # the workers hand back plain rows

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
