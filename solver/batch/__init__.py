"""Batch runs: solve ranges of deals in parallel processes into SQLite, and
the statistics of what is stored.

``python -m solver batch --variant V --deals 1-1000000 --db results.sqlite``
solves every deal of the range that the database does not hold yet (so the
same command resumes after Ctrl-C or a crash), one row per deal
(database.py has the table). ``--scheduler tcp://HOST:8786`` (or ``local``)
sends the chunks to a Dask cluster instead (cluster.py); ``--out DIR``
writes a Parquet file per chunk instead of the database (parquet.py).
Either way the client alone writes, and the rows are the same.
``python -m solver stats --db results.sqlite`` (or ``--out DIR``) reads it
back: counts, the win rate with its Wilson interval, distributions, the
hardest deals.

A module a concern, each importing only those above it here:

- ``ranges.py``: ``--deals`` as ranges (:func:`parse_deals`) and back;
- ``rows.py``: a row's columns, the row of a crashed deal, :class:`BatchError`;
- ``database.py``: the SQLite schema, :func:`connect`, the rules recorded
  for each variant, the deals stored, :class:`Database`;
- ``statistics.py``: :class:`VariantStats`, :func:`gather`, :func:`report`;
- ``parquet.py``: the Parquet store (the ``cluster`` extra's pyarrow);
- ``store.py``: the :class:`Store` protocol, :func:`open_store`, :func:`stats`;
- ``progress.py``: the progress line or bar, the :class:`Summary`;
- ``feed.py``: the deals cut into chunks for the workers (:class:`Feed`);
- ``workers.py``: what runs in a worker process (:func:`solve_chunk`);
- ``pool.py``: the local pool of processes; ``cluster.py``: a Dask cluster;
- ``run.py``: :func:`run_batch`, which puts them together;
- ``plots.py``: ``stats --plot`` (matplotlib).

The commands' handlers are in solver/cli/batch.py. The names below are
those of this package before it was split, for ``from solver.batch import ...``.

>>> format_ranges(parse_deals("20-30,1-10"))
'1-10,20-30'
"""

from .database import _SCHEMA as _SCHEMA
from .database import _UPSERT as _UPSERT
from .database import (
    PAGE_SIZE,
    SCHEMA_VERSION,
    Database,
    check_rules,
    connect,
    count_done,
    found_note,
    record_rules,
    recorded_rules,
    rules_conflict,
    to_solve,
)
from .feed import Feed
from .plots import COLOURS, log_edges, plot
from .pool import start_method
from .progress import Progress, Summary
from .ranges import MAX_STORED_DEAL, Ranges, format_ranges, parse_deals
from .rows import COLUMNS, BatchError, Row, StrPath, crashed_row
from .run import run_batch
from .statistics import VariantStats, gather, percentile, report, rules_line, stored_variants
from .store import Store, open_store, stats
from .workers import solve_chunk

#: The chunk function's name before the split (tests/test_batch_path.py).
_solve_chunk = solve_chunk

__all__ = [
    "run_batch",
    "Summary",
    "Progress",
    "Feed",
    "start_method",
    "solve_chunk",
    "crashed_row",
    "parse_deals",
    "format_ranges",
    "MAX_STORED_DEAL",
    "Ranges",
    "BatchError",
    "COLUMNS",
    "Row",
    "StrPath",
    "PAGE_SIZE",
    "SCHEMA_VERSION",
    "connect",
    "found_note",
    "recorded_rules",
    "rules_conflict",
    "check_rules",
    "record_rules",
    "count_done",
    "to_solve",
    "Database",
    "Store",
    "open_store",
    "stats",
    "VariantStats",
    "gather",
    "percentile",
    "report",
    "rules_line",
    "stored_variants",
    "plot",
    "log_edges",
    "COLOURS",
]
