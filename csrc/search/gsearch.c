/* gsearch.c - the depth-first search of the two-deck games (deck2.h).
 *
 * Every position reachable from the root through the moves the family
 * generates is stored once in the exact transposition table (table.c) and
 * expanded once. The search stops at the first win; if the stack empties,
 * every reachable position was explored and none is won: the deal is lost,
 * and the best score is the highest score of any stored position, with the
 * line that reached it. A limit stops a run between two positions and leaves
 * the stack as it is, so the next run goes on from there.
 */
#include <stdlib.h>
#include <string.h>

#include "family.h"
#include "ctable.h"
#include "clock.h"
#include "mem.h"


/* The staged search (D2_RESTARTS), docs/search.md "restarts": rounds of a
 * full search and of restarts. Round r lets the full search store up to
 * FIRST_BUDGET << r positions, then runs restarts for as many positions as
 * the full search has stored in all (FIRST_SHARE times as many until the
 * first FIRST_RESTARTS restarts are done). A restart is a search with a fresh table of its
 * own: from the root in a random move order (within the family's priority
 * groups), RESTART_BUDGET positions; or, after the first FIRST_RESTARTS
 * restarts, every other one from a position on the best line found so far,
 * some moves before one of its milestones or its end, in the family's
 * order, with PREFIX_BUDGET positions (doubled each time every point of
 * the line was tried). The restarts only ever find wins and better lines
 * (their lines are real lines); "lost" comes only from a search from the
 * root that stored every reachable position: the full search, which every
 * stage leaves as it was, or a random restart. */
#define FIRST_BUDGET 100000
#ifndef RESTART_BUDGET
#define RESTART_BUDGET 10000
#endif
#ifndef PREFIX_BUDGET
#define PREFIX_BUDGET 100000
#endif
#define FIRST_RESTARTS 1000
#define FIRST_SHARE 3
#define MAX_POINTS 64
#define MAX_ROUNDS 30             /* then the full search alone, to the end */
#define PHASE_DONE (-2)
enum { STAGE_FULL, STAGE_RESTARTS, STAGE_TO_END };

struct d2_solver {
    family fam;
    void *root;
    ctable table;
    unsigned char *stack;       /* frames of frame_size bytes */
    size_t frame_size;
    int depth, stack_cap;
    unsigned char *spare;       /* the stack of the last restart, for the next (frames of the same size) */
    int spare_cap;
    int started, finished, status;
    uint64_t max_positions, max_bytes;
    double max_seconds;
    int stop;
    solver_stats stats;
    gmove *win_line, *best_line;
    int win_len, best_len;
    uint64_t win_cap, best_cap;  /* bytes charged for each line */
    mem_account own_mem;        /* the account of this search and its restarts */
    mem_account *mem;           /* the one it charges: its own, or its parent's */
    d2_move *out[2];            /* the lines as solution-format moves, made on demand */
    int out_len[2];
    unsigned flags;
    uint64_t seed;              /* non-zero: moves in a random order (a restart) */
    int *stop_flag;             /* the flag this search reads: its own, or its parent's */
    /* The staged search: */
    int stage, round;           /* STAGE_*; the round */
    uint64_t restart_positions; /* positions the restarts have stored (the rest are the full search's) */
    uint64_t round_left;        /* positions the restarts of this round may still store */
    int restarts;               /* restarts run, for their seeds */
    int points[MAX_POINTS];     /* depths on the best line the prefix restarts start from */
    int npoints, next_point;    /* (none made yet: npoints 0) */
    uint64_t prefix_budget;
    int prune_at;               /* a restart: the best score of its parent (no line below it is wanted) */
};

/* A frame: the state, then n and next, then the state's path in the table
 * (its children's keys are looked up from it), then the moves. */
typedef struct {
    uint16_t n, next;
} frame_head;

static size_t align8(size_t n) { return (n + 7) & ~(size_t)7; }

static void *frame_state(const d2_solver *s, int i)
{
    return s->stack + (size_t)i * s->frame_size;
}

