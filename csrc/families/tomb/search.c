/* search.c - the Tomb's search (tomb_search_new, registry.c): its staged
 * phases (the first plain search, the randomised restarts, the win phases,
 * the classic phase, the summaries and the walk along them) over the one
 * depth-first search engine (dfs.h), with the exact table (table.c) and keys
 * made from the parent's; its side of the verbs of solver.h (handle.h).
 */
#include <stdlib.h>
#include <string.h>

#include "solver.h"
#include "table.h"
#include "tomb_state.h"
#include "memo.h"
#include "clock.h"
#include "mem.h"
#include "dfs.h"
#include "handle.h"

/* Positions the first plain search gets before the restarts: fewer where
 * the summaries go by places (tuned on classic 1-3,000: 74 s of search in
 * all with 2,000, 76 s with 500, 84 s with 20,000). */
#define DFS_FIRST 20000
#define DFS_FIRST_BY_PLACES 2000
/* Then the randomised restarts (docs/search.md: tuned on classic deals 1-300,
 * then 1-6,000 once the summaries went by places, then 1-1,000 and
 * 3,001-4,000 once the win phases came after the restarts): RESTARTS_PER_CARD for
 * each card in the root's stock and waste, or RESTARTS_PER_CARD_BY_PLACES
 * where the complete search is the summaries by places, each with a table of
 * RESTART_SLOTS that holds its budget without growing. The budget is
 * RESTART_BUDGET positions, or RESTART_BUDGET_BY_PLACES (smaller restarts:
 * fewer positions on classic 1-1,000 and 3,001-4,000; a winning line alone
 * takes over 100 positions, and budgets of 120 or less find few wins). */
#define RESTARTS_PER_CARD 60
#define RESTARTS_PER_CARD_BY_PLACES 5
/* With full-cells (the Finnish rules), fewer restarts without it, then some
 * with it, per card: since hand-home, the greedy phase after them finds most
 * of the wins they missed sooner (tuned on Finnish 1-2,000 and checked on
 * 4,001-6,000: 22.0 s and 19.8 s of search on the won deals, against 44.4 s
 * and 41.6 s with 60 then 20). */
#define RESTARTS_PER_CARD_BEFORE_FULL_CELLS 2
#define RESTARTS_PER_CARD_FULL_CELLS 5
#define RESTART_BUDGET 300
#define RESTART_BUDGET_BY_PLACES 200
#define RESTART_SLOTS 1024u
_Static_assert((RESTART_BUDGET + 1) * 4 <= RESTART_SLOTS * 3, "a restart's table must not grow");
_Static_assert(RESTART_BUDGET_BY_PLACES <= RESTART_BUDGET, "a restart's table must not grow");
/* Chance in percent that a restart parks the waste card in a cell rather than
 * turning over it, by how many cards must go home before it fits (0..4, 5 or
 * more), and what a card under it that fits now adds. */
static const int PARK_PCT[6] = { 90, 75, 55, 35, 35, 15 };
#define PARK_OVER_PLAYABLE 25
/* Random amount a restart adds to a card's wait, in eighths of a card, when
 * it orders the buries (full-cells). */
#define BURY_NOISE 48

/* Where the summaries go by places, after the restarts: two searches in a
 * smaller game that look for a win only (docs/search.md, `restarts`). First
 * every waste card that fits goes home at once - not safe for a proof (deal
 * 137 is won only by a line that waits), so it decides nothing but a win -
 * with at most 22 cards in the waste; then at most 16 cards in the waste.
 * Tuned on classic 1-1,000 and 3,001-4,000: 227.5 M positions in all,
 * against 253.7 M with the caps 16 then 20, and the lost deals 122.9 M
 * against 131.0 M. */
typedef struct {
    int cap, greedy;
} win_phase;
static const win_phase WIN_PHASES[] = { { 22, 1 }, { 16, 0 } };
#define N_WIN_PHASES ((int)(sizeof WIN_PHASES / sizeof WIN_PHASES[0]))
#define CAPPED_NO_WIN (-2)

#define INITIAL_SLOTS (1u << 16)

typedef struct {
    tomb_state state;
    uint64_t key[KEY_WORDS_MAX];    /* the state's key: its children's are made from it */
    tomb_move moves[MAX_MOVES];
    uint8_t n, next;
} frame;

