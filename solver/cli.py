"""Command line: ``python -m solver solve 123 --variant napoleons-tomb-3``.

Exit codes of ``solve``: 0 won, 1 lost, 3 unknown (a limit stopped the
search), 2 error (bad input; the message is on stderr).
"""

from __future__ import annotations

import argparse
import sys

from . import variants
from .api import DEFAULT_VARIANT, Limit, solve
from .cards import CardError
from .deals import Deal, DealError
from .game import MoveError
from .core import CoreError, SHORTCUTS

EXIT = {"won": 0, "lost": 1, "unknown": 3}
EXIT_ERROR = 2


def _positive(kind):
    def convert(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a {kind.__name__}") from None
        if not value > 0 or value == float("inf"):
            raise argparse.ArgumentTypeError(f"{text!r} must be positive")
        return value

    return convert


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m solver",
        description="Exhaustive solver for Napoleon's Tomb: proven wins, proven losses.",
    )
    sub = p.add_subparsers(dest="command", required=True)

    s = sub.add_parser(
        "solve",
        help="solve one deal",
        description="Solve a deal: exit 0 won, 1 lost, 3 unknown (a limit stopped the search), 2 error.",
    )
    s.add_argument("deal", nargs="?", help="deal number (PySolFC's game number, 1..10**20)")
    s.add_argument("--cards", help='the deal as 52 cards in turning order, e.g. "JD 2D 9H ..."')
    s.add_argument("--variant", "-v", default=DEFAULT_VARIANT,
                   help=f"variant (default {DEFAULT_VARIANT}; see `python -m solver variants`)")
    s.add_argument("--json", action="store_true", help="print the result as one JSON object")
    d = Limit()
    s.add_argument("--max-positions", type=_positive(int), default=d.positions,
                   help=f"stop after this many positions (default {d.positions:,})")
    s.add_argument("--max-seconds", type=_positive(float), default=d.seconds,
                   help=f"stop after this many seconds (default {d.seconds:g})")
    s.add_argument("--max-memory", type=_positive(int), default=d.memory // 2**20, metavar="MIB",
                   help=f"stop before the table grows past this many MiB (default {d.memory // 2**20})")
    s.add_argument("--no-limit", action="store_true", help="no limits at all: run until decided")
    s.add_argument("--no-shortcuts", action="store_true",
                   help=f"switch off every search shortcut ({', '.join(SHORTCUTS)}); slower, same verdicts")

    sub.add_parser("variants", help="list the variants")
    return p


def _solve(args) -> int:
    if (args.deal is None) == (args.cards is None):
        raise DealError("give a deal number or --cards, not both or neither")
    if args.cards is not None:
        deal = Deal.parse(args.cards)
    else:
        text = args.deal.strip()
        if not (text.isascii() and text.isdigit()):
            raise DealError(f"deal number {args.deal!r} is not a whole number (1..10**20)")
        deal = Deal.from_number(int(text))
    variant = variants.load(args.variant)
    if args.no_limit:
        limit = Limit.none()
    else:
        limit = Limit(positions=args.max_positions, seconds=args.max_seconds, memory=args.max_memory * 2**20)
    result = solve(deal, variant, limit, shortcuts=not args.no_shortcuts)
    print(result.dumps() if args.json else str(result))
    return EXIT[result.verdict]


def _variants(args) -> int:
    for v in variants.all_variants():
        print(f"{v.name:<18} {v.description}")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "solve":
            return _solve(args)
        return _variants(args)
    except (DealError, CardError, variants.VariantError, MoveError, CoreError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
