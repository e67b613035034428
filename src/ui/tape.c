/* tape.c - --record (see tape.h). Owns the recorder and one scratch item
 * (a struct live is big: never on the stack, never a static). */
#include "../xalloc.h"
#include "../clock.h"
#include "tape.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "feed.h"

#ifndef IDXLAB_VERSION
#define IDXLAB_VERSION "0.0.0"
#endif

struct tape {
	struct recorder *rec; /* NULL once a write failed */
	char *path;
	double t0;
	unsigned long gen; /* the last sample written */
	enum live_state state;
	long items;
	char err[sizeof((struct err *)0)->msg]; /* why the recording stopped */
	struct rec_item it;
};

int tape_open(struct tape **out, const char *path, const char *engine, double t0, struct err *e)
{
	struct tape *t;

	*out = NULL;
	t = calloc(1, sizeof *t);
	if (!t)
		abort();
	t->rec = rec_create(path, engine, IDXLAB_VERSION, e);
	if (!t->rec) {
		free(t);
		return -1;
	}
	t->path = xstrdup(path);
	t->t0 = t0;
	*out = t;
	return 0;
}

/* The cleared item of that kind. */
static struct rec_item *blank(struct tape *t, enum rec_kind kind)
{
	memset(&t->it, 0, sizeof t->it);
	t->it.kind = kind;
	return &t->it;
}

/* Write the item (time: now from the start); a failed write stops the tape
 * - the lines so far stay whole - and says so. */
static void write_item(struct tape *t)
{
	struct err e = { ERR_NONE, "" };

	t->it.t = clock_now_s() - t->t0;
	if (rec_write(t->rec, &t->it, &e) == 0) {
		t->items++;
		return;
	}
	snprintf(t->err, sizeof t->err, "%s", e.msg);
	(void)rec_finish(t->rec, NULL);
	t->rec = NULL;
	evlog_add(EV_ERROR, "recording stopped: %s (the lines before are intact)", t->err);
}

void tape_sample(struct tape *t, const struct live *l)
{
	struct rec_item *it;

	if (!t || !t->rec || (l->gen == t->gen && l->state == t->state))
		return;
	it = blank(t, REC_SAMPLE);
	it->live = *l;
	it->live.c.t -= t->t0;
	it->live.full.t -= t->t0;
	it->live.activity_t0 -= t->t0;
	t->gen = l->gen;
	t->state = l->state;
	write_item(t);
}

void tape_event(struct tape *t, const struct ev *ev)
{
	struct rec_item *it;

	if (!t || !t->rec)
		return;
	it = blank(t, REC_EVENT);
	it->level = ev->level;
	snprintf(it->text, sizeof it->text, "%s", ev->text);
	write_item(t);
}

void tape_note(struct tape *t, enum rec_kind kind, const char *text)
{
	struct rec_item *it;

	if (!t || !t->rec)
		return;
	it = blank(t, kind);
	if (text)
		snprintf(it->text, sizeof it->text, "%s", text);
	write_item(t);
}

void tape_view(struct tape *t, int presenter, long long figures)
{
	struct rec_item *it;

	if (!t || !t->rec)
		return;
	it = blank(t, REC_VIEW);
	it->presenter = presenter;
	it->figures = figures;
	write_item(t);
}

int tape_close(struct tape *t, char *msg, size_t len)
{
	struct err e = { ERR_NONE, "" };
	int rc;

	msg[0] = 0;
	if (!t)
		return 0;
	if (t->rec && rec_finish(t->rec, &e) < 0)
		snprintf(t->err, sizeof t->err, "%s", e.msg);
	rc = *t->err ? -1 : 0;
	if (rc)
		snprintf(msg, len, "the recording %s stopped early: %s", t->path, t->err);
	else
		snprintf(msg, len,
		         "recorded %.0f s (%ld lines) to %s: idxlab --replay %s shows it again",
		         clock_now_s() - t->t0, t->items, t->path, t->path);
	free(t->path);
	free(t);
	return rc;
}