static frame_head *frame_hd(const d2_solver *s, int i)
{
    return (frame_head *)(s->stack + (size_t)i * s->frame_size + align8(s->fam.state_size));
}

static ctable_path *frame_path(const d2_solver *s, int i)
{
    return (ctable_path *)((unsigned char *)frame_hd(s, i) + align8(sizeof(frame_head)));
}

static gmove *frame_moves(const d2_solver *s, int i)
{
    return (gmove *)((unsigned char *)frame_path(s, i) + align8(sizeof(ctable_path)));
}

/* What every search sets up once its family is known: the
 * frame size, the flags and the stage; -1 if memory runs out. */
static int start_search(d2_solver *s, unsigned flags)
{
    s->frame_size = align8(align8(s->fam.state_size) + align8(sizeof(frame_head)) + align8(sizeof(ctable_path))
                           + sizeof(gmove) * G_MAX_MOVES);
    s->status = -1;
    s->flags = flags;
    s->stop_flag = &s->stop;
    s->stage = (flags & D2_RESTARTS) ? STAGE_FULL : STAGE_TO_END;
    s->prefix_budget = PREFIX_BUDGET;
    return 0;
}

d2_solver *d2_new(const d2_rules *rules, const d2_position *pos, unsigned flags, char *err, int errlen)
{
    d2_solver *s = calloc(1, sizeof *s);
    if (!s) {
        family_fail(err, errlen, "out of memory");
        return NULL;
    }
    size_t size = rules->family == D2_JEWEL ? jewel_state_size() : napoleao_state_size();
    s->root = calloc(1, size);
    s->mem = &s->own_mem;
    int rc = -1;
    if (!s->root)
        family_fail(err, errlen, "out of memory");
    else if (rules->family == D2_NAPOLEAO)
        rc = napoleao_init(&s->fam, rules, pos, flags, s->root, err, errlen);
    else if (rules->family == D2_JEWEL)
        rc = jewel_init(&s->fam, rules, pos, flags, s->root, err, errlen);
    else
        family_fail(err, errlen, "rules: unknown game family");
    if (rc == 0 && start_search(s, flags) < 0) {
        family_fail(err, errlen, "out of memory");
        rc = -1;
    }
    if (rc < 0) {
        if (s->fam.free_game)
            s->fam.free_game(s->fam.game);
        free(s->root);
        free(s);
        return NULL;
    }
    s->stats.best_score = s->fam.score(s->fam.game, s->root);
    return s;
}

/* A fresh search over the same game and root, for a restart: its own table,
 * stack and lines; the family's game stays the parent's (it is not freed
 * with the restart), and the parent's stop flag stops it. */
static d2_solver *fork_search(d2_solver *parent)
{
    d2_solver *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->fam = parent->fam;
    s->fam.free_game = NULL;
    s->root = malloc(s->fam.state_size);
    s->mem = parent->mem;
    if (!s->root || start_search(s, parent->flags & ~D2_RESTARTS) < 0) {
        free(s->root);
        free(s);
        return NULL;
    }
    memcpy(s->root, parent->root, s->fam.state_size);
    s->stats.best_score = s->fam.score(s->fam.game, s->root);
    s->stop_flag = &parent->stop;
    /* The last restart's stack, still charged: restarts one after the
     * other would otherwise make and free the same block each time. */
    s->stack = parent->spare;
    s->stack_cap = parent->spare_cap;
    parent->spare = NULL;
    parent->spare_cap = 0;
    return s;
}

void d2_set_limits(d2_solver *s, uint64_t max_positions, double max_seconds, uint64_t max_bytes)
{
    s->max_positions = max_positions;
    s->max_seconds = max_seconds;
    s->max_bytes = max_bytes;
    s->mem->max = max_bytes;
}

void d2_stop(d2_solver *s)
{
    __atomic_store_n(&s->stop, 1, __ATOMIC_RELAXED);
}

/* The moves from the root through the move each frame is trying: the line
 * to the child of the top frame. */
