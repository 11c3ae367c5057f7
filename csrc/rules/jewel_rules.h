/* jewel_rules.h - Paciência do Porta-Jóias' (the jewel box's) rules of play,
 * each written once for the search (csrc/families/jewel.c) and the player
 * (csrc/play/jewel.c).
 *
 * The rules are docs/rules/paciencia-porta-joias.md, as the engine
 * implements them: docs/rules-porta-joias.md (whose sections the comments
 * name). Each function is over plain values (card kinds 0..51, counts, the
 * rules) so that both sides' own layouts of a position can ask it; the
 * search adds only what it prunes (its shortcuts, its bound, its move
 * orders), in its own file.
 *
 * Where a rule refuses for more than one reason, it returns which
 * (JEWEL_FAULT_*, 0 when it allows): the player words the refusal, the
 * search only asks whether it allows.
 */
#ifndef JEWEL_RULES_H
#define JEWEL_RULES_H

#include "jewel.h"
#include "rules.h"

/* Why a rule refuses; 0: it allows. */
enum {
    JEWEL_ALLOWED = 0,
    JEWEL_FAULT_RANK,        /* a pile's top card is not one rank above */
    JEWEL_FAULT_COLOUR,      /* ... or is of the same colour */
    JEWEL_FAULT_JEWEL_NEXT,  /* a space while jewels remain: the next jewel fills it */
    JEWEL_FAULT_RUN,         /* a space takes a single card, not a run */
    JEWEL_FAULT_STAYS_EMPTY, /* the rules leave this kind of space empty */
    JEWEL_FAULT_KING_ONLY    /* an empty side or bottom place takes only a King */
};

/* The places of the box as one number, 0..12, where a set of places is a
 * mask of these bits: the lid 0..4, then the side and bottom piles (the
 * tableau 0..7: side 1-4, bottom 1-4) 5..12. */
#define JEWEL_BOX_LID(i) (i)
#define JEWEL_BOX_PILE(q) (JEWEL_LID + (q))
#define JEWEL_BOX_PLACES (JEWEL_LID + JEWEL_TABLEAU)

/* Foundations ("Moves": foundations build up in suit from the Ace to the
 * King; the two of a suit are interchangeable, so only their counts a and b
 * matter): which of the two card c continues, 0 (a) or 1 (b; a first when
 * both), or -1 if neither takes it. a and b are the counts of c's suit. */
static inline int jewel_home_slot(int a, int b, int c)
{
    int r = card_rank(c);
    return r == a + 1 ? 0 : r == b + 1 ? 1 : -1;
}

/* Whether a foundation of c's suit (holding a and b cards) takes c. */
static inline int jewel_home_takes(int a, int b, int c)
{
    return jewel_home_slot(a, b, c) >= 0;
}

/* Side and bottom piles ("Moves": they build down in alternating colours, a
 * red 7 on a black 8): whether card may lie on top, a pile's top card: 0,
 * or JEWEL_FAULT_RANK / _COLOUR. */
static inline int jewel_build_fault(int card, int top)
{
    if (card_rank(top) != card_rank(card) + 1)
        return JEWEL_FAULT_RANK;
    return card_red(card) == card_red(top) ? JEWEL_FAULT_COLOUR : JEWEL_ALLOWED;
}

static inline int jewel_builds_on(int card, int top)
{
    return jewel_build_fault(card, top) == JEWEL_ALLOWED;
}

/* Runs ("Moves", [piles.runs_move]): how many top cards of a pile (n cards,
 * bottom first) lie in alternating descending order, each on the one
 * below: the longest run, a single card at least (0 for no card). */
static inline int jewel_run_length(const uint8_t *pile, int n)
{
    int len = n ? 1 : 0;
    while (len < n && jewel_builds_on(pile[n - len], pile[n - len - 1]))
        len++;
    return len;
}

/* How many top cards of a pile may move together: the run with runs_move,
 * else only the top card (0 for no card). */
static inline int jewel_movable(const jewel_rules *r, const uint8_t *pile, int n)
{
    return !n ? 0 : r->runs_move ? jewel_run_length(pile, n) : 1;
}

/* An empty side or bottom place ("Jewels", "Empty places once the jewels
 * are gone", [piles.empty_takes]): whether it takes ncards cards whose
 * deepest is c, jewels_left saying whether jewels remain. While they do,
 * the next jewel fills it; once they are gone it takes a single card (a run
 * goes only onto a card): any, only a King, or none. */
static inline int jewel_pile_space_fault(const jewel_rules *r, int jewels_left, int ncards, int c)
{
    if (jewels_left)
        return JEWEL_FAULT_JEWEL_NEXT;
    if (ncards > 1)
        return JEWEL_FAULT_RUN;
    if (r->empty_pile == JEWEL_EMPTY_ANY)
        return JEWEL_ALLOWED;
    if (r->empty_pile == JEWEL_EMPTY_KING)
        return card_rank(c) == 13 ? JEWEL_ALLOWED : JEWEL_FAULT_KING_ONLY;
    return JEWEL_FAULT_STAYS_EMPTY;
}

