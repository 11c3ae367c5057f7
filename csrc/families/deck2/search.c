/* search.c - the two-deck games' search (deck2_search_new, deck2_ops.h): rounds
 * of the full search and of restarts (each in a second search, reset for
 * each: dfs_reset), the prefix restarts along the best line, over the one
 * depth-first search engine (dfs.h) with the tree-shaped exact table
 * (ctable.c); its side of the verbs of solver.h (handle.h).
 */
#include <stdlib.h>
#include <string.h>

#include "deck2_ops.h"
#include "ctable.h"
#include "clock.h"
#include "mem.h"
#include "dfs.h"
#include "handle.h"


/* The staged search (DECK2_RESTARTS), docs/search.md "restarts": rounds of a
 * full search and of restarts. Round r lets the full search store up to
 * FIRST_BUDGET << r positions, then runs restarts for as many positions as
 * the full search has stored in all (FIRST_SHARE times as many until the
 * first FIRST_RESTARTS restarts are done). A restart is a search with a
 * fresh table of its own: from the root in a random move order (within
 * the family's priority groups), RESTART_BUDGET positions each for the
 * first FIRST_RESTARTS; then, in turn, one from a position on the best line
 * found so far, some moves before one of its milestones or its end, in the
 * family's order, with PREFIX_BUDGET positions (doubled each time every
 * point of the line was tried), and random ones of TAIL_BUDGET positions
 * until they have stored as many positions as it did. With DECK2_ORDERS,
 * restart k from the root searches in the family's move order k modulo its
 * orders (Porta-Jóias: three orders of the reserves). The restarts only
 * ever find wins and better lines (their lines are real lines); "lost"
 * comes only from a search from the root that stored every reachable
 * position: the full search, which every stage leaves as it was, or a
 * random restart. */
#define FIRST_BUDGET 100000
#ifndef RESTART_BUDGET
#define RESTART_BUDGET 10000
#endif
#ifndef PREFIX_BUDGET
#define PREFIX_BUDGET 100000
#endif
#define FIRST_RESTARTS 1000
#ifndef TAIL_BUDGET
#define TAIL_BUDGET 1000
#endif
#define FIRST_SHARE 3
#define MAX_POINTS 64
#define MAX_ROUNDS 30             /* then the full search alone, to the end */
#define PHASE_DONE (-2)
enum { STAGE_FULL, STAGE_RESTARTS, STAGE_TO_END };

typedef struct deck2_search deck2_search;

struct deck2_search {
    solver h;                   /* the handle (handle.h): first */
    dfs e;                      /* the search: stack, limits, stats, lines */
    void *rules;                /* a copy of the family's, as given: a reset makes its new search with them */
    deck2_ops fam;
    const deck2_game *game;     /* the family's state and its setup */
    void *root;
    ctable table;
    deck2_search *sub;          /* the search the restarts run in, once made */
    uint64_t max_bytes;
    mem_account own_mem;        /* the account of this search and its restarts */
    solver_move *out[2];        /* the lines as solution-format moves, made on demand */
    int out_len[2];
    unsigned flags;
    uint64_t seed;              /* non-zero: moves in a random order (a restart) */
    uint64_t key[G_KEY_WORDS_MAX];   /* the key of the child made last, for the table */
    /* The staged search (e.earlier: the positions the restarts have
     * stored; the rest are the full search's): */
    int stage, round;           /* STAGE_*; the round */
    uint64_t round_left;        /* positions the restarts of this round may still store */
    int restarts;               /* restarts run, for their seeds */
    int points[MAX_POINTS];     /* depths on the best line the prefix restarts start from */
    int npoints, next_point;    /* (none made yet: npoints 0) */
    uint64_t prefix_budget;
    uint64_t random_due;        /* positions the random restarts owe the last prefix restart */
    int prune_at;               /* a restart: the best score of its parent (no line below it is wanted) */
};

/* A frame: n, next and where the moves start, then the state's path in
 * the table (its children's keys are looked up from it), the state, then
 * room for the family's most moves (deck2_ops.h max_moves): the deepest
 * searches hold hundreds of thousands of frames. */
typedef struct {
    uint16_t n, next, moves_at;
} frame_head;

