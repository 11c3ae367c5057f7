"""The core's key of a position (solver_play_key) and its blind players
(solver_play_choose, solver_play_blind): keys equal exactly when positions
are; a blind game played whole in the core is the game the same player
plays asked move by move; the calls refuse what they cannot do, with the
reason."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from support import random_positions

from solver import blind, families, start_position
from solver._core import ffi, lib
from solver.cards import Card
from solver.errors import CoreError, StrategyError
from solver.variants import load, names

VARIANTS = names()
BLIND = [v for v in VARIANTS if families.of(load(v)).blind_players]


@pytest.mark.parametrize("name", VARIANTS)
def test_two_positions_have_one_key_exactly_when_they_are_equal(name: str) -> None:
    core = families.of(load(name)).player.core
    seen = random_positions(name, range(1, 5), 80)
    keys = [core.key(p) for p in seen]
    for i in range(len(seen)):
        for j in range(i + 1, len(seen)):
            assert (keys[i] == keys[j]) == (seen[i] == seen[j]), (i, j)
    assert len(set(keys)) > len(seen) // 2  # random games: mostly new positions


def test_the_canonical_key_forgets_which_cell_and_which_corner_only() -> None:
    variant = load("napoleonin-hauta")
    core = families.of(variant).player.core
    start = start_position(1, variant)
    a, b = Card.parse("9C"), Card.parse("KH")
    rest = tuple(c for c in start.stock if c not in (a, b))
    one = dataclasses.replace(start, stock=rest, cells=(a, b, None, None))
    other = dataclasses.replace(one, cells=(None, b, a, None))
    assert core.key(one) != core.key(other)
    assert core.key(one, canonical=True) == core.key(other, canonical=True)
    # Another card in the cells is another position, canonical or not.
    moved = dataclasses.replace(one, stock=(b, *rest), cells=(a, None, None, None))
    assert core.key(one, canonical=True) != core.key(moved, canonical=True)


@pytest.mark.parametrize("name", BLIND)
@pytest.mark.parametrize("make", [blind.Simple, blind.Careful, lambda: blind.Careful(1, True)])
def test_a_game_played_in_the_core_is_the_game_asked_move_by_move(name: str, make: Any) -> None:
    """The library's players play the whole game in the core; a subclass
    is asked each move from Python. Same moves, score and positions."""
    whole = make()
    asked = type(f"Asked{type(whole).__name__}", (type(whole),), {})()
    asked.__dict__.update(whole.__dict__)
    for deal in range(1, 13):
        a, b = blind.play(deal, name, whole), blind.play(deal, name, asked)
        assert (a.moves, a.score, a.won, a.stats.positions) == (b.moves, b.score, b.won, b.stats.positions), deal
        assert a.stats.positions == len(a.moves) + 1  # these players never come back to a position


def test_careful_move_is_the_first_move_of_the_careful_game() -> None:
    for deal in range(1, 30):
        game = blind.play(deal, "napoleons-tomb-3", "careful", max_moves=1)
        assert (blind.careful_move(start_position(deal, "napoleons-tomb-3")),) == game.moves


def test_the_blind_calls_refuse_a_family_with_no_players_and_no_such_player() -> None:
    variant = load("paciencia-napoleao")
    core = families.of(variant).player.core
    pos = start_position(1, variant)
    moves, records = core.moves(pos)
    with pytest.raises(CoreError, match="the napoleao games have no blind players"):
        core.choose(pos, (lib.SOLVER_BLIND_CAREFUL, 3, -1), records, len(moves))
    with pytest.raises(CoreError, match="no blind players"):
        core.blind(pos, (lib.SOLVER_BLIND_SIMPLE, 3, -1), 10)
    with pytest.raises(CoreError, match="count no distances"):
        core.distance(pos, Card.parse("5H"))
    tomb = start_position(1)
    tomb_core = families.of(tomb.variant).player.core
    with pytest.raises(CoreError, match="no blind player 7: they are 0 and 1"):
        tomb_core.blind(tomb, (7, 3, -1), 10)


def test_a_key_or_a_choice_of_an_impossible_position_is_refused() -> None:
    pos = start_position(1)
    twice = dataclasses.replace(pos, waste=(pos.stock[0],))  # a card both in the stock and the waste
    core = families.of(pos.variant).player.core
    with pytest.raises(CoreError, match="appears twice"):
        core.key(twice)
    with pytest.raises(CoreError, match="appears twice"):
        core.blind(twice, blind.careful.strategy(), 10)
    err = ffi.new("char[200]")
    assert lib.solver_play_key(3, ffi.new("tomb_rules *"), ffi.NULL, 0, ffi.NULL, 0, err, 200) == -1
    assert ffi.string(err) == b"no game family 3: families are 0..2"


def test_a_view_made_by_hand_has_no_position_behind_it() -> None:
    view = blind.view_of(start_position(1))
    copy = dataclasses.replace(view)
    with pytest.raises(StrategyError, match="not made by play"):
        copy.distance(Card.parse("5H"))
    with pytest.raises(StrategyError, match="not made by play"):
        blind.careful.choose(copy, copy.moves)


def test_the_words_of_a_move_come_from_the_cores_one_table() -> None:
    """Each family's kinds of place by name (the two "reserve"s told apart
    by the family), how each is numbered, and which are foundations."""
    from solver.families.play import core_number, place_name, place_record
    from solver.notation import HOME_PLACES

    def kinds(family: str) -> list[str]:
        out, number = [], core_number(family)
        while (k := lib.solver_family_place(number, len(out))) >= 0:
            out.append(ffi.string(lib.solver_place_name(k)).decode())
        return out

    assert kinds("tomb") == ["stock", "waste", "cell", "reserve", "corner", "tomb"]
    assert kinds("napoleao") == ["stock", "pile", "kbase", "abase"]
    assert kinds("jewel") == ["stock", "lid", "side", "bottom", "reserve", "foundation"]
    assert place_record("reserve", core_number("tomb")) == (lib.SOLVER_PLACE_RESERVE, 0)
    assert place_record("reserve:2", core_number("jewel")) == (lib.SOLVER_PLACE_RESERVE_PILE, 2)
    assert place_record("kbase", core_number("napoleao")) == (lib.SOLVER_PLACE_KBASE, lib.SOLVER_ANY_SUIT)
    assert place_record("stack:1", core_number("jewel")) is None
    assert place_name(lib.SOLVER_PLACE_CELL, 2) == "cell:2" and place_name(lib.SOLVER_PLACE_CELL, 2, True) == "cell"
    assert place_name(lib.SOLVER_PLACE_PILE, 7, True) == "pile:7" and place_name(lib.SOLVER_PLACE_KBASE, 2) == "kbase:H"
    homes = set()
    k = 0
    while lib.solver_place_name(k) != ffi.NULL:
        if lib.solver_place_home(k):
            homes.add(ffi.string(lib.solver_place_name(k)).decode())
        k += 1
    assert homes == HOME_PLACES
    assert [ffi.string(lib.solver_action_name(a)).decode() for a in range(5)] == [
        "turn",
        "redeal",
        "move",
        "deal",
        "jewel",
    ]
    assert lib.solver_action_name(5) == ffi.NULL and lib.solver_place_numbering(99) == -1
