"""The web game: a thin JSON layer over :class:`solver.session.Game`, and the
page (``static/``: plain HTML, CSS and JavaScript, nothing fetched from
elsewhere), served by Starlette on uvicorn. ``python -m solver serve``.

The server keeps no game: each request carries the variant, the deal number
and the steps played so far (the player's notation, which names no hidden
card), and the server replays them. Undo, redo, reload and a restart of the
server lose nothing; the page keeps the game in the browser.

Routes (JSON in, JSON out; docs/web.md has the fields):

- ``GET  /api/variants``: the variants, the 3-card deal first;
- ``POST /api/state``: the table after the steps;
- ``POST /api/play``: play one move, get the step (with the moves the rules
  made by themselves) and the table;
- ``POST /api/hint``: the solver's next move and what it proved (``fair``:
  the careful blind player's move instead);
- ``POST /api/finish``: the cards home, once nothing is left to decide;
- ``POST /api/new``: a new deal number (``winnable_only`` from the index);
- ``POST /api/verdict``: whether the deal can be won, and its difficulty;
- ``GET  /api/status``: the searches started, stopped, refused, waiting.

Every move the server sends comes with the words the page shows, made by
:mod:`solver.notation` (the page writes no move of its own): a legal move's
and a hint's ``text`` (what to do), a step's ``text`` (what it did), the
view's ``last`` (the step played last, for an undo or a redo).

Every error is ``{"error": "..."}`` with a 4xx status (400 a bad request,
404, 405, 413 a body over :data:`MAX_BODY` bytes, 415 a body that is not
sent as JSON, 422 a move the rules refuse, 503 too many hints waiting); no
response carries a traceback. Only requests for the host names the server
was started for are answered (a DNS-rebinding page cannot read the API),
and a POST must say its body is JSON (a form another site's page sends
cannot reach the API): a wrong host gets Starlette's plain 400 "Invalid
host header". Searches run in the :class:`~solver.web.pool.SearchPool`: at
most ``hint_workers`` at once, each within its CPU limit and its wall-clock
bound, each stopped when its client goes away.
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import families, verdicts
from ..api import DEFAULT_VARIANT, Cancel, Limit, solve
from ..deals import MAX_NUMBER, DealError, number_from_text
from ..errors import InputError, MoveError, ServeError, SolverError
from ..hints import DEFAULT_HINT_LIMIT, Hint
from ..inputs import brief, load_json
from ..notation import move_json, parse_move, say, step_name, step_text
from ..session import Game
from ..variants import BaseVariant, all_variants, load
from .pool import Busy, SearchPool

if TYPE_CHECKING:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response

#: A request's JSON object, and what an endpoint answers with.
Body = dict[str, Any]

__all__ = ["MAX_BODY", "MAX_MOVES", "create_app", "serve"]

STATIC = Path(__file__).parent / "static"
#: The largest request body, in bytes: a game of MAX_MOVES moves fits in it.
MAX_BODY = 512 * 1024
#: The most moves a request may carry (a long Porta-Jóias win line has 2,000).
MAX_MOVES = 5_000
#: The variant the page opens with: the 3-card deal, as on the seed page.
FIRST = "napoleons-tomb-3"
#: The host names a server on this machine is reached by.
LOOPBACK = ("localhost", "127.0.0.1", "[::1]")

log = logging.getLogger("solver.web")


def _is_json(content_type: str) -> bool:
    """Whether a Content-Type header says JSON (``application/json``, with
    a charset or not)."""
    return content_type.split(";")[0].strip().lower() == "application/json"


def allowed_hosts(host: str, extra: Iterable[str] = ()) -> list[str]:
    """The host names a server listening on ``host`` answers for: this
    machine's loopback names, ``host`` itself, and ``extra`` (the names a
    proxy or another machine uses, ``--allow-host``). Listening on every
    address (``0.0.0.0``, ``::``) adds this machine's own names."""
    for name in extra:
        if "*" in name[1:] or (name.startswith("*") and name != "*" and not name.startswith("*.")):
            raise InputError(f"--allow-host {brief(name)}: a host name, '*' (any), or '*.example.com'")
    names = set(LOOPBACK) | {h.lower() for h in extra}
    if host in ("0.0.0.0", "::", ""):
        names |= {socket.gethostname().lower(), socket.getfqdn().lower()}
    else:
        names.add(f"[{host}]" if ":" in host else host.lower())
    return sorted(names)


