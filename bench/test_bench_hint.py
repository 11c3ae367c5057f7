"""Time of a hint from positions of real games (issue 5), with pytest-benchmark.

Run: ``make bench`` (or ``.venv/bin/python -m pytest bench/test_bench_hint.py
--benchmark-enable --benchmark-only``), or as a script for the figures alone:
``.venv/bin/python bench/test_bench_hint.py``.

The positions: the careful blind player (solver.blind) plays deals 1-100 of the
classic and of the 3-card deal; from each game one position is taken, at a
point spread over the game (move ``(37 * deal) mod (moves + 1)``, so early,
middle and late positions all occur): 200 positions. Each gets one hint with
the default hint limit (solver.hints.DEFAULT_HINT_LIMIT, 2 s), one after the
other. The median and the 99th percentile of the times, and how many hints
were wins / lost / unknown, go into the benchmark's extra info. Not asserted:
a hint stopped by the limit takes the limit, by design.
"""

from __future__ import annotations

import statistics
import time

from solver import hint, play, position_after
from solver.hints import DEFAULT_HINT_LIMIT

VARIANTS = ("napoleons-tomb", "napoleons-tomb-3")
DEALS = range(1, 101)


def positions():
    """(variant, deal, move count, position) for the 200 positions."""
    out = []
    for variant in VARIANTS:
        for deal in DEALS:
            game = play(deal, variant, "careful")
            k = (37 * deal) % (len(game.moves) + 1)
            out.append((variant, deal, k, position_after(deal, variant, game.moves[:k])))
    return out


def percentile(values, q):
    """The q-th percentile (0..100), nearest rank."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * q // 100))
    return ordered[int(rank) - 1]


def time_hints(cases):
    times, statuses = [], {"won": 0, "lost": 0, "unknown": 0}
    per_variant = {v: [] for v in VARIANTS}
    for variant, _deal, _k, pos in cases:
        start = time.perf_counter()
        h = hint(pos, limit=DEFAULT_HINT_LIMIT)
        elapsed = time.perf_counter() - start
        times.append(elapsed)
        per_variant[variant].append(elapsed)
        statuses[h.verdict] += 1
    return times, statuses, per_variant


def summary(times, statuses, per_variant):
    info = {
        "positions": len(times),
        "median_s": round(statistics.median(times), 4),
        "p95_s": round(percentile(times, 95), 4),
        "p99_s": round(percentile(times, 99), 4),
        "max_s": round(max(times), 4),
        "limit_s": DEFAULT_HINT_LIMIT.seconds,
        **{f"hints_{k}": v for k, v in statuses.items()},
    }
    for variant, ts in per_variant.items():
        info[f"{variant}_median_s"] = round(statistics.median(ts), 4)
        info[f"{variant}_p99_s"] = round(percentile(ts, 99), 4)
        info[f"{variant}_max_s"] = round(max(ts), 4)
    return info


def test_hint_time_over_200_game_positions(benchmark):
    cases = positions()
    box = {}

    def run():
        box["out"] = time_hints(cases)

    benchmark.pedantic(run, rounds=1, iterations=1)
    benchmark.extra_info.update(summary(*box["out"]))


if __name__ == "__main__":
    import json

    print(json.dumps(summary(*time_hints(positions())), indent=1))
