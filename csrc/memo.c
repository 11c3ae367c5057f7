/* memo.c - proofs by shared sub-games (summaries over the waste stack).
 *
 * In a variant with one pass, the waste is a stack: the cards under its top
 * are frozen until everything above them is gone, and the stock is a fixed
 * sequence. So the play above a buried card does not depend on what lies
 * below it. A "control state" q is everything but the waste: the stock height,
 * the cells (a multiset of ranks), the reserve, the corners and the tomb. The
 * summary of (q, r) - a card of rank r on top of the waste in control state
 * q - is the set of control states in which that card leaves the waste (to a
 * cell, a foundation or the reserve), and the best score of any position
 * reached in between. Summaries are computed once and shared by every
 * position that differs only below the card (docs/search.md argues that the
 * search explores exactly the positions of the plain search).
 *
 * A full position is decided by composing summaries from its waste top down
 * to the empty waste (rank 0: the bottom, from which nothing leaves).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "memo.h"

/* Control state packing: nstock 6 | cells 4x4 | nreserve 3 | corners 4x3 | tomb 5 = 42 bits. */
static uint64_t pack(const tomb_game *g, const tomb_state *s)
{
    unsigned c[SOLVER_MAX_CELLS], k[4];
    for (int i = 0; i < SOLVER_MAX_CELLS; i++)
        c[i] = (i < g->rules.cells && s->cells[i] != SOLVER_NO_CARD) ? (unsigned)RANK(s->cells[i]) : 0u;
    for (int i = 1; i < SOLVER_MAX_CELLS; i++)
        for (int j = i; j > 0 && c[j - 1] > c[j]; j--) { unsigned t = c[j]; c[j] = c[j - 1]; c[j - 1] = t; }
    for (int i = 0; i < 4; i++) k[i] = s->corners[i];
    for (int i = 1; i < 4; i++)
        for (int j = i; j > 0 && k[j - 1] > k[j]; j--) { unsigned t = k[j]; k[j] = k[j - 1]; k[j - 1] = t; }
    uint64_t q = s->nstock;
    for (int i = 0; i < SOLVER_MAX_CELLS; i++) q = (q << 4) | c[i];
    q = (q << 3) | s->nreserve;
    for (int i = 0; i < 4; i++) q = (q << 3) | k[i];
    q = (q << 5) | s->tomb;
    return q;
}

/* The state of control state q with one card of rank `top` (0: none) on the
 * waste. Suits do not matter here (the suit symmetry): clubs stand for every
 * card in the cells, the reserve and on the waste; the stock is the real one. */
static void unpack(const memo *m, uint64_t q, int top, tomb_state *s)
{
    memset(s, 0, sizeof *s);
    s->tomb = q & 31; q >>= 5;
    for (int i = 3; i >= 0; i--) { s->corners[i] = q & 7; q >>= 3; }
    s->nreserve = q & 7; q >>= 3;
    for (int i = 0; i < s->nreserve; i++) s->reserve[i] = 5;   /* 6 of clubs */
    for (int i = SOLVER_MAX_CELLS - 1; i >= 0; i--) {
        unsigned r = q & 15; q >>= 4;
        s->cells[i] = r ? (uint8_t)(r - 1) : SOLVER_NO_CARD;
    }
    s->nstock = (uint8_t)q;
    memcpy(s->stock, m->stock, s->nstock);
    if (top) {
        s->waste[0] = (uint8_t)(top - 1);
        s->nwaste = 1;
    }
}

/* ---- a set of uint64 (open addressing; 0 never stored: keys are +1) ---- */

typedef struct { uint64_t *v; uint64_t cap, n; } set64;

static uint64_t mix(uint64_t h)
{
    h ^= h >> 30; h *= 0xbf58476d1ce4e5b9ull; h ^= h >> 27; h *= 0x94d049bb133111ebull; h ^= h >> 31;
    return h;
}

static int set_init(set64 *s, uint64_t cap)
{
    s->cap = cap; s->n = 0;
    s->v = calloc(cap, sizeof(uint64_t));
    return s->v ? 0 : -1;
}