static size_t align8(size_t n)
{
    return (n + 7) & ~(size_t)7;
}

static frame_head *frame_hd(const void *f)
{
    return (frame_head *)f;
}

static ctable_path *frame_path(const void *f)
{
    return (ctable_path *)((unsigned char *)f + align8(sizeof(frame_head)));
}

static void *frame_state(const void *f)
{
    return (unsigned char *)frame_path(f) + align8(sizeof(ctable_path));
}

static gmove *frame_moves(const void *f)
{
    return (gmove *)((unsigned char *)f + frame_hd(f)->moves_at);
}

/* Where a frame's moves start: after its state. */
static uint16_t moves_offset(const deck2_search *s)
{
    return (uint16_t)(align8(sizeof(frame_head)) + align8(sizeof(ctable_path)) + align8(s->fam.state_size));
}

/* The two-deck games' side of the verbs (handle.h), at the end. */
static const search_driver DECK2_DRIVER;
static void search_free(solver *h);
static void search_set_limits(solver *h, uint64_t max_positions, double max_seconds, uint64_t max_bytes);

/* What every search sets up once its family is known: the handle, the
 * frame size, the flags and the stage; -1 if memory runs out. */
static int start_search(deck2_search *s, unsigned flags, mem_account *mem)
{
    size_t frame_size = align8(moves_offset(s) + sizeof(gmove) * (size_t)deck2_max_moves(&s->fam));
    dfs_init(&s->e, frame_size, s->fam.max_score, mem);
    s->h.driver = &DECK2_DRIVER;
    s->h.e = &s->e;
    s->flags = flags;
    s->stage = (flags & DECK2_RESTARTS) ? STAGE_FULL : STAGE_TO_END;
    s->prefix_budget = PREFIX_BUDGET;
    return 0;
}

static deck2_search *new_search(const deck2_game *game, const void *rules, const void *pos, unsigned flags, char *err,
                                int errlen)
{
    deck2_search *s = calloc(1, sizeof *s);
    if (!s) {
        rules_fail(err, errlen, "out of memory");
        return NULL;
    }
    s->game = game;
    s->root = calloc(1, game->state_size());
    s->rules = malloc(game->rules_size);
    if (s->rules)
        memcpy(s->rules, rules, game->rules_size);
    int rc = -1;
    if (!s->root || !s->rules)
        rules_fail(err, errlen, "out of memory");
    else
        rc = game->init(&s->fam, rules, pos, flags, s->root, err, errlen);
    if (rc == 0 && start_search(s, flags, &s->own_mem) < 0) {
        rules_fail(err, errlen, "out of memory");
        rc = -1;
    }
    if (rc < 0) {
        if (s->fam.free_game)
            s->fam.free_game(s->fam.game);
        free(s->root);
        free(s->rules);
        free(s);
        return NULL;
    }
    s->e.stats.best_score = s->fam.score(s->fam.game, s->root);
    return s;
}

solver *deck2_search_new(const deck2_game *game, const void *rules, const void *pos, unsigned flags, char *err,
                         int errlen)
{
    deck2_search *s = new_search(game, rules, pos, flags, err, errlen);
    return s ? &s->h : NULL;
}

static void free_parts(deck2_search *s);

/* The two-deck games' searches are long, and their tables their own: a
 * reset makes a new search (it has run nothing, so only its handle, engine
 * and account point into it) and moves it into the handle. */
static int search_reset(solver *h, const void *pos, char *err, int errlen)
{
    deck2_search *s = (deck2_search *)h;
    deck2_search *n = new_search(s->game, s->rules, pos, s->flags, err, errlen);
    if (!n)
        return -1;
    uint64_t max_positions = s->e.max_positions, max_bytes = s->max_bytes;
    double max_seconds = s->e.max_seconds;
    free_parts(s);
    n->h.family = s->h.family;
    *s = *n;
    free(n);
    s->h.e = &s->e;
    s->e.stopp = &s->e.stop;
    s->e.mem = &s->own_mem;
    search_set_limits(&s->h, max_positions, max_seconds, max_bytes);
    return 0;
}

/* The search the restarts run in, made at the first: the same game (not
 * freed with it), its own table, stack and lines, and the parent's stop
 * flag stops it. Each restart resets it (dfs_reset), so its stack and lines
 * are made once; its table is freed at the end of each restart. */
