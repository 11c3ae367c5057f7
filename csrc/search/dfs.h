/* dfs.h - the depth-first search engine of every family.
 *
 * Every position reachable from the root (through the moves the family
 * generates) is stored once in the family's exact store and expanded once.
 * The search stops at the first win; if the stack empties, every reachable
 * position was explored and none is won: the deal is lost, and the best
 * score is the highest score of any stored position, with the line that
 * reached it. A limit stops a run between two positions, leaving the stack
 * as it is, so the next run goes on from there.
 *
 * A driver embeds a `dfs` and describes its family and store in a `static
 * const dfs_ops`. The loop is made of inline functions so that, with the ops
 * a constant, the compiler calls the family's functions directly (the Tomb's
 * search goes through hundreds of thousands of positions a second).
 *
 * A frame is frame_size bytes the family lays out: a state, what its
 * children's keys are made from, its moves and which it tries next. A child
 * is made in the frame above its parent, so pushing it copies nothing.
 */
#ifndef DFS_H
#define DFS_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "solver.h"
#include "clock.h"
#include "mem.h"

#define DFS_GO_ON (-1)   /* a step's answer: no status yet */
#define DFS_CAPPED (-3)  /* a run stopped at the cap of its store (dfs_run) */

/* The store of exact keys (table.c, ctable.c); ctx is the driver's. */
typedef struct {
    /* Makes the store if it is not made yet; -1 if memory runs out. */
    int (*init)(void *ctx);
    /* Stores the key of `frame` (made by ops root or child), using what
     * `parent` keeps (NULL at the root); 1 if it was new, 0 if known. */
    int (*insert)(void *ctx, const void *parent, void *frame);
    int (*needs_growth)(const void *ctx);
    int (*grow)(void *ctx);   /* -1 if memory runs out */
    uint64_t (*count)(const void *ctx);
} dfs_store_ops;

/* Options of a family's search: the store's cap and growth are checked
 * before a frame whose moves are all tried is popped (else after); a stop
 * clears the flag obeyed even when it is a parent's. */
enum { DFS_LIMITS_BEFORE_POP = 1, DFS_CLEAR_SHARED_STOP = 2 };

typedef struct {
    dfs_store_ops store;
    size_t move_size;
    int first_frames;        /* frames of the first stack */
    int line_extra;          /* moves a line's room holds beyond the stack's frames */
    unsigned options;        /* DFS_* below */
    void (*root)(void *ctx, void *frame);          /* the root's state and key */
    int (*exhausted)(const void *frame);           /* all its moves tried? */
    const void *(*take)(void *frame);              /* the next move, counted as tried */
    const void *(*current)(const void *frame);     /* the move being tried */
    /* The state after move m of `parent`, with its key (for store insert). */
    void (*child)(void *ctx, const void *parent, const void *m, void *frame);
    int (*score)(const void *ctx, const void *frame);
    /* Optional: 1 to store a child reached by m but not expand it (best:
     * the best score seen); each family argues its soundness. */
    int (*prune)(void *ctx, const void *frame, const void *m, int best);
    /* The frame's moves, in the order to try them, none tried yet. */
    void (*expand)(void *ctx, void *frame);
} dfs_ops;

typedef struct {
    unsigned char *stack;    /* frames of frame_size bytes */
    size_t frame_size;
    int depth, stack_cap;    /* frames in use, frames allocated */
    int started, finished, status;
    int max_score;           /* a won position's score */
    uint64_t max_positions;  /* 0: none; on stats.positions */
    double max_seconds;      /* 0: none; on stats.seconds */
    int stop;                /* set from any thread */
    int *stopp;              /* the stop this search obeys: its own, or a parent's */
    uint64_t earlier;        /* positions not in the store: stats.positions = earlier + count */
    solver_stats stats;
    void *win_line, *best_line;   /* moves of move_size bytes */
    int win_len, best_len;
    uint64_t win_cap, best_cap;   /* bytes charged for each line */
    mem_account *mem;        /* the account charged */
} dfs;