typedef struct tomb_search tomb_search;

struct tomb_search {
    solver h;               /* the handle (handle.h): first */
    dfs e;                  /* the plain search: stack, limits, stats, lines */
    tomb_game game;
    tomb_state root;
    table table;
    uint64_t max_positions, max_bytes;
    mem_account own_mem;    /* the account of this search, its summaries and its classic phase */
    solver_move *lines_out[2];    /* lines with their cards, made on demand */
    memo memo;
    int memo_ready;
    uint64_t seed;          /* non-zero: a restart, which draws its choices at random */
    int phase, round_started;     /* see staged_run */
    unsigned flags;         /* the shortcuts asked for (game.flags changes with the phases) */
    unsigned full_cells;    /* SOLVER_FULL_CELLS if asked for: see staged_run */
    tomb_position pos;    /* the root as given */
    tomb_search *sub;       /* the classic phase's search (staged_run) */
};

/* The Tomb's side of the verbs (handle.h), at the end. */
static const search_driver TOMB_DRIVER;

/* The search of the root `root` of `game` from its start: everything but
 * the handle, the engine's limits and memory, and the table. */
static void start_from(tomb_search *s, const tomb_game *game, const tomb_state *root, const tomb_position *pos)
{
    s->game = *game;
    s->root = *root;
    s->pos = *pos;
    /* full-cells is switched on by staged_run, after the restarts that go without it. */
    s->full_cells = tomb_full_cells(&s->game) ? SOLVER_FULL_CELLS : 0;
    s->game.flags &= ~SOLVER_FULL_CELLS;
    s->e.stats.best_score = tomb_score(&s->root);
    s->seed = 0;
    s->phase = s->round_started = 0;
}

/* A search that charges the account `mem` (NULL: its own). */
static tomb_search *new_search(const tomb_rules *rules, const tomb_position *pos, unsigned flags, char *err, int errlen,
                               mem_account *mem)
{
    tomb_search *s = calloc(1, sizeof *s);
    if (!s) {
        if (err && errlen > 0)
            strncpy(err, "out of memory", (size_t)errlen - 1);
        return NULL;
    }
    tomb_game game;
    tomb_state root;
    if (tomb_init(&game, rules, flags, pos, &root, err, errlen) < 0) {
        free(s);
        return NULL;
    }
    dfs_init(&s->e, sizeof(frame), 52, mem ? mem : &s->own_mem);
    s->h.driver = &TOMB_DRIVER;
    s->h.e = &s->e;
    s->flags = flags;
    s->table.mem = s->e.mem;   /* made by the first run, under its limits */
    s->table.words = game.key_words;
    start_from(s, &game, &root, pos);
    return s;
}

solver *tomb_search_new(const void *rules, const void *pos, unsigned flags, char *err, int errlen)
{
    tomb_search *s = new_search(rules, pos, flags, err, errlen, NULL);
    return s ? &s->h : NULL;
}

static void free_parts(tomb_search *s);
static void search_free(solver *h);

static int search_reset(solver *h, const void *pos, char *err, int errlen)
{
    tomb_search *s = (tomb_search *)h;
    tomb_game game;
    tomb_state root;
    if (tomb_init(&game, &s->game.rules, s->flags, pos, &root, err, errlen) < 0)
        return -1;
    /* Everything the last search made goes but its table of the first
     * size, kept uncharged: the first run takes it again under its limits
     * and empties it of what it stored (table_reset). */
    if (s->table.capacity != INITIAL_SLOTS)
        table_free(&s->table);
    table_keep(&s->table);
    free_parts(s);
    double max_seconds = s->e.max_seconds;
    dfs_init(&s->e, sizeof(frame), 52, &s->own_mem);
    s->e.max_seconds = max_seconds;
    mem_restart(&s->own_mem);
    start_from(s, &game, &root, pos);
    return 0;
}

static void search_set_limits(solver *h, uint64_t max_positions, double max_seconds, uint64_t max_bytes)
{
    tomb_search *s = (tomb_search *)h;
    s->max_positions = max_positions;
    s->max_bytes = max_bytes;
    dfs_set_limits(&s->e, max_seconds, max_bytes);
}

