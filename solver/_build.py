"""cffi (API mode) build of the C core: ``solver._core``.

setup.py hands this FFI builder to setuptools (``cffi_modules``); running the
file compiles the module in place for development.
"""

import re
from pathlib import Path

from cffi import FFI

ROOT = Path(__file__).resolve().parent.parent
CSRC = ROOT / "csrc"
SOURCES = ["memo.c", "path.c", "search.c", "table.c", "tomb.c", "gsearch.c", "napoleao.c", "jewel.c"]

HEADERS = ["solver.h", "deck2.h"]


def _declarations() -> str:
    """The C API for cffi's cdef, read from the headers themselves: cffi takes
    the declarations, comments and integer #defines as they are; only the
    include guards and #include lines are left out."""
    lines = []
    for name in HEADERS:
        for line in (CSRC / name).read_text(encoding="utf-8").splitlines():
            text = line.strip()
            if text.startswith(("#ifndef", "#endif", "#include")) or re.fullmatch(r"#define \w+_H", text):
                continue
            lines.append(line)
    return "\n".join(lines)


def make_builder(absolute: bool = False) -> FFI:
    """The FFI builder; setuptools wants paths relative to the project."""
    def path(p: Path) -> str:
        return str(p if absolute else p.relative_to(ROOT))

    builder = FFI()
    builder.cdef(_declarations())
    builder.set_source(
        "solver._core",
        "".join(f'#include "{name}"\n' for name in HEADERS),
        sources=[path(CSRC / f) for f in SOURCES],
        include_dirs=[path(CSRC)],
        extra_compile_args=["-O3", "-std=c11", "-D_POSIX_C_SOURCE=200809L", "-Wall", "-Wextra"],
    )
    return builder


ffibuilder = make_builder()

if __name__ == "__main__":
    # Build in build/inplace, then rename over solver/: a process that has the
    # old module loaded keeps its (unchanged) file.
    import os

    built = make_builder(absolute=True).compile(tmpdir=str(ROOT / "build" / "inplace"), verbose=False)
    os.replace(built, ROOT / "solver" / os.path.basename(built))
