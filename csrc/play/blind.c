/* blind.c - the blind players (play.h: solver_play_choose,
 * solver_play_blind, solver_play_distance): a family's strategies choose
 * from what a player sees (its play file's `choose`), and a game of one is
 * played here, for any family that has them, by the family's own verbs of
 * play. A game never offers a move that brings back one of its positions,
 * which it tells apart by their canonical keys (solver_play_key); the keys
 * are kept whole, so a repetition is never guessed from a hash. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "key.h"
#include "play.h"
#include "registry.h"
#include "rules.h"

/* Room for a key (a two-deck one, its 104 cards and counts, is under 300
 * bytes). */
#define KEY_ROOM SOLVER_KEY_ROOM

/* The family's blind players, given a checked table; else NULL with the
 * reason in err. */
static const family_entry *blind_family(int family, const void *rules, const void *table, char *err, int errlen)
{
    const family_entry *f = family_checked(family, rules, table, err, errlen);
    if (!f)
        return NULL;
    if (!f->play->choose) {
        char text[120];
        snprintf(text, sizeof text, "the %s games have no blind players", f->name);
        rules_fail(err, errlen, text);
        return NULL;
    }
    return f;
}

static int check_strategy(int strategy, char *err, int errlen)
{
    if (strategy == SOLVER_BLIND_SIMPLE || strategy == SOLVER_BLIND_CAREFUL)
        return 0;
    char text[80];
    snprintf(text, sizeof text, "no blind player %d: they are %d and %d", strategy, SOLVER_BLIND_SIMPLE,
             SOLVER_BLIND_CAREFUL);
    return rules_fail(err, errlen, text);
}

int solver_play_choose(int family, const void *rules, const void *table, int strategy, int within, int keep_last_cell,
                       const solver_move *offered, int n, char *err, int errlen)
{
    const family_entry *f = blind_family(family, rules, table, err, errlen);
    if (!f || check_strategy(strategy, err, errlen) < 0)
        return -2;
    if (n < 0 || (n > 0 && !offered)) {
        rules_fail(err, errlen, "offered: no moves given");
        return -2;
    }
    return f->play->choose(rules, table, strategy, within, keep_last_cell, offered, n);
}

int solver_play_distance(int family, const void *rules, const void *table, int card)
{
    char err[200];
    const family_entry *f = blind_family(family, rules, table, err, sizeof err);
    if (!f || !f->play->distance || card < 0 || card > 51)
        return -2;
    return f->play->distance(rules, table, card);
}

/* ------------------------------------------------------------------------
 * The positions of a game: their keys, whole, in one block (each its
 * length, two bytes, then its bytes), found through a table of their
 * offsets + 1 (0: an empty slot), hashed by FNV-1a. */

typedef struct {
    uint8_t *bytes;
    size_t used, room;
    size_t *slot;
    size_t cap, n;
} key_set;

