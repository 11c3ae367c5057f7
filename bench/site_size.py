"""The static site's size and what a first visit downloads.

Builds the site (solver/web/site.py, as make site does) into a temporary
folder, prints each file's size and its gzip size (what a server or CDN
that compresses sends), then serves it from a plain static file server in
this process, which counts the bytes of every request, and opens it in
Chromium: the bytes until the page is ready to play (the first game dealt),
then once the service worker has installed (it fetches every file of the
site, so that the game plays offline):

    .venv/bin/python bench/site_size.py
"""

from __future__ import annotations

import functools
import gzip
import sys
import tempfile
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from test_web_browser import CHROMIUM, FLAGS, SETTLED  # noqa: E402

from solver.web.site import build  # noqa: E402


def sizes(site: Path) -> None:
    print(f"{'file':<40} {'bytes':>9} {'gzip -9':>9}")
    total = zipped = 0
    for path in sorted(p for p in site.rglob("*") if p.is_file()):
        data = path.read_bytes()
        z = len(gzip.compress(data, 9))
        total, zipped = total + len(data), zipped + z
        print(f"{path.relative_to(site).as_posix():<40} {len(data):>9,} {z:>9,}")
    print(f"{'the whole site':<40} {total:>9,} {zipped:>9,}")


def serve(site: Path) -> tuple[ThreadingHTTPServer, list[tuple[str, int]]]:
    """``site`` on a free port, each request's path and bytes counted."""
    served: list[tuple[str, int]] = []

    class Counting(SimpleHTTPRequestHandler):
        def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
            path = Path(self.translate_path(self.path))
            path = path / "index.html" if path.is_dir() else path
            served.append((self.path.split("?")[0], path.stat().st_size if path.is_file() else 0))

    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Counting, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, served


def visit(browser, url: str, served: list[tuple[str, int]], workers: str) -> list[tuple[str, int]]:
    """The requests of a first visit until the first deal is dealt (with
    ``workers="allow"``, and until the service worker has its copy)."""
    served.clear()
    context = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers=workers)
    page = context.new_page()
    page.goto(url)
    page.wait_for_function(SETTLED)
    if workers == "allow":
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=30_000)
    context.close()
    return list(served)


def report(title: str, requests: list[tuple[str, int]]) -> None:
    print(f"\n{title}: {len(requests)} requests, {sum(n for _, n in requests):,} bytes (uncompressed)")
    for path, n in requests:
        print(f"  {path:<38} {n:>9,}")


def main() -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        build(site)
        sizes(site)
        server, served = serve(site)
        url = f"http://127.0.0.1:{server.server_address[1]}/"
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
            report(
                "what the page needs to deal its first game (no service worker)", visit(browser, url, served, "block")
            )
            report(
                "a first visit, the service worker's copy of the site included", visit(browser, url, served, "allow")
            )
            browser.close()
        server.shutdown()


if __name__ == "__main__":
    main()
