"""The rules of play in the core (csrc/play.h), for a player: the legal
moves of a position, a move applied, the moves the rules make by
themselves. One source of the rules of play for :class:`~solver.session.Game`
and for the page, which runs the same C compiled to WebAssembly; the
reference engines (:mod:`solver.rules`) check both in the tests
(tests/test_play_core.py).

>>> from solver.deals import Deal
>>> from solver.variants import load
>>> from solver.families import of
>>> v = load("napoleons-tomb")
>>> pos = of(v).position.start(Deal.from_number(1), v)
>>> [m.text() for m in of(v).player.core.moves(pos)[0]]  # a turn names its card: a player's view leaves it out
['{"action": "turn", "cards": ["JD"]}']
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any

from .._core import ffi, lib
from ..cards import Card
from ..errors import CoreError
from ..notation import IllegalMoveError, Move

if TYPE_CHECKING:
    from .._core import CData

_CARDS = tuple(Card.from_index(i) for i in range(52))


def _words(name_of: Callable[[int], CData]) -> dict[int, str]:
    """The core's words by number (csrc/play/vocabulary.c), to the first it has not."""
    out: dict[int, str] = {}
    while (name := name_of(len(out))) != ffi.NULL:
        out[len(out)] = ffi.string(name).decode()
    return out


#: The kinds of place by number, and the actions, as the core names them.
_NAMES = _words(lib.solver_place_name)
_ACTIONS = {name: number for number, name in _words(lib.solver_action_name).items()}
_NUMBERING = {kind: lib.solver_place_numbering(kind) for kind in _NAMES}

_ERR = 240
_KEY_ROOM = lib.SOLVER_KEY_ROOM
#: Where a position made by the core keeps the core's struct of it.
_KEPT = "_core_table"


def place_name(kind: int, index: int, engine: bool = False) -> str:
    """The name of a place of a move record: ``cell:2``, ``kbase:H``;
    ``engine``: as the solution format names it (the Tomb's cells and
    corners without their number)."""
    name, numbering = _NAMES[kind], _NUMBERING[kind]
    if numbering == lib.SOLVER_NUMBERED_SUIT:
        return f"{name}:{'CSHD'[index]}"
    if not index or (engine and numbering == lib.SOLVER_NUMBERED_FOR_PLAYER):
        return name
    return f"{name}:{index}"


def record_move(m: CData, engine: bool = False) -> Move:
    """The Move of a move record, every card it names kept (a turn's, a
    jewel's: :meth:`Player.blind` takes them out for a player)."""
    if m.action in (lib.SOLVER_TURN, lib.SOLVER_DEAL):
        cards = tuple(_CARDS[c] for c in m.cards[0 : m.ncards])
        return Move("turn" if m.action == lib.SOLVER_TURN else "deal", cards=cards)
    if m.action == lib.SOLVER_REDEAL:
        return Move.redeal()
    if m.action == lib.SOLVER_JEWEL_FILL:
        return Move.jewel(_CARDS[m.card], place_name(m.dst, m.dst_index))
    return Move.move(_CARDS[m.card], place_name(m.src, m.src_index, engine), place_name(m.dst, m.dst_index, engine))


def place_record(name: str, family: int) -> tuple[int, int] | None:
    """The kind and index of a place the player names in the family
    numbered ``family`` (None: no such place in any game; a bare ``cell``
    has index 0, a bare ``kbase``, ``abase``, ``foundation``
    SOLVER_ANY_SUIT)."""
    kind, _, index = name.partition(":")
    k = lib.solver_place_kind(family, kind.encode())
    if k < 0:  # a place of another family's: the family's rules word the refusal
        k = next((number for number, n in _NAMES.items() if n == kind), -1)
        if k < 0:
            return None
    if _NUMBERING[k] == lib.SOLVER_NUMBERED_SUIT:
        if not index:
            return k, lib.SOLVER_ANY_SUIT
        return (k, "CSHD".index(index)) if len(index) == 1 and index in "CSHD" else None
    if not index:
        return k, 0
    return (k, int(index)) if index.isascii() and index.isdigit() and int(index) < 100 else None


def core_number(family: str) -> int:
    """The core's number of the family called ``family`` (its entry in
    csrc/families/registry.c), or a CoreError where the core has none.

    >>> core_number("tomb"), core_number("napoleao"), core_number("jewel")
    (0, 1, 2)
    """
    number = lib.solver_family(family.encode())
    if number < 0:
        raise CoreError(f"the core has no game family {family!r}")
    return int(number)