/* 1 new, 0 present, -1 out of memory. */
static int set_add(set64 *s, uint64_t key, uint64_t *bytes)
{
    key += 1;
    if ((s->n + 1) * 4 > s->cap * 3) {
        set64 t;
        if (set_init(&t, s->cap * 2) < 0) return -1;
        *bytes += t.cap * 8 - s->cap * 8;
        for (uint64_t i = 0; i < s->cap; i++)
            if (s->v[i]) {
                uint64_t j = mix(s->v[i]) & (t.cap - 1);
                while (t.v[j]) j = (j + 1) & (t.cap - 1);
                t.v[j] = s->v[i];
                t.n++;
            }
        free(s->v);
        *s = t;
    }
    uint64_t j = mix(key) & (s->cap - 1);
    while (s->v[j]) {
        if (s->v[j] == key) return 0;
        j = (j + 1) & (s->cap - 1);
    }
    s->v[j] = key;
    s->n++;
    return 1;
}

static int set_has(const set64 *s, uint64_t key)
{
    key += 1;
    uint64_t j = mix(key) & (s->cap - 1);
    while (s->v[j]) {
        if (s->v[j] == key) return 1;
        j = (j + 1) & (s->cap - 1);
    }
    return 0;
}

/* ---- the memo: (q, rank) -> exits and best score ---- */

typedef struct { uint64_t key; uint64_t off; uint32_t n; int32_t best; } entry;
#define ENTRIES(m) ((entry *)(m)->entries)

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int memo_init(memo *m, const tomb_game *g, const tomb_state *root)
{
    memset(m, 0, sizeof *m);
    m->game = g;
    memcpy(m->stock, root->stock, root->nstock);
    m->cap = 1u << 14;
    m->entries = calloc(m->cap, sizeof(entry));
    m->arena_cap = 1u << 16;
    m->arena = malloc(m->arena_cap * sizeof(uint64_t));
    if (!m->entries || !m->arena) return -1;
    m->bytes = m->cap * sizeof(entry) + m->arena_cap * sizeof(uint64_t);
    return 0;
}

void memo_free(memo *m)
{
    free(m->entries);
    free(m->arena);
    m->entries = NULL;
    m->arena = NULL;
}

static entry *lookup(memo *m, uint64_t key)
{
    entry *e = ENTRIES(m);
    uint64_t j = mix(key + 1) & (m->cap - 1);
    while (e[j].key) {
        if (e[j].key == key + 1) return &e[j];
        j = (j + 1) & (m->cap - 1);
    }
    return NULL;
}

static int store(memo *m, uint64_t key, const set64 *exits, int best)
{
    if ((m->count + 1) * 4 > m->cap * 3) {
        uint64_t cap = m->cap * 2;
        entry *t = calloc(cap, sizeof(entry));
        if (!t) return -1;
        for (uint64_t i = 0; i < m->cap; i++)
            if (ENTRIES(m)[i].key) {
                uint64_t j = mix(ENTRIES(m)[i].key) & (cap - 1);
                while (t[j].key) j = (j + 1) & (cap - 1);
                t[j] = ENTRIES(m)[i];
            }
        free(m->entries);
        m->bytes += (cap - m->cap) * sizeof(entry);
        m->entries = t;
        m->cap = cap;
    }
    while (m->arena_n + exits->n > m->arena_cap) {
        uint64_t *a = realloc(m->arena, 2 * m->arena_cap * sizeof(uint64_t));
        if (!a) return -1;
        m->bytes += m->arena_cap * sizeof(uint64_t);
        m->arena = a;
        m->arena_cap *= 2;
    }
    uint64_t j = mix(key + 1) & (m->cap - 1);
    while (ENTRIES(m)[j].key) j = (j + 1) & (m->cap - 1);
    entry *e = &ENTRIES(m)[j];
    e->key = key + 1;
    e->off = m->arena_n;
    e->n = (uint32_t)exits->n;
    e->best = best;
    for (uint64_t i = 0; i < exits->cap; i++)
        if (exits->v[i]) m->arena[m->arena_n++] = exits->v[i] - 1;
    m->count++;
    return 0;
}

