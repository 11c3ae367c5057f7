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

typedef struct {
    const char *type, *field;
    size_t offset, size;
} place;

#define FIELD(type, field) { #type, #field, offsetof(type, field), sizeof(((type *)0)->field) }
#define WHOLE(type) { #type, "", 0, sizeof(type) }

static const place places[] = {
    WHOLE(solver_move),
    FIELD(solver_move, action),
    FIELD(solver_move, card),
    FIELD(solver_move, src),
    FIELD(solver_move, src_index),
    FIELD(solver_move, dst),
    FIELD(solver_move, dst_index),
    FIELD(solver_move, ncards),
    FIELD(solver_move, cards),
    WHOLE(solver_stats),
    FIELD(solver_stats, positions),
    FIELD(solver_stats, seconds),
    FIELD(solver_stats, best_score),
    FIELD(solver_stats, peak_bytes),
    FIELD(solver_stats, held_bytes),
};

/* The numbers the JavaScript passes or reads back: statuses, every shortcut,
 * the kinds of move and place (each family adds its own: registry.h). */
typedef struct {
    const char *name;
    long value;
} constant;

#define CONSTANT(name) { #name, (long)(name) }

static const constant constants[] = {
    CONSTANT(SOLVER_WON),
    CONSTANT(SOLVER_LOST),
    CONSTANT(SOLVER_LIMIT_POSITIONS),
    CONSTANT(SOLVER_LIMIT_SECONDS),
    CONSTANT(SOLVER_LIMIT_MEMORY),
    CONSTANT(SOLVER_INTERRUPTED),
    CONSTANT(SOLVER_ERROR),
    CONSTANT(SOLVER_NO_CARD),
    CONSTANT(SOLVER_ANY_SUIT),
    CONSTANT(DECK2_NO_CARD),
    CONSTANT(DECK2_ALL_SHORTCUTS),
    CONSTANT(PLAY_MAX_MOVES),
    CONSTANT(SOLVER_KEY_ROOM),
    CONSTANT(SOLVER_BLIND_SIMPLE),
    CONSTANT(SOLVER_BLIND_CAREFUL),
    CONSTANT(SOLVER_BLIND_WITHIN),
    CONSTANT(SOLVER_NUMBERED_NONE),
    CONSTANT(SOLVER_NUMBERED_INDEX),
    CONSTANT(SOLVER_NUMBERED_SUIT),
    CONSTANT(SOLVER_NUMBERED_FOR_PLAYER),
    CONSTANT(SOLVER_TURN),
    CONSTANT(SOLVER_REDEAL),
    CONSTANT(SOLVER_MOVE),
    CONSTANT(SOLVER_DEAL),
    CONSTANT(SOLVER_JEWEL_FILL),
    CONSTANT(SOLVER_PLACE_STOCK),
    CONSTANT(SOLVER_PLACE_WASTE),
    CONSTANT(SOLVER_PLACE_CELL),
    CONSTANT(SOLVER_PLACE_RESERVE),
    CONSTANT(SOLVER_PLACE_CORNER),
    CONSTANT(SOLVER_PLACE_TOMB),
    CONSTANT(SOLVER_PLACE_PILE),
    CONSTANT(SOLVER_PLACE_KBASE),
    CONSTANT(SOLVER_PLACE_ABASE),
    CONSTANT(SOLVER_PLACE_LID),
    CONSTANT(SOLVER_PLACE_SIDE),
    CONSTANT(SOLVER_PLACE_BOTTOM),
    CONSTANT(SOLVER_PLACE_RESERVE_PILE),
    CONSTANT(SOLVER_PLACE_FOUNDATION),
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

/* Family number id's structs, each once, as the common structs are
 * written (after them: each begins with "}, "). */
static int family_structs(char *out, size_t cap, size_t *n, int id)
{
    const family_entry *f = family_entry_of(id);
    const family_struct *all[3] = { &f->rules, &f->table, &f->position };
    int ok = 1;
    for (int k = 0; ok && k < 3; k++) {
        const family_struct *st = all[k];
        if (written_before(st->type, id, k))
            continue;
        ok = row(n, snprintf(AT, ROOM, "}, \"%s\": {\"\": %zu", st->type, st->size));
        for (int j = 0; ok && j < st->nfields; j++)
            ok = row(n, snprintf(AT, ROOM, ", \"%s\": [%zu, %zu]", st->fields[j].name, st->fields[j].offset,
                                 st->fields[j].size));
    }
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
    for (size_t i = 0; ok && i < COUNT(places); i++) {
        const place *p = &places[i];
        if (p->field[0])
            ok = row(n, snprintf(AT, ROOM, ", \"%s\": [%zu, %zu]", p->field, p->offset, p->size));
        else
            ok = row(n, snprintf(AT, ROOM, "%s\"%s\": {\"\": %zu", i ? "}, " : "{", p->type, p->size));
    }
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
