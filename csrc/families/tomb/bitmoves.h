/* bitmoves.h - the moves of a control state read from its bits (full-cells).
 *
 * Where full-cells applies (cells send back onto the waste: neither
 * cell-home nor waste-home can apply) and a stock is left, the summaries by
 * control states find every move from the bits of the state, not from a
 * rebuilt position: tomb_moves (tomb.c) in two parts, for the moves cache.
 * First the level of the first forced rule that moves a card other than the
 * top one (0: none), which reads no top card; then, given that level, the
 * control states the top card's moves lead to and whether the other moves
 * are played too; then those other moves. The levels follow forced_move's
 * order (tomb.c), and within a level the top card is tried before the
 * cells. bitmoves_check.c checks all three against tomb_moves
 * (solver_debug_bitmoves; tests/test_bitmoves.py).
 */
#ifndef BITMOVES_H
#define BITMOVES_H

#include "control.h"
#include "memo.h"

/* hand-home's condition (tomb.c, hand_home_safe) for a rank that fits. */
static inline int q_safe(const memo *m, uint64_t q, int rank)
{
    if (rank >= 7 ? (int)q_corner(q, 0) >= rank - 7 : q_tomb(q) / 6 == 3)
        return 1;   /* the smallest corner shows rank - 1 or more; the tomb's last round */
    return rank != 6 && !((m->below[q_stock(q)] >> rank) & 1);
}

/* The ranks in the cells (bit r). */
static inline unsigned q_hand(uint64_t q)
{
    unsigned hand = 0;
    for (int i = 0; i < 4; i++)
        hand |= (1u << q_cell(q, i)) & ~1u;
    return hand;
}

/* The level of the first forced rule that moves a card other than the top one. */
static inline int q_others_forced(const memo *m, uint64_t q)
{
    const tomb_game *g = m->game;
    const tomb_rules *r = &g->rules;
    unsigned fits = q_fits(q), hand = q_hand(q);
    if ((g->flags & TOMB_GREEDY) && r->cell_to_foundation && (hand & fits))
        return LV_GREEDY;
    if ((g->flags & SOLVER_FORCE_SIXES_RESERVE) && r->sixes_reserve && r->cell_to_reserve && (hand & (1u << 6)))
        return LV_SIXES;
    if ((g->flags & SOLVER_FORCE_RESERVE_HOME) && q_reserve(q) && (fits & (1u << 6)) && q_tomb(q) < 24
        && (r->cell_to_reserve || !r->cell_to_foundation))
        return LV_RESERVE;
    if ((g->flags & SOLVER_HAND_HOME) && r->cell_to_foundation)
        for (unsigned h = hand & fits; h; h &= h - 1)
            if (q_safe(m, q, __builtin_ctz(h)))
                return LV_HAND;
    return 0;
}

/* The level of the forced rule that moves the top card (0: none). */
static inline int q_top_forced(const memo *m, uint64_t q, int top, int home)
{
    const tomb_game *g = m->game;
    if ((g->flags & TOMB_GREEDY) && home)
        return LV_GREEDY;
    if ((g->flags & SOLVER_FORCE_SEVEN_HOME) && top == 7)
        return LV_SEVEN;   /* home: a corner is empty while a 7 is out */
    if ((g->flags & SOLVER_FORCE_SIXES_RESERVE) && g->rules.sixes_reserve && top == 6)
        return LV_SIXES;
    if ((g->flags & SOLVER_HAND_HOME) && home && q_safe(m, q, top))
        return LV_HAND;
    return 0;
}

/* Writes the control states after the top card's moves into exits[] (at
 * most two) and returns how many; *others_played: the other moves are
 * played too. */
static inline int q_top_exits(const memo *m, uint64_t q, int top, int others_forced, uint64_t *exits,
                              int *others_played)
{
    const tomb_rules *r = &m->game->rules;
    int home = (q_fits(q) >> top) & 1, level = q_top_forced(m, q, top, home);
    *others_played = 0;
    if (level && (!others_forced || level <= others_forced)) {
        exits[0] = level == LV_SIXES ? q_to_reserve(q) : q_home(q, top);
        return 1;
    }
    if (others_forced) {
        *others_played = 1;
        return 0;
    }
    /* A free cell takes the top card, only: more empty fields than the
     * cells the rules do not have (memo_pack writes them empty). Sorted,
     * the empty fields come first: one more than those is empty. */
    if (r->cells && !q_cell(q, SOLVER_MAX_CELLS - r->cells)) {
        unsigned cells[4];
        for (int i = 0; i < 4; i++)
            cells[i] = q_cell(q, i);
        cells[0] = (unsigned)top;
        exits[0] = q_set_cells(q, cells);
        return 1;
    }
    int n = 0;
    if (home)
        exits[n++] = q_home(q, top);
    if (tomb_route(m->game, SOLVER_PLACE_WASTE, SOLVER_PLACE_RESERVE) && tomb_reserve_takes(top))
        exits[n++] = q_to_reserve(q);
    *others_played = 1;
    return n;
}

