/* workload_live.c - the worker's live mode (the dashboard), a state machine.
 *
 * One open-ended run on one table. Each turn of the loop first takes the
 * request (wl_take_request: the knobs, their generation, pause, rewrite,
 * all copied under the lock at once), then runs the handler of the state
 * the run is in, which returns the next state:
 *
 *   RUNNING  apply a changed setting, a rewrite, then one batch (or, when
 *            paused is asked, commit and become PAUSED); a batch that finds
 *            no rows left to work on makes it IDLE, a failure FAILED
 *   PAUSED   the same turn as RUNNING (pause is part of the request): it
 *            samples and waits instead of running a batch
 *   IDLE     waits for a new setting, then RUNNING
 *   FAILED   waits for a new setting or a resume, then rebuilds the table
 *            and goes on as RUNNING (or FAILED again)
 *   DONE     stopped by the user inside a failing statement: the loop ends
 *
 * After each batch a snapshot is published now and then: one with the
 * engine's statistics (wl_sample) as their cost allows (LIVE_FULL_SHARE of
 * the time), light ones (the worker's own counts) between them, and a full
 * one first after every change of setting or table.
 *
 * STARTING (loading the first table) is before the loop and APPLYING
 * (index builds, rebuilds, rewrites) is published inside a turn: neither is
 * a state a turn starts in. A rewrite asked for while IDLE or FAILED stays
 * asked for until the run is RUNNING or PAUSED again. A run stopped while
 * FAILED ends failed, with that failure's message. */
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "evlog.h"
#include "schema.h"
#include "workload_impl.h"

/* The run, private to the worker thread. */
struct run {
	struct knobs cur;  /* the setting in force */
	unsigned long gen; /* its generation */
	struct lats *lat;  /* latencies since the start */
	double last_pub, next_sizes;
	double every;      /* the time between samples (wl_sample_every) */
	double last_full;  /* when the last one with the engine's statistics began */
	double full_every; /* the time between those (LIVE_FULL_SHARE) */
	int held;          /* the table passed the rows knob while held: said so */
};

/* Copy the request under the lock. The rewrite is taken (cleared) only in
 * the states that act on it; elsewhere it stays asked for. */
static void take_request(struct workload *w, enum live_state st, struct request *rq)
{
	pthread_mutex_lock(&w->mu);
	*rq = w->req;
	if (st == LS_RUNNING || st == LS_PAUSED)
		w->req.rewrite = 0;
	else
		rq->rewrite = 0;
	pthread_mutex_unlock(&w->mu);
}

/* Wait (paused, idle or failed) until a change, a resume or a stop, at most
 * 100 ms. */
static void wait_for_user(struct workload *w, unsigned long gen)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += 100 * 1000000L;
	ts.tv_sec += ts.tv_nsec / 1000000000L;
	ts.tv_nsec %= 1000000000L;
	pthread_mutex_lock(&w->mu);
	if (w->req.gen == gen && !atomic_load(&w->stop))
		pthread_cond_timedwait(&w->cv, &w->mu, &ts);
	pthread_mutex_unlock(&w->mu);
}

/* Apply the setting asked for in rq if it is newer than the run's; 0, or -1
 * with e filled. */
static int apply_change(struct workload *w, struct run *r, const struct request *rq, struct err *e)
{
	const struct knobs *next = &rq->knobs;
	long long from = r->cur.v[K_INDEXES], to = next->v[K_INDEXES];
	struct knobs in_force = *next;
	unsigned long g = rq->gen;
	double t0;

	if (rq->gen == r->gen)
		return 0;
	if (knobs_check(next, e) < 0)
		return -1;
	if (wl_finish(w, r->lat, e) < 0)
		return -1;
	t0 = clock_now_s();
	if (knobs_need_rebuild(&r->cur, next)) {
		wl_set_state(w, LS_APPLYING, "rebuilding the table (%lld rows)",
		             knobs_prefill(next));
		if (wl_setup(w, next, e) < 0)
			return -1;
		evlog_add(EV_INFO, "table rebuilt in %.2f s", clock_now_s() - t0);
	} else {
		if (from != to) {
			const struct schema *sc = schema_of(next);
			long long lo = (to > from ? from : to), hi = to > from ? to : from;

			wl_set_state(w, LS_APPLYING, "%s %s%s%s",
			             to > from ? "building" : "dropping", sc->idx[lo].name,
			             hi - lo > 1 ? ".." : "",
			             hi - lo > 1 ? sc->idx[hi - 1].name : "");
		}
		if (w->ops->apply(w->en, next, e) < 0)
			return -1;
	}
	r->cur = *next;
	r->gen = g;
	r->last_full = -INFINITY; /* the engine's figures start again at the change */
	wl_set_in_force(w, &in_force, &g);
	w->budget = 16;
	return 0;
}

