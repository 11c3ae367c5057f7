"""The deals of a batch on their way to the workers: :class:`Feed` cuts
them into chunks sized by the time a deal has taken so far, and records each
chunk handed back in the store and the run's :class:`Summary`. The local
pool (pool.py) and a Dask cluster (cluster.py) both take their chunks from it."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice
from typing import Any

from .progress import Summary
from .store import Store


class Feed:
    """The deals still to solve, cut into chunks of about ``target`` seconds of
    work (at most ``most`` deals), and the recording of each chunk handed back.

    The chunk size follows the mean time a deal has taken so far in this run."""

    def __init__(self, store: Store, deals: Iterator[int], summary: Summary, target: float, most: int) -> None:
        self.store = store
        self.deals = deals
        self.summary = summary
        self.target = target
        self.most = most
        self.chunk = 4
        self.taken = 0
        self.work_seconds = 0.0
        self.timed = 0  # deals behind work_seconds

    def take(self, share: int = 1) -> list[int]:
        """The next chunk; with ``share`` > 1, at most 1/share of the deals left,
        so that the last chunks of a run are small and end together."""
        size = self.chunk
        if share > 1:
            left = self.summary.todo - self.taken
            size = min(size, max(1, -(-left // share)))
        deals = list(islice(self.deals, size))
        self.taken += len(deals)
        return deals

    def record(self, packed: Any, wall: float) -> int:
        """Store a chunk's rows (as :attr:`store.pack` made them); how many."""
        counts = self.store.write(packed)
        n = sum(counts.values())
        for verdict, k in counts.items():
            self.summary.counts[verdict] += k
        self.summary.solved += n
        if n and wall > 0:
            self.work_seconds += wall
            self.timed += n
            per_deal = self.work_seconds / self.timed
            self.chunk = max(1, min(self.most, int(self.target / max(per_deal, 1e-6))))
        return n
