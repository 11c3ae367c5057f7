"""A game a person plays: :class:`Game`, for every family.

A :class:`Game` starts from a deal (or a position), lists the legal moves,
plays one, undoes and redoes, and shows the table as a player sees it. It
speaks the *player's notation*, which names nothing the player cannot see:

- a turn of the stock, a deal of a round, a jewel opened and a redeal name no
  card: ``{"action": "turn"}``, ``{"action": "deal"}``, ``{"action": "jewel"}``,
  ``{"action": "redeal"}``;
- a card move names its places, with their number where a game has several
  of a kind: ``{"action": "move", "from": "waste", "to": "cell:2"}``,
  ``"corner:3"``, ``"pile:7"``, ``"kbase:H"``, ``"reserve:1"``... The card is
  the one on top of the source (``"card"`` may name it; for a run of the
  jewel box it names the run's deepest card). ``"kbase"``, ``"abase"`` and
  ``"foundation"`` may leave out their suit.

The rules are the reference engines' (:mod:`solver.families`): a move is
legal exactly when the engine says so, whatever the variant file says.
Where the rules send a card on by itself, so does the game, in the same step
(``auto``): in the Napoleon's Tomb variants whose cells send cards only home,
a cell card goes home the moment it fits (the seed page's rule; it never
costs a win, docs/web.md); in the jewel box the next jewel fills a space at
once (the rules' own). An undo takes back a whole step.

>>> g = Game("napoleons-tomb", 1)
>>> [move_json(m) for m in g.legal_moves()]
[{'action': 'turn'}]
>>> g.play({"action": "turn"})
(Move.turn(),)
>>> g.view()["table"]["waste"]
{'count': 1, 'fan': ['JD']}
>>> step = g.play({"action": "move", "from": "waste", "to": "cell:3"})
>>> g.view()["table"]["cells"]
[None, None, 'JD', None]
>>> g.undo() == step and g.view()["table"]["cells"] == [None, None, None, None]
True
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any, Generic, TypeVar

from .inputs import brief, check_depth
from .errors import SolverError
from . import families
from .api import DEFAULT_VARIANT, Cancel, DealLike, Limit, start_position
from .cards import SUITS, Card, CardError
from .families import AnyPosition
from .game import IllegalMoveError, Move, MoveError, TombPosition
from .api import Stats
from .blind import careful_move
from .hints import Hint, hint as _hint
from .rules import jewel, napoleao, tomb
from .rules.jewel import JewelPosition
from .rules.napoleao import NapoleaoPosition
from .variants import BaseVariant

__all__ = ["Game", "GameError", "describe", "parse_move", "move_json"]

#: The actions of the player's notation, and the ones that name no card.
ACTIONS = ("turn", "deal", "redeal", "jewel", "move")
_BLIND = ("turn", "deal", "redeal", "jewel")


#: The places a card goes home to, in the player's notation (every family).
HOME_PLACES = frozenset(("corner", "tomb", "kbase", "abase", "foundation"))


class GameError(SolverError, ValueError):
    """A game request that cannot be carried out (nothing to undo, a game
    without a deal number to save...)."""


# ---------------------------------------------------------------------------
# The player's notation


def parse_move(data: Any) -> Move:
    """A move of the player's notation from its JSON object; raise
    :class:`~solver.game.MoveError` saying what is wrong. A turn, a deal or a
    jewel that names cards is refused: the player cannot see them.

    >>> parse_move({"action": "move", "from": "waste", "to": "corner:2"})
    Move.move(None, 'waste', 'corner:2')
    >>> parse_move({"action": "turn", "cards": ["AS"]})
    Traceback (most recent call last):
    ...
    solver.game.MoveError: a turn names no card: the player cannot see the stock
    """
    if isinstance(data, Move):
        return data
    if not isinstance(data, dict):
        raise MoveError(f"a move must be a JSON object, not {brief(data)}")
    check_depth(data, "a move", MoveError, limit=4)
    action = data.get("action")
    if action not in ACTIONS:
        raise MoveError(f"unknown action {brief(action)}; actions are {', '.join(ACTIONS)}")
    if action in _BLIND and ("card" in data or "cards" in data):
        hidden = {"turn": "the stock", "deal": "the stock", "jewel": "the jewels", "redeal": "the stock"}
        raise MoveError(f"a {action} names no card: the player cannot see {hidden[action]}")
    extra = set(data) - {"action", "from", "to", "card"}
    if extra:
        raise MoveError(f"unknown field {brief(sorted(extra)[0])} in a move; fields are action, from, to, card")
    if action in _BLIND:
        if action == "jewel" and "to" in data:
            if not isinstance(data["to"], str):
                raise MoveError(f"'to' of a jewel must be a place name, not {brief(data['to'])}")
            return Move("jewel", dst=data["to"])
        if "from" in data or "to" in data:
            raise MoveError(f"a {action} takes no 'from' or 'to'")
        return Move(action)
    src, dst = data.get("from"), data.get("to")
    for name, place in (("from", src), ("to", dst)):
        if not isinstance(place, str) or not place:
            raise MoveError(f"a move needs '{name}': a place name such as 'waste', 'cell:2' or 'pile:7'")
    text = data.get("card")
    card = None
    if text is not None:
        if not isinstance(text, str):
            raise MoveError(f"'card' must be a card such as '8H', not {brief(text)}")
        try:
            card = Card.parse(text)
        except CardError as exc:
            raise MoveError(str(exc)) from None
    return Move("move", card=card, src=src, dst=dst)


def move_json(move: Move) -> dict[str, Any]:
    """The JSON object of a move in the player's notation (no hidden card).

    >>> move_json(Move.move(Card.parse("8H"), "waste", "cell:2"))
    {'action': 'move', 'from': 'waste', 'to': 'cell:2', 'card': '8H'}
    >>> move_json(Move.turn([Card.parse("9C")]))
    {'action': 'turn'}
    """
    if move.action == "move":
        out: dict[str, Any] = {"action": "move", "from": move.src, "to": move.dst}
        if move.card is not None:
            out["card"] = str(move.card)
        return out
    if move.action == "jewel" and move.dst:
        return {"action": "jewel", "to": move.dst}
    return {"action": move.action}


def describe(move: Move) -> str:
    """A move of the player's notation as the page says it.

    >>> describe(Move.move(Card.parse("8H"), "waste", "cell:2")), describe(Move("deal"))
    ('8♥ waste → cell 2', 'deal a round')
    """
    words = {"turn": "turn the stock", "deal": "deal a round", "redeal": "redeal", "jewel": "open a jewel"}
    if move.action in words:
        return words[move.action]

    def place(p: str | None) -> str:
        return p.replace(":", " ") if p else "?"

    card = move.card.pretty() + " " if move.card is not None else ""
    return f"{card}{place(move.src)} → {place(move.dst)}"


def _indexed(place: str, kind: str, count: int) -> int | None:
    """The 0-based index of ``kind:N`` (1..count); ``None`` for the bare kind."""
    _, sep, index = place.partition(":")
    if not sep:
        return None
    if not (index.isascii() and index.isdigit()) or not 1 <= int(index) <= count:
        raise _Refused(f"there is no {place!r}: {kind}s are numbered 1 to {count}")
    return int(index) - 1


class _Refused(Exception):
    """Internal: a move the game refuses before asking the engine (the reason
    names only what the player sees)."""


# ---------------------------------------------------------------------------
# The families: from the player's notation to the engine's and back, the view


#: The positions of one family.
P = TypeVar("P", TombPosition, NapoleaoPosition, JewelPosition)

#: A function fixing the position after an engine's move: the place the
#: player chose among interchangeable ones.
Fix = Callable[[P], P]


def _card_move(m: Move) -> tuple[Card, str, str]:
    """The card and places of an engine's card move (it names all three)."""
    assert m.card is not None and m.src is not None and m.dst is not None, m
    return m.card, m.src, m.dst


