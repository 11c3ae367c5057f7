"""The core's layout of a table (solver_play_layout), which the page's one
renderer draws: every place a legal move names has a spot, keys and names
are unique, the words say what the table holds and no hidden card, and an
impossible position is refused with the reason."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from leaks import leaked
from support import random_positions

from solver import families, start_position
from solver._core import ffi, lib
from solver.cards import Card
from solver.errors import CoreError
from solver.notation import move_json
from solver.session import Game
from solver.variants import load, names

VARIANTS = names()


def spots(layout: dict[str, Any]) -> list[dict[str, Any]]:
    return [s for area in layout["areas"] for s in area["spots"]]


@pytest.mark.parametrize("name", VARIANTS)
def test_every_place_a_move_names_is_drawn_once_named_by_what_it_holds(name: str) -> None:
    player = families.of(load(name)).player
    for pos in random_positions(name, range(1, 4), 60):
        layout = player.layout(pos)
        drawn = spots(layout)
        keys = [s["key"] for s in drawn if "key" in s]
        assert len(set(keys)) == len(keys), keys
        assert len({s["name"] for s in drawn}) == len(drawn)
        places = {s["place"] for s in drawn if "key" in s}
        for m in player.legal(pos):
            j = move_json(m)
            for end in ("from", "to"):
                if j.get(end) is not None and j["action"] == "move":
                    assert j[end] in places, (j, places)
        assert any(s["key"] == "@deck" and s["action"] for s in drawn if "key" in s)
        assert layout["status"] and not leaked(layout, pos)
        for s in drawn:  # a stack shows its top card, face up; a fan at most all of them
            if s["fan"] == "stack":
                assert len(s["cards"]) == (1 if s["count"] and not s.get("back") else 0), s
            else:
                assert 0 < len(s["cards"]) <= s["count"] or s["count"] == 0 == len(s["cards"]), s


def test_the_tomb_s_words_are_the_player_s() -> None:
    variant = load("napoleonin-hauta")
    start = start_position(1, variant)
    nine, king = Card.parse("9C"), Card.parse("KH")
    rest = tuple(c for c in start.stock if c not in (nine, king))
    pos = dataclasses.replace(start, stock=rest, cells=(nine, None, None, None), waste=(king,))
    by_key = {s["key"]: s for s in spots(families.of(variant).player.layout(pos)) if "key" in s}
    assert by_key["cell:1"]["name"] == "cell 1: 9 of clubs"
    assert by_key["cell:2"]["name"] == "cell 2: empty"
    assert by_key["corner:1"]["name"] == "corner 1: empty, takes a 7"
    assert by_key["tomb"]["name"] == "tomb: empty; wants a 6, round 1 of 4"
    assert by_key["tomb"]["home"] and by_key["corner:3"]["home"] and "home" not in by_key["cell:1"]
    assert by_key["waste"]["name"] == "waste: 1 card, King of hearts on top"
    assert by_key["reserve"]["name"] == "sixes reserve: empty"
    assert by_key["@deck"]["name"] == "stock: 50 cards" and by_key["@deck"]["action"] == "turn"


def test_two_foundations_of_a_suit_are_one_place_that_says_which_takes_the_card() -> None:
    g = Game("paciencia-porta-joias", 1)
    drawn = {s["key"]: s for s in spots(g.view()["layout"]) if "key" in s}
    assert drawn["foundation:H"]["place"] == drawn["foundation:H#2"]["place"] == "foundation:H"
    assert drawn["foundation:H"]["takes"] == drawn["foundation:H#2"]["takes"] == "AH"
    assert drawn["foundation:H#2"]["name"] == "foundation of hearts (second): empty"


@pytest.mark.parametrize("name", ["napoleons-tomb", "paciencia-napoleao", "paciencia-porta-joias"])
def test_an_impossible_position_or_no_family_is_refused_with_the_reason(name: str) -> None:
    core = families.of(load(name)).player.core
    pos = start_position(1, load(name))
    rules, table = core.rules(pos.variant), core._table(pos)
    out, err = ffi.new("char[]", 64), ffi.new("char[]", 200)
    assert lib.solver_play_layout(99, rules, table, out, 64, err, 200) == -1
    assert b"family" in ffi.string(err)
    n = lib.solver_play_layout(core.number, rules, table, out, 64, err, 200)
    assert n >= 64 and len(ffi.string(out)) == 63  # cut short, its length told
    bad = dataclasses.replace(pos, stock=pos.stock[1:])  # a card missing
    with pytest.raises(CoreError):
        core.layout(bad)
