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

#include "memo.h"
#include "clock.h"

/* By the corners' 12 bits: the ranks that fit a corner (bit 7 + k for each
 * corner showing k < 7) and the cards on the corners; filled by q_tables.
 * Read for every state a summary meets. */
static uint16_t corner_fits[1 << 12];
static uint8_t corner_cards[1 << 12];

static void q_tables(void)
{
    for (unsigned f = 0; f < (1u << 12); f++) {
        unsigned fits = 0, cards = 0;
        for (int i = 0; i < 4; i++) {
            unsigned k = (f >> (3 * i)) & 7u;
            fits |= k < 7 ? 1u << (7 + k) : 0;
            cards += k;
        }
        corner_fits[f] = (uint16_t)fits;
        corner_cards[f] = (uint8_t)cards;
    }
}

/* Control state packing: nstock 6 | cells 4x4 | nreserve 3 | corners 4x3 | tomb 5 = 42 bits. */
uint64_t memo_pack(const tomb_game *g, const tomb_state *s)
{
    unsigned c[SOLVER_MAX_CELLS], k[4];
    for (int i = 0; i < SOLVER_MAX_CELLS; i++)
        c[i] = (i < g->rules.cells && s->cells[i] != SOLVER_NO_CARD) ? (unsigned)RANK(s->cells[i]) : 0u;
    sort4(c);
    for (int i = 0; i < 4; i++) k[i] = s->corners[i];
    sort4(k);
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
void memo_unpack(const memo *m, uint64_t q, int top, tomb_state *s)
{
    memset(s, 0, sizeof *s);
    s->tomb = q & 31; q >>= 5;
    for (int i = 3; i >= 0; i--) { s->corners[i] = q & 7; q >>= 3; }
    s->nreserve = q & 7; q >>= 3;
    for (int i = 0; i < s->nreserve; i++) s->reserve[i] = 5;   /* 6 of clubs */
    /* The cell cards go to the first cells, in order of rank (hand-home
     * tries them in this order: docs/search.md): with fewer than four cells
     * the rules have only those, and memo_pack writes the others empty. */
    int n = 0;
    for (int i = 0; i < SOLVER_MAX_CELLS; i++) {
        unsigned r = (unsigned)(q >> (4 * (3 - i))) & 15u;   /* the smallest first */
        s->cells[i] = SOLVER_NO_CARD;
        if (r)
            s->cells[n++] = (uint8_t)(r - 1);
    }
    q >>= 16;
    s->nstock = (uint8_t)q;
    memcpy(s->stock, m->stock, s->nstock);
    if (top) {
        s->waste[0] = (uint8_t)(top - 1);
        s->nwaste = 1;
    }
}

/* ---- a set of uint64 (open addressing; 0 never stored: keys are +1) ---- */

typedef struct { uint64_t *v; uint64_t cap, n; } set64;


/* The sets' memory is the memo's working sets (SOLVER_MEM_SETS). */
static int set_init(set64 *s, mem_account *a, uint64_t cap)
{
    s->cap = cap; s->n = 0;
    s->v = mem_alloc(a, SOLVER_MEM_SETS, cap * sizeof(uint64_t));
    return s->v ? 0 : -1;
}

static void set_free(set64 *s, mem_account *a)
{
    mem_free(a, SOLVER_MEM_SETS, s->v, s->cap * sizeof(uint64_t));
}

/* 1 new, 0 present, -1 out of memory. */
static int set_add(set64 *s, mem_account *a, uint64_t key)
{
    key += 1;
    if ((s->n + 1) * 4 > s->cap * 3) {
        set64 t;
        if (set_init(&t, a, s->cap * 2) < 0) return -1;
        for (uint64_t i = 0; i < s->cap; i++)
            if (s->v[i]) {
                uint64_t j = memo_mix(s->v[i]) & (t.cap - 1);
                while (t.v[j]) j = (j + 1) & (t.cap - 1);
                t.v[j] = s->v[i];
                t.n++;
            }
        set_free(s, a);
        *s = t;
    }
    uint64_t j = memo_mix(key) & (s->cap - 1);
    while (s->v[j]) {
        if (s->v[j] == key) return 0;
        j = (j + 1) & (s->cap - 1);
    }
    s->v[j] = key;
    s->n++;
    return 1;
}


/* A set that starts in place (no allocation) and moves to a set64 when it
 * outgrows its inline slots: most summaries hold a handful of states. */
#define INLINE 24
typedef struct { uint64_t inl[INLINE]; int n; set64 big; } smallset;

static void small_init(smallset *s) { s->n = 0; s->big.v = NULL; s->big.n = 0; s->big.cap = 0; }
static void small_free(smallset *s, mem_account *a) { if (s->big.v) set_free(&s->big, a); }

/* 1 new, 0 present, -1 out of memory. */
static int small_add(smallset *s, mem_account *a, uint64_t key)
{
    if (s->big.v)
        return set_add(&s->big, a, key);
    for (int i = 0; i < s->n; i++)
        if (s->inl[i] == key) return 0;
    if (s->n < INLINE) { s->inl[s->n++] = key; return 1; }
    if (set_init(&s->big, a, 64) < 0) return -1;
    for (int i = 0; i < s->n; i++) set_add(&s->big, a, s->inl[i]);   /* 24 in 64 slots: no growth */
    return set_add(&s->big, a, key);
}

/* Runs the code with x bound to each element. */
#define SMALL_EACH(s, x, ...) do { \
        if ((s)->big.v) { \
            for (uint64_t i_ = 0; i_ < (s)->big.cap; i_++) \
                if ((s)->big.v[i_]) { uint64_t x = (s)->big.v[i_] - 1; __VA_ARGS__; } \
        } else { \
            for (int i_ = 0; i_ < (s)->n; i_++) { uint64_t x = (s)->inl[i_]; __VA_ARGS__; } \
        } \
    } while (0)

/* ---- sets kept from one use to the next ----
 *
 * A summary's states and its exits are sets of control states (42 bits).
 * The summary at depth d of the trail uses the two sets of depth d, and the
 * next summary at that depth uses them again: a slot holds the set's stamp
 * (bits 43 on) and the key + 1, a slot of an older stamp is empty, so a new
 * use is a new stamp - no clearing, no allocation. The members are listed
 * in order besides (for store and for growing). Their memory is the memo's. */
#define STAMP_SHIFT 43

/* Doubles the slots (64 at first) and puts the members back; -1 if out of memory. */
static int stamp_grow(memo *m, stampset *s)
{
    uint64_t cap = s->cap ? 2 * s->cap : 64;
    uint64_t *slot = mem_alloc(m->mem, SOLVER_MEM_SETS, cap * sizeof(uint64_t));
    uint64_t *item = slot ? mem_resize(m->mem, SOLVER_MEM_SETS, s->item, s->cap / 2 * sizeof(uint64_t),
                                       cap / 2 * sizeof(uint64_t)) : NULL;
    if (!item) { mem_free(m->mem, SOLVER_MEM_SETS, slot, cap * sizeof(uint64_t)); return -1; }
    mem_free(m->mem, SOLVER_MEM_SETS, s->slot, s->cap * sizeof(uint64_t));
    s->slot = slot;
    s->item = item;
    s->cap = cap;
    s->shift = 64 - __builtin_ctzll(cap);
    s->stamp = 1;
    for (uint64_t i = 0; i < s->n; i++) {
        uint64_t j = ((s->item[i] + 1) * 0x9e3779b97f4a7c15ull) >> s->shift;
        while (s->slot[j]) j = (j + 1) & (cap - 1);
        s->slot[j] = (1ull << STAMP_SHIFT) | (s->item[i] + 1);
    }
    return 0;
}

/* Empties the set for a new use; -1 if out of memory. */
static int stamp_start(memo *m, stampset *s)
{
    s->n = 0;
    if (!s->cap)
        return stamp_grow(m, s);
    if (++s->stamp == (1ull << (64 - STAMP_SHIFT))) {  /* the stamps wrapped: clear once */
        memset(s->slot, 0, s->cap * sizeof(uint64_t));
        s->stamp = 1;
    }
    return 0;
}

