/* hashset.h - sets of 64-bit keys: the control states (42-bit keys) of the
 * summaries, and what the studies count (solver_debug_*, study.h).
 *
 * Open addressing with linear probing, their memory on an account
 * (SOLVER_MEM_SETS: the memo's, or a study's own):
 *
 * - set64: a hashed table (keys + 1, load 3/4); a zeroed one is empty and
 *   makes its slots at the first add. The studies count with it.
 * - smallset: a set made for one composition and then freed. It starts in
 *   place (24 inline slots: most compositions hold a handful of states) and
 *   moves to a hashed table (set64, keys + 1, load 3/4) when it outgrows
 *   them. Its members are visited in slot order (smallset_next).
 * - stampset: a set used again and again (the states and the exits of the
 *   summary at each depth of the trail, a record's states). A slot holds
 *   the set's stamp (bits 43 on) and the key + 1; a slot of an older stamp
 *   is empty, so a new use is a new stamp - no clearing, no allocation. The
 *   members are listed in the order added besides (item).
 */
#ifndef HASHSET_H
#define HASHSET_H

#include <stdint.h>
#include <string.h>
#include "bits.h"
#include "mem.h"


/* ---- set64: keys + 1 (0 is an empty slot), hashed by mix64 ---- */

typedef struct {
    uint64_t *v;
    uint64_t cap, n;
} set64;

int set64_init(set64 *s, mem_account *a, uint64_t cap);   /* -1 if out of memory */
/* Frees the slots (none for a zeroed set) and leaves the set zeroed. */
void set64_free(set64 *s, mem_account *a);
/* 1 new, 0 present, -1 out of memory. */
int set64_add(set64 *s, mem_account *a, uint64_t key);

/* ---- smallset ---- */

#define SMALLSET_INLINE 24
typedef struct {
    uint64_t inl[SMALLSET_INLINE];
    int n;
    set64 big;
} smallset;

static inline void smallset_init(smallset *s)
{
    s->n = 0;
    s->big.v = NULL;
    s->big.n = 0;
    s->big.cap = 0;
}
static inline void smallset_free(smallset *s, mem_account *a)
{
    if (s->big.v)
        set64_free(&s->big, a);
}
/* 1 new, 0 present, -1 out of memory. */
int smallset_add(smallset *s, mem_account *a, uint64_t key);

/* The members one by one: *pos starts at 0; sets *key and returns 1, or 0
 * past the last. */
static inline int smallset_next(const smallset *s, uint64_t *pos, uint64_t *key)
{
    if (!s->big.v) {
        if (*pos >= (uint64_t)s->n)
            return 0;
        *key = s->inl[(*pos)++];
        return 1;
    }
    while (*pos < s->big.cap) {
        uint64_t v = s->big.v[(*pos)++];
        if (v) {
            *key = v - 1;
            return 1;
        }
    }
    return 0;
}

/* ---- stampset ---- */

/* pos: the index in item of each slot's member; heap: room for a queue of
 * the members (summaries.c). */
typedef struct {
    uint64_t *slot, *item, *heap;
    uint32_t *pos;
    uint64_t cap, n, stamp;
    int shift;
} stampset;
#define STAMP_SHIFT 43

/* Doubles the slots (64 at first) and puts the members back; -1 if out of memory. */
int stampset_grow(stampset *s, mem_account *a);
void stampset_free(stampset *s, mem_account *a);

/* Empties the set for a new use; -1 if out of memory. */
static inline int stampset_start(stampset *s, mem_account *a)
{
    s->n = 0;
    if (!s->cap)
        return stampset_grow(s, a);
    if (++s->stamp == (1ull << (64 - STAMP_SHIFT))) {  /* the stamps wrapped: clear once */
        memset(s->slot, 0, s->cap * sizeof(uint64_t));
        s->stamp = 1;
    }
    return 0;
}

/* 1 new, 0 present, -1 out of memory; *at: the member's index in item. */
static inline int stampset_add_at(stampset *s, mem_account *a, uint64_t key, uint64_t *at)
{
    if ((s->n + 1) * 2 > s->cap && stampset_grow(s, a) < 0)
        return -1;
    const uint64_t tag = (s->stamp << STAMP_SHIFT) | (key + 1), mask = s->cap - 1;
    uint64_t j = ((key + 1) * 0x9e3779b97f4a7c15ull) >> s->shift, v;
    while ((v = s->slot[j]) >> STAMP_SHIFT == s->stamp) {
        if (v == tag) {
            *at = s->pos[j];
            return 0;
        }
        j = (j + 1) & mask;
    }
    s->slot[j] = tag;
    s->pos[j] = (uint32_t)s->n;
    *at = s->n;
    s->item[s->n++] = key;
    return 1;
}

/* 1 new, 0 present, -1 out of memory. */
static inline int stampset_add(stampset *s, mem_account *a, uint64_t key)
{
    uint64_t at;
    return stampset_add_at(s, a, key, &at);
}

#endif
