/* jewel.c - Paciência do Porta-Jóias (family "jewel") for the generic search.
 *
 * Rules: docs/rules/paciencia-porta-joias.md and docs/rules-porta-joias.md.
 * Eight foundations, two per suit, build up A..K; five lid places send their
 * cards only home; eight side and bottom piles build down in alternating
 * colours; a jewel fills every space of the box at once while jewels remain;
 * the stock turns once, one card, which is placed at once (home, on a pile,
 * or on a reserve).
 *
 * Moves: a stock move is "turn the next card and place it" (the turn and the
 * placement are one choice here, two moves in the line); a jewel fill is part
 * of the move that made the space. The exact key: each pile as its bottom
 * card, its length and one suit bit per card above (a pile is always a run
 * down in alternating colours from its bottom card, so the card above a card
 * is one of two); the reserves as, for each card that was ever turned (or
 * lay in a reserve at the root), which reserve holds it (reserves take cards
 * only from the stock, in turning order, and give only their top, so this
 * fixes each reserve's order); the lid, the foundations, the cards turned
 * and the jewels turned.
 */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "deck2_ops.h"
#include "jewel_rules.h"

#define JW_PMAX 13      /* a run down from a King */
#define JW_SIDS 104
#define NO DECK2_NO_CARD

/* Places in gmove.src / gmove.dst. */
enum { P_LID = 0, P_PILE = 5, P_RES = 13, P_FOUND = 16, P_STOCK = 20, P_TURNED = 21 };
enum { JM_MOVE = 0, JM_FILL };

typedef struct {
    uint8_t lid[JEWEL_LID];
    uint8_t pile[JEWEL_TABLEAU][JW_PMAX];
    uint8_t npile[JEWEL_TABLEAU];
    uint8_t res[JEWEL_RESERVES][JW_SIDS];   /* sids: see jw_game.sidcard */
    uint8_t nres[JEWEL_RESERVES];
    uint8_t found[4][2];                 /* larger first */
    uint8_t next;                        /* stock cards turned */
    uint8_t jused;                       /* jewels turned */
    uint8_t turned;                      /* the root's turned card, until placed */
    uint8_t order;                       /* reserve_rank's order (DECK2_ORDERS); not in the key */
} jw_state;

typedef struct {
    jewel_rules rules;
    unsigned flags;
    uint8_t sidcard[JW_SIDS];  /* root reserve cards (sids 0..nroot-1), then the stock */
    int nroot, nstock, nsid;
    uint8_t jewel[JEWEL_JEWELS];
    int njewels;
    int key_words;
} jw_game;

static size_t jewel_state_size(void)
{
    return sizeof(jw_state);
}

static int jw_score(const void *game, const void *state)
{
    (void)game;
    const jw_state *s = state;
    int n = 0;
    for (int i = 0; i < 4; i++)
        n += s->found[i][0] + s->found[i][1];
    return n;
}

/* Whether a foundation takes c (jewel_home_takes). */
static int fits_found(const jw_state *s, int c)
{
    const uint8_t *f = s->found[card_suit(c)];
    return jewel_home_takes(f[0], f[1], c);
}

static int jewels_left(const jw_game *g, const jw_state *s)
{
    return s->jused < g->njewels;
}

/* Is a card of kind k still to be turned from the stock? */
static int to_come(const jw_game *g, const jw_state *s, int k)
{
    for (int i = g->nroot + s->next; i < g->nroot + g->nstock; i++)
        if (g->sidcard[i] == k)
            return 1;
    return 0;
}

/* Shortcut "last-copy-home" (docs/search.md): card c, whose other copy is
 * home and whose four possible children (the rank below, other colour) are
 * home, goes home at once, unless its place would empty while jewels remain.
 * Where reserves take only the cards with no other place
 * (reserve_when_stuck), sending c home must also give no card still to be
 * turned a place it would not have had: the foundation after c (the next
 * card of c's suit, when the other foundation is past it), or the card under
 * c or one c could later lie on (both take only c's kind, home, and the
 * other suit of c's colour at c's rank). */
static int safe_home(const jw_game *g, const jw_state *s, int c, int empties)
{
    if (!(g->flags & DECK2_LAST_COPY_HOME))
        return 0;
    int su = card_suit(c), r = card_rank(c);
    if (!((s->found[su][0] >= r) ^ (s->found[su][1] >= r)))
        return 0;
    if (r > 1)
        for (int t = 0; t < 4; t++)
            if (card_red(t * 13) != card_red(c) && s->found[t][1] < r - 1)
                return 0;
    if (empties && jewels_left(g, s))
        return 0;
    if (g->rules.reserve_when_stuck) {
        if (s->found[su][0] > r && r < 13 && to_come(g, s, c + 1))
            return 0;
        int mate = (su ^ 1) * 13 + r - 1;      /* the other suit of c's colour */
        if (to_come(g, s, mate))
            return 0;
    }
    return 1;
}

