"""Deals: PySolFC deal numbers, the card-list parser and its error messages."""

from __future__ import annotations

import random

import pytest
from pysol_cards.cards import createCards
from pysol_cards.random import MTRandom, shuffle
from pysol_cards.random_base import RandomBase

import solver.deals
from solver import core
from solver._core import ffi, lib
from solver.cards import DECK, Card, CardError
from solver.deals import LC_LIMIT, MAX_NUMBER, Deal, DealError

# ---------------------------------------------------------------------------
# Known deals (first cards turned), from the rules file
# ---------------------------------------------------------------------------

KNOWN_PREFIXES = {
    1: "JD 2D 9H JC 5D 7H 7C 5H",
    24: "4C 5H QC 5D 2D 7H AH 7S 2C QH",
    32000: "7S 4D JS 8D",
    123456: "3D 2D 2C 9C AC 6H 4C KC",
    999999: "JC JH 6H 2D KD TD",
    300000000000: "4S QS TH 5S QH 6C 9C KH",
}


@pytest.mark.parametrize("number", sorted(KNOWN_PREFIXES))
def test_known_prefixes(number: int) -> None:
    deal = Deal.from_number(number)
    expected = KNOWN_PREFIXES[number].split()
    assert [str(c) for c in deal.cards[: len(expected)]] == expected
    assert str(deal).startswith(KNOWN_PREFIXES[number] + " ")
    assert deal.number == number
    assert len(deal) == 52 and sorted(deal) == sorted(DECK)


# ---------------------------------------------------------------------------
# Agreement with pysol-cards
# ---------------------------------------------------------------------------


def _as_ours(pysol_cards: list) -> tuple[Card, ...]:
    """pysol-cards' shuffled list (bottom of the talon first) as our turning order."""
    return tuple(Card(c.rank, "CSHD"[c.suit]) for c in reversed(pysol_cards))


def _pysol_cards_deal(number: int) -> tuple[Card, ...]:
    return _as_ours(shuffle(createCards(1), number, RandomBase.DEALS_PYSOLFC))


def _numbers_to_compare() -> list[int]:
    rng = random.Random(20240601)
    numbers = set(range(1, 1001))
    numbers |= set(range(31900, 32000)) | set(range(32001, 32100))
    numbers |= {rng.randrange(1, LC_LIMIT) for _ in range(100)}
    numbers |= {rng.randrange(LC_LIMIT + 1, 10**6) for _ in range(100)}
    # Every order of magnitude up to 10**20, and each edge of it.
    for digits in range(5, 21):
        low, high = 10 ** (digits - 1), 10**digits
        numbers |= {max(low, 32001), high - 1, high}
        numbers |= {rng.randrange(max(low, 32001), high) for _ in range(10)}
    numbers |= {MAX_NUMBER, MAX_NUMBER - 1, 2**32, 2**32 - 1, 2**64, 2**64 + 1}
    numbers.discard(32000)
    return sorted(n for n in numbers if 1 <= n <= MAX_NUMBER)


def test_agrees_with_pysol_cards() -> None:
    numbers = _numbers_to_compare()
    assert len(numbers) >= 1000
    assert min(numbers) == 1 and max(numbers) == MAX_NUMBER
    mismatches = [n for n in numbers if Deal.from_number(n).cards != _pysol_cards_deal(n)]
    assert mismatches == []


def test_32000_follows_pysolfc_not_pysol_cards() -> None:
    """PySolFC deals 32000 with the Mersenne Twister; pysol-cards still with LC."""
    ours = Deal.from_number(32000).cards
    # pysol-cards' own Mersenne Twister, seeded with 32000, gives our deal ...
    mt = MTRandom(32000)
    assert _as_ours(mt.shuffle(createCards(1))) == ours
    # ... while its game-number shuffle uses the LC generator for 32000.
    lc = _pysol_cards_deal(32000)
    assert lc != ours
    assert lc == tuple(reversed(solver.deals._lc_shuffle(32000, solver.deals._fresh(1, 1))))
    # 31999 and 32001 agree: the two differ at 32000 only.
    for n in (31999, 32001):
        assert Deal.from_number(n).cards == _pysol_cards_deal(n)


