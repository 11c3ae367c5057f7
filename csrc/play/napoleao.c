/* napoleao.c - Paciência Napoleão's rules of play for a player (play.h):
 * the start of a deal, the legal moves, a move applied, the score and the
 * restriction of the first rounds, and the view. It plays as the reference
 * does: the engine solver/rules/napoleao.py (legal_moves, play, restricted)
 * behind the reference player of tests/reference_players.py, from the start
 * of solver/families/napoleao/position.py; the position is the struct
 * solver/families/napoleao/core.py makes of it.
 *
 * Places as the player names them: piles 1..12, King and Ace bases by suit
 * 0..3 (C S H D). Only a pile's top card moves, and only onto a base of its
 * suit; a deal puts the next card of the stock on each pile in turn (12, or
 * all that is left); a redeal gathers the piles into the stock again. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "registry.h"
#include "key.h"
#include "view.h"
#include "layout.h"
#include "rules.h"
#include "deck2_ops.h"
#include "napoleao_rules.h"

#define PACK 104      /* cards of the two decks */
#define KING 13
#define MAX_MOVES (2 * NAPOLEAO_PILES + 1)

enum { KBASE = 0, ABASE = 1 }; /* a base's kind, in the order moves list them */

static const char *const SUIT_SYMBOLS[4] = { "♣", "♠", "♥", "♦" };
static const char *const BASE_NAMES[2] = { "King base", "Ace base" };

/* A card as a player reads it (solver/cards.py's pretty): "10♥", "J♦". */
static const char *card_text(int card, char *buf, size_t size)
{
    static const char *const ranks[13] = { "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K" };
    snprintf(buf, size, "%s%s", ranks[card % 13], SUIT_SYMBOLS[card_suit(card)]);
    return buf;
}

/* A rank as a message says it: "an A", "a 5", "an 8", "a 10", "a K". */
static const char *rank_text(int rank)
{
    static const char *const names[14] = { "",    "an A", "a 2", "a 3",  "a 4", "a 5", "a 6",
                                           "a 7", "an 8", "a 9", "a 10", "a J", "a Q", "a K" };
    return names[rank];
}

static int base_count(const napoleao_position *p, int kind, int suit)
{
    return kind == KBASE ? p->kbases[suit] : p->abases[suit];
}

/* The rank the base of `kind` and `suit` takes next, or 0 when it is full. */
static int base_wants(const napoleao_position *p, int kind, int suit)
{
    return napoleao_base_wants(kind == KBASE, base_count(p, kind, suit));
}

static int restricted(const napoleao_rules *r, const napoleao_position *p)
{
    return napoleao_restricted(r, p->redeals, p->rounds);
}

/* Whether the top card of pile i (0-based) goes onto its suit's base of `kind` now. */
static int fits(const napoleao_rules *r, const napoleao_position *p, int i, int kind)
{
    if (p->npiles[i] == 0)
        return 0;
    int card = p->piles[i][p->npiles[i] - 1];
    return napoleao_fits(card_rank(card), kind == KBASE, base_count(p, kind, card_suit(card)), restricted(r, p));
}

static int can_redeal(const napoleao_rules *r, const napoleao_position *p)
{
    if (p->nstock > 0 || !napoleao_redeal_left(r, p->redeals))
        return 0;
    for (int i = 0; i < NAPOLEAO_PILES; i++)
        if (p->npiles[i] > 0)
            return 1;
    return 0;
}

/* ------------------------------------------------------------------------
 * A possible position, as the search's constructor has it (napoleao_init). */

static int check_rules(const napoleao_rules *r, char *err, int errlen)
{
    if (!r)
        return rules_fail(err, errlen, "rules: none given");
    return napoleao_check_rules(r, err, errlen);
}

/* Counts n cards into count; -1 if one is not a card id 0..51. */
static int count_cards(const uint8_t *cards, int n, int *count)
{
    for (int i = 0; i < n; i++) {
        if (cards[i] >= 52)
            return -1;
        count[cards[i]]++;
    }
    return 0;
}

