"""The C core on the two-deck games (csrc/families/deck2/search.c, napoleao.c, jewel.c):
every line replayed by the reference engines, verdicts and best scores
compared with the reference search and with the shortcuts switched off,
limits, and impossible positions."""

from __future__ import annotations

from dataclasses import replace

import pytest
from support import run_doubling_memory, stopped_by_memory

from solver import core
from solver.api import Limit, Result, solve, start_position
from solver.cards import Card
from solver.deals import Deal, DealError
from solver.families import deck2
from solver.families.jewel import JewelPosition
from solver.rules import reference as engine
from solver.variants import load

NAP = load("paciencia-napoleao")  # the sheets' rules
JEWEL = load("paciencia-porta-joias")
NAP_FREE = load("paciencia-napoleao-free")  # the free rules
JEWEL_FREE = load("paciencia-porta-joias-free")
SMALL = Limit(positions=300_000, seconds=None, memory=None)


def _check_line(result: Result, variant) -> None:
    """The reference engine replays the line and reaches the score claimed."""
    end = result.position()
    assert end.score == result.score
    assert end.won == (result.verdict == "won")


def _late(result: Result, keep: int):
    """The position of ``result`` with only the last ``keep`` moves left to play."""
    return result.position(max(0, len(result.moves) - keep))


@pytest.mark.parametrize("variant", [NAP, NAP_FREE], ids=str)
@pytest.mark.parametrize("number", [1, 2, 4, 6, 9])
def test_napoleao_lines_replay(number, variant):
    r = solve(number, variant, Limit(positions=3_000_000, seconds=None))
    _check_line(r, variant)
    assert r.moves[0].action == "deal"
    if r.verdict == "won":
        assert r.score == 104


@pytest.mark.parametrize("variant", [JEWEL, JEWEL_FREE], ids=str)
@pytest.mark.parametrize("number", [7, 11, 20])
def test_jewel_lines_replay(number, variant):
    r = solve(number, variant, Limit(positions=200_000, seconds=None))
    _check_line(r, variant)
    assert r.score >= 1
    assert Result.from_json(r.to_json()) == r


def test_json_round_trip_and_cards():
    r = solve(2, NAP, Limit(positions=1_000_000, seconds=None))
    data = r.to_json()
    assert len(data["cards"]) == 104
    assert Deal.from_cards(data["cards"], 2).cards == Deal.from_number(2, 2).cards
    assert Result.from_json(r.dumps()) == r
    kinds = {m["action"] for m in data["moves"]}
    assert kinds <= {"deal", "move", "redeal"}
    for m in data["moves"]:
        if m["action"] == "move":
            assert m["from"].startswith("pile:") and m["to"].split(":")[0] in ("kbase", "abase")


_LINES: dict[tuple[str, int], Result] = {}


def _line(variant, number: int) -> Result:
    """The line of a search of ``number`` at 60,000 positions, made once for
    all the tests that take late positions from it."""
    key = (variant.name, number)
    if key not in _LINES:
        _LINES[key] = solve(number, variant, Limit(positions=60_000, seconds=None))
    return _LINES[key]


def _endgames(variant, numbers, keep):
    """Late positions of the lines of ``numbers``: positions the plain search can finish."""
    return [_late(_line(variant, n), keep) for n in numbers]


def _compare(pos, limit):
    a = solve(pos, pos.variant, limit, shortcuts=True)
    b = solve(pos, pos.variant, limit, shortcuts=False)
    return a, b


@pytest.mark.parametrize(
    "variant,keep,least", [(NAP, 60, 40), (NAP_FREE, 30, 40), (JEWEL, 14, 35), (JEWEL_FREE, 10, 35)], ids=str
)
def test_shortcuts_change_no_verdict(variant, keep, least):
    """On 50 deals: every shortcut on against none, from a late position of
    each deal's line (where both searches finish), same verdict and best score;
    then the line of the run with shortcuts replays."""
    limit = Limit(positions=100_000, seconds=None, memory=None)
    decided = 0
    for pos in _endgames(variant, range(1, 51), keep):
        a, b = _compare(pos, limit)
        if "unknown" in (a.verdict, b.verdict):
            continue
        decided += 1
        assert (a.verdict, a.score) == (b.verdict, b.score), pos
        _check_line(a, variant)
    assert decided >= least


