/* reduction.h - stuck-cells and frozen-foundations by control states
 * (full-cells): the summaries' keys reduced.
 *
 * docs/search.md: in the summary of a top card X, a cell card that cannot fit
 * a foundation while X is on top is in the cells at every state of the
 * summary, and its rank changes nothing there; a foundation that cannot
 * change while X is on top keeps its value. The key then has a token (15)
 * for each stuck cell card and 31 for a frozen tomb, 7s for frozen corners;
 * the exits are stored the same way and filled back from the entry, and the
 * best score is stored counted from the entry's score.
 */
#ifndef REDUCTION_H
#define REDUCTION_H

#include "control.h"
#include "memo.h"

typedef struct {
    int nstuck, stuck[SOLVER_MAX_CELLS + 1];  /* ranks of the entry's stuck cell cards, then a stuck top's */
    int ntokens;            /* tokens in an exit: the stuck cards, and a stuck top */
    int tomb_frozen;
    int nfrozen, frozen[4]; /* the entry's frozen corners (not complete), as 7s in the key */
    uint64_t q;             /* the entry */
    int base;               /* the entry's score */
} reduction;

/* What can still come home while X is on top, as sets of ranks (bit r):
 * avail, those of which a copy can come home (from the stock, the
 * reserve's 6s, the cells not stuck); stuck, those stuck in the cells. */
typedef struct {
    unsigned cells[4], corners[4];
    unsigned avail, stuck;
    int tomb_wants;         /* the rank the tomb wants (6 once it is broken) */
} reach;

/* The corners: going up the ranks once finds every stuck one. */
static inline void reach_corners(reach *rc, unsigned hand)
{
    unsigned can_show = 0;  /* the ranks some corner can show (6: an empty corner) */
    for (int i = 0; i < 4; i++)
        can_show |= 1u << (6 + rc->corners[i]);
    rc->avail |= hand & (1u << 7);
    for (int r = 8; r <= 13; r++) {
        if ((rc->avail >> (r - 1)) & (can_show >> (r - 2)) & 1)
            can_show |= 1u << (r - 1);
        if ((can_show >> (r - 1)) & 1)
            rc->avail |= hand & (1u << r);
        else
            rc->stuck |= 1u << r;
    }
}

/* The tomb: once round from the rank it wants; a 6 is never stuck (it can
 * always go to the reserve). */
static inline void reach_tomb(reach *rc, unsigned hand, int tomb)
{
    int broken = tomb >= 24;
    rc->tomb_wants = broken ? 6 : 6 - tomb % 6;
    for (int step = 0, r = rc->tomb_wants; step < 6; step++, r = r == 1 ? 6 : r - 1) {
        if (r == 6 || !broken)
            rc->avail |= hand & (1u << r);
        else
            rc->stuck |= 1u << r;
        if (!((rc->avail >> r) & 1))
            broken = 1;
    }
}

static inline void reach_of(const memo *m, uint64_t q, reach *rc)
{
    unsigned hand = 0;
    rc->avail = m->below[q_stock(q)];
    rc->stuck = 0;
    if (q_reserve(q))
        rc->avail |= 1u << 6;
    for (int i = 0; i < 4; i++) {
        rc->cells[i] = q_cell(q, i);
        rc->corners[i] = q_corner(q, i);
        hand |= (1u << rc->cells[i]) & ~1u;
    }
    reach_corners(rc, hand);
    reach_tomb(rc, hand, (int)q_tomb(q));
}

/* stuck-cells: the stuck cell cards become tokens; a top card that cannot
 * fit either leaves only for a cell: it is in the cells at every exit, a
 * token there too. Returns whether the top is one. */
static inline int reduce_stuck(reduction *rd, reach *rc, int top)
{
    for (int i = 0; i < 4; i++)
        if (rc->cells[i] && ((rc->stuck >> rc->cells[i]) & 1)) {
            rd->stuck[rd->nstuck++] = (int)rc->cells[i];
            rc->cells[i] = 15;
        }
    rd->ntokens = rd->nstuck;
    if (top && ((rc->stuck >> top) & 1)) {
        rd->stuck[rd->ntokens++] = top;
        return 1;
    }
    return 0;
}

/* frozen-foundations: a corner whose next rank is not available, and X is
 * not, takes nothing, like a complete corner; the same for the tomb. */