static deck2_search *restart_search(deck2_search *parent)
{
    if (parent->sub)
        return parent->sub;
    deck2_search *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->game = parent->game;
    s->fam = parent->fam;
    s->fam.free_game = NULL;
    s->root = malloc(s->fam.state_size);
    if (!s->root || start_search(s, parent->flags & ~DECK2_RESTARTS, parent->e.mem) < 0) {
        free(s->root);
        free(s);
        return NULL;
    }
    s->e.stopp = &parent->e.stop;
    return parent->sub = s;
}

static void search_set_limits(solver *h, uint64_t max_positions, double max_seconds, uint64_t max_bytes)
{
    deck2_search *s = (deck2_search *)h;
    s->e.max_positions = max_positions;
    s->max_bytes = max_bytes;
    dfs_set_limits(&s->e, max_seconds, max_bytes);
}

/* The search's family and store (dfs.h): the family's functions, the
 * tree-shaped table, a child's key looked up from its parent's path. */
static int store_init(void *ctx)
{
    deck2_search *s = ctx;
    if (s->table.vals)
        return 0;
    if (ctable_init(&s->table, s->e.mem, s->fam.key_words) < 0) {
        ctable_free(&s->table);
        return -1;
    }
    return 0;
}

static int store_insert(void *ctx, const void *parent, void *f)
{
    deck2_search *s = ctx;
    return ctable_insert(&s->table, s->key, parent ? frame_path(parent) : NULL, frame_path(f));
}

static int store_needs_growth(const void *ctx)
{
    return ctable_needs_growth(&((const deck2_search *)ctx)->table);
}
static int store_grow(void *ctx)
{
    return ctable_grow(&((deck2_search *)ctx)->table);
}
static uint64_t store_count(const void *ctx)
{
    return ctable_count(&((const deck2_search *)ctx)->table);
}

static void root_frame(void *ctx, void *f)
{
    deck2_search *s = ctx;
    frame_hd(f)->moves_at = moves_offset(s);
    memcpy(frame_state(f), s->root, s->fam.state_size);
    s->fam.key(s->fam.game, s->root, s->key);
}

static int frame_exhausted(const void *f)
{
    return frame_hd(f)->next == frame_hd(f)->n;
}
static const void *frame_take(void *f)
{
    return &frame_moves(f)[frame_hd(f)->next++];
}
static const void *frame_current(const void *f)
{
    return &frame_moves(f)[frame_hd(f)->next - 1];
}

static void child_frame(void *ctx, const void *parent, const void *m, void *f)
{
    deck2_search *s = ctx;
    frame_hd(f)->moves_at = moves_offset(s);
    memcpy(frame_state(f), frame_state(parent), s->fam.state_size);
    s->fam.apply(s->fam.game, frame_state(f), m);
    s->fam.key(s->fam.game, frame_state(f), s->key);
}

static int frame_score(const void *ctx, const void *f)
{
    const deck2_search *s = ctx;
    return s->fam.score(s->fam.game, frame_state(f));
}

/* Shortcut "dead-cards" (docs/search.md): a position that cannot win
 * nor beat the best score seen is stored but not expanded. */
static int dead_cards(void *ctx, const void *f, const void *m, int best_seen)
{
    deck2_search *s = ctx;
    if (!s->fam.bound || !(s->flags & DECK2_DEAD_CARDS))
        return 0;
    int best = best_seen > s->prune_at ? best_seen : s->prune_at;
    int u = s->fam.bound(s->fam.game, frame_state(f), m, best);
    return u < s->fam.max_score && u <= best;
}

/* A random order within the priority groups; now and then a move jumps
 * to the first group. */
static void shuffle_moves(deck2_search *s, gmove *mv, int n)
{
    uint8_t key[G_MAX_MOVES];
    for (int k = n - 1; k >= 0; k--) {
        uint64_t r = dfs_next_rand(&s->seed);
        int j = (int)(r % (uint64_t)(k + 1));
        gmove t = mv[k];
        mv[k] = mv[j];
        mv[j] = t;
        key[k] = (r >> 32) % 8 == 0 ? 0 : mv[k].prio;
    }
    for (int a = 1; a < n; a++)
        for (int b = a; b > 0 && key[b] < key[b - 1]; b--) {
            gmove t = mv[b];
            mv[b] = mv[b - 1];
            mv[b - 1] = t;
            uint8_t u = key[b];
            key[b] = key[b - 1];
            key[b - 1] = u;
        }
}

