/* evlog.c - a mutex-protected ring of events.
 *
 * A fold's repeat moves the line to the newest slot under a new seq (its
 * old slot becomes a hole, skipped by evlog_since): a reader that asks for
 * what came after the last seq it saw gets the updated line again, and
 * knows it by its id. Beside each slot's template the fold keeps the values
 * each number of the line took, in order of arrival, and the line's text
 * lists them ("shared_buffers = 1MiB, 2MiB, 4MiB"): a fold of a sweep's
 * restarts names every value, not only the last. */
#include "evlog.h"

#include <ctype.h>
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
static char templates[RING][EVLOG_LINE]; /* ring[i]'s template */

/* The values of ring[i]'s numbers (its first FOLD_SLOTS), each slot's
 * distinct ones in order of arrival: the first FOLD_VALUES - 1 and, in the
 * last place, the latest of the rest. */
#define FOLD_SLOTS  6
#define FOLD_VALUES 4
#define FOLD_VALUE  24
struct fold_values {
	int nslot;
	struct {
		int n, distinct;
		char v[FOLD_VALUES][FOLD_VALUE];
	} slot[FOLD_SLOTS];
};
static struct fold_values values[RING];
static unsigned long next_seq = 1;
static unsigned long barrier; /* no line before this seq is a fold target */
static double t0 = -1;
static double (*clock_fn)(void *); /* evlog_set_clock's, or NULL */
static void *clock_arg;

void evlog_start_clock(void)
{
	pthread_mutex_lock(&lock);
	t0 = clock_now_s();
	pthread_mutex_unlock(&lock);
}

/* The length of the number at c in text (digits, with '.' or ',' between
 * them, not glued to a name before it, and the letters or '%' glued after
 * it: "4MiB", "30%"), or 0 when none starts there. */
static size_t number_at(const char *text, const char *c)
{
	const char *end = c;

	if (!isdigit((unsigned char)*c) ||
	    (c > text && (isalnum((unsigned char)c[-1]) || c[-1] == '_')))
		return 0;
	while (isdigit((unsigned char)*end) ||
	       ((*end == '.' || *end == ',') && isdigit((unsigned char)end[1])))
		end++;
	while (isalpha((unsigned char)*end) || *end == '%')
		end++;
	return (size_t)(end - c);
}

/* text with each number (number_at) as '#'. */
static void template_of(const char *text, char *out, size_t len)
{
	const char *c = text;
	size_t n = 0, num;

	while (*c && n + 1 < len) {
		if ((num = number_at(text, c)) > 0) {
			c += num;
			out[n++] = '#';
			continue;
		}
		out[n++] = *c++;
	}
	out[n] = 0;
}

/* Note the numbers of text in fv (first: fv starts over). */
static void note_values(struct fold_values *fv, const char *text, int first)
{
	const char *c;
	size_t num;
	int i = 0, j;

	if (first)
		memset(fv, 0, sizeof *fv);
	for (c = text; *c && i < FOLD_SLOTS; c++) {
		char v[FOLD_VALUE];

		if ((num = number_at(text, c)) == 0)
			continue;
		snprintf(v, sizeof v, "%.*s", (int)num, c);
		c += num - 1;
		for (j = 0; j < fv->slot[i].n && strcmp(fv->slot[i].v[j], v) != 0; j++)
			;
		if (j == fv->slot[i].n) { /* new: past the list's room, the latest */
			j = fv->slot[i].n < FOLD_VALUES ? fv->slot[i].n++ : FOLD_VALUES - 1;
			memcpy(fv->slot[i].v[j], v, sizeof v);
			fv->slot[i].distinct++;
		}
		i++;
	}
	if (i > fv->nslot)
		fv->nslot = i;
}

/* text with each number it has a list for replaced by the list: "1MiB,
 * 2MiB, 4MiB", or "25, 26, 27 ... 36" past FOLD_VALUES values. */
