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

from dataclasses import dataclass, field
from typing import Any

from .cards import Card, CardError
from .variants import Variant

#: Places a card can be moved from or to (the solution format's names).
PLACES = ("stock", "waste", "cell", "reserve", "corner", "tomb")
FOUNDATIONS = ("corner", "tomb")


class MoveError(ValueError):
    """A move that cannot be read, or cannot be played where it is played."""


class IllegalMoveError(MoveError):
    """A well-formed move that the rules do not allow in the position."""


@dataclass(frozen=True, slots=True)
class Move:
    """One move: ``turn`` (cards from the stock), ``redeal`` or ``move`` (one card)."""

    action: str
    cards: tuple[Card, ...] = ()
    card: Card | None = None
    src: str | None = None
    dst: str | None = None

    @classmethod
    def turn(cls, cards) -> Move:
        return cls("turn", cards=tuple(cards))

    @classmethod
    def redeal(cls) -> Move:
        return cls("redeal")

    @classmethod
    def move(cls, card: Card, src: str, dst: str) -> Move:
        return cls("move", card=card, src=src, dst=dst)

    def to_json(self) -> dict[str, Any]:
        if self.action == "turn":
            return {"action": "turn", "cards": [str(c) for c in self.cards]}
        if self.action == "redeal":
            return {"action": "redeal"}
        return {"action": "move", "card": str(self.card), "from": self.src, "to": self.dst}

    @classmethod
    def from_json(cls, data: Any) -> Move:
        """Read one move of the solution format; raise :class:`MoveError` saying what is wrong."""
        if not isinstance(data, dict):
            raise MoveError(f"a move must be a JSON object, not {data!r}")
        action = data.get("action")
        try:
            if action == "turn":
                cards = data.get("cards")
                if not isinstance(cards, list) or not cards:
                    raise MoveError(f"a turn needs a non-empty list 'cards': {data!r}")
                return cls.turn(Card.parse(str(c)) for c in cards)
            if action == "redeal":
                return cls.redeal()
            if action == "move":
                card, src, dst = data.get("card"), data.get("from"), data.get("to")
                if not isinstance(card, str):
                    raise MoveError(f"a move needs a 'card': {data!r}")
                for name, place in (("from", src), ("to", dst)):
                    if place not in PLACES:
                        raise MoveError(
                            f"unknown place {place!r} in '{name}' of {data!r}; places are {', '.join(PLACES)}"
                        )
                return cls.move(Card.parse(card), src, dst)
        except CardError as exc:
            raise MoveError(f"{exc} in move {data!r}") from None
        raise MoveError(f"unknown action {action!r} in {data!r}; actions are turn, redeal, move")

    def __str__(self) -> str:
        if self.action == "turn":
            return "turn " + " ".join(c.pretty() for c in self.cards)
        if self.action == "redeal":
            return "redeal (waste back to stock)"
        return f"{self.card.pretty()} {self.src} → {self.dst}"

    def __repr__(self) -> str:
        if self.action == "turn":
            return f"Move.turn({' '.join(map(str, self.cards))})"
        if self.action == "redeal":
            return "Move.redeal()"
        return f"Move.move({self.card}, {self.src!r}, {self.dst!r})"


@dataclass(frozen=True)
class Position:
    """Everything on the table. Piles list cards bottom first; ``stock`` lists the
    next card to turn first. ``redeals`` counts the redeals already made."""

    variant: Variant
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
    deal: Any = field(default=None, compare=False, repr=False)
    history: tuple[Move, ...] = field(default=(), compare=False, repr=False)

    @classmethod
    def start(cls, cards, variant: Variant) -> Position:
        """The start of a deal: every card in the stock, ``cards`` in turning order."""
        return cls(variant=variant, stock=tuple(cards), cells=(None,) * variant.cells,
                   deal=cards if hasattr(cards, "number") else None)

    @property
    def score(self) -> int:
        """Cards on the foundations."""
        return len(self.tomb) + sum(len(c) for c in self.corners)

    @property
    def won(self) -> bool:
        return self.score == 52

    def __str__(self) -> str:
        def top(pile):
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
