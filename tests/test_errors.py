"""One base class for the library's errors, and what an illegal move carries."""

from __future__ import annotations

import pytest

from solver import (
    CardError,
    DealError,
    Game,
    GameError,
    IllegalMoveError,
    Move,
    MoveError,
    SolverError,
    VariantError,
    position_after,
    start_position,
)
from solver.batch import BatchError
from solver.batch.cluster import WrongVersion
from solver.cards import Card
from solver.core import CoreError
from solver.rules import tomb
from solver.verdicts import VerdictIndexError


@pytest.mark.parametrize(
    "error,second",
    [
        (CardError, ValueError),
        (DealError, ValueError),
        (MoveError, ValueError),
        (IllegalMoveError, ValueError),
        (VariantError, ValueError),
        (GameError, ValueError),
        (CoreError, ValueError),
        (BatchError, ValueError),
        (VerdictIndexError, ValueError),
        (WrongVersion, RuntimeError),
    ],
)
def test_every_library_error_is_a_solver_error_and_keeps_its_old_base(error, second):
    assert issubclass(error, SolverError) and issubclass(error, second)


def test_an_illegal_move_of_a_line_carries_the_move_the_reason_and_its_number():
    bad = Move.move(Card.parse("7H"), "waste", "corner")
    with pytest.raises(IllegalMoveError) as info:
        position_after(1, "napoleons-tomb", [Move.turn([Card.parse("JD")]), bad])
    exc = info.value
    assert (exc.move, exc.number, exc.reason) == (bad, 2, "the top of the waste is J♦")
    assert str(exc) == "move 2 (7♥ waste → corner): the top of the waste is J♦"


def test_an_illegal_move_played_by_itself_has_no_number():
    bad = Move.move(Card.parse("9C"), "waste", "corner")
    with pytest.raises(IllegalMoveError) as info:
        tomb.play(start_position(1), bad)
    assert (info.value.move, info.value.number, info.value.reason) == (bad, None, "the waste is empty")
    assert str(info.value) == "9♣ waste → corner: the waste is empty"


def test_a_game_names_the_players_move_and_the_reason():
    with pytest.raises(IllegalMoveError) as info:
        Game("napoleons-tomb", 1).play({"action": "move", "from": "waste", "to": "cell:1"})
    assert str(info.value) == "waste → cell 1: the waste is empty"
    assert info.value.move == Move("move", src="waste", dst="cell:1") and info.value.reason == "the waste is empty"


def test_an_illegal_move_error_built_by_hand_keeps_its_message_as_reason():
    exc = IllegalMoveError("no")
    assert (str(exc), exc.reason, exc.move, exc.number) == ("no", "no", None, None)
