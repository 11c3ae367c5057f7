"""Tests of the pure-Python reference rules engine for Paciência Napoleão, solver.rules.napoleao."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from solver.cards import DECK, SUITS, Card
from solver.deals import Deal
from solver.families.napoleao import NapoleaoPosition
from solver.notation import IllegalMoveError, Move
from solver.rules import napoleao
from solver.rules.napoleao import (
    is_won,
    legal_moves,
    play,
    position_key,
    replay,
    restricted,
    score,
    search,
)
from solver.variants import load

NAPOLEAO = load("paciencia-napoleao-free")  # the free rules; the sheet's: SHEET
SHEET = load("paciencia-napoleao")
EMPTY = ((),) * 12


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def C(text: str) -> Card:
    return Card.parse(text)


def piles(*given: str) -> tuple[tuple[Card, ...], ...]:
    """Twelve piles: the given ones (bottom card first), then empty ones."""
    out = tuple(tuple(cards(p)) for p in given)
    return out + ((),) * (12 - len(out))


def table(
    stock="", piles_=EMPTY, kbases=(13, 13, 13, 13), abases=(13, 13, 13, 13), redeals=2, rounds=3, variant=NAPOLEAO
) -> NapoleaoPosition:
    """A position built directly; by default every base is full and no redeal is left."""
    return NapoleaoPosition(
        variant, tuple(cards(stock)), piles_, tuple(kbases), tuple(abases), redeals=redeals, rounds=rounds
    )


def base_cards(pos: NapoleaoPosition) -> list[Card]:
    out = []
    for s, n in zip(SUITS, pos.kbases):
        out += [Card(13 - k, s) for k in range(n)]
    for s, n in zip(SUITS, pos.abases):
        out += [Card(k + 1, s) for k in range(n)]
    return out


def all_cards(pos: NapoleaoPosition) -> Counter:
    return Counter(list(pos.stock) + [c for p in pos.piles for c in p] + base_cards(pos))


TWO_DECKS = Counter(list(DECK) * 2)

# Cards that no base takes while the C and D Ace bases and the C and D King
# bases are the only ones started (or empty): 2..Q of hearts and spades.
INERT = [Card(r, s) for s in "HS" for r in range(2, 13)]


def fillers(n: int, start: int = 0) -> list[Card]:
    return [INERT[(start + i) % len(INERT)] for i in range(n)]


# --------------------------------------------------------------------------
# Setup.


def test_start_first_king_and_first_ace_start_their_bases():
    deal = Deal.from_number(1, decks=2)
    pack = list(deal.cards)
    king = next(i for i, c in enumerate(pack) if c.rank == 13)
    ace = next(i for i, c in enumerate(pack) if c.rank == 1)
    pos = NapoleaoPosition.start(deal, NAPOLEAO)
    kb = [0, 0, 0, 0]
    kb[SUITS.index(pack[king].suit)] = 1
    ab = [0, 0, 0, 0]
    ab[SUITS.index(pack[ace].suit)] = 1
    assert pos.kbases == tuple(kb) and pos.abases == tuple(ab)
    # The cards turned before them stay in place, the rest keeps its order.
    assert list(pos.stock) == [c for i, c in enumerate(pack) if i not in (king, ace)]
    assert pos.stock[: min(king, ace)] == tuple(pack[: min(king, ace)])
    assert len(pos.stock) == 102 and pos.score == 2 and score(pos) == 2
    assert pos.piles == EMPTY and pos.rounds == 0 and pos.redeals == 0
    assert pos.deal is deal and pos.moves_played == 0 and pos.history == ()
    assert all_cards(pos) == TWO_DECKS


def test_start_ace_before_king_and_a_second_king_stays():
    pos = NapoleaoPosition.start(cards("5H AD 7C KS KS AC 9D"), NAPOLEAO)
    assert pos.stock == tuple(cards("5H 7C KS AC 9D"))
    assert pos.kbases == (0, 1, 0, 0) and pos.abases == (0, 0, 0, 1)
    assert pos.deal is None


def test_start_without_start_bases_moves_nothing():
    v = replace(NAPOLEAO, start_bases=False)
    deal = Deal.from_number(1, decks=2)
    pos = NapoleaoPosition.start(deal, v)
    assert pos.stock == deal.cards
    assert pos.kbases == (0, 0, 0, 0) and pos.abases == (0, 0, 0, 0) and pos.score == 0


def test_start_refuses_another_family():
    with pytest.raises(ValueError, match="napoleao"):
        NapoleaoPosition.start(DECK, load("napoleons-tomb"))


# --------------------------------------------------------------------------
# Rounds.


def test_deal_covers_piles_one_to_twelve_and_counts_rounds():
    pos = NapoleaoPosition.start(Deal.from_number(2, decks=2), NAPOLEAO)
    first, second = pos.stock[:12], pos.stock[12:24]
    pos = play(pos, Move.deal(first))
    assert [p[-1] for p in pos.piles] == list(first) and pos.rounds == 1
    pos = play(pos, Move.deal(second))
    assert pos.piles == tuple((a, b) for a, b in zip(first, second))
    assert pos.rounds == 2 and len(pos.stock) == 78 and pos.moves_played == 2
    assert pos.history == (Move.deal(first), Move.deal(second))


def test_last_round_deals_six_cards_to_piles_one_to_six():
    pos = NapoleaoPosition.start(Deal.from_number(3, decks=2), NAPOLEAO)
    for _ in range(8):
        pos = play(pos, Move.deal(pos.stock[:12]))
    assert len(pos.stock) == 6
    assert legal_moves(pos)[-1] == Move.deal(pos.stock)
    last = pos.stock
    with pytest.raises(IllegalMoveError, match="the next 6 cards of the stock are"):
        play(pos, Move.deal(pos.stock + pos.piles[0][-1:]))
    pos = play(pos, Move.deal(last))
    assert pos.rounds == 9 and pos.stock == ()
    assert [len(p) for p in pos.piles] == [9] * 6 + [8] * 6
    assert tuple(p[-1] for p in pos.piles[:6]) == last
    with pytest.raises(IllegalMoveError, match=r"the stock is empty \(redeal first\)"):
        play(pos, Move.deal(last))


def restricted_pack() -> NapoleaoPosition:
    """A♣ and K♦ start their bases; round 1 shows K♠ on pile 1; round 2 shows
    2♣ on pile 12; round 3 has 11 cards, so 2♣ stays on top."""
    pack = cards("AC KD") + cards("KS") + fillers(11) + fillers(11, 11) + cards("2C") + fillers(11, 3)
    return NapoleaoPosition.start(pack, NAPOLEAO)


def test_first_two_rounds_let_only_kings_and_aces_start_bases():
    pos = restricted_pack()
    assert pos.kbases == (0, 0, 0, 1) and pos.abases == (1, 0, 0, 0)
    pos = play(pos, Move.deal(pos.stock[:12]))
    assert restricted(pos)
    assert legal_moves(pos) == [Move.move(C("KS"), "pile:1", "kbase:S"), Move.deal(pos.stock[:12])]
    pos = play(pos, Move.deal(pos.stock[:12]))  # K♠ left under a filler
    assert restricted(pos) and pos.piles[11][-1] == C("2C")
    assert legal_moves(pos) == [Move.deal(pos.stock)]
    two = Move.move(C("2C"), "pile:12", "abase:C")
    with pytest.raises(IllegalMoveError, match="round 2 is restricted: only a King or an Ace"):
        play(pos, two)
    pos = play(pos, Move.deal(pos.stock))
    assert pos.rounds == 3 and not restricted(pos) and len(pos.piles[11]) == 2
    assert legal_moves(pos) == [two, Move.redeal()]
    pos = play(pos, two)
    assert pos.abases == (2, 0, 0, 0) and pos.score == 3
    assert legal_moves(pos) == [Move.redeal()]


def test_second_king_in_round_one_only_to_an_empty_base():
    pos = table(stock="9C", piles_=piles("KH", "KS"), kbases=(0, 1, 0, 0), abases=(0, 12, 12, 0), redeals=0, rounds=1)
    # K♥ could end its Ace base but may only start the empty King base; K♠'s King base is started.
    assert legal_moves(pos) == [Move.move(C("KH"), "pile:1", "kbase:H"), Move.deal(cards("9C"))]
    with pytest.raises(IllegalMoveError, match="round 1 is restricted"):
        play(pos, Move.move(C("KH"), "pile:1", "abase:H"))
    with pytest.raises(IllegalMoveError, match="round 1 is restricted"):
        play(pos, Move.move(C("KS"), "pile:2", "abase:S"))
    with pytest.raises(IllegalMoveError, match="the ♠ King base shows K♠ and wants a Q"):
        play(pos, Move.move(C("KS"), "pile:2", "kbase:S"))
    free = replace(pos, rounds=3)
    assert legal_moves(free) == [
        Move.move(C("KH"), "pile:1", "kbase:H"),
        Move.move(C("KH"), "pile:1", "abase:H"),
        Move.move(C("KS"), "pile:2", "abase:S"),
        Move.deal(cards("9C")),
    ]


def test_restriction_parameters():
    pos = table(piles_=piles("2C"), kbases=(0, 0, 0, 0), abases=(1, 0, 0, 0), redeals=0, rounds=3)
    assert not restricted(pos)
    three = replace(NAPOLEAO, restricted_rounds=3)
    assert restricted(replace(pos, variant=three))
    none = replace(NAPOLEAO, restricted_rounds=0)
    assert not restricted(replace(pos, variant=none, rounds=1))
    # After a redeal the restriction comes back only with restricted_again.
    again = replace(NAPOLEAO, restricted_again=True)
    assert not restricted(replace(pos, rounds=1, redeals=1))
    assert restricted(replace(pos, variant=again, rounds=1, redeals=1))
    assert not restricted(replace(pos, variant=again, rounds=0, redeals=1))


def test_restriction_again_after_a_redeal_can_lose_the_game():
    pos = table(piles_=piles("2D AD"), kbases=(13, 13, 13, 11), redeals=1, rounds=9)
    assert legal_moves(pos) == [Move.redeal()]
    pos = play(pos, Move.redeal())
    assert pos.stock == tuple(cards("2D AD"))
    assert search(pos)[:2] == ("won", 104)
    again = replace(pos, variant=replace(NAPOLEAO, restricted_again=True))
    assert search(again) == ("lost", 102, [])


# --------------------------------------------------------------------------
# Base moves.


def test_middle_card_fits_both_bases():
    pos = table(piles_=piles("8C 7C"), kbases=(6, 13, 13, 13), abases=(6, 13, 13, 13))
    down = Move.move(C("7C"), "pile:1", "kbase:C")
    up = Move.move(C("7C"), "pile:1", "abase:C")
    assert legal_moves(pos) == [down, up]
    a, b = play(pos, down), play(pos, up)
    assert (a.kbases[0], a.abases[0]) == (7, 6) and (b.kbases[0], b.abases[0]) == (6, 7)
    assert a.piles[0] == b.piles[0] == (C("8C"),)
    assert legal_moves(a) == []  # the 8♣ wants the Ace base's 7
    assert legal_moves(b) == [Move.move(C("8C"), "pile:1", "abase:C")]


def test_ace_ends_a_king_base_and_king_ends_an_ace_base():
    pos = table(piles_=piles("AH", "KD"), kbases=(13, 13, 12, 13), abases=(13, 13, 13, 12))
    assert legal_moves(pos) == [Move.move(C("AH"), "pile:1", "kbase:H"), Move.move(C("KD"), "pile:2", "abase:D")]
    won = replay(pos, legal_moves(pos))
    assert won.won and is_won(won) and won.score == 104 and legal_moves(won) == []


def test_legal_moves_order_and_base_order():
    pos = table(stock="5S", piles_=piles("QC", "", "KH AS"), kbases=(1, 0, 0, 0), abases=(12, 0, 0, 0), rounds=4)
    assert legal_moves(pos) == [
        Move.move(C("QC"), "pile:1", "kbase:C"),
        Move.move(C("AS"), "pile:3", "abase:S"),
        Move.deal(cards("5S")),
    ]


# --------------------------------------------------------------------------
# Redeals.


def test_redeal_gathers_pile_one_first_by_default():
    pos = table(piles_=piles("2C 3C", "", "4C", "5C 6C 7C"), kbases=(0,) * 4, abases=(0,) * 4, redeals=0, rounds=9)
    after = play(pos, Move.redeal())
    assert after.stock == tuple(cards("2C 3C 4C 5C 6C 7C"))
    assert after.piles == EMPTY and after.rounds == 0 and after.redeals == 1
    assert not restricted(play(after, Move.deal(after.stock)))


def test_redeal_gathers_pile_twelve_first_with_deal_from_pile_12():
    v = replace(NAPOLEAO, deal_from="pile-12")
    pos = table(
        piles_=piles("2C 3C", "", "4C", "5C 6C 7C")[:11] + ((C("8C"), C("9C")),),
        kbases=(0,) * 4,
        abases=(0,) * 4,
        redeals=0,
        rounds=9,
        variant=v,
    )
    after = play(pos, Move.redeal())
    assert after.stock == tuple(cards("8C 9C 5C 6C 7C 4C 2C 3C"))


def test_cards_played_home_leave_no_gap_in_the_gathered_pack():
    pos = NapoleaoPosition.start(Deal.from_number(5, decks=2), NAPOLEAO)
    while pos.stock:
        moves = legal_moves(pos)
        base = [m for m in moves if m.action == "move"]
        pos = play(pos, base[0] if base else moves[-1])
    while any(m.action == "move" for m in legal_moves(pos)):
        pos = play(pos, legal_moves(pos)[0])
    assert pos.score > 2  # some cards went home out of the piles
    assert legal_moves(pos) == [Move.redeal()]
    gathered = play(pos, Move.redeal())
    assert gathered.stock == tuple(c for p in pos.piles for c in p)
    assert len(gathered.stock) == 104 - pos.score
    assert all_cards(gathered) == TWO_DECKS


def test_redeal_limit():
    pos = table(piles_=piles("2D AD"), kbases=(13, 13, 13, 11), redeals=0, rounds=9)
    pos = play(pos, Move.redeal())
    pos = play(pos, Move.deal(pos.stock))
    pos = play(pos, Move.redeal())
    assert pos.redeals == 2
    pos = play(pos, Move.deal(pos.stock))
    assert legal_moves(pos) == [Move.move(C("2D"), "pile:1", "kbase:D")]
    last = replace(pos, piles=piles("2D AD"))
    assert legal_moves(last) == []
    with pytest.raises(
        IllegalMoveError, match=r"no redeal left: 2 redeals allowed, 2 made \(this is the last pass, 3 of 3\)"
    ):
        play(last, Move.redeal())
    one = replace(last, variant=replace(NAPOLEAO, redeals=3))
    assert legal_moves(one) == [Move.redeal()]
    none = replace(last, variant=replace(NAPOLEAO, redeals=0), redeals=0)
    with pytest.raises(IllegalMoveError, match="deals the pack once: there is no redeal"):
        play(none, Move.redeal())


def test_redeal_is_allowed_while_cards_could_still_go_home():
    pos = table(piles_=piles("2D", "AD"), kbases=(13, 13, 13, 11), redeals=0, rounds=9)
    assert legal_moves(pos) == [Move.move(C("2D"), "pile:1", "kbase:D"), Move.redeal()]
    assert play(pos, Move.redeal()).stock == tuple(cards("2D AD"))


def test_the_sheet_deals_and_redeals_only_when_no_card_fits():
    """paciencia-napoleao: "Retiradas todas as cartas possíveis ... o jogador
    distribuirá": no round and no redeal while a playable card fits a base."""
    pos = table("9H", piles("7C"), kbases=(6, 13, 13, 13), abases=(6, 13, 13, 13), rounds=5, variant=SHEET)
    assert legal_moves(pos) == [Move.move(C("7C"), "pile:1", "kbase:C"), Move.move(C("7C"), "pile:1", "abase:C")]
    text = rejects_move(pos, Move.deal(cards("9H")))
    assert "7♣ on pile 1 still fits kbase:C" in text and "only when no playable card fits a base" in text
    after = play(pos, Move.move(C("7C"), "pile:1", "abase:C"))
    assert legal_moves(after) == [Move.deal(cards("9H"))]
    # The redeal waits as well; the free rules deal and redeal at any time.
    end = table(piles_=piles("2D", "AD"), kbases=(13, 13, 13, 11), redeals=0, rounds=9, variant=SHEET)
    assert legal_moves(end) == [Move.move(C("2D"), "pile:1", "kbase:D")]
    assert "2♦ on pile 1 still fits kbase:D" in rejects_move(end, Move.redeal())
    assert Move.redeal() in legal_moves(replace(end, variant=NAPOLEAO))
    assert Move.deal(cards("9H")) in legal_moves(replace(pos, variant=NAPOLEAO))


