"""Tests of the public API: solve, Limit, Result (JSON, text, positions), position_after."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

import solver
from solver import (
    Card,
    Deal,
    DealError,
    IllegalMoveError,
    Limit,
    Move,
    MoveError,
    Position,
    Result,
    Stats,
    VariantError,
    position_after,
    solve,
    start_position,
    variants,
)
from solver.cards import DECK
from solver.rules import tomb
from solver.variants import load

CLASSIC = load("napoleons-tomb")
THREE = load("napoleons-tomb-3")
FINNISH = load("napoleonin-hauta")

CARD_RE = re.compile(r"^[A2-9TJQK][CDHS]$")
PLACES = {"stock", "waste", "cell", "reserve", "corner", "tomb"}
SUIT_SYMBOLS = set("♣♦♥♠")


@pytest.fixture(scope="module")
def won14() -> Result:
    return solve(14, "napoleons-tomb")


@pytest.fixture(scope="module")
def lost14() -> tuple[Position, Result]:
    """Deal 14 after turning 40 cards and playing none: proven lost (best 3)."""
    deal = Deal.from_number(14)
    pos = position_after(deal, "napoleons-tomb", [Move.turn([c]) for c in deal.cards[:40]])
    return pos, solve(pos)


@pytest.fixture(scope="module")
def unknown1() -> Result:
    return solve(1, "napoleons-tomb", Limit(positions=100_000))


def replay_from_start(result: Result) -> Position:
    """The end of ``result``'s line, replayed by the reference engine."""
    deal = Deal.from_cards(result.cards)
    return tomb.replay(Position.start(deal.cards, load(result.variant)), result.moves)


def check_solution_format(data: dict, variant: str, deal: int | None) -> None:
    """``data`` has exactly the shape of docs/rules/solution-format.md."""
    assert list(data) == ["variant", "fingerprint", "deal", "cards", "verdict", "reason", "score", "moves", "stats"]
    assert data["variant"] == variant
    assert data["fingerprint"] == load(variant).fingerprint
    assert data["deal"] == deal
    if deal is not None:
        assert type(data["deal"]) is int
    assert isinstance(data["cards"], list) and len(data["cards"]) == 52
    assert all(isinstance(c, str) and CARD_RE.match(c) for c in data["cards"])
    assert sorted(data["cards"]) == sorted(str(c) for c in DECK)
    assert data["verdict"] in ("won", "lost", "unknown")
    if data["verdict"] == "unknown":
        assert data["reason"] in ("positions", "seconds", "memory", "interrupted")
    else:
        assert data["reason"] is None
    assert type(data["score"]) is int and 0 <= data["score"] <= 52
    if data["verdict"] == "won":
        assert data["score"] == 52
    assert isinstance(data["moves"], list)
    for m in data["moves"]:
        assert isinstance(m, dict)
        if m["action"] == "turn":
            assert list(m) == ["action", "cards"]
            assert m["cards"] and all(isinstance(c, str) and CARD_RE.match(c) for c in m["cards"])
        elif m["action"] == "redeal":
            assert list(m) == ["action"]
        else:
            assert m["action"] == "move"
            assert list(m) == ["action", "card", "from", "to"]
            assert isinstance(m["card"], str) and CARD_RE.match(m["card"])
            assert m["from"] in PLACES and m["to"] in PLACES
    assert list(data["stats"]) == [
        "positions",
        "seconds",
        "table_bytes",
        "peak_bytes",
        "held_bytes",
        "held",
        "refused_bytes",
    ]
    assert sum(data["stats"]["held"].values()) == data["stats"]["held_bytes"] <= data["stats"]["peak_bytes"]
    assert type(data["stats"]["positions"]) is int and data["stats"]["positions"] >= 0
    assert isinstance(data["stats"]["seconds"], float) and data["stats"]["seconds"] >= 0
    assert type(data["stats"]["table_bytes"]) is int and data["stats"]["table_bytes"] >= 0


# ---------------------------------------------------------------------------
# A won deal


def test_deal_14_is_won_and_the_line_replays_to_52(won14):
    assert won14.verdict == "won" and won14.won
    assert won14.reason is None
    assert won14.score == 52
    assert won14.deal == 14 and won14.variant == "napoleons-tomb"
    assert won14.cards == Deal.from_number(14).cards
    assert won14.played == 0
    end = replay_from_start(won14)
    assert tomb.score(end) == 52 and tomb.is_won(end)