def test_napoleao_shortcut_fires_only_in_the_last_pass():
    """From the start of the last pass with the shortcut on, the search stores
    fewer positions than without it, and agrees."""
    r = solve(1, NAP_FREE, Limit(positions=3_000_000, seconds=None))
    moves = list(r.moves)
    last_redeal = max(i for i, m in enumerate(moves) if m.action == "redeal")
    pos = r.position(last_redeal + 1)
    a, b = _compare(pos, Limit(positions=5_000_000, seconds=None, memory=None))
    assert (a.verdict, a.score) == (b.verdict, b.score)
    assert a.stats.positions <= b.stats.positions


def test_napoleao_positions_before_the_last_pass_stay_won():
    """last-copy-home acts only in the last pass (docs/search.md): earlier, a
    card sent home moves every later card of the next pack by one pile.
    Positions of the pass before the last, 1 to 10 moves before the last
    redeal of win lines, are won with every shortcut, and the lines replay.
    With the shortcut let act in every pass, 229 of 669 such positions of
    deals 1-100 were called lost (deal 3, one move before: lost, best 100);
    the suite passed that way before this test."""
    # The lines are found without the shortcut, so that they do not depend on it.
    without = frozenset(deck2.SHORTCUTS) - {"last-copy-home"}
    for number in (3, 4, 5, 6):
        r = solve(number, NAP_FREE, Limit(positions=3_000_000, seconds=None), shortcuts=without)
        assert r.verdict == "won"
        redeals = [i for i, m in enumerate(r.moves) if m.action == "redeal"]
        for back in (1, 5, 10):
            pos = r.position(redeals[-1] - back)
            out = solve(pos, NAP_FREE, Limit(positions=2_000_000, seconds=None, memory=None))
            assert out.verdict == "won", (number, back, out.verdict, out.score)
            _check_line(out, NAP_FREE)


@pytest.mark.parametrize("variant,keep", [(NAP, 30), (NAP_FREE, 14), (JEWEL, 12), (JEWEL_FREE, 10)], ids=str)
def test_core_agrees_with_the_reference_search(variant, keep):
    """The plain reference search (no pruning at all) and the core, with and
    without shortcuts, give the same verdict and best score on late positions."""
    mod = engine(variant.family)
    checked = 0
    for pos in _endgames(variant, range(1, 31), keep):
        verdict, best, _line = mod.search(pos, max_positions=5_000)
        if verdict == "unknown":
            continue
        for shortcuts in (True, False):
            r = solve(pos, variant, SMALL, shortcuts=shortcuts)
            assert (r.verdict, r.score) == (verdict, best), (pos, shortcuts)
        checked += 1
    assert checked >= 20


@pytest.mark.parametrize("variant", [JEWEL, JEWEL_FREE], ids=str)
def test_lost_positions_are_proven(variant):
    """A late position of Porta-Jóias with a blocked card is lost, at the same best
    score as the reference search, and the line to it replays."""
    mod = engine("jewel")
    found = 0
    for n in range(1, 40):
        r = solve(n, variant, Limit(positions=50_000, seconds=None))
        if r.verdict == "won":
            continue
        pos = _late(r, 6)
        verdict, best, _ = mod.search(pos, max_positions=20_000)
        if verdict != "lost":
            continue
        c = solve(pos, variant, SMALL)
        assert (c.verdict, c.score) == ("lost", best)
        _check_line(c, variant)
        found += 1
        if found >= 5:
            break
    assert found >= 1


