"""The static site (``make site``: solver/web/site.py) in Chromium, served
by ``python -m http.server``, which knows nothing of the game: every
request it answers is a file of the site, and no request goes to an API.

A deal of each family is won by the hints alone (H, Enter), as a player
with only a keyboard plays; the page, once loaded, plays on with its server
stopped (the service worker); a hard hint (Finnish deal 78606 from its
start) is stopped by the next move; a finger taps and drags at a phone's
size; axe-core finds no serious violation. Screenshots go to
build/screenshots/site-*.png."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from support import static_server
from test_web_browser import SETTLED
from test_web_page import AXE, DESKTOP, PHONE

from solver.web.site import build

pytest.importorskip("playwright")

ROOT = Path(__file__).resolve().parent.parent
WASM = ROOT / "build" / "wasm" / "core.wasm"
SHOTS = ROOT / "build" / "screenshots"
TIMEOUT = 40_000
pytestmark = pytest.mark.skipif(not WASM.exists(), reason="no build/wasm/core.wasm (make wasm)")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site as make site builds it, a hint's limit 30 s, not 3: a
    search that ends soon here has been stopped, not run out of time."""
    out = tmp_path_factory.mktemp("site")
    build(out, WASM, {"positions": 50_000_000, "seconds": 30, "memory": 256 * 2**20})
    return out


class Page:
    """A fresh browser context on the site, its errors and requests kept."""

    def __init__(self, browser, url: str, **context) -> None:
        self.context = browser.new_context(**(context or DESKTOP))
        self.context.set_default_timeout(TIMEOUT)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.asked: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("request", lambda r: self.asked.append(r.url))
        #: The workers that ended (the first, kept ready for a hint, starts with the page).
        self.closed: list[str] = []
        self.page.on("worker", lambda w: w.on("close", lambda w: self.closed.append(w.url)))
        self.page.goto(url)
        self.settle()

    def settle(self) -> None:
        self.page.wait_for_function(SETTLED)

    def text(self, selector: str) -> str:
        return self.page.inner_text(selector)

    def open(self, variant: str, deal: int) -> None:
        self.page.select_option("#variant", variant)
        self.settle()
        self.page.fill("#deal-input", str(deal))
        self.page.click("#replay")
        self.settle()
        assert self.text("#deal-info").startswith(f"Deal {deal}"), self.text("#deal-info")

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)
        self.settle()

    def focus_table(self) -> None:
        self.page.focus("#table [data-key]")

    def close(self) -> None:
        assert not self.errors, self.errors
        assert not [u for u in self.asked if "/api/" in u], "the static page asked for an API"
        self.context.close()


@contextlib.contextmanager
def opened(browser, url: str, **context) -> Iterator[Page]:
    page = Page(browser, url, **context)
    try:
        yield page
    finally:
        page.close()


@pytest.mark.parametrize(
    "variant,deal",
    [("napoleons-tomb-3", 1), ("paciencia-napoleao", 29), ("paciencia-porta-joias", 30)],
)
def test_a_deal_of_each_family_is_won_by_hints_alone(browser, site, variant, deal):
    """H then Enter, again and again, from the start to the win: every
    hint a search in a Web Worker (or the rest of a line it proved), every
    move the core's rules in WebAssembly. The deals have short winning
    lines (122 and 312 moves in the two-deck games), for the time a run
    takes (with reduced motion, so that no card slides: about 20 ms a move)."""
    with static_server(site) as (url, _), opened(browser, url, **DESKTOP, reduced_motion="reduce") as tab:
        tab.open(variant, deal)
        tab.focus_table()
        for _ in range(3000):
            tab.press("h")
            tab.press("Enter")
            if "Won!" in tab.text("#message"):
                break
        assert "Won!" in tab.text("#message"), tab.text("#message")
        SHOTS.mkdir(parents=True, exist_ok=True)
        tab.page.screenshot(path=str(SHOTS / f"site-won-{variant}.png"))


