/* linetext.c - a line's moves and a search's stats as the solution
 * format's JSON text (docs/rules/solution-format.md), written by the core:
 * a batch stores one line a deal, and this is where its time would
 * otherwise go. The names are those of solver/core.py (_PLACES) and
 * solver/cards.py; the tests check that these texts and those of
 * solver.notation.Move.text and solver.api.Stats.text agree. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cardnames.h"
#include "handle.h"

static const char *const PLACE_NAMES[] = {
    [SOLVER_PLACE_STOCK] = "stock",
    [SOLVER_PLACE_WASTE] = "waste",
    [SOLVER_PLACE_CELL] = "cell",
    [SOLVER_PLACE_RESERVE] = "reserve",
    [SOLVER_PLACE_CORNER] = "corner",
    [SOLVER_PLACE_TOMB] = "tomb",
    [SOLVER_PLACE_PILE] = "pile",
    [SOLVER_PLACE_KBASE] = "kbase",
    [SOLVER_PLACE_ABASE] = "abase",
    [SOLVER_PLACE_LID] = "lid",
    [SOLVER_PLACE_SIDE] = "side",
    [SOLVER_PLACE_BOTTOM] = "bottom",
    [SOLVER_PLACE_RESERVE_PILE] = "reserve",
    [SOLVER_PLACE_FOUNDATION] = "foundation",
};
#define N_PLACES ((int)(sizeof PLACE_NAMES / sizeof PLACE_NAMES[0]))

/* A text being written into buf; len counts past its end too, so that the
 * caller learns the size it needs. */
typedef struct {
    char *buf;
    int len, size;
} text;

static void put(text *t, const char *s, int n)
{
    if (t->len + n < t->size)
        memcpy(t->buf + t->len, s, (size_t)n);
    t->len += n;
}

#define PUT(t, literal) put((t), (literal), (int)sizeof(literal) - 1)

static void put_str(text *t, const char *s)
{
    put(t, s, (int)strlen(s));
}

/* A card as a JSON string: rank then suit (cards.py); -1 if it is no card. */
static int put_card(text *t, int card)
{
    if (card < 0 || card >= 52)
        return -1;
    char c[4] = { '"', CARD_RANKS[card % 13], CARD_SUITS[card / 13], '"' };
    put(t, c, 4);
    return 0;
}

/* A place as a JSON string: its name alone, with its number (pile:3), or
 * with its suit (kbase:H); -1 if it is no place. */
static int put_place(text *t, int kind, int index)
{
    if (kind < 0 || kind >= N_PLACES || !PLACE_NAMES[kind])
        return -1;
    PUT(t, "\"");
    put_str(t, PLACE_NAMES[kind]);
    switch (kind) {
    case SOLVER_PLACE_KBASE:
    case SOLVER_PLACE_ABASE:
    case SOLVER_PLACE_FOUNDATION: {
        char suit[2] = { ':', CARD_SUITS[index & 3] };
        put(t, suit, 2);
        break;
    }
    case SOLVER_PLACE_PILE:
    case SOLVER_PLACE_LID:
    case SOLVER_PLACE_SIDE:
    case SOLVER_PLACE_BOTTOM:
    case SOLVER_PLACE_RESERVE_PILE: {
        char num[16];
        int n = snprintf(num, sizeof num, ":%d", index);
        put(t, num, n);
        break;
    }
    default: break;
    }
    PUT(t, "\"");
    return 0;
}

/* One move's object; -1 if it is no move of the format. */
static int put_move(text *t, const solver_move *m)
{
    switch (m->action) {
    case SOLVER_TURN:
    case SOLVER_DEAL:
        if (m->action == SOLVER_TURN)
            PUT(t, "{\"action\": \"turn\", \"cards\": [");
        else
            PUT(t, "{\"action\": \"deal\", \"cards\": [");
        for (int i = 0; i < m->ncards && i < 52; i++) {
            if (i)
                PUT(t, ", ");
            if (put_card(t, m->cards[i]) < 0)
                return -1;
        }
        PUT(t, "]}");
        return 0;
    case SOLVER_REDEAL: PUT(t, "{\"action\": \"redeal\"}"); return 0;
    case SOLVER_JEWEL_FILL:
    case SOLVER_MOVE:
        if (m->action == SOLVER_JEWEL_FILL)
            PUT(t, "{\"action\": \"jewel\", \"card\": ");
        else
            PUT(t, "{\"action\": \"move\", \"card\": ");
        if (put_card(t, m->card) < 0)
            return -1;
        if (m->action == SOLVER_MOVE) {
            PUT(t, ", \"from\": ");
            if (put_place(t, m->src, m->src_index) < 0)
                return -1;
        }
        PUT(t, ", \"to\": ");
        if (put_place(t, m->dst, m->dst_index) < 0)
            return -1;
        PUT(t, "}");
        return 0;
    default: return -1;
    }
}

