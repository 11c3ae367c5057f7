/* path.c - the win line of a search by summaries, rebuilt from its trail.
 *
 * When the summaries see a forced endgame win (memo.c), the summaries being
 * computed at that moment form a trail from the start: in each, a path leads
 * from its entry state to the state whose turn opened the next one. Inside a
 * summary, a path steps by a move that leaves the waste's top card in place,
 * or by a turn followed by one exit of the turned card's (finished) summary,
 * which is itself rebuilt the same way: a path in that summary to a move that
 * takes the turned card away and yields that exit. The line then ends with
 * the forced endgame. Moves are found in control states, where cells hold
 * ranks, so a cell move records the rank of its card and is matched to the
 * real cell when the line is replayed on the real cards; the replay checks
 * that every move is one the search generates in the real position.
 */
#include <stdlib.h>
#include <string.h>

#include "memo.h"

/* A move in a control state: TM_MAKE(action, src, dst, rank of a cell card). */
typedef uint16_t abstract_move;

typedef struct {
    abstract_move *v;
    int n, cap;
} moves_out;

static int emit(moves_out *o, abstract_move m)
{
    if (o->n == o->cap) {
        int cap = o->cap ? o->cap * 2 : 256;
        abstract_move *v = realloc(o->v, sizeof *v * (size_t)cap);
        if (!v)
            return -1;
        o->v = v;
        o->cap = cap;
    }
    o->v[o->n++] = m;
    return 0;
}

typedef struct {
    uint64_t state;
    int parent;
    abstract_move move;     /* the move from the parent (a turn for a nested step) */
    int nested;             /* 1: the step is a turn then an exit of (nq, nr) */
    uint64_t nq;
    int nr;
} node;

typedef struct {
    node *v;
    int n, cap;
    uint64_t *keys;         /* state + 1 -> index + 1, open addressing */
    int *idx;
    uint64_t kcap;
} graph;


static int graph_find(const graph *gr, uint64_t state)
{
    uint64_t j = mix64(state + 1) & (gr->kcap - 1);
    while (gr->keys[j]) {
        if (gr->keys[j] == state + 1)
            return gr->idx[j];
        j = (j + 1) & (gr->kcap - 1);
    }
    return -1;
}

/* Adds a node for a new state; returns its index, -1 if present, -2 out of memory. */
static int graph_add(graph *gr, node nd)
{
    if (graph_find(gr, nd.state) >= 0)
        return -1;
    if ((uint64_t)(gr->n + 1) * 2 > gr->kcap) {
        uint64_t kcap = gr->kcap * 2;
        uint64_t *keys = calloc(kcap, sizeof *keys);
        int *idx = calloc(kcap, sizeof *idx);
        if (!keys || !idx) {
            free(keys);
            free(idx);
            return -2;
        }
        for (uint64_t i = 0; i < gr->kcap; i++)
            if (gr->keys[i]) {
                uint64_t j = mix64(gr->keys[i]) & (kcap - 1);
                while (keys[j])
                    j = (j + 1) & (kcap - 1);
                keys[j] = gr->keys[i];
                idx[j] = gr->idx[i];
            }
        free(gr->keys);
        free(gr->idx);
        gr->keys = keys;
        gr->idx = idx;
        gr->kcap = kcap;
    }
    if (gr->n == gr->cap) {
        int cap = gr->cap * 2;
        node *v = realloc(gr->v, sizeof *v * (size_t)cap);
        if (!v)
            return -2;
        gr->v = v;
        gr->cap = cap;
    }
    uint64_t j = mix64(nd.state + 1) & (gr->kcap - 1);
    while (gr->keys[j])
        j = (j + 1) & (gr->kcap - 1);
    gr->keys[j] = nd.state + 1;
    gr->idx[j] = gr->n;
    gr->v[gr->n] = nd;
    return gr->n++;
}

static int emit_path(memo *m, graph *gr, int at, moves_out *o);
static int level_path(memo *m, uint64_t q, int top, int to_exit, uint64_t goal, moves_out *o);

/* Emits the moves from the graph's root to node `at`. */
static int emit_path(memo *m, graph *gr, int at, moves_out *o)
{
    int len = 0;
    for (int i = at; i > 0; i = gr->v[i].parent)
        len++;
    int *chain = malloc(sizeof(int) * (size_t)(len + 1));
    if (!chain)
        return -1;
    int k = len;
    for (int i = at; i > 0; i = gr->v[i].parent)
        chain[--k] = i;
    int rc = 0;
    for (int c = 0; c < len && rc == 0; c++) {
        node nd = gr->v[chain[c]];
        rc = emit(o, nd.move);
        if (rc == 0 && nd.nested)
            rc = level_path(m, nd.nq, nd.nr, 1, nd.state, o);
    }
    free(chain);
    return rc;
}

/* Emits a path in the summary (q, top) from q to the state `goal` (to_exit =
 * 0), or to a move that takes the top card away with exit `goal` (to_exit =
 * 1). Uses only finished summaries for the turns. */
