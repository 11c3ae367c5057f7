"""The core's rules of play (csrc/play.h) against the reference engines.

On random games of every shipped variant, at every position: the core's
legal moves are the reference player's (``reference_legal``: the
reference engine's moves with the places a player chooses numbered:
tests/reference_players.py), in its order; each move the core applies
gives the position the reference gives (``reference_play``), compared as
the core's structs, and reports the move as it lists it; the moves
the rules make by themselves are the same; and every (source, destination)
pair a player could try is refused by both or accepted by both, with the
same position after it.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from typing import Any

import pytest
from reference_players import REFERENCES

from solver import families, start_position
from solver._core import ffi, lib
from solver.cards import Card
from solver.deals import Deal, card_indexes
from solver.families.play import record_move
from solver.families.player import Player, Refused
from solver.notation import IllegalMoveError, Move
from solver.variants import load, names

VARIANTS = names()
_CARDS = tuple(Card.from_index(i) for i in range(52))

# ---------------------------------------------------------------------------
# The structs of a position and the conversions of a move


def is_tomb(variant: Any) -> bool:
    return variant.family == "tomb"


def table(pos: Any) -> Any:
    """The core's play struct of ``pos`` (a tomb_table, or its family's position);
    checked to give ``pos`` back."""
    core = families.of(pos.variant).player.core
    t = core.table(pos)
    assert core.from_table(t, pos.variant) == pos
    return t


def struct_bytes(variant: Any, s: Any) -> bytes:
    return bytes(ffi.buffer(s))


def calls(variant: Any) -> dict[str, Any]:
    """The core's verbs of play for the variant's family."""
    number = families.of(variant).core_number
    return {
        name: functools.partial(getattr(lib, f"solver_play_{name}"), number)
        for name in ("start", "moves", "apply", "auto")
    }


def to_move(m: Any) -> Move:
    """A player's Move of a core's move record (a turn's and a jewel's cards
    left out, as the player sees them)."""
    return Player.blind(record_move(m))


def to_record(move: Move, variant: Any) -> Any:
    record = families.of(variant).player.core.record(move)
    assert record is not None, move
    return record


def core_moves(variant: Any, rules: Any, t: Any) -> list[Move]:
    out = ffi.new("solver_move[]", lib.PLAY_MAX_MOVES)
    err = ffi.new("char[]", 200)
    n = calls(variant)["moves"](rules, t, out, lib.PLAY_MAX_MOVES, err, 200)
    assert n >= 0, ffi.string(err).decode()
    return [to_move(out[i]) for i in range(n)]


def core_apply(variant: Any, rules: Any, t: Any, move: Move) -> tuple[Any, str | None, Move | None]:
    """The struct after ``move`` by the core (a copy) and the move as made,
    or None, its reason and None."""
    after = ffi.new(ffi.typeof(t).cname, t[0])
    err = ffi.new("char[]", 200)
    played = ffi.new("solver_move *")
    if calls(variant)["apply"](rules, after, to_record(move, variant), played, err, 200) != 0:
        return None, ffi.string(err).decode(), None
    return after, None, to_move(played)


def core_auto(variant: Any, rules: Any, t: Any, enabled: bool) -> Move | None:
    out = ffi.new("solver_move *")
    return to_move(out[0]) if calls(variant)["auto"](rules, t, enabled, out) else None


# ---------------------------------------------------------------------------
# The checks


def check_position(variant: Any, rules: Any, pos: Any, player: Any) -> list[Move]:
    t = table(pos)
    legal = [player.blind(m) if m.action != "move" else m for m in player.reference_legal(pos)]
    assert core_moves(variant, rules, t) == legal, str(pos)
    for enabled in (True, False):
        assert core_auto(variant, rules, t, enabled) == player.reference_auto(pos, enabled), str(pos)
    return legal


def check_move(variant: Any, rules: Any, pos: Any, player: Any, move: Move) -> Any:
    """The position after ``move`` by the reference, checked against the
    core's (None where both refuse it)."""
    try:
        _, after = player.reference_play(pos, move)
    except (Refused, IllegalMoveError):
        after = None
    t_after, reason, made = core_apply(variant, rules, table(pos), move)
    if after is None:
        assert t_after is None, f"the core accepts {move} in\n{pos}"
        assert reason
        return None
    assert t_after is not None, f"the core refuses {move} ({reason}) in\n{pos}"
    assert struct_bytes(variant, t_after) == struct_bytes(variant, table(after)), f"{move} in\n{pos}"
    if move in legal_moves(variant, rules, pos):
        assert made == move, f"{move} was made as {made} in\n{pos}"
    return after


def legal_moves(variant: Any, rules: Any, pos: Any) -> list[Move]:
    return core_moves(variant, rules, table(pos))


