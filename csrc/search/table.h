/* table.h - the transposition table: a set of exact keys.
 *
 * Open addressing with linear probing over a power-of-two array of keys of
 * `words` 64-bit words each. The whole key is stored and compared, so two
 * positions share an entry only if they are the same position: a hash
 * collision costs a probe, never a wrong verdict. An all-zero key marks an
 * empty slot (tomb_key never makes one). The table doubles when it is three
 * quarters full; bytes per stored position are 8 * words / load, i.e. 43 to
 * 85 bytes with the 4-word key (docs/search.md).
 *
 * While it holds few keys (a sixteenth of its slots), the table notes the
 * slots it fills, so that emptying it clears those alone: a handle that
 * solves deal after deal (solver_reset_*) then pays for an easy deal's
 * table what the deal stored, not the 2 MiB of its first size.
 */
#ifndef TABLE_H
#define TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "mem.h"

typedef struct {
    uint64_t *slots;
    uint64_t capacity;  /* slots, a power of two */
    uint64_t count;     /* keys stored */
    int words;
    uint32_t *filled;   /* the slots filled, in order, while count <= filled_cap */
    uint64_t filled_cap;
    int kept;           /* kept for a new search (table_keep): held, not charged */
    mem_account *mem;   /* the search's account (part SOLVER_MEM_TABLE) */
} table;

/* -1 if the memory limit or the system refuses it. */
int table_init(table *t, mem_account *mem, int words, uint64_t capacity);
void table_free(table *t);
/* Empties the table, keeping its slots. */
void table_clear(table *t);
/* Empties the table and gives it `capacity` slots: cleared if it has them
 * (a kept table only if the account takes it again under its limit), else
 * made anew by table_init (-1 as table_init). */
int table_reset(table *t, uint64_t capacity);
/* Keeps the table's memory for a new search, no longer charged: the new
 * search's first table_reset charges it, under that search's limit, as if
 * it made it then. */
void table_keep(table *t);
uint64_t table_bytes(const table *t);
int table_needs_growth(const table *t);
/* Doubles the table (the old and the new slots are held at once while it
 * moves); returns -1 (table unchanged) if the memory limit or the system
 * refuses it. */
int table_grow(table *t);
/* Adds the key; returns 1 if it was new, 0 if it was there. The table must
 * not need growth. */
int table_insert(table *t, const uint64_t *key);

#endif