/* Adds the moves of card c from place src (count cards, for a run) to the
 * piles and to empty places. */
static int to_piles(const jw_game *g, const jw_state *s, gmove *out, int n, int c, int src, int count,
                    int src_pile_size)
{
    int sym = g->flags & DECK2_INTERCHANGEABLE;
    int seen_empty = 0;
    for (int p = 0; p < JEWEL_TABLEAU; p++) {
        if (P_PILE + p == src)
            continue;
        if (s->npile[p]) {
            if (s->npile[p] + count <= JW_PMAX && jewel_builds_on(c, s->pile[p][s->npile[p] - 1]))
                out[n++] = (gmove){ JM_MOVE, (uint8_t)c, (uint8_t)src, (uint8_t)(P_PILE + p), (uint8_t)count, 0 };
        } else if (jewel_pile_space_fault(&g->rules, jewels_left(g, s), count, c) == JEWEL_ALLOWED
                   && jewel_space_move_listed(src_pile_size) && !(sym && seen_empty)) {
            seen_empty = 1;
            out[n++] = (gmove){ JM_MOVE, (uint8_t)c, (uint8_t)src, (uint8_t)(P_PILE + p), (uint8_t)count, 0 };
        }
    }
    return n;
}

static int to_lid(const jw_game *g, const jw_state *s, gmove *out, int n, int c, int src)
{
    if (jewel_lid_space_fault(&g->rules, jewels_left(g, s)) != JEWEL_ALLOWED || src < P_PILE)
        return n;
    for (int i = 0; i < JEWEL_LID; i++)
        if (s->lid[i] == NO) {
            out[n++] = (gmove){ JM_MOVE, (uint8_t)c, (uint8_t)src, (uint8_t)(P_LID + i), 1, 0 };
            if (g->flags & DECK2_INTERCHANGEABLE)
                break;
        }
    return n;
}

/* How many cards of c's suit must go home before c fits. */
static int need(const jw_state *s, int c)
{
    int su = card_suit(c), r = card_rank(c);
    return r > s->found[su][0] ? r - s->found[su][0] : r - s->found[su][1];
}

/* The order in which the reserves are tried for card c. Order 0: onto a
 * top card needed later than c (the closest first: a reserve then gives its
 * cards back in the order the foundations want them), then an empty
 * reserve, then over the top card needed last (it buries the least). The
 * restarts take turns with two more (DECK2_ORDERS): an empty reserve first,
 * then as order 0; over the top card needed last first, an empty reserve
 * last. Only the order of the moves: every reserve is still tried. */
#define JW_ORDERS 3
static int reserve_rank(const jw_game *g, const jw_state *s, int need_c, int k)
{
    int nt = s->nres[k] ? need(s, g->sidcard[s->res[k][s->nres[k] - 1]]) : 0;
    int later = nt > need_c ? nt - need_c : 100 - nt;
    switch (s->order) {
    case 1: return s->nres[k] ? later : 0;
    case 2: return s->nres[k] ? 100 - nt : 200;
    default: return s->nres[k] ? later : 20;
    }
}

static void jw_set_order(void *state, int k)
{
    ((jw_state *)state)->order = (uint8_t)k;
}

/* Moves of a card coming from the stock (turned now, or at the root). */
static int stock_moves(const jw_game *g, const jw_state *s, gmove *out, int n, int c, int src)
{
    int first = n;
    if (fits_found(s, c))
        out[n++] = (gmove){ JM_MOVE, (uint8_t)c, (uint8_t)src, (uint8_t)(P_FOUND + card_suit(c)), 1, 0 };
    n = to_piles(g, s, out, n, c, src, 1, -1);
    int placed = 0;      /* home or onto a pile's top card */
    for (int i = first; i < n; i++)
        placed |= out[i].dst >= P_FOUND || (out[i].dst >= P_PILE && s->npile[out[i].dst - P_PILE]);
    int seen_empty = 0, listed = 0, need_c = need(s, c), rank[JEWEL_RESERVES];
    for (int k = 0; k < g->rules.reserves && jewel_reserve_takes(&g->rules, placed); k++) {
        if (!s->nres[k]) {
            if (seen_empty && (g->flags & DECK2_INTERCHANGEABLE))
                continue;
            seen_empty = 1;
        }
        /* Inserted in reserve_rank's order (stable: ties keep k's order). */
        int r = reserve_rank(g, s, need_c, k), at = listed++;
        for (; at > 0 && rank[at - 1] > r; at--) {
            rank[at] = rank[at - 1];
            out[n + at] = out[n + at - 1];
        }
        rank[at] = r;
        out[n + at] = (gmove){ JM_MOVE, (uint8_t)c, (uint8_t)src, (uint8_t)(P_RES + k), 1, 0 };
    }
    n += listed;
    return to_lid(g, s, out, n, c, src);
}

/* The steps of jw_moves and jw_bound: inlined always, so that each is laid
 * out as the one function it was (cut into plain static inline steps, gcc
 * -O3 laid them out otherwise, and porta-joias took 4-6% more time). */
