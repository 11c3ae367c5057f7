/* tomb.c - rules of the Napoleon's Tomb family, parameterised by tomb_rules.
 *
 * No variant is named here: the variant files say how many cards turn, how
 * many passes there are, what the cells accept and where their cards go, and
 * whether there is a sixes reserve. The shortcuts (forced moves) are argued
 * in docs/search.md and each is switched by a flag.
 */
#include <stdio.h>
#include <string.h>

#include "bits.h"
#include "tomb_state.h"
#include "tomb_rules.h"

enum {
    P_STOCK = SOLVER_PLACE_STOCK,
    P_WASTE = SOLVER_PLACE_WASTE,
    P_CELL = SOLVER_PLACE_CELL,
    P_RESERVE = SOLVER_PLACE_RESERVE,
    P_CORNER = SOLVER_PLACE_CORNER,
    P_TOMB = SOLVER_PLACE_TOMB
};

/* The corner that takes a card of this rank, or -1. Corners in the same
 * state are interchangeable, so the first one is as good as any. */
static int corner_for(const tomb_state *s, int rank)
{
    for (int i = 0; i < TOMB_CORNERS; i++)
        if (rank && tomb_corner_wants(s->corners[i]) == rank)
            return i;
    return -1;
}

static int tomb_takes(const tomb_state *s, int rank)
{
    return rank && tomb_wants(s->tomb) == rank;
}

/* Foundation that takes the rank: P_CORNER, P_TOMB or 0. */
static int home_for(const tomb_state *s, int rank)
{
    if (tomb_takes(s, rank))
        return P_TOMB;
    if (corner_for(s, rank) >= 0)
        return P_CORNER;
    return 0;
}

static int empty_cell(const tomb_game *g, const tomb_state *s)
{
    for (int i = 0; i < g->rules.cells; i++)
        if (s->cells[i] == SOLVER_NO_CARD)
            return i;
    return -1;
}

/* How many cards must reach the foundations before a card of this rank fits
 * on one: 0 if it fits now, 99 if it never can. */
int tomb_wait(const tomb_state *s, int rank)
{
    if (rank <= 6) {
        if (s->tomb >= 24)
            return 99;
        int want = 6 - s->tomb % 6;
        if (rank <= want)
            return want - rank;
        return s->tomb / 6 < 3 ? want + 6 - rank : 99;
    }
    int best = 99;
    for (int i = 0; i < 4; i++)
        if (s->corners[i] < 7 && rank >= 7 + s->corners[i] && rank - 7 - s->corners[i] < best)
            best = rank - 7 - s->corners[i];
    return best;
}

int tomb_score(const tomb_state *s)
{
    return s->corners[0] + s->corners[1] + s->corners[2] + s->corners[3] + s->tomb;
}

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

/* Each rank: the cards in play (`seen`) and the cards the foundations must
 * hold make four. */
static int check_ranks(const tomb_state *s, const int *seen, char *err, int errlen)
{
    for (int rank = 1; rank <= 13; rank++) {
        int have = 0;
        for (int c = 0; c < 52; c++)
            have += seen[c] && RANK(c) == rank;
        int home = tomb_holds(s->tomb, rank);
        for (int i = 0; i < TOMB_CORNERS; i++)
            home += tomb_corner_holds(s->corners[i], rank);
        if (have + home != 4)
            FAIL("position: %d cards of rank %d in play and %d on the foundations, not 4", have, rank, home);
    }
    return 0;
}

