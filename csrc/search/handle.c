/* handle.c - the verbs of solver.h, the same for every family (handle.h). */
#include <stdio.h>
#include <string.h>

#include "handle.h"
#include "rules.h"
#include "mem.h"

void solver_set_limits(solver *s, uint64_t max_positions, double max_seconds, uint64_t max_bytes)
{
    s->driver->set_limits(s, max_positions, max_seconds, max_bytes);
}

int solver_run(solver *s)
{
    return s->driver->run(s);
}

void solver_stop(solver *s)
{
    dfs_stop(s->e);
}

void solver_get_stats(const solver *s, solver_stats *out)
{
    /* The account is the search's own, with all its phases and restarts. */
    *out = s->e->stats;
    mem_stats(s->e->mem, s->e->status, out);
}

int solver_root_bound(const solver *s)
{
    return s->driver->root_bound ? s->driver->root_bound(s) : s->e->max_score;
}

int solver_line_length(const solver *s, int which)
{
    return s->driver->line_length(s, which);
}

int solver_line_move(const solver *s, int which, int index, solver_move *out)
{
    return s->driver->line_move(s, which, index, out);
}

int solver_line_pack(const solver *s, int which, uint8_t *out, int size)
{
    int n = s->driver->line_length(s, which), bytes = 0;
    for (int i = 0; i < n; i++) {
        solver_move m;
        if (s->driver->line_move(s, which, i, &m) < 0)
            return -1;
        const int fields[7] = { m.action, m.card, m.src, m.src_index, m.dst, m.dst_index, m.ncards };
        if (bytes + 7 + m.ncards <= size) {
            for (int k = 0; k < 7; k++)
                out[bytes + k] = (uint8_t)fields[k];
            memcpy(out + bytes + 7, m.cards, (size_t)m.ncards);
        }
        bytes += 7 + m.ncards;
    }
    return bytes;
}

int solver_reset(solver *s, int family, const void *pos, char *err, int errlen)
{
    if (!s)
        return rules_fail(err, errlen, "solver_reset: no search given");
    if (!pos)
        return rules_fail(err, errlen, "position: none given");
    if (family != s->family) {
        char text[120];
        snprintf(text, sizeof text, "a search of family %d cannot take a position of family %d", s->family, family);
        return rules_fail(err, errlen, text);
    }
    return s->driver->reset(s, pos, err, errlen);
}

void solver_free(solver *s)
{
    if (s)
        s->driver->free(s);
}
