/* control.c - control states packed and unpacked (control.h), and the
 * corners' tables. */
#include <string.h>

#include "control.h"
#include "memo.h"

uint16_t corner_fits[1 << 12];
uint8_t corner_cards[1 << 12];

void control_tables(void)
{
    for (unsigned f = 0; f < (1u << 12); f++) {
        unsigned fits = 0, cards = 0;
        for (int i = 0; i < 4; i++) {
            unsigned k = (f >> (3 * i)) & 7u;
            int wants = tomb_corner_wants((int)k);
            fits |= wants ? 1u << wants : 0;
            cards += k;
        }
        corner_fits[f] = (uint16_t)fits;
        corner_cards[f] = (uint8_t)cards;
    }
}

/* nstock 6 | cells 4x4 | nreserve 3 | corners 4x3 | tomb 5 = 42 bits. */
uint64_t memo_pack(const tomb_game *g, const tomb_state *s)
{
    unsigned cells[SOLVER_MAX_CELLS], corners[4];
    for (int i = 0; i < SOLVER_MAX_CELLS; i++)
        cells[i] = (i < g->rules.cells && s->cells[i] != SOLVER_NO_CARD) ? (unsigned)RANK(s->cells[i]) : 0u;
    sort4(cells);
    for (int i = 0; i < 4; i++)
        corners[i] = s->corners[i];
    sort4(corners);
    uint64_t q = s->nstock;
    for (int i = 0; i < SOLVER_MAX_CELLS; i++)
        q = (q << 4) | cells[i];
    q = (q << 3) | s->nreserve;
    for (int i = 0; i < 4; i++)
        q = (q << 3) | corners[i];
    q = (q << 5) | s->tomb;
    return q;
}

/* The state of control state q with one card of rank `top` (0: none) on the
 * waste. Suits do not matter here (the suit symmetry): clubs stand for every
 * card in the cells, the reserve and on the waste; the stock is the real one. */
void memo_unpack(const memo *m, uint64_t q, int top, tomb_state *s)
{
    memset(s, 0, sizeof *s);
    s->tomb = q & 31;
    q >>= 5;
    for (int i = 3; i >= 0; i--) {
        s->corners[i] = q & 7;
        q >>= 3;
    }
    s->nreserve = q & 7;
    q >>= 3;
    for (int i = 0; i < s->nreserve; i++)
        s->reserve[i] = 5;   /* 6 of clubs */
    /* The cell cards go to the first cells, in order of rank (hand-home
     * tries them in this order: docs/search.md): with fewer than four cells
     * the rules have only those, and memo_pack writes the others empty. */
    int n = 0;
    for (int i = 0; i < SOLVER_MAX_CELLS; i++) {
        unsigned r = (unsigned)(q >> (4 * (3 - i))) & 15u;   /* the smallest first */
        s->cells[i] = SOLVER_NO_CARD;
        if (r)
            s->cells[n++] = (uint8_t)(r - 1);
    }
    q >>= 16;
    s->nstock = (uint8_t)q;
    memcpy(s->stock, m->stock, s->nstock);
    if (top) {
        s->waste[0] = (uint8_t)(top - 1);
        s->nwaste = 1;
    }
}
