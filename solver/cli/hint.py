"""``hint``: the next move after the moves played so far (a JSON move list,
or the printed moves one a line), and whether that line wins."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from .. import variants
from ..api import DEFAULT_VARIANT, position_after
from ..deals import Deal, DealError
from ..errors import InputError, VariantError
from ..hints import DEFAULT_HINT_LIMIT, hint
from ..inputs import load_json, read_text, shown_path
from ..notation import Move, MoveError
from .options import add_limit_args, add_variant_args, deal_of, limit_of, variant_of

if TYPE_CHECKING:
    from .options import Subparsers

#: The largest file of moves `hint` reads (a game of 5,000 moves is 400 KiB).
MAX_MOVES_BYTES = 4 * 2**20


def add_parsers(sub: Subparsers) -> None:
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
    h.add_argument(
        "--moves",
        "-m",
        default="-",
        metavar="FILE",
        help="file of the moves played so far, JSON or one printed move a line "
        "('-' or absent: standard input; "
        "empty input means no move yet)",
    )
    h.add_argument(
        "--json",
        action="store_true",
        help='print one JSON object: {"move", "verdict", "score", "reason", "status"} '
        '("status": the verdict under its old name, deprecated)',
    )
    add_limit_args(h, DEFAULT_HINT_LIMIT)
    h.set_defaults(run=_hint)


def _read_moves(where: str) -> tuple[list[Any], dict[str, Any]]:
    """The move list and the object around it (empty for a bare list)."""
    if where == "-":
        if sys.stdin.isatty():
            print(
                "reading the moves played so far from standard input (a JSON list or one move a line; end with Ctrl-D)",
                file=sys.stderr,
                flush=True,
            )
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
    else:  # JSON here is a scalar at most: nothing nests
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
    given = variant_of(args)  # before the moves: a bad variant file is named first
    moves, around = _read_moves(args.moves)
    name = around.get("variant") or DEFAULT_VARIANT
    if given is None and not isinstance(name, str):
        raise VariantError(f"'variant' must be a variant name, not {name!r}")
    variant = given or variants.load(name)
    if args.deal is not None and args.cards is not None:
        raise DealError("give --deal or --cards, not both")
    if args.cards is not None or args.deal is not None:
        deal = deal_of(args, variant.decks)
    elif isinstance(around.get("deal"), int) and not isinstance(around.get("deal"), bool):
        deal = Deal.from_number(around["deal"], variant.decks)
    elif isinstance(around.get("cards"), list):
        deal = Deal.from_cards(around["cards"], variant.decks)
    else:
        raise DealError('give the deal: --deal N or --cards "..."')
    limit = limit_of(args)
    pos = position_after(deal, variant, moves)
    answer = hint(pos, variant, limit)
    print(json.dumps(answer.to_json(), ensure_ascii=False) if args.json else str(answer))
    return 0
