"""What the commands share: the exit codes (:data:`EXIT`), ``--variant``
and ``--variant-file`` (:func:`add_variant_args`, :func:`variant_of`), the
``--max-*`` limits (:func:`add_limit_args`, :func:`limit_of`), positive
numbers, and a deal from ``--cards`` or its number."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from .. import families, variants
from ..api import Limit
from ..deals import Deal, number_from_text
from ..errors import VariantError
from ..variants import BaseVariant

#: The exit code of a verdict (``solve``, ``winnable``).
EXIT = {"won": 0, "lost": 1, "unknown": 3}
#: The exit code of an error (the message is on stderr).
EXIT_ERROR = 2

if TYPE_CHECKING:
    #: The subcommands' parsers (a class generic only to the type checker).
    Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]
N = TypeVar("N", int, float)


def positive(kind: type[N]) -> Callable[[str], N]:
    """An argparse type: a positive, finite number of ``kind``."""

    def convert(text: str) -> N:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a {kind.__name__}") from None
        if not value > 0 or value == float("inf"):
            raise argparse.ArgumentTypeError(f"{text!r} must be positive")
        return value

    return convert


def add_limit_args(p: argparse.ArgumentParser, d: Limit, what: str = "the search") -> None:
    """The --max-* and --no-limit flags, with the defaults of ``d``."""
    p.add_argument(
        "--max-positions",
        type=positive(int),
        default=d.positions,
        help=f"stop {what} after this many positions (default {d.positions:,})",
    )
    p.add_argument(
        "--max-seconds",
        type=positive(float),
        default=d.seconds,
        help=f"stop {what} after this many seconds (default {d.seconds:g})",
    )
    mib = None if d.memory is None else d.memory // 2**20
    p.add_argument(
        "--max-memory",
        type=positive(int),
        default=mib,
        metavar="MIB",
        help=f"stop {what} before the memory it holds (its tables, summaries, stack and lines: the "
        f"core's account) grows past this many MiB (default {mib}); the Python interpreter's own "
        "20-25 MiB come on top, so the process's RSS is that much higher",
    )
    p.add_argument("--no-limit", action="store_true", help=f"no limits at all: run {what} until decided")


def limit_of(args: argparse.Namespace) -> Limit:
    """The Limit the flags of :func:`add_limit_args` ask for."""
    if args.no_limit:
        return Limit.none()
    return Limit(positions=args.max_positions, seconds=args.max_seconds, memory=args.max_memory * 2**20)


def add_variant_args(p: argparse.ArgumentParser, default: str | None, help: str) -> None:
    """--variant NAME and --variant-file PATH, one or the other."""
    group = p.add_mutually_exclusive_group()
    group.add_argument("--variant", "-v", default=default, help=help)
    group.add_argument(
        "--variant-file",
        metavar="PATH",
        help="a variant file of one's own instead (the TOML schema of solver/variants/*.toml); "
        "its results carry its rules' fingerprint",
    )


def variant_of(args: argparse.Namespace) -> BaseVariant | None:
    """The variant of --variant-file, else of --variant (None when neither is given
    and the option has no default). A bad file raises VariantError naming it."""
    if getattr(args, "variant_file", None) is not None:
        return variants.load_file(args.variant_file)
    return variants.load(args.variant) if args.variant is not None else None


def deal_of(args: argparse.Namespace, decks: int = 1) -> Deal:
    """The deal of --cards, or of the deal number given (of ``decks`` decks)."""
    if args.cards is not None:
        return Deal.parse(args.cards, decks)
    return Deal.from_number(number_from_text(args.deal), decks)


def blind_players_only(variant: BaseVariant, what: str) -> None:
    """Refuses for ``what`` a variant whose family has no blind players
    (they are written for Napoleon's Tomb; its record says)."""
    if not families.of(variant).blind_players:
        raise VariantError(f"{what} is written for the Napoleon's Tomb variants; {variant.name} is not one")
