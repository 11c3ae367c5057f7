"""The printed notation of a move reads back: ``Move.parse(str(m)) == m``."""

from __future__ import annotations

import random

import pytest

from solver import Limit, Move, MoveError, solve, start_position
from solver.cards import Card
from solver.families import engine
from solver.variants import names


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


@pytest.mark.parametrize("move", [
    Move("turn"), Move("deal"), Move.redeal(), Move("jewel", dst="lid:2"),
    Move.jewel(Card.parse("6H"), "bottom:2"), Move("move", src="waste", dst="pile:3"),
    Move.turn([Card.parse("TH"), Card.parse("AS"), Card.parse("9C")]),
])
def test_the_moves_without_cards_and_the_rare_forms_read_back(move):
    assert Move.parse(str(move)) == move


def test_the_ascii_arrow_and_the_ascii_suits_are_read():
    assert Move.parse("8H waste -> cell") == Move.move(Card.parse("8H"), "waste", "cell")


@pytest.mark.parametrize("text,says", [
    ("", "an empty text is not a move"),
    ("fly 8H", "'fly 8H' is not a move: expected"),
    ("8H waste", "is not a move"),
    ("8H waste → cell → tomb", "is not a move"),
    ("redeal 8H", "is not a move"),
    ("XX waste → cell", "'XX' is not a card: unknown rank 'X' in move 'XX waste → cell'"),
    ("turn 9C 1Z", "'1Z' is not a card"),
    ("8♥ waste → pile", "unknown place 'pile' in move '8♥ waste → pile'"),
    ("jewel 6H → lid:9", "unknown place 'lid:9'"),
])
def test_bad_text_gets_a_move_error_naming_the_problem(text, says):
    with pytest.raises(MoveError) as info:
        Move.parse(text)
    assert says in str(info.value)


def test_a_turn_without_cards_prints_without_a_trailing_space():
    assert str(Move("turn")) == "turn"
    assert Move.parse(str(Move("turn"))) == Move("turn")
