/* deals.c - a deal numbered below 32,000 shuffled in the core: a batch
 * makes one a deal, and the shuffle in Python took a fifth of what a
 * 3-card deal costs besides its search. solver/deals.py (_lc_shuffle,
 * card_indexes) is the reference; the tests compare the two on every
 * such number. */
#include <string.h>

#include "solver.h"

void solver_lc_deal(uint32_t number, const uint8_t *fresh, int n, uint8_t *out)
{
    uint8_t a[SOLVER_LC_MAX_CARDS];
    uint64_t state = number;
    memcpy(a, fresh, (size_t)n);
    for (int i = n - 1; i > 0; i--) {
        state = (state * 214013u + 2531011u) & 0x1ffffffffull;
        const int j = (int)((state >> 16) & 0x7fff) % (i + 1);
        const uint8_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
    for (int i = 0; i < n; i++)
        out[i] = a[n - 1 - i];
}
