"""The verdict index: which deals of 1..1,000,000 can be won, without a search.

Shipped in this folder for each variant built (the Tomb's three, the sheets'
Napoleão and Porta-Jóias): ``<variant>.bits.zlib``,
a bitset (bit ``n - first`` set when deal ``n`` is won; byte ``i // 8``, bit
``i % 8``, least significant first) compressed with zlib, and ``index.json``,
which says for each variant the range of deals it covers, how many were won
and lost, the deals the solver left unknown (their bit is 0), the
SHA-256 of the bitset, the command that built it and the fingerprint of the
rules (an entry without one was built from the shipped rules of its day).
An index is of the shipped rules only: a variant of a file of other rules
(:func:`solver.variants.load_file`) is never answered from it.

It is built from batch runs (docs/web.md)::

    python -m solver batch --variant napoleons-tomb --deals 1-1000000 --jobs 2 --db tomb.sqlite
    python -m solver index --db tomb.sqlite --variant napoleons-tomb

:func:`verdict` answers a :data:`~solver.vocabulary.Verdict` from the index,
and beyond it (a deal it does not cover, a variant it does not hold) falls
back to a search. (:func:`winnable`, its ``True``/``False``/``None`` under
another name, is deprecated and goes in the next release.)

>>> verdict(1, "napoleons-tomb-3")
('won', 'index')
>>> lookup(10**15, "napoleons-tomb-3") is None     # not in the index
True
"""

from __future__ import annotations

import hashlib
import json
import random
import warnings
import zlib
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .. import families
from ..api import DEFAULT_VARIANT, Cancel, Limit, solve
from ..batch import connect, recorded_rules
from ..blind import play
from ..deals import Deal, DealError
from ..errors import VerdictIndexError as VerdictIndexError
from ..variants import BaseVariant, VariantError, load, names, shipped
from ..vocabulary import Verdict

__all__ = [
    "DIFFICULTIES",
    "Index",
    "VerdictIndexError",
    "build",
    "difficulty",
    "index_for",
    "index_of",
    "lookup",
    "random_deal",
    "verdict",
    "winnable",
]

HERE = Path(__file__).parent
META = "index.json"

#: What :func:`difficulty` answers.
DIFFICULTIES = {
    "blind": "a careful player who cannot see the stock wins it",
    "sighted": "only a player who sees the stock wins it; the careful blind player loses it",
    "lost": "no line wins it (proven)",
    "unknown": "the solver could not tell within its limit",
}


@dataclass(frozen=True)
class Index:
    """The verdicts of one variant's deals ``first``..``last``."""

    variant: str
    first: int
    last: int
    bits: bytes
    unknown: frozenset[int]
    meta: dict[str, Any]

    def __contains__(self, deal: int) -> bool:
        return self.first <= deal <= self.last

    def verdict(self, deal: int) -> Verdict | None:
        """``"won"``, ``"lost"``, ``"unknown"``, or ``None`` when the index
        does not cover ``deal``."""
        if deal not in self:
            return None
        if deal in self.unknown:
            return "unknown"
        i = deal - self.first
        return "won" if self.bits[i >> 3] >> (i & 7) & 1 else "lost"

    def won_deals(self) -> int:
        return sum(bin(b).count("1") for b in self.bits)

    @property
    def fingerprint(self) -> str:
        """The rules it was built from: those recorded, else the shipped variant's."""
        recorded = self.meta.get("fingerprint")
        return recorded if isinstance(recorded, str) else load(self.variant).fingerprint

    def answers_for(self, variant: BaseVariant) -> bool:
        """Whether its verdicts are those of ``variant``'s rules."""
        return variant.name == self.variant and variant.fingerprint == self.fingerprint


_loaded: dict[tuple[str, str], Index | None] = {}


def _bits_name(variant: str) -> str:
    return f"{variant}.bits.zlib"


def _read_meta(folder: Path) -> dict[str, Any]:
    path = folder / META
    try:
        if not path.is_file():
            return {}
    except OSError as exc:  # a name too long, say
        raise VerdictIndexError(f"{folder}: cannot read the index there ({exc.strerror or exc})") from None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise VerdictIndexError(f"{path}: cannot read the index ({exc})") from None
    if not isinstance(data, dict):
        raise VerdictIndexError(f"{path}: expected a JSON object of variants")
    return data