@dataclass(frozen=True)
class CorePlay:
    """One family's rules of play in the core: the family's name, its rules
    struct, and its positions to and from the core's play structs."""

    family: str
    rules: Callable[[Any], CData]
    table: Callable[[Any], CData]
    from_table: Callable[[CData, Any], Any]

    @cached_property
    def number(self) -> int:
        """The family's number in the core."""
        return core_number(self.family)

    def _table(self, pos: Any) -> CData:
        """The core's play struct of ``pos``: a copy of the one the core left
        when it made ``pos`` (:meth:`apply`), else made from the position,
        every place checked."""
        kept = pos.__dict__.get(_KEPT)
        if kept is None:
            return self.table(pos)
        ctype, data = kept
        t = ffi.new(ctype)
        ffi.memmove(t, data, len(data))
        return t

    def _call(self, verb: str) -> Any:
        call = getattr(lib, f"solver_play_{verb}")
        return lambda *args: call(self.number, *args)

    def moves(self, pos: Any, engine: bool = False) -> tuple[list[Move], CData]:
        """Every legal move of ``pos``, as Moves (cards named; ``engine``: the
        places as the solution format names them) and as the core's array of
        move records (the i-th record: ``array + i``)."""
        out = ffi.new("solver_move[]", lib.PLAY_MAX_MOVES)
        err = ffi.new("char[]", _ERR)
        n = self._call("moves")(self.rules(pos.variant), self._table(pos), out, lib.PLAY_MAX_MOVES, err, _ERR)
        if n < 0:
            raise CoreError(ffi.string(err).decode())
        return [record_move(out[i], engine) for i in range(min(n, lib.PLAY_MAX_MOVES))], out

    def apply(self, pos: Any, m: CData) -> tuple[CData, Any] | str:
        """The move record ``m`` (a player's move: its places may be named by
        their kind alone) applied to ``pos``: the move as made (the core's
        record of it, every place numbered, a turn's cards named) and the
        position after it; or the core's reason it is refused, as a string."""
        t = self._table(pos)
        played = ffi.new("solver_move *")
        err = ffi.new("char[]", _ERR)
        if self._call("apply")(self.rules(pos.variant), t, m, played, err, _ERR) != 0:
            return ffi.string(err).decode()
        after = self.from_table(t, pos.variant)
        history = pos.history + (record_move(played, engine=True),)
        after = replace(after, deal=pos.deal, moves_played=pos.moves_played + 1, history=history)
        # The struct kept beside the (frozen) position, outside its fields: a
        # position made from it by dataclasses.replace is converted afresh.
        object.__setattr__(after, _KEPT, (ffi.typeof(t), bytes(ffi.buffer(t))))
        return played, after

    def made(self, pos: Any, move: Move) -> tuple[CData, Any]:
        """``move`` (the solution format's, or a player's) applied to ``pos``:
        the core's record of the move as made and the position after it. A
        move the rules refuse raises :class:`~solver.notation.IllegalMoveError`
        with the core's reason; so does a turn or a deal naming other cards
        than the stock turns."""
        record = self.record(move)
        out = f"there is no place {move.src or move.dst} in this game" if record is None else self.apply(pos, record)
        if isinstance(out, str):
            raise IllegalMoveError(f"{move}: {out}", move, out)
        played, after = out
        if move.cards and move.action in ("turn", "deal"):
            turned = record_move(played).cards
            if move.cards != turned:
                shown = " ".join(c.pretty() for c in turned)
                reason = (
                    f"the next stock card is {shown}"
                    if len(turned) == 1
                    else f"the next {len(turned)} stock cards are {shown}"
                )
                raise IllegalMoveError(f"{move}: {reason}", move, reason)
        return played, after

    def play(self, pos: Any, move: Move) -> tuple[Move, Any]:
        """``move`` (the solution format's, or a player's) applied to ``pos``:
        the move as made, in the solution format (its cards named), and the
        position after it (:meth:`made`)."""
        played, after = self.made(pos, move)
        return record_move(played, engine=True), after

    def replay(self, start: Any, moves: Iterable[Move]) -> Any:
        """The position after ``moves`` (the solution format's) from
        ``start``; the first the rules refuse raises
        :class:`~solver.notation.IllegalMoveError` saying its 1-based number."""
        pos = start
        for number, move in enumerate(moves, 1):
            try:
                _, pos = self.play(pos, move)
            except IllegalMoveError as exc:
                raise IllegalMoveError(f"move {number} ({move}): {exc.reason}", move, exc.reason, number) from None
        return pos

    def legal(self, pos: Any) -> list[Move]:
        """The legal moves of ``pos`` in the solution format, each once (a
        move onto one of several empty cells is one move there)."""
        out: list[Move] = []
        for m in self.moves(pos, engine=True)[0]:
            if m not in out:
                out.append(m)
        return out

    def view(self, pos: Any) -> dict[str, Any]:
        """The table of ``pos`` as a player sees it (the core's JSON: the
        counts of face-down cards, never which they are)."""
        return self._json("view", pos)

    def layout(self, pos: Any) -> dict[str, Any]:
        """The table of ``pos`` as the page draws it (the core's JSON,
        docs/web.md, "The layout"): its areas of spots, their words, the
        status line's counter; no face-down card."""
        return self._json("layout", pos)

    def _json(self, verb: str, pos: Any) -> dict[str, Any]:
        rules, t = self.rules(pos.variant), self._table(pos)
        err = ffi.new("char[]", _ERR)
        size = 4096
        while True:
            out = ffi.new("char[]", size)
            n = self._call(verb)(rules, t, out, size, err, _ERR)
            if n < 0:
                raise CoreError(ffi.string(err).decode())
            if n < size:
                data: dict[str, Any] = json.loads(ffi.string(out).decode())
                return data
            size = n + 1

    def key(self, pos: Any, canonical: bool = False) -> bytes:
        """The core's key of ``pos``: equal only for the same position
        (``canonical``: the places a player cannot tell apart compared by
        what they hold, as the blind games count repetitions)."""
        return self._key(self.rules(pos.variant), self._table(pos), canonical)

    def _key(self, rules: CData, table: CData, canonical: bool) -> bytes:
        err = ffi.new("char[]", _ERR)
        out = ffi.new("uint8_t[]", _KEY_ROOM)
        n = self._call("key")(rules, table, canonical, out, _KEY_ROOM, err, _ERR)
        if n < 0:
            raise CoreError(ffi.string(err).decode())
        if n > _KEY_ROOM:
            raise CoreError(f"a key of {n} bytes: more than the {_KEY_ROOM} kept for it")
        return bytes(ffi.buffer(out, n))

    def choose(self, pos: Any, strategy: tuple[int, int, int], records: CData, n: int) -> int | None:
        """The index among the ``n`` move records of ``records`` (moves of
        ``pos``, as :meth:`moves` lists them, perhaps some left out) of the
        blind player's move (``strategy``: its number, ``within`` and
        ``keep_last_cell``, as play.h's solver_play_choose takes them), or
        None where it would stop."""
        err = ffi.new("char[]", _ERR)
        i = self._call("choose")(self.rules(pos.variant), self._table(pos), *strategy, records, n, err, _ERR)
        if i < -1:
            raise CoreError(ffi.string(err).decode())
        return None if i < 0 else int(i)

    def blind(self, pos: Any, strategy: tuple[int, int, int], max_moves: int) -> tuple[list[Move], int, int]:
        """The blind game of ``strategy`` (as :meth:`choose`) from ``pos``
        (solver_play_blind): its moves in the solution format, the score at
        its end and the positions it went through."""
        rules, t = self.rules(pos.variant), self._table(pos)
        line = ffi.new("solver_move[]", max(max_moves, 1))
        positions = ffi.new("int *")
        err = ffi.new("char[]", _ERR)
        n = self._call("blind")(rules, t, *strategy, max_moves, line, max_moves, positions, err, _ERR)
        if n < 0:
            raise CoreError(ffi.string(err).decode())
        return [record_move(line[i], engine=True) for i in range(n)], self._call("score")(rules, t), positions[0]

    def distance(self, pos: Any, card: Card) -> int | None:
        """How many ranks a foundation must still build before it takes
        ``card`` (0: it fits now), or None where none will."""
        d = self._call("distance")(self.rules(pos.variant), self._table(pos), card.index)
        if d < -1:
            raise CoreError(f"the {self.family} games' players count no distances")
        return None if d < 0 else int(d)

    def restricted(self, pos: Any) -> bool:
        """Whether a restriction of the rules holds now (Paciência Napoleão's
        first rounds: only a card that starts a base leaves the piles)."""
        return bool(self._call("restricted")(self.rules(pos.variant), self._table(pos)) > 0)

    def auto(self, pos: Any, enabled: bool) -> Move | None:
        out = ffi.new("solver_move *")
        if not self._call("auto")(self.rules(pos.variant), self._table(pos), enabled, out):
            return None
        return record_move(out)

    def record(self, move: Move) -> CData | None:
        """The move record of a player's move (None: it names no place there is)."""
        r = ffi.new("solver_move *")
        r.action = _ACTIONS[move.action]
        r.card = move.card.index if move.card is not None else lib.SOLVER_NO_CARD
        for name, side in ((move.src, "src"), (move.dst, "dst")):
            if name:
                place = place_record(name, self.number)
                if place is None:
                    return None
                setattr(r, side, place[0])
                setattr(r, f"{side}_index", place[1])
        return r
