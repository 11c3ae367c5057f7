/* napoleao.c - Paciência Napoleão (family "napoleao") for the generic search.
 *
 * Rules: docs/rules/paciencia-napoleao.md and docs/rules-napoleao.md. Four
 * King bases build down K..A and four Ace bases up A..K; twelve piles are
 * dealt in rounds of twelve (the last round short), only their top cards
 * play, and only to the bases; the piles are gathered into a new pack for
 * each redeal.
 *
 * Cards are named by their place in the root position ("rid"): root piles,
 * pile 1 bottom first, then the root stock. Every state is then fixed by
 * which pass each card went home in (0: not home), the deal index in this
 * pass, the pass and the King bases: each pass's pack is the previous pack
 * gathered without the cards that went home in it. That is the exact key.
 */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "deck2_ops.h"
#include "napoleao_rules.h"
#ifdef SOLVER_STUDY
#include "hashset.h"
#include "study.h"
#endif

#define NP_MAXP 24      /* cards a pile can hold */
#define NP_CARDS 104

enum { NM_HOME = 0, NM_DEAL, NM_REDEAL };

typedef struct {
    uint8_t stock[NP_CARDS];        /* rids of this pass's pack */
    uint8_t nstock, next;           /* pack size, cards dealt */
    uint8_t pile[NAPOLEAO_PILES][NP_MAXP];
    uint8_t npile[NAPOLEAO_PILES];
    uint8_t kb[4], ab[4];
    uint8_t pass, rounds;           /* pass since the root; rounds dealt in this pass */
    /* For each card, 0 or 1 + the pass it went home in, in gone_bits bits:
     * the first part of the key, kept packed as the key writes it. */
    uint64_t gone[(NP_CARDS * 3 + 63) / 64];
} np_state;

typedef struct {
    napoleao_rules rules;
    unsigned flags;
    uint8_t card[NP_CARDS];         /* kind of each rid */
    int nrid;
    int root_redeals;               /* redeals made before the root */
    int last_pass;                  /* pass (since the root) after which no redeal is left */
    int gone_bits;
} np_game;

static size_t napoleao_state_size(void)
{
    return sizeof(np_state);
}

static int restricted(const np_game *g, const np_state *s)
{
    return napoleao_restricted(&g->rules, g->root_redeals + s->pass, s->rounds);
}

static int np_score(const void *game, const void *state)
{
    (void)game;
    const np_state *s = state;
    int n = 0;
    for (int i = 0; i < 4; i++)
        n += s->kb[i] + s->ab[i];
    return n;
}

/* Does the base that did not take a card of suit su and rank r hold one? */
static int other_copy_home(const np_state *s, int su, int r, int to_kbase)
{
    return to_kbase ? s->ab[su] >= r : s->kb[su] >= 14 - r;
}

#ifdef SOLVER_STUDY
/* For studies (solver_debug_last_passes, study.h): while on, each redeal
 * into the last pass is counted, and the distinct last-pass starts it
 * makes (the pack in order and the bases, as a player sees them; the
 * search's key, which also says in which pass each card went home, may
 * tell apart more) in a set of their 64-bit hashes, on an account of its
 * own without a limit (a study is not a search). */
static int lp_counting;
static uint64_t lp_redeals;
static mem_account lp_mem;
static set64 lp_starts;

static void lp_count(const np_game *g, const np_state *s)
{
    /* The start as a player sees it: the pack's cards in order, the bases. */
    uint64_t h = mix64(s->nstock);
    for (int i = 0; i < s->nstock; i++)
        h = mix64(h ^ g->card[s->stock[i]]);
    for (int i = 0; i < 4; i++)
        h = mix64(h ^ (uint64_t)(s->kb[i] << 8 | s->ab[i]));
    lp_redeals++;
    set64_add(&lp_starts, &lp_mem, h >> 1);
}

void solver_debug_last_passes(int on, uint64_t *redeals, uint64_t *distinct)
{
    if (on && !lp_counting) {
        set64_free(&lp_starts, &lp_mem);
        lp_redeals = 0;
    }
    lp_counting = on;
    *redeals = lp_redeals;
    *distinct = lp_starts.n;
}
#endif

