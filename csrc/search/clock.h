/* clock.h - the clock the searches' seconds are counted on.
 *
 * The CPU time of the calling thread (a search runs in one thread, its
 * restarts and phases too), not the wall clock: a limit in seconds then
 * stops a search after the same work whatever else the machine runs, so a
 * verdict at the default limits does not depend on the load. */
#ifndef CLOCK_H
#define CLOCK_H

#include <time.h>

static inline double search_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

#endif
