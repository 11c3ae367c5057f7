/* deck2.h - the C API of the two-deck games (Paciência Napoleão, family
 * "napoleao"; Paciência do Porta-Jóias, family "jewel"), reached from Python
 * through cffi.
 *
 * The same handle shape as solver.h: create a search for one position and its
 * rules, set limits, run (resumable), read the line, free. One generic
 * depth-first search (families/deck2/search.c) with the exact transposition table
 * (table.c) and the limits serves every family; each family (napoleao.c,
 * jewel.c) gives it moves, keys and the text of its moves.
 *
 * Cards are kinds 0..51 (id = suit*13 + rank-1, suits clubs, spades, hearts,
 * diamonds); the two copies of a card are the same kind.
 */
#ifndef DECK2_H
#define DECK2_H

#include <stdint.h>

#include "solver.h"

#define D2_NO_CARD 255
#define D2_PILES 12       /* Paciência Napoleão's ring */
#define D2_LID 5
#define D2_TABLEAU 8      /* Porta-Jóias: sides 1-4, then bottom 1-4 */
#define D2_JEWELS 13
#define D2_RESERVES 3

enum { D2_NAPOLEAO = 1, D2_JEWEL = 2 };
enum { D2_EMPTY_NONE = 0, D2_EMPTY_ANY = 1, D2_EMPTY_KING = 2 };

/* Rule parameters (from a variant file). */
typedef struct {
    int family;
    /* napoleao */
    int restricted_rounds;    /* first rounds of the game: only cards that start a base leave the piles */
    int restricted_again;     /* the restriction comes back after a redeal */
    int redeals;              /* 0..5 */
    int deal_from_last;       /* a gathered pack deals pile 12 first (else pile 1) */
    int deal_when_stuck;      /* a round or a redeal only when no playable card fits a base */
    /* jewel */
    int reserves;             /* 0..3 */
    int runs_move;            /* runs in alternating colours move as a unit */
    int empty_pile;           /* D2_EMPTY_*: what an empty side/bottom place takes once the jewels are gone */
    int empty_lid;            /* D2_EMPTY_NONE or D2_EMPTY_ANY, the same for a lid place */
    int reserve_when_stuck;   /* a turned card goes onto a reserve only when no foundation and no
                                 side or bottom pile's top card takes it */
} d2_rules;

/* A position. Piles list cards bottom first; stock and jewels next card first. */
typedef struct {
    uint8_t stock[104];
    int nstock;
    /* napoleao */
    uint8_t piles[D2_PILES][104];
    int npiles[D2_PILES];
    int kbases[4], abases[4];     /* cards on each King / Ace base, suits C S H D */
    int redeals;                  /* redeals made */
    int rounds;                   /* rounds dealt in this pass */
    /* jewel */
    int turned;                   /* the card turned and not yet placed, or D2_NO_CARD */
    uint8_t lid[D2_LID];          /* D2_NO_CARD for an empty place */
    uint8_t tableau[D2_TABLEAU][104];
    int ntableau[D2_TABLEAU];
    uint8_t jewels[D2_JEWELS];
    int njewels;
    uint8_t reserves[D2_RESERVES][104];
    int nreserves[D2_RESERVES];
    int foundations[4][2];        /* per suit, the counts of its two foundations */
} d2_position;

/* Shortcuts (docs/search.md argues each one; each can be switched off). */
#define D2_LAST_COPY_HOME 1u      /* the last copy of a card out goes home at once, where that is safe */
#define D2_INTERCHANGEABLE 2u     /* jewel: relabelled lid/pile/reserve places share one table entry */
#define D2_RESTARTS 4u            /* randomised restarts look for a win before the full search */
#define D2_DEAD_CARDS 8u          /* napoleao: a position whose bound is no better than the best seen is not expanded */
#define D2_ALL_SHORTCUTS 15u

/* Moves of a line. */
enum { D2_DEAL = 0, D2_REDEAL, D2_MOVE, D2_TURN, D2_JEWEL_FILL };
enum { D2_PLACE_STOCK = 0, D2_PLACE_PILE, D2_PLACE_KBASE, D2_PLACE_ABASE, D2_PLACE_LID,
       D2_PLACE_SIDE, D2_PLACE_BOTTOM, D2_PLACE_RESERVE, D2_PLACE_FOUNDATION };

typedef struct {
    int action;               /* D2_* above */
    int card;                 /* the card moved, or the jewel */
    int src, src_index;       /* D2_PLACE_*; index 1-based, or the suit 0..3 for bases */
    int dst, dst_index;
    int ncards;               /* D2_DEAL, D2_TURN */
    uint8_t cards[12];
} d2_move;

typedef struct d2_solver d2_solver;

d2_solver *d2_new(const d2_rules *rules, const d2_position *pos, unsigned flags,
                  char *err, int errlen);
void d2_set_limits(d2_solver *s, uint64_t max_positions, double max_seconds, uint64_t max_bytes);
int d2_run(d2_solver *s);
void d2_stop(d2_solver *s);
void d2_get_stats(const d2_solver *s, solver_stats *out);
int d2_line_length(const d2_solver *s, int which);
int d2_line_move(const d2_solver *s, int which, int index, d2_move *out);
/* The family's upper bound on the score of every position reachable from the
 * root (docs/search.md, "dead-cards"), or the family's full score if it has
 * none: for the tests and for studies. */
int d2_root_bound(const d2_solver *s);
void d2_free(d2_solver *s);

#endif
