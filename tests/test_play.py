"""Blind play (issue 5): strategies that cannot see the stock, and ``play``."""

from __future__ import annotations

import dataclasses
import importlib
import json

import pytest
from support import run

from solver import STRATEGIES, BlindGame, Deal, Move, Result, ResultError, View, play, solve, start_position
from solver.cards import Card
from solver.rules import tomb
from solver.variants import load

play_module = importlib.import_module("solver.blind")
VARIANTS = ["napoleons-tomb", "napoleons-tomb-3", "napoleonin-hauta"]
C = Card.parse


# ---------------------------------------------------------------------------
# The view shows no more than a player sees


def test_the_view_has_no_stock_order():
    names = {f.name for f in dataclasses.fields(View)}
    assert names == {
        "variant",
        "waste_top",
        "waste_under",
        "waste_size",
        "cells",
        "reserve",
        "corners",
        "tomb_top",
        "tomb_count",
        "stock_count",
        "redeals_left",
        "moves",
    }
    view = play_module.view_of(start_position(1))
    assert view.stock_count == 52 and view.waste_top is None
    # The turn names no card.
    assert view.moves == (play_module.TURN,) and view.moves[0].cards == ()
    # Nothing in the view is a card of the stock.
    assert not any(isinstance(v, Card) for v in dataclasses.astuple(view))


class Recorder:
    """Wraps a strategy and records every view it is shown and what it chose."""

    def __init__(self, inner):
        self.inner, self.name, self.seen = inner, "recorder", []

    def choose(self, view, moves):
        choice = self.inner.choose(view, moves)
        self.seen.append((view, choice))
        return choice


@pytest.mark.parametrize("variant", ["napoleons-tomb", "napoleons-tomb-3"])
@pytest.mark.parametrize("name", ["simple", "careful"])
def test_two_deals_alike_in_what_shows_get_the_same_choices(variant, name):
    """Deal B is deal A with the order of its last 16 stock cards reversed: until
    one of those cards shows, every view and every choice is the same."""
    a = Deal.from_number(7).cards
    b = tuple(a[:36]) + tuple(reversed(a[36:]))
    ra, rb = Recorder(STRATEGIES[name]), Recorder(STRATEGIES[name])
    play(Deal.from_cards(a), variant, ra)
    play(Deal.from_cards(b), variant, rb)
    # The views up to the first one where a card of the changed part shows.
    hidden = set(a[36:])

    def shows(view):
        return {view.waste_top, view.waste_under, view.tomb_top, *view.cells, *view.corners} & hidden

    compared = 0
    for (va, ca), (vb, cb) in zip(ra.seen, rb.seen):
        if shows(va) or shows(vb):
            break
        assert va == vb
        assert ca == cb
        compared += 1
    assert compared >= 20
    # and the stock orders differ while the views agree
    assert any(v.stock_count > 16 for v, _ in ra.seen[:compared])


def test_a_strategy_cannot_peek_through_the_turn():
    """Whatever a strategy returns must be one of the offered moves: the real
    turn (which names the stock's cards) is refused."""

    class Peek:
        name = "peek"

        def choose(self, view, moves):
            return Move.turn([C("JD")])  # deal 1's first card, guessed

    with pytest.raises(ValueError, match="not one of the offered moves"):
        play(1, "napoleons-tomb", Peek())


# ---------------------------------------------------------------------------
# Games are legal and replayable


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("name", ["simple", "careful"])
def test_blind_games_are_legal_and_replayable(variant, name):
    for deal in range(1, 31):
        r = play(deal, variant, name)
        assert isinstance(r, BlindGame) and not isinstance(r, Result)
        assert r.strategy == name
        if not r.won:
            assert "proves nothing about the deal" in str(r) and "proven" not in str(r)
        assert r.variant == variant and r.deal == deal
        end = tomb.replay(start_position(deal, variant), r.moves)
        assert tomb.score(end) == r.score
        assert r.won == end.won
        assert r.position() == end
        data = json.loads(r.dumps())
        assert BlindGame.from_json(data) == r and "verdict" not in data and "reason" not in data
        # One pass variants end with the stock spent or the game won.
        if variant != "napoleons-tomb-3" and not end.won:
            assert not end.stock
        if variant == "napoleons-tomb-3" and not end.won:
            assert not end.stock and end.redeals == 2


def test_careful_wins_more_than_simple_over_200_classic_deals():
    simple = sum(play(n, "napoleons-tomb", "simple").won for n in range(1, 201))
    careful = sum(play(n, "napoleons-tomb", "careful").won for n in range(1, 201))
    assert careful >= simple
    assert careful > simple  # by far, on the web page: 407 to 1 of 2,400


