/* clock.c - CLOCK_MONOTONIC read in the units callers need, and a sleep
 * that resumes after EINTR. */
#include "clock.h"

#include <errno.h>
#include <time.h>

static struct timespec mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts;
}

double clock_now_s(void)
{
	struct timespec ts = mono();

	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

uint64_t clock_now_ns(void)
{
	struct timespec ts = mono();

	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

long long clock_now_ms(void)
{
	struct timespec ts = mono();

	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void clock_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}
