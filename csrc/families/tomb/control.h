/* control.h - control states: everything of a position but the waste.
 *
 * A control state packs in 42 bits (memo_pack): the stock height (bits
 * 36-41), the cells' ranks sorted (bits 20-35, 4 a cell, the smallest
 * highest, 0 for empty), the reserve's 6s (bits 17-19), the corners' cards
 * sorted (bits 5-16, 3 a corner, the smallest highest) and the tomb's cards
 * (bits 0-4). The helpers here read and change those fields in place.
 */
#ifndef CONTROL_H
#define CONTROL_H

#include <stdint.h>
#include "tomb_state.h"
#include "tomb_rules.h"

#define Q_STOCK_SHIFT 36
#define Q_CELLS_SHIFT 20
#define Q_RESERVE_SHIFT 17
#define Q_CORNERS_SHIFT 5
#define Q_TOMB_MASK 31u

/* By the corners' 12 bits: the ranks that fit a corner (bit 7 + k for each
 * corner showing k < 7) and the cards on the corners (control_tables fills
 * them). Read for every state a summary meets. */
extern uint16_t corner_fits[1 << 12];
extern uint8_t corner_cards[1 << 12];
void control_tables(void);

static inline int q_stock(uint64_t q)
{
    return (int)(q >> Q_STOCK_SHIFT);
}
static inline unsigned q_reserve(uint64_t q)
{
    return (unsigned)(q >> Q_RESERVE_SHIFT) & 7u;
}
static inline unsigned q_tomb(uint64_t q)
{
    return (unsigned)q & Q_TOMB_MASK;
}

/* The rank in cell field i (0: the smallest; 0 for an empty cell). */
static inline unsigned q_cell(uint64_t q, int i)
{
    return (unsigned)(q >> (Q_CELLS_SHIFT + 4 * (3 - i))) & 15u;
}

/* The cards on corner field i (0: the corner with the fewest). */
static inline unsigned q_corner(uint64_t q, int i)
{
    return (unsigned)(q >> (Q_CORNERS_SHIFT + 3 * (3 - i))) & 7u;
}

/* Writes four values of `bits` bits from bit `shift` up, sorted, the smallest highest. */
static inline uint64_t q_set4(uint64_t q, unsigned *v, int shift, int bits)
{
    sort4(v);
    q &= ~((((uint64_t)1 << (4 * bits)) - 1) << shift);
    for (int i = 0; i < 4; i++)
        q |= (uint64_t)v[i] << (shift + bits * (3 - i));
    return q;
}

static inline uint64_t q_set_cells(uint64_t q, unsigned *cells)
{
    return q_set4(q, cells, Q_CELLS_SHIFT, 4);
}

static inline uint64_t q_set_corners(uint64_t q, unsigned *corners)
{
    return q_set4(q, corners, Q_CORNERS_SHIFT, 3);
}

/* The cards home: the tomb's and the corners'. */
static inline int q_score(uint64_t q)
{
    return (int)q_tomb(q) + corner_cards[(q >> Q_CORNERS_SHIFT) & 4095];
}

/* The ranks that fit a foundation (bit r): the tomb's next, each unfinished corner's. */
static inline unsigned q_fits(uint64_t q)
{
    int wants = tomb_wants((int)q_tomb(q));
    return (wants ? 1u << wants : 0) | corner_fits[(q >> Q_CORNERS_SHIFT) & 4095];
}

/* The foundation a card of rank x that fits goes to. */
static inline int q_home_place(uint64_t q, int x)
{
    return tomb_wants((int)q_tomb(q)) == x ? SOLVER_PLACE_TOMB : SOLVER_PLACE_CORNER;
}

/* q with a card of rank x gone home (it fits). */
static inline uint64_t q_home(uint64_t q, int x)
{
    if (q_home_place(q, x) == SOLVER_PLACE_TOMB)
        return q + 1;
    /* The last (largest) of the sorted corners that takes x: one more keeps
     * them sorted, as the next one wants a higher rank. */
    for (int i = 3; i >= 0; i--)
        if (tomb_corner_wants((int)q_corner(q, i)) == x)
            return q + (1ull << (Q_CORNERS_SHIFT + 3 * (3 - i)));
    return q;   /* not reached: x fits */
}

/* q with one 6 more in the reserve, or one fewer in the stock. */
static inline uint64_t q_to_reserve(uint64_t q)
{
    return q + (1ull << Q_RESERVE_SHIFT);
}
static inline uint64_t q_turned(uint64_t q)
{
    return q - (1ull << Q_STOCK_SHIFT);
}

#endif