def test_generator_switch() -> None:
    fresh = solver.deals._fresh
    assert solver.deals._shuffled(LC_LIMIT - 1) == solver.deals._lc_shuffle(LC_LIMIT - 1, fresh(1, 1))
    assert solver.deals._shuffled(LC_LIMIT) == solver.deals._mt_shuffle(LC_LIMIT, fresh(LC_LIMIT, 1))


def test_the_cores_shuffle_is_the_deals_own() -> None:
    """solver.core.card_indexes (the core's solver_deal, which the batch and
    the page deal with) gives deals.card_indexes's bytes for every number of
    the LC generator and for numbers of the Mersenne Twister of every size
    (one, two and three 32-bit words), of one and two decks; errors are
    deals.py's."""
    rng = random.Random(7)
    numbers = list(range(1, LC_LIMIT)) + [LC_LIMIT, LC_LIMIT + 1, 2**31, 2**32 - 1, 2**32, 2**64 - 1, 2**64]
    numbers += [10**20 - 1, 10**20] + [rng.randrange(LC_LIMIT, 10**20) for _ in range(2000)]
    for n in numbers:
        assert core.card_indexes(n) == solver.deals.card_indexes(n), n
    for n in numbers[::50]:
        assert core.card_indexes(n, 2) == solver.deals.card_indexes(n, 2), n
    for bad in (0, -5, 10**20 + 1, "7", True, 7.0):
        with pytest.raises(DealError):
            core.card_indexes(bad)
    out = ffi.new("uint8_t[]", 104)
    for text in (b"", b"0", b"-5", b"1a", b" 7", b"100000000000000000001", b"9" * 40):
        assert lib.solver_deal(text, 1, out) == -1, text
    assert lib.solver_deal(b"7", 3, out) == -1


@pytest.mark.parametrize("decks", [1, 2])
def test_card_indexes_are_those_of_the_deals_cards(decks) -> None:
    numbers = [1, 2, 7, 11982, LC_LIMIT - 1, LC_LIMIT, LC_LIMIT + 1, 10**6 + 3, 2**31, 10**20]
    for n in numbers + list(range(100, 400)):
        assert solver.deals.card_indexes(n, decks) == bytes(c.index for c in Deal.from_number(n, decks).cards)
    for bad in (0, 10**20 + 1, "7", True):
        with pytest.raises(DealError):
            solver.deals.card_indexes(bad, decks)
    with pytest.raises(DealError, match="1 or 2 decks"):
        solver.deals.card_indexes(7, 3)


# ---------------------------------------------------------------------------
# Deal numbers out of range
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "number, shown",
    [
        (0, "0"),
        (-1, "-1"),
        (-32000, "-32000"),
        (MAX_NUMBER + 1, str(MAX_NUMBER + 1)),
        (10**30, str(10**30)),
        (1.0, "1.0"),
        (True, "True"),
        (False, "False"),
        ("5", "'5'"),
        (None, "None"),
    ],
)
def test_bad_numbers(number: object, shown: str) -> None:
    with pytest.raises(DealError) as info:
        Deal.from_number(number)  # type: ignore[arg-type]
    message = str(info.value)
    assert shown in message
    assert "1 .. 100000000000000000000" in message


def test_range_edges() -> None:
    assert Deal.from_number(1).number == 1
    assert Deal.from_number(MAX_NUMBER).number == MAX_NUMBER
    assert issubclass(DealError, ValueError)


# ---------------------------------------------------------------------------
# The Deal value
# ---------------------------------------------------------------------------


def test_value_behaviour() -> None:
    deal = Deal.from_number(1)
    assert list(deal) == list(deal.cards)
    assert deal[0] == Card.parse("JD") and deal[-1] == deal.cards[51]
    assert str(deal) == " ".join(str(c) for c in deal.cards)
    assert repr(deal) == "Deal(1: JD 2D 9H JC 5D 7H …)"
    assert len(repr(deal)) < 60
    assert deal == Deal.from_number(1)
    assert hash(deal) == hash(Deal.from_number(1))
    assert deal != Deal.from_number(2)
    with pytest.raises(AttributeError):
        deal.number = 2  # type: ignore[misc]


