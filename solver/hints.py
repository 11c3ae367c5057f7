"""Hints: what a hint button shows, from any position of any family.

:func:`hint` searches from the position with a short limit
(:data:`DEFAULT_HINT_LIMIT`: 2 seconds) and answers with the next move and what
is known:

- ``"won"``: the search found a winning line from here (a proof: the line is
  replayed by the rules); the move is its first move.
- ``"lost"``: the search explored every reachable position and none is won:
  the deal can no longer be won. The move is the first of a line reaching the
  highest score any line reaches from here.
- ``"unknown"``: the limit stopped the search first. The move is the first of
  the best line found so far.

When the line has no move although moves are legal (the position already
holds the best score found), the move is a sensible legal one instead: in the
Napoleon's Tomb family the careful blind player's choice (:mod:`solver.blind`),
in the two-deck games the first legal move; either way preferring a move that
does not leave the game without a move at once. ``move`` is ``None`` only when
the game is won or no move is legal.

The two-deck games (Paciência Napoleão, Porta-Jóias) get hints the same way,
from their positions (:func:`~solver.api.position_after` with their variant).

>>> h = hint_after(14, "napoleons-tomb", [])
>>> h.verdict, h.move.to_json()
('won', {'action': 'turn', 'cards': ['9C']})
>>> str(h)
'Turn the stock: this line wins.'
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, cast

from . import families
from .api import DEFAULT_VARIANT, Cancel, DealLike, Limit, Result, Stats, position_after, solve, start_position
from .blind import careful_move
from .families import AnyPosition
from .families.tomb import TombPosition
from .notation import Move, describe_move
from .variants import BaseVariant
from .vocabulary import VERDICTS, Reason, Verdict

__all__ = ["DEFAULT_HINT_LIMIT", "Hint", "hint", "hint_after", "describe_move"]

#: The limit of a hint: short enough for a button. 2 seconds of search (the
#: table stays below 1 GiB in that time); most positions are decided far
#: sooner (see bench/test_bench_hint.py for the measured times).
DEFAULT_HINT_LIMIT = Limit(positions=50_000_000, seconds=2.0, memory=2**30)


def __getattr__(name: str) -> Any:
    """``HINT_STATUSES``, deprecated: :data:`solver.vocabulary.VERDICTS`
    (a hint answers with a search's verdict). Removed in the next release."""
    if name == "HINT_STATUSES":
        warnings.warn(
            "solver.hints.HINT_STATUSES is deprecated: use solver.VERDICTS (solver.vocabulary.VERDICTS)",
            DeprecationWarning,
            stacklevel=2,
        )
        return VERDICTS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass(frozen=True)
class Hint:
    """The answer of a hint button.

    ``move``: the move to play (a :class:`~solver.notation.Move`), or ``None`` when
    the game is won or no move is legal. ``verdict``: the verdict from here
    (a :data:`~solver.vocabulary.Verdict`), ``"won"``, ``"lost"`` or
    ``"unknown"`` (module text); ``status``, its old name, is deprecated.
    ``score``: the cards home at the end of the line the move starts (all the
    cards for ``won``; for ``lost`` the most any line reaches). ``reason``:
    for ``unknown``, the limit that stopped the search (``"seconds"``,
    ``"positions"``, ``"memory"``, ``"interrupted"``), else ``None``.
    ``line``: the searched line from here (empty when the move is the
    fallback choice), ``line_length`` its length; ``stats``: the search's.
    """

    move: Move | None
    verdict: Verdict
    score: int
    reason: Reason | None = None
    line: tuple[Move, ...] = ()
    stats: Stats = field(default_factory=Stats, compare=False)
    #: The score of the position the hint was asked from.
    score_now: int = 0
    total: int = 52

    @property
    def status(self) -> Verdict:
        """Deprecated: :attr:`verdict` (removed in the next release)."""
        warnings.warn("Hint.status is deprecated: use Hint.verdict", DeprecationWarning, stacklevel=2)
        return self.verdict

    @property
    def line_length(self) -> int:
        return len(self.line)

    @property
    def won(self) -> bool:
        """The position is already won."""
        return self.score_now == self.total

    def to_json(self) -> dict[str, Any]:
        """``{"move": <solution-format move or null>, "verdict", "score", "reason", "status"}``;
        ``"status"`` is ``"verdict"`` under its old name, deprecated (removed
        in the next release)."""
        return {
            "move": self.move.to_json() if self.move is not None else None,
            "verdict": self.verdict,
            "score": self.score,
            "reason": self.reason,
            "status": self.verdict,
        }

    def __str__(self) -> str:
        if self.move is None:
            if self.won:
                return f"The deal is won: all {self.total} cards are home."
            return f"No move is left: the game ends with {self.score_now} cards home."
        head = describe_move(self.move)
        if self.verdict == "won":
            return f"{head}: this line wins."
        if self.verdict == "lost":
            return f"{head}: the deal can no longer be won; this keeps {self.score} cards reachable."
        return (
            f"{head}: could not tell within the limit whether the deal can still be won; "
            f"the best line found brings {self.score} cards home."
        )


def _fallback(pos: AnyPosition) -> Move | None:
    """A sensible legal move when the searched line has none: in the tomb
    family the careful blind player's choice, or else the first legal move,
    preferring one after which the game still has a move (or is won)."""
    family = families.of(pos.variant)
    core = family.player.core
    legal = core.legal(pos)
    if not legal:
        return None
    candidates = []
    if family.blind_players:
        choice = careful_move(cast(TombPosition, pos))
        if choice is not None:
            candidates.append(choice)
    candidates += [m for m in legal if m not in candidates]
    for m in candidates:
        _, after = core.play(pos, m)
        if after.won or core.legal(after):
            return m
    return candidates[0]


def hint(
    position: AnyPosition | DealLike,
    variant: str | BaseVariant | None = None,
    limit: Limit | None = None,
    *,
    cancel: Cancel | None = None,
) -> Hint:
    """The hint from ``position`` (a position of any family, or a deal for
    its start), searching within ``limit`` (default
    :data:`DEFAULT_HINT_LIMIT`), stopped by ``cancel`` (:class:`~solver.Cancel`)
    if it is cancelled. See the module text for what it answers.
    """
    if families.is_position(position):
        pos = position
    else:
        pos, variant = start_position(cast(DealLike, position), DEFAULT_VARIANT if variant is None else variant), None
    limit = Limit.given(limit, DEFAULT_HINT_LIMIT)
    result: Result = solve(pos, variant, limit, cancel=cancel)
    line = tuple(result.moves[result.played :])
    move = line[0] if line else None
    if move is None and not pos.won:
        move = _fallback(pos)
    return Hint(
        move=move,
        verdict=result.verdict,
        score=result.score,
        reason=result.reason,
        line=line,
        stats=result.stats,
        score_now=pos.score,
        total=pos.variant.cards,
    )


def hint_after(
    deal: DealLike,
    variant: str | BaseVariant = DEFAULT_VARIANT,
    moves: Iterable[Move | dict[str, Any]] = (),
    limit: Limit | None = None,
    *,
    cancel: Cancel | None = None,
) -> Hint:
    """The hint after ``moves`` (Move objects or solution-format JSON objects)
    played from the start of ``deal``. The first bad move raises
    :class:`~solver.errors.MoveError` (:class:`~solver.errors.IllegalMoveError`
    for a well-formed move the rules refuse) naming it by its number."""
    return hint(position_after(deal, variant, moves), variant, limit, cancel=cancel)
