/* ctable.c - the two-deck games' exact table by tree compression (ctable.h). */
#include <stdlib.h>
#include <string.h>

#include "bits.h"
#include "ctable.h"

#define FIRST_SLOTS (1u << 12)
#define MAX_IDS 0xfffffff0u

static uint64_t mix(uint64_t v)
{
    return mix64(v ^ 0x9e3779b97f4a7c15ull);
}

static int set_init(ct_set *s, mem_account *mem, uint64_t capacity)
{
    s->slots = mem_alloc(mem, SOLVER_MEM_TABLE, capacity * sizeof(uint64_t));
    s->capacity = capacity;
    s->count = 0;
    return s->slots ? 0 : -1;
}

static int set_full(const ct_set *s, uint64_t more)
{
    return (s->count + more) * 4 > s->capacity * 3;
}

int ctable_init(ctable *t, mem_account *mem, int words)
{
    memset(t, 0, sizeof *t);
    t->mem = mem;
    if (words < 1 || words > CT_MAX_WORDS)
        return -1;
    t->words = words;
    t->leaves = 2;
    while (t->leaves < words)
        t->leaves *= 2;
    t->vals_cap = FIRST_SLOTS;
    t->vals = mem_alloc(mem, SOLVER_MEM_TABLE, sizeof(uint64_t) * t->vals_cap);
    if (!t->vals)
        t->vals_cap = 0;
    if (!t->vals || set_init(&t->index, mem, FIRST_SLOTS) < 0 || set_init(&t->roots, mem, FIRST_SLOTS) < 0) {
        ctable_free(t);
        return -1;
    }
    return 0;
}

void ctable_free(ctable *t)
{
    mem_account *mem = t->mem;
    if (mem) {
        mem_free(mem, SOLVER_MEM_TABLE, t->vals, sizeof(uint64_t) * t->vals_cap);
        mem_free(mem, SOLVER_MEM_TABLE, t->index.slots, sizeof(uint64_t) * t->index.capacity);
        mem_free(mem, SOLVER_MEM_TABLE, t->roots.slots, sizeof(uint64_t) * t->roots.capacity);
    }
    memset(t, 0, sizeof *t);
}

uint64_t ctable_bytes(const ctable *t)
{
    return sizeof(uint64_t) * (t->vals_cap + t->index.capacity + t->roots.capacity);
}

uint64_t ctable_count(const ctable *t)
{
    return t->roots.count;
}

/* A key adds at most one node per leaf and per pair below the root. */
static uint64_t most_nodes(const ctable *t)
{
    return 2 * (uint64_t)t->leaves;
}

int ctable_needs_growth(const ctable *t)
{
    return set_full(&t->index, most_nodes(t)) || set_full(&t->roots, 1) || t->nvals + most_nodes(t) > t->vals_cap;
}

/* The slot where value v (with hash h) lies or would go. */
static uint64_t *root_slot(const ct_set *s, uint64_t v)
{
    uint64_t mask = s->capacity - 1, i = mix(v) & mask;
    while (s->slots[i] && s->slots[i] != v)
        i = (i + 1) & mask;
    return &s->slots[i];
}

static int grow_roots(mem_account *mem, ct_set *s)
{
    ct_set bigger;
    if (set_init(&bigger, mem, s->capacity * 2) < 0)
        return -1;
    for (uint64_t i = 0; i < s->capacity; i++)
        if (s->slots[i])
            *root_slot(&bigger, s->slots[i]) = s->slots[i];
    bigger.count = s->count;
    mem_free(mem, SOLVER_MEM_TABLE, s->slots, sizeof(uint64_t) * s->capacity);
    *s = bigger;
    return 0;
}

static int grow_index(ctable *t)
{
    ct_set bigger;
    if (set_init(&bigger, t->mem, t->index.capacity * 2) < 0)
        return -1;
    uint64_t mask = bigger.capacity - 1;
    for (uint64_t i = 0; i < t->index.capacity; i++) {
        uint64_t e = t->index.slots[i];
        if (!e)
            continue;
        uint64_t j = mix(t->vals[(e >> 32) - 1]) & mask;
        while (bigger.slots[j])
            j = (j + 1) & mask;
        bigger.slots[j] = e;
    }
    bigger.count = t->index.count;
    mem_free(t->mem, SOLVER_MEM_TABLE, t->index.slots, sizeof(uint64_t) * t->index.capacity);
    t->index = bigger;
    return 0;
}

int ctable_grow(ctable *t)
{
    if (t->nvals + most_nodes(t) > t->vals_cap) {
        uint64_t cap = t->vals_cap + t->vals_cap / 2;
        if (cap > MAX_IDS)
            return -1;
        uint64_t *v =
            mem_resize(t->mem, SOLVER_MEM_TABLE, t->vals, sizeof(uint64_t) * t->vals_cap, sizeof(uint64_t) * cap);
        if (!v)
            return -1;
        t->vals = v;
        t->vals_cap = cap;
    }
    if (set_full(&t->index, most_nodes(t)) && grow_index(t) < 0)
        return -1;
    if (set_full(&t->roots, 1) && grow_roots(t->mem, &t->roots) < 0)
        return -1;
    return 0;
}

/* The id of node value v, numbered anew if it was not there. */
static uint32_t node_id(ctable *t, uint64_t v)
{
    uint64_t h = mix(v), mask = t->index.capacity - 1, i = h & mask;
    uint32_t tag = (uint32_t)(h >> 32);
    for (;;) {
        uint64_t e = t->index.slots[i];
        if (!e) {
            uint64_t id = ++t->nvals;
            t->vals[id - 1] = v;
            t->index.slots[i] = id << 32 | tag;
            t->index.count++;
            return (uint32_t)id;
        }
        if ((uint32_t)e == tag && t->vals[(e >> 32) - 1] == v)
            return (uint32_t)(e >> 32);
        i = (i + 1) & mask;
    }
}

int ctable_insert(ctable *t, const uint64_t *key, const ctable_path *from, ctable_path *path)
{
    ctable_path local;
    if (!path)
        path = &local;
    int reuse = from && from->valid;
    uint8_t changed[2 * CT_MAX_WORDS];
    int n = t->leaves;
    for (int j = 0; j < n; j++) {
        uint64_t w = j < t->words ? key[j] : 0;
        changed[j] = !reuse || w != from->key[j];
        path->key[j] = w;
        path->ids[j] = changed[j] ? node_id(t, w) : from->ids[j];
    }
    /* Level by level: the pairs of the level below, at `at`, become the
     * nodes of this level, at `at + n`. */
    int at = 0;
    for (; n > 2; at += n, n /= 2)
        for (int j = 0; j < n; j += 2) {
            int k = at + n + j / 2;
            changed[k] = changed[at + j] || changed[at + j + 1];
            path->ids[k] =
                changed[k] ? node_id(t, (uint64_t)path->ids[at + j] << 32 | path->ids[at + j + 1]) : from->ids[k];
        }
    path->valid = 1;
    uint64_t root = (uint64_t)path->ids[at] << 32 | path->ids[at + 1];
    uint64_t *slot = root_slot(&t->roots, root);
    if (*slot)
        return 0;
    *slot = root;
    t->roots.count++;
    return 1;
}