int tomb_init(tomb_game *g, const tomb_rules *r, unsigned flags, const tomb_position *p, tomb_state *s, char *err,
              int errlen)
{
    if (tomb_check_rules(r, err, errlen) < 0 || tomb_check_counts(r, p, err, errlen) < 0)
        return -1;
    g->rules = *r;
    g->flags = flags;
    for (int place = 0; place <= SOLVER_PLACE_TOMB; place++)
        g->routes[place] = (uint8_t)tomb_routes(r, place);
    g->key_words = (flags & SOLVER_SUIT_SYMMETRY) ? 4 : 6;

    int seen[52];
    memset(seen, 0, sizeof seen);
    memset(s, 0, sizeof *s);
    int n_in_play = 0;
#define TAKE(card, where) do { \
        int c_ = (card); \
        if (c_ < 0 || c_ > 51) FAIL("position: card id %d in the %s is not 0..51", c_, where); \
        if (seen[c_]++) FAIL("position: card id %d appears twice", c_); \
        n_in_play++; \
    } while (0)
    for (int i = 0; i < p->nstock; i++) {
        TAKE(p->stock[i], "stock");
        s->stock[p->nstock - 1 - i] = p->stock[i];
    }
    for (int i = 0; i < p->nwaste; i++) {
        TAKE(p->waste[i], "waste");
        s->waste[i] = p->waste[i];
    }
    for (int i = 0; i < SOLVER_MAX_CELLS; i++) {
        s->cells[i] = SOLVER_NO_CARD;
        if (p->cells[i] == SOLVER_NO_CARD)
            continue;
        TAKE(p->cells[i], "cells");
        s->cells[i] = p->cells[i];
    }
    for (int i = 0; i < p->nreserve; i++) {
        TAKE(p->reserve[i], "reserve");
        if (!tomb_reserve_takes(RANK(p->reserve[i])))
            FAIL("position: card id %d in the sixes reserve is not a 6", p->reserve[i]);
        s->reserve[i] = p->reserve[i];
    }
    s->nstock = (uint8_t)p->nstock;
    memset(g->stock_first, 255, sizeof g->stock_first);
    for (int i = s->nstock - 1; i >= 0; i--)
        g->stock_first[RANK(s->stock[i])] = (uint8_t)i;
    s->nwaste = (uint8_t)p->nwaste;
    s->nreserve = (uint8_t)p->nreserve;
    int on_foundations = 0;
    for (int i = 0; i < 4; i++) {
        s->corners[i] = (uint8_t)p->corners[i];
        on_foundations += p->corners[i];
    }
    s->tomb = (uint8_t)p->tomb;
    on_foundations += p->tomb;
    s->redeals = (uint8_t)p->redeals;
    if (n_in_play + on_foundations != 52)
        FAIL("position: %d cards in play and %d on the foundations, not 52", n_in_play, on_foundations);
    return check_ranks(s, seen, err, errlen);
}

/* hand-home's condition for a card of this rank that fits `home`: every
 * card of the rank still out has a place (a 7: always; 8 to K: all four
 * corners show the rank below; the tomb's ranks: it is the last one out), or
 * no other card of the rank is in the stock and it is not a 6. */
static int hand_home_safe(const tomb_game *g, const tomb_state *s, int rank, int home)
{
    if (home == P_CORNER) {
        int all = 1;
        for (int i = 0; i < 4; i++)
            all &= s->corners[i] >= rank - 7;
        if (all)
            return 1;
    } else if (s->tomb / 6 == 3) {
        return 1;   /* the tomb wants it in its last round: the last one out */
    }
    return rank != 6 && g->stock_first[rank] >= s->nstock;
}

/* The top waste card, else the first cell card (where cells may send home),
 * that fits a foundation - and, if `safe`, passes hand_home_safe - goes
 * there: writes that move and returns 1, or 0 if none does. */
static int card_home(const tomb_game *g, const tomb_state *s, tomb_move *moves, int safe)
{
    const tomb_rules *r = &g->rules;
    for (int i = -1; i < (r->cell_to_foundation ? r->cells : 0); i++) {
        int card = i < 0 ? (s->nwaste ? s->waste[s->nwaste - 1] : SOLVER_NO_CARD) : s->cells[i];
        if (card == SOLVER_NO_CARD)
            continue;
        int rank = RANK(card), home = home_for(s, rank);
        if (home && (!safe || hand_home_safe(g, s, rank, home))) {
            moves[0] = TM_MAKE(SOLVER_MOVE, i < 0 ? P_WASTE : P_CELL, home, i < 0 ? 0 : i);
            return 1;
        }
    }
    return 0;
}

