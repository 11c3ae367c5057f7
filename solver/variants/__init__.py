"""Variant descriptions: one TOML file per variant in this folder, validated on load.

>>> v = load("napoleons-tomb-3")
>>> v.turn, v.passes, v.cells
(3, 3, 4)

A file that breaks the schema raises :class:`VariantError`, which names the
file, the field and what is allowed. :func:`load_file` reads a variant file of
one's own (``--variant-file`` on the command line).

Each variant has a :attr:`~BaseVariant.fingerprint`: a digest of its rules
(every parameter but its name and description), which results carry so that a
file that keeps a shipped name but changes the rules cannot pass for it.

>>> v.fingerprint == load_file(v.path).fingerprint != load("napoleons-tomb").fingerprint
True
"""

from __future__ import annotations

import hashlib
import json
import os
import tomllib
from dataclasses import dataclass, fields
from dataclasses import field as dc_field
from functools import cached_property
from pathlib import Path
from collections.abc import Callable
from typing import Any

from ..errors import SolverError
from ..inputs import brief, read_text, shown_path

HERE = Path(__file__).parent

CELL_SOURCES = ("waste", "cell")
CELL_TARGETS = ("foundation", "cell", "reserve", "waste")
FAMILIES = ("tomb", "napoleao", "jewel")
MAX_CELLS = 4  # the C core's key holds four cells
MAX_PASSES = 7
#: Paciência Napoleão: when a round (or a redeal) may be dealt.
DEAL_WHEN = ("nothing-fits", "any-time")
#: Paciência do Porta-Jóias: which turned cards a reserve takes.
RESERVE_TAKES = ("unplaceable", "any")
#: The fields that name or describe a variant, or say where it was read
#: from, without changing its game: left out of its fingerprint.
NOT_RULES = ("name", "title", "description", "path")
#: Bytes of the fingerprint's digest (16 hex digits).
FINGERPRINT_BYTES = 8
#: The largest variant file read (the shipped ones are under 2 KiB): Python's
#: TOML reader takes time that grows with the square of a file of dotted keys
#: (0.4 s for 16 KiB of them, over a minute for 200 KiB).
MAX_FILE_BYTES = 16 * 1024


class VariantError(SolverError, ValueError):
    """An unknown variant, or a variant file that breaks the schema."""


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

    def shipped(self) -> bool:
        """Whether these are the rules of the shipped variant of this name."""
        return self.name in names() and load(self.name).fingerprint == self.fingerprint


@dataclass(frozen=True)
class TombVariant(BaseVariant):
    """Every rule parameter of one Napoleon's Tomb variant (family ``tomb``)."""

    turn: int
    passes: int
    cells: int
    cell_sources: tuple[str, ...]
    cell_targets: tuple[str, ...]
    sixes_reserve: bool


# The name the Tomb's variant had when it was the only family's: kept for
# the code that imports it.
Variant = TombVariant


@dataclass(frozen=True)
class NapoleaoVariant(BaseVariant):
    """Paciência Napoleão (family ``napoleao``): twelve piles dealt in rounds
    around four King bases and four Ace bases."""

    start_bases: bool          # the first King and first Ace turned start their bases
    restricted_rounds: int     # first rounds of the game in which only Kings and Aces leave the piles
    restricted_again: bool     # the restriction comes back after each redeal
    redeals: int
    deal_from: str             # "pile-1": the gathered pack deals pile 1 (bottom up) first; or "pile-12"
    deal_when: str             # "nothing-fits": a round or a redeal only when no playable card fits a
                               # base (the sheet); "any-time": whenever the player likes

    decks = 2
    cards = 104

    @property
    def passes(self) -> int:
        return self.redeals + 1


@dataclass(frozen=True)
class JewelVariant(BaseVariant):
    """Paciência do Porta-Jóias (family ``jewel``): the jewel box."""

    reserves: int              # reserves fed by the stock, 0..3
    runs_move: bool            # a run in alternating colours moves as a unit between side/bottom piles
    empty_pile: str            # once the jewels are gone, an empty side/bottom place takes: "any", "king", "none"
    empty_lid: str             # once the jewels are gone, an empty lid place takes: "any" or "none"
    reserve_takes: str         # "unplaceable": a turned card goes onto a reserve only when no foundation
                               # and no pile top takes it (the sheet); "any": any turned card

    decks = 2
    cards = 104


#: A check of a value read from TOML, and the text saying what it allows.
_Check = tuple[Callable[[Any], bool], str]


#: field path -> (type, check, allowed text)
_Schema = dict[str, tuple[type, Callable[[Any], bool], str]]


def _schema(family: str) -> _Schema:
    def one_of(options: tuple[str, ...]) -> _Check:
        return (lambda v: v in options, "one of " + ", ".join(map(repr, options)))

    def int_range(lo: int, hi: int) -> _Check:
        return (lambda v: lo <= v <= hi, f"an integer {lo}..{hi}")

    def subset(options: tuple[str, ...]) -> _Check:
        return (
            lambda v: all(x in options for x in v) and len(set(v)) == len(v),
            "a list without repeats drawn from " + ", ".join(map(repr, options)),
        )

    boolean = (lambda v: True, "true or false")
    common: _Schema = {
        "name": (str, *(lambda v: bool(v), "a non-empty string")),
        "family": (str, *one_of(FAMILIES)),
        "description": (str, *(lambda v: bool(v) and "\n" not in v, "a non-empty one-line string")),
    }
    if family == "napoleao":
        return common | {
            "setup.start_bases": (bool, *boolean),
            "rounds.restricted": (int, *int_range(0, 9)),
            "rounds.restricted_after_redeal": (bool, *boolean),
            "redeal.count": (int, *int_range(0, 5)),
            "redeal.deal_from": (str, *one_of(("pile-1", "pile-12"))),
            "rounds.deal_when": (str, *one_of(DEAL_WHEN)),
        }
    if family == "jewel":
        return common | {
            "reserves.count": (int, *int_range(0, 3)),
            "piles.runs_move": (bool, *boolean),
            "piles.empty_takes": (str, *one_of(("any", "king", "none"))),
            "lid.empty_takes": (str, *one_of(("any", "none"))),
            "reserves.takes": (str, *one_of(RESERVE_TAKES)),
        }
    if family != "tomb":
        return common
    return common | {
        "stock.turn": (int, *int_range(1, 52)),
        "stock.passes": (int, *int_range(1, MAX_PASSES)),
        "cells.count": (int, *int_range(0, MAX_CELLS)),
        "cells.accept_from": (list, *subset(CELL_SOURCES)),
        "cells.send_to": (list, *subset(CELL_TARGETS)),
        "reserve.sixes": (bool, *boolean),
    }


