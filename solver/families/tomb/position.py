"""The position of the Napoleon's Tomb family: the table as plain immutable data.

>>> from solver.deals import Deal
>>> from solver.variants import load
>>> pos = TombPosition.start(Deal.from_number(1), load("napoleons-tomb"))
>>> len(pos.stock), pos.cells, pos.score
(52, (None, None, None, None), 0)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ...cards import Card
from ...deals import Deal
from ...notation import Move
from .variant import TombVariant


@dataclass(frozen=True)
class TombPosition:
    """Everything on the table. Piles list cards bottom first; ``stock`` lists the
    next card to turn first. ``redeals`` counts the redeals already made."""

    variant: TombVariant
    stock: tuple[Card, ...]
    waste: tuple[Card, ...] = ()
    cells: tuple[Card | None, ...] = ()
    reserve: tuple[Card, ...] = ()
    corners: tuple[tuple[Card, ...], ...] = ((), (), (), ())
    tomb: tuple[Card, ...] = ()
    redeals: int = 0
    moves_played: int = field(default=0, compare=False)
    #: The deal this position came from and the moves played since its start,
    #: when known (positions built by :func:`solver.position_after`).
    deal: Deal | None = field(default=None, compare=False, repr=False)
    history: tuple[Move, ...] = field(default=(), compare=False, repr=False)

    @classmethod
    def start(cls, cards: Iterable[Card], variant: TombVariant) -> TombPosition:
        """The start of a deal: every card in the stock, ``cards`` in turning order
        (a :class:`~solver.deals.Deal` is kept as the position's deal)."""
        return cls(
            variant=variant,
            stock=tuple(cards),
            cells=(None,) * variant.cells,
            deal=cards if isinstance(cards, Deal) else None,
        )

    @property
    def score(self) -> int:
        """Cards on the foundations."""
        return len(self.tomb) + sum(len(c) for c in self.corners)

    @property
    def won(self) -> bool:
        return self.score == 52

    @property
    def unplaced(self) -> tuple[Card, ...]:
        """The cards a result of this position lists when its deal is not
        known: those of the stock and the waste, in turning order."""
        return tuple(self.stock) + tuple(self.waste)

    def __str__(self) -> str:
        def top(pile: tuple[Card, ...]) -> str:
            return pile[-1].pretty() if pile else "--"

        cells = " ".join(c.pretty() if c else "--" for c in self.cells) or "(none)"
        tomb_round = len(self.tomb) // 6 + (1 if len(self.tomb) < 24 else 0)
        wants = 6 - len(self.tomb) % 6 if len(self.tomb) < 24 else None
        lines = [
            f"{top(self.corners[0]):>4}        {top(self.corners[1]):>4}     corners (up 7..K)",
            f"       {top(self.tomb):>4}          tomb: {len(self.tomb)}/24"
            + (f", wants a {'A' if wants == 1 else wants} (round {tomb_round})" if wants else ", full"),
            f"{top(self.corners[2]):>4}        {top(self.corners[3]):>4}",
            f"cells: {cells}",
        ]
        if self.variant.sixes_reserve:
            lines.append("sixes reserve: " + (" ".join(c.pretty() for c in self.reserve) or "--"))
        waste = " ".join(c.pretty() for c in self.waste[-8:])
        more = f"({len(self.waste) - 8} more) " if len(self.waste) > 8 else ""
        lines.append(f"waste: {more}{waste or '--'}   (top on the right)")
        passes = self.variant.passes
        stock = f"stock: {len(self.stock)} cards"
        if passes > 1:
            stock += f", pass {self.redeals + 1} of {passes}"
        lines.append(stock)
        lines.append(f"score: {self.score}/52")
        return "\n".join(lines)


# The name the Tomb's position had when it was the only family's: kept for
# the code that imports it.
Position = TombPosition
