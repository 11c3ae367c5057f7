"""The web page's contract, in a real browser (Playwright driving Debian's
Chromium, as tests/test_web_browser.py does): the table's places are buttons
with labels a screen reader says, the keyboard reaches every one of them and
its keys never land on a control button, nothing is thrown away without a
way back, a finger drags a card, the indicator never disagrees with the
verdict index, a search nobody waits for stops, axe-core finds no serious
violation, the table fits the screen, reduced motion is honoured, and the
small things (the largest deal, "1 move", the win announced again on redo,
the games' names, Finish, the fair hint).

Screenshots of each family mid-play go to build/screenshots/page-*.png."""

from __future__ import annotations

import re
import time
from contextlib import contextmanager
from itertools import pairwise
from pathlib import Path

import pytest
from conftest import Server
from test_web_browser import SETTLED

from solver import verdicts
from solver.variants import names

PlaywrightTimeout = pytest.importorskip("playwright.sync_api").TimeoutError

ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "build" / "screenshots"
AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
#: How long a wait may take (ms): a hint searches for 2 s at most, two at once.
TIMEOUT = 12_000
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
FAMILIES = {"tomb": "napoleons-tomb", "napoleao": "paciencia-napoleao", "jewel": "paciencia-porta-joias"}
TOMBS = ["napoleons-tomb", "napoleons-tomb-3", "napoleonin-hauta"]
TWO_DECKS = ["paciencia-napoleao", "paciencia-napoleao-free", "paciencia-porta-joias", "paciencia-porta-joias-free"]
ARROWS = ["ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp"]
CARD_NAME = re.compile(r"(Ace|[2-9]|10|Jack|Queen|King) of (clubs|diamonds|hearts|spades)")
RANKS = {"A": "Ace", "T": "10", "J": "Jack", "Q": "Queen", "K": "King"}
SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def card_name(code: str) -> str:
    """'JD' -> 'Jack of diamonds', as the places' labels say a card."""
    return f"{RANKS.get(code[0], code[0])} of {SUITS[code[1]]}"


def lookup_deals(variant: str, verdict: str, upto: int = 5_000) -> int | None:
    """The smallest deal the verdict index says is ``verdict``."""
    return next((n for n in range(1, upto) if verdicts.lookup(n, variant) == verdict), None)


