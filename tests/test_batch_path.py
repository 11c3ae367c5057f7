"""Tests of the batch path: one handle solving deal after deal
(solver_reset, Search.reset), the lines the core
packs and writes as text (solver_line_pack, solver_line_text), and the JSON
text of results (Result.dumps, Result.text_with, Move.text).

What is checked, and against what: a handle reset to a deal finds what a new
handle finds (verdict, score, line, positions, bytes), whatever it solved
before, on every variant; the texts the core writes are those the Python
moves and results write of themselves (json.dumps of their to_json); and a
batch's rows hold what solve() answers.
"""

from __future__ import annotations

import json
import random

import pytest

from solver import core
from solver.api import Limit, Result, Stats, result_of, solve, start_position, text_of
from solver.batch import _solve_chunk
from solver.cards import Card
from solver.core import CoreError, Search, flags_for
from solver.deals import card_indexes
from solver.families.tomb import core as tomb_core
from solver.notation import Move
from solver.variants import load, names

TOMB = ("napoleons-tomb", "napoleons-tomb-3", "napoleonin-hauta")
#: Enough for the Tomb's deals below to be decided, and for the two-deck
#: games' to stop (unknown) with a line of their best score.
LIMITS = {"napoleons-tomb": 3_000_000, "napoleons-tomb-3": 3_000_000, "napoleonin-hauta": 3_000_000}
TWO_DECK_POSITIONS = 30_000


def _limit(variant: str) -> int:
    return LIMITS.get(variant, TWO_DECK_POSITIONS)


def _found(search: Search) -> tuple[object, ...]:
    """What a run of the search finds, with its account of memory."""
    out = search.outcome(search.run())
    return (
        out.verdict,
        out.reason,
        out.score,
        out.moves,
        out.positions,
        out.table_bytes,
        out.peak_bytes,
        out.held_bytes,
        out.held,
    )


def _new(variant: str, deal: int) -> Search:
    pos = start_position(deal, variant)
    search = Search(pos, flags_for(True, pos.variant.family))
    search.set_limits(_limit(variant), None, None)
    return search


@pytest.mark.parametrize("variant", names())
def test_a_reset_search_finds_what_a_new_one_finds(variant):
    # Deals in an order where a small search follows a large one and the
    # other way round; the first deal's handle solves them all.
    deals = (3, 1, 8, 2, 5, 13, 4) if variant in TOMB else (2, 1, 3)
    kept = _new(variant, deals[0])
    kept_found = [_found(kept)]
    for deal in deals[1:]:
        kept.reset(start_position(deal, variant))
        kept_found.append(_found(kept))
    assert kept_found == [_found(_new(variant, d)) for d in deals]


def test_a_reset_clears_a_table_that_grew_and_a_stopped_search():
    # Without shortcuts, the search of deal 1 of the classic is one plain
    # search: stopped after 100,000 positions, its table has grown past its
    # first size (49,152 keys). Reset to deal 3 and to deal 1 again, the
    # handle finds what new ones find.
    v = "napoleons-tomb"

    def new(deal: int) -> Search:
        search = Search(start_position(deal, v), 0)
        search.set_limits(100_000, None, None)
        return search

    kept = new(1)
    grown = kept.outcome(kept.run())
    assert grown.reason == "positions" and grown.table_bytes > 2 * 2**20
    for deal in (3, 1):
        kept.reset(start_position(deal, v))
        assert _found(kept) == _found(new(deal))


def test_a_reset_keeps_the_limits():
    v = "napoleons-tomb"
    kept = _new(v, 1)
    kept.set_limits(1_000, None, None)
    kept.reset(start_position(6, v))
    out = kept.outcome(kept.run())
    assert out.reason == "positions" and out.positions == 1_000


def test_a_reset_forgets_a_stop_asked_of_the_last_search():
    v = "napoleons-tomb"
    kept = _new(v, 1)
    kept.run()
    kept.stop()
    kept.reset(start_position(3, v))
    assert kept.outcome(kept.run()).verdict == "won"


def test_a_reset_refuses_an_impossible_position_and_keeps_the_search():
    v = load("napoleons-tomb")
    kept = _new(v.name, 1)
    bad = start_position(1, v)
    twice = bad.stock[:51] + (bad.stock[0],)
    with pytest.raises(CoreError, match="twice"):
        kept.reset(type(bad)(variant=v, stock=twice, cells=bad.cells))
    kept.reset(start_position(3, v))
    assert _found(kept) == _found(_new(v.name, 3))


