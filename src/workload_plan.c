/* workload_plan.c - the worker's headless sweep (plan mode).
 *
 * A plan is a list of steps, each a complete knob setting. For each step
 * the worker builds a fresh table (setup), samples, runs the step's rows in
 * batches, samples again and queues a step_result for the reporter; a sweep
 * over engines reopens the engine when the engine knob changes (it varies
 * slowest, so each engine opens once). --warmup runs each engine's first
 * step once unmeasured. A stop (Ctrl-C) ends the current step early: what
 * was measured up to then is still queued, marked interrupted. */
#include <stdlib.h>

#include "evlog.h"
#include "workload_impl.h"

static void queue_result(struct workload *w, struct node *n)
{
	pthread_mutex_lock(&w->mu);
	if (w->tail)
		w->tail->next = n;
	else
		w->head = n;
	w->tail = n;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
}

/* Run one step; queues its result. index < 0: a warm-up run of the step
 * -index - 1, measured by no one (its result is dropped, no interval
 * record is printed for it). A stop that the engine cannot finish (a
 * server that no longer answers) still queues the partial result, up to
 * the last sample that succeeded, and says why in the event log. */
static int run_step(struct workload *w, long index, const struct knobs *k, struct err *e)
{
	struct node *n = calloc(1, sizeof *n);
	struct step_result *r;
	uint64_t target = (uint64_t)k->v[K_ROWS], done = 0;
	double last_pub;
	struct counters c;
	int measuring = 0;

	if (!n)
		abort();
	r = &n->r;
	r->index = index;
	r->knobs = *k;
	pthread_mutex_lock(&w->mu);
	w->live.knobs = *k;
	pthread_mutex_unlock(&w->mu);
	if (wl_setup(w, k, e) < 0 || wl_sample(w, &r->a, e) < 0)
		goto fail;
	wl_set_in_force(w, &r->knobs, NULL);
	pthread_mutex_lock(&w->mu);
	w->live.step = index;
	pthread_mutex_unlock(&w->mu);
	wl_publish(w, &r->a, &r->a, &r->lat);
	last_pub = r->a.t;
	r->b = r->a; /* the last good sample, should the step end early */
	measuring = 1;
	w->budget = 16;
	while (done < target && !atomic_load(&w->stop)) {
		int64_t got = wl_batch(w, k, target - done, &r->lat, e);
		double t;

		if (got < 0)
			goto fail;
		done += (uint64_t)got;
		if (got == 0)
			break; /* the engine ran out of rows to work on */
		t = clock_now_s();
		if (t - last_pub >= PUBLISH_EVERY) {
			if (wl_sample(w, &c, e) < 0)
				goto fail;
			wl_publish(w, NULL, &c, &r->lat);
			r->b = c;
			last_pub = t;
		}
	}
	if (wl_finish(w, &r->lat, e) < 0 || wl_sample(w, &c, e) < 0)
		goto fail;
	r->b = c;
	wl_publish(w, NULL, &r->b, &r->lat);
	if (w->ops->sizes(w->en, &r->sizes, e) < 0)
		goto fail;
	r->interrupted = done < target;
	if (index < 0) {
		evlog_add(EV_INFO,
		          "warm-up: step %ld ran once unmeasured (%.2f s) before it is measured "
		          "(--warmup)",
		          -index, r->b.t - r->a.t);
		free(n);
		return 0;
	}
	queue_result(w, n);
	return 0;
fail:
	if (measuring && index >= 0 && atomic_load(&w->stop)) {
		evlog_add(EV_WARN, "%s - the result covers the step up to %.2f s in", e->msg,
		          r->b.t - r->a.t);
		r->sizes.db_bytes = r->sizes.index_bytes = -1;
		r->interrupted = 1;
		queue_result(w, n);
		return 0;
	}
	free(n);
	return -1;
}

int wl_run_plan(struct workload *w, struct err *e)
{
	struct knobs k;
	long i;
	int warm = 0; /* the engine open now has had its warm-up run */

	for (i = 0; i < w->plan->steps && !atomic_load(&w->stop); i++) {
		plan_step(w->plan, i, &k);
		/* A sweep over engines: the engine knob varies slowest. */
		if (k.v[K_ENGINE] != w->engine) {
			wl_close_engine(w);
			if (wl_open_engine(w, &k, e) < 0)
				return -1;
			warm = 0;
		}
		if (k.v[K_WARMUP] && !warm && run_step(w, -(i + 1), &k, e) < 0)
			return -1;
		warm = 1;
		if (atomic_load(&w->stop)) {
			evlog_add(EV_INFO, "stopped in the warm-up of step %ld: nothing measured",
			          i + 1);
			break;
		}
		if (run_step(w, i, &k, e) < 0)
			return -1;
	}
	return 0;
}
