/* play.h - the rules of play, for a player: a deal's start, the legal moves
 * of a position, a move applied, and the moves the rules then make by
 * themselves. The one source of the rules of play for Python's Game
 * (solver/session.py) and for the page, which runs the core compiled to
 * WebAssembly; the pure-Python reference engines (solver/rules/) stay
 * independent checkers of both, and tests/test_play_core.py compares them
 * on random games of every variant.
 *
 * The search has move generators of its own, with its shortcuts, which leave
 * out moves that change nothing it keeps (a card from one empty cell to
 * another); both ask the same rule functions (csrc/rules/<family>_rules.h).
 * These list every move a player may make, each place numbered as the
 * player sees it, in the API's move record (solver_move, solver.h):
 *   - the Tomb: a cell and a corner by their index 1..; the waste, the
 *     sixes reserve (the card says which 6), the tomb and the stock 0;
 *   - Paciência Napoleão: piles 1..12, King and Ace bases by suit (0..3);
 *   - Porta-Jóias: lid 1..5, side 1..4, bottom 1..4, reserve 1..3,
 *     foundations by suit; the turned card moves from SOLVER_PLACE_STOCK;
 *     a run moves by its deepest card.
 * A turn or a deal lists the cards it turns (ncards, cards), and a jewel its
 * card: a player's view must not show them (the callers leave them out).
 * The moves come in the reference engine's order (each family's engine,
 * solver/rules/<family>.py, legal_moves), a move onto one of several cells or
 * corners once for each, in their order.
 */
#ifndef PLAY_H
#define PLAY_H

#include <stdint.h>

#include "deck2.h"
#include "solver.h"

/* More moves than any position has (Porta-Jóias with runs: deck2_ops.h). */
#define PLAY_MAX_MOVES 1024

/* Each call takes a family's number (solver_family, solver.h), its rules
 * struct and its table: tomb_rules and tomb_table for the Tomb, each other
 * family's rules and position structs for it (games/<family>.h). A number
 * of no family is an error (-1, with the reason in err where there is one),
 * never another family's rules. */

/* The start of a deal: cards (n of them, in turning order, the first turned
 * first: solver/deals.py's card_indexes) laid out as the family's
 * Position.start does (solver/families/<family>/position.py). Returns 0, or
 * -1 with a message in err if the cards cannot make a start. */
int solver_play_start(int family, const void *rules, const uint8_t *cards, int n, void *out, char *err, int errlen);

/* Every legal move, at most max of them written into out; returns how many
 * there are (more than max: only max written), or -1 if the position is
 * impossible (a message in err). */
int solver_play_moves(int family, const void *rules, const void *table, solver_move *out, int max, char *err,
                      int errlen);

/* Plays m, a move as a player names it, if it is legal: its action and
 * places (and its card, where it names a card: a move's card, or
 * SOLVER_NO_CARD for the card on top of its source) must be those of a legal
 * move, or of a move the rules accept that changes nothing the list shows
 * (a one-card pile into an empty pile). A place of a kind the game numbers
 * may be named by its kind alone (index 0: the first that takes the card), a
 * base or foundation without its suit (SOLVER_ANY_SUIT: the card's). A turn,
 * a deal, a redeal or a jewel is read by its action alone (and a jewel by
 * its place): their cards are the position's. Returns 0, changes the
 * position and writes into `played` (where it is not NULL) the move as made,
 * as solver_play_moves lists it: its card, every place by its number, the
 * cards a turn or a deal turned. Else -1, the reason in err (naming no card
 * the player cannot see), the position as it was. */
int solver_play_apply(int family, const void *rules, void *table, const solver_move *m, solver_move *played, char *err,
                      int errlen);

/* The move the rules make by themselves now, if any (1, written into out;
 * else 0; -1 for no family): in the Tomb's variants whose cells send cards
 * only home, when `enabled`, a cell card that fits a foundation (docs/web.md
 * argues it never costs a win); in the jewel box, always, the next jewel
 * into an emptied place. */
int solver_play_auto(int family, const void *rules, const void *table, int enabled, solver_move *out);

/* Cards on the foundations (won: 52, or 104 for the two-deck games); -1 for
 * an impossible position or no family. */
int solver_play_score(int family, const void *rules, const void *table);

/* The table as a player sees it, as a JSON object: the counts of the
 * face-down cards, never which they are (the stock's, the jewels'). Written
 * into out (len bytes, NUL-terminated, cut short where it does not fit);
 * returns the JSON's length (len or more: it was cut short), or -1 with the
 * reason in err for an impossible position or no family. Its fields are each
 * family's (docs/web.md, "The view"). */
