/* table.c - the exact transposition table (see table.h). */
#include <stdlib.h>
#include <string.h>

#include "bits.h"
#include "table.h"

static uint64_t hash_key(const uint64_t *key, int words)
{
    /* Each word folded in by a multiply (it spreads a word's bits upwards),
     * then the finaliser of splitmix64 (it spreads the high bits down). The
     * table compares whole keys: a weaker hash costs probes, never a verdict. */
    uint64_t h = 0x9e3779b97f4a7c15ull * (uint64_t)words;
    for (int i = 0; i < words; i++)
        h = (h ^ key[i]) * 0xff51afd7ed558ccdull + (h >> 32);
    return mix64(h);
}

/* Slots noted (filled) per slot of the table: clearing more of them one by
 * one would cost more than clearing the whole table at once. */
#define FILLED_SHARE 16

static uint64_t slot_bytes(const table *t)
{
    return t->capacity * (uint64_t)t->words * sizeof(uint64_t);
}

int table_init(table *t, mem_account *mem, int words, uint64_t capacity)
{
    t->mem = mem;
    t->words = words;
    t->capacity = capacity;
    t->count = 0;
    t->filled_cap = capacity <= UINT32_MAX ? capacity / FILLED_SHARE : 0;
    t->slots = mem_alloc(mem, SOLVER_MEM_TABLE, slot_bytes(t));
    t->filled =
        t->slots && t->filled_cap ? mem_resize(mem, SOLVER_MEM_TABLE, NULL, 0, t->filled_cap * sizeof(uint32_t)) : NULL;
    if (t->slots && (t->filled || !t->filled_cap))
        return 0;
    table_free(t);
    return -1;
}

void table_free(table *t)
{
    if (t->kept) {
        mem_free_uncharged(t->slots, slot_bytes(t));
        mem_free_uncharged(t->filled, t->filled_cap * sizeof(uint32_t));
    } else {
        mem_free(t->mem, SOLVER_MEM_TABLE, t->slots, slot_bytes(t));
        mem_free(t->mem, SOLVER_MEM_TABLE, t->filled, t->filled_cap * sizeof(uint32_t));
    }
    t->slots = NULL;
    t->filled = NULL;
    t->capacity = t->count = t->filled_cap = 0;
    t->kept = 0;
}

void table_keep(table *t)
{
    if (t->slots && !t->kept) {
        mem_release(t->mem, SOLVER_MEM_TABLE, table_bytes(t));
        t->kept = 1;
    }
}

void table_clear(table *t)
{
    if (t->count <= t->filled_cap) {
        for (uint64_t i = 0; i < t->count; i++)
            memset(t->slots + (uint64_t)t->filled[i] * t->words, 0, sizeof(uint64_t) * (size_t)t->words);
    } else {
        memset(t->slots, 0, slot_bytes(t));
    }
    t->count = 0;
}

int table_reset(table *t, uint64_t capacity)
{
    if (t->kept && t->capacity == capacity && mem_charge(t->mem, SOLVER_MEM_TABLE, table_bytes(t)) == 0)
        t->kept = 0;
    if (t->slots && !t->kept && t->capacity == capacity) {
        table_clear(t);
        return 0;
    }
    mem_account *mem = t->mem;
    int words = t->words;
    table_free(t);
    return table_init(t, mem, words, capacity);
}

uint64_t table_bytes(const table *t)
{
    return slot_bytes(t) + t->filled_cap * sizeof(uint32_t);
}

int table_needs_growth(const table *t)
{
    return (t->count + 1) * 4 > t->capacity * 3;
}

static int is_empty(const uint64_t *slot, int words)
{
    for (int i = 0; i < words; i++)
        if (slot[i])
            return 0;
    return 1;
}

static void place(uint64_t *slots, uint64_t mask, const uint64_t *key, int words)
{
    uint64_t i = hash_key(key, words) & mask;
    while (!is_empty(slots + i * words, words))
        i = (i + 1) & mask;
    memcpy(slots + i * words, key, sizeof(uint64_t) * (size_t)words);
}

int table_grow(table *t)
{
    uint64_t cap = t->capacity * 2;
    uint64_t *slots = mem_alloc(t->mem, SOLVER_MEM_TABLE, cap * (uint64_t)t->words * sizeof(uint64_t));
    if (!slots)
        return -1;
    for (uint64_t i = 0; i < t->capacity; i++) {
        const uint64_t *k = t->slots + i * t->words;
        if (!is_empty(k, t->words))
            place(slots, cap - 1, k, t->words);
    }
    mem_free(t->mem, SOLVER_MEM_TABLE, t->slots, slot_bytes(t));
    t->slots = slots;
    t->capacity = cap;
    /* The keys moved: a clear is the whole table's from now on. */
    mem_free(t->mem, SOLVER_MEM_TABLE, t->filled, t->filled_cap * sizeof(uint32_t));
    t->filled = NULL;
    t->filled_cap = 0;
    return 0;
}

int table_insert(table *t, const uint64_t *key)
{
    int w = t->words;
    uint64_t mask = t->capacity - 1;
    uint64_t i = hash_key(key, w) & mask;
    for (;;) {
        uint64_t *slot = t->slots + i * w;
        if (is_empty(slot, w)) {
            memcpy(slot, key, sizeof(uint64_t) * (size_t)w);
            if (t->count < t->filled_cap)
                t->filled[t->count] = (uint32_t)i;
            t->count++;
            return 1;
        }
        if (memcmp(slot, key, sizeof(uint64_t) * (size_t)w) == 0)
            return 0;
        i = (i + 1) & mask;
    }
}
