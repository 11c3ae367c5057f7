"""Command line: ``python -m solver solve 123 --variant napoleons-tomb-3``.

Exit codes of ``solve``: 0 won, 1 lost, 3 unknown (a limit stopped the
search), 2 error (bad input; the message is on stderr).

``hint`` (the next move after a JSON move list) and ``play`` (blind play over
a range of deals) exit 0 when they answer, 2 on an error.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from . import variants
from .variants import BaseVariant
from .api import DEFAULT_VARIANT, Limit, solve
from .deals import Deal, DealError, number_from_text
from .game import Move, MoveError
from .core import SHORTCUTS
from .errors import InputError, SolverError
from .inputs import load_json, read_text, shown_path

#: The largest file of moves `hint` reads (a game of 5,000 moves is 400 KiB).
MAX_MOVES_BYTES = 4 * 2**20

EXIT = {"won": 0, "lost": 1, "unknown": 3}
EXIT_ERROR = 2


if TYPE_CHECKING:
    #: The subcommands' parsers (a class generic only to the type checker).
    _Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]
N = TypeVar("N", int, float)


def _positive(kind: type[N]) -> Callable[[str], N]:
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
    p.add_argument("--max-positions", type=_positive(int), default=d.positions,
                   help=f"stop {what} after this many positions (default {d.positions:,})")
    p.add_argument("--max-seconds", type=_positive(float), default=d.seconds,
                   help=f"stop {what} after this many seconds (default {d.seconds:g})")
    mib = None if d.memory is None else d.memory // 2**20
    p.add_argument("--max-memory", type=_positive(int), default=mib, metavar="MIB",
                   help=f"stop {what} before the memory it holds (its tables, summaries, stack and lines: the "
                        f"core's account) grows past this many MiB (default {mib}); the Python interpreter's own "
                        "20-25 MiB come on top, so the process's RSS is that much higher")
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
    group.add_argument("--variant-file", metavar="PATH",
                       help="a variant file of one's own instead (the TOML schema of solver/variants/*.toml); "
                            "its results carry its rules' fingerprint")


def variant_of(args: argparse.Namespace) -> BaseVariant | None:
    """The variant of --variant-file, else of --variant (None when neither is given
    and the option has no default). A bad file raises VariantError naming it."""
    if getattr(args, "variant_file", None) is not None:
        return variants.load_file(args.variant_file)
    return variants.load(args.variant) if args.variant is not None else None


def _deal_of(args: argparse.Namespace, decks: int = 1) -> Deal:
    """The deal of --cards, or of the deal number given (of ``decks`` decks)."""
    if args.cards is not None:
        return Deal.parse(args.cards, decks)
    return Deal.from_number(number_from_text(args.deal), decks)


def _tomb_only(variant: variants.BaseVariant, what: str) -> None:
    if variant.family != "tomb":
        raise ValueError(f"{what} is written for the Napoleon's Tomb variants; {variant.name} is not one")


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m solver",
        description="Exhaustive solver for Napoleon's Tomb and two two-deck patiences: proven wins, proven losses.",
    )
    sub = p.add_subparsers(dest="command", required=True)

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
    s.add_argument("--no-shortcuts", action="store_true",
                   help=f"switch off every search shortcut ({', '.join(SHORTCUTS)}); slower, same verdicts")

    v = sub.add_parser("variants", help="list the variants and their rules' fingerprints",
                       description="List the shipped variants: name, rules fingerprint, description. "
                                   "With --variant-file, check that file and list its variant instead.")
    v.add_argument("--variant-file", metavar="PATH", help="check this variant file and list its variant")
    _hint_parser(sub)
    _play_parser(sub)
    _batch_parser(sub)
    _stats_parser(sub)
    from .cli_game import add_parsers  # serve, winnable, index

    add_parsers(sub)
    return p


# ---------------------------------------------------------------------------
# hint


def _hint_parser(sub: _Subparsers) -> None:
    from .hints import DEFAULT_HINT_LIMIT as d

    h = sub.add_parser(
        "hint",
        help="the next move after the moves played so far",
        description=(
            "The hint button: the next move from the position after a JSON move list "
            "(the solution format's moves: a bare list, or an object with a 'moves' key such as "
            "a result of `solve --json`) or the printed moves, one a line (as `solve` prints "
            "them: '8♥ waste → cell', '12. turn 9♣'), and whether that line wins, the deal is proven lost, "
            "or the limit stopped the search. Exit 0 with a hint, 2 on an error."
        ),
    )
    h.add_argument("--deal", "-d", help="deal number (PySolFC's game number)")
    h.add_argument("--cards", help='the deal as 52 cards in turning order, e.g. "JD 2D 9H ..."')
    add_variant_args(h, None, f"variant (default: the move object's 'variant', else {DEFAULT_VARIANT})")
    h.add_argument("--moves", "-m", default="-", metavar="FILE",
                   help="file of the moves played so far, JSON or one printed move a line "
                        "('-' or absent: standard input; "
                        "empty input means no move yet)")
    h.add_argument("--json", action="store_true",
                   help='print one JSON object: {"move", "status", "score", "reason"}')
    add_limit_args(h, d)


def _read_moves(where: str) -> tuple[list[Any], dict[str, Any]]:
    """The move list and the object around it (empty for a bare list)."""
    if where == "-":
        if sys.stdin.isatty():
            print("reading the moves played so far from standard input"
                  " (a JSON list or one move a line; end with Ctrl-D)", file=sys.stderr, flush=True)
        name = "standard input"
        try:
            text = sys.stdin.read(MAX_MOVES_BYTES + 1)
        except UnicodeDecodeError as exc:
            raise InputError(f"standard input: the moves are not UTF-8 text ({exc})") from None
        if len(text) > MAX_MOVES_BYTES:
            raise InputError(f"standard input: the moves are over {MAX_MOVES_BYTES:,} characters")
    else:
        text = read_text(where, "the moves", InputError, max_bytes=MAX_MOVES_BYTES, regular_only=False)
        name = shown_path(where)
    if not text.strip():
        return [], {}
    if text.lstrip()[0] in "[{":
        data = load_json(text, f"{name}: the moves", InputError)
    else:                           # JSON here is a scalar at most: nothing nests
        try:
            data = json.loads(text)
        except ValueError:
            return _printed_moves(text, name), {}
    if isinstance(data, list):
        return data, {}
    if isinstance(data, dict):
        if "moves" not in data:
            raise InputError(f"{name}: a JSON object of moves needs a 'moves' key")
        if not isinstance(data["moves"], list):
            raise InputError(f"{name}: 'moves' must be a JSON list of moves")
        return data["moves"], data
    raise InputError(f"{name}: expected a JSON list of moves or an object with 'moves', not {type(data).__name__}")


def _printed_moves(text: str, name: str) -> list[Move]:
    """One move a line as ``str(move)`` prints it, optionally numbered
    (``12. 8♥ waste → cell``, as ``solve`` prints a line); blank lines skipped."""
    moves = []
    for number, line in enumerate(text.splitlines(), 1):
        head, dot, rest = line.strip().partition(". ")
        words = rest if dot and head.isdigit() else line
        if not words.strip():
            continue
        try:
            moves.append(Move.parse(words))
        except MoveError as exc:
            raise MoveError(f"{name}, line {number}: {exc}") from None
    return moves


def _hint(args: argparse.Namespace) -> int:
    from .api import position_after
    from .hints import hint

    given = variant_of(args)        # before the moves: a bad variant file is named first
    moves, around = _read_moves(args.moves)
    name = around.get("variant") or DEFAULT_VARIANT
    if given is None and not isinstance(name, str):
        raise ValueError(f"'variant' must be a variant name, not {name!r}")
    variant = given or variants.load(name)
    _tomb_only(variant, "hint")
    if args.deal is not None and args.cards is not None:
        raise DealError("give --deal or --cards, not both")
    if args.cards is not None or args.deal is not None:
        deal = _deal_of(args)
    elif isinstance(around.get("deal"), int) and not isinstance(around.get("deal"), bool):
        deal = Deal.from_number(around["deal"])
    elif isinstance(around.get("cards"), list):
        deal = Deal.from_cards(around["cards"])
    else:
        raise DealError("give the deal: --deal N or --cards \"...\"")
    limit = limit_of(args)
    pos = position_after(deal, variant, moves)
    answer = hint(pos, variant, limit)
    print(json.dumps(answer.to_json(), ensure_ascii=False) if args.json else str(answer))
    return 0


# ---------------------------------------------------------------------------
# play


def _play_parser(sub: _Subparsers) -> None:
    from .blind import STRATEGIES

    p = sub.add_parser(
        "play",
        help="blind play (a player who cannot see the stock) over a range of deals",
        description=(
            "Play each deal with a strategy that sees only what a player sees (never the stock's order) "
            "and print the wins with a 95%% Wilson interval. Exit 0, or 2 on an error."
        ),
    )
    p.add_argument("--strategy", "-s", default="careful", choices=sorted(STRATEGIES),
                   help="the player (default careful)")
    add_variant_args(p, DEFAULT_VARIANT, f"variant (default {DEFAULT_VARIANT})")
    p.add_argument("--deals", default="1-100",
                   help="deal numbers: N, A-B, or a comma list of both (default 1-100)")
    p.add_argument("--json", action="store_true",
                   help='print one JSON object: {"strategy", "variant", "deals", "won", "rate", "interval", ...}')


def _deal_numbers(text: str) -> list[int]:
    """``"1-2400"``, ``"7"``, ``"1-10,20,30-31"`` as a list of deal numbers."""
    from .batch import parse_deals

    ranges = parse_deals(text)
    if sum(b - a + 1 for a, b in ranges) > 10_000_000:
        raise DealError(f"--deals: {text!r} is more than 10,000,000 deals; use `batch` for runs that large")
    return [n for a, b in ranges for n in range(a, b + 1)]


def _play(args: argparse.Namespace) -> int:
    from .blind import play, wilson

    numbers = _deal_numbers(args.deals)
    variant = variant_of(args)
    assert variant is not None      # --variant has a default
    _tomb_only(variant, "play (the blind player)")
    won = 0
    scores = 0
    for n in numbers:
        r = play(n, variant, args.strategy)
        won += r.won
        scores += r.score
    lo, hi = wilson(won, len(numbers))
    rate = won / len(numbers)
    if args.json:
        print(json.dumps({
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
        }))
    else:
        print(
            f"{args.strategy} player, {variant.name}, deals {args.deals}: won {won} of {len(numbers)} "
            f"({100 * rate:.1f}%; 95% Wilson interval {100 * lo:.1f}%-{100 * hi:.1f}%), "
            f"mean score {scores / len(numbers):.1f}/52"
        )
    return 0


# ---------------------------------------------------------------------------
# batch and stats (solver/batch.py; docs/batch.md)


def _batch_parser(sub: _Subparsers) -> None:
    b = sub.add_parser(
        "batch",
        help="solve a range of deals in parallel into an SQLite database (resumable)",
        description=(
            "Solve every deal of --deals that the database does not hold yet, in --jobs processes "
            "or on a Dask cluster (--scheduler), one row per deal; rerunning the same command resumes. "
            "Ctrl-C stops cleanly (exit 130). Exit 0 when every deal is stored, 2 on an error."
        ),
    )
    add_variant_args(b, DEFAULT_VARIANT, f"variant (default {DEFAULT_VARIANT})")
    b.add_argument("--deals", "-d", required=True,
                   help="deal numbers: N, A-B, or a comma list of both (e.g. 1-1000000 or 1-10,20-30)")
    where = b.add_mutually_exclusive_group(required=True)
    where.add_argument("--db", metavar="FILE", help="the SQLite results database (created if missing)")
    where.add_argument("--out", metavar="DIR",
                       help="write a Parquet file per chunk into DIR instead of a database (needs pyarrow)")
    b.add_argument("--jobs", "-j", type=int, default=None,
                   help="worker processes (default: the number of CPUs)")
    b.add_argument("--scheduler", metavar="ADDRESS",
                   help="solve on the Dask cluster of this scheduler (tcp://HOST:8786), or 'local' for a "
                        "LocalCluster on this machine; needs pip install 'tomb-solver[cluster]'")
    b.add_argument("--workers", type=int, default=None,
                   help="with --scheduler local: worker processes (default: the number of CPUs)")
    b.add_argument("--connect-timeout", type=_positive(float), default=10.0, metavar="SECONDS",
                   help="with --scheduler: how long to wait for the scheduler and a first worker (default 10)")
    b.add_argument("--retry-unknown", action="store_true",
                   help="solve again the deals stored as unknown (with these limits), replacing their rows")
    add_limit_args(b, Limit(), "each deal")


def _stats_parser(sub: _Subparsers) -> None:
    s = sub.add_parser(
        "stats",
        help="statistics of a batch database: counts, win rate, distributions, hardest deals",
        description=(
            "Won / lost / unknown, the win rate with a 95%% Wilson interval (unknowns counted both ways), "
            "percentiles of positions and seconds, the hardest deals, the best scores of lost deals. "
            "Exit 0, or 2 on an error."
        ),
    )
    where = s.add_mutually_exclusive_group(required=True)
    where.add_argument("--db", metavar="FILE", help="the SQLite results database of `batch`")
    where.add_argument("--out", metavar="DIR", help="the directory of Parquet files of `batch --out`")
    add_variant_args(s, None, "only this variant (default: each variant stored)")
    s.add_argument("--plot", metavar="FILE.png", help="draw the distributions to a PNG (needs matplotlib)")


def _solve(args: argparse.Namespace) -> int:
    if (args.deal is None) == (args.cards is None):
        raise DealError("give a deal number or --cards, not both or neither")
    variant = variant_of(args)
    assert variant is not None      # --variant has a default
    deal = _deal_of(args, variant.decks)
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


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if hasattr(args, "run"):
            run: Callable[[argparse.Namespace], int] = args.run
            return run(args)
        if args.command == "solve":
            return _solve(args)
        if args.command == "hint":
            return _hint(args)
        if args.command == "play":
            return _play(args)
        if args.command in ("batch", "stats"):
            from . import batch

            return batch.cli_batch(args) if args.command == "batch" else batch.cli_stats(args)
        return _variants(args)
    except (SolverError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
