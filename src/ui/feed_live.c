/* feed_live.c - the live worker as a feed: every operation is the
 * workload's (workload.h), the clock is the monotonic one. Owns the
 * workload; must never touch the screen. */
#include <stdlib.h>
#include <time.h>

#include "../clock.h"
#include "feed.h"

struct feed_live {
	struct feed base; /* first: a struct feed * is a struct feed_live * */
	struct workload *w;
};

static void live_poll(struct feed *f, struct live *out, struct feed_news *news)
{
	(void)news;
	workload_live(((struct feed_live *)f)->w, out);
}

static unsigned long live_set(struct feed *f, const struct knobs *k)
{
	return workload_set(((struct feed_live *)f)->w, k);
}

static void live_pause(struct feed *f, int paused)
{
	workload_pause(((struct feed_live *)f)->w, paused);
	evlog_add(EV_INFO, "%s", paused ? "paused" : "resumed");
}

static void live_rewrite(struct feed *f)
{
	workload_rewrite(((struct feed_live *)f)->w);
	evlog_add(EV_INFO, "rewrite asked for");
}

static void live_hold(struct feed *f, int on)
{
	workload_hold(((struct feed_live *)f)->w, on);
}

static double live_now(const struct feed *f)
{
	(void)f;
	return clock_now_s();
}

static int live_state(struct feed *f, struct err *e)
{
	return workload_state(((struct feed_live *)f)->w, e);
}

static void live_stop(struct feed *f)
{
	struct workload *w = ((struct feed_live *)f)->w;
	struct err ignore;

	workload_stop(w);
	while (workload_state(w, &ignore) == 0)
		workload_wait(w, 0.1);
}

static void live_close(struct feed *f)
{
	workload_free(((struct feed_live *)f)->w);
	free(f);
}

static const struct feed_ops live_ops = {
	.name = "live",
	.poll = live_poll,
	.set = live_set,
	.pause = live_pause,
	.rewrite = live_rewrite,
	.hold = live_hold,
	.no_speed = "< and >: the speed of a --replay",
	.no_seek = "a live run goes only forward: seeking is for a --replay",
	.now = live_now,
	.state = live_state,
	.stop = live_stop,
	.close = live_close,
};

int feed_live_open(struct feed **out, const struct knobs *k, struct err *e)
{
	struct feed_live *fl = calloc(1, sizeof *fl);

	*out = NULL;
	if (!fl)
		abort();
	if (workload_start_live(&fl->w, k, e) < 0) {
		free(fl);
		return -1;
	}
	fl->base.ops = &live_ops;
	fl->base.speed = 1;
	*out = &fl->base;
	return 0;
}
