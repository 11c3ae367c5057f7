/* tomb.c - the Napoleon's Tomb family's rules of play (play.h): a deal's
 * start, the legal moves of a tomb_table, a player's move applied with its
 * refusals, the move the rules make by themselves and the view, checked
 * against the reference engine (solver/rules/tomb.py) behind the reference
 * player of tests/reference_players.py (tests/test_play_core.py).
 *
 * The table: four corners build up 7..K (an empty one takes any 7), the tomb
 * builds down 6..A four times over (with n cards it wants 6 - n % 6), cells
 * hold one card each, the sixes reserve (some variants) holds 6s waiting for
 * the tomb; the stock turns r->turn cards at a time onto the waste, whose
 * top card alone plays. A player numbers the cells and corners 1..; the
 * engine treats them as interchangeable and takes the first that fits,
 * which is also where a move naming no number goes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "play.h"
#include "registry.h"
#include "tomb_rules.h"
#include "key.h"
#include "layout.h"
#include "view.h"

#define RANK(c) ((c) % 13 + 1)
#define NCORNERS TOMB_CORNERS

/* The moves' destinations, in the order the engine lists them. */
static const int DEST_ORDER[] = { SOLVER_PLACE_CORNER, SOLVER_PLACE_TOMB, SOLVER_PLACE_RESERVE, SOLVER_PLACE_CELL,
                                  SOLVER_PLACE_WASTE };

/* ------------------------------------------------------------------------
 * Messages */

