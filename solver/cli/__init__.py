"""Command line: ``python -m solver solve 123 --variant napoleons-tomb-3``.

Exit codes of ``solve``: 0 won, 1 lost, 3 unknown (a limit stopped the
search), 2 error (bad input; the message is on stderr).

``hint`` (the next move after a JSON move list) and ``play`` (blind play over
a range of deals) exit 0 when they answer, 2 on an error.

A module a group of commands, each adding its parsers (``add_parsers``)
with the function that runs it (``args.run``): ``solve.py`` (solve,
variants), ``hint.py``, ``play.py``, ``batch.py`` (batch, stats),
``serve.py``, ``index.py`` (winnable, index); ``options.py`` holds what they
share (the exit codes, --variant and --variant-file, the limits).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from ..errors import SolverError
from . import batch, hint, index, play, serve, solve
from .hint import MAX_MOVES_BYTES
from .options import EXIT, EXIT_ERROR, add_limit_args, add_variant_args, limit_of, variant_of

__all__ = [
    "EXIT",
    "EXIT_ERROR",
    "MAX_MOVES_BYTES",
    "add_limit_args",
    "add_variant_args",
    "limit_of",
    "main",
    "variant_of",
]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m solver",
        description="Exhaustive solver for Napoleon's Tomb and two two-deck patiences: proven wins, proven losses.",
    )
    sub = p.add_subparsers(dest="command", required=True)
    for commands in (solve, hint, play, batch, serve, index):
        commands.add_parsers(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        run: Callable[[argparse.Namespace], int] = args.run
        return run(args)
    except (SolverError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