#define STEP static inline __attribute__((always_inline))

/* The lid places and piles are numbered as the box's places are
 * (JEWEL_BOX_*): a place to fill is its P_ place. */
_Static_assert(P_LID == JEWEL_BOX_LID(0) && P_PILE == JEWEL_BOX_PILE(0), "places as the box's");

/* A space waiting for a jewel (only at a root given so; jewel_space_to_fill):
 * the fill, the one move; 0 if there is none. */
STEP int jewel_fill(const jw_game *g, const jw_state *s, gmove *out)
{
    if (!jewels_left(g, s))
        return 0;
    unsigned empty = 0;
    for (int i = 0; i < JEWEL_LID; i++)
        empty |= (unsigned)(s->lid[i] == NO) << JEWEL_BOX_LID(i);
    for (int p = 0; p < JEWEL_TABLEAU; p++)
        empty |= (unsigned)(!s->npile[p]) << JEWEL_BOX_PILE(p);
    int at = jewel_space_to_fill(1, empty);
    if (at < 0)
        return 0;
    out[0] = (gmove){ JM_FILL, g->jewel[s->jused], 0, (uint8_t)at, 0, 0 };
    return 1;
}

/* Card c home from src if it fits: appended (n + 1), or -1 if it is safe
 * to play (safe_home), and then out[0] is the only move. */
STEP int home_move(const jw_game *g, const jw_state *s, gmove *out, int n, int c, int src, int frees)
{
    if (!fits_found(s, c))
        return n;
    gmove m = { JM_MOVE, (uint8_t)c, (uint8_t)src, (uint8_t)(P_FOUND + card_suit(c)), 1, 0 };
    if (safe_home(g, s, c, frees)) {
        out[0] = m;
        return -1;
    }
    out[n] = m;
    return n + 1;
}

/* The cards of the lid, the piles and the reserves that fit home: their
 * moves, or -1 as home_move. */
STEP int home_moves(const jw_game *g, const jw_state *s, gmove *out)
{
    int n = 0;
    for (int i = 0; i < JEWEL_LID; i++)
        if (s->lid[i] != NO && (n = home_move(g, s, out, n, s->lid[i], P_LID + i, 1)) < 0)
            return -1;
    for (int p = 0; p < JEWEL_TABLEAU; p++)
        if (s->npile[p] && (n = home_move(g, s, out, n, s->pile[p][s->npile[p] - 1], P_PILE + p, s->npile[p] == 1)) < 0)
            return -1;
    for (int k = 0; k < g->rules.reserves; k++)
        if (s->nres[k] && (n = home_move(g, s, out, n, g->sidcard[s->res[k][s->nres[k] - 1]], P_RES + k, 0)) < 0)
            return -1;
    return n;
}

/* Pile to pile (runs too, if they move), reserve to pile, into empty places. */
STEP int tableau_moves(const jw_game *g, const jw_state *s, gmove *out, int n)
{
    for (int p = 0; p < JEWEL_TABLEAU; p++) {
        int h = s->npile[p];
        if (!h)
            continue;
        int longest = jewel_movable(&g->rules, s->pile[p], h);
        for (int count = 1; count <= longest; count++)
            n = to_piles(g, s, out, n, s->pile[p][h - count], P_PILE + p, count, h);
        n = to_lid(g, s, out, n, s->pile[p][h - 1], P_PILE + p);
    }
    for (int k = 0; k < g->rules.reserves; k++) {
        if (!s->nres[k])
            continue;
        int c = g->sidcard[s->res[k][s->nres[k] - 1]];
        n = to_piles(g, s, out, n, c, P_RES + k, 1, -1);
        n = to_lid(g, s, out, n, c, P_RES + k);
    }
    return n;
}

/* Groups for the randomised restarts: home; then pile moves and cards onto
 * piles; then cards into spaces and onto the first reserve of reserve_rank's
 * order (a reserve takes any card, and buries what it holds); last, onto the
 * other reserves. */
STEP void set_groups(const jw_state *s, gmove *out, int n)
{
    int first_res = 1;
    for (int i = 0; i < n; i++) {
        int d = out[i].dst, res = d >= P_RES && d < P_FOUND;
        out[i].prio = d >= P_FOUND ? 0 : (d < P_PILE || (d < P_RES && !s->npile[d - P_PILE]) || res) ? 2 : 1;
        if (res && !first_res)
            out[i].prio = 3;
        first_res &= !res;
    }
}

