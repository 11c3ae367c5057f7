/* key.h - the pieces of a position's key (solver_play_key, play.h), for the
 * families' play files: every place written with its count first, so that
 * two positions write the same bytes only when they are the same. Bytes
 * that do not fit are counted, as snprintf counts them. The families call
 * these on a checked position, where every count and card is 0..255. */
#ifndef KEY_H
#define KEY_H

#include <stdint.h>

typedef struct key_text {
    uint8_t *out;
    int room; /* bytes of out */
    int n;    /* bytes written, or that would have been */
} key_text;

/* One number (a count, a card, a redeal): 0..255 in a checked position. */
static inline void key_int(key_text *k, int v)
{
    if (k->n < k->room)
        k->out[k->n] = (uint8_t)v;
    k->n++;
}

/* A place of n cards: n, then the cards. */
static inline void key_cards(key_text *k, const uint8_t *cards, int n)
{
    key_int(k, n);
    for (int i = 0; i < n; i++)
        key_int(k, cards[i]);
}

/* n numbers, each as key_int. */
static inline void key_ints(key_text *k, const int *v, int n)
{
    for (int i = 0; i < n; i++)
        key_int(k, v[i]);
}

#endif
