/* feed_replay.c - a recording (recording.h) played back as a feed.
 *
 * The replay clock counts seconds of the recording: pos at wall time mark,
 * running at base.speed (1x..16x) unless paused. A recorded time t is shown
 * as t0 + t, on the clock the counters' times use, so the history and the
 * markers work as they do live. Items are played when the clock reaches
 * them: samples become the snapshot, events go to the event log (stamped
 * with their recorded time: evlog_set_clock), captions and pins come out as
 * news. When more than one sample is due at once (a fast replay, a seek),
 * each comes out in turn with the wall time it would have been shown at, so
 * the dashboard's history is the one a replay at that speed builds.
 *
 * A seek, anywhere, says so (news.rewound): the dashboard forgets what it
 * showed, and what leads to the new position rebuilds its history,
 * markers, baseline, caption and events (as new lines: none folds into a
 * line shown before the seek, evlog_fold_barrier). The outline read at the start
 * (rec_outline) gives the length, the knob changes to seek to and where
 * each line is: the recording is read again from as far back as the
 * dashboard's history reaches (or the baseline in force needs); the events
 * and the caption before that come from the outline.
 *
 * No set, no rewrite: a recording shows what was. Must never touch the
 * screen. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../clock.h"
#include "../recording.h"
#include "../xalloc.h"
#include "feed.h"
#include "history.h"

/* A press of "previous change" this soon after one goes to the one before. */
#define PREV_GRACE 1.0

struct feed_replay {
	struct feed base; /* first: a struct feed * is a struct feed_replay * */
	char *path;
	struct replay *rp;
	struct rec_head head;
	struct rec_outline outline;
	struct rec_item *next; /* read, not yet due, when has_next */
	int has_next;
	double t0, pos, mark;
	int paused;
	int rewound; /* a seek: the next poll says so ... */
	int skip;    /* ... and plays the outline's lines before this one */
	int behind;  /* the last poll left another sample due: now() is at's */
	double at;   /* the recorded time of the last sample played */
	double ev_t; /* the recorded time of the event being played; < 0: none */
	unsigned long gen;
};

static double replay_clock(const struct feed_replay *r)
{
	return r->paused ? r->pos : r->pos + (clock_now_s() - r->mark) * r->base.speed;
}

/* Where the replay is, as shown: within the recording. */
static double replay_position(const struct feed_replay *r)
{
	double t = r->behind ? r->at : replay_clock(r);

	return t < 0 ? 0 : t > r->outline.end ? r->outline.end : t;
}

/* "01:23" (minutes go on past 59, up to 99 hours). */
static void mmss(double t, char *buf, size_t len)
{
	unsigned s = t <= 0 ? 0 : t >= 359999 ? 359999 : (unsigned)floor(t);

	snprintf(buf, len, "%02u:%02u", s / 60, s % 60);
}

static void set_tag(struct feed_replay *r)
{
	char at[16], end[16];

	mmss(replay_position(r), at, sizeof at);
	mmss(r->outline.end, end, sizeof end);
	snprintf(r->base.tag, sizeof r->base.tag, "REPLAY %dx %s / %s ", r->base.speed, at, end);
}

/* Events on the recording's clock: a played one at its recorded time, the
 * dashboard's own (a pause, a pin) where the replay is. */
static double replay_ev_clock(void *arg)
{
	const struct feed_replay *r = arg;

	return r->ev_t >= 0 ? r->ev_t : replay_position(r);
}

/* Read the next item into next; at the end (or a bad line, said) none. */
static void replay_read(struct feed_replay *r)
{
	struct err e = { ERR_NONE, "" };
	int rc = rec_read(r->rp, r->next, &e);

	if (rc > 0)
		return;
	if (rc < 0)
		evlog_add(EV_ERROR, "the replay stops here: %s", e.msg);
	else
		evlog_add(EV_INFO, "the recording is over: q quits, Home plays it again");
	r->has_next = 0;
	r->base.over = 1;
}

/* (Re)open the recording at its first item; -1 with e filled. */
static int replay_load(struct feed_replay *r, struct err *e)
{
	rec_close(r->rp);
	r->has_next = 0;
	r->rp = rec_open(r->path, &r->head, e);
	if (!r->rp)
		return -1;
	if (rec_read(r->rp, r->next, e) <= 0) {
		if (!*e->msg)
			err_set(e, ERR_USAGE, "%s has no sample to show", r->path);
		return -1;
	}
	r->has_next = 1;
	r->base.over = 0;
	return 0;
}

