/* solver.h - the C API of the solver core (reached from Python through cffi).
 *
 * One narrow handle API for every game family: create a search for one
 * position and its rules of a family by its number (solver_new, the
 * families in one table: csrc/families/registry.c), set limits, run (resumable: a run
 * stopped by a limit can be run again with higher limits and goes on where
 * it stopped), read the line, free. The verbs and the move record of the
 * lines are the same for every family; the rules, the positions and the
 * shortcut flags are the family's.
 *
 * This header has the shared part (solver_*, SOLVER_*: the handle, its
 * verbs, the move record, the stats) and the Napoleon's Tomb family (its
 * structs tomb_rules and tomb_position; its shortcut flags keep the prefix
 * SOLVER_); deck2.h has the two-deck games.
 *
 * The Tomb's cards are numbered 0..51 in PySolFC's fresh-deck order: id =
 * suit*13 + rank-1 with suits clubs, spades, hearts, diamonds; rank 1 = Ace
 * .. 13 = King.
 */
#ifndef SOLVER_H
#define SOLVER_H

#include <stdint.h>

#define SOLVER_MAX_CELLS 4
#define SOLVER_NO_CARD 255
/* A base's or a foundation's index where a move names none of its suit: the card's own. */
#define SOLVER_ANY_SUIT -1

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

/* Status of a run. */
enum {
    SOLVER_WON = 0,
    SOLVER_LOST = 1,
    SOLVER_LIMIT_POSITIONS = 2,
    SOLVER_LIMIT_SECONDS = 3,
    SOLVER_LIMIT_MEMORY = 4,
    SOLVER_INTERRUPTED = 5,
    SOLVER_ERROR = 6
};

/* Moves of a line, of every family: the actions and places of each family's
 * moves side by side in one record. */
enum {
    SOLVER_TURN = 0,          /* cards turned from the stock (the Tomb; Porta-Jóias: one) */
    SOLVER_REDEAL = 1,        /* the waste, or the piles, gathered into the stock again */
    SOLVER_MOVE = 2,          /* a card from src to dst */
    SOLVER_DEAL = 3,          /* Paciência Napoleão: a round dealt from the stock onto the piles */
    SOLVER_JEWEL_FILL = 4     /* Porta-Jóias: the next jewel into the emptied place dst */
};
enum {
    /* The Tomb's places: each alone of its kind, or its cells, which are
     * interchangeable: no index. */
    SOLVER_PLACE_STOCK = 0,   /* the stock, of every family */
    SOLVER_PLACE_WASTE,
    SOLVER_PLACE_CELL,
    SOLVER_PLACE_RESERVE,     /* the sixes reserve */
    SOLVER_PLACE_CORNER,
    SOLVER_PLACE_TOMB,
    /* The two-deck games' places: the index says which. */
    SOLVER_PLACE_PILE,        /* Paciência Napoleão's ring: piles 1..12 */
    SOLVER_PLACE_KBASE,
    SOLVER_PLACE_ABASE,   /* its King and Ace bases: by suit */
    SOLVER_PLACE_LID,         /* Porta-Jóias: lid places 1..5 */
    SOLVER_PLACE_SIDE,
    SOLVER_PLACE_BOTTOM,   /* its side and bottom piles: 1..4 */
    SOLVER_PLACE_RESERVE_PILE,    /* its reserves: 1..3 */
    SOLVER_PLACE_FOUNDATION   /* its foundations: by suit */
};

/* A move of a line. A place is a kind (SOLVER_PLACE_*) and an index, which
 * of that kind: 1-based, or the suit 0..3 (C S H D) of a base or a
 * foundation; 0 where the kind has no index (the stock, the Tomb's places). */
typedef struct {
    int action;               /* SOLVER_TURN .. SOLVER_JEWEL_FILL */
    int card;                 /* the card moved, or the jewel (SOLVER_MOVE, SOLVER_JEWEL_FILL) */
    int src, src_index;       /* where from (SOLVER_MOVE) */
    int dst, dst_index;       /* where to (SOLVER_MOVE, SOLVER_JEWEL_FILL) */
    int ncards;               /* cards turned or dealt (SOLVER_TURN, SOLVER_DEAL) */
    uint8_t cards[52];        /* those cards, in order */
} solver_move;

/* The parts of the memory a search holds (its account: csrc/search/mem.h). */
enum {
    SOLVER_MEM_TABLE = 0,     /* the position tables */
    SOLVER_MEM_SUMMARIES,     /* the summaries' table and the arena of their exits */
    SOLVER_MEM_CACHES,        /* the summaries' caches: the moves cache, the turns met last */
    SOLVER_MEM_STACK,         /* the search stack */
    SOLVER_MEM_SETS,          /* the summaries' working sets: the states of those being computed */
    SOLVER_MEM_LINES,         /* the win line and the line to the best score */
    SOLVER_MEM_PARTS
};

