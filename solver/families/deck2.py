"""The two-deck core (csrc/families/deck2/), which plays Paciência Napoleão
and the jewel box: its constructor, its reset and its shortcuts
(docs/search.md), which both families share.

>>> sorted(SHORTCUTS)
['dead-cards', 'interchangeable', 'last-copy-home', 'orders', 'restarts']
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from .._core import lib
from .base import Family
from .play import CorePlay, core_number
from .player import Player

#: Shortcuts of the two-deck games (docs/search.md) and their C flags.
SHORTCUTS = {
    "last-copy-home": lib.DECK2_LAST_COPY_HOME,
    "interchangeable": lib.DECK2_INTERCHANGEABLE,
    "restarts": lib.DECK2_RESTARTS,
    "dead-cards": lib.DECK2_DEAD_CARDS,
    "orders": lib.DECK2_ORDERS,
}


def family(name: str, title: str, position: type[Any], fields: ModuleType, core: ModuleType) -> Family:
    """The record of a family this core plays: ``fields``, its variant
    module (the variant's class ``VARIANT``, ``SCHEMA`` and ``make``);
    ``core``, its conversion of rules and positions (``rules``,
    ``position``, ``from_table``)."""
    return Family(
        name=name,
        title=title,
        variant=fields.VARIANT,
        schema=fields.SCHEMA,
        make_variant=fields.make,
        position=position,
        player=Player(CorePlay(name, core.rules, core.position, core.from_table)),
        core_number=core_number(name),
        rules_struct=core.rules,
        position_struct=core.position,
        shortcuts=SHORTCUTS,
    )