@pytest.mark.parametrize(
    "variant, number", [("napoleons-tomb-3", 5), ("napoleons-tomb-3", 1), ("napoleonin-hauta", 14)]
)
def test_other_variants_win_lines_replay(variant, number):
    result = solve(number, variant, Limit(seconds=10))
    assert result.verdict == "won"
    assert result.variant == variant
    assert tomb.score(replay_from_start(result)) == 52
    assert result.position().won


def test_solve_without_shortcuts_gives_the_same_verdict():
    result = solve(14, "napoleons-tomb", shortcuts=False)
    assert result.verdict == "won"
    assert tomb.score(replay_from_start(result)) == 52


def test_unknown_shortcut_is_rejected():
    with pytest.raises(ValueError, match="unknown shortcut 'nope'"):
        solve(14, shortcuts=["nope"])


# ---------------------------------------------------------------------------
# The solution format


def test_json_matches_the_solution_format(won14, lost14, unknown1):
    check_solution_format(won14.to_json(), "napoleons-tomb", 14)
    check_solution_format(lost14[1].to_json(), "napoleons-tomb", 14)
    check_solution_format(unknown1.to_json(), "napoleons-tomb", 1)


def test_json_three_card_turns_list_the_cards_in_turning_order():
    result = solve(5, "napoleons-tomb-3")
    data = result.to_json()
    check_solution_format(data, "napoleons-tomb-3", 5)
    turns = [m for m in data["moves"] if m["action"] == "turn"]
    assert turns[0]["cards"] == data["cards"][:3]
    assert all(1 <= len(m["cards"]) <= 3 for m in turns)


def test_json_first_moves_of_deal_14(won14):
    data = won14.to_json()
    assert data["cards"][:3] == ["9C", "QC", "JH"]
    assert data["moves"][:4] == [{"action": "turn", "cards": [c]} for c in ("9C", "QC", "JH", "8H")]
    assert data["moves"][4] == {"action": "move", "card": "8H", "from": "waste", "to": "cell"}


def test_json_text_is_plain_json(won14):
    text = won14.dumps()
    assert "\n" not in text
    assert json.loads(text) == won14.to_json()


@pytest.mark.parametrize("which", ["won14", "lost", "unknown1"])
def test_round_trip_through_to_json_and_json_text(which, won14, lost14, unknown1):
    result = {"won14": won14, "lost": lost14[1], "unknown1": unknown1}[which]
    back = Result.from_json(result.to_json())
    assert back == result
    assert back.to_json() == result.to_json()
    text = json.dumps(result.to_json())
    again = Result.from_json(text)
    assert again == result
    assert again.to_json() == result.to_json()
    assert Result.loads(result.dumps()) == result
    assert Result.from_json(text.encode()) == result
    # stats do not take part in ==, so check them by hand (seconds is rounded)
    assert again.stats.positions == result.stats.positions
    assert again.stats.table_bytes == result.stats.table_bytes
    assert again.stats.seconds == pytest.approx(result.stats.seconds, abs=1e-6)


def test_round_trip_of_a_deal_given_as_cards(won14):
    result = solve(str(Deal.from_number(14)))
    assert result.deal is None and result.to_json()["deal"] is None
    back = Result.from_json(result.dumps())
    assert back == result
    assert back.position().won


def test_from_json_without_stats():
    data = solve(14).to_json()
    del data["stats"]
    assert Result.from_json(data).stats == Stats()


@pytest.mark.parametrize("field", ["variant", "deal", "cards", "verdict", "reason", "score", "moves"])
def test_from_json_names_a_missing_field(won14, field):
    data = won14.to_json()
    del data[field]
    with pytest.raises(ValueError, match=f"field '{field}' is missing"):
        Result.from_json(data)