def index_of(variant: str, folder: str | Path | None = None) -> Index | None:
    """The index of ``variant`` (shipped, or in ``folder``), or ``None`` when
    there is none. Read once and kept."""
    folder = Path(folder) if folder is not None else HERE
    key = (str(folder), variant)
    if key not in _loaded:
        meta = _read_meta(folder).get(variant)
        if meta is None:
            _loaded[key] = None
        else:
            path = folder / _bits_name(variant)
            try:
                bits = zlib.decompress(path.read_bytes())
            except (OSError, zlib.error) as exc:
                raise VerdictIndexError(f"{path}: cannot read the bitset ({exc})") from None
            if hashlib.sha256(bits).hexdigest() != meta.get("sha256"):
                raise VerdictIndexError(f"{path}: the bitset does not match its SHA-256 in {META}")
            first, last = meta["first"], meta["last"]
            if len(bits) != (last - first) // 8 + 1:
                raise VerdictIndexError(f"{path}: {len(bits)} bytes do not cover deals {first}-{last}")
            index = Index(variant, first, last, bits, frozenset(meta.get("unknown", ())), meta)
            if variant in names() and index.fingerprint != load(variant).fingerprint:
                raise VerdictIndexError(
                    f"{folder / META}: the index of {variant} was built for the rules "
                    f"{index.fingerprint}, and the shipped rules are now "
                    f"{load(variant).fingerprint}: build it again (make index)"
                )
            _loaded[key] = index
    return _loaded[key]


def _number(deal: int | str) -> int:
    if isinstance(deal, bool) or not isinstance(deal, (int, str)):
        raise DealError(f"a deal number is a whole number, not {deal!r}")
    if isinstance(deal, str):
        text = deal.strip()
        if not (text.isascii() and text.isdigit()):
            raise DealError(f"deal number {deal!r} is not a whole number (1..10**20)")
        deal = int(text)
    Deal.from_number(deal)  # checks the range, naming it
    return deal


def index_for(variant: BaseVariant) -> Index | None:
    """The shipped index of ``variant``, when it is of ``variant``'s rules."""
    index = index_of(variant.name) if variant.name in names() else None
    return index if index is not None and index.answers_for(variant) else None


def lookup(deal: int | str, variant: str | BaseVariant = DEFAULT_VARIANT) -> Verdict | None:
    """The index's verdict on ``deal``: ``"won"``, ``"lost"``, ``"unknown"``,
    or ``None`` when the index does not cover it (or the variant has none, or
    ``variant`` is of a file whose rules are not the shipped ones)."""
    number = _number(deal)
    index = index_for(load(variant))
    return index.verdict(number) if index is not None else None


def verdict(
    deal: int | str,
    variant: str | BaseVariant = DEFAULT_VARIANT,
    *,
    search: bool = True,
    limit: Limit | None = None,
    cancel: Cancel | None = None,
) -> tuple[Verdict | None, str]:
    """The verdict on ``deal`` and where it comes from: ``(verdict, "index")``,
    ``(verdict, "search")`` when the index does not cover it and ``search``
    (with ``limit``, the default :class:`~solver.api.Limit`), or ``(None,
    "none")`` when it does not and ``search`` is false. ``cancel``
    (:class:`~solver.Cancel`) stops the search from another thread."""
    number = _number(deal)
    found = lookup(number, variant)
    if found is not None:
        return found, "index"
    if not search:
        return None, "none"
    return solve(number, variant, limit, cancel=cancel).verdict, "search"


def winnable(
    deal: int | str, variant: str | BaseVariant = DEFAULT_VARIANT, *, search: bool = True, limit: Limit | None = None
) -> bool | None:
    """Deprecated (removed in the next release): use :func:`verdict`, which
    answers the :data:`~solver.vocabulary.Verdict` words and where they come
    from. Whether ``deal`` can be won: ``True`` or ``False`` (both proven), or
    ``None`` (unknown: the solver's limit stopped it; or not in the index and
    ``search`` is false)."""
    warnings.warn(
        "solver.verdicts.winnable() is deprecated: use solver.verdicts.verdict(), which answers"
        " ('won' / 'lost' / 'unknown' or None, source)",
        DeprecationWarning,
        stacklevel=2,
    )
    found, _ = verdict(deal, variant, search=search, limit=limit)
    return True if found == "won" else False if found == "lost" else None