static int copy_line(d2_solver *s, gmove **line, uint64_t *cap)
{
    if (mem_reserve(s->mem, SOLVER_MEM_LINES, (void **)line, cap, sizeof(gmove) * (uint64_t)s->depth) < 0)
        return -1;
    gmove *l = *line;
    for (int i = 0; i < s->depth; i++)
        l[i] = frame_moves(s, i)[frame_hd(s, i)->next - 1];
    return s->depth;
}

/* Doubles the stack, and makes the lines as long (a line is copied from
 * the stack): -1 (nothing changed but the lines' room) if the memory limit
 * or the system refuses it. The search grows it before it stores a
 * position, so that a refusal leaves the move to be tried on the next run. */
static int grow_stack(d2_solver *s)
{
    int cap = s->stack_cap ? s->stack_cap * 2 : 64;
    uint64_t line = sizeof(gmove) * (uint64_t)cap;
    if (mem_reserve(s->mem, SOLVER_MEM_LINES, (void **)&s->win_line, &s->win_cap, line) < 0
        || mem_reserve(s->mem, SOLVER_MEM_LINES, (void **)&s->best_line, &s->best_cap, line) < 0)
        return -1;
    unsigned char *st = mem_resize(s->mem, SOLVER_MEM_STACK, s->stack, s->frame_size * (size_t)s->stack_cap,
                                   s->frame_size * (size_t)cap);
    if (!st)
        return -1;
    s->stack = st;
    s->stack_cap = cap;
    return 0;
}

static int push(d2_solver *s, const void *state, const ctable_path *path)
{
    if (s->depth == s->stack_cap && grow_stack(s) < 0)
        return -1;
    int i = s->depth++;
    memcpy(frame_state(s, i), state, s->fam.state_size);
    *frame_path(s, i) = *path;
    frame_head *h = frame_hd(s, i);
    gmove *mv = frame_moves(s, i);
    h->n = (uint16_t)s->fam.moves(s->fam.game, state, mv);
    h->next = 0;
    if (s->seed && h->n > 1) {
        /* A random order within the priority groups; now and then a move
         * jumps to the first group. */
        uint8_t key[G_MAX_MOVES];
        for (int k = h->n - 1; k >= 0; k--) {
            s->seed ^= s->seed << 13; s->seed ^= s->seed >> 7; s->seed ^= s->seed << 17;
            int j = (int)(s->seed % (uint64_t)(k + 1));
            gmove t = mv[k]; mv[k] = mv[j]; mv[j] = t;
            key[k] = (s->seed >> 32) % 8 == 0 ? 0 : mv[k].prio;
        }
        for (int a = 1; a < h->n; a++)
            for (int b = a; b > 0 && key[b] < key[b - 1]; b--) {
                gmove t = mv[b]; mv[b] = mv[b - 1]; mv[b - 1] = t;
                uint8_t u = key[b]; key[b] = key[b - 1]; key[b - 1] = u;
            }
    }
    if (s->depth > s->stats.max_depth)
        s->stats.max_depth = s->depth;
    s->stats.expanded++;
    return 0;
}

static int finish(d2_solver *s, int status)
{
    s->status = status;
    if (status == SOLVER_WON || status == SOLVER_LOST)
        s->finished = 1;
    return status;
}

/* The depth-first search, from where it stopped; with cap > 0 it returns
 * PHASE_DONE once cap positions are stored. */
