"""The position of Paciência do Porta-Jóias (the jewel box): the table as
plain immutable data, and the start of a deal.

>>> from solver.deals import Deal
>>> from solver.variants import load
>>> pos = JewelPosition.start(Deal.from_number(1, decks=2), load("paciencia-porta-joias"))
>>> pos.sides, pos.deal.number
(((Card('5H'),), (Card('KC'),), (Card('KC'),), (Card('8D'),)), 1)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ...cards import SUITS, Card
from ...deals import Deal, DealError
from ...errors import CoreError, VariantError
from ...notation import Move
from ..base import BaseVariant
from .variant import JewelVariant

#: The jewel box: five lid places, four side and four bottom piles, then
#: thirteen face-down jewels; two decks, every card home in a won game.
LID_SIZE = 5
SIDE_PILES = 4
BOX_SIZE = LID_SIZE + SIDE_PILES + 4
JEWEL_COUNT = 13
PACK_SIZE = 104


@dataclass(frozen=True)
class JewelPosition:
    """Everything on the table of a jewel-box game. Piles list cards bottom
    first; ``stock`` and ``jewels`` list the next card to turn first;
    ``foundations`` holds, per suit C S H D, the card counts of that suit's two
    foundations, the larger first."""

    variant: JewelVariant
    stock: tuple[Card, ...]
    turned: Card | None
    lid: tuple[Card | None, ...]
    sides: tuple[tuple[Card, ...], ...]
    bottoms: tuple[tuple[Card, ...], ...]
    jewels: tuple[Card, ...]
    reserves: tuple[tuple[Card, ...], ...]
    foundations: tuple[tuple[int, int], ...]
    moves_played: int = field(default=0, compare=False)
    #: The deal this position came from and the moves played since its start, when known.
    deal: Deal | None = field(default=None, compare=False, repr=False)
    history: tuple[Move, ...] = field(default=(), compare=False, repr=False)

    @classmethod
    def start(cls, deal_or_cards: Iterable[Card], variant: BaseVariant) -> JewelPosition:
        """The start of a deal from the cards of the pack, top first: lid 1-5,
        sides 1-4, bottom 1-4 (one card each), then the thirteen jewels (the
        first of them turned first), then the stock (its first card turned
        first). Reserves and foundations start empty.

        A short pack (at least 13 cards, for tests) leaves fewer jewels and a
        shorter stock.

        >>> from solver.deals import Deal
        >>> from solver.variants import load
        >>> pos = JewelPosition.start(Deal.from_number(1, decks=2), load("paciencia-porta-joias"))
        >>> pos.sides, pos.deal.number
        (((Card('5H'),), (Card('KC'),), (Card('KC'),), (Card('8D'),)), 1)
        """
        if not isinstance(variant, JewelVariant):
            raise VariantError(f"variant {variant!s} is not of the family 'jewel'")
        decks = getattr(deal_or_cards, "decks", None)
        if decks is not None and decks != variant.decks:
            raise DealError(f"{variant} is played with {variant.decks} decks; the deal has {decks}")
        cards = tuple(deal_or_cards)
        if len(cards) < BOX_SIZE:
            raise DealError(f"the jewel box needs at least {BOX_SIZE} cards; {len(cards)} given")
        if len(cards) > PACK_SIZE:
            raise DealError(f"{len(cards)} cards given; the pack has {PACK_SIZE}")
        lid_end, side_end = LID_SIZE, LID_SIZE + SIDE_PILES
        return cls(
            variant=variant,
            stock=cards[BOX_SIZE + JEWEL_COUNT :],
            turned=None,
            lid=cards[:lid_end],
            sides=tuple((c,) for c in cards[lid_end:side_end]),
            bottoms=tuple((c,) for c in cards[side_end:BOX_SIZE]),
            jewels=cards[BOX_SIZE : BOX_SIZE + JEWEL_COUNT],
            reserves=((),) * variant.reserves,
            foundations=((0, 0),) * len(SUITS),
            deal=deal_or_cards if isinstance(deal_or_cards, Deal) else None,
        )

    @property
    def score(self) -> int:
        """Cards on the foundations (0..104)."""
        return sum(a + b for a, b in self.foundations)

    @property
    def won(self) -> bool:
        return self.score == PACK_SIZE

    @property
    def unplaced(self) -> tuple[Card, ...]:
        """The cards a result of this position lists when its deal is not
        known: none (a two-deck position holds no deal's order to list)."""
        return ()

    def __str__(self) -> str:
        """The jewel box as a player sees it: the lid on top, sides 1-2 on the
        left and 3-4 on the right, the bottom piles below (each pile bottom
        card first), then the jewels, reserves, turned card, stock and
        foundations."""

        def cards(seq: Iterable[Card]) -> str:
            return " ".join(c.pretty() for c in seq) or "--"

        def row(label: str, text: str) -> str:
            return f"{label:<13}{text}"

        lines = [row("lid:", "  ".join(c.pretty() if c else "--" for c in self.lid))]
        left = [row(f"side {i}:", cards(self.sides[i - 1])) for i in (1, 2)]
        width = max(len(t) for t in left) + 4
        for i, text in zip((3, 4), left):
            lines.append(f"{text:<{width}}side {i}: {cards(self.sides[i - 1])}")
        for i, pile in enumerate(self.bottoms, 1):
            lines.append(row(f"bottom {i}:", cards(pile)))
        jewels = f"{len(self.jewels)} face down"
        from . import FAMILY  # the family's record, which needs this class first

        try:
            pending = FAMILY.player.view(self)["jewels"]["pending"]
        except CoreError:  # a position no game reaches (built by hand): no place is said to wait
            pending = None
        if pending:
            jewels += f" (the next fills {pending})"
        lines.append(row("jewels:", jewels))
        parts = [f"{i}: {r[-1].pretty()} ({len(r)})" if r else f"{i}: --" for i, r in enumerate(self.reserves, 1)]
        lines.append(row("reserves:", "   ".join(parts) or "(none)"))
        if self.turned is not None:
            lines.append(row("turned:", f"{self.turned.pretty()} (to place)"))
        lines.append(row("stock:", f"{len(self.stock)} card{'' if len(self.stock) == 1 else 's'}"))
        homes = []
        for suit, counts in zip(SUITS, self.foundations):
            homes.append(" ".join(Card(n, suit).pretty() if n else "--" for n in counts))
        lines.append(row("foundations:", "  |  ".join(homes)))
        lines.append(row("score:", f"{self.score}/{PACK_SIZE}"))
        return "\n".join(lines)
