"""The pure-Python reference rules engine for Paciência Napoleão (family ``napoleao``).

Like :mod:`solver.rules.tomb`, this module is the independent checker of every
line the C core returns: it shares no code or tables with the C side, and it is
written to be read, not to be fast. Every rule comes from the
:class:`~solver.variants.NapoleaoVariant`'s parameters (``start_bases``,
``restricted_rounds``, ``restricted_again``, ``redeals``, ``deal_from``); no
variant is named in the code. The rules are written out in
``docs/rules/paciencia-napoleao.md`` and ``docs/rules-napoleao.md``.

The table, as :class:`NapoleaoPosition` holds it:

- two decks, 104 cards; four **King bases** build down in suit K, Q, ... A and
  four **Ace bases** build up in suit A, 2, ... K. A base is a count: with
  ``n`` cards a King base wants rank ``13 - n`` and an Ace base rank ``n + 1``;
- twelve **piles** in a ring, dealt one card each per **round** from the
  **stock**; only the top card of a pile is playable, and it goes only to a
  base of its suit;
- in the first ``restricted_rounds`` rounds of the game (of every pass, with
  ``restricted_again``) only a King or an Ace that starts an empty base may
  leave the piles;
- once the stock is out, a **redeal** gathers the piles, without shuffling,
  into a new stock, while redeals remain;
- with ``deal_when = "nothing-fits"`` (the sheet) a round or a redeal is dealt
  only when no playable card fits a base; with ``"any-time"`` whenever the
  player likes.

Moves name indexed places: ``pile:1`` ... ``pile:12``, ``kbase:S``,
``abase:S`` (``S`` a suit letter).

>>> from solver.deals import Deal
>>> from solver.variants import load
>>> pos = NapoleaoPosition.start(Deal.from_number(1, decks=2), load("paciencia-napoleao"))
>>> pos.kbases, pos.abases, len(pos.stock), pos.deal.number
((0, 0, 1, 0), (0, 1, 0, 0), 102, 1)
>>> first = pos.stock[:12]
>>> " ".join(str(c) for c in first)
'3D 5H JC 5S 5H KC KC 8D JD 8C 6C 6H'
>>> pos = play(pos, Move.deal(first))
>>> legal_moves(pos)
[Move.move(KC, 'pile:6', 'kbase:C'), Move.move(KC, 'pile:7', 'kbase:C')]
>>> pos = play(pos, Move.move(Card.parse("KC"), "pile:6", "kbase:C"))
>>> score(pos), pos.moves_played, restricted(pos)
(3, 2, True)
>>> play(pos, Move.move(Card.parse("KC"), "pile:7", "abase:C"))
Traceback (most recent call last):
...
solver.errors.IllegalMoveError: K♣ pile:7 → abase:C: the empty ♣ Ace base takes only an A
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import replace
from typing import Any, Protocol, TypeVar

from ..cards import SUITS, Card
from ..notation import Move, is_place, place_index, place_kind
from ..vocabulary import Verdict
from . import engine
from .engine import Reject as _Reject
from .engine import describe as _describe
from .engine import exhaustive_search, replay_with
from .engine import illegal as _illegal

# --------------------------------------------------------------------------
# What this engine plays on: the fields of a NapoleaoPosition it reads (it imports
# none of the positions it checks; solver.rules.engine.Table says why).


class Rules(engine.Rules, Protocol):
    """The rule parameters the engine reads (a variant's)."""

    @property
    def restricted_rounds(self) -> int: ...
    @property
    def restricted_again(self) -> bool: ...
    @property
    def redeals(self) -> int: ...
    @property
    def deal_from(self) -> str: ...
    @property
    def deal_when(self) -> str: ...


class Table(engine.Table, Protocol):
    """The fields of a position the engine reads and replaces."""

    @property
    def variant(self) -> Rules: ...
    @property
    def piles(self) -> tuple[tuple[Card, ...], ...]: ...
    @property
    def kbases(self) -> tuple[int, ...]: ...
    @property
    def abases(self) -> tuple[int, ...]: ...
    @property
    def redeals(self) -> int: ...
    @property
    def rounds(self) -> int: ...


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
    "restricted",
    "kbase_wants",
    "abase_wants",
]