static int np_moves(const void *game, const void *state, gmove *out)
{
    const np_game *g = game;
    const np_state *s = state;
    int n = 0;
#ifdef SOLVER_STUDY
    if (lp_counting == 2 && s->pass == g->last_pass)
        return 0; /* a study of the first passes alone (solver_debug_last_passes) */
#endif
    int only_start = restricted(g, s);
    /* Shortcut "last-copy-home" acts in the last pass, and in every pass
     * where no round is dealt while a card fits (docs/search.md). */
    int last = s->pass == g->last_pass || g->rules.deal_when_stuck;
    for (int p = 0; p < NAPOLEAO_PILES; p++) {
        if (!s->npile[p])
            continue;
        int c = g->card[s->pile[p][s->npile[p] - 1]];
        int su = card_suit(c), r = card_rank(c);
        for (int k = 1; k >= 0; k--) {   /* King base first */
            if (!napoleao_fits(r, k, k ? s->kb[su] : s->ab[su], only_start))
                continue;
            gmove m = { NM_HOME, (uint8_t)c, (uint8_t)p, (uint8_t)(k ? su : 4 + su), 0, 0 };
            /* Shortcut (docs/search.md, "last-copy-home"): a card whose other
             * copy is home goes home at once. */
            if ((g->flags & DECK2_LAST_COPY_HOME) && last && other_copy_home(s, su, r, k)) {
                out[0] = m;
                return 1;
            }
            out[n++] = m;
        }
    }
    if (!napoleao_may_deal(&g->rules, n > 0))
        return n;
    if (s->next < s->nstock)
        out[n++] = (gmove){ NM_DEAL, 0, 0, 0, 0, 1 };
    else if (napoleao_redeal_left(&g->rules, g->root_redeals + s->pass))
        out[n++] = (gmove){ NM_REDEAL, 0, 0, 0, 0, 1 };
    return n;
}

static void np_apply(const void *game, void *state, const gmove *m)
{
    const np_game *g = game;
    np_state *s = state;
    if (m->kind == NM_HOME) {
        int p = m->src;
        int rid = s->pile[p][--s->npile[p]];
        int su = m->dst & 3;
        if (m->dst < 4)
            s->kb[su]++;
        else
            s->ab[su]++;
        int at = rid * g->gone_bits;
        put_bits(s->gone, &at, (uint64_t)(s->pass + 1), g->gone_bits);
    } else if (m->kind == NM_DEAL) {
        int k = napoleao_round_size(s->nstock - s->next);
        for (int i = 0; i < k; i++)
            s->pile[i][s->npile[i]++] = s->stock[s->next + i];
        s->next = (uint8_t)(s->next + k);
        s->rounds++;
    } else {
        int n = 0;
        for (int i = 0; i < NAPOLEAO_PILES; i++) {
            int p = napoleao_gathered(&g->rules, i);
            for (int j = 0; j < s->npile[p]; j++)
                s->stock[n++] = s->pile[p][j];
        }
        memset(s->npile, 0, sizeof s->npile);
        s->nstock = (uint8_t)n;
        s->next = 0;
        s->pass++;
        s->rounds = 0;
#ifdef SOLVER_STUDY
        if (lp_counting && s->pass == g->last_pass)
            lp_count(g, s);
#endif
    }
}

/* Shortcut "dead-cards" (docs/search.md): in the last pass, an upper bound
 * on the score of every position reachable from s. A card can ever go home
 * only if every card now above it on its pile goes home first (in the last
 * pass cards leave the piles only for the bases; cards still in the stock
 * cover nothing now), and its base gets there: an Ace base wants each rank
 * below it first, a King base each rank above. So grow, from the bases as
 * they are, the levels each base could reach if any copy still out that is
 * free could go there (a copy may count for both bases: that only makes the
 * bound larger), where a card is free when every card above it on its pile
 * could go home; the cards that could go home are at most those free cards
 * whose rank a base could reach. */
static int rank_fits(int r, int su, const int *a0, const int *hi, const int *k0, const int *lo)
{
    return (r > a0[su] && r <= hi[su] + 1) || (r < k0[su] && r >= lo[su] - 1);
}

enum { NEVER = 99 };

/* The first round (0 = the next deal; -1 = already dealt) in which a copy
 * of each card still out can be on the piles. */
static inline void first_rounds(const np_game *g, const np_state *s, int *round_of)
{
    for (int c = 0; c < 52; c++)
        round_of[c] = NEVER;
    for (int p = 0; p < NAPOLEAO_PILES; p++)
        for (int i = 0; i < s->npile[p]; i++)
            round_of[g->card[s->pile[p][i]]] = -1;
    for (int j = s->nstock - 1; j >= s->next; j--) {
        int c = g->card[s->stock[j]], r = (j - s->next) / NAPOLEAO_PILES;
        if (r < round_of[c])
            round_of[c] = r;
    }
}

/* For each pile card, the round after which its base can first want it
 * (the round that brings the last card its base needs before it): fixed
 * by the bases as they are (Ace bases at a0, King bases down to k0), so
 * computed once per bound. */