static int check_counts(const napoleao_rules *r, const napoleao_position *p, char *err, int errlen)
{
    for (int i = 0; i < NAPOLEAO_PILES; i++)
        if (p->npiles[i] < 0 || p->npiles[i] > PACK)
            return rules_fail(err, errlen, "position: a pile must hold 0..104 cards");
    return napoleao_check_counts(r, p, err, errlen);
}

/* 0 if p is a position of the rules r: its counts in range and every card
 * there twice across the stock, the piles and the bases; else -1 and why. */
static int check_position(const napoleao_rules *r, const napoleao_position *p, char *err, int errlen)
{
    if (check_rules(r, err, errlen) < 0)
        return -1;
    if (!p)
        return rules_fail(err, errlen, "position: none given");
    if (check_counts(r, p, err, errlen) < 0)
        return -1;
    int count[52] = { 0 };
    int bad = count_cards(p->stock, p->nstock, count);
    for (int i = 0; i < NAPOLEAO_PILES; i++)
        bad |= count_cards(p->piles[i], p->npiles[i], count);
    if (bad)
        return rules_fail(err, errlen, "position: a card id is not 0..51");
    napoleao_count_bases(p, count);
    return rules_check_twice(count, " (piles, stock and bases)", err, errlen);
}

/* ------------------------------------------------------------------------
 * The start of a deal (NapoleaoPosition.start). */

/* The index of the first card of `rank` in cards, or -1. */
static int first_of_rank(const uint8_t *cards, int n, int rank)
{
    for (int i = 0; i < n; i++)
        if (card_rank(cards[i]) == rank)
            return i;
    return -1;
}

static int napoleao_play_start(const void *rules, const uint8_t *cards, int n, void *table, char *err, int errlen)
{
    const napoleao_rules *r = rules;
    napoleao_position *out = table;
    if (check_rules(r, err, errlen) < 0)
        return -1;
    if (!cards || !out || n != PACK)
        return rules_fail(err, errlen, "a start takes the 104 cards of two decks");
    int count[52] = { 0 };
    if (count_cards(cards, n, count) < 0)
        return rules_fail(err, errlen, "a card id is not 0..51");
    if (rules_check_twice(count, " (the pack)", err, errlen) < 0)
        return -1;
    memset(out, 0, sizeof *out);
    int king = -1, ace = -1;
    if (r->start_bases) {
        /* The pack's first King and first Ace (from its top) start their bases. */
        king = first_of_rank(cards, n, KING);
        ace = first_of_rank(cards, n, 1);
        out->kbases[card_suit(cards[king])] = 1;
        out->abases[card_suit(cards[ace])] = 1;
    }
    for (int i = 0; i < n; i++)
        if (i != king && i != ace)
            out->stock[out->nstock++] = cards[i];
    return 0;
}

/* ------------------------------------------------------------------------
 * The legal moves (legal_moves), in the engine's order. */

static solver_move base_move(int card, int pile, int kind)
{
    solver_move m;
    memset(&m, 0, sizeof m);
    m.action = SOLVER_MOVE;
    m.card = card;
    m.src = SOLVER_PLACE_PILE;
    m.src_index = pile + 1;
    m.dst = kind == KBASE ? SOLVER_PLACE_KBASE : SOLVER_PLACE_ABASE;
    m.dst_index = card_suit(card);
    return m;
}

/* A deal or a redeal as play_moves lists it (a deal names its cards), before it is made. */
static solver_move stock_move(const napoleao_position *p, int action)
{
    solver_move m;
    memset(&m, 0, sizeof m);
    m.card = SOLVER_NO_CARD;
    m.action = action;
    if (action == SOLVER_DEAL) {
        m.src = SOLVER_PLACE_STOCK;
        m.ncards = napoleao_round_size(p->nstock);
        memcpy(m.cards, p->stock, (size_t)m.ncards);
    }
    return m;
}

/* Every legal move into all (MAX_MOVES of room); returns how many. */
static int list_moves(const napoleao_rules *r, const napoleao_position *p, solver_move *all)
{
    int n = 0;
    for (int i = 0; i < NAPOLEAO_PILES; i++)
        for (int kind = KBASE; kind <= ABASE; kind++)
            if (fits(r, p, i, kind))
                all[n++] = base_move(p->piles[i][p->npiles[i] - 1], i, kind);
    if (!napoleao_may_deal(r, n > 0))
        return n;
    if (p->nstock == 0 && !can_redeal(r, p))
        return n;
    all[n++] = stock_move(p, p->nstock == 0 ? SOLVER_REDEAL : SOLVER_DEAL);
    return n;
}

