"""The position of Paciência Napoleão: the table as plain immutable data,
and the start of a deal.

>>> from solver.deals import Deal
>>> from solver.variants import load
>>> pos = NapoleaoPosition.start(Deal.from_number(1, decks=2), load("paciencia-napoleao"))
>>> pos.kbases, pos.abases, len(pos.stock), pos.deal.number
((0, 0, 1, 0), (0, 1, 0, 0), 102, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ...cards import SUITS, Card
from ...deals import Deal, DealError
from ...errors import CoreError, VariantError
from ...notation import Move
from ..base import BaseVariant
from .variant import NapoleaoVariant

#: Piles in the ring, dealt 1..12 in each round.
PILES = 12
KING = 13
ACE = 1
DECK_SIZE = 104


@dataclass(frozen=True)
class NapoleaoPosition:
    """Everything on the table of Paciência Napoleão.

    ``stock`` lists the next card to deal first; each pile lists its bottom
    card first and its top (playable) card last. ``kbases`` and ``abases``
    count the cards on the bases, suits in the order C S H D. ``redeals``
    counts the redeals made, ``rounds`` the rounds dealt since the start of
    the current pass.
    """

    variant: NapoleaoVariant
    stock: tuple[Card, ...]
    piles: tuple[tuple[Card, ...], ...] = ((),) * PILES
    kbases: tuple[int, ...] = (0, 0, 0, 0)
    abases: tuple[int, ...] = (0, 0, 0, 0)
    redeals: int = 0
    rounds: int = 0
    moves_played: int = field(default=0, compare=False)
    #: The deal this position came from (when it has a number) and the moves
    #: played since its start.
    deal: Deal | None = field(default=None, compare=False, repr=False)
    history: tuple[Move, ...] = field(default=(), compare=False, repr=False)

    @classmethod
    def start(cls, deal_or_cards: Iterable[Card], variant: BaseVariant) -> NapoleaoPosition:
        """The start of a deal: ``deal_or_cards`` is the pack from its top.

        With ``variant.start_bases`` the first King from the top starts its
        suit's King base and the first Ace from the top its suit's Ace base;
        both leave the pack, the other cards keep their order.

        >>> from solver.variants import load
        >>> c = Card.parse
        >>> pos = NapoleaoPosition.start([c("5H"), c("AD"), c("KS"), c("AC"), c("KS")], load("paciencia-napoleao"))
        >>> " ".join(map(str, pos.stock)), pos.kbases, pos.abases
        ('5H AC KS', (0, 1, 0, 0), (0, 0, 0, 1))
        """
        if not isinstance(variant, NapoleaoVariant):
            raise VariantError(f"variant {variant!s} is not of the family 'napoleao'")
        cards = tuple(deal_or_cards)
        for i, card in enumerate(cards, 1):
            if not isinstance(card, Card):
                raise DealError(f"card {i} ({card!r}) is a {type(card).__name__}, not a Card")
        kbases = [0, 0, 0, 0]
        abases = [0, 0, 0, 0]
        if variant.start_bases:
            removed = []
            for rank, bases in ((KING, kbases), (ACE, abases)):
                for i, card in enumerate(cards):
                    if card.rank == rank:
                        bases[SUITS.index(card.suit)] = 1
                        removed.append(i)
                        break
            cards = tuple(c for i, c in enumerate(cards) if i not in removed)
        return cls(
            variant=variant,
            stock=cards,
            kbases=tuple(kbases),
            abases=tuple(abases),
            deal=deal_or_cards if isinstance(deal_or_cards, Deal) else None,
        )

    @property
    def score(self) -> int:
        """Cards on the bases, 0..104."""
        return sum(self.kbases) + sum(self.abases)

    @property
    def won(self) -> bool:
        return self.score == DECK_SIZE

    @property
    def unplaced(self) -> tuple[Card, ...]:
        """The cards a result of this position lists when its deal is not
        known: none (a two-deck position holds no deal's order to list)."""
        return ()

    def __str__(self) -> str:
        """The table as a player sees it: the ring of twelve piles (1-4 along the
        top, 5-6 down the right, 7-10 right to left along the bottom, 11-12 up
        the left) around the King bases and the Ace bases."""
        width = 12

        def pile(i: int) -> str:
            cards = self.piles[i - 1]
            top = cards[-1].pretty() if cards else "--"
            return f"{i:>2}: {top:<3}({len(cards)})".ljust(width)

        def bases(label: str, counts: tuple[int, ...], top_rank: Callable[[int], int]) -> str:
            tops = [Card(top_rank(n), s).pretty() if n else "--" for n, s in zip(counts, SUITS)]
            return f"{label} " + " ".join(f"{t:>3}" for t in tops)

        middle = width * 4 - 2
        kings = bases("King bases", self.kbases, lambda n: KING + 1 - n).center(middle)
        aces = bases("Ace bases ", self.abases, lambda n: n).center(middle)
        lines = [
            " " * width + "".join(pile(i) for i in (1, 2, 3, 4)),
            pile(12) + kings + "  " + pile(5),
            pile(11) + aces + "  " + pile(6),
            " " * width + "".join(pile(i) for i in (10, 9, 8, 7)),
            "",
        ]
        v = self.variant
        status = f"stock: {len(self.stock)} card{'s' if len(self.stock) != 1 else ''}"
        status += f", pass {self.redeals + 1} of {v.redeals + 1}"
        if self.rounds == 0:
            status += ", no round dealt yet"
        else:
            status += f", round {self.rounds}"
            from . import FAMILY  # the family's record, which needs this class first

            try:
                restricted = FAMILY.player.core.restricted(self)
            except CoreError:  # a position no game reaches (built by hand): no restriction is said
                restricted = False
            if restricted:
                status += " (restricted: only a King or an Ace that starts an empty base leaves the piles)"
        lines.append(status)
        lines.append(f"score: {self.score}/{DECK_SIZE}" + (" (won)" if self.won else ""))
        return "\n".join(line.rstrip() for line in lines)
