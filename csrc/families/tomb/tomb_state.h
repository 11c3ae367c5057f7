/* tomb_state.h - the Napoleon's Tomb family inside the core: state, moves, keys.
 *
 * The search (search.c) sees a game only through these functions, so a
 * second game family can sit beside this one with the same shape.
 */
#ifndef TOMB_STATE_H
#define TOMB_STATE_H

#include <stdint.h>
#include "tomb.h"

#define RANK(card) ((int)(card) % 13 + 1)
#define MAX_MOVES 24
/* Widest key, in 64-bit words (the key with the suit symmetry off). */
#define KEY_WORDS_MAX 6

/* The state. stock and waste are stacks whose top is the last entry:
 * stock[nstock-1] is the next card to turn, waste[nwaste-1] the playable one. */
typedef struct {
    uint8_t stock[52];
    uint8_t waste[52];
    uint8_t cells[SOLVER_MAX_CELLS];
    uint8_t reserve[4];
    uint8_t nstock, nwaste, nreserve;
    uint8_t corners[4];     /* cards on each corner, 0..7 */
    uint8_t tomb;           /* cards in the tomb, 0..24 */
    uint8_t redeals;
} tomb_state;

/* A move: action, source and destination places, and the cell index of a
 * cell source, packed in 16 bits. */
typedef uint16_t tomb_move;
#define TM_MAKE(action, src, dst, idx) \
    ((tomb_move)((action) | ((src) << 2) | ((dst) << 5) | ((idx) << 8)))
/* A bury (full-cells, docs/search.md): cell idx back onto the waste, a turn,
 * and the turned card into that cell; three moves of the rules in one. */
#define TM_BURY 3
#define TM_ACTION(m) ((m) & 3)
#define TM_SRC(m) (((m) >> 2) & 7)
#define TM_DST(m) (((m) >> 5) & 7)
#define TM_IDX(m) (((m) >> 8) & 15)

typedef struct {
    tomb_rules rules;
    unsigned flags;
    int key_words;          /* 4 with the suit symmetry, 6 without */
    /* The lowest place in the root's stock (stock[0] is turned last) that
     * holds each rank, 255 if none: with one pass the stock is always a
     * bottom part of the root's, so a rank is still to come exactly when
     * stock_first[rank] < nstock. */
    uint8_t stock_first[14];
    /* Where a card of each place may go (tomb_routes, rules/tomb_rules.h). */
    uint8_t routes[SOLVER_PLACE_TOMB + 1];
} tomb_game;

/* Whether the rules let a card go from place src to place dst at all. */
static inline int tomb_route(const tomb_game *g, int src, int dst)
{
    return (g->routes[src] >> dst) & 1;
}

/* Sorts four values (a sorting network: no data-dependent branches, which
 * the keys of every child pay for). */
static inline void sort4(unsigned *v)
{
#define SORT4_CX(a, b) do { unsigned x_ = v[a], y_ = v[b]; \
        v[a] = x_ < y_ ? x_ : y_; v[b] = x_ < y_ ? y_ : x_; } while (0)
    SORT4_CX(0, 1);
    SORT4_CX(2, 3);
    SORT4_CX(0, 2);
    SORT4_CX(1, 3);
    SORT4_CX(1, 2);
#undef SORT4_CX
}
_Static_assert(SOLVER_MAX_CELLS == 4, "sort4 sorts the cells");

/* Internal, not a shortcut: every card that fits goes home at once (unsafe:
 * the search then looks for a win only; search.c's greedy phase). */
#define TOMB_GREEDY (1u << 24)

/* Whether full-cells and hand-home can apply to these rules (docs/search.md):
 * cell cards may go back onto the waste, one card turns, one pass. */
static inline int tomb_hand_rules(const tomb_game *g)
{
    return g->rules.cell_to_waste && g->rules.passes == 1 && g->rules.turn == 1;
}

static inline int tomb_full_cells(const tomb_game *g)
{
    return (g->flags & SOLVER_FULL_CELLS) && tomb_hand_rules(g);
}

/* Checks the rules and position; writes a message and returns -1 if impossible. */
int tomb_init(tomb_game *g, const tomb_rules *rules, unsigned flags, const tomb_position *pos, tomb_state *out,
              char *err, int errlen);
/* Fills moves (at most MAX_MOVES), best first; returns how many. */
int tomb_moves(const tomb_game *g, const tomb_state *s, tomb_move *moves);
/* The levels of tomb_moves' forced rules, in the order they are tried (the
 * rules that cannot apply where cells send back onto the waste left out):
 * within a level the top card is tried before the cells. */
enum { LV_GREEDY = 1, LV_SEVEN = 2, LV_SIXES = 3, LV_RESERVE = 4, LV_HAND = 5 };

/* Where full-cells applies: the level of the first forced rule that moves a
 * card other than the top one (0: none), which does not read the top card.
 * The reference for the summaries' bit-level check (bitmoves_check.c). */
int tomb_others_forced(const tomb_game *g, const tomb_state *s);
/* Plays a move generated for s. Fills *out (if out is not NULL) with the
 * move as the API records it (its action, card and places; for a turn, the
 * cards turned) and returns the card moved, or -1 for a turn, a redeal or a
 * bury. */
int tomb_apply(const tomb_game *g, tomb_state *s, tomb_move m, solver_move *out);
int tomb_score(const tomb_state *s);
/* Cards that must reach the foundations before one of this rank fits (99: never). */
int tomb_wait(const tomb_state *s, int rank);
/* The forced move of an endgame with an empty stock (see tomb.c); 0 if none. */
int tomb_endgame_step(const tomb_game *g, const tomb_state *s, tomb_move *m);
/* The exact key of a state: key_words words, never all zero. */
void tomb_key(const tomb_game *g, const tomb_state *s, uint64_t *key);
void tomb_key_after(const tomb_game *g, const tomb_state *from, const uint64_t *from_key, const tomb_state *s,
                    uint64_t *key);

#endif