static int napoleao_play_moves(const void *rules, const void *table, solver_move *out, int max, char *err, int errlen)
{
    const napoleao_rules *r = rules;
    const napoleao_position *p = table;
    if (check_position(r, p, err, errlen) < 0)
        return -1;
    solver_move all[MAX_MOVES];
    int n = list_moves(r, p, all);
    for (int i = 0; i < n && i < max && out; i++)
        out[i] = all[i];
    return n;
}

/* ------------------------------------------------------------------------
 * A deal and a redeal (_deal, _redeal). */

/* Under deal_when_stuck, -1 and why if a playable card fits a base (no
 * round and no redeal then: _check_nothing_fits); `what` is what is dealt. */
static int refuse_while_fitting(const napoleao_rules *r, const napoleao_position *p, const char *what, char *err,
                                int errlen)
{
    for (int i = 0; i < NAPOLEAO_PILES; i++)
        for (int kind = KBASE; kind <= ABASE; kind++)
            if (!napoleao_may_deal(r, fits(r, p, i, kind))) {
                char text[200], name[8];
                int card = p->piles[i][p->npiles[i] - 1];
                snprintf(text, sizeof text,
                         "%s on pile %d still fits %s:%c: these rules deal %s only when no playable card fits a base",
                         card_text(card, name, sizeof name), i + 1, kind == KBASE ? "kbase" : "abase",
                         CARD_SUITS[card_suit(card)], what);
                return rules_fail(err, errlen, text);
            }
    return 0;
}

static int apply_deal(const napoleao_rules *r, napoleao_position *p, char *err, int errlen)
{
    if (p->nstock == 0)
        return rules_fail(err, errlen, can_redeal(r, p) ? "the stock is empty (redeal first)" : "the stock is empty");
    if (refuse_while_fitting(r, p, "a round", err, errlen) < 0)
        return -1;
    int k = napoleao_round_size(p->nstock);
    for (int i = 0; i < k; i++)
        p->piles[i][p->npiles[i]++] = p->stock[i];
    memmove(p->stock, p->stock + k, (size_t)(p->nstock - k));
    memset(p->stock + p->nstock - k, 0, (size_t)k);
    p->nstock -= k;
    p->rounds++;
    return 0;
}

static int refuse_redeal(const napoleao_rules *r, const napoleao_position *p, char *err, int errlen)
{
    char text[200];
    if (r->redeals == 0)
        return rules_fail(err, errlen, "these rules deal the pack once: there is no redeal");
    if (p->nstock > 0) {
        snprintf(text, sizeof text, "the stock still holds %d card%s: deal them first", p->nstock,
                 p->nstock != 1 ? "s" : "");
        return rules_fail(err, errlen, text);
    }
    if (!napoleao_redeal_left(r, p->redeals)) {
        snprintf(text, sizeof text, "no redeal left: %d redeal%s allowed, %d made (this is the last pass, %d of %d)",
                 r->redeals, r->redeals != 1 ? "s" : "", p->redeals, r->redeals + 1, r->redeals + 1);
        return rules_fail(err, errlen, text);
    }
    if (!can_redeal(r, p))
        return rules_fail(err, errlen, "the piles are empty: nothing to redeal");
    return refuse_while_fitting(r, p, "again", err, errlen);
}

static int apply_redeal(const napoleao_rules *r, napoleao_position *p, char *err, int errlen)
{
    if (refuse_redeal(r, p, err, errlen) < 0)
        return -1;
    /* Gathered without shuffling: each pile keeps its order, bottom card
     * first; pile 1's cards first, or pile 12's with deal_from_last. */
    memset(p->stock, 0, sizeof p->stock);
    for (int j = 0; j < NAPOLEAO_PILES; j++) {
        int i = napoleao_gathered(r, j);
        memcpy(p->stock + p->nstock, p->piles[i], (size_t)p->npiles[i]);
        p->nstock += p->npiles[i];
    }
    memset(p->piles, 0, sizeof p->piles);
    memset(p->npiles, 0, sizeof p->npiles);
    p->rounds = 0;
    p->redeals++;
    return 0;
}

