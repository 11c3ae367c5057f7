"""The study build of the core for the studies of bench/ (docs/search.md,
"The study build"): ``make study`` builds it in a copy of the package in
build/study, whose core has the switches of csrc/study.h that the shipped
module has not. A study imports the package through :func:`load`, so that
its searches run in the core it switches."""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType

COPY = Path(__file__).resolve().parent.parent / "build" / "study"


def load() -> ModuleType:
    """The study build's ``solver`` package (build/study first on the path);
    exits with what to run where there is none. Call it before anything
    imports ``solver``."""
    if "solver" in sys.modules and not sys.modules["solver"].__file__.startswith(str(COPY)):  # type: ignore[union-attr]
        raise RuntimeError("solver was imported before the study build: call study.load() first")
    if not (COPY / "solver").is_dir():
        sys.exit(f"no study build in {COPY}: run `make study` first")
    sys.path.insert(0, str(COPY))
    import solver
    from solver._core import lib

    if not hasattr(lib, "solver_debug_bitmoves"):
        sys.exit(f"{solver.__file__} is not the study build: run `make study`")
    return solver