static inline void reduce_frozen(reduction *rd, reach *rc, int top, int tomb)
{
    rd->tomb_frozen = tomb >= 24 || (!((rc->avail >> rc->tomb_wants) & 1) && top != rc->tomb_wants);
    for (int i = 0; i < 4; i++) {
        unsigned k = rc->corners[i];
        if (k < 7 && !((rc->avail >> (7 + k)) & 1) && top != (int)(7 + k)) {
            rd->frozen[rd->nfrozen++] = (int)k;
            rc->corners[i] = 7;
        }
    }
}

/* The key of the summary of (q, top), and how it was reduced. */
static inline uint64_t reduce(const memo *m, uint64_t q, int top, reduction *rd)
{
    rd->nstuck = rd->ntokens = rd->tomb_frozen = rd->nfrozen = 0;
    rd->q = q;
    rd->base = q_score(q);
    const unsigned flags = m->game->flags;
    if (m->by_places || !tomb_full_cells(m->game) || !(flags & (SOLVER_STUCK_CELLS | SOLVER_FROZEN_FOUNDATIONS)))
        return (q << 4) | (uint64_t)top;
    reach rc;
    reach_of(m, q, &rc);
    int top_token = (flags & SOLVER_STUCK_CELLS) ? reduce_stuck(rd, &rc, top) : 0;
    if (flags & SOLVER_FROZEN_FOUNDATIONS)
        reduce_frozen(rd, &rc, top, (int)q_tomb(q));
    uint64_t key = rd->nstuck ? q_set_cells(q, rc.cells) : q;
    if (rd->tomb_frozen)
        key |= Q_TOMB_MASK;
    if (rd->nfrozen)
        key = q_set_corners(key, rc.corners);
    return (key << 4) | (uint64_t)(top_token ? 14 : top);
}

/* The fields of four sorted fields of `bits` bits from bit `shift`. */
static inline void q_get4(uint64_t q, int shift, int bits, unsigned *v)
{
    for (int i = 0; i < 4; i++)
        v[i] = (unsigned)(q >> (shift + bits * (3 - i))) & ((1u << bits) - 1);
}

/* In four sorted fields: for each j < n, one field holding from[j] holds
 * to instead. */
static inline uint64_t q_replace4(uint64_t q, int shift, int bits, int n, const int *from, unsigned to)
{
    unsigned v[4];
    q_get4(q, shift, bits, v);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < 4; i++)
            if ((int)v[i] == from[j]) {
                v[i] = to;
                break;
            }
    return q_set4(q, v, shift, bits);
}

/* An exit of the summary, as stored: the entry's stuck cards as tokens (they
 * are all in the cells), the frozen foundations as in the key. */
static inline uint64_t exit_stored(const reduction *rd, uint64_t x)
{
    if (rd->ntokens)
        x = q_replace4(x, Q_CELLS_SHIFT, 4, rd->ntokens, rd->stuck, 15);
    if (rd->tomb_frozen)
        x |= Q_TOMB_MASK;
    if (rd->nfrozen)
        x = q_replace4(x, Q_CORNERS_SHIFT, 3, rd->nfrozen, rd->frozen, 7);
    return x;
}

/* In four sorted fields: the last n (the largest) become v[0..n-1], sorted back in. */
static inline uint64_t q_fill_last4(uint64_t q, int shift, int bits, int n, const int *v)
{
    unsigned f[4];
    q_get4(q, shift, bits, f);
    for (int j = 0; j < n; j++)
        f[3 - j] = (unsigned)v[j];
    return q_set4(q, f, shift, bits);
}

/* A stored exit filled back from the entry rd (any of its 7s can take back a
 * frozen corner's value: complete corners and frozen ones are alike). The
 * tokens (15) are the largest cells, the 7s the largest corners: in sorted
 * fields, the last ones. */
static inline uint64_t exit_real(const reduction *rd, uint64_t x)
{
    if (rd->ntokens)
        x = q_fill_last4(x, Q_CELLS_SHIFT, 4, rd->ntokens, rd->stuck);
    if (rd->tomb_frozen)
        x = (x & ~(uint64_t)Q_TOMB_MASK) | q_tomb(rd->q);
    if (rd->nfrozen)
        x = q_fill_last4(x, Q_CORNERS_SHIFT, 3, rd->nfrozen, rd->frozen);
    return x;
}

#endif
