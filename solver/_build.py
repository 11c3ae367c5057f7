"""cffi (API mode) build of the C core: ``solver._core``.

setup.py hands this FFI builder to setuptools (``cffi_modules``); running the
file compiles the module in place for development.
"""

from pathlib import Path

from cffi import FFI

ROOT = Path(__file__).resolve().parent.parent
CSRC = ROOT / "csrc"
SOURCES = ["memo.c", "path.c", "search.c", "table.c", "tomb.c"]

_DECLS = """
#define SOLVER_MAX_CELLS 4
#define SOLVER_NO_CARD 255
typedef struct {
    int turn; int passes; int cells; int cell_from_cell; int cell_to_foundation;
    int cell_to_reserve; int cell_to_waste; int sixes_reserve;
} solver_rules;
typedef struct {
    uint8_t stock[52]; int nstock; uint8_t waste[52]; int nwaste;
    uint8_t cells[4]; uint8_t reserve[4]; int nreserve;
    int corners[4]; int tomb; int redeals;
} solver_position;
#define SOLVER_FORCE_CELL_HOME 1
#define SOLVER_FORCE_RESERVE_HOME 2
#define SOLVER_SUIT_SYMMETRY 4
#define SOLVER_SUMMARIES 8
#define SOLVER_FORCE_WASTE_HOME 16
#define SOLVER_FORCE_SIXES_RESERVE 32
#define SOLVER_ALL_SHORTCUTS 63
enum { SOLVER_WON, SOLVER_LOST, SOLVER_LIMIT_POSITIONS, SOLVER_LIMIT_SECONDS,
       SOLVER_LIMIT_MEMORY, SOLVER_INTERRUPTED, SOLVER_ERROR };
enum { SOLVER_TURN, SOLVER_REDEAL, SOLVER_MOVE };
enum { SOLVER_PLACE_STOCK, SOLVER_PLACE_WASTE, SOLVER_PLACE_CELL, SOLVER_PLACE_RESERVE,
       SOLVER_PLACE_CORNER, SOLVER_PLACE_TOMB };
typedef struct {
    int action; int card; int src; int dst; int ncards; uint8_t cards[52];
} solver_move;
typedef struct {
    uint64_t positions; uint64_t expanded; double seconds; uint64_t table_bytes;
    uint64_t peak_bytes; int best_score; int max_depth;
} solver_stats;
typedef struct solver solver;
solver *solver_new(const solver_rules *rules, const solver_position *pos,
                   unsigned flags, char *err, int errlen);
void solver_set_limits(solver *s, uint64_t max_positions, double max_seconds, uint64_t max_bytes);
int solver_run(solver *s);
void solver_stop(solver *s);
void solver_get_stats(const solver *s, solver_stats *out);
int solver_line_length(const solver *s, int which);
int solver_line_move(const solver *s, int which, int index, solver_move *out);
void solver_free(solver *s);
"""

def make_builder(absolute: bool = False) -> FFI:
    """The FFI builder; setuptools wants paths relative to the project."""
    def path(p: Path) -> str:
        return str(p if absolute else p.relative_to(ROOT))

    builder = FFI()
    builder.cdef(_DECLS)
    builder.set_source(
        "solver._core",
        '#include "solver.h"',
        sources=[path(CSRC / f) for f in SOURCES],
        include_dirs=[path(CSRC)],
        extra_compile_args=["-O2", "-std=c11", "-D_POSIX_C_SOURCE=200809L", "-Wall", "-Wextra"],
    )
    return builder


ffibuilder = make_builder()

if __name__ == "__main__":
    # Build in build/inplace, then rename over solver/: a process that has the
    # old module loaded keeps its (unchanged) file.
    import os

    built = make_builder(absolute=True).compile(tmpdir=str(ROOT / "build" / "inplace"), verbose=False)
    os.replace(built, ROOT / "solver" / os.path.basename(built))