static int jw_moves(const void *game, const void *state, gmove *out)
{
    const jw_game *g = game;
    const jw_state *s = state;
    if (jewel_fill(g, s, out))
        return 1;
    if (s->turned != NO) {
        int c = s->turned;
        if (fits_found(s, c) && safe_home(g, s, c, 0)) {
            out[0] = (gmove){ JM_MOVE, (uint8_t)c, P_TURNED, (uint8_t)(P_FOUND + card_suit(c)), 1, 0 };
            return 1;
        }
        return stock_moves(g, s, out, 0, c, P_TURNED);
    }
    int n = home_moves(g, s, out);
    if (n < 0)
        return 1;
    n = tableau_moves(g, s, out, n);
    /* Turn the next card and place it. */
    if (s->next < g->nstock)
        n = stock_moves(g, s, out, n, g->sidcard[g->nroot + s->next], P_STOCK);
    set_groups(s, out, n);
    return n;
}

/* Fills place `place` (a lid place or a pile) with the next jewel if it is
 * empty and jewels remain: the place a move emptied, which is the place
 * jewel_space_to_fill names (a move empties at most one place, and a root
 * with jewels has at most one space, jewel_init). */
static void fill(const jw_game *g, jw_state *s, int place)
{
    if (!jewels_left(g, s))
        return;
    if (place < P_PILE) {
        if (s->lid[place - P_LID] == NO)
            s->lid[place - P_LID] = g->jewel[s->jused++];
    } else if (place < P_RES) {
        if (!s->npile[place - P_PILE]) {
            s->pile[place - P_PILE][0] = g->jewel[s->jused++];
            s->npile[place - P_PILE] = 1;
        }
    }
}

static void jw_apply(const void *game, void *state, const gmove *m)
{
    const jw_game *g = game;
    jw_state *s = state;
    if (m->kind == JM_FILL) {
        fill(g, s, m->dst);
        return;
    }
    int src = m->src, dst = m->dst, count = m->count ? m->count : 1;
    uint8_t cards[JW_PMAX];
    int sid = -1;
    if (src < P_PILE) {
        cards[0] = s->lid[src - P_LID];
        s->lid[src - P_LID] = NO;
    } else if (src < P_RES) {
        int p = src - P_PILE;
        s->npile[p] = (uint8_t)(s->npile[p] - count);
        memcpy(cards, &s->pile[p][s->npile[p]], (size_t)count);
    } else if (src < P_FOUND) {
        int k = src - P_RES;
        cards[0] = g->sidcard[s->res[k][--s->nres[k]]];
    } else if (src == P_STOCK) {
        sid = g->nroot + s->next;
        cards[0] = g->sidcard[sid];
        s->next++;
    } else {
        cards[0] = s->turned;
        s->turned = NO;
    }
    if (dst >= P_FOUND) {
        int su = dst - P_FOUND;
        if (jewel_home_slot(s->found[su][0], s->found[su][1], cards[0]) == 0)
            s->found[su][0]++;
        else
            s->found[su][1]++;
        if (s->found[su][1] > s->found[su][0]) {
            uint8_t t = s->found[su][0];
            s->found[su][0] = s->found[su][1];
            s->found[su][1] = t;
        }
    } else if (dst >= P_RES) {
        int k = dst - P_RES;
        /* Only stock cards go to a reserve; one turned at the root has no
         * sid of its own: it takes the stock's sid slot past the end. */
        s->res[k][s->nres[k]++] = (uint8_t)(sid >= 0 ? sid : g->nsid - 1);
    } else if (dst >= P_PILE) {
        int p = dst - P_PILE;
        memcpy(&s->pile[p][s->npile[p]], cards, (size_t)count);
        s->npile[p] = (uint8_t)(s->npile[p] + count);
    } else {
        s->lid[dst - P_LID] = cards[0];
    }
    if (src < P_RES)
        fill(g, s, src);
}

static uint32_t pile_code(const jw_state *s, int p)
{
    int h = s->npile[p];
    if (!h)
        return 0;
    uint32_t code = (uint32_t)(s->pile[p][0] + 1) << 16 | (uint32_t)h << 12;
    for (int i = 1; i < h; i++)
        code |= (uint32_t)(s->pile[p][i] / 13 & 1) << (i - 1);
    return code;
}

static void sort_desc(uint32_t *v, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && v[j] > v[j - 1]; j--) {
            uint32_t t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
}