def _places(move: Move) -> tuple[str, str]:
    """The source and destination of a player's card move."""
    if not move.src or not move.dst:
        raise _Refused("a move needs 'from' and 'to': place names such as 'waste', 'cell:2' or 'pile:7'")
    return move.src, move.dst


class _Family(Generic[P]):
    """What a family adds to its engine for a player (one subclass a family)."""

    family = ""

    def __init__(self) -> None:
        self.engine = families.engine(self.family)

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


def _card(c: Card | None) -> str | None:
    return None if c is None else str(c)


def _top(cards: tuple[Card, ...]) -> dict[str, Any]:
    return {"top": _card(cards[-1]) if cards else None, "count": len(cards)}


class _Tomb(_Family[TombPosition]):
    family = "tomb"

    @staticmethod
    def cell_of(pos: TombPosition, card: Card) -> str:
        return f"cell:{pos.cells.index(card) + 1}"

    def legal(self, pos: TombPosition) -> list[Move]:
        out = []
        for m in self.engine.legal_moves(pos):
            if m.action != "move":
                out.append(self.blind(m))
                continue
            card, src, dst = _card_move(m)
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
            raise _Refused(f"there is no {move.action} in {v.name}; actions are turn, redeal, move")
        src, dst = _places(move)
        card = self._source_card(pos, src, move.card)
        engine_move = Move.move(card, src.partition(":")[0], dst.partition(":")[0])
        return engine_move, self._placer(pos, card, dst)

    @staticmethod
    def _source_card(pos: TombPosition, src: str, card: Card | None) -> Card:
        """The card leaving ``src`` (``card``, when the player named it, is
        checked by the engine)."""
        v = pos.variant
        kind = src.partition(":")[0]
        if kind == "waste":
            if not pos.waste:
                raise _Refused("the waste is empty")
            return card or pos.waste[-1]
        if kind == "cell":
            if not v.cells:
                raise _Refused(f"{v.name} has no cells")
            i = _indexed(src, "cell", v.cells)
            if i is None:
                if card is None:
                    raise _Refused(f"say which cell: cell:1 .. cell:{v.cells}")
                return card
            held = pos.cells[i]
            if held is None:
                raise _Refused(f"cell {i + 1} is empty")
            if card is not None and card != held:
                raise _Refused(f"cell {i + 1} holds {held.pretty()}")
            return held
        if kind == "reserve":
            if not v.sixes_reserve:
                raise _Refused(f"{v.name} has no sixes reserve")
            if not pos.reserve:
                raise _Refused("the sixes reserve is empty")
            return card or pos.reserve[-1]
        if kind == "stock":
            raise _Refused("turn the stock first: its cards are face down")
        if kind in ("corner", "tomb"):
            raise _Refused("cards on the foundations never move again")
        raise _Refused(f"unknown place {brief(src)}; places are waste, cell:N, reserve, corner:N, tomb")

    @staticmethod
    def _placer(pos: TombPosition, card: Card, dst: str) -> Fix[TombPosition] | None:
        """For a numbered cell or corner: a function that puts ``card`` there
        in the position after the engine's move (the engine puts it in the
        first that takes it; cells, and corners of the same rank, are alike)."""
        kind, sep, _ = dst.partition(":")
        if not sep or kind not in ("cell", "corner") or (kind == "cell" and not pos.variant.cells):
            return None
        i = _indexed(dst, kind, pos.variant.cells if kind == "cell" else len(pos.corners))
        assert i is not None        # dst has its number (sep above)
        if kind == "cell":
            held = pos.cells[i]
            if held is not None:
                raise _Refused(f"cell {i + 1} holds {held.pretty()}")

            def put_in_cell(after: TombPosition) -> TombPosition:
                cells = [None if x == card else x for x in after.cells]
                cells[i] = card
                return replace(after, cells=tuple(cells))

            return put_in_cell
        corner = pos.corners[i]
        if not tomb.corner_accepts(corner, card):
            if not corner:
                raise _Refused(f"corner {i + 1} is empty: it takes only a 7")
            if corner[-1].rank == tomb.KING:
                raise _Refused(f"corner {i + 1} is full")
            wants = tomb._rank_name(corner[-1].rank + 1)
            raise _Refused(f"corner {i + 1} shows {corner[-1].pretty()} and wants {wants}")

        def put_on_corner(after: TombPosition) -> TombPosition:
            corners = list(pos.corners)
            corners[i] += (card,)
            return replace(after, corners=tuple(corners))

        return put_on_corner

    def to_player(self, pos: TombPosition, move: Move) -> Move:
        if move.action != "move":
            return self.blind(move)
        card, src, dst = _card_move(move)
        src = self.cell_of(pos, card) if src == "cell" else src
        if dst == "cell":
            dst = f"cell:{pos.cells.index(None) + 1}"
        elif dst == "corner":
            dst = next(f"corner:{i}" for i, c in enumerate(pos.corners, 1) if tomb.corner_accepts(c, card))
        return Move.move(card, src, dst)

    def auto(self, pos: TombPosition, enabled: bool) -> Move | None:
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
            "waste": {"count": len(pos.waste), "fan": [str(c) for c in pos.waste[-min(v.turn, 3):]]},
            "cells": [_card(c) for c in pos.cells],
            "reserve": [str(c) for c in pos.reserve] if v.sixes_reserve else None,
            "corners": [_top(c) for c in pos.corners],
            "tomb": {**_top(pos.tomb), "wants": wants,
                     "round": min(len(pos.tomb) // tomb.TOMB_BASE + 1, tomb.TOMB_ROUNDS), "rounds": tomb.TOMB_ROUNDS},
            "pass": {"number": pos.redeals + 1, "of": v.passes},
        }
        return out


class _Napoleao(_Family[NapoleaoPosition]):
    family = "napoleao"

    def legal(self, pos: NapoleaoPosition) -> list[Move]:
        return [self.blind(m) for m in self.engine.legal_moves(pos)]

    def to_engine(self, pos: NapoleaoPosition, move: Move) -> tuple[Move, Fix[NapoleaoPosition] | None]:
        if move.action == "deal":
            return Move.deal(pos.stock[: napoleao.PILES]), None
        if move.action == "redeal":
            return Move.redeal(), None
        if move.action != "move":
            raise _Refused(f"there is no {move.action} in {pos.variant.name}; actions are deal, redeal, move")
        (src, dst), card = _places(move), move.card
        if src.partition(":")[0] != "pile":
            if src.partition(":")[0] in ("kbase", "abase"):
                raise _Refused("cards on the bases never move again")
            raise _Refused(f"unknown place {brief(src)}: a card leaves only a pile (pile:1 .. pile:12)")
        i = _indexed(src, "pile", napoleao.PILES)
        if i is None:
            raise _Refused("say which pile: pile:1 .. pile:12")
        pile = pos.piles[i]
        if not pile:
            raise _Refused(f"pile {i + 1} is empty")
        if card is not None and card != pile[-1]:
            raise _Refused(f"the top of pile {i + 1} is {pile[-1].pretty()}")
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
            "piles": [_top(p) for p in pos.piles],
            "kbases": bases(pos.kbases, lambda n: napoleao.KING + 1 - n),
            "abases": bases(pos.abases, lambda n: n),
            "pass": {"number": pos.redeals + 1, "of": v.redeals + 1},
            "round": pos.rounds,
            "restricted": napoleao.restricted(pos),
        }


