"""The Game a person plays (solver.session): every family, the player's
notation, undo and redo, the moves the rules make by themselves, views that
show no hidden card, hints for every family."""

from __future__ import annotations

import importlib
import json
import random
from dataclasses import replace

import pytest
from leaks import hidden, leaked

from solver import IllegalMoveError, MoveError, start_position
from solver.cards import DECK, Card
from solver.rules import reference as engine
from solver.session import Game, GameError, move_json, parse_move
from solver.variants import all_variants, load, names

session = importlib.import_module("solver.session")
c = Card.parse


@pytest.mark.parametrize("name", names())
def test_random_games_keep_to_the_rules_and_show_no_hidden_card(name):
    """Random play of every shipped variant: every listed move plays (and
    the engine agrees it is legal), undo restores the view exactly, and no
    view names a card of the stock or of the jewels."""
    rng = random.Random(name)
    for deal in (1, 2):
        game = Game(name, deal)
        views = [game.view()]
        for _ in range(60):
            if game.over:
                break
            view = views[-1]
            assert not leaked(view, game.position), view
            legal = game.legal_moves()
            assert [move_json(m) for m in legal] == view["legal"]
            # Each listed move plays, and undoing it gives the same view back.
            for m in rng.sample(legal, min(4, len(legal))):
                before = game.position
                step = game.play(m)
                assert not leaked([move_json(s) for s in step], before, game.position)
                assert game.undo() == step
                assert game.view() == {**view, "can_redo": True}
            game.play(rng.choice(legal))
            views.append(game.view())
        # Undo back to the start, and redo to where the game was.
        while game.can_undo:
            game.undo()
        assert game.view()["table"] == views[0]["table"] and not game.can_undo
        while game.can_redo:
            game.redo()
        assert game.view() == {**views[-1], "can_redo": False}
        # The saved steps replay to the same game.
        again = Game.replay(name, deal, game.steps_json())
        assert again.view() == game.view()
        # The engine's own replay of the moves gives the same position, up to
        # the interchangeable cells and corners the player chose (the tomb's
        # key holds ranks only, where suits never matter).
        rules = engine(load(name).family)
        replayed = rules.replay(start_position(deal, name), again.position.history)
        assert rules.position_key(replayed) == rules.position_key(again.position)


def test_a_hint_followed_to_the_end_wins_and_undoes_to_the_start():
    game = Game("napoleons-tomb", 14)
    start = game.view()
    while not game.over:
        h = game.hint()
        assert h.verdict == "won"
        game.play(h.move)
    assert game.won and game.view()["won"] and not game.view()["legal"]
    steps = len(game.steps)
    # Undo works after the game has ended, back to the start.
    for _ in range(steps):
        game.undo()
    assert game.view() == {**start, "can_redo": True}
    with pytest.raises(GameError, match="nothing to undo"):
        game.undo()
    game.restart()
    for _ in range(steps):
        game.redo()
    assert game.won
    with pytest.raises(GameError, match="nothing to redo"):
        game.redo()


def test_places_are_chosen_by_their_number():
    game = Game("napoleons-tomb", 1)  # turns JD 2D 9H JC 5D 7H 7C ...
    game.play({"action": "turn"})
    game.play({"action": "move", "from": "waste", "to": "cell:3"})
    assert game.view()["table"]["cells"] == [None, None, "JD", None]
    for _ in range(5):
        game.play({"action": "turn"})
    assert game.view()["table"]["waste"]["fan"] == ["7H"]
    game.play({"action": "move", "from": "waste", "to": "corner:4"})
    assert [x["top"] for x in game.view()["table"]["corners"]] == [None, None, None, "7H"]
    with pytest.raises(IllegalMoveError, match="cell 3 holds J♦"):
        game.play({"action": "move", "from": "waste", "to": "cell:3"})
    with pytest.raises(IllegalMoveError, match="corner 4 shows 7♥ and wants an 8"):
        game.play({"action": "move", "from": "waste", "to": "corner:4"})
    with pytest.raises(IllegalMoveError, match="corner 2 is empty: it takes only a 7"):
        game.play({"action": "move", "from": "cell:3", "to": "corner:2"})
    with pytest.raises(IllegalMoveError, match="there is no 'cell:5'"):
        game.play({"action": "move", "from": "waste", "to": "cell:5"})
    # The legal moves name each empty cell and each corner that takes the card.
    legal = [move_json(m) for m in game.legal_moves()]
    assert {"action": "move", "from": "waste", "to": "cell:1", "card": "5D"} in legal
    assert {"action": "move", "from": "waste", "to": "cell:3", "card": "5D"} not in legal


