"""The study of what the summaries by control states share
(bench/summary_sharing.py), in the study build."""

from solver import core
from solver.api import Limit, solve
from solver.core import SHORTCUTS, lib

FINNISH = "napoleonin-hauta"


def test_the_sharing_study_counts_the_summaries_states():
    """solver_debug_summary_sharing (bench/summary_sharing.py): on the lost
    Finnish deal 535, restarts off, every state a summary expands is counted
    (all but the 20,000 positions of the search before the summaries), each
    count of distinct things is at most the expansions and at least the
    distinct states, the same search counted again gives the same counts,
    nothing is counted while the study is off, and working out every rank
    that could be on top at once changes the work, not the verdict."""
    counts = core.ffi.new("uint64_t[4]")
    runs = []
    for _ in range(2):
        lib.solver_debug_summary_sharing(1, counts)
        try:
            r = solve(535, FINNISH, Limit.none(), shortcuts=frozenset(SHORTCUTS) - {"restarts"})
        finally:
            lib.solver_debug_summary_sharing(0, counts)
        runs.append(list(counts))
    expanded, states, pairs, entries = runs[0]
    assert r.verdict == "lost" and expanded == r.stats.positions - 20_000
    assert 0 < states < pairs <= expanded and states < entries <= expanded
    assert runs[1] == runs[0]
    solve(535, FINNISH, Limit(positions=10_000, seconds=None))
    lib.solver_debug_summary_sharing(0, counts)
    assert list(counts) == runs[0]
    # With every rank that could be on top worked out at once: more work,
    # the same verdict and best score.
    lib.solver_debug_summary_sharing(2, counts)
    try:
        eager = solve(535, FINNISH, Limit.none(), shortcuts=frozenset(SHORTCUTS) - {"restarts"})
    finally:
        lib.solver_debug_summary_sharing(0, counts)
    assert (eager.verdict, eager.score) == (r.verdict, r.score)
    assert counts[0] > expanded and counts[3] >= entries
