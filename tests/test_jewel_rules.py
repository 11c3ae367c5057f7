"""Tests of the pure-Python reference rules engine of the jewel box, solver.rules.jewel."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from solver.cards import SUITS, Card
from solver.deals import Deal
from solver.families.jewel import JewelPosition
from solver.notation import IllegalMoveError, Move
from solver.rules import jewel
from solver.rules.jewel import (
    PILE_PLACES,
    is_won,
    legal_moves,
    play,
    position_key,
    replay,
    score,
    search,
    space_pending,
)
from solver.variants import load

V = load("paciencia-porta-joias-free")  # the free rules; the sheet's: SHEET
SHEET = load("paciencia-porta-joias")


def C(text: str) -> Card:
    return Card.parse(text)


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split() if t not in ("-", "--"))


def mv(card: str, src: str, dst: str) -> Move:
    return Move.move(C(card), src, dst)


def home_of(named) -> tuple[tuple[int, int], ...]:
    """The foundation counts that hold exactly the cards not in ``named`` (a
    two-deck pack); fails when no foundations can hold them."""
    counts = {}
    for c in named:
        counts[c] = counts.get(c, 0) + 1
    result = []
    for suit in SUITS:
        n = [counts.get(Card(r, suit), 0) for r in range(1, 14)]
        b, a = n.count(0), n.count(0) + n.count(1)
        assert n == [0] * b + [1] * (a - b) + [2] * (13 - a), f"{suit}: no foundations leave {n}"
        result.append((a, b))
    return tuple(result)


def box(
    variant=V,
    lid="-- -- -- -- --",
    piles="",
    jewels="",
    reserves=(),
    stock="",
    turned=None,
    foundations=None,
) -> JewelPosition:
    """A hand-built position. ``piles``: the eight side and bottom piles
    (sides 1-4, bottoms 1-4) separated by ``/``, each bottom card first.
    ``foundations``: a dict suit -> (a, b) over empty foundations, or
    ``"rest"``: every card not named is home (the position holds 104 cards)."""
    lid_cards = tuple(None if t in ("-", "--") else C(t) for t in lid.split())
    assert len(lid_cards) == 5
    parts = [p.strip() for p in piles.split("/")] if piles else []
    parts += [""] * (8 - len(parts))
    assert len(parts) == 8
    pile_cards = [cards(p) for p in parts]
    reserve_cards = [cards(r) for r in reserves] + [()] * (variant.reserves - len(reserves))
    pos = JewelPosition(
        variant=variant,
        stock=cards(stock),
        turned=C(turned) if turned else None,
        lid=lid_cards,
        sides=tuple(pile_cards[:4]),
        bottoms=tuple(pile_cards[4:]),
        jewels=cards(jewels),
        reserves=tuple(reserve_cards),
        foundations=((0, 0),) * 4,
    )
    if foundations == "rest":
        named = [c for c in lid_cards if c] + [c for p in pile_cards for c in p]
        named += [c for r in reserve_cards for c in r] + list(pos.stock) + list(pos.jewels)
        named += [pos.turned] if pos.turned else []
        return replace(pos, foundations=home_of(named))
    if foundations:
        found = dict(zip(SUITS, pos.foundations)) | foundations
        pos = replace(pos, foundations=tuple(found[s] for s in SUITS))
    return pos


def rejects(pos: JewelPosition, move: Move, *words: str) -> str:
    with pytest.raises(IllegalMoveError) as info:
        play(pos, move)
    text = str(info.value)
    assert text.startswith(str(move) + ": "), text
    for w in words:
        assert w in text, text
    return text


# ---------------------------------------------------------------- the start


def test_start_layout_from_a_deal():
    deal = Deal.from_number(1, decks=2)
    pos = JewelPosition.start(deal, V)
    c = deal.cards
    assert pos.lid == c[0:5]
    assert pos.sides == tuple((x,) for x in c[5:9])
    assert pos.bottoms == tuple((x,) for x in c[9:13])
    assert pos.jewels == c[13:26] and len(pos.jewels) == 13
    assert pos.stock == c[26:] and len(pos.stock) == 78
    assert pos.turned is None
    assert pos.reserves == ((), (), ())
    assert pos.foundations == ((0, 0),) * 4
    assert pos.deal is deal and pos.moves_played == 0 and pos.history == ()
    assert pos.score == score(pos) == 0 and not pos.won and not is_won(pos)
    assert space_pending(pos) is None
    moves = legal_moves(pos)
    assert moves[-1] == Move.turn([c[26]])
    assert moves[0] == mv("AS", "bottom:2", "foundation:S")  # deal 1 has A♠ on bottom 2
    # From a plain list of cards: no deal is kept, the layout is the same.
    plain = JewelPosition.start(list(c), V)
    assert plain.deal is None and plain == pos
    # The reserves follow the variant.
    assert JewelPosition.start(deal, replace(V, reserves=1)).reserves == ((),)
    assert JewelPosition.start(deal, replace(V, reserves=0)).reserves == ()
    # A one-deck deal is refused, and so is another family's variant.
    with pytest.raises(ValueError, match="2 decks"):
        JewelPosition.start(Deal.from_number(1), V)
    with pytest.raises(ValueError, match="not of the family 'jewel'"):
        JewelPosition.start(deal, load("napoleons-tomb"))


def test_start_of_another_deal_by_name():
    deal = Deal.from_number(40000, decks=2)
    pos = JewelPosition.start(deal, load("paciencia-porta-joias"))
    assert pos.variant == SHEET
    laid = list(pos.lid) + [p[0] for p in pos.sides + pos.bottoms] + list(pos.jewels) + list(pos.stock)
    assert sorted(laid) == sorted(deal.cards)


# ---------------------------------------------------------------- jewels

# Eight piles that neither build on each other nor go home early.
KINGS = "KC / KC / KS / KS / KD / KD / KH / KH"


def test_a_jewel_fills_a_lid_space_at_once():
    pos = box(lid="AH 5S 6S 7S 8S", piles=KINGS, jewels="QH 2C 3C", stock="9D")
    assert space_pending(pos) is None
    pos = play(pos, mv("AH", "lid:1", "foundation:H"))
    assert pos.lid[0] is None
    assert space_pending(pos) == "lid:1"
    assert legal_moves(pos) == [Move.jewel(C("QH"), "lid:1")]
    rejects(pos, Move.turn([C("9D")]), "lid:1 is empty", "the next jewel, Q♥, must fill it first")
    rejects(pos, mv("KC", "side:1", "lid:1"), "must fill it first")
    rejects(pos, Move.jewel(C("2C"), "lid:1"), "the next jewel is Q♥")
    rejects(pos, Move.jewel(C("QH"), "side:1"), "the space to fill is lid:1")
    pos = play(pos, Move.jewel(C("QH"), "lid:1"))
    assert pos.lid == cards("QH 5S 6S 7S 8S")
    assert pos.jewels == cards("2C 3C")
    assert space_pending(pos) is None
    # The jewel plays by the rules of the lid: only home, even where a pile would take it.
    rejects(pos, mv("QH", "lid:1", "side:1"), "a lid card goes only to a foundation")
    assert all(m.src != "lid:1" for m in legal_moves(pos))


def test_jewels_fill_side_and_bottom_spaces_in_order():
    pos = box(
        lid="KC KC KS KS KD",
        piles="AC / 9S / KS / KD / KH / KH / 8H / AD",
        jewels="2C 3C 4S",
        stock="9D",
    )
    pos = play(pos, mv("AC", "side:1", "foundation:C"))
    assert space_pending(pos) == "side:1"
    assert legal_moves(pos) == [Move.jewel(C("2C"), "side:1")]
    pos = play(pos, Move.jewel(C("2C"), "side:1"))
    assert pos.sides[0] == cards("2C")
    pos = play(pos, mv("AD", "bottom:4", "foundation:D"))
    assert legal_moves(pos) == [Move.jewel(C("3C"), "bottom:4")]
    pos = play(pos, Move.jewel(C("3C"), "bottom:4"))
    assert pos.bottoms[3] == cards("3C")
    # A pile emptied by a move onto another pile.
    pos = play(pos, mv("8H", "bottom:3", "side:2"))
    assert pos.sides[1] == cards("9S 8H")
    assert legal_moves(pos) == [Move.jewel(C("4S"), "bottom:3")]
    pos = play(pos, Move.jewel(C("4S"), "bottom:3"))
    assert pos.jewels == () and space_pending(pos) is None
    # The jewels are gone: a space now stays empty (nothing waits).
    pos = play(pos, mv("2C", "side:1", "foundation:C"))
    assert pos.sides[0] == () and space_pending(pos) is None
    rejects(pos, Move.jewel(C("2C"), "side:1"), "no jewels are left")
    assert Move.turn([C("9D")]) in legal_moves(pos)


def test_a_jewel_move_without_a_space():
    pos = box(lid="KC KC KS KS KD", piles=KINGS, jewels="2C", stock="9D")
    rejects(pos, Move.jewel(C("2C"), "side:1"), "no space waits for a jewel")


# ---------------------------------------------------------------- the lid


def test_lid_cards_go_only_home():
    pos = box(
        lid="7H AS 5S -- --",
        piles="8S / KC / KS / KS / KD / KD / KH / KH",
        foundations={"H": (6, 2)},
        stock="2D",
    )
    # 7♥ would build on 8♠, but a lid card goes only home.
    rejects(pos, mv("7H", "lid:1", "side:1"), "a lid card goes only to a foundation")
    rejects(pos, mv("7H", "lid:1", "reserve:1"), "a lid card goes only to a foundation")
    rejects(pos, mv("7H", "lid:1", "lid:4"), "a lid card goes only to a foundation")
    rejects(pos, mv("5S", "lid:3", "foundation:S"), "the S foundations hold 0 and 0 cards: they take an A")
    moves = legal_moves(pos)
    assert [m for m in moves if m.src and m.src.startswith("lid")] == [
        mv("7H", "lid:1", "foundation:H"),
        mv("AS", "lid:2", "foundation:S"),
    ]
    after = play(pos, mv("7H", "lid:1", "foundation:H"))
    assert after.foundations[SUITS.index("H")] == (7, 2)


# ---------------------------------------------------------------- building


def test_piles_build_down_in_alternating_colours():
    pos = box(
        lid="KC KC KS KS KD",
        piles="8S / 7H / 7C / 6H / 9D / 7D / 5C 8C / QH",
        stock="7S",
    )
    moves = legal_moves(pos)
    assert mv("7H", "side:2", "side:1") in moves
    assert mv("7D", "bottom:2", "side:1") in moves
    assert mv("8S", "side:1", "bottom:1") in moves
    assert mv("7C", "side:3", "side:1") not in moves
    after = play(pos, mv("7H", "side:2", "side:1"))
    assert after.sides[0] == cards("8S 7H")
    rejects(pos, mv("7C", "side:3", "side:1"), "side:1 shows 8♠", "alternating colours")
    rejects(pos, mv("6H", "side:4", "side:1"), "side:1 shows 8♠: 6♥ goes only on a 7")
    rejects(pos, mv("QH", "bottom:4", "bottom:1"), "bottom:1 shows 9♦: Q♥ goes only on a K")
    rejects(pos, mv("5C", "bottom:3", "side:4"), "5♣ is not on top of bottom:3 (its top is 8♣)")
    rejects(pos, mv("8S", "side:1", "side:1"), "already on side:1")
    # The turned card builds by the same rule.
    turned = play(pos, Move.turn([C("7S")]))
    rejects(turned, mv("7S", "stock", "side:1"), "alternating colours")
    assert mv("7S", "stock", "bottom:1") not in legal_moves(turned)
    assert mv("7S", "stock", "bottom:2") not in legal_moves(turned)
    assert all(m.dst != "bottom:1" for m in legal_moves(turned))


# ---------------------------------------------------------------- the turned card


def test_the_turned_card_must_be_placed_first():
    pos = box(
        lid="AH KC KS KS KD",
        piles="6C / KC / KS / KS / KD / KD / KH / KH",
        stock="5D 9C",
        jewels="2C",
    )
    rejects(pos, mv("5D", "stock", "reserve:1"), "no card is turned (turn 5♦ first)")
    rejects(pos, Move.turn([C("9C")]), "the next stock card is 5♦")
    rejects(pos, Move.turn(cards("5D 9C")), "one card at a time")
    pos = play(pos, Move.turn([C("5D")]))
    assert pos.turned == C("5D") and pos.stock == cards("9C")
    assert legal_moves(pos) == [
        mv("5D", "stock", "side:1"),
        mv("5D", "stock", "reserve:1"),
        mv("5D", "stock", "reserve:2"),
        mv("5D", "stock", "reserve:3"),
    ]
    rejects(pos, mv("AH", "lid:1", "foundation:H"), "5♦ was turned and must be placed first")
    rejects(pos, Move.turn([C("9C")]), "5♦ was turned and must be placed first")
    rejects(pos, mv("9C", "stock", "reserve:1"), "the turned card is 5♦")
    rejects(pos, mv("5D", "stock", "foundation:D"), "they take an A")
    rejects(pos, mv("5D", "stock", "lid:2"), "lid:2 holds K♣")
    after = play(pos, mv("5D", "stock", "side:1"))
    assert after.turned is None and after.sides[0] == cards("6C 5D")
    assert mv("AH", "lid:1", "foundation:H") in legal_moves(after)


def _turned_2h(variant):
    """A turned 2♥ that fits a foundation, three pile tops, an empty lid place
    and any reserve."""
    return box(
        replace(variant, empty_lid="any"),
        lid="KC -- KS KS KD",
        piles="KC / KC / 3S / KS / - / KD / 3C / KH",
        foundations={"H": (1, 0)},
        turned="2H",
    )


def test_the_turned_card_placements_in_order():
    pos = _turned_2h(V)
    assert legal_moves(pos) == [
        mv("2H", "stock", "foundation:H"),
        mv("2H", "stock", "side:3"),
        mv("2H", "stock", "bottom:1"),
        mv("2H", "stock", "bottom:3"),
        mv("2H", "stock", "reserve:1"),
        mv("2H", "stock", "reserve:2"),
        mv("2H", "stock", "reserve:3"),
        mv("2H", "stock", "lid:2"),
    ]
    for m in legal_moves(pos):
        play(pos, m)
    assert play(pos, mv("2H", "stock", "lid:2")).lid[1] == C("2H")


def test_the_sheet_puts_a_turned_card_on_a_reserve_only_when_it_has_no_other_place():
    """paciencia-porta-joias: "Se estas cartas não puderem ser colocadas em
    algumas destas pilhas, coloque-as em um dos três possíveis refugos"."""
    pos = _turned_2h(SHEET)
    variant = pos.variant
    assert legal_moves(pos) == [
        mv("2H", "stock", "foundation:H"),
        mv("2H", "stock", "side:3"),
        mv("2H", "stock", "bottom:1"),
        mv("2H", "stock", "bottom:3"),
        mv("2H", "stock", "lid:2"),
    ]
    rejects(pos, mv("2H", "stock", "reserve:1"), "2♥ fits foundation:H", "only when no foundation and no pile top")
    # Only a pile top obliges: with the foundation not wanting it, still no reserve.
    on_top = replace(pos, foundations=((0, 0),) * 4)
    assert [m.dst for m in legal_moves(on_top)] == ["side:3", "bottom:1", "bottom:3", "lid:2"]
    rejects(on_top, mv("2H", "stock", "reserve:2"), "2♥ fits side:3")
    # An empty place does not oblige: a card that fits no top may go to a reserve or the space.
    alone = box(variant, lid="KC -- KS KS KD", piles="KC / KC / 9S / KS / - / KD / 9C / KH", turned="2H")
    assert [m.dst for m in legal_moves(alone)] == ["bottom:1", "reserve:1", "reserve:2", "reserve:3", "lid:2"]
    assert play(alone, mv("2H", "stock", "reserve:3")).reserves[2] == cards("2H")
    # The free rules take any turned card on any reserve.
    assert mv("2H", "stock", "reserve:1") in legal_moves(replace(pos, variant=replace(V, empty_lid="any")))


