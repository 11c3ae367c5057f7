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
