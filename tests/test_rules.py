"""Tests of the pure-Python reference rules engine, solver.rules.tomb."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from solver import Position
from solver.cards import DECK, Card
from solver.notation import PLACES, IllegalMoveError, Move
from solver.rules import tomb
from solver.rules.tomb import is_won, legal_moves, play, replay, score, search
from solver.variants import all_variants, load

CLASSIC = load("napoleons-tomb")
THREE = load("napoleons-tomb-3")
FINNISH = load("napoleonin-hauta")


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def C(text: str) -> Card:
    return Card.parse(text)


def deal(first: str, variant) -> Position:
    """A start position whose stock begins with ``first``, the other cards after."""
    head = cards(first)
    return Position.start(head + [c for c in DECK if c not in head], variant)


def table(
    variant,
    corners=(13, 13, 13, 13),
    tomb_count=24,
    stock="",
    waste="",
    cells=(),
    reserve="",
    redeals=0,
) -> Position:
    """A position with the given piles; the foundations (corners up to the given
    top ranks, 0 = empty; ``tomb_count`` cards on the tomb) are filled with the
    cards not named anywhere else, which must be exactly the right ranks."""
    named = cards(stock) + cards(waste) + [Card.parse(c) for c in cells] + cards(reserve)
    free = [c for c in DECK if c not in named]

    def take(rank):
        for c in free:
            if c.rank == rank:
                free.remove(c)
                return c
        raise AssertionError(f"no free card of rank {rank}")

    built = []
    for top in corners:
        built.append(tuple(take(r) for r in range(7, top + 1)) if top else ())
    tomb_cards = tuple(take(6 - n % 6) for n in range(tomb_count))
    assert not free, f"cards left over: {free}"
    cell_cards = tuple(Card.parse(c) for c in cells)
    cell_cards += (None,) * (variant.cells - len(cell_cards))
    return Position(
        variant=variant,
        stock=tuple(cards(stock)),
        waste=tuple(cards(waste)),
        cells=cell_cards,
        reserve=tuple(cards(reserve)),
        corners=tuple(built),
        tomb=tomb_cards,
        redeals=redeals,
    )


def mv(card: str, src: str, dst: str) -> Move:
    return Move.move(C(card), src, dst)


def turn(text: str) -> Move:
    return Move.turn(cards(text))


def rejects(pos: Position, move: Move, *words: str) -> str:
    with pytest.raises(IllegalMoveError) as info:
        play(pos, move)
    text = str(info.value)
    assert text.startswith(str(move) + ": "), text
    for w in words:
        assert w in text, text
    return text


# ---------------------------------------------------------------- the Finnish sheet

FINNISH_FIRST = "9C 8H 7S 5D 6C 6H 4S 3H 2C AD"

SHEET = [
    mv("9C", "stock", "waste"),
    mv("8H", "stock", "cell"),
    mv("7S", "stock", "corner"),
    mv("8H", "cell", "corner"),
    mv("9C", "waste", "corner"),
    mv("5D", "stock", "cell"),
    mv("6C", "stock", "tomb"),
    mv("5D", "cell", "tomb"),
    mv("6H", "stock", "reserve"),
    mv("4S", "stock", "tomb"),
    mv("3H", "stock", "tomb"),
    mv("2C", "stock", "tomb"),
    mv("AD", "stock", "tomb"),
    mv("6H", "reserve", "tomb"),
]


def check_sheet_end(pos: Position) -> None:
    assert all(c is None for c in pos.cells)
    assert pos.reserve == ()
    assert pos.waste == ()
    assert len(pos.stock) == 42
    assert [c[-1].rank for c in pos.corners if c] == [9]
    assert len(pos.tomb) == 7
    assert tomb.tomb_wants(pos) == 5
    assert score(pos) == 10


def test_finnish_worked_example():
    start = deal(FINNISH_FIRST, FINNISH)
    end = replay(start, SHEET)
    check_sheet_end(end)
    assert end.moves_played == len(SHEET)
    # The start position is untouched.
    assert len(start.stock) == 52 and start.moves_played == 0


def test_finnish_worked_example_with_turns():
    """The same game written with turns and waste moves only."""
    start = deal(FINNISH_FIRST, FINNISH)
    line = []
    for m in SHEET:
        if m.src == "stock":
            line.append(Move.turn([m.card]))
            if m.dst != "waste":
                line.append(mv(str(m.card), "waste", m.dst))
        else:
            line.append(m)
    check_sheet_end(replay(start, line))


def test_finnish_worked_example_as_json():
    start = deal(FINNISH_FIRST, FINNISH)
    check_sheet_end(replay(start, [m.to_json() for m in SHEET]))


# ---------------------------------------------------------------- illegal moves


def test_cell_full():
    for v in (CLASSIC, FINNISH, THREE):
        pos = table(v, corners=(13, 13, 13, 8), cells=("KD", "QD", "JD", "TD"), waste="9D")
        rejects(pos, mv("9D", "waste", "cell"), "no empty cell")
    pos = table(FINNISH, corners=(13, 13, 13, 8), cells=("KD", "QD", "JD", "TD"), waste="9D")
    rejects(pos, mv("KD", "cell", "cell"), "no empty cell")
    assert not any(m.dst == "cell" for m in legal_moves(pos))


def test_wrong_rank_to_corner():
    pos = play(deal("8H 7S 5D", CLASSIC), turn("8H"))
    rejects(pos, mv("8H", "waste", "corner"), "no corner shows a 7")
    pos = replay(pos, [mv("8H", "waste", "cell"), turn("7S"), mv("7S", "waste", "corner"), turn("5D")])
    rejects(pos, mv("5D", "waste", "corner"), "corners build 7 up to K")
    assert play(pos, mv("8H", "cell", "corner")).corners[0] == (C("7S"), C("8H"))
    # a King when no corner shows a Queen
    pos = table(CLASSIC, corners=(13, 13, 13, 10), waste="JD QD KD")
    rejects(pos, mv("KD", "waste", "corner"), "no corner shows a Q")
    # an empty corner takes a 7
    pos = table(CLASSIC, corners=(13, 13, 13, 0), waste="8D 9D TD JD QD KD 7D")
    assert play(pos, mv("7D", "waste", "corner")).corners[3] == (C("7D"),)


def test_wrong_rank_to_tomb():
    pos = play(deal("5D 6C", CLASSIC), turn("5D"))
    rejects(pos, mv("5D", "waste", "tomb"), "empty tomb takes only a 6")
    pos = replay(pos, [mv("5D", "waste", "cell"), turn("6C"), mv("6C", "waste", "tomb")])
    assert tomb.tomb_wants(pos) == 5
    pos = play(pos, mv("5D", "cell", "tomb"))
    pos = play(pos, turn("AC"))  # the other cards follow in deck order
    rejects(pos, mv("AC", "waste", "tomb"), "the tomb shows 5♦ and wants a 4")
    # a full tomb wants nothing more
    full = table(CLASSIC, corners=(13, 13, 13, 12), waste="KD")
    assert tomb.tomb_wants(full) is None


def test_won_position_has_no_moves():
    pos = table(CLASSIC)
    assert is_won(pos) and score(pos) == 52 and legal_moves(pos) == []
    assert search(pos) == ("won", 52, [])


def test_reserve_in_a_variant_without_one():
    for v in (CLASSIC, THREE):
        pos = table(v, tomb_count=18, waste="AD 2D 3D 4D 5D 6D")
        rejects(pos, mv("6D", "waste", "reserve"), "no sixes reserve")
        assert mv("6D", "waste", "reserve") not in legal_moves(pos)
        rejects(pos, mv("6D", "reserve", "tomb"), "no sixes reserve")
        assert play(pos, mv("6D", "waste", "tomb")).tomb[-1] == C("6D")


def test_reserve_rules():
    # The tomb holds 11 cards and wants an A: reserve 6s must wait.
    pos = table(
        FINNISH,
        tomb_count=11,
        stock="AS",
        waste="AH 2H 3H 4H 5H 2D 3D 4D AD 6D",
        cells=("5D",),
        reserve="6H",
    )
    assert tomb.tomb_wants(pos) == 1
    rejects(pos, mv("6H", "reserve", "tomb"), "wants an A")
    rejects(pos, mv("6H", "reserve", "cell"), "only for the tomb")
    rejects(pos, mv("6S", "reserve", "tomb"), "does not hold 6♠")
    rejects(pos, mv("5D", "cell", "reserve"), "takes only 6s")
    assert mv("6H", "reserve", "tomb") not in legal_moves(pos)
    pos = play(pos, mv("6D", "waste", "reserve"))
    assert pos.reserve == (C("6H"), C("6D"))
    pos = play(pos, mv("AD", "waste", "tomb"))
    assert tomb.tomb_wants(pos) == 6
    assert [m for m in legal_moves(pos) if m.src == "reserve"] == [
        mv("6H", "reserve", "tomb"),
        mv("6D", "reserve", "tomb"),
    ]
    pos = replay(pos, [mv("6H", "reserve", "tomb"), mv("5D", "cell", "tomb"), mv("4D", "waste", "tomb")])
    assert pos.reserve == (C("6D"),) and tomb.tomb_wants(pos) == 3
    # a 6 from a cell may go to the reserve
    pos = play(deal("6C", FINNISH), mv("6C", "stock", "cell"))
    pos = play(pos, mv("6C", "cell", "reserve"))
    assert pos.reserve == (C("6C"),) and all(c is None for c in pos.cells)


def test_cell_to_waste_in_the_classic():
    for v in (CLASSIC, THREE):
        pos = deal("KD QD JD", v)
        pos = play(pos, Move.turn(pos.stock[: v.turn]))
        top = pos.waste[-1]
        pos = play(pos, Move.move(top, "waste", "cell"))
        rejects(pos, Move.move(top, "cell", "waste"), "a cell card may go only to: corner, tomb")
        rejects(pos, Move.move(top, "cell", "cell"), "a cell card may go only to: corner, tomb")
    # ... but allowed in the Finnish variant
    pos = replay(deal("KD QD", FINNISH), [mv("KD", "stock", "cell"), mv("QD", "stock", "waste")])
    pos = play(pos, mv("KD", "cell", "waste"))
    assert pos.waste == (C("QD"), C("KD")) and all(c is None for c in pos.cells)
    # ... as are cell to cell moves (listed, though they change nothing that matters)
    pos = play(pos, mv("KD", "waste", "cell"))
    assert mv("KD", "cell", "cell") in legal_moves(pos)


def test_turn_naming_wrong_cards():
    pos = deal("9C 8H 7S 5D", CLASSIC)
    rejects(pos, turn("4S"), "the next stock card is 9♣")
    with pytest.raises(IllegalMoveError) as info:
        play(pos, turn("4S"))
    assert str(info.value) == "turn 4♠: the next stock card is 9♣"
    rejects(pos, turn("9C 8H"), "the next stock card is 9♣")
    pos3 = deal("9C 8H 7S 5D", THREE)
    rejects(pos3, turn("9C"), "the next 3 stock cards are 9♣ 8♥ 7♠")
    rejects(pos3, turn("9C 7S 8H"), "the next 3 stock cards are")
    rejects(pos3, turn("8H 7S 5D"), "the next 3 stock cards are")
    assert play(pos3, turn("9C 8H 7S")).waste == tuple(cards("9C 8H 7S"))
    empty = table(CLASSIC, corners=(13, 13, 13, 12), waste="KD")
    rejects(empty, turn("KD"), "the stock is empty")


def test_moves_naming_cards_not_there():
    pos = play(deal("9C 8H", CLASSIC), turn("9C"))
    rejects(pos, mv("8H", "waste", "cell"), "the top of the waste is 9♣")
    rejects(pos, mv("8H", "cell", "corner"), "no cell holds 8♥")
    rejects(pos, mv("9C", "stock", "cell"), "the next stock card is 8♥")
    rejects(pos, mv("9C", "waste", "stock"), "back into the stock")
    rejects(pos, mv("9C", "waste", "waste"), "already on the waste")
    pos = replay(deal("7S 8H", CLASSIC), [turn("7S"), mv("7S", "waste", "corner")])
    rejects(pos, mv("7S", "corner", "cell"), "never move again")


def test_stock_moves_only_when_one_card_turns():
    pos = deal("6C 5D 4S", THREE)
    rejects(pos, mv("6C", "stock", "tomb"), "turns 3 cards at a time")
    # one card at a time (classic too): stock -> pile is a turn and a move
    for v in (CLASSIC, FINNISH):
        pos = deal("6C 5D", v)
        a = play(pos, mv("6C", "stock", "tomb"))
        b = replay(pos, [turn("6C"), mv("6C", "waste", "tomb")])
        assert a == b and a.moves_played == 1 and b.moves_played == 2
        assert play(pos, mv("6C", "stock", "waste")) == play(pos, turn("6C"))
        rejects(pos, mv("6C", "stock", "corner"), "corners build 7 up to K")
        if v.sixes_reserve:
            assert play(pos, mv("6C", "stock", "reserve")).reserve == (C("6C"),)
        else:
            rejects(pos, mv("6C", "stock", "reserve"), "no sixes reserve")
        rejects(pos, mv("5D", "stock", "tomb"), "the next stock card is 6♣")


def test_redeal_rules():
    # classic: never
    pos = table(CLASSIC, corners=(13, 13, 13, 12), waste="KD")
    rejects(pos, Move.redeal(), "no redeal")
    # 3-card: not while the stock holds cards
    pos = deal("9C 8H 7S", THREE)
    rejects(pos, Move.redeal(), "the stock still holds 52 cards")
    # nor after the last pass
    pos = table(THREE, corners=(13, 13, 13, 12), waste="KD", redeals=2)
    rejects(pos, Move.redeal(), "last pass")
    assert Move.redeal() not in legal_moves(pos)
    # nor with nothing to redeal
    pos = table(THREE, corners=(13, 13, 13, 12), cells=("KD",))
    rejects(pos, Move.redeal(), "nothing to redeal")
    pos = table(THREE, corners=(13, 13, 13, 12), waste="KD", redeals=1)
    assert Move.redeal() in legal_moves(pos)
    after = play(pos, Move.redeal())
    assert after.stock == (C("KD"),) and after.waste == () and after.redeals == 2


def test_replay_names_the_bad_move():
    start = deal(FINNISH_FIRST, FINNISH)
    line = SHEET[:5] + [mv("5D", "waste", "cell")]
    with pytest.raises(IllegalMoveError) as info:
        replay(start, line)
    assert str(info.value) == "move 6 (5♦ waste → cell): the waste is empty"
    with pytest.raises(IllegalMoveError, match=r"^move 1: unknown place 'pile'"):
        replay(start, [{"action": "move", "card": "9C", "from": "pile", "to": "waste"}])


def test_malformed_moves():
    pos = deal("9C", CLASSIC)
    with pytest.raises(IllegalMoveError, match="unknown action"):
        play(pos, Move("jump"))
    with pytest.raises(IllegalMoveError, match="unknown destination place"):
        play(pos, Move.move(C("9C"), "stock", "pile"))
    with pytest.raises(IllegalMoveError, match="not a card"):
        play(pos, Move("move", card=None, src="waste", dst="cell"))


# ---------------------------------------------------------------- 3-card turning and redeal


def test_three_card_turn_and_redeal_keep_order():
    order = cards("9C 8H 7S 5D 6C 6H 4S")
    pos = Position.start(order, THREE)
    pos = play(pos, turn("9C 8H 7S"))
    assert pos.waste[-1] == C("7S") and pos.stock == tuple(cards("5D 6C 6H 4S"))
    assert legal_moves(pos)[0] == mv("7S", "waste", "corner")
    pos = play(pos, mv("7S", "waste", "corner"))  # removed in the first pass
    pos = play(pos, turn("5D 6C 6H"))
    pos = play(pos, mv("6H", "waste", "tomb"))  # removed too
    pos = play(pos, turn("4S"))  # fewer than three remain
    assert pos.stock == () and pos.waste == tuple(cards("9C 8H 5D 6C 4S"))
    assert legal_moves(pos)[-1] == Move.redeal()
    pos = play(pos, Move.redeal())
    assert pos.stock == tuple(cards("9C 8H 5D 6C 4S")) and pos.waste == () and pos.redeals == 1
    # the removed cards are skipped: the groups of three shift
    rejects(pos, turn("9C 8H 7S"), "the next 3 stock cards are 9♣ 8♥ 5♦")
    pos = play(pos, turn("9C 8H 5D"))
    assert pos.waste[-1] == C("5D")
    pos = play(pos, mv("5D", "waste", "tomb"))
    pos = play(pos, turn("6C 4S"))
    assert pos.waste == tuple(cards("9C 8H 6C 4S"))


# ---------------------------------------------------------------- random playouts


def candidate_moves(pos: Position, rng: random.Random) -> list[Move]:
    """Many moves, legal or not: every place pair for each visible card and a
    couple of hidden ones, right and wrong turns, the redeal."""
    visible = set(c for c in pos.cells if c) | set(pos.reserve)
    if pos.waste:
        visible.add(pos.waste[-1])
        visible.add(pos.waste[0])
    if pos.stock:
        visible.add(pos.stock[0])
        visible.add(pos.stock[-1])
    visible |= set(rng.sample(DECK, 2))
    out = [Move.move(c, s, d) for c in sorted(visible) for s in PLACES for d in PLACES]
    out.append(Move.redeal())
    v = pos.variant
    if pos.stock:
        out.append(Move.turn(pos.stock[: v.turn]))
        out.append(Move.turn(pos.stock[: v.turn + 1]))
        out.append(Move.turn(pos.stock[1 : v.turn + 1]))
        out.append(Move.turn(reversed(pos.stock[: v.turn])))
    out.append(Move.turn([rng.choice(DECK)]))
    return out


def check_agreement(pos: Position, rng: random.Random) -> list[Move]:
    listed = legal_moves(pos)
    assert len(listed) == len(set(listed)), listed
    for m in listed:
        after = play(pos, m)  # must not raise
        assert after.moves_played == pos.moves_played + 1
        assert sorted(_all_cards(after)) == sorted(DECK)
    for m in candidate_moves(pos, rng):
        try:
            after = play(pos, m)
        except IllegalMoveError as exc:
            assert str(exc).startswith(str(m) + ": ")
            assert m not in listed, (m, str(exc))
            continue
        if m.action == "move" and m.src == "stock":
            # a one-card turn followed by a move from the waste
            assert pos.variant.turn == 1
            turned = play(pos, Move.turn(pos.stock[:1]))
            if m.dst == "waste":
                assert after == turned
            else:
                assert Move.move(m.card, "waste", m.dst) in legal_moves(turned)
                assert after == play(turned, Move.move(m.card, "waste", m.dst))
        else:
            assert m in listed, f"play accepted {m} but legal_moves does not list it:\n{pos}"
    return listed


def _all_cards(pos: Position) -> list[Card]:
    out = list(pos.stock) + list(pos.waste) + [c for c in pos.cells if c] + list(pos.reserve) + list(pos.tomb)
    for corner in pos.corners:
        out += corner
    return out


@pytest.mark.parametrize("variant", [v.name for v in all_variants() if v.family == "tomb"])
def test_random_playouts_agree(variant):
    v = load(variant)
    rng = random.Random(20240607)
    for _ in range(4):
        pos = Position.start(rng.sample(DECK, 52), v)
        for _step in range(400):
            listed = check_agreement(pos, rng)
            if not listed:
                break
            # prefer foundation moves sometimes, so playouts get deep
            home = [m for m in listed if m.action == "move" and m.dst in ("corner", "tomb")]
            pos = play(pos, rng.choice(home) if home and rng.random() < 0.7 else rng.choice(listed))
            assert score(pos) == pos.score


# ---------------------------------------------------------------- search


def test_search_wins_a_small_classic_position():
    # K on top of the waste blocks; a cell must hold it
    pos = table(CLASSIC, corners=(13, 13, 13, 10), tomb_count=23, stock="KD AD QD JD")
    verdict, best, line = search(pos)
    assert verdict == "won" and best == 52
    assert is_won(replay(pos, line))


def test_search_wins_when_a_redeal_is_needed():
    # 3-card, no cells, only 8..K of one suit out: the 8 comes home in the first
    # pass, the 9 in the second, which shifts the groups of three so that the
    # 10, J, Q, K come home in the third. With fewer passes it is lost.
    no_cells = replace(THREE, name="three-no-cells", cells=0, cell_sources=(), cell_targets=())
    stock = "QD JD 8D 9D TD KD"
    pos = table(no_cells, corners=(13, 13, 13, 7), stock=stock)
    verdict, best, line = search(pos)
    assert verdict == "won" and best == 52
    assert line.count(Move.redeal()) == 2
    assert is_won(replay(pos, line))
    for passes, best in ((1, 47), (2, 48)):
        fewer = table(replace(no_cells, passes=passes), corners=(13, 13, 13, 7), stock=stock)
        verdict, got, line = search(fewer)
        assert (verdict, got) == ("lost", best)
        assert score(replay(fewer, line)) == best


def test_search_lost_without_cells():
    no_cells = replace(CLASSIC, name="classic-no-cells", cells=0, cell_sources=(), cell_targets=())
    # Q and K go onto the waste before the J: the K then buries the Q for good
    pos = table(no_cells, corners=(13, 13, 13, 10), stock="QD KD JD")
    assert score(pos) == 49
    verdict, best, line = search(pos)
    assert (verdict, best) == ("lost", 50)
    assert score(replay(pos, line)) == 50
    # with the four cells of the classic it is won
    pos = replace(pos, variant=CLASSIC, cells=(None,) * 4)
    verdict, best, line = search(pos)
    assert verdict == "won" and is_won(replay(pos, line))


def test_search_lost_with_full_cells():
    # Cells hold J♦ Q♦ K♦ A♦; the waste is 3♦ 10♦ 2♦ (2♦ on top). The 6♦ 5♦ 4♦
    # in the stock come home; then the 2 needs the 3 under the 10, the 10 needs
    # the 2 gone, and no cell is free.
    pos = table(
        CLASSIC,
        corners=(13, 13, 13, 9),
        tomb_count=18,
        stock="6D 5D 4D",
        waste="3D TD 2D",
        cells=("JD", "QD", "KD", "AD"),
    )
    assert score(pos) == 42
    verdict, best, line = search(pos)
    assert (verdict, best) == ("lost", 45)
    assert score(replay(pos, line)) == 45
    # one free cell (the A elsewhere) and it is won
    pos = table(
        CLASSIC, corners=(13, 13, 13, 9), tomb_count=18, stock="6D 5D 4D AD", waste="3D TD 2D", cells=("JD", "QD", "KD")
    )
    verdict, best, line = search(pos)
    assert verdict == "won" and is_won(replay(pos, line))


def test_search_stops_at_the_limit():
    for variant in (CLASSIC, FINNISH):
        pos = Position.start(random.Random(7).sample(DECK, 52), variant)
        verdict, best, line = search(pos, max_positions=300)
        assert verdict == "unknown"
        assert score(replay(pos, line)) == best


def test_search_wins_a_full_three_card_deal():
    pos = Position.start(random.Random(7).sample(DECK, 52), THREE)
    verdict, best, line = search(pos, max_positions=5_000)
    assert (verdict, best) == ("won", 52)
    assert len(line) > 50 and is_won(replay(pos, line))


def test_search_finnish_tail():
    # The tomb wants an A; the 6♦ comes first and must wait (reserve or cell).
    pos = table(FINNISH, tomb_count=17, stock="6D AD AH 5D 4D 3D 2D")
    verdict, _best, line = search(pos)
    assert verdict == "won" and is_won(replay(pos, line))


def test_every_family_has_a_reference_engine_found_by_its_name():
    """A family's engine is the module of solver.rules named after it: no
    list to keep; an unknown family is a clear error."""
    from solver import families, rules

    assert set(rules.FAMILIES) == set(families.FAMILIES)
    for name in families.FAMILIES:
        engine = rules.reference(name)
        assert engine.__name__ == f"solver.rules.{name}" and callable(engine.legal_moves)
    for bad in ("casket", "engine", "", None):
        with pytest.raises(ValueError, match="no reference engine for the family"):
            rules.reference(bad)  # type: ignore[arg-type]