class _BadRequest(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def _missing_extra() -> str:
    return "the web game needs the 'web' extra: pip install 'patience-solver[web]' (Starlette and uvicorn)"


def served_variants(extra: Iterable[BaseVariant] = ()) -> dict[str, BaseVariant]:
    """The variants the server plays, by name: the shipped ones and ``extra``
    (of variant files; one with a shipped name takes that variant's place)."""
    return {v.name: v for v in all_variants()} | {v.name: v for v in extra}


def variants_json(served: dict[str, BaseVariant] | None = None) -> list[dict[str, Any]]:
    """Every variant served (the shipped ones by default): the page's first
    one, the classic, the rest of their family, then the other families."""
    out = []
    for v in (served or served_variants()).values():
        ix = verdicts.index_for(v)
        out.append(
            {
                "name": v.name,
                "family": v.family,
                "title": v.title,
                "description": v.description,
                "fingerprint": v.fingerprint,
                "cards": v.cards,
                "index": {"first": ix.first, "last": ix.last} if ix is not None else None,
            }
        )
    out.sort(key=lambda v: (v["family"] != "tomb", v["name"] != FIRST, v["name"] != DEFAULT_VARIANT, v["name"]))
    return out


# ---------------------------------------------------------------------------
# Reading a request


def _deal(body: Body) -> int:
    deal = body.get("deal")
    if isinstance(deal, str) and deal.strip().isascii() and deal.strip().isdigit():
        try:
            deal = number_from_text(deal)
        except DealError as exc:
            raise _BadRequest(400, str(exc)) from None
    if isinstance(deal, bool) or not isinstance(deal, int):
        raise _BadRequest(400, f"'deal' must be a deal number (1 to 10**20), not {brief(deal)}")
    if not 1 <= deal <= MAX_NUMBER:
        raise _BadRequest(400, f"deal number {deal} is out of range: deal numbers are 1 to 10**20")
    return deal


def _variant(body: Body, served: dict[str, BaseVariant]) -> BaseVariant:
    name = body.get("variant")
    if not isinstance(name, str):
        raise _BadRequest(400, f"'variant' must be a variant name, not {brief(name)}")
    return served[name] if name in served else load(name)


def _steps(body: Body) -> list[list[Any]]:
    steps = body.get("steps", [])
    if not isinstance(steps, list) or not all(isinstance(s, list) for s in steps):
        raise _BadRequest(400, "'steps' must be a list of steps, each a list of moves")
    if sum(len(s) for s in steps) > MAX_MOVES:
        raise _BadRequest(413, f"the game is over {MAX_MOVES:,} moves long: start a new one")
    return steps


def _game(body: Body, served: dict[str, BaseVariant]) -> Game:
    auto = body.get("auto", True)
    if not isinstance(auto, bool):
        raise _BadRequest(400, f"'auto' must be true or false, not {brief(auto)}")
    return Game.replay(_variant(body, served), _deal(body), _steps(body), auto=auto)


def _view(game: Game) -> dict[str, Any]:
    """:meth:`Game.view` with the words the page shows (made by
    :mod:`solver.notation`; the page writes none of its own): each legal
    move's ``text``, what to do, and ``last``, the step played last (``None``
    at the start): its ``text``, what it did, and its ``name``, for an undo
    or a redo."""
    view = game.view()
    view["legal"] = [{**m, "text": say(parse_move(m))} for m in view["legal"]]
    steps = game.steps
    view["last"] = {"text": step_text(steps[-1]), "name": step_name(steps[-1])} if steps else None
    return view


def _hint_json(h: Hint, *, at_start: bool = False, deal_lost: bool = False) -> dict[str, Any]:
    """A hint as the page shows it: its move in the player's notation (a
    turn names no card), what it proved, and the sentence that says so.
    ``deal_lost``: the verdict index proves the deal lost, so that every
    position of it is lost whatever the search found in its limit."""
    status, proof = h.verdict, "search" if h.verdict in ("won", "lost") else None
    if status == "unknown" and deal_lost:
        status, proof = "lost", "index"
    never = "cannot be won" if at_start else "can no longer be won"
    if h.move is None:
        text = (
            f"The deal is won: all {h.total} cards are home."
            if h.won
            else f"No move is left: the game ends with {h.score_now} cards home."
        )
    else:
        head = say(h.move)
        if status == "won":
            text = f"{head}: this move keeps a win (proven: the solver's line wins from here)."
        elif proof == "index":
            text = (
                f"{head}. This deal {never} (proven: the verdict index holds its proof); the best line"
                f" the solver found within its limit brings {h.score} cards home."
            )
        elif status == "lost":
            text = f"{head}. This deal {never} (proven); best possible: {h.score} cards home, and this move keeps it."
        else:
            text = (
                f"{head}. The solver could not tell within its limit whether the deal can still be won;"
                f" its best line found brings {h.score} cards home."
            )
    return {
        "move": move_json(h.move, text=True) if h.move is not None else None,
        "verdict": status,
        "status": status,  # deprecated: "verdict" (docs/web.md)
        "proof": proof,
        "score": h.score,
        "reason": h.reason,
        "text": text,
    }


def _fair_hint_json(game: Game) -> dict[str, Any]:
    """The careful blind player's move, labelled as what it is."""
    move = game.fair_hint()
    if move is None:
        text = "Fair hint: the careful player would stop here (no move it likes)."
    else:
        text = (
            f"Fair hint: {say(move, capital=False)}. It is the careful player's move, chosen from what you"
            " can see (never the stock's order): it proves nothing."
        )
    return {
        "move": move_json(move, text=True) if move is not None else None,
        "verdict": None,
        "status": None,
        "proof": None,
        "fair": True,
        "score": None,
        "reason": None,
        "text": text,
    }


# ---------------------------------------------------------------------------
# The application

#: A route's work: the request's JSON object (and the request, for its
#: searches) in, the answer's JSON object out.
Handler = Callable[[Body, "Request"], Awaitable[Body]]


class _Api:
    """The routes' work, a method a route, over the variants served, the
    hints' limit and the pool their searches run in."""

    def __init__(self, served: dict[str, BaseVariant], hint_limit: Limit, pool: SearchPool) -> None:
        self.served, self.limit, self.pool = served, hint_limit, pool

    async def variants(self, body: Body, request: Request) -> Body:
        return {"variants": variants_json(self.served), "first": FIRST}

    async def status(self, body: Body, request: Request) -> Body:
        return self.pool.status()

    async def state(self, body: Body, request: Request) -> Body:
        return {"view": _view(_game(body, self.served))}

    async def play(self, body: Body, request: Request) -> Body:
        game = _game(body, self.served)
        if "move" not in body:
            raise _BadRequest(400, "give the 'move' to play")
        step = game.play(parse_move(body["move"]))
        return {"step": [move_json(m) for m in step], "text": step_text(step), "view": _view(game)}

    async def hint(self, body: Body, request: Request) -> Body:
        game = _game(body, self.served)
        fair = body.get("fair", False)
        if not isinstance(fair, bool):
            raise _BadRequest(400, f"'fair' must be true or false, not {brief(fair)}")
        if fair:
            return {"hint": _fair_hint_json(game)}
        h = await self.pool.run(lambda token: game.hint(self.limit, cancel=token), request)
        if h.reason == "interrupted":  # the client is here: the wall-clock bound stopped it
            h = replace(h, reason="seconds")
        lost = h.verdict == "unknown" and game.deal is not None and verdicts.lookup(game.deal, game.variant) == "lost"
        return {"hint": _hint_json(h, at_start=not game.steps, deal_lost=lost)}

    async def finish(self, body: Body, request: Request) -> Body:
        game = _game(body, self.served)
        steps = game.finish()
        return {
            "steps": [[move_json(m) for m in step] for step in steps],
            "texts": [step_text(s) for s in steps],
            "view": _view(game),
        }

    async def new(self, body: Body, request: Request) -> Body:
        variant = _variant(body, self.served)
        only = body.get("winnable_only", False)
        if not isinstance(only, bool):
            raise _BadRequest(400, "'winnable_only' must be true or false")
        if only and verdicts.index_for(variant) is None:
            deal = await self.pool.run(lambda token: _search_winnable(variant, self.limit, token), request)
            return {"deal": deal, "source": "search"}
        return {"deal": verdicts.random_deal(variant, winnable_only=only), "source": "index" if only else "random"}

    async def verdict(self, body: Body, request: Request) -> Body:
        variant, deal = _variant(body, self.served), _deal(body)
        found, source = verdicts.verdict(deal, variant, search=False)
        if found is None:
            found, source = await self.pool.run(
                lambda token: verdicts.verdict(deal, variant, limit=self.limit, cancel=token), request
            )
        out: Body = {
            "variant": variant.name,
            "deal": deal,
            "verdict": found,
            "source": source,
            "winnable": True if found == "won" else False if found == "lost" else None,
            "difficulty": None,
        }
        if families.of(variant).blind_players:
            level = await self.pool.run(
                lambda token: verdicts.difficulty(deal, variant, known=found, limit=self.limit, cancel=token), request
            )
            out["difficulty"], out["difficulty_text"] = level, verdicts.DIFFICULTIES[level]
        return out


async def _read_body(request: Request) -> Body:
    """The request's JSON object. A body over MAX_BODY is read on (up to 8
    times that, not kept), so that the client, still sending, gets the 413
    rather than a reset."""
    from starlette.requests import ClientDisconnect

    chunks, total = [], 0
    try:
        async for chunk in request.stream():
            total += len(chunk)
            if total <= MAX_BODY:
                chunks.append(chunk)
            elif total > 8 * MAX_BODY:
                break
    except ClientDisconnect:
        raise _BadRequest(400, "the client went away before the body was read") from None
    if total > MAX_BODY:
        raise _BadRequest(413, f"the request body is over {MAX_BODY // 1024} KiB")
    body = load_json(b"".join(chunks) or b"null", "the request body", lambda m: _BadRequest(400, m))
    if not isinstance(body, dict):
        raise _BadRequest(400, "the request body must be a JSON object")
    return body


def _endpoint(handler: Handler) -> Callable[[Request], Awaitable[Response]]:
    """A JSON endpoint: the body read and checked, every known error a
    clear 4xx answer."""
    from starlette.responses import JSONResponse

    async def run(request: Request) -> Response:
        try:
            if request.method == "POST" and not _is_json(request.headers.get("content-type", "")):
                raise _BadRequest(415, "send the body as JSON, with the header Content-Type: application/json")
            body = await _read_body(request) if request.method == "POST" else dict(request.query_params)
            return JSONResponse(await handler(body, request))
        except _BadRequest as exc:
            return JSONResponse({"error": exc.message}, status_code=exc.status)
        except Busy as exc:
            return JSONResponse({"error": str(exc)}, status_code=503)
        except MoveError as exc:
            return JSONResponse({"error": str(exc)}, status_code=422)
        except (SolverError, ValueError) as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)

    return run