static int refresh_sizes(struct workload *w, struct err *e)
{
	struct sizes s;

	if (w->ops->sizes(w->en, &s, e) < 0)
		return -1;
	pthread_mutex_lock(&w->mu);
	w->live.sizes = s;
	pthread_mutex_unlock(&w->mu);
	return 0;
}

/* A batch failed: say so and wait for the user (a knob or resume: the
 * failure sets the pause a resume clears). */
static enum live_state enter_failed(struct workload *w, const struct err *e)
{
	evlog_add(EV_ERROR, "%s", e->msg);
	wl_set_state(w, LS_FAILED, "%s", e->msg);
	pthread_mutex_lock(&w->mu);
	w->req.paused = 1;
	pthread_mutex_unlock(&w->mu);
	return LS_FAILED;
}

/* A step of RUNNING or PAUSED failed: FAILED, or DONE if the user stopped
 * the run (a statement cut short by the stop is not a failure). */
static enum live_state fail(struct workload *w, const struct err *e)
{
	return atomic_load(&w->stop) ? LS_DONE : enter_failed(w, e);
}

/* The published state, which only this thread writes. */
static void show(struct workload *w, enum live_state st)
{
	if (w->live.state != st)
		wl_set_state(w, st, "%s", live_state_name(st));
}

static enum live_state on_paused(struct workload *w, struct run *r, struct err *e)
{
	struct counters c;

	if (wl_finish(w, r->lat, e) < 0)
		return fail(w, e);
	show(w, LS_PAUSED);
	if (wl_sample(w, &c, e) == 0)
		wl_publish(w, NULL, &c, r->lat);
	wait_for_user(w, r->gen);
	return LS_PAUSED;
}

/* The rows knob bounds an insert run: a fresh table keeps the disk from
 * filling up. A held table (workload_hold: a demo's cue needs its index)
 * passes it, up to WORKLOAD_HOLD_MAX times it. 0 when there is nothing to
 * do or it started over; -1 with e filled. */
static int start_over(struct workload *w, struct run *r, int hold, struct err *e)
{
	long long rows = r->cur.v[K_ROWS];
	uint64_t n;

	if (r->cur.v[K_OP] != OP_INSERT || (n = w->rs.live_rows) < (uint64_t)rows)
		return 0;
	if (hold && n < (uint64_t)rows * WORKLOAD_HOLD_MAX) {
		if (!r->held)
			evlog_add(EV_INFO,
			          "the table passed %lld rows (the rows knob): held for the demo, "
			          "it starts over once released (at %d times that at most)",
			          rows, WORKLOAD_HOLD_MAX);
		r->held = 1;
		return 0;
	}
	if (wl_finish(w, r->lat, e) < 0)
		return -1;
	if (hold)
		evlog_add(EV_WARN,
		          "the held table reached %d times the rows knob (%lld rows): starting "
		          "over anyway, for the disk's sake",
		          WORKLOAD_HOLD_MAX, rows);
	else
		evlog_add(EV_INFO, "the table reached %lld rows (the rows knob): starting over",
		          rows);
	r->held = 0;
	wl_set_state(w, LS_APPLYING, "starting over with a fresh table");
	if (wl_setup(w, &r->cur, e) < 0)
		return -1;
	r->last_full = -INFINITY;
	wl_set_state(w, LS_RUNNING, "running");
	return 0;
}

static enum live_state go_idle(struct workload *w, struct run *r, struct err *e)
{
	const char *op = knob_table[K_OP].choices[r->cur.v[K_OP]];

	if (wl_finish(w, r->lat, e) < 0)
		return fail(w, e);
	wl_set_state(w, LS_IDLE, "no rows left to %s: change op or table size", op);
	evlog_add(EV_WARN, "no rows left to %s: change op or table size", op);
	return LS_IDLE;
}

/* The snapshot after a batch: the engine's statistics when their time has
 * come (their own cost sets it, LIVE_FULL_SHARE), else a light one; the
 * spacing of both follows the full ones' cost (wl_sample_every). */
static int sample(struct workload *w, struct run *r, double t, struct err *e)
{
	struct counters c;
	double cost;

	if (t - r->last_full < r->full_every) {
		wl_sample_light(w, &c);
		wl_publish_light(w, &c, r->lat);
		return 0;
	}
	if (wl_sample(w, &c, e) < 0)
		return -1;
	wl_publish(w, NULL, &c, r->lat);
	cost = clock_now_s() - t;
	r->last_full = t;
	r->every = wl_sample_every(cost, w->sample_cap);
	r->full_every = fmin(fmax(cost / LIVE_FULL_SHARE, r->every), LIVE_FULL_CAP);
	return 0;
}

/* One batch, then the snapshot and (now and then) the sizes. */
static enum live_state run_batch(struct workload *w, struct run *r, int hold, struct err *e)
{
	int64_t got;
	double t;