/* ------------------------------------------------------------------------
 * A card moved from a pile to a base (the reference's to_engine, then _move_card). */

/* A place's name as the solution format writes it ("pile:3", "kbase:H", "waste"). */
static const char *place_text(int kind, int index, char *buf, size_t size)
{
    static const char *const names[] = { "stock", "waste", "cell", "reserve", "corner", "tomb",    "pile",
                                         "kbase", "abase", "lid",  "side",    "bottom", "reserve", "foundation" };
    int count = (int)(sizeof names / sizeof names[0]);
    if (kind < 0 || kind >= count)
        snprintf(buf, size, "%d", kind);
    else if (kind == SOLVER_PLACE_KBASE || kind == SOLVER_PLACE_ABASE || kind == SOLVER_PLACE_FOUNDATION)
        snprintf(buf, size, "%s:%c", names[kind], index >= 0 && index < 4 ? CARD_SUITS[index] : '?');
    else if (kind < SOLVER_PLACE_PILE || index == 0)
        snprintf(buf, size, "%s", names[kind]);
    else
        snprintf(buf, size, "%s:%d", names[kind], index);
    return buf;
}

/* The pile (0-based) m takes its card from, into *pile; -1 and why if the
 * player's move names no pile, an empty one, or a card not on its top. */
static int move_source(const napoleao_position *p, const solver_move *m, int *pile, char *err, int errlen)
{
    char text[200], name[24];
    if (m->card != SOLVER_NO_CARD && (m->card < 0 || m->card >= 52))
        return rules_fail(err, errlen, "the card of the move is not a card id 0..51");
    if (m->src == SOLVER_PLACE_KBASE || m->src == SOLVER_PLACE_ABASE)
        return rules_fail(err, errlen, "cards on the bases never move again");
    if (m->src != SOLVER_PLACE_PILE) {
        snprintf(text, sizeof text, "unknown place '%s': a card leaves only a pile (pile:1 .. pile:12)",
                 place_text(m->src, m->src_index, name, sizeof name));
        return rules_fail(err, errlen, text);
    }
    int i = m->src_index - 1;
    if (m->src_index == 0)
        return rules_fail(err, errlen, "say which pile: pile:1 .. pile:12");
    if (i < 0 || i >= NAPOLEAO_PILES) {
        snprintf(text, sizeof text, "there is no 'pile:%d': piles are numbered 1 to %d", m->src_index, NAPOLEAO_PILES);
        return rules_fail(err, errlen, text);
    }
    if (p->npiles[i] == 0) {
        snprintf(text, sizeof text, "pile %d is empty", i + 1);
        return rules_fail(err, errlen, text);
    }
    int top = p->piles[i][p->npiles[i] - 1];
    if (m->card != SOLVER_NO_CARD && m->card != top) {
        snprintf(text, sizeof text, "the top of pile %d is %s", i + 1, card_text(top, name, sizeof name));
        return rules_fail(err, errlen, text);
    }
    *pile = i;
    return 0;
}

/* The kind of base m sends card to, into *kind; -1 and why if m's
 * destination is no base, or a base of another suit. */
static int move_destination(const solver_move *m, int card, int *kind, char *err, int errlen)
{
    char text[200], name[24];
    int is_base = m->dst == SOLVER_PLACE_KBASE || m->dst == SOLVER_PLACE_ABASE;
    if (is_base && m->dst_index == SOLVER_ANY_SUIT) {
        *kind = m->dst == SOLVER_PLACE_KBASE ? KBASE : ABASE;
        return 0;
    }
    int known = is_base ? m->dst_index >= 0 && m->dst_index < 4
                        : m->dst == SOLVER_PLACE_PILE && m->dst_index >= 1 && m->dst_index <= NAPOLEAO_PILES;
    if (!known) {
        snprintf(text, sizeof text,
                 "unknown destination place '%s'; places are pile:1..pile:12, kbase:S and abase:S"
                 " (S one of C, S, H, D)",
                 place_text(m->dst, m->dst_index, name, sizeof name));
        return rules_fail(err, errlen, text);
    }
    if (!is_base)
        return rules_fail(err, errlen, "cards never move between piles: a pile card goes only to a base");
    if (m->dst_index != card_suit(card)) {
        char suit = CARD_SUITS[card_suit(card)];
        snprintf(text, sizeof text, "a base takes only its own suit: %s goes on kbase:%c or abase:%c",
                 card_text(card, name, sizeof name), suit, suit);
        return rules_fail(err, errlen, text);
    }
    *kind = m->dst == SOLVER_PLACE_KBASE ? KBASE : ABASE;
    return 0;
}