def test_the_sheet_in_a_restricted_round_waits_only_for_kings_and_aces():
    """In rounds 1 and 2 only a King or an Ace that starts a base may leave,
    so only such a card holds the next round back."""
    pos = table(
        "9H 9H", piles("QC", "KS"), kbases=(1, 0, 13, 13), abases=(0, 1, 13, 13), redeals=0, rounds=1, variant=SHEET
    )
    assert legal_moves(pos) == [Move.move(C("KS"), "pile:2", "kbase:S")]
    pos = play(pos, Move.move(C("KS"), "pile:2", "kbase:S"))
    assert legal_moves(pos) == [Move.deal(cards("9H 9H"))]  # the Q♣ waits for round 3


def rejects_move(pos: NapoleaoPosition, move: Move) -> str:
    with pytest.raises(IllegalMoveError) as info:
        play(pos, move)
    return str(info.value)


# --------------------------------------------------------------------------
# The end of the game.


def test_game_over_lost_and_won():
    stuck = table(piles_=piles("2D AD"), kbases=(13, 13, 13, 11), redeals=2, rounds=9)
    assert legal_moves(stuck) == [] and not stuck.won and not is_won(stuck) and stuck.score == 102
    full = table()
    assert full.won and is_won(full) and score(full) == 104 and legal_moves(full) == []
    with pytest.raises(IllegalMoveError, match="the piles are empty: nothing to redeal"):
        play(table(redeals=0), Move.redeal())


