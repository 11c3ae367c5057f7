"""Where a batch keeps its rows: the :class:`Store` protocol that its two
stores follow (:class:`~solver.batch.database.Database`, an SQLite file;
:class:`~solver.batch.parquet.ParquetStore`, a directory of Parquet files),
:func:`open_store` for a batch, and :func:`stats`, the statistics of either
for the ``stats`` command."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol

from ..variants import BaseVariant
from . import parquet
from .database import Database, connect
from .ranges import Ranges
from .rows import BatchError, Row, StrPath
from .statistics import VariantStats, gather, stored_variants


class Store(Protocol):
    """Where a batch keeps its rows: a :class:`Database`, or a directory of
    Parquet files (:class:`solver.batch.parquet.ParquetStore`). Its rows travel to
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


def _one_store(db: StrPath | None, out: StrPath | None) -> None:
    if (db is None) == (out is None):
        raise BatchError(
            "give --db FILE (an SQLite database) or --out DIR (Parquet files)"
            + (", not both" if db is not None else "")
        )


def open_store(db: StrPath | None, out: StrPath | None, variant: BaseVariant | None = None) -> Store:
    """The store of a batch: the SQLite database ``db`` or the Parquet directory
    ``out``; with ``variant``, one that holds no deal of its name under other rules."""
    _one_store(db, out)
    if db is not None:
        return Database(db, variant)
    assert out is not None  # one of the two (_one_store)
    return parquet.ParquetStore(out, variant)


def stats(db: StrPath | None, variant: str | None = None, *, out: StrPath | None = None) -> list[VariantStats]:
    """The statistics of each variant stored in ``db`` (or of ``variant`` only);
    ``out``: of the Parquet files of ``batch --out`` instead."""
    _one_store(db, out)
    if out is not None:
        parquet.require()
        if not Path(out).is_dir():
            raise BatchError(f"{out}: no such directory of Parquet files")
        where = out
        found = [parquet.gather(out, name) for name in ([variant] if variant else parquet.variants(out))]
    else:
        assert db is not None  # one of the two (_one_store)
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
