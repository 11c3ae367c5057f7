/* countset.h - the studies' counters of distinct things (solver_debug_*,
 * solver.h): a set of 64-bit hashes that only counts its members, open
 * addressing at a load of 1/2 at most. Its memory comes from malloc, off the
 * searches' accounts: a study is not a search. */
#ifndef COUNTSET_H
#define COUNTSET_H

#include <stdint.h>
#include <stdlib.h>

typedef struct {
    uint64_t *slot, cap, n;   /* hashes with bit 0 set; 0 is an empty slot */
} countset;

static inline void countset_clear(countset *s)
{
    free(s->slot);
    s->slot = NULL;
    s->cap = s->n = 0;
}

/* Adds hash h: 1 if it was new, 0 if not; if memory runs out it is not
 * counted (the study then counts too few, and says nothing false about a
 * search). */
static inline int countset_add(countset *s, uint64_t h)
{
    h |= 1;
    if (2 * (s->n + 1) > s->cap) {
        uint64_t cap = s->cap ? 2 * s->cap : 1u << 20, *slot = calloc(cap, sizeof *slot);
        if (!slot)
            return 0;
        for (uint64_t i = 0; i < s->cap; i++)
            for (uint64_t j = s->slot[i] & (cap - 1); s->slot[i]; j = (j + 1) & (cap - 1))
                if (!slot[j]) {
                    slot[j] = s->slot[i];
                    break;
                }
        free(s->slot);
        s->slot = slot, s->cap = cap;
    }
    uint64_t j = h & (s->cap - 1);
    for (; s->slot[j] && s->slot[j] != h; j = (j + 1) & (s->cap - 1))
        ;
    if (s->slot[j])
        return 0;
    s->slot[j] = h;
    s->n++;
    return 1;
}

#endif