# --------------------------------------------------------------------------
# Illegal moves.


@pytest.mark.parametrize(
    "move, reason",
    [
        (Move.turn(cards("9H")), "unknown action 'turn'; actions are deal, redeal, move"),
        (Move.move(C("9H"), "pile:13", "abase:H"), "unknown source place 'pile:13'; places are pile:1..pile:12"),
        (Move.move(C("9H"), "waste", "abase:H"), "unknown source place 'waste'"),
        (Move.move(C("9H"), "pile:1", "corner"), "unknown destination place 'corner'"),
        (Move.move(C("9H"), "pile:1", "foundation:H"), "unknown destination place 'foundation:H'"),
        (Move.move(C("8H"), "abase:H", "kbase:H"), "cards on the bases never move again"),
        (Move.move(C("9H"), "pile:1", "pile:2"), "cards never move between piles"),
        (Move.move(C("9H"), "pile:1", "abase:S"), "a base takes only its own suit: 9♥ goes on kbase:H or abase:H"),
        (Move.move(C("9H"), "pile:3", "abase:H"), "pile 3 is empty"),
        (Move.move(C("5H"), "pile:1", "abase:H"), "the top of pile 1 is 9♥"),
        (Move.move(C("9H"), "pile:1", "kbase:H"), "the ♥ King base shows 5♥ and wants a 4"),
        (Move.move(C("JC"), "pile:2", "kbase:C"), "the empty ♣ King base takes only a K"),
        (Move.move(C("JC"), "pile:2", "abase:C"), "the ♣ Ace base is full"),
        (Move.move("9H", "pile:1", "abase:H"), "'9H' is not a card"),
        (Move.deal(cards("7S 6S")), "the next 2 cards of the stock are 6♠ 7♠"),
        (Move.redeal(), "the stock still holds 2 cards: deal them first"),
        ("deal", "'deal' is not a Move"),
    ],
)
def test_illegal_moves_say_why(move, reason):
    pos = table(stock="6S 7S", piles_=piles("5H 9H", "JC"), kbases=(0, 13, 9, 13), abases=(13, 13, 8, 13), rounds=5)
    assert legal_moves(pos) == [Move.move(C("9H"), "pile:1", "abase:H"), Move.deal(cards("6S 7S"))]
    with pytest.raises(IllegalMoveError) as info:
        play(pos, move)
    text = str(info.value)
    assert reason in text and info.value.reason in text
    assert text.startswith(napoleao._describe(move) + ": ")
    assert info.value.move is move


