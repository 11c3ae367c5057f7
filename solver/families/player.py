"""What every family's player side shares: the refusals a game says before
asking the rules, numbered places, and the base of each family's
:class:`Player` (:mod:`solver.session` plays through it).

>>> indexed("cell:2", "cell", 4), indexed("cell", "cell", 4)
(1, None)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from ..cards import Card
from ..notation import Move


def indexed(place: str, kind: str, count: int) -> int | None:
    """The 0-based index of ``kind:N`` (1..count); ``None`` for the bare kind."""
    _, sep, index = place.partition(":")
    if not sep:
        return None
    if not (index.isascii() and index.isdigit()) or not 1 <= int(index) <= count:
        raise Refused(f"there is no {place!r}: {kind}s are numbered 1 to {count}")
    return int(index) - 1


class Refused(Exception):
    """A move the game refuses before asking the engine (the reason
    names only what the player sees)."""


#: The positions of one family.
P = TypeVar("P")

#: A function fixing the position after an engine's move: the place the
#: player chose among interchangeable ones.
Fix = Callable[[P], P]


def card_move(m: Move) -> tuple[Card, str, str]:
    """The card and places of an engine's card move (it names all three)."""
    assert m.card is not None and m.src is not None and m.dst is not None, m
    return m.card, m.src, m.dst


def move_places(move: Move) -> tuple[str, str]:
    """The source and destination of a player's card move."""
    if not move.src or not move.dst:
        raise Refused("a move needs 'from' and 'to': place names such as 'waste', 'cell:2' or 'pile:7'")
    return move.src, move.dst


class Player(Generic[P]):
    """What a family adds to its rules of play for a player (one subclass a
    family): its moves in the player's notation, which names no card the
    player cannot see, and its table as the player sees it.

    ``engine``: the rules of play, today the family's reference engine
    (:mod:`solver.rules`), which every move is checked by."""

    engine: Any

    def legal(self, pos: P) -> list[Move]:
        """The legal moves in the player's notation."""
        raise NotImplementedError

    def to_engine(self, pos: P, move: Move) -> tuple[Move, Fix[P] | None]:
        """The engine's move for ``move`` and a function fixing the position
        after it (the place the player chose among interchangeable ones)."""
        raise NotImplementedError

    def to_player(self, pos: P, move: Move) -> Move:
        """An engine move of ``pos`` in the player's notation."""
        raise NotImplementedError

    def auto(self, pos: P, enabled: bool) -> Move | None:
        """The move the rules make by themselves in ``pos``, if any."""
        return None

    def view(self, pos: P) -> dict[str, Any]:
        raise NotImplementedError

    @staticmethod
    def blind(move: Move) -> Move:
        """An engine move with the cards the player does not see taken out."""
        if move.action in ("turn", "deal"):
            return Move(move.action)
        if move.action == "jewel":
            return Move("jewel", dst=move.dst)
        return move


def card_name(c: Card | None) -> str | None:
    return None if c is None else str(c)


def top(cards: tuple[Card, ...]) -> dict[str, Any]:
    return {"top": card_name(cards[-1]) if cards else None, "count": len(cards)}
