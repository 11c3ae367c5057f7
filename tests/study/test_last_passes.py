"""The study of the last passes of the free Paciência Napoleão
(bench/last_passes.py), in the study build."""

import pytest

from solver import core
from solver.api import solve, start_position
from solver.rules import reference as engine


def _reference_last_pass_starts(pos):
    """The distinct positions a redeal into the last pass reaches from
    ``pos``, by the reference engine, every line of the first passes walked."""
    rules = engine("napoleao")
    last = pos.variant.redeals
    seen, starts, todo = {pos}, set(), [pos]
    while todo:
        here = todo.pop()
        for move in rules.legal_moves(here):
            after = rules.play(here, move)
            if after.redeals == last:
                starts.add(after)
            elif after not in seen:
                seen.add(after)
                todo.append(after)
    return starts


@pytest.mark.parametrize("number", [1, 2, 3])
def test_the_last_pass_study_counts_what_the_reference_engine_finds(number):
    """solver_debug_last_passes (bench/last_passes.py): with the last passes
    left unexplored, a complete search of the sheet's Napoleão, no shortcut,
    counts as many distinct last-pass starts as the reference engine finds
    walking every line of the first two passes."""
    pos = start_position(number, "paciencia-napoleao")
    redeals, distinct = core.ffi.new("uint64_t *"), core.ffi.new("uint64_t *")
    core.lib.solver_debug_last_passes(2, redeals, distinct)
    try:
        result = solve(pos, shortcuts=())
    finally:
        core.lib.solver_debug_last_passes(0, redeals, distinct)
    expected = len(_reference_last_pass_starts(pos))
    assert result.verdict != "unknown"
    assert distinct[0] == expected and redeals[0] >= expected