static void expand_frame(void *ctx, void *f)
{
    deck2_search *s = ctx;
    frame_head *h = frame_hd(f);
    h->n = (uint16_t)s->fam.moves(s->fam.game, frame_state(f), frame_moves(f));
    if (h->n > deck2_max_moves(&s->fam))
        abort();        /* the family's max_moves is wrong: a frame overran */
    h->next = 0;
    if (s->seed && h->n > 1)
        shuffle_moves(s, frame_moves(f), h->n);
}

/* The two-deck search pops a finished frame before it checks the limits
 * on positions and growth; a restart's stop leaves its parent's flag set
 * (the parent's run clears it). */
static const dfs_ops DECK2_DFS = {
    .store = { store_init, store_insert, store_needs_growth, store_grow, store_count },
    .move_size = sizeof(gmove),
    .first_frames = 64,
    .line_extra = 0,
    .options = 0,
    .root = root_frame,
    .exhausted = frame_exhausted,
    .take = frame_take,
    .current = frame_current,
    .child = child_frame,
    .score = frame_score,
    .prune = dead_cards,
    .expand = expand_frame,
};

/* The search, from where it stopped; with cap > 0 it returns PHASE_DONE
 * once the table holds cap positions. */
static int plain_run(deck2_search *s, uint64_t cap)
{
    int status = dfs_run(&s->e, &DECK2_DFS, s, cap);
    return status == DFS_CAPPED ? PHASE_DONE : status;
}

/* Copies line[0..n) then more[0..m) into *out, charged *cap bytes. */
static int join_lines(mem_account *mem, void **out, uint64_t *cap, const gmove *line, int n, const gmove *more, int m)
{
    if (n < 0 || m < 0)
        return -1;
    uint64_t bytes = sizeof(gmove) * (uint64_t)(n + m > 0 ? n + m : 1);
    gmove *l = mem_alloc(mem, SOLVER_MEM_LINES, bytes);
    if (!l)
        return -1;
    memcpy(l, line, sizeof(gmove) * (size_t)n);
    memcpy(l + n, more, sizeof(gmove) * (size_t)m);
    mem_free(mem, SOLVER_MEM_LINES, *out, *cap);
    *out = l;
    *cap = bytes;
    return n + m;
}


/* The end of a restart: its table freed, as the search it leaves makes its own. */
static void end_restart(deck2_search *r)
{
    ctable_free(&r->table);
}

/* One restart: a search of its own from the position after the first
 * `depth` moves of the best line (0: the root), in a random order (seed) or
 * the family's (seed 0), within `budget` positions and what is left of the
 * limits. Returns its status; a better line or a win becomes this search's
 * (the prefix, then the restart's line). A restart from the root that stored
 * every position it reaches proves the deal lost: SOLVER_LOST. One from a
 * later position proves only that its position is lost: PHASE_DONE. */
