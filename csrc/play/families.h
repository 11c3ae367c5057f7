/* families.h - the two-deck families' rules of play, which
 * solver_play_*_deck2 (play/deck2.c) dispatch to by deck2_rules.family;
 * each is as its solver_play_*_deck2 in play.h. */
#ifndef PLAY_FAMILIES_H
#define PLAY_FAMILIES_H

#include "play.h"
#include "rules.h"

int napoleao_play_start(const deck2_rules *r, const uint8_t *cards, int n, deck2_position *out, char *err, int errlen);
int napoleao_play_moves(const deck2_rules *r, const deck2_position *p, solver_move *out, int max, char *err,
                        int errlen);
int napoleao_play_apply(const deck2_rules *r, deck2_position *p, const solver_move *m, char *err, int errlen);
int napoleao_play_score(const deck2_position *p);
int napoleao_play_restricted(const deck2_rules *r, const deck2_position *p);

int jewel_play_start(const deck2_rules *r, const uint8_t *cards, int n, deck2_position *out, char *err, int errlen);
int jewel_play_moves(const deck2_rules *r, const deck2_position *p, solver_move *out, int max, char *err, int errlen);
int jewel_play_apply(const deck2_rules *r, deck2_position *p, const solver_move *m, char *err, int errlen);
int jewel_play_auto(const deck2_rules *r, const deck2_position *p, solver_move *out);
int jewel_play_score(const deck2_position *p);

#endif
