"""The variant of the Napoleon's Tomb family: its rule parameters and the
fields of its variant file.

>>> sorted(SCHEMA)[:2]
['cells.accept_from', 'cells.count']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...errors import VariantError
from ..base import BOOLEAN, BaseVariant, Schema, int_range, subset

CELL_SOURCES = ("waste", "cell")
CELL_TARGETS = ("foundation", "cell", "reserve", "waste")
MAX_CELLS = 4  # the C core's key holds four cells
MAX_PASSES = 7


@dataclass(frozen=True)
class TombVariant(BaseVariant):
    """Every rule parameter of one Napoleon's Tomb variant (family ``tomb``)."""

    turn: int
    passes: int
    cells: int
    cell_sources: tuple[str, ...]
    cell_targets: tuple[str, ...]
    sixes_reserve: bool


SCHEMA: Schema = {
    "stock.turn": (int, *int_range(1, 52)),
    "stock.passes": (int, *int_range(1, MAX_PASSES)),
    "cells.count": (int, *int_range(0, MAX_CELLS)),
    "cells.accept_from": (list, *subset(CELL_SOURCES)),
    "cells.send_to": (list, *subset(CELL_TARGETS)),
    "reserve.sixes": (bool, *BOOLEAN),
}


def make(values: dict[str, Any], common: dict[str, Any], where: str) -> TombVariant:
    """The variant of a file's checked ``values`` (by dotted field) and
    ``common`` fields; a VariantError for fields that disagree."""
    if "reserve" in values["cells.send_to"] and not values["reserve.sixes"]:
        raise VariantError(f"{where}: field 'cells.send_to' names 'reserve' but 'reserve.sixes' is false")
    if values["cells.count"] and "waste" not in values["cells.accept_from"]:
        raise VariantError(f"{where}: field 'cells.accept_from' must include 'waste' when there are cells")
    return TombVariant(
        **common,
        turn=values["stock.turn"],
        passes=values["stock.passes"],
        cells=values["cells.count"],
        cell_sources=tuple(values["cells.accept_from"]),
        cell_targets=tuple(values["cells.send_to"]),
        sixes_reserve=values["reserve.sixes"],
    )