typedef struct {
    uint64_t positions;       /* distinct positions stored */
    uint64_t expanded;        /* positions whose moves were generated */
    double seconds;           /* time spent in runs */
    uint64_t table_bytes;     /* bytes of the position tables and the summaries */
    uint64_t peak_bytes;      /* every part of the account at once, at their largest */
    uint64_t held_bytes;      /* every part, now; after a stop by the memory limit, when it refused */
    uint64_t part_bytes[6];   /* held_bytes by part, SOLVER_MEM_* (6: SOLVER_MEM_PARTS) */
    uint64_t refused_bytes;   /* after a stop by the memory limit: the growth it refused (else 0) */
    int best_score;           /* most cards on the foundations in any position seen */
    int max_depth;            /* longest line on the search stack */
} solver_stats;

/* A search of any family. */
typedef struct solver solver;

/* The game families, one table (csrc/families/registry.c), numbered
 * 0..solver_family_count() - 1, each by its name as a variant file's
 * `family` names it: "tomb", "napoleao", "jewel". */
int solver_family_count(void);
/* The number of the family called name, or -1. */
int solver_family(const char *name);
/* The name of family number family, or NULL. */
const char *solver_family_name(int family);

/* A search of a family: its rules struct and a position of its search
 * (tomb_rules and tomb_position for the Tomb; each other family's rules and
 * position structs, games/<family>.h, for it). Returns NULL
 * and writes a message into err (size errlen) if the family is none, or the
 * rules or the position are impossible. */
solver *solver_new(int family, const void *rules, const void *pos, unsigned flags, char *err, int errlen);
/* Gives a search a new root of its family (family: the position's, which
 * must be the search's), with the same rules and
 * shortcuts: the search starts again as the constructor would make it, its
 * limits kept, in the memory of the last where the family keeps it (the
 * Tomb: its first table, which it empties of what it stored): a batch
 * solves deal after deal on one handle. Returns 0, or -1 with a message in
 * err if the position is impossible or of another family; the search is
 * then as it was. */
int solver_reset(solver *s, int family, const void *pos, char *err, int errlen);
/* The verbs, the same for every family's search. */
/* 0 means no limit. Limits count over all runs of the handle. */
void solver_set_limits(solver *s, uint64_t max_positions, double max_seconds, uint64_t max_bytes);
int solver_run(solver *s);
/* Safe to call from another thread: the run returns SOLVER_INTERRUPTED soon. */
void solver_stop(solver *s);
void solver_get_stats(const solver *s, solver_stats *out);
/* The family's upper bound on the score of every position reachable from the
 * root (docs/search.md, "dead-cards": the two-deck games), or the family's
 * full score (a won deal's: 52 for the Tomb) where it has none: for the tests
 * and for studies. */
int solver_root_bound(const solver *s);
/* which = 0: the win line (after SOLVER_WON); which = 1: a line reaching the best score. */
int solver_line_length(const solver *s, int which);
int solver_line_move(const solver *s, int which, int index, solver_move *out);
/* The whole line in one call, packed: for each move its action, card, src,
 * src_index, dst, dst_index and ncards, one byte each, then its ncards
 * cards. Writes it into out if it fits in size bytes; returns its size in
 * bytes (0: no line), or -1 if the line cannot be made (out of memory). */
int solver_line_pack(const solver *s, int which, uint8_t *out, int size);
/* The whole line as the solution format's JSON text: its moves' objects,
 * joined by ", ", without the brackets (docs/rules/solution-format.md).
 * Writes it, with a NUL after it, into out if that fits in size bytes;
 * returns its length (0: no line), or -1 if the line cannot be made. */
int solver_line_text(const solver *s, int which, char *out, int size);
/* The stats of a search as the solution format's "stats" object, the JSON
 * text solver.api.Stats.text writes of them (seconds rounded to 6 places,
 * as Python writes such a float; the parts held largest first, none
 * empty). Writes it, with a NUL after it, into out if that fits in size
 * bytes; returns its length, or -1 where Python would write the seconds
 * another way (not a number, negative, 10^9 or more). */
int solver_stats_text(const solver_stats *st, char *out, int size);
/* PySolFC's shuffle of the deal `number` (1 to 31,999: its LC generator,
 * Microsoft's rand()) of the n <= SOLVER_LC_MAX_CARDS card indexes `fresh`
 * (the deck it starts from), written into out in turning order, as
 * solver/deals.py's card_indexes gives them. */
#define SOLVER_LC_MAX_CARDS 104
void solver_lc_deal(uint32_t number, const uint8_t *fresh, int n, uint8_t *out);
/* The cards of the deal `number` (its decimal digits, 1 to 10^20) of
 * `decks` decks (1 or 2), as solver/deals.py's card_indexes gives them: a
 * number below 32,000 shuffled as solver_lc_deal does, any other by the
 * Mersenne Twister of Python's random.Random seeded with the number
 * (PySolFC's). Writes 52 * decks card indexes into out in turning order and
 * returns how many, or -1 for a number that is not one of 1 .. 10^20 or a
 * count of decks that is not 1 or 2. */
int solver_deal(const char *number, int decks, uint8_t *out);
/* The name of a part of the memory account, SOLVER_MEM_* ("table", ...);
 * NULL if part is none. */
const char *solver_memory_part(int part);
void solver_free(solver *s);

#endif