class Tab:
    """One browser context and tab on the game (a fresh localStorage)."""

    def __init__(self, browser, server, **context) -> None:
        self.server = server
        self.context = browser.new_context(**(context or DESKTOP))
        self.context.set_default_timeout(TIMEOUT)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(server.url)
        self.settle()

    # -- waiting and reading

    def settle(self) -> None:
        """Every action the page started is done, and no card still slides."""
        self.page.wait_for_function(SETTLED)

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)
        self.settle()

    def click(self, selector: str) -> None:
        self.page.click(selector)
        self.settle()

    def text(self, selector: str) -> str:
        return self.page.inner_text(selector)

    def message(self) -> tuple[str, str]:
        """The #message's text and class."""
        return self.text("#message"), self.page.get_attribute("#message", "class") or ""

    def moves(self) -> int:
        found = re.search(r"· (\d+) moves?\b", self.text("#score"))
        assert found, f"no move count in #score: {self.text('#score')!r}"
        return int(found[1])

    def deal(self) -> str:
        found = re.match(r"Deal (\d+)", self.text("#deal-info"))
        assert found, f"no deal number in #deal-info: {self.text('#deal-info')!r}"
        return found[1]

    def place(self, key: str) -> str:
        """A CSS selector of the place whose data-key is ``key``."""
        return f'#table [data-key="{key}"]'

    def label(self, key: str) -> str:
        return self.page.get_attribute(self.place(key), "aria-label") or ""

    def places(self) -> list[dict]:
        return self.page.evaluate("""() => [...document.querySelectorAll('#table [data-key]')].map((p) => ({
            key: p.dataset.key, place: p.dataset.place, role: p.getAttribute('role'),
            label: p.getAttribute('aria-label'), tabindex: p.getAttribute('tabindex'),
            top: [...p.querySelectorAll('.card[data-card]')].map((c) => c.dataset.card).pop() || null,
            cards: [...p.querySelectorAll('.card')].map((c) => !!c.closest('[aria-hidden="true"]')
                                                          && p.contains(c.closest('[aria-hidden="true"]'))
                                                          && c.closest('[aria-hidden="true"]') !== p),
        }))""")

    def focused(self) -> dict:
        """After a frame: the place that has the focus (None: no place has
        it, and what has), and how many places are in the tab order."""
        return self.page.evaluate("""() => new Promise((resolve) => requestAnimationFrame(() => {
            const a = document.activeElement;
            const isPlace = a && a.matches('#table [data-key]');
            resolve({key: isPlace ? a.dataset.key : null, tabindex: isPlace ? a.getAttribute('tabindex') : null,
                     what: a ? a.tagName + (a.id ? '#' + a.id : '') : null,
                     zeros: document.querySelectorAll('#table [data-key][tabindex="0"]').length});
        }))""")

    def focus(self, key: str) -> None:
        self.page.evaluate(
            "k => [...document.querySelectorAll('#table [data-key]')].find((p) => p.dataset.key === k).focus()", key
        )

    # -- playing

    def open(self, variant: str, deal: int) -> None:
        if self.page.input_value("#variant") != variant:
            self.page.select_option("#variant", variant)
            self.settle()
        self.page.fill("#deal-input", str(deal))
        self.page.press("#deal-input", "Enter")
        self.settle()
        assert self.deal() == str(deal) and self.moves() == 0

    def hints(self, count: int) -> None:
        """Play ``count`` moves by H then Enter (fewer if the game ends)."""
        for _ in range(count):
            self.press("h")
            if self.page.get_attribute("#message", "class") == "end":
                break
            self.press("Enter")

    def status(self) -> dict:
        return self.server.request("/api/status")[1]

    def close(self) -> None:
        self.context.close()


@contextmanager
def opened(browser, server, **context):
    """A fresh tab, closed after; the page must have thrown nothing."""
    t = Tab(browser, server, **context)
    try:
        yield t
    finally:
        t.close()
    assert not t.errors, f"the page threw: {t.errors}"


@pytest.fixture
def desktop(browser, server):
    with opened(browser, server, **DESKTOP) as t:
        yield t


@pytest.fixture
def phone(browser, server):
    with opened(browser, server, **PHONE) as t:
        yield t


# ---------------------------------------------------------------------------
# 1. Places


def check_places(tab: Tab, where: str) -> list[dict]:
    places = tab.places()
    assert places, f"{where}: no place in #table"
    keys = [p["key"] for p in places]
    assert len(set(keys)) == len(keys), f"{where}: data-keys repeat: {keys}"
    for p in places:
        what = f"{where}, place {p['key']!r}"
        assert p["role"] == "button", f"{what}: role={p['role']!r}, not 'button'"
        assert p["label"] and p["label"].strip(), f"{what}: no aria-label"
        assert p["tabindex"] in ("0", "-1"), f"{what}: tabindex={p['tabindex']!r}"
        assert p["place"] == p["key"].split("#")[0], f"{what}: data-place={p['place']!r}"
        assert all(p["cards"]), f"{what}: a card is not aria-hidden"
        if p["top"]:
            assert card_name(p["top"]) in p["label"], f"{what}: the label {p['label']!r} does not name its top card"
    zeros = [p["key"] for p in places if p["tabindex"] == "0"]
    assert len(zeros) == 1, f"{where}: tabindex 0 on {zeros}, not on exactly one place"
    labels = [p["label"] for p in places]
    assert len(set(labels)) == len(labels), f"{where}: aria-labels repeat: {labels}"
    assert "@deck" in keys, f"{where}: no stock (@deck)"
    return places


@pytest.mark.parametrize("variant", sorted(names()))
def test_places_are_labelled_buttons_with_one_tab_stop(desktop, variant):
    desktop.open(variant, 3)
    places = check_places(desktop, f"{variant} at the start")
    if variant.startswith("paciencia-porta-joias"):
        keys = {p["key"] for p in places}
        for s in "CSHD":
            assert {f"foundation:{s}", f"foundation:{s}#2"} <= keys, f"the two {s} foundations: {sorted(keys)}"
    desktop.hints(4)
    check_places(desktop, f"{variant} after {desktop.moves()} moves")


