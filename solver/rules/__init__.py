"""The reference rules engines: the independent checkers of the core's
rules of play. Each, written in plain Python from the rules pages
(docs/rules-*.md), shares no code with the C core; the tests replay every
line the core returns with them, and anyone may replay a line with them
(:func:`reference`). Nothing on the library's product paths -- ``solve``,
``hint``, ``Game``, ``play``, ``position_after``, the web game -- runs them:
an import-linter contract in pyproject.toml says so.

>>> reference("tomb").__name__
'solver.rules.tomb'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from ..notation import Move
from ..vocabulary import Verdict
from . import jewel, napoleao, tomb

__all__ = ["Engine", "reference"]


class Engine(Protocol):
    """What each reference engine module offers (:mod:`~solver.rules.tomb`,
    :mod:`~solver.rules.napoleao`, :mod:`~solver.rules.jewel`). A position
    given to it must be of its own family: a pairing read from the variant at
    run time, which no static type says, so its positions are ``Any`` here."""

    __name__: str

    def legal_moves(self, pos: Any) -> list[Move]: ...

    def play(self, pos: Any, move: Move) -> Any: ...

    def replay(self, start: Any, moves: Iterable[Move | dict[str, Any]]) -> Any: ...

    def score(self, pos: Any) -> int: ...

    def is_won(self, pos: Any) -> bool: ...

    def search(self, pos: Any, max_positions: int = ...) -> tuple[Verdict, int, list[Move]]: ...


_ENGINES: dict[str, Engine] = {"tomb": tomb, "napoleao": napoleao, "jewel": jewel}


def reference(family: str) -> Engine:
    """The reference rules engine of the family called ``family`` (its
    ``legal_moves``, ``play``, ``replay``, ``search``)."""
    try:
        return _ENGINES[family]
    except KeyError:
        raise ValueError(f"no reference engine for the family {family!r}; families are {', '.join(_ENGINES)}") from None
