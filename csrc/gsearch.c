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
#include <time.h>

#include "family.h"
#include "table.h"

#define INITIAL_SLOTS (1u << 14)

struct d2_solver {
    family fam;
    void *root;
    table table;
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

static gmove *frame_moves(const d2_solver *s, int i)
{
    return (gmove *)((unsigned char *)frame_hd(s, i) + align8(sizeof(frame_head)));
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void set_err(char *err, int errlen, const char *text)
{
    if (err && errlen > 0) {
        strncpy(err, text, (size_t)errlen - 1);
        err[errlen - 1] = 0;
    }
}

d2_solver *d2_new(const d2_rules *rules, const d2_position *pos, unsigned flags, char *err, int errlen)
{
    d2_solver *s = calloc(1, sizeof *s);
    if (!s) {
        set_err(err, errlen, "out of memory");
        return NULL;
    }
    size_t size = rules->family == D2_JEWEL ? jewel_state_size() : napoleao_state_size();
    s->root = calloc(1, size);
    int rc = -1;
    if (!s->root)
        set_err(err, errlen, "out of memory");
    else if (rules->family == D2_NAPOLEAO)
        rc = napoleao_init(&s->fam, rules, pos, flags, s->root, err, errlen);
    else if (rules->family == D2_JEWEL)
        rc = jewel_init(&s->fam, rules, pos, flags, s->root, err, errlen);
    else
        set_err(err, errlen, "rules: unknown game family");
    if (rc == 0 && table_init(&s->table, s->fam.key_words, INITIAL_SLOTS) < 0) {
        set_err(err, errlen, "out of memory");
        rc = -1;
    }
    if (rc < 0) {
        if (s->fam.free_game)
            s->fam.free_game(s->fam.game);
        free(s->root);
        free(s);
        return NULL;
    }
    s->frame_size = align8(s->fam.state_size) + align8(sizeof(frame_head)) + sizeof(gmove) * G_MAX_MOVES;
    s->frame_size = align8(s->frame_size);
    s->stats.best_score = s->fam.score(s->fam.game, s->root);
    s->status = -1;
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
    s->stats.table_bytes = table_bytes(&s->table);
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

static int push(d2_solver *s, const void *state)
{
    if (s->depth == s->stack_cap) {
        int cap = s->stack_cap ? s->stack_cap * 2 : 64;
        if (s->max_bytes && table_bytes(&s->table) + (uint64_t)cap * s->frame_size > s->max_bytes)
            return -1;
        unsigned char *st = realloc(s->stack, s->frame_size * (size_t)cap);
        if (!st)
            return -1;
        s->stack = st;
        s->stack_cap = cap;
    }
    int i = s->depth++;
    memcpy(frame_state(s, i), state, s->fam.state_size);
    frame_head *h = frame_hd(s, i);
    h->n = (uint16_t)s->fam.moves(s->fam.game, state, frame_moves(s, i));
    h->next = 0;
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

int d2_run(d2_solver *s)
{
    if (s->finished)
        return s->status;
    double start = now();
    double spent = s->stats.seconds;
    int status = -1;
    uint64_t key[G_KEY_WORDS_MAX];
    void *child = malloc(s->fam.state_size);
    if (!child)
        return finish(s, SOLVER_LIMIT_MEMORY);

    if (!s->started) {
        s->started = 1;
        s->fam.key(s->fam.game, s->root, key);
        table_insert(&s->table, key);
        s->stats.positions = 1;
        if (s->fam.score(s->fam.game, s->root) == s->fam.max_score) {
            s->win_len = 0;
            free(child);
            update_bytes(s);
            return finish(s, SOLVER_WON);
        }
        if (push(s, s->root) < 0) {
            s->started = 0;
            free(child);
            return finish(s, SOLVER_LIMIT_MEMORY);
        }
    }
    uint64_t ticks = 0;
    while (s->depth > 0) {
        if ((++ticks & 1023) == 0) {
            if (__atomic_load_n(&s->stop, __ATOMIC_RELAXED)) {
                __atomic_store_n(&s->stop, 0, __ATOMIC_RELAXED);
                status = SOLVER_INTERRUPTED;
                break;
            }
            if (s->max_seconds > 0 && now() - start + spent >= s->max_seconds) {
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
        if (table_needs_growth(&s->table)) {
            if (s->max_bytes && table_grown_bytes(&s->table) + stack_bytes(s) > s->max_bytes) {
                status = SOLVER_LIMIT_MEMORY;
                break;
            }
            if (table_grow(&s->table) < 0) {
                status = SOLVER_LIMIT_MEMORY;
                break;
            }
            update_bytes(s);
        }
        const gmove *m = &frame_moves(s, top)[h->next++];
        memcpy(child, frame_state(s, top), s->fam.state_size);
        s->fam.apply(s->fam.game, child, m);
        s->fam.key(s->fam.game, child, key);
        if (!table_insert(&s->table, key))
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
        if (push(s, child) < 0) {
            status = SOLVER_LIMIT_MEMORY;
            break;
        }
    }
    free(child);
    if (status < 0)
        status = SOLVER_LOST;
    s->stats.seconds = now() - start + spent;
    update_bytes(s);
    if (status == SOLVER_LOST)
        s->depth = 0;
    return finish(s, status);
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

void d2_free(d2_solver *s)
{
    if (!s)
        return;
    table_free(&s->table);
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