def test_the_labels_say_what_each_place_holds(desktop):
    desktop.open("napoleons-tomb", 1)
    for i in range(1, 5):
        assert desktop.label(f"cell:{i}") == f"cell {i}: empty"
    assert desktop.label("@deck").startswith("stock: 52 cards"), desktop.label("@deck")
    tomb = desktop.label("tomb")
    assert tomb.startswith("tomb: ") and "wants a 6" in tomb and "round 1 of 4" in tomb, tomb
    desktop.press("d")
    assert desktop.moves() == 1
    assert desktop.label("@deck").startswith("stock: 51 cards"), desktop.label("@deck")
    waste = desktop.label("waste")
    assert waste.startswith("waste: ") and "Jack of diamonds" in waste, waste
    for p in desktop.places():
        if p["key"].startswith("cell:"):
            assert re.fullmatch(rf"cell \d: (empty|{CARD_NAME.pattern})", p["label"]), p["label"]


# ---------------------------------------------------------------------------
# 2. Keyboard


@pytest.mark.parametrize("variant", sorted(names()))
def test_arrow_keys_reach_every_place(desktop, variant):
    desktop.open(variant, 3)
    keys = [p["key"] for p in desktop.places()]
    start = desktop.page.evaluate("""() => {
        const p = document.querySelector('#table [data-key][tabindex="0"]');
        return p && p.dataset.key;
    }""")
    assert start in keys, "no place has tabindex 0"
    seen, todo = {start}, [start]
    while todo:
        key = todo.pop()
        for arrow in ARROWS:
            desktop.focus(key)
            desktop.page.keyboard.press(arrow)
            now = desktop.focused()
            assert now["key"] is not None, f"{arrow} from {key}: the focus is on {now['what']}, not on a place"
            assert now["tabindex"] == "0" and now["zeros"] == 1, f"{arrow} from {key}: {now}"
            if now["key"] not in seen:
                seen.add(now["key"])
                todo.append(now["key"])
    assert seen == set(keys), f"never reached by the arrows: {sorted(set(keys) - seen)}"
    if variant.startswith("paciencia-porta-joias"):
        desktop.focus("foundation:C")
        reached = set()
        for _ in range(40):  # reading order: the rows of the box come between
            desktop.page.keyboard.press("ArrowRight")
            reached.add(desktop.focused()["key"])
        assert {"foundation:C#2", "foundation:S", "foundation:H", "foundation:D"} <= reached, sorted(reached)


def test_tab_from_the_last_control_lands_on_the_table(desktop):
    desktop.open("napoleons-tomb", 2)
    last = desktop.page.evaluate("""() => {
        const table = document.getElementById('table');
        const all = [...document.querySelectorAll('a[href], button, input, select, textarea, [tabindex]')]
            .filter((e) => !e.disabled && e.tabIndex >= 0 && e.getClientRects().length
                           && getComputedStyle(e).visibility !== 'hidden'
                           && (table.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_PRECEDING)
                           && !table.contains(e));
        const e = all.pop();
        e.setAttribute('data-test-last', '');
        e.focus();
        return e.outerHTML.slice(0, 80);
    }""")
    desktop.page.keyboard.press("Tab")
    now = desktop.focused()
    assert now["key"] is not None and now["tabindex"] == "0", f"Tab from {last}: the focus is on {now['what']}"


def test_space_selects_and_enter_plays_onto_the_focused_place(desktop):
    desktop.open("napoleons-tomb", 1)
    desktop.press("d")
    desktop.focus("waste")
    desktop.press(" ")
    assert "selected" in (desktop.page.get_attribute(desktop.place("waste"), "class") or "").split()
    desktop.focus("cell:4")
    desktop.press("Enter")
    assert desktop.moves() == 2 and "Jack of diamonds" in desktop.label("cell:4"), desktop.text("#message")