int solver_line_text(const solver *s, int which, char *out, int size)
{
    text t = { out, 0, size };
    int n = s->driver->line_length(s, which);
    for (int i = 0; i < n; i++) {
        solver_move m;
        if (s->driver->line_move(s, which, i, &m) < 0)
            return -1;
        if (i)
            PUT(&t, ", ");
        if (put_move(&t, &m) < 0)
            return -1;
    }
    if (t.len < size)
        out[t.len] = 0;
    return t.len;
}

static const char *const MEMORY_PARTS[SOLVER_MEM_PARTS] = {
    [SOLVER_MEM_TABLE] = "table", [SOLVER_MEM_SUMMARIES] = "summaries", [SOLVER_MEM_CACHES] = "caches",
    [SOLVER_MEM_STACK] = "stack", [SOLVER_MEM_SETS] = "sets",           [SOLVER_MEM_LINES] = "lines",
};

const char *solver_memory_part(int part)
{
    return part >= 0 && part < SOLVER_MEM_PARTS ? MEMORY_PARTS[part] : NULL;
}

static void put_u64(text *t, uint64_t n)
{
    char num[24];
    put(t, num, snprintf(num, sizeof num, "%" PRIu64, n));
}

/* seconds as Python writes round(seconds, 6): printf's %.6f rounds the
 * exact value to nearest, ties to even, as round() does; below 10^9 the
 * rounded value has at most 15 significant digits, so its shortest repr
 * is those digits, without trailing zeros but one after the point, and
 * in Python's exponent form below 10^-4 (5e-05, 1.2e-05, 1e-06).
 * -1 outside 0 .. 10^9. */
static int put_seconds(text *t, double seconds)
{
    if (!(seconds >= 0 && seconds < 1e9))
        return -1;
    char d[32];
    int n = snprintf(d, sizeof d, "%.6f", seconds);
    if (n >= 8 && memcmp(d, "0.0000", 6) == 0 && (d[6] != '0' || d[7] != '0')) {
        char e[8];
        int k = 0;
        if (d[6] != '0') {          /* x.ye-05 */
            e[k++] = d[6];
            if (d[7] != '0') {
                e[k++] = '.';
                e[k++] = d[7];
            }
            memcpy(e + k, "e-05", 4);
        } else {                    /* ye-06 */
            e[k++] = d[7];
            memcpy(e + k, "e-06", 4);
        }
        put(t, e, k + 4);
        return 0;
    }
    while (d[n - 1] == '0' && d[n - 2] != '.')
        n--;
    put(t, d, n);
    return 0;
}

/* The parts held, largest first (ties in the order of SOLVER_MEM_*, as
 * Python's stable sort leaves them), none empty, as a JSON object. */
static void put_parts(text *t, const solver_stats *st)
{
    int order[SOLVER_MEM_PARTS], n = 0;
    for (int i = 0; i < SOLVER_MEM_PARTS; i++) {
        if (!st->part_bytes[i])
            continue;
        int j = n++;
        for (; j > 0 && st->part_bytes[order[j - 1]] < st->part_bytes[i]; j--)
            order[j] = order[j - 1];
        order[j] = i;
    }
    PUT(t, "{");
    for (int k = 0; k < n; k++) {
        if (k)
            PUT(t, ", ");
        PUT(t, "\"");
        put_str(t, MEMORY_PARTS[order[k]]);
        PUT(t, "\": ");
        put_u64(t, st->part_bytes[order[k]]);
    }
    PUT(t, "}");
}

int solver_stats_text(const solver_stats *st, char *out, int size)
{
    text t = { out, 0, size };
    PUT(&t, "{\"positions\": ");
    put_u64(&t, st->positions);
    PUT(&t, ", \"seconds\": ");
    if (put_seconds(&t, st->seconds) < 0)
        return -1;
    PUT(&t, ", \"table_bytes\": ");
    put_u64(&t, st->table_bytes);
    PUT(&t, ", \"peak_bytes\": ");
    put_u64(&t, st->peak_bytes);
    PUT(&t, ", \"held_bytes\": ");
    put_u64(&t, st->held_bytes);
    PUT(&t, ", \"held\": ");
    put_parts(&t, st);
    PUT(&t, ", \"refused_bytes\": ");
    put_u64(&t, st->refused_bytes);
    PUT(&t, "}");
    if (t.len < size)
        out[t.len] = 0;
    return t.len;
}