def test_the_player_names_no_hidden_card():
    game = Game("napoleons-tomb", 1)
    with pytest.raises(MoveError, match="a turn names no card"):
        game.play({"action": "turn", "cards": ["JD"]})
    with pytest.raises(MoveError, match="a jewel names no card"):
        parse_move({"action": "jewel", "card": "JD"})
    # A move of the stock's card would play a card the player has not seen.
    with pytest.raises(IllegalMoveError, match="turn the stock first") as err:
        game.play({"action": "move", "from": "stock", "to": "cell:1"})
    assert "J" not in str(err.value)
    for bad, message in [
        ([], "a move must be a JSON object"),
        ({"action": "fly"}, "unknown action 'fly'"),
        ({"action": "move", "from": "waste"}, "a move needs 'to'"),
        ({"action": "move", "from": "waste", "to": "tomb", "card": "ZZ"}, "not a card"),
        ({"action": "turn", "to": "waste"}, "a turn takes no 'from' or 'to'"),
        ({"action": "move", "from": "waste", "to": "tomb", "x": 1}, "unknown field 'x'"),
    ]:
        with pytest.raises(MoveError, match=message):
            game.play(bad)
    assert not game.steps


def test_errors_name_no_hidden_card():
    """The engines' messages can name the next stock card or jewel (a turn
    is written with its cards); the game's never do."""
    pos = start_position(1, "paciencia-porta-joias")
    # A space waits for a jewel (the card that was there put back in the stock).
    game = Game.from_position(replace(pos, lid=(None,) + pos.lid[1:], stock=pos.stock + pos.lid[:1]))
    assert game.view()["table"]["jewels"]["pending"] == "lid:1"
    for move in ({"action": "turn"}, {"action": "move", "from": "lid:5", "to": "foundation"}):
        with pytest.raises(IllegalMoveError) as err:
            game.play(move)
        assert "the next jewel must fill it first" in str(err.value)
        assert not leaked(str(err.value), game.position)
    game.play({"action": "jewel"})
    game.play({"action": "turn"})
    with pytest.raises(IllegalMoveError, match="must be placed first") as err:
        game.play({"action": "turn"})
    assert not leaked(str(err.value), game.position), str(err.value)
    tomb = Game("napoleons-tomb-3", 1)
    for _ in range(18):
        tomb.play({"action": "turn"})
    with pytest.raises(IllegalMoveError, match="the stock is empty") as err:
        tomb.play({"action": "turn"})
    assert not leaked(str(err.value), tomb.position)


def test_cell_cards_go_home_by_themselves_where_cells_send_only_home():
    classic = load("napoleons-tomb")
    placed = (c("KD"), c("6C"), c("5H"))
    rest = tuple(card for card in DECK if card not in placed)
    pos = replace(start_position(1, classic), stock=rest, waste=placed[:2], cells=(None, c("5H"), None, None))
    game = Game.from_position(pos)
    step = game.play({"action": "move", "from": "waste", "to": "tomb"})
    assert [move_json(m) for m in step] == [
        {"action": "move", "from": "waste", "to": "tomb", "card": "6C"},
        {"action": "move", "from": "cell:2", "to": "tomb", "card": "5H"},
    ]
    assert game.view()["table"]["tomb"] == {"top": "5H", "count": 2, "wants": 4, "round": 1, "rounds": 4}
    assert game.undo() == step and game.position == pos
    # Without auto, or where a cell card may go elsewhere (the Finnish
    # rules), the cell card stays.
    assert len(game.play({"action": "move", "from": "waste", "to": "tomb"}, auto=False)) == 1
    finnish = Game.from_position(replace(pos, variant=load("napoleonin-hauta")))
    assert len(finnish.play({"action": "move", "from": "waste", "to": "tomb"})) == 1
    assert finnish.view()["table"]["cells"] == [None, "5H", None, None]