def test_keys_never_reach_a_control_button(desktop):
    page = desktop.page
    desktop.open("napoleons-tomb", 1)

    def on_table(after: str) -> None:
        now = desktop.focused()
        assert now["key"] is not None, f"after a click on {after}, the focus is on {now['what']}, not on the table"

    desktop.click("#replay")
    on_table("#replay")
    for key in ["d", "d", "h", "Enter"]:
        desktop.press(key)
    assert desktop.moves() == 3, f"D, D, H, Enter after Replay: {desktop.moves()} moves ({desktop.text('#message')})"
    assert page.is_enabled("#undo")
    desktop.click("#undo")
    on_table("#undo")
    assert desktop.moves() == 2
    desktop.click("#redo")
    on_table("#redo")
    assert desktop.moves() == 3
    desktop.click("#hint")
    on_table("#hint")
    desktop.press("Enter")
    assert desktop.moves() == 4, f"Enter after Hint: {desktop.text('#message')}"
    desktop.click("#restart")
    on_table("#restart")
    assert desktop.moves() == 0
    desktop.click("#watch")
    on_table("#watch")
    page.wait_for_function("/· [1-9]\\d* moves?/.test(document.getElementById('score').textContent)")
    desktop.press("w")
    desktop.click("#new")
    on_table("#new")
    deal = desktop.deal()
    desktop.press("Enter")
    assert desktop.deal() == deal and page.input_value("#deal-input") == deal, "Enter after New deal dealt again"


# ---------------------------------------------------------------------------
# 3. Nothing thrown away without a way back


def put_aside(tab: Tab, how: str) -> None:
    tab.open("napoleons-tomb", 2)
    tab.hints(3)
    assert tab.moves() == 3
    if how == "new":
        tab.click("#new")
    elif how == "replay-other":
        tab.open("napoleons-tomb", 7)
    elif how == "replay-same":
        tab.open("napoleons-tomb", 2)
    else:
        tab.page.select_option("#variant", "napoleons-tomb-3")
        tab.settle()
    back = tab.page.locator("#back-to-previous")
    assert back.count() == 1 and back.is_visible(), f"{how}: no #back-to-previous button shown"
    # "Back to deal 2"; the game's name may come between, after a switch of game.
    assert re.search(r"Back to\b.*\bdeal 2\b", back.inner_text()), back.inner_text()
    assert tab.moves() == 0
    assert tab.page.is_enabled("#undo"), f"{how}: Undo is disabled at move 0 of the new deal"


@pytest.mark.parametrize("how", ["new", "replay-other", "replay-same", "variant"])
def test_a_game_put_aside_comes_back_by_its_button(desktop, how):
    put_aside(desktop, how)
    desktop.click("#back-to-previous")
    assert desktop.page.input_value("#variant") == "napoleons-tomb"
    assert desktop.deal() == "2" and desktop.moves() == 3, desktop.text("#score")
    assert "· 3 moves" in desktop.text("#score")


@pytest.mark.parametrize("how", ["new", "replay-other"])
def test_a_game_put_aside_comes_back_by_undo(desktop, how):
    put_aside(desktop, how)
    if how == "new":
        desktop.click("#undo")
    else:
        desktop.press("u")
    assert desktop.deal() == "2" and desktop.moves() == 3, desktop.text("#score")


# ---------------------------------------------------------------------------
# 4. Touch


def center(tab: Tab, selector: str) -> tuple[float, float]:
    box = tab.page.locator(selector).last.bounding_box()
    assert box, f"{selector} is not shown"
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def touch_drag(tab: Tab, start: tuple[float, float], end: tuple[float, float], finish: str = "touchEnd") -> None:
    cdp = tab.context.new_cdp_session(tab.page)
    (x0, y0), (x1, y1) = start, end
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    for i in range(1, 11):
        x, y = x0 + (x1 - x0) * i / 10, y0 + (y1 - y0) * i / 10
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
        tab.page.wait_for_timeout(16)
    cdp.send("Input.dispatchTouchEvent", {"type": finish, "touchPoints": []})
    cdp.detach()
    tab.page.wait_for_timeout(100)
    tab.settle()


