"""Every written form of a move (solver.notation) reads back: the text form
(``Move.parse(str(m)) == m``), the solution format (``Move.from_json``, and
the core's JSON text of a line, byte for byte ``Move.text``), the player's
notation (``parse_move(move_json(m)) == m``); and the words a player reads,
one set for every action in every tense, naming no hidden card."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from leaks import cards_named

from solver import (
    Game,
    IllegalMoveError,
    Limit,
    Move,
    MoveError,
    errors,
    game,
    hints,
    notation,
    session,
    solve,
    start_position,
)
from solver.cards import Card
from solver.core import Search, flags_for
from solver.notation import (
    TENSES,
    describe,
    describe_move,
    move_json,
    parse_move,
    place_index,
    place_kind,
    say,
    say_place,
    step_name,
    step_text,
)
from solver.rules import reference as engine
from solver.variants import names

C = Card.parse
ROOT = Path(__file__).resolve().parent.parent


#: The kinds of move each family's random games must meet.
KINDS = {"tomb": {"move", "turn"}, "napoleao": {"move", "deal", "redeal"}, "jewel": {"move", "turn", "jewel"}}


@pytest.mark.parametrize("variant", names())
def test_every_legal_move_along_random_games_reads_back(variant):
    """Every legal move of every position along random games of ten deals."""
    rng = random.Random(variant)
    seen, actions = 0, set()
    for deal in range(1, 11):
        pos = start_position(deal, variant)
        rules = engine(pos.variant.family)
        for _ in range(300):
            legal = rules.legal_moves(pos)
            if not legal:
                break
            for m in legal:
                assert Move.parse(str(m)) == m, (variant, deal, m)
                assert Move.from_json(m.to_json()) == m == Move.from_json(json.loads(m.text())), m
                assert m.text() == json.dumps(m.to_json(), ensure_ascii=False)
            seen += len(legal)
            actions.update(m.action for m in legal)
            pos = rules.play(pos, rng.choice(legal))
    assert seen > 1000
    assert actions >= KINDS[pos.variant.family], actions


@pytest.mark.parametrize("variant", names())
def test_the_solvers_line_reads_back(variant):
    result = solve(1, variant, Limit(seconds=5))
    assert result.moves
    assert [Move.parse(str(m)) for m in result.moves] == list(result.moves)


@pytest.mark.parametrize(
    "move",
    [
        Move("turn"),
        Move("deal"),
        Move.redeal(),
        Move("jewel", dst="lid:2"),
        Move.jewel(Card.parse("6H"), "bottom:2"),
        Move("move", src="waste", dst="pile:3"),
        Move.turn([Card.parse("TH"), Card.parse("AS"), Card.parse("9C")]),
    ],
)
def test_the_moves_without_cards_and_the_rare_forms_read_back(move):
    assert Move.parse(str(move)) == move


def test_the_ascii_arrow_and_the_ascii_suits_are_read():
    assert Move.parse("8H waste -> cell") == Move.move(Card.parse("8H"), "waste", "cell")


@pytest.mark.parametrize(
    "text,says",
    [
        ("", "an empty text is not a move"),
        ("fly 8H", "'fly 8H' is not a move: expected"),
        ("8H waste", "is not a move"),
        ("8H waste → cell → tomb", "is not a move"),
        ("redeal 8H", "is not a move"),
        ("XX waste → cell", "'XX' is not a card: unknown rank 'X' in move 'XX waste → cell'"),
        ("turn 9C 1Z", "'1Z' is not a card"),
        ("8♥ waste → pile", "unknown place 'pile' in move '8♥ waste → pile'"),
        ("jewel 6H → lid:9", "unknown place 'lid:9'"),
    ],
)
def test_bad_text_gets_a_move_error_naming_the_problem(text, says):
    with pytest.raises(MoveError) as info:
        Move.parse(text)
    assert says in str(info.value)


def test_a_turn_without_cards_prints_without_a_trailing_space():
    assert str(Move("turn")) == "turn"
    assert Move.parse(str(Move("turn"))) == Move("turn")


# ---------------------------------------------------------------------------
# One module for every form: the old homes give the same objects


def test_the_old_homes_give_the_notations_own_names():
    assert game.Move is notation.Move and game.PLACES is notation.PLACES
    assert game.INDEXED_PLACES is notation.INDEXED_PLACES and game.is_place is notation.is_place
    assert game.MoveError is notation.MoveError is errors.MoveError is MoveError
    assert game.IllegalMoveError is notation.IllegalMoveError is errors.IllegalMoveError is IllegalMoveError
    assert session.parse_move is parse_move and session.move_json is move_json and session.describe is describe
    assert session.ACTIONS is notation.ACTIONS and session.HOME_PLACES is notation.HOME_PLACES
    assert hints.describe_move is describe_move


# ---------------------------------------------------------------------------
# The core writes the solution format's JSON text of a line as Move.text does

#: Lines that hold, between them, every action of every family and every
#: kind of place, plain and indexed (the reserve: the Finnish sixes', plain;
#: the jewel box's, numbered; the stock: the jewel box's turned card).
LINES = {"napoleons-tomb-3": 1, "napoleonin-hauta": 1, "paciencia-napoleao": 1, "paciencia-porta-joias": 1}
EVERY_ACTION = {
    "tomb": {"turn", "redeal", "move"},
    "napoleao": {"deal", "redeal", "move"},
    "jewel": {"turn", "jewel", "move"},
}
EVERY_PLACE = {(k, False) for k in notation.PLACES} | {(k, True) for k in notation.INDEXED_PLACES}


def test_the_cores_line_text_is_each_moves_text_for_every_action_and_place():
    actions: dict[str, set[str]] = {}
    places = set()
    for variant, deal in LINES.items():
        pos = start_position(deal, variant)
        search = Search(pos, flags_for(True, pos.variant.family))
        search.set_limits(3_000_000, None, None)
        out = search.outcome(search.run())
        which = 0 if out.verdict == "won" else 1
        assert out.moves, variant
        assert search.line_text(which).encode() == ", ".join(m.text() for m in out.moves).encode(), variant
        actions.setdefault(pos.variant.family, set()).update(m.action for m in out.moves)
        places |= {(place_kind(p), bool(place_index(p))) for m in out.moves for p in (m.src, m.dst) if p}
    assert actions == EVERY_ACTION
    assert places == EVERY_PLACE - {("stock", True)}, EVERY_PLACE - places


# ---------------------------------------------------------------------------
# The player's notation


def _random_games(variant: str, deals=range(1, 6), moves: int = 150):
    """Games of the variant played at random: each game's (legal moves, step
    played) along it."""
    rng = random.Random(variant)
    for deal in deals:
        g = Game(variant, deal)
        for _ in range(moves):
            legal = g.legal_moves()
            if not legal:
                break
            yield g, legal, g.play(rng.choice(legal))


@pytest.mark.parametrize("variant", names())
def test_every_players_move_reads_back_from_the_players_notation(variant):
    seen = set()
    for _, legal, step in _random_games(variant):
        for m in [*legal, *step]:
            data = move_json(m)
            assert parse_move(data) == m == parse_move(json.loads(json.dumps(data))), m
            with_text = move_json(m, text=True)
            assert with_text == {**data, "text": say(m)} and parse_move(with_text) == m
            seen.add(m.action)
    assert seen >= EVERY_ACTION[start_position(1, variant).variant.family] - {"redeal"} | {"move"}


@pytest.mark.parametrize(
    "data,says",
    [
        ({"action": "turn", "text": 3}, "'text' of a move must be text, not 3"),
        ({"action": "turn", "words": "x"}, "unknown field 'words' in a move; fields are action, from, to, card, text"),
        ({"action": "deal", "cards": ["AS"], "text": "Deal a round"}, "a deal names no card"),
    ],
)
def test_the_players_notation_refuses_what_it_does_not_know(data, says):
    with pytest.raises(MoveError, match=re.escape(says)):
        parse_move(data)


# ---------------------------------------------------------------------------
# The words a player reads

M = Move.move
WORDS = [
    # move, do (a hint), done (after the player's move), auto (by itself after it), name (in a sentence)
    (Move.turn([C("9C"), C("AS")]), "Turn the stock", "Turned the stock", "the stock turned", "turn the stock"),
    (Move("turn"), "Turn the stock", "Turned the stock", "the stock turned", "turn the stock"),
    (Move.deal([C("KH")]), "Deal a round", "Dealt a round", "a round dealt", "deal a round"),
    (Move.redeal(), "Redeal", "Redealt", "the stock redealt", "redeal"),
    (
        Move.jewel(C("QH"), "side:3"),
        "Open the next jewel into side 3",
        "Opened the next jewel into side 3",
        "the next jewel opened into side 3",
        "open the next jewel into side 3",
    ),
    (Move("jewel"), "Open the next jewel", "Opened the next jewel", "the next jewel opened", "open the next jewel"),
    (
        M(C("8H"), "waste", "cell"),
        "Play 8♥ waste → cell",
        "Played 8♥ waste → cell",
        "8♥ waste → cell",
        "8♥ waste → cell",
    ),
    (
        M(C("TS"), "cell:2", "corner:4"),
        "Play 10♠ cell 2 → corner 4",
        "Played 10♠ cell 2 → corner 4",
        "10♠ cell 2 → corner 4",
        "10♠ cell 2 → corner 4",
    ),
    (
        M(C("KC"), "pile:12", "kbase:C"),
        "Play K♣ pile 12 → King base ♣",
        "Played K♣ pile 12 → King base ♣",
        "K♣ pile 12 → King base ♣",
        "K♣ pile 12 → King base ♣",
    ),
    (
        Move("move", src="stock", dst="foundation"),
        "Play turned card → foundation",
        "Played turned card → foundation",
        "turned card → foundation",
        "turned card → foundation",
    ),
]


@pytest.mark.parametrize("move,do,done,auto,name", WORDS, ids=lambda x: str(x) if isinstance(x, Move) else None)
def test_one_set_of_words_for_every_action_in_every_tense(move, do, done, auto, name):
    assert [say(move, t) for t in TENSES] == [do, done, auto, name]
    assert say(move) == describe_move(move) == do and describe(move) == name
    assert say(move, "do", capital=False) == do[0].lower() + do[1:]


@pytest.mark.parametrize(
    "place,words",
    [
        ("cell:2", "cell 2"),
        ("corner:1", "corner 1"),
        ("tomb", "tomb"),
        ("waste", "waste"),
        ("reserve", "reserve"),
        ("pile:7", "pile 7"),
        ("kbase:H", "King base ♥"),
        ("abase:S", "Ace base ♠"),
        ("kbase", "King base"),
        ("lid:5", "lid 5"),
        ("side:1", "side 1"),
        ("bottom:4", "bottom 4"),
        ("reserve:3", "reserve 3"),
        ("foundation:D", "foundation ♦"),
        ("stock", "turned card"),
        (None, "?"),
    ],
)
def test_a_place_is_written_as_the_page_labels_it(place, words):
    assert say_place(place) == words


@pytest.mark.parametrize("variant", names())
def test_the_words_of_every_move_name_no_hidden_card_and_no_machine_place(variant):
    """Every legal move along random games, as the engine plays it (a turn
    names its cards) and as the player does: the words of a turn, a deal, a
    redeal or a jewel name no card; a card move's name its card; no place is
    written ``cell:2``; a step's sentence says its first move done and the
    rest made by themselves."""
    rules = None
    for g, legal, step in _random_games(variant, deals=range(1, 4)):
        rules = rules or engine(g.variant.family)
        engine_moves = rules.legal_moves(g.position)  # a turn's, a deal's, a jewel's cards named
        for m in [*legal, *step, *engine_moves]:
            for tense in TENSES:
                text = say(m, tense)
                assert ":" not in text and "None" not in text, text
                assert cards_named(text) == ({str(m.card)} if m.action == "move" else set()), (m, text)
                if tense in ("do", "done"):
                    assert not text[0].islower(), text
                else:
                    assert text[0].islower() or m.action == "move", text
        text = step_text(step)
        assert text.startswith(say(step[0], "done")) and text.endswith(".")
        assert ("; then by itself: " in text) == (len(step) > 1) == (", then " in step_name(step))
        assert step_name(step).startswith(say(step[0], "name"))


def test_the_engines_turn_names_no_card_in_a_hint():
    h = hints.hint_after(14, "napoleons-tomb", [])
    assert h.move.cards and str(h) == "Turn the stock: this line wins."


def test_a_step_with_a_move_made_by_itself_says_both():
    step = (M(C("4H"), "waste", "tomb"), M(C("5H"), "cell:2", "tomb"), M(C("9S"), "cell:1", "corner:3"))
    assert step_text(step) == "Played 4♥ waste → tomb; then by itself: 5♥ cell 2 → tomb, 9♠ cell 1 → corner 3."
    assert step_name(step) == "4♥ waste → tomb, then 5♥ cell 2 → tomb, then 9♠ cell 1 → corner 3"
    assert step_text([]) == step_name([]) == ""


# The page's drawing and input: words.js and local.js, which stand in for
# the server on the static site, are checked against it in test_site_api.
PAGE_MODULES = ("app.js", "api.js", "store.js", "table.js")


def test_the_page_writes_no_move_words_of_its_own():
    """The page shows the server's words (notation.py's): its script holds
    none of them, and does not turn a place's name into words."""
    static = ROOT / "solver" / "web" / "static"
    code = "".join(re.sub(r"//.*", "", (static / f).read_text(encoding="utf-8")) for f in PAGE_MODULES)
    for phrase in (
        "→",
        "turn the stock",
        "turned the stock",
        "deal a round",
        "dealt a round",
        "redealt",
        "next jewel",
        'replace(":"',
    ):
        assert phrase not in code.lower(), phrase
