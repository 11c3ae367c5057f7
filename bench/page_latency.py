"""Hint latency through the page: a player presses H and waits for the answer.

Starts ``python -m solver serve`` and Debian's Chromium (Playwright), and for
each variant opens deals, plays a few moves by hints, and times each press
of H until the hint's sentence is shown (wall-clock, as the player waits).
With ``--busy N``, N processes spin on the CPU meanwhile (a busy machine).
Prints p50, p95 and the largest per variant:

    .venv/bin/python bench/page_latency.py --hints 30
    .venv/bin/python bench/page_latency.py --hints 30 --busy 2
    .venv/bin/python bench/page_latency.py --hints 30 --fresh     # first hints only: a search each

``--site`` times the static site instead (make site: python -m http.server
serves it, the hints search in the browser's Web Worker); ``--compare``
times both, the server's page and the site's, on the same deals, a deal
on one then on the other, and prints the site/server ratio of the medians.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

# The browser tests' Chromium, its flags, and their "the page is at rest".
from test_web_browser import CHROMIUM, FLAGS, SETTLED  # noqa: E402

VARIANTS = [
    "napoleons-tomb-3",
    "napoleons-tomb",
    "napoleonin-hauta",
    "paciencia-napoleao",
    "paciencia-napoleao-free",
    "paciencia-porta-joias",
    "paciencia-porta-joias-free",
]


def measure(page, variant: str, hints: int, along: int = 5, deals: list[int] | None = None) -> list[float]:
    """Seconds from pressing H to the hint shown, ``hints`` times: deals 1,
    2, ... each played along its hints for ``along`` moves (the hints after
    the first continue a line the first proved; ``along=1``: the first hint
    of each deal alone, a search each)."""
    times: list[float] = []
    page.select_option("#variant", variant)
    page.wait_for_function(SETTLED)
    numbers = iter(deals or range(1, 10**9))
    while len(times) < hints:
        deal = next(numbers, None)
        if deal is None:
            break
        page.fill("#deal-input", str(deal))
        page.press("#deal-input", "Enter")
        page.wait_for_function(SETTLED)
        for _ in range(along):
            start = time.perf_counter()
            page.keyboard.press("h")
            page.wait_for_function(SETTLED, timeout=60_000)
            times.append(time.perf_counter() - start)
            if page.get_attribute("#message", "class") != "hint" or len(times) >= hints:
                break
            page.keyboard.press("Enter")
            page.wait_for_function(SETTLED)
    return times


def _site(tmp: Path, stack: contextlib.ExitStack) -> tuple[object, str]:
    """The static site built into ``tmp`` and served by python -m http.server."""
    from support import static_server

    from solver.web.site import build

    build(tmp)
    url, server = stack.enter_context(static_server(tmp))
    return server, url


def _server() -> tuple[subprocess.Popen[str], str]:
    server = subprocess.Popen(
        [sys.executable, "-m", "solver", "serve", "--port", "0"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert server.stdout is not None
    return server, server.stdout.readline().split()[5]


def _row(name: str, t: list[float]) -> str:
    t = sorted(t)
    p95 = t[min(len(t) - 1, round(0.95 * (len(t) - 1)))]
    return f"{name:<34} {len(t):>5} {statistics.median(t):>7.3f} {p95:>7.3f} {t[-1]:>7.3f}"


def _run(pages: dict[str, object], args: argparse.Namespace) -> None:
    along = 1 if args.fresh else 5
    print(f"{'variant':<34} {'hints':>5} {'p50 s':>7} {'p95 s':>7} {'max s':>7}   busy={args.busy}")
    for variant in args.variants:
        times: dict[str, list[float]] = {name: [] for name in pages}
        deals = iter(args.deals or range(1, 10**9))
        while min(len(t) for t in times.values()) < args.hints:
            deal = next(deals, None)
            if deal is None:
                break
            for name, page in pages.items():  # interleaved: a deal on each in turn
                times[name] += measure(page, variant, 1, along, [deal])
        for name, t in times.items():
            print(_row(f"{variant} ({name})", t), flush=True)
        if len(pages) == 2:
            ratio = statistics.median(times["site"]) / statistics.median(times["server"])
            print(f"{variant:<34} site/server median ratio {ratio:.2f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hints", type=int, default=30, help="hints timed per variant (default 30)")
    parser.add_argument("--busy", type=int, default=0, help="processes spinning on the CPU meanwhile")
    parser.add_argument("--variants", nargs="*", default=VARIANTS)
    parser.add_argument(
        "--deals",
        type=int,
        nargs="*",
        default=None,
        help="these deals instead of 1, 2, 3... (hard ones: napoleonin-hauta 78606 35118)",
    )
    parser.add_argument(
        "--fresh",
        action="store_true",
        help="time only the first hint of each deal (a search each), not hints along a line",
    )
    parser.add_argument("--site", action="store_true", help="the static site (make site) instead of the server")
    parser.add_argument("--compare", action="store_true", help="both, on the same deals, interleaved")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    kinds = ["server", "site"] if args.compare else ["site"] if args.site else ["server"]
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        servers = {k: _site(Path(tmp) / "site", stack) if k == "site" else _server() for k in kinds}
        spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.busy)]
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
                pages = {}
                for kind, (_, url) in servers.items():
                    pages[kind] = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
                    pages[kind].goto(url)
                    pages[kind].wait_for_function(SETTLED)
                _run(pages, args)
                browser.close()
        finally:
            for s in spinners:
                s.kill()
            for server, _ in servers.values():
                server.terminate()


if __name__ == "__main__":
    main()
