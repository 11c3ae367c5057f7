/* jewel.c - Paciência do Porta-Jóias' (the jewel box's) rules of play
 * (play.h): a deal's start, the legal moves of a position, a player's move
 * applied, the next jewel into a waiting space, the score, the view.
 *
 * The rules are those of the reference engine, solver/rules/jewel.py, as the
 * reference player plays it (tests/reference_players.py): the same moves in
 * the same order (legal_moves), the same moves accepted (play, after the
 * player's move is read as to_engine reads it), the same position after
 * them, and the reference's reasons for a refusal. Places are the player's:
 * lid 1..5, side 1..4 (tableau 0..3), bottom 1..4 (tableau 4..7), reserve
 * 1..3, foundations by suit; the turned card moves from the stock.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "registry.h"
#include "key.h"
#include "view.h"
#include "layout.h"
#include "rules.h"
#include "deck2_ops.h"
#include "jewel_rules.h"

#define NO DECK2_NO_CARD
#define KING 13
#define PACK 104
#define BOX (JEWEL_LID + JEWEL_TABLEAU) /* the lid and the piles: 13 cards */

/* A place as the player names it: SOLVER_PLACE_* and its index. */
typedef struct {
    int kind, index;
} place;

/* Printable names of a card and of a place (returned by value). */
typedef struct {
    char s[8];
} card_text;
typedef struct {
    char s[24];
} place_text;

/* ------------------------------------------------------------------------
 * Small helpers: cards, places, messages. */

/* A card as solver/cards.py's pretty() writes it: "10♥", "J♦". */
static card_text name_card(int c)
{
    static const char *const ranks[] = { "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K" };
    static const char *const suits[] = { "\u2663", "\u2660", "\u2665", "\u2666" };
    card_text t;
    snprintf(t.s, sizeof t.s, "%s%s", ranks[card_rank(c) - 1], suits[card_suit(c)]);
    return t;
}

/* "a 7", "an 8", "an A": the reference's _rank_name. */
static const char *rank_phrase(int rank)
{
    static const char *const names[] = { "an A", "a 2", "a 3",  "a 4", "a 5", "a 6", "a 7",
                                         "an 8", "a 9", "a 10", "a J", "a Q", "a K" };
    return names[rank - 1];
}

static const char *kind_word(int kind)
{
    switch (kind) {
    case SOLVER_PLACE_STOCK: return "stock";
    case SOLVER_PLACE_LID: return "lid";
    case SOLVER_PLACE_SIDE: return "side";
    case SOLVER_PLACE_BOTTOM: return "bottom";
    case SOLVER_PLACE_RESERVE_PILE: return "reserve";
    case SOLVER_PLACE_FOUNDATION: return "foundation";
    default: return "?";
    }
}

/* A place as the reference names it ("lid:3", "foundation:H", "stock"), or
 * with a space for the colon ("side 2"). */
static place_text name_place(place pl, char sep)
{
    place_text t;
    if (pl.kind == SOLVER_PLACE_FOUNDATION && pl.index >= 0 && pl.index < 4)
        snprintf(t.s, sizeof t.s, "foundation%c%c", sep, CARD_SUITS[pl.index]);
    else if (pl.index == 0)
        snprintf(t.s, sizeof t.s, "%s", kind_word(pl.kind));
    else
        snprintf(t.s, sizeof t.s, "%s%c%d", kind_word(pl.kind), sep, pl.index);
    return t;
}

/* Formats a reason into err; returns -1 (as play_fail). */
#if defined(__GNUC__)
#define PRINTF_LIKE __attribute__((format(printf, 3, 4)))
#else
#define PRINTF_LIKE
#endif
static int failf(char *err, int errlen, const char *fmt, ...) PRINTF_LIKE;

