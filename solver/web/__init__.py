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
- ``POST /api/hint``: the solver's next move and what it proved;
- ``POST /api/new``: a new deal number (``winnable_only`` from the index);
- ``POST /api/verdict``: whether the deal can be won, and its difficulty.

Every error is ``{"error": "..."}`` with a 4xx status (400 a bad request,
404, 405, 413 a body over :data:`MAX_BODY` bytes, 415 a body that is not
sent as JSON, 422 a move the rules refuse, 503 too many hints waiting); no
response carries a traceback. Only requests for the host names the server
was started for are answered (a DNS-rebinding page cannot read the API),
and a POST must say its body is JSON (a form another site's page sends
cannot reach the API): a wrong host gets Starlette's plain 400 "Invalid
host header".
Hints run in threads (the search releases the GIL), at most
``hint_workers`` at once, each within its limit.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from contextvars import ContextVar
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from .. import verdicts
from ..api import DEFAULT_VARIANT, Cancel, Limit
from ..deals import MAX_NUMBER, DealError, number_from_text
from ..game import MoveError
from ..errors import InputError, SolverError
from ..inputs import brief, load_json
from ..hints import DEFAULT_HINT_LIMIT, Hint
from ..session import Game, describe, move_json, parse_move
from ..variants import BaseVariant, all_variants, load

if TYPE_CHECKING:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response

#: A request's JSON object, and what an endpoint answers with.
Body = dict[str, Any]
T = TypeVar("T")

__all__ = ["MAX_BODY", "MAX_MOVES", "create_app", "serve"]

STATIC = Path(__file__).parent / "static"
#: The largest request body, in bytes: a game of MAX_MOVES moves fits in it.
MAX_BODY = 512 * 1024
#: The most moves a request may carry (a long Porta-Jóias win line has 2,000).
MAX_MOVES = 5_000
#: The variant the page opens with: the 3-card deal, as on the seed page.
FIRST = "napoleons-tomb-3"
#: Hints that may wait for a worker at once; more are refused (503) at once.
#: Each waits at most until its wall-clock bound is near.
MAX_WAITING = 64
#: The least time a search is given: a request that cannot start its search
#: this long before its wall-clock bound is refused (503) instead.
MIN_SEARCH = 0.25
#: Seconds between two looks at whether a hint's client is still there.
DISCONNECT_POLL = 0.1
#: The request an endpoint is answering (for the searches it starts).
_REQUEST: ContextVar[Request] = ContextVar("request")
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
    return "the web game needs the 'web' extra: pip install 'tomb-solver[web]' (Starlette and uvicorn)"


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
        out.append({
            "name": v.name,
            "family": v.family,
            "title": v.title,
            "description": v.description,
            "fingerprint": v.fingerprint,
            "cards": v.cards,
            "index": {"first": ix.first, "last": ix.last} if ix is not None else None,
        })
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