#: Piles in the ring, dealt 1..12 in each round.
PILES = 12
KING = 13
ACE = 1
#: Cards on a full base.
BASE_SIZE = 13
DECK_SIZE = 104

_BASE_NAMES = {"kbase": "King base", "abase": "Ace base"}


# --------------------------------------------------------------------------
# The position.


# --------------------------------------------------------------------------
# Small helpers: what a base takes, the restriction, the score.


def _rank_name(rank: int) -> str:
    """``'an A'``, ``'a 5'``, ``'an 8'``, ``'a 10'``, ``'a K'``: a rank as a message says it."""
    text = {1: "A", 11: "J", 12: "Q", 13: "K"}.get(rank, str(rank))
    return ("an " if rank in (1, 8) else "a ") + text


def kbase_wants(pos: P, suit: str) -> int | None:
    """The rank the King base of ``suit`` takes next, or ``None`` when it is full.

    >>> from solver.variants import load
    >>> pos = NapoleaoPosition(load("paciencia-napoleao"), (), kbases=(0, 1, 12, 13))
    >>> [kbase_wants(pos, s) for s in "CSHD"]
    [13, 12, 1, None]
    """
    n = pos.kbases[SUITS.index(suit)]
    return None if n >= BASE_SIZE else KING - n


def abase_wants(pos: P, suit: str) -> int | None:
    """The rank the Ace base of ``suit`` takes next, or ``None`` when it is full.

    >>> from solver.variants import load
    >>> pos = NapoleaoPosition(load("paciencia-napoleao"), (), abases=(0, 1, 12, 13))
    >>> [abase_wants(pos, s) for s in "CSHD"]
    [1, 2, 13, None]
    """
    n = pos.abases[SUITS.index(suit)]
    return None if n >= BASE_SIZE else n + 1


def _wants(pos: P, kind: str, suit: str) -> int | None:
    return kbase_wants(pos, suit) if kind == "kbase" else abase_wants(pos, suit)


def _starts_base(pos: P, card: Card, kind: str) -> bool:
    """Whether ``card`` on base ``kind`` of its suit starts an empty base."""
    bases = pos.kbases if kind == "kbase" else pos.abases
    first = KING if kind == "kbase" else ACE
    return bases[SUITS.index(card.suit)] == 0 and card.rank == first


def restricted(pos: P) -> bool:
    """Whether the current round lets only a King or an Ace that starts an empty
    base leave the piles: rounds 1..``restricted_rounds`` of the first pass (of
    every pass with ``restricted_again``).

    >>> from solver.variants import load
    >>> v = load("paciencia-napoleao")
    >>> [restricted(NapoleaoPosition(v, (), rounds=r)) for r in range(4)]
    [False, True, True, False]
    >>> restricted(NapoleaoPosition(v, (), rounds=1, redeals=1))
    False
    """
    v = pos.variant
    return (pos.redeals == 0 or v.restricted_again) and 1 <= pos.rounds <= v.restricted_rounds


def is_won(pos: P) -> bool:
    """All 104 cards are on the bases."""
    return score(pos) == DECK_SIZE


def score(pos: P) -> int:
    """Cards on the bases."""
    return sum(pos.kbases) + sum(pos.abases)


# --------------------------------------------------------------------------
# Move generation.


def _can_redeal(pos: P) -> bool:
    return not pos.stock and pos.redeals < pos.variant.redeals and any(pos.piles)


