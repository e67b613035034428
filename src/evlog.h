/* evlog.h - the event log: knob changes, warnings, library messages.
 *
 * Anything that wants to tell the user something while a run is going on
 * (the worker, SQLite's error log, later libpq notices and WiredTiger's event
 * handler) adds a line here instead of writing to stdout/stderr, so nothing
 * ever lands on top of the dashboard. Headless mode drains it to stderr.
 * Thread-safe. Lines beyond the ring's capacity drop the oldest.
 *
 * Repeats fold: a line whose template (its text with every number as '#',
 * a number being digits not glued to a letter or '_', so "idxlab_k1" stays
 * a name) and level match one of the last EVLOG_FOLD_BACK lines, added
 * within EVLOG_FOLD_S of that line's latest repeat, does not become a line
 * of its own: that line takes the new text and time, its count goes up, and
 * it comes out of evlog_since() again under a new seq with the same id.
 * A number the repeats changed shows as the list of its values, in order
 * of arrival ("shared_buffers = 1MiB, 2MiB, 4MiB"; past four of them the
 * first three and the latest: "25, 26, 27 ... 36"): a fold never hides a
 * value. A number here includes the letters glued after it ("4MiB"). */
#ifndef IDXLAB_EVLOG_H
#define IDXLAB_EVLOG_H

#include <stddef.h>

enum ev_level { EV_INFO, EV_WARN, EV_ERROR };

#define EVLOG_LINE      240
#define EVLOG_FOLD_S    60.0 /* "starting over" comes every ~10 s on a small table */
#define EVLOG_FOLD_BACK 8

struct ev {
	unsigned long seq; /* 1, 2, 3 ... in order of arrival (a fold's repeat: a new one) */
	unsigned long id;  /* the seq of the fold's first line: the same for its repeats */
	unsigned count;    /* lines folded into this one: 1 for a line said once */
	double t;          /* seconds since the log started (a fold: its latest repeat) */
	double t_first;    /* a fold: when its first line came */
	enum ev_level level;
	int detail;            /* evlog_detail's: a headless run prints it only with -v */
	char text[EVLOG_LINE]; /* a fold: the latest repeat's, its numbers' values listed */
};

/* Event times count from here (default: the first event). */
void evlog_start_clock(void);

/* Event times from now(arg) instead, in seconds (a replay's: the
 * recording's clock); NULL: back to the log's own. From the thread that
 * adds the events. */
void evlog_set_clock(double (*now)(void *arg), void *arg);

/* Lines added from now on never fold into one added before: a replay's
 * seek plays the events up to its position again, and they are new lines
 * of a view started over, not repeats of the lines it showed. */
void evlog_fold_barrier(void);

void evlog_add(enum ev_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A detail, an EV_INFO line the dashboard shows like any other (and a
 * recording keeps) that a headless run prints only with -v: an account a
 * person checking the figures wants, not news (the syncs made while
 * closing). */
void evlog_detail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Copy events with seq > after into out (at most max), oldest first;
 * returns how many. A fold comes once, at its latest repeat. */
size_t evlog_since(unsigned long after, struct ev *out, size_t max);

/* e's text for a person: its text, and " ×N" (ascii: " xN") for a fold. */
void evlog_format(const struct ev *e, int ascii, char *buf, size_t len);

/* The headless prefix of e's level: "", "warning: " or "error: ". */
const char *evlog_level_prefix(const struct ev *e);

#endif
