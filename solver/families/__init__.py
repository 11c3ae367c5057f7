"""The game families: for each, its reference rules engine and position class.

>>> engine("tomb").__name__
'solver.rules.tomb'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol, TypeAlias

from .game import Move, TombPosition
from .rules import jewel, napoleao, tomb
from .rules.jewel import JewelPosition
from .rules.napoleao import NapoleaoPosition
from .vocabulary import Verdict

#: A position of any family.
AnyPosition: TypeAlias = TombPosition | NapoleaoPosition | JewelPosition

#: The position classes of the families (for ``isinstance``).
POSITION_CLASSES = (TombPosition, NapoleaoPosition, JewelPosition)


class Engine(Protocol):
    """What each reference engine module offers (:mod:`solver.rules.tomb`,
    :mod:`~solver.rules.napoleao`, :mod:`~solver.rules.jewel`). A position
    given to it must be of its own family: a pairing read from the variant at
    run time, which no static type says, so the positions it takes are
    ``Any`` here and the positions it gives are of any family."""

    __name__: str

    def legal_moves(self, pos: Any) -> list[Move]: ...

    def play(self, pos: Any, move: Move) -> AnyPosition: ...

    def replay(self, start: Any, moves: Iterable[Move | dict[str, Any]]) -> AnyPosition: ...

    def score(self, pos: Any) -> int: ...

    def is_won(self, pos: Any) -> bool: ...

    def search(self, pos: Any, max_positions: int = ...) -> tuple[Verdict, int, list[Move]]: ...


_ENGINES: dict[str, Engine] = {"tomb": tomb, "napoleao": napoleao, "jewel": jewel}
_CLASSES: dict[str, type[AnyPosition]] = {"tomb": TombPosition, "napoleao": NapoleaoPosition, "jewel": JewelPosition}


def engine(family: str) -> Engine:
    """The reference rules engine of ``family`` (legal_moves, play, replay, search)."""
    return _ENGINES[family]


def position_class(family: str) -> type[AnyPosition]:
    """The class of the positions of ``family``."""
    return _CLASSES[family]


def position_classes() -> tuple[type[AnyPosition], ...]:
    return POSITION_CLASSES