def test_play_leaves_the_position_unchanged():
    pos = table(stock="6S 7S", piles_=piles("5H 9H"), kbases=(13, 13, 9, 13), abases=(13, 13, 8, 13))
    before = (pos.stock, pos.piles, pos.abases, pos.moves_played)
    after = play(pos, Move.move(C("9H"), "pile:1", "abase:H"))
    assert (pos.stock, pos.piles, pos.abases, pos.moves_played) == before
    assert after.abases == (13, 13, 9, 13) and after.piles[0] == (C("5H"),) and after.moves_played == 1


# --------------------------------------------------------------------------
# Replay.


def test_replay_a_json_line():
    deal = Deal.from_number(1, decks=2)
    start = NapoleaoPosition.start(deal, NAPOLEAO)
    first = [str(c) for c in start.stock[:12]]
    line = [
        {"action": "deal", "cards": first},
        {"action": "move", "card": "KC", "from": "pile:6", "to": "kbase:C"},
        {"action": "deal", "cards": [str(c) for c in start.stock[12:24]]},
    ]
    pos = replay(start, line)
    assert pos.kbases == (1, 0, 1, 0) and pos.rounds == 2 and pos.moves_played == 3
    assert [m.to_json() for m in pos.history] == line
    assert pos.piles[5] == (start.stock[17],)  # K♣ gone, the next round's card alone
    bad = line + [{"action": "move", "card": "KC", "from": "pile:7", "to": "kbase:C"}]
    with pytest.raises(IllegalMoveError, match=r"^move 4 \(K♣ pile:7 → kbase:C\): the top of pile 7 is "):
        replay(start, bad)
    with pytest.raises(IllegalMoveError, match=r"^move 2: unknown place 'pile:0'"):
        replay(start, [line[0], {"action": "move", "card": "KC", "from": "pile:0", "to": "kbase:C"}])
    with pytest.raises(IllegalMoveError, match=r"^move 1 \(deal 9♥\): the next 12 cards of the stock are 3♦ 5♥ J♣"):
        replay(start, [{"action": "deal", "cards": ["9H"]}])