def test_jewel_reserves_holding_cards_are_not_interchangeable():
    """A late Porta-Jóias position (deal 27, 286 moves into a win line): the
    turned 8♦ wins only on the second or third reserve. `interchangeable`
    merges only empty places; the suite passed with every reserve treated as
    the first one (the search then called this position lost, best 69)."""

    def c(text: str) -> tuple[Card, ...]:
        return tuple(Card.parse(t) for t in text.split())

    mod = engine("jewel")
    pos = JewelPosition(
        variant=JEWEL,
        stock=c("TH"),
        turned=Card.parse("8D"),
        lid=(Card.parse("TS"), None, Card.parse("QD"), None, None),
        sides=(c("KC QH JS TD"), c("JC"), c("3H"), c("QS")),
        bottoms=(c("7C 6H"), c("KD QC"), c("9H 8C 7D"), c("TC 9D")),
        jewels=(),
        reserves=(c("JH 4H 9S AH 8H"), c("2H KS JD 7H 9C"), c("6D KH KS 5D 5H")),
        foundations=((13, 6), (12, 8), (13, 0), (13, 4)),
    )
    for shortcuts in (True, False):
        r = solve(pos, JEWEL, SMALL, shortcuts=shortcuts)
        assert (r.verdict, r.score) == ("won", 104), shortcuts
        assert mod.replay(pos, r.moves).won


def test_variant_parameters_reach_the_core():
    """A variant changed by the user is played by its own rules in the core."""
    no_redeal = replace(NAP, name="napoleao-no-redeal", redeals=0)
    r = solve(2, no_redeal, Limit(positions=200_000, seconds=None))
    assert all(m.action != "redeal" for m in r.moves)
    _check_line(r, no_redeal)
    open_lid = replace(JEWEL, name="jewel-open", empty_lid="any", reserves=1, runs_move=True)
    r = solve(7, open_lid, Limit(positions=100_000, seconds=None))
    assert all(m.dst not in ("reserve:2", "reserve:3") for m in r.moves if m.action == "move")
    _check_line(r, open_lid)


def test_limits_and_resume():
    pos = start_position(5, NAP_FREE)
    s = core.Search(pos, core.flags_for(True, "napoleao"))
    s.set_limits(1000, None, None)
    first = s.outcome(s.run())
    assert (first.verdict, first.reason) == ("unknown", "positions")
    assert 1000 <= first.positions <= 1001
    s.set_limits(5000, None, None)
    second = s.outcome(s.run())
    assert second.positions > first.positions
    r = solve(5, JEWEL, Limit(positions=5000, seconds=None))
    assert (r.verdict, r.reason) == ("unknown", "positions")
    _check_line(r, JEWEL)
    r = solve(5, JEWEL, Limit(positions=None, seconds=None, memory=1))
    assert (r.verdict, r.reason) == ("unknown", "memory")


def test_impossible_positions_are_refused():
    pos = start_position(1, NAP)
    bad = replace(pos, stock=pos.stock[:-1] + (pos.stock[0],))
    with pytest.raises(core.CoreError, match="times"):
        solve(bad, NAP)
    with pytest.raises(core.CoreError, match="base"):
        solve(replace(pos, kbases=(14, 0, 0, 0)), NAP)
    jp = start_position(1, JEWEL)
    with pytest.raises(core.CoreError, match="alternating"):
        solve(replace(jp, sides=((Card.parse("9C"), Card.parse("8C")),) + jp.sides[1:]), JEWEL)
    with pytest.raises(core.CoreError, match="times"):
        solve(replace(jp, stock=jp.stock[1:]), JEWEL)