# ---------------------------------------------------------------- reserves


def test_reserves_take_only_from_the_stock():
    pos = box(
        lid="KC KC KS KS KD",
        piles="8S / KC / KS / KS / KD / KD / KH / 2S",
        reserves=("7H", "AD 9D", ""),
        foundations={"S": (1, 0)},
        stock="KH",
    )
    rejects(pos, mv("8S", "side:1", "reserve:3"), "a reserve takes cards only from the stock")
    rejects(pos, mv("7H", "reserve:1", "reserve:3"), "a reserve takes cards only from the stock")
    rejects(pos, mv("AD", "reserve:2", "foundation:D"), "the top of reserve:2 is 9♦")
    rejects(pos, mv("7H", "reserve:3", "side:1"), "reserve:3 is empty")
    moves = legal_moves(pos)
    assert moves == [
        mv("2S", "bottom:4", "foundation:S"),
        mv("7H", "reserve:1", "side:1"),
        Move.turn([C("KH")]),
    ]
    assert play(pos, mv("7H", "reserve:1", "side:1")).reserves == ((), cards("AD 9D"), ())
    # The turned card goes on any reserve, whatever its top.
    pos = play(pos, Move.turn([C("KH")]))
    after = play(pos, mv("KH", "stock", "reserve:2"))
    assert after.reserves[1] == cards("AD 9D KH")
    # Reserve places outside the variant.
    rejects(pos, mv("KH", "stock", "reserve:4"), "unknown destination place 'reserve:4'")
    none = replace(pos, variant=replace(V, reserves=0), reserves=())
    rejects(none, mv("KH", "stock", "reserve:1"), "this game has no reserves")
    rejects(pos, mv("KH", "stock", "reserve"), "needs its index")