def ready_to_drag(tab: Tab) -> tuple[tuple[float, float], tuple[float, float]]:
    """Classic deal 1, the stock tapped: where the waste's Jack of diamonds and cell 4 are."""
    tab.open("napoleons-tomb", 1)
    tab.page.tap('[data-key="@deck"]')
    tab.settle()
    assert tab.moves() == 1, tab.text("#message")
    # Both on screen, the waste as low as needed.
    tab.page.evaluate("""() => {
        const w = document.querySelector('[data-key="waste"]').getBoundingClientRect();
        if (w.bottom > innerHeight) scrollBy(0, w.bottom - innerHeight + 8);
    }""")
    src, dst = center(tab, '[data-key="waste"] .card'), center(tab, '[data-key="cell:4"]')
    assert 0 < src[1] < 844 and 0 < dst[1] < 844, f"the waste {src} and cell 4 {dst} are not both on the screen"
    return src, dst


def test_a_finger_drags_a_card(phone):
    src, dst = ready_to_drag(phone)
    scroll = phone.page.evaluate("scrollY")
    touch_drag(phone, src, dst)
    assert phone.moves() == 2, f"the drag played no move: {phone.text('#message')!r}"
    assert phone.page.locator(".dragging").count() == 0, "a dragged card is left on the page"
    assert phone.page.evaluate("scrollY") == scroll, "the drag scrolled the page"
    assert "Jack of diamonds" in phone.label("cell:4"), (phone.label("cell:4"), phone.text("#message"))


def test_a_cancelled_touch_drag_moves_nothing(phone):
    src, dst = ready_to_drag(phone)
    touch_drag(phone, src, dst, finish="touchCancel")
    assert phone.page.locator(".dragging").count() == 0, "a dragged card is left on the page"
    assert phone.moves() == 1
    assert phone.page.locator(".selected").count() == 0, "a place is left outlined"
    assert "Jack of diamonds" in phone.label("waste")


# ---------------------------------------------------------------------------
# 5. Verdicts that agree


def indicator_is(tab: Tab, kind: str, timeout: float = 8_000) -> tuple[bool, str, str]:
    """Whether #winnable comes to have the class ``kind`` (a search takes
    2 s at most), and its class and text then."""
    try:
        tab.page.wait_for_function(f"document.getElementById('winnable').className === '{kind}'", timeout=timeout)
        ok = True
    except PlaywrightTimeout:
        ok = False
    return ok, tab.page.get_attribute("#winnable", "class") or "", tab.text("#winnable")


def test_a_deal_number_being_typed_stays_when_the_deals_verdict_arrives(desktop):
    """Free Porta-Jóias deal 954 has no index: its verdict is a search to the
    limit, which answers after the page is at rest. A number the player
    types in the deal field meanwhile stays there, and Enter opens it."""
    page = desktop.page
    page.check("#indicator")
    desktop.settle()
    desktop.open("paciencia-porta-joias-free", 954)
    assert "·" not in desktop.text("#deal-info"), "the verdict came before the number was typed: nothing tested"
    page.fill("#deal-input", "7")
    page.wait_for_function("document.getElementById('deal-info').textContent.includes('·')", timeout=20_000)
    assert page.input_value("#deal-input") == "7"
    page.press("#deal-input", "Enter")
    desktop.settle()
    assert desktop.deal() == "7"


def test_a_deal_the_index_says_lost_is_lost_everywhere(desktop):
    page = desktop.page
    desktop.open("napoleonin-hauta", 78606)
    page.evaluate("""() => {
        window.seenClasses = [];
        new MutationObserver(() => seenClasses.push(document.getElementById('winnable').className))
            .observe(document.getElementById('winnable'), {attributes: true});
    }""")
    page.check("#indicator")
    desktop.settle()
    page.wait_for_function("document.getElementById('deal-info').textContent.includes('lost')")
    ok, kind, text = indicator_is(desktop, "no")
    assert ok, f"at the start the indicator is {kind!r}: {text!r}"
    for step in range(3):
        desktop.press("h")
        text, kind = desktop.message()
        assert kind == "hint" and "could not tell" not in text, text
        assert "proven" in text and re.search(r"can(not| no longer) be won", text), text
        if step == 0:
            assert "cannot be won" in text, text
        desktop.press("Enter")
        ok, kind, text = indicator_is(desktop, "no")
        assert ok, f"after {desktop.moves()} moves the indicator is {kind!r}: {text!r}"
    assert "maybe" not in page.evaluate("seenClasses"), page.evaluate("seenClasses")
    assert "lost" in desktop.text("#deal-info")


