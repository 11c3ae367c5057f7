"""Batch results as Parquet files: ``batch --out DIR`` and ``stats --out DIR``.

A run of 10^8 deals does not fit one SQLite file comfortably (the lines come
to some 700 GB), so ``--out DIR`` writes each chunk of rows as one Parquet
file instead, with the columns and values of the database's table
(:data:`solver.batch.rows.COLUMNS`), compressed with zstd::

    DIR/<variant>/<first deal>-<last deal>-<token>.parquet

The rows are encoded where they were solved (a worker process, or a Dask
worker): the client only writes the bytes, first to a hidden temporary file
that is renamed into place, so a file is whole or absent. Each file's footer
says which deals it holds and how many are unknown, so that a rerun finds
what is done from the footers alone (:class:`ParquetStore`). The footer
also carries the fingerprint of the rules the rows were solved under, and a
batch refuses to add files of other rules to a variant's folder.

A deal may be in several files: ``--retry-unknown`` writes new rows for the
unknown ones and leaves the old files as they are. Readers take, for each
deal, the first row decided (won or lost), else the last unknown row: the row
the database would hold (:func:`read_rows`).
"""

from __future__ import annotations

import io
import json
import os
import secrets
from array import array
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..variants import BaseVariant
from .database import rules_conflict
from .ranges import Ranges
from .rows import COLUMNS, BatchError, Row, StrPath
from .statistics import VariantStats

if TYPE_CHECKING:
    import pyarrow as pa

#: The key of the rows' metadata in a Parquet file's footer: the distribution's first name,
#: kept so that the files written before its rename still read.
_KEY = b"tomb-solver"


def require() -> None:
    try:
        import pyarrow
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        raise BatchError(
            "--out (Parquet files) needs pyarrow, which is not installed: "
            "pip install 'patience-solver[cluster]' (or pip install pyarrow)"
        ) from None


def schema() -> pa.Schema:
    import pyarrow as pa

    kinds = {
        "variant": pa.string(),
        "deal": pa.int64(),
        "verdict": pa.string(),
        "reason": pa.string(),
        "score": pa.int64(),
        "positions": pa.int64(),
        "seconds": pa.float64(),
        "table_bytes": pa.int64(),
        "line": pa.string(),
        "limits": pa.string(),
        "solved_at": pa.string(),
    }
    return pa.schema([pa.field(c, kinds[c], nullable=(c == "reason")) for c in COLUMNS])