def test_the_site_plays_on_with_its_server_stopped(browser, site):
    """Once loaded, the service worker keeps every file: with the server
    gone, a reload brings the game back, it plays, hints, and opens a game
    of another family (whose data it had not yet used)."""
    with static_server(site) as (url, server), opened(browser, url) as tab:
        assert tab.page.evaluate("navigator.serviceWorker.ready.then((r) => !!r.active)")
        tab.page.wait_for_function("navigator.serviceWorker.controller !== null")
        tab.focus_table()
        tab.press("d")
        assert tab.text("#message") == "Turned the stock."
        server.terminate()
        server.wait()
        tab.page.reload()
        tab.settle()
        assert "Score" in tab.text("#score")
        tab.focus_table()
        tab.press("h")
        assert "proven" in tab.text("#message"), tab.text("#message")
        tab.press("Enter")
        tab.open("paciencia-porta-joias", 3)
        tab.focus_table()
        tab.press("h")
        tab.press("Enter")
        assert tab.text("#message").startswith(("Played", "Turned")), tab.text("#message")


def test_a_hard_hint_is_stopped_by_the_next_move(browser, site):
    """Finnish deal 78606: its search takes seconds. The indicator says what
    the index proves and asks for a hint (for the best score); a turn of the
    stock supersedes it, and its worker ends (Chromium ends a worker busy in
    WebAssembly within its forcible termination delay, 2 s); its answer is
    never taken."""
    with static_server(site) as (url, _), opened(browser, url) as tab:
        closed = tab.closed
        tab.open("napoleonin-hauta", 78606)
        tab.page.check("#indicator")
        tab.page.wait_for_timeout(300)
        assert tab.text("#winnable") == "✗ cannot be won: the deal is proven lost"
        assert not closed
        tab.focus_table()
        tab.press("d")
        for _ in range(50):
            if closed:
                break
            tab.page.wait_for_timeout(100)
        assert closed, "the superseded hint's worker is still searching"
        assert tab.text("#message") == "Turned the stock."


def center(tab: Page, selector: str) -> tuple[float, float]:
    box = tab.page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_a_finger_taps_and_drags_on_a_phone(browser, site):
    """At 390x844 with touch: a tap turns the stock, a finger's drag (the
    touch events Chromium makes) puts the waste's card in cell 4."""
    with static_server(site) as (url, _), opened(browser, url, **PHONE) as tab:
        tab.open("napoleons-tomb", 1)
        tab.page.tap('[data-key="@deck"]')
        tab.settle()
        assert tab.text("#message") == "Turned the stock."
        tab.page.evaluate("document.querySelector('[data-key=\"waste\"]').scrollIntoView({block: 'center'})")
        (x0, y0), (x1, y1) = center(tab, '[data-key="waste"] .card'), center(tab, '[data-key="cell:4"]')
        cdp = tab.context.new_cdp_session(tab.page)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
        for i in range(1, 11):
            point = {"x": x0 + (x1 - x0) * i / 10, "y": y0 + (y1 - y0) * i / 10}
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
            tab.page.wait_for_timeout(16)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        cdp.detach()
        tab.page.wait_for_timeout(100)
        tab.settle()
        assert tab.text("#message") == "Played J♦ waste → cell 4.", tab.text("#message")
        SHOTS.mkdir(parents=True, exist_ok=True)
        tab.page.screenshot(path=str(SHOTS / "site-phone-tomb.png"))


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_no_serious_accessibility_violation_on_the_site(browser, site, size):
    with static_server(site) as (url, _), opened(browser, url, **(DESKTOP if size == "desktop" else PHONE)) as tab:
        found = []
        for variant in ("napoleons-tomb", "paciencia-napoleao", "paciencia-porta-joias"):
            tab.open(variant, 5)
            tab.page.add_script_tag(path=str(AXE))
            found += tab.page.evaluate("async () => (await axe.run()).violations.map((v) => [v.id, v.impact])")
        assert not [v for v in found if v[1] in ("serious", "critical")], found