/* Orders the choice between parking the waste card in a cell and turning
 * over it (the two moves that are neither home moves nor forced). The first
 * search parks a card that fits soon (one card away) or one over a card that
 * fits now and is at most four away; a restart parks at random, likelier the
 * sooner the card fits. Only the order changes: both moves stay. */
static void order_buries(tomb_search *s, const tomb_state *st, frame *f);

static void order_moves(tomb_search *s, const tomb_state *st, frame *f)
{
    if (!(s->game.flags & SOLVER_RESTARTS))
        return;
    if (f->n && TM_ACTION(f->moves[f->n - 1]) == TM_BURY) {
        order_buries(s, st, f);
        return;
    }
    int ic = -1, it = -1;
    for (int i = 0; i < f->n; i++) {
        if (TM_ACTION(f->moves[i]) == SOLVER_TURN)
            it = i;
        else if (TM_SRC(f->moves[i]) == SOLVER_PLACE_WASTE && TM_DST(f->moves[i]) == SOLVER_PLACE_CELL)
            ic = i;
    }
    if (ic < 0 || it < 0)
        return;
    int d = tomb_wait(st, RANK(st->waste[st->nwaste - 1]));
    int below_fits = st->nwaste > 1 && tomb_wait(st, RANK(st->waste[st->nwaste - 2])) == 0;
    int park;
    if (!s->seed)
        park = d <= 1 || (below_fits && d <= 4);
    else {
        int pct = PARK_PCT[d < 5 ? d : 5] + (below_fits ? PARK_OVER_PLAYABLE : 0);
        park = (int)(dfs_next_rand(&s->seed) % 100) < pct;
    }
    if (park != (ic < it)) {
        tomb_move t = f->moves[ic];
        f->moves[ic] = f->moves[it];
        f->moves[it] = t;
    }
}

/* With full-cells, the choice of the card to bury under the next one turned:
 * the turn buries the turned card, a bury a cell card. The first search
 * buries first the card that fits latest (most cards to go home before it);
 * a restart adds a random amount to each card's wait. Only the order
 * changes. The buries and the turn come last among the moves. */
static void order_buries(tomb_search *s, const tomb_state *st, frame *f)
{
    int first = f->n;
    while (first > 0 && (TM_ACTION(f->moves[first - 1]) == TM_BURY || TM_ACTION(f->moves[first - 1]) == SOLVER_TURN))
        first--;
    int key[MAX_MOVES];
    for (int i = first; i < f->n; i++) {
        tomb_move m = f->moves[i];
        int card = TM_ACTION(m) == SOLVER_TURN ? st->stock[st->nstock - 1] : st->cells[TM_IDX(m)];
        int w = tomb_wait(st, RANK(card));
        key[i] = (w > 20 ? 20 : w) * 8 + (s->seed ? (int)(dfs_next_rand(&s->seed) % BURY_NOISE) : 0);
    }
    for (int i = first + 1; i < f->n; i++)   /* insertion sort, most waiting first */
        for (int j = i; j > first && key[j] > key[j - 1]; j--) {
            int k = key[j];
            key[j] = key[j - 1];
            key[j - 1] = k;
            tomb_move t = f->moves[j];
            f->moves[j] = f->moves[j - 1];
            f->moves[j - 1] = t;
        }
}

/* The plain search's family and store (dfs.h): frames of the struct above,
 * the flat table, a child's key made from its parent's. */
static int store_init(void *ctx)
{
    tomb_search *s = ctx;
    if (s->table.slots && !s->table.kept && s->table.count == 0)
        return 0;
    return table_reset(&s->table, INITIAL_SLOTS);
}

static int store_insert(void *ctx, const void *parent, void *f)
{
    (void)parent;
    return table_insert(&((tomb_search *)ctx)->table, ((frame *)f)->key);
}

static int store_needs_growth(const void *ctx)
{
    return table_needs_growth(&((const tomb_search *)ctx)->table);
}
static int store_grow(void *ctx)
{
    return table_grow(&((tomb_search *)ctx)->table);
}
static uint64_t store_count(const void *ctx)
{
    return ((const tomb_search *)ctx)->table.count;
}