static int failf(char *err, int errlen, const char *fmt, ...)
{
    char text[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    return rules_fail(err, errlen, text);
}

/* A card as a player reads it: "10♥", "J♦" (out has room for 8 bytes). */
static const char *card_text(int card, char *out)
{
    static const char *const ranks[] = { "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K" };
    static const char *const suits[] = { "♣", "♠", "♥", "♦" };
    snprintf(out, 8, "%s%s", ranks[card % 13], suits[card / 13]);
    return out;
}

/* "an A", "a 5", "an 8", "a 10", "a K": a rank as a message says it. */
static const char *rank_text(int rank)
{
    static const char *const names[] = { "an A", "a 2", "a 3",  "a 4", "a 5", "a 6", "a 7",
                                         "an 8", "a 9", "a 10", "a J", "a Q", "a K" };
    return names[rank - 1];
}

/* ------------------------------------------------------------------------
 * What the foundations and the cells take */

static int corner_accepts(const tomb_table *t, int i, int card)
{
    return RANK(card) == tomb_corner_wants(t->pos.corners[i]);
}

/* The first corner that takes card, or -1. */
static int first_corner(const tomb_table *t, int card)
{
    for (int i = 0; i < NCORNERS; i++)
        if (corner_accepts(t, i, card))
            return i;
    return -1;
}

/* The first empty cell, or -1. */
static int first_empty_cell(const tomb_rules *r, const tomb_table *t)
{
    for (int i = 0; i < r->cells; i++)
        if (t->pos.cells[i] == SOLVER_NO_CARD)
            return i;
    return -1;
}

#define BIT(place) TOMB_BIT(place)

/* ------------------------------------------------------------------------
 * Checks of the rules and of a table */

/* Marks the n cards of a place (named where) as seen; -1 with a message if
 * one is no card or was seen already. */
static int see_cards(const uint8_t *cards, int n, const char *where, const char **seen, char *err, int errlen)
{
    for (int i = 0; i < n; i++) {
        int c = cards[i];
        if (c > 51)
            return failf(err, errlen, "position: %s holds card id %d, not 0..51", where, c);
        if (seen[c] == where)
            return failf(err, errlen, "position: a card is twice in %s", where);
        if (seen[c])
            return failf(err, errlen, "position: a card is both in %s and in %s", seen[c], where);
        seen[c] = where;
    }
    return 0;
}

/* The ranks of the foundations and the reserve are those they can hold. */
static int check_ranks(const tomb_table *t, char *err, int errlen)
{
    for (int i = 0; i < NCORNERS; i++)
        for (int k = 0; k < t->pos.corners[i]; k++)
            if (RANK(t->corner_cards[i][k]) != tomb_corner_wants(k))
                return failf(err, errlen, "position: corner %d does not build up 7, 8, ... K", i + 1);
    for (int k = 0; k < t->pos.tomb; k++)
        if (RANK(t->tomb_cards[k]) != tomb_wants(k))
            return rules_fail(err, errlen, "position: the tomb does not build down 6, 5, ... A four times");
    for (int k = 0; k < t->pos.nreserve; k++)
        if (!tomb_reserve_takes(RANK(t->pos.reserve[k])))
            return rules_fail(err, errlen, "position: the sixes reserve holds a card that is not a 6");
    return 0;
}

/* Whether t is a table of the rules: counts in range, every card of the
 * deck in it once, the foundations built as they build. */
static int check_table(const tomb_rules *r, const tomb_table *t, char *err, int errlen)
{
    if (tomb_check_rules(r, err, errlen) < 0)
        return -1;
    if (!t)
        return rules_fail(err, errlen, "position: none given");
    const tomb_position *p = &t->pos;
    if (tomb_check_counts(r, p, err, errlen) < 0)
        return -1;
    const char *seen[52] = { 0 };
    static const char *const corner_names[] = { "corner 1", "corner 2", "corner 3", "corner 4" };
    uint8_t cells[SOLVER_MAX_CELLS];
    int ncells = 0;
    for (int i = 0; i < r->cells; i++)
        if (p->cells[i] != SOLVER_NO_CARD)
            cells[ncells++] = p->cells[i];
    if (see_cards(p->stock, p->nstock, "the stock", seen, err, errlen) < 0
        || see_cards(p->waste, p->nwaste, "the waste", seen, err, errlen) < 0
        || see_cards(cells, ncells, "the cells", seen, err, errlen) < 0
        || see_cards(p->reserve, p->nreserve, "the sixes reserve", seen, err, errlen) < 0
        || see_cards(t->tomb_cards, p->tomb, "the tomb", seen, err, errlen) < 0)
        return -1;
    for (int i = 0; i < NCORNERS; i++)
        if (see_cards(t->corner_cards[i], p->corners[i], corner_names[i], seen, err, errlen) < 0)
            return -1;
    for (int c = 0; c < 52; c++)
        if (!seen[c])
            return rules_fail(err, errlen, "position: a card of the deck is missing");
    return check_ranks(t, err, errlen);
}

/* ------------------------------------------------------------------------
 * The start of a deal */

static int play_start(const void *rules, const uint8_t *cards, int n, void *table, char *err, int errlen)
{
    const tomb_rules *r = rules;
    tomb_table *out = table;
    if (tomb_check_rules(r, err, errlen) < 0)
        return -1;
    if (!cards || !out || n != 52)
        return failf(err, errlen, "deal: %d cards, not the 52 of a deck", cards ? n : 0);
    const char *seen[52] = { 0 };
    if (see_cards(cards, n, "the deal", seen, err, errlen) < 0)
        return -1;
    memset(out, 0, sizeof *out);
    memcpy(out->pos.stock, cards, 52);
    out->pos.nstock = 52;
    memset(out->pos.cells, SOLVER_NO_CARD, sizeof out->pos.cells);
    return 0;
}

/* ------------------------------------------------------------------------
 * The legal moves */

typedef struct {
    int card, place, index; /* a card that may move, where it is (a cell's index 1..) */
} source;

/* The cards that may move, in the engine's order: the top of the waste, the
 * cells', the reserve's. */
static int sources(const tomb_rules *r, const tomb_table *t, source *out)
{
    int n = 0;
    if (t->pos.nwaste)
        out[n++] = (source){ t->pos.waste[t->pos.nwaste - 1], SOLVER_PLACE_WASTE, 0 };
    for (int i = 0; i < r->cells; i++)
        if (t->pos.cells[i] != SOLVER_NO_CARD)
            out[n++] = (source){ t->pos.cells[i], SOLVER_PLACE_CELL, i + 1 };
    for (int i = 0; r->sixes_reserve && i < t->pos.nreserve; i++)
        out[n++] = (source){ t->pos.reserve[i], SOLVER_PLACE_RESERVE, 0 };
    return n;
}

/* Writes a move into out[n] if n < max; returns n + 1. */
static int emit(solver_move *out, int n, int max, const source *s, int dst, int dst_index)
{
    if (n < max) {
        memset(&out[n], 0, sizeof out[n]);
        out[n].action = SOLVER_MOVE;
        out[n].card = s->card;
        out[n].src = s->place;
        out[n].src_index = s->index;
        out[n].dst = dst;
        out[n].dst_index = dst_index;
    }
    return n + 1;
}

/* The moves of a card to dst: one for each corner or empty cell that takes
 * it, else one if dst takes it now. */
static int moves_to(const tomb_rules *r, const tomb_table *t, const source *s, int dst, solver_move *out, int n,
                    int max)
{
    if (dst == SOLVER_PLACE_CORNER) {
        for (int i = 0; i < NCORNERS; i++)
            if (corner_accepts(t, i, s->card))
                n = emit(out, n, max, s, dst, i + 1);
    } else if (dst == SOLVER_PLACE_CELL) {
        for (int i = 0; i < r->cells; i++)
            if (t->pos.cells[i] == SOLVER_NO_CARD)
                n = emit(out, n, max, s, dst, i + 1);
    } else if ((dst == SOLVER_PLACE_TOMB && RANK(s->card) == tomb_wants(t->pos.tomb))
               || (dst == SOLVER_PLACE_RESERVE && tomb_reserve_takes(RANK(s->card))) || dst == SOLVER_PLACE_WASTE) {
        n = emit(out, n, max, s, dst, 0);
    }
    return n;
}

/* The turn (its cards listed) or the redeal, if either may be made. */
static int stock_move(const tomb_rules *r, const tomb_table *t, solver_move *out, int n, int max)
{
    const tomb_position *p = &t->pos;
    int turn = p->nstock > 0, redeal = tomb_may_redeal(r, p->nstock, p->nwaste, p->redeals);
    if (!turn && !redeal)
        return n;
    if (n < max) {
        memset(&out[n], 0, sizeof out[n]);
        out[n].card = SOLVER_NO_CARD;
        out[n].action = turn ? SOLVER_TURN : SOLVER_REDEAL;
        out[n].ncards = turn ? tomb_turn_size(r, p->nstock) : 0;
        memcpy(out[n].cards, p->stock, (size_t)out[n].ncards);
    }
    return n + 1;
}

static int play_moves(const void *rules, const void *table, solver_move *out, int max, char *err, int errlen)
{
    const tomb_rules *r = rules;
    const tomb_table *t = table;
    if (check_table(r, t, err, errlen) < 0)
        return -1;
    if (!out || max < 0)
        max = 0;
    source src[1 + SOLVER_MAX_CELLS + 4];
    int nsrc = sources(r, t, src), n = 0;
    for (size_t d = 0; d < sizeof DEST_ORDER / sizeof DEST_ORDER[0]; d++)
        for (int i = 0; i < nsrc; i++)
            if (tomb_routes(r, src[i].place) & BIT(DEST_ORDER[d]))
                n = moves_to(r, t, &src[i], DEST_ORDER[d], out, n, max);
    return stock_move(r, t, out, n, max);
}

/* ------------------------------------------------------------------------
 * A move applied: the turn, the redeal, a card's move */

static int play_turn(const tomb_rules *r, tomb_position *p, char *err, int errlen)
{
    if (!p->nstock) {
        if (tomb_may_redeal(r, p->nstock, p->nwaste, p->redeals))
            return rules_fail(err, errlen, "the stock is empty (redeal first)");
        return rules_fail(err, errlen, "the stock is empty");
    }
    int k = tomb_turn_size(r, p->nstock);
    memcpy(p->waste + p->nwaste, p->stock, (size_t)k);
    p->nwaste += k;
    memmove(p->stock, p->stock + k, (size_t)(p->nstock - k));
    memset(p->stock + p->nstock - k, 0, (size_t)k);
    p->nstock -= k;
    return 0;
}

static int play_redeal(const tomb_rules *r, tomb_position *p, char *err, int errlen)
{
    if (!tomb_may_redeal(r, p->nstock, p->nwaste, p->redeals)) {
        if (r->passes == 1)
            return rules_fail(err, errlen, "this game goes through the stock once: there is no redeal");
        if (p->nstock)
            return failf(err, errlen, "the stock still holds %d card%s", p->nstock, p->nstock == 1 ? "" : "s");
        if (p->redeals >= r->passes - 1)
            return failf(err, errlen, "this is already the last pass (%d of %d): no more redeals", r->passes,
                         r->passes);
        return rules_fail(err, errlen, "the waste is empty: nothing to redeal");
    }
    /* Order kept: the first card turned onto the waste is turned first again. */
    memcpy(p->stock, p->waste, (size_t)p->nwaste);
    p->nstock = p->nwaste;
    memset(p->waste, 0, sizeof p->waste);
    p->nwaste = 0;
    p->redeals++;
    return 0;
}

/* A player's card move: the card, where it is and where it goes. A cell's
 * or a corner's index is 0..n-1 here, or -1 where the player named none. */
typedef struct {
    int card;
    int src, from; /* the source; from: the cell, or the card's place in the reserve */
    int dst, to;   /* the destination; to: the cell or corner named, or -1 */
} card_move;

/* The card leaving a cell: the one in the cell named, or, where none is
 * named, the card named (find_card looks for its cell). */
static int cell_source(const tomb_rules *r, const tomb_table *t, const solver_move *m, card_move *cm, char *err,
                       int errlen)
{
    char a[8];
    if (!r->cells)
        return rules_fail(err, errlen, "this game has no cells");
    if (m->src_index < 0 || m->src_index > r->cells)
        return failf(err, errlen, "there is no 'cell:%d': cells are numbered 1 to %d", m->src_index, r->cells);
    if (m->src_index == 0) {
        if (m->card == SOLVER_NO_CARD)
            return failf(err, errlen, "say which cell: cell 1 .. cell %d", r->cells);
        cm->card = m->card;
        return 0;
    }
    cm->from = m->src_index - 1;
    int held = t->pos.cells[cm->from];
    if (held == SOLVER_NO_CARD)
        return failf(err, errlen, "cell %d is empty", m->src_index);
    if (m->card != SOLVER_NO_CARD && m->card != held)
        return failf(err, errlen, "cell %d holds %s", m->src_index, card_text(held, a));
    cm->card = held;
    return 0;
}

/* The card leaving m's source: the card named, or the one on top of the
 * source (the reference's _sourcecard_name). */
static int source_card(const tomb_rules *r, const tomb_table *t, const solver_move *m, card_move *cm, char *err,
                       int errlen)
{
    const tomb_position *p = &t->pos;
    cm->src = m->src;
    cm->from = -1;
    switch (m->src) {
    case SOLVER_PLACE_WASTE:
        if (!p->nwaste)
            return rules_fail(err, errlen, "the waste is empty");
        cm->card = m->card != SOLVER_NO_CARD ? m->card : p->waste[p->nwaste - 1];
        return 0;
    case SOLVER_PLACE_CELL: return cell_source(r, t, m, cm, err, errlen);
    case SOLVER_PLACE_RESERVE:
        if (!r->sixes_reserve)
            return rules_fail(err, errlen, "this game has no sixes reserve");
        if (!p->nreserve)
            return rules_fail(err, errlen, "the sixes reserve is empty");
        cm->card = m->card != SOLVER_NO_CARD ? m->card : p->reserve[p->nreserve - 1];
        return 0;
    case SOLVER_PLACE_STOCK: return rules_fail(err, errlen, "turn the stock first: its cards are face down");
    case SOLVER_PLACE_CORNER:
    case SOLVER_PLACE_TOMB: return rules_fail(err, errlen, "cards on the foundations never move again");
    default: return rules_fail(err, errlen, "unknown source place; places are waste, cell, reserve, corner, tomb");
    }
}

/* The card checked to be at the top of its source, and its cell or its
 * place in the reserve found (the engine's _take). */
static int find_card(const tomb_rules *r, const tomb_table *t, card_move *cm, char *err, int errlen)
{
    const tomb_position *p = &t->pos;
    char a[8];
    if (cm->src == SOLVER_PLACE_WASTE) {
        if (p->waste[p->nwaste - 1] != cm->card)
            return failf(err, errlen, "the top of the waste is %s", card_text(p->waste[p->nwaste - 1], a));
        return 0;
    }
    if (cm->src == SOLVER_PLACE_CELL) {
        for (int i = 0; cm->from < 0 && i < r->cells; i++)
            cm->from = p->cells[i] == cm->card ? i : -1;
        return cm->from < 0 ? rules_fail(err, errlen, "no cell holds the card named") : 0;
    }
    for (int i = 0; cm->from < 0 && i < p->nreserve; i++)
        cm->from = p->reserve[i] == cm->card ? i : -1;
    return cm->from < 0 ? rules_fail(err, errlen, "the sixes reserve does not hold the card named") : 0;
}

/* The cell or corner the player named, if any: it must exist and be free,
 * or take the card (the reference's _placer). */
static int named_place(const tomb_rules *r, const tomb_table *t, const solver_move *m, card_move *cm, char *err,
                       int errlen)
{
    char a[8];
    int cell = m->dst == SOLVER_PLACE_CELL, count = cell ? r->cells : NCORNERS, i = m->dst_index - 1;
    cm->dst = m->dst;
    cm->to = -1;
    if ((!cell && m->dst != SOLVER_PLACE_CORNER) || count == 0 || m->dst_index == 0)
        return 0;
    if (m->dst_index < 0 || m->dst_index > count)
        return failf(err, errlen, "there is no '%s:%d': %ss are numbered 1 to %d", cell ? "cell" : "corner",
                     m->dst_index, cell ? "cell" : "corner", count);
    if (cell && t->pos.cells[i] != SOLVER_NO_CARD)
        return failf(err, errlen, "cell %d holds %s", i + 1, card_text(t->pos.cells[i], a));
    if (!cell && !corner_accepts(t, i, cm->card)) {
        int n = t->pos.corners[i];
        if (n == 0)
            return failf(err, errlen, "corner %d is empty: it takes only a 7", i + 1);
        if (!tomb_corner_wants(n))
            return failf(err, errlen, "corner %d is full", i + 1);
        return failf(err, errlen, "corner %d shows %s and wants %s", i + 1, card_text(t->corner_cards[i][n - 1], a),
                     rank_text(tomb_corner_wants(n)));
    }
    cm->to = i;
    return 0;
}

/* Whether the rules let a card go from its source to its destination at all
 * (the engine's _check_route). */
static int check_route(const tomb_rules *r, const tomb_table *t, const card_move *cm, char *err, int errlen)
{
    static const char *const names[] = { [SOLVER_PLACE_CORNER] = "corner",
                                         [SOLVER_PLACE_TOMB] = "tomb",
                                         [SOLVER_PLACE_RESERVE] = "reserve",
                                         [SOLVER_PLACE_CELL] = "cell",
                                         [SOLVER_PLACE_WASTE] = "waste" };
    if (cm->dst == SOLVER_PLACE_STOCK)
        return rules_fail(err, errlen, "no card goes back into the stock");
    if (cm->dst < SOLVER_PLACE_WASTE || cm->dst > SOLVER_PLACE_TOMB)
        return rules_fail(err, errlen, "unknown destination place; places are waste, cell, reserve, corner, tomb");
    unsigned allowed = tomb_routes(r, cm->src);
    if (allowed & BIT(cm->dst)) {
        if (cm->src == SOLVER_PLACE_CELL && cm->dst == SOLVER_PLACE_CELL && first_empty_cell(r, t) < 0)
            return rules_fail(err, errlen, "no empty cell");
        return 0;
    }
    if (cm->src == SOLVER_PLACE_RESERVE)
        return rules_fail(err, errlen, "a 6 leaves the sixes reserve only for the tomb");
    if (cm->src == SOLVER_PLACE_WASTE) {
        if (cm->dst == SOLVER_PLACE_WASTE)
            return rules_fail(err, errlen, "the card is already on the waste");
        if (cm->dst == SOLVER_PLACE_CELL)
            return rules_fail(err, errlen, "this game has no cells");
        return rules_fail(err, errlen, "this game has no sixes reserve");
    }
    char where[64] = "";
    for (size_t d = 0; d < sizeof DEST_ORDER / sizeof DEST_ORDER[0]; d++)
        if (allowed & BIT(DEST_ORDER[d]))
            snprintf(where + strlen(where), sizeof where - strlen(where), "%s%s", *where ? ", " : "",
                     names[DEST_ORDER[d]]);
    return failf(err, errlen, "here a cell card may go only to: %s", *where ? where : "nowhere");
}

/* The card lifted from its source. */
static void take(tomb_position *p, const card_move *cm)
{
    if (cm->src == SOLVER_PLACE_WASTE) {
        p->waste[--p->nwaste] = 0;
    } else if (cm->src == SOLVER_PLACE_CELL) {
        p->cells[cm->from] = SOLVER_NO_CARD;
    } else {
        memmove(p->reserve + cm->from, p->reserve + cm->from + 1, (size_t)(p->nreserve - cm->from - 1));
        p->reserve[--p->nreserve] = 0;
    }
}

/* The card laid on a foundation, if it takes it now (the engine's _put). */
static int put_home(tomb_table *t, card_move *cm, char *err, int errlen)
{
    char a[8];
    int rank = RANK(cm->card);
    if (cm->dst == SOLVER_PLACE_CORNER) {
        if (!tomb_corner_holds(TOMB_CORNER_SIZE, rank))
            return failf(err, errlen, "corners build 7 up to K: %s never goes on a corner", rank_text(rank));
        int i = cm->to >= 0 ? cm->to : first_corner(t, cm->card);
        if (i < 0 && rank == tomb_corner_wants(0))
            return rules_fail(err, errlen, "no empty corner");
        if (i < 0)
            return failf(err, errlen, "no corner shows %s", rank_text(rank - 1));
        t->corner_cards[i][t->pos.corners[i]++] = (uint8_t)cm->card;
        cm->to = i;
        return 0;
    }
    int wants = tomb_wants(t->pos.tomb);
    if (!wants)
        return rules_fail(err, errlen, "the tomb is full");
    if (rank != wants && !t->pos.tomb)
        return rules_fail(err, errlen, "the empty tomb takes only a 6");
    if (rank != wants)
        return failf(err, errlen, "the tomb shows %s and wants %s", card_text(t->tomb_cards[t->pos.tomb - 1], a),
                     rank_text(wants));
    t->tomb_cards[t->pos.tomb++] = (uint8_t)cm->card;
    return 0;
}

/* The card laid on its destination, if it takes it now; the card is lifted
 * from its source first (a cell it leaves is empty). */
static int put(const tomb_rules *r, tomb_table *t, card_move *cm, char *err, int errlen)
{
    tomb_position *p = &t->pos;
    take(p, cm);
    switch (cm->dst) {
    case SOLVER_PLACE_CORNER:
    case SOLVER_PLACE_TOMB: return put_home(t, cm, err, errlen);
    case SOLVER_PLACE_CELL: {
        int i = cm->to >= 0 ? cm->to : first_empty_cell(r, t);
        if (i < 0)
            return rules_fail(err, errlen, "no empty cell");
        p->cells[i] = (uint8_t)cm->card;
        cm->to = i;
        return 0;
    }
    case SOLVER_PLACE_RESERVE:
        if (!tomb_reserve_takes(RANK(cm->card)))
            return rules_fail(err, errlen, "the sixes reserve takes only 6s");
        p->reserve[p->nreserve++] = (uint8_t)cm->card;
        return 0;
    default: p->waste[p->nwaste++] = (uint8_t)cm->card; return 0;
    }
}

static int move_card(const tomb_rules *r, tomb_table *t, const solver_move *m, solver_move *played, char *err,
                     int errlen);

/* The turned card straight from the stock to its place, as the Finnish
 * sheet words it and the solution format may write it ("8H stock -> cell"):
 * the turn of that one card, then its move from the waste; `played` is the
 * move as given, its place numbered. Only where the stock turns one card,
 * and only for the card that comes next: to a player who cannot see it the
 * answer is the same as for any card of the face-down stock. */
static int move_from_stock(const tomb_rules *r, tomb_table *t, const solver_move *m, solver_move *played, char *err,
                           int errlen)
{
    if (r->turn != 1)
        return failf(err, errlen,
                     "the stock turns %d cards at a time here: turn them, then move the card from the waste", r->turn);
    if (!t->pos.nstock)
        return rules_fail(err, errlen, "the stock is empty");
    if (t->pos.stock[0] != m->card)
        return rules_fail(err, errlen, "turn the stock first: its cards are face down");
    play_turn(r, &t->pos, err, errlen);
    solver_move from_waste = *m;
    from_waste.src = SOLVER_PLACE_WASTE;
    from_waste.src_index = 0;
    if (m->dst == SOLVER_PLACE_WASTE)
        *played = from_waste;
    else if (move_card(r, t, &from_waste, played, err, errlen) < 0)
        return -1;
    played->src = SOLVER_PLACE_STOCK;
    return 0;
}

/* A card's move; `played` is written as play_moves lists it (a cell and a
 * corner by the one it went to). */
static int move_card(const tomb_rules *r, tomb_table *t, const solver_move *m, solver_move *played, char *err,
                     int errlen)
{
    card_move cm = { 0 };
    if (m->card != SOLVER_NO_CARD && (m->card < 0 || m->card > 51))
        return failf(err, errlen, "card id %d is not 0..51", m->card);
    if (m->src == SOLVER_PLACE_STOCK && m->card != SOLVER_NO_CARD)
        return move_from_stock(r, t, m, played, err, errlen);
    if (source_card(r, t, m, &cm, err, errlen) < 0 || named_place(r, t, m, &cm, err, errlen) < 0
        || check_route(r, t, &cm, err, errlen) < 0 || find_card(r, t, &cm, err, errlen) < 0
        || put(r, t, &cm, err, errlen) < 0)
        return -1;
    source s = { cm.card, cm.src, cm.src == SOLVER_PLACE_CELL ? cm.from + 1 : 0 };
    int numbered = cm.dst == SOLVER_PLACE_CELL || cm.dst == SOLVER_PLACE_CORNER;
    emit(played, 0, 1, &s, cm.dst, numbered ? cm.to + 1 : 0);
    return 0;
}

static int play_apply(const void *rules, void *table, const solver_move *m, solver_move *played, char *err, int errlen)
{
    const tomb_rules *r = rules;
    tomb_table *t = table;
    if (check_table(r, t, err, errlen) < 0)
        return -1;
    if (!m)
        return rules_fail(err, errlen, "no move given");
    tomb_table after;
    solver_move done;
    memcpy(&after, t, sizeof after);
    int rc;
    switch (m->action) {
    case SOLVER_TURN:
    case SOLVER_REDEAL:
        stock_move(r, t, &done, 0, 1); /* as listed, before it is made: a turn names its cards */
        rc = m->action == SOLVER_TURN ? play_turn(r, &after.pos, err, errlen) : play_redeal(r, &after.pos, err, errlen);
        break;
    case SOLVER_MOVE: rc = move_card(r, &after, m, &done, err, errlen); break;
    default: rc = rules_fail(err, errlen, "there is no such action in this game; actions are turn, redeal, move");
    }
    if (rc == 0) {
        memcpy(t, &after, sizeof after);
        if (played)
            *played = done;
    }
    return rc;
}

/* ------------------------------------------------------------------------
 * The move the rules make by themselves, and the score */

static int play_auto(const void *rules, const void *table, int enabled, solver_move *out)
{
    const tomb_rules *r = rules;
    const tomb_table *t = table;
    char err[200];
    if (!enabled || !out || check_table(r, t, err, sizeof err) < 0)
        return 0;
    /* Cells that send cards only home: not to a cell, the reserve, the waste. */
    if (!r->cell_to_foundation || r->cell_from_cell || r->cell_to_reserve || r->cell_to_waste)
        return 0;
    /* The first in the engine's order: onto a corner (the first that takes
     * it), else onto the tomb. */
    for (int home = 0; home < 2; home++)
        for (int i = 0; i < r->cells; i++) {
            int c = t->pos.cells[i];
            if (c == SOLVER_NO_CARD)
                continue;
            int corner = first_corner(t, c);
            if (home == 0 ? corner < 0 : RANK(c) != tomb_wants(t->pos.tomb))
                continue;
            source s = { c, SOLVER_PLACE_CELL, i + 1 };
            emit(out, 0, 1, &s, home == 0 ? SOLVER_PLACE_CORNER : SOLVER_PLACE_TOMB, home == 0 ? corner + 1 : 0);
            return 1;
        }
    return 0;
}

static int play_score(const void *rules, const void *table)
{
    (void)rules;
    const tomb_table *t = table;
    if (!t)
        return 0;
    int n = t->pos.tomb;
    for (int i = 0; i < NCORNERS; i++)
        n += t->pos.corners[i];
    return n;
}

/* The table as a player sees it (solver_play_view): no card of the stock. */
static void play_view(const void *rules, const void *table, view_text *v)
{
    const tomb_rules *r = rules;
    const tomb_table *t = table;
    const tomb_position *p = &t->pos;
    int fan = r->turn < 3 ? r->turn : 3;
    fan = fan < p->nwaste ? fan : p->nwaste;
    view_put(v, "{\"stock\": {\"count\": %d}, \"waste\": {\"count\": %d, \"fan\": ", p->nstock, p->nwaste);
    view_cards(v, p->waste + p->nwaste - fan, fan);
    view_put(v, "}, \"cells\": ");
    view_cards(v, p->cells, r->cells); /* SOLVER_NO_CARD: null */
    view_put(v, ", \"reserve\": ");
    if (r->sixes_reserve)
        view_cards(v, p->reserve, p->nreserve);
    else
        view_put(v, "null");
    view_put(v, ", \"corners\": [");
    for (int i = 0; i < NCORNERS; i++) {
        view_put(v, i ? ", " : "");
        view_top(v, t->corner_cards[i], p->corners[i]);
    }
    view_put(v, "], \"tomb\": {");
    view_top_fields(v, t->tomb_cards, p->tomb);
    int wants = tomb_wants(p->tomb), rounds = TOMB_SIZE / TOMB_BASE, round = p->tomb / TOMB_BASE + 1;
    view_put(v, wants ? ", \"wants\": %d" : ", \"wants\": null", wants);
    view_put(v, ", \"round\": %d, \"rounds\": %d}", round < rounds ? round : rounds, rounds);
    view_put(v, ", \"pass\": {\"number\": %d, \"of\": %d}}", p->redeals + 1, r->passes);
}

/* ------------------------------------------------------------------------
 * The layout (solver_play_layout): the four corners at the X's ends, the
 * tomb at its centre with the cells north, west, east and south of it; the
 * stock, the waste and the sixes reserve in a row below. */

static void layout_tomb_grid(const tomb_rules *r, const tomb_table *t, view_text *v)
{
    static const int CORNER_AT[4][2] = { { 1, 1 }, { 1, 5 }, { 3, 1 }, { 3, 5 } };
    static const int CELL_AT[4][2] = { { 1, 3 }, { 2, 2 }, { 2, 4 }, { 3, 3 } };
    const tomb_position *p = &t->pos;
    char held[80], count[24];
    layout_area(v, 1, 5, 1, 0, 0);
    for (int i = 0; i < NCORNERS; i++) {
        layout_spot s = layout_new("corner:%d", i + 1);
        s.row = CORNER_AT[i][0], s.col = CORNER_AT[i][1];
        s.cards = t->corner_cards[i], s.ncards = s.count = p->corners[i], s.empty = "7", s.home = 1;
        layout_holding(held, sizeof held, s.count, s.count ? s.cards[s.count - 1] : -1);
        layout_name(&s, "corner %d: %s", i + 1, s.count ? held : "empty, takes a 7");
        layout_label(&s, "%s", s.count ? layout_cards(count, sizeof count, s.count) : "any 7");
        layout_put(v, i == 0, &s);
    }
    layout_spot s = layout_new("tomb");
    s.row = 2, s.col = 3, s.cards = t->tomb_cards, s.ncards = s.count = p->tomb, s.empty = "6", s.outline = 1,
    s.home = 1;
    int wants = tomb_wants(p->tomb), rounds = TOMB_SIZE / TOMB_BASE, round = p->tomb / TOMB_BASE + 1;
    round = round < rounds ? round : rounds;
    layout_holding(held, sizeof held, s.count, s.count ? s.cards[s.count - 1] : -1);
    if (wants) {
        layout_name(&s, "tomb: %s; wants %s, round %d of %d", held, layout_rank(wants), round, rounds);
        layout_label(&s, "wants %s, round %d/%d", strchr(layout_rank(wants), ' ') + 1, round, rounds);
    } else {
        layout_name(&s, "tomb: %s; full", held);
        layout_label(&s, "full");
    }
    layout_put(v, 0, &s);
    for (int i = 0; i < r->cells; i++) {
        layout_spot c = layout_new("cell:%d", i + 1);
        c.row = CELL_AT[i][0], c.col = CELL_AT[i][1], c.empty = "cell";
        int card = p->cells[i];
        c.cards = &p->cells[i], c.ncards = c.count = card != SOLVER_NO_CARD;
        layout_name(&c, "cell %d: %s", i + 1, c.count ? layout_card(held, sizeof held, card) : "empty");
        layout_label(&c, "cell %d", i + 1);
        layout_put(v, 0, &c);
    }
}

static void layout_tomb_row(const tomb_rules *r, const tomb_table *t, int redeal, view_text *v)
{
    const tomb_position *p = &t->pos;
    char held[200], count[24], card[32], pass[40] = "";
    layout_area(v, 0, r->sixes_reserve ? 3 : 2, 0, 0, 0);
    layout_spot s = layout_new("@deck");
    s.count = p->nstock, s.back = 1, s.empty = redeal ? "↻" : "empty", s.action = p->nstock ? "turn" : "redeal";
    if (r->passes > 1)
        snprintf(pass, sizeof pass, ", pass %d of %d", p->redeals + 1, r->passes);
    layout_name(&s, "stock: %s%s",
                p->nstock ? layout_cards(count, sizeof count, p->nstock)
                : redeal  ? "empty, redeal"
                          : "empty",
                pass);
    layout_label(&s, "stock %d", p->nstock);
    if (r->passes > 1)
        snprintf(s.label + strlen(s.label), sizeof s.label - strlen(s.label), " · pass %d/%d", p->redeals + 1,
                 r->passes);
    layout_put(v, 1, &s);
    int fan = r->turn < 3 ? r->turn : 3;
    fan = fan < p->nwaste ? fan : p->nwaste;
    layout_spot w = layout_new("waste");
    w.fan = "right", w.cards = p->waste + p->nwaste - fan, w.ncards = fan, w.count = p->nwaste, w.empty = "waste";
    if (fan > 1) {
        int n = snprintf(held, sizeof held, ", showing ");
        for (int i = 0; i < fan; i++)
            n += snprintf(held + n, sizeof held - (size_t)n, "%s%s", i ? ", " : "",
                          layout_card(card, sizeof card, w.cards[i]));
        snprintf(held + n, sizeof held - (size_t)n, " (on top)");
    } else if (p->nwaste)
        snprintf(held, sizeof held, ", %s on top", layout_card(card, sizeof card, w.cards[0]));
    else
        held[0] = 0;
    layout_name(&w, "waste: %s%s", p->nwaste ? layout_cards(count, sizeof count, p->nwaste) : "empty", held);
    layout_label(&w, "waste %d", p->nwaste);
    layout_put(v, 0, &w);
    if (!r->sixes_reserve)
        return;
    layout_spot x = layout_new("reserve");
    x.fan = "right", x.cards = p->reserve, x.ncards = x.count = p->nreserve, x.empty = "6s";
    int n = 0;
    held[0] = 0;
    for (int i = 0; i < p->nreserve; i++)
        n += snprintf(held + n, sizeof held - (size_t)n, "%s%s", i ? ", " : "",
                      layout_card(card, sizeof card, p->reserve[i]));
    layout_name(&x, "sixes reserve: %s", p->nreserve ? held : "empty");
    layout_label(&x, "sixes reserve");
    layout_put(v, 0, &x);
}

static void play_layout(const void *rules, const void *table, int redeal, view_text *v)
{
    const tomb_rules *r = rules;
    const tomb_table *t = table;
    const tomb_position *p = &t->pos;
    char status[120];
    int wants = tomb_wants(p->tomb), rounds = TOMB_SIZE / TOMB_BASE, round = p->tomb / TOMB_BASE + 1;
    int n = wants ? snprintf(status, sizeof status, "Tomb: wants %s · round %d of %d", layout_rank(wants),
                             round < rounds ? round : rounds, rounds)
                  : snprintf(status, sizeof status, "Tomb: full");
    if (r->passes > 1)
        snprintf(status + n, sizeof status - (size_t)n, " · pass %d of %d", p->redeals + 1, r->passes);
    layout_begin(v, "column");
    layout_tomb_grid(r, t, v);
    layout_tomb_row(r, t, redeal, v);
    layout_end(v, status);
}

/* ------------------------------------------------------------------------
 * The key (solver_play_key) and the blind players (solver_play_choose) */

/* Sorts n small numbers (insertion: a handful of cells, a reserve's 6s). */
static void sort_small(int *v, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
            int x = v[j];
            v[j] = v[j - 1];
            v[j - 1] = x;
        }
}