# --------------------------------------------------------------------------
# The table as text.


def test_str_shows_the_ring_the_bases_and_the_state():
    pos = NapoleaoPosition.start(Deal.from_number(1, decks=2), NAPOLEAO)
    text = str(pos)
    for piece in (
        "King bases  --  --  K♥  --",
        "Ace bases   --  A♠  --  --",
        "stock: 102 cards",
        "pass 1 of 3",
        "no round dealt yet",
        "score: 2/104",
        " 1: -- (0)",
        "12: -- (0)",
    ):
        assert piece in text, piece
    pos = play(pos, Move.deal(pos.stock[:12]))
    text = str(pos)
    assert " 1: 3♦ (1)" in text and " 6: K♣ (1)" in text and "10: 8♣ (1)" in text
    assert "round 1 (restricted" in text and "stock: 90 cards" in text
    lines = text.splitlines()
    # The ring: 1-4 on the top line, 12 and 5 beside the King bases, 11 and 6
    # beside the Ace bases, 10-7 on the bottom line.
    assert lines[0].split() == ["1:", "3♦", "(1)", "2:", "5♥", "(1)", "3:", "J♣", "(1)", "4:", "5♠", "(1)"]
    assert lines[1].startswith("12: ") and "King bases" in lines[1] and " 5: " in lines[1]
    assert lines[2].startswith("11: ") and "Ace bases" in lines[2] and " 6: " in lines[2]
    assert [w for w in lines[3].split() if w.endswith(":")] == ["10:", "9:", "8:", "7:"]
    later = replace(pos, rounds=3, redeals=1, kbases=(3, 0, 13, 0), abases=(0, 12, 0, 0))
    text = str(later)
    assert "round 3" in text and "restricted" not in text and "pass 2 of 3" in text
    assert "J♣" in text.splitlines()[1] and "A♥" in text.splitlines()[1] and "Q♠" in text.splitlines()[2]
    assert "score: 28/104" in text
    assert "(won)" in str(table())


