/* feed_replay.c - a recording (recording.h) played back as a feed.
 *
 * The replay clock counts seconds of the recording: pos at wall time mark,
 * running at base.speed (1x..16x) unless paused. A recorded time t is shown
 * as t0 + t, on the clock the counters' times use, so the history and the
 * markers work as they do live. Items are played when the clock reaches
 * them: samples become the snapshot, events go to the event log, captions
 * and pins come out as news. No set, no rewrite: a recording shows what
 * was. Must never touch the screen. */
#include <stdio.h>
#include <stdlib.h>

#include "../clock.h"
#include "../recording.h"
#include "feed.h"

struct feed_replay {
	struct feed base; /* first: a struct feed * is a struct feed_replay * */
	struct replay *rp;
	struct rec_head head;
	struct rec_item *next; /* read, not yet due; NULL at the end */
	double t0, pos, mark;
	int paused;
	unsigned long gen;
};

static double replay_clock(const struct feed_replay *r)
{
	return r->paused ? r->pos : r->pos + (clock_now_s() - r->mark) * r->base.speed;
}

static void set_tag(struct feed_replay *r)
{
	snprintf(r->base.tag, sizeof r->base.tag, "REPLAY %dx ", r->base.speed);
}

/* Read the next item into next; at the end (or a bad line, said) NULL. */
static void replay_read(struct feed_replay *r)
{
	struct err e = { ERR_NONE, "" };
	int rc = rec_read(r->rp, r->next, &e);

	if (rc > 0)
		return;
	if (rc < 0)
		evlog_add(EV_ERROR, "the replay stops here: %s", e.msg);
	else
		evlog_add(EV_INFO, "the recording is over: q quits, b pins, r resets");
	free(r->next);
	r->next = NULL;
	r->base.over = 1;
}

/* Play what is due on the replay clock, as the worker and the user did. */
static void replay_poll(struct feed *f, struct live *out, struct feed_news *news)
{
	struct feed_replay *r = (struct feed_replay *)f;
	struct rec_item *it;

	while ((it = r->next) != NULL && it->t <= replay_clock(r)) {
		switch (it->kind) {
		case REC_SAMPLE:
			*out = it->live;
			out->c.t += r->t0;
			out->activity_t0 += r->t0;
			out->gen = ++r->gen;
			break;
		case REC_EVENT:
			evlog_add(it->level, "%s", it->text);
			break;
		case REC_CAPTION:
			news->caption = 1;
			snprintf(news->text, sizeof news->text, "%s", it->text);
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

static double replay_now(const struct feed *f)
{
	const struct feed_replay *r = (const struct feed_replay *)f;

	return r->t0 + replay_clock(r);
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

	rec_close(r->rp);
	free(r->next);
	free(r);
}

static const struct feed_ops replay_ops = {
	.name = "replay",
	.poll = replay_poll,
	.no_set = "a replay shows the knobs as they were recorded",
	.pause = replay_pause,
	.no_rewrite = "a replay shows the table as it was recorded",
	.speed = replay_speed,
	.now = replay_now,
	.state = replay_state,
	.close = replay_close,
	.logs_changes = 1,
};

int feed_replay_open(struct feed **out, const char *path, struct knobs *first, struct err *e)
{
	struct feed_replay *r = calloc(1, sizeof *r);

	*out = NULL;
	if (!r)
		abort();
	r->base.ops = &replay_ops;
	r->rp = rec_open(path, &r->head, e);
	if (!r->rp) {
		replay_close(&r->base);
		return -1;
	}
	r->next = malloc(sizeof *r->next);
	if (!r->next)
		abort();
	if (rec_read(r->rp, r->next, e) <= 0) {
		if (!*e->msg)
			snprintf(e->msg, sizeof e->msg, "%s has no sample to show", path);
		replay_close(&r->base);
		return -1;
	}
	if (r->next->kind == REC_SAMPLE)
		*first = r->next->live.knobs;
	r->t0 = r->mark = clock_now_s();
	r->base.speed = 1;
	set_tag(r);
	*out = &r->base;
	return 0;
}
