/* mem.h - one account of the large blocks a search holds, and the memory
 * limit checked against it before a block is made or grown.
 *
 * Every block that grows with the search (the position tables, the
 * summaries and their arena, the caches, the search stack, the working sets
 * of the summaries, the lines) is made, grown and freed here, and charged to
 * the account of the search, by part. A search, the searches it starts (the
 * restarts, the classic phase) and its summaries share one account, so the
 * limit is on their total. A growth that would take the total past the limit
 * is refused before anything is allocated: the caller stops with
 * SOLVER_LIMIT_MEMORY, its state unchanged. A block that moves holds its old
 * and new copies at once, and both are charged while both exist.
 *
 * Blocks of MEM_MAP_MIN bytes or more are mapped from the system (Linux:
 * mmap, grown by mremap, freed by munmap), so that what the search frees
 * goes back to the system at once and what it holds is what it touched;
 * smaller ones come from malloc, which reuses them from one search to the
 * next (mapped, the 2 MiB table of each small search costs its page
 * faults: classic deals 1-1,500 took 26% more CPU time with 1 MiB). Charges happen only when a block is made,
 * grown or freed, never per position.
 */
#ifndef MEM_H
#define MEM_H

#include <stddef.h>
#include <stdint.h>

#include "solver.h"

/* The parts (SOLVER_MEM_*, solver.h). */
typedef struct {
    uint64_t max;                       /* 0: no limit */
    uint64_t held, peak;                /* bytes held now, and at most */
    uint64_t part[SOLVER_MEM_PARTS];    /* bytes held now, by part */
    uint64_t refused;                   /* the bytes a refused growth asked for (0: none yet) */
    uint64_t refused_held;              /* what was held then, */
    uint64_t refused_part[SOLVER_MEM_PARTS];    /* by part */
} mem_account;

/* The account into stats (after a run that ended with `status`): what is
 * held now, or, after a stop by the memory limit, what was held when the
 * growth was refused (a restart's blocks are freed once it stops). */
void mem_stats(const mem_account *a, int status, solver_stats *out);

/* The account of a search that starts again holding what it holds: the
 * peak is what it holds now, and no growth was refused. */
void mem_restart(mem_account *a);

#define MEM_MAP_MIN (8u << 20)

/* Whether `more` bytes fit under the limit. */
static inline int mem_fits(const mem_account *a, uint64_t more)
{
    return !a->max || (a->held <= a->max && more <= a->max - a->held);
}

/* Charges bytes to a part; -1 (nothing charged, a->refused set) if they do not fit. */
int mem_charge(mem_account *a, int part, uint64_t bytes);
/* Charges bytes whatever the limit (what is already made: a line after the search). */
void mem_note(mem_account *a, int part, uint64_t bytes);
void mem_release(mem_account *a, int part, uint64_t bytes);

/* A zeroed block; NULL if it does not fit or memory runs out. */
void *mem_alloc(mem_account *a, int part, size_t bytes);
/* The same, laid out for huge pages (a table read at random; mapped from
 * 2 MiB on); freed by mem_free_huge, never resized. */
void *mem_alloc_huge(mem_account *a, int part, size_t bytes);
void mem_free_huge(mem_account *a, int part, void *p, size_t bytes);
/* Grows or shrinks block p of `old` bytes (NULL, 0: a new block) to `bytes`,
 * keeping its contents (new bytes are not zeroed); NULL (p unchanged) if it
 * does not fit or memory runs out. */
void *mem_resize(mem_account *a, int part, void *p, size_t old, size_t bytes);
/* Frees block p of `bytes` bytes (NULL: nothing). */
void mem_free(mem_account *a, int part, void *p, size_t bytes);
/* Frees a block made by mem_alloc that no account holds any more. */
void mem_free_uncharged(void *p, size_t bytes);

/* Grows a buffer *p, charged *cap bytes, to hold at least `bytes` (by half
 * as much again); 0, or -1 (unchanged). */
int mem_reserve(mem_account *a, int part, void **p, uint64_t *cap, uint64_t bytes);

#endif
