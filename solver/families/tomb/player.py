"""The Napoleon's Tomb family for a player: its moves in the player's
notation (numbered cells and corners) and its table as the player sees it."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...cards import Card
from ...inputs import brief
from ...notation import Move
from ...rules import tomb
from .. import player
from ..play import CorePlay
from ..player import Fix, Refused, card_move, card_name, indexed, move_places, top
from . import core as _core
from .position import TombPosition


class Player(player.Player[TombPosition]):
    engine = tomb
    core = CorePlay("tomb", _core.rules, _core.table, _core.from_table)

    @staticmethod
    def cell_of(pos: TombPosition, card: Card) -> str:
        return f"cell:{pos.cells.index(card) + 1}"

    def reference_legal(self, pos: TombPosition) -> list[Move]:
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

    def to_engine(self, pos: TombPosition, move: Move) -> tuple[Move, Fix[TombPosition] | None]:
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
    def _sourcecard_name(pos: TombPosition, src: str, card: Card | None) -> Card:
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
    def _placer(pos: TombPosition, card: Card, dst: str) -> Fix[TombPosition] | None:
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

            def put_in_cell(after: TombPosition) -> TombPosition:
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

        def put_on_corner(after: TombPosition) -> TombPosition:
            corners = list(pos.corners)
            corners[i] += (card,)
            return replace(after, corners=tuple(corners))

        return put_on_corner

    def to_player(self, pos: TombPosition, move: Move) -> Move:
        if move.action != "move":
            return self.blind(move)
        card, src, dst = card_move(move)
        src = self.cell_of(pos, card) if src == "cell" else src
        if dst == "cell":
            dst = f"cell:{pos.cells.index(None) + 1}"
        elif dst == "corner":
            dst = next(f"corner:{i}" for i, c in enumerate(pos.corners, 1) if tomb.corner_accepts(c, card))
        return Move.move(card, src, dst)

    def reference_auto(self, pos: TombPosition, enabled: bool) -> Move | None:
        if not enabled or tuple(pos.variant.cell_targets) != ("foundation",):
            return None
        for m in self.engine.legal_moves(pos):
            if m.action == "move" and m.src == "cell" and m.dst in ("corner", "tomb"):
                return self.to_player(pos, m)
        return None

    def view(self, pos: TombPosition) -> dict[str, Any]:
        v = pos.variant
        wants = tomb.tomb_wants(pos)
        out = {
            "stock": {"count": len(pos.stock)},
            "waste": {"count": len(pos.waste), "fan": [str(c) for c in pos.waste[-min(v.turn, 3) :]]},
            "cells": [card_name(c) for c in pos.cells],
            "reserve": [str(c) for c in pos.reserve] if v.sixes_reserve else None,
            "corners": [top(c) for c in pos.corners],
            "tomb": {
                **top(pos.tomb),
                "wants": wants,
                "round": min(len(pos.tomb) // tomb.TOMB_BASE + 1, tomb.TOMB_ROUNDS),
                "rounds": tomb.TOMB_ROUNDS,
            },
            "pass": {"number": pos.redeals + 1, "of": v.passes},
        }
        return out
