"""The statistics of the rows stored: :class:`VariantStats` (counts, the
win rate's Wilson interval, the distributions of positions and seconds, the
hardest deals, the best scores of the lost deals), gathered from a database
(:func:`gather`; from Parquet files, :func:`solver.batch.parquet.gather`)
and written as the text of ``stats`` (:func:`report`)."""

from __future__ import annotations

import math
import sqlite3
from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ..blind import wilson
from ..inputs import brief
from ..variants import load, names
from .database import recorded_rules
from .ranges import format_ranges
from .rows import BatchError

N = TypeVar("N", int, float)


def percentile(sorted_values: Sequence[N], p: float) -> N:
    """The nearest-rank percentile ``p`` (0..100) of sorted values (at least one)."""
    if not len(sorted_values):
        raise BatchError("no values to take a percentile of")
    k = max(1, math.ceil(p / 100 * len(sorted_values)))
    return sorted_values[k - 1]


@dataclass
class VariantStats:
    variant: str
    won: int
    lost: int
    unknown: int
    reasons: dict[str, int]
    ranges: list[tuple[int, int]]
    positions: array[int]
    seconds: array[float]
    hardest: list[tuple[Any, ...]]  # (deal, verdict, reason, score, positions, seconds)
    lost_scores: list[tuple[int, int]]  # (best score, deals)
    #: verdict: (positions, seconds)
    split: dict[str, tuple[array[int], array[float]]] = field(default_factory=dict, repr=False)
    fingerprint: str | None = None  # the rules the rows were solved under, when the store says

    @property
    def n(self) -> int:
        return self.won + self.lost + self.unknown

    def interval(self) -> tuple[float, float]:
        """95% Wilson interval of the win rate, unknowns counted both ways: the low
        end of won/all (unknowns lost) to the high end of (won+unknown)/all (unknowns won)."""
        return wilson(self.won, self.n)[0], wilson(self.won + self.unknown, self.n)[1]


#: A row that :func:`gather` cannot count: a column of the wrong type, or a
#: verdict that is none of the three (a database not written by a batch).
_BAD_ROW = """
SELECT deal, verdict, score, positions, seconds FROM results WHERE variant = ? AND (
    typeof(deal) != 'integer' OR verdict NOT IN ('won', 'lost', 'unknown') OR typeof(score) != 'integer'
    OR typeof(positions) != 'integer' OR typeof(seconds) NOT IN ('real', 'integer'))
LIMIT 1
"""


#: The queries of :func:`gather`, each of one variant's rows.
_COUNTS = "SELECT verdict, COUNT(*) FROM results WHERE variant = ? GROUP BY verdict"
_REASONS = (
    "SELECT reason, COUNT(*) FROM results WHERE variant = ? AND verdict = 'unknown' GROUP BY reason ORDER BY 2 DESC"
)
_RANGES = (
    "SELECT MIN(deal), MAX(deal) FROM (SELECT deal, deal - ROW_NUMBER() OVER (ORDER BY deal) AS g "
    "FROM results WHERE variant = ?) GROUP BY g ORDER BY 1"
)
_HARDEST = (
    "SELECT deal, verdict, reason, score, positions, seconds FROM results WHERE variant = ? "
    "ORDER BY seconds DESC, deal LIMIT 10"
)
_LOST_SCORES = (
    "SELECT score, COUNT(*) FROM results WHERE variant = ? AND verdict = 'lost' GROUP BY score ORDER BY score"
)


def gather(conn: sqlite3.Connection, variant: str) -> VariantStats:
    q = conn.execute
    bad = q(_BAD_ROW, (variant,)).fetchone()
    if bad is not None:
        shown = ", ".join(f"{k} {brief(v)}" for k, v in zip(("deal", "verdict", "score", "positions", "seconds"), bad))
        raise BatchError(
            f"the database holds a row of {variant} that no batch wrote ({shown}): its deal must be"
            " a whole number, its verdict won, lost or unknown, its score and positions whole"
            " numbers and its seconds a number"
        )
    counts = dict(q(_COUNTS, (variant,)))
    reasons = dict(q(_REASONS, (variant,)))
    split = {v: (array("q"), array("d")) for v in ("won", "lost", "unknown")}
    for verdict, pos, sec in q("SELECT verdict, positions, seconds FROM results WHERE variant = ?", (variant,)):
        split[verdict][0].append(pos)
        split[verdict][1].append(sec)
    return VariantStats(
        variant,
        counts.get("won", 0),
        counts.get("lost", 0),
        counts.get("unknown", 0),
        {str(k): v for k, v in reasons.items()},
        [tuple(r) for r in q(_RANGES, (variant,))],
        array("q", sorted(x for p, _ in split.values() for x in p)),
        array("d", sorted(x for _, sec in split.values() for x in sec)),
        [tuple(r) for r in q(_HARDEST, (variant,))],
        [tuple(r) for r in q(_LOST_SCORES, (variant,))],
        split,
        recorded_rules(conn, variant),
    )


