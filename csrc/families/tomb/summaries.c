/* summaries.c - the summaries by control states (memo.c says what they are).
 *
 * The summary of (q, top) is worked out breadth first over the control
 * states reached while the top card stays: each state's moves are played
 * (from a rebuilt position, or from the state's bits where full-cells
 * applies: bitmoves.h), the top card's moves give the exits, the cards
 * pushed onto the top card bring in the summaries of those cards composed
 * in (nested on the trail), and the other moves give more states.
 */
#include <string.h>

#include "memo_shared.h"
#include "control.h"
#include "reduction.h"
#include "bitmoves.h"
#include "movecache.h"
#ifdef SOLVER_STUDY
#include "study.h"
#endif

/* earliest-home: a state's carried ranks (bit r) sit in its list item from
 * bit CARRY_SHIFT up, and EXPANDED once it is; the state itself is below. */
#define CARRY_SHIFT 48
#define STATE_MASK ((1ull << CARRY_SHIFT) - 1)
#define CARRY_RANKS 0x3fffull
#define EXPANDED (1ull << 63)

/* The working order of a summary under earliest-home: the stock's height
 * down, then the cards home (twice) and in the reserve up - every move
 * within a summary goes one way in it - then the order found. A queue of
 * the states' indexes in the list, a binary heap of (priority, index). */
static inline uint64_t queue_key(const stampset *s, uint64_t at)
{
    const uint64_t q = s->item[at] & STATE_MASK;
    const uint64_t level = 2u * (unsigned)q_score(q) + q_reserve(q);
    return (uint64_t)(63 - q_stock(q)) << 40 | level << 32 | at;
}

/* A summary being worked out: its top card, its place on the trail, its
 * reduction, its states (seen, in the order found) and exits, its best
 * score so far. by_bits: full-cells with the moves cache, where a state
 * with a stock left reads its moves from its bits. */
typedef struct {
    int top, depth, by_bits;
    const reduction *rd;
    stampset *seen, *exits;
    int best;
    /* earliest-home, for the state being expanded (`from`): the ranks that
     * went home, or could have, earlier in the summary with nothing of
     * theirs come from the stock or gone home since, or whose home move it
 * tries (`carry`, bit r); those of the first kind (`late`), whose home
 * moves from it are no moves. */
    unsigned carry, late, top_went;
    uint64_t from;
    int ordered;          /* earliest-home: the states go by the working order (queue_*) */
    uint64_t queued;      /* the states in the queue (seen->heap) */
} summary_work;

static void queue_push(summary_work *w, uint64_t at)
{
    uint64_t *h = w->seen->heap, k = queue_key(w->seen, at), i = w->queued++;
    while (i && h[(i - 1) / 2] > k) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i] = k;
}

static uint64_t queue_pop(summary_work *w)
{
    uint64_t *h = w->seen->heap, top = h[0], last = h[--w->queued], i = 0;
    for (;;) {
        uint64_t c = 2 * i + 1;
        if (c >= w->queued)
            break;
        if (c + 1 < w->queued && h[c + 1] < h[c])
            c++;
        if (h[c] >= last)
            break;
        h[i] = h[c];
        i = c;
    }
    if (w->queued)
        h[i] = last;
    return top & 0xffffffffu;
}

/* The places of rank r filled: the corners showing r or more (r 7 to K),
 * or the tomb's height (r 1 to 5). Only a card of rank r going home
 * changes it. */
static inline unsigned q_mark(uint64_t q, int r)
{
    if (r <= 5)
        return q_tomb(q);
    unsigned n = 0;
    for (int i = 0; i < 4; i++)
        n += (int)q_corner(q, i) >= r - 6;
    return n;
}

/* Of the ranks `carry` at `from`, those that x, reached from it, still
 * carries (nothing of the rank gone home, nor turned from the stock, on the
 * way); *home: those of them that went home on the way. */
static inline unsigned carried(const memo *m, unsigned carry, uint64_t from, uint64_t x, unsigned *home)
{
    unsigned keep = 0;
    *home = 0;
    const uint8_t *c0 = m->stock_count[q_stock(from)], *c1 = m->stock_count[q_stock(x)];
    for (unsigned c = carry; c; c &= c - 1) {
        int r = __builtin_ctz(c);
        if (c0[r] != c1[r])
            continue;
        if (q_mark(x, r) == q_mark(from, r))
            keep |= 1u << r;
        else
            *home |= 1u << r;
    }
    return keep;
}

