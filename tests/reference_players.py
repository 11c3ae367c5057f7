"""The reference players: the player's notation over the reference engines
(solver/rules/), for the tests that check the core's rules of play against
them (tests/test_play_core.py). Each turns a player's move into the
engine's (with the refusals a player's side says first) and an engine's
move into the player's; nothing in the package uses them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, Generic, TypeVar

from solver.cards import Card
from solver.families.player import Player, Refused, move_places
from solver.inputs import brief
from solver.notation import Move
from solver.rules import jewel, napoleao, tomb

P = TypeVar("P")


def indexed(place: str, kind: str, count: int) -> int | None:
    """The 0-based index of ``kind:N`` (1..count); ``None`` for the bare kind."""
    _, sep, index = place.partition(":")
    if not sep:
        return None
    if not (index.isascii() and index.isdigit()) or not 1 <= int(index) <= count:
        raise Refused(f"there is no {place!r}: {kind}s are numbered 1 to {count}")
    return int(index) - 1


def card_move(m: Move) -> tuple[Card, str, str]:
    """The card and places of an engine's card move (it names all three)."""
    assert m.card is not None and m.src is not None and m.dst is not None, m
    return m.card, m.src, m.dst


def card_name(c: Card | None) -> str | None:
    return None if c is None else str(c)


def top(cards: tuple[Card, ...]) -> dict[str, Any]:
    return {"top": card_name(cards[-1]) if cards else None, "count": len(cards)}


#: A function fixing the position after an engine's move: the place the
#: player chose among interchangeable ones.
Fix = Callable[[P], P]


class Reference(Generic[P]):
    """A family's reference player: ``engine`` is its reference engine."""

    engine: Any

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
        raise NotImplementedError

    def to_player(self, pos: P, move: Move) -> Move:
        raise NotImplementedError

    blind = staticmethod(Player.blind)


class TombReference(Reference[Any]):
    engine = tomb

    @staticmethod
    def cell_of(pos: Any, card: Card) -> str:
        return f"cell:{pos.cells.index(card) + 1}"

    def reference_legal(self, pos: Any) -> list[Move]:
        out = []
        for m in self.engine.legal_moves(pos):
            if m.action != "move":
                out.append(self.blind(m))
                continue
            card, src, dst = card_move(m)
            src = self.cell_of(pos, card) if src == "cell" else src
            if dst == "cell":
                dsts = [f"cell:{i}" for i, c in enumerate(pos.cells, 1) if c is None]
            elif dst == "corner":
                dsts = [f"corner:{i}" for i, c in enumerate(pos.corners, 1) if tomb.corner_accepts(c, card)]
            else:
                dsts = [dst]
            out += [Move.move(card, src, d) for d in dsts]
        return out

    def to_engine(self, pos: Any, move: Move) -> tuple[Move, Fix[Any] | None]:
        v = pos.variant
        if move.action == "turn":
            return Move.turn(pos.stock[: v.turn]), None
        if move.action == "redeal":
            return Move.redeal(), None
        if move.action != "move":
            raise Refused(f"there is no {move.action} in {v.name}; actions are turn, redeal, move")
        src, dst = move_places(move)
        card = self._sourcecard_name(pos, src, move.card)
        engine_move = Move.move(card, src.partition(":")[0], dst.partition(":")[0])
        return engine_move, self._placer(pos, card, dst)

    @staticmethod
    def _sourcecard_name(pos: Any, src: str, card: Card | None) -> Card:
        """The card leaving ``src`` (``card``, when the player named it, is
        checked by the engine)."""
        v = pos.variant
        kind = src.partition(":")[0]
        if kind == "waste":
            if not pos.waste:
                raise Refused("the waste is empty")
            return card or pos.waste[-1]
        if kind == "cell":
            if not v.cells:
                raise Refused(f"{v.name} has no cells")
            i = indexed(src, "cell", v.cells)
            if i is None:
                if card is None:
                    raise Refused(f"say which cell: cell:1 .. cell:{v.cells}")
                return card
            held = pos.cells[i]
            if held is None:
                raise Refused(f"cell {i + 1} is empty")
            if card is not None and card != held:
                raise Refused(f"cell {i + 1} holds {held.pretty()}")
            return held
        if kind == "reserve":
            if not v.sixes_reserve:
                raise Refused(f"{v.name} has no sixes reserve")
            if not pos.reserve:
                raise Refused("the sixes reserve is empty")
            return card or pos.reserve[-1]
        if kind == "stock":
            raise Refused("turn the stock first: its cards are face down")
        if kind in ("corner", "tomb"):
            raise Refused("cards on the foundations never move again")
        raise Refused(f"unknown place {brief(src)}; places are waste, cell:N, reserve, corner:N, tomb")

    @staticmethod
    def _placer(pos: Any, card: Card, dst: str) -> Fix[Any] | None:
        """For a numbered cell or corner: a function that puts ``card`` there
        in the position after the engine's move (the engine puts it in the
        first that takes it; cells, and corners of the same rank, are alike)."""
        kind, sep, _ = dst.partition(":")
        if not sep or kind not in ("cell", "corner") or (kind == "cell" and not pos.variant.cells):
            return None
        i = indexed(dst, kind, pos.variant.cells if kind == "cell" else len(pos.corners))
        assert i is not None  # dst has its number (sep above)
        if kind == "cell":
            held = pos.cells[i]
            if held is not None:
                raise Refused(f"cell {i + 1} holds {held.pretty()}")

            def put_in_cell(after: Any) -> Any:
                cells = [None if x == card else x for x in after.cells]
                cells[i] = card
                return replace(after, cells=tuple(cells))

            return put_in_cell
        corner = pos.corners[i]
        if not tomb.corner_accepts(corner, card):
            if not corner:
                raise Refused(f"corner {i + 1} is empty: it takes only a 7")
            if corner[-1].rank == tomb.KING:
                raise Refused(f"corner {i + 1} is full")
            wants = tomb._rank_name(corner[-1].rank + 1)
            raise Refused(f"corner {i + 1} shows {corner[-1].pretty()} and wants {wants}")

        def put_on_corner(after: Any) -> Any:
            corners = list(pos.corners)
            corners[i] += (card,)
            return replace(after, corners=tuple(corners))

        return put_on_corner

    def to_player(self, pos: Any, move: Move) -> Move:
        if move.action != "move":
            return self.blind(move)
        card, src, dst = card_move(move)
        src = self.cell_of(pos, card) if src == "cell" else src
        if dst == "cell":
            dst = f"cell:{pos.cells.index(None) + 1}"
        elif dst == "corner":
            dst = next(f"corner:{i}" for i, c in enumerate(pos.corners, 1) if tomb.corner_accepts(c, card))
        return Move.move(card, src, dst)

    def reference_auto(self, pos: Any, enabled: bool) -> Move | None:
        if not enabled or tuple(pos.variant.cell_targets) != ("foundation",):
            return None
        for m in self.engine.legal_moves(pos):
            if m.action == "move" and m.src == "cell" and m.dst in ("corner", "tomb"):
                return self.to_player(pos, m)
        return None


