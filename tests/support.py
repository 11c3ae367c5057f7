"""What several test files share: the checkout's root and the command line
run as a user runs it (``python -m solver ...`` from the checkout)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str, stdin: str | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``python -m solver ARGS`` from the checkout: exit code, stdout and stderr."""
    return subprocess.run(
        [sys.executable, "-m", "solver", *args], input=stdin,
        cwd=ROOT, capture_output=True, text=True, encoding="utf-8", timeout=timeout,
    )