static void root_frame(void *ctx, void *frame_p)
{
    tomb_search *s = ctx;
    frame *f = frame_p;
    f->state = s->root;
    tomb_key(&s->game, &s->root, f->key);
}

static int frame_exhausted(const void *f)
{
    return ((const frame *)f)->next == ((const frame *)f)->n;
}
static const void *frame_take(void *f)
{
    return &((frame *)f)->moves[((frame *)f)->next++];
}
static const void *frame_current(const void *f)
{
    return &((const frame *)f)->moves[((const frame *)f)->next - 1];
}

static void child_frame(void *ctx, const void *parent, const void *m, void *frame_p)
{
    tomb_search *s = ctx;
    const frame *p = parent;
    frame *c = frame_p;
    c->state = p->state;
    tomb_apply(&s->game, &c->state, *(const tomb_move *)m, NULL);
    tomb_key_after(&s->game, &p->state, p->key, &c->state, c->key);
}

static int frame_score(const void *ctx, const void *f)
{
    (void)ctx;
    return tomb_score(&((const frame *)f)->state);
}

static void expand_frame(void *ctx, void *frame_p)
{
    tomb_search *s = ctx;
    frame *f = frame_p;
    f->n = (uint8_t)tomb_moves(&s->game, &f->state, f->moves);
    order_moves(s, &f->state, f);
    f->next = 0;
}

/* The Tomb's search checks the table's cap and growth before it pops a
 * frame, and its stop clears the flag it obeys, a parent's too. */
static const dfs_ops TOMB_DFS = {
    .store = { store_init, store_insert, store_needs_growth, store_grow, store_count },
    .move_size = sizeof(tomb_move),
    .first_frames = 256,
    .line_extra = 1,
    .options = DFS_LIMITS_BEFORE_POP | DFS_CLEAR_SHARED_STOP,
    .root = root_frame,
    .exhausted = frame_exhausted,
    .take = frame_take,
    .current = frame_current,
    .child = child_frame,
    .score = frame_score,
    .expand = expand_frame,
};

/* The plain search, from where it stopped, until the table holds cap
 * positions (0: no cap; then SOLVER_LIMIT_POSITIONS). */
static int plain_run(tomb_search *s, uint64_t cap)
{
    int status = dfs_run(&s->e, &TOMB_DFS, s, cap);
    return status == DFS_CAPPED ? dfs_finish(&s->e, SOLVER_LIMIT_POSITIONS) : status;
}

static int use_memo(const tomb_search *s)
{
    return (s->game.flags & SOLVER_SUMMARIES) && (s->game.flags & SOLVER_SUIT_SYMMETRY) && s->game.rules.passes == 1;
}

/* Walks from the root to a position of score `target`, choosing at each step
 * a move after which the summaries say the target is still reachable. */
static int walk(tomb_search *s, int target, void **line, uint64_t *line_cap, int *len)
{
    tomb_state cur = s->root;
    int n = 0, cap = 0;
    tomb_move *l = NULL;
    while (tomb_score(&cur) < target) {
        tomb_move mv[MAX_MOVES];
        int k = tomb_moves(&s->game, &cur, mv), found = 0;
        for (int i = 0; i < k && !found; i++) {
            tomb_state ch = cur;
            tomb_apply(&s->game, &ch, mv[i], NULL);
            int best, st = memo_best(&s->memo, &ch, &best);
            if (st >= 0) {
                free(l);
                return st;
            }
            if (best >= target) {
                if (n == cap) {
                    cap = cap ? cap * 2 : 128;
                    tomb_move *t = realloc(l, sizeof(tomb_move) * (size_t)cap);
                    if (!t) {
                        free(l);
                        return SOLVER_LIMIT_MEMORY;
                    }
                    l = t;
                }
                l[n++] = mv[i];
                cur = ch;
                found = 1;
            }
        }
        if (!found) {
            free(l);
            return SOLVER_ERROR;
        }
    }
    mem_free(s->e.mem, SOLVER_MEM_LINES, *line, *line_cap);
    *line = l;
    *line_cap = sizeof(tomb_move) * (uint64_t)cap;
    mem_note(s->e.mem, SOLVER_MEM_LINES, *line_cap);   /* made once the search is done */
    *len = n;
    return -1;
}

