/* handle.h - what every family's search handle starts with (solver.h).
 *
 * A family's search is a struct whose first member is a `solver`: its
 * constructor (solver_new_tomb, solver_new_deck2) fills it in, and a
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

/* A family's side of the verbs: each takes the family's struct as a solver. */
typedef struct {
    void (*set_limits)(solver *s, uint64_t max_positions, double max_seconds, uint64_t max_bytes);
    int (*run)(solver *s);
    int (*line_length)(const solver *s, int which);
    int (*line_move)(const solver *s, int which, int index, solver_move *out);
    int (*root_bound)(const solver *s);   /* NULL: the family has no bound */
    void (*free)(solver *s);
} solver_family;

struct solver {
    const solver_family *family;
    dfs *e;     /* the engine of the family's search, in the family's struct */
};

#endif
