"""``play``: blind play (a player who cannot see the stock) over a range of
deals, and the wins with their Wilson interval."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from ..api import DEFAULT_VARIANT
from ..batch import parse_deals
from ..blind import STRATEGIES, play, wilson
from ..deals import DealError
from .options import add_variant_args, blind_players_only, variant_of

if TYPE_CHECKING:
    from .options import Subparsers


def add_parsers(sub: Subparsers) -> None:
    p = sub.add_parser(
        "play",
        help="blind play (a player who cannot see the stock) over a range of deals",
        description=(
            "Play each deal with a strategy that sees only what a player sees (never the stock's order) "
            "and print the wins with a 95%% Wilson interval. Exit 0, or 2 on an error."
        ),
    )
    p.add_argument(
        "--strategy", "-s", default="careful", choices=sorted(STRATEGIES), help="the player (default careful)"
    )
    add_variant_args(p, DEFAULT_VARIANT, f"variant (default {DEFAULT_VARIANT})")
    p.add_argument("--deals", default="1-100", help="deal numbers: N, A-B, or a comma list of both (default 1-100)")
    p.add_argument(
        "--json",
        action="store_true",
        help='print one JSON object: {"strategy", "variant", "deals", "won", "rate", "interval", ...}',
    )
    p.set_defaults(run=_play)


def _deal_numbers(text: str) -> list[int]:
    """``"1-2400"``, ``"7"``, ``"1-10,20,30-31"`` as a list of deal numbers."""
    ranges = parse_deals(text)
    if sum(b - a + 1 for a, b in ranges) > 10_000_000:
        raise DealError(f"--deals: {text!r} is more than 10,000,000 deals; use `batch` for runs that large")
    return [n for a, b in ranges for n in range(a, b + 1)]


def _play(args: argparse.Namespace) -> int:
    numbers = _deal_numbers(args.deals)
    variant = variant_of(args)
    assert variant is not None  # --variant has a default
    blind_players_only(variant, "play (the blind player)")
    won = 0
    scores = 0
    for n in numbers:
        r = play(n, variant, args.strategy)
        won += r.won
        scores += r.score
    lo, hi = wilson(won, len(numbers))
    rate = won / len(numbers)
    if args.json:
        print(
            json.dumps(
                {
                    "strategy": args.strategy,
                    "variant": variant.name,
                    "fingerprint": variant.fingerprint,
                    "deal_numbers": args.deals,
                    "deals": len(numbers),
                    "won": won,
                    "rate": round(rate, 6),
                    "interval": [round(lo, 6), round(hi, 6)],
                    "confidence": 0.95,
                    "mean_score": round(scores / len(numbers), 3),
                }
            )
        )
    else:
        print(
            f"{args.strategy} player, {variant.name}, deals {args.deals}: won {won} of {len(numbers)} "
            f"({100 * rate:.1f}%; 95% Wilson interval {100 * lo:.1f}%-{100 * hi:.1f}%), "
            f"mean score {scores / len(numbers):.1f}/52"
        )
    return 0
