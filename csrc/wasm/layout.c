/* layout.c - the structs of the C API as this build lays them out, for the
 * JavaScript that fills them in the WebAssembly build (solver/web/static/
 * core.js): offsets and sizes as the compiler sees them, never copied by
 * hand. Compiled only into the WebAssembly module (make wasm); Python's
 * cffi reads the native layout from the headers itself. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "deck2.h"
#include "play.h"
#include "registry.h"
#include "solver.h"

/* The API's own structs, which every family's verbs take. */
static const family_field MOVE_FIELDS[] = {
    FAMILY_FIELD(solver_move, action),    FAMILY_FIELD(solver_move, card),  FAMILY_FIELD(solver_move, src),
    FAMILY_FIELD(solver_move, src_index), FAMILY_FIELD(solver_move, dst),   FAMILY_FIELD(solver_move, dst_index),
    FAMILY_FIELD(solver_move, ncards),    FAMILY_FIELD(solver_move, cards),
};
static const family_field STATS_FIELDS[] = {
    FAMILY_FIELD(solver_stats, positions),  FAMILY_FIELD(solver_stats, seconds),
    FAMILY_FIELD(solver_stats, best_score), FAMILY_FIELD(solver_stats, peak_bytes),
    FAMILY_FIELD(solver_stats, held_bytes),
};
static const family_struct structs[] = {
    FAMILY_STRUCT(solver_move, MOVE_FIELDS),
    FAMILY_STRUCT(solver_stats, STATS_FIELDS),
};

/* The numbers the JavaScript passes or reads back: statuses, every shortcut,
 * the kinds of move and place (each family adds its own: registry.h). */
static const family_constant constants[] = {
    FAMILY_CONSTANT(SOLVER_WON),
    FAMILY_CONSTANT(SOLVER_LOST),
    FAMILY_CONSTANT(SOLVER_LIMIT_POSITIONS),
    FAMILY_CONSTANT(SOLVER_LIMIT_SECONDS),
    FAMILY_CONSTANT(SOLVER_LIMIT_MEMORY),
    FAMILY_CONSTANT(SOLVER_INTERRUPTED),
    FAMILY_CONSTANT(SOLVER_ERROR),
    FAMILY_CONSTANT(SOLVER_NO_CARD),
    FAMILY_CONSTANT(SOLVER_ANY_SUIT),
    FAMILY_CONSTANT(DECK2_NO_CARD),
    FAMILY_CONSTANT(DECK2_ALL_SHORTCUTS),
    FAMILY_CONSTANT(PLAY_MAX_MOVES),
    FAMILY_CONSTANT(SOLVER_KEY_ROOM),
    FAMILY_CONSTANT(SOLVER_BLIND_SIMPLE),
    FAMILY_CONSTANT(SOLVER_BLIND_CAREFUL),
    FAMILY_CONSTANT(SOLVER_BLIND_WITHIN),
    FAMILY_CONSTANT(SOLVER_NUMBERED_NONE),
    FAMILY_CONSTANT(SOLVER_NUMBERED_INDEX),
    FAMILY_CONSTANT(SOLVER_NUMBERED_SUIT),
    FAMILY_CONSTANT(SOLVER_NUMBERED_FOR_PLAYER),
    FAMILY_CONSTANT(SOLVER_TURN),
    FAMILY_CONSTANT(SOLVER_REDEAL),
    FAMILY_CONSTANT(SOLVER_MOVE),
    FAMILY_CONSTANT(SOLVER_DEAL),
    FAMILY_CONSTANT(SOLVER_JEWEL_FILL),
    FAMILY_CONSTANT(SOLVER_PLACE_STOCK),
    FAMILY_CONSTANT(SOLVER_PLACE_WASTE),
    FAMILY_CONSTANT(SOLVER_PLACE_CELL),
    FAMILY_CONSTANT(SOLVER_PLACE_RESERVE),
    FAMILY_CONSTANT(SOLVER_PLACE_CORNER),
    FAMILY_CONSTANT(SOLVER_PLACE_TOMB),
    FAMILY_CONSTANT(SOLVER_PLACE_PILE),
    FAMILY_CONSTANT(SOLVER_PLACE_KBASE),
    FAMILY_CONSTANT(SOLVER_PLACE_ABASE),
    FAMILY_CONSTANT(SOLVER_PLACE_LID),
    FAMILY_CONSTANT(SOLVER_PLACE_SIDE),
    FAMILY_CONSTANT(SOLVER_PLACE_BOTTOM),
    FAMILY_CONSTANT(SOLVER_PLACE_RESERVE_PILE),
    FAMILY_CONSTANT(SOLVER_PLACE_FOUNDATION),
};

#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

/* Counts a row snprintf wrote (or would have, past the end); false on an
 * error. */
static int row(size_t *n, int w)
{
    if (w < 0)
        return 0;
    *n += (size_t)w;
    return 1;
}

#define ROOM (*n < cap ? cap - *n : 0)
#define AT (*n < cap ? out + *n : NULL)