static int level_path(memo *m, uint64_t q, int top, int to_exit, uint64_t goal, moves_out *o)
{
    const tomb_game *g = m->game;
    graph gr = { .cap = 64, .kcap = 128 };
    gr.v = malloc(sizeof(node) * (size_t)gr.cap);
    gr.keys = calloc(gr.kcap, sizeof(uint64_t));
    gr.idx = calloc(gr.kcap, sizeof(int));
    int rc = -1;
    if (!gr.v || !gr.keys || !gr.idx)
        goto out;
    node root = { q, -1, 0, 0, 0, 0 };
    graph_add(&gr, root);
    if (!to_exit && q == goal) {
        rc = 0;
        goto out;
    }
    for (int head = 0; head < gr.n; head++) {
        tomb_state st;
        memo_unpack(m, gr.v[head].state, top, &st);
        tomb_move mv[MAX_MOVES];
        int n = tomb_moves(g, &st, mv);
        for (int i = 0; i < n; i++) {
            int action = TM_ACTION(mv[i]), src = TM_SRC(mv[i]), dst = TM_DST(mv[i]);
            tomb_state ch = st;
            if (action == SOLVER_REDEAL || action == TM_BURY
                || (action == SOLVER_MOVE && src == SOLVER_PLACE_CELL && dst == SOLVER_PLACE_WASTE))
                continue;   /* not in the rules this is used for */
            if (action == SOLVER_TURN) {
                int rank = RANK(st.stock[st.nstock - 1]);
                ch.nstock--;
                ch.nwaste = 0;
                uint64_t nq = memo_pack(g, &ch);
                entry *e = memo_lookup(m, (nq << 4) | (uint64_t)rank);
                if (!e)
                    continue;
                uint64_t one;
                const uint8_t *ex;
                uint64_t ne = memo_exits(m, e, &one, &ex);
                for (uint64_t x = 0; x < ne; x++) {
                    node nd = { memo_exit(ex, one, x), head, TM_MAKE(SOLVER_TURN, 0, 0, 0), 1, nq, rank };
                    int at = graph_add(&gr, nd);
                    if (at == -2)
                        goto out;
                    if (at >= 0 && !to_exit && nd.state == goal) {
                        rc = emit_path(m, &gr, at, o);
                        goto out;
                    }
                }
                continue;
            }
            int card_rank = src == SOLVER_PLACE_CELL ? RANK(st.cells[TM_IDX(mv[i])]) : 0;
            abstract_move am = TM_MAKE(SOLVER_MOVE, src, dst, card_rank);
            tomb_apply(g, &ch, mv[i], NULL);
            if (src == SOLVER_PLACE_WASTE) {
                ch.nwaste = 0;
                if (to_exit && memo_pack(g, &ch) == goal) {
                    rc = emit_path(m, &gr, head, o);
                    if (rc == 0)
                        rc = emit(o, am);
                    goto out;
                }
                continue;
            }
            node nd = { memo_pack(g, &ch), head, am, 0, 0, 0 };
            int at = graph_add(&gr, nd);
            if (at == -2)
                goto out;
            if (at >= 0 && !to_exit && nd.state == goal) {
                rc = emit_path(m, &gr, at, o);
                goto out;
            }
        }
    }
out:
    free(gr.v);
    free(gr.keys);
    free(gr.idx);
    return rc;
}

/* The move of the real position matching an abstract one, or -1. */
static int real_move(const tomb_game *g, const tomb_state *s, abstract_move am, tomb_move *out)
{
    tomb_move mv[MAX_MOVES];
    int n = tomb_moves(g, s, mv);
    for (int i = 0; i < n; i++) {
        if (TM_ACTION(mv[i]) != TM_ACTION(am) || TM_SRC(mv[i]) != TM_SRC(am) || TM_DST(mv[i]) != TM_DST(am))
            continue;
        if (TM_ACTION(am) == SOLVER_MOVE && TM_SRC(am) == SOLVER_PLACE_CELL
            && RANK(s->cells[TM_IDX(mv[i])]) != (int)TM_IDX(am))
            continue;
        *out = mv[i];
        return 0;
    }
    return -1;
}

int memo_win_line(memo *m, const tomb_state *root, tomb_move **line)
{
    const tomb_game *g = m->game;
    if (m->found_n <= 0 || root->nwaste || g->rules.turn != 1 || m->found[0].top != 0
        || m->found[0].q != memo_pack(g, root))
        return -1;
    moves_out o = { 0 };
    int rc = 0;
    for (int i = 0; i < m->found_n && rc == 0; i++) {
        rc = level_path(m, m->found[i].q, m->found[i].top, 0, m->found[i].cur, &o);
        if (rc == 0 && i + 1 < m->found_n)
            rc = emit(&o, TM_MAKE(SOLVER_TURN, 0, 0, 0));
    }
    tomb_move *l = NULL;
    int n = 0;
    if (rc == 0)
        l = malloc(sizeof(tomb_move) * (size_t)(o.n + 160));
    if (!l) {
        free(o.v);
        return -1;
    }
    tomb_state s = *root;
    for (int i = 0; i < o.n; i++) {
        if (real_move(g, &s, o.v[i], &l[n]) < 0) {
            free(o.v);
            free(l);
            return -1;
        }
        tomb_apply(g, &s, l[n++], NULL);
    }
    free(o.v);
    tomb_move mv;
    while (n < o.n + 160 && tomb_endgame_step(g, &s, &mv)) {
        /* The endgame's forced moves are moves of tomb_moves too: check. */
        if (real_move(g, &s,
                      TM_MAKE(TM_ACTION(mv), TM_SRC(mv), TM_DST(mv),
                              TM_SRC(mv) == SOLVER_PLACE_CELL ? RANK(s.cells[TM_IDX(mv)]) : 0),
                      &l[n])
            < 0)
            break;
        tomb_apply(g, &s, l[n++], NULL);
    }
    if (tomb_score(&s) != 52) {
        free(l);
        return -1;
    }
    *line = l;
    return n;
}
