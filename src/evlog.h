/* evlog.h - the event log: knob changes, warnings, library messages.
 *
 * Anything that wants to tell the user something while a run is going on
 * (the worker, SQLite's error log, later libpq notices and WiredTiger's event
 * handler) adds a line here instead of writing to stdout/stderr, so nothing
 * ever lands on top of the dashboard. Headless mode drains it to stderr.
 * Thread-safe. Lines beyond the ring's capacity drop the oldest. */
#ifndef IDXLAB_EVLOG_H
#define IDXLAB_EVLOG_H

#include <stddef.h>

enum ev_level { EV_INFO, EV_WARN, EV_ERROR };

#define EVLOG_LINE 240

struct ev {
	unsigned long seq; /* 1, 2, 3 ... in order of arrival */
	double t;          /* seconds since the log started */
	enum ev_level level;
	char text[EVLOG_LINE];
};

/* Event times count from here (default: the first event). */
void evlog_start_clock(void);

/* Event times from now(arg) instead, in seconds (a replay's: the
 * recording's clock); NULL: back to the log's own. From the thread that
 * adds the events. */
void evlog_set_clock(double (*now)(void *arg), void *arg);

void evlog_add(enum ev_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Copy events with seq > after into out (at most max), oldest first;
 * returns how many. */
size_t evlog_since(unsigned long after, struct ev *out, size_t max);

#endif
