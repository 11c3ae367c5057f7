"""The two-deck core (csrc/families/deck2/), which plays Paciência Napoleão
and the jewel box: its constructor, its reset and its shortcuts
(docs/search.md), which both families share.

>>> sorted(SHORTCUTS)
['dead-cards', 'interchangeable', 'last-copy-home', 'restarts']
"""

from __future__ import annotations

from .._core import lib

#: Shortcuts of the two-deck games (docs/search.md) and their C flags.
SHORTCUTS = {
    "last-copy-home": lib.DECK2_LAST_COPY_HOME,
    "interchangeable": lib.DECK2_INTERCHANGEABLE,
    "restarts": lib.DECK2_RESTARTS,
    "dead-cards": lib.DECK2_DEAD_CARDS,
}

#: The core's constructor, given its rules struct, a position struct,
#: the shortcuts' flags and a buffer for an error; and its reset.
NEW = lib.solver_new_deck2
RESET = lib.solver_reset_deck2