def parse(data: dict[str, Any], where: str = "<variant>", path: Path | None = None) -> BaseVariant:
    """Validate a variant description already read from TOML (a table)."""
    if not isinstance(data, dict):
        raise VariantError(f"{where}: a variant is a table of fields, not {brief(data)}")
    family = data.get("family")
    schema = _schema(family if family in FAMILIES else "")
    values: dict[str, Any] = {}
    for field, (kind, check, allowed) in schema.items():
        node: Any = data
        for part in field.split("."):
            if not isinstance(node, dict) or part not in node:
                raise VariantError(f"{where}: field {field!r} is missing; it must be {allowed}")
            node = node[part]
        # bool is an int in Python: keep them apart.
        if not isinstance(node, kind) or (kind is int and isinstance(node, bool)):
            raise VariantError(
                f"{where}: field {field!r} is {brief(node)} ({type(node).__name__}); it must be {allowed}"
            )
        if not check(node):
            raise VariantError(f"{where}: field {field!r} is {brief(node)}; it must be {allowed}")
        values[field] = node
    title = data.get("title", values["name"])
    if not isinstance(title, str) or not title.strip() or "\n" in title or len(title) > 80:
        raise VariantError(f"{where}: field 'title' is {brief(title)}; it must be a one-line string of 1 to 80"
                           " characters (the game's name for a player; the variant's name when left out)")
    known = {f.split(".")[0] for f in schema} | set(schema) | {"title"}
    for key, value in data.items():
        if key not in known:
            raise VariantError(f"{where}: unknown field {brief(key)}; fields are {', '.join(sorted(schema))}")
        if isinstance(value, dict):
            for sub in value:
                if f"{key}.{sub}" not in schema:
                    raise VariantError(
                        f"{where}: unknown field {brief(key + '.' + str(sub))}; fields are {', '.join(sorted(schema))}"
                    )
    common = dict(name=values["name"], family=values["family"], description=values["description"], path=path,
                  title=title)
    if family == "napoleao":
        return NapoleaoVariant(
            **common,
            start_bases=values["setup.start_bases"],
            restricted_rounds=values["rounds.restricted"],
            restricted_again=values["rounds.restricted_after_redeal"],
            redeals=values["redeal.count"],
            deal_from=values["redeal.deal_from"],
            deal_when=values["rounds.deal_when"],
        )
    if family == "jewel":
        return JewelVariant(
            **common,
            reserves=values["reserves.count"],
            runs_move=values["piles.runs_move"],
            empty_pile=values["piles.empty_takes"],
            empty_lid=values["lid.empty_takes"],
            reserve_takes=values["reserves.takes"],
        )
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


def load_file(path: str | Path) -> BaseVariant:
    """Load and validate one variant file of the schema of the shipped ones
    (``solver/variants/*.toml``; the README's Variants), wherever it is and
    whatever its name: a name of a shipped variant is allowed, and its
    :attr:`~BaseVariant.fingerprint` tells the two apart when the rules differ.
    A file that cannot be read or breaks the schema raises
    :class:`VariantError` naming the file and the problem."""
    if not isinstance(path, (str, os.PathLike)):
        raise VariantError(f"a variant file is named by a path, not {brief(path)}")
    text = read_text(path, "the variant file", VariantError, max_bytes=MAX_FILE_BYTES)
    path = Path(path)
    where = shown_path(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise VariantError(f"{where}: not valid TOML ({exc})") from None
    except RecursionError:
        raise VariantError(f"{where}: not a variant file (its lists or tables nest too deeply)") from None
    except ValueError:              # a whole number of over 4,300 digits
        raise VariantError(f"{where}: not a variant file (it holds a number too long to read)") from None
    return parse(data, where, path)


def names() -> list[str]:
    """The names of the shipped variants."""
    return sorted(p.stem for p in HERE.glob("*.toml"))


_cache: dict[str, BaseVariant] = {}


def load(name: str | BaseVariant) -> BaseVariant:
    """The shipped variant called ``name`` (a variant object passes through)."""
    if isinstance(name, BaseVariant):
        return name
    if not isinstance(name, str) or name not in _cache:  # a list is no key of the cache
        if not isinstance(name, str) or name not in names():
            raise VariantError(f"unknown variant {brief(name)}; variants are {', '.join(names())}")
        path = HERE / f"{name}.toml"
        variant = load_file(path)
        if variant.name != name:
            raise VariantError(f"{path}: field 'name' is {variant.name!r} but the file is named {name!r}")
        _cache[name] = variant
    return _cache[name]


def all_variants() -> list[BaseVariant]:
    return [load(n) for n in names()]
