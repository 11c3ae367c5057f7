"""``winnable`` (whether a deal can be won, as a verdict: from the verdict
index, else a search; exit codes as ``solve``'s: 0 won, 1 lost (proven), 3
unknown, 2 error) and ``index`` (the verdict index built from a batch
database): the command line of :mod:`solver.verdicts`."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from .. import verdicts
from ..api import DEFAULT_VARIANT, Limit
from ..batch import parse_deals
from ..deals import number_from_text
from ..errors import VerdictIndexError
from .options import EXIT, add_limit_args, add_variant_args, limit_of, variant_of

if TYPE_CHECKING:
    from .options import Subparsers


def add_parsers(sub: Subparsers) -> None:
    _winnable_parser(sub)
    _index_parser(sub)


def _winnable_parser(sub: Subparsers) -> None:
    w = sub.add_parser(
        "winnable",
        help="whether a deal can be won: from the verdict index, else a search",
        description=(
            "Whether a deal can be won, at once from the verdict index shipped with the package "
            "(deals 1-1,000,000 of the Napoleon's Tomb variants it holds), else by a search within the limits. "
            "With --difficulty, also who wins it (the careful blind player, or only one who sees the stock). "
            "Prints the verdict: won, lost or unknown. Exit 0 won, 1 lost (proven), 3 unknown, 2 error."
        ),
    )
    w.add_argument("deal", help="deal number (PySolFC's game number)")
    add_variant_args(
        w,
        DEFAULT_VARIANT,
        f"variant (default {DEFAULT_VARIANT}; the index holds the shipped "
        "rules only: a variant file of other rules is searched)",
    )
    w.add_argument("--no-search", action="store_true", help="answer from the index only (unknown beyond it)")
    w.add_argument(
        "--difficulty",
        action="store_true",
        help="also the deal's difficulty (Napoleon's Tomb variants: plays the careful blind player)",
    )
    w.add_argument(
        "--json",
        action="store_true",
        help='print {"deal", "variant", "verdict", "source", ...} ("winnable": true/false/null, '
        "deprecated, goes in the next release)",
    )
    add_limit_args(w, Limit(), "the search beyond the index")
    w.set_defaults(run=_winnable)


def _index_parser(sub: Subparsers) -> None:
    i = sub.add_parser(
        "index",
        help="build the verdict index of a variant from a batch database",
        description=(
            "Write solver/verdicts/<variant>.bits.zlib and its entry in index.json from a database of "
            "`batch` (docs/web.md): the deals of --deals from its first up to the first one the database "
            "does not hold. Exit 0, or 2 on an error."
        ),
    )
    i.add_argument("--db", required=True, metavar="FILE", help="the batch database")
    add_variant_args(
        i,
        DEFAULT_VARIANT,
        f"variant (default {DEFAULT_VARIANT}; the index is of the shipped rules: a variant file must have them)",
    )
    i.add_argument("--deals", default="1-1000000", help="the range A-B to cover (default 1-1000000)")
    i.add_argument("--out", metavar="DIR", default=None, help="write there instead of the package's folder")
    i.add_argument(
        "--extend",
        action="store_true",
        help="keep the deals the index already holds and add the database's deals after them",
    )
    i.set_defaults(run=_index)


def _winnable(args: argparse.Namespace) -> int:
    variant = variant_of(args)
    assert variant is not None  # --variant has a default
    limit = limit_of(args)
    deal = number_from_text(args.deal)
    found, source = verdicts.verdict(deal, variant, search=not args.no_search, limit=limit)
    level = verdicts.difficulty(deal, variant, limit=limit) if args.difficulty else None
    if args.json:
        winnable = True if found == "won" else False if found == "lost" else None  # deprecated: "verdict"
        out = {
            "deal": deal,
            "variant": variant.name,
            "fingerprint": variant.fingerprint,
            "winnable": winnable,
            "verdict": found,
            "source": source,
        }
        if level is not None:
            out["difficulty"] = level
        print(json.dumps(out))
        return EXIT[found or "unknown"]
    text = {"won": "won", "lost": "lost, no line wins it", "unknown": "unknown"}[found or "unknown"]
    where = {"index": "from the verdict index", "search": "from a search", "none": "not in the verdict index"}[source]
    line = f"{variant.name}, deal {deal}: {text} ({where})"
    if level is not None:
        line += f"; difficulty {level}: {verdicts.DIFFICULTIES[level]}"
    print(line)
    return EXIT[found or "unknown"]


def _index(args: argparse.Namespace) -> int:
    ranges = parse_deals(args.deals)
    if len(ranges) != 1:
        raise VerdictIndexError(f"--deals: the index covers one range A-B, not {args.deals!r}")
    ((first, last),) = ranges
    variant = variant_of(args)
    assert variant is not None  # --variant has a default
    name = variant.name
    ix = verdicts.build(args.db, variant, first, last, args.out, extend=args.extend)
    lost = ix.meta["lost"]
    unknown = len(ix.meta["unknown"])
    short = f" (the database holds no deal {ix.last + 1}: the index stops before it)" if ix.last < last else ""
    print(f"{name}: deals {ix.first}-{ix.last}{short}: won {ix.meta['won']:,}, lost {lost:,}, unknown {unknown:,}")
    return 0