	show(w, LS_RUNNING);
	if (start_over(w, r, hold, e) < 0)
		return fail(w, e);
	got = wl_batch(w, &r->cur, UINT64_MAX, r->lat, e);
	if (got < 0)
		return fail(w, e);
	if (got == 0)
		return go_idle(w, r, e);
	t = clock_now_s();
	if (t - r->last_pub >= r->every) {
		if (sample(w, r, t, e) < 0)
			return fail(w, e);
		r->last_pub = t;
	}
	if (t >= r->next_sizes) {
		double t0 = clock_now_s();

		if (refresh_sizes(w, e) < 0)
			return fail(w, e);
		/* Index sizes walk every index page: keep that under 2 % of the
		 * worker's time however big the indexes grow. */
		t = clock_now_s();
		r->next_sizes = t + fmax(SIZES_EVERY, 50 * (t - t0));
	}
	return LS_RUNNING;
}

/* RUNNING and PAUSED. */
static enum live_state on_active(struct workload *w, struct run *r, const struct request *rq,
                                 struct err *e)
{
	if (apply_change(w, r, rq, e) < 0)
		return fail(w, e);
	if (rq->rewrite) {
		if (wl_finish(w, r->lat, e) < 0)
			return fail(w, e);
		wl_set_state(w, LS_APPLYING, "rewriting the table");
		if (w->ops->rewrite(w->en, e) < 0)
			return fail(w, e);
		r->last_full = -INFINITY;
		wl_set_state(w, rq->paused ? LS_PAUSED : LS_RUNNING,
		             rq->paused ? "paused" : "running");
	}
	return rq->paused ? on_paused(w, r, e) : run_batch(w, r, rq->hold, e);
}

static enum live_state on_idle(struct workload *w, struct run *r, const struct request *rq,
                               struct err *e)
{
	(void)e;
	if (rq->gen != r->gen)
		return LS_RUNNING; /* the next turn applies it */
	wait_for_user(w, r->gen);
	return LS_IDLE;
}

/* A failed run resumes on a knob change or on resume, on a rebuilt table. */
static enum live_state on_failed(struct workload *w, struct run *r, const struct request *rq,
                                 struct err *e)
{
	int rc;

	if (rq->gen == r->gen && rq->paused) {
		wait_for_user(w, r->gen);
		return LS_FAILED;
	}
	wl_set_state(w, LS_APPLYING, "rebuilding the table after the error");
	rc = rq->gen != r->gen ? apply_change(w, r, rq, e) : wl_setup(w, &r->cur, e);
	if (rc < 0)
		return enter_failed(w, e);
	r->last_full = -INFINITY;
	wl_set_state(w, LS_RUNNING, "running");
	return on_active(w, r, rq, e); /* the setting is applied: on with the rest */
}

static enum live_state (*const turn[])(struct workload *, struct run *, const struct request *,
                                       struct err *) = {
	[LS_RUNNING] = on_active,
	[LS_PAUSED] = on_active,
	[LS_IDLE] = on_idle,
	[LS_FAILED] = on_failed,
};

/* STARTING: the first table, the first snapshot. */
static int start_run(struct workload *w, struct run *r, struct err *e)
{
	struct request rq;
	struct knobs in_force;
	struct counters c;

	take_request(w, LS_STARTING, &rq);
	r->cur = rq.knobs;
	r->gen = rq.gen;
	wl_set_state(w, LS_STARTING, "loading %lld rows", knobs_prefill(&r->cur));
	if (wl_setup(w, &r->cur, e) < 0 || wl_sample(w, &c, e) < 0)
		return -1;
	in_force = r->cur;
	wl_set_in_force(w, &in_force, &r->gen);
	wl_publish(w, &c, &c, r->lat);
	refresh_sizes(w, e);
	wl_set_state(w, LS_RUNNING, "running");
	w->budget = 16;
	return 0;
}

int wl_run_live(struct workload *w, struct err *e)
{
	struct run r = { .last_pub = 0,
		         .next_sizes = 0,
		         .every = PUBLISH_EVERY,
		         .last_full = -INFINITY,
		         .full_every = PUBLISH_EVERY };
	enum live_state st = LS_RUNNING;
	int rc = 0;

	r.lat = calloc(1, sizeof *r.lat);
	if (!r.lat)
		abort();
	if (start_run(w, &r, e) < 0) {
		free(r.lat);
		return -1;
	}
	while (st != LS_DONE && !atomic_load(&w->stop)) {
		struct request rq;

		take_request(w, st, &rq);
		st = turn[st](w, &r, &rq, e);
	}
	/* Stopped while failed: that failure (still in e) is how the run ended. */
	if (st == LS_FAILED || wl_finish(w, r.lat, e) < 0)
		rc = -1;
	free(r.lat);
	return rc;
}