/* Play what is due on the replay clock, as the worker and the user did: at
 * most one sample per call (news->more: another is due too). */
static void replay_poll(struct feed *f, struct live *out, struct feed_news *news)
{
	struct feed_replay *r = (struct feed_replay *)f;
	double now = replay_clock(r);
	int played = 0;

	if (r->rewound) { /* what comes before the lines read again */
		int i;

		news->rewound = 1;
		r->rewound = 0;
		evlog_fold_barrier(); /* the lines shown before are gone */
		for (i = 0; i < r->skip; i++) {
			const struct rec_entry *en = &r->outline.lines[i];

			if (en->kind == REC_EVENT) {
				r->ev_t = en->t;
				evlog_add(en->level, "%s", en->text);
				r->ev_t = -1;
			} else if (en->kind == REC_CAPTION) {
				news->caption = 1;
				snprintf(news->text, sizeof news->text, "%s", en->text);
			} else if (en->kind == REC_VIEW) {
				news->view = 1;
				news->presenter = en->presenter;
				news->figures = en->figures;
			}
		}
	}
	r->behind = 0;
	while (r->has_next && r->next->t <= now) {
		struct rec_item *it = r->next;

		switch (it->kind) {
		case REC_SAMPLE:
			if (played) {
				news->more = r->behind = 1;
				set_tag(r);
				return;
			}
			*out = it->live;
			out->c.t += r->t0;
			out->full.t += r->t0;
			out->activity_t0 += r->t0;
			out->gen = ++r->gen;
			r->at = it->t;
			news->when = clock_now_s() - (now - it->t) / r->base.speed;
			news->played = played = 1;
			break;
		case REC_EVENT:
			r->ev_t = it->t;
			evlog_add(it->level, "%s", it->text);
			r->ev_t = -1;
			break;
		case REC_CAPTION:
			news->caption = 1;
			snprintf(news->text, sizeof news->text, "%s", it->text);
			break;
		case REC_VIEW:
			news->view = 1;
			news->presenter = it->presenter;
			news->figures = it->figures;
			break;
		case REC_PIN:
			news->pin = 1;
			break;
		case REC_UNPIN:
			news->unpin = 1;
			news->pin = 0;
			break;
		}
		replay_read(r);
	}
	set_tag(r);
}

static void replay_pause(struct feed *f, int paused)
{
	struct feed_replay *r = (struct feed_replay *)f;

	if (paused)
		r->pos = replay_clock(r);
	else
		r->mark = clock_now_s();
	r->paused = paused;
	evlog_add(EV_INFO, "replay %s", paused ? "paused" : "resumed");
}

/* > and <: twice as fast or as slow, 1x to 16x. */
static void replay_speed(struct feed *f, int faster, char *msg, size_t len)
{
	struct feed_replay *r = (struct feed_replay *)f;
	int to = faster ? r->base.speed * 2 : r->base.speed / 2;

	if (to < 1 || to > 16) {
		snprintf(msg, len, "replay: %dx is as %s as it goes", r->base.speed,
		         faster ? "fast" : "slow");
		return;
	}
	r->pos = replay_clock(r);
	r->mark = clock_now_s();
	r->base.speed = to;
	set_tag(r);
	snprintf(msg, len, "replay at %dx", to);
}

/* Where `to` goes from the position cur; -1 (msg says why) when nowhere. */
static int seek_target(const struct feed_replay *r, enum feed_seek to, double cur, double *t,
                       char *msg, size_t len)
{
	const struct rec_outline *o = &r->outline;
	char at[16];
	int i;

	switch (to) {
	case FEED_BACK:
		*t = cur - FEED_SEEK_STEP;
		return 0;
	case FEED_ON:
		*t = cur + FEED_SEEK_STEP;
		return 0;
	case FEED_NEXT_CHANGE:
		i = rec_change_near(o, cur, 1, 0);
		if (i < 0) {
			mmss(cur, at, sizeof at);
			snprintf(msg, len,
			         "replay: no knob change after %s (Home: back to the start)", at);
			return -1;
		}
		*t = o->changes[i];
		return 0;
	case FEED_PREV_CHANGE:
		i = rec_change_near(o, cur, -1, PREV_GRACE);
		*t = i < 0 ? 0 : o->changes[i];
		return 0;
	case FEED_START:
	default:
		*t = 0;
		return 0;
	}
}

/* The first line to read again for position t: the history's reach back
 * at this speed, or the baseline pinned then (with the change before it). */
