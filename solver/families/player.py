"""What every family's player side shares: the refusals a game says before
asking the rules, numbered places, and the base of each family's
:class:`Player` (:mod:`solver.session` plays through it).

>>> indexed("cell:2", "cell", 4), indexed("cell", "cell", 4)
(1, None)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, Generic, TypeVar

from ..cards import Card
from ..notation import Move
from .play import CorePlay, record_move


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

    #: The rules of play: the core's (csrc/play.h), which the page runs too.
    core: CorePlay

    def legal(self, pos: P) -> list[Move]:
        """The legal moves in the player's notation, by the core."""
        return [self.blind(m) for m in self.core.moves(pos)[0]]

    def play(self, pos: P, move: Move) -> tuple[Move, P]:
        """``move`` (the player's notation) played by the core: the move as
        played (its card and places named, no hidden card) and the position
        after it. A move the rules refuse raises :class:`Refused` with the
        reason (the player's side's, else the core's)."""
        legal, records = self.core.moves(pos)
        for i, m in enumerate(legal):
            if names(move, m):
                after = self.core.apply(pos, records + i, record_move(records[i], engine=True))
                assert not isinstance(after, str), after
                return self.blind(m), after
        engine_move, _ = self.to_engine(pos, move)  # the player's side's refusals
        record = self.core.record(move, two_decks=pos.variant.decks == 2)  # type: ignore[attr-defined]
        if record is None:
            raise Refused(f"there is no place {move.src or move.dst} in this game")
        after = self.core.apply(pos, record, engine_move)
        if isinstance(after, str):
            raise Refused(after)
        return self.blind(engine_move), after

    def auto(self, pos: P, enabled: bool) -> Move | None:
        """The move the rules make by themselves in ``pos``, if any (the core's)."""
        m = self.core.auto(pos, enabled)
        return None if m is None else self.blind(m)

    def reference_auto(self, pos: P, enabled: bool) -> Move | None:
        """The move the rules make by themselves, by the reference engine."""
        return None

    def reference_legal(self, pos: P) -> list[Move]:
        """The legal moves in the player's notation, by the reference engine."""
        raise NotImplementedError

    def reference_play(self, pos: P, move: Move) -> tuple[Move, P]:
        """``move`` (the player's notation) played by the reference engine:
        the move as played (its card and places named) and the position
        after it. Raises :class:`Refused`, or the engine's
        :class:`~solver.notation.IllegalMoveError`."""
        engine_move, fix = self.to_engine(pos, move)
        after = self.engine.play(pos, engine_move)
        played = self.to_player(pos, engine_move)
        if fix is not None:
            after, played = fix(after), replace(played, dst=move.dst)
        return played, after

    def to_engine(self, pos: P, move: Move) -> tuple[Move, Fix[P] | None]:
        """The engine's move for ``move`` and a function fixing the position
        after it (the place the player chose among interchangeable ones)."""
        raise NotImplementedError

    def to_player(self, pos: P, move: Move) -> Move:
        """An engine move of ``pos`` in the player's notation."""
        raise NotImplementedError

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


def names(move: Move, m: Move) -> bool:
    """Does the player's ``move`` name the legal move ``m``? Its action, and
    for a card move its places (a bare ``cell``, ``corner``, ``kbase``,
    ``foundation``... names the first of its kind that ``m`` could be; a bare
    source needs the card) and its card, where it gives them."""
    if move.action != m.action:
        return False
    if m.action != "move":
        return move.dst is None or move.dst == m.dst
    if move.card is not None and move.card != m.card:
        return False
    if not move.src or not move.dst:
        return False
    src_ok = move.src == m.src or (":" not in move.src and move.card is not None and kind(m.src) == move.src)
    return src_ok and (move.dst == m.dst or (":" not in move.dst and kind(m.dst) == move.dst))


def kind(place: str | None) -> str:
    """The kind of a place: ``cell`` of ``cell:2``."""
    return (place or "").partition(":")[0]


def card_name(c: Card | None) -> str | None:
    return None if c is None else str(c)


def top(cards: tuple[Card, ...]) -> dict[str, Any]:
    return {"top": card_name(cards[-1]) if cards else None, "count": len(cards)}