/* 1 new, 0 present, -1 out of memory. */
static inline int stamp_add(memo *m, stampset *s, uint64_t key)
{
    if ((s->n + 1) * 2 > s->cap && stamp_grow(m, s) < 0)
        return -1;
    const uint64_t tag = (s->stamp << STAMP_SHIFT) | (key + 1), mask = s->cap - 1;
    uint64_t j = ((key + 1) * 0x9e3779b97f4a7c15ull) >> s->shift, v;
    while ((v = s->slot[j]) >> STAMP_SHIFT == s->stamp) {
        if (v == tag)
            return 0;
        j = (j + 1) & mask;
    }
    s->slot[j] = tag;
    s->item[s->n++] = key;
    return 1;
}

static void stamp_free(memo *m, stampset *s)
{
    mem_free(m->mem, SOLVER_MEM_SETS, s->slot, s->cap * sizeof(uint64_t));
    mem_free(m->mem, SOLVER_MEM_SETS, s->item, s->cap / 2 * sizeof(uint64_t));
    s->slot = s->item = NULL;
    s->cap = s->n = 0;
}

/* ---- the moves cache ----
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
 * lost is worked out again. */
#define MOVES_LINES (1ull << 17)    /* lines of 8 words: 8 MiB */
#define MOVES_INLINE 6
#define MOVES_RING (1ull << 18)     /* words: 2 MiB */
#define MOVES_FROM (1ull << 12)     /* summaries stored before the cache is made */

static inline uint64_t *moves_line(const memo *m, uint64_t q)
{
    return &m->lines[(memo_mix(q + 1) & (MOVES_LINES - 1)) * 8];
}

static void moves_free(memo *m)
{
    mem_free_huge(m->mem, SOLVER_MEM_CACHES, m->ring, MOVES_RING * sizeof(uint64_t));
    mem_free_huge(m->mem, SOLVER_MEM_CACHES, m->lines, 8 * MOVES_LINES * sizeof(uint64_t));
    m->ring = m->lines = NULL;
}

/* Whether the cache is there, made now if the memo is large enough to pay
 * for it and the memory limit leaves room (once: not again if it fails). */
