"""Moves and positions of the Napoleon's Tomb family, as plain immutable values.

The rules that say which moves are legal live in :mod:`solver.rules.tomb`
(the pure-Python reference engine); this module only holds the data and its
notation.

>>> m = Move.move(Card.parse("8H"), "waste", "cell")
>>> str(m), m.to_json()
('8♥ waste → cell', {'action': 'move', 'card': '8H', 'from': 'waste', 'to': 'cell'})
>>> Move.from_json({"action": "turn", "cards": ["9C"]})
Move.turn(9C)
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from collections.abc import Iterable
from typing import Any, TypeGuard

from .inputs import brief, check_depth
from .errors import SolverError
from .cards import Card, CardError
from .deals import Deal
from .variants import TombVariant

#: Places a card can be moved from or to (the solution format's names).
PLACES = ("stock", "waste", "cell", "reserve", "corner", "tomb")
FOUNDATIONS = ("corner", "tomb")

#: Indexed places of the two-deck games: kind -> the indexes allowed.
#: ``pile:3``, ``kbase:H``, ``lid:2``, ``reserve:1``, ``foundation:S``...
INDEXED_PLACES = {
    "pile": tuple(str(i) for i in range(1, 13)),
    "kbase": tuple("CSHD"),
    "abase": tuple("CSHD"),
    "lid": tuple(str(i) for i in range(1, 6)),
    "side": tuple(str(i) for i in range(1, 5)),
    "bottom": tuple(str(i) for i in range(1, 5)),
    "reserve": tuple(str(i) for i in range(1, 4)),
    "foundation": tuple("CSHD"),
}


def is_place(text: object) -> TypeGuard[str]:
    """A place name of the solution format: ``waste``, ``pile:3``, ``kbase:H``..."""
    if not isinstance(text, str):
        return False
    if text in PLACES:
        return True
    kind, sep, index = text.partition(":")
    return bool(sep) and index in INDEXED_PLACES.get(kind, ())


def place_kind(place: str) -> str:
    """``pile`` of ``pile:3``; a place without an index is its own kind."""
    return place.partition(":")[0]


def place_index(place: str) -> str:
    """``3`` of ``pile:3``, ``H`` of ``kbase:H``; ``""`` for a place without an index."""
    return place.partition(":")[2]


class MoveError(SolverError, ValueError):
    """A move that cannot be read, or cannot be played where it is played."""


class IllegalMoveError(MoveError):
    """A well-formed move that the rules do not allow in the position.

    ``move``: the move as it was given (a :class:`Move`, or what was given in
    its place); ``reason``: why the rules refuse it, without the move's name
    (the message says both); ``number``: its 1-based number in the line
    replayed, or ``None`` for a move played by itself.
    """

    def __init__(self, message: str, move: object = None, reason: str | None = None,
                 number: int | None = None) -> None:
        super().__init__(message)
        self.move = move
        self.reason = message if reason is None else reason
        self.number = number


@dataclass(frozen=True, slots=True)
class Move:
    """One move: ``turn`` (cards from the stock), ``redeal`` or ``move`` (one card);
    in the two-deck games also ``deal`` (a round onto the piles) and ``jewel``
    (a jewel turned into a space: ``card`` and ``dst``)."""

    action: str
    cards: tuple[Card, ...] = ()
    card: Card | None = None
    src: str | None = None
    dst: str | None = None
    #: The JSON text of to_json, once made (:meth:`text`): a line's moves
    #: are few distinct objects (solver.core keeps one a move).
    _text: str | None = field(default=None, init=False, compare=False, repr=False)

    @classmethod
    def turn(cls, cards: Iterable[Card]) -> Move:
        return cls("turn", cards=tuple(cards))

    @classmethod
    def redeal(cls) -> Move:
        return cls("redeal")

    @classmethod
    def deal(cls, cards: Iterable[Card]) -> Move:
        return cls("deal", cards=tuple(cards))

    @classmethod
    def jewel(cls, card: Card, dst: str) -> Move:
        return cls("jewel", card=card, dst=dst)

    @classmethod
    def move(cls, card: Card, src: str, dst: str) -> Move:
        return cls("move", card=card, src=src, dst=dst)

    def to_json(self) -> dict[str, Any]:
        if self.action in ("turn", "deal"):
            return {"action": self.action, "cards": [str(c) for c in self.cards]}
        if self.action == "redeal":
            return {"action": "redeal"}
        if self.action == "jewel":
            return {"action": "jewel", "card": str(self.card), "to": self.dst}
        return {"action": "move", "card": str(self.card), "from": self.src, "to": self.dst}

    def text(self) -> str:
        """The JSON text of :meth:`to_json`."""
        text = self._text
        if text is None:
            if self.action in ("turn", "deal"):
                # Card names are letters and digits: JSON strings as they are.
                cards = ", ".join(f'"{c}"' for c in self.cards)
                text = f'{{"action": "{self.action}", "cards": [{cards}]}}'
            else:
                text = json.dumps(self.to_json(), ensure_ascii=False)
            object.__setattr__(self, "_text", text)
        return text

    @classmethod
    def from_json(cls, data: Any) -> Move:
        """Read one move of the solution format; raise :class:`MoveError` saying what is wrong."""
        if not isinstance(data, dict):
            raise MoveError(f"a move must be a JSON object, not {brief(data)}")
        check_depth(data, "a move", MoveError, limit=4)
        action = data.get("action")
        try:
            if action in ("turn", "deal"):
                cards = data.get("cards")
                if not isinstance(cards, list) or not cards:
                    raise MoveError(f"a {action} needs a non-empty list 'cards': {brief(data)}")
                return cls(action, cards=tuple(Card.parse(str(c)) for c in cards))
            if action == "redeal":
                return cls.redeal()
            if action == "jewel":
                card, dst = data.get("card"), data.get("to")
                if not isinstance(card, str):
                    raise MoveError(f"a jewel needs a 'card': {brief(data)}")
                if not is_place(dst):
                    raise MoveError(f"unknown place {brief(dst)} in 'to' of {brief(data)}")
                return cls.jewel(Card.parse(card), dst)
            if action == "move":
                card, src, dst = data.get("card"), data.get("from"), data.get("to")
                if not isinstance(card, str):
                    raise MoveError(f"a move needs a 'card': {brief(data)}")

                def checked(name: str, place: object) -> str:
                    if not is_place(place):
                        raise MoveError(
                            f"unknown place {brief(place)} in '{name}' of {brief(data)}; places are"
                            f" {', '.join(PLACES)}, or {', '.join(k + ':N' for k in INDEXED_PLACES)}"
                        )
                    return place

                src, dst = checked("from", src), checked("to", dst)
                return cls.move(Card.parse(card), src, dst)
        except CardError as exc:
            raise MoveError(f"{exc} in move {brief(data)}") from None
        raise MoveError(
            f"unknown action {brief(action)} in {brief(data)}; actions are turn, redeal, move, deal, jewel"
        )

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read a move back from the notation ``str(move)`` prints (the places
        of the solution format; ``->`` may stand for ``→``); raise
        :class:`MoveError` saying what is wrong.

        >>> Move.parse("10♥ waste → corner"), Move.parse("turn 9♣ 2♦ 8S")
        (Move.move(TH, 'waste', 'corner'), Move.turn(9C 2D 8S))
        >>> Move.parse("jewel 6H -> bottom:2"), Move.parse("redeal")
        (Move.jewel(6H, 'bottom:2'), Move.redeal())
        >>> Move.parse("8♥ waste → pile")
        Traceback (most recent call last):
        ...
        solver.game.MoveError: unknown place 'pile' in move '8♥ waste → pile'; places are ...
        """
        if not isinstance(text, str):
            raise MoveError(f"a move must be text, not {brief(text)}")
        words = text.replace("->", "→").replace("→", " → ").split()
        try:
            return cls._parse_words(words, text)
        except CardError as exc:
            raise MoveError(f"{exc} in move {brief(text)}") from None

    @classmethod
    def _parse_words(cls, words: list[str], text: str) -> Move:
        def place(word: str) -> str:
            if not is_place(word):
                raise MoveError(
                    f"unknown place {brief(word)} in move {brief(text)}; places are {', '.join(PLACES)},"
                    f" or {', '.join(k + ':N' for k in INDEXED_PLACES)}"
                )
            return word

        if not words:
            raise MoveError("an empty text is not a move")
        head, rest = words[0], words[1:]
        if head in ("turn", "deal") and "→" not in rest:
            return cls(head, cards=tuple(Card.parse(w) for w in rest))
        if head == "redeal" and not rest:
            return cls.redeal()
        if head == "jewel" and rest[-2:-1] == ["→"] and len(rest) in (2, 3):
            card = Card.parse(rest[0]) if len(rest) == 3 else None
            return cls("jewel", card=card, dst=place(rest[-1]))
        if len(words) in (3, 4) and words[-2] == "→":
            card = Card.parse(words[0]) if len(words) == 4 else None
            return cls("move", card=card, src=place(words[-3]), dst=place(words[-1]))
        raise MoveError(
            f"{brief(text)} is not a move: expected 'turn CARDS', 'deal CARDS', 'redeal',"
            " 'jewel CARD → PLACE' or 'CARD FROM → TO' (such as '8♥ waste → cell')"
        )

    def __str__(self) -> str:
        card = self.card.pretty() + " " if self.card is not None else ""
        if self.action in ("turn", "deal"):
            return " ".join([self.action, *(c.pretty() for c in self.cards)])
        if self.action == "redeal":
            return "redeal"
        if self.action == "jewel":
            return f"jewel {card}→ {self.dst}"
        return f"{card}{self.src} → {self.dst}"

    def __repr__(self) -> str:
        if self.action in ("turn", "deal"):
            return f"Move.{self.action}({' '.join(map(str, self.cards))})"
        if self.action == "redeal":
            return "Move.redeal()"
        if self.action == "jewel":
            return f"Move.jewel({self.card}, {self.dst!r})"
        return f"Move.move({self.card}, {self.src!r}, {self.dst!r})"


