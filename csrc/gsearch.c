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


/* The staged search (D2_RESTARTS): the full search first gets FIRST_BUDGET
 * positions; then RESTARTS searches with a random move order (within the
 * family's priority groups) and a fresh table get RESTART_BUDGET positions
 * each, to find a win; then the full search goes on to the end. The restarts
 * only ever find wins (their lines are real lines); "lost" comes only from
 * the full search, which every stage leaves as it was. */
#define FIRST_BUDGET 100000
#ifndef RESTARTS
#define RESTARTS 1000
#endif
#ifndef RESTART_BUDGET
#define RESTART_BUDGET 10000
#endif
#define PHASE_DONE (-2)

struct d2_solver {
    family fam;
    void *root;
    ctable table;
    unsigned char *stack;       /* frames of frame_size bytes */
    size_t frame_size;
    int depth, stack_cap;
    int started, finished, status;
    uint64_t max_positions, max_bytes;
    double max_seconds;
    int stop;
    solver_stats stats;
    gmove *win_line, *best_line;
    int win_len, best_len;
    d2_move *out[2];            /* the lines as solution-format moves, made on demand */
    int out_len[2];
    unsigned flags;
    uint64_t seed;              /* non-zero: moves in a random order (a restart) */
    int *stop_flag;             /* the flag this search reads: its own, or its parent's */
    int phase, restart;         /* staged search: 0 first budget, 1 restarts, 2 to the end */
};

/* A frame: the state, then n and next, then the moves. */
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

/* What every search sets up once its family is known: the table, the
 * frame size, the flags and the stage; -1 if memory runs out. */
static int start_search(d2_solver *s, unsigned flags)
{
    if (ctable_init(&s->table, s->fam.key_words) < 0)
        return -1;
    s->frame_size = align8(align8(s->fam.state_size) + align8(sizeof(frame_head)) + align8(sizeof(ctable_path))
                           + sizeof(gmove) * G_MAX_MOVES);
    s->status = -1;
    s->flags = flags;
    s->stop_flag = &s->stop;
    s->phase = (flags & D2_RESTARTS) ? 0 : 2;
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
    if (!s->root || start_search(s, parent->flags & ~D2_RESTARTS) < 0) {
        free(s->root);
        free(s);
        return NULL;
    }
    memcpy(s->root, parent->root, s->fam.state_size);
    s->stats.best_score = s->fam.score(s->fam.game, s->root);
    s->stop_flag = &parent->stop;
    return s;
}

void d2_set_limits(d2_solver *s, uint64_t max_positions, double max_seconds, uint64_t max_bytes)
{
    s->max_positions = max_positions;
    s->max_seconds = max_seconds;
    s->max_bytes = max_bytes;
}

void d2_stop(d2_solver *s)
{
    __atomic_store_n(&s->stop, 1, __ATOMIC_RELAXED);
}

static uint64_t stack_bytes(const d2_solver *s)
{
    return (uint64_t)s->stack_cap * s->frame_size;
}

static void update_bytes(d2_solver *s)
{
    s->stats.table_bytes = ctable_bytes(&s->table);
    uint64_t b = s->stats.table_bytes + stack_bytes(s);
    if (b > s->stats.peak_bytes)
        s->stats.peak_bytes = b;
}

/* The moves from the root through the move each frame is trying: the line
 * to the child of the top frame. */
static int copy_line(d2_solver *s, gmove **line)
{
    gmove *l = realloc(*line, sizeof(gmove) * (size_t)s->depth);
    if (!l)
        return -1;
    for (int i = 0; i < s->depth; i++)
        l[i] = frame_moves(s, i)[frame_hd(s, i)->next - 1];
    *line = l;
    return s->depth;
}