static int restart(deck2_search *s, int depth, uint64_t seed, uint64_t budget)
{
    deck2_search *r = restart_search(s);
    if (!r)
        return SOLVER_LIMIT_MEMORY;
    dfs_reset(&r->e);
    memcpy(r->root, s->root, s->fam.state_size);
    for (int i = 0; i < depth; i++)
        s->fam.apply(s->fam.game, r->root, &((const gmove *)s->e.best_line)[i]);
    if (seed && s->fam.set_order && (s->flags & DECK2_ORDERS))
        s->fam.set_order(r->root, s->restarts % s->fam.orders);
    r->e.stats.best_score = s->fam.score(s->fam.game, r->root);
    r->prune_at = s->e.stats.best_score;
    r->seed = seed;
    if (s->e.max_positions) {
        uint64_t left = s->e.max_positions > s->e.stats.positions ? s->e.max_positions - s->e.stats.positions : 1;
        if (budget > left)
            budget = left;
    }
    if (budget > s->round_left)
        budget = s->round_left ? s->round_left : 1;
    double seconds = 0;
    if (s->e.max_seconds > 0)
        seconds = s->e.max_seconds > s->e.stats.seconds ? s->e.max_seconds - s->e.stats.seconds : 1e-9;
    /* The restart charges this search's account: the memory limit is on both. */
    solver_set_limits(&r->h, budget, seconds, s->max_bytes);
    int st = plain_run(r, 0);
    s->e.stats.positions += r->e.stats.positions;
    s->e.earlier += r->e.stats.positions;
    s->e.stats.expanded += r->e.stats.expanded;
    s->e.stats.seconds += r->e.stats.seconds;
    s->round_left = s->round_left > r->e.stats.positions ? s->round_left - r->e.stats.positions : 0;
    if (r->e.stats.best_score > s->e.stats.best_score && r->e.best_len > 0) {
        if (join_lines(s->e.mem, &s->e.best_line, &s->e.best_cap, s->e.best_line, depth, r->e.best_line, r->e.best_len)
            < 0) {
            end_restart(r);
            return SOLVER_LIMIT_MEMORY;
        }
        s->e.best_len = depth + r->e.best_len;
        s->e.stats.best_score = r->e.stats.best_score;
        s->npoints = 0;         /* the points of the new line */
    }
    if (st == SOLVER_WON) {
        s->e.win_len =
            join_lines(s->e.mem, &s->e.win_line, &s->e.win_cap, s->e.best_line, depth, r->e.win_line, r->e.win_len);
        if (s->e.win_len < 0)
            st = SOLVER_LIMIT_MEMORY;
    }
    end_restart(r);
    if (st == SOLVER_LOST && depth > 0)
        return PHASE_DONE;
    return st;
}

/* The depths of the best line the prefix restarts start from, tried in
 * this order: some moves before each of the family's milestones, the last
 * first (a redeal: a restart there revises the pass before it), then
 * 4, 8, 16, ... moves before the line's end. */
static void make_points(deck2_search *s)
{
    static const int before[] = { 2, 5, 10, 20, 30, 40 };
    int n = 0;
    for (int i = s->e.best_len - 1; i >= 0 && s->fam.milestone; i--)
        if (s->fam.milestone(&((const gmove *)s->e.best_line)[i]))
            for (size_t k = 0; k < sizeof before / sizeof *before && n < MAX_POINTS / 2; k++)
                if (i - before[k] > 0)
                    s->points[n++] = i - before[k];
    for (int back = 4; back < s->e.best_len && n < MAX_POINTS; back *= 2)
        s->points[n++] = s->e.best_len - back;
    s->npoints = n;
    s->next_point = 0;
}

/* The next restart: the first FIRST_RESTARTS from the root in a random
 * order, RESTART_BUDGET positions each; then, in turn, one from a point of
 * the best line (each point once, then all again with twice the budget) and
 * as many random ones of TAIL_BUDGET positions as store the positions it
 * stored. */
static int next_restart(deck2_search *s)
{
    s->restarts++;
    uint64_t before = s->e.stats.positions;
    int tail = s->restarts > FIRST_RESTARTS, st;
    if (tail && !s->random_due && s->e.best_len > 0) {
        if (!s->npoints)
            make_points(s);
        if (s->npoints) {
            if (s->next_point == s->npoints) {
                s->next_point = 0;
                s->prefix_budget *= 2;
            }
            st = restart(s, s->points[s->next_point++], 0, s->prefix_budget);
            s->random_due = s->e.stats.positions - before;
            return st;
        }
    }
    uint64_t seed = 0x9e3779b97f4a7c15ull * (uint64_t)s->restarts ^ 0xd1b54a32d192ed03ull;
    st = restart(s, 0, seed, tail ? TAIL_BUDGET : RESTART_BUDGET);
    uint64_t used = s->e.stats.positions - before;
    s->random_due = s->random_due > used ? s->random_due - used : 0;
    return st;
}

