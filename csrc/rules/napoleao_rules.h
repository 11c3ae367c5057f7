/* napoleao_rules.h - Paciência Napoleão's rules of play, each once, for the
 * search (families/napoleao.c) and the player (play/napoleao.c); the rules
 * are docs/rules/paciencia-napoleao.md, with the decisions of
 * docs/rules-napoleao.md. Each rule is a function of plain values (card
 * kinds, counts, the rules), so that both sides, whatever their position's
 * layout, ask the same question of the same code. What the search prunes
 * (last-copy-home, dead-cards) stays in its file.
 */
#ifndef NAPOLEAO_RULES_H
#define NAPOLEAO_RULES_H

#include "napoleao.h"
#include "rules.h"

#define NAPOLEAO_BASE 13 /* cards on a full base */

/* The rank a base takes next, holding `count` cards: a King base builds down
 * from the King, an Ace base up from the Ace; 0 when it is full. */
static inline int napoleao_base_wants(int king_base, int count)
{
    if (count >= NAPOLEAO_BASE)
        return 0;
    return king_base ? 13 - count : count + 1;
}

/* The restriction of the first rounds: in rounds 1..restricted_rounds of the
 * first pass (and of every pass, with restricted_again), only a card that
 * starts a base (onto an empty one) may leave the piles. `redeals`: the
 * redeals made; `rounds`: the rounds dealt in this pass. */
static inline int napoleao_restricted(const napoleao_rules *r, int redeals, int rounds)
{
    return (redeals == 0 || r->restricted_again) && rounds >= 1 && rounds <= r->restricted_rounds;
}

/* Whether a pile's top card of rank `rank` goes onto a base of its suit that
 * holds `count` cards, a King base or an Ace base, while `restricted`. */
static inline int napoleao_fits(int rank, int king_base, int count, int restricted)
{
    return napoleao_base_wants(king_base, count) == rank && (!restricted || count == 0);
}

/* Whether a round, or a redeal, may be dealt while `any_fits` (a playable
 * card fits a base): always under the free rules; under the sheet's
 * (deal_when_stuck) only when none fits. */
static inline int napoleao_may_deal(const napoleao_rules *r, int any_fits)
{
    return !(any_fits && r->deal_when_stuck);
}

/* The cards a round deals from a stock of `left`: one a pile, twelve or what
 * is left; the k-th card onto pile k (0-based). */
static inline int napoleao_round_size(int left)
{
    return left < NAPOLEAO_PILES ? left : NAPOLEAO_PILES;
}

/* Whether a redeal is left after `redeals` made (a redeal also wants the
 * stock dealt out, and cards on the piles to gather). */
static inline int napoleao_redeal_left(const napoleao_rules *r, int redeals)
{
    return redeals < r->redeals;
}

/* The pile gathered j-th (0-based) into the new pack: pile 1 first, or pile
 * 12 with deal_from_last; each keeps its order, bottom card first. */
static inline int napoleao_gathered(const napoleao_rules *r, int j)
{
    return r->deal_from_last ? NAPOLEAO_PILES - 1 - j : j;
}

/* 0 if the rules are possible, else -1 and why. */
static inline int napoleao_check_rules(const napoleao_rules *r, char *err, int errlen)
{
    if (r->redeals < 0 || r->redeals > 5 || r->restricted_rounds < 0 || r->restricted_rounds > 9)
        return rules_fail(err, errlen, "rules: redeals must be 0..5 and restricted rounds 0..9");
    return 0;
}

/* 0 if p's counts are possible under r (redeals made, stock, rounds, each
 * base), else -1 and why; the piles and the cards are the caller's to
 * count. */
static inline int napoleao_check_counts(const napoleao_rules *r, const napoleao_position *p, char *err, int errlen)
{
    if (p->redeals < 0 || p->redeals > r->redeals)
        return rules_fail(err, errlen, "position: more redeals made than the rules allow");
    if (p->nstock < 0 || p->nstock > 104 || p->rounds < 0 || p->rounds > 104)
        return rules_fail(err, errlen, "position: the stock must hold 0..104 cards and rounds be 0..104");
    for (int s = 0; s < 4; s++)
        if (p->kbases[s] < 0 || p->kbases[s] > NAPOLEAO_BASE || p->abases[s] < 0 || p->abases[s] > NAPOLEAO_BASE)
            return rules_fail(err, errlen, "position: a base must hold 0..13 cards");
    return 0;
}

/* Counts the cards on p's bases into count (52 kinds): a King base of n
 * holds its suit's K down to 14 - n, an Ace base A up to n. */
static inline void napoleao_count_bases(const napoleao_position *p, int *count)
{
    for (int s = 0; s < 4; s++) {
        for (int i = 0; i < p->kbases[s]; i++)
            count[s * 13 + 12 - i]++;
        for (int i = 0; i < p->abases[s]; i++)
            count[s * 13 + i]++;
    }
}

#endif