static void jw_key(const void *game, const void *state, uint64_t *key)
{
    const jw_game *g = game;
    const jw_state *s = state;
    int sym = g->flags & DECK2_INTERCHANGEABLE;
    memset(key, 0, sizeof(uint64_t) * (size_t)g->key_words);
    int at = 0;
    uint32_t piles[JEWEL_TABLEAU], lid[JEWEL_LID];
    for (int p = 0; p < JEWEL_TABLEAU; p++)
        piles[p] = pile_code(s, p);
    for (int i = 0; i < JEWEL_LID; i++)
        lid[i] = s->lid[i] == NO ? 0 : s->lid[i] + 1u;
    if (sym) {
        sort_desc(piles, JEWEL_TABLEAU);
        sort_desc(lid, JEWEL_LID);
    }
    for (int p = 0; p < JEWEL_TABLEAU; p++)
        put_bits(key, &at, piles[p], 22);
    for (int i = 0; i < JEWEL_LID; i++)
        put_bits(key, &at, lid[i], 6);
    /* Reserves: label of the reserve holding each sid (0: none). With the
     * symmetry, reserves are labelled in the order of their bottom cards. */
    uint8_t label[JEWEL_RESERVES] = { 1, 2, 3 };
    if (sym) {
        int order[JEWEL_RESERVES] = { 0, 1, 2 };
        for (int i = 1; i < JEWEL_RESERVES; i++)
            for (int j = i; j > 0; j--) {
                int a = order[j - 1], b = order[j];
                int ka = s->nres[a] ? s->res[a][0] : 255, kb = s->nres[b] ? s->res[b][0] : 255;
                if (kb < ka) {
                    order[j - 1] = b;
                    order[j] = a;
                }
            }
        for (int i = 0; i < JEWEL_RESERVES; i++)
            label[order[i]] = (uint8_t)(i + 1);
    }
    /* The fields start at an even bit (8 * 22 + 5 * 6), so no 2-bit field
     * crosses a word: each card in a reserve sets its own. */
    for (int k = 0; k < JEWEL_RESERVES; k++)
        for (int i = 0; i < s->nres[k]; i++) {
            int bit = at + 2 * s->res[k][i];
            key[bit / 64] |= (uint64_t)label[k] << (bit % 64);
        }
    at += 2 * g->nsid;
    for (int su = 0; su < 4; su++) {
        put_bits(key, &at, s->found[su][0], 4);
        put_bits(key, &at, s->found[su][1], 4);
    }
    put_bits(key, &at, s->next, 7);
    put_bits(key, &at, s->jused, 4);
    put_bits(key, &at, s->turned == NO ? 0 : s->turned + 1u, 6);
    put_bits(key, &at, 1, 1);
}

/* Shortcut "dead-cards" (docs/search.md): an upper bound on the score of
 * every position reachable from s. It grows, from nothing, what some line
 * could ever do, each fact only when what it needs could be done: a card
 * could be free to move (a lid card, a card still in the stock, the top of
 * a pile or a reserve, a card whose every card above could leave, a jewel
 * when enough places could open before its turn); it could go home (free,
 * and a foundation of its suit could reach the rank below: every rank in
 * between has a free card); it could lie on a pile (free, and some card it
 * builds on could lie on a pile, or a space could take it); it could leave
 * its place (home, onto a pile, into a space; a lid card only home); a
 * space could be had (the jewels could all come out, and one more place
 * open). Every card some line sends home is counted: by induction over the
 * line, what each move needs was done earlier, so it was grown first. */
enum { L_LID, L_PILE, L_RES, L_JEWEL, L_STOCK };

/* jw_bound's cards: where each lies, the card above it (-1: none), and
 * what some line could do with it (acc: free to move, home, leave its
 * place, lie on a pile), grown by the passes. */
typedef struct {
    int n, nb, bottom[JEWEL_TABLEAU];   /* cards; the pile bottoms' indexes */
    uint8_t card[JW_SIDS], loc[JW_SIDS], jidx[JW_SIDS];
    int16_t above[JW_SIDS];
    struct {
        uint8_t acc[JW_SIDS], home[JW_SIDS], leave[JW_SIDS], onpile[JW_SIDS];
    } can;
} bound_cards;

/* One card, at index b->n. */
STEP void bound_add(bound_cards *b, int card, int loc, int above, int acc)
{
    b->card[b->n] = (uint8_t)card;
    b->loc[b->n] = (uint8_t)loc;
    b->above[b->n] = (int16_t)above;
    b->can.acc[b->n] = (uint8_t)acc;
    b->n++;
}

/* Every card not home, each pile and reserve from the bottom up: what is
 * free now is what nothing lies on. */
STEP void bound_gather(const jw_game *g, const jw_state *s, bound_cards *b)
{
    memset(&b->can, 0, sizeof b->can);
    b->n = b->nb = 0;
    for (int i = 0; i < JEWEL_LID; i++)
        if (s->lid[i] != NO)
            bound_add(b, s->lid[i], L_LID, -1, 1);
    for (int p = 0; p < JEWEL_TABLEAU; p++) {
        if (s->npile[p])
            b->bottom[b->nb++] = b->n;
        for (int i = 0; i < s->npile[p]; i++) {
            int top = i + 1 == s->npile[p];
            b->can.onpile[b->n] = (uint8_t)top;
            bound_add(b, s->pile[p][i], L_PILE, top ? -1 : b->n + 1, top);
        }
    }
    for (int k = 0; k < g->rules.reserves; k++)
        for (int i = 0; i < s->nres[k]; i++) {
            int top = i + 1 == s->nres[k];
            bound_add(b, g->sidcard[s->res[k][i]], L_RES, top ? -1 : b->n + 1, top);
        }
    for (int j = s->jused; j < g->njewels; j++) {
        b->jidx[b->n] = (uint8_t)(j - s->jused);
        bound_add(b, g->jewel[j], L_JEWEL, -1, 0);
    }
    for (int i = s->next; i < g->nstock; i++)
        bound_add(b, g->sidcard[g->nroot + i], L_STOCK, -1, 1);
    if (s->turned != NO)
        bound_add(b, s->turned, L_STOCK, -1, 1);
}