/* The summaries from the root; in a win phase (ph not NULL), they only look
 * for a win and return CAPPED_NO_WIN when there is none in its smaller game. */
static int memo_run(tomb_search *s, double start, double spent, const win_phase *ph)
{
    memo *m = &s->memo;
    if (!s->memo_ready) {
        if (memo_init(m, s->e.mem, &s->game, &s->root) < 0)
            return SOLVER_LIMIT_MEMORY;
        m->waste_cap = ph ? ph->cap : 0;
        m->greedy = ph ? ph->greedy : 0;
        s->memo_ready = 1;
    }
    /* A greedy win phase: the summaries by places apply it themselves
     * (m->greedy); those by control states take their moves from tomb_moves. */
    s->game.flags &= ~TOMB_GREEDY;
    if (m->greedy && !m->by_places)
        s->game.flags |= TOMB_GREEDY;
    m->stop = s->e.stopp;
    /* m->positions counts over all runs, like every limit of the handle. */
    uint64_t used = s->e.earlier + s->table.count;
    if (s->max_positions && used + m->positions >= s->max_positions)
        return SOLVER_LIMIT_POSITIONS;
    m->max_positions = s->max_positions ? s->max_positions - used : 0;
    m->deadline = s->e.max_seconds > 0 ? start + (s->e.max_seconds - spent) : 0;
    m->target = 52;
    int best, st = memo_best(m, &s->root, &best);
    if (st < 0 && ph && best < 52) {
        s->e.stats.positions = s->e.earlier + s->table.count + m->positions;
        return CAPPED_NO_WIN;
    }
    /* Done: either won (best 52), or the call went through every summary
     * reachable and best is the exact best score. */
    if (st < 0) {
        m->target = best;
        tomb_move *line = NULL;
        int len = best == 52 ? memo_win_line(m, &s->root, &line) : -1;
        if (len >= 0) {
            mem_free(s->e.mem, SOLVER_MEM_LINES, s->e.win_line, s->e.win_cap);
            s->e.win_line = line;
            s->e.win_len = len;
            s->e.win_cap = sizeof(tomb_move) * (uint64_t)(len + 1);
            mem_note(s->e.mem, SOLVER_MEM_LINES, s->e.win_cap);   /* made once the search is done */
        } else if (best == 52)
            st = walk(s, 52, &s->e.win_line, &s->e.win_cap, &s->e.win_len);
        else
            st = walk(s, best, &s->e.best_line, &s->e.best_cap, &s->e.best_len);
    }
    s->e.stats.positions = s->e.earlier + s->table.count + m->positions;
    if (st >= 0)
        return st;
    s->e.stats.best_score = best;   /* exact: at least the plain search's best */
    return best == 52 ? SOLVER_WON : SOLVER_LOST;
}

/* Starts a new search from the root (a restart, or the full search after
 * them): the positions so far are counted, and the table is emptied, kept if
 * it already has `slots` slots, else made anew. -1 if memory runs out. */
static int new_round(tomb_search *s, uint64_t slots, uint64_t seed)
{
    dfs_rewind(&s->e, s->table.count);
    if (table_reset(&s->table, slots) < 0)
        return -1;
    s->seed = seed;
    s->round_started = 1;
    return 0;
}

/* Runs a win phase (the summaries in a smaller or greedier game): its win,
 * a limit's status, or CAPPED_NO_WIN, and then the phase decides nothing: its
 * summaries (some cut short) are dropped and the next phase comes. */
static int win_phase_run(tomb_search *s, double start, double spent, const win_phase *ph)
{
    int status = memo_run(s, start, spent, ph);
    if (status != CAPPED_NO_WIN) {
        s->e.stats.seconds = search_clock() - start + spent;
        return status;
    }
    s->e.earlier += s->memo.positions;
    memo_free(&s->memo);
    s->memo_ready = 0;
    s->phase++;
    return CAPPED_NO_WIN;
}

/* The classic phase. Where the rules allow every move of the classic's and
 * more (cells that send back onto the waste, a sixes reserve; one card, one
 * pass), a win line of the classic rules from the same position is a win
 * line: the classic's complete search (by places, under a second) runs
 * first. Its loss decides nothing. Returns SOLVER_WON (with the line), a
 * limit's status (the next run goes on with it), or CAPPED_NO_WIN. */