def legal_moves(pos: P) -> list[Move]:
    """Every legal move in ``pos``: the base moves (pile 1..12, for each its top
    card to the King base, then to the Ace base, of its suit), then the deal,
    then the redeal; with ``deal_when = "nothing-fits"`` the deal and the
    redeal only when there is no base move.

    Written apart from :func:`play`'s checks on purpose: the tests check that
    the two agree.

    >>> from solver.variants import load
    >>> c = Card.parse
    >>> pos = NapoleaoPosition(load("paciencia-napoleao-free"), (c("9H"),), piles=((c("7C"),),) + ((),) * 11,
    ...                        kbases=(6, 0, 0, 0), abases=(6, 0, 0, 0), rounds=5)
    >>> legal_moves(pos)
    [Move.move(7C, 'pile:1', 'kbase:C'), Move.move(7C, 'pile:1', 'abase:C'), Move.deal(9H)]
    >>> legal_moves(replace(pos, variant=load("paciencia-napoleao")))
    [Move.move(7C, 'pile:1', 'kbase:C'), Move.move(7C, 'pile:1', 'abase:C')]
    """
    moves = []
    only_starts = restricted(pos)
    for i, cards in enumerate(pos.piles, 1):
        if not cards:
            continue
        card = cards[-1]
        for kind in ("kbase", "abase"):
            if _wants(pos, kind, card.suit) != card.rank:
                continue
            if only_starts and not _starts_base(pos, card, kind):
                continue
            moves.append(Move.move(card, f"pile:{i}", f"{kind}:{card.suit}"))
    if moves and pos.variant.deal_when == "nothing-fits":
        return moves
    if pos.stock:
        moves.append(Move.deal(pos.stock[:PILES]))
    elif _can_redeal(pos):
        moves.append(Move.redeal())
    return moves


def _fitting(pos: P) -> tuple[Card, int, str] | None:
    """The first playable card that a base takes now (respecting a restricted
    round), as (card, pile number, base place), or ``None``: under
    ``deal_when = "nothing-fits"`` no round and no redeal is dealt while there
    is one."""
    only_starts = restricted(pos)
    for i, cards in enumerate(pos.piles, 1):
        if not cards:
            continue
        card = cards[-1]
        for kind in ("kbase", "abase"):
            if _wants(pos, kind, card.suit) == card.rank and (not only_starts or _starts_base(pos, card, kind)):
                return card, i, f"{kind}:{card.suit}"
    return None


def _check_nothing_fits(pos: P, what: str) -> None:
    if pos.variant.deal_when != "nothing-fits":
        return
    fit = _fitting(pos)
    if fit:
        card, pile, base = fit
        raise _Reject(
            f"{card.pretty()} on pile {pile} still fits {base}: {pos.variant.name} deals {what} only when"
            " no playable card fits a base"
        )


# --------------------------------------------------------------------------
# Playing a move.


def _cards_text(cards: Iterable[Card]) -> str:
    return " ".join(c.pretty() for c in cards)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def _deal(pos: P, move: Move) -> P:
    if not pos.stock:
        if _can_redeal(pos):
            raise _Reject("the stock is empty (redeal first)")
        raise _Reject("the stock is empty")
    expected = pos.stock[:PILES]
    if tuple(move.cards) != expected:
        if len(expected) == 1:
            raise _Reject(f"the next card of the stock is {expected[0].pretty()}")
        raise _Reject(f"the next {len(expected)} cards of the stock are {_cards_text(expected)}")
    _check_nothing_fits(pos, "a round")
    piles = tuple(pile + (expected[i],) if i < len(expected) else pile for i, pile in enumerate(pos.piles))
    return replace(pos, stock=pos.stock[len(expected) :], piles=piles, rounds=pos.rounds + 1)


