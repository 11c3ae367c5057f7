/* memo.h - proofs by shared sub-games over the waste stack (see memo.c;
 * summaries.c and places.c hold the two kinds of summaries). */
#ifndef MEMO_H
#define MEMO_H

#include <stdint.h>
#include <string.h>
#include "tomb_state.h"
#include "mem.h"
#include "hashset.h"

/* A summary in the table: the key + 1 (the control state and the rank), and
 * its value: the best score (bits 0-7), then either (bit 8 set) its one exit
 * + 1, 0 for none - two summaries in three have at most one exit, and keep
 * it here, with no trip to the arena - or (bit 8 clear) where its exits start
 * in the arena (the count, then the exits), in units of 6 bytes: control
 * states take 42 bits. */
typedef struct {
    uint64_t key;
    uint64_t val;
} entry;
#define E_BEST(e) ((int)((e)->val & 0xff))
#define E_INLINE 256u

/* A summary being computed: its control state, its top rank, and the state
 * of its closure being expanded. */
typedef struct {
    uint64_t q, cur;
    int top;
} trail_frame;

typedef struct {
    const tomb_game *game;
    uint8_t stock[52];      /* the root's stock (a stack, next card last) */
    void *entries;          /* (control state, rank) -> summary */
    uint64_t cap, count;
    uint8_t *arena;         /* the exits of every summary, in units (ARENA_UNIT bytes, and 2 to spare at the end) */
    uint64_t arena_n, arena_cap;
    mem_account *mem;       /* the search's account: the memory limit is on it */
    uint64_t positions, max_positions, ticks;
    double deadline;        /* CLOCK_MONOTONIC seconds; 0: none */
    int *stop;
    int target;             /* stop as soon as a position scores this (0: never) */
    int chain[64], chain_n; /* ranks of the waste cards under the current top */
    trail_frame trail[64], found[64];   /* the summaries being computed; those when a win was seen */
    int trail_n, found_n;
    /* The classic rules (one card, one pass, cells that send only home, no
     * reserve) with cell-home: summaries over the talon's places (places.c,
     * "by places"). talon: the root's waste (bottom to top) then its stock in
     * turning order, as ranks; pre[j][r]: cards of rank r among the first j. */
    int by_places, ntalon, ncells;
    int waste_cap;          /* by places: no turn with this many cards in the waste (0: none) */
    int greedy;             /* a win phase where every card that fits goes home at once (by control
                             * states, through TOMB_GREEDY) */
    uint8_t talon[52], pre[53][14];
    entry *recent;          /* by places: the turns met last, by hash (places.c) */
    uint16_t below[53];     /* the ranks (bit r) among the bottom j cards of the root's stock */
    uint8_t stock_count[53][14];  /* how many of each rank among the bottom j cards of the root's stock */
    /* The moves cache (movecache.h): the control states a control state's moves
     * lead to (but the top card's), in lines of 8 words by the state's hash,
     * the longer records' states in a ring of words. succ: the records
     * being worked out (a stack: one per summary on the trail). */
    uint64_t *ring, *lines, ring_pos;
    uint64_t *succ, succ_n, succ_cap;
    /* The states and the exits of the summary at each depth of the trail,
     * and a record's states (moves_keep). */
    stampset seen[64], exits[64], once;
} memo;

/* A value in the arena: a count or an exit, 48 bits. */
#define ARENA_UNIT 6
static inline uint64_t arena_get(const uint8_t *a, uint64_t i)
{
    a += ARENA_UNIT * i;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t x;
    memcpy(&x, a, sizeof x);    /* 8 bytes: the arena has 2 to spare at its end */
    return x & ((1ull << 48) - 1);
#else
    uint64_t x = 0;
    for (int b = ARENA_UNIT - 1; b >= 0; b--)
        x = x << 8 | a[b];
    return x;
#endif
}

static inline void arena_put(uint8_t *a, uint64_t i, uint64_t x)
{
    a += ARENA_UNIT * i;
    for (int b = 0; b < ARENA_UNIT; b++, x >>= 8)
        a[b] = (uint8_t)x;
}

/* The exits of a summary: returns how many, and sets *v to them in the
 * arena (or to NULL, and *one to the one kept in the entry); the i-th is
 * memo_exit(*v, *one, i). *v stays valid until the next summary is stored. */
static inline uint64_t memo_exits(const memo *m, const entry *e, uint64_t *one, const uint8_t **v)
{
    if (e->val & E_INLINE) {
        uint64_t x = e->val >> 9;
        *one = x - 1;
        *v = NULL;
        return x != 0;
    }
    uint64_t off = e->val >> 9;
    *one = 0;
    *v = m->arena + ARENA_UNIT * (off + 1);
    return arena_get(m->arena, off);
}

static inline uint64_t memo_exit(const uint8_t *v, uint64_t one, uint64_t i)
{
    return v ? arena_get(v, i) : one;
}

/* Internal status: the target score was reached (memo_best then returns it). */
#define MEMO_FOUND 100

/* Whether the summaries go by places (the classic rules with cell-home). */
int memo_by_places(const tomb_game *g);
/* Applies where the waste is a stack under one pass: passes == 1. */
int memo_init(memo *m, mem_account *mem, const tomb_game *g, const tomb_state *root);
void memo_free(memo *m);
/* The best score reachable from s (52: won), or m->target as soon as some
 * position reaches it (summaries cut short are not kept). Returns -1 when done, or the
 * SOLVER_* status of the limit that stopped it (summaries finished before a
 * stop are kept: a later call goes on from them). */
int memo_best(memo *m, const tomb_state *s, int *best);

/* The key of a control state (everything but the waste), and back. */
uint64_t memo_pack(const tomb_game *g, const tomb_state *s);
void memo_unpack(const memo *m, uint64_t q, int top, tomb_state *s);
entry *memo_lookup(memo *m, uint64_t key);
/* Whether the forced endgame from st (stock empty) on the waste of the
 * current chain wins. */
int memo_endgame(const memo *m, const tomb_state *st);
/* After memo_best found a win through the endgame test (m->found_n > 0),
 * writes the win line from the root state into *line (malloc'd). Returns its
 * length, or -1 if it could not be rebuilt (the caller then walks). */
int memo_win_line(memo *m, const tomb_state *root, tomb_move **line);

#endif