static void play_key(const void *rules, const void *table, int canonical, key_text *k)
{
    const tomb_rules *r = rules;
    const tomb_table *t = table;
    const tomb_position *p = &t->pos;
    key_cards(k, p->stock, p->nstock);
    key_cards(k, p->waste, p->nwaste);
    key_int(k, p->redeals);
    if (!canonical) {
        key_cards(k, p->cells, r->cells); /* SOLVER_NO_CARD for an empty cell */
        key_cards(k, p->reserve, p->nreserve);
        for (int i = 0; i < NCORNERS; i++)
            key_cards(k, t->corner_cards[i], p->corners[i]);
        key_cards(k, t->tomb_cards, p->tomb);
        return;
    }
    int v[SOLVER_MAX_CELLS], n = 0;
    for (int i = 0; i < r->cells; i++)
        if (p->cells[i] != SOLVER_NO_CARD)
            v[n++] = p->cells[i];
    sort_small(v, n);
    key_int(k, n);
    key_ints(k, v, n);
    for (n = 0; n < p->nreserve; n++)
        v[n] = p->reserve[n];
    sort_small(v, n);
    key_int(k, n);
    key_ints(k, v, n);
    int corners[NCORNERS];
    memcpy(corners, p->corners, sizeof corners);
    sort_small(corners, NCORNERS);
    key_ints(k, corners, NCORNERS);
    key_int(k, p->tomb);
}

