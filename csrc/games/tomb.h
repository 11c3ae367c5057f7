/* tomb.h - Napoleon's Tomb (family "tomb") in the C API: its rules, its
 * positions (the search's), its table (a player's: the position and the
 * cards of its foundations) and its search's shortcut flags, which keep the
 * prefix SOLVER_. solver_new (solver.h) takes its rules and a position; the
 * play verbs (play.h), its rules and a table. */
#ifndef TOMB_H
#define TOMB_H

#include <stdint.h>

#include "solver.h"

#define SOLVER_MAX_CELLS 4

/* Rule parameters of the Napoleon's Tomb family (from a variant file). */
typedef struct {
    int turn;                 /* cards turned at a time */
    int passes;               /* times through the stock */
    int cells;                /* number of cells, 0..SOLVER_MAX_CELLS */
    int cell_from_cell;       /* an empty cell accepts a card from another cell */
    int cell_to_foundation;   /* a cell card may go to a foundation */
    int cell_to_reserve;      /* a cell 6 may go to the sixes reserve */
    int cell_to_waste;        /* a cell card may go back onto the waste */
    int sixes_reserve;        /* there is a reserve for waiting 6s */
} tomb_rules;

/* A position: every card of the deck is in exactly one place. */
typedef struct {
    uint8_t stock[52];        /* next card to turn first */
    int nstock;
    uint8_t waste[52];        /* bottom first, top last */
    int nwaste;
    uint8_t cells[SOLVER_MAX_CELLS];  /* SOLVER_NO_CARD for an empty cell */
    uint8_t reserve[4];       /* sixes waiting in the reserve */
    int nreserve;
    int corners[4];           /* cards on each corner, 0..7 (a corner of n shows rank 6+n) */
    int tomb;                 /* cards in the tomb, 0..24 */
    int redeals;              /* redeals already made */
} tomb_position;

/* Shortcuts; each can be switched off (docs/search.md argues each one). */
#define SOLVER_FORCE_CELL_HOME    1u  /* a cell card that fits a foundation goes there at once */
#define SOLVER_FORCE_RESERVE_HOME 2u  /* a reserve 6 goes to the tomb at once when it fits */
#define SOLVER_SUIT_SYMMETRY      4u  /* positions equal up to suits share one table entry */
#define SOLVER_SUMMARIES          8u  /* proofs by shared sub-games over the waste (one pass) */
#define SOLVER_FORCE_WASTE_HOME   16u /* the last waste card of its rank still to come goes home at once */
#define SOLVER_FORCE_SIXES_RESERVE 32u /* a 6 on the waste or in a cell goes to the reserve at once */
#define SOLVER_RESTARTS           64u /* randomised restarts look for a win first (not a pruning) */
#define SOLVER_FORCE_SEVEN_HOME   128u /* a 7 on the waste goes to an empty corner at once (one pass) */
#define SOLVER_BY_PLACES          256u /* the summaries of the classic rules go by places in the talon */
#define SOLVER_STUCK_CELLS        512u /* summaries by places leave stuck cell cards out of their keys */
#define SOLVER_FROZEN_FOUNDATIONS 1024u /* with stuck-cells: foundations that cannot change are left out of summary keys */
#define SOLVER_FULL_CELLS         2048u /* cells that send back onto the waste are kept full while the waste has cards */
#define SOLVER_HAND_HOME          4096u /* cell cards that send back onto the waste: a waste or cell card goes home when no other card of its rank can take its place */
#define SOLVER_MOVES_CACHE        8192u /* summaries by control states keep a state's moves but the top card's, the same under any top card (not a pruning: the same positions) */
#define SOLVER_EARLIEST_HOME      16384u /* summaries by control states: a card does not go home where one of its rank could have earlier in the summary, nothing of its rank having come or gone home since */
#define SOLVER_ALL_SHORTCUTS      32767u

/* The Tomb's table: the position and the cards of its foundations, whose
 * counts are all a search needs and whose top cards a player sees. */
typedef struct {
    tomb_position pos;
    uint8_t corner_cards[4][7]; /* each corner's cards, bottom first (pos.corners[i] of them) */
    uint8_t tomb_cards[24];     /* the tomb's, bottom first (pos.tomb of them) */
} tomb_table;

#endif