# --------------------------------------------------------------------------
# Positions and search.


def test_position_key_is_exact():
    pos = table(stock="6S", piles_=piles("5H 9H"), kbases=(13, 13, 9, 13), abases=(13, 13, 8, 13))
    assert position_key(pos) == position_key(replace(pos, moves_played=7, history=(Move.redeal(),)))
    hash(position_key(pos))
    for other in (
        replace(pos, rounds=4),
        replace(pos, redeals=1),
        replace(pos, stock=()),
        replace(pos, piles=piles("9H 5H")),
        replace(pos, piles=piles("", "5H 9H")),
        replace(pos, kbases=(13, 13, 8, 13)),
        replace(pos, abases=(13, 13, 9, 13)),
    ):
        assert position_key(other) != position_key(pos)


def test_search_won_needs_the_right_base_for_a_middle_card():
    # Both 7♦ fit both bases. Sending the 7♦ of pile 1 down strands the 8♦ on the other 7♦.
    pos = table(
        stock="5D 4D 3D 2D AD 9D TD JD QD KD",
        piles_=piles("6D 7D", "7D 8D"),
        kbases=(13, 13, 13, 6),
        abases=(13, 13, 13, 6),
        redeals=2,
        rounds=3,
    )
    assert legal_moves(pos)[0] == Move.move(C("7D"), "pile:1", "kbase:D")
    verdict, best, line = search(pos)
    assert (verdict, best) == ("won", 104)
    end = replay(pos, line)
    assert end.won and end.moves_played == len(line)
    assert Move.move(C("7D"), "pile:1", "abase:D") in line
    assert replay(pos, [m.to_json() for m in line]).won