/* Checks the limits; returns a SOLVER_* status, or -1 to go on. */
static int check(memo *m)
{
    if (m->max_positions && m->positions >= m->max_positions) return SOLVER_LIMIT_POSITIONS;
    if (m->max_bytes && m->bytes + m->extra_bytes > m->max_bytes) return SOLVER_LIMIT_MEMORY;
    if ((++m->ticks & 1023) == 0) {
        if (m->stop && __atomic_load_n(m->stop, __ATOMIC_RELAXED)) return SOLVER_INTERRUPTED;
        if (m->deadline > 0 && now() >= m->deadline) return SOLVER_LIMIT_SECONDS;
    }
    return -1;
}

static int summary(memo *m, uint64_t q, int top, entry **out);

/* Adds to `into` the control states where the cards pushed (top last) have
 * all left the waste again, starting from q; raises *best. */
static int pushes(memo *m, uint64_t q, const int *ranks, int k, set64 *into, int *best, uint64_t *bytes)
{
    if (k == 1) {   /* the common case, without the intermediate sets */
        entry *e;
        int st = summary(m, q, ranks[0], &e);
        if (st >= 0) return st;
        if (e->best > *best) *best = e->best;
        uint64_t off = e->off, n = e->n;
        for (uint64_t x = 0; x < n; x++)
            if (set_add(into, m->arena[off + x], bytes) < 0) return SOLVER_LIMIT_MEMORY;
        return -1;
    }
    set64 cur, next;
    if (set_init(&cur, 16) < 0) return SOLVER_LIMIT_MEMORY;
    set_add(&cur, q, bytes);
    for (int i = k - 1; i >= 0; i--) {
        if (set_init(&next, 16) < 0) { free(cur.v); return SOLVER_LIMIT_MEMORY; }
        for (uint64_t a = 0; a < cur.cap; a++) {
            if (!cur.v[a]) continue;
            entry *e;
            int st = summary(m, cur.v[a] - 1, ranks[i], &e);
            if (st >= 0) { free(cur.v); free(next.v); return st; }
            if (e->best > *best) *best = e->best;
            for (uint32_t x = 0; x < e->n; x++)
                if (set_add(&next, m->arena[e->off + x], bytes) < 0) { free(cur.v); free(next.v); return SOLVER_LIMIT_MEMORY; }
        }
        free(cur.v);
        cur = next;
    }
    for (uint64_t a = 0; a < cur.cap; a++)
        if (cur.v[a] && set_add(into, cur.v[a] - 1, bytes) < 0) { free(cur.v); return SOLVER_LIMIT_MEMORY; }
    free(cur.v);
    return -1;
}

/* The summary of (q, top); top = 0 is the empty waste. Returns -1 and sets
 * *out, or a SOLVER_* status if a limit stopped it. */