def pack_rows(rows: list[Row], fingerprint: str | None = None) -> dict[str, Any]:
    """A chunk's rows as one Parquet file's bytes, and what the client needs to
    know of them without reading them; ``fingerprint``: of the rules they were
    solved under, kept in the footer."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    counts = {"won": 0, "lost": 0, "unknown": 0}
    for row in rows:
        counts[row[2]] += 1
    if not rows:
        return {"counts": counts, "data": b""}
    deals = [row[1] for row in rows]
    about = {
        "variant": rows[0][0],
        "deals": len(rows),
        "first": min(deals),
        "last": max(deals),
        "unknown": counts["unknown"],
        "fingerprint": fingerprint,
    }
    s = schema().with_metadata({_KEY: json.dumps(about).encode()})
    table = pa.Table.from_arrays([pa.array([row[i] for row in rows], f.type) for i, f in enumerate(s)], schema=s)
    sink = io.BytesIO()
    pq.write_table(table, sink, compression="zstd")
    return {"counts": counts, "data": sink.getvalue(), **about}


def _merge(intervals: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for a, b in sorted(intervals):
        if merged and a <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], b))
        else:
            merged.append((a, b))
    return merged


def _files(directory: Path) -> list[Path]:
    return sorted(p for p in directory.glob("*.parquet") if not p.name.startswith("."))


def _about(path: Path) -> dict[str, Any]:
    import pyarrow.parquet as pq

    try:
        meta = pq.read_metadata(path)
        about: dict[str, Any] = json.loads(meta.metadata[_KEY])
        return about
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise BatchError(f"{path}: not a Parquet file of `batch --out` ({exc}); move it away and rerun") from None


class ParquetStore:
    """A directory of Parquet files as the store of a batch."""

    pack: str | None = "parquet"  # the workers hand back packed files (pack_rows)

    def __init__(self, directory: StrPath, variant: BaseVariant | None = None) -> None:
        require()
        self.dir = Path(directory)
        self.where = str(directory)
        self.fingerprint = variant.fingerprint if variant is not None else None
        if self.dir.exists() and not self.dir.is_dir():
            raise BatchError(f"{directory}: is a file, not a directory for Parquet files")
        if variant is not None:
            self.check_rules(variant)
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise BatchError(f"{directory}: cannot make the directory ({exc.strerror or exc})") from None
        self._done: dict[tuple[str, bool], list[tuple[int, int]]] = {}

    def pack_rows(self, rows: list[Row]) -> dict[str, Any]:
        """Rows the client itself makes (a deal that crashed), packed as a worker would."""
        return pack_rows(rows, self.fingerprint)

    def check_rules(self, variant: BaseVariant) -> None:
        """Refuses (:class:`BatchError`) a folder of ``variant``'s name that holds
        files of other rules (:func:`solver.batch.database.check_rules`)."""
        found = rules_of(self.dir, variant.name)
        recorded = next((f for f in found if f is not None and f != variant.fingerprint), None)
        if recorded is None and variant.fingerprint in found:
            recorded = variant.fingerprint
        why = rules_conflict(str(self.dir / variant.name), variant, recorded, None in found)
        if why is not None:
            raise BatchError(f"{why}: one store holds one set of rules a variant; give another --db or --out")

    def done(self, variant: str, retry_unknown: bool) -> list[tuple[int, int]]:
        """The deals stored (decided ones only, with retry), as merged intervals;
        from the files' footers, reading the deals of a file only when its deals
        are not one run or, with retry, some are unknown."""
        key = (variant, retry_unknown)
        if key not in self._done:
            import pyarrow.compute as pc
            import pyarrow.parquet as pq

            intervals: list[tuple[int, int]] = []
            for path in _files(self.dir / variant):
                about = _about(path)
                if about["last"] - about["first"] + 1 == about["deals"] and not (retry_unknown and about["unknown"]):
                    intervals.append((about["first"], about["last"]))
                    continue
                table = pq.read_table(path, columns=["deal", "verdict"])
                if retry_unknown:
                    table = table.filter(pc.not_equal(table["verdict"], "unknown"))
                intervals.extend((n, n) for n in table["deal"].to_pylist())
            self._done[key] = _merge(intervals)
        return self._done[key]

    def count_done(self, variant: str, ranges: Ranges, retry_unknown: bool) -> int:
        done = self.done(variant, retry_unknown)
        return sum(max(0, min(b, d) - max(a, c) + 1) for a, b in ranges for c, d in done)

    def to_solve(self, variant: str, ranges: Ranges, retry_unknown: bool) -> Iterator[int]:
        done = self.done(variant, retry_unknown)
        for a, b in ranges:
            n = a
            for c, d in done:
                if d < n:
                    continue
                if c > b:
                    break
                yield from range(n, c)
                n = max(n, d + 1)
            yield from range(n, b + 1)

    def write(self, packed: dict[str, Any]) -> dict[str, int]:
        """Store one chunk's file (whole, or not at all); its verdicts counted."""
        if packed["data"]:
            folder = self.dir / packed["variant"]
            folder.mkdir(exist_ok=True)
            name = f"{packed['first']}-{packed['last']}-{secrets.token_hex(4)}.parquet"
            tmp = folder / f".{name}.tmp"
            try:
                with open(tmp, "wb") as f:
                    f.write(packed["data"])
                    f.flush()
                    os.fsync(f.fileno())
                os.replace(tmp, folder / name)
            except OSError as exc:
                raise BatchError(f"{folder / name}: cannot write the chunk's file ({exc.strerror or exc})") from None
        counts: dict[str, int] = packed["counts"]
        return counts

    def close(self) -> None:
        pass


# ---------------------------------------------------------------------------
# Reading


def rules_of(directory: StrPath, variant: str) -> set[str | None]:
    """The fingerprints in the footers of ``variant``'s files (``None`` for a
    file written before footers carried one)."""
    return {_about(p).get("fingerprint") for p in _files(Path(directory) / variant)}


def variants(directory: StrPath) -> list[str]:
    return sorted(p.name for p in Path(directory).iterdir() if p.is_dir() and _files(p))


