"""A hard search in Chromium's Web Worker (the C core in WebAssembly) beside
the same search natively: Finnish deal 78606 at its start by default, to its
proof, no limit. Prints the positions, the seconds (the worker's wall clock
from the message posted to the answer; natively the search thread's CPU),
the positions a second and the core's peak memory of each.

    .venv/bin/python bench/wasm_browser.py [--variant V] [--deal N] [--rounds 2]

Needs build/wasm/core.wasm (make wasm) and Chromium (make browser).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from playwright.sync_api import sync_playwright  # noqa: E402
from test_wasm import given_of  # noqa: E402
from test_wasm_browser import serve  # noqa: E402
from test_web_browser import CHROMIUM, FLAGS  # noqa: E402

from solver import core, families, start_position  # noqa: E402

MIB = 2**20


def native(pos: object) -> tuple[int, float, int]:
    search = core.Search(pos, core.flags_for(True, families.of(pos.variant).name))
    search.set_limits(None, None, None)  # no limit: to the proof
    out = search.outcome(search.run_here(), text=True)
    return out.positions, out.seconds, out.peak_bytes


def in_browser(page: object, given: dict[str, object]) -> tuple[int, float, int]:
    started = time.perf_counter()
    page.evaluate("g => window.start(g)", given)
    page.wait_for_function("window.done !== null", timeout=600_000, polling=50)
    wall = time.perf_counter() - started
    result = page.evaluate("window.done")["result"]
    return result["positions"], wall, result["peak_bytes"]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--variant", default="napoleonin-hauta")
    p.add_argument("--deal", type=int, default=78606)
    p.add_argument("--rounds", type=int, default=2)
    args = p.parse_args()
    pos = start_position(args.deal, args.variant)
    given = given_of(pos, limits={})
    with serve() as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        page = browser.new_page()
        page.goto(url + "index.html")
        page.wait_for_function("window.start !== undefined")
        for _ in range(args.rounds):
            for name, (positions, seconds, peak) in (("native", native(pos)), ("chromium", in_browser(page, given))):
                print(
                    f"{name:>8}: {positions:,} positions in {seconds:.2f} s ({positions / seconds:,.0f}/s),"
                    f" peak {peak / MIB:.0f} MiB"
                )
        browser.close()


if __name__ == "__main__":
    main()