@pytest.mark.parametrize("variant", TOMB)
def test_a_deals_start_makes_the_struct_the_checks_make(variant):
    """tomb_core._start_position, the struct of a start made without checking
    each place, is byte for byte the one tomb_core._checked_position makes."""
    size = core.ffi.sizeof("tomb_position")
    for deal in range(1, 40):
        pos = start_position(deal, variant)
        fast = tomb_core._start_position(pos)
        assert fast is not None
        assert bytes(core.ffi.buffer(fast, size)) == bytes(core.ffi.buffer(tomb_core._checked_position(pos), size))


@pytest.mark.parametrize("variant", TOMB)
def test_a_deals_cards_make_the_struct_of_its_start(variant):
    """tomb_core.deal_position, the struct made of a deal's cards' indexes
    (a batch's), is byte for byte that of the deal's start position."""
    size = core.ffi.sizeof("tomb_position")
    for deal in list(range(1, 40)) + [31999, 32000, 10**20]:
        made = tomb_core.deal_position(card_indexes(deal))
        assert bytes(core.ffi.buffer(made, size)) == bytes(
            core.ffi.buffer(tomb_core._checked_position(start_position(deal, variant)), size)
        )


def test_a_reset_to_a_deals_cards_finds_what_a_new_search_finds():
    v = "napoleons-tomb"
    kept = _new(v, 3)
    found = []
    for deal in (1, 8, 2, 5):
        kept.reset_deal(card_indexes(deal))
        found.append(_found(kept))
    assert found == [_found(_new(v, d)) for d in (1, 8, 2, 5)]
    twice = card_indexes(1)[:51] + card_indexes(1)[:1]
    with pytest.raises(CoreError, match="twice"):
        kept.reset_deal(twice)  # the core checks the cards: the search is as it was
    kept.reset_deal(card_indexes(3))
    assert _found(kept) == _found(_new(v, 3))
    with pytest.raises(CoreError, match="cannot take a one-deck deal"):
        _new("paciencia-napoleao", 1).reset_deal(card_indexes(1))


def test_limits_set_again_alike_stay_and_others_take():
    v = "napoleons-tomb"
    kept = _new(v, 1)
    kept.set_limits(1_000, None, None)
    kept.set_limits(1_000, None, None)
    assert kept.outcome(kept.run()).positions == 1_000
    kept.reset(start_position(1, v))
    kept.set_limits(2_000, None, None)
    assert kept.outcome(kept.run()).positions == 2_000
    kept.reset(start_position(3, v))
    kept.set_limits(None, None, None)
    assert kept.outcome(kept.run()).verdict == "won"


def test_a_start_with_a_card_twice_or_elsewhere_is_checked_place_by_place():
    pos = start_position(1, "napoleons-tomb")
    twice = type(pos)(variant=pos.variant, stock=pos.stock[:51] + (pos.stock[0],), cells=pos.cells)
    moved = type(pos)(variant=pos.variant, stock=pos.stock[:51], waste=pos.stock[51:], cells=pos.cells)
    assert tomb_core._start_position(twice) is None and tomb_core._start_position(moved) is None
    with pytest.raises(CoreError, match="twice"):
        tomb_core.position(twice)
    size = core.ffi.sizeof("tomb_position")
    assert bytes(core.ffi.buffer(tomb_core.position(moved), size)) == bytes(
        core.ffi.buffer(tomb_core._checked_position(moved), size)
    )


def test_a_reset_refuses_a_position_of_another_family():
    kept = _new("napoleons-tomb", 1)
    with pytest.raises(CoreError, match="cannot take"):
        kept.reset(start_position(1, "paciencia-napoleao"))
    # And the C core refuses a handle of another family too.
    err = core.ffi.new("char[]", 256)
    other = _new("paciencia-napoleao", 1)
    tomb = tomb_core.position(start_position(1, "napoleons-tomb"))
    assert core.lib.solver_reset(other._handle, core.lib.solver_family(b"tomb"), tomb, err, 256) == -1
    assert core.ffi.string(err) == b"a search of family 1 cannot take a position of family 0"


def _lines(variant: str):
    """The lines of a few deals: a win's and a best score's."""
    for deal in (1, 2, 3):
        search = _new(variant, deal)
        out = search.outcome(search.run())
        yield search, (0 if out.verdict == "won" else 1), out.moves


@pytest.mark.parametrize("variant", names())
def test_the_cores_line_text_is_the_moves_text(variant):
    for search, which, moves in _lines(variant):
        assert moves
        assert search.line_text(which) == ", ".join(json.dumps(m.to_json(), ensure_ascii=False) for m in moves)
        assert core.unpack_line(search.packed_line(which)) == moves


