/* deck2.h - the two-deck games (Paciência Napoleão, family "napoleao";
 * Paciência do Porta-Jóias, family "jewel") in the C API of solver.h,
 * reached from Python through cffi: their rules, positions and shortcut
 * flags; solver_new (solver.h) makes a search of either, which takes the
 * verbs of solver.h (solver_run, solver_line_move, ...).
 *
 * One search (families/deck2/search.c) over the depth-first search engine
 * (search/dfs.h) with the tree-shaped exact table (search/ctable.c) serves
 * both families; each family (napoleao.c, jewel.c) gives it moves, keys and
 * the moves of its lines.
 *
 * Cards are kinds 0..51 (id = suit*13 + rank-1, suits clubs, spades, hearts,
 * diamonds); the two copies of a card are the same kind.
 */
#ifndef DECK2_H
#define DECK2_H

#include <stdint.h>

#include "solver.h"

#define DECK2_NO_CARD 255
#define DECK2_PILES 12       /* Paciência Napoleão's ring */
#define DECK2_LID 5
#define DECK2_TABLEAU 8      /* Porta-Jóias: sides 1-4, then bottom 1-4 */
#define DECK2_JEWELS 13
#define DECK2_RESERVES 3

enum { DECK2_EMPTY_NONE = 0, DECK2_EMPTY_ANY = 1, DECK2_EMPTY_KING = 2 };

/* Rule parameters (from a variant file). */
typedef struct {
    /* napoleao */
    int restricted_rounds;    /* first rounds of the game: only cards that start a base leave the piles */
    int restricted_again;     /* the restriction comes back after a redeal */
    int redeals;              /* 0..5 */
    int deal_from_last;       /* a gathered pack deals pile 12 first (else pile 1) */
    int deal_when_stuck;      /* a round or a redeal only when no playable card fits a base */
    int start_bases;          /* the pack's first King and first Ace start their bases (the deal's
                                 start only: solver_play_start, play.h) */
    /* jewel */
    int reserves;             /* 0..3 */
    int runs_move;            /* runs in alternating colours move as a unit */
    int empty_pile;           /* DECK2_EMPTY_*: what an empty side/bottom place takes once the jewels are gone */
    int empty_lid;            /* DECK2_EMPTY_NONE or DECK2_EMPTY_ANY, the same for a lid place */
    int reserve_when_stuck;   /* a turned card goes onto a reserve only when no foundation and no
                                 side or bottom pile's top card takes it */
} deck2_rules;

/* A position. Piles list cards bottom first; stock and jewels next card first. */
typedef struct {
    uint8_t stock[104];
    int nstock;
    /* napoleao */
    uint8_t piles[DECK2_PILES][104];
    int npiles[DECK2_PILES];
    int kbases[4], abases[4];     /* cards on each King / Ace base, suits C S H D */
    int redeals;                  /* redeals made */
    int rounds;                   /* rounds dealt in this pass */
    /* jewel */
    int turned;                   /* the card turned and not yet placed, or DECK2_NO_CARD */
    uint8_t lid[DECK2_LID];          /* DECK2_NO_CARD for an empty place */
    uint8_t tableau[DECK2_TABLEAU][104];
    int ntableau[DECK2_TABLEAU];
    uint8_t jewels[DECK2_JEWELS];
    int njewels;
    uint8_t reserves[DECK2_RESERVES][104];
    int nreserves[DECK2_RESERVES];
    int foundations[4][2];        /* per suit, the counts of its two foundations */
} deck2_position;

/* Shortcuts (docs/search.md argues each one; each can be switched off). */
#define DECK2_LAST_COPY_HOME 1u      /* the last copy of a card out goes home at once, where that is safe */
#define DECK2_INTERCHANGEABLE 2u     /* jewel: relabelled lid/pile/reserve places share one table entry */
#define DECK2_RESTARTS 4u            /* randomised restarts look for a win before the full search */
#define DECK2_DEAD_CARDS 8u          /* napoleao: a position whose bound is no better than the best seen is not expanded */
#define DECK2_ORDERS 16u             /* jewel: the restarts take turns with the reserves' move orders */
#define DECK2_ALL_SHORTCUTS 31u

#endif
