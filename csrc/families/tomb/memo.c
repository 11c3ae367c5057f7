/* memo.c - proofs by shared sub-games (summaries over the waste stack).
 *
 * In a variant with one pass, the waste is a stack: the cards under its top
 * are frozen until everything above them is gone, and the stock is a fixed
 * sequence. So the play above a buried card does not depend on what lies
 * below it. A "control state" q is everything but the waste: the stock height,
 * the cells (a multiset of ranks), the reserve, the corners and the tomb. The
 * summary of (q, r) - a card of rank r on top of the waste in control state
 * q - is the set of control states in which that card leaves the waste (to a
 * cell, a foundation or the reserve), and the best score of any position
 * reached in between. Summaries are computed once and shared by every
 * position that differs only below the card (docs/search.md argues that the
 * search explores exactly the positions of the plain search).
 *
 * A full position is decided by composing summaries from its waste top down
 * to the empty waste (rank 0: the bottom, from which nothing leaves).
 *
 * The parts: control.h/.c (control states), hashset.h/.c (their sets),
 * reduction.h (reduced keys), bitmoves.h (moves from a state's bits, checked
 * by bitmoves_check.c), movecache.h/.c (the moves cache), summaries.c (the
 * summaries by control states), places.c (by places, the classic rules).
 * Here: the memo made and freed, its table, its limits, memo_best.
 */
#include <stdlib.h>
#include <string.h>

#include "memo_shared.h"
#include "control.h"
#include "movecache.h"
#include "clock.h"

/* By places, the turns met last (memo_shared.h): 256 KiB. */
#define RECENT (1u << RECENT_BITS)

int memo_by_places(const tomb_game *g)
{
    const tomb_rules *r = &g->rules;
    return (g->flags & SOLVER_BY_PLACES) && (g->flags & SOLVER_FORCE_CELL_HOME) && r->turn == 1 && r->passes == 1
           && !r->sixes_reserve && !r->cell_to_reserve && !r->cell_to_waste && r->cell_to_foundation;
}

/* By places: the talon (the root's waste, then its stock in turning order,
 * as ranks), its counts of each rank, the table of recent turns. */
static int places_init(memo *m, const tomb_state *root)
{
    m->ncells = m->game->rules.cells;
    m->ntalon = root->nwaste + root->nstock;
    for (int i = 0; i < root->nwaste; i++)
        m->talon[i] = (uint8_t)RANK(root->waste[i]);
    for (int i = 0; i < root->nstock; i++)
        m->talon[root->nwaste + i] = (uint8_t)RANK(root->stock[root->nstock - 1 - i]);
    memset(m->pre, 0, sizeof m->pre);
    for (int j = 0; j < m->ntalon; j++) {
        memcpy(m->pre[j + 1], m->pre[j], sizeof m->pre[j]);
        m->pre[j + 1][m->talon[j]]++;
    }
    m->recent = mem_alloc(m->mem, SOLVER_MEM_CACHES, RECENT * sizeof(entry));
    return m->recent ? 0 : -1;
}

int memo_init(memo *m, mem_account *mem, const tomb_game *g, const tomb_state *root)
{
    memset(m, 0, sizeof *m);
    m->mem = mem;
    m->game = g;
    if (!corner_cards[1])
        control_tables();
    memcpy(m->stock, root->stock, root->nstock);
    m->cap = 1u << 14;
    m->entries = mem_alloc_huge(mem, SOLVER_MEM_SUMMARIES, m->cap * sizeof(entry));
    m->arena_cap = 1u << 16;
    m->arena = mem_alloc(mem, SOLVER_MEM_SUMMARIES, m->arena_cap * ARENA_UNIT + 2);
    if (!m->entries || !m->arena) {
        memo_free(m);
        return -1;
    }
    m->below[0] = 0;
    memset(m->stock_count[0], 0, sizeof m->stock_count[0]);
    for (int j = 0; j < root->nstock; j++) {
        m->below[j + 1] = (uint16_t)(m->below[j] | (1u << RANK(root->stock[j])));
        memcpy(m->stock_count[j + 1], m->stock_count[j], sizeof m->stock_count[j]);
        m->stock_count[j + 1][RANK(root->stock[j])]++;
    }
    m->by_places = memo_by_places(g);
    if (m->by_places && places_init(m, root) < 0) {
        memo_free(m);
        return -1;
    }
    return 0;
}

void memo_free(memo *m)
{
    mem_free(m->mem, SOLVER_MEM_CACHES, m->recent, RECENT * sizeof(entry));
    m->recent = NULL;
    moves_free(m);
    mem_free(m->mem, SOLVER_MEM_SETS, m->succ, m->succ_cap * sizeof(uint64_t));
    m->succ = NULL;
    m->succ_cap = 0;
    for (int d = 0; d < 64; d++) {
        stampset_free(&m->seen[d], m->mem);
        stampset_free(&m->exits[d], m->mem);
    }
    stampset_free(&m->once, m->mem);
    if (m->entries)
        mem_free_huge(m->mem, SOLVER_MEM_SUMMARIES, m->entries, m->cap * sizeof(entry));
    if (m->arena)
        mem_free(m->mem, SOLVER_MEM_SUMMARIES, m->arena, m->arena_cap * ARENA_UNIT + 2);
    m->entries = NULL;
    m->arena = NULL;
}

entry *memo_lookup(memo *m, uint64_t key)
{
    uint64_t slot;
    return memo_probe(m, key, &slot);
}

int entries_grow(memo *m)
{
    uint64_t cap = m->cap * 2;
    entry *t = mem_alloc_huge(m->mem, SOLVER_MEM_SUMMARIES, cap * sizeof(entry));   /* both held while it moves */
    if (!t)
        return -1;
    for (uint64_t i = 0; i < m->cap; i++)
        if (memo_entries(m)[i].key) {
            uint64_t j = mix64(memo_entries(m)[i].key) & (cap - 1);
            while (t[j].key)
                j = (j + 1) & (cap - 1);
            t[j] = memo_entries(m)[i];
        }
    mem_free_huge(m->mem, SOLVER_MEM_SUMMARIES, m->entries, m->cap * sizeof(entry));
    m->entries = t;
    m->cap = cap;
    return 0;
}

__attribute__((noinline)) int check_clock(memo *m)
{
    if (m->stop && __atomic_load_n(m->stop, __ATOMIC_RELAXED))
        return SOLVER_INTERRUPTED;
    if (m->deadline > 0 && search_clock() >= m->deadline)
        return SOLVER_LIMIT_SECONDS;
    return -1;
}

int memo_best(memo *m, const tomb_state *s, int *best)
{
    return m->by_places ? places_best(m, s, best) : controls_best(m, s, best);
}