static uint64_t fnv1a(const uint8_t *b, int n)
{
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

/* The slot of key: its own, or the empty one where it would go. */
static size_t *key_slot(const key_set *s, const uint8_t *key, int n)
{
    size_t j = (size_t)fnv1a(key, n) & (s->cap - 1);
    for (;; j = (j + 1) & (s->cap - 1)) {
        size_t at = s->slot[j];
        if (!at)
            return &s->slot[j];
        const uint8_t *k = s->bytes + at - 1;
        if ((k[0] | k[1] << 8) == n && memcmp(k + 2, key, (size_t)n) == 0)
            return &s->slot[j];
    }
}

static int key_known(const key_set *s, const uint8_t *key, int n)
{
    return *key_slot(s, key, n) != 0;
}

/* Adds key (if new); -1 out of memory. */
static int key_add(key_set *s, const uint8_t *key, int n)
{
    if ((s->n + 1) * 2 > s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 1024, *slot = calloc(cap, sizeof *slot), *old = s->slot, oldcap = s->cap;
        if (!slot)
            return -1;
        s->slot = slot;
        s->cap = cap;
        for (size_t j = 0; j < oldcap; j++)
            if (old[j]) {
                const uint8_t *k = s->bytes + old[j] - 1;
                *key_slot(s, k + 2, k[0] | k[1] << 8) = old[j];
            }
        free(old);
    }
    size_t *at = key_slot(s, key, n);
    if (*at)
        return 0;
    if (s->used + (size_t)n + 2 > s->room) {
        size_t room = (s->room ? s->room * 2 : 65536) + (size_t)n + 2;
        uint8_t *bytes = realloc(s->bytes, room);
        if (!bytes)
            return -1;
        s->bytes = bytes;
        s->room = room;
    }
    uint8_t *k = s->bytes + s->used;
    k[0] = (uint8_t)(n & 255);
    k[1] = (uint8_t)(n >> 8);
    memcpy(k + 2, key, (size_t)n);
    *at = s->used + 1;
    s->used += (size_t)n + 2;
    s->n++;
    return 0;
}

/* ------------------------------------------------------------------------
 * A game */

typedef struct {
    const family_entry *f;
    const void *rules;
    key_set seen;
    uint8_t key[KEY_ROOM];
    solver_move *all, *offered;
    void *after;
} game;

/* The canonical key of table into g->key: its length. */
static int game_key(game *g, const void *table)
{
    key_text k = { g->key, KEY_ROOM, 0 };
    g->f->play->key(g->rules, table, 1, &k);
    return k.n;
}

/* The moves of table that bring back no position of the game, into
 * g->offered: how many, or -1 with the reason in err. */
static int offered_moves(game *g, const void *table, char *err, int errlen)
{
    const play_verbs *play = g->f->play;
    int n = play->moves(g->rules, table, g->all, PLAY_MAX_MOVES, err, errlen), k = 0;
    if (n < 0)
        return -1;
    for (int i = 0; i < n && i < PLAY_MAX_MOVES; i++) {
        memcpy(g->after, table, g->f->table.size);
        if (play->apply(g->rules, g->after, &g->all[i], NULL, err, errlen) < 0)
            return -1; /* (the family refused a move it listed: its reason says which) */
        if (!key_known(&g->seen, g->key, game_key(g, g->after)))
            g->offered[k++] = g->all[i];
    }
    return k;
}

static int play_game(game *g, void *table, int strategy, int within, int keep_last_cell, int max_moves,
                     solver_move *line, int cap, char *err, int errlen)
{
    int played = 0;
    if (key_add(&g->seen, g->key, game_key(g, table)) < 0)
        return rules_fail(err, errlen, "out of memory");
    while (played < max_moves) {
        int n = offered_moves(g, table, err, errlen);
        if (n < 0)
            return -1;
        int c = n ? g->f->play->choose(g->rules, table, strategy, within, keep_last_cell, g->offered, n) : -1;
        if (c < 0 || c >= n)
            break;
        solver_move made;
        if (g->f->play->apply(g->rules, table, &g->offered[c], &made, err, errlen) < 0)
            return -1;
        if (line && played < cap)
            line[played] = made;
        played++;
        if (key_add(&g->seen, g->key, game_key(g, table)) < 0)
            return rules_fail(err, errlen, "out of memory");
    }
    return played;
}

int solver_play_blind(int family, const void *rules, void *table, int strategy, int within, int keep_last_cell,
                      int max_moves, solver_move *line, int cap, int *positions, char *err, int errlen)
{
    const family_entry *f = blind_family(family, rules, table, err, errlen);
    if (!f || check_strategy(strategy, err, errlen) < 0)
        return -1;
    game g = { .f = f, .rules = rules };
    g.all = malloc(PLAY_MAX_MOVES * sizeof *g.all);
    g.offered = malloc(PLAY_MAX_MOVES * sizeof *g.offered);
    g.after = malloc(f->table.size);
    int played = g.all && g.offered && g.after
                     ? play_game(&g, table, strategy, within, keep_last_cell, max_moves, line, cap, err, errlen)
                     : rules_fail(err, errlen, "out of memory");
    if (positions)
        *positions = (int)g.seen.n;
    free(g.all);
    free(g.offered);
    free(g.after);
    free(g.seen.bytes);
    free(g.seen.slot);
    return played;
}
