"""Deals: the order in which the 52 cards of the stock are turned.

A deal comes from a *deal number* -- PySolFC's game number for Napoleon's
Tomb, so a player can type the same number into PySolFC and see the same
cards -- or from a list of cards written out by hand.

>>> deal = Deal.from_number(1)
>>> str(deal).split()[:8]
['JD', '2D', '9H', 'JC', '5D', '7H', '7C', '5H']
>>> Deal.parse(str(deal)).cards == deal.cards
True

Deal numbers
------------
Numbers run from :data:`MIN_NUMBER` (1) to :data:`MAX_NUMBER` (``10**20``,
PySolFC's ``MAX_SEED``), both included.  Like PySolFC:

* the deck starts in PySolFC's fresh order (clubs, spades, hearts, diamonds,
  each A..K, see :data:`solver.cards.DECK`);
* numbers below :data:`LC_LIMIT` (1 .. 31999) use the Microsoft FreeCell
  linear congruential generator, after re-ordering the deck the way FreeCell
  lays it out (A♣ A♦ A♥ A♠ 2♣ 2♦ ...);
* every other number (32000 .. 10**20) uses the Mersenne Twister of Python's
  :class:`random.Random` seeded with the number, drawing each swap with
  ``int(random() * (i + 1))`` (not with ``randrange``);
* both shuffle from the end of the list towards the front, and the **last**
  card of the shuffled list is the top of the talon, so it is turned first.

PySolFC itself calls its LC generator for 0 as well, but 0 is not a game
number a player can reach (and pysol-cards refuses it), so it is refused here.
The package pysol-cards switches generator one number later than PySolFC
(it still uses the LC generator for 32000); this module follows PySolFC.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from .cards import DECK, Card, CardError
from .errors import DealError as DealError
from .inputs import brief

#: The smallest deal number.
MIN_NUMBER = 1
#: The largest deal number: PySolFC's ``MAX_SEED``.
MAX_NUMBER = 10**20
#: Numbers below this use the LC generator, the others the Mersenne Twister.
LC_LIMIT = 32000
#: Cards in a deal.
DECK_SIZE = 52

T = TypeVar("T")

_SEPARATORS = re.compile(r"[\s,]+")


# ---------------------------------------------------------------------------
# The two generators
# ---------------------------------------------------------------------------

#: The fresh deck re-ordered as Microsoft FreeCell numbers its cards: rank by
#: rank, and within a rank clubs, diamonds, hearts, spades.
_FREECELL_ORDER: tuple[Card, ...] = tuple(Card(rank, suit) for rank in range(1, 14) for suit in "CDHS")


def _fresh(number: int, decks: int) -> list[Card]:
    """The cards the shuffle of ``number`` starts from: ``decks`` fresh decks
    one after the other (clubs A..K .. diamonds A..K), but one deck that the
    LC generator shuffles, which PySolFC first re-orders as Microsoft's
    FreeCell numbers its cards (pysol-cards' ms_rearrange)."""
    return list(_FREECELL_ORDER) if decks == 1 and number < LC_LIMIT else list(DECK) * decks


def _lc_shuffle(number: int, items: list[T]) -> list[T]:
    """PySolFC's shuffle with its LC generator (``LCRandom31``), for small
    numbers, of ``items`` (in place).

    The generator is Microsoft's ``rand()``: ``state = state * 214013 + 2531011``
    and the draw is bits 16..30 of the state.  For the numbers used here
    (below 2**31) the 33-bit state mask PySolFC uses changes nothing visible.
    """
    state = number
    for i in range(len(items) - 1, 0, -1):
        state = (state * 214013 + 2531011) & 0x1FFFFFFFF
        j = ((state >> 16) & 0x7FFF) % (i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def _mt_shuffle(number: int, items: list[T]) -> list[T]:
    """PySolFC's shuffle with its Mersenne Twister generator (``MTRandom``),
    of ``items`` (in place)."""
    draw = random.Random(number).random
    for i in range(len(items) - 1, 0, -1):
        j = int(draw() * (i + 1))
        items[i], items[j] = items[j], items[i]
    return items


def _shuffle(number: int, items: list[T]) -> list[T]:
    return _lc_shuffle(number, items) if number < LC_LIMIT else _mt_shuffle(number, items)


def _shuffled(number: int, decks: int = 1) -> list[Card]:
    """The talon as PySolFC builds it for ``number``: bottom card first."""
    return _shuffle(number, _fresh(number, decks))


#: The indexes (Card.index) of the cards _fresh lays, by the generator (LC:
#: True) and the decks.
_FRESH_INDEXES = {
    (lc, decks): [c.index for c in _fresh(1 if lc else LC_LIMIT, decks)] for lc in (True, False) for decks in (1, 2)
}


def card_indexes(number: int, decks: int = 1) -> bytes:
    """The :attr:`Card.index` of each card of ``Deal.from_number(number,
    decks)``, in turning order, shuffled as that deal's cards are but
    without making them: for a batch, whose core takes the indexes."""
    _check_number(number)
    if decks not in (1, 2):
        raise DealError(f"a deal has 1 or 2 decks, not {brief(decks)}")
    return bytes(reversed(_shuffle(number, list(_FRESH_INDEXES[number < LC_LIMIT, decks]))))


# ---------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------


def _card_list(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in cards)


def _check_deck(cards: Sequence[Card], decks: int = 1) -> None:
    """Raise :class:`DealError` unless ``cards`` holds each of the 52 cards
    exactly ``decks`` times.

    Positions in messages count from 1 in turning order.
    """
    if decks != 1:
        _check_decks(cards, decks)
        return
    if not cards:
        raise DealError(f"empty deal: expected {DECK_SIZE} cards in turning order, got none")
    first_seen: dict[Card, int] = {}
    duplicate: tuple[Card, int, int] | None = None
    for position, card in enumerate(cards, 1):
        if card in first_seen:
            if duplicate is None:
                duplicate = (card, first_seen[card], position)
        else:
            first_seen[card] = position
    missing = [c for c in DECK if c not in first_seen]
    count = len(cards)

    def duplicate_text() -> str:
        assert duplicate is not None
        card, first, second = duplicate
        return f"duplicate card {card} at positions {first} and {second}"

    if count > DECK_SIZE:
        text = f"{count} cards given, {DECK_SIZE} expected"
        if duplicate is not None:
            text += f" ({duplicate_text()})"
        raise DealError(text)
    if duplicate is not None:
        text = duplicate_text()
        if count < DECK_SIZE:
            text += f"; {count} cards given, {DECK_SIZE} expected"
        raise DealError(f"{text}; missing: {_card_list(missing)}")
    if count < DECK_SIZE:
        raise DealError(f"{count} cards given, {DECK_SIZE} expected; missing: {_card_list(missing)}")


def _check_decks(cards: Sequence[Card], decks: int) -> None:
    """The check for a pack of several decks: each card exactly ``decks`` times."""
    want = DECK_SIZE * decks
    if not cards:
        raise DealError(f"empty deal: expected {want} cards ({decks} decks) from the top of the pack, got none")
    seen: dict[Card, list[int]] = {}
    for position, card in enumerate(cards, 1):
        seen.setdefault(card, []).append(position)
    extra = [(c, p) for c, p in seen.items() if len(p) > decks]
    missing = [c for c in DECK for _ in range(decks - len(seen.get(c, ())))]
    problems = []
    if len(cards) != want:
        problems.append(f"{len(cards)} cards given, {want} expected ({decks} decks)")
    if extra:
        card, where = extra[0]
        problems.append(
            f"card {card} appears {len(where)} times (positions {', '.join(map(str, where))}), {decks} expected"
        )
    if missing:
        problems.append(f"missing: {_card_list(missing)}")
    if problems:
        raise DealError("; ".join(problems))


def _to_card(item: object, position: int) -> Card:
    """One element of a card list: a :class:`Card` or a card token."""
    if isinstance(item, Card):
        return item
    if isinstance(item, str):
        try:
            return Card.parse(item)
        except CardError as error:
            raise DealError(f"card {position}: {error}") from None
    raise DealError(f"card {position} ({brief(item)}) is a {type(item).__name__}, not a card or card text")


# ---------------------------------------------------------------------------
# Deal
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Deal:
    """The 52 cards of the stock in the order they are turned, first turned first.

    ``number`` is the deal number the cards came from, or ``None`` for a deal
    given as cards.  Building a ``Deal`` directly checks the cards as
    :meth:`from_cards` does.

    >>> deal = Deal.from_number(24)
    >>> len(deal), deal.number, deal[0]
    (52, 24, Card('4C'))
    >>> deal
    Deal(24: 4C 5H QC 5D 2D 7H …)
    """

    cards: tuple[Card, ...]
    number: int | None = field(default=None)
    #: Decks in the pack: 1 for Napoleon's Tomb, 2 for the two-deck games
    #: (whose ``cards`` are the shuffled pack from its top).
    decks: int = field(default=1)

    def __post_init__(self) -> None:
        cards = self.cards
        if not isinstance(cards, tuple):
            if isinstance(cards, (str, bytes)) or not isinstance(cards, Iterable):
                raise DealError(
                    f"Deal cards must be a sequence of Card, not {type(cards).__name__} (use Deal.parse for text)"
                )
            cards = tuple(cards)
        for position, card in enumerate(cards, 1):
            if not isinstance(card, Card):
                raise DealError(
                    f"card {position} ({brief(card)}) is a {type(card).__name__}, not a Card"
                    " (use Deal.from_cards for card texts)"
                )
        if self.decks not in (1, 2):
            raise DealError(f"a deal has 1 or 2 decks, not {brief(self.decks)}")
        _check_deck(cards, self.decks)
        object.__setattr__(self, "cards", cards)
        if self.number is not None:
            _check_number(self.number)

    # -- construction -------------------------------------------------------

    @classmethod
    def from_number(cls, number: int, decks: int = 1) -> Deal:
        """Deal ``number``: PySolFC's game ``number`` of Napoleon's Tomb.

        ``number`` is an ``int`` from 1 to 10**20; anything else raises
        :class:`DealError` naming the number and the range.

        >>> " ".join(str(c) for c in Deal.from_number(32000).cards[:4])
        '7S 4D JS 8D'
        >>> Deal.from_number(0)
        Traceback (most recent call last):
        ...
        solver.errors.DealError: deal number 0 is out of range: deal numbers are 1 .. 100000000000000000000 (10**20)
        """
        _check_number(number)
        if decks not in (1, 2):
            raise DealError(f"a deal has 1 or 2 decks, not {brief(decks)}")
        # A shuffle of fresh decks holds each card `decks` times: nothing to check.
        deal = object.__new__(cls)
        object.__setattr__(deal, "cards", tuple(reversed(_shuffled(number, decks))))
        object.__setattr__(deal, "number", number)
        object.__setattr__(deal, "decks", decks)
        return deal

    @classmethod
    def parse(cls, text: str, decks: int = 1) -> Deal:
        """Read a deal written as card tokens in turning order.

        Tokens are separated by white space and/or commas; each is read by
        :meth:`Card.parse` (``JD``, ``10h``, ``td``, ``J♦``).  Errors raise
        :class:`DealError` naming the token and its position (counted from 1).

        >>> deal = Deal.parse(str(Deal.from_number(7)))
        >>> deal == Deal.from_number(7), deal.number
        (False, None)
        >>> Deal.parse("JD, 2d 10H")
        Traceback (most recent call last):
        ...
        solver.errors.DealError: 3 cards given, 52 expected; missing: AC 2C 3C ... 9H JH QH KH AD 3D ... 9D TD QD KD
        """
        if not isinstance(text, str):
            raise DealError(f"a deal to parse must be text, not {type(text).__name__}")
        tokens = [t for t in _SEPARATORS.split(text) if t]
        if not tokens:
            raise DealError(f"empty deal: expected {DECK_SIZE * decks} cards in turning order, got none")
        return cls.from_cards(tokens, decks)

    @classmethod
    def from_cards(cls, cards: Iterable[Card | str] | str, decks: int = 1) -> Deal:
        """A deal from cards (or card texts) in turning order, checked to be one deck.

        A single string is read with :meth:`parse`.

        >>> cards = list(Deal.from_number(5))
        >>> Deal.from_cards(cards).cards == tuple(cards)
        True
        >>> Deal.from_cards(cards[:-1] + [cards[0]])
        Traceback (most recent call last):
        ...
        solver.errors.DealError: duplicate card AH at positions 1 and 52; missing: TS
        """
        if isinstance(cards, str):
            return cls.parse(cards, decks)
        if isinstance(cards, bytes) or not isinstance(cards, Iterable):
            raise DealError(f"cards must be a sequence of cards or card texts, not {type(cards).__name__}")
        return cls(tuple(_to_card(item, i) for i, item in enumerate(cards, 1)), None, decks)

    # -- container behaviour ------------------------------------------------

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __getitem__(self, index: int) -> Card:
        return self.cards[index]

    def __str__(self) -> str:
        return _card_list(self.cards)

    def __repr__(self) -> str:
        label = "cards" if self.number is None else str(self.number)
        return f"Deal({label}: {_card_list(self.cards[:6])} …)"


#: An error names an out-of-range deal number of up to this many digits, and
#: only the count of digits of a longer one.
SHOWN_DIGITS = 40


def _check_number(number: object) -> None:
    """Raise :class:`DealError` unless ``number`` is an int deal number."""
    allowed = f"deal numbers are {MIN_NUMBER} .. {MAX_NUMBER} (10**20)"
    if isinstance(number, bool) or not isinstance(number, int):
        raise DealError(f"deal number {brief(number)} is a {type(number).__name__}, not a whole number: {allowed}")
    if not MIN_NUMBER <= number <= MAX_NUMBER:
        # An int of more than 4300 digits cannot even be written as text.
        digits = int(number.bit_length() * 0.30103) + 1
        shown = number if abs(number) < 10**SHOWN_DIGITS else f"of about {digits} digits"
        raise DealError(f"deal number {shown} is out of range: {allowed}")


def number_from_text(text: str) -> int:
    """The deal number written in ``text`` (ASCII digits, white space around
    them allowed); raise :class:`DealError` for anything else.

    >>> number_from_text(" 0042 ")
    42
    >>> number_from_text("9" * 5000)
    Traceback (most recent call last):
    ...
    solver.errors.DealError: deal number of 5000 digits is out of range: deal numbers are 1 .. ...0 (10**20)
    """
    if not isinstance(text, str):
        raise DealError(f"a deal number's text is a string, not {brief(text)}")
    digits = text.strip()
    if not (digits.isascii() and digits.isdigit()):
        raise DealError(f"deal number {brief(text)} is not a whole number (1..10**20)")
    # int() refuses more than 4300 digits; leading zeros do not count. Up to
    # SHOWN_DIGITS digits, _check_number names the number itself.
    significant = digits.lstrip("0")
    if len(significant) > SHOWN_DIGITS:
        raise DealError(
            f"deal number of {len(significant)} digits is out of range: deal numbers are"
            f" {MIN_NUMBER} .. {MAX_NUMBER} (10**20)"
        )
    number = int(significant or "0")
    _check_number(number)
    return number