/* Whether a struct of this type was written before family number id's
 * struct number k (a family's table may be its position). */
static int written_before(const char *type, int id, int k)
{
    for (int i = 0; i <= id; i++) {
        const family_entry *f = family_entry_of(i);
        const family_struct *all[3] = { &f->rules, &f->table, &f->position };
        for (int j = 0; j < (i < id ? 3 : k); j++)
            if (strcmp(all[j]->type, type) == 0)
                return 1;
    }
    return 0;
}

/* A struct as {"type": {"": size, "field": [offset, size], ...}: after
 * "{" if first, else after "}, " (the struct before it left open). */
static int write_struct(char *out, size_t cap, size_t *n, const family_struct *st, int first)
{
    int ok = row(n, snprintf(AT, ROOM, "%s\"%s\": {\"\": %zu", first ? "{" : "}, ", st->type, st->size));
    for (int j = 0; ok && j < st->nfields; j++)
        ok = row(n, snprintf(AT, ROOM, ", \"%s\": [%zu, %zu]", st->fields[j].name, st->fields[j].offset,
                             st->fields[j].size));
    return ok;
}

/* Family number id's structs, each once, after the API's own. */
static int family_structs(char *out, size_t cap, size_t *n, int id)
{
    const family_entry *f = family_entry_of(id);
    const family_struct *all[3] = { &f->rules, &f->table, &f->position };
    int ok = 1;
    for (int k = 0; ok && k < 3; k++)
        if (!written_before(all[k]->type, id, k))
            ok = write_struct(out, cap, n, all[k], 0);
    return ok;
}

/* The layout as JSON, {"tomb_rules": {"": size, "turn": [offset, size],
 * ...}, ..., "constants": {"SOLVER_WON": 0, ...}, "families": [{"name":
 * "tomb", "rules": "tomb_rules", "table": "tomb_table", "position":
 * "tomb_position", "position_in_table": 0, "places": [0, 1, ...]}, ...],
 * "actions": ["turn", ...], "places": [{"name": "stock", "numbering": 0,
 * "home": false}, ...]} (the families by number, each with its structs'
 * types and its kinds of place; the actions and the kinds of place by
 * number, play.h's words), written into out if it
 * fits in size bytes; returns its length (without the closing zero), as
 * snprintf does, or -1. */
int solver_layout(char *out, int size)
{
    size_t cap = size > 0 ? (size_t)size : 0, written = 0, *n = &written;
    int ok = 1;
    for (size_t i = 0; ok && i < COUNT(structs); i++)
        ok = write_struct(out, cap, n, &structs[i], i == 0);
    for (int i = 0; ok && i < solver_family_count(); i++)
        ok = family_structs(out, cap, n, i);
    for (size_t i = 0; ok && i < COUNT(constants); i++)
        ok = row(n, snprintf(AT, ROOM, "%s\"%s\": %ld", i ? ", " : "}, \"constants\": {", constants[i].name,
                             constants[i].value));
    for (int i = 0; ok && i < solver_family_count(); i++) {
        const family_entry *f = family_entry_of(i);
        for (int k = 0; ok && k < f->nconstants; k++)
            ok = row(n, snprintf(AT, ROOM, ", \"%s\": %ld", f->constants[k].name, f->constants[k].value));
    }
    ok = ok && row(n, snprintf(AT, ROOM, "}, \"actions\": ["));
    for (int a = 0; ok && solver_action_name(a); a++)
        ok = row(n, snprintf(AT, ROOM, "%s\"%s\"", a ? ", " : "", solver_action_name(a)));
    ok = ok && row(n, snprintf(AT, ROOM, "], \"places\": ["));
    for (int k = 0; ok && solver_place_name(k); k++)
        ok = row(n, snprintf(AT, ROOM, "%s{\"name\": \"%s\", \"numbering\": %d, \"home\": %s}", k ? ", " : "",
                             solver_place_name(k), solver_place_numbering(k), solver_place_home(k) ? "true" : "false"));
    ok = ok && row(n, snprintf(AT, ROOM, "], \"families\": ["));
    for (int i = 0; ok && i < solver_family_count(); i++) {
        const family_entry *f = family_entry_of(i);
        ok = row(n, snprintf(AT, ROOM,
                             "%s{\"name\": \"%s\", \"rules\": \"%s\", \"table\": \"%s\", \"position\": \"%s\", "
                             "\"position_in_table\": %zu, \"places\": [",
                             i ? ", " : "", f->name, f->rules.type, f->table.type, f->position.type,
                             f->position_in_table));
        for (int k = 0; ok && solver_family_place(i, k) >= 0; k++)
            ok = row(n, snprintf(AT, ROOM, "%s%d", k ? ", " : "", solver_family_place(i, k)));
        ok = ok && row(n, snprintf(AT, ROOM, "]}"));
    }
    ok = ok && row(n, snprintf(AT, ROOM, "]}"));
    return ok ? (int)written : -1;
}
