/* bitmoves_check.c - the bit-level move generator (bitmoves.h) checked
 * against tomb_moves on the rebuilt position, at every state the summaries
 * read from the bits while solver_debug_bitmoves has it on
 * (tests/study/test_bitmoves.py). A mismatch is counted and the first few
 * are written to stderr. The study build only (study.h). */
#ifdef SOLVER_STUDY
#include <stdio.h>

#include "bitmoves.h"
#include "memo_shared.h"
#include "study.h"

int bitmoves_checking;
static uint64_t checked, mismatches;

void solver_debug_bitmoves(int on, uint64_t *n_checked, uint64_t *n_mismatches)
{
    if (on && !bitmoves_checking)
        __atomic_store_n(&checked, 0, __ATOMIC_RELAXED), __atomic_store_n(&mismatches, 0, __ATOMIC_RELAXED);
    bitmoves_checking = on;
    *n_checked = __atomic_load_n(&checked, __ATOMIC_RELAXED);
    *n_mismatches = __atomic_load_n(&mismatches, __ATOMIC_RELAXED);
}

/* Counts a check; a mismatch is written (the first ten) and counted. */
static int counted(int ok)
{
    __atomic_add_fetch(&checked, 1, __ATOMIC_RELAXED);
    if (ok)
        return 0;
    return __atomic_add_fetch(&mismatches, 1, __ATOMIC_RELAXED) <= 10;
}

/* The control state after move mv from st, the waste left out. */
static uint64_t after(const memo *m, const tomb_state *st, tomb_move mv)
{
    tomb_state ch = *st;
    tomb_apply(m->game, &ch, mv, NULL);
    ch.nwaste = 0;
    return memo_pack(m->game, &ch);
}

static int is_top_move(tomb_move mv)
{
    return TM_ACTION(mv) == SOLVER_MOVE && TM_SRC(mv) == SOLVER_PLACE_WASTE;
}

/* q_others_forced and q_top_exits against tomb.c: the same level of the
 * others' forced rule, the same states after the top card's moves (as a
 * set), other moves exactly when q_top_exits says they are played. */
void check_top(const memo *m, uint64_t q, int top, int forced, const uint64_t *exits, int nexits, int others_played)
{
    tomb_state st;
    memo_unpack(m, q, top, &st);
    tomb_move mv[MAX_MOVES];
    int n = tomb_moves(m->game, &st, mv), ntop = 0, nothers = 0;
    uint64_t top_states[MAX_MOVES];
    for (int i = 0; i < n; i++) {
        if (is_top_move(mv[i]))
            top_states[ntop++] = after(m, &st, mv[i]);
        else
            nothers++;
    }
    int ok = tomb_others_forced(m->game, &st) == forced && ntop == nexits && (nothers > 0) == (others_played != 0);
    for (int i = 0; ok && i < nexits; i++) {
        int found = 0;
        for (int j = 0; j < ntop; j++)
            found |= top_states[j] == exits[i];
        ok = found;
    }
    if (counted(ok))
        fprintf(stderr,
                "check_top: MISMATCH q=%llx top=%d forced=%d exits=%d others=%d / tomb_moves: exits=%d others=%d\n",
                (unsigned long long)q, top, forced, nexits, others_played, ntop, nothers);
}

/* q_others against tomb_moves on the full position: the same moves, in the
 * same order, those that do the same once. */
void check_others(const memo *m, uint64_t q, int top, const q_move *moves, int nmoves)
{
    tomb_state st;
    memo_unpack(m, q, top, &st);
    tomb_move mv[MAX_MOVES];
    int n = tomb_moves(m->game, &st, mv), nwant = 0;
    q_move want[MAX_MOVES];
    for (int i = 0; i < n; i++) {
        if (is_top_move(mv[i]))
            continue;
        q_move x;
        x.rank = memo_pushed(m->game, &st, q, mv[i], &x.q);
        if (!x.rank)
            x.q = after(m, &st, mv[i]);
        int dup = 0;
        for (int j = 0; j < nwant; j++)
            dup |= want[j].q == x.q && want[j].rank == x.rank;
        if (!dup)
            want[nwant++] = x;
    }
    int ok = nwant == nmoves;
    for (int i = 0; ok && i < nmoves; i++)
        ok = want[i].q == moves[i].q && want[i].rank == moves[i].rank;
    if (!counted(ok))
        return;
    fprintf(stderr, "check_others: MISMATCH q=%llx top=%d bits=%d tomb_moves=%d\n", (unsigned long long)q, top, nmoves,
            nwant);
    for (int i = 0; i < nmoves || i < nwant; i++)
        fprintf(stderr, "  %d: bits %llx/%d  tomb_moves %llx/%d\n", i,
                i < nmoves ? (unsigned long long)moves[i].q : 0ull, i < nmoves ? moves[i].rank : 0,
                i < nwant ? (unsigned long long)want[i].q : 0ull, i < nwant ? want[i].rank : 0);
}
#endif
