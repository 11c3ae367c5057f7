"""The C core in WebAssembly searching in a Web Worker of Chromium, served
by a plain static file server (python -m http.server) that has nothing but
the files: what the native core finds, the page's frames going on while
the worker searches, and a search nobody waits for stopped by ending its
worker."""

from __future__ import annotations

import contextlib
import json
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from support import static_server
from test_wasm import WASM, case, given_of

from solver import start_position

pytest.importorskip("playwright")
pytestmark = pytest.mark.skipif(not WASM.exists(), reason="no build/wasm/core.wasm (make wasm)")

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "solver" / "web" / "static"

#: The page: a worker a search, its answer kept in window.done; and a
#: count of animation frames, which goes on only while the page's thread
#: is free.
PAGE = """<!doctype html><meta charset="utf-8"><title>search worker</title>
<script type="module">
window.frames_seen = 0;
(function tick() { window.frames_seen++; requestAnimationFrame(tick); })();
window.start = (given) => {
  window.done = null;
  window.worker = new Worker("search-worker.js", { type: "module" });
  window.worker.onmessage = (e) => { window.done = e.data; };
  window.worker.postMessage({ id: 1, ...given });
};
</script>"""


@contextlib.contextmanager
def serve() -> Iterator[str]:
    """A folder of the files only (core.js, search-worker.js, core.wasm and
    the page), served by python -m http.server: its address."""
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        for file in ("core.js", "search-worker.js"):
            shutil.copy(STATIC / file, folder / file)
        shutil.copy(WASM, folder / "core.wasm")
        (folder / "index.html").write_text(PAGE, encoding="utf-8")
        with static_server(folder) as (url, _):
            yield url


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with serve() as url:
        yield url


@pytest.fixture
def tab(browser, site):
    context = browser.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(site + "index.html")
    page.wait_for_function("window.start !== undefined")
    yield page
    assert not errors, errors
    context.close()


def search(page, given: dict, timeout: float = 60_000) -> dict:
    page.evaluate("g => window.start(g)", given)
    page.wait_for_function("window.done !== null", timeout=timeout)
    answer = page.evaluate("window.done")
    assert "error" not in answer, answer
    return answer["result"]


@pytest.mark.parametrize(
    "variant,deal",
    [("napoleons-tomb", 1), ("napoleons-tomb-3", 5), ("paciencia-napoleao", 2), ("paciencia-porta-joias-free", 7)],
)
def test_a_search_in_a_worker_finds_what_the_native_core_finds(tab, variant, deal):
    given, found = case(start_position(deal, variant))
    got = search(tab, json.loads(json.dumps(given)))
    assert {k: got[k] for k in ("verdict", "reason", "positions", "line")} == {
        k: found[k] for k in ("verdict", "reason", "positions", "line")
    }


def test_the_page_goes_on_while_the_worker_searches_and_a_search_is_stopped_by_ending_it(tab):
    """Finnish deal 78606 at its start: a search of seconds (3.2 s of CPU
    natively). The page draws its frames meanwhile; the player moves on,
    and the page ends the worker: no answer ever comes, and the next
    worker answers at once."""
    given = given_of(start_position(78606, "napoleonin-hauta"), limits={})
    tab.evaluate("g => window.start(g)", given)
    before = tab.evaluate("window.frames_seen")
    tab.wait_for_timeout(1000)
    assert tab.evaluate("window.frames_seen") - before >= 10, "the page stopped drawing while the worker searched"
    assert tab.evaluate("window.done") is None
    tab.evaluate("window.worker.terminate()")
    tab.wait_for_timeout(300)
    assert tab.evaluate("window.done") is None
    quick, found = case(start_position(1, "napoleons-tomb"))
    assert search(tab, quick, timeout=10_000)["verdict"] == found["verdict"]