static int seek_from(const struct feed_replay *r, double t)
{
	const struct rec_outline *o = &r->outline;
	double from = t - (HIST_CAP * HIST_PERIOD + 1) * r->base.speed;
	int i;

	for (i = o->nlines - 1; i >= 0; i--)
		if (o->lines[i].t <= t &&
		    (o->lines[i].kind == REC_PIN || o->lines[i].kind == REC_UNPIN))
			break;
	if (i >= 0 && o->lines[i].kind == REC_PIN && o->lines[i].t - HIST_BASE_SPAN - 1 < from)
		from = o->lines[i].t - HIST_BASE_SPAN - 1;
	for (i = 0; i < o->nlines - 1 && o->lines[i].t < from; i++)
		;
	return i;
}

static void replay_seek(struct feed *f, enum feed_seek to, char *msg, size_t len)
{
	struct feed_replay *r = (struct feed_replay *)f;
	struct err e = { ERR_NONE, "" };
	double cur = replay_position(r), t;
	char at[16], end[16];
	int i;

	if (seek_target(r, to, cur, &t, msg, len) < 0)
		return;
	/* From the first sample on: the dashboard then always has one. */
	t = t < r->outline.first ? r->outline.first : t > r->outline.end ? r->outline.end : t;
	r->skip = seek_from(r, t);
	if ((!r->rp && replay_load(r, &e) < 0) || !r->outline.nlines ||
	    rec_seek(r->rp, &r->outline.lines[r->skip], &e) < 0) {
		r->base.over = 1;
		snprintf(msg, len, "replay: cannot seek: %s",
		         *e.msg ? e.msg : "an empty recording");
		evlog_add(EV_ERROR, "%s", msg);
		return;
	}
	r->has_next = 1;
	r->base.over = 0;
	replay_read(r);
	r->rewound = 1;
	r->behind = 0;
	r->pos = t;
	r->mark = clock_now_s();
	set_tag(r);
	mmss(t, at, sizeof at);
	mmss(r->outline.end, end, sizeof end);
	for (i = 0; i < r->outline.nchanges && r->outline.changes[i] <= t; i++)
		;
	if (!r->outline.nchanges)
		snprintf(msg, len, "replay at %s / %s (no knob change recorded)", at, end);
	else if (!i)
		snprintf(msg, len, "replay at %s / %s (before the first of %d knob changes)", at,
		         end, r->outline.nchanges);
	else
		snprintf(msg, len, "replay at %s / %s (knob change %d of %d)", at, end, i,
		         r->outline.nchanges);
}

static double replay_now(const struct feed *f)
{
	const struct feed_replay *r = (const struct feed_replay *)f;

	return r->t0 + (r->behind ? r->at : replay_clock(r));
}

static int replay_state(struct feed *f, struct err *e)
{
	(void)f;
	(void)e;
	return 0; /* a recording that ends stays on screen until q */
}

static void replay_close(struct feed *f)
{
	struct feed_replay *r = (struct feed_replay *)f;

	evlog_set_clock(NULL, NULL);
	rec_close(r->rp);
	rec_outline_free(&r->outline);
	free(r->next);
	free(r->path);
	free(r);
}

static const struct feed_ops replay_ops = {
	.name = "replay",
	.poll = replay_poll,
	.no_set = "a replay shows the knobs as they were recorded",
	.pause = replay_pause,
	.no_rewrite = "a replay shows the table as it was recorded",
	.speed = replay_speed,
	.seek = replay_seek,
	.now = replay_now,
	.state = replay_state,
	.close = replay_close,
	.logs_changes = 1,
	.timed = 1,
};

int feed_replay_open(struct feed **out, const char *path, struct knobs *first, struct err *e)
{
	struct feed_replay *r = calloc(1, sizeof *r);

	*out = NULL;
	if (!r)
		abort();
	r->base.ops = &replay_ops;
	r->path = xstrdup(path);
	r->ev_t = -1;
	r->next = malloc(sizeof *r->next);
	if (!r->next)
		abort();
	if (replay_load(r, e) < 0 || rec_outline(path, &r->outline, e) < 0) {
		replay_close(&r->base);
		return -1;
	}
	if (r->next->kind == REC_SAMPLE)
		*first = r->next->live.knobs;
	r->t0 = r->mark = clock_now_s();
	r->base.speed = 1;
	set_tag(r);
	evlog_set_clock(replay_ev_clock, r);
	*out = &r->base;
	return 0;
}