def _found_positions():
    """Positions that the core took or that failed in cffi, found by
    tests/test_properties.py."""
    nap, jp = start_position(1, NAP), start_position(7, JEWEL)
    return {
        # The core padded the reserves to three; the engine has one: the won
        # line's 13th move, 8H stock -> reserve:2, did not replay.
        "one reserve in a 3-reserve game": (replace(jp, reserves=((),)), "the reserves of paciencia-porta-joias"),
        "a text turned": (replace(jp, turned="AC"), "the turned card is 'AC', not a Card or None"),  # TypeError
        "three counts on a foundation": (
            replace(jp, foundations=((0, 0, 0),) + jp.foundations[1:]),  # ValueError
            "the foundations of C",
        ),
        "three King bases": (replace(nap, kbases=(0, 1, 0)), "the King bases"),  # ValueError
        "2**40 rounds": (replace(nap, rounds=2**40), "the rounds dealt is 1099511627776"),  # OverflowError
        "None on a pile": (replace(nap, piles=((None,),) + nap.piles[1:]), "pile 1 holds None"),  # AttributeError
    }


@pytest.mark.parametrize("what", list(_found_positions()))
def test_positions_the_core_misread_are_refused_naming_the_problem(what):
    pos, words = _found_positions()[what]
    with pytest.raises(core.CoreError, match=words):
        solve(pos, limit=Limit(positions=10_000, seconds=None))


def test_bad_deals_are_refused():
    cards = list(Deal.from_number(3, 2).cards)
    with pytest.raises(DealError, match="3 times"):
        solve(Deal.from_cards(cards[:-1] + [cards[0]], 2), NAP)
    with pytest.raises(DealError, match="104 expected"):
        solve(" ".join(map(str, cards[:52])), NAP)
    with pytest.raises(DealError, match="deck"):
        solve(Deal.from_number(3), NAP)
    with pytest.raises(ValueError, match="shortcut"):
        solve(1, NAP, shortcuts={"cell-home"})


def test_restarts_stop_at_limits_and_resume():
    """A run stopped during the randomised restarts goes on from there; the win
    it finds replays. Without the restarts the plain search is used throughout."""
    pos = start_position(12, NAP_FREE)
    s = core.Search(pos, core.flags_for(True, "napoleao"))
    s.set_limits(150_000, None, None)  # past the first budget, inside the restarts
    first = s.outcome(s.run())
    assert (first.verdict, first.reason) == ("unknown", "positions")
    s.set_limits(20_000_000, None, None)
    second = s.outcome(s.run())
    assert second.verdict == "won" and second.positions > first.positions
    end = engine("napoleao").replay(pos, second.moves)
    assert end.won
    plain = solve(12, NAP_FREE, Limit(positions=150_000, seconds=None), shortcuts={"last-copy-home"})
    assert plain.verdict == "unknown"
    _check_line(plain, NAP_FREE)


@pytest.mark.parametrize("name", sorted(deck2.SHORTCUTS))
def test_each_shortcut_alone_changes_no_verdict(name):
    """Each two-deck shortcut alone against none, on late positions of both
    games (the positions of test_shortcuts_change_no_verdict, fewer of them)."""
    limit = Limit(positions=100_000, seconds=None, memory=None)
    decided = 0
    for variant, keep in ((NAP, 60), (NAP_FREE, 30), (JEWEL, 14), (JEWEL_FREE, 10)):
        for pos in _endgames(variant, range(1, 21), keep):
            a = solve(pos, variant, limit, shortcuts={name})
            b = solve(pos, variant, limit, shortcuts=False)
            if "unknown" in (a.verdict, b.verdict):
                continue
            decided += 1
            assert (a.verdict, a.score) == (b.verdict, b.score), (name, pos)
    assert decided >= 25


