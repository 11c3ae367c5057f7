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

import importlib
import pkgutil
from collections.abc import Iterable
from typing import Any, Protocol, cast

from ..notation import Move
from ..vocabulary import Verdict

__all__ = ["FAMILIES", "Engine", "reference"]


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


#: The families with a reference engine: each is the module of this
#: package named after its family (engine.py is their common part), found
#: here, so that a new family's engine is its module and nothing else.
FAMILIES: tuple[str, ...] = tuple(
    sorted(m.name for m in pkgutil.iter_modules(__path__) if m.name != "engine" and not m.ispkg)
)


def reference(family: str) -> Engine:
    """The reference rules engine of the family called ``family`` (its
    ``legal_moves``, ``play``, ``replay``, ``search``)."""
    if family not in FAMILIES:
        raise ValueError(f"no reference engine for the family {family!r}; families are {', '.join(FAMILIES)}")
    return cast(Engine, importlib.import_module(f"{__name__}.{family}"))