static int moves_ready(memo *m)
{
    if (m->ring)
        return 1;
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

/* The record of q, if the cache (made) holds it: its states are
 * base[(at + i) & mask] for i < len. */
static inline int moves_cached(const memo *m, uint64_t q, const uint64_t **base, uint64_t *at,
                               uint64_t *mask, uint64_t *len, int *best, int *forced)
{
    const uint64_t *l = moves_line(m, q);
    if (l[0] != q + 1)
        return 0;
    uint64_t h = l[1];
    *len = h >> 11;
    *forced = (int)(h >> 8) & 7;
    *best = (int)(h & 0xff);
    if (*len <= MOVES_INLINE) {
        *base = l + 2;
        *at = 0;
        *mask = 7;
        return 1;
    }
    /* In the ring: gone if the ring has come round to its start since. */
    uint64_t p = l[2];
    if (m->ring_pos - p > MOVES_RING)
        return 0;
    *base = m->ring;
    *at = p;
    *mask = MOVES_RING - 1;
    return 1;
}

/* Appends a state to the record being worked out; -1 if out of memory. */
static int succ_push(memo *m, uint64_t x)
{
    if (m->succ_n == m->succ_cap) {
        uint64_t cap = m->succ_cap ? 2 * m->succ_cap : 1024;
        uint64_t *v = mem_resize(m->mem, SOLVER_MEM_SETS, m->succ, m->succ_cap * sizeof(uint64_t), cap * sizeof(uint64_t));
        if (!v) return -1;
        m->succ = v;
        m->succ_cap = cap;
    }
    m->succ[m->succ_n++] = x;
    return 0;
}

/* Keeps the record of q (the states from succ[from] on) in the cache
 * (made), and takes it off succ. */
static void moves_keep(memo *m, uint64_t q, uint64_t from, int best, int forced)
{
    uint64_t len = m->succ_n - from;
    m->succ_n = from;
    if (len > MOVES_RING / 16)
        return;
    /* Once each, in their order (pushes often lead to the same states):
     * added in this order, the states of the record have the effect the
     * moves had. */
    if (stamp_start(m, &m->once) < 0)
        return;
    uint64_t n = 0;
    for (uint64_t i = 0; i < len; i++) {
        int r = stamp_add(m, &m->once, m->succ[from + i]);
        if (r < 0) return;
        if (r) m->succ[from + n++] = m->succ[from + i];
    }
    len = n;
    uint64_t *l = moves_line(m, q);
    l[0] = q + 1;
    l[1] = (len << 11) | ((uint64_t)forced << 8) | (uint64_t)best;
    if (len <= MOVES_INLINE) {
        if (len)    /* none: succ may not be allocated yet (memcpy wants a pointer) */
            memcpy(l + 2, m->succ + from, len * sizeof(uint64_t));
        return;
    }
    uint64_t p = m->ring_pos;
    for (uint64_t i = 0; i < len; i++)
        m->ring[(p + i) & (MOVES_RING - 1)] = m->succ[from + i];
    m->ring_pos = p + len;
    l[2] = p;
}

/* ---- the memo: (q, rank) -> exits and best score (memo.h) ---- */

#define ENTRIES(m) ((entry *)(m)->entries)

/* By places, a turn is met again soon: the same place and the same ranks in
 * the waste under the card turned, from another summary (the waste's order
 * differs) or another composition. The summary it leads to, with its cards
 * out, depends on nothing else, so the turn's value - its exits and best
 * score - is kept by that pair in a small table (256 KiB, in the core's
 * cache): met again, it needs neither the summary's key nor the large
 * table. A value once kept never changes (docs/search.md, `by-places`). */
#define RECENT_BITS 14
#define RECENT (1u << RECENT_BITS)

int memo_by_places(const tomb_game *g)
{
    const solver_rules *r = &g->rules;
    return (g->flags & SOLVER_BY_PLACES) && (g->flags & SOLVER_FORCE_CELL_HOME)
        && r->turn == 1 && r->passes == 1 && !r->sixes_reserve && !r->cell_to_reserve
        && !r->cell_to_waste && r->cell_to_foundation;
}

int memo_init(memo *m, mem_account *mem, const tomb_game *g, const tomb_state *root)
{
    memset(m, 0, sizeof *m);
    m->mem = mem;
    m->game = g;
    if (!corner_cards[1])
        q_tables();
    memcpy(m->stock, root->stock, root->nstock);
    m->cap = 1u << 14;
    m->entries = mem_alloc_huge(mem, SOLVER_MEM_SUMMARIES, m->cap * sizeof(entry));
    m->arena_cap = 1u << 16;
    m->arena = mem_alloc(mem, SOLVER_MEM_SUMMARIES, m->arena_cap * ARENA_UNIT + 2);
    if (!m->entries || !m->arena) { memo_free(m); return -1; }
    m->below[0] = 0;
    for (int j = 0; j < root->nstock; j++)
        m->below[j + 1] = (uint16_t)(m->below[j] | (1u << RANK(root->stock[j])));
    m->by_places = memo_by_places(g);
    if (m->by_places) {
        const solver_rules *r = &g->rules;
        m->ncells = r->cells;
        m->ntalon = root->nwaste + root->nstock;
        for (int i = 0; i < root->nwaste; i++)
            m->talon[i] = (uint8_t)RANK(root->waste[i]);
        for (int i = 0; i < root->nstock; i++)
            m->talon[root->nwaste + i] = (uint8_t)RANK(root->stock[root->nstock - 1 - i]);
        memset(m->pre, 0, sizeof m->pre);
        for (int j = 0; j < m->ntalon; j++) {
            memcpy(m->pre[j + 1], m->pre[j], sizeof m->pre[j]);
            m->pre[j + 1][m->talon[j]]++;
        }
        m->recent = mem_alloc(mem, SOLVER_MEM_CACHES, RECENT * sizeof(entry));
        if (!m->recent) { memo_free(m); return -1; }
    }
    return 0;
}

void memo_free(memo *m)
{
    mem_free(m->mem, SOLVER_MEM_CACHES, m->recent, RECENT * sizeof(entry));
    m->recent = NULL;
    moves_free(m);
    mem_free(m->mem, SOLVER_MEM_SETS, m->succ, m->succ_cap * sizeof(uint64_t));
    m->succ = NULL;
    m->succ_cap = 0;
    for (int d = 0; d < 64; d++) {
        stamp_free(m, &m->seen[d]);
        stamp_free(m, &m->exits[d]);
    }
    stamp_free(m, &m->once);
    if (m->entries)
        mem_free_huge(m->mem, SOLVER_MEM_SUMMARIES, m->entries, m->cap * sizeof(entry));
    if (m->arena)
        mem_free(m->mem, SOLVER_MEM_SUMMARIES, m->arena, m->arena_cap * ARENA_UNIT + 2);
    m->entries = NULL;
    m->arena = NULL;
}

/* The entry of key, or NULL; *slot: where the probe ended (the entry's
 * slot, or the empty slot where it would go). */
static inline entry *memo_probe(const memo *m, uint64_t key, uint64_t *slot)
{
    entry *e = ENTRIES(m);
    uint64_t j = memo_mix(key + 1) & (m->cap - 1);
    while (e[j].key) {
        if (e[j].key == key + 1) break;
        j = (j + 1) & (m->cap - 1);
    }
    *slot = j;
    return e[j].key ? &e[j] : NULL;
}

entry *memo_lookup(memo *m, uint64_t key)
{
    uint64_t slot;
    return memo_probe(m, key, &slot);
}

/* Doubles the table of summaries; -1 if out of memory. */
static int entries_grow(memo *m)
{
    uint64_t cap = m->cap * 2;
    entry *t = mem_alloc_huge(m->mem, SOLVER_MEM_SUMMARIES, cap * sizeof(entry));   /* both held while it moves */
    if (!t) return -1;
    for (uint64_t i = 0; i < m->cap; i++)
        if (ENTRIES(m)[i].key) {
            uint64_t j = memo_mix(ENTRIES(m)[i].key) & (cap - 1);
            while (t[j].key) j = (j + 1) & (cap - 1);
            t[j] = ENTRIES(m)[i];
        }
    mem_free_huge(m->mem, SOLVER_MEM_SUMMARIES, m->entries, m->cap * sizeof(entry));
    m->entries = t;
    m->cap = cap;
    return 0;
}

static entry *store(memo *m, uint64_t key, const uint64_t *exits, uint64_t n, int best)
{
    if (n <= 1) {
        /* Kept in the entry: no arena words. */
    } else if (m->arena_n + n + 1 >= (1ull << 55)) return NULL;
    /* Growth past the memory limit is refused (the caller reports the limit). */
    int grow_entries = (m->count + 1) * 5 > m->cap * 4;   /* a load of 4/5 at most: docs/search.md, "Memory" */
    uint64_t units = n <= 1 ? 0 : n + 1, arena_cap = m->arena_cap;
    while (m->arena_n + units > arena_cap)
        arena_cap += arena_cap / 8;
    if (grow_entries && entries_grow(m) < 0) return NULL;
    if (arena_cap > m->arena_cap) {
        /* An eighth more at a time, not double: the arena is most of a
         * large memo, and a mapped block grows in place (mremap). */
        uint8_t *a = mem_resize(m->mem, SOLVER_MEM_SUMMARIES, m->arena, m->arena_cap * ARENA_UNIT + 2,
                                arena_cap * ARENA_UNIT + 2);
        if (!a) return NULL;
        m->arena = a;
        m->arena_cap = arena_cap;
    }
    uint64_t j = memo_mix(key + 1) & (m->cap - 1);
    while (ENTRIES(m)[j].key) j = (j + 1) & (m->cap - 1);
    entry *e = &ENTRIES(m)[j];
    e->key = key + 1;
    if (n <= 1) {
        uint64_t one = n ? exits[0] + 1 : 0;
        e->val = (one << 9) | E_INLINE | (uint64_t)best;
    } else {
        e->val = (m->arena_n << 9) | (uint64_t)best;
        arena_put(m->arena, m->arena_n++, n);
        for (uint64_t i = 0; i < n; i++)
            arena_put(m->arena, m->arena_n++, exits[i]);
    }
    m->count++;
    return e;
}

/* The limits read by the clock, every 1,024 checks. */
static __attribute__((noinline)) int check_clock(memo *m)
{
    if (m->stop && __atomic_load_n(m->stop, __ATOMIC_RELAXED)) return SOLVER_INTERRUPTED;
    if (m->deadline > 0 && search_clock() >= m->deadline) return SOLVER_LIMIT_SECONDS;
    return -1;
}

/* Checks the limits; returns a SOLVER_* status, or -1 to go on. Inline: it
 * runs for every position. */
static inline int check(memo *m)
{
    if (m->max_positions && m->positions >= m->max_positions) return SOLVER_LIMIT_POSITIONS;
    if ((++m->ticks & 1023) == 0) return check_clock(m);
    return -1;
}

/* ---- stuck-cells and frozen-foundations by control states (full-cells) ----
 *
 * docs/search.md: in the summary of a top card X, a cell card that cannot fit
 * a foundation while X is on top is in the cells at every state of the
 * summary, and its rank changes nothing there; a foundation that cannot
 * change while X is on top keeps its value. The key then has a token (15)
 * for each stuck cell card and 31 for a frozen tomb, 7s for frozen corners;
 * the exits are stored the same way and filled back from the entry, and the
 * best score is stored counted from the entry's score. */
typedef struct {
    int nstuck, stuck[SOLVER_MAX_CELLS + 1];  /* ranks of the entry's stuck cell cards, then a stuck top's */
    int ntokens;            /* tokens in an exit: the stuck cards, and a stuck top */
    int tomb_frozen;
    int nfrozen, frozen[4]; /* the entry's frozen corners (not complete), as 7s in the key */
    uint64_t q;             /* the entry */
    int base;               /* the entry's score */
} reduction;

/* Control state fields (memo_pack): tomb bits 0-4, corners 5-16, reserve
 * 17-19, cells 20-35 (the smallest rank highest), stock 36-41. */
#define Q_CELLS(q, i) ((unsigned)((q) >> (20 + 4 * (3 - (i)))) & 15u)
#define Q_CORNER(q, i) ((unsigned)((q) >> (5 + 3 * (3 - (i)))) & 7u)

/* Writes four sorted values of `bits` bits from bit `shift` up, the smallest highest. */
static uint64_t q_set4(uint64_t q, unsigned *v, int shift, int bits)
{
    sort4(v);
    q &= ~((((uint64_t)1 << (4 * bits)) - 1) << shift);
    for (int i = 0; i < 4; i++)
        q |= (uint64_t)v[i] << (shift + bits * (3 - i));
    return q;
}
#define q_set_cells(q, c) q_set4((q), (c), 20, 4)
#define q_set_corners(q, k) q_set4((q), (k), 5, 3)

static inline int q_score(uint64_t q)
{
    return (int)(q & 31) + corner_cards[(q >> 5) & 4095];
}

/* The key of the summary of (q, top), and how it was reduced. */
static uint64_t reduce(const memo *m, uint64_t q, int top, reduction *rd)
{
    rd->nstuck = rd->ntokens = rd->tomb_frozen = rd->nfrozen = 0;
    rd->q = q;
    rd->base = q_score(q);
    unsigned fl = m->game->flags;
    if (m->by_places || !tomb_full_cells(m->game) || !(fl & (SOLVER_STUCK_CELLS | SOLVER_FROZEN_FOUNDATIONS)))
        return (q << 4) | (uint64_t)top;
    /* Copies that can come home while X is on top: the stock, the reserve's
     * 6s, and the cell cards not stuck themselves (not X, not under it).
     * Sets of ranks as bit masks (bit r): avail, those of which a copy can
     * come home; hand, those in the cells; stuck, those stuck there. */
    int nstock = (int)(q >> 36);
    unsigned avail = m->below[nstock], hand = 0, stuck = 0;
    if ((q >> 17) & 7)
        avail |= 1u << 6;
    unsigned c[4], k[4];
    for (int i = 0; i < 4; i++) {
        c[i] = Q_CELLS(q, i);
        k[i] = Q_CORNER(q, i);
        hand |= (1u << c[i]) & ~1u;
    }
    /* Corners: can_show, the ranks some corner can show (6: an empty corner). */
    unsigned can_show = 0;
    for (int i = 0; i < 4; i++) can_show |= 1u << (6 + k[i]);
    avail |= hand & (1u << 7);
    for (int r = 8; r <= 13; r++) {
        if ((avail >> (r - 1)) & (can_show >> (r - 2)) & 1)
            can_show |= 1u << (r - 1);
        if ((can_show >> (r - 1)) & 1) avail |= hand & (1u << r);
        else stuck |= 1u << r;
    }
    /* The tomb: once round from the rank it wants; a 6 is never stuck (it
     * can always go to the reserve). */
    int tomb = (int)(q & 31), broken = tomb >= 24, w = broken ? 6 : 6 - tomb % 6;
    for (int step = 0, r = w; step < 6; step++, r = r == 1 ? 6 : r - 1) {
        if (r == 6 || !broken) avail |= hand & (1u << r);
        else stuck |= 1u << r;
        if (!((avail >> r) & 1)) broken = 1;
    }
    int top_token = 0;
    if (fl & SOLVER_STUCK_CELLS) {
        for (int i = 0; i < 4; i++)
            if (c[i] && ((stuck >> c[i]) & 1)) {
                rd->stuck[rd->nstuck++] = (int)c[i];
                c[i] = 15;
            }
        /* A top card that cannot fit either leaves only for a cell: it is
         * in the cells at every exit, a token there too. */
        rd->ntokens = rd->nstuck;
        if (top && ((stuck >> top) & 1)) {
            rd->stuck[rd->ntokens++] = top;
            top_token = 1;
        }
    }
    if (fl & SOLVER_FROZEN_FOUNDATIONS) {
        rd->tomb_frozen = tomb >= 24 || (!((avail >> w) & 1) && top != w);
        /* A corner whose next rank is not available, and X is not: it
         * takes nothing, like a complete corner. */
        for (int i = 0; i < 4; i++)
            if (k[i] < 7 && !((avail >> (7 + k[i])) & 1) && top != (int)(7 + k[i])) {
                rd->frozen[rd->nfrozen++] = (int)k[i];
                k[i] = 7;
            }
    }
    uint64_t r = rd->nstuck ? q_set_cells(q, c) : q;
    if (rd->tomb_frozen)
        r |= 31;
    if (rd->nfrozen)
        r = q_set_corners(r, k);
    return (r << 4) | (uint64_t)(top_token ? 14 : top);
}

/* In four sorted fields of `bits` bits from bit `shift`: for each j < n, one
 * field holding from[j] holds to[j] instead. */
static uint64_t q_replace4(uint64_t q, int shift, int bits, int n, const int *from, const int *to)
{
    unsigned v[4];
    for (int i = 0; i < 4; i++)
        v[i] = (unsigned)(q >> (shift + bits * (3 - i))) & ((1u << bits) - 1);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < 4; i++)
            if ((int)v[i] == from[j]) { v[i] = (unsigned)to[j]; break; }
    return q_set4(q, v, shift, bits);
}
static const int TOKENS[SOLVER_MAX_CELLS + 1] = {15, 15, 15, 15, 15}, COMPLETE[4] = {7, 7, 7, 7};