# ---------------------------------------------------------------- empty places


def empty_table(variant, jewels=""):
    """Bottom 1 and lid 2 empty; side 1 holds two cards, side 2 one card."""
    return box(
        variant,
        lid="KC -- KS KS KD",
        piles="KH 7C / KD / KS / KC / - / QC / QC / QS",
        reserves=("5H", "KS", ""),
        jewels=jewels,
        stock="9H",
    )


def test_empty_side_or_bottom_takes_any_card():
    variant = replace(V, empty_pile="any", empty_lid="none")
    pos = empty_table(variant)
    moves = legal_moves(pos)
    assert mv("7C", "side:1", "bottom:1") in moves
    assert mv("5H", "reserve:1", "bottom:1") in moves
    assert mv("KS", "reserve:2", "bottom:1") in moves
    # A card from a one-card pile to an empty pile changes nothing: not listed, but legal.
    assert mv("KD", "side:2", "bottom:1") not in moves
    moved = play(pos, mv("KD", "side:2", "bottom:1"))
    assert moved.sides[1] == () and moved.bottoms[0] == cards("KD")
    assert position_key(moved) == position_key(pos)
    assert play(pos, mv("7C", "side:1", "bottom:1")).bottoms[0] == cards("7C")
    turned = play(pos, Move.turn([C("9H")]))
    assert mv("9H", "stock", "bottom:1") in legal_moves(turned)
    assert play(turned, mv("9H", "stock", "bottom:1")).bottoms[0] == cards("9H")
    # The lid stays empty.
    assert not any(m.dst == "lid:2" for m in moves + legal_moves(turned))
    rejects(turned, mv("9H", "stock", "lid:2"), "an empty lid place stays empty in this game")
    rejects(pos, mv("7C", "side:1", "lid:2"), "an empty lid place stays empty in this game")