def _redeal(pos: P) -> P:
    v = pos.variant
    if v.redeals == 0:
        raise _Reject(f"{v.name} deals the pack once: there is no redeal")
    if pos.stock:
        raise _Reject(f"the stock still holds {_plural(len(pos.stock), 'card')}: deal them first")
    if pos.redeals >= v.redeals:
        raise _Reject(
            f"no redeal left: {_plural(v.redeals, 'redeal')} allowed, {pos.redeals} made"
            f" (this is the last pass, {v.redeals + 1} of {v.redeals + 1})"
        )
    if not any(pos.piles):
        raise _Reject("the piles are empty: nothing to redeal")
    _check_nothing_fits(pos, "again")
    # Gathered without shuffling: each pile keeps its order, bottom card first.
    order = pos.piles if v.deal_from == "pile-1" else tuple(reversed(pos.piles))
    stock = tuple(card for pile in order for card in pile)
    return replace(pos, stock=stock, piles=((),) * PILES, rounds=0, redeals=pos.redeals + 1)


def _known_place(place: str | None, what: str) -> str:
    if not is_place(place) or place_kind(place) not in ("pile", "kbase", "abase"):
        raise _Reject(
            f"unknown {what} place {place!r}; places are pile:1..pile:{PILES},"
            " kbase:S and abase:S (S one of C, S, H, D)"
        )
    return place


def _move_card(pos: P, move: Move) -> P:
    card = move.card
    if not isinstance(card, Card):
        raise _Reject(f"{card!r} is not a card")
    src, dst = _known_place(move.src, "source"), _known_place(move.dst, "destination")
    if place_kind(src) != "pile":
        raise _Reject("cards on the bases never move again")
    if place_kind(dst) == "pile":
        raise _Reject("cards never move between piles: a pile card goes only to a base")
    kind, suit = place_kind(dst), place_index(dst)
    name = f"{card.pretty()[-1]} {_BASE_NAMES[kind]}"
    if suit != card.suit:
        raise _Reject(f"a base takes only its own suit: {card.pretty()} goes on kbase:{card.suit} or abase:{card.suit}")

    number = int(place_index(src))
    cards = pos.piles[number - 1]
    if not cards:
        raise _Reject(f"pile {number} is empty")
    if cards[-1] != card:
        raise _Reject(f"the top of pile {number} is {cards[-1].pretty()}")

    wants = _wants(pos, kind, suit)
    if wants is None:
        raise _Reject(f"the {name} is full")
    if card.rank != wants:
        bases = pos.kbases if kind == "kbase" else pos.abases
        n = bases[SUITS.index(suit)]
        if n == 0:
            raise _Reject(f"the empty {name} takes only {_rank_name(wants)}")
        top = KING + 1 - n if kind == "kbase" else n
        raise _Reject(f"the {name} shows {Card(top, suit).pretty()} and wants {_rank_name(wants)}")
    if restricted(pos) and not _starts_base(pos, card, kind):
        raise _Reject(
            f"round {pos.rounds} is restricted: only a King or an Ace that starts an empty base"
            f" may leave the piles (free play from round {pos.variant.restricted_rounds + 1})"
        )

    piles = pos.piles[: number - 1] + (cards[:-1],) + pos.piles[number:]
    i = SUITS.index(suit)
    if kind == "kbase":
        kbases = pos.kbases[:i] + (pos.kbases[i] + 1,) + pos.kbases[i + 1 :]
        return replace(pos, piles=piles, kbases=kbases)
    abases = pos.abases[:i] + (pos.abases[i] + 1,) + pos.abases[i + 1 :]
    return replace(pos, piles=piles, abases=abases)


