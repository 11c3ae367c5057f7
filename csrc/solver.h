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
 * verbs, the move record, the stats); each family's structs are in its own
 * header, games/<family>.h (the Tomb's in games/tomb.h), and deck2.h has
 * what the two-deck games share.
 *
 * Cards are numbered 0..51 in PySolFC's fresh-deck order: id = suit*13 +
 * rank-1 with suits clubs, spades, hearts, diamonds; rank 1 = Ace .. 13 =
 * King (the two-deck games' two copies of a card are the same number).
 */
#ifndef SOLVER_H
#define SOLVER_H

#include <stdint.h>

#define SOLVER_NO_CARD 255
/* A base's or a foundation's index where a move names none of its suit: the card's own. */
#define SOLVER_ANY_SUIT -1

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
