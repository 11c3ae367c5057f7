/* registry.h - what a game family gives the registry (registry.c): its rules
 * of play (csrc/play/<family>.c) and its search's constructor (under
 * csrc/families/), each over the family's own structs, passed as void *.
 *
 * A family is one entry of FAMILIES in registry.c; nothing else in the core
 * names it. The public verbs over a family number are in solver.h and
 * play.h.
 */
#ifndef REGISTRY_H
#define REGISTRY_H

#include <stddef.h>
#include <stdint.h>

#include "solver.h"

struct view_text; /* csrc/play/view.h */
struct key_text;  /* csrc/play/key.h */

/* A family's rules of play (play.h says what each does): rules is its rules
 * struct, table the position a player sees (its play struct). */
typedef struct {
    int (*start)(const void *rules, const uint8_t *cards, int n, void *table, char *err, int errlen);
    int (*moves)(const void *rules, const void *table, solver_move *out, int max, char *err, int errlen);
    int (*apply)(const void *rules, void *table, const solver_move *m, solver_move *played, char *err, int errlen);
    int (*automatic)(const void *rules, const void *table, int enabled, solver_move *out); /* NULL: none */
    int (*score)(const void *rules, const void *table);
    int (*restricted)(const void *rules, const void *table); /* NULL: never */
    void (*view)(const void *rules, const void *table, struct view_text *out); /* of a possible table */
    /* Where its places sit and their words (play/layout.h); redeal: a redeal
     * is among the legal moves. */
    void (*layout)(const void *rules, const void *table, int redeal, struct view_text *out);
    void (*key)(const void *rules, const void *table, int canonical, struct key_text *out); /* likewise */
    /* The blind players: NULL where the family has none. */
    int (*choose)(const void *rules, const void *table, int strategy, int within, int keep_last_cell,
                  const solver_move *offered, int n);
    int (*distance)(const void *rules, const void *table, int card);
    const int *places; /* its kinds of place (SOLVER_PLACE_*), -1 after the last */
} play_verbs;

/* A family's search: a new handle for its rules and a position (its search
 * struct), or NULL with the reason in err. */
typedef solver *(*search_new)(const void *rules, const void *position, unsigned flags, char *err, int errlen);

/* A field of a family's struct: where it lies, as the compiler lays it out. */
typedef struct {
    const char *name;
    size_t offset, size;
} family_field;

#define FAMILY_FIELD(type, field) { #field, offsetof(type, field), sizeof(((type *)0)->field) }

/* One struct of a family and its fields, which the WebAssembly build's
 * layout writes for the JavaScript that fills it (csrc/wasm/layout.c). */
typedef struct {
    const char *type;
    size_t size;
    const family_field *fields;
    int nfields;
} family_struct;

#define FAMILY_STRUCT(type, fields) { #type, sizeof(type), fields, (int)(sizeof fields / sizeof fields[0]) }

/* A number a family's structs take (an empty place's kind, say), by name. */
typedef struct {
    const char *name;
    long value;
} family_constant;

#define FAMILY_CONSTANT(name) { #name, (long)(name) }

/* A family, all of it: each family defines its own (at the end of its
 * csrc/play/<family>.c), and registry.c lists them. */
typedef struct {
    const char *name; /* as a variant file's `family` names it */
    const play_verbs *play;
    search_new search;
    family_struct rules, table, position;
    size_t position_in_table; /* where the search's position starts in the table */
    const family_constant *constants;
    int nconstants;
} family_entry;

/* The family numbered id, or NULL. */
const family_entry *family_entry_of(int id);

/* The entry of family, given its rules; else NULL with the reason in err. */
const family_entry *family_find(int family, const void *rules, char *err, int errlen);

/* The same, given also a table of the family that its rules accept (checked
 * by its moves verb); else NULL with the reason in err. */
const family_entry *family_checked(int family, const void *rules, const void *table, char *err, int errlen);

#endif
