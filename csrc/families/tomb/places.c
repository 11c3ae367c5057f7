/* places.c - summaries by places: the classic rules.
 *
 * With one card turned at a time, one pass, cells that send only home, no
 * reserve, and cell-home on, the cards out of the talon (in the cells or
 * home) are all the cards turned but those still in the waste, and cell-home
 * leaves them in one arrangement only: the foundations hold the most of them
 * they can take, the cells the rest (docs/search.md, "by places"). So the
 * position in which a card of rank y is on top of the waste is fixed by the
 * place j (how many talon cards were turned) and the ranks under y, and the
 * summary of (j, ranks under, y) is a set of places: those where y can leave
 * the waste. It is found in one sweep of the places from j on, since a turn
 * only leads to later places, and kept in the entry itself: the exits as a
 * 53-bit mask, the best score above them.
 */

#include <string.h>

#include "memo_shared.h"
#include "tomb_rules.h"

#define PLACES_MASK ((1ull << 53) - 1)
#define PLACES_BEST(v) ((int)((v) >> 53))

/* The foundations' closure of the cards out, by rank counts c[1..13]. */
typedef struct {
    int score, ncells, tomb, n[14];
} closure;

static void close_out(const int *c, closure *o)
{
    int prev = 4, score = 0, cells = 0;
    for (int r = 7; r <= 13; r++) {   /* n[r]: corners holding rank r */
        int k = c[r] < prev ? c[r] : prev;
        o->n[r] = k;
        score += k;
        cells += c[r] - k;
        prev = k;
    }
    int rounds = 4, k = 0;            /* the tomb: whole rounds 6..A, then a part */
    for (int r = 1; r <= 6; r++)
        if (c[r] < rounds)
            rounds = c[r];
    if (rounds < 4)
        while (k < 6 && c[6 - k] > rounds)
            k++;
    for (int r = 1; r <= 6; r++)
        cells += c[r] - rounds - (r > 6 - k);
    o->tomb = 6 * rounds + k;
    o->score = score + o->tomb;
    o->ncells = cells;
}

/* The closure after one more card of rank r is out (c[r] already counts
 * it): the same as close_out(c) from the closure before, in a few steps. The
 * card goes home if it fits, and then the cell cards it lets follow. */
static void close_add(const int *c, int r, closure *o)
{
    if (r >= 7) {
        if (o->n[r] >= (r == 7 ? 4 : o->n[r - 1])) {
            o->ncells++;
            return;
        }
        o->n[r]++;
        o->score++;
        for (int s = r + 1; s <= 13 && o->n[s] < c[s] && o->n[s] < o->n[s - 1]; s++) {
            o->n[s]++;
            o->score++;
            o->ncells--;
        }
        return;
    }
    if (tomb_wants(o->tomb) != r) {
        o->ncells++;
        return;
    }
    o->tomb++;
    o->score++;
    /* The tomb holds (tomb + q - 1) / 6 cards of rank q; the rest are in cells. */
    while (tomb_wants(o->tomb)) {
        int q = tomb_wants(o->tomb);
        if (c[q] <= (o->tomb + q - 1) / 6)
            break;
        o->tomb++;
        o->score++;
        o->ncells--;
    }
}

static int closure_fits(const closure *o, int y)
{
    if (y <= 6)
        return y > 0 && tomb_wants(o->tomb) == y;
    if (y == 7)
        return o->n[7] < 4;
    return o->n[y - 1] > o->n[y];
}

/* The forced endgame (stock empty) from the cards out c, with y on the real
 * waste m->chain: whether it brings every card home. */
static int places_endgame(const memo *m, const int *c0, int y)
{
    int c[14];
    memcpy(c, c0, sizeof c);
    for (int k = m->chain_n;;) {
        closure o;
        close_out(c, &o);
        if (!closure_fits(&o, y) && o.ncells >= m->ncells)
            return 0;
        c[y]++;
        if (k == 0)
            return 1;
        y = m->chain[--k];
    }
}

/* The key of the summary of y on top at place e with the cards out c: the
 * place, y, and the cards out with the cell cards that are stuck for the
 * whole summary left out and only counted. A cell card is stuck when the
 * foundation it waits for cannot get there while y is on top, since only the
 * stock from e on and the cells (not stuck) can still bring cards home
 * (docs/search.md, `stuck-cells`). Two positions that differ only in which
 * stuck cards fill those cells have the same summary. With
 * frozen-foundations, the tomb, or the corners, that cannot change while y
 * is on top are left out too: a flag says so (docs/search.md). */
