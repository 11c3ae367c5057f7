"""The web game's searches: at most a few at once, each within a wall-clock
bound, each stopped when its client goes away.

A request's search waits for a worker until shortly before its bound (at
most :data:`MAX_WAITING` wait at once), then runs in a thread (the search
releases the GIL) under a :class:`~solver.Cancel` that a timer cancels at
the bound and a watcher cancels when the client has gone (the page aborts
a request it no longer needs). :class:`Busy` says no worker came in time.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from ..core import Cancel

if TYPE_CHECKING:
    from starlette.requests import Request

T = TypeVar("T")

#: Searches that may wait for a worker at once; more are refused at once.
MAX_WAITING = 64
#: The least time a search is given: a request that cannot start its search
#: this long before its bound is refused instead.
MIN_SEARCH = 0.25
#: Seconds between two looks at whether a search's client is still there.
DISCONNECT_POLL = 0.1


class Busy(Exception):
    """No worker was free in time: the server answers 503."""


class SearchPool:
    """``workers`` searches at once, each answered within ``wall_seconds``
    of its request (its wait for a worker included)."""

    def __init__(self, workers: int, wall_seconds: float) -> None:
        import anyio  # Starlette's own dependency: the 'web' extra

        self._limiter = anyio.CapacityLimiter(workers)
        self.wall_seconds = wall_seconds
        self.waiting = 0
        #: Searches started, those stopped because their client went away,
        #: requests refused because no worker was free in time.
        self.counts = {"searches": 0, "stopped": 0, "refused": 0}

    def status(self) -> dict[str, int]:
        return {**self.counts, "waiting": self.waiting}

    async def run(self, fn: Callable[[Cancel], T], request: Request) -> T:
        """``fn(token)`` in a thread, within the bound; the token is
        cancelled at the bound or when ``request``'s client goes away."""
        if self.waiting >= MAX_WAITING:
            raise Busy("the server is busy with other hints: try again in a moment")
        self.waiting += 1
        deadline = time.monotonic() + self.wall_seconds
        try:
            await self._acquire(deadline)
            try:
                return await self._search(fn, request, deadline)
            finally:
                self._limiter.release()
        finally:
            self.waiting -= 1

    async def _acquire(self, deadline: float) -> None:
        import anyio

        with anyio.move_on_after(max(0.0, deadline - time.monotonic() - MIN_SEARCH)):
            await self._limiter.acquire()
            return
        self.counts["refused"] += 1
        raise Busy("the server is busy with other hints: try again in a moment")

    async def _search(self, fn: Callable[[Cancel], T], request: Request, deadline: float) -> T:
        import anyio

        token = Cancel()

        async def watch() -> None:
            while not await request.is_disconnected():
                await anyio.sleep(DISCONNECT_POLL)
            token.cancel()
            self.counts["stopped"] += 1

        def timed() -> T:
            timer = threading.Timer(max(0.0, deadline - time.monotonic()), token.cancel)
            timer.daemon = True
            timer.start()
            try:
                return fn(token)
            finally:
                timer.cancel()

        answer: list[T] = []
        async with anyio.create_task_group() as group:
            group.start_soon(watch)
            self.counts["searches"] += 1
            try:
                answer.append(await anyio.to_thread.run_sync(timed))
            finally:
                group.cancel_scope.cancel()
        return answer[0]
