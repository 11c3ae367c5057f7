/* hashset.c - the sets' growth and memory (hashset.h). */
#include <string.h>

#include "hashset.h"

int set64_init(set64 *s, mem_account *a, uint64_t cap)
{
    s->cap = cap;
    s->n = 0;
    s->v = mem_alloc(a, SOLVER_MEM_SETS, cap * sizeof(uint64_t));
    return s->v ? 0 : -1;
}

void set64_free(set64 *s, mem_account *a)
{
    mem_free(a, SOLVER_MEM_SETS, s->v, s->cap * sizeof(uint64_t));
    s->v = NULL;
    s->cap = s->n = 0;
}

/* Twice the slots (a zeroed set: its first), the members moved over; -1
 * if out of memory. */
static int set64_grow(set64 *s, mem_account *a)
{
    set64 t;
    if (set64_init(&t, a, s->cap ? s->cap * 2 : 1024) < 0)
        return -1;
    for (uint64_t i = 0; i < s->cap; i++)
        if (s->v[i]) {
            uint64_t j = mix64(s->v[i]) & (t.cap - 1);
            while (t.v[j])
                j = (j + 1) & (t.cap - 1);
            t.v[j] = s->v[i];
            t.n++;
        }
    set64_free(s, a);
    *s = t;
    return 0;
}

int set64_add(set64 *s, mem_account *a, uint64_t key)
{
    key += 1;
    if ((s->n + 1) * 4 > s->cap * 3 && set64_grow(s, a) < 0)
        return -1;
    uint64_t j = mix64(key) & (s->cap - 1);
    while (s->v[j]) {
        if (s->v[j] == key)
            return 0;
        j = (j + 1) & (s->cap - 1);
    }
    s->v[j] = key;
    s->n++;
    return 1;
}

int smallset_add(smallset *s, mem_account *a, uint64_t key)
{
    if (s->big.v)
        return set64_add(&s->big, a, key);
    for (int i = 0; i < s->n; i++)
        if (s->inl[i] == key)
            return 0;
    if (s->n < SMALLSET_INLINE) {
        s->inl[s->n++] = key;
        return 1;
    }
    if (set64_init(&s->big, a, 64) < 0)
        return -1;
    for (int i = 0; i < s->n; i++)
        set64_add(&s->big, a, s->inl[i]);   /* 24 in 64 slots: no growth */
    return set64_add(&s->big, a, key);
}

int stampset_grow(stampset *s, mem_account *a)
{
    uint64_t cap = s->cap ? 2 * s->cap : 64;
    uint64_t *slot = mem_alloc(a, SOLVER_MEM_SETS, cap * sizeof(uint64_t));
    uint32_t *pos = slot ? mem_alloc(a, SOLVER_MEM_SETS, cap * sizeof(uint32_t)) : NULL;
    uint64_t *heap = pos ? mem_alloc(a, SOLVER_MEM_SETS, cap / 2 * sizeof(uint64_t)) : NULL;
    uint64_t *item =
        heap ? mem_resize(a, SOLVER_MEM_SETS, s->item, s->cap / 2 * sizeof(uint64_t), cap / 2 * sizeof(uint64_t))
             : NULL;
    if (!item) {
        mem_free(a, SOLVER_MEM_SETS, slot, cap * sizeof(uint64_t));
        mem_free(a, SOLVER_MEM_SETS, pos, cap * sizeof(uint32_t));
        mem_free(a, SOLVER_MEM_SETS, heap, cap / 2 * sizeof(uint64_t));
        return -1;
    }
    if (s->heap) {
        memcpy(heap, s->heap, s->cap / 2 * sizeof(uint64_t));   /* a queue in use moves over */
        mem_free(a, SOLVER_MEM_SETS, s->heap, s->cap / 2 * sizeof(uint64_t));
    }
    s->item = item;
    mem_free(a, SOLVER_MEM_SETS, s->slot, s->cap * sizeof(uint64_t));
    mem_free(a, SOLVER_MEM_SETS, s->pos, s->cap * sizeof(uint32_t));
    s->slot = slot;
    s->pos = pos;
    s->heap = heap;
    s->cap = cap;
    s->shift = 64 - __builtin_ctzll(cap);
    s->stamp = 1;
    for (uint64_t i = 0; i < s->n; i++) {
        uint64_t j = ((s->item[i] + 1) * 0x9e3779b97f4a7c15ull) >> s->shift;
        while (s->slot[j])
            j = (j + 1) & (cap - 1);
        s->slot[j] = (1ull << STAMP_SHIFT) | (s->item[i] + 1);
        s->pos[j] = (uint32_t)i;
    }
    return 0;
}

void stampset_free(stampset *s, mem_account *a)
{
    mem_free(a, SOLVER_MEM_SETS, s->slot, s->cap * sizeof(uint64_t));
    mem_free(a, SOLVER_MEM_SETS, s->item, s->cap / 2 * sizeof(uint64_t));
    mem_free(a, SOLVER_MEM_SETS, s->heap, s->cap / 2 * sizeof(uint64_t));
    mem_free(a, SOLVER_MEM_SETS, s->pos, s->cap * sizeof(uint32_t));
    s->slot = s->item = s->heap = NULL;
    s->pos = NULL;
    s->cap = s->n = 0;
}
