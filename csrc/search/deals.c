/* deals.c - PySolFC's shuffles of a numbered deal, in the core: a batch
 * makes one a deal (the shuffle in Python took a fifth of what a 3-card
 * deal costs besides its search), and the page, which runs the core
 * compiled to WebAssembly, deals every number as the library does.
 * solver/deals.py (_lc_shuffle, _mt_shuffle, card_indexes) is the
 * reference; the tests compare the two. */
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

/* The Mersenne Twister of Python's random.Random, seeded as it seeds itself
 * with a whole number (init_by_array over the number's 32-bit words, the
 * lowest first). */
enum { MT_N = 624, MT_M = 397 };

typedef struct {
    uint32_t mt[MT_N];
    int i;
} mt_state;

static void mt_init(mt_state *s, uint32_t seed)
{
    s->mt[0] = seed;
    for (int i = 1; i < MT_N; i++)
        s->mt[i] = 1812433253u * (s->mt[i - 1] ^ (s->mt[i - 1] >> 30)) + (uint32_t)i;
    s->i = MT_N;
}

static void mt_seed(mt_state *s, const uint32_t *key, int nkey)
{
    mt_init(s, 19650218u);
    uint32_t *mt = s->mt;
    int i = 1, j = 0;
    for (int k = MT_N > nkey ? MT_N : nkey; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525u)) + key[j] + (uint32_t)j;
        i++, j++;
        if (i >= MT_N)
            mt[0] = mt[MT_N - 1], i = 1;
        if (j >= nkey)
            j = 0;
    }
    for (int k = MT_N - 1; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941u)) - (uint32_t)i;
        i++;
        if (i >= MT_N)
            mt[0] = mt[MT_N - 1], i = 1;
    }
    mt[0] = 0x80000000u;
}

static uint32_t mt_next(mt_state *s)
{
    if (s->i >= MT_N) {
        for (int k = 0; k < MT_N; k++) {
            const uint32_t y = (s->mt[k] & 0x80000000u) | (s->mt[(k + 1) % MT_N] & 0x7fffffffu);
            s->mt[k] = s->mt[(k + MT_M) % MT_N] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
        }
        s->i = 0;
    }
    uint32_t y = s->mt[s->i++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    return y ^ (y >> 18);
}

/* random.random(): 53 random bits in [0, 1). */
static double mt_random(mt_state *s)
{
    const uint32_t a = mt_next(s) >> 5, b = mt_next(s) >> 6;
    return ((double)a * 67108864.0 + (double)b) * (1.0 / 9007199254740992.0);
}

/* The number's decimal digits into 32-bit words, the lowest first; the
 * count of words (at least 1), or -1 past three words or for a character
 * that is not a digit. */
static int number_words(const char *text, uint32_t *words)
{
    int n = 1;
    words[0] = words[1] = words[2] = 0;
    for (const char *c = text; *c; c++) {
        if (*c < '0' || *c > '9')
            return -1;
        uint64_t carry = (uint64_t)(*c - '0');
        for (int w = 0; w < 3; w++) {
            const uint64_t v = (uint64_t)words[w] * 10u + carry;
            words[w] = (uint32_t)v;
            carry = v >> 32;
        }
        if (carry)
            return -1;
    }
    while (n < 3 && (words[2] || (n < 2 && words[1])))
        n++;
    return n;
}

/* Is the number (three words) within 1..10^20? 10^20 = 0x5_6BC75E2D_63100000. */
static int in_range(const uint32_t *w)
{
    if (!w[0] && !w[1] && !w[2])
        return 0;
    if (w[2] != 0x5u)
        return w[2] < 0x5u;
    if (w[1] != 0x6bc75e2du)
        return w[1] < 0x6bc75e2du;
    return w[0] <= 0x63100000u;
}

int solver_deal(const char *number, int decks, uint8_t *out)
{
    uint32_t words[3];
    const int nwords = number_words(number, words);
    if (nwords < 0 || !number[0] || !in_range(words) || (decks != 1 && decks != 2))
        return -1;
    const int n = 52 * decks;
    uint8_t fresh[SOLVER_LC_MAX_CARDS];
    const int lc = nwords == 1 && words[0] < 32000;
    for (int i = 0; i < n; i++)
        fresh[i] = (uint8_t)(i % 52);
    if (lc && decks == 1) /* rank by rank, each in clubs, diamonds, hearts, spades: FreeCell's order */
        for (int i = 0; i < 52; i++)
            fresh[i] = (uint8_t)("\0\3\2\1"[i % 4] * 13 + i / 4);
    if (lc) {
        solver_lc_deal(words[0], fresh, n, out);
        return n;
    }
    mt_state s;
    mt_seed(&s, words, nwords);
    for (int i = n - 1; i > 0; i--) {
        const int j = (int)(mt_random(&s) * (double)(i + 1));
        const uint8_t t = fresh[i];
        fresh[i] = fresh[j];
        fresh[j] = t;
    }
    for (int i = 0; i < n; i++)
        out[i] = fresh[n - 1 - i];
    return n;
}
