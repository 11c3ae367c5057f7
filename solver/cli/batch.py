"""``batch`` (solve a range of deals into a database or Parquet files, in
local processes or on a Dask cluster) and ``stats`` (what is stored):
the command line of :mod:`solver.batch` (docs/batch.md)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from ..api import DEFAULT_VARIANT, Limit
from ..batch import BatchError, parse_deals, plot, report, rules_conflict, run_batch, stats
from .options import add_limit_args, add_variant_args, limit_of, positive, variant_of

if TYPE_CHECKING:
    from .options import Subparsers


def add_parsers(sub: Subparsers) -> None:
    _batch_parser(sub)
    _stats_parser(sub)


def _batch_parser(sub: Subparsers) -> None:
    b = sub.add_parser(
        "batch",
        help="solve a range of deals in parallel into an SQLite database (resumable)",
        description=(
            "Solve every deal of --deals that the database does not hold yet, in --jobs processes "
            "or on a Dask cluster (--scheduler), one row per deal; rerunning the same command resumes. "
            "Ctrl-C stops cleanly (exit 130). Exit 0 when every deal is stored, 2 on an error."
        ),
    )
    add_variant_args(b, DEFAULT_VARIANT, f"variant (default {DEFAULT_VARIANT})")
    b.add_argument(
        "--deals",
        "-d",
        required=True,
        help="deal numbers: N, A-B, or a comma list of both (e.g. 1-1000000 or 1-10,20-30)",
    )
    where = b.add_mutually_exclusive_group(required=True)
    where.add_argument("--db", metavar="FILE", help="the SQLite results database (created if missing)")
    where.add_argument(
        "--out", metavar="DIR", help="write a Parquet file per chunk into DIR instead of a database (needs pyarrow)"
    )
    b.add_argument("--jobs", "-j", type=int, default=None, help="worker processes (default: the number of CPUs)")
    b.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="solve on the Dask cluster of this scheduler (tcp://HOST:8786), or 'local' for a "
        "LocalCluster on this machine; needs pip install 'patience-solver[cluster]'",
    )
    b.add_argument(
        "--workers",
        type=int,
        default=None,
        help="with --scheduler local: worker processes (default: the number of CPUs)",
    )
    b.add_argument(
        "--connect-timeout",
        type=positive(float),
        default=10.0,
        metavar="SECONDS",
        help="with --scheduler: how long to wait for the scheduler and a first worker (default 10)",
    )
    b.add_argument(
        "--retry-unknown",
        action="store_true",
        help="solve again the deals stored as unknown (with these limits), replacing their rows",
    )
    add_limit_args(b, Limit(), "each deal")
    b.set_defaults(run=_batch)


def _stats_parser(sub: Subparsers) -> None:
    s = sub.add_parser(
        "stats",
        help="statistics of a batch database: counts, win rate, distributions, hardest deals",
        description=(
            "Won / lost / unknown, the win rate with a 95%% Wilson interval (unknowns counted both ways), "
            "percentiles of positions and seconds, the hardest deals, the best scores of lost deals. "
            "Exit 0, or 2 on an error."
        ),
    )
    where = s.add_mutually_exclusive_group(required=True)
    where.add_argument("--db", metavar="FILE", help="the SQLite results database of `batch`")
    where.add_argument("--out", metavar="DIR", help="the directory of Parquet files of `batch --out`")
    add_variant_args(s, None, "only this variant (default: each variant stored)")
    s.add_argument("--plot", metavar="FILE.png", help="draw the distributions to a PNG (needs matplotlib)")
    s.set_defaults(run=_stats)


def _batch(args: argparse.Namespace) -> int:
    variant = variant_of(args)
    assert variant is not None  # --variant has a default
    ranges = parse_deals(args.deals)
    if args.jobs is not None and args.jobs < 1:
        raise BatchError("--jobs must be at least 1")
    if args.workers is not None and args.workers < 1:
        raise BatchError("--workers must be at least 1")
    limit = limit_of(args)
    summary = run_batch(
        args.db,
        variant,
        ranges,
        limit,
        jobs=args.jobs,
        retry_unknown=args.retry_unknown,
        out=args.out,
        scheduler=args.scheduler,
        workers=args.workers,
        connect_timeout=args.connect_timeout,
    )
    print(summary)
    sys.stdout.flush()
    if summary.stopped_by is not None:
        return 128 + int(summary.stopped_by)
    return 0


def _stats(args: argparse.Namespace) -> int:
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