def test_empty_side_or_bottom_takes_only_a_king():
    variant = replace(V, empty_pile="king")
    pos = empty_table(variant)
    moves = legal_moves(pos)
    assert mv("KS", "reserve:2", "bottom:1") in moves
    assert mv("7C", "side:1", "bottom:1") not in moves
    assert mv("5H", "reserve:1", "bottom:1") not in moves
    rejects(pos, mv("7C", "side:1", "bottom:1"), "takes only a King")
    assert play(pos, mv("KS", "reserve:2", "bottom:1")).bottoms[0] == cards("KS")
    turned = play(pos, Move.turn([C("9H")]))
    rejects(turned, mv("9H", "stock", "bottom:1"), "takes only a King")


def test_empty_side_or_bottom_stays_empty():
    variant = replace(V, empty_pile="none")
    pos = empty_table(variant)
    assert not any(m.dst == "bottom:1" for m in legal_moves(pos))
    rejects(pos, mv("KS", "reserve:2", "bottom:1"), "stays empty in this game")
    rejects(pos, mv("7C", "side:1", "bottom:1"), "stays empty in this game")


def test_empty_lid_takes_any_single_card():
    variant = replace(V, empty_pile="none", empty_lid="any")
    pos = empty_table(variant)
    moves = legal_moves(pos)
    # From a pile (even a one-card pile: that changes the position) and from a reserve.
    assert mv("7C", "side:1", "lid:2") in moves
    assert mv("KD", "side:2", "lid:2") in moves
    assert mv("5H", "reserve:1", "lid:2") in moves
    pos = play(pos, mv("7C", "side:1", "lid:2"))
    assert pos.lid[1] == C("7C")
    # It then goes only home.
    rejects(pos, mv("7C", "lid:2", "bottom:1"), "a lid card goes only to a foundation")
    rejects(pos, mv("5H", "reserve:1", "lid:2"), "lid:2 holds 7♣")