static int dfs(d2_solver *s, uint64_t cap)
{
    if (s->finished)
        return s->status;
    double start = search_clock();
    double spent = s->stats.seconds;
    int status = -1;
    uint64_t key[G_KEY_WORDS_MAX];
    ctable_path path;
    void *child = malloc(s->fam.state_size);
    if (!child)
        return finish(s, SOLVER_LIMIT_MEMORY);

    if (!s->started) {
        /* The table is made by the first run, under its limits. */
        if (!s->table.vals && ctable_init(&s->table, s->mem, s->fam.key_words) < 0) {
            ctable_free(&s->table);
            free(child);
            return finish(s, SOLVER_LIMIT_MEMORY);
        }
        s->started = 1;
        s->fam.key(s->fam.game, s->root, key);
        ctable_insert(&s->table, key, NULL, &path);
        s->stats.positions = 1;
        if (s->fam.score(s->fam.game, s->root) == s->fam.max_score) {
            s->win_len = 0;
            free(child);
            return finish(s, SOLVER_WON);
        }
        if (push(s, s->root, &path) < 0) {
            s->started = 0;
            free(child);
            return finish(s, SOLVER_LIMIT_MEMORY);
        }
    }
    uint64_t ticks = 0;
    while (s->depth > 0) {
        if ((++ticks & 1023) == 0) {
            if (__atomic_load_n(s->stop_flag, __ATOMIC_RELAXED)) {
                if (s->stop_flag == &s->stop)
                    __atomic_store_n(&s->stop, 0, __ATOMIC_RELAXED);
                status = SOLVER_INTERRUPTED;
                break;
            }
            if (s->max_seconds > 0 && search_clock() - start + spent >= s->max_seconds) {
                status = SOLVER_LIMIT_SECONDS;
                break;
            }
        }
        int top = s->depth - 1;
        frame_head *h = frame_hd(s, top);
        if (h->next == h->n) {
            s->depth--;
            continue;
        }
        if (s->max_positions && s->stats.positions >= s->max_positions) {
            status = SOLVER_LIMIT_POSITIONS;
            break;
        }
        if (cap && s->stats.positions - s->restart_positions >= cap) {
            status = PHASE_DONE;
            break;
        }
        if ((ctable_needs_growth(&s->table) && ctable_grow(&s->table) < 0)
            || (s->depth == s->stack_cap && grow_stack(s) < 0)) {
            status = SOLVER_LIMIT_MEMORY;
            break;
        }
        h = frame_hd(s, top);   /* the stack may have moved */
        const gmove *m = &frame_moves(s, top)[h->next++];
        memcpy(child, frame_state(s, top), s->fam.state_size);
        s->fam.apply(s->fam.game, child, m);
        s->fam.key(s->fam.game, child, key);
        if (!ctable_insert(&s->table, key, frame_path(s, top), &path))
            continue;
        s->stats.positions++;
        int sc = s->fam.score(s->fam.game, child);
        if (sc == s->fam.max_score) {
            s->win_len = copy_line(s, &s->win_line, &s->win_cap);
            status = s->win_len < 0 ? SOLVER_LIMIT_MEMORY : SOLVER_WON;
            if (status == SOLVER_WON) {
                s->stats.best_score = sc;
                s->best_len = copy_line(s, &s->best_line, &s->best_cap);
            }
            break;
        }
        if (sc > s->stats.best_score) {
            s->stats.best_score = sc;
            s->best_len = copy_line(s, &s->best_line, &s->best_cap);
            if (s->best_len < 0) {
                status = SOLVER_LIMIT_MEMORY;
                break;
            }
        }
        /* Shortcut "dead-cards" (docs/search.md): a position that cannot win
         * nor beat the best score seen is stored but not expanded. */
        if (s->fam.bound && (s->flags & D2_DEAD_CARDS)) {
            int best = s->stats.best_score > s->prune_at ? s->stats.best_score : s->prune_at;
            int u = s->fam.bound(s->fam.game, child, m, best);
            if (u < s->fam.max_score && u <= best) {
                continue;
            }
        }
        if (push(s, child, &path) < 0) {
            status = SOLVER_LIMIT_MEMORY;
            break;
        }
    }
    free(child);
    if (status == -1)
        status = SOLVER_LOST;
    s->stats.seconds = search_clock() - start + spent;
    if (status == SOLVER_LOST)
        s->depth = 0;
    if (status == PHASE_DONE)
        return status;
    return finish(s, status);
}

/* Copies line[0..n) then more[0..m) into *out, charged *cap bytes. */
static int join_lines(mem_account *mem, gmove **out, uint64_t *cap, const gmove *line, int n,
                      const gmove *more, int m)
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


/* Frees a restart, keeping its stack for the next one. */
static void end_restart(d2_solver *s, d2_solver *r)
{
    mem_free(s->mem, SOLVER_MEM_STACK, s->spare, s->frame_size * (size_t)s->spare_cap);
    s->spare = r->stack;
    s->spare_cap = r->stack_cap;
    r->stack = NULL;
    r->stack_cap = 0;
    d2_free(r);
}

