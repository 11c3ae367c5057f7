/* deck2.c - the two-deck games' rules of play (play.h): each call goes to
 * its family's, by deck2_rules.family. */
#include <string.h>

#include "families.h"

static int unknown_family(char *err, int errlen)
{
    return rules_fail(err, errlen, "rules: unknown two-deck family");
}

int solver_play_start_deck2(const deck2_rules *r, const uint8_t *cards, int n, deck2_position *out, char *err,
                            int errlen)
{
    if (r->family == DECK2_NAPOLEAO)
        return napoleao_play_start(r, cards, n, out, err, errlen);
    if (r->family == DECK2_JEWEL)
        return jewel_play_start(r, cards, n, out, err, errlen);
    return unknown_family(err, errlen);
}

int solver_play_moves_deck2(const deck2_rules *r, const deck2_position *p, solver_move *out, int max, char *err,
                            int errlen)
{
    if (r->family == DECK2_NAPOLEAO)
        return napoleao_play_moves(r, p, out, max, err, errlen);
    if (r->family == DECK2_JEWEL)
        return jewel_play_moves(r, p, out, max, err, errlen);
    return unknown_family(err, errlen);
}

int solver_play_apply_deck2(const deck2_rules *r, deck2_position *p, const solver_move *m, char *err, int errlen)
{
    if (r->family == DECK2_NAPOLEAO)
        return napoleao_play_apply(r, p, m, err, errlen);
    if (r->family == DECK2_JEWEL)
        return jewel_play_apply(r, p, m, err, errlen);
    return unknown_family(err, errlen);
}

int solver_play_auto_deck2(const deck2_rules *r, const deck2_position *p, int enabled, solver_move *out)
{
    (void)enabled; /* the jewel's fill is the rules' own; Napoleão has none */
    return r->family == DECK2_JEWEL ? jewel_play_auto(r, p, out) : 0;
}

int solver_play_score_deck2(const deck2_rules *r, const deck2_position *p)
{
    if (r->family == DECK2_JEWEL)
        return jewel_play_score(p);
    return napoleao_play_score(p);
}

int solver_play_restricted_deck2(const deck2_rules *r, const deck2_position *p)
{
    return r->family == DECK2_NAPOLEAO ? napoleao_play_restricted(r, p) : 0;
}