def test_direct_construction_is_checked() -> None:
    cards = list(Deal.from_number(9).cards)
    assert Deal(tuple(cards)).number is None
    assert Deal(cards).cards == tuple(cards)  # type: ignore[arg-type]
    with pytest.raises(DealError, match="51 cards given"):
        Deal(tuple(cards[:-1]))
    with pytest.raises(DealError, match=r"card 3 .*'QH'.* not a Card"):
        Deal(tuple(cards[:2] + ["QH"] + cards[3:]))  # type: ignore[arg-type]
    with pytest.raises(DealError, match=r"Deal.parse"):
        Deal(str(Deal.from_number(9)))  # type: ignore[arg-type]
    with pytest.raises(DealError, match="out of range"):
        Deal(tuple(cards), 0)


# ---------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("number", [1, 24, 31999, 32000, 123456, MAX_NUMBER])
def test_round_trip(number: int) -> None:
    deal = Deal.from_number(number)
    parsed = Deal.parse(str(deal))
    assert parsed.cards == deal.cards
    assert parsed.number is None
    assert Deal.from_cards(deal.cards).cards == deal.cards
    assert Deal.from_cards([str(c) for c in deal]).cards == deal.cards


def test_parse_spellings() -> None:
    deal = Deal.from_number(123456)
    pretty = " ".join(c.pretty() for c in deal)  # "10♥", "J♦"
    assert "10" in pretty and "♦" in pretty
    assert Deal.parse(pretty).cards == deal.cards
    lower = ",".join(str(c).lower() for c in deal)
    assert Deal.parse(lower).cards == deal.cards
    messy = "\n  " + " ,\t".join(str(c) for c in deal) + ",\n"
    assert Deal.parse(messy).cards == deal.cards
    assert Deal.from_cards(pretty).cards == deal.cards  # a single string is parsed


@pytest.mark.parametrize("text", ["", "   ", "\n\t", ",", " , ,"])
def test_parse_empty(text: str) -> None:
    with pytest.raises(DealError, match="empty deal"):
        Deal.parse(text)
    with pytest.raises(DealError, match="empty deal"):
        Deal.from_cards(text)


def test_from_cards_empty() -> None:
    with pytest.raises(DealError, match="empty deal"):
        Deal.from_cards([])


def _tokens(number: int = 1) -> list[str]:
    return [str(c) for c in Deal.from_number(number)]


@pytest.mark.parametrize("bad", ["ZZ", "1H", "11S", "JX", "X", "J", "♦", "JDD", "0D"])
def test_unknown_card(bad: str) -> None:
    tokens = _tokens()
    tokens[4] = bad
    with pytest.raises(DealError) as info:
        Deal.parse(" ".join(tokens))
    message = str(info.value)
    assert repr(bad) in message
    assert "card 5" in message
    with pytest.raises(DealError) as info:
        Deal.from_cards(tokens)
    assert repr(bad) in str(info.value) and "card 5" in str(info.value)


def test_unknown_card_reported_before_count() -> None:
    with pytest.raises(DealError, match=r"card 2: 'QQ'"):
        Deal.parse("JD QQ")


def test_duplicate() -> None:
    tokens = _tokens()
    replaced = tokens[40]
    tokens[40] = tokens[2]  # 9H again
    with pytest.raises(DealError) as info:
        Deal.parse(" ".join(tokens))
    message = str(info.value)
    assert "duplicate card 9H at positions 3 and 41" in message
    assert f"missing: {replaced}" in message
    with pytest.raises(DealError, match="duplicate card 9H at positions 3 and 41"):
        Deal.from_cards([Card.parse(t) for t in tokens])


def test_duplicate_in_a_short_list() -> None:
    with pytest.raises(DealError) as info:
        Deal.parse("JD 2D jd")
    message = str(info.value)
    assert "duplicate card JD at positions 1 and 3" in message
    assert "3 cards given, 52 expected" in message


def test_too_few() -> None:
    tokens = _tokens()
    with pytest.raises(DealError) as info:
        Deal.parse(" ".join(tokens[:-3]))
    message = str(info.value)
    assert "49 cards given, 52 expected" in message
    missing = message.split("missing: ")[1].split()
    assert sorted(missing) == sorted(tokens[-3:])