def difficulty(
    deal: int | str,
    variant: str | BaseVariant = DEFAULT_VARIANT,
    *,
    search: bool = True,
    limit: Limit | None = None,
    known: str | None = None,
    cancel: Cancel | None = None,
) -> str:
    """How hard ``deal`` is, one of :data:`DIFFICULTIES`: ``"blind"`` when
    the careful blind player (:mod:`solver.blind`) wins it, else
    ``"sighted"`` when it can be won, ``"lost"`` or ``"unknown"``. The
    Napoleon's Tomb variants only (the blind players are theirs). ``known``:
    the deal's verdict when the caller has it already (no second search)."""
    v = load(variant)
    if not families.of(v).blind_players:
        raise VariantError(
            f"a difficulty needs the blind players, written for the Napoleon's Tomb variants; {v.name} is not one"
        )
    number = _number(deal)
    if play(number, v, "careful").won:
        return "blind"
    found = known or verdict(number, v, search=search, limit=limit, cancel=cancel)[0]
    return "sighted" if found == "won" else "lost" if found == "lost" else "unknown"


def random_deal(
    variant: str | BaseVariant = DEFAULT_VARIANT,
    *,
    winnable_only: bool = False,
    rng: random.Random | None = None,
    top: int = 1_000_000,
) -> int:
    """A random deal number of 1..``top`` (with ``winnable_only``, one the
    index says is won; a variant without an index draws from all deals)."""
    rng = rng or random.Random()
    index = index_for(load(variant)) if winnable_only else None
    if index is None:
        return rng.randint(1, top)
    if index.won_deals() == 0:
        raise VerdictIndexError(f"the index of {variant} holds no won deal")
    while True:
        n = rng.randint(index.first, index.last)
        if index.verdict(n) == "won":
            return n


# ---------------------------------------------------------------------------
# Building the index from a batch database


def _shipped_variant(variant: str | BaseVariant) -> BaseVariant:
    """``variant``, loaded, when it is a shipped one with the shipped rules:
    the only rules an index is of."""
    v = load(variant)
    name = v.name
    if name not in names():
        raise VerdictIndexError(f"the verdict index is of the shipped variants; {name} is not one")
    if not shipped(v):
        raise VerdictIndexError(
            f"the verdict index is of the shipped rules; {v.path or name} has the rules "
            f"{v.fingerprint}, not those of the shipped {name}, {load(name).fingerprint}"
        )
    return v


def _to_extend(name: str, folder: Path, first: int, last: int) -> Index:
    """The index of ``name`` in ``folder`` that a build of ``first``..``last``
    extends: it must start at ``first`` and end before ``last``."""
    old = index_of(name, folder)
    if old is None:
        raise VerdictIndexError(f"{folder / META}: holds no index of {name} to extend")
    if old.first != first or old.last >= last:
        raise VerdictIndexError(
            f"the index of {name} covers deals {old.first}-{old.last}: it cannot be extended to {first}-{last}"
        )
    return old


@dataclass
class _Tally:
    """The verdicts a build has gathered on the deals ``first``..``expected - 1``:
    the bitset (grown as the database gives deals: the range asked may be far
    larger), the counts, the unknown deals, and the limits they were solved
    under (as sorted JSON)."""

    first: int
    expected: int
    bits: bytearray
    won: int
    lost: int
    unknown: list[int]
    limits: set[str]

    @classmethod
    def new(cls, first: int, old: Index | None) -> _Tally:
        """Nothing yet from ``first`` on, or (extending) the verdicts of ``old``."""
        if old is None:
            return cls(first, first, bytearray(), 0, 0, [], set())
        limits = {json.dumps(x, sort_keys=True) for x in old.meta.get("limits", [])}
        return cls(
            first, old.last + 1, bytearray(old.bits), old.meta["won"], old.meta["lost"], sorted(old.unknown), limits
        )

    def add(self, deal: int, found: str) -> None:
        """Count ``found``, the verdict on ``deal``, the deal expected next."""
        i = deal - self.first
        if len(self.bits) <= i >> 3:
            self.bits.extend(bytes(max(4096, len(self.bits))))
        if found == "won":
            self.bits[i >> 3] |= 1 << (i & 7)
            self.won += 1
        elif found == "lost":
            self.lost += 1
        else:
            self.unknown.append(deal)
        self.expected += 1


