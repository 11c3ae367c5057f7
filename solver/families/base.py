"""What every game family has: its variant's common fields, the checks a
variant file's fields are read with, and the helpers its conversion of a
position to the C core's struct uses.

>>> one_of(("a", "b"))[1]
"one of 'a', 'b'"
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, fields
from dataclasses import field as dc_field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..cards import Card
from ..errors import CoreError

if TYPE_CHECKING:
    from .._core import CData
    from .player import Player

#: The fields that name or describe a variant, or say where it was read
#: from, without changing its game: left out of its fingerprint.
NOT_RULES = ("name", "title", "description", "path")
#: Bytes of the fingerprint's digest (16 hex digits).
FINGERPRINT_BYTES = 8


@dataclass(frozen=True)
class BaseVariant:
    """What every variant has: a name, its family of games, a description."""

    name: str
    family: str
    description: str
    #: Where the variant was read from; not part of equality (a copy of a
    #: file is the same variant).
    path: Path | None = dc_field(default=None, kw_only=True, compare=False)
    #: The game's name for a player ("Napoleon's Tomb — 3-card deal"); the
    #: variant's name when its file gives none.
    title: str = dc_field(default="", kw_only=True, compare=False)

    #: Decks in the pack and cards to bring home.
    decks = 1
    cards = 52

    def __str__(self) -> str:
        return self.name

    def rules(self) -> dict[str, Any]:
        """The canonical parameters: every field but :data:`NOT_RULES`, the
        family included, a list of places as a sorted list (the rules read
        ``cell_sources`` and ``cell_targets`` as sets)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            if f.name in NOT_RULES:
                continue
            value = getattr(self, f.name)
            out[f.name] = sorted(value) if isinstance(value, tuple) else value
        return out

    def rules_json(self) -> str:
        """:meth:`rules` as canonical JSON: keys sorted, no spaces, ASCII."""
        return json.dumps(self.rules(), sort_keys=True, separators=(",", ":"), ensure_ascii=True)

    @cached_property
    def fingerprint(self) -> str:
        """The digest of :meth:`rules_json`: 16 hex digits of BLAKE2b, equal
        for two variants exactly when their games are (whatever their name
        and description), the same on every machine and Python version."""
        return hashlib.blake2b(self.rules_json().encode("ascii"), digest_size=FINGERPRINT_BYTES).hexdigest()


# ---------------------------------------------------------------------------
# The fields of a variant file: a family's schema maps each field's dotted
# path to its type, a check of its value and the text saying what it allows.

#: A check of a value read from TOML, and the text saying what it allows.
Check = tuple[Callable[[Any], bool], str]
#: field path -> (type, check, allowed text)
Schema = dict[str, tuple[type, Callable[[Any], bool], str]]


def one_of(options: tuple[str, ...]) -> Check:
    return (lambda v: v in options, "one of " + ", ".join(map(repr, options)))


def int_range(lo: int, hi: int) -> Check:
    return (lambda v: lo <= v <= hi, f"an integer {lo}..{hi}")


def subset(options: tuple[str, ...]) -> Check:
    return (
        lambda v: all(x in options for x in v) and len(set(v)) == len(v),
        "a list without repeats drawn from " + ", ".join(map(repr, options)),
    )


BOOLEAN: Check = (lambda v: True, "true or false")


# ---------------------------------------------------------------------------
# A position's places as the C core's struct takes them.

_CARD_TYPE = frozenset((Card,))


def pile_indexes(pile: object, what: str, size: int = 104) -> list[int]:
    """The card indexes of a pile (a tuple of cards), or a CoreError naming
    the place: the struct takes only card indexes, so anything else there
    would fail in cffi, and a pile the struct cannot hold would overflow it."""
    if not isinstance(pile, (tuple, list)):
        raise CoreError(f"position: {what} is {pile!r}, not a tuple of cards")
    if not _CARD_TYPE.issuperset(map(type, pile)):
        for card in pile:
            if not isinstance(card, Card):
                raise CoreError(f"position: {what} holds {card!r}, which is not a Card")
    if len(pile) > size:
        raise CoreError(f"position: {what} holds {len(pile)} cards; at most {size}")
    return [c.index for c in pile]


def all_cards(pile: object) -> bool:
    """Whether ``pile`` is a tuple of nothing but cards."""
    return type(pile) is tuple and _CARD_TYPE.issuperset(map(type, pile))


def slot_index(card: object, what: str, empty: int) -> int:
    """The index of the card in a single place (a cell, a lid place), or ``empty``."""
    if card is None:
        return empty
    if not isinstance(card, Card):
        raise CoreError(f"position: {what} is {card!r}, not a Card or None")
    return card.index


def places(value: object, count: int, what: str) -> tuple[Any, ...]:
    """A tuple of ``count`` places: the engines and the core must see the same ones."""
    if not isinstance(value, (tuple, list)) or len(value) != count:
        raise CoreError(f"position: {what} must be a tuple of {count}, not {repr(value)[:80]}")
    return tuple(value)


def count(value: object, what: str, top: int) -> int:
    """A count of a position (a redeal, a base's cards), 0..``top``."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= top:
        allowed = "0" if top == 0 else f"a whole number 0..{top}"
        raise CoreError(f"position: {what} is {value!r}, not {allowed}")
    return value


def fill(array: CData, cards: Iterable[Card], what: str, size: int = 104) -> int:
    """Writes a pile's card indexes into ``array``; their count."""
    indexes = pile_indexes(cards, what, size)
    array[0 : len(indexes)] = indexes
    return len(indexes)


# ---------------------------------------------------------------------------
# The record of a family: everything the rest of the library asks of it.


@dataclass(frozen=True)
class Family:
    """One game family: the record every other module asks instead of
    testing which family a variant or a position is (one folder under
    :mod:`solver.families` a family, one registration in its
    ``__init__``)."""

    #: The ``family`` a variant file names, and the game's name for a
    #: player (the page's menu groups its variants under it).
    name: str
    title: str
    #: Its variants' class, the fields of its variant files (dotted path ->
    #: type, check, allowed text) and the maker of a variant from them
    #: (``make(values, common, where)``).
    variant: type[BaseVariant]
    schema: Schema
    make_variant: Callable[[dict[str, Any], dict[str, Any], str], BaseVariant]
    #: Its positions' class, whose ``start(deal, variant)`` deals a game.
    position: type[Any]
    #: What it adds for a player (the player's notation, the view).
    player: Player[Any]
    #: The C core: the family's number there (csrc/families/registry.c), its
    #: rules and positions as the core's structs, and its shortcuts' names
    #: and flags.
    core_number: int
    rules_struct: Callable[[Any], CData]
    position_struct: Callable[[Any], CData]
    shortcuts: Mapping[str, int]
    #: The struct of the start of a one-deck deal from its cards' indexes,
    #: made without a position (a batch's fast path), when the core has it.
    deal_struct: Callable[[bytes], CData] | None = None
    #: Whether the blind players (:mod:`solver.blind`) and the fair hint
    #: play it: they are written for the Napoleon's Tomb rules.
    blind_players: bool = False