class _Jewel(_Family[JewelPosition]):
    family = "jewel"

    def legal(self, pos: JewelPosition) -> list[Move]:
        return [self.blind(m) for m in self.engine.legal_moves(pos)]

    def to_engine(self, pos: JewelPosition, move: Move) -> tuple[Move, Fix[JewelPosition] | None]:
        pending = jewel.space_pending(pos)
        if move.action == "jewel":
            if pending is None:
                raise _Refused("no space waits for a jewel" if pos.jewels else "no jewels are left")
            if move.dst is not None and move.dst != pending:
                raise _Refused(f"the space to fill is {pending}")
            return Move.jewel(pos.jewels[0], pending), None
        if pending is not None:
            raise _Refused(f"{pending} is empty: the next jewel must fill it first")
        if move.action == "turn":
            return Move.turn(pos.stock[:1]), None
        if move.action != "move":
            raise _Refused(f"there is no {move.action} in {pos.variant.name}; actions are turn, move, jewel")
        (src, dst), card = _places(move), move.card
        kind = src.partition(":")[0]
        top: Card | None
        if kind == "stock":
            if pos.turned is None:
                raise _Refused("no card is turned: turn the stock first")
            top = pos.turned
        elif kind == "lid":
            i = _indexed(src, "lid", jewel.LID_SIZE)
            top = pos.lid[i] if i is not None else None
        elif kind in ("side", "bottom"):
            i = _indexed(src, kind, 4)
            pile = (pos.sides if kind == "side" else pos.bottoms)[i] if i is not None else ()
            top = pile[-1] if pile else None
        elif kind == "reserve":
            i = _indexed(src, "reserve", len(pos.reserves)) if pos.reserves else None
            if not pos.reserves:
                raise _Refused("this game has no reserves")
            top = pos.reserves[i][-1] if i is not None and pos.reserves[i] else None
        elif kind == "foundation":
            raise _Refused("cards on the foundations never move again")
        else:
            raise _Refused(f"unknown place {brief(src)}; places are stock, lid:N, side:N, bottom:N, reserve:N")
        if kind != "stock" and ":" not in src:
            raise _Refused(f"say which {kind}: {kind}:1, {kind}:2...")
        if top is None:
            raise _Refused(f"{src.replace(':', ' ')} is empty")
        card = card or top
        if dst == "foundation":
            dst = f"foundation:{card.suit}"
        return Move.move(card, src, dst), None

    def to_player(self, pos: JewelPosition, move: Move) -> Move:
        return self.blind(move)

    def auto(self, pos: JewelPosition, enabled: bool) -> Move | None:
        # A space is filled before the next move: the rules' own, so always.
        pending = jewel.space_pending(pos)
        return Move("jewel", dst=pending) if pending else None

    def view(self, pos: JewelPosition) -> dict[str, Any]:
        found = {}
        for s, counts in zip(SUITS, pos.foundations):
            found[s] = [{"count": n, "top": str(Card(n, s)) if n else None} for n in counts]
        return {
            "stock": {"count": len(pos.stock)},
            "turned": _card(pos.turned),
            "lid": [_card(c) for c in pos.lid],
            "sides": [[str(c) for c in p] for p in pos.sides],
            "bottoms": [[str(c) for c in p] for p in pos.bottoms],
            "jewels": {"count": len(pos.jewels), "pending": jewel.space_pending(pos)},
            "reserves": [_top(r) for r in pos.reserves],
            "foundations": found,
        }


