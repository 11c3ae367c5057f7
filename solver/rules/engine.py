"""What the three reference engines share: how a rejected move is reported,
replaying a line, and the plain exhaustive search.

Each engine (:mod:`solver.rules.tomb`, :mod:`solver.rules.napoleao`,
:mod:`solver.rules.jewel`) keeps its own rules and its own public ``replay``
and ``search``; they call these with their ``play``, ``legal_moves``,
``position_key`` and ``score``. None of it is shared with the C core.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import Field
from typing import Any, ClassVar, Protocol, TypeVar

from ..cards import Card
from ..deals import Deal
from ..notation import IllegalMoveError, Move, MoveError
from ..vocabulary import Verdict

#: A position of one family.
P = TypeVar("P")


class Rules(Protocol):
    """The rule parameters every engine reads (a variant's); each engine
    adds its own."""

    @property
    def name(self) -> str: ...


class Table(Protocol):
    """The fields of a position every engine reads and replaces; each
    engine adds its family's. A position is any frozen dataclass with them
    (``dataclasses.replace`` makes the next): the engines import none of the
    positions they check."""

    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    @property
    def variant(self) -> Rules: ...
    @property
    def stock(self) -> tuple[Card, ...]: ...
    @property
    def moves_played(self) -> int: ...
    @property
    def history(self) -> tuple[Move, ...]: ...
    @property
    def deal(self) -> Deal | None: ...


class Reject(Exception):
    """Internal to the engines: why a move is illegal (``play`` adds the move's name)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def describe(move: Any) -> str:
    try:
        return str(move)
    except Exception:  # a malformed Move (no card, say) still gets a name
        return repr(move)


def illegal(text: str, move: object, reason: str, number: int | None = None) -> IllegalMoveError:
    """The error ``play`` and ``replay`` raise; it carries the move and the bare reason."""
    return IllegalMoveError(text, move, reason, number)


def replay_with(play: Callable[[P, Move], P], start: P, moves: Iterable[Move | dict[str, Any]]) -> P:
    """Play ``moves`` (Move objects or solution-format dicts) from ``start`` with
    ``play``; the first bad move raises :class:`IllegalMoveError` saying its
    1-based number."""
    pos = start
    for number, move in enumerate(moves, 1):
        if isinstance(move, dict):
            try:
                move = Move.from_json(move)
            except MoveError as exc:
                raise illegal(f"move {number}: {exc}", move, str(exc), number) from None
        try:
            pos = play(pos, move)
        except IllegalMoveError as exc:
            reason = exc.reason
            raise illegal(f"move {number} ({describe(move)}): {reason}", move, reason, number) from None
    return pos


class _Tree:
    """The positions a search reached, one node each: its parent's node number
    and the move from there, so that a line is rebuilt only when one is returned."""

    def __init__(self) -> None:
        self.parents: list[int] = [-1]
        self.via: list[Move | None] = [None]  # the root has no move

    def add(self, parent: int, move: Move) -> int:
        """The number of a new node, reached from ``parent`` by ``move``."""
        self.parents.append(parent)
        self.via.append(move)
        return len(self.parents) - 1

    def line_to(self, node: int) -> list[Move]:
        """The moves from the root to ``node``."""
        line = []
        while node > 0:
            move = self.via[node]
            assert move is not None  # every node but the root has its move
            line.append(move)
            node = self.parents[node]
        line.reverse()
        return line


def _unseen(
    here: P,
    moves: Iterable[Move],
    *,
    play: Callable[[P, Move], P],
    key: Callable[[P], Hashable],
    skip: Callable[[Move], bool] | None,
    visited: set[Hashable],
) -> Iterator[tuple[Move, P]]:
    """The ``moves`` from ``here`` (but those ``skip`` names) that reach a
    position whose key is not in ``visited``, with that position; each key is
    added as its move is given. Lazy: a search that stops plays no further."""
    for move in moves:
        if skip is not None and skip(move):
            continue
        after = play(here, move)
        k = key(after)
        if k in visited:
            continue
        visited.add(k)
        yield move, after


def exhaustive_search(
    pos: P,
    *,
    legal_moves: Callable[[P], list[Move]],
    play: Callable[[P, Move], P],
    key: Callable[[P], Hashable],
    score: Callable[[P], int],
    goal: int,
    max_positions: int,
    skip: Callable[[Move], bool] | None = None,
) -> tuple[Verdict, int, list[Move]]:
    """Plain exhaustive depth-first search from ``pos``: every move of
    ``legal_moves`` except those ``skip`` names, positions told apart by
    ``key``.

    Returns ``("won", goal, line)`` when a position scores ``goal``;
    ``("lost", best, line)`` when every reachable position was explored
    (``line`` reaches the best score); ``("unknown", best, line)`` when more
    than ``max_positions`` distinct positions were seen. Iterative: lines may
    be hundreds of moves long.
    """
    best_score = score(pos)
    if best_score == goal:
        return "won", goal, []
    tree = _Tree()
    best_node = 0
    visited = {key(pos)}
    stack: list[tuple[P, int]] = [(pos, 0)]
    while stack:
        here, node = stack.pop()
        children = []
        for move, after in _unseen(here, legal_moves(here), play=play, key=key, skip=skip, visited=visited):
            child = tree.add(node, move)
            s = score(after)
            if s == goal:
                return "won", goal, tree.line_to(child)
            if s > best_score:
                best_score, best_node = s, child
            if len(visited) > max_positions:
                return "unknown", best_score, tree.line_to(best_node)
            children.append((after, child))
        # The first listed move is explored first.
        stack.extend(reversed(children))
    return "lost", best_score, tree.line_to(best_node)
