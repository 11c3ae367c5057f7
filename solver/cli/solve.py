"""``solve`` (one deal: exit 0 won, 1 lost, 3 unknown) and ``variants``
(the shipped variants and their rules' fingerprints, or a variant file checked)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from .. import variants
from ..api import DEFAULT_VARIANT, Limit, solve
from ..core import SHORTCUTS
from ..deals import DealError
from .options import EXIT, add_limit_args, add_variant_args, deal_of, limit_of, variant_of

if TYPE_CHECKING:
    from .options import Subparsers


def add_parsers(sub: Subparsers) -> None:
    s = sub.add_parser(
        "solve",
        help="solve one deal",
        description="Solve a deal: exit 0 won, 1 lost, 3 unknown (a limit stopped the search), 2 error.",
    )
    s.add_argument("deal", nargs="?", help="deal number (PySolFC's game number, 1..10**20)")
    s.add_argument("--cards", help='the deal as 52 cards in turning order, e.g. "JD 2D 9H ..."')
    add_variant_args(s, DEFAULT_VARIANT, f"variant (default {DEFAULT_VARIANT}; see `python -m solver variants`)")
    s.add_argument("--json", action="store_true", help="print the result as one JSON object")
    add_limit_args(s, Limit())
    s.add_argument(
        "--no-shortcuts",
        action="store_true",
        help=f"switch off every search shortcut ({', '.join(SHORTCUTS)}); slower, same verdicts",
    )
    s.set_defaults(run=_solve)

    v = sub.add_parser(
        "variants",
        help="list the variants and their rules' fingerprints",
        description="List the shipped variants: name, rules fingerprint, description. "
        "With --variant-file, check that file and list its variant instead.",
    )
    v.add_argument("--variant-file", metavar="PATH", help="check this variant file and list its variant")
    v.set_defaults(run=_variants)


def _solve(args: argparse.Namespace) -> int:
    if (args.deal is None) == (args.cards is None):
        raise DealError("give a deal number or --cards, not both or neither")
    variant = variant_of(args)
    assert variant is not None  # --variant has a default
    deal = deal_of(args, variant.decks)
    limit = limit_of(args)
    result = solve(deal, variant, limit, shortcuts=not args.no_shortcuts)
    print(result.dumps() if args.json else str(result))
    return EXIT[result.verdict]


def _variants(args: argparse.Namespace) -> int:
    if args.variant_file is not None:
        v = variants.load_file(args.variant_file)
        same = [p.name for p in variants.all_variants() if p.fingerprint == v.fingerprint]
        note = f"the rules of {', '.join(same)}" if same else "rules of no shipped variant"
        print(f"{v.name:<26} {v.fingerprint}  {v.description}  ({args.variant_file}: {note})")
        return 0
    for v in variants.all_variants():
        print(f"{v.name:<26} {v.fingerprint}  {v.description}")
    return 0