static void list_values(const struct fold_values *fv, const char *text, char *out, size_t len)
{
	const char *c = text;
	size_t n = 0, num;
	int i = 0, j;

	while (*c && n + 1 < len) {
		if ((num = number_at(text, c)) > 0 && i < fv->nslot && fv->slot[i].n > 1) {
			for (j = 0; j < fv->slot[i].n && n + 1 < len; j++)
				n += (size_t)snprintf(out + n, len - n, "%s%s",
				                      !j ? ""
				                      : j == FOLD_VALUES - 1 &&
				                              fv->slot[i].distinct > FOLD_VALUES
				                          ? " ... "
				                          : ", ",
				                      fv->slot[i].v[j]);
			if (n >= len)
				n = len - 1;
			c += num;
			i++;
			continue;
		}
		if (num > 0) {
			i++;
			num = num < len - 1 - n ? num : len - 1 - n;
			memcpy(out + n, c, num);
			n += num;
			c += num;
			continue;
		}
		out[n++] = *c++;
	}
	out[n] = 0;
}

/* The slot of the line a new one (template tpl) folds into, or NULL. */
static struct ev *fold_target(enum ev_level level, const char *tpl, double now)
{
	unsigned long s, seen = 0;

	for (s = next_seq - 1;
	     s > 0 && s >= barrier && next_seq - s <= RING && seen < EVLOG_FOLD_BACK; s--) {
		struct ev *e = &ring[s % RING];

		if (e->seq != s)
			continue; /* a hole: that line moved on */
		seen++;
		if (e->level == level && now - e->t <= EVLOG_FOLD_S &&
		    strcmp(templates[s % RING], tpl) == 0)
			return e;
	}
	return NULL;
}

void evlog_fold_barrier(void)
{
	pthread_mutex_lock(&lock);
	barrier = next_seq;
	pthread_mutex_unlock(&lock);
}

void evlog_set_clock(double (*now)(void *arg), void *arg)
{
	pthread_mutex_lock(&lock);
	clock_fn = now;
	clock_arg = arg;
	pthread_mutex_unlock(&lock);
}

static void add(enum ev_level level, int detail, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

static void add(enum ev_level level, int detail, const char *fmt, va_list ap)
{
	struct ev *e, *old;
	double t = clock_now_s(), now;
	char raw[4 * EVLOG_LINE], shown[EVLOG_LINE], tpl[EVLOG_LINE];

	/* Masked before it is cut to fit: no cut leaves part of a password. */
	vsnprintf(raw, sizeof raw, fmt, ap);
	redact_text(raw, shown, sizeof shown);
	template_of(shown, tpl, sizeof tpl);
	pthread_mutex_lock(&lock);
	if (t0 < 0)
		t0 = t;
	now = clock_fn ? clock_fn(clock_arg) : t - t0; /* a replay's: the recording's */
	old = fold_target(level, tpl, now);
	e = &ring[next_seq % RING];
	if (old) {
		struct ev moved = *old;

		values[next_seq % RING] = values[old->seq % RING];
		old->seq = 0; /* a hole */
		moved.count++;
		*e = moved;
		note_values(&values[next_seq % RING], shown, 0);
		list_values(&values[next_seq % RING], shown, e->text, sizeof e->text);
	} else {
		e->id = next_seq;
		e->count = 1;
		e->t_first = now;
		note_values(&values[next_seq % RING], shown, 1);
		memcpy(e->text, shown, sizeof e->text);
	}
	e->seq = next_seq++;
	e->t = now;
	e->level = level;
	e->detail = detail;
	memcpy(templates[e->seq % RING], tpl, sizeof tpl);
	pthread_mutex_unlock(&lock);
}

void evlog_add(enum ev_level level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add(level, 0, fmt, ap);
	va_end(ap);
}

void evlog_detail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add(EV_INFO, 1, fmt, ap);
	va_end(ap);
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
		if (ring[s % RING].seq == s)
			out[n++] = ring[s % RING];
	pthread_mutex_unlock(&lock);
	return n;
}

void evlog_format(const struct ev *e, int ascii, char *buf, size_t len)
{
	if (e->count > 1)
		snprintf(buf, len, "%s %s%u", e->text, ascii ? "x" : "\u00d7", e->count);
	else
		snprintf(buf, len, "%s", e->text);
}

const char *evlog_level_prefix(const struct ev *e)
{
	return e->level == EV_ERROR ? "error: " : e->level == EV_WARN ? "warning: " : "";
}
