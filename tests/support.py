"""What several test files share: the checkout's root and the command line
run as a user runs it (``python -m solver ...`` from the checkout)."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str, stdin: str | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``python -m solver ARGS`` from the checkout: exit code, stdout and stderr."""
    return subprocess.run(
        [sys.executable, "-m", "solver", *args],
        input=stdin,
        cwd=ROOT,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=timeout,
    )


def stopped_by_memory(result: Any, memory: int) -> bool:
    """Whether ``result`` stopped at the memory limit ``memory``, checking its
    account (csrc/search/mem.h) either way: the parts add up to what was held, and
    a stop held at most the limit, refused a growth past it, and never
    went past it before."""
    st = result.stats
    assert sum(b for _, b in st.held) == st.held_bytes, memory
    if result.verdict != "unknown":
        return False
    assert result.reason == "memory", memory
    assert st.held_bytes <= memory < st.held_bytes + st.refused_bytes, memory
    assert st.peak_bytes <= memory, memory
    return True


def run_doubling_memory(search: Any, memory: int, stopped: int) -> tuple[int, int, int]:
    """Run the core's ``search`` under a memory limit of ``memory`` bytes,
    resuming it with twice the limit each time it stops with status
    ``stopped`` (the core's SOLVER_LIMIT_MEMORY): its last status, the
    stops and the last limit."""
    stops = 0
    search.set_limits(None, None, memory)
    while (status := search.run()) == stopped:
        stops += 1
        memory *= 2
        search.set_limits(None, None, memory)
    return status, stops, memory


def properties_profile() -> Any:
    """The hypothesis settings of the property tests: ``properties`` (25
    derandomized examples a test, no example database) by default,
    ``properties-long`` (500 fresh ones) with TOMB_PROPERTIES=properties-long."""
    import os

    from hypothesis import HealthCheck, settings

    settings.register_profile(
        "properties",
        max_examples=25,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    settings.register_profile(
        "properties-long", parent=settings.get_profile("properties"), max_examples=500, derandomize=False
    )
    return settings.get_profile(os.environ.get("TOMB_PROPERTIES", "properties"))


@contextlib.contextmanager
def static_server(folder: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``folder`` served by ``python -m http.server``, which knows nothing of
    the game: its address, once it answers, and its process."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(folder)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        yield f"http://127.0.0.1:{port}/", server
    finally:
        server.terminate()
        server.wait()


def random_positions(name: str, deals: range, moves: int) -> list[Any]:
    """The positions of random games of ``deals`` (each deal's own seed),
    their starts included."""
    import random

    from solver import families, start_position
    from solver.variants import load

    variant = load(name)
    core = families.of(variant).player.core
    out = []
    for deal in deals:
        rng = random.Random(deal)
        pos = start_position(deal, variant)
        out.append(pos)
        for _ in range(moves):
            legal = core.legal(pos)
            if not legal:
                break
            _, pos = core.play(pos, rng.choice(legal))
            out.append(pos)
    return out
