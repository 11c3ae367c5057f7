/* movecache.c - the moves cache made, kept into and freed (movecache.h). */
#include "movecache.h"

void moves_free(memo *m)
{
    mem_free_huge(m->mem, SOLVER_MEM_CACHES, m->ring, MOVES_RING * sizeof(uint64_t));
    mem_free_huge(m->mem, SOLVER_MEM_CACHES, m->lines, 8 * MOVES_LINES * sizeof(uint64_t));
    m->ring = m->lines = NULL;
}

int moves_make(memo *m)
{
    const mem_account *a = m->mem;
    const uint64_t bytes = (MOVES_RING + 8 * MOVES_LINES) * sizeof(uint64_t);
    if (m->count < MOVES_FROM || m->ring_pos || (a->max && a->held + bytes > a->max / 2))
        return 0;
    m->ring = mem_alloc_huge(m->mem, SOLVER_MEM_CACHES, MOVES_RING * sizeof(uint64_t));
    m->lines = mem_alloc_huge(m->mem, SOLVER_MEM_CACHES, 8 * MOVES_LINES * sizeof(uint64_t));
    if (!m->ring || !m->lines) {
        moves_free(m);
        m->ring_pos = 1;   /* not again */
        return 0;
    }
    return 1;
}

int succ_grow(memo *m)
{
    uint64_t cap = m->succ_cap ? 2 * m->succ_cap : 1024;
    uint64_t *v = mem_resize(m->mem, SOLVER_MEM_SETS, m->succ, m->succ_cap * sizeof(uint64_t), cap * sizeof(uint64_t));
    if (!v)
        return -1;
    m->succ = v;
    m->succ_cap = cap;
    return 0;
}

/* The states of the record from succ[from], len of them, once each in
 * their order (pushes often lead to the same states): added in this
 * order, they have the effect the moves had. Returns how many are left,
 * or -1 if out of memory. */
static int64_t moves_once(memo *m, uint64_t from, uint64_t len)
{
    if (stampset_start(&m->once, m->mem) < 0)
        return -1;
    uint64_t n = 0;
    for (uint64_t i = 0; i < len; i++) {
        int r = stampset_add(&m->once, m->mem, m->succ[from + i]);
        if (r < 0)
            return -1;
        if (r)
            m->succ[from + n++] = m->succ[from + i];
    }
    return (int64_t)n;
}

void moves_keep(memo *m, uint64_t q, uint64_t from, int best, int forced)
{
    uint64_t len = m->succ_n - from;
    m->succ_n = from;
    if (len > MOVES_RING / 16)
        return;
    int64_t once = moves_once(m, from, len);
    if (once < 0)
        return;
    len = (uint64_t)once;
    uint64_t *line = moves_line(m, q);
    line[0] = q + 1;
    line[1] = (len << 11) | ((uint64_t)forced << 8) | (uint64_t)best;
    if (len <= MOVES_INLINE) {
        if (len)    /* none: succ may not be allocated yet (memcpy wants a pointer) */
            memcpy(line + 2, m->succ + from, len * sizeof(uint64_t));
        return;
    }
    uint64_t start = m->ring_pos;
    for (uint64_t i = 0; i < len; i++)
        m->ring[(start + i) & (MOVES_RING - 1)] = m->succ[from + i];
    m->ring_pos = start + len;
    line[2] = start;
}
