"""Variant descriptions: one TOML file per variant in this folder, validated on load.

>>> v = load("napoleons-tomb-3")
>>> v.turn, v.passes, v.cells
(3, 3, 4)

A file that breaks the schema raises :class:`VariantError`, which names the
file, the field and what is allowed.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent

CELL_SOURCES = ("waste", "cell")
CELL_TARGETS = ("foundation", "cell", "reserve", "waste")
FAMILIES = ("tomb",)
MAX_CELLS = 4  # the C core's key holds four cells
MAX_PASSES = 7


class VariantError(ValueError):
    """An unknown variant, or a variant file that breaks the schema."""


@dataclass(frozen=True)
class Variant:
    """Every rule parameter of one Napoleon's Tomb variant."""

    name: str
    family: str
    description: str
    turn: int
    passes: int
    cells: int
    cell_sources: tuple[str, ...]
    cell_targets: tuple[str, ...]
    sixes_reserve: bool
    path: Path | None = None

    def __str__(self) -> str:
        return self.name


# field path -> (type, check, allowed text)
def _schema() -> dict[str, tuple[type, Any, str]]:
    def one_of(options):
        return (lambda v: v in options, "one of " + ", ".join(map(repr, options)))

    def int_range(lo, hi):
        return (lambda v: lo <= v <= hi, f"an integer {lo}..{hi}")

    def subset(options):
        return (
            lambda v: all(x in options for x in v) and len(set(v)) == len(v),
            "a list without repeats drawn from " + ", ".join(map(repr, options)),
        )

    return {
        "name": (str, *(lambda v: bool(v), "a non-empty string")),
        "family": (str, *one_of(FAMILIES)),
        "description": (str, *(lambda v: bool(v) and "\n" not in v, "a non-empty one-line string")),
        "stock.turn": (int, *int_range(1, 52)),
        "stock.passes": (int, *int_range(1, MAX_PASSES)),
        "cells.count": (int, *int_range(0, MAX_CELLS)),
        "cells.accept_from": (list, *subset(CELL_SOURCES)),
        "cells.send_to": (list, *subset(CELL_TARGETS)),
        "reserve.sixes": (bool, *(lambda v: True, "true or false")),
    }


def parse(data: dict[str, Any], where: str = "<variant>", path: Path | None = None) -> Variant:
    """Validate a variant description already read from TOML."""
    schema = _schema()
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
                f"{where}: field {field!r} is {node!r} ({type(node).__name__}); it must be {allowed}"
            )
        if not check(node):
            raise VariantError(f"{where}: field {field!r} is {node!r}; it must be {allowed}")
        values[field] = node
    known = {f.split(".")[0] for f in schema} | set(schema)
    for key, value in data.items():
        if key not in known:
            raise VariantError(f"{where}: unknown field {key!r}; fields are {', '.join(sorted(schema))}")
        if isinstance(value, dict):
            for sub in value:
                if f"{key}.{sub}" not in schema:
                    raise VariantError(
                        f"{where}: unknown field {key + '.' + sub!r}; fields are {', '.join(sorted(schema))}"
                    )
    if "reserve" in values["cells.send_to"] and not values["reserve.sixes"]:
        raise VariantError(f"{where}: field 'cells.send_to' names 'reserve' but 'reserve.sixes' is false")
    if values["cells.count"] and "waste" not in values["cells.accept_from"]:
        raise VariantError(f"{where}: field 'cells.accept_from' must include 'waste' when there are cells")
    return Variant(
        name=values["name"],
        family=values["family"],
        description=values["description"],
        turn=values["stock.turn"],
        passes=values["stock.passes"],
        cells=values["cells.count"],
        cell_sources=tuple(values["cells.accept_from"]),
        cell_targets=tuple(values["cells.send_to"]),
        sixes_reserve=values["reserve.sixes"],
        path=path,
    )


def load_file(path: str | Path) -> Variant:
    """Load and validate one variant file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise VariantError(f"{path}: cannot read the variant file ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise VariantError(f"{path}: the variant file is not UTF-8 text") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise VariantError(f"{path}: not valid TOML ({exc})") from None
    return parse(data, str(path), path)


def names() -> list[str]:
    """The names of the shipped variants."""
    return sorted(p.stem for p in HERE.glob("*.toml"))


_cache: dict[str, Variant] = {}


def load(name: str | Variant) -> Variant:
    """The shipped variant called ``name`` (a :class:`Variant` passes through)."""
    if isinstance(name, Variant):
        return name
    if name not in _cache:
        path = HERE / f"{name}.toml"
        if not isinstance(name, str) or "/" in name or not path.is_file():
            raise VariantError(f"unknown variant {name!r}; variants are {', '.join(names())}")
        variant = load_file(path)
        if variant.name != name:
            raise VariantError(f"{path}: field 'name' is {variant.name!r} but the file is named {name!r}")
        _cache[name] = variant
    return _cache[name]


def all_variants() -> list[Variant]:
    return [load(n) for n in names()]