static int search_run(solver *h)
{
    deck2_search *s = (deck2_search *)h;
    if (s->e.finished)
        return s->e.status;
    while (s->stage != STAGE_TO_END) {
        if (s->stage == STAGE_FULL) {
            int st = plain_run(s, (uint64_t)FIRST_BUDGET << s->round);
            if (st != PHASE_DONE)
                return st;
            /* The restarts of this round may store as many positions as the
             * full search has stored in all, FIRST_SHARE times as many
             * until the first restarts are done. */
            s->round_left = s->e.stats.positions - s->e.earlier;
            if (s->restarts < FIRST_RESTARTS)
                s->round_left *= FIRST_SHARE;
            s->stage = STAGE_RESTARTS;
        }
        while (s->round_left > 0) {
            int st = next_restart(s);
            if (st == SOLVER_WON || st == SOLVER_LOST) {
                /* A win is a line; a restart from the root that stored
                 * every reachable position (in another order) is the proof,
                 * and its best line the best. */
                s->e.depth = st == SOLVER_LOST ? 0 : s->e.depth;
                return dfs_finish(&s->e, st);
            }
            if (st == SOLVER_INTERRUPTED) {
                __atomic_store_n(&s->e.stop, 0, __ATOMIC_RELAXED);
                return s->e.status = st;
            }
            /* A restart ends at its own budget; the caller's limits end the run. */
            if (s->e.max_positions && s->e.stats.positions >= s->e.max_positions)
                return s->e.status = SOLVER_LIMIT_POSITIONS;
            if (s->e.max_seconds > 0 && s->e.stats.seconds >= s->e.max_seconds)
                return s->e.status = SOLVER_LIMIT_SECONDS;
            if (st == SOLVER_LIMIT_MEMORY)
                return s->e.status = st;
        }
        s->round++;
        s->stage = s->round < MAX_ROUNDS ? STAGE_FULL : STAGE_TO_END;
    }
    return plain_run(s, 0);
}

/* The solution-format moves of line `which`, made once. */
static int build_out(deck2_search *s, int which)
{
    if (s->out[which])
        return s->out_len[which];
    const gmove *line = which == 0 ? s->e.win_line : s->e.best_line;
    int len = which == 0 ? s->e.win_len : s->e.best_len;
    if (which == 0 && s->e.status != SOLVER_WON)
        return -1;
    if (len <= 0 || !line) {
        s->out[which] = malloc(sizeof(solver_move));
        s->out_len[which] = 0;
        return s->out[which] ? 0 : -1;
    }
    solver_move *out = malloc(sizeof(solver_move) * (size_t)len * 3);
    void *st = malloc(s->fam.state_size);
    if (!out || !st) {
        free(out);
        free(st);
        return -1;
    }
    memcpy(st, s->root, s->fam.state_size);
    int n = 0;
    for (int i = 0; i < len; i++) {
        n += s->fam.describe(s->fam.game, st, &line[i], out + n);
        s->fam.apply(s->fam.game, st, &line[i]);
    }
    free(st);
    s->out[which] = out;
    s->out_len[which] = n;
    return n;
}

static int search_line_length(const solver *h, int which)
{
    if (which != 0 && which != 1)
        return -1;
    return build_out((deck2_search *)h, which);
}

static int search_line_move(const solver *h, int which, int index, solver_move *out)
{
    const deck2_search *s = (const deck2_search *)h;
    int n = search_line_length(h, which);
    if (n < 0 || index < 0 || index >= n)
        return -1;
    *out = s->out[which][index];
    return 0;
}

static int search_root_bound(const solver *h)
{
    const deck2_search *s = (const deck2_search *)h;
    return s->fam.bound ? s->fam.bound(s->fam.game, s->root, NULL, s->fam.max_score) : s->fam.max_score;
}

/* What a search holds but its struct. */
static void free_parts(deck2_search *s)
{
    ctable_free(&s->table);
    if (s->sub)
        search_free(&s->sub->h);
    dfs_free(&s->e);
    free(s->out[0]);
    free(s->out[1]);
    if (s->fam.free_game)
        s->fam.free_game(s->fam.game);
    free(s->root);
    free(s->rules);
}

static void search_free(solver *h)
{
    free_parts((deck2_search *)h);
    free(h);
}

static const search_driver DECK2_DRIVER = {
    .set_limits = search_set_limits,
    .run = search_run,
    .line_length = search_line_length,
    .line_move = search_line_move,
    .root_bound = search_root_bound,
    .reset = search_reset,
    .free = search_free,
};
