"""Fixtures of the web game's tests: a real server, started as a user starts
it (`python -m solver serve --port 0`), and JSON requests to it; Chromium,
driven by Playwright, for the browser tests."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


class Server:
    """A `python -m solver serve` of the test's own, on a free port."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "solver", "serve", "--port", "0", *args],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.line = self.proc.stdout.readline()
        if not self.line.startswith("The web game is at "):
            self.stop()
            raise RuntimeError(f"the server did not start: {self.line}{self.proc.stderr.read()}")
        self.url = self.line.split()[5]

    def request(self, path: str, body=None, *, raw: bytes | None = None, method: str | None = None):
        """(status, JSON) of a request; ``body`` is sent as JSON (POST)."""
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        req = urllib.request.Request(
            self.url.rstrip("/") + path, data=data, method=method, headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return r.status, json.load(r)
        except urllib.error.HTTPError as err:
            return err.code, json.load(err)

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=10)


@pytest.fixture(scope="session")
def server():
    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    s = Server()
    yield s
    s.stop()


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium (Playwright downloads no browser); the tests that
    need it are skipped without it, but fail in CI, which installs it."""
    pytest.importorskip("playwright")
    from test_web_browser import CHROMIUM, FLAGS

    if not CHROMIUM.exists():
        message = f"no Chromium at {CHROMIUM}: `make browser` installs Debian's (as root)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        yield b
        b.close()