def stored_variants(conn: sqlite3.Connection) -> list[str]:
    return [r[0] for r in conn.execute("SELECT DISTINCT variant FROM results ORDER BY variant")]


def seconds_text(x: float) -> str:
    """Seconds as ``stats`` writes them: three digits, or one decimal from 10 s."""
    return f"{x:.3g}" if x < 10 else f"{x:.1f}"


def rules_line(s: VariantStats) -> str:
    """Which rules the rows were solved under: their fingerprint, and whether
    they are the shipped variant's."""
    shipped = load(s.variant).fingerprint if s.variant in names() else None
    if s.fingerprint is None:
        return "rules not recorded (stored before results carried them; a batch takes them as the shipped ones)"
    if shipped is None:
        return f"rules {s.fingerprint}"
    which = "the shipped rules" if s.fingerprint == shipped else f"not the shipped rules, {shipped}"
    return f"rules {s.fingerprint} ({which})"


def report(s: VariantStats) -> str:
    """The text of ``stats`` for one variant."""
    n = s.n

    def pct(k: int) -> str:
        return f"{100 * k / n:6.2f}%" if n else "      -"

    lines = [f"{s.variant}: {n:,} deals stored (deals {format_ranges(s.ranges)})", f"  {rules_line(s)}"]
    why = ", ".join(f"{k} {v:,}" for k, v in s.reasons.items())
    for name, k, extra in (
        ("won", s.won, ""),
        ("lost", s.lost, ""),
        ("unknown", s.unknown, f"  (stopped by: {why})" if why else ""),
    ):
        lines.append(f"  {name:<8}{k:>12,}  {pct(k)}{extra}")
    lo, hi = s.interval()
    if s.unknown:
        lines.append(
            f"  win rate {100 * s.won / n:.2f}% to {100 * (s.won + s.unknown) / n:.2f}%, "
            f"95% Wilson interval {100 * lo:.2f}% to {100 * hi:.2f}%"
        )
        lines.append("    (unknowns counted both ways: the low end counts them as lost, the high end as won)")
    else:
        lines.append(f"  win rate {100 * s.won / n:.2f}%, 95% Wilson interval {100 * lo:.2f}% to {100 * hi:.2f}%")
    lines.append("")
    lines.append(f"  {'':<10}{'p50':>12}{'p90':>12}{'p99':>12}{'max':>12}")
    lines.append(f"  {'positions':<10}" + "".join(f"{percentile(s.positions, p):>12,}" for p in (50, 90, 99, 100)))
    lines.append(
        f"  {'seconds':<10}" + "".join(f"{seconds_text(percentile(s.seconds, p)):>12}" for p in (50, 90, 99, 100))
    )
    lines.append("")
    lines.append(f"  hardest deals (top {len(s.hardest)} by seconds):")
    lines.append(f"  {'deal':>12}  {'verdict':<9}{'reason':<12}{'score':>5}{'positions':>14}{'seconds':>10}")
    for deal, verdict, reason, score, positions, seconds in s.hardest:
        lines.append(f"  {deal:>12}  {verdict:<9}{reason or '-':<12}{score:>5}{positions:>14,}{seconds:>10.3f}")
    lines.append("")
    if s.lost_scores:
        top = max(k for _, k in s.lost_scores)
        lines.append(f"  best score of the {s.lost:,} lost deals (cards home on the best line):")
        lines.append(f"  {'score':>6}{'deals':>10}{'share':>9}")
        for score, k in s.lost_scores:
            bar = "#" * max(1, round(40 * k / top))
            lines.append(f"  {score:>6}{k:>10,}{100 * k / s.lost:>8.1f}%  {bar}")
    else:
        lines.append("  no lost deals stored")
    return "\n".join(lines)