@pytest.mark.parametrize(
    "field, value, words",
    [
        ("verdict", "maybe", ["verdict", "'maybe'", "won"]),
        ("reason", "bored", ["reason", "'bored'", "positions"]),
        ("cards", "JD 2D", ["'cards'"]),
        ("cards", ["ZZ"], ["'cards'", "ZZ"]),
        ("moves", {"action": "turn"}, ["'moves'"]),
        ("moves", [{"action": "turn", "cards": ["9C"]}, {"action": "fly"}], ["move 2", "fly"]),
        ("moves", [{"action": "move", "card": "9C", "from": "moon", "to": "cell"}], ["move 1", "moon"]),
    ],
)
def test_from_json_names_the_bad_field(won14, field, value, words):
    data = won14.to_json()
    data[field] = value
    with pytest.raises(ValueError) as info:
        Result.from_json(data)
    for word in words:
        assert word in str(info.value)


@pytest.mark.parametrize("text", ["{", "[]", "52", '"won"'])
def test_from_json_rejects_non_objects(text):
    with pytest.raises(ValueError, match=r"^result: "):
        Result.from_json(text)


@pytest.mark.parametrize(
    "field, value", [("score", None), ("score", "abc"), ("stats", 5), ("stats", {"positions": "x"})]
)
def test_from_json_names_a_badly_typed_number(won14, field, value):
    data = won14.to_json()
    data[field] = value
    with pytest.raises(ValueError, match=field):
        Result.from_json(data)


@pytest.mark.parametrize("field, value", [("deal", "abc"), ("deal", 0), ("variant", 5)])
def test_from_json_checks_deal_and_variant(won14, field, value):
    data = won14.to_json()
    data[field] = value
    with pytest.raises(ValueError, match=field):
        Result.from_json(data)


# ---------------------------------------------------------------------------
# The text form


def test_str_shows_numbered_moves_with_suit_symbols(won14):
    text = str(won14)
    lines = text.splitlines()
    assert lines[0].startswith("napoleons-tomb, deal 14: WON")
    assert "52/52" in lines[0]
    numbered = [ln for ln in lines if re.match(r"^\s*\d+\. ", ln)]
    assert len(numbered) == len(won14.moves)
    for i, (line, move) in enumerate(zip(numbered, won14.moves), 1):
        number, rest = line.strip().split(". ", 1)
        assert int(number) == i
        assert rest == str(move)
    assert numbered[0].strip() == "1. turn 9♣"
    assert numbered[4].strip() == "5. 8♥ waste → cell"
    assert any("→ corner" in ln for ln in numbered)
    assert any("→ tomb" in ln for ln in numbered)
    assert SUIT_SYMBOLS & set(text)
    # No letter suits in the moves ("9C"), only symbols.
    assert not any(re.search(r"\b[A2-9TJQK][CDHS]\b", ln) for ln in numbered)
    # A ten is written 10.
    assert any("10" in ln for ln in numbered)
    assert not any(re.search(r"\bT[♣♦♥♠]", ln) for ln in numbered)
    assert "positions" in lines[-1]


def test_str_of_lost_and_unknown(lost14, unknown1):
    _, lost = lost14
    text = str(lost)
    assert "LOST" in text.splitlines()[0] and f"{lost.score}/52" in text.splitlines()[0]
    assert "moves 1-40 were played before the search" in text
    text = str(unknown1)
    assert "UNKNOWN" in text.splitlines()[0] and "positions" in text.splitlines()[0]


# ---------------------------------------------------------------------------
# Positions along a result


@pytest.mark.parametrize("k", [0, 1, 2, 9, 26, 60, 126, 127])
def test_result_position_equals_position_after(won14, k):
    assert k <= len(won14.moves)
    expected = position_after(14, "napoleons-tomb", won14.moves[:k])
    got = won14.position(k)
    assert got == expected
    assert got.moves_played == k
    assert tuple(got.history) == won14.moves[:k]


def test_result_position_default_is_the_end(won14):
    assert won14.position() == won14.position(len(won14.moves))
    assert won14.position().won


@pytest.mark.parametrize("k", [-1, 128, 10**6])
def test_result_position_out_of_range(won14, k):
    with pytest.raises(ValueError, match="move count"):
        won14.position(k)


def test_start_position():
    pos = start_position(14)
    assert pos.stock == Deal.from_number(14).cards
    assert pos.waste == () and pos.score == 0
    assert pos.cells == (None,) * 4
    assert pos == position_after(14, "napoleons-tomb", [])
    assert start_position(14, "napoleons-tomb-3").variant == THREE


