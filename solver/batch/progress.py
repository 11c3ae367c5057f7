"""What a batch says of itself: :class:`Progress`, the line (or, on a
terminal, the bar) of deals done, rate, wins and time left while it runs, and
:class:`Summary`, its tally, printed when it ends."""

from __future__ import annotations

import shutil
import time
from dataclasses import dataclass, field
from typing import Never, TextIO

from tqdm import tqdm

from .ranges import Ranges, format_ranges


def _duration(seconds: float) -> str:
    seconds = round(seconds)
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}h{m:02d}m{s:02d}s" if h else f"{m}m{s:02d}s" if m else f"{s}s"


class _Bar(tqdm):  # type: ignore[type-arg]
    """tqdm's bar without its monitor thread, which only tunes how often a
    bar over an iterable redraws: the batch forks its workers from a process
    of one thread (start_method)."""

    monitor_interval = 0


class Progress:
    """Deals done, rate, wins, time left on ``stream``: a tqdm bar redrawn in
    place on a terminal; on anything else (a log file, a pipe), a plain line
    every ``every`` seconds, since tqdm's carriage returns would pile up there
    into one endless line."""

    def __init__(self, stream: TextIO | None, total: int, every: float | None = None):
        self.stream = stream
        self.total = total
        self.tty = bool(stream is not None and getattr(stream, "isatty", lambda: False)())
        self.every = every if every is not None else (0.2 if self.tty else 30.0)
        self.start = time.monotonic()
        self.last = self.start
        self.bar: tqdm[Never] | None = None  # a bar over no iterable
        if self.tty:
            # A terminal of no size (a bare pseudo-terminal) gets a width, not an empty bar.
            sized = shutil.get_terminal_size((0, 0)).columns > 0
            self.bar = _Bar(
                total=total,
                file=stream,
                unit=" deals",
                mininterval=self.every,
                smoothing=0.05,
                dynamic_ncols=sized,
                ncols=None if sized else 100,
                nrows=None if sized else 24,
            )

    def counts(self, won: int, lost: int, unknown: int) -> str:
        return f"won {won:,}  lost {lost:,}  unknown {unknown:,}"

    def line(self, done: int, won: int, lost: int, unknown: int) -> str:
        elapsed = max(time.monotonic() - self.start, 1e-9)
        rate = done / elapsed
        left = _duration((self.total - done) / rate) if done else "?"
        share = done / self.total if self.total else 1.0
        return (
            f"{done:,}/{self.total:,} deals ({100 * share:.1f}%)  {rate:,.1f} deals/s  "
            f"{self.counts(won, lost, unknown)}  left {left}"
        )

    def update(self, done: int, won: int, lost: int, unknown: int, force: bool = False) -> None:
        if self.stream is None:
            return
        if self.bar is not None:
            self.bar.set_postfix_str(self.counts(won, lost, unknown), refresh=False)
            self.bar.update(done - self.bar.n)
            if force:
                self.bar.refresh()
            return
        now = time.monotonic()
        if not force and now - self.last < self.every:
            return
        self.last = now
        self.stream.write(self.line(done, won, lost, unknown) + "\n")
        self.stream.flush()

    def note(self, text: str) -> None:
        """A line of its own (on a terminal, above the bar)."""
        if self.stream is None:
            return
        if self.bar is not None:
            self.bar.write(text, file=self.stream)
            return
        self.stream.write(text + "\n")
        self.stream.flush()

    def close(self, done: int, won: int, lost: int, unknown: int) -> None:
        if self.stream is None:
            return
        self.update(done, won, lost, unknown, force=True)
        if self.bar is not None:
            self.bar.close()


@dataclass
class Summary:
    variant: str
    ranges: Ranges
    db: str
    jobs: int
    total: int = 0  # deals in the ranges
    skipped: int = 0  # already stored (decided, with retry)
    todo: int = 0
    solved: int = 0  # stored by this run
    counts: dict[str, int] = field(default_factory=lambda: {"won": 0, "lost": 0, "unknown": 0})
    seconds: float = 0.0
    stopped_by: int | None = None  # the signal that stopped the run
    engine: str = ""  # what solved them: "2 jobs", or the Dask cluster

    def __str__(self) -> str:
        c = self.counts
        rate = self.solved / self.seconds if self.seconds > 0 else 0.0
        lines = [
            f"{self.variant}, deals {format_ranges(self.ranges)} -> {self.db}",
            f"solved {self.solved:,} this run in {self.seconds:.1f} s ({rate:,.1f} deals/s, "
            f"{self.engine or f'{self.jobs} jobs'}): "
            f"won {c['won']:,}, lost {c['lost']:,}, unknown {c['unknown']:,}",
            f"{self.skipped:,} of the {self.total:,} deals were already stored",
        ]
        if self.stopped_by is not None:
            left = self.todo - self.solved
            lines.append(f"interrupted: {left:,} deals still to solve; run the same command again to resume")
        return "\n".join(lines)