/* -1 and why if the base of `kind` of card's suit does not take card now. */
static int refuse_base(const napoleao_rules *r, const napoleao_position *p, int card, int kind, char *err, int errlen)
{
    char text[200], name[8];
    int suit = card_suit(card), wants = base_wants(p, kind, suit), n = base_count(p, kind, suit);
    const char *symbol = SUIT_SYMBOLS[suit], *base = BASE_NAMES[kind];
    if (wants == 0)
        snprintf(text, sizeof text, "the %s %s is full", symbol, base);
    else if (card_rank(card) != wants && n == 0)
        snprintf(text, sizeof text, "the empty %s %s takes only %s", symbol, base, rank_text(wants));
    else if (card_rank(card) != wants) {
        int top = suit * 13 + (kind == KBASE ? KING + 1 - n : n) - 1;
        snprintf(text, sizeof text, "the %s %s shows %s and wants %s", symbol, base, card_text(top, name, sizeof name),
                 rank_text(wants));
    } else if (!napoleao_fits(card_rank(card), kind == KBASE, n, restricted(r, p)))
        snprintf(text, sizeof text,
                 "round %d is restricted: only a King or an Ace that starts an empty base may leave the piles"
                 " (free play from round %d)",
                 p->rounds, r->restricted_rounds + 1);
    else
        return 0;
    return rules_fail(err, errlen, text);
}

static int apply_move(const napoleao_rules *r, napoleao_position *p, const solver_move *m, solver_move *played,
                      char *err, int errlen)
{
    int pile = 0, kind = KBASE;
    if (move_source(p, m, &pile, err, errlen) < 0)
        return -1;
    int card = p->piles[pile][p->npiles[pile] - 1];
    if (move_destination(m, card, &kind, err, errlen) < 0 || refuse_base(r, p, card, kind, err, errlen) < 0)
        return -1;
    *played = base_move(card, pile, kind);
    p->piles[pile][--p->npiles[pile]] = 0;
    if (kind == KBASE)
        p->kbases[card_suit(card)]++;
    else
        p->abases[card_suit(card)]++;
    return 0;
}

static int napoleao_play_apply(const void *rules, void *table, const solver_move *m, solver_move *played, char *err,
                               int errlen)
{
    const napoleao_rules *r = rules;
    napoleao_position *p = table;
    char text[200];
    solver_move done;
    int rc;
    if (check_position(r, p, err, errlen) < 0)
        return -1;
    if (!m)
        return rules_fail(err, errlen, "no move given");
    switch (m->action) {
    case SOLVER_DEAL:
    case SOLVER_REDEAL:
        done = stock_move(p, m->action); /* as listed, before it is made: a deal names its cards */
        rc = m->action == SOLVER_DEAL ? apply_deal(r, p, err, errlen) : apply_redeal(r, p, err, errlen);
        break;
    case SOLVER_MOVE: rc = apply_move(r, p, m, &done, err, errlen); break;
    case SOLVER_TURN:
    case SOLVER_JEWEL_FILL:
        snprintf(text, sizeof text, "there is no %s in Paciência Napoleão; actions are deal, redeal, move",
                 m->action == SOLVER_TURN ? "turn" : "jewel");
        return rules_fail(err, errlen, text);
    default:
        snprintf(text, sizeof text, "unknown action %d; actions are deal, redeal, move", m->action);
        return rules_fail(err, errlen, text);
    }
    if (rc == 0 && played)
        *played = done;
    return rc;
}

/* ------------------------------------------------------------------------
 * The score and the restriction. */

