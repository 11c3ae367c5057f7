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

The rules are the core's rules of play (csrc/play.h, which the page runs
too): a move is legal exactly when they say so.
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
from collections.abc import Iterable
from dataclasses import replace
from typing import Any, cast

from . import families
from .api import DEFAULT_VARIANT, Cancel, DealLike, Limit, Stats, start_position
from .blind import careful_move
from .errors import CoreError, GameError
from .families import AnyPosition
from .families.player import Refused
from .families.tomb import TombPosition
from .hints import Hint
from .hints import hint as _hint
from .inputs import brief
from .notation import ACTIONS as ACTIONS
from .notation import HOME_PLACES, IllegalMoveError, Move, MoveError, describe, move_json, parse_move
from .variants import BaseVariant

__all__ = ["Game", "GameError", "describe", "parse_move", "move_json"]

# ---------------------------------------------------------------------------
# The player's notation: read and written by solver.notation (parse_move,
# move_json), which also words it for a player (describe).


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
        self._room = positions  # the positions kept, all lines together
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
        if h.verdict not in ("won", "lost") or not h.line or h.line[0] != h.move:
            return
        play = families.of(pos.variant).player.core.play
        where: dict[AnyPosition, int] = {pos: 0}
        for k, m in enumerate(h.line, 1):
            _, pos = play(pos, m)
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

    def __init__(
        self,
        variant: str | BaseVariant = DEFAULT_VARIANT,
        deal: DealLike | None = None,
        *,
        position: AnyPosition | None = None,
        auto: bool = True,
    ) -> None:
        if position is None:
            if deal is None:
                raise GameError("a game needs a deal (a number or cards) or a position")
            position = start_position(deal, variant)
        elif families.of_position(position) is None:
            raise GameError(f"{brief(position)} is not a position")
        self.variant = position.variant
        self.start = position
        self.auto = auto
        self._family = families.of(self.variant).player
        try:
            self._family.legal(position)
        except CoreError as exc:
            raise GameError(f"not a position to play from: {exc}") from None
        self._steps: list[tuple[tuple[Move, ...], AnyPosition]] = []
        self._redo: list[tuple[Move, ...]] = []

    @classmethod
    def from_position(cls, position: AnyPosition, *, auto: bool = True) -> Game:
        return cls(position=position, auto=auto)

    @classmethod
    def replay(cls, variant: str | BaseVariant, deal: DealLike, steps: Iterable[object], *, auto: bool = True) -> Game:
        """The game after ``steps`` (each a list of moves in the player's
        notation, as :meth:`steps_json` gives them), played exactly as listed.
        A bad step raises :class:`~solver.errors.MoveError` naming it."""
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
        """The position now (the family's position; it holds hidden cards)."""
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
        return not self.won and not self._family.legal(self.position)

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
            played, after = self._family.play(pos, move)
        except Refused as r:
            raise IllegalMoveError(f"{describe(move)}: {r}", move, str(r)) from None
        return played, after

    def _step(self, pos: AnyPosition, moves: Iterable[Move]) -> tuple[tuple[Move, ...], AnyPosition]:
        played = []
        for m in moves:
            m, pos = self._apply(pos, m)
            played.append(m)
        return tuple(played), pos

    def play(self, move: Move | dict[str, Any], *, auto: bool | None = None) -> tuple[Move, ...]:
        """Play ``move`` (player's notation: a :class:`~solver.notation.Move` or
        its JSON object) and the moves the rules then make by themselves;
        return the step (the moves played, cards named where the player sees
        them). An illegal move raises :class:`~solver.errors.IllegalMoveError`
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
        if not families.of(self.variant).blind_players:
            raise GameError(
                f"a fair hint needs the blind player, written for the Napoleon's Tomb variants;"
                f" {self.variant.name} is not one"
            )
        choice = careful_move(cast(TombPosition, pos))
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
            "fair_hint": families.of(self.variant).blind_players,
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
            "layout": self._family.layout(pos),
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
