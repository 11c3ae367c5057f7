"""The web game's screenshots in docs/: each family mid-play, at 1280x900 and
as a 390x844 touch phone, a hint outlined (docs/web.md lists them).

    .venv/bin/python tools/screenshots.py          # needs Debian's Chromium (make browser)

Starts ``python -m solver serve`` on a free port, plays each deal (a fresh
browser context each, so that no game is put aside) along the
solver's hints (H, Enter) for a number of moves, asks one more hint and
takes the picture. Deals and move counts are fixed, so the pictures change
only when the page does.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

# The browser tests' Chromium, its flags, and their "the page is at rest".
from test_web_browser import CHROMIUM, FLAGS, SETTLED  # noqa: E402

DOCS = ROOT / "docs"
#: file stem -> (variant, deal, moves played before the picture)
SHOTS = {
    "web": ("napoleons-tomb-3", 5, 14),
    "web-tomb": ("napoleonin-hauta", 3, 20),
    "web-napoleao": ("paciencia-napoleao", 2, 30),
    "web-jewel": ("paciencia-porta-joias", 7, 60),
}
SIZES = {"": ({"width": 1280, "height": 900}, False), "-phone": ({"width": 390, "height": 844}, True)}


def main() -> None:
    from playwright.sync_api import sync_playwright

    server = subprocess.Popen(
        [sys.executable, "-m", "solver", "serve", "--port", "0"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    url = server.stdout.readline().split()[5]
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
            for suffix, (viewport, touch) in SIZES.items():
                for stem, (variant, deal, moves) in SHOTS.items():
                    if stem == "web" and suffix:
                        continue
                    context = browser.new_context(viewport=viewport, has_touch=touch, is_mobile=touch)
                    page = context.new_page()
                    page.goto(url)
                    page.wait_for_function(SETTLED)
                    page.select_option("#variant", variant)
                    page.wait_for_function(SETTLED)
                    page.fill("#deal-input", str(deal))
                    page.press("#deal-input", "Enter")
                    page.wait_for_function(SETTLED)
                    for _ in range(moves):
                        page.keyboard.press("h")
                        page.wait_for_function(SETTLED)
                        page.keyboard.press("Enter")
                        page.wait_for_function(SETTLED)
                    page.keyboard.press("h")
                    page.wait_for_function(SETTLED)
                    path = DOCS / f"{stem}{suffix}.png"
                    page.screenshot(path=str(path), full_page=bool(suffix))
                    print(path.relative_to(ROOT))
                    context.close()
            browser.close()
    finally:
        server.terminate()


if __name__ == "__main__":
    main()