def test_dead_cards_prunes_a_lost_last_pass():
    """From the start of the last pass of a Napoleão deal whose line is lost
    there, the bound proves the same verdict and best score with fewer
    positions than the search without it."""
    tried = 0
    with_bound = without = 0
    for n in range(1, 60):
        r = solve(n, NAP_FREE, Limit(positions=40_000, seconds=None), shortcuts={"last-copy-home"})
        if r.verdict == "won" or sum(m.action == "redeal" for m in r.moves) < 2:
            continue
        last = max(i for i, m in enumerate(r.moves) if m.action == "redeal")
        pos = r.position(last + 1)
        limit = Limit(positions=3_000_000, seconds=None, memory=None)
        a = solve(pos, NAP_FREE, limit, shortcuts={"last-copy-home", "dead-cards"})
        b = solve(pos, NAP_FREE, limit, shortcuts={"last-copy-home"})
        if "unknown" in (a.verdict, b.verdict) or a.verdict == "won":
            continue
        assert (a.verdict, a.score) == (b.verdict, b.score)
        assert a.stats.positions <= b.stats.positions
        with_bound += a.stats.positions
        without += b.stats.positions
        _check_line(a, NAP_FREE)
        tried += 1
        if tried >= 8:
            break
    assert tried >= 3
    assert with_bound < without