/* The rank each foundation could reach (hi), and which cards could lie on
 * a pile (pile_kind, by card). */
STEP void bound_reach(const jw_state *s, const bound_cards *b, int hi[4][2], uint8_t pile_kind[52])
{
    uint8_t free_kind[52] = { 0 };
    memset(pile_kind, 0, 52);
    for (int i = 0; i < b->n; i++) {
        free_kind[b->card[i]] |= b->can.acc[i];
        pile_kind[b->card[i]] |= b->can.onpile[i];
    }
    for (int su = 0; su < 4; su++)
        for (int f = 0; f < 2; f++) {
            int l = s->found[su][f];
            while (l < 13 && free_kind[su * 13 + l])
                l++;
            hi[su][f] = l;
        }
}

/* Places open now or that could open: lid cards and jewels that could
 * leave, piles whose bottom could. */
STEP int bound_opens(const bound_cards *b, int empty_now)
{
    int opens = empty_now;
    for (int i = 0; i < b->n; i++)
        if ((b->loc[i] == L_LID || b->loc[i] == L_JEWEL) && b->can.leave[i])
            opens++;
    for (int k = 0; k < b->nb; k++)
        opens += b->can.acc[b->bottom[k]] && b->can.leave[b->bottom[k]];
    return opens;
}

/* One pass from the top of each pile and reserve down: a card is free when
 * every card above it could leave, which the card above, seen just before,
 * shows. Whether anything grew; -1 once score + *homes passes limit. */
STEP int bound_pass(const jw_game *g, const jw_state *s, bound_cards *b, int opens, int space, int score, int limit,
                    int *homes)
{
    int hi[4][2], changed = 0;
    uint8_t pile_kind[52];
    bound_reach(s, b, hi, pile_kind);
    uint8_t *acc = b->can.acc, *home = b->can.home, *leave = b->can.leave, *onpile = b->can.onpile;
    for (int i = b->n - 1; i >= 0; i--) {
        int a = b->above[i];
        if (!acc[i] && ((b->loc[i] == L_JEWEL && b->jidx[i] < opens) || (a >= 0 && acc[a] && leave[a]))) {
            acc[i] = changed = 1;
            onpile[i] |= b->loc[i] == L_PILE;
        }
        if (!acc[i])
            continue;
        int c = b->card[i], su = card_suit(c), r = card_rank(c);
        if (!home[i] && ((r > s->found[su][0] && hi[su][0] >= r - 1) || (r > s->found[su][1] && hi[su][1] >= r - 1))) {
            home[i] = changed = 1;
            if (score + ++*homes > limit)
                return -1;
        }
        if (b->loc[i] == L_LID) {
            if (!leave[i] && home[i])
                leave[i] = changed = 1;
            continue;
        }
        int o = su < 2 ? 26 : 0;    /* the other colour's two suits */
        int builds = r < 13 && (pile_kind[o + r] || pile_kind[o + 13 + r]);
        int sp = space && (jewel_empty_lid_takes(&g->rules) || jewel_empty_pile_takes(&g->rules, c));
        int on = builds || sp || b->loc[i] == L_JEWEL || b->loc[i] == L_PILE;
        if (!onpile[i] && on)
            onpile[i] = changed = 1;
        if (!leave[i] && (home[i] || builds || sp))
            leave[i] = changed = 1;
    }
    return changed;
}

static int jw_bound(const void *game, const void *state, const gmove *m, int limit)
{
    const jw_game *g = game;
    const jw_state *s = state;
    if (g->rules.runs_move)
        return 104;                 /* a run leaves its cards in place: not modelled */
    /* Computed after a card comes from the stock (and at the root): the
     * moves between two turns change the bound by little, and it costs more
     * than the positions it would save there. */
    if (m && m->src != P_STOCK && m->src != P_TURNED)
        return 104;
    bound_cards b;
    bound_gather(g, s, &b);
    int jewels = g->njewels - s->jused;
    int empty_now = 0;              /* places empty now (a jewel fills the first next) */
    for (int p = 0; p < JEWEL_TABLEAU; p++)
        empty_now += !s->npile[p];
    for (int i = 0; i < JEWEL_LID; i++)
        empty_now += s->lid[i] == NO && jewels;
    int changed = 1, space = 0, score = jw_score(game, state), homes = 0;
    while (changed) {
        changed = 0;
        if (score + homes > limit)
            return score + homes;       /* above the limit: no need to know by how much */
        int opens = bound_opens(&b, empty_now);
        if (!space && opens > jewels)
            space = changed = 1;
        if (!space && jewel_empty_lid_takes(&g->rules) && (jewels == 0 || opens >= jewels))
            space = changed = 1;       /* a lid place could take a card: counted as a space */
        int grew = bound_pass(g, s, &b, opens, space, score, limit, &homes);
        if (grew < 0)
            return score + homes;
        changed |= grew;
    }
    return score + homes < 104 ? score + homes : 104;
}

