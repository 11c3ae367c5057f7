/* mem.c - the account of a search's large blocks (mem.h). */
#define _GNU_SOURCE   /* mremap, madvise */
#include <stdlib.h>
#include <string.h>

#include "mem.h"

#if defined(__linux__)
#include <sys/mman.h>
#define MEM_MAPPED 1
#else
#define MEM_MAPPED 0
#endif

#define HUGE_PAGE (2u << 20)

static void refuse(mem_account *a, uint64_t bytes)
{
    a->refused = bytes;
    a->refused_held = a->held;
    memcpy(a->refused_part, a->part, sizeof a->part);
}

void mem_stats(const mem_account *a, int status, solver_stats *out)
{
    int stopped = status == SOLVER_LIMIT_MEMORY && a->refused;
    out->peak_bytes = a->peak;
    out->held_bytes = stopped ? a->refused_held : a->held;
    memcpy(out->part_bytes, stopped ? a->refused_part : a->part, sizeof out->part_bytes);
    out->refused_bytes = stopped ? a->refused : 0;
    out->table_bytes = out->part_bytes[SOLVER_MEM_TABLE] + out->part_bytes[SOLVER_MEM_SUMMARIES];
}

void mem_restart(mem_account *a)
{
    a->peak = a->held;
    a->refused = a->refused_held = 0;
    memset(a->refused_part, 0, sizeof a->refused_part);
}

int mem_charge(mem_account *a, int part, uint64_t bytes)
{
    if (!mem_fits(a, bytes)) {
        refuse(a, bytes);
        return -1;
    }
    mem_note(a, part, bytes);
    return 0;
}

void mem_note(mem_account *a, int part, uint64_t bytes)
{
    a->held += bytes;
    a->part[part] += bytes;
    if (a->held > a->peak)
        a->peak = a->held;
}

void mem_release(mem_account *a, int part, uint64_t bytes)
{
    a->held -= bytes;
    a->part[part] -= bytes;
}

static int mapped(size_t bytes)
{
    return MEM_MAPPED && bytes >= MEM_MAP_MIN;
}

/* Blocks for huge pages are mapped from the size of one. */
static int mapped_huge(size_t bytes)
{
    return MEM_MAPPED && bytes >= HUGE_PAGE;
}

/* The system's block: mapped (zeroed by the system) or calloc'd; aligned
 * to a huge page when asked (the part before and after is given back). */
static void *block_new(size_t bytes, int huge, int zero)
{
#if MEM_MAPPED
    if (huge ? mapped_huge(bytes) : mapped(bytes)) {
        size_t len = (bytes + 4095) & ~(size_t)4095, extra = huge ? HUGE_PAGE : 0;
        unsigned char *p = mmap(NULL, len + extra, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            return NULL;
        if (huge) {
            size_t lead = (HUGE_PAGE - (uintptr_t)p % HUGE_PAGE) % HUGE_PAGE;
            if (lead)
                munmap(p, lead);
            if (extra - lead)
                munmap(p + lead + len, extra - lead);
            p += lead;
#ifdef MADV_HUGEPAGE
            madvise(p, bytes, MADV_HUGEPAGE);
#endif
        }
        return p;
    }
#endif
    (void)huge;
    return zero ? calloc(bytes ? bytes : 1, 1) : malloc(bytes ? bytes : 1);
}

static void block_free(void *p, size_t bytes, int huge)
{
    if (!p)
        return;
#if MEM_MAPPED
    if (huge ? mapped_huge(bytes) : mapped(bytes)) {
        munmap(p, bytes);
        return;
    }
#endif
    free(p);
}

static void *alloc_part(mem_account *a, int part, size_t bytes, int huge, int zero)
{
    if (mem_charge(a, part, bytes) < 0)
        return NULL;
    void *p = block_new(bytes, huge, zero);
    if (!p) {
        mem_release(a, part, bytes);
        refuse(a, bytes);
    }
    return p;
}

void *mem_alloc(mem_account *a, int part, size_t bytes)
{
    return alloc_part(a, part, bytes, 0, 1);
}

void *mem_alloc_huge(mem_account *a, int part, size_t bytes)
{
    return alloc_part(a, part, bytes, 1, 1);
}

void mem_free(mem_account *a, int part, void *p, size_t bytes)
{
    if (!p)
        return;
    block_free(p, bytes, 0);
    mem_release(a, part, bytes);
}

void mem_free_uncharged(void *p, size_t bytes)
{
    block_free(p, bytes, 0);
}

void mem_free_huge(mem_account *a, int part, void *p, size_t bytes)
{
    if (!p)
        return;
    block_free(p, bytes, 1);
    mem_release(a, part, bytes);
}

void *mem_resize(mem_account *a, int part, void *p, size_t old, size_t bytes)
{
    if (!p)
        return alloc_part(a, part, bytes, 0, 0);   /* not zeroed, as realloc */
    if (bytes <= old) {
        mem_release(a, part, old - bytes);
        if (mapped(old) && !mapped(bytes)) {
            void *q = malloc(bytes ? bytes : 1);
            if (!q) {
                mem_note(a, part, old - bytes);
                return NULL;
            }
            memcpy(q, p, bytes);
            block_free(p, old, 0);
            return q;
        }
#if MEM_MAPPED
        if (mapped(bytes)) {
            void *q = mremap(p, old, bytes, MREMAP_MAYMOVE);
            return q == MAP_FAILED ? p : q;
        }
#endif
        void *q = realloc(p, bytes ? bytes : 1);
        return q ? q : p;
    }
#if MEM_MAPPED
    if (mapped(old)) {
        /* Grown in place or moved by the system, no copy: the growth only. */
        if (mem_charge(a, part, bytes - old) < 0)
            return NULL;
        void *q = mremap(p, old, bytes, MREMAP_MAYMOVE);
        if (q == MAP_FAILED) {
            mem_release(a, part, bytes - old);
            refuse(a, bytes - old);
            return NULL;
        }
        return q;
    }
    if (mapped(bytes)) {
        /* From malloc to a mapping: both held while the contents move. */
        void *q = alloc_part(a, part, bytes, 0, 0);
        if (!q)
            return NULL;
        memcpy(q, p, old);
        mem_free(a, part, p, old);
        return q;
    }
#endif
    /* A small block: realloc may copy it, so old and new count while it does. */
    if (mem_charge(a, part, bytes) < 0)
        return NULL;
    void *q = realloc(p, bytes);
    mem_release(a, part, q ? old : bytes);
    if (!q)
        refuse(a, bytes);
    return q;
}

int mem_reserve(mem_account *a, int part, void **p, uint64_t *cap, uint64_t bytes)
{
    if (bytes <= *cap && *p)
        return 0;
    uint64_t want = bytes + bytes / 2;
    void *q = mem_resize(a, part, *p, *p ? *cap : 0, want);
    if (!q)
        return -1;
    *p = q;
    *cap = want;
    return 0;
}

_Static_assert(SOLVER_MEM_PARTS == 6, "solver_stats.part_bytes has one slot a part");
