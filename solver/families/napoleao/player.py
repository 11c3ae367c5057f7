"""Paciência Napoleão for a player: its moves in the player's notation and
its table as the player sees it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...cards import SUITS, Card
from ...inputs import brief
from ...notation import Move
from ...rules import napoleao
from .. import player
from ..play import CorePlay
from ..player import Fix, Refused, indexed, move_places, top
from . import core as _core
from .position import NapoleaoPosition


class Player(player.Player[NapoleaoPosition]):
    engine = napoleao
    core = CorePlay("napoleao", _core.rules, _core.position, _core.from_table)

    def reference_legal(self, pos: NapoleaoPosition) -> list[Move]:
        return [self.blind(m) for m in self.engine.legal_moves(pos)]

    def to_engine(self, pos: NapoleaoPosition, move: Move) -> tuple[Move, Fix[NapoleaoPosition] | None]:
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

    def to_player(self, pos: NapoleaoPosition, move: Move) -> Move:
        return self.blind(move)

    def view(self, pos: NapoleaoPosition) -> dict[str, Any]:
        v = pos.variant

        def bases(counts: tuple[int, ...], top: Callable[[int], int]) -> dict[str, Any]:
            return {s: {"count": n, "top": str(Card(top(n), s)) if n else None} for s, n in zip(SUITS, counts)}

        return {
            "stock": {"count": len(pos.stock)},
            "piles": [top(p) for p in pos.piles],
            "kbases": bases(pos.kbases, lambda n: napoleao.KING + 1 - n),
            "abases": bases(pos.abases, lambda n: n),
            "pass": {"number": pos.redeals + 1, "of": v.redeals + 1},
            "round": pos.rounds,
            "restricted": napoleao.restricted(pos),
        }