def test_a_jewel_fills_a_space_in_the_same_step():
    game = Game("paciencia-porta-joias", 1)
    step = game.play({"action": "move", "from": "bottom:2", "to": "foundation"})
    assert [move_json(m) for m in step] == [
        {"action": "move", "from": "bottom:2", "to": "foundation:S", "card": "AS"},
        {"action": "jewel", "to": "bottom:2"},
    ]
    table = game.view()["table"]
    assert table["bottoms"][1] == ["6H"] and table["jewels"] == {"count": 12, "pending": None}
    assert table["foundations"]["S"] == [{"count": 1, "top": "AS"}, {"count": 0, "top": None}]


def test_napoleao_moves_and_views():
    game = Game("paciencia-napoleao", 1)
    assert [move_json(m) for m in game.legal_moves()] == [{"action": "deal"}]
    game.play({"action": "deal"})
    table = game.view()["table"]
    assert table["piles"][5] == {"top": "KC", "count": 1} and table["round"] == 1 and table["restricted"]
    game.play({"action": "move", "from": "pile:6", "to": "kbase"})
    assert game.view()["table"]["kbases"]["C"] == {"count": 1, "top": "KC"}
    with pytest.raises(IllegalMoveError, match="pile 6 is empty"):
        game.play({"action": "move", "from": "pile:6", "to": "kbase"})
    with pytest.raises(IllegalMoveError, match="the empty ♣ Ace base takes only an A"):
        game.play({"action": "move", "from": "pile:7", "to": "abase:C"})


def test_a_game_needs_a_deal_or_a_position():
    with pytest.raises(GameError):
        Game("napoleons-tomb")
    with pytest.raises(GameError, match="is not a position"):
        Game(position="a position")
    with pytest.raises(MoveError, match="step 53: turn the stock: the stock is empty"):
        Game.replay("napoleons-tomb", 1, [[{"action": "turn"}]] * 52 + [[{"action": "turn"}]])
    with pytest.raises(MoveError, match="step 1: a step is a non-empty list"):
        Game.replay("napoleons-tomb", 1, [[]])


@pytest.mark.parametrize("variant,deal", [("paciencia-napoleao", 2), ("paciencia-porta-joias", 7)])
def test_following_the_hints_wins_the_two_deck_games(variant, deal):
    # Each hint continues the line of the one before, whose rest wins (a new
    # search from each position could start new lines, and in the jewel box
    # send one card back and forth between two piles for ever).
    game = Game(variant, deal)
    for _ in range(3000):
        if game.over:
            break
        h = game.hint()
        assert h.verdict == "won"
        game.play(h.move)
    assert game.won and game.hint().move is None
    assert str(game.hint()) == "The deal is won: all 104 cards are home."


def test_a_lost_position_says_so():
    game = Game("napoleons-tomb", 1)  # lost: the best line brings 31 cards home
    h = game.hint()
    assert h.verdict == "lost" and h.score == 31
    while not game.over:
        h = game.hint()
        assert h.verdict == "lost" and h.score == 31
        game.play(h.move)
    assert game.stuck and game.score == 31 and game.view()["stuck"]


def test_the_view_is_json_and_says_the_game_state():
    game = Game("napoleonin-hauta", 3)
    view = game.view()
    assert json.loads(json.dumps(view)) == view
    assert view["table"]["reserve"] == [] and view["total"] == 52
    assert set(view["table"]) == {"stock", "waste", "cells", "reserve", "corners", "tomb", "pass"}
    assert not hidden(game.position) & set(json.dumps(view).split('"'))
    for v in all_variants():
        assert Game(v.name, 5).view()["family"] == v.family


def test_the_lines_of_past_hints_are_kept_within_their_room():
    from solver import hint as search_hint

    lines = session._Lines(positions=150)
    first = start_position(14, "napoleons-tomb")
    h = search_hint(first)
    lines.put(first, h)
    after = engine("tomb").play(first, h.line[0])
    assert lines.get(after).line == h.line[1:] and lines.get(after).move == h.line[1]
    other = start_position(5, "napoleons-tomb-3")
    lines.put(other, search_hint(other))  # more than 150 positions with the first: it goes
    assert lines.get(after) is None and lines.get(other) is not None
    # A hint that proved nothing leaves no line.
    unsure = replace(search_hint(first), verdict="unknown")
    lines.put(first, unsure)
    assert lines.get(first) is None
