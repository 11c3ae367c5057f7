/* tomb_rules.h - the rules of play of the Napoleon's Tomb family, written
 * once for the search (families/tomb/) and the player (play/tomb.c).
 *
 * Four corners build up 7..K (an empty one takes any 7), the tomb builds
 * down 6..A four times over, the sixes reserve (some variants) holds 6s
 * waiting for the tomb, cells hold one card each; the stock turns r->turn
 * cards at a time onto the waste and is redealt while passes are left. The
 * variant files choose the parameters (tomb_rules); no variant is named here.
 *
 * The search's bit-level tables (control.c) and its move generator
 * (tomb.c) read what fits from tomb_corner_wants and tomb_wants; its counting
 * arguments over places (places.c, summaries.c, reduction.h) reason about
 * the order these two give, and are argued in docs/search.md.
 */
#ifndef TOMB_RULES_H
#define TOMB_RULES_H

#include "rules.h"
#include "tomb.h"

#define TOMB_CORNERS 4
#define TOMB_CORNER_BASE 7  /* a corner starts with a 7 ... */
#define TOMB_CORNER_SIZE 7  /* ... and builds up to the King */
#define TOMB_BASE 6         /* the tomb builds down from a 6, ... */
#define TOMB_SIZE 24        /* ... four rounds of six */

/* The places a card moves between, as bits. */
#define TOMB_BIT(place) (1u << (place))

/* The rank a corner holding n cards takes next; 0 when it is full. */
static inline int tomb_corner_wants(int n)
{
    return n < TOMB_CORNER_SIZE ? TOMB_CORNER_BASE + n : 0;
}

/* The rank the tomb holding n cards takes next; 0 when it is full. */
static inline int tomb_wants(int n)
{
    return n < TOMB_SIZE ? TOMB_BASE - n % TOMB_BASE : 0;
}

/* What the sixes reserve takes. */
static inline int tomb_reserve_takes(int rank)
{
    return rank == TOMB_BASE;
}

/* How many cards of a rank a corner of n cards, or the tomb of n cards,
 * holds: those it took on the way up to n. */
static inline int tomb_corner_holds(int n, int rank)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        k += tomb_corner_wants(i) == rank;
    return k;
}
static inline int tomb_holds(int n, int rank)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        k += tomb_wants(i) == rank;
    return k;
}

/* The places the rules let a card of src go to at all, whatever they hold
 * (TOMB_BIT of each). A cell takes a waste card whenever there are cells;
 * a cell card goes to another cell where cell_from_cell says so. */
static inline unsigned tomb_routes(const tomb_rules *r, int src)
{
    unsigned out = 0;
    if (src == SOLVER_PLACE_WASTE) {
        out = TOMB_BIT(SOLVER_PLACE_CORNER) | TOMB_BIT(SOLVER_PLACE_TOMB);
        out |= r->sixes_reserve ? TOMB_BIT(SOLVER_PLACE_RESERVE) : 0;
        out |= r->cells > 0 ? TOMB_BIT(SOLVER_PLACE_CELL) : 0;
    } else if (src == SOLVER_PLACE_CELL) {
        out = r->cell_to_foundation ? TOMB_BIT(SOLVER_PLACE_CORNER) | TOMB_BIT(SOLVER_PLACE_TOMB) : 0;
        out |= r->cell_from_cell ? TOMB_BIT(SOLVER_PLACE_CELL) : 0;
        out |= r->cell_to_reserve && r->sixes_reserve ? TOMB_BIT(SOLVER_PLACE_RESERVE) : 0;
        out |= r->cell_to_waste ? TOMB_BIT(SOLVER_PLACE_WASTE) : 0;
    } else if (src == SOLVER_PLACE_RESERVE) {
        out = r->sixes_reserve ? TOMB_BIT(SOLVER_PLACE_TOMB) : 0;
    }
    return out;
}

/* The cards a turn moves from a stock of nstock. */
static inline int tomb_turn_size(const tomb_rules *r, int nstock)
{
    return r->turn < nstock ? r->turn : nstock;
}

/* Whether the waste may be redealt: the stock is empty, the waste is not,
 * and a pass is left. */
static inline int tomb_may_redeal(const tomb_rules *r, int nstock, int nwaste, int redeals)
{
    return nstock == 0 && nwaste > 0 && redeals < r->passes - 1;
}

/* 0 if r are rules of the family, else -1 with the reason in err. */
static inline int tomb_check_rules(const tomb_rules *r, char *err, int errlen)
{
    char text[200];
    if (!r)
        return rules_fail(err, errlen, "rules: none given");
    if (r->turn < 1 || r->turn > 52)
        snprintf(text, sizeof text, "rules: turn %d is not 1..52", r->turn);
    else if (r->passes < 1 || r->passes > 7)
        snprintf(text, sizeof text, "rules: passes %d is not 1..7", r->passes);
    else if (r->cells < 0 || r->cells > SOLVER_MAX_CELLS)
        snprintf(text, sizeof text, "rules: cells %d is not 0..%d", r->cells, SOLVER_MAX_CELLS);
    else if (r->cell_to_reserve && !r->sixes_reserve)
        snprintf(text, sizeof text, "rules: cells send to a sixes reserve that does not exist");
    else
        return 0;
    return rules_fail(err, errlen, text);
}

/* 0 if the counts of p are each in their range under r (the cards are
 * checked apart), else -1 with the reason in err. */
static inline int tomb_check_counts(const tomb_rules *r, const tomb_position *p, char *err, int errlen)
{
    char text[200];
    *text = 0;
    if (p->nstock < 0 || p->nstock > 52 || p->nwaste < 0 || p->nwaste > 52)
        snprintf(text, sizeof text, "position: %d cards in the stock and %d in the waste", p->nstock, p->nwaste);
    else if (p->nreserve < 0 || p->nreserve > 4)
        snprintf(text, sizeof text, "position: %d cards in the sixes reserve, not 0..4", p->nreserve);
    else if (p->nreserve && !r->sixes_reserve)
        snprintf(text, sizeof text, "position: cards in a sixes reserve that the rules do not have");
    else if (p->tomb < 0 || p->tomb > TOMB_SIZE)
        snprintf(text, sizeof text, "position: the tomb holds %d cards, not 0..%d", p->tomb, TOMB_SIZE);
    else if (p->redeals < 0 || p->redeals >= r->passes)
        snprintf(text, sizeof text, "position: %d redeals made, but %d passes", p->redeals, r->passes);
    for (int i = 0; !*text && i < TOMB_CORNERS; i++)
        if (p->corners[i] < 0 || p->corners[i] > TOMB_CORNER_SIZE)
            snprintf(text, sizeof text, "position: corner %d holds %d cards, not 0..%d", i + 1, p->corners[i],
                     TOMB_CORNER_SIZE);
    for (int i = r->cells; !*text && i < SOLVER_MAX_CELLS; i++)
        if (p->cells[i] != SOLVER_NO_CARD)
            snprintf(text, sizeof text, "position: a card in cell %d, but there are %d cells", i + 1, r->cells);
    return *text ? rules_fail(err, errlen, text) : 0;
}

#endif
