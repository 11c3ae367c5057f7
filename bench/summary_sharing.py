"""What the summaries by control states share, and what they could.

A summary is the closure of its entry control state under the moves that
keep its top card; it expands each state it reaches. The core counts, while
solver_debug_summary_sharing is on (csrc/study.h, the study build), every expansion and the
distinct control states, (control state, top rank) pairs and (entry, control
state) pairs among them. Their ratios bound what sharing could save, in
expansions:

- expansions / (state, top): a dynamic programme per (state, top rank);
- expansions / (entry, state): one closure per entry control state for
  every top rank it is asked with (the ranks never asked cost more);
- expansions / state: each control state expanded once.

For each deal, a complete search with every shortcut (the default one), in
the study build of the core (bench/study.py):

    make study && .venv/bin/python bench/summary_sharing.py 78606 35118

``--eager``: each summary worked out together with those of every other rank
that could be on top of its control state (a rank with a card in the waste),
as one closure per control state for every rank would have to; the
(entry, state) pairs are then what such closures would visit.
"""

from __future__ import annotations

import argparse
import time

import study

study.load()
from solver import Limit, solve  # noqa: E402 (the study build's, once loaded)
from solver._core import ffi, lib  # noqa: E402


def count(deal: int, variant: str, eager: bool = False) -> tuple[str, int, float, list[int]]:
    """One complete search: its verdict, positions, CPU seconds, and the four
    counts (expansions, states, (state, top), (entry, state))."""
    counts = ffi.new("uint64_t[4]")
    lib.solver_debug_summary_sharing(2 if eager else 1, counts)
    try:
        start = time.process_time()
        r = solve(deal, variant, Limit.none())
        seconds = time.process_time() - start
    finally:
        lib.solver_debug_summary_sharing(0, counts)
    return r.verdict, r.stats.positions, seconds, list(counts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("deals", type=int, nargs="+")
    parser.add_argument("--variant", default="napoleonin-hauta")
    parser.add_argument("--eager", action="store_true", help="every rank that could be on top, at once")
    args = parser.parse_args()
    print(
        f"{'deal':>6} {'verdict':>7} {'positions':>11} {'cpu s':>6} {'expanded':>11} {'states':>10} "
        f"{'(st,top)':>10} {'(entry,st)':>10} {'/st':>5} {'/(st,top)':>9} {'/(entry,st)':>11}"
    )
    for deal in args.deals:
        verdict, positions, seconds, (expanded, states, pairs, entries) = count(deal, args.variant, args.eager)
        print(
            f"{deal:>6} {verdict:>7} {positions:>11,} {seconds:>6.2f} {expanded:>11,} {states:>10,} "
            f"{pairs:>10,} {entries:>10,} {expanded / max(states, 1):>5.2f} {expanded / max(pairs, 1):>9.2f} "
            f"{expanded / max(entries, 1):>11.2f}"
        )


if __name__ == "__main__":
    main()