static uint64_t places_key(const memo *m, int e, int y, const int *c, const closure *o)
{
    const unsigned flags = m->game->flags;
    const int drop = (flags & SOLVER_STUCK_CELLS) != 0;
    /* Not where the waste is capped (the win phases): there the depth (the
     * cards turned less the cards out) must follow from the key, and a
     * foundation left out would hide cards out. */
    const int freeze = drop && (flags & SOLVER_FROZEN_FOUNDATIONS) && !m->waste_cap;
    const uint8_t *all = m->pre[m->ntalon], *before = m->pre[e];
    uint64_t key = 0;
    int stuck = 0;
    /* Corners: a card of rank r in a cell fits only once more corners hold
     * an r - 1, so going up the ranks once finds every stuck one. grows: the
     * corners holding rank r can become more while y is on top - a copy can
     * still come home (from the stock from e on, or a cell, not stuck) and a
     * corner wants it now or may later (7s: an empty corner). */
    int grows = all[7] - before[7] > 0, corners_move = grows;
    key |= (uint64_t)c[7] << 18;
    for (int r = 8; r <= 13; r++) {
        int cells = c[r] - o->n[r], acc = all[r] - before[r] + cells, out = c[r];
        if (drop && cells && !grows) {
            out -= cells;
            acc -= cells;
            stuck += cells;
        }
        key |= (uint64_t)out << (3 * (r - 1));
        grows = acc > 0 && (o->n[r - 1] > o->n[r] || grows);
        corners_move |= grows;
    }
    /* The tomb: a card waits for every rank from the one the tomb wants down
     * to its own, so going round from that rank once finds every stuck one.
     * The tomb cannot change when no copy of the rank it wants (the first
     * one here) can come home and y is not one. */
    int rounds = o->tomb / 6, part = o->tomb % 6, blocked = 0, tomb_moves = 1;
    for (int i = 0, q = 6 - part; i < 6; i++, q = q == 1 ? 6 : q - 1) {
        int cells = c[q] - rounds - (q > 6 - part), acc = all[q] - before[q] + cells, out = c[q];
        if (drop && cells && blocked) {
            out -= cells;
            acc -= cells;
            stuck += cells;
        }
        key |= (uint64_t)out << (3 * (q - 1));
        if (i == 0)
            tomb_moves = acc > 0 || y == q;
        blocked |= !acc;
    }
    /* frozen-foundations: the ranks 1-6 (bits 0-17) or 7-13 (bits 18-38)
     * out are then the tomb's or the corners' cards alone (the cell cards
     * are stuck, left out above); flags in bits 52 and 53, and whether y fits
     * the still corners in bit 54. */
    if (freeze && !tomb_moves)
        key = (key & ~((1ull << 18) - 1)) | (1ull << 52);
    if (freeze && !corners_move)
        key = (key & ~(((1ull << 21) - 1) << 18)) | (1ull << 53) | ((uint64_t)(y >= 7 && closure_fits(o, y)) << 54);
    return key | ((uint64_t)e << 46) | ((uint64_t)y << 42) | ((uint64_t)stuck << 39);
}

/* The cards out when y is on top at place e over the ranks b. */
static void places_out(const memo *m, int e, uint64_t b, int y, int *c)
{
    for (int r = 1; r <= 13; r++)
        c[r] = 4 - m->pre[m->ntalon][r] + m->pre[e][r] - (int)((b >> (3 * (r - 1))) & 7) - (r == y);
}

/* Whether y on top at place j, with the closure o, goes home and nothing
 * else: seven-home, waste-home, or any card that fits in a greedy win phase. */
static inline int places_forced(const memo *m, const closure *o, int y, int j)
{
    const unsigned flags = m->game->flags;
    if ((flags & SOLVER_FORCE_SEVEN_HOME) && y == 7)
        return 1;
    int fit = closure_fits(o, y);
    return (m->greedy && fit) || ((flags & SOLVER_FORCE_WASTE_HOME) && fit && m->game->stock_first[y] >= m->ntalon - j);
}

