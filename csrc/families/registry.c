/* registry.c - the game families, one table, and the verbs of solver.h and
 * play.h that take a family's number: each finds the family's entry here
 * and calls its part. A number not in the table is an error, never another
 * family's rules.
 *
 * Adding a family: its rules of play (a play_verbs), its search's
 * constructor and its family_entry (registry.h) in its own files, and its
 * entry's name in the list below.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "handle.h"
#include "key.h"
#include "play.h"
#include "registry.h"
#include "rules.h"
#include "view.h"

/* The families, by number: the Tomb 0, Napoleão 1, the jewel box 2. */
extern const family_entry tomb_family, napoleao_family, jewel_family;
static const family_entry *const FAMILIES[] = { &tomb_family, &napoleao_family, &jewel_family };

#define NFAMILIES ((int)(sizeof FAMILIES / sizeof FAMILIES[0]))

const family_entry *family_entry_of(int id)
{
    return id >= 0 && id < NFAMILIES ? FAMILIES[id] : NULL;
}

int solver_family_count(void)
{
    return NFAMILIES;
}

int solver_family(const char *name)
{
    for (int i = 0; name && i < NFAMILIES; i++)
        if (strcmp(FAMILIES[i]->name, name) == 0)
            return i;
    return -1;
}

const char *solver_family_name(int family)
{
    const family_entry *f = family_entry_of(family);
    return f ? f->name : NULL;
}

const family_entry *family_find(int family, const void *rules, char *err, int errlen)
{
    const family_entry *f = family_entry_of(family);
    if (!f) {
        char text[80];
        snprintf(text, sizeof text, "no game family %d: families are 0..%d", family, NFAMILIES - 1);
        rules_fail(err, errlen, text);
    } else if (!rules) {
        rules_fail(err, errlen, "rules: none given");
        f = NULL;
    }
    return f;
}

solver *solver_new(int family, const void *rules, const void *pos, unsigned flags, char *err, int errlen)
{
    const family_entry *f = family_find(family, rules, err, errlen);
    if (!f)
        return NULL;
    if (!pos) {
        rules_fail(err, errlen, "position: none given");
        return NULL;
    }
    solver *s = f->search(rules, pos, flags, err, errlen);
    if (s)
        s->family = family;
    return s;
}

const family_entry *family_checked(int family, const void *rules, const void *table, char *err, int errlen)
{
    const family_entry *f = family_find(family, rules, err, errlen);
    return f && f->play->moves(rules, table, NULL, 0, err, errlen) >= 0 ? f : NULL;
}

int solver_play_start(int family, const void *rules, const uint8_t *cards, int n, void *out, char *err, int errlen)
{
    const family_entry *f = family_find(family, rules, err, errlen);
    return f ? f->play->start(rules, cards, n, out, err, errlen) : -1;
}

int solver_play_moves(int family, const void *rules, const void *table, solver_move *out, int max, char *err,
                      int errlen)
{
    const family_entry *f = family_find(family, rules, err, errlen);
    return f ? f->play->moves(rules, table, out, max, err, errlen) : -1;
}

int solver_play_apply(int family, const void *rules, void *table, const solver_move *m, solver_move *played, char *err,
                      int errlen)
{
    const family_entry *f = family_find(family, rules, err, errlen);
    return f ? f->play->apply(rules, table, m, played, err, errlen) : -1;
}

int solver_play_auto(int family, const void *rules, const void *table, int enabled, solver_move *out)
{
    const family_entry *f = family_entry_of(family);
    if (!f)
        return -1;
    return f->play->automatic && rules ? f->play->automatic(rules, table, enabled, out) : 0;
}

int solver_play_score(int family, const void *rules, const void *table)
{
    const family_entry *f = family_entry_of(family);
    return f && rules ? f->play->score(rules, table) : -1;
}

int solver_play_view(int family, const void *rules, const void *table, char *out, int len, char *err, int errlen)
{
    const family_entry *f = family_checked(family, rules, table, err, errlen);
    if (!f)
        return -1;
    view_text v = { len > 0 ? out : NULL, len > 0 ? len : 0, 0 };
    if (v.out)
        v.out[0] = 0;
    f->play->view(rules, table, &v);
    return v.n;
}

int solver_play_layout(int family, const void *rules, const void *table, char *out, int len, char *err, int errlen)
{
    const family_entry *f = family_checked(family, rules, table, err, errlen);
    if (!f)
        return -1;
    solver_move *moves = malloc(PLAY_MAX_MOVES * sizeof *moves);
    if (!moves)
        return rules_fail(err, errlen, "out of memory");
    int n = f->play->moves(rules, table, moves, PLAY_MAX_MOVES, err, errlen), redeal = 0;
    for (int i = 0; i < n; i++)
        redeal |= moves[i].action == SOLVER_REDEAL;
    free(moves);
    view_text v = { len > 0 ? out : NULL, len > 0 ? len : 0, 0 };
    if (v.out)
        v.out[0] = 0;
    f->play->layout(rules, table, redeal, &v);
    return v.n;
}

int solver_play_restricted(int family, const void *rules, const void *table)
{
    const family_entry *f = family_entry_of(family);
    if (!f || !rules)
        return -1;
    return f->play->restricted ? f->play->restricted(rules, table) : 0;
}

int solver_play_key(int family, const void *rules, const void *table, int canonical, uint8_t *out, int len, char *err,
                    int errlen)
{
    const family_entry *f = family_checked(family, rules, table, err, errlen);
    if (!f)
        return -1;
    key_text k = { len > 0 ? out : NULL, len > 0 ? len : 0, 0 };
    f->play->key(rules, table, canonical != 0, &k);
    return k.n;
}
