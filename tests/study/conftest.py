"""The study build's tests (``make test-study``): they read the switches of
csrc/study.h, which only the study build of the core has (docs/search.md,
"The study build"); against any other module, the shipped one among them,
they are skipped, unless STUDY_BUILD=1 (as make test-study sets) says the
study build is wanted: then they fail."""

import os
from pathlib import Path

import pytest

from solver._core import lib

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Marks this folder's tests (the hook sees every test of the session)."""
    mine = [item for item in items if HERE in Path(item.path).resolve().parents]
    if not mine or hasattr(lib, "solver_debug_bitmoves"):
        return
    if os.environ.get("STUDY_BUILD") == "1":
        raise pytest.UsageError(f"STUDY_BUILD=1, but {lib} is not the study build (make study)")
    skip = pytest.mark.skip(reason="the study build only: make test-study")
    for item in mine:
        item.add_marker(skip)
