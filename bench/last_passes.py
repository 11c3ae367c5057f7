"""What bounds a free Paciência Napoleão search: its last-pass starts.

Under the free rules a round may be dealt at any time, so each pass can end
in many ways, and every different set of cards sent home in the first two
passes starts a last pass of its own (a pack of its own to deal). The core
counts them while solver_debug_last_passes is on (csrc/study.h, in the
study build: bench/study.py): the redeals into the last pass and the
distinct starts they make. For each deal and each positions limit, a fresh
search (its restarts off: one complete search, so the counts are its own)
prints the positions, seconds, and both counts, and how many positions a
last-pass start has cost so far:

    make study && .venv/bin/python bench/last_passes.py 258 222 1 --limits 5e6 2e7 1e8

``--first-passes``: the last passes left unexplored (their positions have no
moves), so that the search, if it ends, has met every last-pass start the
first two passes can make: their number, and the positions of those passes.
"""

from __future__ import annotations

import argparse

import study

study.load()
from solver import Limit, solve  # noqa: E402 (the study build's, once loaded)
from solver._core import ffi, lib  # noqa: E402
from solver.core import shortcuts_of  # noqa: E402


def count(
    deal: int, variant: str, positions: int, mode: int = 1, memory: int = 2**31
) -> tuple[str, int, float, int, int, int]:
    """One search within ``positions``: its verdict, positions, seconds, best
    score, and the redeals into the last pass and the distinct starts."""
    redeals, distinct = ffi.new("uint64_t *"), ffi.new("uint64_t *")
    lib.solver_debug_last_passes(mode, redeals, distinct)
    try:
        shortcuts = set(shortcuts_of("napoleao")) - {"restarts"}
        r = solve(deal, variant, Limit(positions=positions, seconds=3600, memory=memory), shortcuts=shortcuts)
    finally:
        lib.solver_debug_last_passes(0, redeals, distinct)
    reason = f"{r.verdict}/{r.reason}" if r.reason else r.verdict
    return reason, r.stats.positions, r.stats.seconds, r.score, redeals[0], distinct[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("deals", type=int, nargs="+")
    parser.add_argument("--variant", default="paciencia-napoleao-free")
    parser.add_argument("--limits", type=float, nargs="+", default=[5e6, 2e7, 5e7])
    parser.add_argument("--first-passes", action="store_true", help="count the last-pass starts only")
    parser.add_argument("--memory-gib", type=float, default=2, help="the searches' memory limit (default 2 GiB)")
    args = parser.parse_args()
    print(
        f"{'deal':>6} {'limit':>11} {'verdict':>17} {'positions':>12} {'s':>7} {'best':>4} "
        f"{'redeals':>10} {'starts':>10} {'pos/start':>9}"
    )
    for deal in args.deals:
        for limit in args.limits:
            verdict, positions, seconds, best, redeals, distinct = count(
                deal, args.variant, int(limit), 2 if args.first_passes else 1, int(args.memory_gib * 2**30)
            )
            per = positions / distinct if distinct else float("nan")
            print(
                f"{deal:>6} {int(limit):>11,} {verdict:>17} {positions:>12,} {seconds:>7.1f} {best:>4} "
                f"{redeals:>10,} {distinct:>10,} {per:>9.0f}",
                flush=True,
            )
            if not verdict.startswith("unknown"):
                break


if __name__ == "__main__":
    main()
