"""cffi (API mode) build of the C core: ``solver._core``.

setup.py hands this FFI builder to setuptools (``cffi_modules``); running the
file compiles the module in place for development.
"""

from pathlib import Path

from cffi import FFI

ROOT = Path(__file__).resolve().parent.parent
CSRC = ROOT / "csrc"
SOURCES = ["memo.c", "path.c", "search.c", "table.c", "tomb.c", "gsearch.c", "napoleao.c", "jewel.c"]

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

#define D2_NO_CARD 255
enum { D2_NAPOLEAO = 1, D2_JEWEL = 2 };
enum { D2_EMPTY_NONE = 0, D2_EMPTY_ANY = 1, D2_EMPTY_KING = 2 };
typedef struct {
    int family; int restricted_rounds; int restricted_again; int redeals; int deal_from_last;
    int reserves; int runs_move; int empty_pile; int empty_lid;
} d2_rules;
typedef struct {
    uint8_t stock[104]; int nstock;
    uint8_t piles[12][104]; int npiles[12];
    int kbases[4]; int abases[4]; int redeals; int rounds;
    int turned; uint8_t lid[5];
    uint8_t tableau[8][104]; int ntableau[8];
    uint8_t jewels[13]; int njewels;
    uint8_t reserves[3][104]; int nreserves[3];
    int foundations[4][2];
} d2_position;
#define D2_LAST_COPY_HOME 1
#define D2_INTERCHANGEABLE 2
#define D2_RESTARTS 4
#define D2_DEAD_CARDS 8
#define D2_ALL_SHORTCUTS 15
enum { D2_DEAL, D2_REDEAL, D2_MOVE, D2_TURN, D2_JEWEL_FILL };
enum { D2_PLACE_STOCK, D2_PLACE_PILE, D2_PLACE_KBASE, D2_PLACE_ABASE, D2_PLACE_LID,
       D2_PLACE_SIDE, D2_PLACE_BOTTOM, D2_PLACE_RESERVE, D2_PLACE_FOUNDATION };
typedef struct {
    int action; int card; int src; int src_index; int dst; int dst_index; int ncards; uint8_t cards[12];
} d2_move;
typedef struct d2_solver d2_solver;
d2_solver *d2_new(const d2_rules *rules, const d2_position *pos, unsigned flags, char *err, int errlen);
void d2_set_limits(d2_solver *s, uint64_t max_positions, double max_seconds, uint64_t max_bytes);
int d2_run(d2_solver *s);
void d2_stop(d2_solver *s);
void d2_get_stats(const d2_solver *s, solver_stats *out);
int d2_line_length(const d2_solver *s, int which);
int d2_line_move(const d2_solver *s, int which, int index, d2_move *out);
void d2_free(d2_solver *s);
"""

def make_builder(absolute: bool = False) -> FFI:
    """The FFI builder; setuptools wants paths relative to the project."""
    def path(p: Path) -> str:
        return str(p if absolute else p.relative_to(ROOT))

    builder = FFI()
    builder.cdef(_DECLS)
    builder.set_source(
        "solver._core",
        '#include "solver.h"\n#include "deck2.h"',
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
