"""The command line of the game: ``serve`` (the web game), ``winnable`` and
``index`` (the verdict index, :mod:`solver.verdicts`). Registered by
:func:`add_parsers` from :mod:`solver.cli`; each sets ``args.run``.

Exit codes of ``winnable``: 0 winnable, 1 not winnable (proven), 3 unknown,
2 error, as ``solve``'s.
"""

from __future__ import annotations

import argparse
import json

from .api import DEFAULT_VARIANT, Limit
from .deals import number_from_text



def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from .cli import add_limit_args, add_variant_args
    from .hints import DEFAULT_HINT_LIMIT

    s = sub.add_parser(
        "serve",
        help="play in the browser: start the web game on a local address",
        description=(
            "Start the web game (needs the 'web' extra: pip install 'tomb-solver[web]') and print its address. "
            "Ctrl-C stops it."
        ),
    )
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    s.add_argument("--port", type=_port, default=8000, help="port (default 8000; 0: any free port)")
    s.add_argument("--hint-seconds", type=float, default=DEFAULT_HINT_LIMIT.seconds,
                   help=f"the limit of one hint's search (default {DEFAULT_HINT_LIMIT.seconds:g} s)")
    s.add_argument("--hint-wall-seconds", type=float, default=None, metavar="SECONDS",
                   help="the most wall-clock time a hint takes from its request, waiting for a worker included "
                        "(default: --hint-seconds and one more; a busy machine makes CPU seconds longer)")
    s.add_argument("--hint-workers", type=int, default=2,
                   help="hints searched at once; more wait their turn (default 2)")
    s.add_argument("--variant-file", metavar="PATH", action="append", default=[],
                   help="also serve the variant of this file (again for more; a file with a shipped "
                        "variant's name takes its place)")
    s.add_argument("--allow-host", metavar="NAME", action="append", default=[],
                   help="also answer requests for this host name (again for more; '*': any). The server "
                        "answers only for localhost, 127.0.0.1, [::1] and --host, so that another site's "
                        "page cannot reach it through a DNS name of its own")
    s.set_defaults(run=_serve)

    w = sub.add_parser(
        "winnable",
        help="whether a deal can be won: from the verdict index, else a search",
        description=(
            "Whether a deal can be won, at once from the verdict index shipped with the package "
            "(deals 1-1,000,000 of the Napoleon's Tomb variants it holds), else by a search within the limits. "
            "With --difficulty, also who wins it (the careful blind player, or only one who sees the stock). "
            "Exit 0 winnable, 1 not winnable (proven), 3 unknown, 2 error."
        ),
    )
    w.add_argument("deal", help="deal number (PySolFC's game number)")
    add_variant_args(w, DEFAULT_VARIANT, f"variant (default {DEFAULT_VARIANT}; the index holds the shipped "
                                         "rules only: a variant file of other rules is searched)")
    w.add_argument("--no-search", action="store_true", help="answer from the index only (unknown beyond it)")
    w.add_argument("--difficulty", action="store_true",
                   help="also the deal's difficulty (Napoleon's Tomb variants: plays the careful blind player)")
    w.add_argument("--json", action="store_true", help='print {"deal", "variant", "winnable", "source", ...}')
    add_limit_args(w, Limit(), "the search beyond the index")
    w.set_defaults(run=_winnable)

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
    add_variant_args(i, DEFAULT_VARIANT, f"variant (default {DEFAULT_VARIANT}; the index is of the shipped "
                                         "rules: a variant file must have them)")
    i.add_argument("--deals", default="1-1000000", help="the range A-B to cover (default 1-1000000)")
    i.add_argument("--out", metavar="DIR", default=None, help="write there instead of the package's folder")
    i.add_argument("--extend", action="store_true",
                   help="keep the deals the index already holds and add the database's deals after them")
    i.set_defaults(run=_index)


def _port(text: str) -> int:
    """A TCP port number, 0..65535, from the command line."""
    if not (text.strip().isascii() and text.strip().isdigit()) or len(text.strip()) > 5 or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"{text[:20]!r} is not a port number (0..65535; 0: any free port)")
    return int(text)


def _serve(args: argparse.Namespace) -> int:
    from .variants import load_file
    from .web import serve

    extra = [load_file(path) for path in args.variant_file]   # a bad file is named before the server starts
    return serve(args.host, args.port, hint_seconds=args.hint_seconds, hint_workers=args.hint_workers,
                 variants=extra, hosts=args.allow_host, hint_wall=args.hint_wall_seconds)


def _winnable(args: argparse.Namespace) -> int:
    from . import verdicts
    from .cli import EXIT, limit_of, variant_of

    variant = variant_of(args)
    assert variant is not None      # --variant has a default
    limit = limit_of(args)
    deal = number_from_text(args.deal)
    found, source = verdicts.verdict(deal, variant, search=not args.no_search, limit=limit)
    answer = True if found == "won" else False if found == "lost" else None
    level = verdicts.difficulty(deal, variant, limit=limit) if args.difficulty else None
    if args.json:
        out = {"deal": deal, "variant": variant.name, "fingerprint": variant.fingerprint, "winnable": answer,
               "verdict": found, "source": source}
        if level is not None:
            out["difficulty"] = level
        print(json.dumps(out))
        return EXIT[found or "unknown"]
    text = {True: "winnable", False: "lost (no line wins it)", None: "unknown"}[answer]
    where = {"index": "from the verdict index", "search": "from a search", "none": "not in the verdict index"}[source]
    line = f"{variant.name}, deal {deal}: {text} ({where})"
    if level is not None:
        line += f"; difficulty {level}: {verdicts.DIFFICULTIES[level]}"
    print(line)
    return EXIT[found or "unknown"]


def _index(args: argparse.Namespace) -> int:
    from . import verdicts
    from .batch import parse_deals
    from .cli import variant_of

    ranges = parse_deals(args.deals)
    if len(ranges) != 1:
        raise ValueError(f"--deals: the index covers one range A-B, not {args.deals!r}")
    (first, last), = ranges
    variant = variant_of(args)
    assert variant is not None      # --variant has a default
    name = variant.name
    ix = verdicts.build(args.db, variant, first, last, args.out, extend=args.extend)
    lost = ix.meta["lost"]
    unknown = len(ix.meta["unknown"])
    short = f" (the database holds no deal {ix.last + 1}: the index stops before it)" if ix.last < last else ""
    print(f"{name}: deals {ix.first}-{ix.last}{short}: won {ix.meta['won']:,}, lost {lost:,}, unknown {unknown:,}")
    return 0