def test_no_line_has_no_text():
    search = _new("napoleons-tomb", 1)
    assert search.outcome(search.run()).verdict == "lost"
    assert search.line_text(0) == "" and search.packed_line(0) == b""


C = Card.parse
MOVES = [
    Move.turn([C("5C"), C("QD"), C("TH")]),
    Move.turn([C("AS")]),
    Move.redeal(),
    Move.deal([C("KH"), C("2S")]),
    Move.jewel(C("JD"), "lid:3"),
    Move.move(C("6H"), "waste", "reserve"),
    Move.move(C("7C"), "cell", "corner"),
    Move.move(C("9S"), "pile:12", "kbase:S"),
    Move.move(C("3D"), "reserve:2", "foundation:D"),
    Move.move(C("TC"), "side:4", "bottom:1"),
]


@pytest.mark.parametrize("move", MOVES, ids=str)
def test_a_moves_text_is_its_json(move):
    assert move.text() == json.dumps(move.to_json(), ensure_ascii=False)
    assert move.text() == move.text()  # made once, the same
    assert Move.from_json(json.loads(move.text())) == move


def test_a_results_text_is_the_json_of_its_object():
    won = solve(3, "napoleons-tomb")
    lost = solve(1, "napoleons-tomb")
    unknown = solve(1, "paciencia-napoleao", Limit(positions=5_000))
    later = solve(won.position(10))  # from a position: deal None, moves played first
    odd = Result(
        variant='a "quoted" variant ♥',
        deal=None,
        cards=(),
        verdict="unknown",
        reason="seconds",
        score=0,
        moves=(),
        fingerprint=None,
    )
    for result in (won, lost, unknown, later, odd):
        assert result.dumps() == json.dumps(result.to_json(), ensure_ascii=False)
        assert Result.loads(result.dumps()) == result


@pytest.mark.parametrize(
    "stats",
    [
        Stats(),
        Stats(12, 0.1234567, 2 << 20, 3 << 20, 2 << 20, (("table", 2 << 20), ("stack", 4096)), 0),
        Stats(1, 3, held=(('a "quoted" part ♥', 1), ("table", 2), ("table", 3))),  # an int's seconds, a name twice
        Stats(True, float("nan"), held=(("table", False),)),  # what json writes its own way
        Stats(1, float("inf")),
    ],
)
def test_a_stats_text_is_the_json_of_its_object(stats):
    assert stats.text() == json.dumps(stats.to_json(), ensure_ascii=False)


def _stats_struct(stats: Stats) -> object:
    st = core.ffi.new("solver_stats *")
    st.positions, st.seconds, st.table_bytes = stats.positions, stats.seconds, stats.table_bytes
    st.peak_bytes, st.held_bytes, st.refused_bytes = stats.peak_bytes, stats.held_bytes, stats.refused_bytes
    held = dict(stats.held)
    st.part_bytes[0 : len(core.MEMORY_PARTS)] = [held.get(name, 0) for name in core.MEMORY_PARTS]
    return st


def _core_stats_text(st: object) -> str | None:
    out = core.ffi.new("char[]", 512)
    n = core.lib.solver_stats_text(st, out, 512)
    return None if n < 0 else core.ffi.string(out).decode()


#: Seconds where the forms Python writes change: 0.0, the exponent below
#: 10^-4 with one digit or two, a value rounded up to 1.0, a tie (0.0078125
#: rounds to even), the largest the core writes, and runs of seconds.
EDGE_SECONDS = [
    0.0,
    4e-7,
    5e-7,
    1e-6,
    1.5e-6,
    2.5e-6,
    5e-5,
    5.1e-5,
    9.99995e-5,
    1e-4,
    1.5e-4,
    0.000451,
    0.0078125,
    0.9999995,
    1.0,
    3.0,
    123.456789,
    999_999_999.999_999,
]


def test_the_cores_stats_text_is_the_stats_text():
    rng = random.Random(24)
    seconds = EDGE_SECONDS + [rng.random() * 10.0 ** rng.randint(-7, 8) for _ in range(3000)]
    for i, x in enumerate(seconds):
        # parts empty, equal (ties keep SOLVER_MEM_* order, as Python's stable sort) and large
        sizes = [rng.choice([0, 1, 4096, 4096, 2**40]) for _ in core.MEMORY_PARTS]
        held = tuple(sorted(((n, b) for n, b in zip(core.MEMORY_PARTS, sizes) if b), key=lambda p: -p[1]))
        stats = Stats(rng.randrange(2**64), x, rng.randrange(2**40), i, 2 * i, held, rng.choice([0, 12345]))
        st = _stats_struct(stats)
        assert core.memory_parts(st) == held
        assert _core_stats_text(st) == stats.text(), x


