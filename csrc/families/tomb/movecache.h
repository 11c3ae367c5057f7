/* movecache.h - the moves cache of the summaries by control states.
 *
 * Under one top card, the moves of a control state other than the top
 * card's own, and the control states they lead to (the summaries of the
 * cards pushed composed in), are the same under any other top card:
 * nothing in them reads the top card (docs/search.md, "the moves cache").
 * A state met again under another top - nine times in ten on the hardest
 * Finnish deals - takes them from here instead of playing its moves and
 * composing the summaries of its pushes again. A record (the state, the
 * count, the level of the others' forced rule and the best score, the
 * states) is kept in a line of 8 words, direct mapped by the state's hash (a
 * later state in the same line replaces the earlier): in it, up to 6 states
 * (four records in five); the states of a longer one go round a ring of
 * words, and are gone once the ring has gone past them. One line per
 * lookup, fetched as the state joins the summary's states. A cache: a record
 * lost is worked out again.
 */
#ifndef MOVECACHE_H
#define MOVECACHE_H

#include "memo.h"

#define MOVES_LINES (1ull << 17)    /* lines of 8 words: 8 MiB */
#define MOVES_INLINE 6
#define MOVES_RING (1ull << 18)     /* words: 2 MiB */
#define MOVES_FROM (1ull << 12)     /* summaries stored before the cache is made */

/* A record found in the cache: its states are base[(at + i) & mask] for
 * i < len; best: its best score; forced: the level of the others' forced rule. */
typedef struct {
    const uint64_t *base;
    uint64_t at, mask, len;
    int best, forced;
} moves_record;

static inline uint64_t *moves_line(const memo *m, uint64_t q)
{
    return &m->lines[(mix64(q + 1) & (MOVES_LINES - 1)) * 8];
}

void moves_free(memo *m);
/* Makes the cache if the memo is large enough to pay for it and the memory
 * limit leaves room (once: not again if it fails); whether it is there. */
int moves_make(memo *m);
/* Keeps the record of q (the states from succ[from] on) in the cache
 * (made), and takes it off succ. */
void moves_keep(memo *m, uint64_t q, uint64_t from, int best, int forced);

/* Whether the cache is there, made now if it is time. */
static inline int moves_ready(memo *m)
{
    return m->ring ? 1 : moves_make(m);
}

/* Whether the cache (made) holds the record of q; fills *rec. */
static inline int moves_cached(const memo *m, uint64_t q, moves_record *rec)
{
    const uint64_t *line = moves_line(m, q);
    if (line[0] != q + 1)
        return 0;
    uint64_t head = line[1];
    rec->len = head >> 11;
    rec->forced = (int)(head >> 8) & 7;
    rec->best = (int)(head & 0xff);
    if (rec->len <= MOVES_INLINE) {
        rec->base = line + 2;
        rec->at = 0;
        rec->mask = 7;
        return 1;
    }
    /* In the ring: gone if the ring has come round to its start since. */
    uint64_t start = line[2];
    if (m->ring_pos - start > MOVES_RING)
        return 0;
    rec->base = m->ring;
    rec->at = start;
    rec->mask = MOVES_RING - 1;
    return 1;
}

static inline uint64_t moves_state(const moves_record *rec, uint64_t i)
{
    return rec->base[(rec->at + i) & rec->mask];
}

/* Appends a state to the record being worked out; -1 if out of memory. */
int succ_grow(memo *m);
static inline int succ_push(memo *m, uint64_t x)
{
    if (m->succ_n == m->succ_cap && succ_grow(m) < 0)
        return -1;
    m->succ[m->succ_n++] = x;
    return 0;
}

#endif
