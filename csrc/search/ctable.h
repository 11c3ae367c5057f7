/* ctable.h - the two-deck games' transposition table: a set of exact keys,
 * stored as trees of shared parts (tree compression).
 *
 * A key of `words` 64-bit words is the bottom row of a binary tree (padded
 * with zero words to a power of two). Each word, then each pair of the ids
 * of two children, is a *node*: a 64-bit value kept once in the node
 * dictionary, which numbers the values it meets 1, 2, 3... The pair of ids
 * at the top, the *root*, stands for the whole key, and the set of roots is
 * the set of keys. The dictionary gives one id to one value and one value to
 * one id, so two keys that differ in any word differ at that word's node,
 * at its parent, and so on up to the root: the table never merges two
 * different keys (docs/search.md, "Memory"). Positions met by a search share
 * most of their parts, so most keys add a root and few nodes: about 12 to 16
 * bytes per stored position where a whole key took 43 to 150.
 *
 * A key's ids are kept (ctable_path) so that the next key made from it,
 * which differs in a few words, looks up only the nodes above those words.
 */
#ifndef CTABLE_H
#define CTABLE_H

#include <stddef.h>
#include <stdint.h>

#include "mem.h"

#define CT_MAX_WORDS 8   /* leaves of a tree */

typedef struct {
    uint64_t *slots;     /* open addressing over 64-bit values; 0 marks an empty slot */
    uint64_t capacity, count;
} ct_set;

typedef struct {
    int words, leaves;   /* key words; leaves, a power of two */
    /* The node dictionary: value of node id at vals[id - 1]; its index holds
     * id << 32 | the hash's high 32 bits. */
    uint64_t *vals;
    uint64_t nvals, vals_cap;
    ct_set index;
    ct_set roots;        /* root values: (left id << 32 | right id), never 0 */
    mem_account *mem;    /* the search's account (part SOLVER_MEM_TABLE) */
} ctable;

/* The ids of the nodes of one key, level by level (leaves first), and its words. */
typedef struct {
    uint64_t key[CT_MAX_WORDS];
    uint32_t ids[2 * CT_MAX_WORDS];
    int valid;
} ctable_path;

/* -1 if the memory limit or the system refuses it. */
int ctable_init(ctable *t, mem_account *mem, int words);
void ctable_free(ctable *t);
uint64_t ctable_bytes(const ctable *t);
uint64_t ctable_count(const ctable *t);
/* Whether the next insert needs ctable_grow first. */
int ctable_needs_growth(const ctable *t);
/* Grows what needs it (a set that doubles holds its old and new slots at
 * once while it moves); returns -1 if the memory limit or the system
 * refuses a growth (the table is as it was, or with some parts grown: both
 * hold every key). */
int ctable_grow(ctable *t);
/* Adds the key; returns 1 if it was new, 0 if it was there. `from`, if not
 * NULL and valid, is the path of a key this one was made from (only the
 * words that differ are looked up); `path`, if not NULL, receives this
 * key's path. The table must not need growth. */
int ctable_insert(ctable *t, const uint64_t *key, const ctable_path *from, ctable_path *path);

#endif