def test_a_won_blind_game_is_a_real_win():
    won = next(r for r in (play(n, "napoleons-tomb", "careful") for n in range(1, 50)) if r.won)
    assert won.score == 52
    assert tomb.replay(start_position(won.deal), won.moves).won


# ---------------------------------------------------------------------------
# The two players' rules


def _position(cards, variant="napoleons-tomb", turns=1):
    """Turn ``turns`` times from a deal that starts with ``cards``."""
    first = [C(t) for t in cards.split()]
    rest = [c for c in Deal.from_number(1).cards if c not in first]
    pos = start_position(Deal.from_cards(first + rest), variant)
    for _ in range(turns):
        pos = tomb.play(pos, tomb.legal_moves(pos)[-1])
    return pos


def test_simple_parks_only_to_free_a_card_that_goes_home():
    s, c = STRATEGIES["simple"], STRATEGIES["careful"]
    # 7♥ under Q♣: parking Q♣ frees the 7 for a corner.
    view = play_module.view_of(_position("7H QC", turns=2))
    assert s.choose(view, view.moves) == Move.move(C("QC"), "waste", "cell")
    # 9♥ under 8♣, nothing on the foundations: simple turns, careful parks the
    # 8 (a corner wants a 7, the 8 is one rank later).
    view = play_module.view_of(_position("9H 8C", turns=2))
    assert s.choose(view, view.moves) == play_module.TURN
    assert c.choose(view, view.moves) == Move.move(C("8C"), "waste", "cell")
    # A J is four ranks from an empty corner: careful turns.
    view = play_module.view_of(_position("9H JC", turns=2))
    assert c.choose(view, view.moves) == play_module.TURN
    # Anything home first.
    view = play_module.view_of(_position("7H"))
    assert s.choose(view, view.moves) == c.choose(view, view.moves) == Move.move(C("7H"), "waste", "corner")


def test_careful_parks_a_card_within_its_ranks_and_no_further():
    # An empty corner wants a 7: a 10 is three ranks away, parked by the
    # careful player (within 3), not by one within 2.
    view = play_module.view_of(_position("9H TC", turns=2))
    assert STRATEGIES["careful"].choose(view, view.moves) == Move.move(C("TC"), "waste", "cell")
    assert play_module.Careful(within=2).choose(view, view.moves) == play_module.TURN


def test_distance_counts_the_tomb_round_and_the_nearest_corner():
    pos = _position("6C 5C 7D 8D 9D")
    for m in [Move.move(C("6C"), "waste", "tomb")] + [
        mv
        for card in "5C 7D 8D 9D".split()
        for mv in (Move.turn([C(card)]), Move.move(C(card), "waste", "tomb" if card == "5C" else "corner"))
    ]:
        pos = tomb.play(pos, m)
    view = play_module.view_of(pos)
    assert view.tomb_wants == 4 and view.score == 5
    assert view.distance(C("4H")) == 0 and view.fits(C("4H"))
    assert view.distance(C("AH")) == 3 and view.distance(C("6H")) == 4 and view.distance(C("5H")) == 5
    assert view.distance(C("TH")) == 0  # the corner showing 9
    assert view.distance(C("8H")) == 1  # an empty corner wants a 7
    assert view.distance(C("KH")) == 3


def test_careful_keeps_the_last_cell_in_the_three_card_deal():
    careful = play_module.Careful()
    # Three cells full: an 8 wanted soon is not parked in the last cell ...
    cells = (C("9C"), C("9S"), C("9H"), None)
    start, waste = start_position(1, "napoleons-tomb-3"), (C("KD"), C("8C"))
    rest = tuple(c for c in start.stock if c not in cells + waste)  # the deck's other cards in the stock
    pos = dataclasses.replace(start, cells=cells, waste=waste, stock=rest)
    view = play_module.view_of(pos)
    assert careful.choose(view, view.moves) in (play_module.TURN, Move.redeal())
    # ... but is in the classic, and the last cell frees a card that goes home.
    classic = dataclasses.replace(pos, variant=load("napoleons-tomb"))
    view = play_module.view_of(classic)
    assert careful.choose(view, view.moves) == Move.move(C("8C"), "waste", "cell")
    freeing = dataclasses.replace(
        pos, waste=(C("7S"), C("8C")), stock=tuple(c for c in rest if c != C("7S")) + (C("KD"),)
    )
    view = play_module.view_of(freeing)
    assert careful.choose(view, view.moves) == Move.move(C("8C"), "waste", "cell")