/* A sweep of the places of one summary (y on top): the cards out at the
 * place reached and their closure, the places reached, the summary's exits
 * and best score so far; above: the ranks in the waste under a card turned
 * (y's and those under it). */
typedef struct {
    int c[14];
    closure o;
    uint64_t reach, exits, above;
    int best, y, depth;
} sweep;

static int places_summary(memo *m, int e, uint64_t b, int y, int depth, uint64_t key, const int *c0, const closure *o0,
                          uint64_t *val);

/* The turn at place j: the summary of the card turned, from the recent
 * turns or worked out, and the places where it leaves reached. */
static int sweep_turn(memo *m, sweep *sw, int j)
{
    int status;
    const int turned = m->talon[j];
    if (j + 1 < m->ntalon && places_forced(m, &sw->o, turned, j + 1)) {
        /* The card turned goes home at once: its summary is its one
         * position, the place after the turn, with the same cards out (so
         * the same score), and its one exit (it fits: a turned 7 always
         * does, since it is not out, and the other two rules ask it). */
        m->positions++;
        status = check(m);
        if (status >= 0)
            return status;
        sw->reach |= 2ull << j;
        return -1;
    }
    /* The turn's pair: the ranks under the card turned (3 bits a rank, 39
     * bits) and the place after it (never 0). */
    uint64_t turn = sw->above | (uint64_t)(j + 1) << 39, v;
    entry *recent = &m->recent[mix64(turn) >> (64 - RECENT_BITS)];
    if (recent->key == turn)
        v = recent->val;
    else {
        if (sw->y)
            m->chain[m->chain_n++] = sw->y;
        status = places_summary(m, j + 1, sw->above, turned, sw->depth + 1, places_key(m, j + 1, turned, sw->c, &sw->o),
                                sw->c, &sw->o, &v);
        if (sw->y)
            m->chain_n--;
        if (status >= 0)
            return status;
        recent->key = turn;
        recent->val = v;
    }
    sw->reach |= v & PLACES_MASK;
    if (PLACES_BEST(v) > sw->best)
        sw->best = PLACES_BEST(v);
    return -1;
}

/* Place j of the sweep: counted, its score, an exit if y can leave here;
 * *forced: y goes home here and nothing else. Returns -1, or a status. */
static inline int sweep_visit(memo *m, sweep *sw, int j, int *forced)
{
    m->positions++;
    int status = check(m);
    if (status >= 0)
        return status;
    if (sw->o.score > sw->best)
        sw->best = sw->o.score;
    *forced = 0;
    if (sw->y) {
        int fit = closure_fits(&sw->o, sw->y);
        /* The score after y leaves is not this summary's: it may bring
         * stuck cards home, which the key leaves out. The summary or the
         * composition that goes on from the exit counts it. */
        if (fit || sw->o.ncells < m->ncells)
            sw->exits |= 1ull << j;
        *forced = places_forced(m, &sw->o, sw->y, j);
    }
    if (m->target && sw->best >= m->target)
        return MEMO_FOUND;
    return -1;
}

/* The reached places from e on, in order: j goes from one to the next,
 * turning the cards in between, and the sweep ends after the last. */
static inline int places_sweep(memo *m, sweep *sw, int e)
{
    const int n = m->ntalon;
    for (int j = e;;) {
        int forced, status = sweep_visit(m, sw, j, &forced);
        if (status >= 0)
            return status;
        if (j == n)
            return m->target == 52 && sw->y && places_endgame(m, sw->c, sw->y) ? MEMO_FOUND : -1;
        if (!forced && !(m->waste_cap && sw->depth >= m->waste_cap)) {
            status = sweep_turn(m, sw, j);
            if (status >= 0)
                return status;
        }
        uint64_t later = sw->reach >> (j + 1);
        if (!later)
            return -1;
        for (int to = j + 1 + __builtin_ctzll(later); j < to; j++) {
            sw->c[m->talon[j]]++;
            close_add(sw->c, m->talon[j], &sw->o);
        }
    }
}

