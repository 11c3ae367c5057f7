"""Hard deals solved side by side by several checkouts: CPU seconds, positions, peak RSS.

Each (tree, deal) runs in a fresh process of that checkout's ``.venv`` with
``Limit.none()``, trees interleaved round by round, so that a change of the
machine's speed falls on both alike:

    .venv/bin/python bench/hard_deals.py --tree ../old --tree . --rounds 3 \\
        napoleonin-hauta:78606 napoleonin-hauta:35118 napoleons-tomb:361030
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
from pathlib import Path
from typing import Any

CHILD = """
import json, resource, sys, time
from solver import Limit, solve
variant, deal = sys.argv[1], int(sys.argv[2])
t = time.process_time()
r = solve(deal, variant, Limit.none())
cpu = time.process_time() - t
print(json.dumps({"verdict": r.verdict, "score": r.score, "positions": r.stats.positions,
                  "search": r.stats.seconds, "cpu": cpu,
                  "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def run(tree: Path, variant: str, deal: int) -> dict[str, Any]:
    """One solve of the deal in a fresh process of tree's .venv: the child's JSON."""
    out = subprocess.run(
        [str(tree / ".venv/bin/python"), "-c", CHILD, variant, str(deal)],
        cwd=tree,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    result: dict[str, Any] = json.loads(out)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("deals", nargs="+", help="VARIANT:NUMBER")
    parser.add_argument("--tree", action="append", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    trees = [t.resolve() for t in args.tree]
    for spec in args.deals:
        variant, _, number = spec.rpartition(":")
        seen: dict[Path, list[float]] = {t: [] for t in trees}
        for i in range(args.rounds):
            for tree in trees if i % 2 == 0 else trees[::-1]:
                r = run(tree, variant, int(number))
                seen[tree].append(r["cpu"])
                print(
                    f"{tree.name:>10} {spec}: {r['verdict']} {r['score']}, {r['positions']:,} positions, "
                    f"search {r['search']:.2f} s, CPU {r['cpu']:.2f} s, peak RSS {r['rss']:.0f} MiB",
                    flush=True,
                )
        if len(trees) > 1:
            base = statistics.median(seen[trees[0]])
            for tree in trees[1:]:
                ratios = [c / b for c, b in zip(seen[tree], seen[trees[0]])]
                print(
                    f"{spec}: {tree.name} / {trees[0].name} CPU: median {statistics.median(seen[tree]) / base:.3f}, "
                    f"round by round {min(ratios):.3f}-{max(ratios):.3f}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