def test_one_card() -> None:
    with pytest.raises(DealError) as info:
        Deal.parse("10♥")
    message = str(info.value)
    assert "1 cards given, 52 expected" in message
    assert "TH" not in message.split("missing: ")[1].split()
    assert len(message.split("missing: ")[1].split()) == 51


def test_too_many() -> None:
    tokens = _tokens() + ["JD"]
    with pytest.raises(DealError) as info:
        Deal.parse(" ".join(tokens))
    message = str(info.value)
    assert "53 cards given, 52 expected" in message
    assert "JD at positions 1 and 53" in message
    with pytest.raises(DealError, match="104 cards given, 52 expected"):
        Deal.from_cards(_tokens() * 2)


@pytest.mark.parametrize("value", [None, 5, b"JD 2D", 3.5])
def test_parse_not_text(value: object) -> None:
    with pytest.raises(DealError):
        Deal.parse(value)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [None, 5, b"JD 2D", 3.5])
def test_from_cards_not_a_sequence(value: object) -> None:
    with pytest.raises(DealError):
        Deal.from_cards(value)  # type: ignore[arg-type]


def test_from_cards_bad_element() -> None:
    tokens: list[object] = list(_tokens())
    tokens[7] = 17
    with pytest.raises(DealError, match=r"card 8 \(17\) is a int"):
        Deal.from_cards(tokens)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# Two decks (the two-deck games)


def test_two_deck_deals_agree_with_pysol_cards() -> None:
    for n in list(range(1, 201)) + [31999, 32000, 32001, 10**6 + 7, MAX_NUMBER]:
        theirs = tuple(
            Card(c.rank, "CSHD"[c.suit]) for c in reversed(shuffle(createCards(2), n, RandomBase.DEALS_PYSOLFC))
        )
        ours = Deal.from_number(n, 2)
        assert len(ours) == 104 and ours.decks == 2
        if n == 32000:  # PySolFC deals 32000 with the Mersenne Twister (see above)
            assert ours.cards == _as_ours(MTRandom(32000).shuffle(createCards(2)))
        else:
            assert ours.cards == theirs, n


def test_two_deck_deal_errors_name_the_problem() -> None:
    cards = list(Deal.from_number(9, 2).cards)
    assert Deal.from_cards(cards, 2).cards == tuple(cards)
    with pytest.raises(DealError, match=r"card .* appears 3 times \(positions .*\), 2 expected; missing: "):
        Deal.from_cards(cards[:-1] + [cards[0]], 2)
    with pytest.raises(DealError, match="103 cards given, 104 expected"):
        Deal.from_cards(cards[:-1], 2)
    with pytest.raises(DealError, match="52 cards given, 104 expected"):
        Deal.parse(" ".join(map(str, cards[:52])), 2)
    with pytest.raises(DealError, match="1 or 2 decks"):
        Deal(tuple(cards), None, 3)


# ---------------------------------------------------------------------------
# Found by tests/test_properties.py
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("sign", [1, -1])
def test_a_deal_number_of_thousands_of_digits_is_a_deal_error(sign: int) -> None:
    """Python writes no int of more than 4300 digits as text, so the range
    error itself raised a bare ValueError ("Exceeds the limit")."""
    with pytest.raises(DealError, match=r"deal number of about 5001 digits is out of range: deal numbers are 1 \.\."):
        Deal.from_number(sign * 10**5000)


def test_a_deal_number_text_of_thousands_of_digits_is_a_deal_error() -> None:
    """int() refuses text of more than 4300 digits: solve("999...9") raised
    a bare ValueError ("Exceeds the limit")."""
    from solver.api import to_deal

    with pytest.raises(DealError, match="deal number of 5000 digits is out of range"):
        to_deal("9" * 5000)
    assert to_deal("0" * 5000 + "7").number == 7


@pytest.mark.parametrize("value", [None, 5, b"JD", ["J", "D"]])
def test_a_card_parsed_from_something_not_text_is_a_card_error(value: object) -> None:
    """Card.parse(None) raised AttributeError ('NoneType' object has no attribute 'strip')."""
    with pytest.raises(CardError, match="is not text"):
        Card.parse(value)  # type: ignore[arg-type]