static int failf(char *err, int errlen, const char *fmt, ...)
{
    char text[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    return rules_fail(err, errlen, text);
}

static place make_place(int kind, int index)
{
    place pl = { kind, index };
    return pl;
}

/* The side or bottom pile of a place: tableau 0..7. */
static int pile_of(place pl)
{
    return pl.kind == SOLVER_PLACE_SIDE ? pl.index - 1 : 4 + pl.index - 1;
}

static place pile_place(int q)
{
    place pl = { q < 4 ? SOLVER_PLACE_SIDE : SOLVER_PLACE_BOTTOM, q < 4 ? q + 1 : q - 3 };
    return pl;
}

static int is_pile(place pl)
{
    return pl.kind == SOLVER_PLACE_SIDE || pl.kind == SOLVER_PLACE_BOTTOM;
}

static int top_of(const jewel_position *p, int q)
{
    return p->ntableau[q] ? p->tableau[q][p->ntableau[q] - 1] : NO;
}

/* ------------------------------------------------------------------------
 * What places accept (the reference's helpers of the same names), by the
 * rules of jewel_rules.h over this position. */

/* The place the next jewel must fill now (1, into *pl), or 0
 * (jewel_space_to_fill). */
static int space_pending(const jewel_position *p, place *pl)
{
    unsigned empty = 0;
    for (int i = 0; i < JEWEL_LID; i++)
        empty |= (unsigned)(p->lid[i] == NO) << JEWEL_BOX_LID(i);
    for (int q = 0; q < JEWEL_TABLEAU; q++)
        empty |= (unsigned)(p->ntableau[q] == 0) << JEWEL_BOX_PILE(q);
    int at = jewel_space_to_fill(p->njewels != 0, empty);
    if (at < 0)
        return 0;
    *pl = at < JEWEL_BOX_PILE(0) ? make_place(SOLVER_PLACE_LID, at + 1) : pile_place(at - JEWEL_BOX_PILE(0));
    return 1;
}

static int foundation_accepts(const jewel_position *p, int c)
{
    const int *f = p->foundations[card_suit(c)];
    return jewel_home_takes(f[0], f[1], c);
}

/* Whether an empty side or bottom place takes c (a single card) now. */
static int empty_pile_accepts(const jewel_rules *r, const jewel_position *p, int c)
{
    return jewel_pile_space_fault(r, p->njewels != 0, 1, c) == JEWEL_ALLOWED;
}

static int empty_lid_accepts(const jewel_rules *r, const jewel_position *p)
{
    return jewel_lid_space_fault(r, p->njewels != 0) == JEWEL_ALLOWED;
}

/* ------------------------------------------------------------------------
 * Is the position possible? */

/* Adds the n cards to count; 1 if one is not a card 0..51. */
static int count_cards(const uint8_t *cards, int n, int *count)
{
    int bad = 0;
    for (int i = 0; i < n; i++) {
        if (cards[i] < 52)
            count[cards[i]]++;
        else
            bad = 1;
    }
    return bad;
}

/* 0 if every count of p is in range, else -1 with the reason. */
static int check_counts(const jewel_rules *r, const jewel_position *p, char *err, int errlen)
{
    if (jewel_check_stock(p, err, errlen) < 0)
        return -1;
    for (int q = 0; q < JEWEL_TABLEAU; q++)
        if (p->ntableau[q] < 0 || p->ntableau[q] > PACK)
            return rules_fail(err, errlen, "position: a side or bottom pile holds 0..104 cards");
    for (int k = 0; k < JEWEL_RESERVES; k++)
        if (jewel_check_reserve(r, p, k, err, errlen) < 0)
            return -1;
    if (jewel_check_foundations(p, err, errlen) < 0)
        return -1;
    if (p->turned != NO && (p->turned < 0 || p->turned >= 52))
        return rules_fail(err, errlen, "position: a card id is not 0..51");
    return 0;
}

/* 0 if r and p make a possible position of the jewel box (its counts in
 * range, every card there twice), else -1 with the reason. */
static int check_position(const jewel_rules *r, const jewel_position *p, char *err, int errlen)
{
    if (!r || !p)
        return rules_fail(err, errlen, "no rules or no position given");
    if (jewel_check_rules(r, err, errlen) < 0 || check_counts(r, p, err, errlen) < 0)
        return -1;
    int count[52] = { 0 }, bad = 0;
    bad |= count_cards(p->stock, p->nstock, count);
    bad |= count_cards(p->jewels, p->njewels, count);
    for (int q = 0; q < JEWEL_TABLEAU; q++)
        bad |= count_cards(p->tableau[q], p->ntableau[q], count);
    for (int k = 0; k < JEWEL_RESERVES; k++)
        bad |= count_cards(p->reserves[k], p->nreserves[k], count);
    for (int i = 0; i < JEWEL_LID; i++)
        if (p->lid[i] != NO)
            bad |= count_cards(&p->lid[i], 1, count);
    if (p->turned != NO)
        count[p->turned]++;
    if (bad)
        return rules_fail(err, errlen, "position: a card id is not 0..51");
    for (int s = 0; s < 4; s++)
        for (int j = 0; j < 2; j++)
            for (int i = 0; i < p->foundations[s][j]; i++)
                count[s * 13 + i]++;
    return rules_check_twice(count, "", err, errlen);
}

/* ------------------------------------------------------------------------
 * The start of a deal (JewelPosition.start, converted as core.py does). */

static int jewel_play_start(const void *rules, const uint8_t *cards, int n, void *table, char *err, int errlen)
{
    const jewel_rules *r = rules;
    jewel_position *out = table;
    if (!r || !out || (!cards && n > 0))
        return rules_fail(err, errlen, "no rules, cards or position given");
    if (jewel_check_rules(r, err, errlen) < 0)
        return -1;
    if (n < BOX)
        return failf(err, errlen, "the jewel box needs at least %d cards; %d given", BOX, n);
    if (n > PACK)
        return failf(err, errlen, "%d cards given; the pack has %d", n, PACK);
    for (int i = 0; i < n; i++)
        if (cards[i] >= 52)
            return rules_fail(err, errlen, "a card id is not 0..51");
    memset(out, 0, sizeof *out);
    out->turned = NO;
    memcpy(out->lid, cards, JEWEL_LID);
    for (int q = 0; q < JEWEL_TABLEAU; q++) {
        out->tableau[q][0] = cards[JEWEL_LID + q];
        out->ntableau[q] = 1;
    }
    out->njewels = n - BOX < JEWEL_JEWELS ? n - BOX : JEWEL_JEWELS;
    memcpy(out->jewels, cards + BOX, (size_t)out->njewels);
    out->nstock = n - BOX - out->njewels;
    memcpy(out->stock, cards + BOX + out->njewels, (size_t)out->nstock);
    return 0;
}

/* ------------------------------------------------------------------------
 * The legal moves (legal_moves), in the reference's order. */

/* The moves written so far: at most max of them into out, n counted. */
typedef struct {
    solver_move *out;
    int max, n;
} move_list;

/* Counts a move and writes it if there is room: returns its record, or
 * NULL where it was not written. */
static solver_move *add_move(move_list *l, int action, int card, place src, place dst)
{
    solver_move *m = NULL;
    if (l->out && l->n < l->max) {
        m = &l->out[l->n];
        memset(m, 0, sizeof *m);
        m->action = action;
        m->card = card;
        m->src = src.kind;
        m->src_index = src.index;
        m->dst = dst.kind;
        m->dst_index = dst.index;
    }
    l->n++;
    return m;
}

static place foundation_of(int c)
{
    return make_place(SOLVER_PLACE_FOUNDATION, card_suit(c));
}

/* The turned card's moves (_placements): home, onto the piles, onto each
 * reserve (with reserve_when_stuck only when neither a foundation nor a
 * pile top takes it), into an empty lid place. */
static void placements(const jewel_rules *r, const jewel_position *p, move_list *l)
{
    int c = p->turned, placed = 0;
    place stock = make_place(SOLVER_PLACE_STOCK, 0);
    if (foundation_accepts(p, c)) {
        add_move(l, SOLVER_MOVE, c, stock, foundation_of(c));
        placed = 1;
    }
    for (int q = 0; q < JEWEL_TABLEAU; q++) {
        int top = top_of(p, q);
        if (top != NO ? jewel_builds_on(c, top) : empty_pile_accepts(r, p, c))
            add_move(l, SOLVER_MOVE, c, stock, pile_place(q));
        placed |= top != NO && jewel_builds_on(c, top);
    }
    if (jewel_reserve_takes(r, placed))
        for (int k = 0; k < r->reserves; k++)
            add_move(l, SOLVER_MOVE, c, stock, make_place(SOLVER_PLACE_RESERVE_PILE, k + 1));
    if (empty_lid_accepts(r, p))
        for (int i = 0; i < JEWEL_LID; i++)
            if (p->lid[i] == NO)
                add_move(l, SOLVER_MOVE, c, stock, make_place(SOLVER_PLACE_LID, i + 1));
}

/* The top cards that may move when no card is turned: the piles' (in side,
 * bottom order), then the reserves'; returns how many. */
static int tops(const jewel_rules *r, const jewel_position *p, place *where, int *card)
{
    int n = 0;
    for (int q = 0; q < JEWEL_TABLEAU; q++)
        if (p->ntableau[q]) {
            where[n] = pile_place(q);
            card[n++] = top_of(p, q);
        }
    for (int k = 0; k < r->reserves; k++)
        if (p->nreserves[k]) {
            where[n] = make_place(SOLVER_PLACE_RESERVE_PILE, k + 1);
            card[n++] = p->reserves[k][p->nreserves[k] - 1];
        }
    return n;
}

/* The moves home: from the lid, then from the tops. */
static void home_moves(const jewel_position *p, const place *where, const int *card, int ntops, move_list *l)
{
    for (int i = 0; i < JEWEL_LID; i++)
        if (p->lid[i] != NO && foundation_accepts(p, p->lid[i]))
            add_move(l, SOLVER_MOVE, p->lid[i], make_place(SOLVER_PLACE_LID, i + 1), foundation_of(p->lid[i]));
    for (int t = 0; t < ntops; t++)
        if (foundation_accepts(p, card[t]))
            add_move(l, SOLVER_MOVE, card[t], where[t], foundation_of(card[t]));
}

/* card from src onto every pile (but src's) whose top card it builds on. */
static void builds_onto_piles(const jewel_position *p, int card, place src, move_list *l)
{
    for (int q = 0; q < JEWEL_TABLEAU; q++) {
        place dst = pile_place(q);
        int top = top_of(p, q);
        if (!(is_pile(src) && pile_of(src) == q) && top != NO && jewel_builds_on(card, top))
            add_move(l, SOLVER_MOVE, card, src, dst);
    }
}

/* The moves onto a pile's top card: from another pile (with runs_move a run
 * too, by its deepest card), then from the reserves' tops. */
static void build_moves(const jewel_rules *r, const jewel_position *p, const place *where, const int *card, int ntops,
                        move_list *l)
{
    for (int q = 0; q < JEWEL_TABLEAU; q++) {
        int longest = jewel_movable(r, p->tableau[q], p->ntableau[q]);
        for (int n = 1; n <= longest; n++)
            builds_onto_piles(p, p->tableau[q][p->ntableau[q] - n], pile_place(q), l);
    }
    for (int t = 0; t < ntops; t++)
        if (where[t].kind == SOLVER_PLACE_RESERVE_PILE)
            builds_onto_piles(p, card[t], where[t], l);
}

/* The tops into the empty piles and lid places that take them; a one-card
 * pile's card into an empty pile changes nothing and is left out. */
static void into_empty_moves(const jewel_rules *r, const jewel_position *p, const place *where, const int *card,
                             int ntops, move_list *l)
{
    int lid_open = empty_lid_accepts(r, p);
    for (int t = 0; t < ntops; t++) {
        int listed = jewel_space_move_listed(is_pile(where[t]) ? p->ntableau[pile_of(where[t])] : -1);
        if (listed && empty_pile_accepts(r, p, card[t]))
            for (int q = 0; q < JEWEL_TABLEAU; q++)
                if (p->ntableau[q] == 0)
                    add_move(l, SOLVER_MOVE, card[t], where[t], pile_place(q));
        for (int i = 0; lid_open && i < JEWEL_LID; i++)
            if (p->lid[i] == NO)
                add_move(l, SOLVER_MOVE, card[t], where[t], make_place(SOLVER_PLACE_LID, i + 1));
    }
}

static int jewel_play_moves(const void *rules, const void *table, solver_move *out, int max, char *err, int errlen)
{
    const jewel_rules *r = rules;
    const jewel_position *p = table;
    if (check_position(r, p, err, errlen) < 0)
        return -1;
    move_list l = { out, max < 0 ? 0 : max, 0 };
    place pending, where[JEWEL_TABLEAU + JEWEL_RESERVES];
    int card[JEWEL_TABLEAU + JEWEL_RESERVES];
    if (space_pending(p, &pending)) {
        add_move(&l, SOLVER_JEWEL_FILL, p->jewels[0], make_place(SOLVER_PLACE_STOCK, 0), pending);
        return l.n;
    }
    if (p->turned != NO) {
        placements(r, p, &l);
        return l.n;
    }
    int ntops = tops(r, p, where, card);
    home_moves(p, where, card, ntops, &l);
    build_moves(r, p, where, card, ntops, &l);
    into_empty_moves(r, p, where, card, ntops, &l);
    if (p->nstock) {
        place stock = make_place(SOLVER_PLACE_STOCK, 0);
        solver_move *turn = add_move(&l, SOLVER_TURN, SOLVER_NO_CARD, stock, stock);
        if (turn) {
            turn->ncards = 1;
            turn->cards[0] = p->stock[0];
        }
    }
    return l.n;
}

/* ------------------------------------------------------------------------
 * A move applied (the reference player's to_engine, then the engine's play), on a copy q of
 * the position: each returns 0, or -1 with the reason. */

static int apply_jewel(jewel_position *q, const solver_move *m, move_list *played, char *err, int errlen)
{
    place pending;
    if (!space_pending(q, &pending))
        return rules_fail(err, errlen, q->njewels ? "no space waits for a jewel" : "no jewels are left");
    /* A jewel names no place with the stock's (the record's zeros). */
    int named = !(m->dst == SOLVER_PLACE_STOCK && m->dst_index == 0);
    if (named && (m->dst != pending.kind || m->dst_index != pending.index))
        return failf(err, errlen, "the space to fill is %s", name_place(pending, ':').s);
    uint8_t jewel = q->jewels[0];
    add_move(played, SOLVER_JEWEL_FILL, jewel, make_place(SOLVER_PLACE_STOCK, 0), pending);
    memmove(q->jewels, q->jewels + 1, (size_t)(q->njewels - 1));
    q->jewels[--q->njewels] = 0;
    if (pending.kind == SOLVER_PLACE_LID) {
        q->lid[pending.index - 1] = jewel;
    } else {
        int t = pile_of(pending);
        q->tableau[t][0] = jewel;
        q->ntableau[t] = 1;
    }
    return 0;
}

static int apply_turn(jewel_position *q, move_list *played, char *err, int errlen)
{
    if (q->turned != NO)
        return failf(err, errlen, "%s was turned and must be placed first", name_card(q->turned).s);
    if (q->nstock == 0)
        return rules_fail(err, errlen, "the stock is empty");
    place stock = make_place(SOLVER_PLACE_STOCK, 0);
    solver_move *turn = add_move(played, SOLVER_TURN, SOLVER_NO_CARD, stock, stock);
    turn->ncards = 1;
    turn->cards[0] = q->stock[0];
    q->turned = q->stock[0];
    memmove(q->stock, q->stock + 1, (size_t)(q->nstock - 1));
    q->stock[--q->nstock] = 0;
    return 0;
}

/* Checks a player's numbered place (Player.to_engine's indexed): 0, or -1
 * if its index is out of range; index 0 is the bare kind. */
static int check_index(place pl, int count, char *err, int errlen)
{
    if (pl.index == 0 || (pl.index >= 1 && pl.index <= count))
        return 0;
    return failf(err, errlen, "there is no '%s': %ss are numbered 1 to %d", name_place(pl, ':').s, kind_word(pl.kind),
                 count);
}

/* The top card of the move's source, as Player.to_engine finds it (into
 * *top), or -1 with the reason the player's move is refused. */
static int source_top(const jewel_rules *r, const jewel_position *q, place src, int *top, char *err, int errlen)
{
    *top = NO;
    switch (src.kind) {
    case SOLVER_PLACE_STOCK:
        if (q->turned == NO)
            return rules_fail(err, errlen, "no card is turned: turn the stock first");
        *top = q->turned;
        return 0;
    case SOLVER_PLACE_LID:
        if (check_index(src, JEWEL_LID, err, errlen) < 0)
            return -1;
        *top = src.index ? q->lid[src.index - 1] : NO;
        break;
    case SOLVER_PLACE_SIDE:
    case SOLVER_PLACE_BOTTOM:
        if (check_index(src, 4, err, errlen) < 0)
            return -1;
        *top = src.index ? top_of(q, pile_of(src)) : NO;
        break;
    case SOLVER_PLACE_RESERVE_PILE:
        if (r->reserves == 0)
            return rules_fail(err, errlen, "this game has no reserves");
        if (check_index(src, r->reserves, err, errlen) < 0)
            return -1;
        if (src.index && q->nreserves[src.index - 1])
            *top = q->reserves[src.index - 1][q->nreserves[src.index - 1] - 1];
        break;
    case SOLVER_PLACE_FOUNDATION: return rules_fail(err, errlen, "cards on the foundations never move again");
    default: return rules_fail(err, errlen, "unknown place; places are stock, lid:N, side:N, bottom:N, reserve:N");
    }
    if (src.index == 0)
        return failf(err, errlen, "say which %s: %s:1, %s:2...", kind_word(src.kind), kind_word(src.kind),
                     kind_word(src.kind));
    if (*top == NO)
        return failf(err, errlen, "%s is empty", name_place(src, ' ').s);
    return 0;
}

/* The engine's check of a place (_check_place): 0 if this game has it. */
static int check_place(const jewel_rules *r, place pl, const char *what, char *err, int errlen)
{
    int size;
    switch (pl.kind) {
    case SOLVER_PLACE_STOCK:
        if (pl.index != 0)
            return failf(err, errlen, "unknown %s place %s: the stock has no index", what, name_place(pl, ':').s);
        return 0;
    case SOLVER_PLACE_FOUNDATION:
        if (pl.index < 0 || pl.index > 3)
            return failf(err, errlen, "unknown %s place in this game; foundation places are foundation:H", what);
        return 0;
    case SOLVER_PLACE_LID: size = JEWEL_LID; break;
    case SOLVER_PLACE_SIDE:
    case SOLVER_PLACE_BOTTOM: size = 4; break;
    case SOLVER_PLACE_RESERVE_PILE:
        if (r->reserves == 0)
            return rules_fail(err, errlen, "this game has no reserves");
        size = r->reserves;
        break;
    default:
        return failf(err, errlen, "unknown %s place in this game; places are stock, lid, side, bottom, %sfoundation",
                     what, r->reserves ? "reserve, " : "");
    }
    if (pl.index == 0)
        return failf(err, errlen, "%s place %s needs its index (%s:1..%d)", what, kind_word(pl.kind),
                     kind_word(pl.kind), size);
    if (pl.index < 1 || pl.index > size)
        return failf(err, errlen, "unknown %s place %s in this game; %s places are %s:1..%d", what,
                     name_place(pl, ':').s, kind_word(pl.kind), kind_word(pl.kind), size);
    return 0;
}

/* Whether a reserve takes the turned card (jewel_reserve_takes): 0, or -1
 * with where else it fits. */
static int check_unplaceable(const jewel_rules *r, const jewel_position *q, int card, char *err, int errlen)
{
    place where = foundation_of(card);
    int fits = foundation_accepts(q, card);
    for (int t = 0; !fits && t < JEWEL_TABLEAU; t++)
        if (top_of(q, t) != NO && jewel_builds_on(card, top_of(q, t))) {
            where = pile_place(t);
            fits = 1;
        }
    if (jewel_reserve_takes(r, fits))
        return 0;
    return failf(err, errlen,
                 "%s fits %s: Porta-Jóias puts a turned card onto a reserve only when no foundation and no pile "
                 "top takes it",
                 name_card(card).s, name_place(where, ':').s);
}

/* The rules a card move obeys before its cards are lifted (_move_card). */
static int check_move_rules(const jewel_rules *r, const jewel_position *q, place src, place dst, int card, char *err,
                            int errlen)
{
    if (check_place(r, src, "source", err, errlen) < 0 || check_place(r, dst, "destination", err, errlen) < 0)
        return -1;
    if (dst.kind == SOLVER_PLACE_STOCK)
        return rules_fail(err, errlen, "no card goes back into the stock");
    if (q->turned != NO && src.kind != SOLVER_PLACE_STOCK)
        return failf(err, errlen, "%s was turned and must be placed first", name_card(q->turned).s);
    if (src.kind == dst.kind && src.index == dst.index)
        return failf(err, errlen, "the card is already on %s", name_place(src, ':').s);
    if (src.kind == SOLVER_PLACE_LID && dst.kind != SOLVER_PLACE_FOUNDATION)
        return rules_fail(err, errlen, "a lid card goes only to a foundation");
    if (dst.kind == SOLVER_PLACE_RESERVE_PILE && src.kind != SOLVER_PLACE_STOCK)
        return rules_fail(err, errlen, "a reserve takes cards only from the stock (the turned card)");
    if (dst.kind == SOLVER_PLACE_RESERVE_PILE)
        return check_unplaceable(r, q, card, err, errlen);
    return 0;
}

/* How many cards leave side or bottom pile t for dst when card is named (a
 * run's deepest card with runs_move), or -1 with the reason (_take). */
static int pile_depth(const jewel_rules *r, const jewel_position *q, int t, place dst, int card, char *err, int errlen)
{
    int n = q->ntableau[t], top = top_of(q, t), run = jewel_run_length(q->tableau[t], n), depth = 0;
    place src = pile_place(t);
    if (top == card)
        return 1;
    for (int d = 2; d <= run && !depth; d++)
        if (q->tableau[t][n - d] == card)
            depth = d;
    if (!depth)
        return failf(err, errlen, "%s is not on top of %s (its top is %s)", name_card(card).s, name_place(src, ':').s,
                     name_card(top).s);
    if (!r->runs_move)
        return failf(err, errlen, "one card moves at a time here: %s lies under %s", name_card(card).s,
                     name_card(top).s);
    if (!is_pile(dst))
        return failf(err, errlen, "only a single card goes to %s places: the top of %s is %s", kind_word(dst.kind),
                     name_place(src, ':').s, name_card(top).s);
    return depth;
}

/* Lifts card (a run's deepest, with the cards above it) from src into
 * cards (bottom first); returns how many, or -1 with the reason (_take). */
static int take(const jewel_rules *r, jewel_position *q, place src, place dst, int card, uint8_t *cards, char *err,
                int errlen)
{
    if (src.kind == SOLVER_PLACE_STOCK) {
        if (q->turned != card)
            return failf(err, errlen, "the turned card is %s", name_card(q->turned).s);
        q->turned = NO;
    } else if (src.kind == SOLVER_PLACE_LID) {
        if (q->lid[src.index - 1] != card)
            return failf(err, errlen, "%s holds %s", name_place(src, ':').s, name_card(q->lid[src.index - 1]).s);
        q->lid[src.index - 1] = NO;
    } else if (src.kind == SOLVER_PLACE_RESERVE_PILE) {
        uint8_t *res = q->reserves[src.index - 1];
        int *n = &q->nreserves[src.index - 1];
        if (res[*n - 1] != card)
            return failf(err, errlen, "the top of %s is %s", name_place(src, ':').s, name_card(res[*n - 1]).s);
        res[--*n] = 0;
    } else {
        int t = pile_of(src), depth = pile_depth(r, q, t, dst, card, err, errlen);
        if (depth < 0)
            return -1;
        q->ntableau[t] -= depth;
        memcpy(cards, &q->tableau[t][q->ntableau[t]], (size_t)depth);
        memset(&q->tableau[t][q->ntableau[t]], 0, (size_t)depth);
        return depth;
    }
    cards[0] = (uint8_t)card;
    return 1;
}

/* card home onto whichever of its suit's two foundations it continues, the
 * larger count kept first (_put_home). */
static int put_home(jewel_position *q, int card, place dst, char *err, int errlen)
{
    int s = card_suit(card), *f = q->foundations[s], a = f[0], b = f[1];
    if (dst.index != s)
        return failf(err, errlen, "%s goes to foundation:%c, not %s", name_card(card).s, CARD_SUITS[s],
                     name_place(dst, ':').s);
    int slot = jewel_home_slot(a, b, card);
    if (slot == 0) {
        a++;
    } else if (slot == 1) {
        b++;
    } else {
        char wants[32] = "nothing";
        if (a < KING && b < KING && a != b)
            snprintf(wants, sizeof wants, "%s or %s", rank_phrase(a + 1), rank_phrase(b + 1));
        else if (a < KING || b < KING)
            snprintf(wants, sizeof wants, "%s", rank_phrase((a < KING ? a : b) + 1));
        return failf(err, errlen, "the %c foundations hold %d and %d cards: they take %s", CARD_SUITS[s], a, b, wants);
    }
    f[0] = a > b ? a : b;
    f[1] = a > b ? b : a;
    return 0;
}

/* n cards (a run bottom first) onto side or bottom pile dst: on a top card
 * they build on, or as the empty place's rule allows (_put_on_pile). */
static int put_on_pile(const jewel_rules *r, jewel_position *q, const uint8_t *cards, int n, place dst, char *err,
                       int errlen)
{
    int t = pile_of(dst), top = top_of(q, t), card = cards[0];
    place_text name = name_place(dst, ':');
    const char *where = name.s;
    int fault = top != NO ? jewel_build_fault(card, top) : jewel_pile_space_fault(r, q->njewels != 0, n, card);
    switch (fault) {
    case JEWEL_ALLOWED: break;
    case JEWEL_FAULT_RANK:
        if (card_rank(card) == KING)
            return failf(err, errlen, "%s shows %s: a King goes on no card", where, name_card(top).s);
        return failf(err, errlen, "%s shows %s: %s goes only on %s", where, name_card(top).s, name_card(card).s,
                     rank_phrase(card_rank(card) + 1));
    case JEWEL_FAULT_COLOUR:
        return failf(err, errlen, "%s shows %s: piles build in alternating colours", where, name_card(top).s);
    case JEWEL_FAULT_JEWEL_NEXT: return failf(err, errlen, "%s is empty and the next jewel fills it", where);
    case JEWEL_FAULT_RUN:
        return failf(err, errlen, "%s is empty and an empty place takes a single card, not a run", where);
    case JEWEL_FAULT_KING_ONLY:
        return failf(err, errlen, "%s is empty and an empty side or bottom place takes only a King", where);
    default: return failf(err, errlen, "%s is empty and an empty side or bottom place stays empty in this game", where);
    }
    memcpy(&q->tableau[t][q->ntableau[t]], cards, (size_t)n);
    q->ntableau[t] += n;
    return 0;
}

/* The lifted cards onto dst (_put). */
static int put(const jewel_rules *r, jewel_position *q, const uint8_t *cards, int n, place dst, char *err, int errlen)
{
    if (dst.kind == SOLVER_PLACE_FOUNDATION)
        return put_home(q, cards[0], dst, err, errlen);
    if (is_pile(dst))
        return put_on_pile(r, q, cards, n, dst, err, errlen);
    if (dst.kind == SOLVER_PLACE_RESERVE_PILE) {
        int k = dst.index - 1;
        q->reserves[k][q->nreserves[k]++] = cards[0];
        return 0;
    }
    /* a lid place */
    uint8_t *held = &q->lid[dst.index - 1];
    place_text name = name_place(dst, ':');
    if (*held != NO)
        return failf(err, errlen, "%s holds %s: a lid card never has a card on it", name.s, name_card(*held).s);
    int fault = jewel_lid_space_fault(r, q->njewels != 0);
    if (fault == JEWEL_FAULT_JEWEL_NEXT)
        return failf(err, errlen, "%s is empty and the next jewel fills it", name.s);
    if (fault != JEWEL_ALLOWED)
        return failf(err, errlen, "%s is empty and an empty lid place stays empty in this game", name.s);
    *held = cards[0];
    return 0;
}

/* A card move: its source's top card when it names none, onto its suit's
 * foundations when it names none. */
static int apply_move(const jewel_rules *r, jewel_position *q, const solver_move *m, move_list *played, char *err,
                      int errlen)
{
    place src = make_place(m->src, m->src_index), dst = make_place(m->dst, m->dst_index);
    uint8_t cards[KING]; /* a run is at most 13 cards, King to Ace */
    int top;
    if (source_top(r, q, src, &top, err, errlen) < 0)
        return -1;
    int card = m->card == SOLVER_NO_CARD ? top : m->card;
    if (card < 0 || card >= 52)
        return rules_fail(err, errlen, "the move's card is not a card 0..51");
    if (dst.kind == SOLVER_PLACE_FOUNDATION && dst.index == SOLVER_ANY_SUIT)
        dst.index = card_suit(card);
    if (check_move_rules(r, q, src, dst, card, err, errlen) < 0)
        return -1;
    int n = take(r, q, src, dst, card, cards, err, errlen);
    if (n < 0 || put(r, q, cards, n, dst, err, errlen) < 0)
        return -1;
    add_move(played, SOLVER_MOVE, card, src, dst);
    return 0;
}

static const char *action_word(int action)
{
    switch (action) {
    case SOLVER_REDEAL: return "redeal";
    case SOLVER_DEAL: return "deal";
    default: return "such action";
    }
}

static int jewel_play_apply(const void *rules, void *table, const solver_move *m, solver_move *played, char *err,
                            int errlen)
{
    const jewel_rules *r = rules;
    jewel_position *p = table;
    if (check_position(r, p, err, errlen) < 0)
        return -1;
    if (!m)
        return rules_fail(err, errlen, "no move given");
    jewel_position q;
    place pending;
    solver_move done;
    move_list as_played = { &done, 1, 0 };
    int rc;
    memcpy(&q, p, sizeof q);
    if (m->action == SOLVER_JEWEL_FILL)
        rc = apply_jewel(&q, m, &as_played, err, errlen);
    else if (space_pending(&q, &pending))
        rc = failf(err, errlen, "%s is empty: the next jewel must fill it first", name_place(pending, ':').s);
    else if (m->action == SOLVER_TURN)
        rc = apply_turn(&q, &as_played, err, errlen);
    else if (m->action == SOLVER_MOVE)
        rc = apply_move(r, &q, m, &as_played, err, errlen);
    else
        rc = failf(err, errlen, "there is no %s in Porta-Jóias; actions are turn, move, jewel", action_word(m->action));
    if (rc == 0) {
        memcpy(p, &q, sizeof q);
        if (played)
            *played = done;
    }
    return rc;
}

/* ------------------------------------------------------------------------
 * The rules' own move, and the score. */

static int jewel_play_auto(const void *rules, const void *table, int enabled, solver_move *out)
{
    (void)enabled; /* the jewels' fill is the rules' own: always */
    const jewel_rules *r = rules;
    const jewel_position *p = table;
    place pending;
    if (check_position(r, p, NULL, 0) < 0 || !space_pending(p, &pending))
        return 0;
    if (out) {
        memset(out, 0, sizeof *out);
        out->action = SOLVER_JEWEL_FILL;
        out->card = p->jewels[0];
        out->dst = pending.kind;
        out->dst_index = pending.index;
    }
    return 1;
}

static int jewel_play_score(const void *rules, const void *table)
{
    (void)rules;
    const jewel_position *p = table;
    int score = 0;
    for (int s = 0; p && s < 4; s++)
        score += p->foundations[s][0] + p->foundations[s][1];
    return score;
}

/* The table as a player sees it (solver_play_view): no card of the stock
 * and no jewel. */
static void jewel_play_view(const void *rules, const void *table, view_text *v)
{
    const jewel_rules *r = rules;
    const jewel_position *p = table;
    place pending;
    view_put(v, "{\"stock\": {\"count\": %d}, \"turned\": ", p->nstock);
    view_card(v, p->turned); /* NO: null */
    view_put(v, ", \"lid\": ");
    view_cards(v, p->lid, JEWEL_LID);
    for (int q = 0; q < JEWEL_TABLEAU; q++) {
        view_put(v, q == 0 ? ", \"sides\": [" : q == 4 ? "], \"bottoms\": [" : ", ");
        view_cards(v, p->tableau[q], p->ntableau[q]);
    }
    view_put(v, "], \"jewels\": {\"count\": %d, \"pending\": ", p->njewels);
    if (space_pending(p, &pending))
        view_put(v, "\"%s\"", name_place(pending, ':').s);
    else
        view_put(v, "null");
    view_put(v, "}, \"reserves\": [");
    for (int k = 0; k < r->reserves; k++) {
        view_put(v, k ? ", " : "");
        view_top(v, p->reserves[k], p->nreserves[k]);
    }
    view_put(v, "], \"foundations\": {");
    for (int s = 0; s < 4; s++) {
        view_put(v, "%s\"%c\": [", s ? ", " : "", CARD_SUITS[s]);
        for (int k = 0; k < 2; k++) {
            int n = p->foundations[s][k];
            view_put(v, k ? ", " : "");
            view_count(v, n, n ? s * 13 + n - 1 : -1);
        }
        view_put(v, "]");
    }
    view_put(v, "}}");
}

/* The layout (solver_play_layout): the stock, the turned card and the
 * reserves in a column; the jewel box (its lid above, two sides either side
 * of the jewels, the bottom below); the two foundations of each suit. On a
 * narrow screen the box comes first. */
static void jewel_layout_side(const jewel_rules *r, const jewel_position *p, view_text *v)
{
    char held[80];
    layout_area(v, 1, 1, 1, 5, 2);
    layout_spot s = layout_new("@deck");
    s.count = p->nstock, s.back = 1, s.empty = "empty", s.action = "turn";
    layout_name(&s, "stock: %s", p->nstock ? layout_cards(held, sizeof held, p->nstock) : "empty");
    layout_label(&s, "stock %d", p->nstock);
    layout_put(v, 1, &s);
    layout_spot t = layout_new("stock");
    uint8_t turned = (uint8_t)p->turned;
    t.cards = &turned, t.ncards = t.count = p->turned != DECK2_NO_CARD, t.empty = "turned";
    layout_name(&t, "turned card: %s", t.count ? layout_card(held, sizeof held, p->turned) : "none");
    layout_label(&t, "turned");
    layout_put(v, 0, &t);
    for (int k = 0; k < r->reserves; k++) {
        layout_spot x = layout_new("reserve:%d", k + 1);
        x.cards = p->reserves[k], x.ncards = x.count = p->nreserves[k];
        layout_name(&x, "reserve %d: %s", k + 1,
                    layout_holding(held, sizeof held, x.count, x.count ? x.cards[x.count - 1] : -1));
        layout_label(&x, "reserve %d", k + 1);
        layout_put(v, 0, &x);
    }
}

static void jewel_layout_box(const jewel_position *p, view_text *v)
{
    static const int AT[JEWEL_TABLEAU][2] = { { 2, 1 }, { 2, 3 }, { 2, 7 }, { 2, 9 },
                                              { 3, 2 }, { 3, 4 }, { 3, 6 }, { 3, 8 } };
    char held[80];
    layout_area(v, 0, 10, 0.5, 0, 1);
    for (int i = 0; i < JEWEL_LID; i++) {
        layout_spot s = layout_new("lid:%d", i + 1);
        s.row = 1, s.col = 2 * i + 1, s.span = 2, s.cards = &p->lid[i], s.ncards = s.count = p->lid[i] != DECK2_NO_CARD;
        layout_name(&s, "lid %d: %s", i + 1, s.count ? layout_card(held, sizeof held, p->lid[i]) : "empty");
        layout_label(&s, "lid %d", i + 1);
        layout_put(v, i == 0, &s);
    }
    for (int q = 0; q < JEWEL_TABLEAU; q++) {
        const char *word = q < 4 ? "side" : "bottom";
        int i = q < 4 ? q + 1 : q - 3;
        layout_spot s = layout_new("%s:%d", word, i);
        s.row = AT[q][0], s.col = AT[q][1], s.span = 2, s.fan = "down";
        s.cards = p->tableau[q], s.ncards = s.count = p->ntableau[q];
        layout_name(&s, "%s %d: %s", word, i,
                    layout_holding(held, sizeof held, s.count, s.count ? s.cards[s.count - 1] : -1));
        layout_label(&s, "%s %d", word, i);
        layout_put(v, 0, &s);
    }
    layout_spot j = layout_new("%s", "");
    j.row = 2, j.col = 5, j.span = 2, j.count = p->njewels, j.back = 1, j.empty = "no jewels";
    layout_name(&j, "jewels: %d face down", p->njewels);
    layout_label(&j, "jewels %d", p->njewels);
    layout_put(v, 0, &j);
}

static void jewel_layout_foundations(const jewel_position *p, view_text *v)
{
    static const char *const EMPTY[4] = { "A♣", "A♠", "A♥", "A♦" };
    char card[32];
    layout_area(v, 0, 2, 1, 4, 3);
    for (int s = 0; s < 4; s++)
        for (int k = 0; k < 2; k++) {
            int n = p->foundations[s][k];
            uint8_t top = (uint8_t)(s * 13 + n - 1);
            layout_spot f =
                k ? layout_new("foundation:%c#2", CARD_SUITS[s]) : layout_new("foundation:%c", CARD_SUITS[s]);
            snprintf(f.place, sizeof f.place, "foundation:%c", CARD_SUITS[s]);
            f.cards = &top, f.ncards = n > 0, f.count = n, f.empty = EMPTY[s], f.takes = n < 13 ? s * 13 + n : -1;
            f.home = 1;
            if (n)
                layout_name(&f, "foundation of %s (%s): %d of 13, %s on top", layout_suit(s), k ? "second" : "first", n,
                            layout_card(card, sizeof card, top));
            else
                layout_name(&f, "foundation of %s (%s): empty", layout_suit(s), k ? "second" : "first");
            layout_label(&f, "%d/13", n);
            layout_put(v, s == 0 && k == 0, &f);
        }
}

static void jewel_play_layout(const void *rules, const void *table, int redeal, view_text *v)
{
    (void)redeal;
    const jewel_rules *r = rules;
    const jewel_position *p = table;
    char status[80];
    layout_begin(v, "row");
    jewel_layout_side(r, p, v);
    jewel_layout_box(p, v);
    jewel_layout_foundations(p, v);
    snprintf(status, sizeof status, "Jewels left %d · stock %d", p->njewels, p->nstock);
    layout_end(v, status);
}

/* Every field of the game, each place where it is (the places are told
 * apart by the jewels' order of filling: none is canonical but itself). */
static void jewel_play_key(const void *rules, const void *table, int canonical, key_text *k)
{
    (void)canonical;
    const jewel_rules *r = rules;
    const jewel_position *p = table;
    key_cards(k, p->stock, p->nstock);
    key_int(k, p->turned);
    key_cards(k, p->lid, JEWEL_LID); /* DECK2_NO_CARD for an empty place */
    for (int q = 0; q < JEWEL_TABLEAU; q++)
        key_cards(k, p->tableau[q], p->ntableau[q]);
    key_cards(k, p->jewels, p->njewels);
    for (int i = 0; i < r->reserves; i++)
        key_cards(k, p->reserves[i], p->nreserves[i]);
    for (int s = 0; s < 4; s++)
        key_ints(k, p->foundations[s], 2);
}

/* The family's rules of play, for the registry (families/registry.c). */
const play_verbs jewel_play = {
    .start = jewel_play_start,
    .moves = jewel_play_moves,
    .apply = jewel_play_apply,
    .automatic = jewel_play_auto,
    .score = jewel_play_score,
    .view = jewel_play_view,
    .layout = jewel_play_layout,
    .key = jewel_play_key,
    .places = (const int[]){ SOLVER_PLACE_STOCK, SOLVER_PLACE_LID, SOLVER_PLACE_SIDE, SOLVER_PLACE_BOTTOM,
                             SOLVER_PLACE_RESERVE_PILE, SOLVER_PLACE_FOUNDATION, -1 },
};

solver *jewel_search_new(const void *rules, const void *position, unsigned flags, char *err, int errlen);

static const family_field RULES_FIELDS[] = {
    FAMILY_FIELD(jewel_rules, reserves),           FAMILY_FIELD(jewel_rules, runs_move),
    FAMILY_FIELD(jewel_rules, empty_pile),         FAMILY_FIELD(jewel_rules, empty_lid),
    FAMILY_FIELD(jewel_rules, reserve_when_stuck),
};
static const family_field POSITION_FIELDS[] = {
    FAMILY_FIELD(jewel_position, stock),       FAMILY_FIELD(jewel_position, nstock),
    FAMILY_FIELD(jewel_position, turned),      FAMILY_FIELD(jewel_position, lid),
    FAMILY_FIELD(jewel_position, tableau),     FAMILY_FIELD(jewel_position, ntableau),
    FAMILY_FIELD(jewel_position, jewels),      FAMILY_FIELD(jewel_position, njewels),
    FAMILY_FIELD(jewel_position, reserves),    FAMILY_FIELD(jewel_position, nreserves),
    FAMILY_FIELD(jewel_position, foundations),
};
static const family_constant CONSTANTS[] = {
    FAMILY_CONSTANT(JEWEL_EMPTY_NONE),
    FAMILY_CONSTANT(JEWEL_EMPTY_ANY),
    FAMILY_CONSTANT(JEWEL_EMPTY_KING),
};

/* The family, for the registry (families/registry.c): a player's table is
 * the search's position. */
const family_entry jewel_family = {
    .name = "jewel",
    .play = &jewel_play,
    .search = jewel_search_new,
    .rules = FAMILY_STRUCT(jewel_rules, RULES_FIELDS),
    .table = FAMILY_STRUCT(jewel_position, POSITION_FIELDS),
    .position = FAMILY_STRUCT(jewel_position, POSITION_FIELDS),
    .constants = CONSTANTS,
    .nconstants = (int)(sizeof CONSTANTS / sizeof CONSTANTS[0]),
};