@dataclass(frozen=True)
class TombPosition:
    """Everything on the table. Piles list cards bottom first; ``stock`` lists the
    next card to turn first. ``redeals`` counts the redeals already made."""

    variant: TombVariant
    stock: tuple[Card, ...]
    waste: tuple[Card, ...] = ()
    cells: tuple[Card | None, ...] = ()
    reserve: tuple[Card, ...] = ()
    corners: tuple[tuple[Card, ...], ...] = ((), (), (), ())
    tomb: tuple[Card, ...] = ()
    redeals: int = 0
    moves_played: int = field(default=0, compare=False)
    #: The deal this position came from and the moves played since its start,
    #: when known (positions built by :func:`solver.position_after`).
    deal: Deal | None = field(default=None, compare=False, repr=False)
    history: tuple[Move, ...] = field(default=(), compare=False, repr=False)

    @classmethod
    def start(cls, cards: Iterable[Card], variant: TombVariant) -> TombPosition:
        """The start of a deal: every card in the stock, ``cards`` in turning order
        (a :class:`~solver.deals.Deal` is kept as the position's deal)."""
        return cls(variant=variant, stock=tuple(cards), cells=(None,) * variant.cells,
                   deal=cards if isinstance(cards, Deal) else None)

    @property
    def score(self) -> int:
        """Cards on the foundations."""
        return len(self.tomb) + sum(len(c) for c in self.corners)

    @property
    def won(self) -> bool:
        return self.score == 52

    def __str__(self) -> str:
        def top(pile: tuple[Card, ...]) -> str:
            return pile[-1].pretty() if pile else "--"

        cells = " ".join(c.pretty() if c else "--" for c in self.cells) or "(none)"
        tomb_round = len(self.tomb) // 6 + (1 if len(self.tomb) < 24 else 0)
        wants = 6 - len(self.tomb) % 6 if len(self.tomb) < 24 else None
        lines = [
            f"{top(self.corners[0]):>4}        {top(self.corners[1]):>4}     corners (up 7..K)",
            f"       {top(self.tomb):>4}          tomb: {len(self.tomb)}/24"
            + (f", wants a {'A' if wants == 1 else wants} (round {tomb_round})" if wants else ", full"),
            f"{top(self.corners[2]):>4}        {top(self.corners[3]):>4}",
            f"cells: {cells}",
        ]
        if self.variant.sixes_reserve:
            lines.append("sixes reserve: " + (" ".join(c.pretty() for c in self.reserve) or "--"))
        waste = " ".join(c.pretty() for c in self.waste[-8:])
        more = f"({len(self.waste) - 8} more) " if len(self.waste) > 8 else ""
        lines.append(f"waste: {more}{waste or '--'}   (top on the right)")
        passes = self.variant.passes
        stock = f"stock: {len(self.stock)} cards"
        if passes > 1:
            stock += f", pass {self.redeals + 1} of {passes}"
        lines.append(stock)
        lines.append(f"score: {self.score}/52")
        return "\n".join(lines)


# The name the Tomb's position had when it was the only family's: kept for
# the code that imports it.
Position = TombPosition