/* Sets up an empty search of frames of frame_size bytes. */
void dfs_init(dfs *e, size_t frame_size, int max_score, mem_account *mem);
/* The limits of dfs_run: seconds (0: none) and the account's bytes (0: none). */
void dfs_set_limits(dfs *e, double max_seconds, uint64_t max_bytes);
/* Safe to call from another thread: the run returns SOLVER_INTERRUPTED soon. */
void dfs_stop(dfs *e);
/* Records the status; a win or a loss is final. */
int dfs_finish(dfs *e, int status);
/* Doubles the stack and makes the lines' room as long; -1 (nothing
 * changed but the lines' room) if the memory limit or the system refuses. */
int dfs_grow_stack(dfs *e, const dfs_ops *ops);
/* The moves from the root through the move each frame is trying (the line
 * to the child of the top frame) into *line; its length, or -1. */
int dfs_copy_line(dfs *e, const dfs_ops *ops, void **line, uint64_t *cap);
/* A new run from the root over the same store, which the driver empties:
 * the positions it held (stored) count in `earlier`; the stats, the lines
 * and the memory of the stack and lines are kept (a restart). */
void dfs_rewind(dfs *e, uint64_t stored);
/* As dfs_rewind, and the stats, lines and status as dfs_init leaves them:
 * a search of its own again, in the memory of the last. */
void dfs_reset(dfs *e);
/* Frees the stack and the lines. */
void dfs_free(dfs *e);

/* The restarts' random numbers (xorshift): the next of *seed, non-zero. */
static inline uint64_t dfs_next_rand(uint64_t *seed)
{
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    return *seed;
}

static inline void *dfs_frame(const dfs *e, int i)
{
    return e->stack + (size_t)i * e->frame_size;
}

/* The frame at e->depth becomes the top and gets its moves. */
static inline __attribute__((always_inline)) void dfs_push(dfs *e, const dfs_ops *ops, void *ctx)
{
    ops->expand(ctx, dfs_frame(e, e->depth++));
    if (e->depth > e->stats.max_depth)
        e->stats.max_depth = e->depth;
    e->stats.expanded++;
}

/* The first run: the store, the root stored and pushed. DFS_GO_ON, or the
 * status (a root already won, or memory). */
static inline int dfs_start(dfs *e, const dfs_ops *ops, void *ctx, double start, double spent)
{
    /* The store is made by the first run, under its limits. */
    if (ops->store.init(ctx) < 0)
        return dfs_finish(e, SOLVER_LIMIT_MEMORY);
    void *root = calloc(1, e->frame_size);   /* the stack may not be made yet */
    if (!root)
        return dfs_finish(e, SOLVER_LIMIT_MEMORY);
    e->started = 1;
    ops->root(ctx, root);
    ops->store.insert(ctx, NULL, root);
    e->stats.positions = e->earlier + ops->store.count(ctx);
    int won = ops->score(ctx, root) == e->max_score;
    if (!won && e->depth == e->stack_cap && dfs_grow_stack(e, ops) < 0) {
        free(root);
        e->started = 0;
        return dfs_finish(e, SOLVER_LIMIT_MEMORY);
    }
    if (!won)
        memcpy(dfs_frame(e, e->depth), root, e->frame_size);
    free(root);
    if (won) {
        e->win_len = 0;
        e->stats.seconds = search_clock() - start + spent;
        return dfs_finish(e, SOLVER_WON);
    }
    dfs_push(e, ops, ctx);
    return DFS_GO_ON;
}

/* The stop flag and the clock: DFS_GO_ON or the status. */
static inline int dfs_check_clock(dfs *e, const dfs_ops *ops, double start, double spent)
{
    if (__atomic_load_n(e->stopp, __ATOMIC_RELAXED)) {
        if ((ops->options & DFS_CLEAR_SHARED_STOP) || e->stopp == &e->stop)
            __atomic_store_n(e->stopp, 0, __ATOMIC_RELAXED);
        return SOLVER_INTERRUPTED;
    }
    if (e->max_seconds > 0 && search_clock() - start + spent >= e->max_seconds)
        return SOLVER_LIMIT_SECONDS;
    return DFS_GO_ON;
}