async def _page(request: Request) -> Response:
    from starlette.responses import FileResponse

    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


async def _http_error(request: Request, exc: Exception) -> Response:
    from starlette.exceptions import HTTPException
    from starlette.responses import JSONResponse

    assert isinstance(exc, HTTPException)  # the only errors it is registered for
    what = {404: f"no such page: {request.url.path}", 405: f"{request.method} is not allowed here"}
    return JSONResponse({"error": what.get(exc.status_code, exc.detail)}, status_code=exc.status_code)


async def _internal_error(request: Request, exc: Exception) -> Response:
    from starlette.responses import JSONResponse

    log.exception("internal error on %s", request.url.path)
    return JSONResponse(
        {"error": f"internal error ({type(exc).__name__}); the server's log has the details"}, status_code=500
    )


def create_app(
    hint_limit: Limit = DEFAULT_HINT_LIMIT,
    hint_workers: int = 2,
    variants: Iterable[BaseVariant] = (),
    hosts: Iterable[str] = LOOPBACK,
    hint_wall: float | None = None,
) -> Starlette:
    """The Starlette application (hints within ``hint_limit``, at most
    ``hint_workers`` at once, each answered within ``hint_wall`` seconds of
    wall-clock time, by default the limit's seconds and one more), playing
    the shipped variants and ``variants`` (of variant files,
    :func:`served_variants`), answering requests for the host names
    ``hosts`` only (``"*"``: any)."""
    try:
        from starlette.applications import Starlette
        from starlette.exceptions import HTTPException
        from starlette.middleware import Middleware
        from starlette.middleware.trustedhost import TrustedHostMiddleware
        from starlette.routing import BaseRoute, Mount, Route
        from starlette.staticfiles import StaticFiles
    except ImportError:  # pragma: no cover - depends on the install
        raise ServeError(_missing_extra()) from None

    wall = hint_wall if hint_wall is not None else (hint_limit.seconds or 2.0) + 1.0
    api = _Api(served_variants(variants), hint_limit, SearchPool(hint_workers, wall))
    routes: list[BaseRoute] = [Route("/", _page)]
    for path, handler, method in (
        ("variants", api.variants, "GET"),
        ("status", api.status, "GET"),
        ("state", api.state, "POST"),
        ("play", api.play, "POST"),
        ("hint", api.hint, "POST"),
        ("finish", api.finish, "POST"),
        ("new", api.new, "POST"),
        ("verdict", api.verdict, "POST"),
    ):
        routes.append(Route(f"/api/{path}", _endpoint(handler), methods=[method]))
    routes.append(Mount("/static", StaticFiles(directory=STATIC), name="static"))
    allowed = sorted({h.lower() for h in hosts})
    return Starlette(
        routes=routes,
        exception_handlers={HTTPException: _http_error, Exception: _internal_error},
        middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=allowed, www_redirect=False)],
    )