def test_careful_sends_a_six_to_the_reserve_not_a_cell():
    pos = _position("5C 6C", "napoleonin-hauta", turns=2)
    view = play_module.view_of(pos)
    assert ("6C", "waste", "cell") in {(str(m.card), m.src, m.dst) for m in view.moves if m.card}
    assert STRATEGIES["careful"].choose(view, view.moves) == Move.move(C("6C"), "waste", "tomb")
    # The tomb taken (a 6 on it wanting a 5): the next 6 waits in the reserve
    # (five ranks away, but the reserve costs no cell); the simple player turns.
    pos = _position("6D 9C 6C", "napoleonin-hauta", turns=1)
    pos = tomb.play(pos, Move.move(C("6D"), "waste", "tomb"))
    pos = tomb.play(tomb.play(pos, Move.turn([C("9C")])), Move.turn([C("6C")]))
    view = play_module.view_of(pos)
    assert STRATEGIES["careful"].choose(view, view.moves) == Move.move(C("6C"), "waste", "reserve")
    assert STRATEGIES["simple"].choose(view, view.moves) == play_module.TURN


# ---------------------------------------------------------------------------
# Strategies of one's own, and endless games


def test_a_function_is_a_strategy_and_stopping_ends_the_game():
    r = play(14, "napoleons-tomb", lambda view, moves: None)
    assert not r.won and r.moves == () and r.score == 0 and r.strategy == "<lambda>"
    r = play(14, "napoleons-tomb", lambda view, moves: moves[0])
    assert tomb.score(tomb.replay(start_position(14), r.moves)) == r.score


class Shuffler:
    """The worst player for loops: always moves a card between cells and the waste."""

    name = "shuffler"

    def choose(self, view, moves):
        for m in moves:
            if m.action == "move" and m.dst in ("waste", "cell"):
                return m
        return moves[0]


def test_a_looping_strategy_ends_without_repeating_a_position():
    r = play(1, "napoleonin-hauta", Shuffler())
    pos = start_position(1, "napoleonin-hauta")
    seen = {play_module._key(pos)}
    for m in r.moves:
        pos = tomb.play(pos, m)
        key = play_module._key(pos)
        assert key not in seen, m
        seen.add(key)
    assert r.stats.positions == len(seen)
    assert any(m.dst == "waste" for m in r.moves if m.action == "move")  # it did go back and forth


def test_max_moves_caps_a_game():
    r = play(1, "napoleonin-hauta", Shuffler(), max_moves=25)
    assert len(r.moves) == 25 and not r.won


def test_strategies_by_name():
    assert set(STRATEGIES) >= {"simple", "careful"}
    assert all(isinstance(s, play_module.Strategy) for s in STRATEGIES.values())
    with pytest.raises(ValueError, match="unknown strategy 'clever'; strategies are"):
        play(1, "napoleons-tomb", "clever")
    assert play(3, "napoleons-tomb", STRATEGIES["careful"]) == play(3, "napoleons-tomb", "careful")


def test_wilson_interval():
    lo, hi = play_module.wilson(407, 2400)
    assert lo < 407 / 2400 < hi
    assert (round(lo, 4), round(hi, 4)) == (0.1551, 0.1851)
    assert play_module.wilson(0, 10)[0] == 0.0 and play_module.wilson(10, 10)[1] == pytest.approx(1.0)


# ---------------------------------------------------------------------------
# The command


def test_cli_play_text():
    proc = run("play", "--strategy", "careful", "--variant", "napoleons-tomb", "--deals", "1-40")
    assert proc.returncode == 0, proc.stderr
    won = sum(play(n, "napoleons-tomb", "careful").won for n in range(1, 41))
    assert proc.stdout.startswith(f"careful player, napoleons-tomb, deals 1-40: won {won} of 40 (")
    assert "95% Wilson interval" in proc.stdout