static int push(d2_solver *s, const void *state, const ctable_path *path)
{
    if (s->depth == s->stack_cap) {
        int cap = s->stack_cap ? s->stack_cap * 2 : 64;
        if (s->max_bytes && ctable_bytes(&s->table) + (uint64_t)cap * s->frame_size > s->max_bytes)
            return -1;
        unsigned char *st = realloc(s->stack, s->frame_size * (size_t)cap);
        if (!st)
            return -1;
        s->stack = st;
        s->stack_cap = cap;
    }
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
        s->started = 1;
        s->fam.key(s->fam.game, s->root, key);
        ctable_insert(&s->table, key, NULL, &path);
        s->stats.positions = 1;
        if (s->fam.score(s->fam.game, s->root) == s->fam.max_score) {
            s->win_len = 0;
            free(child);
            update_bytes(s);
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
        if (cap && s->stats.positions >= cap) {
            status = PHASE_DONE;
            break;
        }
        if (ctable_needs_growth(&s->table)) {
            if (s->max_bytes && ctable_grown_bytes(&s->table) + stack_bytes(s) > s->max_bytes) {
                status = SOLVER_LIMIT_MEMORY;
                break;
            }
            if (ctable_grow(&s->table) < 0) {
                status = SOLVER_LIMIT_MEMORY;
                break;
            }
            update_bytes(s);
        }
        const gmove *m = &frame_moves(s, top)[h->next++];
        memcpy(child, frame_state(s, top), s->fam.state_size);
        s->fam.apply(s->fam.game, child, m);
        s->fam.key(s->fam.game, child, key);
        if (!ctable_insert(&s->table, key, frame_path(s, top), &path))
            continue;
        s->stats.positions++;
        int sc = s->fam.score(s->fam.game, child);
        if (sc == s->fam.max_score) {
            s->win_len = copy_line(s, &s->win_line);
            status = s->win_len < 0 ? SOLVER_LIMIT_MEMORY : SOLVER_WON;
            if (status == SOLVER_WON) {
                s->stats.best_score = sc;
                s->best_len = copy_line(s, &s->best_line);
            }
            break;
        }
        if (sc > s->stats.best_score) {
            s->stats.best_score = sc;
            s->best_len = copy_line(s, &s->best_line);
            if (s->best_len < 0) {
                status = SOLVER_LIMIT_MEMORY;
                break;
            }
        }
        /* Shortcut "dead-cards" (docs/search.md): a position that cannot win
         * nor beat the best score seen is stored but not expanded. */
        if (s->fam.bound && (s->flags & D2_DEAD_CARDS)) {
            int u = s->fam.bound(s->fam.game, child, m);
            if (u < s->fam.max_score && u <= s->stats.best_score) {
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
    update_bytes(s);
    if (status == SOLVER_LOST)
        s->depth = 0;
    if (status == PHASE_DONE)
        return status;
    return finish(s, status);
}

/* One randomised restart: a fresh search of its own, within what is left of
 * the limits. Returns its status; a win's line becomes this search's. */
static int restart(d2_solver *s)
{
    d2_solver *r = fork_search(s);
    if (!r)
        return SOLVER_LIMIT_MEMORY;
    r->seed = 0x9e3779b97f4a7c15ull * (uint64_t)(s->restart + 1) ^ 0xd1b54a32d192ed03ull;
    uint64_t budget = RESTART_BUDGET;
    if (s->max_positions)
        budget = s->max_positions > s->stats.positions ? s->max_positions - s->stats.positions : 1;
    if (budget > RESTART_BUDGET)
        budget = RESTART_BUDGET;
    double seconds = 0;
    if (s->max_seconds > 0)
        seconds = s->max_seconds > s->stats.seconds ? s->max_seconds - s->stats.seconds : 1e-9;
    uint64_t bytes = 0;
    if (s->max_bytes)
        bytes = s->max_bytes > s->stats.peak_bytes ? s->max_bytes - s->stats.peak_bytes : 1;
    d2_set_limits(r, budget, seconds, bytes);
    int st = dfs(r, 0);
    s->stats.positions += r->stats.positions;
    s->stats.expanded += r->stats.expanded;
    s->stats.seconds += r->stats.seconds;
    if (r->stats.best_score > s->stats.best_score && r->best_len > 0) {
        s->stats.best_score = r->stats.best_score;
        gmove *l = realloc(s->best_line, sizeof(gmove) * (size_t)r->best_len);
        if (l) {
            memcpy(l, r->best_line, sizeof(gmove) * (size_t)r->best_len);
            s->best_line = l;
            s->best_len = r->best_len;
        }
    }
    if (st == SOLVER_WON) {
        gmove *l = malloc(sizeof(gmove) * (size_t)(r->win_len > 0 ? r->win_len : 1));
        if (!l) {
            d2_free(r);
            return SOLVER_LIMIT_MEMORY;
        }
        memcpy(l, r->win_line, sizeof(gmove) * (size_t)r->win_len);
        free(s->win_line);
        s->win_line = l;
        s->win_len = r->win_len;
    }
    d2_free(r);
    return st;
}

int d2_run(d2_solver *s)
{
    if (s->finished)
        return s->status;
    if (s->phase == 0) {
        int st = dfs(s, FIRST_BUDGET);
        if (st != PHASE_DONE)
            return st;
        s->phase = 1;
    }
    while (s->phase == 1 && s->restart < RESTARTS) {
        int st = restart(s);
        if (st == SOLVER_WON) {
            update_bytes(s);
            return finish(s, SOLVER_WON);
        }
        if (st == SOLVER_LOST) {
            /* The restart explored every reachable position (in another
             * order): that is the proof, and its best line is the best. */
            update_bytes(s);
            s->depth = 0;
            return finish(s, SOLVER_LOST);
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
        s->restart++;
    }
    s->phase = 2;
    return dfs(s, 0);
}

void d2_get_stats(const d2_solver *s, solver_stats *out)
{
    *out = s->stats;
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
    return s->fam.bound ? s->fam.bound(s->fam.game, s->root, NULL) : s->fam.max_score;
}

void d2_free(d2_solver *s)
{
    if (!s)
        return;
    ctable_free(&s->table);
    free(s->stack);
    free(s->win_line);
    free(s->best_line);
    free(s->out[0]);
    free(s->out[1]);
    if (s->fam.free_game)
        s->fam.free_game(s->fam.game);
    free(s->root);
    free(s);
}
