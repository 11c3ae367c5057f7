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

import os
import tomllib
from pathlib import Path
from typing import Any

from ..errors import VariantError
from ..families import FAMILIES as _FAMILIES
from ..families.base import FINGERPRINT_BYTES, NOT_RULES, BaseVariant, Schema, one_of
from ..families.jewel.variant import JewelVariant
from ..families.napoleao.variant import NapoleaoVariant
from ..families.tomb.variant import TombVariant
from ..inputs import brief, read_text, shown_path

__all__ = [
    "FINGERPRINT_BYTES",
    "NOT_RULES",
    "BaseVariant",
    "JewelVariant",
    "NapoleaoVariant",
    "TombVariant",
    "Variant",
    "VariantError",
    "all_variants",
    "load",
    "load_file",
    "names",
    "parse",
    "shipped",
]

# The name the Tomb's variant had when it was the only family's: kept for
# the code that imports it.
Variant = TombVariant

HERE = Path(__file__).parent

#: The families a variant file may name.
FAMILIES = tuple(_FAMILIES)
#: The largest variant file read (the shipped ones are under 2 KiB): Python's
#: TOML reader takes time that grows with the square of a file of dotted keys
#: (0.4 s for 16 KiB of them, over a minute for 200 KiB).
MAX_FILE_BYTES = 16 * 1024

#: The fields of every variant file, whatever its family.
COMMON: Schema = {
    "name": (str, *(lambda v: bool(v), "a non-empty string")),
    "family": (str, *one_of(FAMILIES)),
    "description": (str, *(lambda v: bool(v) and "\n" not in v, "a non-empty one-line string")),
}


def _schema(family: object) -> Schema:
    """The fields of a variant file of ``family`` (the common ones alone for no family)."""
    known = _FAMILIES.get(family) if isinstance(family, str) else None
    return COMMON if known is None else COMMON | known.schema


def shipped(variant: BaseVariant) -> bool:
    """Whether ``variant`` has the rules of the shipped variant of its name."""
    return variant.name in names() and load(variant.name).fingerprint == variant.fingerprint


def parse(data: dict[str, Any], where: str = "<variant>", path: Path | None = None) -> BaseVariant:
    """Validate a variant description already read from TOML (a table)."""
    if not isinstance(data, dict):
        raise VariantError(f"{where}: a variant is a table of fields, not {brief(data)}")
    family = data.get("family")
    schema = _schema(family)
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
        raise VariantError(
            f"{where}: field 'title' is {brief(title)}; it must be a one-line string of 1 to 80"
            " characters (the game's name for a player; the variant's name when left out)"
        )
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
    common = dict(
        name=values["name"], family=values["family"], description=values["description"], path=path, title=title
    )
    return _FAMILIES[values["family"]].make_variant(values, common, where)


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
    except ValueError:  # a whole number of over 4,300 digits
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