def test_the_indicator_agrees_with_the_index_at_the_start(desktop):
    desktop.page.check("#indicator")
    desktop.settle()
    wrong = []
    for variant in TOMBS:
        for verdict, expected in [("won", "yes"), ("lost", "no")]:
            deal = lookup_deals(variant, verdict)
            if deal is None:
                assert (variant, verdict) == ("napoleons-tomb-3", "lost")
                continue
            desktop.open(variant, deal)
            ok, kind, text = indicator_is(desktop, expected)
            if not ok:
                wrong.append((variant, deal, verdict, kind, text))
    assert not wrong, f"the indicator disagrees with the index (variant, deal, index, class, text): {wrong}"


# ---------------------------------------------------------------------------
# 6. Searches nobody waits for stop


def test_a_search_nobody_waits_for_stops(browser):
    """The indicator's search for a position runs on the server (free
    Porta-Jóias deal 954 has no index, and its verdict takes 17.5 million
    positions: the search runs as long as it may, here 30 s); the player
    moves on; the page aborts that request and the server stops the search
    (counted by /api/status). Hint latency is measured by
    bench/page_latency.py, not here."""
    own = Server("--hint-seconds", "30", "--hint-wall-seconds", "30")
    tab = None
    try:
        tab = Tab(browser, own, **DESKTOP)
        asked: list[str] = []  # the page's hint and verdict requests, and how each ended
        tab.page.on("requestfinished", lambda r: "/api/" in r.url and asked.append(r.url.split("/")[-1]))
        tab.page.on("requestfailed", lambda r: "/api/" in r.url and asked.append(f"{r.url.split('/')[-1]} {r.failure}"))
        tab.open("paciencia-porta-joias-free", 954)
        tab.page.check("#indicator")
        deadline, status = time.monotonic() + 20, tab.status()
        while status["searches"] < 1 and time.monotonic() < deadline:
            time.sleep(0.1)
            status = tab.status()
        assert status["searches"] >= 1 and status["stopped"] == 0, status
        tab.page.keyboard.press("d")  # a move: the search for the start is no longer wanted
        deadline = time.monotonic() + 10
        while status["stopped"] < 1 and time.monotonic() < deadline:
            time.sleep(0.1)
            status = tab.status()
        assert status["stopped"] >= 1, f"no search stopped ({status}, requests {asked})"
        assert not tab.errors, tab.errors
    finally:
        if tab is not None:
            tab.close()
        own.stop()


# ---------------------------------------------------------------------------
# 7. axe-core


def axe(tab: Tab) -> list[dict]:
    tab.page.add_script_tag(path=str(AXE))
    return tab.page.evaluate("""async () => (await axe.run()).violations.map((v) => ({
        id: v.id, impact: v.impact, nodes: v.nodes.length,
        targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
    }))""")


@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("family", list(FAMILIES))
def test_no_serious_accessibility_violation(browser, server, family, size):
    found = []
    with opened(browser, server, **(DESKTOP if size == "desktop" else PHONE)) as tab:
        tab.open(FAMILIES[family], 5)
        found += [dict(v, when="start") for v in axe(tab)]
        tab.hints(4)
        found += [dict(v, when="mid-play") for v in axe(tab)]
    print(f"\naxe {family} {size}: " + "; ".join(f"{v['when']} {v['id']} ({v['impact']}, {v['nodes']})" for v in found))
    serious = [v for v in found if v["impact"] in ("serious", "critical")]
    assert not serious, f"axe-core, {family} at {size}: {serious}"


# ---------------------------------------------------------------------------
# 8. Layout


