"""The pure-Python reference rules engine for the Napoleon's Tomb family.

This module is the independent checker of every line the C core returns: it
shares no code or tables with the C side, and it is written to be read, not to
be fast. Every rule comes from the :class:`~solver.variants.TombVariant`'s
parameters (``turn``, ``passes``, ``cells``, ``cell_sources``,
``cell_targets``, ``sixes_reserve``); no variant is named in the code. The rules
themselves are written out in ``docs/rules/napoleons-tomb.md``.

The table, as :class:`~solver.families.tomb.TombPosition` holds it:

- four **corners** build up 7, 8, ..., K (an empty corner takes any 7);
- the **tomb** builds down 6, 5, 4, 3, 2, A four times over (24 cards): with
  ``n`` cards on it, it wants rank ``6 - n % 6``;
- **cells** hold one card each; a **sixes reserve** (some variants) holds
  waiting 6s, which leave it only for the tomb;
- the **stock** turns ``variant.turn`` cards at a time onto the **waste**,
  whose top card alone is playable; a **redeal** turns the waste back into the
  stock, order kept, while passes remain.

Moves name places without indices (``'cell'``, ``'corner'``): a reader picks
the cell holding the card, or any corner that accepts it.

>>> from solver.cards import Card, DECK
>>> from solver.variants import load
>>> c = Card.parse
>>> first = [c(t) for t in "7S 8H 9C".split()]
>>> pos = TombPosition.start(first + [x for x in DECK if x not in first], load("napoleons-tomb"))
>>> pos = play(pos, Move.turn([c("7S")]))
>>> legal_moves(pos)[:2]
[Move.move(7S, 'waste', 'corner'), Move.move(7S, 'waste', 'cell')]
>>> pos = replay(pos, [Move.move(c("7S"), "waste", "corner"), Move.move(c("8H"), "stock", "corner")])
>>> score(pos), pos.moves_played
(2, 3)
>>> play(pos, Move.move(c("9C"), "waste", "corner"))
Traceback (most recent call last):
...
solver.errors.IllegalMoveError: 9♣ waste → corner: the waste is empty
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import replace
from typing import Any, Protocol, TypeVar

from ..cards import Card
from ..notation import FOUNDATIONS, PLACES, Move
from ..vocabulary import Verdict
from . import engine
from .engine import Reject as _Reject
from .engine import describe as _describe
from .engine import exhaustive_search, replay_with
from .engine import illegal as _illegal

# --------------------------------------------------------------------------
# What this engine plays on: the fields of a TombPosition it reads (it imports
# none of the positions it checks; solver.rules.engine.Table says why).


class Rules(engine.Rules, Protocol):
    """The rule parameters the engine reads (a variant's)."""

    @property
    def turn(self) -> int: ...
    @property
    def passes(self) -> int: ...
    @property
    def cells(self) -> int: ...
    @property
    def cell_sources(self) -> tuple[str, ...]: ...
    @property
    def cell_targets(self) -> tuple[str, ...]: ...
    @property
    def sixes_reserve(self) -> bool: ...


class Table(engine.Table, Protocol):
    """The fields of a position the engine reads and replaces."""

    @property
    def variant(self) -> Rules: ...
    @property
    def waste(self) -> tuple[Card, ...]: ...
    @property
    def cells(self) -> tuple[Card | None, ...]: ...
    @property
    def reserve(self) -> tuple[Card, ...]: ...
    @property
    def corners(self) -> tuple[tuple[Card, ...], ...]: ...
    @property
    def tomb(self) -> tuple[Card, ...]: ...
    @property
    def redeals(self) -> int: ...


#: A position of the family: what the engine's moves take and give back.
P = TypeVar("P", bound=Table)

__all__ = [
    "legal_moves",
    "play",
    "replay",
    "is_won",
    "score",
    "search",
    "position_key",
    "tomb_wants",
    "corner_accepts",
]

#: A corner starts with this rank and builds up to the King.
CORNER_BASE = 7
KING = 13
#: The tomb starts with a 6 and builds down to the Ace, ``TOMB_ROUNDS`` times.
TOMB_BASE = 6
TOMB_ROUNDS = 4
TOMB_SIZE = TOMB_BASE * TOMB_ROUNDS
DECK_SIZE = 52


# --------------------------------------------------------------------------
# Small helpers: what a foundation accepts, how ranks read in messages.


def _rank_name(rank: int) -> str:
    """``'an A'``, ``'a 5'``, ``'an 8'``, ``'a 10'``, ``'a K'``: a rank as a message says it."""
    text = {1: "A", 11: "J", 12: "Q", 13: "K"}.get(rank, str(rank))
    return ("an " if rank in (1, 8) else "a ") + text


def tomb_wants(pos: P) -> int | None:
    """The rank the tomb takes next, or ``None`` when it is full.

    >>> from solver.variants import load
    >>> tomb_wants(TombPosition.start([], load("napoleons-tomb")))
    6
    """
    n = len(pos.tomb)
    if n >= TOMB_SIZE:
        return None
    return TOMB_BASE - n % TOMB_BASE


def corner_accepts(corner: tuple[Card, ...], card: Card) -> bool:
    """Whether one corner pile takes ``card``: an empty corner takes any 7, a
    corner showing ``r`` (7..Q) takes ``r + 1``.

    >>> corner_accepts((), Card.parse("7D")), corner_accepts((Card.parse("7D"),), Card.parse("8S"))
    (True, True)
    """
    if not corner:
        return card.rank == CORNER_BASE
    top = corner[-1].rank
    return top < KING and card.rank == top + 1


def _corner_index(pos: P, card: Card) -> int | None:
    """The first corner that accepts ``card`` (any would do: corners are interchangeable)."""
    for i, corner in enumerate(pos.corners):
        if corner_accepts(corner, card):
            return i
    return None


def _has_empty_cell(pos: P) -> bool:
    return any(c is None for c in pos.cells)


def is_won(pos: P) -> bool:
    """All 52 cards are on the foundations."""
    return score(pos) == DECK_SIZE


def score(pos: P) -> int:
    """Cards on the foundations (the four corners and the tomb)."""
    return len(pos.tomb) + sum(len(c) for c in pos.corners)


# --------------------------------------------------------------------------
# Move generation.

#: The order in which :func:`legal_moves` lists moves by destination.
_DEST_ORDER = ("corner", "tomb", "reserve", "cell", "waste")


def _destinations(pos: P, card: Card, src: str) -> list[str]:
    """Every place (among ``_DEST_ORDER``) where ``card``, at the top of ``src``,
    may legally go now. Written apart from :func:`play`'s checks on purpose: the
    tests check that the two agree."""
    v = pos.variant
    out: list[str] = []
    if src == "waste":
        to_foundation = True
        to_cell = "waste" in v.cell_sources
        to_reserve = v.sixes_reserve
        to_waste = False
    elif src == "cell":
        to_foundation = "foundation" in v.cell_targets
        to_cell = "cell" in v.cell_targets and "cell" in v.cell_sources
        to_reserve = "reserve" in v.cell_targets and v.sixes_reserve
        to_waste = "waste" in v.cell_targets
    elif src == "reserve":
        to_foundation = True  # the tomb only; checked below
        to_cell = to_reserve = to_waste = False
    else:
        return out
    if to_foundation and src != "reserve" and _corner_index(pos, card) is not None:
        out.append("corner")
    if to_foundation and tomb_wants(pos) == card.rank:
        out.append("tomb")
    if to_reserve and card.rank == TOMB_BASE:
        out.append("reserve")
    if to_cell and _has_empty_cell(pos):
        out.append("cell")
    if to_waste:
        out.append("waste")
    return out


def legal_moves(pos: P) -> list[Move]:
    """Every legal move in ``pos``: one per distinct (card, from, to), then the
    turn (or the redeal).

    Moves to the foundations come first, then to the reserve, a cell, the
    waste; the turn or redeal last. Moves straight from the stock (``'stock'``
    as the source, allowed by :func:`play` when one card turns at a time) are
    not listed: each equals a turn followed by a move from the waste.

    >>> from solver.cards import Card, DECK
    >>> from solver.variants import load
    >>> legal_moves(TombPosition.start(DECK, load("napoleons-tomb-3")))
    [Move.turn(AC 2C 3C)]
    """
    v = pos.variant
    sources: list[tuple[Card, str]] = []
    if pos.waste:
        sources.append((pos.waste[-1], "waste"))
    for c in pos.cells:
        if c is not None:
            sources.append((c, "cell"))
    if v.sixes_reserve:
        for c in pos.reserve:
            sources.append((c, "reserve"))

    found: list[tuple[int, Move]] = []
    seen: set[tuple[Card, str, str]] = set()
    for card, src in sources:
        for dst in _destinations(pos, card, src):
            if (card, src, dst) not in seen:
                seen.add((card, src, dst))
                found.append((_DEST_ORDER.index(dst), Move.move(card, src, dst)))
    moves = [m for _, m in sorted(found, key=lambda t: t[0])]  # sort is stable

    if pos.stock:
        moves.append(Move.turn(pos.stock[: v.turn]))
    elif pos.waste and pos.redeals < v.passes - 1:
        moves.append(Move.redeal())
    return moves


# --------------------------------------------------------------------------
# Playing a move.


def _cards_text(cards: Iterable[Card | None]) -> str:
    return " ".join(c.pretty() if c is not None else "--" for c in cards)


def _turn(pos: P, move: Move) -> P:
    v = pos.variant
    if not pos.stock:
        if pos.waste and pos.redeals < v.passes - 1:
            raise _Reject("the stock is empty (redeal first)")
        raise _Reject("the stock is empty")
    expected = pos.stock[: v.turn]
    if tuple(move.cards) != expected:
        if len(expected) == 1:
            raise _Reject(f"the next stock card is {expected[0].pretty()}")
        raise _Reject(f"the next {len(expected)} stock cards are {_cards_text(expected)}")
    return replace(pos, stock=pos.stock[len(expected) :], waste=pos.waste + expected)


def _redeal(pos: P) -> P:
    v = pos.variant
    if v.passes == 1:
        raise _Reject(f"{v.name} goes through the stock once: there is no redeal")
    if pos.stock:
        raise _Reject(f"the stock still holds {len(pos.stock)} card{'s' if len(pos.stock) != 1 else ''}")
    if pos.redeals >= v.passes - 1:
        raise _Reject(f"this is already the last pass ({v.passes} of {v.passes}): no more redeals")
    if not pos.waste:
        raise _Reject("the waste is empty: nothing to redeal")
    # Order kept: the first card turned onto the waste (its bottom) is turned first again.
    return replace(pos, stock=pos.waste, waste=(), redeals=pos.redeals + 1)


def _check_route(pos: P, card: Card, src: str, dst: str) -> None:
    """Whether the rules let a card go from ``src`` to ``dst`` at all (ignoring
    what the places hold now)."""
    v = pos.variant
    if dst == "stock":
        raise _Reject("no card goes back into the stock")
    if src in FOUNDATIONS:
        raise _Reject("cards on the foundations never move again")
    if src == "reserve":
        if not v.sixes_reserve:
            raise _Reject(f"{v.name} has no sixes reserve")
        if dst != "tomb":
            raise _Reject("a 6 leaves the sixes reserve only for the tomb")
        return
    if src == "cell":
        if v.cells == 0:
            raise _Reject(f"{v.name} has no cells")
        allowed = []
        if "foundation" in v.cell_targets:
            allowed += ["corner", "tomb"]
        if "cell" in v.cell_targets and "cell" in v.cell_sources:
            allowed.append("cell")
        if "reserve" in v.cell_targets and v.sixes_reserve:
            allowed.append("reserve")
        if "waste" in v.cell_targets:
            allowed.append("waste")
        if dst not in allowed:
            where = ", ".join(allowed) if allowed else "nowhere"
            raise _Reject(f"in {v.name} a cell card may go only to: {where}")
        return
    if src == "waste":
        if dst == "waste":
            raise _Reject("the card is already on the waste")
        if dst == "cell" and (v.cells == 0 or "waste" not in v.cell_sources):
            raise _Reject(f"in {v.name} cells do not take cards from the waste")
        if dst == "reserve" and not v.sixes_reserve:
            raise _Reject(f"{v.name} has no sixes reserve")
        return
    raise _Reject(f"unknown source place {src!r}")


def _take(pos: P, card: Card, src: str) -> P:
    """``pos`` with ``card`` lifted from the top of ``src`` (checked to be there)."""
    if src == "waste":
        if not pos.waste:
            raise _Reject("the waste is empty")
        if pos.waste[-1] != card:
            raise _Reject(f"the top of the waste is {pos.waste[-1].pretty()}")
        return replace(pos, waste=pos.waste[:-1])
    if src == "cell":
        if card not in pos.cells:
            raise _Reject(f"no cell holds {card.pretty()} (cells: {_cards_text(pos.cells)})")
        i = pos.cells.index(card)
        return replace(pos, cells=pos.cells[:i] + (None,) + pos.cells[i + 1 :])
    if src == "reserve":
        if card not in pos.reserve:
            held = _cards_text(pos.reserve) or "nothing"
            raise _Reject(f"the sixes reserve does not hold {card.pretty()} (it holds {held})")
        i = pos.reserve.index(card)
        return replace(pos, reserve=pos.reserve[:i] + pos.reserve[i + 1 :])
    raise _Reject(f"unknown source place {src!r}")  # pragma: no cover (routed earlier)


def _put(pos: P, card: Card, dst: str) -> P:
    """``pos`` with ``card`` laid on ``dst``, if ``dst`` takes it now."""
    if dst == "corner":
        if card.rank < CORNER_BASE:
            raise _Reject(f"corners build 7 up to K: {_rank_name(card.rank)} never goes on a corner")
        i = _corner_index(pos, card)
        if i is None:
            if card.rank == CORNER_BASE:
                raise _Reject("no empty corner")
            raise _Reject(f"no corner shows {_rank_name(card.rank - 1)}")
        corners = pos.corners[:i] + (pos.corners[i] + (card,),) + pos.corners[i + 1 :]
        return replace(pos, corners=corners)
    if dst == "tomb":
        wants = tomb_wants(pos)
        if wants is None:
            raise _Reject("the tomb is full")
        if card.rank != wants:
            if not pos.tomb:
                raise _Reject("the empty tomb takes only a 6")
            raise _Reject(f"the tomb shows {pos.tomb[-1].pretty()} and wants {_rank_name(wants)}")
        return replace(pos, tomb=pos.tomb + (card,))
    if dst == "cell":
        if None not in pos.cells:
            raise _Reject("no empty cell")
        i = pos.cells.index(None)
        return replace(pos, cells=pos.cells[:i] + (card,) + pos.cells[i + 1 :])
    if dst == "reserve":
        if card.rank != TOMB_BASE:
            raise _Reject("the sixes reserve takes only 6s")
        return replace(pos, reserve=pos.reserve + (card,))
    if dst == "waste":
        return replace(pos, waste=pos.waste + (card,))
    raise _Reject(f"unknown destination place {dst!r}")  # pragma: no cover (routed earlier)


def _known_place(place: str | None, what: str) -> str:
    if place is None or place not in PLACES:
        raise _Reject(f"unknown {what} place {place!r}; places are {', '.join(PLACES)}")
    return place


def _move_card(pos: P, move: Move) -> P:
    v = pos.variant
    card = move.card
    if not isinstance(card, Card):
        raise _Reject(f"{card!r} is not a card")
    src, dst = _known_place(move.src, "source"), _known_place(move.dst, "destination")
    if src == "stock":
        # The Finnish sheet's "turn the card and put it straight on a pile":
        # exactly a one-card turn followed by a move from the waste.
        if v.turn != 1:
            raise _Reject(
                f"the stock turns {v.turn} cards at a time here: turn them, then move the card from the waste"
            )
        if not pos.stock:
            raise _Reject("the stock is empty")
        if pos.stock[0] != card:
            raise _Reject(f"the next stock card is {pos.stock[0].pretty()}")
        turned = replace(pos, stock=pos.stock[1:], waste=pos.waste + (card,))
        if dst == "waste":
            return turned
        src, pos = "waste", turned
    _check_route(pos, card, src, dst)
    if src == "cell" and dst == "cell" and None not in pos.cells:
        raise _Reject("no empty cell")  # (lifting the card must not make room for itself)
    return _put(_take(pos, card, src), card, dst)


def play(pos: P, move: Move) -> P:
    """The position after ``move`` (a new object; ``pos`` is unchanged).

    Raise :class:`~solver.errors.IllegalMoveError` naming the move and why when
    the rules do not allow it. A turn must list exactly the next cards of the
    stock; a card move must name a card at the top of its source (for
    ``'cell'``, any cell holding it). In a variant that turns one card at a
    time, a move from ``'stock'`` turns the next card and moves it on (to
    ``'waste'``: just the turn).

    >>> from solver.cards import Card, DECK
    >>> from solver.variants import load
    >>> pos = TombPosition.start(DECK, load("napoleons-tomb"))
    >>> play(pos, Move.turn([Card.parse("9C")]))
    Traceback (most recent call last):
    ...
    solver.errors.IllegalMoveError: turn 9♣: the next stock card is A♣
    >>> play(pos, Move.move(Card.parse("AC"), "stock", "cell")).cells[0]
    Card('AC')
    """
    try:
        if not isinstance(move, Move):
            raise _Reject(f"{move!r} is not a Move")
        if move.action == "turn":
            after = _turn(pos, move)
        elif move.action == "redeal":
            after = _redeal(pos)
        elif move.action == "move":
            after = _move_card(pos, move)
        else:
            raise _Reject(f"unknown action {move.action!r}; actions are turn, redeal, move")
    except _Reject as r:
        raise _illegal(f"{_describe(move)}: {r.reason}", move, r.reason) from None
    return replace(after, moves_played=pos.moves_played + 1, history=pos.history + (move,))


def replay(start: P, moves: Iterable[Move | dict[str, Any]]) -> P:
    """Play a whole line from ``start`` and return the final position.

    Moves may be :class:`~solver.notation.Move` objects or solution-format JSON
    objects. The first bad move raises :class:`~solver.errors.IllegalMoveError`
    saying its 1-based number.

    >>> from solver.cards import Card, DECK
    >>> from solver.variants import load
    >>> pos = TombPosition.start(DECK, load("napoleons-tomb"))
    >>> replay(pos, [{"action": "turn", "cards": ["AC"]}, Move.redeal()])
    Traceback (most recent call last):
    ...
    solver.errors.IllegalMoveError: move 2 (redeal): napoleons-tomb goes through the stock once: there is no redeal
    """
    return replay_with(play, start, moves)


# --------------------------------------------------------------------------
# A plain exhaustive search.


def position_key(pos: P) -> Hashable:
    """A canonical key for ``pos``: suits never matter, nor the order of the
    cells or of the corners.

    Ranks of the stock and of the waste (in order), the sorted ranks in the
    cells, the sorted top ranks of the corners (0 for an empty one), the number
    of cards on the tomb and in the reserve, and the redeals made.

    >>> from solver.cards import DECK
    >>> from solver.variants import load
    >>> position_key(TombPosition.start(DECK[:3], load("napoleons-tomb")))
    ((1, 2, 3), (), (), (0, 0, 0, 0), 0, 0, 0)
    """
    return (
        tuple(c.rank for c in pos.stock),
        tuple(c.rank for c in pos.waste),
        tuple(sorted(c.rank for c in pos.cells if c is not None)),
        tuple(sorted(c[-1].rank if c else 0 for c in pos.corners)),
        len(pos.tomb),
        len(pos.reserve),
        pos.redeals,
    )


def _cell_to_cell(move: Move) -> bool:
    """A cell-to-cell move leaves the position the same up to the order of the cells."""
    return move.action == "move" and move.src == "cell" and move.dst == "cell"


def search(pos: P, max_positions: int = 200_000) -> tuple[Verdict, int, list[Move]]:
    """Exhaustive depth-first search from ``pos``.

    Returns ``("won", 52, line)`` on a win; ``("lost", best, line)`` when every
    reachable position was explored (``line`` reaches the best score);
    ``("unknown", best, line)`` when more than ``max_positions`` distinct
    positions (by :func:`position_key`) were seen. No move is pruned except a
    cell-to-cell move, which leaves the position the same up to the order of
    the cells. Iterative: lines may be hundreds of moves long.

    >>> from solver.cards import Card
    >>> from solver.variants import load
    >>> deck = [Card.parse(t) for t in "7C 8C 9C TC JC QC KC".split()]
    >>> verdict, best, line = search(TombPosition.start(deck, load("napoleons-tomb")))
    >>> verdict, best, len(line)
    ('lost', 7, 14)
    """
    return exhaustive_search(
        pos,
        legal_moves=legal_moves,
        play=play,
        key=position_key,
        score=score,
        goal=DECK_SIZE,
        max_positions=max_positions,
        skip=_cell_to_cell,
    )
