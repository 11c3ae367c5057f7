/* deck2.c - the two-deck games' rules of play (play.h): each call goes to
 * its family's, found by deck2_rules.family in one table; a family not in
 * it is an error, never another family's rules. */
#include <stddef.h>

#include "families.h"

typedef struct {
    int id; /* deck2_rules.family */
    int (*start)(const deck2_rules *r, const uint8_t *cards, int n, deck2_position *out, char *err, int errlen);
    int (*moves)(const deck2_rules *r, const deck2_position *p, solver_move *out, int max, char *err, int errlen);
    int (*apply)(const deck2_rules *r, deck2_position *p, const solver_move *m, char *err, int errlen);
    int (*automatic)(const deck2_rules *r, const deck2_position *p, solver_move *out); /* NULL: none */
    int (*score)(const deck2_position *p);
    int (*restricted)(const deck2_rules *r, const deck2_position *p); /* NULL: never */
} play_family;

static const play_family PLAY_FAMILIES[] = {
    { DECK2_NAPOLEAO, napoleao_play_start, napoleao_play_moves, napoleao_play_apply, NULL, napoleao_play_score,
      napoleao_play_restricted },
    { DECK2_JEWEL, jewel_play_start, jewel_play_moves, jewel_play_apply, jewel_play_auto, jewel_play_score, NULL },
};

/* r's family, or NULL (an error in err) for none or one not in the table. */
static const play_family *family_of(const deck2_rules *r, char *err, int errlen)
{
    for (size_t i = 0; r && i < sizeof PLAY_FAMILIES / sizeof PLAY_FAMILIES[0]; i++)
        if (PLAY_FAMILIES[i].id == r->family)
            return &PLAY_FAMILIES[i];
    rules_fail(err, errlen, r ? "rules: unknown two-deck family" : "rules: none given");
    return NULL;
}

int solver_play_start_deck2(const deck2_rules *r, const uint8_t *cards, int n, deck2_position *out, char *err,
                            int errlen)
{
    const play_family *f = family_of(r, err, errlen);
    return f ? f->start(r, cards, n, out, err, errlen) : -1;
}

int solver_play_moves_deck2(const deck2_rules *r, const deck2_position *p, solver_move *out, int max, char *err,
                            int errlen)
{
    const play_family *f = family_of(r, err, errlen);
    return f ? f->moves(r, p, out, max, err, errlen) : -1;
}

int solver_play_apply_deck2(const deck2_rules *r, deck2_position *p, const solver_move *m, char *err, int errlen)
{
    const play_family *f = family_of(r, err, errlen);
    return f ? f->apply(r, p, m, err, errlen) : -1;
}

int solver_play_auto_deck2(const deck2_rules *r, const deck2_position *p, int enabled, solver_move *out)
{
    (void)enabled; /* the jewel's fill is the rules' own; Napoleão has none */
    const play_family *f = family_of(r, NULL, 0);
    return f && f->automatic ? f->automatic(r, p, out) : 0;
}

int solver_play_score_deck2(const deck2_rules *r, const deck2_position *p)
{
    const play_family *f = family_of(r, NULL, 0);
    return f ? f->score(p) : -1;
}

int solver_play_restricted_deck2(const deck2_rules *r, const deck2_position *p)
{
    const play_family *f = family_of(r, NULL, 0);
    if (!f)
        return -1;
    return f->restricted && p ? f->restricted(r, p) : 0;
}