def test_search_lost_reports_the_best_score_and_a_line_to_it():
    pos = table(
        piles_=piles("2D AD", "3D", "QC KC"), kbases=(13, 13, 13, 10), abases=(11, 13, 13, 13), redeals=2, rounds=9
    )
    verdict, best, line = search(pos)
    assert (verdict, best) == ("lost", 100)
    assert replay(pos, line).score == 100 and line == [Move.move(C("3D"), "pile:2", "kbase:D")]
    # One redeal left: the gathered pack brings everything home.
    verdict, best, line = search(replace(pos, redeals=1))
    assert (verdict, best) == ("won", 104) and replay(replace(pos, redeals=1), line).won


def test_search_on_a_won_position_and_with_a_small_limit():
    assert search(table()) == ("won", 104, [])
    pos = NapoleaoPosition.start(Deal.from_number(1, decks=2), NAPOLEAO)
    verdict, best, line = search(pos, max_positions=50)
    assert verdict == "unknown" and best >= 2
    assert replay(pos, line).score == best


# --------------------------------------------------------------------------
# legal_moves and play agree; no card is lost.


def candidates(pos: NapoleaoPosition) -> list[Move]:
    """Every move worth trying: each top card to each of the eight bases, a deal, a redeal."""
    out = []
    for i, p in enumerate(pos.piles, 1):
        if p:
            out += [Move.move(p[-1], f"pile:{i}", f"{k}:{s}") for k in ("kbase", "abase") for s in SUITS]
    out.append(Move.deal(pos.stock[:12]) if pos.stock else Move.deal(cards("AC")))
    out.append(Move.redeal())
    return out


@pytest.mark.parametrize(
    "number, variant",
    [
        (1, NAPOLEAO),
        (2, replace(NAPOLEAO, deal_from="pile-12", restricted_again=True)),
        (3, replace(NAPOLEAO, start_bases=False, restricted_rounds=0)),
        (4, SHEET),
        (5, replace(SHEET, deal_from="pile-12", restricted_again=True)),
    ],
)
def test_random_games_legal_moves_agree_with_play(number, variant):
    rng = random.Random(number)
    pos = NapoleaoPosition.start(Deal.from_number(number, decks=2), variant)
    steps = 0
    while True:
        assert all_cards(pos) == TWO_DECKS
        legal = legal_moves(pos)
        accepted = []
        for move in candidates(pos):
            try:
                play(pos, move)
            except IllegalMoveError:
                continue
            accepted.append(move)
        assert accepted == legal
        if not legal:
            break
        # Mostly bring cards home (longer games), sometimes deal or redeal anyway.
        home = [m for m in legal if m.action == "move"]
        pos = play(pos, rng.choice(home if home and rng.random() < 0.9 else legal))
        steps += 1
    assert pos.moves_played == steps and len(pos.history) == steps
    assert (pos.stock == () and pos.redeals == variant.redeals) or pos.won
    assert replay(NapoleaoPosition.start(Deal.from_number(number, decks=2), variant), pos.history) == pos
