/* deck2.h - what the two-deck games (Paciência Napoleão, family "napoleao",
 * games/napoleao.h; Paciência do Porta-Jóias, family "jewel", games/jewel.h)
 * share in the C API of solver.h, reached from Python through cffi: the
 * empty card and the shortcut flags of their search; solver_new (solver.h)
 * makes a search of either, which takes the verbs of solver.h (solver_run,
 * solver_line_move, ...).
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

/* Shortcuts (docs/search.md argues each one; each can be switched off). */
#define DECK2_LAST_COPY_HOME 1u      /* the last copy of a card out goes home at once, where that is safe */
#define DECK2_INTERCHANGEABLE 2u     /* jewel: relabelled lid/pile/reserve places share one table entry */
#define DECK2_RESTARTS 4u            /* randomised restarts look for a win before the full search */
#define DECK2_DEAD_CARDS 8u          /* napoleao: a position whose bound is no better than the best seen is not expanded */
#define DECK2_ORDERS 16u             /* jewel: the restarts take turns with the reserves' move orders */
#define DECK2_ALL_SHORTCUTS 31u

#endif
