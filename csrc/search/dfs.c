/* dfs.c - the parts of the search engine (dfs.h) off its hot path. */
#include <string.h>

#include "dfs.h"

void dfs_init(dfs *e, size_t frame_size, int max_score, mem_account *mem)
{
    memset(e, 0, sizeof *e);
    e->frame_size = frame_size;
    e->max_score = max_score;
    e->mem = mem;
    e->stopp = &e->stop;
    e->status = -1;
}

void dfs_set_limits(dfs *e, double max_seconds, uint64_t max_bytes)
{
    e->max_seconds = max_seconds;
    e->mem->max = max_bytes;
}

void dfs_stop(dfs *e)
{
    __atomic_store_n(&e->stop, 1, __ATOMIC_RELAXED);
}

int dfs_finish(dfs *e, int status)
{
    e->status = status;
    if (status == SOLVER_WON || status == SOLVER_LOST)
        e->finished = 1;
    return status;
}

/* The search grows the stack before it stores a position (dfs_step), and
 * the lines with it, so that copying a line finds its room made. */
int dfs_grow_stack(dfs *e, const dfs_ops *ops)
{
    int cap = e->stack_cap ? e->stack_cap * 2 : ops->first_frames;
    uint64_t line = ops->move_size * (uint64_t)(cap + ops->line_extra);
    if (mem_reserve(e->mem, SOLVER_MEM_LINES, &e->win_line, &e->win_cap, line) < 0
        || mem_reserve(e->mem, SOLVER_MEM_LINES, &e->best_line, &e->best_cap, line) < 0)
        return -1;
    unsigned char *st = mem_resize(e->mem, SOLVER_MEM_STACK, e->stack, e->frame_size * (size_t)e->stack_cap,
                                   e->frame_size * (size_t)cap);
    if (!st)
        return -1;
    e->stack = st;
    e->stack_cap = cap;
    return 0;
}

int dfs_copy_line(dfs *e, const dfs_ops *ops, void **line, uint64_t *cap)
{
    if (mem_reserve(e->mem, SOLVER_MEM_LINES, line, cap, ops->move_size * (uint64_t)(e->depth + ops->line_extra)) < 0)
        return -1;
    unsigned char *l = *line;
    for (int i = 0; i < e->depth; i++)
        memcpy(l + (size_t)i * ops->move_size, ops->current(dfs_frame(e, i)), ops->move_size);
    return e->depth;
}

void dfs_rewind(dfs *e, uint64_t stored)
{
    e->earlier += stored;
    e->depth = 0;
    e->started = 0;
}

void dfs_reset(dfs *e)
{
    dfs_rewind(e, 0);
    e->earlier = 0;
    e->finished = 0;
    e->status = -1;
    memset(&e->stats, 0, sizeof e->stats);
    e->win_len = e->best_len = 0;
}

void dfs_free(dfs *e)
{
    mem_free(e->mem, SOLVER_MEM_STACK, e->stack, e->frame_size * (size_t)e->stack_cap);
    mem_free(e->mem, SOLVER_MEM_LINES, e->win_line, e->win_cap);
    mem_free(e->mem, SOLVER_MEM_LINES, e->best_line, e->best_cap);
    e->stack = NULL;
    e->win_line = e->best_line = NULL;
    e->stack_cap = 0;
    e->win_cap = e->best_cap = 0;
}
