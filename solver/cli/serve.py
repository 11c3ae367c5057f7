"""``serve``: the web game on a local address (:mod:`solver.web`, the
``web`` extra, imported when the server starts)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ..hints import DEFAULT_HINT_LIMIT
from ..variants import load_file

if TYPE_CHECKING:
    from .options import Subparsers


def add_parsers(sub: Subparsers) -> None:
    s = sub.add_parser(
        "serve",
        help="play in the browser: start the web game on a local address",
        description=(
            "Start the web game (needs the 'web' extra: pip install 'patience-solver[web]') and print its address. "
            "Ctrl-C stops it."
        ),
    )
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    s.add_argument("--port", type=_port, default=8000, help="port (default 8000; 0: any free port)")
    s.add_argument(
        "--hint-seconds",
        type=float,
        default=DEFAULT_HINT_LIMIT.seconds,
        help=f"the limit of one hint's search (default {DEFAULT_HINT_LIMIT.seconds:g} s)",
    )
    s.add_argument(
        "--hint-wall-seconds",
        type=float,
        default=None,
        metavar="SECONDS",
        help="the most wall-clock time a hint takes from its request, waiting for a worker included "
        "(default: --hint-seconds and one more; a busy machine makes CPU seconds longer)",
    )
    s.add_argument(
        "--hint-workers", type=int, default=2, help="hints searched at once; more wait their turn (default 2)"
    )
    s.add_argument(
        "--variant-file",
        metavar="PATH",
        action="append",
        default=[],
        help="also serve the variant of this file (again for more; a file with a shipped "
        "variant's name takes its place)",
    )
    s.add_argument(
        "--allow-host",
        metavar="NAME",
        action="append",
        default=[],
        help="also answer requests for this host name (again for more; '*': any). The server "
        "answers only for localhost, 127.0.0.1, [::1] and --host, so that another site's "
        "page cannot reach it through a DNS name of its own",
    )
    s.set_defaults(run=_serve)


def _port(text: str) -> int:
    """A TCP port number, 0..65535, from the command line."""
    if not (text.strip().isascii() and text.strip().isdigit()) or len(text.strip()) > 5 or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"{text[:20]!r} is not a port number (0..65535; 0: any free port)")
    return int(text)


def _serve(args: argparse.Namespace) -> int:
    from ..web import serve  # Starlette and uvicorn: the `web` extra

    extra = [load_file(path) for path in args.variant_file]  # a bad file is named before the server starts
    return serve(
        args.host,
        args.port,
        hint_seconds=args.hint_seconds,
        hint_workers=args.hint_workers,
        variants=extra,
        hosts=args.allow_host,
        hint_wall=args.hint_wall_seconds,
    )
