"""The C core in WebAssembly (Node, build/wasm/core.wasm) against the native
core, on the same searches, interleaved: CPU seconds and positions a second
of each, and their ratio per variant (median and range over the rounds).

    .venv/bin/python bench/wasm_speed.py [--rounds 3] [--deals 1-20]

Each search starts from a deal's start with every shortcut, capped at
2,000,000 positions (the same work in both builds). Native: the search's
own CPU seconds (the search thread's clock). WebAssembly: Node's process
CPU time around the search, after one search to warm the JIT up.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from test_wasm import NODE, WASM, given_of  # noqa: E402

from solver import core, families, start_position  # noqa: E402
from solver.variants import names  # noqa: E402

CAP = 2_000_000


def native(variant: str, deal: int) -> tuple[int, float]:
    pos = start_position(deal, variant)
    search = core.Search(pos, core.flags_for(True, families.of(pos.variant).name))
    search.set_limits(CAP, None, None)
    out = search.outcome(search.run_here(), text=True)
    return out.positions, out.seconds


def wasm(cases: list[dict[str, object]]) -> list[tuple[int, float]]:
    with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
        json.dump(cases[:1] + cases, f)  # the first, again, warms the JIT up
        f.flush()
        run = subprocess.run(
            [NODE or "node", str(ROOT / "tests" / "wasm_check.mjs"), str(WASM), f.name],
            capture_output=True,
            text=True,
            check=True,
        )
    return [(r["positions"], r["cpu"]) for r in json.loads(run.stdout)[1:]]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--deals", default="1-20")
    args = p.parse_args()
    a, _, b = args.deals.partition("-")
    deals = range(int(a), int(b or a) + 1)
    for variant in names():
        cases = [given_of(start_position(d, variant), {"positions": CAP}) for d in deals]
        ratios, rates = [], []
        for _ in range(args.rounds):
            mine = [native(variant, d) for d in deals]
            theirs = wasm(cases)
            assert [n for n, _ in mine] == [n for n, _ in theirs], variant
            positions = sum(n for n, _ in mine)
            cpu_native, cpu_wasm = sum(s for _, s in mine), sum(s for _, s in theirs)
            ratios.append(cpu_wasm / cpu_native)
            rates.append((positions / cpu_native, positions / cpu_wasm))
        print(
            f"{variant}: {positions:,} positions; native {statistics.median(r[0] for r in rates):,.0f}/s, "
            f"wasm {statistics.median(r[1] for r in rates):,.0f}/s; wasm/native CPU {statistics.median(ratios):.2f}"
            f" ({min(ratios):.2f}-{max(ratios):.2f})"
        )


if __name__ == "__main__":
    main()