/* Cards on the bases; -1 for a base of an impossible count (not 0..13). */
static int napoleao_play_score(const void *rules, const void *table)
{
    (void)rules;
    const napoleao_position *p = table;
    int score = 0;
    if (!p)
        return -1;
    for (int s = 0; s < 4; s++) {
        if (p->kbases[s] < 0 || p->kbases[s] > NAPOLEAO_BASE || p->abases[s] < 0 || p->abases[s] > NAPOLEAO_BASE)
            return -1;
        score += p->kbases[s] + p->abases[s];
    }
    return score;
}

static int napoleao_play_restricted(const void *rules, const void *table)
{
    const napoleao_rules *r = rules;
    const napoleao_position *p = table;
    return r && p && restricted(r, p);
}

/* The table as a player sees it (solver_play_view): no card of the stock. */
static void napoleao_play_view(const void *rules, const void *table, view_text *v)
{
    const napoleao_rules *r = rules;
    const napoleao_position *p = table;
    view_put(v, "{\"stock\": {\"count\": %d}, \"piles\": [", p->nstock);
    for (int i = 0; i < NAPOLEAO_PILES; i++) {
        view_put(v, i ? ", " : "");
        view_top(v, p->piles[i], p->npiles[i]);
    }
    view_put(v, "]");
    for (int kind = KBASE; kind <= ABASE; kind++) {
        const int *counts = kind == KBASE ? p->kbases : p->abases;
        view_put(v, kind == KBASE ? ", \"kbases\": {" : ", \"abases\": {");
        for (int s = 0; s < 4; s++) {
            int n = counts[s], top = s * 13 + (kind == KBASE ? KING + 1 - n : n) - 1;
            view_put(v, "%s\"%c\": ", s ? ", " : "", CARD_SUITS[s]);
            view_count(v, n, n ? top : -1);
        }
        view_put(v, "}");
    }
    view_put(v, ", \"pass\": {\"number\": %d, \"of\": %d}, \"round\": %d, \"restricted\": %s}", p->redeals + 1,
             r->redeals + 1, p->rounds, restricted(r, p) ? "true" : "false");
}

/* The layout (solver_play_layout): the twelve piles in a ring, the King
 * bases above the Ace bases inside it, the stock at its corner. */
static void napoleao_layout_ring(const napoleao_position *p, view_text *v)
{
    static const int AT[NAPOLEAO_PILES][2] = { { 1, 2 }, { 1, 3 }, { 1, 4 }, { 1, 5 }, { 2, 6 }, { 3, 6 },
                                               { 4, 5 }, { 4, 4 }, { 4, 3 }, { 4, 2 }, { 3, 1 }, { 2, 1 } };
    char held[80];
    for (int i = 0; i < NAPOLEAO_PILES; i++) {
        layout_spot s = layout_new("pile:%d", i + 1);
        s.row = AT[i][0], s.col = AT[i][1];
        s.cards = p->piles[i], s.ncards = s.count = p->npiles[i];
        layout_name(&s, "pile %d: %s", i + 1,
                    layout_holding(held, sizeof held, s.count, s.count ? s.cards[s.count - 1] : -1));
        layout_label(&s, "pile %d", i + 1);
        layout_put(v, i == 0, &s);
    }
}

static void napoleao_layout_bases(const napoleao_position *p, view_text *v)
{
    static const char *const EMPTY[2][4] = { { "K♣", "K♠", "K♥", "K♦" }, { "A♣", "A♠", "A♥", "A♦" } };
    char card[32];
    for (int kind = KBASE; kind <= ABASE; kind++)
        for (int s = 0; s < 4; s++) {
            int k = kind == KBASE ? 0 : 1, n = (kind == KBASE ? p->kbases : p->abases)[s];
            uint8_t top = (uint8_t)(s * 13 + (kind == KBASE ? KING + 1 - n : n) - 1);
            layout_spot b = layout_new("%cbase:%c", k ? 'a' : 'k', CARD_SUITS[s]);
            b.row = 2 + k, b.col = 2 + s, b.cards = &top, b.ncards = n > 0, b.count = n, b.empty = EMPTY[k][s];
            b.home = 1;
            if (n)
                layout_name(&b, "%s base of %s: %d of 13, %s on top", k ? "Ace" : "King", layout_suit(s), n,
                            layout_card(card, sizeof card, top));
            else
                layout_name(&b, "%s base of %s: empty", k ? "Ace" : "King", layout_suit(s));
            layout_label(&b, "%d/13", n);
            layout_put(v, 0, &b);
        }
}