/* The shortcuts: a move to play at once, or 0 moves if none applies. */
static int forced_move(const tomb_game *g, const tomb_state *s, tomb_move *moves)
{
    const tomb_rules *r = &g->rules;
    /* Not a shortcut: a phase that looks for a win only (search.c). */
    if ((g->flags & TOMB_GREEDY) && card_home(g, s, moves, 0))
        return 1;
    /* Cell to foundation, where a cell card has nowhere else to go. */
    if ((g->flags & SOLVER_FORCE_CELL_HOME) && r->cell_to_foundation && !r->cell_to_reserve && !r->cell_to_waste) {
        for (int i = 0; i < r->cells; i++) {
            if (s->cells[i] == SOLVER_NO_CARD)
                continue;
            int home = home_for(s, RANK(s->cells[i]));
            if (home) {
                moves[0] = TM_MAKE(SOLVER_MOVE, P_CELL, home, i);
                return 1;
            }
        }
    }
    /* A 7 on the waste goes to an empty corner at once (one pass): while a
     * 7 is out, a corner is empty, and a corner started early only takes
     * more (docs/search.md). */
    if ((g->flags & SOLVER_FORCE_SEVEN_HOME) && s->nwaste && r->passes == 1 && RANK(s->waste[s->nwaste - 1]) == 7) {
        moves[0] = TM_MAKE(SOLVER_MOVE, P_WASTE, P_CORNER, 0);
        return 1;
    }
    /* The waste card home, where it is the last card of its rank still to
     * come: none in the stock or the cells (one pass; cells send only home). */
    if ((g->flags & SOLVER_FORCE_WASTE_HOME) && s->nwaste && r->passes == 1 && !r->sixes_reserve && !r->cell_to_reserve
        && !r->cell_to_waste) {
        int rank = RANK(s->waste[s->nwaste - 1]);
        int home = home_for(s, rank);
        int others = g->stock_first[rank] < s->nstock;
        for (int i = 0; home && !others && i < r->cells; i++)
            others += s->cells[i] != SOLVER_NO_CARD && RANK(s->cells[i]) == rank;
        if (home && !others) {
            moves[0] = TM_MAKE(SOLVER_MOVE, P_WASTE, home, 0);
            return 1;
        }
    }
    /* A 6 on the waste or in a cell goes to the sixes reserve at once: from
     * there it can go to the tomb whenever any 6 can, and it blocks nothing. */
    if ((g->flags & SOLVER_FORCE_SIXES_RESERVE) && r->sixes_reserve) {
        if (s->nwaste && RANK(s->waste[s->nwaste - 1]) == 6) {
            moves[0] = TM_MAKE(SOLVER_MOVE, P_WASTE, P_RESERVE, 0);
            return 1;
        }
        for (int i = 0; r->cell_to_reserve && i < r->cells; i++)
            if (s->cells[i] != SOLVER_NO_CARD && RANK(s->cells[i]) == 6) {
                moves[0] = TM_MAKE(SOLVER_MOVE, P_CELL, P_RESERVE, i);
                return 1;
            }
    }
    /* Reserve 6 to the tomb, where every 6 that could go to the tomb could
     * go to the reserve instead. */
    if ((g->flags & SOLVER_FORCE_RESERVE_HOME) && s->nreserve && tomb_takes(s, 6)
        && (r->cell_to_reserve || !r->cell_to_foundation)) {
        moves[0] = TM_MAKE(SOLVER_MOVE, P_RESERVE, P_TOMB, 0);
        return 1;
    }
    /* hand-home: where cell cards may go back onto the waste (one card, one
     * pass), a card on top of the waste or in a cell that fits goes home
     * when no other card of its rank can take its place there: every card of
     * its rank still out has a place, or none is left in the stock (not a 6,
     * unless it is the last one out). docs/search.md argues it. */
    if ((g->flags & SOLVER_HAND_HOME) && tomb_hand_rules(g) && card_home(g, s, moves, 1))
        return 1;
    return 0;
}

/* bitmoves.h reads this from a control state's bits (q_others_forced); this
 * is the reference bitmoves_check.c compares it with. */