def test_empty_places_wait_for_the_jewels_first():
    # Hand-built: two spaces while a jewel remains. The first (lid, side, bottom order) pends.
    variant = replace(V, empty_pile="any", empty_lid="any")
    pos = empty_table(variant, jewels="2D")
    assert space_pending(pos) == "lid:2"
    assert legal_moves(pos) == [Move.jewel(C("2D"), "lid:2")]
    pos = play(pos, Move.jewel(C("2D"), "lid:2"))
    # The jewels are gone: bottom 1 follows the empty rule.
    assert space_pending(pos) is None
    assert mv("7C", "side:1", "bottom:1") in legal_moves(pos)


# ---------------------------------------------------------------- runs


RUN_TABLE = dict(
    lid="KC KC KS KS KD",
    piles="5C KS QH JC 10D / KC / KH / KH / QD / - / KD / KD",
)


def test_one_card_at_a_time():
    pos = box(replace(V, runs_move=False), **RUN_TABLE)
    assert [m for m in legal_moves(pos) if m.src == "side:1"] == [mv("TD", "side:1", "bottom:2")]
    rejects(pos, mv("QH", "side:1", "side:2"), "one card moves at a time here: Q♥ lies under 10♦")
    rejects(pos, mv("5C", "side:1", "side:2"), "5♣ is not on top of side:1 (its top is 10♦)")


def test_runs_move_as_a_unit():
    pos = box(replace(V, runs_move=True), **RUN_TABLE)
    from_side = [m for m in legal_moves(pos) if m.src == "side:1"]
    # Runs onto cards first (shallow to deep), then the top card into the empty place.
    assert from_side == [
        mv("JC", "side:1", "bottom:1"),
        mv("QH", "side:1", "side:2"),
        mv("TD", "side:1", "bottom:2"),
    ]
    after = play(pos, mv("QH", "side:1", "side:2"))
    assert after.sides[0] == cards("5C KS")
    assert after.sides[1] == cards("KC QH JC TD")
    after = play(pos, mv("JC", "side:1", "bottom:1"))
    assert after.bottoms[0] == cards("QD JC TD")
    # A run goes only onto a card: not home, not into an empty place.
    rejects(pos, mv("JC", "side:1", "foundation:C"), "only a single card goes to foundation places")
    rejects(pos, mv("QH", "side:1", "bottom:2"), "takes a single card, not a run")
    rejects(pos, mv("5C", "side:1", "side:2"), "5♣ is not on top of side:1")
    rejects(pos, mv("KS", "side:1", "side:2"), "side:2 shows K♣: a King goes on no card")


def test_a_whole_pile_moving_as_a_run_opens_a_space():
    variant = replace(V, runs_move=True)
    pos = box(variant, lid="KC KC KS KS KD", piles="QH JC / KC / KH / KH / KS / KS / KD / KD", jewels="2D")
    pos = play(pos, mv("QH", "side:1", "side:2"))
    assert pos.sides[1] == cards("KC QH JC")
    assert legal_moves(pos) == [Move.jewel(C("2D"), "side:1")]


# ---------------------------------------------------------------- foundations


def test_the_two_foundations_of_a_suit():
    variant = replace(V, empty_pile="none")
    pos = box(variant, lid="AH AH 2H 2H 3H", piles="5H / KC / KS / KS / KD / KD / AS / 2C")
    pos = play(pos, mv("AH", "lid:1", "foundation:H"))
    assert pos.foundations[2] == (1, 0)
    pos = play(pos, mv("2H", "lid:3", "foundation:H"))
    assert pos.foundations[2] == (2, 0)
    pos = play(pos, mv("AH", "lid:2", "foundation:H"))
    assert pos.foundations[2] == (2, 1)
    pos = play(pos, mv("3H", "lid:5", "foundation:H"))
    assert pos.foundations[2] == (3, 1)
    # The 2 goes on the smaller foundation; the pair stays sorted.
    assert mv("2H", "lid:4", "foundation:H") in legal_moves(pos)
    rejects(pos, mv("5H", "side:1", "foundation:H"), "the H foundations hold 3 and 1 cards: they take a 4 or a 2")
    pos = play(pos, mv("2H", "lid:4", "foundation:H"))
    assert pos.foundations[2] == (3, 2)
    assert pos.score == 5
    rejects(pos, mv("AS", "bottom:3", "foundation:H"), "A♠ goes to foundation:S, not foundation:H")
    rejects(pos, mv("AS", "bottom:3", "foundation"), "needs its index")
    rejects(pos, mv("2C", "bottom:4", "foundation:C"), "they take an A")
    # Full foundations take nothing.
    full = box(variant, piles="KH / KC", foundations={"H": (13, 13), "C": (13, 12)})
    rejects(full, mv("KH", "side:1", "foundation:H"), "they take nothing")
    assert play(full, mv("KC", "side:2", "foundation:C")).foundations[0] == (13, 13)