static int classic_phase(tomb_search *s, double start, double spent)
{
    const tomb_rules *r = &s->game.rules;
    if (r->turn != 1 || r->passes != 1 || !r->cell_to_foundation || s->pos.nreserve
        || !(r->cell_to_waste || r->sixes_reserve || r->cell_to_reserve))
        return CAPPED_NO_WIN;
    if (!s->sub) {
        tomb_rules classic = *r;
        classic.cell_from_cell = classic.cell_to_reserve = classic.cell_to_waste = classic.sixes_reserve = 0;
        char err[200];
        /* The shortcuts asked for: the game's flags but for the two phases switch. */
        s->sub = new_search(&classic, &s->pos, s->game.flags & ~(SOLVER_FULL_CELLS | TOMB_GREEDY), err, (int)sizeof err,
                            s->e.mem);
        if (!s->sub)
            return CAPPED_NO_WIN;   /* a position the classic rules refuse: nothing to learn */
        s->sub->e.stopp = s->e.stopp;
    }
    /* The classic search counts its own positions and seconds over its
     * runs. Its positions are counted on top of the earlier phases' (used),
     * so its limit is what the handle's limit leaves them; its seconds are
     * in the handle's already, so it gets the seconds left on top of its own. */
    solver_stats st;
    solver_get_stats(&s->sub->h, &st);
    uint64_t used = s->e.earlier + s->table.count;
    uint64_t positions = 0;
    if (s->max_positions) {
        if (used + st.positions >= s->max_positions)
            return SOLVER_LIMIT_POSITIONS;
        positions = s->max_positions - used;
    }
    double seconds = 0;
    if (s->e.max_seconds > 0) {
        seconds = s->e.max_seconds - spent - (search_clock() - start);
        if (seconds <= 0)
            return SOLVER_LIMIT_SECONDS;
    }
    solver_set_limits(&s->sub->h, positions, seconds > 0 ? seconds + st.seconds : 0, s->max_bytes);
    int status = solver_run(&s->sub->h);
    solver_get_stats(&s->sub->h, &st);
    s->e.stats.positions = used + st.positions;
    if (status == SOLVER_WON) {
        uint64_t bytes = sizeof(tomb_move) * (uint64_t)(s->sub->e.win_len + 1);
        tomb_move *line = mem_alloc(s->e.mem, SOLVER_MEM_LINES, bytes);
        if (!line)
            return SOLVER_LIMIT_MEMORY;
        memcpy(line, s->sub->e.win_line, sizeof(tomb_move) * (size_t)s->sub->e.win_len);
        mem_free(s->e.mem, SOLVER_MEM_LINES, s->e.win_line, s->e.win_cap);
        s->e.win_line = line;
        s->e.win_cap = bytes;
        s->e.win_len = s->sub->e.win_len;
        s->e.stats.best_score = 52;
        return SOLVER_WON;
    }
    if (status != SOLVER_LOST)
        return status;
    s->e.earlier += st.positions;
    solver_free(&s->sub->h);
    s->sub = NULL;
    return CAPPED_NO_WIN;
}

/* Randomised restarts: small plain searches in random move orders find
 * many wins the first order missed. Each is a complete depth-first search
 * of its own, so one that ends without a limit decides the deal too.
 * Phases 1..restarts, those after plain_restarts with full-cells; -1 once
 * they are done, else the status of the run. */
static int restarts_run(tomb_search *s, int restarts, int plain_restarts, int by_places)
{
    while (s->phase <= restarts) {
        s->game.flags = (s->game.flags & ~SOLVER_FULL_CELLS) | (s->phase > plain_restarts ? s->full_cells : 0);
        if (!s->round_started && new_round(s, RESTART_SLOTS, 0x9e3779b97f4a7c15ull * (uint64_t)s->phase) < 0)
            return dfs_finish(&s->e, SOLVER_LIMIT_MEMORY);
        const uint64_t full = by_places ? RESTART_BUDGET_BY_PLACES : RESTART_BUDGET;
        uint64_t budget = full;
        if (s->max_positions) {
            uint64_t used = s->e.earlier + s->table.count;
            if (used >= s->max_positions)
                return dfs_finish(&s->e, SOLVER_LIMIT_POSITIONS);
            if (s->table.count + (s->max_positions - used) < budget)
                budget = s->table.count + (s->max_positions - used);
        }
        int status = plain_run(s, budget);
        if (status != SOLVER_LIMIT_POSITIONS || s->table.count < full)
            return status;
        s->phase++;
        s->round_started = 0;
        s->seed = 0;
    }
    return -1;
}

