/* vocabulary.c - the words of a move, one table (play.h): each action's
 * name, each kind of place's name as the player's notation and the solution
 * format write it, how its places are numbered, whether it is a foundation,
 * and which kinds each family has. Python (solver/families/play.py) and the
 * page (solver/web/static/local.js, from the layout of core.wasm) read
 * them here. */
#include <string.h>

#include "play.h"
#include "registry.h"

static const char *const ACTIONS[] = {
    [SOLVER_TURN] = "turn", [SOLVER_REDEAL] = "redeal",    [SOLVER_MOVE] = "move",
    [SOLVER_DEAL] = "deal", [SOLVER_JEWEL_FILL] = "jewel",
};

typedef struct {
    const char *name;
    int numbering; /* SOLVER_NUMBERED_* */
    int home;      /* a foundation: a card there is home */
} place_word;

static const place_word PLACES[] = {
    [SOLVER_PLACE_STOCK] = { "stock", SOLVER_NUMBERED_NONE, 0 },
    [SOLVER_PLACE_WASTE] = { "waste", SOLVER_NUMBERED_NONE, 0 },
    [SOLVER_PLACE_CELL] = { "cell", SOLVER_NUMBERED_FOR_PLAYER, 0 },
    [SOLVER_PLACE_RESERVE] = { "reserve", SOLVER_NUMBERED_NONE, 0 },
    [SOLVER_PLACE_CORNER] = { "corner", SOLVER_NUMBERED_FOR_PLAYER, 1 },
    [SOLVER_PLACE_TOMB] = { "tomb", SOLVER_NUMBERED_NONE, 1 },
    [SOLVER_PLACE_PILE] = { "pile", SOLVER_NUMBERED_INDEX, 0 },
    [SOLVER_PLACE_KBASE] = { "kbase", SOLVER_NUMBERED_SUIT, 1 },
    [SOLVER_PLACE_ABASE] = { "abase", SOLVER_NUMBERED_SUIT, 1 },
    [SOLVER_PLACE_LID] = { "lid", SOLVER_NUMBERED_INDEX, 0 },
    [SOLVER_PLACE_SIDE] = { "side", SOLVER_NUMBERED_INDEX, 0 },
    [SOLVER_PLACE_BOTTOM] = { "bottom", SOLVER_NUMBERED_INDEX, 0 },
    [SOLVER_PLACE_RESERVE_PILE] = { "reserve", SOLVER_NUMBERED_INDEX, 0 },
    [SOLVER_PLACE_FOUNDATION] = { "foundation", SOLVER_NUMBERED_SUIT, 1 },
};

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

const char *solver_action_name(int action)
{
    return action >= 0 && action < COUNT(ACTIONS) ? ACTIONS[action] : NULL;
}

const char *solver_place_name(int kind)
{
    return kind >= 0 && kind < COUNT(PLACES) ? PLACES[kind].name : NULL;
}

int solver_place_numbering(int kind)
{
    return kind >= 0 && kind < COUNT(PLACES) ? PLACES[kind].numbering : -1;
}

int solver_place_home(int kind)
{
    return kind >= 0 && kind < COUNT(PLACES) ? PLACES[kind].home : -1;
}

int solver_family_place(int family, int i)
{
    const family_entry *f = family_entry_of(family);
    if (!f || i < 0)
        return -1;
    for (int k = 0; k <= i; k++)
        if (f->play->places[k] < 0)
            return -1;
    return f->play->places[i];
}

int solver_place_kind(int family, const char *name)
{
    const family_entry *f = family_entry_of(family);
    for (int k = 0; f && name && f->play->places[k] >= 0; k++)
        if (strcmp(PLACES[f->play->places[k]].name, name) == 0)
            return f->play->places[k];
    return -1;
}
