/* memo_shared.h - what memo.c, summaries.c and places.c share: the table of
 * summaries' probe, the limits' check, and each kind's memo_best. */
#ifndef MEMO_SHARED_H
#define MEMO_SHARED_H

#include "memo.h"

static inline entry *memo_entries(const memo *m)
{
    return (entry *)m->entries;
}

/* The entry of key, or NULL; *slot: where the probe ended (the entry's
 * slot, or the empty slot where it would go). */
static inline entry *memo_probe(const memo *m, uint64_t key, uint64_t *slot)
{
    entry *e = memo_entries(m);
    uint64_t j = mix64(key + 1) & (m->cap - 1);
    while (e[j].key) {
        if (e[j].key == key + 1)
            break;
        j = (j + 1) & (m->cap - 1);
    }
    *slot = j;
    return e[j].key ? &e[j] : NULL;
}

/* The empty slot where key goes (not in the table). */
static inline uint64_t memo_free_slot(const memo *m, uint64_t key)
{
    uint64_t j = mix64(key + 1) & (m->cap - 1);
    while (memo_entries(m)[j].key)
        j = (j + 1) & (m->cap - 1);
    return j;
}

/* By places, a turn is met again soon: the same place and the same ranks in
 * the waste under the card turned, from another summary (the waste's order
 * differs) or another composition. The summary it leads to, with its cards
 * out, depends on nothing else, so the turn's value - its exits and best
 * score - is kept by that pair in a small table of 2^RECENT_BITS entries
 * (m->recent, in the core's cache): met again, it needs neither the
 * summary's key nor the large table. A value once kept never changes
 * (docs/search.md, `by-places`). */
#define RECENT_BITS 14

/* Doubles the table of summaries; -1 if out of memory. */
int entries_grow(memo *m);

/* The limits read by the clock (memo.c), every 1,024 checks. */
int check_clock(memo *m);

/* Checks the limits; returns a SOLVER_* status, or -1 to go on. Inline: it
 * runs for every position. */
static inline int check(memo *m)
{
    if (m->max_positions && m->positions >= m->max_positions)
        return SOLVER_LIMIT_POSITIONS;
    if ((++m->ticks & 1023) == 0)
        return check_clock(m);
    return -1;
}

/* memo_best by control states (summaries.c) and by places (places.c). */
int controls_best(memo *m, const tomb_state *s, int *best);
int places_best(memo *m, const tomb_state *s, int *best);

/* The one card pushed by a move (summaries.c): its rank, and the control
 * state under it in *q; 0 if the move pushes no card or several. */
int memo_pushed(const tomb_game *g, const tomb_state *st, uint64_t q, tomb_move mv, uint64_t *under);

#endif
