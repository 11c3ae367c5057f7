"""How deep the core proves Porta-Jóias positions lost: stock cards still to come.

No Porta-Jóias deal has been proven lost; this measures what the core can
prove. For each deal whose search at ``--line-positions`` (50,000) is not
won, its best line is walked back from its end: for each count s of stock
cards still to come (the stock and the turned card, ``JewelPosition``'s
``stock`` and ``turned``), the first position of the line with s cards to
come, s = 1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20 ... Each is searched by the
core (``solve(pos, variant, Limit(positions=--limit))``: verdict, best score,
positions, seconds; the line to the best score is replayed by the reference
engine), by the core's plain search (``shortcuts=False``, at most
``--reference`` positions: what the reference engine's search, which prunes
nothing either, will need) and, when that plain search finished, by the
reference engine's exhaustive search (``engine("jewel").search(pos,
max_positions=--reference)``). A deal is walked back until the core no
longer proves its position lost (a position that wins makes every earlier
one of the line win too).

The summary gives, per variant, the deepest position the core proves lost
(most stock cards to come, then most moves before the line's end) and the
deepest where the reference search also finishes, with the same verdict and
best score (a disagreement is printed and fails the run):

    .venv/bin/python bench/jewel_losses.py --deals 1-120 --limit 5e6 --reference 60000

(3 to 4 minutes a variant on this 2-core machine, 2026-12-06: the sheet's
deepest proof, deal 26 with 20 cards to come, 435,134 positions; with the
reference agreeing, deal 80 with 12; the free rules' 12 and 8.)
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from solver import Limit, solve
from solver.api import Result, start_position
from solver.batch import parse_deals
from solver.families.jewel import JewelPosition
from solver.rules import reference as engine

VARIANTS = ("paciencia-porta-joias", "paciencia-porta-joias-free")
MILESTONES = (1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60, 78)


@dataclass
class Row:
    """One position of a line and what each search says of it."""

    deal: int
    to_come: int  # stock cards still to come (the turned card included)
    before_end: int  # moves of the line still to play from it
    jewels: int  # jewels still face down
    score: int  # cards home in the position
    verdict: str  # the core's
    best: int
    positions: int
    seconds: float
    plain: str  # the plain search's verdict and positions, "lost 905"
    reference: str  # the reference search's verdict and best score; "-": not run


def jewel(pos: object) -> JewelPosition:
    assert isinstance(pos, JewelPosition), pos
    return pos


def to_come(pos: JewelPosition) -> int:
    """Stock cards still to come: the stock and the turned card."""
    return len(pos.stock) + (pos.turned is not None)


def counts_along(result: Result, deal: int, variant: str) -> list[int]:
    """Stock cards to come after each number of moves of ``result``'s line (0..len)."""
    mod = engine("jewel")
    pos = jewel(start_position(deal, variant))
    counts = [to_come(pos)]
    for move in result.moves:
        pos = mod.play(pos, move)
        counts.append(to_come(pos))
    return counts


def measure(pos: JewelPosition, deal: int, before_end: int, args: argparse.Namespace) -> Row:
    """The core, the plain search and the reference search on one position."""
    variant = pos.variant
    r = solve(pos, variant, Limit(positions=int(args.limit), seconds=None, memory=None))
    end = r.position()
    assert (end.score, end.won) == (r.score, r.verdict == "won"), (deal, before_end)
    p = solve(pos, variant, Limit(positions=int(args.reference), seconds=None, memory=None), shortcuts=False)
    reference = "-"
    if p.verdict != "unknown":
        verdict, best, _ = engine("jewel").search(pos, max_positions=int(args.reference))
        reference = verdict if verdict == "unknown" else f"{verdict} {best}"
    return Row(
        deal, to_come(pos), before_end, len(pos.jewels), pos.score, r.verdict, r.score, r.stats.positions,
        r.stats.seconds, f"{p.verdict} {p.stats.positions}", reference,
    )  # fmt: skip


def walk(deal: int, variant: str, args: argparse.Namespace) -> list[Row]:
    """The positions of ``deal``'s line, from its end back, while the core proves them lost."""
    line = solve(deal, variant, Limit(positions=int(args.line_positions), seconds=None))
    if line.verdict == "won":
        return []
    counts = counts_along(line, deal, variant)
    rows = []
    for s in MILESTONES:
        if s not in counts:
            continue
        at = counts.index(s)
        row = measure(jewel(line.position(at)), deal, len(line.moves) - at, args)
        print(format_row(row), flush=True)
        rows.append(row)
        if row.verdict != "lost":
            break
    return rows


HEAD = (
    f"{'deal':>5} {'to come':>7} {'moves':>5} {'jewels':>6} {'home':>4} {'core':>7} {'best':>4} "
    f"{'positions':>10} {'s':>6}  {'plain':>14}  {'reference':>10}"
)


def format_row(row: Row) -> str:
    return (
        f"{row.deal:>5} {row.to_come:>7} {row.before_end:>5} {row.jewels:>6} {row.score:>4} {row.verdict:>7} "
        f"{row.best:>4} {row.positions:>10,} {row.seconds:>6.2f}  {row.plain:>14}  {row.reference:>10}"
    )


def agrees(row: Row) -> bool:
    """The reference search finished and says what the core says."""
    return row.reference == f"{row.verdict} {row.best}"


def summary(variant: str, rows: list[Row], limit: float) -> None:
    """The deepest lost positions: the core's, and those the reference also proves."""
    lost = [r for r in rows if r.verdict == "lost"]
    both = [r for r in lost if agrees(r)]
    wrong = [r for r in rows if r.reference not in ("-", "unknown") and not agrees(r)]
    print(f"\n{variant}: {len(rows)} positions of {len({r.deal for r in rows})} deals, {len(lost)} proven lost")
    for what, group in ((f"core, within {limit:,.0f} positions", lost), ("core and reference", both)):
        if group:
            deepest = max(group, key=lambda r: (r.to_come, r.before_end))
            longest = max(group, key=lambda r: (r.before_end, r.to_come))
            print(f"  deepest lost, {what}:")
            print("   " + format_row(deepest))
            if longest is not deepest:
                print("   " + format_row(longest))
    for r in wrong:
        print("  DISAGREE: " + format_row(r))
    if wrong:
        raise SystemExit(1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", choices=VARIANTS, nargs="+", default=list(VARIANTS))
    parser.add_argument("--deals", type=parse_deals, default="1-60", help="deal numbers: 1-60, 1-10,20-30")
    parser.add_argument("--limit", type=float, default=5e6, help="the core's positions a position (5e6)")
    parser.add_argument("--reference", type=float, default=60_000, help="the reference search's positions")
    parser.add_argument("--line-positions", type=float, default=50_000, help="the search that makes each line")
    args = parser.parse_args()
    for variant in args.variant:
        print(f"\n{variant}\n{HEAD}")
        deals = [deal for lo, hi in args.deals for deal in range(lo, hi + 1)]
        rows = [row for deal in deals for row in walk(deal, variant, args)]
        summary(variant, rows, args.limit)


if __name__ == "__main__":
    main()