def places_of(pos: Any) -> list[str]:
    """Every place a player could name in ``pos``'s variant."""
    v = pos.variant
    if is_tomb(v):
        out = ["waste", "reserve", "tomb", "stock"]
        out += [f"cell:{i}" for i in range(1, v.cells + 1)] + [f"corner:{i}" for i in range(1, 5)]
        return out
    if v.family == "napoleao":
        return [f"pile:{i}" for i in range(1, 13)] + [f"{k}:{s}" for k in ("kbase", "abase") for s in "CSHD"]
    out = ["stock"] + [f"lid:{i}" for i in range(1, 6)]
    out += [f"{k}:{i}" for k in ("side", "bottom") for i in range(1, 5)]
    out += [f"reserve:{i}" for i in range(1, v.reserves + 1)] + [f"foundation:{s}" for s in "CSHD"]
    return out


def random_game(name: str, deal: int, moves: int, tries: int, seed: int) -> int:
    """Plays ``moves`` random legal moves of ``deal`` (with the rules' own
    after each), checking every position and ``tries`` other moves a
    position; the positions checked."""
    variant = load(name)
    fam = families.of(variant)
    player, rules = REFERENCES[variant.family], fam.rules_struct(variant)
    rng = random.Random(seed)
    pos = fam.position.start(Deal.from_number(deal, decks=variant.decks), variant)
    places = places_of(pos)
    for checked in range(moves):
        legal = check_position(variant, rules, pos, player)
        if not legal:
            return checked
        for _ in range(tries):
            src, dst = rng.choice(places), rng.choice(places)
            check_move(variant, rules, pos, player, Move("move", src=src, dst=dst))
        pos = check_move(variant, rules, pos, player, rng.choice(legal))
        while (extra := player.reference_auto(pos, True)) is not None:
            pos = check_move(variant, rules, pos, player, extra)
    return moves


@pytest.mark.parametrize("name", VARIANTS)
def test_a_deals_start_is_the_positions_start(name: str) -> None:
    variant = load(name)
    fam = families.of(variant)
    rules = fam.rules_struct(variant)
    for deal in (1, 2, 617, 31999, 32000, 10**20):
        cards = card_indexes(deal, variant.decks)
        pos = fam.position.start(Deal.from_number(deal, decks=variant.decks), variant)
        out = ffi.new(ffi.typeof(table(pos)))
        err = ffi.new("char[]", 200)
        assert calls(variant)["start"](rules, cards, len(cards), out, err, 200) == 0, ffi.string(err).decode()
        assert struct_bytes(variant, out) == struct_bytes(variant, table(pos)), deal


@pytest.mark.parametrize("name", VARIANTS)
def test_random_games_play_as_the_reference_engine_plays(name: str) -> None:
    checked = sum(random_game(name, deal, 150, 6, seed=deal) for deal in range(1, 9))
    assert checked > 100


def test_the_core_numbers_the_families_as_the_variant_files_name_them() -> None:
    names = [ffi.string(lib.solver_family_name(i)).decode() for i in range(lib.solver_family_count())]
    assert names == list(families.FAMILIES)
    assert [lib.solver_family(n.encode()) for n in names] == list(range(len(names)))
    assert lib.solver_family(b"napoleon") == -1 and lib.solver_family_name(len(names)) == ffi.NULL


@pytest.mark.parametrize("family", [3, 99, -1])
def test_a_family_number_of_no_family_is_an_error_not_another_familys(family: int) -> None:
    """A call with a number of no family fails with the reason (the search's
    constructor, and every verb of play), never playing another family's
    rules."""
    variant = load("paciencia-napoleao")
    fam = families.of(variant)
    pos = fam.position_struct(start_position(1, variant))
    rules = fam.rules_struct(variant)
    err = ffi.new("char[200]")
    assert lib.solver_new(family, rules, pos, 0, err, 200) == ffi.NULL
    assert ffi.string(err) == f"no game family {family}: families are 0..2".encode()
    cards = ffi.new("uint8_t[104]", card_indexes(1, decks=2))
    moves = ffi.new("solver_move[1024]")
    err = ffi.new("char[200]")
    assert lib.solver_play_start(family, rules, cards, 104, pos, err, 200) == -1
    assert ffi.string(err) == f"no game family {family}: families are 0..2".encode()
    assert lib.solver_play_moves(family, rules, pos, moves, 1024, err, 200) == -1
    assert lib.solver_play_apply(family, rules, pos, moves, moves + 1, err, 200) == -1
    assert lib.solver_play_auto(family, rules, pos, 1, moves) == -1
    assert lib.solver_play_score(family, rules, pos) == -1
    assert lib.solver_play_restricted(family, rules, pos) == -1


def test_a_position_changed_by_hand_is_read_afresh_not_from_the_core_struct_kept() -> None:
    """A position the core made keeps the core's struct beside it; one made
    from it by dataclasses.replace has other cards and must not be played
    from that struct."""
    variant = load("napoleons-tomb")
    player = families.of(variant).player
    _, turned = player.play(start_position(1, variant), Move("turn"))
    assert {m.src for m in player.legal(turned) if m.action == "move"} == {"waste"}
    jd = turned.waste[-1]
    parked = dataclasses.replace(turned, waste=(), cells=(jd, None, None, None))
    assert not [m for m in player.legal(parked) if m.action == "move"]  # a cell card goes only home here
    view = player.view(parked)
    assert view["cells"] == ["JD", None, None, None] and view["waste"]["count"] == 0