# ---------------------------------------------------------------- the end


def test_the_game_ends_when_no_move_is_legal():
    # No reserve and nowhere for the turned card: over.
    variant = replace(V, reserves=0)
    pos = box(variant, lid="KC KC KS KS KD", piles=KINGS, turned="5H", stock="5D")
    assert legal_moves(pos) == []
    assert not pos.won
    rejects(pos, Move.turn([C("5D")]), "5♥ was turned and must be placed first")
    # The stock spent and nothing to move.
    pos = box(V, lid="KC KC KS KS KD", piles=KINGS)
    assert legal_moves(pos) == []
    rejects(pos, Move.turn([C("5D")]), "the stock is empty")
    # Won: every card home.
    won = box(V, foundations={s: (13, 13) for s in SUITS})
    assert is_won(won) and won.won and won.score == 104 and legal_moves(won) == []


# ---------------------------------------------------------------- messages


def test_illegal_move_messages():
    pos = JewelPosition.start(Deal.from_number(1, decks=2), V)
    rejects(pos, mv("JD", "waste", "side:1"), "unknown source place 'waste' in this game", "lid:1..5")
    rejects(pos, mv("JD", "bottom:1", "pile:3"), "unknown destination place 'pile:3'")
    rejects(pos, mv("JD", "bottom:1", "cell"), "unknown destination place 'cell'")
    rejects(pos, mv("JD", "bottom:1", "lid:6"), "lid places are lid:1..5")
    rejects(pos, mv("JD", "bottom:1", "side"), "needs its index")
    rejects(pos, mv("JD", "bottom:1", "stock"), "no card goes back into the stock")
    rejects(pos, mv("AS", "foundation:S", "side:1"), "never move again")
    rejects(pos, mv("JD", "bottom:2", "side:3"), "J♦ is not on top of bottom:2 (its top is A♠)")
    rejects(pos, mv("3D", "lid:2", "foundation:D"), "lid:2 holds 5♥")
    rejects(pos, Move.redeal(), "there is no 'redeal' in this game")
    rejects(pos, Move.deal([C("2H")]), "there is no 'deal' in this game")
    with pytest.raises(IllegalMoveError) as info:
        play(pos, "AS bottom:2 foundation:S")
    assert "is not a Move" in str(info.value)
    # The error carries the move and the bare reason.
    with pytest.raises(IllegalMoveError) as info:
        play(pos, mv("3D", "lid:1", "side:1"))
    assert info.value.move == mv("3D", "lid:1", "side:1")
    assert info.value.reason == "a lid card goes only to a foundation"
    pos = play(pos, mv("AS", "bottom:2", "foundation:S"))
    rejects(pos, mv("AS", "bottom:2", "foundation:S"), "bottom:2 is empty: the next jewel, 6♥, must fill it")


# ---------------------------------------------------------------- replay


LINE = [
    {"action": "move", "card": "AS", "from": "bottom:2", "to": "foundation:S"},
    {"action": "jewel", "card": "6H", "to": "bottom:2"},
    {"action": "move", "card": "5H", "from": "side:1", "to": "bottom:4"},
    {"action": "jewel", "card": "TC", "to": "side:1"},
    {"action": "turn", "cards": ["2H"]},
    {"action": "move", "card": "2H", "from": "stock", "to": "reserve:1"},
    {"action": "turn", "cards": ["AD"]},
    {"action": "move", "card": "AD", "from": "stock", "to": "foundation:D"},
]


def test_replay_of_a_json_line():
    start = JewelPosition.start(Deal.from_number(1, decks=2), V)
    end = replay(start, LINE)
    assert end.moves_played == len(LINE)
    assert [m.to_json() for m in end.history] == LINE
    assert end.bottoms[1] == cards("6H") and end.bottoms[3] == cards("6C 5H")
    assert end.sides[0] == cards("TC")
    assert end.reserves == (cards("2H"), (), ())
    assert end.foundations == ((0, 0), (1, 0), (0, 0), (1, 0))
    assert end.score == 2 and len(end.jewels) == 11 and len(end.stock) == 76
    # Move objects replay the same.
    assert replay(start, [Move.from_json(m) for m in LINE]) == end
    # The start is untouched.
    assert start.moves_played == 0 and len(start.jewels) == 13


def test_replay_names_the_first_bad_move():
    start = JewelPosition.start(Deal.from_number(1, decks=2), V)
    bad = LINE[:3] + [{"action": "turn", "cards": ["2H"]}]
    with pytest.raises(IllegalMoveError, match=r"^move 4 \(turn 2♥\): side:1 is empty: the next jewel, 10♣"):
        replay(start, bad)
    with pytest.raises(IllegalMoveError, match=r"^move 2: unknown place 'nowhere'"):
        replay(start, LINE[:1] + [{"action": "jewel", "card": "6H", "to": "nowhere"}])
    with pytest.raises(IllegalMoveError, match=r"^move 1: .*'ZZ'"):
        replay(start, [{"action": "move", "card": "ZZ", "from": "lid:1", "to": "foundation:S"}])


