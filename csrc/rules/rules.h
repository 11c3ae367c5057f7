/* rules.h - what the rules of every family share, written once for the
 * search (csrc/families) and the player (csrc/play): a refusal's message and
 * the two-deck games' card kinds and card count.
 *
 * A family's own rules live beside this file (rules/<family>.h), each rule a
 * function both sides call; the search adds only what it prunes.
 *
 * Two-deck cards are kinds 0..51 (id = suit * 13 + rank - 1, suits C S H D,
 * as deck2.h says); the Tomb numbers its cards otherwise (solver.h).
 */
#ifndef RULES_H
#define RULES_H

#include <stdio.h>
#include <string.h>

#include "cardnames.h"

/* Writes text into err (of errlen bytes); returns -1. */
static inline int rules_fail(char *err, int errlen, const char *text)
{
    if (err && errlen > 0) {
        strncpy(err, text, (size_t)errlen - 1);
        err[errlen - 1] = 0;
    }
    return -1;
}

static inline int card_rank(int c)
{
    return c % 13 + 1;
}

static inline int card_suit(int c)
{
    return c / 13;
}

/* Hearts and diamonds. */
static inline int card_red(int c)
{
    return c / 13 >= 2;
}

/* 0 if every card of count (52, by suit then rank) is there twice, else -1
 * with the first that is not named in err; `where` (may be "") says where
 * the cards were counted. */
static inline int rules_check_twice(const int *count, const char *where, char *err, int errlen)
{
    char text[200];
    for (int c = 0; c < 52; c++)
        if (count[c] != 2) {
            snprintf(text, sizeof text, "position: card %c%c is there %d times%s; two decks hold it twice",
                     CARD_RANKS[c % 13], CARD_SUITS[c / 13], count[c], where);
            return rules_fail(err, errlen, text);
        }
    return 0;
}

#endif