# ---------------------------------------------------------------------------
# Solving from a later position


@pytest.mark.parametrize("k", [1, 2, 10, 26, 60, 126, 127])
def test_solve_from_a_mid_game_position_keeps_the_moves_played(won14, k):
    pos = position_after(14, "napoleons-tomb", won14.moves[:k])
    result = solve(pos)
    assert result.verdict == "won"
    assert result.played == k
    assert result.moves[:k] == won14.moves[:k]
    assert result.deal == 14 and result.cards == won14.cards
    assert tomb.score(replay_from_start(result)) == 52
    assert result.position(k) == pos


def test_solve_from_a_mid_game_position_of_a_deal_given_as_text(won14):
    text = str(Deal.from_number(14))
    pos = position_after(text, "napoleons-tomb", won14.moves[:20])
    result = solve(pos)
    assert result.deal is None and result.cards == won14.cards
    assert result.played == 20 and result.verdict == "won"
    assert result.position().won


def test_solve_a_won_position(won14):
    pos = won14.position()
    result = solve(pos)
    assert result.verdict == "won" and result.score == 52
    assert result.moves == won14.moves


def test_solve_a_position_played_on_with_the_reference_engine(won14):
    pos = tomb.play(position_after(14, "napoleons-tomb", won14.moves[:10]), won14.moves[10])
    result = solve(pos)
    assert result.verdict == "won"
    assert result.moves[:11] == won14.moves[:11]
    assert result.position().won


# ---------------------------------------------------------------------------
# Lost positions


def test_lost_position_from_a_line(lost14):
    pos, result = lost14
    assert result.verdict == "lost" and not result.won
    assert result.reason is None
    assert result.played == 40
    assert result.moves[:40] == tuple(pos.history)
    end = replay_from_start(result)
    assert tomb.score(end) == result.score
    assert result.position().score == result.score
    verdict, best, line = tomb.search(pos, 2_000_000)
    assert verdict == "lost"
    assert best == result.score == 3
    assert tomb.score(tomb.replay(pos, line)) == best


def test_lost_after_turning_the_whole_stock():
    deal = Deal.from_number(14)
    pos = position_after(deal, "napoleons-tomb", [Move.turn([c]) for c in deal.cards])
    result = solve(pos)
    verdict, best, _ = tomb.search(pos)
    assert (result.verdict, result.score) == (verdict, best) == ("lost", 2)
    assert result.position().score == 2


def test_lost_finnish_position():
    deal = Deal.from_number(5)
    moves = [Move.move(c, "stock", "waste") for c in deal.cards[:51]]
    pos = position_after(deal, "napoleonin-hauta", moves)
    result = solve(pos)
    verdict, best, _ = tomb.search(pos)
    assert verdict == result.verdict == "lost"
    assert result.score == best
    assert result.position().score == result.score


def hand_built(variant) -> Position:
    """Three corners and the tomb full, the cells full of the D court cards and
    10, the stock 8D 9D 7D: the 7 starts the last corner, then the 9 buries the 8."""
    stock = tuple(Card.parse(t) for t in "8D 9D 7D".split())
    cells = tuple(Card.parse(t) for t in "KD QD JD TD".split())
    rest = [c for c in DECK if c not in stock and c not in cells]
    corners = tuple(tuple(c for c in rest if c.suit == s and c.rank >= 7) for s in "CSH") + ((),)
    pool = [c for c in rest if c.rank <= 6]
    pile = []
    for rank in [r for _ in range(4) for r in range(6, 0, -1)]:
        card = next(c for c in pool if c.rank == rank)
        pool.remove(card)
        pile.append(card)
    assert not pool
    pos = Position(variant=variant, stock=stock, cells=cells, corners=corners, tomb=tuple(pile))
    assert pos.score == 45
    return pos


@pytest.mark.parametrize(
    "variant, verdict, score",
    [
        (CLASSIC, "lost", 46),
        (THREE, "lost", 46),
        # The Finnish rules send KD back onto the waste, freeing a cell for the 8.
        (FINNISH, "won", 52),
    ],
)
def test_hand_built_position(variant, verdict, score):
    pos = hand_built(variant)
    result = solve(pos)
    assert (result.verdict, result.score) == (verdict, score)
    ref_verdict, best, _ = tomb.search(pos)
    assert (ref_verdict, best) == (verdict, score)
    assert result.played == 0 and result.deal is None
    assert tomb.score(tomb.replay(pos, result.moves)) == result.score
    assert Result.from_json(result.dumps()) == result