def test_the_table_and_message_fit_a_desktop_screen(desktop):
    over = []
    for variant in sorted(names()):
        desktop.open(variant, 5)
        desktop.hints(20)
        desktop.page.evaluate("scrollTo(0, 0)")
        bottoms = desktop.page.evaluate("""() => ({
            table: document.getElementById('table').getBoundingClientRect().bottom,
            message: document.getElementById('message').getBoundingClientRect().bottom, scrollY})""")
        if bottoms["table"] > 900 or bottoms["message"] > 900 or bottoms["scrollY"] != 0:
            over.append((variant, desktop.moves(), bottoms))
    assert not over, f"below the fold at 1280x900: {over}"


def test_no_sideways_scroll_on_a_phone(phone):
    wide = []
    for variant in sorted(names()):
        phone.open(variant, 5)
        for when in ["start", "mid-play"]:
            if when == "mid-play":
                phone.hints(10)
            width = phone.page.evaluate("document.documentElement.scrollWidth")
            if width > 390:
                wide.append((variant, when, width))
    assert not wide, f"wider than the phone's 390 px: {wide}"


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_waste_fan_shows_each_rank(browser, server, size):
    with opened(browser, server, **(PHONE if size == "phone" else DESKTOP)) as phone:
        covered = _covered_ranks(phone)
    assert not covered, f"ranks covered in the waste fan (turn, card, by, offset, corner text's right edge): {covered}"


def _covered_ranks(phone: Tab) -> list:
    phone.open("napoleons-tomb-3", 5)
    covered = []
    for turn in range(10):
        phone.press("d")
        fan = phone.page.evaluate("""() => [...document.querySelectorAll('[data-key="waste"] .card')].map((c) => {
            const r = c.getBoundingClientRect(), k = c.querySelector('.corner');
            const text = document.createRange();   // the corner's text, not its box
            if (k) text.selectNodeContents(k);
            let q = k ? text.getBoundingClientRect() : null;
            if (q && q.width === 0) q = k.getBoundingClientRect();   // drawn by ::before: the box is the text's
            return {card: c.dataset.card, left: r.left, top: r.top, right: r.right, bottom: r.bottom,
                    corner: q && {left: q.left, top: q.top, right: q.right, bottom: q.bottom, text: k.innerText}};
        })""")
        assert all(c["corner"] for c in fan), f"a waste card without a .corner: {fan}"
        for under, over in pairwise(fan):
            k = under["corner"]
            width = max(0, min(k["right"], over["right"]) - max(k["left"], over["left"]))
            height = max(0, min(k["bottom"], over["bottom"]) - max(k["top"], over["top"]))
            if width * height > 0.5:
                covered.append(
                    (
                        turn,
                        under["card"],
                        over["card"],
                        round(over["left"] - under["left"], 1),
                        round(k["right"] - under["left"], 1),
                    )
                )
    return covered


# ---------------------------------------------------------------------------
# 9. Screenshots


def test_screenshots_of_each_family_mid_play(browser, server):
    SHOTS.mkdir(parents=True, exist_ok=True)
    for size, context in [("desktop", DESKTOP), ("phone", PHONE)]:
        with opened(browser, server, **context) as tab:
            for family, variant in FAMILIES.items():
                tab.open(variant, 5)
                tab.hints(12)
                tab.press("h")
                path = SHOTS / f"page-{family}-{size}.png"
                tab.page.screenshot(path=str(path), full_page=True)
                assert path.stat().st_size > 10_000


# ---------------------------------------------------------------------------
# 10. Reduced motion


def test_reduced_motion_moves_nothing_smoothly(browser, server):
    with opened(browser, server, **DESKTOP) as tab:
        tab.page.emulate_media(reduced_motion="reduce")
        tab.open("napoleons-tomb", 2)
        for _ in range(4):
            tab.press("h")
            tab.press("Enter")
            moving = tab.page.evaluate("""() => [...document.querySelectorAll('.card')].flatMap((c) => {
                const s = getComputedStyle(c);
                const still = (d) => d.split(',').every((x) => parseFloat(x) === 0);
                const running = c.getAnimations ? c.getAnimations().length : 0;
                return still(s.transitionDuration) && still(s.animationDuration) && !running ? []
                    : [[c.dataset.card || 'back', s.transitionDuration, s.animationDuration, running]];
            })""")
            assert not moving, f"cards still move under reduced motion: {moving}"
        assert tab.moves() == 4


