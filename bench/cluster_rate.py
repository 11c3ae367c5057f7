"""Deals per second of `batch` on the process pool and on a Dask LocalCluster,
side by side (issue 21; the figures are in docs/batch.md).

Run: ``.venv/bin/python bench/cluster_rate.py [--deals 1-2000] [--rounds 3]``.

Each round runs, for each variant, every engine on the same deals, one after
the other (interleaved, so that a change of the machine's load falls on all
of them): ``--jobs 1`` and ``--jobs 2``, ``--scheduler local --workers 1`` and
``--workers 2``, each as its own ``python -m solver batch`` into a new
database. A run's CPU time is that of the whole process tree (the batch and
every worker it started, from ``os.wait4``), so other work on the machine
does not distort it; its wall time does. A run of one deal gives each
engine's fixed cost (start and end of its processes), which is taken off:
the rates are those of the steady state. The median of the rounds is printed.

``--overhead``: the cost of one chunk instead: 2,000 chunks of one 3-card deal
each (a deal of 0.05 ms), on one process or one Dask worker, minus the same
deals in chunks of 500.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINES = {
    "pool 1": ["--jobs", "1"],
    "pool 2": ["--jobs", "2"],
    "dask 1": ["--scheduler", "local", "--workers", "1"],
    "dask 2": ["--scheduler", "local", "--workers", "2"],
}


def run(variant: str, deals: str, engine: list[str], extra=()) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as tmp:
        args = [
            sys.executable,
            "-m",
            "solver",
            "batch",
            "--variant",
            variant,
            "--deals",
            deals,
            "--db",
            os.path.join(tmp, "r.sqlite"),
            *engine,
            *extra,
        ]
        start = time.monotonic()
        proc = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.monotonic() - start
        err = proc.stderr.read().decode()
        proc.stdout.close()
        proc.stderr.close()
        if status != 0:
            sys.exit(f"failed: {' '.join(args)}\n{err}")
        return wall, usage.ru_utime + usage.ru_stime


def count(deals: str) -> int:
    from solver.batch import parse_deals

    return sum(b - a + 1 for a, b in parse_deals(deals))


def rates(args) -> None:
    n = count(args.deals)
    first = args.deals.split("-")[0].split(",")[0]
    results: dict[tuple[str, str], list[tuple[float, float]]] = {}
    fixed: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for r in range(args.rounds):
        for variant in args.variants:
            for name, engine in ENGINES.items():
                fixed.setdefault((variant, name), []).append(run(variant, first, engine))
                results.setdefault((variant, name), []).append(run(variant, args.deals, engine))
                w, c = results[(variant, name)][-1]
                print(f"round {r + 1} {variant:<18} {name}: {w:7.1f} s wall {c:7.1f} s CPU", file=sys.stderr)
    print(f"deals {args.deals} ({n:,}), {args.rounds} rounds, median; fixed cost (a run of one deal) taken off")
    print(
        f"{'variant':<18} {'engine':<7} {'wall s':>7} {'CPU s':>7} {'fixed wall':>10} {'fixed CPU':>9} "
        f"{'deals/s':>8} {'deals/CPU-s':>11} {'vs pool':>8}"
    )
    for variant in args.variants:
        base = None
        for name in ENGINES:
            w = statistics.median(x for x, _ in results[(variant, name)])
            c = statistics.median(x for _, x in results[(variant, name)])
            fw = statistics.median(x for x, _ in fixed[(variant, name)])
            fc = statistics.median(x for _, x in fixed[(variant, name)])
            per_cpu = n / max(c - fc, 1e-9)
            if name == "pool 1":
                base = per_cpu
            print(
                f"{variant:<18} {name:<7} {w:7.1f} {c:7.1f} {fw:10.1f} {fc:9.1f} "
                f"{n / max(w - fw, 1e-9):8.1f} {per_cpu:11.1f} {per_cpu / base:8.3f}"
            )


def overhead(args) -> None:
    """Seconds of wall and CPU per chunk: 2,000 one-deal chunks against four of 500."""
    code = (
        "import sys\n"
        "from solver import batch, Limit\n"
        "from solver.batch import Feed, run\n"
        "size = int(sys.argv[1])\n"
        "class Fixed(Feed):\n"
        "    def take(self, share=1):\n"
        "        self.chunk = size\n"
        "        return super().take()\n"
        "    def record(self, packed, wall):\n"
        "        n = super().record(packed, wall)\n"
        "        self.chunk = size\n"
        "        return n\n"
        "run.Feed = Fixed\n"
        "kw = dict(scheduler='local', workers=1) if sys.argv[2] == 'dask' else dict(jobs=1)\n"
        "batch.run_batch(sys.argv[3], 'napoleons-tomb-3', [(1, 2000)], Limit(), progress=None, **kw)\n"
    )
    out = {}
    for _ in range(args.rounds):
        for engine in ("pool", "dask"):
            for size in (1, 500):
                with tempfile.TemporaryDirectory() as tmp:
                    start = time.monotonic()
                    proc = subprocess.Popen(
                        [sys.executable, "-c", code, str(size), engine, os.path.join(tmp, "r.sqlite")], cwd=ROOT
                    )
                    _, status, usage = os.wait4(proc.pid, 0)
                    if status:
                        sys.exit("failed")
                    out.setdefault((engine, size), []).append(
                        (time.monotonic() - start, usage.ru_utime + usage.ru_stime)
                    )
    print(
        f"per chunk (2,000 chunks of 1 deal minus 4 chunks of 500; one process or one worker), median of {args.rounds}"
    )
    for engine in ("pool", "dask"):
        w1, c1 = (statistics.median(x[i] for x in out[(engine, 1)]) for i in (0, 1))
        w5, c5 = (statistics.median(x[i] for x in out[(engine, 500)]) for i in (0, 1))
        print(f"{engine}: {1000 * (w1 - w5) / 1996:.2f} ms wall, {1000 * (c1 - c5) / 1996:.2f} ms CPU a chunk")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", default="1-2000")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--variants", nargs="+", default=["napoleons-tomb", "napoleonin-hauta"])
    p.add_argument("--overhead", action="store_true", help="measure the cost of a chunk instead")
    args = p.parse_args()
    overhead(args) if args.overhead else rates(args)


if __name__ == "__main__":
    main()