def play(pos: P, move: Move) -> P:
    """The position after ``move`` (a new object; ``pos`` is unchanged).

    Raise :class:`~solver.errors.IllegalMoveError` naming the move and why when
    the rules do not allow it. A deal must list exactly the next cards of the
    stock (12, or all that is left); a card move must name the top card of a
    pile and a base of its suit that takes it.

    >>> from solver.variants import load
    >>> pos = NapoleaoPosition.start([Card.parse("KS")] * 2 + [Card.parse("AS")], load("paciencia-napoleao"))
    >>> play(pos, Move.deal([Card.parse("AS")]))
    Traceback (most recent call last):
    ...
    solver.errors.IllegalMoveError: deal A♠: the next card of the stock is K♠
    >>> play(pos, Move.redeal())
    Traceback (most recent call last):
    ...
    solver.errors.IllegalMoveError: redeal: the stock still holds 1 card: deal them first
    """
    try:
        if not isinstance(move, Move):
            raise _Reject(f"{move!r} is not a Move")
        if move.action == "deal":
            after = _deal(pos, move)
        elif move.action == "redeal":
            after = _redeal(pos)
        elif move.action == "move":
            after = _move_card(pos, move)
        else:
            raise _Reject(f"unknown action {move.action!r}; actions are deal, redeal, move")
    except _Reject as r:
        raise _illegal(f"{_describe(move)}: {r.reason}", move, r.reason) from None
    return replace(after, moves_played=pos.moves_played + 1, history=pos.history + (move,))


def replay(start: P, moves: Iterable[Move | dict[str, Any]]) -> P:
    """Play a whole line from ``start`` and return the final position.

    Moves may be :class:`~solver.notation.Move` objects or solution-format JSON
    objects. The first bad move raises :class:`~solver.errors.IllegalMoveError`
    saying its 1-based number.

    >>> from solver.variants import load
    >>> pos = NapoleaoPosition.start([Card.parse("KS"), Card.parse("AS"), Card.parse("KS")], load("paciencia-napoleao"))
    >>> replay(pos, [{"action": "deal", "cards": ["KS"]},
    ...              {"action": "move", "card": "KS", "from": "pile:1", "to": "abase:S"}])
    Traceback (most recent call last):
    ...
    solver.errors.IllegalMoveError: move 2 (K♠ pile:1 → abase:S): the ♠ Ace base shows A♠ and wants a 2
    """
    return replay_with(play, start, moves)


# --------------------------------------------------------------------------
# A plain exhaustive search.


def position_key(pos: P) -> Hashable:
    """An exact key for ``pos``: the stock, the piles (cards as their index
    0..51, so that the two copies of a card are the same), the bases, the
    redeals made and the rounds dealt in this pass.

    >>> from solver.variants import load
    >>> position_key(NapoleaoPosition(load("paciencia-napoleao"), (Card.parse("2C"),), kbases=(1, 0, 0, 0)))
    ((1,), ((), (), (), (), (), (), (), (), (), (), (), ()), (1, 0, 0, 0), (0, 0, 0, 0), 0, 0)
    """
    return (
        tuple(c.index for c in pos.stock),
        tuple(tuple(c.index for c in pile) for pile in pos.piles),
        tuple(pos.kbases),
        tuple(pos.abases),
        pos.redeals,
        pos.rounds,
    )


def search(pos: P, max_positions: int = 200_000) -> tuple[Verdict, int, list[Move]]:
    """Exhaustive depth-first search from ``pos``.

    Returns ``("won", 104, line)`` on a win; ``("lost", best, line)`` when every
    reachable position was explored (``line`` reaches the best score);
    ``("unknown", best, line)`` when more than ``max_positions`` distinct
    positions (by :func:`position_key`) were seen. No move is pruned.
    Iterative: lines may be hundreds of moves long.

    >>> from solver.variants import load
    >>> c = Card.parse
    >>> piles = ((c("2D"), c("AD")), (c("3D"),)) + ((),) * 10
    >>> pos = NapoleaoPosition(load("paciencia-napoleao"), (), piles, kbases=(13, 13, 13, 10),
    ...                        abases=(13, 13, 13, 13), redeals=2, rounds=9)
    >>> search(pos)
    ('lost', 102, [Move.move(3D, 'pile:2', 'kbase:D')])
    >>> search(replace(pos, redeals=1))[:2]
    ('won', 104)
    """
    return exhaustive_search(
        pos,
        legal_moves=legal_moves,
        play=play,
        key=position_key,
        score=score,
        goal=DECK_SIZE,
        max_positions=max_positions,
    )