@pytest.mark.parametrize("seconds", [float("nan"), float("inf"), -1.0, 1e9])
def test_the_core_writes_no_stats_text_where_python_writes_seconds_otherwise(seconds):
    assert _core_stats_text(_stats_struct(Stats(1, seconds))) is None


def test_the_memory_parts_are_named_by_the_core():
    assert core.MEMORY_PARTS == ("table", "summaries", "caches", "stack", "sets", "lines")
    assert core.lib.solver_memory_part(len(core.MEMORY_PARTS)) == core.ffi.NULL
    assert core.lib.solver_memory_part(-1) == core.ffi.NULL


def _without_seconds(text: str) -> dict[str, object]:
    data = json.loads(text)
    assert data["stats"].pop("seconds") >= 0
    return data


@pytest.mark.parametrize("variant", names())
def test_a_batchs_rows_hold_what_solve_answers(variant):
    limit = Limit(positions=_limit(variant))
    rows, _ = _solve_chunk(variant, [1, 2, 3, 4], limit)
    assert [row[1] for row in rows] == [1, 2, 3, 4]
    for row in rows:
        result = solve(row[1], variant, limit)
        assert _without_seconds(row[8]) == _without_seconds(result.dumps())
        assert json.loads(row[8])["stats"]["seconds"] == round(row[6], 6)
        assert row[2:6] == (result.verdict, result.reason, result.score, result.stats.positions)
        assert row[7] == result.stats.table_bytes


def test_a_batch_writes_the_stats_itself_where_the_core_does_not(monkeypatch):
    variant, limit = "napoleons-tomb-3", Limit(positions=_limit("napoleons-tomb-3"))
    texts = Search.texts
    monkeypatch.setattr(Search, "texts", lambda self, status: texts(self, status)._replace(stats=None))
    rows, _ = _solve_chunk(variant, [1, 2], limit)
    assert [_without_seconds(row[8]) for row in rows] == [
        _without_seconds(solve(n, variant, limit).dumps()) for n in (1, 2)
    ]


@pytest.mark.parametrize("variant", TOMB)
def test_the_text_of_a_search_from_a_position_is_its_results(variant):
    # From a position with moves played (deal None for the classic's
    # position(), its history first in the moves).
    played = solve(3, variant, Limit(positions=_limit(variant))).position(5)
    search = Search(played, flags_for(True, played.variant.family))
    out = search.texts(search.run())
    full = Search(played, flags_for(True, played.variant.family))
    expected = result_of(played, full.outcome(full.run())).dumps()
    assert _without_seconds(text_of(played, out)) == _without_seconds(expected)


def test_solve_keeps_a_search_a_thread_and_not_a_large_one(monkeypatch):
    import threading

    v = "napoleons-tomb-3"
    first = solve(7, v)
    search = core._kept.search
    assert search is not None and search.kept_as[1] == v
    assert solve(7, v) == first and core._kept.search is search  # reset, and kept again
    seen: list[object] = []
    other = threading.Thread(target=lambda: seen.append(core.search_for(start_position(7, v), search.kept_as[3])))
    other.start()
    other.join()
    assert seen[0] is not search  # another thread makes its own
    solve(7, "napoleons-tomb")
    assert core._kept.search is not search  # one search a thread: the last
    monkeypatch.setattr(core, "KEEP_BYTES", 0)
    assert solve(7, v) == first
    assert core._kept.search is None


@pytest.mark.parametrize("memory", [256 * 2**10, 2 * 2**20, 3 * 2**20])
def test_a_reset_search_is_under_its_memory_limit_as_a_new_one(memory):
    # The kept table (2 MiB for the 3-card deal) counts again only under the
    # new search's limit: a limit it does not fit stops the search as it
    # stops a new one.
    v = "napoleons-tomb-3"
    kept = _new(v, 1)
    kept.run()
    for deal in (16, 1):
        kept.reset(start_position(deal, v))
        kept.set_limits(None, None, memory)
        fresh = _new(v, deal)
        fresh.set_limits(None, None, memory)
        a, b = kept.outcome(kept.run()), fresh.outcome(fresh.run())
        assert (a.verdict, a.reason, a.positions, a.held, a.peak_bytes, a.refused_bytes) == (
            b.verdict,
            b.reason,
            b.positions,
            b.held,
            b.peak_bytes,
            b.refused_bytes,
        )
