"""How much of a batch's CPU time its C searches take, and its deals a CPU second.

Runs ``python -m solver batch --jobs N`` into a fresh database and reads back
the rows' search seconds; the CPU time is the batch's and its workers'
(user + system, from the kernel's account of the children waited for).
``--tree`` runs another checkout's build (its ``.venv``), so that two versions
can be measured side by side, interleaved with ``--rounds``:

    .venv/bin/python bench/batch_share.py napoleons-tomb-3 1-20000 --tree ../old --tree . --rounds 2
"""

from __future__ import annotations

import argparse
import os
import resource
import sqlite3
import subprocess
import tempfile
from pathlib import Path


def measure(tree: Path, variant: str, deals: str, jobs: int) -> tuple[int, float, float]:
    """Deals solved, CPU seconds of the batch, and the rows' search seconds."""
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "batch.sqlite"
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(
            [
                str(tree / ".venv/bin/python"),
                "-m",
                "solver",
                "batch",
                "-v",
                variant,
                "-d",
                deals,
                "--db",
                str(db),
                "--jobs",
                str(jobs),
            ],
            cwd=tree,
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        with sqlite3.connect(db) as conn:
            n, search = conn.execute("SELECT COUNT(*), SUM(seconds) FROM results").fetchone()
    return n, cpu, search or 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant")
    parser.add_argument("deals")
    parser.add_argument("--tree", action="append", type=Path, help="a checkout with a built .venv (default: this one)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    trees = [t.resolve() for t in args.tree or [Path(__file__).resolve().parent.parent]]
    for _ in range(args.rounds):
        for tree in trees:
            n, cpu, search = measure(tree, args.variant, args.deals, args.jobs)
            print(
                f"{tree.name} {args.variant} {args.deals}: {n} deals, {cpu:.2f} s CPU, {n / cpu:.0f} deals a CPU "
                f"second, search {search:.2f} s = {search / cpu:.2f} of the CPU time",
                flush=True,
            )


if __name__ == "__main__":
    main()