def read_rows(directory: StrPath, variant: str, columns: list[str] | None = None) -> pa.Table:
    """The rows of ``variant`` stored in ``directory``, one per deal (the row
    the database would hold), sorted by deal: a pyarrow Table of ``columns``."""
    require()
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    columns = list(columns or COLUMNS)
    need = list(dict.fromkeys(columns + ["deal", "verdict"]))
    files = _files(Path(directory) / variant)
    for path in files:
        _about(path)  # a clear error for a file not ours
    if not files:
        return schema().empty_table().select(columns)
    table = pa.concat_tables([pq.read_table(p, columns=need) for p in files]).sort_by("deal")
    if pc.count_distinct(table["deal"]).as_py() != len(table):
        # Decided rows first, the earliest of them; else the latest unknown row.
        full = (
            table
            if "solved_at" in need
            else pa.concat_tables([pq.read_table(p, columns=need + ["solved_at"]) for p in files])
        )
        decided = full.filter(pc.not_equal(full["verdict"], "unknown"))
        decided = _first_per_deal(decided.sort_by([("deal", "ascending"), ("solved_at", "ascending")]))
        unknown = full.filter(
            pc.and_(pc.equal(full["verdict"], "unknown"), pc.invert(pc.is_in(full["deal"], decided["deal"])))
        )
        unknown = _first_per_deal(unknown.sort_by([("deal", "ascending"), ("solved_at", "descending")]))
        table = pa.concat_tables([decided, unknown]).sort_by("deal")
    return table.select(columns)


def _first_per_deal(table: pa.Table) -> pa.Table:
    """The first row of each run of equal deals (``table`` sorted by deal)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if len(table) < 2:
        return table
    deals = table["deal"].combine_chunks()
    keep = pc.not_equal(deals.slice(1), deals.slice(0, len(deals) - 1))
    return table.filter(pa.concat_arrays([pa.array([True]), keep]))


def _typed(typecode: str, values: pa.Array | pa.ChunkedArray) -> array[Any]:
    """A pyarrow column of int64 or float64 as an ``array`` (copied from its buffer)."""
    import pyarrow as pa

    values = values.combine_chunks() if isinstance(values, pa.ChunkedArray) else values
    out = array(typecode)
    if len(values):
        width = out.itemsize
        out.frombytes(memoryview(values.buffers()[1])[values.offset * width : (values.offset + len(values)) * width])
    return out


def gather(directory: StrPath, variant: str) -> VariantStats:
    """:func:`solver.batch.statistics.gather` for a directory of Parquet files."""
    import pyarrow.compute as pc

    t = read_rows(directory, variant, ["deal", "verdict", "reason", "score", "positions", "seconds"])
    counts = {str(s["values"]): s["counts"] for s in pc.value_counts(t["verdict"]).to_pylist()}
    unknown = t.filter(pc.equal(t["verdict"], "unknown"))
    reasons = sorted(
        ((str(s["values"]), s["counts"]) for s in pc.value_counts(unknown["reason"]).to_pylist()),
        key=lambda kv: (-kv[1], kv[0]),
    )
    deals = t["deal"].combine_chunks()
    ranges = []
    if len(deals):
        breaks = pc.indices_nonzero(pc.not_equal(pc.pairwise_diff(deals), 1).fill_null(False)).to_pylist()
        starts = [0, *breaks]
        ends = [b - 1 for b in breaks] + [len(deals) - 1]
        ranges = [(deals[s].as_py(), deals[e].as_py()) for s, e in zip(starts, ends)]
    split = {}
    for v in ("won", "lost", "unknown"):
        part = t.filter(pc.equal(t["verdict"], v))
        split[v] = (_typed("q", part["positions"]), _typed("d", part["seconds"]))
    positions = t["positions"].combine_chunks()
    seconds = t["seconds"].combine_chunks()
    hardest = [
        tuple(r.values())
        for r in t.sort_by([("seconds", "descending"), ("deal", "ascending")])
        .slice(0, 10)
        .select(["deal", "verdict", "reason", "score", "positions", "seconds"])
        .to_pylist()
    ]
    lost = t.filter(pc.equal(t["verdict"], "lost"))
    lost_scores = sorted(
        (r["score"], r["score_count"]) for r in lost.group_by("score").aggregate([("score", "count")]).to_pylist()
    )
    recorded = sorted(f for f in rules_of(directory, variant) if f is not None)
    return VariantStats(
        variant,
        counts.get("won", 0),
        counts.get("lost", 0),
        counts.get("unknown", 0),
        dict(reasons),
        ranges,
        _typed("q", positions.take(pc.array_sort_indices(positions))),
        _typed("d", seconds.take(pc.array_sort_indices(seconds))),
        hardest,
        lost_scores,
        split,
        ", ".join(recorded) or None,
    )