/* An exit of the summary, as stored: the entry's stuck cards as tokens (they
 * are all in the cells), the frozen foundations as in the key. */
static uint64_t exit_stored(const reduction *rd, uint64_t x)
{
    if (rd->ntokens)
        x = q_replace4(x, 20, 4, rd->ntokens, rd->stuck, TOKENS);
    if (rd->tomb_frozen)
        x |= 31;
    if (rd->nfrozen)
        x = q_replace4(x, 5, 3, rd->nfrozen, rd->frozen, COMPLETE);
    return x;
}

/* In four sorted fields of `bits` bits from bit `shift`: the last n (the
 * largest) become v[0..n-1], sorted back in. */
static uint64_t q_fill_last4(uint64_t q, int shift, int bits, int n, const int *v)
{
    unsigned f[4];
    for (int i = 0; i < 4; i++)
        f[i] = (unsigned)(q >> (shift + bits * (3 - i))) & ((1u << bits) - 1);
    for (int j = 0; j < n; j++)
        f[3 - j] = (unsigned)v[j];
    return q_set4(q, f, shift, bits);
}

/* A stored exit filled back from the entry rd (any of its 7s can take back a
 * frozen corner's value: complete corners and frozen ones are alike). */
static uint64_t exit_real(const reduction *rd, uint64_t x)
{
    /* The tokens (15) are the largest cells, the 7s the largest corners: in
     * sorted fields, the last ones. */
    if (rd->ntokens)
        x = q_fill_last4(x, 20, 4, rd->ntokens, rd->stuck);
    if (rd->tomb_frozen)
        x = (x & ~31ull) | (rd->q & 31);
    if (rd->nfrozen)
        x = q_fill_last4(x, 5, 3, rd->nfrozen, rd->frozen);
    return x;
}

/* ---- the top card's moves from the control state (full-cells) ----
 *
 * tomb_moves in two parts, for the moves cache: the level of the first
 * forced rule that moves a card other than the top one (0: none), which
 * reads no top card; and, given that level, the control states the top
 * card's moves lead to, and whether the other moves are played too. Read
 * from the bits of a control state with a stock left, where full-cells
 * applies (cells send back onto the waste: neither cell-home nor
 * waste-home can apply). The levels follow forced_move's order (tomb.c),
 * and within a level the top card is tried before the cells. MEMO_CHECK_TOP
 * checks both against tomb_moves at every state they read. */
/* The ranks that fit a foundation (bit r): the tomb's next, each unfinished corner's. */
static inline unsigned q_fits(uint64_t q)
{
    unsigned tomb = q & 31;
    return (tomb < 24 ? 1u << (6 - tomb % 6) : 0) | corner_fits[(q >> 5) & 4095];
}

/* hand-home's condition (tomb.c, hand_home_safe) for a rank that fits. */
static inline int q_safe(const memo *m, uint64_t q, int rank)
{
    if (rank >= 7 ? (int)Q_CORNER(q, 0) >= rank - 7 : (q & 31) / 6 == 3)
        return 1;   /* the smallest corner shows rank - 1 or more; the tomb's last round */
    return rank != 6 && !((m->below[q >> 36] >> rank) & 1);
}

static int q_others_forced(const memo *m, uint64_t q)
{
    const tomb_game *g = m->game;
    const solver_rules *r = &g->rules;
    unsigned fits = q_fits(q), hand = 0;
    for (int i = 0; i < 4; i++)
        hand |= (1u << Q_CELLS(q, i)) & ~1u;
    if ((g->flags & TOMB_GREEDY) && r->cell_to_foundation && (hand & fits))
        return LV_GREEDY;
    if ((g->flags & SOLVER_FORCE_SIXES_RESERVE) && r->sixes_reserve && r->cell_to_reserve && (hand & (1u << 6)))
        return LV_SIXES;
    if ((g->flags & SOLVER_FORCE_RESERVE_HOME) && ((q >> 17) & 7) && (fits & (1u << 6)) && (q & 31) < 24
        && (r->cell_to_reserve || !r->cell_to_foundation))
        return LV_RESERVE;
    if ((g->flags & SOLVER_HAND_HOME) && r->cell_to_foundation)
        for (unsigned h = hand & fits; h; h &= h - 1)
            if (q_safe(m, q, __builtin_ctz(h)))
                return LV_HAND;
    return 0;
}

/* q with a card of rank x gone home (it fits). */
static inline uint64_t q_home(uint64_t q, int x)
{
    if (x <= 6)
        return q + 1;
    /* The last (largest) of the sorted corners showing x - 1: one more
     * keeps them sorted, as the next one shows x or more. */
    for (int i = 3; i >= 0; i--)
        if ((int)Q_CORNER(q, i) == x - 7)
            return q + (1ull << (5 + 3 * (3 - i)));
    return q;   /* not reached: x fits */
}

/* Writes the control states after the top card's moves into x[] (at most
 * two) and returns how many; *others: the other moves are played too. */
