"""cffi (API mode) build of the C core: ``solver._core``.

setup.py hands this FFI builder to setuptools (``cffi_modules``); running the
file compiles the module in place for development.
"""

import re
from pathlib import Path

from cffi import FFI

ROOT = Path(__file__).resolve().parent.parent
CSRC = ROOT / "csrc"
#: The C sources, every .c under csrc/ (csrc/search: the search and its
#: tables; csrc/families: the game families).
SOURCES = sorted(p.relative_to(CSRC).as_posix() for p in CSRC.rglob("*.c"))
#: Every folder of csrc/ is on the include path: a file includes a header by its name.
INCLUDE_DIRS = sorted({p.parent for p in CSRC.rglob("*.h")} | {CSRC})

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


#: AddressSanitizer and UndefinedBehaviorSanitizer (``make test-asan``):
#: out-of-bounds reads and writes and undefined behaviour in the C core stop
#: the process with a report instead of going unnoticed.
SANITIZE = ["-O1", "-g", "-fsanitize=address,undefined", "-fno-omit-frame-pointer"]


def make_builder(absolute: bool = False, sanitize: bool = False) -> FFI:
    """The FFI builder; setuptools wants paths relative to the project."""
    def path(p: Path) -> str:
        return str(p if absolute else p.relative_to(ROOT))

    builder = FFI()
    builder.cdef(_declarations())
    builder.set_source(
        "solver._core",
        "".join(f'#include "{name}"\n' for name in HEADERS),
        sources=[path(CSRC / f) for f in SOURCES],
        include_dirs=[path(d) for d in INCLUDE_DIRS],
        extra_compile_args=(SANITIZE if sanitize else ["-O3"])
        + ["-std=c11", "-D_POSIX_C_SOURCE=200809L", "-Wall", "-Wextra"],
        extra_link_args=[f for f in SANITIZE if f.startswith("-fsanitize")] if sanitize else [],
    )
    return builder


ffibuilder = make_builder()

if __name__ == "__main__":
    # Build in build/inplace, then rename over solver/: a process that has the
    # old module loaded keeps its (unchanged) file. `--asan DIR`: the
    # sanitized module, into the copy of the package in DIR instead.
    import os
    import sys

    asan = sys.argv[1:2] == ["--asan"]
    into = Path(sys.argv[2]) if asan else ROOT / "solver"
    tmp = ROOT / "build" / ("asan-build" if asan else "inplace")
    built = make_builder(absolute=True, sanitize=asan).compile(tmpdir=str(tmp), verbose=False)
    os.replace(built, into / os.path.basename(built))
