"""The web game in a real browser: Playwright driving Debian's Chromium
(/usr/bin/chromium; `make browser` installs it, Playwright downloads no
browser). A classic deal won by following hints with the keyboard, undone
to the start, kept across a reload; a move of each two-deck game, by keys,
by a tap and by a drag; a screenshot of each game's table (build/screenshots/);
and no response the page receives names a card that is face down."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from leaks import leaked

from solver.notation import MoveError
from solver.session import Game
from solver.variants import names

pytest.importorskip("playwright")

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SHOTS = ROOT / "build" / "screenshots"
#: The page is at rest: every action it started is done (body[data-pending]
#: is 0) and no card is still sliding into place.
SETTLED = "document.body.dataset.pending === '0' && !document.body.dataset.animating"


class Page:
    """One browser tab on the game, recording every answer of the server."""

    def __init__(self, browser, server) -> None:
        self.context = browser.new_context(viewport={"width": 1000, "height": 820})
        self.page = self.context.new_page()
        self.answers: list[tuple[str, dict | None, dict]] = []
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.route("**/api/**", self._record)
        self.page.goto(server.url)
        self.settle()

    def _record(self, route) -> None:
        response = route.fetch()
        body = route.request.post_data
        self.answers.append((route.request.url, json.loads(body) if body else None, json.loads(response.body())))
        route.fulfill(response=response)

    def settle(self) -> None:
        self.page.wait_for_function(SETTLED)

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)
        self.settle()

    def text(self, selector: str) -> str:
        return self.page.inner_text(selector)

    def moves(self) -> int:
        return int(re.search(r"· (\d+) moves?", self.text("#score"))[1])

    def open(self, variant: str, deal: int) -> None:
        self.page.select_option("#variant", variant)
        self.settle()
        self.page.fill("#deal-input", str(deal))
        self.page.press("#deal-input", "Enter")
        self.settle()
        assert self.text("#deal-info").startswith(f"Deal {deal}") and self.moves() == 0

    def check_no_leak(self) -> None:
        """No answer names a card face down in the position it was about
        (the position of the request's steps, and after the step it played)."""
        checked = 0
        for url, body, answer in self.answers:
            if not body or "steps" not in body:
                continue
            try:
                before = Game.replay(body["variant"], body["deal"], body["steps"])
            except MoveError:  # a request the server refused, for steps that do not replay
                assert set(answer) == {"error"}
                continue
            positions = [before.position]
            if "step" in answer:
                positions.append(Game.replay(body["variant"], body["deal"], body["steps"] + [answer["step"]]).position)
            assert not leaked(answer, *positions), (url, answer)
            checked += 1
        assert checked > 0
        assert not self.errors

    def close(self) -> None:
        # A request still on its way (the end-of-game verdict) is dropped.
        self.page.unroute_all(behavior="ignoreErrors")
        self.context.close()


@pytest.fixture
def tab(browser, server):
    t = Page(browser, server)
    yield t
    t.check_no_leak()
    t.close()


def test_a_classic_deal_won_by_hints_with_the_keyboard_undone_and_kept(tab):
    # The 3-card deal comes first, as on the seed page.
    assert tab.page.input_value("#variant") == "napoleons-tomb-3"
    tab.open("napoleons-tomb", 14)
    for _ in range(300):
        tab.press("h")
        assert "this move keeps a win" in tab.text("#message")
        assert re.match(r"(Play .+ → .+|Turn the stock): ", tab.text("#message")), tab.text("#message")
        tab.press("Enter")
        if "Won!" in tab.text("#message"):
            break
        # What the move did, in the server's words (solver.notation).
        assert re.fullmatch(r"(Played .+ → .+|Turned the stock)(; then by itself: .+)?\.", tab.text("#message")), (
            tab.text("#message")
        )
    steps = tab.moves()
    assert tab.text("#score") == f"Score 52/52 · {steps} moves"
    tab.page.wait_for_function("document.getElementById('message').textContent.includes('Deal 14 can be won')")
    assert tab.text("#wins") == "Wins here: 1 of 1 game finished"
    SHOTS.mkdir(parents=True, exist_ok=True)
    tab.page.screenshot(path=str(SHOTS / "napoleons-tomb-won.png"), full_page=True)
    # Undo every move, back to the start of the deal.
    for k in range(steps):
        tab.press("u")
        if k == steps - 1:
            assert tab.text("#message") == "Undone: turn the stock (0 steps from the start)."
        else:
            assert re.fullmatch(rf"Undone: .+ \({steps - k - 1} steps? from the start\)\.", tab.text("#message"))
    assert tab.moves() == 0 and "0/52" in tab.text("#score")
    assert tab.page.locator("#table .card:not(.back)").count() == 0
    assert "stock 52" in tab.text("#table")
    tab.press("u")
    assert tab.text("#message") == "This is the start of the deal: nothing to undo."
    # Redo some of it, reload: the game is where it was.
    for _ in range(12):
        tab.press("y")
    assert tab.text("#message").startswith("Redone: ")

    def table():  # the cards on the table (the keyboard's cursor is not kept)
        return re.sub(r' tabindex="-?\d"| focus', "", tab.page.inner_html("#table"))

    before = table()
    tab.page.reload()
    tab.settle()
    assert tab.text("#message") == "Your game is back where you left it."
    assert tab.page.input_value("#variant") == "napoleons-tomb" and tab.page.input_value("#deal-input") == "14"
    assert tab.moves() == 12 and table() == before
    # The rest can still be redone after the reload, to the win.
    for _ in range(steps - 12):
        tab.press("y")
    assert "52/52" in tab.text("#score")
    tab.page.wait_for_function("document.getElementById('message').textContent.includes('Deal 14 can be won')")
    assert tab.text("#wins") == "Wins here: 1 of 1 game finished"  # the same game is not counted twice


@pytest.mark.parametrize("variant,deal", [("paciencia-napoleao", 2), ("paciencia-porta-joias", 7)])
def test_moves_of_the_two_deck_games_by_key_tap_and_drag(tab, variant, deal):
    tab.open(variant, deal)
    tab.press("d")  # deal a round, or turn the stock
    assert tab.moves() == 1
    napoleao = variant == "paciencia-napoleao"
    assert tab.text("#message") == ("Dealt a round." if napoleao else "Turned the stock.")
    # A tap: on the stock again (Napoleão), on the turned card, which goes home (Porta-Jóias).
    tab.page.click("[data-key='@deck']" if napoleao else "[data-key='stock']")
    tab.settle()
    assert tab.moves() == 2, tab.text("#message")
    assert re.fullmatch(
        "Dealt a round." if napoleao else r"Played A. turned card → foundation .\.", tab.text("#message")
    ), tab.text("#message")
    dragged = False
    for _ in range(40):
        tab.press("h")
        assert "this move keeps a win" in tab.text("#message")
        before = tab.moves()
        src, dst = tab.page.locator(".hint-src .card"), tab.page.locator(".hint-dst")
        if src.count() and dst.count() and not dragged:
            src.last.hover()
            tab.page.mouse.down()
            box = dst.first.bounding_box()
            tab.page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, steps=8)
            tab.page.mouse.up()
            tab.settle()
            dragged = True
        else:
            tab.press("Enter")
        assert tab.moves() == before + 1
        if dragged:
            break
    assert dragged
    tab.press("u")
    assert re.fullmatch(r"Undone: .+ \(\d+ steps from the start\)\.", tab.text("#message")), tab.text("#message")
    tab.press("y")
    assert tab.text("#message").startswith("Redone: ")