/* How many cards a foundation must still take before it takes card: the
 * fewest over the corners and the tomb, by what each wants next (-1: none
 * will). */
static int distance(const tomb_table *t, int card)
{
    int rank = RANK(card), best = -1;
    for (int k = 0; tomb_wants(t->pos.tomb + k); k++)
        if (tomb_wants(t->pos.tomb + k) == rank) {
            best = k;
            break;
        }
    for (int i = 0; i < NCORNERS; i++)
        for (int k = 0; tomb_corner_wants(t->pos.corners[i] + k) && (best < 0 || k < best); k++)
            if (tomb_corner_wants(t->pos.corners[i] + k) == rank) {
                best = k;
                break;
            }
    return best;
}

static int play_distance(const void *rules, const void *table, int card)
{
    (void)rules;
    return distance(table, card);
}

/* The first offered move of card from src to dst, or -1. */
static int find_move(const solver_move *offered, int n, int card, int src, int dst)
{
    for (int i = 0; i < n; i++)
        if (offered[i].action == SOLVER_MOVE && offered[i].card == card && offered[i].src == src
            && offered[i].dst == dst)
            return i;
    return -1;
}

/* A card home, cells first (it frees a cell), then the reserve, then the
 * waste; -1 for none. */
static int home_move(const solver_move *offered, int n)
{
    static const int order[] = { SOLVER_PLACE_CELL, SOLVER_PLACE_RESERVE, SOLVER_PLACE_WASTE };
    for (int o = 0; o < 3; o++)
        for (int i = 0; i < n; i++)
            if (offered[i].action == SOLVER_MOVE && offered[i].src == order[o]
                && solver_place_home(offered[i].dst) == 1)
                return i;
    return -1;
}