static void napoleao_play_layout(const void *rules, const void *table, int redeal, view_text *v)
{
    const napoleao_rules *r = rules;
    const napoleao_position *p = table;
    char count[24], status[120];
    layout_begin(v, "column");
    layout_area(v, 1, 6, 1, 0, 0);
    napoleao_layout_ring(p, v);
    napoleao_layout_bases(p, v);
    layout_spot s = layout_new("@deck");
    s.row = 1, s.col = 6, s.count = p->nstock, s.back = 1, s.empty = redeal ? "↻" : "empty";
    s.action = p->nstock ? "deal" : "redeal";
    layout_name(&s, "stock: %s, pass %d of %d",
                p->nstock ? layout_cards(count, sizeof count, p->nstock)
                : redeal  ? "empty, redeal"
                          : "empty",
                p->redeals + 1, r->redeals + 1);
    layout_label(&s, "stock %d · %d/%d", p->nstock, p->redeals + 1, r->redeals + 1);
    layout_put(v, 0, &s);
    snprintf(status, sizeof status, "Pass %d of %d · round %d%s", p->redeals + 1, r->redeals + 1, p->rounds,
             restricted(r, p) ? " (only Kings and Aces leave the piles)" : "");
    layout_end(v, status);
}

/* Every field of the game (its piles are not interchangeable: none is
 * canonical but itself). */
static void napoleao_play_key(const void *rules, const void *table, int canonical, key_text *k)
{
    (void)rules;
    (void)canonical;
    const napoleao_position *p = table;
    key_cards(k, p->stock, p->nstock);
    for (int i = 0; i < NAPOLEAO_PILES; i++)
        key_cards(k, p->piles[i], p->npiles[i]);
    key_ints(k, p->kbases, 4);
    key_ints(k, p->abases, 4);
    key_int(k, p->redeals);
    key_int(k, p->rounds);
}

/* The family's rules of play, for the registry (families/registry.c). */
const play_verbs napoleao_play = {
    .start = napoleao_play_start,
    .moves = napoleao_play_moves,
    .apply = napoleao_play_apply,
    .score = napoleao_play_score,
    .restricted = napoleao_play_restricted,
    .view = napoleao_play_view,
    .layout = napoleao_play_layout,
    .key = napoleao_play_key,
    .places = (const int[]){ SOLVER_PLACE_STOCK, SOLVER_PLACE_PILE, SOLVER_PLACE_KBASE, SOLVER_PLACE_ABASE, -1 },
};

solver *napoleao_search_new(const void *rules, const void *position, unsigned flags, char *err, int errlen);

static const family_field RULES_FIELDS[] = {
    FAMILY_FIELD(napoleao_rules, restricted_rounds), FAMILY_FIELD(napoleao_rules, restricted_again),
    FAMILY_FIELD(napoleao_rules, redeals),           FAMILY_FIELD(napoleao_rules, deal_from_last),
    FAMILY_FIELD(napoleao_rules, deal_when_stuck),   FAMILY_FIELD(napoleao_rules, start_bases),
};
static const family_field POSITION_FIELDS[] = {
    FAMILY_FIELD(napoleao_position, stock),   FAMILY_FIELD(napoleao_position, nstock),
    FAMILY_FIELD(napoleao_position, piles),   FAMILY_FIELD(napoleao_position, npiles),
    FAMILY_FIELD(napoleao_position, kbases),  FAMILY_FIELD(napoleao_position, abases),
    FAMILY_FIELD(napoleao_position, redeals), FAMILY_FIELD(napoleao_position, rounds),
};

/* The family, for the registry (families/registry.c): a player's table is
 * the search's position. */
const family_entry napoleao_family = {
    .name = "napoleao",
    .play = &napoleao_play,
    .search = napoleao_search_new,
    .rules = FAMILY_STRUCT(napoleao_rules, RULES_FIELDS),
    .table = FAMILY_STRUCT(napoleao_position, POSITION_FIELDS),
    .position = FAMILY_STRUCT(napoleao_position, POSITION_FIELDS),
};