static int q_top_exits(const memo *m, uint64_t q, int top, int others_forced, uint64_t *x, int *others)
{
    const tomb_game *g = m->game;
    const solver_rules *r = &g->rules;
    int home = (q_fits(q) >> top) & 1, level = 0;
    if ((g->flags & TOMB_GREEDY) && home)
        level = LV_GREEDY;
    else if ((g->flags & SOLVER_FORCE_SEVEN_HOME) && top == 7)
        level = LV_SEVEN;   /* home: a corner is empty while a 7 is out */
    else if ((g->flags & SOLVER_FORCE_SIXES_RESERVE) && r->sixes_reserve && top == 6)
        level = LV_SIXES;
    else if ((g->flags & SOLVER_HAND_HOME) && home && q_safe(m, q, top))
        level = LV_HAND;
    *others = 0;
    if (level && (!others_forced || level <= others_forced)) {
        x[0] = level == LV_SIXES ? q + (1ull << 17) : q_home(q, top);
        return 1;
    }
    if (others_forced) {
        *others = 1;
        return 0;
    }
    /* A free cell takes the top card, only: more empty fields than the
     * cells the rules do not have (memo_pack writes them empty). Sorted,
     * the empty fields come first: one more than those is empty. */
    if (r->cells && !Q_CELLS(q, SOLVER_MAX_CELLS - r->cells)) {
        unsigned c[4];
        for (int i = 0; i < 4; i++) c[i] = Q_CELLS(q, i);
        c[0] = (unsigned)top;
        x[0] = q_set_cells(q, c);
        return 1;
    }
    int n = 0;
    if (home)
        x[n++] = q_home(q, top);
    if (top == 6 && r->sixes_reserve)
        x[n++] = q + (1ull << 17);
    *others = 1;
    return n;
}

/* The other moves of q (not the top card's), where the level of their
 * forced rule is `others_forced` and q_top_exits says they are played: in
 * tomb_moves' order, each as the control state it leads to (rank 0), or as
 * a card pushed onto the top card (its rank) and the control state under
 * it. Moves that do the same (cells of equal rank, the bury of a card of
 * the turned card's rank and the turn) are given once. Returns
 * how many. MEMO_CHECK_TOP checks them against tomb_moves. */
typedef struct { uint64_t q; int rank; } q_move;
/* At most: each cell card home, a reserve 6 to the tomb, the turn, and each
 * cell card to the reserve and buried. */
#define Q_MOVES (3 * SOLVER_MAX_CELLS + 2)

/* q with its cell field i (of c, its cells) holding v instead, sorted back. */
static inline uint64_t q_cell_is(uint64_t q, const unsigned *c, int i, unsigned v)
{
    unsigned d[4] = {c[0], c[1], c[2], c[3]};
    d[i] = v;
    return q_set_cells(q, d);
}

static int q_others(const memo *m, uint64_t q, int others_forced, q_move *out)
{
    const tomb_game *g = m->game;
    const solver_rules *r = &g->rules;
    unsigned fits = q_fits(q), c[4];
    for (int i = 0; i < 4; i++) c[i] = Q_CELLS(q, i);
    int n = 0;
#define Q_WITHOUT(i, v) q_cell_is(q, c, (i), (v))
    if (others_forced) {
        /* forced_move's rule: the first cell card (in order of rank) it sends. */
        if (others_forced == LV_RESERVE) {
            out[0].q = q - (1ull << 17) + 1;
            out[0].rank = 0;
            return 1;
        }
        for (int i = 0; i < 4; i++) {
            if (!c[i]) continue;
            int ok = others_forced == LV_SIXES ? c[i] == 6
                   : ((fits >> c[i]) & 1) && (others_forced == LV_GREEDY || q_safe(m, q, (int)c[i]));
            if (ok) {
                out[0].q = others_forced == LV_SIXES ? Q_WITHOUT(i, 0) + (1ull << 17) : q_home(Q_WITHOUT(i, 0), (int)c[i]);
                out[0].rank = 0;
                return 1;
            }
        }
        return 0;   /* not reached: the rule applies */
    }
    /* Every move (tomb_moves): cell cards home, a reserve 6 to the tomb,
     * the turn, then each cell card to the reserve (a 6) and buried. The
     * cells are full: a free cell would take the top card, only. */
    if (r->cell_to_foundation)
        for (int i = 0; i < 4; i++)
            if (c[i] && ((fits >> c[i]) & 1) && (i == 0 || c[i] != c[i - 1])) {
                out[n].q = q_home(Q_WITHOUT(i, 0), (int)c[i]);
                out[n++].rank = 0;
            }
    if (((q >> 17) & 7) && (fits & (1u << 6)))
        out[n].q = q - (1ull << 17) + 1, out[n++].rank = 0;
    const int h = (int)(q >> 36), t = RANK(m->stock[h - 1]);
    out[n].q = q - (1ull << 36), out[n++].rank = t;
    for (int i = 0; i < 4; i++) {
        if (!c[i] || (i && c[i] == c[i - 1]))
            continue;
        if (r->cell_to_reserve && c[i] == 6)
            out[n].q = Q_WITHOUT(i, 0) + (1ull << 17), out[n++].rank = 0;
        if (c[i] != (unsigned)t)     /* else the same push as the turn */
            out[n].q = Q_WITHOUT(i, (unsigned)t) - (1ull << 36), out[n++].rank = (int)c[i];
    }
#undef Q_WITHOUT
    return n;
}

static int summary(memo *m, uint64_t q, int top, entry **out, reduction *rd);

/* With the stock empty, plays the forced rest of the game (tomb_endgame_step)
 * on the real waste - the chain of cards under the top, then the top - and
 * says whether it wins: a sufficient test, used only to stop early once a win
 * is certain. */
int memo_endgame(const memo *m, const tomb_state *st)
{
    tomb_state s = *st;
    s.nwaste = 0;
    for (int i = 0; i < m->chain_n; i++)
        s.waste[s.nwaste++] = (uint8_t)(m->chain[i] - 1);
    s.waste[s.nwaste++] = st->waste[0];
    tomb_move mv;
    while (tomb_endgame_step(m->game, &s, &mv))
        tomb_apply(m->game, &s, mv, NULL);
    return tomb_score(&s) == 52;
}

/* Adds to `into` the control states where the cards pushed (top last) have
 * all left the waste again, starting from q; raises *best. */
static int pushes(memo *m, uint64_t q, int top, const int *ranks, int k, smallset *into, int *best)
{
    smallset cur, next;
    small_init(&cur);
    small_add(&cur, m->mem, q);
    int n0 = m->chain_n;
    if (top)
        m->chain[m->chain_n++] = top;
    int n1 = m->chain_n;
    for (int j = 0; j < k; j++)
        m->chain[n1 + j] = ranks[j];
    for (int i = k - 1; i >= 0; i--) {
        small_init(&next);
        m->chain_n = n1 + i;    /* the cards under ranks[i] */
        int status = -1;
        SMALL_EACH(&cur, x, {
            if (status < 0)
                status = check(m);   /* composing stored summaries can be long too */
            if (status < 0) {
                entry *e;
                reduction rd;
                int st = summary(m, x, ranks[i], &e, &rd);
                if (st >= 0) status = st;
                else {
                    if (E_BEST(e) + rd.base > *best) *best = E_BEST(e) + rd.base;
                    uint64_t one;
                    const uint8_t *ex;
                    uint64_t n = memo_exits(m, e, &one, &ex);
                    for (uint64_t y = 0; y < n && status < 0; y++)
                        if (small_add(&next, m->mem, exit_real(&rd, memo_exit(ex, one, y))) < 0) status = SOLVER_LIMIT_MEMORY;
                }
            }
        });
        small_free(&cur, m->mem);
        cur = next;
        if (status >= 0) { small_free(&cur, m->mem); m->chain_n = n0; return status; }
    }
    m->chain_n = n0;
    int status = -1;
    SMALL_EACH(&cur, x, { if (status < 0 && small_add(into, m->mem, x) < 0) status = SOLVER_LIMIT_MEMORY; });
    small_free(&cur, m->mem);
    return status;
}

static int summary_at(memo *m, uint64_t q, int top, uint64_t key, entry **out, reduction *rd);

