"""A family's rules of play for a player: :class:`Player`, over the core's
(:mod:`solver.session` plays through it), and how a player's move names a
legal one.

>>> from solver.cards import Card
>>> names(Move("move", src="waste", dst="cell"), Move.move(Card.parse("JD"), "waste", "cell:3"))
True
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from ..notation import IllegalMoveError, Move
from .play import CorePlay, record_move


class Refused(Exception):
    """A move the rules refuse (the reason names only what the player sees)."""


#: The positions of one family.
P = TypeVar("P")


def move_places(move: Move) -> tuple[str, str]:
    """The source and destination of a player's card move."""
    if not move.src or not move.dst:
        raise Refused("a move needs 'from' and 'to': place names such as 'waste', 'cell:2' or 'pile:7'")
    return move.src, move.dst


class Player(Generic[P]):
    """A family's rules of play for a player, all of them the core's
    (csrc/play.h, which the page runs too): its moves in the player's
    notation, which names no card the player cannot see, the refusals with
    their reasons, the moves the rules make by themselves, and the table as
    the player sees it."""

    def __init__(self, core: CorePlay) -> None:
        #: The rules of play: the core's.
        self.core = core

    def legal(self, pos: P) -> list[Move]:
        """The legal moves in the player's notation, by the core."""
        return [self.blind(m) for m in self.core.moves(pos)[0]]

    def play(self, pos: P, move: Move) -> tuple[Move, P]:
        """``move`` (the player's notation) played by the core: the move as
        played (its card and places named, no hidden card) and the position
        after it. A move the rules refuse raises :class:`Refused` with the
        core's reason."""
        if move.action == "move":
            move_places(move)
        named = next((m for m in self.core.moves(pos)[0] if names(move, m)), move)
        played, after = self._made(pos, named)
        return self.blind(record_move(played)), after

    def _made(self, pos: P, move: Move) -> tuple[Any, P]:
        """The core's record of ``move`` as made and the position after it;
        :class:`Refused` with the core's reason."""
        try:
            return self.core.made(pos, move)
        except IllegalMoveError as exc:
            raise Refused(exc.reason) from None

    def auto(self, pos: P, enabled: bool) -> Move | None:
        """The move the rules make by themselves in ``pos``, if any (the core's)."""
        m = self.core.auto(pos, enabled)
        return None if m is None else self.blind(m)

    def to_player(self, pos: P, move: Move) -> Move:
        """A move of ``pos`` in the solution format (a line's, the blind
        player's) in the player's notation: each place by its number (a cell,
        a corner: the one the core puts the card in)."""
        played, _ = self._made(pos, move)
        return self.blind(record_move(played))

    def view(self, pos: P) -> dict[str, Any]:
        """The table as the player sees it, as JSON (the core's)."""
        return self.core.view(pos)

    def layout(self, pos: P) -> dict[str, Any]:
        """The table as the page draws it, as JSON (the core's)."""
        return self.core.layout(pos)

    @staticmethod
    def blind(move: Move) -> Move:
        """A move with the cards the player does not see taken out."""
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