class NapoleaoReference(Reference[Any]):
    engine = napoleao

    def reference_legal(self, pos: Any) -> list[Move]:
        return [self.blind(m) for m in self.engine.legal_moves(pos)]

    def to_engine(self, pos: Any, move: Move) -> tuple[Move, Fix[Any] | None]:
        if move.action == "deal":
            return Move.deal(pos.stock[: napoleao.PILES]), None
        if move.action == "redeal":
            return Move.redeal(), None
        if move.action != "move":
            raise Refused(f"there is no {move.action} in {pos.variant.name}; actions are deal, redeal, move")
        (src, dst), card = move_places(move), move.card
        if src.partition(":")[0] != "pile":
            if src.partition(":")[0] in ("kbase", "abase"):
                raise Refused("cards on the bases never move again")
            raise Refused(f"unknown place {brief(src)}: a card leaves only a pile (pile:1 .. pile:12)")
        i = indexed(src, "pile", napoleao.PILES)
        if i is None:
            raise Refused("say which pile: pile:1 .. pile:12")
        pile = pos.piles[i]
        if not pile:
            raise Refused(f"pile {i + 1} is empty")
        if card is not None and card != pile[-1]:
            raise Refused(f"the top of pile {i + 1} is {pile[-1].pretty()}")
        card = pile[-1]
        if dst in ("kbase", "abase"):
            dst = f"{dst}:{card.suit}"
        return Move.move(card, src, dst), None

    def to_player(self, pos: Any, move: Move) -> Move:
        return self.blind(move)


class JewelReference(Reference[Any]):
    engine = jewel

    def reference_legal(self, pos: Any) -> list[Move]:
        return [self.blind(m) for m in self.engine.legal_moves(pos)]

    def to_engine(self, pos: Any, move: Move) -> tuple[Move, Fix[Any] | None]:
        pending = jewel.space_pending(pos)
        if move.action == "jewel":
            if pending is None:
                raise Refused("no space waits for a jewel" if pos.jewels else "no jewels are left")
            if move.dst is not None and move.dst != pending:
                raise Refused(f"the space to fill is {pending}")
            return Move.jewel(pos.jewels[0], pending), None
        if pending is not None:
            raise Refused(f"{pending} is empty: the next jewel must fill it first")
        if move.action == "turn":
            return Move.turn(pos.stock[:1]), None
        if move.action != "move":
            raise Refused(f"there is no {move.action} in {pos.variant.name}; actions are turn, move, jewel")
        (src, dst), card = move_places(move), move.card
        kind = src.partition(":")[0]
        top: Card | None
        if kind == "stock":
            if pos.turned is None:
                raise Refused("no card is turned: turn the stock first")
            top = pos.turned
        elif kind == "lid":
            i = indexed(src, "lid", jewel.LID_SIZE)
            top = pos.lid[i] if i is not None else None
        elif kind in ("side", "bottom"):
            i = indexed(src, kind, 4)
            pile = (pos.sides if kind == "side" else pos.bottoms)[i] if i is not None else ()
            top = pile[-1] if pile else None
        elif kind == "reserve":
            i = indexed(src, "reserve", len(pos.reserves)) if pos.reserves else None
            if not pos.reserves:
                raise Refused("this game has no reserves")
            top = pos.reserves[i][-1] if i is not None and pos.reserves[i] else None
        elif kind == "foundation":
            raise Refused("cards on the foundations never move again")
        else:
            raise Refused(f"unknown place {brief(src)}; places are stock, lid:N, side:N, bottom:N, reserve:N")
        if kind != "stock" and ":" not in src:
            raise Refused(f"say which {kind}: {kind}:1, {kind}:2...")
        if top is None:
            raise Refused(f"{src.replace(':', ' ')} is empty")
        card = card or top
        if dst == "foundation":
            dst = f"foundation:{card.suit}"
        return Move.move(card, src, dst), None

    def to_player(self, pos: Any, move: Move) -> Move:
        return self.blind(move)

    def reference_auto(self, pos: Any, enabled: bool) -> Move | None:
        # A space is filled before the next move: the rules' own, so always.
        pending = jewel.space_pending(pos)
        return Move("jewel", dst=pending) if pending else None


#: The reference player of each family, by its name.
REFERENCES: dict[str, Reference[Any]] = {
    "tomb": TombReference(),
    "napoleao": NapoleaoReference(),
    "jewel": JewelReference(),
}