# ---------------------------------------------------------------- str()


def test_str_shows_the_jewel_box():
    start = JewelPosition.start(Deal.from_number(1, decks=2), V)
    text = str(start)
    lines = text.splitlines()
    assert lines[0].startswith("lid:") and "3♦  5♥  J♣  K♥  5♠" in lines[0]
    assert "side 1:" in lines[1] and "side 3: K♣" in lines[1]
    assert "side 2:" in lines[2] and "side 4: 8♦" in lines[2]
    assert any(line.startswith("bottom 2:") and "A♠" in line for line in lines)
    assert "13 face down" in text and "78 cards" in text and "score:       0/104" in text
    assert "turned" not in text
    pos = replay(start, LINE[:1])
    assert "the next fills bottom:2" in str(pos) and "A♠ --" in str(pos)
    pos = replay(start, LINE[:5])
    text = str(pos)
    assert "turned:      2♥" in text and "77 cards" in text and "11 face down" in text
    pos = replay(start, LINE)
    text = str(pos)
    assert "1: 2♥ (1)" in text and "2: --" in text
    assert "side 1:      10♣" in text and "6♣ 5♥" in text and "A♦ --" in text
    assert "score:       2/104" in text
    empty_lid = box(lid="-- KC KS KS KD", piles=KINGS)
    assert str(empty_lid).splitlines()[0].endswith("--  K♣  K♠  K♠  K♦")
    assert "reserves:    (none)" in str(box(replace(V, reserves=0)))


# ---------------------------------------------------------------- search


def small_game(variant):
    """Seven cards left: K♠ in the lid, Q♠ under K♠ on side 1; the stock turns
    K♥ first, before either Q♥."""
    return box(variant, lid="KS -- -- -- --", piles="QS KS", stock="KH QH QH KH", foundations="rest")


def test_search_wins_with_a_reserve():
    pos = small_game(replace(V, empty_pile="none"))
    assert pos.score == 97
    verdict, best, line = search(pos)
    assert verdict == "won" and best == 104
    end = replay(pos, line)
    assert end.won and end.score == 104
    # The K♥ turned first must wait on a reserve.
    assert any(m.card == C("KH") and m.src == "stock" and m.dst.startswith("reserve") for m in line)


def test_search_wins_with_an_empty_pile_and_no_reserve():
    pos = small_game(replace(V, reserves=0, empty_pile="any"))
    verdict, _best, line = search(pos)
    assert verdict == "won" and replay(pos, line).won
    assert any(m.card == C("KH") and m.src == "stock" and m.dst in PILE_PLACES for m in line)


def test_search_lost_reports_the_best_score():
    pos = small_game(replace(V, reserves=0, empty_pile="none"))
    verdict, best, line = search(pos)
    # The spades come home; the K♥ turned first has nowhere to go.
    assert verdict == "lost" and best == 100
    end = replay(pos, line)
    assert end.score == 100 and not end.won
    assert legal_moves(play(end, Move.turn([C("KH")]))) == []
    # With a King-only empty place the K♥ waits there: won again.
    assert search(replace(pos, variant=replace(pos.variant, empty_pile="king")))[0] == "won"


def jewel_game(variant):
    """Sixteen cards left (the Queens and Kings); both Q♥ lie under a K♥; one
    jewel (K♦) left."""
    return box(
        variant,
        lid="KC KC KS KS KD",
        piles="QC / QS / QH KH / QD / QC / QS / QH KH / QD",
        jewels="KD",
        foundations="rest",
    )


def test_search_with_a_jewel_lost():
    pos = jewel_game(replace(V, reserves=0, empty_pile="none"))
    assert pos.score == 88
    verdict, best, line = search(pos)
    assert verdict == "lost" and best == 100
    end = replay(pos, line)
    assert end.score == 100
    assert Move.jewel(C("KD"), line[[m.action for m in line].index("jewel")].dst) in line


def test_search_with_a_jewel_won():
    # Once the jewel is gone an empty place takes a K♥, which frees a Q♥.
    pos = jewel_game(replace(V, reserves=0, empty_pile="king"))
    verdict, _best, line = search(pos)
    assert verdict == "won"
    end = replay(pos, line)
    assert end.won and end.jewels == ()
    jewel_at = [m.action for m in line].index("jewel")
    assert any(m.card == C("KH") and m.dst in PILE_PLACES for m in line[jewel_at:])


def test_search_on_a_won_position_and_the_limit():
    won = box(V, foundations={s: (13, 13) for s in SUITS})
    assert search(won) == ("won", 104, [])
    pos = JewelPosition.start(Deal.from_number(1, decks=2), V)
    verdict, best, line = search(pos, max_positions=200)
    assert verdict == "unknown"
    assert replay(pos, line).score == best >= 1


# ---------------------------------------------------------------- the key


