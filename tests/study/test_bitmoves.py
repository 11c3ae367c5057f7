"""The summaries' bit-level move generator (csrc/families/tomb/bitmoves.h)
against the rules' own (tomb_moves), state by state.

Where cells send back onto the waste (the Finnish rules, full-cells), the
summaries by control states read every move of a state from its bits;
solver_debug_bitmoves has the core check each of those against tomb_moves
on the rebuilt position while the searches below run."""

from collections.abc import Iterator

import pytest

from solver import Limit, solve
from solver._core import ffi, lib


@pytest.fixture
def checking() -> Iterator[None]:
    checked, mismatches = ffi.new("uint64_t *"), ffi.new("uint64_t *")
    lib.solver_debug_bitmoves(1, checked, mismatches)
    try:
        yield
    finally:
        lib.solver_debug_bitmoves(0, checked, mismatches)


def counts() -> tuple[int, int]:
    checked, mismatches = ffi.new("uint64_t *"), ffi.new("uint64_t *")
    lib.solver_debug_bitmoves(1, checked, mismatches)
    return int(checked[0]), int(mismatches[0])


@pytest.mark.usefixtures("checking")
def test_bit_moves_match_tomb_moves() -> None:
    for deal in range(1, 121):
        solve(deal, "napoleonin-hauta", Limit(seconds=None, positions=300_000))
    checked, mismatches = counts()
    assert checked > 100_000
    assert mismatches == 0