/* Whether an empty side or bottom place takes the single card c once the
 * jewels are gone. */
static inline int jewel_empty_pile_takes(const jewel_rules *r, int c)
{
    return jewel_pile_space_fault(r, 0, 1, c) == JEWEL_ALLOWED;
}

/* An empty lid place ("Empty places once the jewels are gone",
 * [lid.empty_takes]): the next jewel's while jewels remain; then a single
 * card if the rules say any (never a lid card: lid cards go only home),
 * else it stays empty. */
static inline int jewel_lid_space_fault(const jewel_rules *r, int jewels_left)
{
    if (jewels_left)
        return JEWEL_FAULT_JEWEL_NEXT;
    return r->empty_lid == JEWEL_EMPTY_ANY ? JEWEL_ALLOWED : JEWEL_FAULT_STAYS_EMPTY;
}

/* Whether an empty lid place takes a card once the jewels are gone. */
static inline int jewel_empty_lid_takes(const jewel_rules *r)
{
    return jewel_lid_space_fault(r, 0) == JEWEL_ALLOWED;
}

/* "A card moved from a one-card pile into an empty pile changes nothing:
 * the engine accepts it but does not list it among the legal moves."
 * src_pile_cards: the cards of the source pile, or -1 if it is no pile. */
static inline int jewel_space_move_listed(int src_pile_cards)
{
    return src_pile_cards != 1;
}

/* Which turned cards a reserve takes ("Moves", [reserves.takes]; reserves
 * take cards only from the stock): with reserve_when_stuck (the sheet's
 * rule) only a card for which no foundation and no side or bottom pile's
 * top card has room (placed: one has; an empty place does not oblige),
 * else any. */
static inline int jewel_reserve_takes(const jewel_rules *r, int placed)
{
    return !(placed && r->reserve_when_stuck);
}

/* The jewels ("Jewels"): whenever a place of the box is empty and jewels
 * remain, the next jewel fills it before any other move; with several empty
 * places (a position built by hand), the first in lid, side, bottom order.
 * empty: the empty places (JEWEL_BOX_* bits). The place to fill (0..12), or
 * -1 if none waits. */
static inline int jewel_space_to_fill(int jewels_left, unsigned empty)
{
    if (!jewels_left || !empty)
        return -1;
    int at = 0;
    while (!(empty >> at & 1u))
        at++;
    return at;
}

/* The rules' parameters ([reserves.count], [piles.empty_takes],
 * [lid.empty_takes]): 0, or -1 with the reason. */
static inline int jewel_check_reserves(const jewel_rules *r, char *err, int errlen)
{
    if (r->reserves < 0 || r->reserves > JEWEL_RESERVES)
        return rules_fail(err, errlen, "rules: reserves must be 0..3");
    return 0;
}

static inline int jewel_check_rules(const jewel_rules *r, char *err, int errlen)
{
    if (jewel_check_reserves(r, err, errlen) < 0)
        return -1;
    if (r->empty_pile < JEWEL_EMPTY_NONE || r->empty_pile > JEWEL_EMPTY_KING)
        return rules_fail(err, errlen, "rules: empty_pile must be none, any or king");
    if (r->empty_lid != JEWEL_EMPTY_NONE && r->empty_lid != JEWEL_EMPTY_ANY)
        return rules_fail(err, errlen, "rules: empty_lid must be none or any");
    return 0;
}

/* A position's counts that both sides check first, in this order: the
 * stock (0..104 cards) and the jewels (0..13). 0, or -1 with the reason. */
static inline int jewel_check_stock(const jewel_position *p, char *err, int errlen)
{
    if (p->nstock < 0 || p->nstock > 104)
        return rules_fail(err, errlen, "position: the stock must hold 0..104 cards");
    if (p->njewels < 0 || p->njewels > JEWEL_JEWELS)
        return rules_fail(err, errlen, "position: there are 0..13 jewels");
    return 0;
}

/* Reserve k: 0..104 cards, and none in a reserve the rules do not have. */
static inline int jewel_check_reserve(const jewel_rules *r, const jewel_position *p, int k, char *err, int errlen)
{
    if (p->nreserves[k] < 0 || p->nreserves[k] > 104)
        return rules_fail(err, errlen, "position: a reserve holds 0..104 cards");
    if (k >= r->reserves && p->nreserves[k])
        return rules_fail(err, errlen, "position: a card lies in a reserve the rules do not have");
    return 0;
}

/* The foundations: 0..13 cards each. */
static inline int jewel_check_foundations(const jewel_position *p, char *err, int errlen)
{
    for (int s = 0; s < 4; s++)
        for (int j = 0; j < 2; j++)
            if (p->foundations[s][j] < 0 || p->foundations[s][j] > 13)
                return rules_fail(err, errlen, "position: a foundation holds 0..13 cards");
    return 0;
}

#endif
