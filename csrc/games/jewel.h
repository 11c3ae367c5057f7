/* jewel.h - Paciência do Porta-Jóias, the jewel box (family "jewel"), in the
 * C API: its rules and its positions, which solver_new (solver.h) and the
 * play verbs (play.h) take for that family. */
#ifndef JEWEL_H
#define JEWEL_H

#include <stdint.h>

#include "deck2.h"

#define JEWEL_LID 5
#define JEWEL_TABLEAU 8 /* sides 1-4, then bottom 1-4 */
#define JEWEL_JEWELS 13
#define JEWEL_RESERVES 3

enum { JEWEL_EMPTY_NONE = 0, JEWEL_EMPTY_ANY = 1, JEWEL_EMPTY_KING = 2 };

/* Rule parameters (from a variant file). */
typedef struct {
    int reserves;           /* 0..3 */
    int runs_move;          /* runs in alternating colours move as a unit */
    int empty_pile;         /* JEWEL_EMPTY_*: what an empty side/bottom place takes once the jewels are gone */
    int empty_lid;          /* JEWEL_EMPTY_NONE or JEWEL_EMPTY_ANY, the same for a lid place */
    int reserve_when_stuck; /* a turned card goes onto a reserve only when no foundation and no
                               side or bottom pile's top card takes it */
} jewel_rules;

/* A position. Piles list cards bottom first; stock and jewels next card first. */
typedef struct {
    uint8_t stock[104];
    int nstock;
    int turned;           /* the card turned and not yet placed, or DECK2_NO_CARD */
    uint8_t lid[JEWEL_LID]; /* DECK2_NO_CARD for an empty place */
    uint8_t tableau[JEWEL_TABLEAU][104];
    int ntableau[JEWEL_TABLEAU];
    uint8_t jewels[JEWEL_JEWELS];
    int njewels;
    uint8_t reserves[JEWEL_RESERVES][104];
    int nreserves[JEWEL_RESERVES];
    int foundations[4][2]; /* per suit, the counts of its two foundations */
} jewel_position;

#endif
