/* workload.c - the worker thread.
 *
 * Shared state is one mutex and one condition variable: the worker takes the
 * mutex only to publish a snapshot, queue a result or finish; readers take it
 * to copy. The stop request is an atomic so a signal path can set it. */
#include "workload.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engines/engine.h"
#include "evlog.h"

#define PUBLISH_EVERY 0.05 /* seconds */
#define BATCH_TARGET  0.02 /* seconds per engine step() call */
#define BATCH_MAX     65536

struct node {
	struct node *next;
	struct step_result r;
};

struct workload {
	const struct plan *plan; /* borrowed */
	pthread_t thread;
	int started;
	atomic_int stop;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct live live;
	struct node *head, *tail;
	int state; /* 0 running, 1 done, -1 failed */
	struct err err;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void publish(struct workload *w, long step, const struct knobs *k,
                    const struct counters *start, const struct counters *c, const struct hist *lat)
{
	pthread_mutex_lock(&w->mu);
	w->live.step = step;
	w->live.start = *start;
	w->live.gen++;
	w->live.knobs = *k;
	w->live.c = *c;
	w->live.lat = *lat;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
}

/* Sample everything into c: the worker's own counts plus the engine's. */
static int sample(const struct engine_ops *ops, struct engine *en, uint64_t rows, uint64_t commits,
                  struct counters *c, struct err *e)
{
	memset(c, 0, sizeof *c);
	if (ops->sample(en, c, e) < 0)
		return -1;
	c->t = now_s();
	c->v[C_ROWS] = rows;
	c->v[C_COMMITS] = commits;
	c->valid |= 1u << C_ROWS | 1u << C_COMMITS;
	return 0;
}

/* Run one step; queues its result. */
static int run_step(struct workload *w, const struct engine_ops *ops, struct engine *en, long index,
                    const struct knobs *k, uint64_t *rows, uint64_t *commits, struct err *e)
{
	struct node *n = calloc(1, sizeof *n);
	struct step_result *r;
	uint64_t target = (uint64_t)k->v[K_ROWS], done = 0, budget = 16;
	double last_pub = 0;
	struct step_out out = { 0, 0 };
	struct counters c;

	if (!n)
		abort();
	r = &n->r;
	r->index = index;
	r->knobs = *k;
	if (ops->setup(en, k, e) < 0)
		goto fail;
	if (sample(ops, en, *rows, *commits, &r->a, e) < 0)
		goto fail;
	publish(w, index, k, &r->a, &r->a, &r->lat);
	last_pub = r->a.t;
	while (done < target && !atomic_load(&w->stop)) {
		uint64_t b = target - done < budget ? target - done : budget;
		double t0 = now_s(), t1;

		out.rows = out.commits = 0;
		if (ops->step(en, k, b, &out, &r->lat, e) < 0)
			goto fail;
		done += out.rows;
		*rows += out.rows;
		*commits += out.commits;
		t1 = now_s();
		if (out.rows < b)
			break; /* the engine ran out of rows to work on */
		/* Size the next batch to take about BATCH_TARGET. */
		if (t1 - t0 < BATCH_TARGET / 2 && budget < BATCH_MAX)
			budget *= 2;
		else if (t1 - t0 > BATCH_TARGET * 2 && budget > 1)
			budget /= 2;
		if (t1 - last_pub >= PUBLISH_EVERY) {
			if (sample(ops, en, *rows, *commits, &c, e) < 0)
				goto fail;
			publish(w, index, k, &r->a, &c, &r->lat);
			last_pub = t1;
		}
	}
	out.rows = out.commits = 0;
	if (ops->finish(en, &out, &r->lat, e) < 0)
		goto fail;
	*commits += out.commits;
	if (sample(ops, en, *rows, *commits, &r->b, e) < 0)
		goto fail;
	publish(w, index, k, &r->a, &r->b, &r->lat);
	if (ops->sizes(en, &r->sizes, e) < 0)
		goto fail;
	r->interrupted = done < target;
	pthread_mutex_lock(&w->mu);
	if (w->tail)
		w->tail->next = n;
	else
		w->head = n;
	w->tail = n;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
	return 0;
fail:
	free(n);
	return -1;
}

static void *worker(void *arg)
{
	struct workload *w = arg;
	const struct engine_ops *ops;
	struct engine *en = NULL;
	struct knobs k;
	struct err e = { ERR_NONE, "" };
	uint64_t rows = 0, commits = 0;
	int rc = 0;
	long i;

	plan_step(w->plan, 0, &k);
	ops = engine_find(knob_table[K_ENGINE].choices[k.v[K_ENGINE]]);
	if (!ops) {
		rc = err_set(&e, ERR_USAGE, "engine %s is not built into this idxlab",
		             knob_table[K_ENGINE].choices[k.v[K_ENGINE]]);
	} else if (ops->open(&en, &k, &e) < 0) {
		rc = -1;
	}
	for (i = 0; rc == 0 && i < w->plan->steps && !atomic_load(&w->stop); i++) {
		plan_step(w->plan, i, &k);
		rc = run_step(w, ops, en, i, &k, &rows, &commits, &e);
	}
	if (rc < 0 && e.cls == ERR_NONE)
		err_set(&e, ERR_RUNTIME, "the workload failed");
	if (ops && en)
		ops->close(en);
	pthread_mutex_lock(&w->mu);
	w->state = rc < 0 ? -1 : 1;
	w->err = e;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

int workload_start(struct workload **out, const struct plan *p, struct err *e)
{
	struct workload *w = calloc(1, sizeof *w);
	int rc;

	*out = NULL;
	if (!w)
		abort();
	w->plan = p;
	w->live.step = -1;
	atomic_init(&w->stop, 0);
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->cv, NULL);
	rc = pthread_create(&w->thread, NULL, worker, w);
	if (rc) {
		workload_free(w);
		return err_set(e, ERR_RUNTIME, "cannot start the worker thread: %s", strerror(rc));
	}
	w->started = 1;
	*out = w;
	return 0;
}

void workload_wait(struct workload *w, double timeout_s)
{
	struct timespec ts;
	double whole;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += (long)(modf(timeout_s, &whole) * 1e9);
	ts.tv_sec += (time_t)whole + ts.tv_nsec / 1000000000L;
	ts.tv_nsec %= 1000000000L;
	pthread_mutex_lock(&w->mu);
	if (w->state == 0 && !w->head)
		pthread_cond_timedwait(&w->cv, &w->mu, &ts);
	pthread_mutex_unlock(&w->mu);
}

void workload_live(struct workload *w, struct live *out)
{
	pthread_mutex_lock(&w->mu);
	*out = w->live;
	pthread_mutex_unlock(&w->mu);
}

int workload_pop(struct workload *w, struct step_result *out)
{
	struct node *n;

	pthread_mutex_lock(&w->mu);
	n = w->head;
	if (n) {
		w->head = n->next;
		if (!w->head)
			w->tail = NULL;
	}
	pthread_mutex_unlock(&w->mu);
	if (!n)
		return 0;
	*out = n->r;
	free(n);
	return 1;
}

int workload_state(struct workload *w, struct err *e)
{
	int s;

	pthread_mutex_lock(&w->mu);
	s = w->state;
	if (s < 0 && e)
		*e = w->err;
	pthread_mutex_unlock(&w->mu);
	return s;
}

void workload_stop(struct workload *w)
{
	if (w)
		atomic_store(&w->stop, 1);
}

void workload_free(struct workload *w)
{
	struct step_result r;

	if (!w)
		return;
	workload_stop(w);
	if (w->started)
		pthread_join(w->thread, NULL);
	while (workload_pop(w, &r))
		;
	pthread_cond_destroy(&w->cv);
	pthread_mutex_destroy(&w->mu);
	free(w);
}