/* Phases of a search: the first plain search (0), the randomised restarts
 * (1..restarts), then the summaries (one pass) or the full plain search from
 * the start. Without restarts or summaries, the first search is the full one.
 * A run stopped by a limit goes on in the same phase next time. */
static int staged_run(tomb_search *s)
{
    int by_places = use_memo(s) && memo_by_places(&s->game);
    int per_card = by_places       ? RESTARTS_PER_CARD_BY_PLACES
                   : s->full_cells ? RESTARTS_PER_CARD_BEFORE_FULL_CELLS
                                   : RESTARTS_PER_CARD;
    int cards = s->root.nstock + s->root.nwaste;
    int restarts = (s->game.flags & SOLVER_RESTARTS) ? per_card * cards : 0;
    /* With full-cells (the Finnish rules), the first search and the few
     * restarts above go without it; then restarts with it (a different game
     * to search: they find other wins), then the summaries or the full plain
     * search with it. */
    int plain_restarts = restarts;
    if (s->full_cells && restarts)
        restarts += RESTARTS_PER_CARD_FULL_CELLS * cards;
    /* Then, with the restarts and the summaries (not by places), a greedy
     * phase: the summaries with every card that fits sent home at once - not
     * safe, so it looks for a win only, like the classic's win phases - and
     * the classic phase. */
    int fc_phases = s->full_cells && restarts && use_memo(s) && !by_places;
    s->game.flags &= ~SOLVER_FULL_CELLS;    /* set again by the phases that use it */
    if (!restarts && !use_memo(s)) {
        s->game.flags |= s->full_cells;
        return plain_run(s, s->max_positions);
    }
    if (s->phase == 0) {
        uint64_t first = by_places ? DFS_FIRST_BY_PLACES : DFS_FIRST;
        uint64_t cap = first;
        if (s->max_positions && s->max_positions < cap)
            cap = s->max_positions;
        int status = plain_run(s, cap);
        if (status != SOLVER_LIMIT_POSITIONS || s->table.count < first)
            return status;
        s->phase = 1;
        s->round_started = 0;
    }
    int status = restarts_run(s, restarts, plain_restarts, by_places);
    if (status >= 0)
        return status;
    s->game.flags |= s->full_cells;
    if (!use_memo(s)) {
        /* Several passes (or the summaries switched off): the full plain
         * search from the start, with a fresh table. */
        if (!s->round_started && new_round(s, INITIAL_SLOTS, 0) < 0)
            return dfs_finish(&s->e, SOLVER_LIMIT_MEMORY);
        uint64_t cap = 0;
        if (s->max_positions) {
            if (s->e.earlier >= s->max_positions)
                return dfs_finish(&s->e, SOLVER_LIMIT_POSITIONS);
            cap = s->max_positions - s->e.earlier;
        }
        return plain_run(s, cap);
    }
    double start = search_clock(), spent = s->e.stats.seconds;
    /* The win phases: small, and they find most of the wins the restarts
     * missed. By places the two of WIN_PHASES; with full-cells the greedy one. */
    static const win_phase GREEDY[] = { { 0, 1 } };
    const win_phase *phases = by_places ? WIN_PHASES : GREEDY;
    int nphases = !(s->game.flags & SOLVER_RESTARTS) ? 0 : by_places ? N_WIN_PHASES : fc_phases;
    while (s->phase > restarts && s->phase <= restarts + nphases) {
        status = win_phase_run(s, start, spent, &phases[s->phase - restarts - 1]);
        if (status != CAPPED_NO_WIN)
            return dfs_finish(&s->e, status);
    }
    if (fc_phases && s->phase == restarts + nphases + 1) {
        status = classic_phase(s, start, spent);
        if (status != CAPPED_NO_WIN) {
            s->e.stats.seconds = search_clock() - start + spent;
            return dfs_finish(&s->e, status);
        }
        s->phase++;
    }
    status = memo_run(s, start, spent, NULL);
    s->e.stats.seconds = search_clock() - start + spent;
    return dfs_finish(&s->e, status);
}