/* One restart: a fresh search of its own from the position after the first
 * `depth` moves of the best line (0: the root), in a random order (seed) or
 * the family's (seed 0), within `budget` positions and what is left of the
 * limits. Returns its status; a better line or a win becomes this search's
 * (the prefix, then the restart's line). A restart from the root that stored
 * every position it reaches proves the deal lost: SOLVER_LOST. One from a
 * later position proves only that its position is lost: PHASE_DONE. */
static int restart(d2_solver *s, int depth, uint64_t seed, uint64_t budget)
{
    d2_solver *r = fork_search(s);
    if (!r)
        return SOLVER_LIMIT_MEMORY;
    for (int i = 0; i < depth; i++)
        s->fam.apply(s->fam.game, r->root, &s->best_line[i]);
    r->stats.best_score = s->fam.score(s->fam.game, r->root);
    r->prune_at = s->stats.best_score;
    r->seed = seed;
    if (s->max_positions) {
        uint64_t left = s->max_positions > s->stats.positions ? s->max_positions - s->stats.positions : 1;
        if (budget > left)
            budget = left;
    }
    if (budget > s->round_left)
        budget = s->round_left ? s->round_left : 1;
    double seconds = 0;
    if (s->max_seconds > 0)
        seconds = s->max_seconds > s->stats.seconds ? s->max_seconds - s->stats.seconds : 1e-9;
    /* The restart charges this search's account: the memory limit is on both. */
    d2_set_limits(r, budget, seconds, s->max_bytes);
    int st = dfs(r, 0);
    s->stats.positions += r->stats.positions;
    s->restart_positions += r->stats.positions;
    s->stats.expanded += r->stats.expanded;
    s->stats.seconds += r->stats.seconds;
    s->round_left = s->round_left > r->stats.positions ? s->round_left - r->stats.positions : 0;
    if (r->stats.best_score > s->stats.best_score && r->best_len > 0) {
        if (join_lines(s->mem, &s->best_line, &s->best_cap, s->best_line, depth, r->best_line, r->best_len) < 0) {
            end_restart(s, r);
            return SOLVER_LIMIT_MEMORY;
        }
        s->best_len = depth + r->best_len;
        s->stats.best_score = r->stats.best_score;
        s->npoints = 0;         /* the points of the new line */
    }
    if (st == SOLVER_WON) {
        s->win_len = join_lines(s->mem, &s->win_line, &s->win_cap, s->best_line, depth, r->win_line, r->win_len);
        if (s->win_len < 0)
            st = SOLVER_LIMIT_MEMORY;
    }
    end_restart(s, r);
    if (st == SOLVER_LOST && depth > 0)
        return PHASE_DONE;
    return st;
}

/* The depths of the best line the prefix restarts start from, tried in
 * this order: some moves before each of the family's milestones, the last
 * first (a redeal: a restart there revises the pass before it), then
 * 4, 8, 16, ... moves before the line's end. */
static void make_points(d2_solver *s)
{
    static const int before[] = { 2, 5, 10, 20, 30, 40 };
    int n = 0;
    for (int i = s->best_len - 1; i >= 0 && s->fam.milestone; i--)
        if (s->fam.milestone(&s->best_line[i]))
            for (size_t k = 0; k < sizeof before / sizeof *before && n < MAX_POINTS / 2; k++)
                if (i - before[k] > 0)
                    s->points[n++] = i - before[k];
    for (int back = 4; back < s->best_len && n < MAX_POINTS; back *= 2)
        s->points[n++] = s->best_len - back;
    s->npoints = n;
    s->next_point = 0;
}

/* The next restart: after the first FIRST_RESTARTS, every other one from a
 * point of the best line (each point once, then all again with twice the
 * budget); the others from the root in a random order. */
