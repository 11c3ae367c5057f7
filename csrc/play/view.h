/* view.h - the pieces of a player's view as JSON (solver_play_view,
 * play.h), for the families' play files: text appended to a buffer that
 * counts what did not fit, as snprintf does. */
#ifndef VIEW_H
#define VIEW_H

#include <stdarg.h>
#include <stdio.h>

#include "cardnames.h"

typedef struct view_text {
    char *out;
    int room; /* bytes of out, its terminating NUL included */
    int n;    /* bytes written, or that would have been */
} view_text;

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 3)))
#endif
static inline void
view_put(view_text *v, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int left = v->room - v->n;
    int k = vsnprintf(left > 0 ? v->out + v->n : NULL, left > 0 ? (size_t)left : 0, fmt, ap);
    va_end(ap);
    if (k > 0)
        v->n += k;
}

/* A card by its name ("JD"), or null for none (c outside 0..51). */
static inline void view_card(view_text *v, int c)
{
    if (c < 0 || c > 51)
        view_put(v, "null");
    else
        view_put(v, "\"%c%c\"", CARD_RANKS[c % 13], CARD_SUITS[c / 13]);
}

/* "top": <the last of n cards, or null>, "count": n */
static inline void view_top_fields(view_text *v, const uint8_t *cards, int n)
{
    view_put(v, "\"top\": ");
    view_card(v, n > 0 ? cards[n - 1] : -1);
    view_put(v, ", \"count\": %d", n);
}

/* {"count": n, "top": <card, or null>}: a base or foundation by its count */
static inline void view_count(view_text *v, int n, int card)
{
    view_put(v, "{\"count\": %d, \"top\": ", n);
    view_card(v, card);
    view_put(v, "}");
}

/* {"top": ..., "count": n} */
static inline void view_top(view_text *v, const uint8_t *cards, int n)
{
    view_put(v, "{");
    view_top_fields(v, cards, n);
    view_put(v, "}");
}

/* A list of n cards, bottom first (null for a place with none). */
static inline void view_cards(view_text *v, const uint8_t *cards, int n)
{
    view_put(v, "[");
    for (int i = 0; i < n; i++) {
        view_put(v, i ? ", " : "");
        view_card(v, cards[i]);
    }
    view_put(v, "]");
}

#endif