#ifdef MEMO_CHECK_TOP
#include <stdio.h>
static int pushed(const tomb_game *g, const tomb_state *st, uint64_t cq, tomb_move mv, uint64_t *q);
static void check_top(const memo *m, uint64_t cq, int top, int forced, const uint64_t *xq, int nx, int oth)
{
    static uint64_t checked;
    tomb_state st;
    memo_unpack(m, cq, top, &st);
    tomb_move mv[MAX_MOVES];
    int n = tomb_moves(m->game, &st, mv), nt = 0, others = 0, ok = 1;
    uint64_t tq[MAX_MOVES];
    for (int i = 0; i < n; i++) {
        if (TM_ACTION(mv[i]) == SOLVER_MOVE && TM_SRC(mv[i]) == SOLVER_PLACE_WASTE) {
            tomb_state ch = st;
            tomb_apply(m->game, &ch, mv[i], NULL);
            ch.nwaste = 0;
            tq[nt++] = memo_pack(m->game, &ch);
        } else
            others++;
    }
    /* The others' forced level, against tomb.c's (on the full state). */
    if (tomb_others_forced(m->game, &st) != forced) ok = 0;
    if (nt != nx || (others > 0) != (oth != 0)) ok = 0;
    for (int i = 0; ok && i < nx; i++) {
        int f = 0;
        for (int j = 0; j < nt; j++) f |= tq[j] == xq[i];
        if (!f) ok = 0;
    }
    if (!ok) {
        fprintf(stderr, "check_top: MISMATCH q=%llx top=%d forced=%d nx=%d oth=%d / nt=%d others=%d\n",
                (unsigned long long)cq, top, forced, nx, oth, nt, others);
        abort();
    }
    if (++checked % 10000000 == 0) fprintf(stderr, "check_top: %llu checked\n", (unsigned long long)checked);
}

/* q_others against tomb_moves on the full position: the same moves, in the
 * same order, those that do the same once. */
static void check_others(const memo *m, uint64_t cq, int top, const q_move *om, int no)
{
    static uint64_t checked;
    tomb_state st;
    memo_unpack(m, cq, top, &st);
    tomb_move mv[MAX_MOVES];
    int n = tomb_moves(m->game, &st, mv), nt = 0, ok = 1;
    q_move tm[MAX_MOVES];
    for (int i = 0; i < n; i++) {
        int action = TM_ACTION(mv[i]);
        if (action == SOLVER_MOVE && TM_SRC(mv[i]) == SOLVER_PLACE_WASTE)
            continue;   /* the top card's */
        q_move x;
        x.rank = pushed(m->game, &st, cq, mv[i], &x.q);
        if (!x.rank) {
            tomb_state ch = st;
            tomb_apply(m->game, &ch, mv[i], NULL);
            ch.nwaste = 0;
            x.q = memo_pack(m->game, &ch);
        }
        int dup = 0;
        for (int j = 0; j < nt; j++) dup |= tm[j].q == x.q && tm[j].rank == x.rank;
        if (!dup) tm[nt++] = x;
    }
    if (nt != no) ok = 0;
    for (int i = 0; ok && i < no; i++)
        if (tm[i].q != om[i].q || tm[i].rank != om[i].rank) ok = 0;
    if (!ok) {
        fprintf(stderr, "check_others: MISMATCH q=%llx top=%d no=%d nt=%d\n", (unsigned long long)cq, top, no, nt);
        for (int i = 0; i < no || i < nt; i++)
            fprintf(stderr, "  %d: bits %llx/%d  moves %llx/%d\n", i, i < no ? (unsigned long long)om[i].q : 0ull, i < no ? om[i].rank : 0,
                    i < nt ? (unsigned long long)tm[i].q : 0ull, i < nt ? tm[i].rank : 0);
        abort();
    }
    if (++checked % 10000000 == 0) fprintf(stderr, "check_others: %llu checked\n", (unsigned long long)checked);
}
#endif

/* The summary of (q, top); top = 0 is the empty waste. Returns -1 and sets
 * *out, or a SOLVER_* status if a limit stopped it. */
static int summary(memo *m, uint64_t q, int top, entry **out, reduction *rd)
{
    return summary_at(m, q, top, reduce(m, q, top, rd), out, rd);
}

/* The one card pushed by a move (a turn of one card, a cell card back onto
 * the waste, a bury: with the turned card in its cell): its rank, and the
 * control state under it in *q; 0 if the move pushes no card or several. */
static int pushed(const tomb_game *g, const tomb_state *st, uint64_t cq, tomb_move mv, uint64_t *q)
{
    int action = TM_ACTION(mv), rank;
    if (action == SOLVER_TURN && (g->rules.turn == 1 || st->nstock == 1)) {
        /* One card fewer in the stock, nothing else (memo_pack: the stock
         * height from bit 36). */
        *q = cq - (1ull << 36);
        return RANK(st->stock[st->nstock - 1]);
    }
    tomb_state ch = *st;
    if (action == TM_BURY) {
        rank = RANK(st->cells[TM_IDX(mv)]);
        ch.cells[TM_IDX(mv)] = st->stock[st->nstock - 1];
        ch.nstock--;
    } else if (action == SOLVER_MOVE && TM_SRC(mv) == SOLVER_PLACE_CELL && TM_DST(mv) == SOLVER_PLACE_WASTE) {
        rank = RANK(st->cells[TM_IDX(mv)]);
        ch.cells[TM_IDX(mv)] = SOLVER_NO_CARD;
    } else
        return 0;
    ch.nwaste = 0;
    *q = memo_pack(g, &ch);
    return rank;
}

/* Adds x to a summary's states (and to the record being worked out, if
 * `keep`), and fetches its record's line if it is new there: 1 new, 0
 * present, -1 out of memory. */
static inline int add_state(memo *m, stampset *seen, int keep, uint64_t x)
{
    if (keep && succ_push(m, x) < 0)
        return -1;
    int r = stamp_add(m, seen, x);
    if (r > 0 && m->lines)
        __builtin_prefetch(moves_line(m, x));
    return r;
}

/* The key of the summary of a card of rank `rank` pushed, the control state
 * q under it (rd filled by reduce); its table slot and q's record line are
 * fetched, to be read soon. */
static inline uint64_t push_key(const memo *m, uint64_t q, int rank, reduction *rd)
{
    uint64_t key = reduce(m, q, rank, rd);
    __builtin_prefetch(&ENTRIES(m)[memo_mix(key + 1) & (m->cap - 1)]);
    if (m->lines)
        __builtin_prefetch(moves_line(m, q));   /* read first if it is worked out */
    return key;
}

/* A card of rank `rank` pushed onto the top card, the control state q under
 * it: the summary of the push (key, rd: by reduce) worked out if need be,
 * its exits, filled back to real control states, added to `seen` (and to
 * the record being worked out, if `keep`), its best score into *sbest.
 * Returns -1, or a SOLVER_* status. */
static int push_exits(memo *m, int top, uint64_t q, int rank, uint64_t key, const reduction *rd,
                      stampset *seen, int keep, int *sbest)
{
    entry *f;
    reduction frd = *rd;
    if (top)
        m->chain[m->chain_n++] = top;
    int status = summary_at(m, q, rank, key, &f, &frd);
    if (top)
        m->chain_n--;
    if (status >= 0)
        return status;
    if (E_BEST(f) + frd.base > *sbest) *sbest = E_BEST(f) + frd.base;
    uint64_t one;
    const uint8_t *ex;
    uint64_t nf = memo_exits(m, f, &one, &ex);
    for (uint64_t y = 0; y < nf; y++)
        if (add_state(m, seen, keep, exit_real(&frd, memo_exit(ex, one, y))) < 0)
            return SOLVER_LIMIT_MEMORY;
    return -1;
}