static int next_restart(d2_solver *s)
{
    s->restarts++;
    if (s->restarts > FIRST_RESTARTS && s->restarts % 2 == 0 && s->best_len > 0) {
        if (!s->npoints)
            make_points(s);
        if (s->next_point == s->npoints) {
            s->next_point = 0;
            s->prefix_budget *= 2;
        }
        if (s->npoints)
            return restart(s, s->points[s->next_point++], 0, s->prefix_budget);
    }
    uint64_t seed = 0x9e3779b97f4a7c15ull * (uint64_t)s->restarts ^ 0xd1b54a32d192ed03ull;
    return restart(s, 0, seed, RESTART_BUDGET);
}

int d2_run(d2_solver *s)
{
    if (s->finished)
        return s->status;
    while (s->stage != STAGE_TO_END) {
        if (s->stage == STAGE_FULL) {
            int st = dfs(s, (uint64_t)FIRST_BUDGET << s->round);
            if (st != PHASE_DONE)
                return st;
            /* The restarts of this round may store as many positions as the
             * full search has stored in all, FIRST_SHARE times as many
             * until the first restarts are done. */
            s->round_left = s->stats.positions - s->restart_positions;
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
                s->depth = st == SOLVER_LOST ? 0 : s->depth;
                return finish(s, st);
            }
            if (st == SOLVER_INTERRUPTED) {
                __atomic_store_n(&s->stop, 0, __ATOMIC_RELAXED);
                return s->status = st;
            }
            /* A restart ends at its own budget; the caller's limits end the run. */
            if (s->max_positions && s->stats.positions >= s->max_positions)
                return s->status = SOLVER_LIMIT_POSITIONS;
            if (s->max_seconds > 0 && s->stats.seconds >= s->max_seconds)
                return s->status = SOLVER_LIMIT_SECONDS;
            if (st == SOLVER_LIMIT_MEMORY)
                return s->status = st;
        }
        s->round++;
        s->stage = s->round < MAX_ROUNDS ? STAGE_FULL : STAGE_TO_END;
    }
    return dfs(s, 0);
}

void d2_get_stats(const d2_solver *s, solver_stats *out)
{
    const mem_account *a = s->mem;
    *out = s->stats;
    mem_stats(a, s->status, out);
}

/* The solution-format moves of line `which`, made once. */
static int build_out(d2_solver *s, int which)
{
    if (s->out[which])
        return s->out_len[which];
    const gmove *line = which == 0 ? s->win_line : s->best_line;
    int len = which == 0 ? s->win_len : s->best_len;
    if (which == 0 && s->status != SOLVER_WON)
        return -1;
    if (len <= 0 || !line) {
        s->out[which] = malloc(sizeof(d2_move));
        s->out_len[which] = 0;
        return s->out[which] ? 0 : -1;
    }
    d2_move *out = malloc(sizeof(d2_move) * (size_t)len * 3);
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

int d2_line_length(const d2_solver *s, int which)
{
    if (which != 0 && which != 1)
        return -1;
    return build_out((d2_solver *)s, which);
}

int d2_line_move(const d2_solver *s, int which, int index, d2_move *out)
{
    int n = d2_line_length(s, which);
    if (n < 0 || index < 0 || index >= n)
        return -1;
    *out = s->out[which][index];
    return 0;
}

int d2_root_bound(const d2_solver *s)
{
    return s->fam.bound ? s->fam.bound(s->fam.game, s->root, NULL, s->fam.max_score) : s->fam.max_score;
}

void d2_free(d2_solver *s)
{
    if (!s)
        return;
    ctable_free(&s->table);
    mem_free(s->mem, SOLVER_MEM_STACK, s->stack, s->frame_size * (size_t)s->stack_cap);
    mem_free(s->mem, SOLVER_MEM_STACK, s->spare, s->frame_size * (size_t)s->spare_cap);
    mem_free(s->mem, SOLVER_MEM_LINES, s->win_line, s->win_cap);
    mem_free(s->mem, SOLVER_MEM_LINES, s->best_line, s->best_cap);
    free(s->out[0]);
    free(s->out[1]);
    if (s->fam.free_game)
        s->fam.free_game(s->fam.game);
    free(s->root);
    free(s);
}
