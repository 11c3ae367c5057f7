"""The base class of the library's errors.

Every error the library raises on purpose (a bad card, deal, move or
variant file, a refused game request, a batch that cannot go on...) is a
:class:`SolverError`; most are a :class:`ValueError` too, as they were
before this base class, so ``except ValueError`` still catches them.

>>> from solver import CardError, Card
>>> try:
...     Card.parse("ZZ")
... except SolverError as exc:
...     print(type(exc).__name__, isinstance(exc, ValueError))
CardError True
"""

from __future__ import annotations


class SolverError(Exception):
    """An error of the solver library, with a message that names the problem."""


class InputError(SolverError, ValueError):
    """Input that cannot be read: a file that is not there or not text, JSON
    that is not JSON or nests too deeply, a number or a file too large."""


class CardError(SolverError, ValueError):
    """A card token that names no card."""


class DealError(SolverError, ValueError):
    """A deal number out of range, or a list of cards that is not one deck."""


class LimitError(SolverError, ValueError):
    """A bound of :class:`Limit` that is not a count or a duration."""


class ResultError(SolverError, ValueError):
    """A result's JSON that does not read back, or a move count past its line."""


class StrategyError(SolverError, ValueError):
    """A strategy that is neither a known name nor an object with ``choose``."""


class GameError(SolverError, ValueError):
    """A game request that cannot be carried out (nothing to undo, a game
    without a deal number to save...)."""


class CoreError(SolverError, ValueError):
    """The C core refused the rules or the position."""


class VariantError(SolverError, ValueError):
    """An unknown variant, or a variant file that breaks the schema."""


class VerdictIndexError(SolverError, ValueError):
    """A verdict index that cannot be built or read."""


class MoveError(SolverError, ValueError):
    """A move that cannot be read, or cannot be played where it is played."""


class IllegalMoveError(MoveError):
    """A well-formed move that the rules do not allow in the position.

    ``move``: the move as it was given (a :class:`~solver.notation.Move`, or
    what was given in its place); ``reason``: why the rules refuse it,
    without the move's name (the message says both); ``number``: its 1-based
    number in the line replayed, or ``None`` for a move played by itself.
    """

    def __init__(self, message: str, move: object = None, reason: str | None = None, number: int | None = None) -> None:
        super().__init__(message)
        self.move = move
        self.reason = message if reason is None else reason
        self.number = number


class ServeError(SolverError, ValueError):
    """The web game cannot start: its extra is not installed, an option is
    out of range, or its address cannot be listened on."""


class BatchError(SolverError, ValueError):
    """A batch or stats command cannot go on (bad database, dead worker, ...)."""


class WrongVersion(SolverError, RuntimeError):
    """A worker of a cluster runs another version of the solver than the client."""
