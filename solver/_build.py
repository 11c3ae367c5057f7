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
#: tables; csrc/families: the game families) but csrc/wasm/, which only the
#: WebAssembly build compiles (make wasm).
SOURCES = sorted(p.relative_to(CSRC).as_posix() for p in CSRC.rglob("*.c") if p.relative_to(CSRC).parts[0] != "wasm")
#: Every folder of csrc/ is on the include path: a file includes a header by its name.
INCLUDE_DIRS = sorted({p.parent for p in CSRC.rglob("*.h")} | {CSRC})

#: The C API's headers, in the order cffi reads them: the core's, then each
#: family's own (csrc/games/<family>.h: its rules and position structs).
HEADERS = ["solver.h", "deck2.h", *sorted(f"games/{p.name}" for p in (CSRC / "games").glob("*.h")), "play.h"]
#: The study build's switches (csrc/study.h): in the study build only.
STUDY_HEADER = "study.h"


def _declarations(headers: list[str]) -> str:
    """The C API for cffi's cdef, read from the headers themselves: cffi takes
    the declarations, comments and integer #defines as they are; only the
    include guards and #include lines are left out."""
    lines = []
    for name in headers:
        for line in (CSRC / name).read_text(encoding="utf-8").splitlines():
            text = line.strip()
            if text.startswith(("#ifndef", "#endif", "#include")) or re.fullmatch(r"#define \w+_H", text):
                continue
            lines.append(line)
    return "\n".join(lines)


#: The sanitized builds, by the option that asks for them. ``--asan``
#: (``make test-asan``): AddressSanitizer and UndefinedBehaviorSanitizer,
#: out-of-bounds reads and writes and undefined behaviour in the C core stop
#: the process with a report instead of going unnoticed. ``--tsan`` (``make
#: test-tsan``): ThreadSanitizer, a data race between the thread a search
#: runs in and one that stops it is reported.
SANITIZE = {
    "--asan": ["-O1", "-g", "-fsanitize=address,undefined", "-fno-omit-frame-pointer"],
    "--tsan": ["-O1", "-g", "-fsanitize=thread", "-fno-omit-frame-pointer"],
}
#: ``--study`` (``make study``): the optimised core with the study
#: switches of csrc/study.h (-DSOLVER_STUDY), for tests/study/ and the
#: studies of bench/; never the shipped module (docs/search.md, "The study
#: build").
STUDY = {"--study": ["-O3", "-DSOLVER_STUDY"]}
BUILDS = SANITIZE | STUDY
#: What the C core is compiled with besides the optimisation (``make cwarn``
#: checks the sources with the same, plus -Wshadow -Werror).
CFLAGS = ["-std=c11", "-D_POSIX_C_SOURCE=200809L", "-Wall", "-Wextra"]


def make_builder(absolute: bool = False, build: str | None = None) -> FFI:
    """The FFI builder; setuptools wants paths relative to the project.
    `build`: a key of BUILDS, or None for the shipped, optimised build."""

    def path(p: Path) -> str:
        return str(p if absolute else p.relative_to(ROOT))

    flags = BUILDS[build] if build else ["-O3"]
    headers = HEADERS + ([STUDY_HEADER] if build in STUDY else [])
    builder = FFI()
    builder.cdef(_declarations(headers))
    builder.set_source(
        "solver._core",
        "".join(f'#include "{name}"\n' for name in headers),
        sources=[path(CSRC / f) for f in SOURCES],
        include_dirs=[path(d) for d in INCLUDE_DIRS],
        extra_compile_args=flags + CFLAGS,
        extra_link_args=[f for f in flags if f.startswith("-fsanitize")],
    )
    return builder


ffibuilder = make_builder()

if __name__ == "__main__":
    # Build in build/inplace, then rename over solver/: a process that has the
    # old module loaded keeps its (unchanged) file. `--asan DIR`, `--tsan
    # DIR` or `--study DIR`: that build, into the copy of the package in DIR
    # instead.
    import os
    import sys

    build = sys.argv[1] if sys.argv[1:2] and sys.argv[1] in BUILDS else None
    into = Path(sys.argv[2]) if build else ROOT / "solver"
    tmp = ROOT / "build" / (f"{build[2:]}-build" if build else "inplace")
    built = make_builder(absolute=True, build=build).compile(tmpdir=str(tmp), verbose=False)
    os.replace(built, into / os.path.basename(built))