/* summary() with the key worked out (rd filled by reduce). */
static int summary_at(memo *m, uint64_t q, int top, uint64_t key, entry **out, reduction *rd)
{
    entry *e = memo_lookup(m, key);
    if (e) { *out = e; return -1; }
    const tomb_game *g = m->game;
    int depth = m->trail_n++;   /* this summary's place on the trail (<= 53 deep) */
    m->trail[depth].q = q;
    m->trail[depth].top = top;
    int status = -1, best = 0;
    const uint64_t succ_base = m->succ_n;
    stampset *seen = &m->seen[depth], *exits = &m->exits[depth];
    if (stamp_start(m, seen) < 0 || stamp_start(m, exits) < 0 || stamp_add(m, seen, q) < 0) {
        status = SOLVER_LIMIT_MEMORY;
        goto done;
    }
#define ADD_STATE(keep, x) do { \
        if (add_state(m, seen, (keep), (x)) < 0) { status = SOLVER_LIMIT_MEMORY; goto done; } \
    } while (0)
    const int full = top && tomb_full_cells(g) && (g->flags & SOLVER_MOVES_CACHE);
    /* The states in the order found (breadth first): each one's record is
     * fetched while the states before it are expanded. */
    for (uint64_t wi = 0; wi < seen->n; wi++) {
        if (m->target && best >= m->target) { status = MEMO_FOUND; goto done; }
        uint64_t cq = seen->item[wi];
        const int fast = full && (cq >> 36);
        m->trail[depth].cur = cq;
        m->positions++;
        status = check(m);
        if (status >= 0) goto done;
        if (fast) {
            /* Full-cells, a stock left: every move is found from the bits of
             * the control state, none from a rebuilt position. The top
             * card's moves, from the level of the others' forced rule (kept
             * in the state's record, if the cache holds it); the others',
             * from the record if it is there, or played (q_others) and kept,
             * unless the top card's move is the only one (a free cell, or a
             * rule sends it). */
            int forced = 0;     /* the level of the others' forced rule */
            const uint64_t *base = NULL;
            uint64_t at = 0, mask = 0, len = 0;
            int mbest = 0;
            int have = m->ring && moves_cached(m, cq, &base, &at, &mask, &len, &mbest, &forced);
            if (!have)
                forced = q_others_forced(m, cq);
            uint64_t xq[2];
            int oth, nx = q_top_exits(m, cq, top, forced, xq, &oth);
            if (q_score(cq) > best) best = q_score(cq);
#ifdef MEMO_CHECK_TOP
            check_top(m, cq, top, forced, xq, nx, oth);
#endif
            for (int i = 0; i < nx; i++) {
                if (q_score(xq[i]) > best) best = q_score(xq[i]);
                if (stamp_add(m, exits, exit_stored(rd, xq[i])) < 0) { status = SOLVER_LIMIT_MEMORY; goto done; }
            }
            if (have) {
                if (oth) {
                    if (mbest > best) best = mbest;
                    for (uint64_t y = 0; y < len; y++)
                        ADD_STATE(0, base[(at + y) & mask]);
                }
                continue;
            }
            if (!oth)
                continue;
            /* Not in the cache: the other moves, from the bits too (q_others),
             * played and kept. */
            q_move om[Q_MOVES];
            const int no = q_others(m, cq, forced, om);
#ifdef MEMO_CHECK_TOP
            check_others(m, cq, top, om, no);
#endif
            const int keep = moves_ready(m);
            const uint64_t succ_from = m->succ_n;
            int sbest = 0;
            uint64_t okey[Q_MOVES];
            reduction ord[Q_MOVES];
            for (int i = 0; i < no; i++)
                if (om[i].rank)
                    okey[i] = push_key(m, om[i].q, om[i].rank, &ord[i]);
            for (int i = 0; i < no; i++) {
                if (!om[i].rank) {
                    if (q_score(om[i].q) > sbest) sbest = q_score(om[i].q);
                    ADD_STATE(keep, om[i].q);
                    continue;
                }
                status = push_exits(m, top, om[i].q, om[i].rank, okey[i], &ord[i], seen, keep, &sbest);
                if (status >= 0) goto done;
            }
            if (sbest > best) best = sbest;
            if (keep)
                moves_keep(m, cq, succ_from, sbest, forced);
            continue;
        }
        tomb_state st;
        memo_unpack(m, cq, top, &st);
        int sc = tomb_score(&st);
        if (sc > best) best = sc;
        if (m->target == 52 && top && !st.nstock && memo_endgame(m, &st)) {
            /* Keep the trail: the summaries it passes through lead to this state. */
            memcpy(m->found, m->trail, sizeof(m->trail[0]) * (size_t)(depth + 1));
            m->found_n = depth + 1;
            status = MEMO_FOUND;
            goto done;
        }
        tomb_move mv[MAX_MOVES];
        int n = tomb_moves(g, &st, mv), others = 0;
        /* The top card's moves: exits. */
        for (int i = 0; i < n; i++) {
            if (TM_ACTION(mv[i]) != SOLVER_MOVE || TM_SRC(mv[i]) != SOLVER_PLACE_WASTE) {
                others += TM_ACTION(mv[i]) != SOLVER_REDEAL;   /* not used: one pass only */
                continue;
            }
            tomb_state ch = st;
            tomb_apply(g, &ch, mv[i], NULL);
            if (tomb_score(&ch) > best) best = tomb_score(&ch);
            ch.nwaste = 0;
            if (stamp_add(m, exits, exit_stored(rd, memo_pack(g, &ch))) < 0) { status = SOLVER_LIMIT_MEMORY; goto done; }
        }
        if (!others)
            continue;
        /* The other moves' control states: the same under any top card, so
         * kept from an earlier summary (the moves cache), or worked out and
         * kept. */
        const int cached = top && g->rules.turn == 1 && (g->flags & SOLVER_MOVES_CACHE) && moves_ready(m);
        if (cached) {
            int mbest, level;
            const uint64_t *base;
            uint64_t at, mask, len;
            if (moves_cached(m, cq, &base, &at, &mask, &len, &mbest, &level)) {
                if (mbest > best) best = mbest;
                for (uint64_t y = 0; y < len; y++)
                    ADD_STATE(0, base[(at + y) & mask]);
                continue;
            }
        }
        const uint64_t succ_from = m->succ_n;
        int sbest = 0;
        /* The summaries of the cards pushed: their keys first, and their
         * slots fetched from memory while the other moves are played. */
        uint64_t kq[MAX_MOVES], kkey[MAX_MOVES];
        reduction krd[MAX_MOVES];
        int krank[MAX_MOVES];
        for (int i = 0; i < n; i++) {
            krank[i] = pushed(g, &st, cq, mv[i], &kq[i]);
            if (krank[i])
                kkey[i] = push_key(m, kq[i], krank[i], &krd[i]);
        }
        for (int i = 0; i < n; i++) {
            tomb_state ch = st;
            int action = TM_ACTION(mv[i]);
            if (action == SOLVER_REDEAL || (action == SOLVER_MOVE && TM_SRC(mv[i]) == SOLVER_PLACE_WASTE))
                continue;
            if (action == SOLVER_TURN || action == TM_BURY
                || (TM_SRC(mv[i]) == SOLVER_PLACE_CELL && TM_DST(mv[i]) == SOLVER_PLACE_WASTE)) {
                /* Cards pushed onto the top card: a turn, a cell card back
                 * onto the waste, or a bury (that, with the turned card in
                 * its cell). */
                if (krank[i]) {
                    status = push_exits(m, top, kq[i], krank[i], kkey[i], &krd[i], seen, cached, &sbest);
                    if (status >= 0) goto done;
                } else {
                    /* Several cards turned at once (never cached). */
                    int ranks[52], k = g->rules.turn < st.nstock ? g->rules.turn : st.nstock;
                    for (int j = 0; j < k; j++) ranks[j] = RANK(st.stock[st.nstock - 1 - j]);
                    ch.nstock = (uint8_t)(st.nstock - k);
                    ch.nwaste = 0;
                    smallset got;
                    small_init(&got);
                    status = pushes(m, memo_pack(g, &ch), top, ranks, k, &got, &sbest);
                    if (status < 0)
                        SMALL_EACH(&got, x, {
                            if (stamp_add(m, seen, x) < 0) status = SOLVER_LIMIT_MEMORY;
                        });
                    small_free(&got, m->mem);
                    if (status >= 0) goto done;
                }
                continue;
            }
            tomb_apply(g, &ch, mv[i], NULL);
            if (tomb_score(&ch) > sbest) sbest = tomb_score(&ch);
            ADD_STATE(cached, memo_pack(g, &ch));
        }
        if (sbest > best) best = sbest;
        if (cached)
            moves_keep(m, cq, succ_from, sbest, full ? q_others_forced(m, cq) : 0);
    }
    if (m->target && best >= m->target) { status = MEMO_FOUND; goto done; }
    *out = store(m, key, exits->item, exits->n, best - rd->base);
    status = *out ? -1 : SOLVER_LIMIT_MEMORY;
done:
    m->succ_n = succ_base;
    m->trail_n--;
#undef ADD_STATE
    return status;
}