static inline void soonest_rounds(const np_game *g, const np_state *s, const int *a0, const int *k0,
                                  const int *round_of, int soonest[][NP_MAXP])
{
    for (int p = 0; p < NAPOLEAO_PILES; p++)
        for (int i = 0; i < s->npile[p]; i++) {
            int c = g->card[s->pile[p][i]], su = c / 13, r = c % 13 + 1;
            int best = NEVER;
            if (r > a0[su]) {
                int t = -1;
                for (int q = a0[su] + 1; q < r; q++)
                    if (round_of[su * 13 + q - 1] > t)
                        t = round_of[su * 13 + q - 1];
                best = t;
            }
            if (r < k0[su]) {
                int t = -1;
                for (int q = r + 1; q < k0[su]; q++)
                    if (round_of[su * 13 + q - 1] > t)
                        t = round_of[su * 13 + q - 1];
                if (t < best)
                    best = t;
            }
            soonest[p][i] = best;
        }
}

static int np_bound(const void *game, const void *state, const gmove *m, int limit)
{
    (void)limit;
    const np_game *g = game;
    const np_state *s = state;
    /* After a card goes home the bound is left to the next round: a card
     * home changes the bound by little, and the bound costs more than the
     * positions it would save there. */
    if (s->pass != g->last_pass || (m && m->kind == NM_HOME))
        return 104;
    int lo[4], hi[4], a0[4], k0[4];      /* Ace bases could reach hi; King bases down to lo */
    for (int su = 0; su < 4; su++) {
        a0[su] = hi[su] = s->ab[su];
        k0[su] = lo[su] = 14 - s->kb[su];
    }
    int round_of[52];
    first_rounds(g, s, round_of);
    int soonest[NAPOLEAO_PILES][NP_MAXP];
    soonest_rounds(g, s, a0, k0, round_of, soonest);
    int depth[NAPOLEAO_PILES];                 /* top cards of each pile that could go home */
    int changed = 1;
    while (changed) {
        changed = 0;
        /* Free cards of each kind: in the stock; on a pile, when every card
         * above it could go home and so could every card the coming rounds
         * put on it before its base can want it (before the round in which
         * the last card its base needs first comes). */
        int free_kind[52] = { 0 };
        for (int j = s->next; j < s->nstock; j++)
            free_kind[g->card[s->stock[j]]] = 1;
        for (int p = 0; p < NAPOLEAO_PILES; p++) {
            int d = 0;
            for (int i = s->npile[p] - 1; i >= 0; i--) {
                int c = g->card[s->pile[p][i]], su = c / 13, r = c % 13 + 1;
                int covered_ok = 1;
                for (int j = s->next + p; j < s->nstock && (j - s->next) / NAPOLEAO_PILES <= soonest[p][i];
                     j += NAPOLEAO_PILES) {
                    int z = g->card[s->stock[j]];
                    if (!rank_fits(z % 13 + 1, z / 13, a0, hi, k0, lo)) {
                        covered_ok = 0;
                        break;
                    }
                }
                if (!covered_ok)
                    break;
                free_kind[c] = 1;
                if (rank_fits(r, su, a0, hi, k0, lo))
                    d++;
                else
                    break;
            }
            depth[p] = d;
        }
        for (int su = 0; su < 4; su++) {
            while (hi[su] < 13 && free_kind[su * 13 + hi[su]]) {
                hi[su]++;
                changed = 1;
            }
            while (lo[su] > 1 && free_kind[su * 13 + lo[su] - 2]) {
                lo[su]--;
                changed = 1;
            }
        }
    }
    int n = np_score(game, state);
    for (int p = 0; p < NAPOLEAO_PILES; p++)
        n += depth[p];
    for (int j = s->next; j < s->nstock; j++) {
        int c = g->card[s->stock[j]];
        if (rank_fits(c % 13 + 1, c / 13, a0, hi, k0, lo))
            n++;
    }
    return n < 104 ? n : 104;
}

static void np_key(const void *game, const void *state, uint64_t *key)
{
    const np_game *g = game;
    const np_state *s = state;
    int at = g->nrid * g->gone_bits;
    int words = (at + 7 + 3 + 16 + 1 + 1 + 63) / 64;
    int full = at / 64;
    memcpy(key, s->gone, sizeof(uint64_t) * (size_t)(full + (at % 64 != 0)));
    memset(key + full + (at % 64 != 0), 0, sizeof(uint64_t) * (size_t)(words - full - (at % 64 != 0)));
    put_bits(key, &at, s->next, 7);
    put_bits(key, &at, s->pass, 3);
    for (int i = 0; i < 4; i++)
        put_bits(key, &at, s->kb[i], 4);
    put_bits(key, &at, (uint64_t)restricted(g, s), 1);
    put_bits(key, &at, 1, 1);   /* never an all-zero key */
}

