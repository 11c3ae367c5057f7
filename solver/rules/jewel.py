"""The pure-Python reference rules engine for the jewel-box family (Paciência do Porta-Jóias).

Like :mod:`solver.rules.tomb`, this module is the independent checker of every
line the C core returns: it shares no code or tables with the C side and is
written to be read, not to be fast. Every rule comes from the
:class:`~solver.variants.JewelVariant`'s parameters (``reserves``,
``runs_move``, ``empty_pile``, ``empty_lid``); no variant is named in the code.
The rules are written out in ``docs/rules/paciencia-porta-joias.md`` and, as
this engine implements them, in ``docs/rules-porta-joias.md``.

The table, as :class:`JewelPosition` holds it (two decks, 104 cards):

- the **lid**: five places of one card each; a lid card goes only home;
- four **side** and four **bottom** piles, built down in alternating colours;
- the **jewels**: thirteen face-down cards; whenever a lid, side or bottom
  place becomes empty and jewels remain, the next jewel fills it at once (a
  ``jewel`` move, the only legal move until it is made);
- the **stock**, turned one card at a time, once through; the turned card must
  be placed (home, on a pile, on a reserve) before anything else happens; with
  ``reserve_takes = "unplaceable"`` (the sheet) it goes onto a reserve only
  when no foundation and no pile top takes it, with ``"any"`` always;
- up to three **reserves**, fed by the stock only;
- eight **foundations**, two per suit, each built up in suit from the Ace;
  only their card counts are kept, the larger first.

Places are named as the solution format names them: ``lid:1``..``lid:5``,
``side:1``..``side:4``, ``bottom:1``..``bottom:4``, ``reserve:1``..,
``foundation:S`` (S the card's suit) and ``stock`` for the turned card.

>>> from solver.cards import Card
>>> from solver.deals import Deal
>>> from solver.variants import load
>>> c = Card.parse
>>> pos = JewelPosition.start(Deal.from_number(1, decks=2), load("paciencia-porta-joias"))
>>> " ".join(x.pretty() for x in pos.lid), len(pos.jewels), len(pos.stock)
('3♦ 5♥ J♣ K♥ 5♠', 13, 78)
>>> legal_moves(pos)
[Move.move(AS, 'bottom:2', 'foundation:S'), Move.move(5H, 'side:1', 'bottom:4'), Move.turn(2H)]
>>> pos = play(pos, Move.move(c("AS"), "bottom:2", "foundation:S"))
>>> space_pending(pos), legal_moves(pos)
('bottom:2', [Move.jewel(6H, 'bottom:2')])
>>> pos = replay(pos, [Move.jewel(c("6H"), "bottom:2"), Move.turn([c("2H")])])
>>> pos.turned, legal_moves(pos)[:2]
(Card('2H'), [Move.move(2H, 'stock', 'reserve:1'), Move.move(2H, 'stock', 'reserve:2')])
>>> score(pos), pos.moves_played
(1, 3)
>>> play(pos, Move.move(c("5S"), "lid:5", "foundation:S"))
Traceback (most recent call last):
...
solver.errors.IllegalMoveError: 5♠ lid:5 → foundation:S: 2♥ was turned and must be placed first
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import replace
from typing import Any, Protocol, TypeVar

from ..cards import SUITS, Card
from ..notation import Move
from ..vocabulary import Verdict
from . import engine
from .engine import Reject as _Reject
from .engine import describe as _describe
from .engine import exhaustive_search, replay_with
from .engine import illegal as _illegal

# --------------------------------------------------------------------------
# What this engine plays on: the fields of a JewelPosition it reads (it imports
# none of the positions it checks; solver.rules.engine.Table says why).


class Rules(engine.Rules, Protocol):
    """The rule parameters the engine reads (a variant's)."""

    @property
    def reserves(self) -> int: ...
    @property
    def runs_move(self) -> bool: ...
    @property
    def empty_pile(self) -> str: ...
    @property
    def empty_lid(self) -> str: ...
    @property
    def reserve_takes(self) -> str: ...


class Table(engine.Table, Protocol):
    """The fields of a position the engine reads and replaces."""

    @property
    def variant(self) -> Rules: ...
    @property
    def turned(self) -> Card | None: ...
    @property
    def lid(self) -> tuple[Card | None, ...]: ...
    @property
    def sides(self) -> tuple[tuple[Card, ...], ...]: ...
    @property
    def bottoms(self) -> tuple[tuple[Card, ...], ...]: ...
    @property
    def jewels(self) -> tuple[Card, ...]: ...
    @property
    def reserves(self) -> tuple[tuple[Card, ...], ...]: ...
    @property
    def foundations(self) -> tuple[tuple[int, int], ...]: ...


#: A position of the family: what the engine's moves take and give back.
P = TypeVar("P", bound=Table)

__all__ = [
    "legal_moves",
    "play",
    "replay",
    "is_won",
    "score",
    "position_key",
    "search",
    "space_pending",
    "builds_on",
]

#: The jewel box: five lid places, four side and four bottom piles.
LID_SIZE = 5
SIDE_PILES = 4
BOTTOM_PILES = 4
BOX_SIZE = LID_SIZE + SIDE_PILES + BOTTOM_PILES
#: Thirteen face-down jewels are dealt after the box.
JEWEL_COUNT = 13
#: Two decks; every card goes home in a won game.
PACK_SIZE = 104
KING = 13

LID_PLACES = tuple(f"lid:{i}" for i in range(1, LID_SIZE + 1))
#: The eight side and bottom piles, in the order moves list them.
PILE_PLACES = tuple(f"side:{i}" for i in range(1, SIDE_PILES + 1)) + tuple(
    f"bottom:{i}" for i in range(1, BOTTOM_PILES + 1)
)
_KINDS = ("stock", "lid", "side", "bottom", "reserve", "foundation")


# --------------------------------------------------------------------------
# The position.


# --------------------------------------------------------------------------
# Small helpers: colours, what a place accepts, where a place's cards are.


def _red(card: Card) -> bool:
    return card.suit in "HD"


def builds_on(card: Card, top: Card) -> bool:
    """Whether ``card`` may lie on ``top`` in a side or bottom pile: one rank
    lower, the other colour.

    >>> builds_on(Card.parse("7H"), Card.parse("8S")), builds_on(Card.parse("7C"), Card.parse("8S"))
    (True, False)
    """
    return top.rank == card.rank + 1 and _red(card) != _red(top)


def _rank_name(rank: int) -> str:
    text = {1: "A", 11: "J", 12: "Q", 13: "K"}.get(rank, str(rank))
    return ("an " if rank in (1, 8) else "a ") + text


def is_won(pos: P) -> bool:
    """All 104 cards are on the foundations."""
    return score(pos) == PACK_SIZE


def score(pos: P) -> int:
    """Cards on the foundations."""
    return sum(a + b for a, b in pos.foundations)


def space_pending(pos: P) -> str | None:
    """The place the next jewel must fill now (``"lid:3"``, ``"side:2"``...),
    or ``None``. A place waits while it is empty and jewels remain; the rules
    let a move empty one place at a time, so there is at most one (in a
    hand-built position with several, the first in lid, side, bottom order)."""
    if not pos.jewels:
        return None
    for place, card in zip(LID_PLACES, pos.lid):
        if card is None:
            return place
    for place in PILE_PLACES:
        if not _pile(pos, place):
            return place
    return None


def _pile(pos: P, place: str) -> tuple[Card, ...]:
    kind, _, index = place.partition(":")
    return (pos.sides if kind == "side" else pos.bottoms)[int(index) - 1]


def _with_pile(pos: P, place: str, cards: tuple[Card, ...]) -> P:
    kind, _, index = place.partition(":")
    i = int(index) - 1
    if kind == "side":
        return replace(pos, sides=pos.sides[:i] + (cards,) + pos.sides[i + 1 :])
    return replace(pos, bottoms=pos.bottoms[:i] + (cards,) + pos.bottoms[i + 1 :])


def _reserve_places(pos: P) -> tuple[str, ...]:
    return tuple(f"reserve:{i}" for i in range(1, len(pos.reserves) + 1))


def _foundation_accepts(pos: P, card: Card) -> bool:
    a, b = pos.foundations[SUITS.index(card.suit)]
    return card.rank in (a + 1, b + 1)


def _empty_pile_accepts(pos: P, card: Card) -> bool:
    """Whether an empty side or bottom place takes ``card`` (a single card)
    now: never while jewels remain (the next jewel fills it)."""
    if pos.jewels:
        return False
    rule = pos.variant.empty_pile
    return rule == "any" or (rule == "king" and card.rank == KING)


def _empty_lid_accepts(pos: P) -> bool:
    return not pos.jewels and pos.variant.empty_lid == "any"


def _run_length(pile: tuple[Card, ...]) -> int:
    """How many top cards of ``pile`` are in alternating descending order."""
    n = 1 if pile else 0
    while n < len(pile) and builds_on(pile[-n], pile[-n - 1]):
        n += 1
    return n


def _movable(pos: P, pile: tuple[Card, ...]) -> list[tuple[Card, int]]:
    """The (card, count) pairs that may leave ``pile`` for another pile: the top
    card, and with ``runs_move`` every deeper card of the top run with the
    cards above it."""
    if not pile:
        return []
    longest = _run_length(pile) if pos.variant.runs_move else 1
    return [(pile[-n], n) for n in range(1, longest + 1)]


# --------------------------------------------------------------------------
# Move generation.


def legal_moves(pos: P) -> list[Move]:
    """Every legal move in ``pos``.

    When a space waits for a jewel, only that jewel move. When a card is
    turned, only its placements: home, then onto the piles (side 1..4, bottom
    1..4), then onto each reserve (with ``reserve_takes = "unplaceable"``, only
    when neither a foundation nor a pile top takes it), then into an empty lid
    place. Otherwise:
    moves home (from the lid, the piles, the reserves), then pile to pile,
    reserve to pile, moves into empty places (from the piles, then from the
    reserves), then the turn. A card moved from a one-card pile into an empty
    pile changes nothing and is not listed (:func:`play` accepts it).
    """
    pending = space_pending(pos)
    if pending:
        return [Move.jewel(pos.jewels[0], pending)]
    turned = pos.turned
    if turned is not None:
        return _placements(pos, turned)
    pile_tops = [(p, _pile(pos, p)[-1]) for p in PILE_PLACES if _pile(pos, p)]
    reserve_tops = [(p, r[-1]) for p, r in zip(_reserve_places(pos), pos.reserves) if r]
    tops = pile_tops + reserve_tops
    moves = _home_moves(pos, tops) + _build_moves(pos, reserve_tops) + _into_empty_moves(pos, tops)
    if pos.stock:
        moves.append(Move.turn([pos.stock[0]]))
    return moves


def _placements(pos: P, turned: Card) -> list[Move]:
    """The moves of the turned card, the only ones while it waits: home, onto
    the piles, onto each reserve (under ``reserve_takes = "unplaceable"`` only
    when neither a foundation nor a pile top takes it), into an empty lid place."""
    dsts = [f"foundation:{turned.suit}"] if _foundation_accepts(pos, turned) else []
    for dst in PILE_PLACES:
        target = _pile(pos, dst)
        if builds_on(turned, target[-1]) if target else _empty_pile_accepts(pos, turned):
            dsts.append(dst)
    placed = any(d.startswith("foundation") or _pile(pos, d) for d in dsts)
    if not (placed and pos.variant.reserve_takes == "unplaceable"):
        dsts += _reserve_places(pos)
    if _empty_lid_accepts(pos):
        dsts += [dst for dst, held in zip(LID_PLACES, pos.lid) if held is None]
    return [Move.move(turned, "stock", d) for d in dsts]


def _home_moves(pos: P, tops: list[tuple[str, Card]]) -> list[Move]:
    """The moves home: from the lid, then from ``tops`` (the piles' and the
    reserves' top cards, with their places)."""
    home: list[Move] = []
    for src, card in zip(LID_PLACES, pos.lid):
        if card is not None and _foundation_accepts(pos, card):
            home.append(Move.move(card, src, f"foundation:{card.suit}"))
    for src, card in tops:
        if _foundation_accepts(pos, card):
            home.append(Move.move(card, src, f"foundation:{card.suit}"))
    return home


def _build_moves(pos: P, reserve_tops: list[tuple[str, Card]]) -> list[Move]:
    """The moves onto a pile's top card: from another pile (a run too, with
    ``runs_move``), then from ``reserve_tops`` (the reserves' top cards)."""
    build: list[Move] = []
    for src in PILE_PLACES:
        for card, _ in _movable(pos, _pile(pos, src)):
            for dst in PILE_PLACES:
                target = _pile(pos, dst)
                if dst != src and target and builds_on(card, target[-1]):
                    build.append(Move.move(card, src, dst))
    for src, card in reserve_tops:
        for dst in PILE_PLACES:
            target = _pile(pos, dst)
            if target and builds_on(card, target[-1]):
                build.append(Move.move(card, src, dst))
    return build


def _into_empty_moves(pos: P, tops: list[tuple[str, Card]]) -> list[Move]:
    """The moves of ``tops`` (the piles' and the reserves' top cards) into the
    empty piles and lid places that take them; a one-card pile's card moving
    to an empty pile changes nothing and is left out."""
    into_empty: list[Move] = []
    empty_piles = [p for p in PILE_PLACES if not _pile(pos, p)]
    empty_lid = [p for p, held in zip(LID_PLACES, pos.lid) if held is None] if _empty_lid_accepts(pos) else []
    for src, card in tops:
        alone = src in PILE_PLACES and len(_pile(pos, src)) == 1
        if not alone and _empty_pile_accepts(pos, card):
            into_empty += [Move.move(card, src, dst) for dst in empty_piles]
        into_empty += [Move.move(card, src, dst) for dst in empty_lid]
    return into_empty


# --------------------------------------------------------------------------
# Playing a move.


def _check_place(pos: P, place: Any, what: str) -> str:
    """The kind of ``place`` (``lid``, ``side``...), if this game has that place."""
    reserves = len(pos.reserves)
    known = (
        f"stock, lid:1..{LID_SIZE}, side:1..{SIDE_PILES}, bottom:1..{BOTTOM_PILES}, "
        + (f"reserve:1..{reserves}, " if reserves else "")
        + "foundation:C/S/H/D"
    )
    if not isinstance(place, str):
        raise _Reject(f"no {what} place given; places are {known}")
    kind, sep, index = place.partition(":")
    if kind not in _KINDS:
        raise _Reject(f"unknown {what} place {place!r} in this game; places are {known}")
    if kind == "stock":
        if sep:
            raise _Reject(f"unknown {what} place {place!r}: the stock has no index")
        return kind
    if kind == "reserve" and not reserves:
        raise _Reject("this game has no reserves")
    if kind == "foundation":
        allowed = tuple(SUITS)
        example = "foundation:H"
    else:
        size = {"lid": LID_SIZE, "side": SIDE_PILES, "bottom": BOTTOM_PILES, "reserve": reserves}[kind]
        allowed = tuple(str(i) for i in range(1, size + 1))
        example = f"{kind}:1..{size}"
    if not sep:
        raise _Reject(f"{what} place {place!r} needs its index ({example})")
    if index not in allowed:
        raise _Reject(f"unknown {what} place {place!r} in this game; {kind} places are {example}")
    return kind


def _jewel(pos: P, move: Move) -> P:
    pending = space_pending(pos)
    if pending is None:
        if not pos.jewels:
            raise _Reject("no jewels are left")
        raise _Reject("no space waits for a jewel")
    if move.card != pos.jewels[0]:
        raise _Reject(f"the next jewel is {pos.jewels[0].pretty()}")
    if move.dst != pending:
        raise _Reject(f"the space to fill is {pending}")
    card, rest = pos.jewels[0], pos.jewels[1:]
    if pending.startswith("lid:"):
        i = LID_PLACES.index(pending)
        return replace(pos, jewels=rest, lid=pos.lid[:i] + (card,) + pos.lid[i + 1 :])
    return _with_pile(replace(pos, jewels=rest), pending, (card,))


def _turn(pos: P, move: Move) -> P:
    if pos.turned is not None:
        raise _Reject(f"{pos.turned.pretty()} was turned and must be placed first")
    if not pos.stock:
        raise _Reject("the stock is empty")
    expected = pos.stock[0]
    if tuple(move.cards) != (expected,):
        if len(move.cards) != 1:
            raise _Reject(f"the stock turns one card at a time; the next is {expected.pretty()}")
        raise _Reject(f"the next stock card is {expected.pretty()}")
    return replace(pos, stock=pos.stock[1:], turned=expected)


def _take(pos: P, card: Card, src: str, kind: str, dst_kind: str) -> tuple[P, tuple[Card, ...]]:
    """``pos`` with ``card`` (and, for a run, the cards above it) lifted from
    ``src``, and the cards lifted, bottom first."""
    if kind == "stock":
        if pos.turned is None:
            if pos.stock:
                raise _Reject(f"no card is turned (turn {pos.stock[0].pretty()} first)")
            raise _Reject("no card is turned and the stock is empty")
        if pos.turned != card:
            raise _Reject(f"the turned card is {pos.turned.pretty()}")
        return replace(pos, turned=None), (card,)
    if kind == "lid":
        i = LID_PLACES.index(src)
        held = pos.lid[i]
        if held is None:
            raise _Reject(f"{src} is empty")
        if held != card:
            raise _Reject(f"{src} holds {held.pretty()}")
        return replace(pos, lid=pos.lid[:i] + (None,) + pos.lid[i + 1 :]), (card,)
    if kind == "reserve":
        i = int(src.partition(":")[2]) - 1
        reserve = pos.reserves[i]
        if not reserve:
            raise _Reject(f"{src} is empty")
        if reserve[-1] != card:
            raise _Reject(f"the top of {src} is {reserve[-1].pretty()}")
        reserves = pos.reserves[:i] + (reserve[:-1],) + pos.reserves[i + 1 :]
        return replace(pos, reserves=reserves), (card,)
    # a side or bottom pile
    pile = _pile(pos, src)
    if not pile:
        raise _Reject(f"{src} is empty")
    if pile[-1] == card:
        return _with_pile(pos, src, pile[:-1]), (card,)
    run = _run_length(pile)
    depth = next((n for n in range(2, run + 1) if pile[-n] == card), None)
    if depth is None:
        raise _Reject(f"{card.pretty()} is not on top of {src} (its top is {pile[-1].pretty()})")
    if not pos.variant.runs_move:
        raise _Reject(f"one card moves at a time here: {card.pretty()} lies under {pile[-1].pretty()}")
    if dst_kind not in ("side", "bottom"):
        raise _Reject(f"only a single card goes to {dst_kind} places: the top of {src} is {pile[-1].pretty()}")
    return _with_pile(pos, src, pile[:-depth]), pile[-depth:]


def _put_home(pos: P, card: Card, dst: str) -> P:
    """``pos`` with ``card`` gone home to ``dst``, onto whichever of its suit's
    two foundations it continues; the larger count is kept first."""
    suit = dst.partition(":")[2]
    if card.suit != suit:
        raise _Reject(f"{card.pretty()} goes to foundation:{card.suit}, not {dst}")
    s = SUITS.index(suit)
    a, b = pos.foundations[s]
    if card.rank == a + 1:
        a += 1
    elif card.rank == b + 1:
        b += 1
    else:
        wants = " or ".join(dict.fromkeys(_rank_name(n + 1) for n in (a, b) if n < KING)) or "nothing"
        raise _Reject(f"the {suit} foundations hold {a} and {b} cards: they take {wants}")
    pair = (max(a, b), min(a, b))
    return replace(pos, foundations=pos.foundations[:s] + (pair,) + pos.foundations[s + 1 :])


def _put_on_pile(pos: P, cards: tuple[Card, ...], dst: str) -> P:
    """``pos`` with ``cards`` (one card, or a run bottom first) laid on the side
    or bottom pile ``dst``: on a top card it builds on, or as the empty place's
    rule allows (a single card, and only once the jewels are gone)."""
    card = cards[0]
    target = _pile(pos, dst)
    if target:
        if not builds_on(card, target[-1]):
            top = target[-1]
            if card.rank == KING:
                raise _Reject(f"{dst} shows {top.pretty()}: a King goes on no card")
            if top.rank != card.rank + 1:
                need = _rank_name(card.rank + 1)
                raise _Reject(f"{dst} shows {top.pretty()}: {card.pretty()} goes only on {need}")
            raise _Reject(f"{dst} shows {top.pretty()}: piles build in alternating colours")
        return _with_pile(pos, dst, target + cards)
    if pos.jewels:
        raise _Reject(f"{dst} is empty and the next jewel fills it")
    if len(cards) > 1:
        raise _Reject(f"{dst} is empty and an empty place takes a single card, not a run")
    rule = pos.variant.empty_pile
    if rule == "none":
        raise _Reject(f"{dst} is empty and an empty side or bottom place stays empty in this game")
    if rule == "king" and card.rank != KING:
        raise _Reject(f"{dst} is empty and an empty side or bottom place takes only a King")
    return _with_pile(pos, dst, cards)


def _put(pos: P, cards: tuple[Card, ...], dst: str, kind: str) -> P:
    """``pos`` with ``cards`` (one card, or a run bottom first) laid on ``dst``."""
    card = cards[0]
    if kind == "foundation":
        return _put_home(pos, card, dst)
    if kind in ("side", "bottom"):
        return _put_on_pile(pos, cards, dst)
    if kind == "reserve":
        i = int(dst.partition(":")[2]) - 1
        return replace(pos, reserves=pos.reserves[:i] + (pos.reserves[i] + cards,) + pos.reserves[i + 1 :])
    if kind == "lid":
        i = LID_PLACES.index(dst)
        held = pos.lid[i]
        if held is not None:
            raise _Reject(f"{dst} holds {held.pretty()}: a lid card never has a card on it")
        if pos.jewels:
            raise _Reject(f"{dst} is empty and the next jewel fills it")
        if pos.variant.empty_lid != "any":
            raise _Reject(f"{dst} is empty and an empty lid place stays empty in this game")
        return replace(pos, lid=pos.lid[:i] + (card,) + pos.lid[i + 1 :])
    raise _Reject(f"unknown destination place {dst!r}")  # pragma: no cover (checked earlier)


def _check_unplaceable(pos: P, card: Card) -> None:
    """Under ``reserve_takes = "unplaceable"`` (the sheet) a turned card goes
    onto a reserve only when no foundation and no side or bottom pile's top
    card takes it (an empty place does not oblige)."""
    where: str | None = f"foundation:{card.suit}"
    if not _foundation_accepts(pos, card):
        where = next((p for p in PILE_PLACES if _pile(pos, p) and builds_on(card, _pile(pos, p)[-1])), None)
        if where is None:
            return
    raise _Reject(
        f"{card.pretty()} fits {where}: {pos.variant.name} puts a turned card onto a reserve only when"
        " no foundation and no pile top takes it"
    )


def _move_card(pos: P, move: Move) -> P:
    card, src, dst = move.card, move.src, move.dst
    if not isinstance(card, Card):
        raise _Reject(f"{card!r} is not a card")
    src_kind = _check_place(pos, src, "source")
    dst_kind = _check_place(pos, dst, "destination")
    assert src is not None and dst is not None  # _check_place refuses a missing place
    if src_kind == "foundation":
        raise _Reject("cards on the foundations never move again")
    if dst_kind == "stock":
        raise _Reject("no card goes back into the stock")
    if pos.turned is not None and src_kind != "stock":
        raise _Reject(f"{pos.turned.pretty()} was turned and must be placed first")
    if src == dst:
        raise _Reject(f"the card is already on {src}")
    if src_kind == "lid" and dst_kind != "foundation":
        raise _Reject("a lid card goes only to a foundation")
    if dst_kind == "reserve" and src_kind != "stock":
        raise _Reject("a reserve takes cards only from the stock (the turned card)")
    if dst_kind == "reserve" and pos.variant.reserve_takes == "unplaceable":
        _check_unplaceable(pos, card)
    after, cards = _take(pos, card, src, src_kind, dst_kind)
    return _put(after, cards, dst, dst_kind)


def play(pos: P, move: Move) -> P:
    """The position after ``move`` (a new object; ``pos`` is unchanged).

    Raise :class:`~solver.errors.IllegalMoveError` naming the move and why when
    the rules do not allow it. While a space waits for a jewel only the jewel
    move plays; while a card is turned only moves of that card (``from:
    "stock"``). With ``runs_move``, a move from a side or bottom pile may name
    a deeper card of the top run: it moves with the cards above it.

    >>> from solver.deals import Deal
    >>> pos = JewelPosition.start(Deal.from_number(1, decks=2), load("paciencia-porta-joias"))
    >>> play(pos, Move.move(Card.parse("JC"), "lid:3", "side:3"))
    Traceback (most recent call last):
    ...
    solver.errors.IllegalMoveError: J♣ lid:3 → side:3: a lid card goes only to a foundation
    """
    try:
        if not isinstance(move, Move):
            raise _Reject(f"{move!r} is not a Move")
        if move.action not in ("turn", "move", "jewel"):
            raise _Reject(f"there is no {move.action!r} in this game; actions are turn, move, jewel")
        if move.action == "jewel":
            after = _jewel(pos, move)
        else:
            pending = space_pending(pos)
            if pending:
                raise _Reject(f"{pending} is empty: the next jewel, {pos.jewels[0].pretty()}, must fill it first")
            after = _turn(pos, move) if move.action == "turn" else _move_card(pos, move)
    except _Reject as r:
        raise _illegal(f"{_describe(move)}: {r.reason}", move, r.reason) from None
    return replace(after, moves_played=pos.moves_played + 1, history=pos.history + (move,))


def replay(start: P, moves: Iterable[Move | dict[str, Any]]) -> P:
    """Play a whole line from ``start`` and return the final position.

    Moves may be :class:`~solver.notation.Move` objects or solution-format JSON
    objects. The first bad move raises :class:`~solver.errors.IllegalMoveError`
    saying its 1-based number.

    >>> from solver.deals import Deal
    >>> pos = JewelPosition.start(Deal.from_number(1, decks=2), load("paciencia-porta-joias"))
    >>> replay(pos, [{"action": "turn", "cards": ["2H"]}, {"action": "turn", "cards": ["AD"]}])
    Traceback (most recent call last):
    ...
    solver.errors.IllegalMoveError: move 2 (turn A♦): 2♥ was turned and must be placed first
    """
    return replay_with(play, start, moves)


# --------------------------------------------------------------------------
# A plain exhaustive search.


def position_key(pos: P) -> Hashable:
    """A key for ``pos``, equal for two positions exactly when they are the
    same up to relabelling places that the rules treat alike.

    Why the relabelling is safe (a position and its relabelled twin have the
    same future, move for move):

    - the two foundations of a suit are kept sorted already (one count per
      foundation, the larger first), so they are literal here;
    - the **reserves** all take any turned card and give their top card to the
      same places: swapping two reserves maps every legal move to a legal move
      (``reserve:i`` <-> ``reserve:j``) and every line to a line;
    - the **eight side and bottom piles** obey the same rules (building,
      empty-place rule, jewels filling them): no parameter and no rule tells a
      side from a bottom pile, so they are sorted together;
    - the **five lid places** obey the same rules among themselves.
    A jewel fills the one empty place (a move empties at most one); were there
    two empty places of one kind, they are alike, so which one the next jewel
    fills first does not matter either.

    The stock, the turned card and the jewels are literal, in order.

    >>> from solver.deals import Deal
    >>> pos = JewelPosition.start(Deal.from_number(1, decks=2), load("paciencia-porta-joias"))
    >>> twin = replace(pos, sides=pos.bottoms, bottoms=pos.sides, lid=pos.lid[::-1])
    >>> position_key(twin) == position_key(pos), twin == pos
    (True, False)
    """
    return (
        pos.stock,
        pos.turned,
        pos.jewels,
        tuple(sorted((c,) if c is not None else () for c in pos.lid)),
        tuple(sorted(pos.sides + pos.bottoms)),
        tuple(sorted(pos.reserves)),
        pos.foundations,
    )


def search(pos: P, max_positions: int = 200_000) -> tuple[Verdict, int, list[Move]]:
    """Exhaustive depth-first search from ``pos``.

    Returns ``("won", 104, line)`` on a win; ``("lost", best, line)`` when
    every reachable position was explored (``line`` reaches the best score);
    ``("unknown", best, line)`` when more than ``max_positions`` distinct
    positions (by :func:`position_key`) were seen. No move is pruned beyond
    what :func:`legal_moves` leaves out. Iterative: lines may be hundreds of
    moves long.
    """
    return exhaustive_search(
        pos,
        legal_moves=legal_moves,
        play=play,
        key=position_key,
        score=score,
        goal=PACK_SIZE,
        max_positions=max_positions,
    )
