/* study.h - the study build's switches (make study; docs/search.md, "The
 * study build"): counters and cross-checks that tests/study/ and the studies
 * of bench/ read. They exist only where the core is compiled with
 * -DSOLVER_STUDY (solver/_build.py --study), never in the shipped module or
 * in core.wasm: one of them makes a verdict mean nothing. Each keeps
 * process-global state: one search at a time.
 */
#ifndef STUDY_H
#define STUDY_H

#include <stdint.h>

/* For the tests: while `on`, the summaries by control states
 * check the moves they read from a control state's bits against the
 * rules' move generator, at every state they read (slow). Writes the
 * states checked and those that differed since it was last turned on. */
void solver_debug_bitmoves(int on, uint64_t *checked, uint64_t *mismatches);
/* For studies of Paciência Napoleão (docs/winnability.md): while `on`, the
 * searches count each redeal into the last pass and the distinct last-pass
 * starts they make; with on = 2 they also leave every last pass unexplored
 * (its positions have no moves: the verdict means nothing then), so that a
 * complete search counts every last-pass start the first passes can make.
 * Writes both counts, since it was last turned on. One search at a time: the
 * count is not kept per search. */
void solver_debug_last_passes(int on, uint64_t *redeals, uint64_t *distinct);
/* For studies of the summaries by control states (docs/search.md, "The
 * summaries"): while `on`, every state a summary expands is counted, and
 * among them the distinct control states, the distinct (control state, top
 * rank) pairs and the distinct (summary's entry, control state) pairs.
 * With on = 2, each summary by control states is worked out together with
 * those of every other rank that could be on top of the same control state
 * (a rank with a card in the waste), as one closure per control state for
 * every top rank would have to (the verdict stays; the work grows). Writes
 * those four counts since it was last turned on, in that order. One search
 * at a time, as solver_debug_last_passes. */
void solver_debug_summary_sharing(int on, uint64_t *counts);

#endif