/* The summary of a card of rank y (0: the empty waste) on top at place e,
 * over the ranks b (3-bit counts) under it, with depth cards in the waste (y
 * included); key is places_key(m, e, y, c0, o0), c0 and o0 the cards out at
 * e and their closure. Returns -1 and sets *val, or a status. With a waste
 * cap, the depth is a function of the key (the cards turned less the cards
 * out), so the summaries of one memo stay consistent. Stored: the best
 * counted from the entry's score, which the foundations left out of the key
 * change (frozen-foundations). Not stored: the probe ends at the empty slot
 * where it will go, unless the table grows meanwhile (the summaries nested
 * in it only fill slots, so the free slot is this one or a later one). */
static int places_summary(memo *m, int e, uint64_t b, int y, int depth, uint64_t key, const int *c0, const closure *o0,
                          uint64_t *val)
{
    uint64_t slot, cap = m->cap;
    const entry *en = memo_probe(m, key, &slot);
    if (en) {
        *val = en->val + ((uint64_t)o0->score << 53);
        return -1;
    }
    sweep sw;
    memcpy(sw.c, c0, sizeof sw.c);
    sw.o = *o0;
    sw.reach = 1ull << e;
    sw.exits = 0;
    sw.above = y ? b + (1ull << (3 * (y - 1))) : b;
    sw.best = 0;
    sw.y = y;
    sw.depth = depth;
    int status = places_sweep(m, &sw, e);
    if (status >= 0)
        return status;
    if ((m->count + 1) * 4 > m->cap * 3 && entries_grow(m) < 0)
        return SOLVER_LIMIT_MEMORY;
    uint64_t j = cap == m->cap ? slot : mix64(key + 1) & (m->cap - 1);
    entry *entries = memo_entries(m);
    while (entries[j].key)
        j = (j + 1) & (m->cap - 1);
    entries[j].key = key + 1;
    entries[j].val = sw.exits | ((uint64_t)(sw.best - o0->score) << 53);
    *val = sw.exits | ((uint64_t)sw.best << 53);
    m->count++;
    return -1;
}

/* The summary of y on top at place e over the ranks b, depth cards in the
 * waste, entered from a composition (the cards out computed here). */
static int places_enter(memo *m, int e, uint64_t b, int y, int depth, uint64_t *val)
{
    int c[14];
    closure o;
    places_out(m, e, b, y, c);
    close_out(c, &o);
    return places_summary(m, e, b, y, depth, places_key(m, e, y, c, &o), c, &o, val);
}

/* memo_best by places: compose the summaries of the waste top down, then the
 * empty waste's. */
int places_best(memo *m, const tomb_state *s, int *best)
{
    int n = m->ntalon, j = n - s->nstock, w = s->nwaste;
    int c[14];
    uint64_t b = 0;
    for (int r = 1; r <= 13; r++)
        c[r] = 4 - m->pre[n][r] + m->pre[j][r];
    for (int i = 0; i < w; i++) {
        m->chain[i] = RANK(s->waste[i]);
        c[m->chain[i]]--;
        if (i < w - 1)
            b += 1ull << (3 * (m->chain[i] - 1));
    }
    closure o;
    close_out(c, &o);
    *best = o.score > tomb_score(s) ? o.score : tomb_score(s);
    m->trail_n = 0;
    m->found_n = 0;
    int st = -1;
    uint64_t cur = 1ull << j;
    for (int k = w - 1; k >= 0 && st < 0 && !(m->target && *best >= m->target); k--) {
        uint64_t next = 0;
        for (uint64_t x = cur; x && st < 0; x &= x - 1) {
            uint64_t v;
            m->chain_n = k;
            st = places_enter(m, __builtin_ctzll(x), b, m->chain[k], k + 1, &v);
            if (st < 0) {
                next |= v & PLACES_MASK;
                if (PLACES_BEST(v) > *best)
                    *best = PLACES_BEST(v);
            }
        }
        cur = next;
        if (k > 0)
            b -= 1ull << (3 * (m->chain[k - 1] - 1));
    }
    for (uint64_t x = cur; x && st < 0 && !(m->target && *best >= m->target); x &= x - 1) {
        uint64_t v;
        m->chain_n = 0;
        st = places_enter(m, __builtin_ctzll(x), 0, 0, 0, &v);
        if (st < 0 && PLACES_BEST(v) > *best)
            *best = PLACES_BEST(v);
    }
    if (st == MEMO_FOUND || (st < 0 && m->target && *best >= m->target)) {
        *best = m->target;
        return -1;
    }
    return st;
}