/* The top waste card parked: a 6 in the sixes reserve if it may go there,
 * else a cell; -1 for neither. */
static int park_move(const solver_move *offered, int n, int top)
{
    int i = tomb_reserve_takes(RANK(top)) ? find_move(offered, n, top, SOLVER_PLACE_WASTE, SOLVER_PLACE_RESERVE) : -1;
    return i >= 0 ? i : find_move(offered, n, top, SOLVER_PLACE_WASTE, SOLVER_PLACE_CELL);
}

/* The simple and the careful player of play.h, from what a player sees: the
 * top two waste cards, the cells, the foundations, the passes. */
static int play_choose(const void *rules, const void *table, int strategy, int within, int keep_last_cell,
                       const solver_move *offered, int n)
{
    const tomb_rules *r = rules;
    const tomb_table *t = table;
    const tomb_position *p = &t->pos;
    int i = home_move(offered, n);
    if (i >= 0)
        return i;
    int top = p->nwaste ? p->waste[p->nwaste - 1] : -1, under = p->nwaste > 1 ? p->waste[p->nwaste - 2] : -1;
    int park = top >= 0 ? park_move(offered, n, top) : -1;
    if (park >= 0) {
        if ((strategy == SOLVER_BLIND_CAREFUL && offered[park].dst == SOLVER_PLACE_RESERVE)
            || (under >= 0 && distance(t, under) == 0))
            return park;
        int d = distance(t, top);
        if (strategy == SOLVER_BLIND_CAREFUL && d >= 0 && d <= within) {
            int keep = keep_last_cell < 0 ? r->passes > 1 : keep_last_cell, free = 0;
            for (int c = 0; c < r->cells; c++)
                free += p->cells[c] == SOLVER_NO_CARD;
            if (offered[park].dst != SOLVER_PLACE_CELL || !keep || free > 1)
                return park;
        }
    }
    for (i = 0; i < n; i++)
        if (offered[i].action == SOLVER_TURN || offered[i].action == SOLVER_REDEAL)
            return i;
    return -1;
}