static int search_run(solver *h)
{
    tomb_search *s = (tomb_search *)h;
    if (s->e.finished)
        return s->e.status;
    /* The lines read after an earlier run may change: make them anew. */
    for (int i = 0; i < 2; i++) {
        free(s->lines_out[i]);
        s->lines_out[i] = NULL;
    }
    int status = staged_run(s);
    if (status == SOLVER_INTERRUPTED)   /* the stop is used up */
        __atomic_store_n(s->e.stopp, 0, __ATOMIC_RELAXED);
    return status;
}

/* The line of the search (a bury counts once) and its length. */
static int search_line(const tomb_search *s, int which, const tomb_move **line)
{
    *line = (which == 0 || s->e.status == SOLVER_WON) ? s->e.win_line : s->e.best_line;
    if (which == 0)
        return s->e.status == SOLVER_WON ? s->e.win_len : -1;
    /* A won deal's best line is its win line. */
    return s->e.status == SOLVER_WON ? s->e.win_len : s->e.best_len;
}

/* The length of a line in moves of the rules: a bury is three. */
static int search_line_length(const solver *h, int which)
{
    const tomb_search *s = (const tomb_search *)h;
    const tomb_move *line;
    int len = search_line(s, which, &line), out = len;
    for (int i = 0; i < len; i++)
        out += TM_ACTION(line[i]) == TM_BURY ? 2 : 0;
    return out;
}

static solver_move *make_line(tomb_search *s, int which)
{
    const tomb_move *line;
    int len = search_line(s, which, &line);
    if (len < 0)
        return NULL;
    solver_move *out = calloc((size_t)search_line_length(&s->h, which) + 1, sizeof *out);
    if (!out)
        return NULL;
    tomb_state st = s->root;
    for (int i = 0, k = 0; i < len; i++) {
        if (TM_ACTION(line[i]) == TM_BURY) {
            tomb_apply(&s->game, &st, TM_MAKE(SOLVER_MOVE, SOLVER_PLACE_CELL, SOLVER_PLACE_WASTE, TM_IDX(line[i])),
                       &out[k++]);
            tomb_apply(&s->game, &st, TM_MAKE(SOLVER_TURN, 0, 0, 0), &out[k++]);
            tomb_apply(&s->game, &st, TM_MAKE(SOLVER_MOVE, SOLVER_PLACE_WASTE, SOLVER_PLACE_CELL, 0), &out[k++]);
        } else {
            tomb_apply(&s->game, &st, line[i], &out[k++]);
        }
    }
    return out;
}

static int search_line_move(const solver *h, int which, int index, solver_move *out)
{
    tomb_search *m = (tomb_search *)h;    /* the line is made once, on first reading */
    if (which < 0 || which > 1 || index < 0 || index >= search_line_length(h, which))
        return -1;
    if (!m->lines_out[which] && !(m->lines_out[which] = make_line(m, which)))
        return -1;
    *out = m->lines_out[which][index];
    return 0;
}

/* What a search holds but its handle and table. */
static void free_parts(tomb_search *s)
{
    dfs_free(&s->e);
    for (int i = 0; i < 2; i++) {
        free(s->lines_out[i]);
        s->lines_out[i] = NULL;
    }
    if (s->memo_ready)
        memo_free(&s->memo);
    s->memo_ready = 0;
    if (s->sub)
        search_free(&s->sub->h);
    s->sub = NULL;
}

static void search_free(solver *h)
{
    tomb_search *s = (tomb_search *)h;
    table_free(&s->table);
    free_parts(s);
    free(s);
}

/* The Tomb has no bound on the score short of a win: solver_root_bound
 * says 52. */
static const search_driver TOMB_DRIVER = {
    .set_limits = search_set_limits,
    .run = search_run,
    .line_length = search_line_length,
    .line_move = search_line_move,
    .root_bound = NULL,
    .reset = search_reset,
    .free = search_free,
};