static int np_describe(const void *game, const void *state, const gmove *m, solver_move *out)
{
    const np_game *g = game;
    const np_state *s = state;
    memset(out, 0, sizeof *out);
    if (m->kind == NM_HOME) {
        out->action = SOLVER_MOVE;
        out->card = m->card;
        out->src = SOLVER_PLACE_PILE;
        out->src_index = m->src + 1;
        out->dst = m->dst < 4 ? SOLVER_PLACE_KBASE : SOLVER_PLACE_ABASE;
        out->dst_index = m->dst & 3;
    } else if (m->kind == NM_DEAL) {
        int k = napoleao_round_size(s->nstock - s->next);
        out->action = SOLVER_DEAL;
        out->ncards = k;
        for (int i = 0; i < k; i++)
            out->cards[i] = g->card[s->stock[s->next + i]];
    } else {
        out->action = SOLVER_REDEAL;
    }
    return 1;
}

static int np_milestone(const gmove *m)
{
    return m->kind == NM_REDEAL;
}

/* The bases of the root (their counts checked) into s, their cards counted
 * in count. */
static void take_bases(np_state *s, const napoleao_position *p, int *count)
{
    napoleao_count_bases(p, count);
    for (int su = 0; su < 4; su++) {
        s->kb[su] = (uint8_t)p->kbases[su];
        s->ab[su] = (uint8_t)p->abases[su];
    }
}

static int napoleao_init(deck2_ops *f, const void *rules, const void *pos, unsigned flags, void *root, char *err,
                         int errlen)
{
    const napoleao_rules *r = rules;
    const napoleao_position *p = pos;
    char text[200];
    if (napoleao_check_rules(r, err, errlen) < 0 || napoleao_check_counts(r, p, err, errlen) < 0)
        return -1;
    int count[52] = { 0 };
    np_game *g = calloc(1, sizeof *g);
    if (!g)
        return rules_fail(err, errlen, "out of memory");
    np_state *s = root;
    memset(s, 0, sizeof *s);
    int nrid = 0;
    for (int i = 0; i < NAPOLEAO_PILES; i++) {
        int later = (p->nstock + NAPOLEAO_PILES - 1) / NAPOLEAO_PILES;
        if (p->npiles[i] < 0 || p->npiles[i] + later > NP_MAXP) {
            free(g);
            snprintf(text, sizeof text,
                     "position: pile %d holds %d cards; the core takes at most %d with the stock dealt", i + 1,
                     p->npiles[i], NP_MAXP);
            return rules_fail(err, errlen, text);
        }
        for (int j = 0; j < p->npiles[i]; j++) {
            s->pile[i][j] = (uint8_t)nrid;
            g->card[nrid++] = p->piles[i][j];
        }
        s->npile[i] = (uint8_t)p->npiles[i];
    }
    if (nrid + p->nstock > NP_CARDS) {
        free(g);
        return rules_fail(err, errlen, "position: more than 104 cards on the piles and in the stock");
    }
    for (int j = 0; j < p->nstock; j++) {
        s->stock[j] = (uint8_t)nrid;
        g->card[nrid++] = p->stock[j];
    }
    for (int i = 0; i < nrid; i++) {
        if (g->card[i] >= 52) {
            free(g);
            return rules_fail(err, errlen, "position: a card id is not 0..51");
        }
        count[g->card[i]]++;
    }
    take_bases(s, p, count);
    if (rules_check_twice(count, " (piles, stock and bases)", err, errlen) < 0) {
        free(g);
        return -1;
    }
    s->nstock = (uint8_t)p->nstock;
    s->rounds = (uint8_t)p->rounds;
    g->rules = *r;
    g->flags = flags;
    g->nrid = nrid;
    g->root_redeals = p->redeals;
    g->last_pass = r->redeals - p->redeals;
    g->gone_bits = g->last_pass + 1 <= 3 ? 2 : 3;
    f->state_size = sizeof(np_state);
    f->key_words = (nrid * g->gone_bits + 7 + 3 + 16 + 1 + 1 + 63) / 64;
    f->max_score = 104;
    f->game = g;
    f->moves = np_moves;
    f->apply = np_apply;
    f->key = np_key;
    f->score = np_score;
    f->bound = np_bound;
    f->describe = np_describe;
    f->milestone = np_milestone;
    f->free_game = free;
    return 0;
}

static const deck2_game GAME = { sizeof(napoleao_rules), napoleao_state_size, napoleao_init };

/* The family's search, for the registry (registry.c). */
solver *napoleao_search_new(const void *rules, const void *pos, unsigned flags, char *err, int errlen)
{
    return deck2_search_new(&GAME, rules, pos, flags, err, errlen);
}