/* The family's rules of play, for the registry (families/registry.c). */
const play_verbs tomb_play = {
    .start = play_start,
    .moves = play_moves,
    .apply = play_apply,
    .automatic = play_auto,
    .score = play_score,
    .view = play_view,
    .layout = play_layout,
    .key = play_key,
    .choose = play_choose,
    .distance = play_distance,
    .places = (const int[]){ SOLVER_PLACE_STOCK, SOLVER_PLACE_WASTE, SOLVER_PLACE_CELL, SOLVER_PLACE_RESERVE,
                             SOLVER_PLACE_CORNER, SOLVER_PLACE_TOMB, -1 },
};

solver *tomb_search_new(const void *rules, const void *position, unsigned flags, char *err, int errlen);

static const family_field RULES_FIELDS[] = {
    FAMILY_FIELD(tomb_rules, turn),
    FAMILY_FIELD(tomb_rules, passes),
    FAMILY_FIELD(tomb_rules, cells),
    FAMILY_FIELD(tomb_rules, cell_from_cell),
    FAMILY_FIELD(tomb_rules, cell_to_foundation),
    FAMILY_FIELD(tomb_rules, cell_to_reserve),
    FAMILY_FIELD(tomb_rules, cell_to_waste),
    FAMILY_FIELD(tomb_rules, sixes_reserve),
};
static const family_field POSITION_FIELDS[] = {
    FAMILY_FIELD(tomb_position, stock),    FAMILY_FIELD(tomb_position, nstock),  FAMILY_FIELD(tomb_position, waste),
    FAMILY_FIELD(tomb_position, nwaste),   FAMILY_FIELD(tomb_position, cells),   FAMILY_FIELD(tomb_position, reserve),
    FAMILY_FIELD(tomb_position, nreserve), FAMILY_FIELD(tomb_position, corners), FAMILY_FIELD(tomb_position, tomb),
    FAMILY_FIELD(tomb_position, redeals),
};
static const family_field TABLE_FIELDS[] = {
    FAMILY_FIELD(tomb_table, pos),
    FAMILY_FIELD(tomb_table, corner_cards),
    FAMILY_FIELD(tomb_table, tomb_cards),
};

static const family_constant CONSTANTS[] = {
    FAMILY_CONSTANT(SOLVER_MAX_CELLS),
    FAMILY_CONSTANT(SOLVER_ALL_SHORTCUTS),
};

/* The family, for the registry (families/registry.c). */
const family_entry tomb_family = {
    .name = "tomb",
    .play = &tomb_play,
    .search = tomb_search_new,
    .rules = FAMILY_STRUCT(tomb_rules, RULES_FIELDS),
    .table = FAMILY_STRUCT(tomb_table, TABLE_FIELDS),
    .position = FAMILY_STRUCT(tomb_position, POSITION_FIELDS),
    .position_in_table = offsetof(tomb_table, pos),
    .constants = CONSTANTS,
    .nconstants = (int)(sizeof CONSTANTS / sizeof CONSTANTS[0]),
};
