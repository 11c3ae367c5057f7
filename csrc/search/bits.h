/* bits.h - two small tools every key and every table uses: splitmix64's
 * finaliser, which spreads a word's bits (the tables' hashes), and a bit
 * writer (the families' keys). */
#ifndef BITS_H
#define BITS_H

#include <stdint.h>

/* splitmix64's finaliser: every bit of h moves every bit of the result. */
static inline uint64_t mix64(uint64_t h)
{
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebull;
    h ^= h >> 31;
    return h;
}

/* Writes the low `bits` bits (1..64) of value into the zeroed key at bit
 * *at, and moves *at on. */
static inline void put_bits(uint64_t *key, int *at, uint64_t value, int bits)
{
    if (bits < 64)
        value &= (1ull << bits) - 1;
    int w = *at >> 6, o = *at & 63;
    key[w] |= value << o;
    if (o && o + bits > 64)
        key[w + 1] |= value >> (64 - o);
    *at += bits;
}

#endif