#: The families by name. A game's positions are of its own family, which
#: the variant says at run time: ``Any`` is that pairing, in :class:`Game`.
_FAMILIES: dict[str, _Family[Any]] = {f.family: f for f in (_Tomb(), _Napoleao(), _Jewel())}


# ---------------------------------------------------------------------------
# The lines of recent hints


class _Lines:
    """The lines of the last hints that proved something (``won`` or
    ``lost``), by every position along them: a hint asked from a position
    on such a line continues it instead of searching again. That keeps a
    player who follows the hints on one line (a new search from the next
    position may start another, and in the jewel box two such lines can
    send a card back and forth), and it is honest: the rest of a winning
    line wins, and a position reached from a lost one is lost with the same
    best score, which the rest of the line reaches. A position met twice on
    a line continues from its last visit."""

    def __init__(self, positions: int = 10_000) -> None:
        self._lines: OrderedDict[int, tuple[dict[AnyPosition, int], Hint]] = OrderedDict()
        self._room = positions          # the positions kept, all lines together
        self._kept = 0
        self._lock = threading.Lock()
        self._count = 0

    def get(self, pos: AnyPosition) -> Hint | None:
        with self._lock:
            for key, (where, h) in reversed(self._lines.items()):
                k = where.get(pos)
                if k is not None and k < len(h.line):
                    self._lines.move_to_end(key)
                    rest = h.line[k:]
                    return replace(h, move=rest[0], line=rest, stats=Stats(), score_now=pos.score)
        return None

    def put(self, pos: AnyPosition, h: Hint) -> None:
        if h.status not in ("won", "lost") or not h.line or h.line[0] != h.move:
            return
        play = families.engine(pos.variant.family).play
        where: dict[AnyPosition, int] = {pos: 0}
        for k, m in enumerate(h.line, 1):
            pos = play(pos, m)
            where[pos] = k
        with self._lock:
            self._count += 1
            self._lines[self._count] = (where, h)
            self._kept += len(where)
            while self._kept > self._room and len(self._lines) > 1:
                self._kept -= len(self._lines.popitem(last=False)[1][0])