@pytest.mark.xfail(
    strict=True,
    reason="BUG: a Result from a hand-built Position keeps only stock+waste "
    "as 'cards' (not a deck), so Result.position() raises DealError",
)
def test_result_position_of_a_hand_built_position():
    pos = hand_built(CLASSIC)
    result = solve(pos)
    assert result.position().score == result.score


# ---------------------------------------------------------------------------
# Unknown


def test_unknown_with_a_tiny_positions_limit(unknown1):
    assert unknown1.verdict == "unknown" and unknown1.reason == "positions"
    assert unknown1.stats.positions == 100_000
    assert 0 <= unknown1.score < 52
    assert unknown1.position().score == unknown1.score


@pytest.mark.parametrize("positions", [1, 1000])
def test_unknown_never_lost_under_a_limit(positions):
    result = solve(1, "napoleons-tomb", Limit(positions=positions))
    assert result.verdict == "unknown" and result.reason == "positions"
    assert result.stats.positions <= positions


def test_unknown_by_memory():
    result = solve(1, "napoleons-tomb", Limit(memory=1))
    assert result.verdict == "unknown" and result.reason == "memory"


# ---------------------------------------------------------------------------
# Limit


def test_limit_defaults_and_none():
    limit = Limit()
    assert limit.positions > 0 and limit.seconds > 0 and limit.memory > 0
    assert Limit.none() == Limit(None, None, None)


@pytest.mark.parametrize("field", ["positions", "seconds", "memory"])
@pytest.mark.parametrize("value", [0, -1, -0.5, True, False, "5", [5]])
def test_limit_rejects_non_positive_and_non_numbers(field, value):
    with pytest.raises(ValueError, match=f"Limit.{field}"):
        Limit(**{field: value})


@pytest.mark.parametrize(
    "field, value", [("positions", float("nan")), ("positions", float("inf")), ("positions", 1.5), ("memory", 1.5)]
)
def test_limit_rejects_values_the_core_cannot_take(field, value):
    with pytest.raises(ValueError, match=f"Limit.{field}"):
        Limit(**{field: value})


@pytest.mark.parametrize("field", ["positions", "memory"])
def test_limit_rejects_counts_beyond_64_bits(field):
    assert getattr(Limit(**{field: 2**63 - 1}), field) == 2**63 - 1
    with pytest.raises(ValueError, match=f"Limit.{field}.* must be at most 9,223,372,036,854,775,807"):
        Limit(**{field: 2**63})
    out = subprocess.run(
        [sys.executable, "-m", "solver", "solve", "1", f"--max-{field}", "9" * 23], capture_output=True, text=True
    )
    assert out.returncode == 2 and out.stderr.startswith(f"error: Limit.{field}"), out.stderr
    assert "Traceback" not in out.stderr


def test_limit_rejects_nan_seconds():
    with pytest.raises(ValueError, match=r"Limit.seconds"):
        Limit(seconds=float("nan"))


# ---------------------------------------------------------------------------
# Deal forms


def test_deal_as_number_text_deal_object_and_cards_agree(won14):
    deal = Deal.from_number(14)
    by_object = solve(deal)
    by_digits = solve("14")
    by_text = solve(str(deal))
    by_list = solve(list(deal.cards))
    by_lower = solve(str(deal).lower())
    for other in (by_object, by_digits, by_text, by_list, by_lower):
        assert other.verdict == won14.verdict
        assert other.moves == won14.moves
        assert other.cards == won14.cards
        assert other.score == won14.score
    assert by_object.deal == 14 and by_digits.deal == 14
    assert by_object == won14 and by_digits == won14
    assert by_text.deal is None and by_list.deal is None


@pytest.mark.parametrize("deal", [0, -1, 10**20 + 1, True, None, "0", "JD 2D", "", 1.5])
def test_bad_deals_raise_deal_error(deal):
    with pytest.raises(DealError):
        solve(deal)