def test_a_screenshot_of_each_games_table(tab):
    SHOTS.mkdir(parents=True, exist_ok=True)
    for name in names():
        tab.open(name, 5)
        for _ in range(14):
            tab.press("h")
            tab.press("Enter")
        tab.press("h")  # the next hint, its cards outlined
        assert tab.page.get_attribute("#message", "class") == "hint"
        path = SHOTS / f"{name}.png"
        tab.page.screenshot(path=str(path), full_page=True)
        assert path.stat().st_size > 10_000
        assert tab.page.locator("#table [data-key]").count() >= 10


def test_the_indicator_winnable_only_deals_and_watching_the_solver(tab):
    from solver import verdicts

    # A bad deal number is refused with a message.
    tab.page.fill("#deal-input", "12x")
    tab.page.press("#deal-input", "Enter")
    assert tab.text("#message").startswith('"12x" is not a deal number')
    assert tab.page.get_attribute("#message", "class") == "error"
    tab.open("napoleons-tomb", 1)  # lost: the best line brings 31 cards home
    tab.page.check("#indicator")
    tab.page.wait_for_function("document.getElementById('winnable').textContent.startsWith('✗')")
    tab.page.wait_for_function("document.getElementById('winnable').textContent.includes('best')")
    assert tab.text("#winnable") == "✗ cannot be won any more (best 31)"
    tab.page.wait_for_function("document.getElementById('deal-info').textContent.includes('lost')")
    # A new deal, winnable only: the index says it is won.
    tab.page.select_option("#variant", "napoleons-tomb-3")
    tab.settle()
    tab.page.check("#winnable-only")
    tab.press("n")
    deal = int(tab.page.input_value("#deal-input"))
    assert verdicts.lookup(deal, "napoleons-tomb-3") == "won"
    tab.page.wait_for_function("document.getElementById('winnable').textContent.startsWith('✓')")
    # The solver plays its line, a move at a time, until W stops it.
    tab.page.keyboard.press("w")
    tab.page.wait_for_function("/· ([5-9]|[1-9][0-9]+) moves/.test(document.getElementById('score').textContent)")
    tab.page.keyboard.press("w")
    tab.settle()
    assert tab.text("#message").startswith("The solver: ")
    stopped = tab.moves()
    tab.page.wait_for_timeout(800)
    assert tab.moves() == stopped


def test_a_saved_game_the_rules_refuse_is_said_and_started_afresh(tab):
    """A saved game that no longer replays (the rules changed, the storage
    was edited): the server's error is shown, and the deal starts again."""
    saved = {
        "current": "napoleons-tomb",
        "games": {
            "napoleons-tomb": {
                "variant": "napoleons-tomb",
                "deal": 14,
                "steps": [[{"action": "move", "from": "waste", "to": "tomb"}]],
                "redo": [],
                "played": False,
                "won": False,
            }
        },
    }
    tab.page.evaluate("s => localStorage.setItem('tomb-solver.games', s)", json.dumps(saved))
    tab.page.reload()
    tab.settle()
    assert tab.text("#message") == (
        "The saved game could not be replayed (step 1: waste → tomb: the waste is empty): deal 14 starts afresh."
    )
    assert tab.moves() == 0 and tab.page.input_value("#deal-input") == "14"