# ---------------------------------------------------------------------------
# 11. Small things


def test_the_largest_deal_is_played_and_the_next_is_refused(desktop):
    page = desktop.page
    largest = str(10**20)
    page.fill("#deal-input", largest)
    page.press("#deal-input", "Enter")
    desktop.settle()
    assert desktop.text("#deal-info").startswith(f"Deal {largest}"), (desktop.text("#deal-info"), desktop.message())
    page.fill("#deal-input", str(10**20 + 1))
    page.press("#deal-input", "Enter")
    desktop.settle()
    text, kind = desktop.message()
    assert kind == "error", text
    assert page.input_value("#deal-input") == largest, "the box does not show the current deal again"
    assert desktop.text("#deal-info").startswith(f"Deal {largest}")


def test_one_move_is_singular(desktop):
    desktop.open("napoleons-tomb", 2)
    desktop.press("d")
    assert re.search(r"· 1 move$", desktop.text("#score")), desktop.text("#score")


def test_a_redone_winning_move_announces_the_win(desktop):
    desktop.open("napoleons-tomb-3", 5)
    for _ in range(300):
        desktop.press("h")
        desktop.press("Enter")
        if "Won" in desktop.text("#message"):
            break
    assert "Won" in desktop.text("#message"), desktop.text("#message")
    desktop.press("u")
    desktop.press("y")
    assert "Won" in desktop.text("#message"), f"after the winning move was redone: {desktop.text('#message')!r}"


def test_the_game_menu_shows_the_games_names(desktop):
    options = desktop.page.evaluate("[...document.querySelectorAll('#variant option')].map((o) => o.textContent)")
    assert len(options) == len(names())
    internal = [o for o in options if any(name in o for name in names())]
    assert not internal, f"internal names in the menu: {internal}"


def test_a_hint_at_the_start_of_a_lost_deal_says_it_cannot_be_won(desktop):
    deal = lookup_deals("napoleons-tomb", "lost")
    desktop.open("napoleons-tomb", deal)
    desktop.press("h")
    text, kind = desktop.message()
    assert kind == "hint" and "cannot be won" in text and "can no longer be won" not in text, text


# ---------------------------------------------------------------------------
# 12. Finish


def test_finish_plays_the_cards_home_once_nothing_is_left_to_decide(desktop):
    page = desktop.page
    desktop.open("napoleons-tomb-3", 5)
    assert page.locator("#finish").count() == 1, "no #finish button"
    for _ in range(300):
        if page.is_enabled("#finish"):
            break
        assert "Won" not in desktop.text("#message"), "won before Finish was enabled"
        desktop.press("h")
        desktop.press("Enter")
    assert page.is_enabled("#finish"), f"Finish never enabled ({desktop.text('#score')})"
    before = desktop.moves()
    desktop.click("#finish")
    assert "Won" in desktop.text("#message"), desktop.text("#message")
    assert desktop.text("#score").startswith("Score 52/52") and desktop.moves() > before


# ---------------------------------------------------------------------------
# 13. Fair hint


def test_a_fair_hint_on_the_tombs_and_none_on_the_two_deck_games(desktop):
    page = desktop.page
    assert page.locator("#fair-hint").count() == 1, "no #fair-hint button"
    for variant in TOMBS:
        desktop.open(variant, 2)
        desktop.hints(2)
        desktop.click("#fair-hint")
        text, kind = desktop.message()
        assert kind == "hint" and "fair hint" in text.lower(), (variant, text)
        assert re.search(r"→|turn the stock|redeal", text, re.I), f"{variant}: the fair hint names no move: {text}"
    for variant in TWO_DECKS:
        desktop.open(variant, 2)
        assert page.is_disabled("#fair-hint"), f"{variant}: the fair hint is enabled"
