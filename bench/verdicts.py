"""Verdict counts over a range of deals with the default limits.

    .venv/bin/python bench/verdicts.py napoleons-tomb 1 100

prints one JSON line a deal and a TOTAL line (counts and wall-clock seconds).
"""

import json
import sys
import time

from solver import solve


def main() -> None:
    variant, lo, hi = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    counts: dict[str, int] = {}
    start = time.time()
    for n in range(lo, hi + 1):
        r = solve(n, variant)
        counts[r.verdict] = counts.get(r.verdict, 0) + 1
        row = {"deal": n, "verdict": r.verdict, "reason": r.reason, "score": r.score,
               "positions": r.stats.positions, "seconds": round(r.stats.seconds, 3)}
        print(json.dumps(row), flush=True)
    print("TOTAL", variant, counts, round(time.time() - start, 1), flush=True)


if __name__ == "__main__":
    main()