def _search_winnable(variant: BaseVariant, limit: Limit, cancel: Cancel, tries: int = 20) -> int:
    """A random deal the solver proves won within ``limit`` (a variant
    without an index)."""
    for _ in range(tries):
        deal = verdicts.random_deal(variant)
        if solve(deal, variant, limit, cancel=cancel).won:
            return deal
        if cancel.cancelled:
            raise _BadRequest(400, "the client went away")
    raise _BadRequest(503, f"no won deal of {variant} found in {tries} tries: try again")


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    hint_seconds: float | None = None,
    hint_workers: int = 2,
    variants: Iterable[BaseVariant] = (),
    hosts: Iterable[str] = (),
    hint_wall: float | None = None,
) -> int:
    """Serve the web game on ``host:port`` (0: any free port) until Ctrl-C;
    print the address first. ``variants``: of variant files, served besides
    the shipped ones; ``hosts``: host names to answer for besides those of
    :func:`allowed_hosts`. Returns the exit code."""
    try:
        import uvicorn
    except ImportError:
        raise ServeError(_missing_extra()) from None
    if hint_workers < 1:
        raise ServeError("--hint-workers must be at least 1")
    limit = (
        DEFAULT_HINT_LIMIT
        if hint_seconds is None
        else Limit(positions=DEFAULT_HINT_LIMIT.positions, seconds=hint_seconds, memory=DEFAULT_HINT_LIMIT.memory)
    )
    if hint_wall is not None and not (0 < hint_wall < 86400):
        raise InputError(f"--hint-wall-seconds must be a positive number of seconds, not {hint_wall:g}")
    app = create_app(limit, hint_workers, variants, allowed_hosts(host, hosts), hint_wall)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.listen(2048)  # from here on, a connection waits for the server instead of being refused
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if family == socket.AF_INET6 else host
    print(f"The web game is at http://{shown}:{bound}/ (Ctrl-C stops it)", flush=True)
    config = uvicorn.Config(app, log_level="warning", access_log=False)
    uvicorn.Server(config).run(sockets=[sock])
    return 0