static inline void raise_best(int *best, int score)
{
    if (score > *best)
        *best = score;
}

/* Stores the summary of key: its exits (n of them) and its best score;
 * NULL if the memory limit refuses the growth (the caller reports it). */
static entry *store(memo *m, uint64_t key, const uint64_t *exits, uint64_t n, int best)
{
    if (n > 1 && m->arena_n + n + 1 >= (1ull << 55))
        return NULL;
    int grow_entries = (m->count + 1) * 5 > m->cap * 4;   /* a load of 4/5 at most: docs/search.md, "Memory" */
    uint64_t units = n <= 1 ? 0 : n + 1, arena_cap = m->arena_cap;
    while (m->arena_n + units > arena_cap)
        arena_cap += arena_cap / 8;
    if (grow_entries && entries_grow(m) < 0)
        return NULL;
    if (arena_cap > m->arena_cap) {
        /* An eighth more at a time, not double: the arena is most of a
         * large memo, and a mapped block grows in place (mremap). */
        uint8_t *a = mem_resize(m->mem, SOLVER_MEM_SUMMARIES, m->arena, m->arena_cap * ARENA_UNIT + 2,
                                arena_cap * ARENA_UNIT + 2);
        if (!a)
            return NULL;
        m->arena = a;
        m->arena_cap = arena_cap;
    }
    entry *e = &memo_entries(m)[memo_free_slot(m, key)];
    e->key = key + 1;
    if (n <= 1) {
        /* Kept in the entry: no arena words. */
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

static int summary_at(memo *m, uint64_t q, int top, uint64_t key, entry **out, reduction *rd);

/* The summary of (q, top); top = 0 is the empty waste. Returns -1 and sets
 * *out, or a SOLVER_* status if a limit stopped it. */
static int summary(memo *m, uint64_t q, int top, entry **out, reduction *rd)
{
    return summary_at(m, q, top, reduce(m, q, top, rd), out, rd);
}

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

/* Adds to `next` the exits of the summary of (q, rank), filled back to
 * real control states; raises *best. Returns -1, or a SOLVER_* status. */
static int compose(memo *m, uint64_t q, int rank, smallset *next, int *best)
{
    entry *e;
    reduction rd;
    int status = summary(m, q, rank, &e, &rd);
    if (status >= 0)
        return status;
    raise_best(best, E_BEST(e) + rd.base);
    uint64_t one;
    const uint8_t *ex;
    uint64_t n = memo_exits(m, e, &one, &ex);
    for (uint64_t y = 0; y < n; y++)
        if (smallset_add(next, m->mem, exit_real(&rd, memo_exit(ex, one, y))) < 0)
            return SOLVER_LIMIT_MEMORY;
    return -1;
}

/* Adds to `into` the control states where the cards pushed (top last) have
 * all left the waste again, starting from q; raises *best. */
static int pushes(memo *m, uint64_t q, int top, const int *ranks, int k, smallset *into, int *best)
{
    smallset cur, next;
    smallset_init(&cur);
    smallset_add(&cur, m->mem, q);
    const int chain_at = m->chain_n;
    if (top)
        m->chain[m->chain_n++] = top;
    const int under_ranks = m->chain_n;
    for (int j = 0; j < k; j++)
        m->chain[under_ranks + j] = ranks[j];
    int status = -1;
    for (int i = k - 1; i >= 0 && status < 0; i--) {
        smallset_init(&next);
        m->chain_n = under_ranks + i;    /* the cards under ranks[i] */
        uint64_t pos = 0, x;
        while (status < 0 && smallset_next(&cur, &pos, &x)) {
            status = check(m);   /* composing stored summaries can be long too */
            if (status < 0)
                status = compose(m, x, ranks[i], &next, best);
        }
        smallset_free(&cur, m->mem);
        cur = next;
    }
    m->chain_n = chain_at;
    uint64_t pos = 0, x;
    while (status < 0 && smallset_next(&cur, &pos, &x))
        if (smallset_add(into, m->mem, x) < 0)
            status = SOLVER_LIMIT_MEMORY;
    smallset_free(&cur, m->mem);
    return status;
}

int memo_pushed(const tomb_game *g, const tomb_state *st, uint64_t q, tomb_move mv, uint64_t *under)
{
    int action = TM_ACTION(mv), rank;
    if (action == SOLVER_TURN && (g->rules.turn == 1 || st->nstock == 1)) {
        /* One card fewer in the stock, nothing else. */
        *under = q_turned(q);
        return RANK(st->stock[st->nstock - 1]);
    }
    tomb_state ch = *st;
    if (action == TM_BURY) {
        /* A bury: the cell card pushed, with the turned card in its cell. */
        rank = RANK(st->cells[TM_IDX(mv)]);
        ch.cells[TM_IDX(mv)] = st->stock[st->nstock - 1];
        ch.nstock--;
    } else if (action == SOLVER_MOVE && TM_SRC(mv) == SOLVER_PLACE_CELL && TM_DST(mv) == SOLVER_PLACE_WASTE) {
        rank = RANK(st->cells[TM_IDX(mv)]);
        ch.cells[TM_IDX(mv)] = SOLVER_NO_CARD;
    } else
        return 0;
    ch.nwaste = 0;
    *under = memo_pack(g, &ch);
    return rank;
}

/* Adds x to a summary's states (and to the record being worked out, if
 * `keep`), and fetches its record's line if it is new there: 1 new, 0
 * present, -1 out of memory. */
static inline int add_state(memo *m, summary_work *w, int keep, uint64_t x)
{
    if (keep && succ_push(m, x) < 0)
        return -1;
    unsigned carry = 0;
    if (w->carry) {
        unsigned home;
        carry = carried(m, w->carry, w->from, x, &home);
        if (home) {
            /* The home move of a cell card tried here carries the ranks
             * tried before it (the top card's, the lower cells'); any
             * other move that takes a carried rank home is dominated. */
            const int r = __builtin_ctz(home);
            const unsigned tried = w->carry & ~w->late;
            if ((home & (home - 1)) || !((tried >> r) & 1) || q_stock(x) != q_stock(w->from)
                || q_score(x) != q_score(w->from) + 1)
                return 0;   /* earliest-home */
            unsigned before = w->late | (tried & (((1u << r) - 1) | w->top_went)), h2;
            carry = carried(m, before & ~(1u << r), w->from, x, &h2);
        }
    }
    uint64_t at;
    int r = stampset_add_at(w->seen, m->mem, x, &at);
    if (r > 0) {
        if (m->lines)
            __builtin_prefetch(moves_line(m, x));
        if (w->ordered) {
            w->seen->item[at] |= (uint64_t)carry << CARRY_SHIFT;
            queue_push(w, at);
        }
    } else if (r == 0 && w->ordered) {
        /* A state carries what every way to it carries. */
        uint64_t v = w->seen->item[at], was = v >> CARRY_SHIFT & CARRY_RANKS, now = was & carry;
        if (now != was) {
            w->seen->item[at] = (v & ~(CARRY_RANKS << CARRY_SHIFT)) | now << CARRY_SHIFT;
            if (v & EXPANDED) {   /* not met in a working order (docs/search.md): expanded again */
                w->seen->item[at] &= ~EXPANDED;
                queue_push(w, at);
            }
        }
    }
    return r;
}

/* The key of the summary of a card of rank `rank` pushed, the control state
 * q under it (rd filled by reduce); its table slot and q's record line are
 * fetched, to be read soon. */
static inline uint64_t push_key(const memo *m, uint64_t q, int rank, reduction *rd)
{
    uint64_t key = reduce(m, q, rank, rd);
    __builtin_prefetch(&memo_entries(m)[mix64(key + 1) & (m->cap - 1)]);
    if (m->lines)
        __builtin_prefetch(moves_line(m, q));   /* read first if it is worked out */
    return key;
}

/* A card of rank `rank` pushed onto the top card, the control state q under
 * it: the summary of the push (key, rd: by reduce) worked out if need be,
 * its exits, filled back to real control states, added to `seen` (and to
 * the record being worked out, if `keep`), its best score into *others_best.
 * Returns -1, or a SOLVER_* status. */
static int push_exits(memo *m, summary_work *w, uint64_t q, int rank, uint64_t key, const reduction *rd, int keep,
                      int *others_best)
{
    entry *f;
    reduction push_rd = *rd;
    const int top = w->top;
    if (top)
        m->chain[m->chain_n++] = top;
    int status = summary_at(m, q, rank, key, &f, &push_rd);
    if (top)
        m->chain_n--;
    if (status >= 0)
        return status;
    raise_best(others_best, E_BEST(f) + push_rd.base);
    uint64_t one;
    const uint8_t *ex;
    uint64_t n = memo_exits(m, f, &one, &ex);
    for (uint64_t y = 0; y < n; y++)
        if (add_state(m, w, keep, exit_real(&push_rd, memo_exit(ex, one, y))) < 0)
            return SOLVER_LIMIT_MEMORY;
    return -1;
}

/* The states of a record of the moves cache join the summary's states. */
static int add_record(memo *m, summary_work *w, const moves_record *rec)
{
    raise_best(&w->best, rec->best);
    for (uint64_t i = 0; i < rec->len; i++)
        if (add_state(m, w, 0, moves_state(rec, i)) < 0)
            return SOLVER_LIMIT_MEMORY;
    return -1;
}

/* By bits: the other moves of `state` (not in the cache), the level of
 * their forced rule `forced`, played (q_others) and kept in the cache. */
static int others_by_bits(memo *m, summary_work *w, uint64_t state, int forced)
{
    q_move moves[Q_MOVES];
    const int nmoves = q_others(m, state, forced, moves);
#ifdef SOLVER_STUDY
    if (bitmoves_checking)
        check_others(m, state, w->top, moves, nmoves);
#endif
    const int keep = moves_ready(m);
    const uint64_t succ_from = m->succ_n;
    int others_best = 0;
    uint64_t push_keys[Q_MOVES];
    reduction push_rd[Q_MOVES];
    for (int i = 0; i < nmoves; i++)
        if (moves[i].rank)
            push_keys[i] = push_key(m, moves[i].q, moves[i].rank, &push_rd[i]);
    for (int i = 0; i < nmoves; i++) {
        if (!moves[i].rank) {
            raise_best(&others_best, q_score(moves[i].q));
            if (add_state(m, w, keep, moves[i].q) < 0)
                return SOLVER_LIMIT_MEMORY;
            continue;
        }
        int status = push_exits(m, w, moves[i].q, moves[i].rank, push_keys[i], &push_rd[i], keep, &others_best);
        if (status >= 0)
            return status;
    }
    raise_best(&w->best, others_best);
    if (keep)
        moves_keep(m, state, succ_from, others_best, forced);
    return -1;
}

/* Full-cells, a stock left: every move of `state` found from its bits, none
 * from a rebuilt position. The top card's moves, from the level of the
 * others' forced rule (kept in the state's record, if the cache holds it);
 * the others', from the record if it is there, or played and kept, unless
 * the top card's move is the only one (a free cell, or a rule sends it). */
static int expand_by_bits(memo *m, summary_work *w, uint64_t state, unsigned carry)
{
    moves_record rec;
    const int cached = m->ring && moves_cached(m, state, &rec);
    const int forced = cached ? rec.forced : q_others_forced(m, state);
    uint64_t top_exits[2];
    int others_played, ntop = q_top_exits(m, state, w->top, forced, top_exits, &others_played);
    raise_best(&w->best, q_score(state));
#ifdef SOLVER_STUDY
    if (bitmoves_checking)
        check_top(m, state, w->top, forced, top_exits, ntop, others_played);
#endif
    const int earliest = w->ordered;
    const unsigned fits = q_fits(state) & ~(1u << 6);
    const uint64_t home = (fits >> w->top) & 1 ? q_home(state, w->top) : 0;
    unsigned went = 0;   /* the ranks whose home move is tried here */
    for (int i = 0; i < ntop; i++) {
        raise_best(&w->best, q_score(top_exits[i]));
        if (earliest && home && top_exits[i] == home) {
            if ((carry >> w->top) & 1)
                continue;   /* earliest-home */
            went |= 1u << w->top;
        }
        if (stampset_add(w->exits, m->mem, exit_stored(w->rd, top_exits[i])) < 0)
            return SOLVER_LIMIT_MEMORY;
    }
    if (!others_played)
        return -1;
    if (earliest) {
        w->top_went = went;
        if (!forced)
            went |= fits & q_hand(state) & ~carry;   /* each cell card's home move is tried */
        w->carry = carry | went;
        w->late = carry;
        w->from = state;
    }
    return cached ? add_record(m, w, &rec) : others_by_bits(m, w, state, forced);
}

/* The top card's moves among mv[0..n-1] from st: their states are exits.
 * *others: how many other moves there are. */
static int top_by_moves(memo *m, summary_work *w, const tomb_state *st, const tomb_move *mv, int n, int *others)
{
    const tomb_game *g = m->game;
    *others = 0;
    for (int i = 0; i < n; i++) {
        if (TM_ACTION(mv[i]) != SOLVER_MOVE || TM_SRC(mv[i]) != SOLVER_PLACE_WASTE) {
            *others += TM_ACTION(mv[i]) != SOLVER_REDEAL;   /* not used: one pass only */
            continue;
        }
        tomb_state ch = *st;
        tomb_apply(g, &ch, mv[i], NULL);
        raise_best(&w->best, tomb_score(&ch));
        ch.nwaste = 0;
        if (stampset_add(w->exits, m->mem, exit_stored(w->rd, memo_pack(g, &ch))) < 0)
            return SOLVER_LIMIT_MEMORY;
    }
    return -1;
}

/* Several cards turned at once (never cached): the states where they have
 * all left the waste again join the summary's states. */
static int turn_several(memo *m, summary_work *w, const tomb_state *st, int *others_best)
{
    const tomb_game *g = m->game;
    int ranks[52], k = g->rules.turn < st->nstock ? g->rules.turn : st->nstock;
    for (int j = 0; j < k; j++)
        ranks[j] = RANK(st->stock[st->nstock - 1 - j]);
    tomb_state ch = *st;
    ch.nstock = (uint8_t)(st->nstock - k);
    ch.nwaste = 0;
    smallset got;
    smallset_init(&got);
    int status = pushes(m, memo_pack(g, &ch), w->top, ranks, k, &got, others_best);
    uint64_t pos = 0, x;
    while (status < 0 && smallset_next(&got, &pos, &x))
        if (stampset_add(w->seen, m->mem, x) < 0)
            status = SOLVER_LIMIT_MEMORY;
    smallset_free(&got, m->mem);
    return status;
}

/* Whether a move pushes cards onto the top card: a turn, a cell card back
 * onto the waste, or a bury (that, with the turned card in its cell). */
static inline int pushes_cards(tomb_move mv)
{
    int action = TM_ACTION(mv);
    return action == SOLVER_TURN || action == TM_BURY
           || (TM_SRC(mv) == SOLVER_PLACE_CELL && TM_DST(mv) == SOLVER_PLACE_WASTE);
}

/* The other moves of `state` (st rebuilt; mv[0..n-1] its moves), played:
 * the states they lead to join the summary's states, and are kept in the
 * moves cache if `keep`. The summaries of the cards pushed: their keys
 * first, and their slots fetched from memory while the other moves are
 * played. */
static int others_by_moves(memo *m, summary_work *w, const tomb_state *st, uint64_t state, const tomb_move *mv, int n,
                           int keep)
{
    const tomb_game *g = m->game;
    const uint64_t succ_from = m->succ_n;
    int others_best = 0, push_rank[MAX_MOVES];
    uint64_t push_under[MAX_MOVES], push_keys[MAX_MOVES];
    reduction push_rd[MAX_MOVES];
    for (int i = 0; i < n; i++) {
        push_rank[i] = memo_pushed(g, st, state, mv[i], &push_under[i]);
        if (push_rank[i])
            push_keys[i] = push_key(m, push_under[i], push_rank[i], &push_rd[i]);
    }
    for (int i = 0; i < n; i++) {
        int action = TM_ACTION(mv[i]), status;
        if (action == SOLVER_REDEAL || (action == SOLVER_MOVE && TM_SRC(mv[i]) == SOLVER_PLACE_WASTE))
            continue;
        if (pushes_cards(mv[i])) {
            status = push_rank[i]
                         ? push_exits(m, w, push_under[i], push_rank[i], push_keys[i], &push_rd[i], keep, &others_best)
                         : turn_several(m, w, st, &others_best);
            if (status >= 0)
                return status;
            continue;
        }
        tomb_state ch = *st;
        tomb_apply(g, &ch, mv[i], NULL);
        raise_best(&others_best, tomb_score(&ch));
        if (add_state(m, w, keep, memo_pack(g, &ch)) < 0)
            return SOLVER_LIMIT_MEMORY;
    }
    raise_best(&w->best, others_best);
    if (keep)
        moves_keep(m, state, succ_from, others_best, w->by_bits ? q_others_forced(m, state) : 0);
    return -1;
}

/* The moves of `state` from its rebuilt position (tomb_moves). With the
 * stock empty and a win wanted, the forced endgame may show a win: the
 * trail is kept, as the summaries it passes through lead to this state. The
 * other moves' control states are the same under any top card, so kept
 * from an earlier summary (the moves cache), or worked out and kept. */
static int expand_by_moves(memo *m, summary_work *w, uint64_t state)
{
    const tomb_game *g = m->game;
    tomb_state st;
    memo_unpack(m, state, w->top, &st);
    raise_best(&w->best, tomb_score(&st));
    if (m->target == 52 && w->top && !st.nstock && memo_endgame(m, &st)) {
        memcpy(m->found, m->trail, sizeof(m->trail[0]) * (size_t)(w->depth + 1));
        m->found_n = w->depth + 1;
        return MEMO_FOUND;
    }
    tomb_move mv[MAX_MOVES];
    int n = tomb_moves(g, &st, mv), others;
    int status = top_by_moves(m, w, &st, mv, n, &others);
    if (status >= 0 || !others)
        return status;
    const int cached = w->top && g->rules.turn == 1 && (g->flags & SOLVER_MOVES_CACHE) && moves_ready(m);
    moves_record rec;
    if (cached && moves_cached(m, state, &rec))
        return add_record(m, w, &rec);
    return others_by_moves(m, w, &st, state, mv, n, cached);
}

#ifdef SOLVER_STUDY
/* The study of what the summaries share (solver_debug_summary_sharing):
 * its sets on an account of its own, without a limit (a study is not a
 * search); a set that cannot grow counts too few, and says nothing false
 * about a search. */
static int sharing_on;
static uint64_t sharing_expanded;
static mem_account sharing_mem;
static set64 sharing_sets[3];   /* states; (state, top); (entry, state), by hash */

void solver_debug_summary_sharing(int on, uint64_t *counts)
{
    if (on && !sharing_on) {
        sharing_expanded = 0;
        for (int i = 0; i < 3; i++)
            set64_free(&sharing_sets[i], &sharing_mem);
    }
    sharing_on = on;
    counts[0] = sharing_expanded;
    for (int i = 0; i < 3; i++)
        counts[i + 1] = sharing_sets[i].n;
}

static void sharing_count(uint64_t q, uint64_t state, int top)
{
    sharing_expanded++;
    set64_add(&sharing_sets[0], &sharing_mem, state);
    set64_add(&sharing_sets[1], &sharing_mem, state << 4 | (uint64_t)top);
    set64_add(&sharing_sets[2], &sharing_mem, mix64(mix64(q) ^ state) >> 1);
}

/* The cards of rank r at q that are in none of the stock, the cells, the
 * reserve and the foundations: in the waste. */
static int waste_cards(const memo *m, uint64_t q, int r)
{
    int n = 4 - m->stock_count[q_stock(q)][r] - (r == 6 ? (int)q_reserve(q) : 0);
    for (int i = 0; i < 4; i++)
        n -= (int)q_cell(q, i) == r;
    if (r <= 6)
        return n - (int)(q_tomb(q) / 6) - ((int)(q_tomb(q) % 6) > 6 - r);
    for (int i = 0; i < 4; i++)
        n -= (int)q_corner(q, i) >= r - 6;
    return n;
}

/* The study with on = 2: before the summary of (q, top) is worked out,
 * those of every other rank that could be on top at q (one with a card in
 * the waste), as one closure per control state for every rank would have
 * to; the summaries nested in those are worked out as usual. Returns -1, or
 * the status of a limit that stopped them. */
static int sharing_other_ranks(memo *m, uint64_t q, int top)
{
    static int within;   /* one search at a time, as the study's counts */
    if (within)
        return -1;
    within = 1;
    const int target = m->target, chain_n = m->chain_n;
    m->target = 0;   /* the endgame test would read the real cards under another top card */
    int status = -1;
    for (int r = 1; r <= 13 && status < 0; r++)
        if (r != top && waste_cards(m, q, r) > 0) {
            entry *e;
            reduction rd;
            status = summary(m, q, r, &e, &rd);
        }
    m->target = target;
    m->chain_n = chain_n;
    within = 0;
    return status;
}
#endif

/* The summary's states expanded in the order found (breadth first): each
 * one's record is fetched while the states before it are expanded. */
static int summary_expand(memo *m, summary_work *w, uint64_t q)
{
    if (stampset_start(w->seen, m->mem) < 0 || stampset_start(w->exits, m->mem) < 0
        || stampset_add(w->seen, m->mem, q) < 0)
        return SOLVER_LIMIT_MEMORY;
    w->queued = 0;
    if (w->ordered)
        queue_push(w, 0);
    for (uint64_t next = 0; w->ordered ? w->queued > 0 : next < w->seen->n; next++) {
        if (m->target && w->best >= m->target)
            return MEMO_FOUND;
        const uint64_t i = w->ordered ? queue_pop(w) : next;
        w->seen->item[i] |= EXPANDED;
        const uint64_t state = w->seen->item[i] & STATE_MASK;
        const unsigned carry = (unsigned)(w->seen->item[i] >> CARRY_SHIFT & CARRY_RANKS);
        m->trail[w->depth].cur = state;
        m->positions++;
#ifdef SOLVER_STUDY
        if (sharing_on)
            sharing_count(q, state, w->top);
#endif
        w->carry = 0;
        int status = check(m);
        if (status < 0)
            status = w->by_bits && q_stock(state) ? expand_by_bits(m, w, state, carry) : expand_by_moves(m, w, state);
        if (status >= 0)
            return status;
    }
    if (m->target && w->best >= m->target)
        return MEMO_FOUND;
    return -1;
}

/* summary() with the key worked out (rd filled by reduce). */
static int summary_at(memo *m, uint64_t q, int top, uint64_t key, entry **out, reduction *rd)
{
    uint64_t slot;
    entry *e = memo_probe(m, key, &slot);
#ifdef SOLVER_STUDY
    if (!e && sharing_on == 2 && top) {
        int status = sharing_other_ranks(m, q, top);
        if (status >= 0)
            return status;
        e = memo_probe(m, key, &slot);   /* the table may have grown */
    }
#endif
    if (e) {
        *out = e;
        return -1;
    }
    const tomb_game *g = m->game;
    const uint64_t succ_base = m->succ_n;
    summary_work w;
    w.top = top;
    w.depth = m->trail_n++;   /* this summary's place on the trail (<= 53 deep) */
    w.by_bits = top && tomb_full_cells(g) && (g->flags & SOLVER_MOVES_CACHE);
    w.ordered = w.by_bits && (g->flags & SOLVER_EARLIEST_HOME);
    w.rd = rd;
    w.seen = &m->seen[w.depth];
    w.exits = &m->exits[w.depth];
    w.best = 0;
    m->trail[w.depth].q = q;
    m->trail[w.depth].top = top;
    int status = summary_expand(m, &w, q);
    if (status < 0) {
        *out = store(m, key, w.exits->item, w.exits->n, w.best - rd->base);
        status = *out ? -1 : SOLVER_LIMIT_MEMORY;
    }
    m->succ_n = succ_base;
    m->trail_n--;
    return status;
}

/* Best score reachable from a full state: compose the summaries of its waste,
 * top down, then the empty waste's. Returns -1 and sets *best, or a status. */
int controls_best(memo *m, const tomb_state *s, int *best)
{
    tomb_state c = *s;
    c.nwaste = 0;
    int ranks[52];
    for (int i = 0; i < s->nwaste; i++)
        ranks[i] = RANK(s->waste[i]);
    smallset after;
    smallset_init(&after);
    *best = tomb_score(s);
    if (m->target && *best >= m->target)
        return -1;
    m->chain_n = 0;
    m->trail_n = 0;
    m->found_n = 0;
    int st = pushes(m, memo_pack(m->game, &c), 0, ranks, s->nwaste, &after, best);
    uint64_t pos = 0, x;
    while (st < 0 && smallset_next(&after, &pos, &x)) {
        st = check(m);
        if (st < 0) {
            entry *e;
            reduction rd;
            st = summary(m, x, 0, &e, &rd);
            if (st < 0)
                raise_best(best, E_BEST(e) + rd.base);
        }
    }
    smallset_free(&after, m->mem);
    if (st == MEMO_FOUND || (st < 0 && m->target && *best >= m->target)) {
        *best = m->target;
        return -1;
    }
    return st;
}