/* A move other than the top card's: the control state it leads to (rank
 * 0), or a card pushed onto the top card (its rank) and the control state
 * under it. */
typedef struct {
    uint64_t q;
    int rank;
} q_move;
/* At most: each cell card home, a reserve 6 to the tomb, the turn, and each
 * cell card to the reserve and buried. */
#define Q_MOVES (3 * SOLVER_MAX_CELLS + 2)

/* q with its cell field i (of cells, its cells) holding v instead, sorted back. */
static inline uint64_t q_cell_is(uint64_t q, const unsigned *cells, int i, unsigned v)
{
    unsigned d[4] = { cells[0], cells[1], cells[2], cells[3] };
    d[i] = v;
    return q_set_cells(q, d);
}

/* The one move of the others' forced rule of level others_forced (it
 * applies): forced_move's, the first cell card (in order of rank) it sends. */
static inline int q_forced_other(const memo *m, uint64_t q, int others_forced, q_move *out)
{
    unsigned fits = q_fits(q), cells[4];
    for (int i = 0; i < 4; i++)
        cells[i] = q_cell(q, i);
    out[0].rank = 0;
    if (others_forced == LV_RESERVE) {
        out[0].q = q - (1ull << Q_RESERVE_SHIFT) + 1;
        return 1;
    }
    for (int i = 0; i < 4; i++) {
        if (!cells[i])
            continue;
        int sends = others_forced == LV_SIXES
                        ? cells[i] == 6
                        : ((fits >> cells[i]) & 1) && (others_forced == LV_GREEDY || q_safe(m, q, (int)cells[i]));
        if (sends) {
            uint64_t without = q_cell_is(q, cells, i, 0);
            out[0].q = others_forced == LV_SIXES ? q_to_reserve(without) : q_home(without, (int)cells[i]);
            return 1;
        }
    }
    return 0;   /* not reached: the rule applies */
}

static inline int q_add_move(q_move *out, int n, uint64_t q, int rank)
{
    out[n].q = q;
    out[n].rank = rank;
    return n + 1;
}

/* Every move but the top card's (tomb_moves' order): cell cards home, a
 * reserve 6 to the tomb, the turn, then each cell card to the reserve (a 6)
 * and buried. The cells are full: a free cell would take the top card, only. */
static inline int q_free_others(const memo *m, uint64_t q, q_move *out)
{
    unsigned fits = q_fits(q), cells[4];
    for (int i = 0; i < 4; i++)
        cells[i] = q_cell(q, i);
    int n = 0;
    for (int i = 0; i < 4; i++)
        if (cells[i] && ((fits >> cells[i]) & 1) && (i == 0 || cells[i] != cells[i - 1])
            && tomb_route(m->game, SOLVER_PLACE_CELL, q_home_place(q, (int)cells[i])))
            n = q_add_move(out, n, q_home(q_cell_is(q, cells, i, 0), (int)cells[i]), 0);
    if (q_reserve(q) && (fits & (1u << TOMB_BASE)) && tomb_route(m->game, SOLVER_PLACE_RESERVE, SOLVER_PLACE_TOMB))
        n = q_add_move(out, n, q - (1ull << Q_RESERVE_SHIFT) + 1, 0);
    const unsigned turned = (unsigned)RANK(m->stock[q_stock(q) - 1]);
    n = q_add_move(out, n, q_turned(q), (int)turned);
    for (int i = 0; i < 4; i++) {
        if (!cells[i] || (i && cells[i] == cells[i - 1]))
            continue;
        if (tomb_route(m->game, SOLVER_PLACE_CELL, SOLVER_PLACE_RESERVE) && tomb_reserve_takes((int)cells[i]))
            n = q_add_move(out, n, q_to_reserve(q_cell_is(q, cells, i, 0)), 0);
        if (cells[i] != turned)     /* else the same push as the turn */
            n = q_add_move(out, n, q_turned(q_cell_is(q, cells, i, turned)), (int)cells[i]);
    }
    return n;
}

/* The other moves of q (not the top card's), where the level of their
 * forced rule is `others_forced` and q_top_exits says they are played, in
 * tomb_moves' order. Moves that do the same (cells of equal rank, the bury
 * of a card of the turned card's rank and the turn) are given once.
 * Returns how many (at most Q_MOVES). */
static inline int q_others(const memo *m, uint64_t q, int others_forced, q_move *out)
{
    return others_forced ? q_forced_other(m, q, others_forced, out) : q_free_others(m, q, out);
}

#ifdef SOLVER_STUDY
/* The cross-check (bitmoves_check.c, the study build only): while
 * solver_debug_bitmoves has it on, the summaries hand every state they read
 * from the bits to it. */
extern int bitmoves_checking;
void check_top(const memo *m, uint64_t q, int top, int forced, const uint64_t *exits, int nexits, int others_played);
void check_others(const memo *m, uint64_t q, int top, const q_move *moves, int nmoves);
#endif

#endif