int solver_play_view(int family, const void *rules, const void *table, char *out, int len, char *err, int errlen);

/* The table as the page draws it, as a JSON object (csrc/play/layout.h;
 * docs/web.md, "The layout"): its areas, each a grid of spots, each spot a
 * place with where it sits, how its cards lie, the cards a player sees, its
 * label and its name for a screen reader; and the status line's counter.
 * Written and returned as solver_play_view writes and returns the view. */
int solver_play_layout(int family, const void *rules, const void *table, char *out, int len, char *err, int errlen);

/* Paciência Napoleão: 1 while the restriction of the first rounds holds
 * (only a card that starts a base may leave the piles), else 0; 0 for the
 * other families, -1 for no family. */
int solver_play_restricted(int family, const void *rules, const void *table);

/* A position's key, written into out (len bytes; returns its length, len or
 * more: it was cut short), or -1 with the reason in err for an impossible
 * position or no family: two positions of a family have the same key only
 * when they are the same, every place and every card. `canonical` (1): the
 * places a player cannot tell apart are compared by what they hold, not by
 * where (the Tomb's cells and sixes reserve as sets of cards, its corners
 * and tomb by their counts: which card of a rank sits on which corner
 * changes nothing that can follow); the blind games count repetitions with
 * it. */
int solver_play_key(int family, const void *rules, const void *table, int canonical, uint8_t *out, int len, char *err,
                    int errlen);

/* The blind players of docs/winnability.md, players who never see the
 * stock's order (solver/blind.py): */
#define SOLVER_BLIND_SIMPLE 0  /* every card home it can; parks the top waste card only to free the one under it
                                  when that one would then go home; else turns or redeals */
#define SOLVER_BLIND_CAREFUL 1 /* the same, and parks the top waste card a foundation wants within `within`
                                  ranks, keeping the last empty cell where keep_last_cell; a 6 goes to the
                                  sixes reserve */
#define SOLVER_BLIND_WITHIN 3  /* the careful player's `within` by default */
#define SOLVER_KEY_ROOM 1024   /* more bytes than any family's key (solver_play_key) */

/* The choice of the blind player `strategy` (within, keep_last_cell: the
 * careful player's; keep_last_cell -1 for the variant's default, kept where
 * the waste is turned over again) among the n moves of offered, a list as
 * solver_play_moves makes it, perhaps with some left out: its index, or -1
 * where the player would stop; -2 with the reason in err (a family with no
 * blind player, no such strategy, an impossible position). The player reads
 * of the table only what a player sees. */
int solver_play_choose(int family, const void *rules, const void *table, int strategy, int within, int keep_last_cell,
                       const solver_move *offered, int n, char *err, int errlen);

/* A blind game of `strategy` (as solver_play_choose) from table to its end:
 * until no move is offered, the player stops, or max_moves moves. A move
 * that would bring back a position of the game (by its canonical key) is
 * not offered, so every game ends. Leaves the last position in table,
 * writes the moves as made (as solver_play_apply writes them) into line (at
 * most cap of them) and how many positions the game went through into
 * *positions; returns the number of moves, or -1 with the reason in err. */
int solver_play_blind(int family, const void *rules, void *table, int strategy, int within, int keep_last_cell,
                      int max_moves, solver_move *line, int cap, int *positions, char *err, int errlen);

/* How many ranks a foundation must still build before it takes card (0: it
 * fits now; -1: no foundation will take it), as a player counts it; -2 for
 * a family whose players do not count so, an impossible position or no
 * card. */
int solver_play_distance(int family, const void *rules, const void *table, int card);

/* The words of a move (csrc/play/vocabulary.c): an action's name
 * (SOLVER_TURN: "turn"...) and a kind of place's (SOLVER_PLACE_CELL:
 * "cell"...), NULL for none; how a kind's places are numbered and whether it
 * is a foundation (1, else 0; -1 for no kind); the i-th kind of place of a
 * family (i from 0; -1 past its last, or for no family); and the kind a
 * family names so (-1: it has no place of that name). */
#define SOLVER_NUMBERED_NONE 0       /* one place of its kind: "waste" */
#define SOLVER_NUMBERED_INDEX 1      /* by its number, 1..: "pile:7" */
#define SOLVER_NUMBERED_SUIT 2       /* by its suit: "kbase:H" */
#define SOLVER_NUMBERED_FOR_PLAYER 3 /* by its number for a player ("cell:2"); by its kind alone in the
                                        solution format, whose rules take the first that fits */
const char *solver_action_name(int action);
const char *solver_place_name(int kind);
int solver_place_numbering(int kind);
int solver_place_home(int kind);
int solver_family_place(int family, int i);
int solver_place_kind(int family, const char *name);

#endif