def test_cli_play_json():
    proc = run("play", "--strategy", "simple", "--variant", "napoleons-tomb-3", "--deals", "1-20,25", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    numbers = list(range(1, 21)) + [25]
    won = sum(play(n, "napoleons-tomb-3", "simple").won for n in numbers)
    assert data["deals"] == 21 and data["won"] == won
    assert data["rate"] == round(won / 21, 6)
    lo, hi = data["interval"]
    assert 0 <= lo <= data["rate"] <= hi <= 1
    assert data["strategy"] == "simple" and data["variant"] == "napoleons-tomb-3"


@pytest.mark.parametrize("deals", ["5-2", "x", "0-3", "1-"])
def test_cli_play_bad_deals_exit_2(deals):
    proc = run("play", "--deals", deals)
    assert proc.returncode == 2 and proc.stdout == "" and "--deals" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("variant", ["paciencia-napoleao", "paciencia-porta-joias-free"])
def test_play_names_the_games_it_plays(variant):
    with pytest.raises(ValueError, match=f"written for the Napoleon's Tomb variants; {variant} is not one"):
        play(1, variant)


# ---------------------------------------------------------------------------
# A blind game is no verdict (issue 48): its own type, its own JSON


def _old_blind_json(game):
    """The JSON an older release wrote for a blind game: a Result's, with
    verdict "lost" and reason "blind" when the player did not win."""
    data = game.to_json()
    del data["won"], data["strategy"]
    data["verdict"], data["reason"] = ("won", None) if game.won else ("lost", "blind")
    data["stats"] = {
        "positions": game.stats.positions,
        "seconds": 0.5,
        "table_bytes": 0,
        "peak_bytes": 0,
        "held_bytes": 0,
        "held": {},
        "refused_bytes": 0,
    }
    return data


def test_a_blind_game_round_trips_and_replays():
    game = play(14, "napoleons-tomb", "simple")
    assert not game.won and 0 < game.score < 52
    data = json.loads(game.dumps())
    assert list(data) == ["variant", "fingerprint", "deal", "cards", "strategy", "won", "score", "moves", "stats"]
    assert data["won"] is False and data["strategy"] == "simple" and "verdict" not in data
    again = BlindGame.from_json(data)
    assert again == game and BlindGame.loads(game.dumps()) == game
    assert again.stats.positions == game.stats.positions
    assert again.position().score == game.score
    assert again.position(0) == start_position(14)
    with pytest.raises(ResultError, match="a move count of 999"):
        again.position(999)
    text = str(game)
    assert text.startswith("napoleons-tomb, deal 14: a blind game: the simple player got stuck with")
    assert "which proves nothing about the deal" in text.splitlines()[0]
    won = next(g for g in (play(n, "napoleons-tomb", "careful") for n in range(1, 50)) if g.won)
    assert (
        str(won).splitlines()[0] == f"napoleons-tomb, deal {won.deal}: a blind game: the careful player won it, "
        "52/52 cards home"
    )
    assert BlindGame.from_json(won.to_json()) == won


def test_a_blind_loss_is_never_counted_as_a_lost_verdict():
    """Counting `verdict == "lost"` over blind games and searches alike
    cannot take a blind player's failure for a proof: a blind game has no
    verdict in its JSON, and a Result refuses to read one."""
    game = play(14, "napoleons-tomb", "simple")
    assert not game.won and "verdict" not in game.to_json()
    assert solve(14, "napoleons-tomb").verdict == "won"  # the deal the player lost is won
    with pytest.raises(
        ResultError,
        match=r"blind player's game, which has no verdict: read it with "
        r"BlindGame\.from_json",
    ):
        Result.from_json(game.to_json())


def test_an_old_blind_json_is_refused_by_result_and_read_by_blind_game():
    game = play(14, "napoleons-tomb", "simple")
    old = _old_blind_json(game)
    with pytest.raises(ResultError, match=r"reason 'blind'.*BlindGame\.from_json"):
        Result.from_json(old)
    with pytest.raises(ResultError, match=r"BlindGame\.from_json"):
        Result.from_json(json.dumps(old))
    read = BlindGame.from_json(json.dumps(old))
    assert read == dataclasses.replace(game, strategy=None) and read.stats.seconds == 0.5
    assert "a blind player got stuck" in str(read)
    # An old won game reads too; a search's lost or unknown result is no blind game.
    won = next(g for g in (play(n, "napoleons-tomb", "careful") for n in range(1, 50)) if g.won)
    assert BlindGame.from_json(_old_blind_json(won)).won
    for verdict, reason in (("lost", None), ("unknown", "seconds")):
        with pytest.raises(ResultError, match="no blind game's"):
            BlindGame.from_json({**old, "verdict": verdict, "reason": reason})


@pytest.mark.parametrize(
    "field,value,words",
    [
        ("won", "no", "field 'won' must be true or false"),
        ("strategy", 3, "field 'strategy' must be null or a name"),
        ("score", -1, "blind game: field 'score' must be a whole number"),
        ("cards", "JD", "blind game: fields 'cards' and 'moves' must be lists"),
        ("stats", [], "blind game: field 'stats' must be an object"),
    ],
)
def test_a_bad_blind_game_json_names_its_field(field, value, words):
    data = play(3, "napoleons-tomb", "careful").to_json()
    with pytest.raises(ResultError, match=words):
        BlindGame.from_json({**data, field: value})
    del data[field]
    if field in ("won", "strategy"):
        with pytest.raises(ResultError, match=f"blind game: field '{field}' is missing"):
            BlindGame.from_json(data)


def test_a_blind_games_verdict_and_reason_are_deprecated():
    game = play(14, "napoleons-tomb", "simple")
    with pytest.warns(DeprecationWarning, match=r"proves nothing about the deal; use BlindGame\.won"):
        assert game.verdict == "lost"
    with pytest.warns(DeprecationWarning, match=r"BlindGame\.reason is deprecated"):
        assert game.reason == "blind"
    won = next(g for g in (play(n, "napoleons-tomb", "careful") for n in range(1, 50)) if g.won)
    with pytest.warns(DeprecationWarning):
        assert (won.verdict, won.reason) == ("won", None)