def test_ctrl_c_stops_a_two_deck_search():
    """SIGINT during the randomised restarts ends the CLI run at once: unknown,
    interrupted, exit 3."""
    import signal
    import subprocess
    import sys
    import time

    proc = subprocess.Popen(
        [sys.executable, "-m", "solver", "solve", "258", "--variant", "paciencia-napoleao-free", "--max-seconds", "60"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    time.sleep(4.0)  # well past start-up; the deal is not decided within 60 s
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 3, err
    assert "UNKNOWN (interrupted)" in out.splitlines()[0]


# --------------------------------------------------------------------------
# The sheets' rules against the free rules.


@pytest.mark.parametrize(
    "sheet,free,numbers",
    [(NAP, NAP_FREE, range(1, 41)), (JEWEL, JEWEL_FREE, range(1, 9))],
    ids=["napoleao", "porta-joias"],
)
def test_every_line_of_the_sheet_is_a_line_of_the_free_rules(sheet, free, numbers):
    """A deal won under the sheet's rules is won under the free rules (its line
    replays there), and one lost under the free rules is lost under the
    sheet's; the free rules reach at least the sheet's best score."""
    mod = engine(sheet.family)
    limit = Limit(positions=2_000_000, seconds=None, memory=None)
    both = 0
    for n in numbers:
        a = solve(n, sheet, limit)
        b = solve(n, free, limit)
        _check_line(a, sheet)
        free_end = mod.replay(start_position(n, free), a.moves)
        assert free_end.score == a.score
        if a.verdict == "won":
            assert b.verdict != "lost", n
        if b.verdict == "lost":
            assert a.verdict == "lost" and a.score <= b.score, n
        if "unknown" not in (a.verdict, b.verdict):
            assert a.score <= b.score, n
            both += 1
    assert both >= len(numbers) // 2


def test_napoleao_sheet_positions_of_earlier_passes_keep_their_verdicts():
    """Under the sheet's rules last-copy-home acts in every pass (no round is
    dealt while the card fits, so it goes home before the next one in every
    line): from positions 1 to 30 moves before the last redeal, and before
    the first, the verdict and best score are the same with it and without."""
    compared = 0
    limit = Limit(positions=1_000_000, seconds=None, memory=None)
    for n in range(1, 40):
        r = solve(n, NAP, Limit(positions=200_000, seconds=None), shortcuts=False)
        redeals = [i for i, m in enumerate(r.moves) if m.action == "redeal"]
        for at in redeals:
            for back in (1, 4, 10, 30):
                if at - back < 0:
                    continue
                pos = r.position(at - back)
                a = solve(pos, NAP, limit, shortcuts={"last-copy-home"})
                b = solve(pos, NAP, limit, shortcuts=False)
                if "unknown" in (a.verdict, b.verdict):
                    continue
                assert (a.verdict, a.score) == (b.verdict, b.score), (n, at, back)
                compared += 1
    assert compared >= 40


def test_a_restart_from_the_best_line_proves_nothing_lost():
    """A restart from a position of the best line that explores all of that
    position's moves shows only that this position is lost, not the deal:
    free Napoleão 222 is not decided within 14 million positions, and a
    restart from a point of its best line exhausts its positions at 13.2
    million (the search called the deal lost, best 99, when it took that
    restart's end for the deal's); the search must go on."""
    r = solve(222, NAP_FREE, Limit(positions=14_000_000, seconds=None))
    assert r.verdict != "lost"
    _check_line(r, NAP_FREE)


def test_after_the_first_restarts_short_random_ones_find_the_win():
    """After the first 1,000 restarts (about 13 million positions), each
    prefix restart is followed by random restarts of 1,000 positions that
    store as many positions as it did. Porta-Jóias 33967 is won at 13.77
    million positions; with one random restart of 10,000 positions after
    each prefix restart (a twelfth of the restarts' positions) it takes
    27.4 million. The line replays."""
    r = solve(33967, JEWEL, Limit(positions=14_000_000, seconds=None))
    assert r.verdict == "won"
    assert r.stats.positions > 13_000_000
    _check_line(r, JEWEL)


@pytest.mark.parametrize("number,most", [(346, 150_000), (1190, 150_000)])
def test_restarts_in_the_other_reserve_orders_find_wins_sooner(number, most):
    """`orders`: the restarts from the root take turns with three orders of
    the reserves (csrc/families/jewel.c reserve_rank). On these deals a
    restart in another order wins within `most` positions, where the family's
    order alone needs over 380,000; both lines replay. An order that touched
    anything but the order of the moves (the state the moves are made from,
    the table's keys) would show here as a line that does not replay."""
    limit = Limit(positions=2_000_000, seconds=None)
    with_orders = solve(number, JEWEL, limit)
    without = solve(number, JEWEL, limit, shortcuts=frozenset(deck2.SHORTCUTS) - {"orders"})
    assert with_orders.verdict == without.verdict == "won"
    assert with_orders.stats.positions <= most < without.stats.positions
    _check_line(with_orders, JEWEL)
    _check_line(without, JEWEL)
    assert engine("jewel").replay(start_position(number, JEWEL_FREE), with_orders.moves).won


@pytest.mark.parametrize("variant", [JEWEL, JEWEL_FREE], ids=str)
def test_jewel_bound_holds_on_late_positions(variant):
    """The dead-cards bound of a position is at least the best score the
    complete search reaches from it, and the search with the bound gives the
    same verdict and best score as without."""
    limit = Limit(positions=400_000, seconds=None, memory=None)
    checked = tight = 0
    for pos in _endgames(variant, range(1, 61), 25):
        handle = core.Search(pos, core.flags_for(True, "jewel"))
        bound = core.lib.solver_root_bound(handle._handle)
        b = solve(pos, variant, limit, shortcuts={"last-copy-home", "interchangeable"})
        if b.verdict == "unknown":
            continue
        assert bound >= b.score, pos
        tight += bound < 104
        a = solve(pos, variant, limit, shortcuts={"last-copy-home", "interchangeable", "dead-cards"})
        if a.verdict != "unknown":
            assert (a.verdict, a.score) == (b.verdict, b.score), pos
            _check_line(a, variant)
        checked += 1
    assert checked >= 15 and tight >= 3


def _cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def test_jewel_last_copy_home_waits_while_a_child_is_out():
    """Porta-Jóias' last-copy-home sends a card home only when the four cards
    that could be built on it are home. Here 3♠ (its copy home) is the only
    place for the 2♥ to come (no reserve, no space): sent home at once, the
    2♥ has nowhere to go (lost, best 81); kept, the deal is won. The suite
    passed with that condition left out before this test."""
    variant = replace(JEWEL_FREE, name="no-reserve", reserves=0, empty_pile="none")
    mod = engine("jewel")
    pos = JewelPosition(
        variant=variant,
        stock=_cards("2H AH 3H 4S 5H 5S 6H 6S 7H 8H 9H TH JH QH KH"),
        turned=None,
        lid=(None,) * 5,
        sides=(_cards("4H 3S"), _cards("KS"), _cards("QS"), _cards("JS")),
        bottoms=(_cards("TS"), _cards("9S"), _cards("8S"), _cards("7S")),
        jewels=(),
        reserves=(),
        foundations=((13, 13), (13, 2), (13, 0), (13, 13)),
    )
    assert mod.search(pos, max_positions=50_000)[:2] == ("won", 104)
    for shortcuts in ({"last-copy-home"}, False):
        r = solve(pos, variant, SMALL, shortcuts=shortcuts)
        assert (r.verdict, r.score) == ("won", 104), shortcuts
        assert mod.replay(pos, r.moves).won


def test_jewel_sheet_last_copy_home_gives_no_turned_card_a_new_place():
    """Under the sheet's rules a turned card must go onto a pile top that
    takes it, so sending a card home can take a reserve away from a card
    still to come. Here 5♠ (its copy and its children home) lies on 6♥: sent
    home at once, the 5♣ turned next must go onto the 6♥, which then waits
    for the 4♣ under the 7♥, which waits for the 6♥ (lost, best 86); kept,
    the 5♣ goes onto the empty reserve and the deal is won. The suite passed
    with last-copy-home acting as under the free rules before this test."""
    variant = replace(JEWEL, name="two-reserves", reserves=2, empty_pile="none")
    mod = engine("jewel")
    pos = JewelPosition(
        variant=variant,
        turned=None,
        lid=(None,) * 5,
        stock=_cards("5C 5H 7S 8S 9S TS JS QS KS 6C 7C 8C 9C TC JC QC KC 8H 9H TH JH QH KH"),
        sides=(_cards("6H 5S"), _cards("6S"), (), ()),
        bottoms=((), (), (), ()),
        jewels=(),
        reserves=(_cards("4C 7H"), ()),
        foundations=((13, 3), (13, 4), (13, 4), (13, 13)),
    )
    for shortcuts in ({"last-copy-home", "dead-cards"}, {"dead-cards"}):
        r = solve(pos, variant, SMALL, shortcuts=shortcuts)
        assert (r.verdict, r.score) == ("won", 104), shortcuts
        assert mod.replay(pos, r.moves).won


@pytest.mark.parametrize("variant, deal", [(NAP, 4417), (JEWEL_FREE, 1), (JEWEL, 3)])
def test_a_memory_limit_stops_within_it_or_decides_as_without(variant, deal):
    """A memory limit stops the search (its restarts counted with it) with
    unknown / memory, having held at most the limit, or gives the verdict and
    best score of the search without a limit: never a loss for a won deal."""
    free = solve(deal, variant, Limit.none())
    assert free.verdict in ("won", "lost")
    for memory in (2**16, 2**20, 4 * 2**20, 64 * 2**20):
        r = solve(deal, variant, Limit(positions=None, seconds=None, memory=memory))
        if stopped_by_memory(r, memory):
            _check_line(r, variant)
        else:
            assert (r.verdict, r.score) == (free.verdict, free.score), memory
    assert r.verdict == free.verdict, "the largest limit is more than the deal needs"


def test_a_search_stopped_by_memory_goes_on_where_it_stopped():
    """Runs stopped by the memory limit, each resumed with twice the limit,
    end as a search without a limit does (the move a refused growth was for
    is tried on the next run)."""
    pos = start_position(4417, NAP)
    fresh = solve(pos, limit=Limit.none())
    s = core.Search(pos, core.flags_for(True, "napoleao"))
    status, stops, memory = run_doubling_memory(s, 2**16, core.lib.SOLVER_LIMIT_MEMORY)
    out = s.outcome(status)
    assert stops >= 2
    assert (out.verdict, out.score) == (fresh.verdict, fresh.score)
    assert out.peak_bytes <= memory