int tomb_others_forced(const tomb_game *g, const tomb_state *s)
{
    const tomb_rules *r = &g->rules;
    if ((g->flags & TOMB_GREEDY) && r->cell_to_foundation)
        for (int i = 0; i < r->cells; i++)
            if (s->cells[i] != SOLVER_NO_CARD && home_for(s, RANK(s->cells[i])))
                return LV_GREEDY;
    if ((g->flags & SOLVER_FORCE_SIXES_RESERVE) && r->sixes_reserve && r->cell_to_reserve)
        for (int i = 0; i < r->cells; i++)
            if (s->cells[i] != SOLVER_NO_CARD && RANK(s->cells[i]) == 6)
                return LV_SIXES;
    if ((g->flags & SOLVER_FORCE_RESERVE_HOME) && s->nreserve && tomb_takes(s, 6)
        && (r->cell_to_reserve || !r->cell_to_foundation))
        return LV_RESERVE;
    if ((g->flags & SOLVER_HAND_HOME) && tomb_hand_rules(g) && r->cell_to_foundation)
        for (int i = 0; i < r->cells; i++) {
            if (s->cells[i] == SOLVER_NO_CARD)
                continue;
            int rank = RANK(s->cells[i]), home = home_for(s, rank);
            if (home && hand_home_safe(g, s, rank, home))
                return LV_HAND;
        }
    return 0;
}

int tomb_moves(const tomb_game *g, const tomb_state *s, tomb_move *moves)
{
    const tomb_rules *r = &g->rules;
    int n = forced_move(g, s, moves);
    if (n)
        return n;
    int top = s->nwaste ? RANK(s->waste[s->nwaste - 1]) : 0;
    int free_cell = empty_cell(g, s);
    /* full-cells (docs/search.md): where cell cards may go back onto the
     * waste, a waste card and a free cell swap places both ways, so a
     * position is as good as the one with its cells filled from the waste:
     * with a free cell and a card on the waste, filling the cell is the only
     * move. A cell card goes back onto the waste only to be buried under
     * the next card turned (a bury), and only from full cells. */
    int full_cells = tomb_full_cells(g);
    if (full_cells && free_cell >= 0 && top) {
        moves[n++] = TM_MAKE(SOLVER_MOVE, P_WASTE, P_CELL, 0);
        return n;
    }

    /* Cards home first: the search finds wins faster. */
    int home = top ? home_for(s, top) : 0;
    if (home && tomb_route(g, P_WASTE, home))
        moves[n++] = TM_MAKE(SOLVER_MOVE, P_WASTE, home, 0);
    for (int i = 0; i < r->cells; i++) {
        home = s->cells[i] != SOLVER_NO_CARD ? home_for(s, RANK(s->cells[i])) : 0;
        if (home && tomb_route(g, P_CELL, home))
            moves[n++] = TM_MAKE(SOLVER_MOVE, P_CELL, home, i);
    }
    if (s->nreserve && tomb_route(g, P_RESERVE, P_TOMB) && tomb_takes(s, RANK(s->reserve[s->nreserve - 1])))
        moves[n++] = TM_MAKE(SOLVER_MOVE, P_RESERVE, P_TOMB, 0);
    if (top && tomb_route(g, P_WASTE, P_RESERVE) && tomb_reserve_takes(top))
        moves[n++] = TM_MAKE(SOLVER_MOVE, P_WASTE, P_RESERVE, 0);
    if (top && free_cell >= 0 && tomb_route(g, P_WASTE, P_CELL))
        moves[n++] = TM_MAKE(SOLVER_MOVE, P_WASTE, P_CELL, 0);
    if (s->nstock)
        moves[n++] = TM_MAKE(SOLVER_TURN, 0, 0, 0);
    for (int i = 0; i < r->cells; i++) {
        if (s->cells[i] == SOLVER_NO_CARD)
            continue;
        if (tomb_route(g, P_CELL, P_RESERVE) && tomb_reserve_takes(RANK(s->cells[i])))
            moves[n++] = TM_MAKE(SOLVER_MOVE, P_CELL, P_RESERVE, i);
        if (tomb_route(g, P_CELL, P_WASTE) && !full_cells)
            moves[n++] = TM_MAKE(SOLVER_MOVE, P_CELL, P_WASTE, i);
        else if (full_cells && free_cell < 0 && s->nstock)
            moves[n++] = TM_MAKE(TM_BURY, 0, 0, i);
        /* A cell card to another empty cell leaves the same position up to
         * the order of the cells, which the rules never read: not a move. */
    }
    if (tomb_may_redeal(r, s->nstock, s->nwaste, s->redeals))
        moves[n++] = TM_MAKE(SOLVER_REDEAL, 0, 0, 0);
    return n;
}

