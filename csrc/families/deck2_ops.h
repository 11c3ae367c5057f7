/* deck2_ops.h - what a two-deck game family gives the two-deck search (deck2/search.c).
 *
 * A state is a fixed-size block of bytes the family lays out; a move is a
 * small record the family reads. The search copies states, asks for the legal
 * moves (a family may return a single forced move, one of its argued
 * shortcuts), applies a move to a copy, and stores the state's exact key.
 */
#ifndef DECK2_OPS_H
#define DECK2_OPS_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include "bits.h"
#include "cardnames.h"
#include "deck2.h"
#include "rules.h"

/* More than any position has: Porta-Jóias with runs moving has at most
 * 8 piles x 13 run lengths x 7 targets + 8 x 5 lid places + 3 reserves x 12
 * + 16 from the stock + 16 home = 836. */
#define G_MAX_MOVES 1024
#define G_KEY_WORDS_MAX 8

typedef struct {
    uint8_t kind, card, src, dst, count;
    uint8_t prio;   /* move-order group for the randomised restarts: lower first */
} gmove;

typedef struct deck2_ops {
    size_t state_size;
    int key_words;
    int max_score;
    void *game;   /* the family's rules and root data */
    int (*moves)(const void *game, const void *state, gmove *out);
    void (*apply)(const void *game, void *state, const gmove *m);
    void (*key)(const void *game, const void *state, uint64_t *key);
    int (*score)(const void *game, const void *state);
    /* Optional: an upper bound on the score of every position reachable from
     * state (DECK2_DEAD_CARDS), reached by move m (NULL at the root); NULL for
     * none. Only whether it is above `limit` matters to the caller: once it
     * is known to be, the family may stop and return any value above it. A
     * family may return max_score after moves where the bound is not worth
     * its time. */
    int (*bound)(const void *game, const void *state, const gmove *m, int limit);
    /* The solution-format moves of m played from state (a jewel filling a
     * space, a turn before its placement, are moves of their own); returns
     * how many were written (at most 3). */
    int (*describe)(const void *game, const void *state, const gmove *m, solver_move *out);
    /* Optional: is m a milestone of a line (a redeal), a good place to
     * revise the play before (the prefix restarts, deck2/search.c)? */
    int (*milestone)(const gmove *m);
    /* Optional (DECK2_ORDERS): the family's move orders, 0 its own, 1 to
     * orders - 1 others; set_order gives order k to the search from state
     * and every position below it. An order decides only which moves come
     * first: every order lists the same moves. */
    int orders;
    void (*set_order)(void *state, int k);
    /* Optional: at most how many moves `moves` gives under these rules
     * (0: G_MAX_MOVES); each frame of the search has room for that many. */
    int max_moves;
    void (*free_game)(void *game);
} deck2_ops;

static inline int deck2_max_moves(const deck2_ops *f)
{
    return f->max_moves > 0 && f->max_moves < G_MAX_MOVES ? f->max_moves : G_MAX_MOVES;
}

/* A two-deck family as the search (deck2/search.c) makes it: the size of
 * its rules struct, which a search keeps a copy of for its resets, the
 * size of its states, for the root's buffer, and its setup, which fills f
 * and the root for its rules and a position (its own structs) and returns
 * 0, or -1 with a message in err for impossible rules or positions. */
typedef struct {
    size_t rules_size;
    size_t (*state_size)(void);
    int (*init)(deck2_ops *f, const void *rules, const void *pos, unsigned flags, void *root, char *err, int errlen);
} deck2_game;

/* A search of the two-deck family game (its rules and position the
 * family's structs): what each family's search_new in the registry
 * (registry.c) calls. */
solver *deck2_search_new(const deck2_game *game, const void *rules, const void *pos, unsigned flags, char *err,
                         int errlen);

#endif
