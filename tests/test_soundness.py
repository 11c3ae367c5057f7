"""Verdicts with the search shortcuts against verdicts without them, and the C
core against the reference engine's own exhaustive search.

docs/search.md argues each shortcut; these tests check the arguments on real
positions: mid-game positions of deals 1..100 of every variant, reached by a
seeded random line of legal moves, small enough that the plain search (no
shortcut at all) finishes.
"""

from __future__ import annotations

import random
from functools import cache

import pytest

from solver import Limit, solve, start_position
from solver.core import SHORTCUTS
from solver.rules import tomb as rules

VARIANTS = ["napoleons-tomb", "napoleons-tomb-3", "napoleonin-hauta"]
# Stock cards left in the sample positions: the Finnish rules (cells back onto
# the waste) make far larger searches, so their positions are taken later.
STOCK_LEFT = {"napoleons-tomb": 12, "napoleons-tomb-3": 12, "napoleonin-hauta": 2}
LIMIT = Limit(positions=1_000_000, seconds=None, memory=None)


@cache
def midgame(variant: str, deal: int, stock_left: int):
    """A position of `deal` after a seeded random line that leaves `stock_left`
    cards or fewer in the stock (in the last pass, for the 3-card deal)."""
    rng = random.Random(deal * 7919 + stock_left)
    pos = start_position(deal, variant)
    last_pass = pos.variant.passes - 1
    for _ in range(2000):
        if len(pos.stock) <= stock_left and pos.redeals == last_pass:
            return pos
        moves = rules.legal_moves(pos)
        if not moves:
            return pos
        home = [m for m in moves if m.action == "move" and m.dst in ("corner", "tomb")]
        turns = [m for m in moves if m.action in ("turn", "redeal")]
        # Mostly sensible play, with some random parking: positions both won and lost.
        if home and rng.random() < 0.9:
            move = rng.choice(home)
        elif turns and rng.random() < 0.75:
            move = turns[0]
        else:
            move = rng.choice(moves)
        pos = rules.play(pos, move)
    return pos


def check_line(result, pos):
    """The line replays with the reference engine to the score it claims."""
    end = rules.replay(pos, result.moves[result.played :] if result.played else result.moves)
    assert end.score == result.score
    if result.verdict == "won":
        assert end.won


def compare(variant, deals, stock_left, shortcuts):
    decided = verdicts = 0
    seen = set()
    for deal in deals:
        pos = midgame(variant, deal, stock_left)
        fast = solve(pos, limit=LIMIT, shortcuts=shortcuts)
        plain = solve(pos, limit=LIMIT, shortcuts=False)
        if "unknown" in (fast.verdict, plain.verdict):
            continue
        decided += 1
        assert fast.verdict == plain.verdict, (variant, deal, fast.verdict, plain.verdict)
        assert fast.score == plain.score, (variant, deal, fast.score, plain.score)
        check_line(fast, pos)
        check_line(plain, pos)
        seen.add(fast.verdict)
        verdicts += 1
    return decided, seen


@pytest.mark.parametrize("variant", VARIANTS)
def test_all_shortcuts_keep_verdicts_and_best_scores(variant):
    decided, seen = compare(variant, range(1, 101), STOCK_LEFT[variant], True)
    assert decided >= 90, f"only {decided} of 100 positions decided by both searches"
    assert seen == {"won", "lost"}, f"the sample of {variant} has only {seen}"


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("shortcut", sorted(SHORTCUTS))
def test_each_shortcut_alone(variant, shortcut):
    decided, _ = compare(variant, range(101, 121), STOCK_LEFT[variant], {shortcut})
    assert decided >= 18


@pytest.mark.parametrize("variant", VARIANTS)
def test_core_agrees_with_the_reference_search(variant):
    """At least 30 positions per variant that the reference engine's plain
    search decides, won and lost among them (the Finnish sample positions,
    taken late, are all lost)."""
    both = set()
    checked = 0
    want = {"won", "lost"} if variant != "napoleonin-hauta" else {"lost"}
    for deal in range(1, 301):
        if checked >= 30 and want <= both:
            break
        pos = midgame(variant, deal, min(8, STOCK_LEFT[variant]))
        verdict, score, line = rules.search(pos, max_positions=40_000)
        if verdict == "unknown":
            continue
        checked += 1
        result = solve(pos, limit=LIMIT)
        assert (result.verdict, result.score) == (verdict, score), (variant, deal)
        check_line(result, pos)
        assert rules.replay(pos, line).score == score
        both.add(verdict)
    assert checked >= 30
    assert want <= both, f"the sample of {variant} has only {both}"


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_all_shortcuts_on_deals_101_to_400(variant):
    """The long version (make test-slow): 300 more deals per variant."""
    decided, seen = compare(variant, range(101, 401), STOCK_LEFT[variant], True)
    assert decided >= 270
    assert "lost" in seen
