/* napoleao.h - Paciência Napoleão (family "napoleao") in the C API: its rules
 * and its positions, which solver_new (solver.h) and the play verbs (play.h)
 * take for that family. */
#ifndef NAPOLEAO_H
#define NAPOLEAO_H

#include <stdint.h>

#include "deck2.h"

#define NAPOLEAO_PILES 12 /* the ring */

/* Rule parameters (from a variant file). */
typedef struct {
    int restricted_rounds; /* first rounds of the game: only cards that start a base leave the piles */
    int restricted_again;  /* the restriction comes back after a redeal */
    int redeals;           /* 0..5 */
    int deal_from_last;    /* a gathered pack deals pile 12 first (else pile 1) */
    int deal_when_stuck;   /* a round or a redeal only when no playable card fits a base */
    int start_bases;       /* the pack's first King and first Ace start their bases (the deal's
                              start only: solver_play_start, play.h) */
} napoleao_rules;

/* A position. Piles list cards bottom first; the stock next card first. */
typedef struct {
    uint8_t stock[104];
    int nstock;
    uint8_t piles[NAPOLEAO_PILES][104];
    int npiles[NAPOLEAO_PILES];
    int kbases[4], abases[4]; /* cards on each King / Ace base, suits C S H D */
    int redeals;              /* redeals made */
    int rounds;               /* rounds dealt in this pass */
} napoleao_position;

#endif
