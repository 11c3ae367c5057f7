/* layout.h - the pieces of a table's layout (solver_play_layout, play.h),
 * for the families' play files: where each place sits, how its cards lie,
 * and its words, written as JSON for the page's one renderer (docs/web.md,
 * "The layout"). A family writes its areas and their spots; the page draws
 * them and knows no family.
 *
 *   {"flow": "column", "areas": [{"columns": 5, "step": 1, "spots": [...]},
 *    ...], "status": "Tomb: wants a 6 · round 1 of 4"}
 *
 * Every word here is the player's English, written once. */
#ifndef LAYOUT_H
#define LAYOUT_H

#include <stdarg.h>
#include <stdio.h>

#include "cardnames.h"
#include "view.h"

/* A place as the page draws it. Fields left 0 or NULL are left out of the
 * JSON (an empty key: a thing drawn, not a place one can choose). */
typedef struct {
    char key[24];                /* unique on the table; "@deck" is the stock's action; "": not a place */
    char place[24];              /* the place the moves name, if not key ("foundation:C" for its second) */
    int row, col, span;          /* in its area's grid, 1-based; 0: the next free cell */
    const char *fan;             /* "stack" (its top card shown), "right" or "down" (all shown) */
    const uint8_t *cards;        /* its cards, bottom first, face up (NO card: an empty place) */
    int ncards;
    int count;                   /* the cards it holds (a badge shows more than one) */
    int back;                    /* face down: a back while it holds any */
    const char *empty;           /* the text of its empty slot */
    int takes;                   /* the card it takes next, where two places share a name; else -1 */
    int home;                    /* a foundation: a card there is home */
    int outline;                 /* the place the game is about (the tomb) */
    const char *action;          /* the stock's: the action a press asks for ("turn", "deal") */
    char label[80];              /* shown under it */
    char name[240];              /* its name for a screen reader */
} layout_spot;

/* The words of a card ("Queen of hearts", "10 of clubs"). */
static inline const char *layout_card(char *buf, size_t size, int c)
{
    static const char *const RANK[] = { "Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King" };
    static const char *const SUIT[] = { "clubs", "spades", "hearts", "diamonds" };
    if (c < 0 || c > 51)
        snprintf(buf, size, "no card");
    else
        snprintf(buf, size, "%s of %s", RANK[c % 13], SUIT[c / 13]);
    return buf;
}

/* A rank with its article: "an Ace", "a 6", "an 8", "a King" (rank 1..13). */
static inline const char *layout_rank(int rank)
{
    static const char *const A[] = { "an Ace", "a 2", "a 3",  "a 4",    "a 5",     "a 6",   "a 7",
                                     "an 8",   "a 9", "a 10", "a Jack", "a Queen", "a King" };
    return rank >= 1 && rank <= 13 ? A[rank - 1] : "no card";
}

/* The name of a suit, 0..3 ("hearts"). */
static inline const char *layout_suit(int suit)
{
    static const char *const SUIT[] = { "clubs", "spades", "hearts", "diamonds" };
    return suit >= 0 && suit <= 3 ? SUIT[suit] : "?";
}

/* "1 card", "3 cards" */
static inline const char *layout_cards(char *buf, size_t size, int n)
{
    snprintf(buf, size, "%d card%s", n, n == 1 ? "" : "s");
    return buf;
}

/* What a pile of n cards holds: "empty", or "3 cards, 9 of hearts on top". */
static inline const char *layout_holding(char *buf, size_t size, int n, int top)
{
    char count[24], card[32];
    if (n <= 0)
        snprintf(buf, size, "empty");
    else
        snprintf(buf, size, "%s, %s on top", layout_cards(count, sizeof count, n), layout_card(card, sizeof card, top));
    return buf;
}

#if defined(__GNUC__) || defined(__clang__)
#define LAYOUT_PRINTF __attribute__((format(printf, 2, 3)))
#else
#define LAYOUT_PRINTF
#endif

/* s->label and s->name, printf-style. */
LAYOUT_PRINTF static inline void layout_label(layout_spot *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->label, sizeof s->label, fmt, ap);
    va_end(ap);
}

LAYOUT_PRINTF static inline void layout_name(layout_spot *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->name, sizeof s->name, fmt, ap);
    va_end(ap);
}

/* A spot with nothing in it yet: a stack, no card it takes; its key as
 * printf writes it ("" for none). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 1, 2)))
#endif
static inline layout_spot
layout_new(const char *fmt, ...)
{
    layout_spot s = { 0 };
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s.key, sizeof s.key, fmt, ap);
    va_end(ap);
    s.fan = "stack";
    s.takes = -1;
    return s;
}

/* The layout's start: how its areas follow one another, "row" or "column". */
static inline void layout_begin(view_text *v, const char *flow)
{
    view_put(v, "{\"flow\": \"%s\", \"areas\": [", flow);
}

/* An area: a grid of `columns`, each `step` cards wide (0: as wide as its
 * spots); on a narrow screen `narrow` columns (0: the same) and the
 * `order`-th area (0: its own place). first: the layout's first area. */
static inline void layout_area(view_text *v, int first, int columns, double step, int narrow, int order)
{
    view_put(v, "%s{\"columns\": %d, \"step\": %g", first ? "" : "]}, ", columns, step);
    if (narrow)
        view_put(v, ", \"narrow\": %d", narrow);
    if (order)
        view_put(v, ", \"order\": %d", order);
    view_put(v, ", \"spots\": [");
}

/* A spot of the current area; first: its first. */
static inline void layout_put(view_text *v, int first, const layout_spot *s)
{
    view_put(v, first ? "{" : ", {");
    if (s->key[0])
        view_put(v, "\"key\": \"%s\", \"place\": \"%s\", ", s->key, s->place[0] ? s->place : s->key);
    if (s->row)
        view_put(v, "\"at\": [%d, %d], ", s->row, s->col);
    if (s->span > 1)
        view_put(v, "\"span\": %d, ", s->span);
    int stack = s->fan[0] == 's', shown = stack && s->ncards > 0 ? 1 : s->ncards;
    view_put(v, "\"fan\": \"%s\", \"cards\": ", s->fan);
    view_cards(v, s->cards + s->ncards - shown, shown);
    view_put(v, ", \"count\": %d", s->count);
    if (s->back)
        view_put(v, ", \"back\": true");
    if (s->takes >= 0) {
        view_put(v, ", \"takes\": ");
        view_card(v, s->takes);
    }
    if (s->home)
        view_put(v, ", \"home\": true");
    if (s->outline)
        view_put(v, ", \"outline\": true");
    if (s->action)
        view_put(v, ", \"action\": \"%s\"", s->action);
    view_put(v, ", \"empty\": \"%s\", \"label\": \"%s\", \"name\": \"%s\"}", s->empty ? s->empty : "", s->label,
             s->name);
}

/* The layout's end: the status line's counter. */
static inline void layout_end(view_text *v, const char *status)
{
    view_put(v, "]}], \"status\": \"%s\"}", status);
}

#endif