int tomb_apply(const tomb_game *g, tomb_state *s, tomb_move m, solver_move *out)
{
    int action = TM_ACTION(m);
    if (out) {
        out->action = action;
        out->ncards = 0;
    }
    if (action == SOLVER_TURN) {
        int k = tomb_turn_size(&g->rules, s->nstock);
        for (int i = 0; i < k; i++) {
            uint8_t c = s->stock[--s->nstock];
            s->waste[s->nwaste++] = c;
            if (out)
                out->cards[out->ncards++] = c;
        }
        return -1;
    }
    if (action == TM_BURY) {
        /* Three moves of the rules: cell to waste, a turn, waste to the same cell. */
        int i = TM_IDX(m);
        s->waste[s->nwaste++] = s->cells[i];
        s->cells[i] = s->stock[--s->nstock];
        return -1;
    }
    if (action == SOLVER_REDEAL) {
        int n = s->nwaste;
        for (int i = 0; i < n; i++)
            s->stock[i] = s->waste[n - 1 - i];
        s->nstock = (uint8_t)n;
        s->nwaste = 0;
        s->redeals++;
        return -1;
    }
    int card;
    switch (TM_SRC(m)) {
    case P_WASTE: card = s->waste[--s->nwaste]; break;
    case P_CELL:
        card = s->cells[TM_IDX(m)];
        s->cells[TM_IDX(m)] = SOLVER_NO_CARD;
        break;
    default: card = s->reserve[--s->nreserve]; break;
    }
    switch (TM_DST(m)) {
    case P_CORNER: s->corners[corner_for(s, RANK(card))]++; break;
    case P_TOMB: s->tomb++; break;
    case P_CELL: s->cells[empty_cell(g, s)] = (uint8_t)card; break;
    case P_RESERVE: s->reserve[s->nreserve++] = (uint8_t)card; break;
    default: s->waste[s->nwaste++] = (uint8_t)card; break;
    }
    if (out) {
        out->card = card;
        out->src = TM_SRC(m);
        out->dst = TM_DST(m);
    }
    return card;
}


/* With the suit symmetry, the fields after the talon, 45 bits, go in the
 * last word above the talon's last 4 ranks (bits 16-60), with the top bit:
 * gathered in one value, written once. */
static inline uint64_t sym_tail(const tomb_game *g, const tomb_state *s)
{
    unsigned v[SOLVER_MAX_CELLS], c[4] = { s->corners[0], s->corners[1], s->corners[2], s->corners[3] };
    for (int i = 0; i < SOLVER_MAX_CELLS; i++) {
        int x = i < g->rules.cells ? s->cells[i] : SOLVER_NO_CARD;
        v[i] = x == SOLVER_NO_CARD ? 0u : (unsigned)RANK(x);
    }
    sort4(v);
    sort4(c);
    uint64_t w = (uint64_t)s->nwaste | (uint64_t)s->redeals << 6;
    int at = 9;
    for (int i = 0; i < SOLVER_MAX_CELLS; i++, at += 4)
        w |= (uint64_t)v[i] << at;
    w |= (uint64_t)s->nreserve << at;
    at += 3;
    for (int i = 0; i < 4; i++, at += 3)
        w |= (uint64_t)c[i] << at;
    w |= (uint64_t)s->tomb << at;
    return w << 16 | 1ull << 63;
}

/* The key: the talon (waste bottom to top, then the stock in turning order;
 * with one pass the waste alone), its split, the redeals, the cells as a
 * sorted multiset, the reserve, the corners as a sorted multiset of their
 * heights and the tomb's height. With the suit symmetry, cards are written
 * as ranks (4 bits), else as card ids (6 bits). The cards on the foundations
 * need not be written: they are all the others, and they never move again. */
