/* clock.h - the one clock: monotonic time and short sleeps.
 *
 * Every duration idxlab measures (commit latency, rates, timeouts, the
 * dashboard's frame clock) is read from CLOCK_MONOTONIC here, so a change
 * of the wall clock never shows as a latency. Safe from any thread. */
#ifndef IDXLAB_CLOCK_H
#define IDXLAB_CLOCK_H

#include <stdint.h>

/* Monotonic time in seconds (origin unspecified: only differences mean). */
double clock_now_s(void);

/* Monotonic time in nanoseconds, same origin as clock_now_s. */
uint64_t clock_now_ns(void);

/* Monotonic time in milliseconds, same origin as clock_now_s. */
long long clock_now_ms(void);

/* Sleep ms milliseconds; a signal handler running meanwhile does not cut
 * the sleep short. */
void clock_sleep_ms(long ms);

#endif