# ---------------------------------------------------------------------------
# position_after


def test_position_after_with_json_moves(won14):
    data = [m.to_json() for m in won14.moves[:30]]
    assert position_after(14, "napoleons-tomb", data) == won14.position(30)


@pytest.mark.parametrize("bad_at", [1, 6, 40])
def test_position_after_names_the_first_bad_move(won14, bad_at):
    moves = list(won14.moves[: bad_at - 1]) + [Move.redeal()] + list(won14.moves[bad_at - 1 :])
    with pytest.raises(IllegalMoveError, match=rf"^move {bad_at} \(redeal"):
        position_after(14, "napoleons-tomb", moves)


def test_position_after_wrong_turn(won14):
    moves = list(won14.moves[:2]) + [won14.moves[0]] + [Move.redeal()]
    with pytest.raises(IllegalMoveError, match=r"^move 3 \(turn 9♣\): the next stock card is J♥"):
        position_after(14, "napoleons-tomb", moves)


def test_position_after_illegal_json_move(won14):
    data = [m.to_json() for m in won14.moves[:3]]
    data.append({"action": "move", "card": "KS", "from": "waste", "to": "tomb"})
    with pytest.raises(IllegalMoveError, match=r"^move 4 "):
        position_after(14, "napoleons-tomb", data)


def test_position_after_malformed_json_move(won14):
    data = [m.to_json() for m in won14.moves[:3]] + [{"action": "fly"}]
    with pytest.raises(MoveError, match=r"^move 4: unknown action 'fly'"):
        position_after(14, "napoleons-tomb", data)


def test_position_after_three_card_move_from_stock():
    first = Deal.from_number(5)[0]
    with pytest.raises(IllegalMoveError, match=r"^move 1 .*3 cards at a time"):
        position_after(5, "napoleons-tomb-3", [Move.move(first, "stock", "cell")])


def test_position_after_unknown_variant():
    with pytest.raises(VariantError, match="unknown variant"):
        position_after(14, "nope", [])


# ---------------------------------------------------------------------------
# A position of one variant solved as another


@pytest.mark.parametrize("other", ["napoleons-tomb-3", "napoleonin-hauta", "nope"])
def test_solve_position_with_another_variant_is_rejected(other):
    pos = start_position(14, "napoleons-tomb")
    with pytest.raises(ValueError, match="napoleons-tomb"):
        solve(pos, other)


def test_solve_position_with_its_own_variant():
    pos = start_position(5, "napoleons-tomb-3")
    assert solve(pos, "napoleons-tomb-3").variant == "napoleons-tomb-3"
    assert solve(pos).variant == "napoleons-tomb-3"


@pytest.mark.parametrize("other", ["napoleons-tomb", CLASSIC])
def test_solve_three_card_position_as_classic_is_rejected(other):
    pos = start_position(5, "napoleons-tomb-3")
    with pytest.raises(ValueError):
        solve(pos, other)


def test_limit_and_result_errors_are_the_librarys():
    with pytest.raises(solver.LimitError) as info:
        Limit(seconds=0)
    assert isinstance(info.value, solver.SolverError) and isinstance(info.value, ValueError)
    with pytest.raises(solver.ResultError, match="result: not JSON"):
        Result.from_json("{")
    with pytest.raises(solver.ResultError, match="move count"):
        solve(1).position(10**6)


def test_a_copy_of_a_variant_file_is_the_same_variant(tmp_path):
    shipped = variants.load("napoleons-tomb")
    copy = tmp_path / "mine.toml"
    copy.write_text(shipped.path.read_text(encoding="utf-8"), encoding="utf-8")
    mine = variants.load_file(copy)
    assert mine.path != shipped.path
    assert mine == shipped and hash(mine) == hash(shipped)
    assert solve(1, mine).verdict == solve(1, shipped).verdict


def test_the_old_home_of_the_tomb_position_still_answers_with_a_warning():
    import solver
    import solver.game

    with pytest.warns(DeprecationWarning, match="import TombPosition from solver"):
        old = solver.game.TombPosition
    assert old is solver.TombPosition
    with pytest.raises(AttributeError, match="no attribute 'Nothing'"):
        solver.game.Nothing  # noqa: B018