void tomb_key(const tomb_game *g, const tomb_state *s, uint64_t *key)
{
    /* With one pass the stock only loses cards from its top (no redeal puts
     * any back), so it is the root's stock cut to its height, and the height
     * follows from the rest of the key: every card not in the waste, the
     * cells, the reserve or the foundations is in the stock. Its cards need
     * not be written (docs/search.md). */
    int one_pass = g->rules.passes == 1;
    memset(key, 0, sizeof(uint64_t) * (size_t)g->key_words);
    if (g->key_words == 4) {
        /* The suit symmetry. Ranks are nibbles, 16 to a word: none straddles
         * two words. The same bits put_bits would write, gathered in bytes
         * first, and with the rank read from a table: this runs for every
         * child. */
        static const uint8_t rank_of[52] = { 1,  2,  3,  4, 5,  6,  7,  8,  9, 10, 11, 12, 13, 1,  2,  3, 4, 5,
                                             6,  7,  8,  9, 10, 11, 12, 13, 1, 2,  3,  4,  5,  6,  7,  8, 9, 10,
                                             11, 12, 13, 1, 2,  3,  4,  5,  6, 7,  8,  9,  10, 11, 12, 13 };
        uint8_t t[64] = { 0 };
        int n = 0;
        for (int i = 0; i < s->nwaste; i++)
            t[n++] = rank_of[s->waste[i]];
        if (!one_pass)
            for (int i = s->nstock - 1; i >= 0; i--)
                t[n++] = rank_of[s->stock[i]];
        for (int w = 0; w < (n + 15) / 16; w++) {
            uint64_t v = 0;
            for (int k = 15; k >= 0; k--)
                v = (v << 4) | t[16 * w + k];
            key[w] = v;
        }
        key[3] |= sym_tail(g, s);
        return;
    }
    /* Card ids, 6 bits each. */
    int pos = 0;
    for (int i = 0; i < s->nwaste; i++)
        put_bits(key, &pos, s->waste[i] + 1u, 6);
    if (!one_pass)
        for (int i = s->nstock - 1; i >= 0; i--)
            put_bits(key, &pos, s->stock[i] + 1u, 6);
    pos = 52 * 6;    /* a value 0 ends a shorter talon */
    put_bits(key, &pos, s->nwaste, 6);
    put_bits(key, &pos, s->redeals, 3);
    unsigned v[SOLVER_MAX_CELLS];
    for (int i = 0; i < SOLVER_MAX_CELLS; i++) {
        int c = i < g->rules.cells ? s->cells[i] : SOLVER_NO_CARD;
        v[i] = c == SOLVER_NO_CARD ? 0u : (unsigned)c + 1u;
    }
    sort4(v);
    for (int i = 0; i < SOLVER_MAX_CELLS; i++)
        put_bits(key, &pos, v[i], 6);
    unsigned mask = 0;    /* which sixes: the four 6s are ids 5, 18, 31, 44 */
    for (int i = 0; i < s->nreserve; i++)
        mask |= 1u << (s->reserve[i] / 13);
    put_bits(key, &pos, mask, 4);
    unsigned c[4] = { s->corners[0], s->corners[1], s->corners[2], s->corners[3] };
    sort4(c);
    for (int i = 0; i < 4; i++)
        put_bits(key, &pos, c[i], 3);
    put_bits(key, &pos, s->tomb, 5);
    /* pos is at most 370: the top bit is free and set, so no key is all
     * zero (the table's mark of an empty slot). sym_tail sets it with the
     * ranks (at most 253 bits). */
    key[5] |= 1ull << 63;
}

/* With the stock empty and cells that send only home (no reserve, no cell to
 * the waste), the rest of the game is forced: a cell card that fits goes home
 * (cell-home), the waste card goes home if it fits (waste-home: no card of its
 * rank is left in the stock or the cells), else into a free cell (the only
 * other move). Gives that move, or 0 when the game is over or the rules are
 * other ones. */