_LINES = _Lines()


# ---------------------------------------------------------------------------
# The game


class Game:
    """One game of ``variant`` from the start of ``deal`` (a number or a
    :class:`~solver.deals.Deal`), or from ``position`` (a position of the
    variant's family, e.g. from :func:`~solver.api.position_after`).

    ``auto`` (default on) lets the game make the moves the rules make by
    themselves (see the module text). The game is a list of *steps*: a move
    of the player with the moves made by themselves after it.
    """

    def __init__(self, variant: str | BaseVariant = DEFAULT_VARIANT, deal: DealLike | None = None, *,
                 position: AnyPosition | None = None, auto: bool = True) -> None:
        if position is None:
            if deal is None:
                raise GameError("a game needs a deal (a number or cards) or a position")
            position = start_position(deal, variant)
        elif not isinstance(position, families.POSITION_CLASSES):
            raise GameError(f"{brief(position)} is not a position")
        self.variant = position.variant
        self.start = position
        self.auto = auto
        self._family = _FAMILIES[self.variant.family]
        self._steps: list[tuple[tuple[Move, ...], AnyPosition]] = []
        self._redo: list[tuple[Move, ...]] = []

    @classmethod
    def from_position(cls, position: AnyPosition, *, auto: bool = True) -> Game:
        return cls(position=position, auto=auto)

    @classmethod
    def replay(cls, variant: str | BaseVariant, deal: DealLike, steps: Iterable[object], *,
               auto: bool = True) -> Game:
        """The game after ``steps`` (each a list of moves in the player's
        notation, as :meth:`steps_json` gives them), played exactly as listed.
        A bad step raises :class:`~solver.game.MoveError` naming it."""
        game = cls(variant, deal, auto=auto)
        for number, step in enumerate(steps, 1):
            if not isinstance(step, (list, tuple)) or not step:
                raise MoveError(f"step {number}: a step is a non-empty list of moves")
            try:
                game._steps.append(game._step(game.position, [parse_move(m) for m in step]))
            except MoveError as exc:
                raise type(exc)(f"step {number}: {exc}") from None
        return game

    # -- state

    @property
    def position(self) -> AnyPosition:
        """The position now (the reference engine's object; it holds hidden cards)."""
        return self._steps[-1][1] if self._steps else self.start

    @property
    def deal(self) -> int | None:
        d = self.start.deal
        return d.number if d is not None else None

    @property
    def score(self) -> int:
        return self.position.score

    @property
    def won(self) -> bool:
        return self.position.won

    @property
    def stuck(self) -> bool:
        """Not won, and no move is legal: the game is over."""
        return not self.won and not self._family.engine.legal_moves(self.position)

    @property
    def over(self) -> bool:
        return self.won or self.stuck

    @property
    def steps(self) -> list[tuple[Move, ...]]:
        return [moves for moves, _ in self._steps]

    @property
    def can_undo(self) -> bool:
        return bool(self._steps)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def legal_moves(self) -> list[Move]:
        """Every legal move now, in the player's notation (a place a player
        may choose among several of a kind is listed once for each)."""
        return self._family.legal(self.position)

    # -- moves

    def _apply(self, pos: AnyPosition, move: Move) -> tuple[Move, AnyPosition]:
        """Play one move of the player's notation on ``pos``: the move as
        played (its card and places named) and the position after it."""
        try:
            engine_move, fix = self._family.to_engine(pos, move)
            after = self._family.engine.play(pos, engine_move)
        except _Refused as r:
            raise IllegalMoveError(f"{describe(move)}: {r}", move, str(r)) from None
        except IllegalMoveError as exc:
            # The engine's message names the engine's move, which may name
            # hidden cards (a turn's): say the player's move instead.
            raise IllegalMoveError(f"{describe(move)}: {exc.reason}", move, exc.reason) from None
        played = self._family.to_player(pos, engine_move)
        if fix is not None:
            after, played = fix(after), replace(played, dst=move.dst)
        return played, after

    def _step(self, pos: AnyPosition, moves: Iterable[Move]) -> tuple[tuple[Move, ...], AnyPosition]:
        played = []
        for m in moves:
            m, pos = self._apply(pos, m)
            played.append(m)
        return tuple(played), pos

    def play(self, move: Move | dict[str, Any], *, auto: bool | None = None) -> tuple[Move, ...]:
        """Play ``move`` (player's notation: a :class:`~solver.game.Move` or
        its JSON object) and the moves the rules then make by themselves;
        return the step (the moves played, cards named where the player sees
        them). An illegal move raises :class:`~solver.game.IllegalMoveError`
        saying why, and changes nothing. Playing clears the redo list."""
        first, pos = self._apply(self.position, parse_move(move))
        played = [first]
        use_auto = self.auto if auto is None else auto
        while (extra := self._family.auto(pos, use_auto)) is not None:
            extra, pos = self._apply(pos, extra)
            played.append(extra)
        self._steps.append((tuple(played), pos))
        self._redo.clear()
        return tuple(played)

    def undo(self) -> tuple[Move, ...]:
        """Take back the last step; return it."""
        if not self._steps:
            raise GameError("nothing to undo: this is the start of the game")
        moves, _ = self._steps.pop()
        self._redo.append(moves)
        return moves

    def redo(self) -> tuple[Move, ...]:
        """Play again the last step undone; return it."""
        if not self._redo:
            raise GameError("nothing to redo")
        moves, after = self._step(self.position, self._redo[-1])
        self._redo.pop()
        self._steps.append((moves, after))
        return moves

    def restart(self) -> None:
        """Undo every step (they can all be redone)."""
        while self._steps:
            self.undo()

    # -- help that is not a search

    def finish_steps(self) -> list[tuple[Move, ...]] | None:
        """The steps that win from here with nothing left to decide: each a
        move home (the first listed) or, when there is none, a turn of the
        stock (a deal, a redeal). ``None`` when that does not win: the
        player still has choices to make. Nothing is played."""
        game = Game.from_position(self.position, auto=self.auto)
        steps: list[tuple[Move, ...]] = []
        while not game.won:
            legal = game.legal_moves()
            home = [m for m in legal if m.action == "move" and (m.dst or "").split(":")[0] in HOME_PLACES]
            stock = [m for m in legal if m.action != "move"]
            if (not home and not stock) or len(steps) > 4 * self.variant.cards:
                return None
            steps.append(game.play(home[0] if home else stock[0]))
        return steps

    def finish(self) -> list[tuple[Move, ...]]:
        """Play :meth:`finish_steps` (the cards home, nothing left to decide);
        return them. A game that is not at that point raises :class:`GameError`."""
        steps = self.finish_steps()
        if steps is None:
            raise GameError("the game is not over yet: there are still choices to make")
        for step in steps:
            self._steps.append(self._step(self.position, step))
        self._redo.clear()
        return steps

    def fair_hint(self) -> Move | None:
        """The move of the careful blind player (:mod:`solver.blind`): a
        hint that uses only what the player can see, never the stock's
        order, and proves nothing. The Napoleon's Tomb variants only."""
        pos = self.position
        if not isinstance(pos, TombPosition):
            raise GameError(f"a fair hint needs the blind player, written for the Napoleon's Tomb variants;"
                            f" {self.variant.name} is not one")
        choice = careful_move(pos)
        return None if choice is None else self._family.to_player(pos, choice)

    # -- what the player sees

    def view(self) -> dict[str, Any]:
        """The table as the player sees it, as JSON: no card of the stock or
        of a face-down pile. ``legal``: the legal moves (player's notation)."""
        pos = self.position
        legal = self.legal_moves()
        return {
            "variant": self.variant.name,
            "family": self.variant.family,
            "deal": self.deal,
            "score": pos.score,
            "total": self.variant.cards,
            "won": pos.won,
            "stuck": not pos.won and not legal,
            "steps": len(self._steps),
            "moves_played": pos.moves_played - self.start.moves_played,
            "can_undo": self.can_undo,
            "can_redo": self.can_redo,
            "finishable": not pos.won and bool(legal) and self.finish_steps() is not None,
            "table": self._family.view(pos),
            "legal": [move_json(m) for m in legal],
        }

    def steps_json(self) -> list[list[dict[str, Any]]]:
        """The steps played, in the player's notation (what :meth:`replay` takes)."""
        return [[move_json(m) for m in moves] for moves, _ in self._steps]

    def hint(self, limit: Limit | None = None, *, cancel: Cancel | None = None) -> Hint:
        """The solver's hint from the position now (:func:`solver.hints.hint`),
        its move in the player's notation (``line`` stays the engine's). A
        position on the line of a recent hint that proved its answer goes on
        along that line without a search (see :class:`_Lines`). ``cancel``
        (:class:`~solver.Cancel`) stops the search from another thread."""
        pos = self.position
        h = _LINES.get(pos)
        if h is None:
            h = _hint(pos, limit=limit, cancel=cancel)
            _LINES.put(pos, h)
        return self.player_hint(h)

    def player_hint(self, h: Hint) -> Hint:
        """``h`` (a hint from the position now) with its move in the player's notation."""
        if h.move is None:
            return h
        return replace(h, move=self._family.to_player(self.position, h.move))

    def __str__(self) -> str:
        return str(self.position)