static int summary(memo *m, uint64_t q, int top, entry **out)
{
    uint64_t key = (q << 4) | (uint64_t)top;
    entry *e = lookup(m, key);
    if (e) { *out = e; return -1; }
    const tomb_game *g = m->game;
    set64 seen, exits;
    uint64_t *work = NULL;
    uint64_t nwork = 0, capwork = 0, bytes = 0;
    int status = -1, best = 0;
    if (set_init(&seen, 16) < 0 || set_init(&exits, 16) < 0) return SOLVER_LIMIT_MEMORY;
    bytes = 2 * 16 * 8;
    set_add(&seen, q, &bytes);
#define PUSH_WORK(x) do { \
        if (nwork == capwork) { \
            capwork = capwork ? capwork * 2 : 64; \
            uint64_t *w_ = realloc(work, capwork * sizeof(uint64_t)); \
            if (!w_) { status = SOLVER_LIMIT_MEMORY; goto done; } \
            work = w_; \
        } \
        work[nwork++] = (x); \
    } while (0)
    PUSH_WORK(q);
    while (nwork) {
        uint64_t cq = work[--nwork];
        m->positions++;
        m->extra_bytes += bytes;
        status = check(m);
        m->extra_bytes -= bytes;
        if (status >= 0) goto done;
        tomb_state st;
        unpack(m, cq, top, &st);
        int sc = tomb_score(&st);
        if (sc > best) best = sc;
        tomb_move mv[MAX_MOVES];
        int n = tomb_moves(g, &st, mv);
        for (int i = 0; i < n; i++) {
            tomb_state ch = st;
            int action = TM_ACTION(mv[i]);
            if (action == SOLVER_REDEAL) continue;   /* not used: one pass only */
            if (action == SOLVER_TURN) {
                int k = g->rules.turn < st.nstock ? g->rules.turn : st.nstock;
                int ranks[52];
                for (int j = 0; j < k; j++) ranks[j] = RANK(st.stock[st.nstock - 1 - j]);
                ch.nstock = (uint8_t)(st.nstock - k);
                ch.nwaste = 0;
                set64 got;
                if (set_init(&got, 16) < 0) { status = SOLVER_LIMIT_MEMORY; goto done; }
                status = pushes(m, pack(g, &ch), ranks, k, &got, &best, &bytes);
                if (status >= 0) { free(got.v); goto done; }
                for (uint64_t a = 0; a < got.cap; a++)
                    if (got.v[a] && set_add(&seen, got.v[a] - 1, &bytes) == 1) PUSH_WORK(got.v[a] - 1);
                free(got.v);
                continue;
            }
            int src = TM_SRC(mv[i]), dst = TM_DST(mv[i]);
            if (src == SOLVER_PLACE_CELL && dst == SOLVER_PLACE_WASTE) {
                int rank = RANK(st.cells[TM_IDX(mv[i])]);
                ch.cells[TM_IDX(mv[i])] = SOLVER_NO_CARD;
                ch.nwaste = 0;
                set64 got;
                if (set_init(&got, 16) < 0) { status = SOLVER_LIMIT_MEMORY; goto done; }
                status = pushes(m, pack(g, &ch), &rank, 1, &got, &best, &bytes);
                if (status >= 0) { free(got.v); goto done; }
                for (uint64_t a = 0; a < got.cap; a++)
                    if (got.v[a] && set_add(&seen, got.v[a] - 1, &bytes) == 1) PUSH_WORK(got.v[a] - 1);
                free(got.v);
                continue;
            }
            tomb_apply(g, &ch, mv[i], NULL);
            if (src == SOLVER_PLACE_WASTE) {
                /* The top card left: an exit. Its score counts as reached. */
                ch.nwaste = 0;
                if (tomb_score(&ch) > best) best = tomb_score(&ch);
                if (set_add(&exits, pack(g, &ch), &bytes) < 0) { status = SOLVER_LIMIT_MEMORY; goto done; }
            } else {
                if (tomb_score(&ch) > best) best = tomb_score(&ch);
                int r = set_add(&seen, pack(g, &ch), &bytes);
                if (r < 0) { status = SOLVER_LIMIT_MEMORY; goto done; }
                if (r) PUSH_WORK(pack(g, &ch));
            }
        }
    }
    if (store(m, key, &exits, best) < 0) { status = SOLVER_LIMIT_MEMORY; goto done; }
    *out = lookup(m, key);
    status = -1;
done:
    free(seen.v);
    free(exits.v);
    free(work);
#undef PUSH_WORK
    return status;
}

/* Best score reachable from a full state: compose the summaries of its waste,
 * top down, then the empty waste's. Returns -1 and sets *best, or a status. */
int memo_best(memo *m, const tomb_state *s, int *best)
{
    uint64_t bytes = 0;
    tomb_state c = *s;
    c.nwaste = 0;
    int ranks[52];
    for (int i = 0; i < s->nwaste; i++) ranks[i] = RANK(s->waste[i]);
    set64 after;
    if (set_init(&after, 16) < 0) return SOLVER_LIMIT_MEMORY;
    *best = tomb_score(s);
    int st = pushes(m, pack(m->game, &c), ranks, s->nwaste, &after, best, &bytes);
    if (st >= 0) { free(after.v); return st; }
    for (uint64_t a = 0; a < after.cap; a++) {
        if (!after.v[a]) continue;
        entry *e;
        st = summary(m, after.v[a] - 1, 0, &e);
        if (st >= 0) { free(after.v); return st; }
        if (e->best > *best) *best = e->best;
    }
    free(after.v);
    (void)set_has;
    return -1;
}