def test_position_key_merges_only_relabelled_twins():
    start = JewelPosition.start(Deal.from_number(3, decks=2), V)
    pos = replay(start, [Move.turn([start.stock[0]]), Move.move(start.stock[0], "stock", "reserve:2")])
    twin = replace(
        pos,
        lid=pos.lid[::-1],
        sides=(pos.bottoms[1], pos.sides[0], pos.bottoms[0], pos.sides[3]),
        bottoms=(pos.sides[1], pos.sides[2], pos.bottoms[3], pos.bottoms[2]),
        reserves=(pos.reserves[1], (), ()),
    )
    assert twin != pos and position_key(twin) == position_key(pos)
    assert len(legal_moves(twin)) == len(legal_moves(pos))
    hash(position_key(pos))
    # Different cards, a different turned card or stock, different foundations: different keys.
    assert position_key(start) != position_key(pos)
    assert position_key(replace(pos, stock=pos.stock[1:])) != position_key(pos)
    assert position_key(replace(pos, jewels=pos.jewels[::-1])) != position_key(pos)
    assert position_key(replace(pos, foundations=((1, 0),) + pos.foundations[1:])) != position_key(pos)
    moved = replace(pos, sides=((),) + pos.sides[1:], bottoms=(pos.bottoms[0] + pos.sides[0],) + pos.bottoms[1:])
    assert position_key(moved) != position_key(pos)


# ---------------------------------------------------------------- legal_moves and play agree


def _all_candidates(pos: JewelPosition) -> list[Move]:
    """Every move naming a card that is at a source place, to every place of the game."""
    places = list(jewel.LID_PLACES) + list(PILE_PLACES) + [f"reserve:{i}" for i in range(1, len(pos.reserves) + 1)]
    sources = []
    if pos.turned is not None:
        sources.append((pos.turned, "stock"))
    for place, card in zip(jewel.LID_PLACES, pos.lid):
        if card is not None:
            sources.append((card, place))
    for place in PILE_PLACES:
        pile = jewel._pile(pos, place)
        for card in pile[-4:]:
            sources.append((card, place))
    for place, reserve in zip(places[13:], pos.reserves):
        if reserve:
            sources.append((reserve[-1], place))
    out = []
    for card, src in sources:
        for dst in places + [f"foundation:{card.suit}"]:
            out.append(Move.move(card, src, dst))
    if pos.jewels:
        out += [Move.jewel(pos.jewels[0], p) for p in places[:13]]
    if pos.stock:
        out.append(Move.turn([pos.stock[0]]))
    return out


def _no_op(pos: JewelPosition, move: Move) -> bool:
    """A card from a one-card pile into an empty pile: legal, not listed."""
    return (
        move.action == "move"
        and move.src in PILE_PLACES
        and move.dst in PILE_PLACES
        and len(jewel._pile(pos, move.src)) == 1
        and not jewel._pile(pos, move.dst)
    )


def _count(pos: JewelPosition) -> int:
    return (
        pos.score
        + len(pos.stock)
        + (pos.turned is not None)
        + sum(c is not None for c in pos.lid)
        + sum(len(p) for p in pos.sides + pos.bottoms)
        + len(pos.jewels)
        + sum(len(r) for r in pos.reserves)
    )


def _opened(pos: JewelPosition) -> JewelPosition:
    """``pos`` with the jewels gone and lid 2, side 1 and bottom 3 empty: their
    cards go under the stock (so that empty places come up early)."""
    extra = pos.jewels + (pos.lid[1],) + pos.sides[0] + pos.bottoms[2]
    return replace(
        pos,
        stock=pos.stock + extra,
        jewels=(),
        lid=pos.lid[:1] + (None,) + pos.lid[2:],
        sides=((),) + pos.sides[1:],
        bottoms=pos.bottoms[:2] + ((),) + pos.bottoms[3:],
    )


@pytest.mark.parametrize(
    "number, changes, opened",
    [
        (1, {}, False),
        (2, {"runs_move": True, "empty_pile": "king", "empty_lid": "any"}, False),
        (5, {"reserves": 1, "empty_pile": "none"}, False),
        (7, {"reserves": 2, "empty_pile": "any", "empty_lid": "any"}, True),
        (8, {"runs_move": True, "empty_pile": "king"}, True),
        (9, {"reserve_takes": "unplaceable"}, False),
        (10, {"reserve_takes": "unplaceable", "empty_lid": "any"}, True),
    ],
)
def test_legal_moves_and_play_agree(number, changes, opened):
    """A random game: every listed move plays, every other move naming a card
    at a source is refused (but the no-op), and no card is lost."""
    variant = replace(V, **changes)
    pos = JewelPosition.start(Deal.from_number(number, decks=2), variant)
    if opened:
        pos = _opened(pos)
    rng = random.Random(number)
    steps, last = 0, None
    while steps < 160:
        listed = legal_moves(pos)
        assert len(set(listed)) == len(listed)
        for move in _all_candidates(pos):
            if move in listed:
                play(pos, move)
            elif not _no_op(pos, move):
                with pytest.raises(IllegalMoveError):
                    play(pos, move)
        if not listed:
            break
        home = [m for m in listed if m.dst and m.dst.startswith("foundation")]
        fresh = [m for m in listed if not (last and m.card == last.card and m.dst == last.src)] or listed
        if home and rng.random() < 0.8:
            move = home[0]
        elif listed[-1].action == "turn" and rng.random() < 0.3:
            move = listed[-1]
        else:
            move = rng.choice(fresh)
        pos, last = play(pos, move), move
        assert _count(pos) == 104
        assert all(a >= b for a, b in pos.foundations)
        steps += 1
    assert steps > 20
    assert len(pos.history) == pos.moves_played == steps