/* Best score reachable from a full state: compose the summaries of its waste,
 * top down, then the empty waste's. Returns -1 and sets *best, or a status. */
static int places_best(memo *m, const tomb_state *s, int *best);

int memo_best(memo *m, const tomb_state *s, int *best)
{
    if (m->by_places)
        return places_best(m, s, best);
    tomb_state c = *s;
    c.nwaste = 0;
    int ranks[52];
    for (int i = 0; i < s->nwaste; i++) ranks[i] = RANK(s->waste[i]);
    smallset after;
    small_init(&after);
    *best = tomb_score(s);
    if (m->target && *best >= m->target)
        return -1;
    m->chain_n = 0;
    m->trail_n = 0;
    m->found_n = 0;
    int st = pushes(m, memo_pack(m->game, &c), 0, ranks, s->nwaste, &after, best);
    SMALL_EACH(&after, x, {
        if (st < 0)
            st = check(m);
        if (st < 0) {
            entry *e;
            reduction rd;
            st = summary(m, x, 0, &e, &rd);
            if (st < 0 && E_BEST(e) + rd.base > *best) *best = E_BEST(e) + rd.base;
        }
    });
    small_free(&after, m->mem);
    if (st == MEMO_FOUND || (st < 0 && m->target && *best >= m->target)) {
        *best = m->target;
        return -1;
    }
    return st;
}

/* ---- summaries by places: the classic rules ----
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

#define PLACES_MASK ((1ull << 53) - 1)
#define PLACES_BEST(v) ((int)((v) >> 53))

/* The foundations' closure of the cards out, by rank counts c[1..13]. */
typedef struct { int score, ncells, tomb, n[14]; } closure;

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
        if (c[r] < rounds) rounds = c[r];
    if (rounds < 4)
        while (k < 6 && c[6 - k] > rounds) k++;
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
    if (o->tomb == 24 || r != 6 - o->tomb % 6) {
        o->ncells++;
        return;
    }
    o->tomb++;
    o->score++;
    /* The tomb holds (tomb + q - 1) / 6 cards of rank q; the rest are in cells. */
    while (o->tomb < 24) {
        int q = 6 - o->tomb % 6;
        if (c[q] <= (o->tomb + q - 1) / 6)
            break;
        o->tomb++;
        o->score++;
        o->ncells--;
    }
}

static int closure_fits(const closure *o, int y)
{
    if (y <= 6) return o->tomb < 24 && y == 6 - o->tomb % 6;
    if (y == 7) return o->n[7] < 4;
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
    return (m->greedy && fit)
        || ((flags & SOLVER_FORCE_WASTE_HOME) && fit && m->game->stock_first[y] >= m->ntalon - j);
}

/* The summary of a card of rank y (0: the empty waste) on top at place e,
 * over the ranks b (3-bit counts) under it, with depth cards in the waste (y
 * included); key is places_key(m, e, y, c0, o0), c0 and o0 the cards out at
 * e and their closure. Returns -1 and sets *val, or a status. With a waste
 * cap, the depth is a function of the key (the cards turned less the cards
 * out), so the summaries of one memo stay consistent. */
static int places_summary(memo *m, int e, uint64_t b, int y, int depth, uint64_t key,
                          const int *c0, const closure *o0, uint64_t *val)
{
    /* Stored: the best counted from the entry's score, which the
     * foundations left out of the key change (frozen-foundations). Not
     * stored: the probe ends at the empty slot where it will go, unless
     * the table grows meanwhile (the summaries nested in it only fill
     * slots, so the free slot is this one or a later one). */
    uint64_t slot, cap = m->cap;
    const entry *en = memo_probe(m, key, &slot);
    if (en) {
        *val = en->val + ((uint64_t)o0->score << 53);
        return -1;
    }
    const int n = m->ntalon;
    int c[14];
    memcpy(c, c0, sizeof c);
    uint64_t reach = 1ull << e, exits = 0;
    uint64_t above = y ? b + (1ull << (3 * (y - 1))) : b;
    int best = 0;
    closure o = *o0;
    /* The reached places in order: j goes from one to the next, turning the
     * cards in between, and the sweep ends after the last. */
    for (int j = e;; ) {
        m->positions++;
        int status = check(m);
        if (status >= 0) return status;
        if (o.score > best) best = o.score;
        int forced = 0;
        if (y) {
            int fit = closure_fits(&o, y);
            /* The score after y leaves is not this summary's: it may bring
             * stuck cards home, which the key leaves out. The summary or the
             * composition that goes on from the exit counts it. */
            if (fit || o.ncells < m->ncells)
                exits |= 1ull << j;
            forced = places_forced(m, &o, y, j);
        }
        if (m->target && best >= m->target) return MEMO_FOUND;
        if (j == n) {
            if (m->target == 52 && y && places_endgame(m, c, y)) return MEMO_FOUND;
            break;
        }
        if (!forced && !(m->waste_cap && depth >= m->waste_cap)) {
            uint64_t v;
            int t = m->talon[j];
            if (j + 1 < n && places_forced(m, &o, t, j + 1)) {
                /* The card turned goes home at once: its summary is its one
                 * position, the place after the turn, with the same cards
                 * out (so the same score), and its one exit (it fits: a
                 * turned 7 always does, since it is not out, and the other
                 * two rules ask it). */
                m->positions++;
                status = check(m);
                if (status >= 0) return status;
                reach |= 2ull << j;
                goto next;
            }
            /* The turn's pair: the ranks under the card turned (3 bits a
             * rank, 39 bits) and the place after it (never 0). */
            uint64_t turn = above | (uint64_t)(j + 1) << 39;
            entry *r = &m->recent[memo_mix(turn) >> (64 - RECENT_BITS)];
            if (r->key == turn)
                v = r->val;
            else {
                if (y) m->chain[m->chain_n++] = y;
                status = places_summary(m, j + 1, above, m->talon[j], depth + 1, places_key(m, j + 1, m->talon[j], c, &o), c, &o, &v);
                if (y) m->chain_n--;
                if (status >= 0) return status;
                r->key = turn;
                r->val = v;
            }
            reach |= v & PLACES_MASK;
            if (PLACES_BEST(v) > best) best = PLACES_BEST(v);
        }
    next:;
        uint64_t later = reach >> (j + 1);
        if (!later)
            break;
        for (int to = j + 1 + __builtin_ctzll(later); j < to; j++) {
            c[m->talon[j]]++;
            close_add(c, m->talon[j], &o);
        }
    }
    if ((m->count + 1) * 4 > m->cap * 3) {
        if (entries_grow(m) < 0) return SOLVER_LIMIT_MEMORY;
    }
    uint64_t j = cap == m->cap ? slot : memo_mix(key + 1) & (m->cap - 1);
    while (ENTRIES(m)[j].key) j = (j + 1) & (m->cap - 1);
    ENTRIES(m)[j].key = key + 1;
    ENTRIES(m)[j].val = exits | ((uint64_t)(best - o0->score) << 53);
    *val = exits | ((uint64_t)best << 53);
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
static int places_best(memo *m, const tomb_state *s, int *best)
{
    int n = m->ntalon, j = n - s->nstock, w = s->nwaste;
    int c[14];
    uint64_t b = 0;
    for (int r = 1; r <= 13; r++)
        c[r] = 4 - m->pre[n][r] + m->pre[j][r];
    for (int i = 0; i < w; i++) {
        m->chain[i] = RANK(s->waste[i]);
        c[m->chain[i]]--;
        if (i < w - 1) b += 1ull << (3 * (m->chain[i] - 1));
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
                if (PLACES_BEST(v) > *best) *best = PLACES_BEST(v);
            }
        }
        cur = next;
        if (k > 0) b -= 1ull << (3 * (m->chain[k - 1] - 1));
    }
    for (uint64_t x = cur; x && st < 0 && !(m->target && *best >= m->target); x &= x - 1) {
        uint64_t v;
        m->chain_n = 0;
        st = places_enter(m, __builtin_ctzll(x), 0, 0, 0, &v);
        if (st < 0 && PLACES_BEST(v) > *best) *best = PLACES_BEST(v);
    }
    if (st == MEMO_FOUND || (st < 0 && m->target && *best >= m->target)) {
        *best = m->target;
        return -1;
    }
    return st;
}
