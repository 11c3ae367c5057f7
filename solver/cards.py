"""Cards: ranks, suits and the one notation that parses and prints them.

>>> Card.parse("10h")
Card('TH')
>>> str(Card.parse("J♦")), Card.parse("JD").pretty()
('JD', 'J♦')
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import CardError as CardError
from .inputs import brief

RANKS = "A23456789TJQK"
#: PySolFC's suit order, in which a fresh deck is laid out before shuffling.
SUITS = "CSHD"
SUIT_SYMBOLS = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}
_SYMBOL_SUITS = {v: k for k, v in SUIT_SYMBOLS.items()}
# Variation selectors and the outline symbols some keyboards produce.
_SYMBOL_SUITS.update({"♧": "C", "♤": "S", "♡": "H", "♢": "D"})


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One playing card. ``rank`` is 1 (Ace) .. 13 (King); ``suit`` one of ``CSHD``.

    ``Card.index`` numbers the 52 cards as PySolFC lays out a fresh deck:
    clubs A..K, spades A..K, hearts A..K, diamonds A..K.
    """

    rank: int
    suit: str
    #: The card's number, 0..51 (read for every card of every position given to the core).
    index: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not 1 <= self.rank <= 13:
            raise CardError(f"rank {self.rank!r} is not 1..13")
        if self.suit not in SUITS:
            raise CardError(f"suit {self.suit!r} is not one of C, D, H, S")
        object.__setattr__(self, "index", SUITS.index(self.suit) * 13 + self.rank - 1)

    @classmethod
    def from_index(cls, index: int) -> Card:
        if not 0 <= index < 52:
            raise CardError(f"card index {index} is not 0..51")
        return _BY_INDEX[index]

    @classmethod
    def parse(cls, token: str) -> Card:
        """Parse ``JD``, ``10h``, ``td``, ``J♦``; raise :class:`CardError` naming the token."""
        if not isinstance(token, str):
            raise CardError(f"{brief(token)} is not text: a card is written like JD or 10♥")
        text = token.strip()
        if len(text) < 2:
            raise CardError(f"{brief(token)} is not a card (expected rank and suit, like JD or 10♥)")
        rank_text, suit_text = text[:-1].upper(), text[-1]
        suit = _SYMBOL_SUITS.get(suit_text, suit_text.upper())
        if rank_text == "10":
            rank_text = "T"
        if len(rank_text) != 1 or rank_text not in RANKS:
            raise CardError(f"{brief(token)} is not a card: unknown rank {brief(text[:-1])}")
        if suit not in SUITS:
            raise CardError(f"{brief(token)} is not a card: unknown suit {brief(suit_text)}")
        return _BY_TEXT[rank_text + suit]

    def __str__(self) -> str:
        return RANKS[self.rank - 1] + self.suit

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def pretty(self) -> str:
        """The card as a player reads it: ``10♥``, ``J♦``."""
        rank = "10" if self.rank == 10 else RANKS[self.rank - 1]
        return rank + SUIT_SYMBOLS[self.suit]


_BY_INDEX = tuple(Card(r, s) for s in SUITS for r in range(1, 14))
_BY_TEXT = {str(c): c for c in _BY_INDEX}

#: The 52 cards in PySolFC's fresh-deck order.
DECK: tuple[Card, ...] = _BY_INDEX