static void place_of(int place, int *kind, int *index)
{
    if (place < P_PILE) {
        *kind = SOLVER_PLACE_LID;
        *index = place - P_LID + 1;
    } else if (place < P_PILE + 4) {
        *kind = SOLVER_PLACE_SIDE;
        *index = place - P_PILE + 1;
    } else if (place < P_RES) {
        *kind = SOLVER_PLACE_BOTTOM;
        *index = place - P_PILE - 3;
    } else if (place < P_FOUND) {
        *kind = SOLVER_PLACE_RESERVE_PILE;
        *index = place - P_RES + 1;
    } else if (place < P_STOCK) {
        *kind = SOLVER_PLACE_FOUNDATION;
        *index = place - P_FOUND;
    } else {
        *kind = SOLVER_PLACE_STOCK;
        *index = 0;
    }
}

static int jw_describe(const void *game, const void *state, const gmove *m, solver_move *out)
{
    const jw_game *g = game;
    const jw_state *s = state;
    int n = 0;
    if (m->kind == JM_FILL) {
        memset(&out[0], 0, sizeof out[0]);
        out[0].action = SOLVER_JEWEL_FILL;
        out[0].card = g->jewel[s->jused];
        place_of(m->dst, &out[0].dst, &out[0].dst_index);
        return 1;
    }
    if (m->src == P_STOCK) {
        memset(&out[n], 0, sizeof out[n]);
        out[n].action = SOLVER_TURN;
        out[n].ncards = 1;
        out[n].cards[0] = m->card;
        n++;
    }
    memset(&out[n], 0, sizeof out[n]);
    out[n].action = SOLVER_MOVE;
    out[n].card = m->card;
    place_of(m->src, &out[n].src, &out[n].src_index);
    place_of(m->dst, &out[n].dst, &out[n].dst_index);
    n++;
    int emptied = (m->src < P_PILE) || (m->src < P_RES && s->npile[m->src - P_PILE] == (m->count ? m->count : 1));
    if (emptied && jewels_left(g, s)) {
        memset(&out[n], 0, sizeof out[n]);
        out[n].action = SOLVER_JEWEL_FILL;
        out[n].card = g->jewel[s->jused];
        place_of(m->src, &out[n].dst, &out[n].dst_index);
        n++;
    }
    return n;
}

/* The root's reserve cards and stock as sids (jw_game.sidcard; g->nsid and
 * g->nroot set), the reserves into s, the cards counted in count; 1 if a
 * card id is not 0..51. */
static int take_sids(jw_game *g, jw_state *s, const jewel_position *p, int *count)
{
    int sid = 0, bad = 0;
    for (int k = 0; k < JEWEL_RESERVES; k++)
        for (int i = 0; i < p->nreserves[k]; i++) {
            s->res[k][i] = (uint8_t)sid;
            g->sidcard[sid++] = p->reserves[k][i];
        }
    for (int k = 0; k < JEWEL_RESERVES; k++)
        s->nres[k] = (uint8_t)p->nreserves[k];
    g->nstock = p->nstock;
    for (int i = 0; i < p->nstock; i++)
        g->sidcard[sid++] = p->stock[i];
    if (p->turned != NO)
        g->sidcard[g->nsid - 1] = (uint8_t)p->turned;
    for (int i = 0; i < g->nsid; i++)
        bad |= g->sidcard[i] >= 52;
    for (int i = 0; i < g->nsid; i++)
        if (g->sidcard[i] < 52)
            count[g->sidcard[i]]++;
    return bad;
}

/* The root's piles into s, their cards counted in count; -1 with err if
 * one is not a run down in alternating colours of at most 13 cards. */
static int take_piles(jw_state *s, const jewel_position *p, int *count, char *err, int errlen)
{
    char text[200];
    for (int q = 0; q < JEWEL_TABLEAU; q++) {
        snprintf(text, sizeof text, "position: %s pile %d is not a run down in alternating colours of at most 13 cards",
                 q < 4 ? "side" : "bottom", q < 4 ? q + 1 : q - 3);
        if (!(p->ntableau[q] >= 0 && p->ntableau[q] <= JW_PMAX))
            return rules_fail(err, errlen, text);
        for (int i = 0; i < p->ntableau[q]; i++) {
            int c = p->tableau[q][i];
            if (c >= 52)
                return rules_fail(err, errlen, "position: a card id is not 0..51");
            if (!(i == 0 || jewel_builds_on(c, p->tableau[q][i - 1])))
                return rules_fail(err, errlen, text);
            s->pile[q][i] = (uint8_t)c;
            count[c]++;
        }
        s->npile[q] = (uint8_t)p->ntableau[q];
    }
    return 0;
}

