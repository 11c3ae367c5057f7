"""``stats --plot FILE.png``: the distributions of seconds and positions
per deal and the best scores of the lost deals, a row per variant, drawn
with matplotlib (the ``plot`` extra, imported when a plot is asked for)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .rows import BatchError, StrPath
from .statistics import VariantStats, percentile, seconds_text

COLOURS = {"won": "#4c72b0", "lost": "#dd8452", "unknown": "#8c8c8c"}


def log_edges(a: float, b: float, bins: int = 40) -> list[float]:
    """``bins`` + 1 edges from ``a`` to ``b`` spaced evenly on a log scale;
    the last is ``b`` itself (``a * (b / a) ** 1.0`` can fall just below it,
    which would leave the largest value out of the histogram).

    >>> e = log_edges(0.22570802607848045, 59.894870794326096)
    >>> e[-1] == 59.894870794326096, len(e)
    (True, 41)
    """
    return [a * (b / a) ** (i / bins) for i in range(bins)] + [b]


def plot(all_stats: list[VariantStats], path: StrPath) -> None:
    """Draw the distributions to a PNG: a row per variant with seconds and positions
    per deal (log-log histograms stacked by verdict, percentiles marked) and the
    best scores of the lost deals."""
    try:
        import matplotlib
    except ImportError:
        raise BatchError(
            "--plot needs matplotlib: pip install 'patience-solver[plot]' (or pip install matplotlib)"
        ) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = len(all_stats)
    fig = plt.figure(figsize=(16, 5 * rows), layout="constrained")
    subfigs = fig.subfigures(rows, 1, squeeze=False)[:, 0] if rows > 1 else [fig]
    for sub, s in zip(subfigs, all_stats):
        _variant_row(sub, s)
    try:
        fig.savefig(path, dpi=100)
    except (OSError, ValueError) as exc:
        raise BatchError(f"cannot write the plot {path}: {exc}") from None
    finally:
        plt.close(fig)


def _in_seconds(x: float) -> str:
    return f"{seconds_text(x)} s"


def _in_positions(x: float) -> str:
    return f"{x:,}"


def _variant_row(sub: Any, s: VariantStats) -> None:
    """One variant's row of the figure: seconds, positions, lost deals' scores."""
    ax_s, ax_p, ax_l = sub.subplots(1, 3)
    lo, hi = s.interval()
    _histogram(ax_s, s, 1, s.seconds, "seconds", _in_seconds)
    _histogram(ax_p, s, 0, s.positions, "positions", _in_positions)
    _lost_scores(ax_l, s)
    unk = " (unknowns counted both ways)" if s.unknown else ""
    sub.suptitle(
        f"{s.variant}: {s.n:,} deals: won {s.won:,}, lost {s.lost:,}, unknown {s.unknown:,}; "
        f"win rate {100 * s.won / s.n:.2f}%, 95% Wilson interval {100 * lo:.2f}% to {100 * hi:.2f}%{unk}",
        fontsize=12,
        fontweight="bold",
    )


def _histogram(
    ax: Any, s: VariantStats, which: int, values: Sequence[float], what: str, fmt: Callable[[float], str]
) -> None:
    """A log-log histogram of ``values`` (``which``: 0 positions, 1 seconds of
    ``s.split``), stacked by verdict, with p50, p90 and p99 marked."""
    floor = 1e-6 if which else 1
    a = max(min(values), floor)
    b = max(max(values), a * 10)
    edges = log_edges(a, b)
    names = [v for v in ("won", "lost", "unknown") if len(s.split[v][which])]
    ax.hist(
        [[max(x, floor) for x in s.split[v][which]] for v in names],
        bins=edges,
        stacked=True,
        color=[COLOURS[v] for v in names],
        label=names,
    )
    ax.set_xscale("log")
    ax.set_yscale("log")
    marks = []
    for p, style in ((50, "-"), (90, "--"), (99, ":")):
        x = percentile(values, p)
        ax.axvline(max(x, floor), color="#c44e52", linestyle=style, linewidth=1.2)
        marks.append(f"p{p} {fmt(x)}")
    ax.legend(fontsize=8, loc="upper center", ncol=3, framealpha=0.9)
    ax.set_xlabel(f"{what} per deal (log scale; red: p50, p90, p99)")
    ax.set_ylabel("deals (log scale)")
    ax.set_title(f"{what}: {', '.join(marks)}, max {fmt(values[-1])}", fontsize=10)
    ax.margins(y=0.25)


def _lost_scores(ax: Any, s: VariantStats) -> None:
    """A bar chart of the best scores of the lost deals."""
    from matplotlib.ticker import MaxNLocator

    if s.lost_scores:
        ax.bar([k for k, _ in s.lost_scores], [c for _, c in s.lost_scores], color=COLOURS["lost"])
        ax.set_xlim(min(k for k, _ in s.lost_scores) - 1.5, max(k for k, _ in s.lost_scores) + 1.5)
    else:
        ax.text(0.5, 0.5, "no lost deals", ha="center", va="center", transform=ax.transAxes)
        ax.set_xlim(-0.5, 52.5)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("best score of a lost deal (cards home on the best line)")
    ax.set_ylabel("lost deals")
    ax.set_title(f"best scores of the {s.lost:,} lost deals", fontsize=10)