def _hint_json(h: Hint, *, at_start: bool = False, deal_lost: bool = False) -> dict[str, Any]:
    """A hint as the page shows it: its move in the player's notation (a
    turn names no card), what it proved, and the sentence that says so.
    ``deal_lost``: the verdict index proves the deal lost, so that every
    position of it is lost whatever the search found in its limit."""
    status, proof = h.status, "search" if h.status in ("won", "lost") else None
    if status == "unknown" and deal_lost:
        status, proof = "lost", "index"
    never = "cannot be won" if at_start else "can no longer be won"
    if h.move is None:
        text = (f"The deal is won: all {h.total} cards are home." if h.won
                else f"No move is left: the game ends with {h.score_now} cards home.")
    else:
        head = describe(h.move)
        head = head[0].upper() + head[1:]
        if status == "won":
            text = f"{head}: this move keeps a win (proven: the solver's line wins from here)."
        elif proof == "index":
            text = (f"{head}. This deal {never} (proven: the verdict index holds its proof); the best line"
                    f" the solver found within its limit brings {h.score} cards home.")
        elif status == "lost":
            text = f"{head}. This deal {never} (proven); best possible: {h.score} cards home, and this move keeps it."
        else:
            text = (f"{head}. The solver could not tell within its limit whether the deal can still be won;"
                    f" its best line found brings {h.score} cards home.")
    return {
        "move": move_json(h.move) if h.move is not None else None,
        "status": status,
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
        head = describe(move)
        text = (f"Fair hint: {head[0].lower() + head[1:]}. It is the careful player's move, chosen from what you"
                " can see (never the stock's order): it proves nothing.")
    return {"move": move_json(move) if move is not None else None, "status": None, "proof": None, "fair": True,
            "score": None, "reason": None, "text": text}


# ---------------------------------------------------------------------------
# The application


def create_app(hint_limit: Limit = DEFAULT_HINT_LIMIT, hint_workers: int = 2,
               variants: Iterable[BaseVariant] = (), hosts: Iterable[str] = LOOPBACK,
               hint_wall: float | None = None) -> Starlette:
    """The Starlette application (hints within ``hint_limit``, at most
    ``hint_workers`` at once, each answered within ``hint_wall`` seconds of
    wall-clock time, by default the limit's seconds and one more), playing
    the shipped variants and ``variants`` (of variant files,
    :func:`served_variants`), answering requests for the host names
    ``hosts`` only (``"*"``: any)."""
    served = served_variants(variants)
    try:
        import anyio
        from starlette.applications import Starlette
        from starlette.exceptions import HTTPException
        from starlette.middleware import Middleware
        from starlette.middleware.trustedhost import TrustedHostMiddleware
        from starlette.requests import ClientDisconnect
        from starlette.responses import FileResponse, JSONResponse
        from starlette.routing import Mount, Route
        from starlette.staticfiles import StaticFiles
    except ImportError:  # pragma: no cover - depends on the install
        raise ValueError(_missing_extra()) from None

    workers = anyio.CapacityLimiter(hint_workers)
    waiting = 0
    #: Searches started, those stopped because their client went away, and
    #: requests refused because no worker was free in time.
    counts = {"searches": 0, "stopped": 0, "refused": 0}
    wall_seconds = hint_wall if hint_wall is not None else (hint_limit.seconds or 2.0) + 1.0

    async def read_body(request: Request) -> Body:
        # A body over MAX_BODY is read on (up to 8 times that, not kept), so
        # that the client, still sending, gets the 413 rather than a reset.
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

    def endpoint(handler: Callable[[Body], Awaitable[Body]]) -> Callable[[Request], Awaitable[Response]]:
        """A JSON endpoint: the body read and checked, every known error a
        clear 4xx answer."""

        async def run(request: Request) -> Response:
            try:
                if request.method == "POST" and not _is_json(request.headers.get("content-type", "")):
                    raise _BadRequest(415, "send the body as JSON, with the header Content-Type: application/json")
                body = await read_body(request) if request.method == "POST" else dict(request.query_params)
                _REQUEST.set(request)
                return JSONResponse(await handler(body))
            except _BadRequest as exc:
                return JSONResponse({"error": exc.message}, status_code=exc.status)
            except MoveError as exc:
                return JSONResponse({"error": str(exc)}, status_code=422)
            except (SolverError, ValueError) as exc:
                return JSONResponse({"error": str(exc)}, status_code=400)

        return run

    async def in_worker(fn: Callable[[Cancel], T]) -> T:
        """Run ``fn(token)`` in a thread, at most ``hint_workers`` at once,
        within ``wall_seconds`` of wall-clock time from now: waiting for a
        worker (a 503 if none is free in that time) and searching (the
        token is cancelled when the time is up). The token is cancelled
        too when the client that asked goes away (the page aborts a
        request it no longer needs)."""
        nonlocal waiting
        if waiting >= MAX_WAITING:
            raise _BadRequest(503, "the server is busy with other hints: try again in a moment")
        waiting += 1
        deadline = time.monotonic() + wall_seconds
        token = Cancel()
        request = _REQUEST.get()

        async def watch() -> None:
            while not await request.is_disconnected():
                await anyio.sleep(DISCONNECT_POLL)
            token.cancel()
            counts["stopped"] += 1

        def timed() -> T:
            timer = threading.Timer(max(0.0, deadline - time.monotonic()), token.cancel)
            timer.daemon = True
            timer.start()
            try:
                return fn(token)
            finally:
                timer.cancel()

        try:
            acquired = False
            with anyio.move_on_after(max(0.0, deadline - time.monotonic() - MIN_SEARCH)):
                await workers.acquire()
                acquired = True
            if not acquired:
                counts["refused"] += 1
                raise _BadRequest(503, "the server is busy with other hints: try again in a moment")
            try:
                async with anyio.create_task_group() as group:
                    group.start_soon(watch)
                    counts["searches"] += 1
                    try:
                        answer = await anyio.to_thread.run_sync(timed)
                    finally:
                        group.cancel_scope.cancel()
                return answer
            finally:
                workers.release()
        finally:
            waiting -= 1

    async def status(body: Body) -> Body:
        return {**counts, "waiting": waiting}

    async def get_variants(body: Body) -> Body:
        return {"variants": variants_json(served), "first": FIRST}

    async def state(body: Body) -> Body:
        return {"view": _game(body, served).view()}

    async def play(body: Body) -> Body:
        game = _game(body, served)
        if "move" not in body:
            raise _BadRequest(400, "give the 'move' to play")
        step = game.play(parse_move(body["move"]))
        return {"step": [move_json(m) for m in step], "view": game.view()}

    async def hint(body: Body) -> Body:
        game = _game(body, served)
        fair = body.get("fair", False)
        if not isinstance(fair, bool):
            raise _BadRequest(400, f"'fair' must be true or false, not {brief(fair)}")
        if fair:
            return {"hint": _fair_hint_json(game)}
        h = await in_worker(lambda token: game.hint(hint_limit, cancel=token))
        if h.reason == "interrupted":       # the client is here: the wall-clock bound stopped it
            h = replace(h, reason="seconds")
        lost = h.status == "unknown" and game.deal is not None and verdicts.lookup(game.deal, game.variant) == "lost"
        return {"hint": _hint_json(h, at_start=not game.steps, deal_lost=lost)}

    async def finish(body: Body) -> Body:
        game = _game(body, served)
        steps = game.finish()
        return {"steps": [[move_json(m) for m in step] for step in steps], "view": game.view()}

    async def new(body: Body) -> Body:
        variant = _variant(body, served)
        only = body.get("winnable_only", False)
        if not isinstance(only, bool):
            raise _BadRequest(400, "'winnable_only' must be true or false")
        if only and verdicts.index_for(variant) is None:
            deal = await in_worker(lambda token: _search_winnable(variant, hint_limit, token))
            return {"deal": deal, "source": "search"}
        return {"deal": verdicts.random_deal(variant, winnable_only=only), "source": "index" if only else "random"}

    async def verdict(body: Body) -> Body:
        variant, deal = _variant(body, served), _deal(body)
        found, source = verdicts.verdict(deal, variant, search=False)
        if found is None:
            found, source = await in_worker(
                lambda token: verdicts.verdict(deal, variant, limit=hint_limit, cancel=token))
        out: Body = {"variant": variant.name, "deal": deal, "verdict": found, "source": source,
                     "winnable": True if found == "won" else False if found == "lost" else None,
                     "difficulty": None}
        if variant.family == "tomb":
            level = await in_worker(
                lambda token: verdicts.difficulty(deal, variant, known=found, limit=hint_limit, cancel=token))
            out["difficulty"], out["difficulty_text"] = level, verdicts.DIFFICULTIES[level]
        return out

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)       # the only errors it is registered for
        what = {404: f"no such page: {request.url.path}", 405: f"{request.method} is not allowed here"}
        return JSONResponse({"error": what.get(exc.status_code, exc.detail)}, status_code=exc.status_code)

    async def internal_error(request: Request, exc: Exception) -> Response:
        log.exception("internal error on %s", request.url.path)
        return JSONResponse({"error": f"internal error ({type(exc).__name__}); the server's log has the details"},
                            status_code=500)

    routes = [
        Route("/", page),
        Route("/api/variants", endpoint(get_variants), methods=["GET"]),
        Route("/api/state", endpoint(state), methods=["POST"]),
        Route("/api/play", endpoint(play), methods=["POST"]),
        Route("/api/hint", endpoint(hint), methods=["POST"]),
        Route("/api/finish", endpoint(finish), methods=["POST"]),
        Route("/api/new", endpoint(new), methods=["POST"]),
        Route("/api/verdict", endpoint(verdict), methods=["POST"]),
        Route("/api/status", endpoint(status), methods=["GET"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    allowed = sorted({h.lower() for h in hosts})
    return Starlette(routes=routes, exception_handlers={HTTPException: http_error, Exception: internal_error},
                     middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=allowed, www_redirect=False)])


def _search_winnable(variant: BaseVariant, limit: Limit, cancel: Cancel, tries: int = 20) -> int:
    """A random deal the solver proves won within ``limit`` (a variant
    without an index)."""
    from ..api import solve

    for _ in range(tries):
        deal = verdicts.random_deal(variant)
        if solve(deal, variant, limit, cancel=cancel).won:
            return deal
        if cancel.cancelled:
            raise _BadRequest(400, "the client went away")
    raise _BadRequest(503, f"no won deal of {variant} found in {tries} tries: try again")


def serve(host: str = "127.0.0.1", port: int = 8000, *, hint_seconds: float | None = None,
          hint_workers: int = 2, variants: Iterable[BaseVariant] = (), hosts: Iterable[str] = (),
          hint_wall: float | None = None) -> int:
    """Serve the web game on ``host:port`` (0: any free port) until Ctrl-C;
    print the address first. ``variants``: of variant files, served besides
    the shipped ones; ``hosts``: host names to answer for besides those of
    :func:`allowed_hosts`. Returns the exit code."""
    try:
        import uvicorn
    except ImportError:
        raise ValueError(_missing_extra()) from None
    if hint_workers < 1:
        raise ValueError("--hint-workers must be at least 1")
    limit = DEFAULT_HINT_LIMIT if hint_seconds is None else Limit(
        positions=DEFAULT_HINT_LIMIT.positions, seconds=hint_seconds, memory=DEFAULT_HINT_LIMIT.memory)
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
        raise ValueError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.listen(2048)  # from here on, a connection waits for the server instead of being refused
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if family == socket.AF_INET6 else host
    print(f"The web game is at http://{shown}:{bound}/ (Ctrl-C stops it)", flush=True)
    config = uvicorn.Config(app, log_level="warning", access_log=False)
    uvicorn.Server(config).run(sockets=[sock])
    return 0