/* The limits on positions and the store's growth: DFS_GO_ON or the status. */
static inline __attribute__((always_inline)) int dfs_check_store(dfs *e, const dfs_ops *ops, void *ctx, uint64_t cap)
{
    if (e->max_positions && e->stats.positions >= e->max_positions)
        return SOLVER_LIMIT_POSITIONS;
    if (cap && ops->store.count(ctx) >= cap)
        return DFS_CAPPED;
    if (ops->store.needs_growth(ctx) && ops->store.grow(ctx) < 0)
        return SOLVER_LIMIT_MEMORY;
    return DFS_GO_ON;
}

/* A new child stored: the best line, the win. DFS_GO_ON or the status. */
static inline __attribute__((always_inline)) int dfs_score(dfs *e, const dfs_ops *ops, int score)
{
    if (score == e->max_score) {
        int len = dfs_copy_line(e, ops, &e->win_line, &e->win_cap);
        if (len < 0)
            return SOLVER_LIMIT_MEMORY;
        e->win_len = len;
        e->stats.best_score = score;
        e->best_len = dfs_copy_line(e, ops, &e->best_line, &e->best_cap);
        return SOLVER_WON;
    }
    if (score > e->stats.best_score) {
        int len = dfs_copy_line(e, ops, &e->best_line, &e->best_cap);
        if (len < 0)
            return SOLVER_LIMIT_MEMORY;
        e->best_len = len;
        e->stats.best_score = score;
    }
    return DFS_GO_ON;
}

/* One step: a frame popped, or one move of the top frame tried. */
static inline __attribute__((always_inline)) int dfs_step(dfs *e, const dfs_ops *ops, void *ctx, uint64_t cap)
{
    int status;
    if ((ops->options & DFS_LIMITS_BEFORE_POP) && (status = dfs_check_store(e, ops, ctx, cap)) != DFS_GO_ON)
        return status;
    if (ops->exhausted(dfs_frame(e, e->depth - 1))) {
        e->depth--;
        return DFS_GO_ON;
    }
    if (!(ops->options & DFS_LIMITS_BEFORE_POP) && (status = dfs_check_store(e, ops, ctx, cap)) != DFS_GO_ON)
        return status;
    /* Room for the child's frame before the child is stored, so that a
     * refusal leaves the move to be tried on the next run. */
    if (e->depth == e->stack_cap && dfs_grow_stack(e, ops) < 0)
        return SOLVER_LIMIT_MEMORY;
    void *f = dfs_frame(e, e->depth - 1), *c = dfs_frame(e, e->depth);
    const void *m = ops->take(f);
    ops->child(ctx, f, m, c);
    if (!ops->store.insert(ctx, f, c))
        return DFS_GO_ON;
    e->stats.positions = e->earlier + ops->store.count(ctx);
    if ((status = dfs_score(e, ops, ops->score(ctx, c))) != DFS_GO_ON)
        return status;
    if (ops->prune && ops->prune(ctx, c, m, e->stats.best_score))
        return DFS_GO_ON;
    dfs_push(e, ops, ctx);
    return DFS_GO_ON;
}

/* The search, from where it stopped. With cap > 0 it returns DFS_CAPPED
 * (and does not record it) once the store holds cap positions. */
static inline __attribute__((always_inline)) int dfs_run(dfs *e, const dfs_ops *ops, void *ctx, uint64_t cap)
{
    if (e->finished)
        return e->status;
    double start = search_clock();
    double spent = e->stats.seconds;
    int status = DFS_GO_ON;
    if (!e->started && (status = dfs_start(e, ops, ctx, start, spent)) != DFS_GO_ON)
        return status;
    uint64_t ticks = 0;
    while (e->depth > 0) {
        /* Limits are checked here, between positions, so a stopped run can go on. */
        if ((++ticks & 1023) == 0 && (status = dfs_check_clock(e, ops, start, spent)) != DFS_GO_ON)
            break;
        if ((status = dfs_step(e, ops, ctx, cap)) != DFS_GO_ON)
            break;
    }
    if (status == DFS_GO_ON)
        status = SOLVER_LOST;
    e->stats.seconds = search_clock() - start + spent;
    e->stats.positions = e->earlier + ops->store.count(ctx);
    if (status == DFS_CAPPED)
        return status;
    return dfs_finish(e, status);
}

#endif