def _read_batch(db: str | Path, v: BaseVariant, tally: _Tally, last: int) -> None:
    """Add to ``tally`` the verdicts the database ``db`` holds on ``v``'s deals
    from the one expected on, up to ``last`` and stopping at the first it
    lacks, and their limits. Its deals must have been solved under the shipped
    rules (or under rules it does not record)."""
    name = v.name
    conn = connect(db, readonly=True)
    try:
        recorded = recorded_rules(conn, name)
        if recorded is not None and recorded != v.fingerprint:
            raise VerdictIndexError(
                f"{db}: its {name} deals were solved under the rules {recorded}, not the "
                f"shipped ones ({v.fingerprint}): the index must be of the shipped rules"
            )
        rows = conn.execute(
            "SELECT deal, verdict FROM results WHERE variant = ? AND deal BETWEEN ? AND ? ORDER BY deal",
            (name, tally.expected, last),
        )
        start = tally.expected
        for deal, found in rows:
            if deal != tally.expected:
                break
            tally.add(deal, found)
        tally.limits = {
            json.dumps(json.loads(row[0]), sort_keys=True)
            for row in conn.execute(
                "SELECT DISTINCT limits FROM results WHERE variant = ? AND deal BETWEEN ? AND ?",
                (name, start, tally.expected - 1),
            )
        } | tally.limits
    finally:
        conn.close()


def _entry(
    v: BaseVariant,
    tally: _Tally,
    kept: bytes,
    asked: tuple[int, int],
    start: int,
    old: Index | None,
    command: str | None,
) -> dict[str, Any]:
    """What ``index.json`` says of the index of ``v`` built from ``tally`` (its
    bitset ``kept``): the deals it covers and those ``asked``, its counts, the
    SHA-256, when and how it was built (the batch from ``start`` on, after
    ``old``'s when it extends one), its limits and its rules."""
    first, last = asked
    end = tally.expected - 1
    entry: dict[str, Any] = {
        "first": first,
        "last": end,
        "asked": [first, last],
        "won": tally.won,
        "lost": tally.lost,
        "unknown": tally.unknown,
        "sha256": hashlib.sha256(kept).hexdigest(),
        "built": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "from": (f"{old.meta['from']}; then " if old is not None else "")
        + (command or f"python -m solver batch --variant {v.name} --deals {start}-{last}"),
        "limits": [json.loads(x) for x in sorted(tally.limits)],
        "fingerprint": v.fingerprint,
    }
    if end < last:
        entry["note"] = f"deals {end + 1}-{last} were not decided when the index was built: verdict() searches there"
    return entry


def _write(folder: Path, name: str, kept: bytes, meta_all: dict[str, Any]) -> None:
    """Write the bitset ``kept`` of ``name``, compressed, and ``index.json``
    (``meta_all``) into ``folder``."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / _bits_name(name)).write_bytes(zlib.compress(kept, 9))
        (folder / META).write_text(json.dumps(meta_all, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    except OSError as exc:
        raise VerdictIndexError(f"{folder}: cannot write the index there ({exc.strerror or exc})") from None


def build(
    db: str | Path,
    variant: str | BaseVariant,
    first: int = 1,
    last: int = 1_000_000,
    folder: str | Path | None = None,
    command: str | None = None,
    extend: bool = False,
) -> Index:
    """Write the index of ``variant`` from a batch database: the deals
    ``first``..``K``, where ``K`` (at most ``last``) is the last deal before
    the first one the database does not hold. With ``extend``, the index
    already in ``folder`` (which must start at ``first``) keeps its deals and
    the database gives those after them. Returns it, as read back.

    The index is of the shipped rules: ``variant`` must have them, and the
    database must not say its deals were solved under others (one that does
    not say, made before databases recorded the rules, is taken as holding
    the shipped ones, as a batch takes it)."""
    v = _shipped_variant(variant)
    name = v.name
    folder = Path(folder) if folder is not None else HERE
    if first < 1 or last < first:
        raise VerdictIndexError(f"deals {first}-{last}: give a range A-B with 1 <= A <= B")
    old = _to_extend(name, folder, first, last) if extend else None
    tally = _Tally.new(first, old)
    start = tally.expected
    _read_batch(db, v, tally, last)
    end = tally.expected - 1
    if end < start:
        raise VerdictIndexError(f"{db}: holds no {name} deal from {start} on: run the batch first (docs/web.md)")
    kept = bytes(tally.bits[: (end - first) // 8 + 1])
    meta_all = _read_meta(folder)
    meta_all[name] = _entry(v, tally, kept, (first, last), start, old, command)
    _write(folder, name, kept, meta_all)
    _loaded.pop((str(folder), name), None)
    index = index_of(name, folder)
    assert index is not None  # just written
    return index