int tomb_endgame_step(const tomb_game *g, const tomb_state *s, tomb_move *m)
{
    const tomb_rules *r = &g->rules;
    if (s->nstock || !r->cell_to_foundation || r->cell_to_waste || r->cell_to_reserve || r->sixes_reserve)
        return 0;
    for (int i = 0; i < r->cells; i++)
        if (s->cells[i] != SOLVER_NO_CARD && home_for(s, RANK(s->cells[i]))) {
            *m = TM_MAKE(SOLVER_MOVE, P_CELL, home_for(s, RANK(s->cells[i])), i);
            return 1;
        }
    if (!s->nwaste)
        return 0;
    int home = home_for(s, RANK(s->waste[s->nwaste - 1]));
    if (home) {
        *m = TM_MAKE(SOLVER_MOVE, P_WASTE, home, 0);
        return 1;
    }
    if (empty_cell(g, s) >= 0) {
        *m = TM_MAKE(SOLVER_MOVE, P_WASTE, P_CELL, 0);
        return 1;
    }
    return 0;
}

/* The talon's ranks in a key of the suit symmetry (nibbles 0..51: words 0
 * to 2 and the low 16 bits of word 3) with the one at index i taken out:
 * those above it move down one nibble. */
static inline void talon_remove(uint64_t *key, int i)
{
    const uint64_t w[4] = { key[0], key[1], key[2], key[3] & 0xffff };
    const int bit = 4 * i;
    for (int k = 0; k < 4; k++) {
        uint64_t down = (w[k] >> 4) | (k < 3 ? w[k + 1] << 60 : 0);
        uint64_t low = bit >= 64 * (k + 1) ? ~0ull : bit <= 64 * k ? 0 : (1ull << (bit - 64 * k)) - 1;
        key[k] = (w[k] & low) | (down & ~low);
    }
}

/* With several passes the talon (the waste bottom to top, then the stock in
 * turning order) is the same sequence after a turn (cards go from the
 * stock's top onto the waste in turning order), after a redeal (the waste
 * turned over into an empty stock, order kept) and after a move that leaves
 * it alone; a waste card played takes one rank out of it. The key's talon
 * is then made from the parent's; any other change (a card put on the
 * waste, a bury) returns 0, and the key is made whole. */
static int talon_after(const tomb_state *from, const uint64_t *from_key, const tomb_state *s, uint64_t *key)
{
    int same = s->nstock == from->nstock && s->nwaste == from->nwaste;
    int played = s->nstock == from->nstock && s->nwaste == from->nwaste - 1;
    int turned = s->nwaste > from->nwaste && from->nstock > 0 && s->nstock == from->nstock - (s->nwaste - from->nwaste)
                 && s->waste[from->nwaste] == from->stock[from->nstock - 1];
    int redealt = from->nstock == 0 && s->nwaste == 0 && s->nstock == from->nwaste;
    if (!(same || played || turned || redealt))
        return 0;
    memcpy(key, from_key, 4 * sizeof(uint64_t));
    if (played)
        talon_remove(key, from->nwaste - 1);
    return 1;
}

/* The key of s, a position one move after `from` whose key is from_key. A
 * move changes the waste only at its top, so below the lower of the two
 * heights the waste is the same: with the suit symmetry and one pass (the
 * key holds the waste alone, then the other fields) only the ranks above
 * that height and the last fields are written anew; with several passes
 * the talon is made from the parent's where talon_after can, and the last
 * fields anew. Otherwise tomb_key. */
void tomb_key_after(const tomb_game *g, const tomb_state *from, const uint64_t *from_key, const tomb_state *s,
                    uint64_t *key)
{
    if (g->key_words != 4) {
        tomb_key(g, s, key);
        return;
    }
    if (g->rules.passes != 1) {
        if (!talon_after(from, from_key, s, key)) {
            tomb_key(g, s, key);
            return;
        }
        key[3] = (key[3] & 0xffff) | sym_tail(g, s);
        return;
    }
    memcpy(key, from_key, 4 * sizeof(uint64_t));
    key[3] &= 0xffff;
    int lo = from->nwaste < s->nwaste ? from->nwaste : s->nwaste;
    for (int i = lo; i < from->nwaste; i++)
        key[i >> 4] &= ~(0xfull << (4 * (i & 15)));
    for (int i = lo; i < s->nwaste; i++)
        key[i >> 4] |= (uint64_t)RANK(s->waste[i]) << (4 * (i & 15));
    key[3] |= sym_tail(g, s);
}
