/* handle.h - what every family's search handle starts with (solver.h).
 *
 * A family's search is a struct whose first member is a `solver`: its
 * constructor (tomb_search_new, deck2_search_new) fills it in, and a
 * `solver *` is then a pointer to the family's struct. The verbs of solver.h
 * (handle.c) call the family's functions through its table, or, for the
 * stop and the stats, read the engine every family's search runs on (dfs.h).
 * None of them is on the search's hot path.
 */
#ifndef HANDLE_H
#define HANDLE_H

#include <stdint.h>

#include "solver.h"
#include "dfs.h"

/* A search's side of the verbs (its driver): each takes the search's struct
 * as a solver. */
typedef struct {
    void (*set_limits)(solver *s, uint64_t max_positions, double max_seconds, uint64_t max_bytes);
    int (*run)(solver *s);
    int (*line_length)(const solver *s, int which);
    int (*line_move)(const solver *s, int which, int index, solver_move *out);
    int (*root_bound)(const solver *s);   /* NULL: the family has no bound */
    int (*reset)(solver *s, const void *pos, char *err, int errlen);
    void (*free)(solver *s);
} search_driver;

struct solver {
    const search_driver *driver;
    int family; /* its number in the registry (registry.c) */
    dfs *e;     /* the engine of the family's search, in the family's struct */
};

#endif