/* The root's foundations (each 0..13 cards) into s, larger first, their
 * cards counted in count. */
static void take_foundations(jw_state *s, const jewel_position *p, int *count)
{
    for (int su = 0; su < 4; su++) {
        int a = p->foundations[su][0], b = p->foundations[su][1];
        s->found[su][0] = (uint8_t)(a > b ? a : b);
        s->found[su][1] = (uint8_t)(a > b ? b : a);
        for (int i = 0; i < a; i++)
            count[su * 13 + i]++;
        for (int i = 0; i < b; i++)
            count[su * 13 + i]++;
    }
}

/* What the family gives the search (deck2_ops.h). */
static void jw_family(deck2_ops *f, jw_game *g)
{
    f->state_size = sizeof(jw_state);
    f->key_words = g->key_words;
    f->max_score = 104;
    f->game = g;
    f->moves = jw_moves;
    f->apply = jw_apply;
    f->key = jw_key;
    f->score = jw_score;
    f->describe = jw_describe;
    f->bound = jw_bound;
    /* One card a move: 16 home (5 lid, 8 piles, 3 reserves), 8 piles x (7
     * piles + 5 lid places), 3 reserves x (8 + 5), 17 for a stock card
     * (home, 8 piles, 3 reserves, 5 lid places): 168. Runs: G_MAX_MOVES. */
    f->max_moves = g->rules.runs_move ? 0 : 168;
    f->orders = JW_ORDERS;
    f->set_order = jw_set_order;
    f->free_game = free;
}

static int jewel_init(deck2_ops *f, const void *rules, const void *pos, unsigned flags, void *root, char *err,
                      int errlen)
{
    const jewel_rules *r = rules;
    const jewel_position *p = pos;
    if (jewel_check_reserves(r, err, errlen) < 0)
        return -1;
    jw_game *g = calloc(1, sizeof *g);
    if (!g)
        return rules_fail(err, errlen, "out of memory");
    jw_state *s = root;
    memset(s, 0, sizeof *s);
    int count[52] = { 0 }, bad = 0;
#define CHECK(cond, msg) do { if (!(cond)) { free(g); return rules_fail(err, errlen, msg); } } while (0)
#define TRY(call) do { if ((call) < 0) { free(g); return -1; } } while (0)
    TRY(jewel_check_stock(p, err, errlen));
    int nroot = 0;
    for (int k = 0; k < JEWEL_RESERVES; k++) {
        TRY(jewel_check_reserve(r, p, k, err, errlen));
        nroot += p->nreserves[k];
    }
    /* sids: root reserve cards, the stock, and one for a turned card. */
    g->nsid = nroot + p->nstock + (p->turned != NO ? 1 : 0);
    CHECK(g->nsid <= JW_SIDS, "position: more than 104 cards");
    g->nroot = nroot;
    bad |= take_sids(g, s, p, count);
    for (int i = 0; i < JEWEL_LID; i++) {
        s->lid[i] = p->lid[i];
        if (p->lid[i] != NO) {
            bad |= p->lid[i] >= 52;
            if (p->lid[i] < 52)
                count[p->lid[i]]++;
        }
    }
    TRY(take_piles(s, p, count, err, errlen));
    g->njewels = p->njewels;
    for (int i = 0; i < p->njewels; i++) {
        bad |= p->jewels[i] >= 52;
        g->jewel[i] = p->jewels[i];
        if (p->jewels[i] < 52)
            count[p->jewels[i]]++;
    }
    CHECK(!bad, "position: a card id is not 0..51");
    TRY(jewel_check_foundations(p, err, errlen));
    take_foundations(s, p, count);
    TRY(rules_check_twice(count, "", err, errlen));
    int spaces = 0;
    for (int i = 0; i < JEWEL_LID; i++)
        spaces += s->lid[i] == NO;
    for (int q = 0; q < JEWEL_TABLEAU; q++)
        spaces += s->npile[q] == 0;
    CHECK(!(p->njewels && spaces > 1), "position: more than one space waits for a jewel");
    CHECK(!(p->njewels && spaces && p->turned != NO), "position: a card is turned while a space waits for a jewel");
    s->turned = (uint8_t)p->turned;
    s->next = 0;
    s->jused = 0;
    g->rules = *r;
    g->flags = flags;
    g->key_words = (8 * 22 + JEWEL_LID * 6 + g->nsid * 2 + 32 + 7 + 4 + 6 + 1 + 63) / 64;
#undef CHECK
#undef TRY
    jw_family(f, g);
    return 0;
}

static const deck2_game GAME = { sizeof(jewel_rules), jewel_state_size, jewel_init };

/* The family's search, for the registry (registry.c). */
solver *jewel_search_new(const void *rules, const void *pos, unsigned flags, char *err, int errlen)
{
    return deck2_search_new(&GAME, rules, pos, flags, err, errlen);
}
