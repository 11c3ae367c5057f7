"""Limits, interruption, resuming and threads: the search stops when asked,
says why, and never turns a stopped search into a verdict."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from solver import Limit, solve, start_position
from solver.core import CoreError, Search, flags_for
from solver.game import Position
from solver.rules import tomb as rules

HARD = 6  # classic deal 6: lost, millions of positions


def test_seconds_limit_gives_unknown_seconds():
    r = solve(HARD, "napoleons-tomb", Limit(seconds=0.05, positions=None, memory=None))
    assert (r.verdict, r.reason) == ("unknown", "seconds")
    assert r.stats.seconds < 2
    assert rules.replay(start_position(HARD), r.moves).score == r.score


def test_memory_limit_gives_unknown_memory():
    r = solve(HARD, "napoleons-tomb", Limit(memory=2**20, positions=None, seconds=None))
    assert (r.verdict, r.reason) == ("unknown", "memory")


def test_positions_limit_gives_unknown_positions_with_a_line():
    r = solve(HARD, "napoleons-tomb", Limit(positions=5_000, seconds=None))
    assert (r.verdict, r.reason) == ("unknown", "positions")
    assert r.score > 0 and rules.replay(start_position(HARD), r.moves).score == r.score


def test_stop_from_another_thread_interrupts():
    # Classic deal 50261, the hardest lost deal of 1-100,000, takes about
    # 0.7 s: the stop comes well before the end (deal 6 now takes 0.23 s).
    search = Search(start_position(50261, "napoleons-tomb"), flags_for(True))
    search.set_limits(None, None, None)
    threading.Timer(0.1, search.stop).start()
    start = time.monotonic()
    out = search.outcome(search.run())
    assert (out.verdict, out.reason) == ("unknown", "interrupted")
    assert time.monotonic() - start < 5


def test_a_stopped_search_resumes_to_the_same_verdict():
    pos = start_position(HARD, "napoleons-tomb")
    search = Search(pos, flags_for(True))
    search.set_limits(20_000, None, None)
    first = search.outcome(search.run())
    assert first.verdict == "unknown"
    search.set_limits(None, None, None)
    again = search.outcome(search.run())
    whole = solve(HARD, "napoleons-tomb", Limit.none())
    assert (again.verdict, again.score) == (whole.verdict, whole.score) == ("lost", 43)


@pytest.mark.parametrize("variant", ["napoleons-tomb", "napoleons-tomb-3"])
def test_threads_solve_at_once_as_they_do_one_by_one(variant):
    deals = [14, 17, 3, 1]
    alone = [solve(d, variant) for d in deals]
    with ThreadPoolExecutor(max_workers=2) as pool:
        together = list(pool.map(lambda d: solve(d, variant), deals))
    assert [(r.verdict, r.score, r.moves) for r in together] == [(r.verdict, r.score, r.moves) for r in alone]


def impossible(**change):
    pos = start_position(1, "napoleons-tomb")
    return Position(**{**{f: getattr(pos, f) for f in ("variant", "stock", "waste", "cells", "reserve",
                                                           "corners", "tomb", "redeals")}, **change})


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda p: {"stock": p.stock[:-1] + (p.stock[0],)}, "twice"),
        (lambda p: {"stock": p.stock[:-1]}, "not 52"),
        (lambda p: {"stock": p.stock[1:], "reserve": (p.stock[0],)}, "reserve"),
        (lambda p: {"stock": p.stock[:44], "corners": (p.stock[44:52],) + ((), (), ())}, "corner 1"),
    ],
)
def test_impossible_positions_are_refused(change, words):
    pos = start_position(1, "napoleons-tomb")
    bad = impossible(**change(pos))
    with pytest.raises(CoreError, match=words):
        solve(bad)
