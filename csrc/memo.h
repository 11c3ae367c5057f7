/* memo.h - proofs by shared sub-games over the waste stack (see memo.c). */
#ifndef MEMO_H
#define MEMO_H

#include <stdint.h>
#include "tomb.h"

typedef struct {
    const tomb_game *game;
    uint8_t stock[52];      /* the root's stock (a stack, next card last) */
    void *entries;          /* (control state, rank) -> summary */
    uint64_t cap, count;
    uint64_t *arena;        /* the exits of every summary */
    uint64_t arena_n, arena_cap;
    uint64_t bytes, extra_bytes;
    uint64_t positions, max_positions, max_bytes, ticks;
    double deadline;        /* CLOCK_MONOTONIC seconds; 0: none */
    int *stop;
    int target;             /* stop as soon as a position scores this (0: never) */
    int chain[64], chain_n; /* ranks of the waste cards under the current top */
} memo;

/* Internal status: the target score was reached (memo_best then returns it). */
#define MEMO_FOUND 100

/* Applies where the waste is a stack under one pass: passes == 1. */
int memo_init(memo *m, const tomb_game *g, const tomb_state *root);
void memo_free(memo *m);
/* The best score reachable from s (52: won), or m->target as soon as some
 * position reaches it (summaries cut short are not kept). Returns -1 when done, or the
 * SOLVER_* status of the limit that stopped it (summaries finished before a
 * stop are kept: a later call goes on from them). */
int memo_best(memo *m, const tomb_state *s, int *best);

#endif
