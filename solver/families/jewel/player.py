"""The jewel box for a player: its moves in the player's notation and its
table as the player sees it."""

from __future__ import annotations

from typing import Any

from ...cards import SUITS, Card
from ...inputs import brief
from ...notation import Move
from ...rules import jewel
from .. import player
from ..play import CorePlay
from ..player import Fix, Refused, card_name, indexed, move_places, top
from . import core as _core
from .position import JewelPosition


class Player(player.Player[JewelPosition]):
    engine = jewel
    core = CorePlay("jewel", _core.rules, _core.position, _core.from_table)

    def reference_legal(self, pos: JewelPosition) -> list[Move]:
        return [self.blind(m) for m in self.engine.legal_moves(pos)]

    def to_engine(self, pos: JewelPosition, move: Move) -> tuple[Move, Fix[JewelPosition] | None]:
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

    def to_player(self, pos: JewelPosition, move: Move) -> Move:
        return self.blind(move)

    def reference_auto(self, pos: JewelPosition, enabled: bool) -> Move | None:
        # A space is filled before the next move: the rules' own, so always.
        pending = jewel.space_pending(pos)
        return Move("jewel", dst=pending) if pending else None

    def view(self, pos: JewelPosition) -> dict[str, Any]:
        found = {}
        for s, counts in zip(SUITS, pos.foundations):
            found[s] = [{"count": n, "top": str(Card(n, s)) if n else None} for n in counts]
        return {
            "stock": {"count": len(pos.stock)},
            "turned": card_name(pos.turned),
            "lid": [card_name(c) for c in pos.lid],
            "sides": [[str(c) for c in p] for p in pos.sides],
            "bottoms": [[str(c) for c in p] for p in pos.bottoms],
            "jewels": {"count": len(pos.jewels), "pending": jewel.space_pending(pos)},
            "reserves": [top(r) for r in pos.reserves],
            "foundations": found,
        }
