/* evlog.c - a mutex-protected ring of events. */
#include "evlog.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "redact.h"

#define RING 256

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct ev ring[RING];
static unsigned long next_seq = 1;
static double t0 = -1;
static double (*clock_fn)(void *); /* evlog_set_clock's, or NULL */
static void *clock_arg;

void evlog_start_clock(void)
{
	pthread_mutex_lock(&lock);
	t0 = clock_now_s();
	pthread_mutex_unlock(&lock);
}

void evlog_set_clock(double (*now)(void *arg), void *arg)
{
	pthread_mutex_lock(&lock);
	clock_fn = now;
	clock_arg = arg;
	pthread_mutex_unlock(&lock);
}

void evlog_add(enum ev_level level, const char *fmt, ...)
{
	struct ev *e;
	va_list ap;
	double t = clock_now_s();
	char raw[4 * EVLOG_LINE], shown[EVLOG_LINE];

	/* Masked before it is cut to fit: no cut leaves part of a password. */
	va_start(ap, fmt);
	vsnprintf(raw, sizeof raw, fmt, ap);
	va_end(ap);
	redact_text(raw, shown, sizeof shown);
	pthread_mutex_lock(&lock);
	if (t0 < 0)
		t0 = t;
	e = &ring[next_seq % RING];
	e->seq = next_seq++;
	e->t = clock_fn ? clock_fn(clock_arg) : t - t0;
	e->level = level;
	memcpy(e->text, shown, sizeof e->text);
	pthread_mutex_unlock(&lock);
}

size_t evlog_since(unsigned long after, struct ev *out, size_t max)
{
	unsigned long first, s;
	size_t n = 0;

	pthread_mutex_lock(&lock);
	first = next_seq > RING ? next_seq - RING : 1;
	if (after + 1 > first)
		first = after + 1;
	for (s = first; s < next_seq && n < max; s++)
		out[n++] = ring[s % RING];
	pthread_mutex_unlock(&lock);
	return n;
}
