/* workload.c - the worker thread.
 *
 * Shared state is one mutex and one condition variable: the worker takes the
 * mutex to publish a snapshot, queue a result, pick up a knob change or
 * finish; readers take it to copy. The stop request is an atomic, so the
 * engine can poll it inside long statements. */
#include "workload.h"

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "engines/engine.h"
#include "evlog.h"
#include "redact.h"

#define PUBLISH_EVERY 0.05 /* seconds */
#define SIZES_EVERY   2.0  /* seconds, live mode */
#define BATCH_TARGET  0.02 /* seconds per engine step() call */
#define BATCH_MAX     65536

struct node {
	struct node *next;
	struct step_result r;
};

struct workload {
	const struct plan *plan; /* borrowed; NULL in live mode */
	pthread_t thread;
	int started;
	atomic_int stop;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct live live;
	struct node *head, *tail;
	int state; /* 0 running, 1 done, -1 failed */
	struct err err;
	/* live mode: what the UI asked for */
	struct knobs want;
	unsigned long want_gen;
	int paused;
	int rewrite; /* a rewrite was asked for */
	/* worker-private */
	const struct engine_ops *ops;
	long long engine; /* the K_ENGINE value ops and en are for */
	struct engine *en;
	uint64_t rows, commits;
	uint64_t budget;
};

/* Sample everything into c: the worker's own counts plus the engine's. */
static int sample(struct workload *w, struct counters *c, struct err *e)
{
	memset(c, 0, sizeof *c);
	if (w->ops->sample(w->en, c, e) < 0)
		return -1;
	c->t = clock_now_s();
	c->v[C_ROWS] = w->rows;
	c->v[C_COMMITS] = w->commits;
	c->valid |= 1u << C_ROWS | 1u << C_COMMITS;
	return 0;
}

/* Publish under the lock; fn fills the parts that changed. */
static void publish(struct workload *w, const struct counters *start, const struct counters *c,
                    const struct hist *lat)
{
	pthread_mutex_lock(&w->mu);
	w->live.gen++;
	if (start)
		w->live.start = *start;
	if (c)
		w->live.c = *c;
	if (lat)
		w->live.lat = *lat;
	if (w->en)
		w->live.table_rows = w->ops->table_rows(w->en);
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
}

static void set_state(struct workload *w, enum live_state st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void set_state(struct workload *w, enum live_state st, const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&w->mu);
	w->live.state = st;
	w->live.activity_t0 = clock_now_s();
	va_start(ap, fmt);
	vsnprintf(w->live.activity, sizeof w->live.activity, fmt, ap);
	va_end(ap);
	w->live.gen++;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
}

/* Run one engine batch of at most `limit` rows; adapts w->budget. Returns
 * rows done, or -1. */
static int64_t batch(struct workload *w, const struct knobs *k, uint64_t limit, struct hist *lat,
                     struct err *e)
{
	uint64_t b = limit < w->budget ? limit : w->budget;
	struct step_out out = { 0, 0 };
	double t0 = clock_now_s(), dt;

	if (w->ops->step(w->en, k, b, &out, lat, e) < 0)
		return -1;
	w->rows += out.rows;
	w->commits += out.commits;
	dt = clock_now_s() - t0;
	if (out.rows == b) {
		if (dt < BATCH_TARGET / 2 && w->budget < BATCH_MAX)
			w->budget *= 2;
		else if (dt > BATCH_TARGET * 2 && w->budget > 1)
			w->budget /= 2;
	}
	return (int64_t)out.rows;
}

static int finish(struct workload *w, struct hist *lat, struct err *e)
{
	struct step_out out = { 0, 0 };

	if (w->ops->finish(w->en, &out, lat, e) < 0)
		return -1;
	w->commits += out.commits;
	return 0;
}

/* Publish k, as the engine runs it (in_force), as the setting in force;
 * gen is the live-mode generation it answers (plan mode: unchanged). */
static void set_in_force(struct workload *w, struct knobs *k, const unsigned long *gen)
{
	if (w->ops->in_force)
		w->ops->in_force(w->en, k);
	pthread_mutex_lock(&w->mu);
	w->live.knobs = *k;
	if (gen)
		w->live.knobs_gen = *gen;
	pthread_mutex_unlock(&w->mu);
}

/* ---- plan mode ---------------------------------------------------------- */

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
	if (w->ops->setup(w->en, k, e) < 0 || sample(w, &r->a, e) < 0)
		goto fail;
	set_in_force(w, &r->knobs, NULL);
	pthread_mutex_lock(&w->mu);
	w->live.step = index;
	pthread_mutex_unlock(&w->mu);
	publish(w, &r->a, &r->a, &r->lat);
	last_pub = r->a.t;
	r->b = r->a; /* the last good sample, should the step end early */
	measuring = 1;
	w->budget = 16;
	while (done < target && !atomic_load(&w->stop)) {
		int64_t got = batch(w, k, target - done, &r->lat, e);
		double t;

		if (got < 0)
			goto fail;
		done += (uint64_t)got;
		if (got == 0)
			break; /* the engine ran out of rows to work on */
		t = clock_now_s();
		if (t - last_pub >= PUBLISH_EVERY) {
			if (sample(w, &c, e) < 0)
				goto fail;
			publish(w, NULL, &c, &r->lat);
			r->b = c;
			last_pub = t;
		}
	}
	if (finish(w, &r->lat, e) < 0 || sample(w, &c, e) < 0)
		goto fail;
	r->b = c;
	publish(w, NULL, &r->b, &r->lat);
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

/* Open the engine k names; w->ops and w->en are set only on success. */
static int open_engine(struct workload *w, const struct knobs *k, struct err *e)
{
	const char *name = knob_table[K_ENGINE].choices[k->v[K_ENGINE]];
	const struct engine_ops *ops = engine_find(name);

	if (!ops)
		return err_set(
		    e, ERR_USAGE,
		    "engine %s is not built into this idxlab: its library was missing at "
		    "build time (make deps, then make)",
		    name);
	if (ops->open(&w->en, k, &w->stop, e) < 0) {
		w->en = NULL;
		return -1;
	}
	w->ops = ops;
	w->engine = k->v[K_ENGINE];
	pthread_mutex_lock(&w->mu);
	redact_text(ops->where(w->en), w->live.where, sizeof w->live.where);
	pthread_mutex_unlock(&w->mu);
	return 0;
}

static void close_engine(struct workload *w)
{
	if (w->ops && w->en)
		w->ops->close(w->en);
	w->en = NULL;
}

static int run_plan(struct workload *w, struct err *e)
{
	struct knobs k;
	long i;
	int warm = 0; /* the engine open now has had its warm-up run */

	for (i = 0; i < w->plan->steps && !atomic_load(&w->stop); i++) {
		plan_step(w->plan, i, &k);
		/* A sweep over engines: the engine knob varies slowest. */
		if (k.v[K_ENGINE] != w->engine) {
			close_engine(w);
			if (open_engine(w, &k, e) < 0)
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

/* ---- live mode ---------------------------------------------------------- */

/* Apply w->want if it changed; 0, or -1 with e filled. */
static int take_change(struct workload *w, struct knobs *cur, unsigned long *gen, struct hist *lat,
                       struct err *e)
{
	struct knobs next;
	unsigned long g;
	double t0;

	pthread_mutex_lock(&w->mu);
	next = w->want;
	g = w->want_gen;
	pthread_mutex_unlock(&w->mu);
	if (g == *gen)
		return 0;
	if (finish(w, lat, e) < 0)
		return -1;
	t0 = clock_now_s();
	if (knobs_need_rebuild(cur, &next)) {
		set_state(w, LS_APPLYING, "rebuilding the table (%lld rows)", knobs_prefill(&next));
		if (w->ops->setup(w->en, &next, e) < 0)
			return -1;
		evlog_add(EV_INFO, "table rebuilt in %.2f s", clock_now_s() - t0);
	} else {
		if (cur->v[K_INDEXES] != next.v[K_INDEXES])
			set_state(w, LS_APPLYING, "%s idxlab_k%lld..%lld",
			          next.v[K_INDEXES] > cur->v[K_INDEXES] ? "building" : "dropping",
			          (next.v[K_INDEXES] > cur->v[K_INDEXES] ? cur->v[K_INDEXES]
			                                                 : next.v[K_INDEXES]) +
			              1,
			          next.v[K_INDEXES] > cur->v[K_INDEXES] ? next.v[K_INDEXES]
			                                                : cur->v[K_INDEXES]);
		if (w->ops->apply(w->en, &next, e) < 0)
			return -1;
	}
	*cur = next;
	*gen = g;
	set_in_force(w, &next, &g);
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

/* A batch failed: say so, stop and wait for the user (a knob or resume). */
static void enter_failed(struct workload *w, const struct err *e)
{
	evlog_add(EV_ERROR, "%s", e->msg);
	set_state(w, LS_FAILED, "%s", e->msg);
	pthread_mutex_lock(&w->mu);
	w->paused = 1;
	pthread_mutex_unlock(&w->mu);
}

/* What the UI asked for (workload_set/pause/rewrite), copied under the lock
 * once per turn of the live loop: the worker never reads these fields of
 * struct workload without it. */
struct requests {
	unsigned long gen; /* want_gen */
	int paused;
	int rewrite; /* taken: the flag is cleared */
};

/* A rewrite is taken only when take_rewrite (else it stays asked for). */
static void read_requests(struct workload *w, struct requests *rq, int take_rewrite)
{
	pthread_mutex_lock(&w->mu);
	rq->gen = w->want_gen;
	rq->paused = w->paused;
	rq->rewrite = take_rewrite && w->rewrite;
	if (rq->rewrite)
		w->rewrite = 0;
	pthread_mutex_unlock(&w->mu);
}

/* Wait (paused, idle or failed) until a change, a resume or a stop; returns
 * the generation asked for by then. */
static unsigned long wait_for_user(struct workload *w, unsigned long gen)
{
	struct timespec ts;
	unsigned long g;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += 100 * 1000000L;
	ts.tv_sec += ts.tv_nsec / 1000000000L;
	ts.tv_nsec %= 1000000000L;
	pthread_mutex_lock(&w->mu);
	if (w->want_gen == gen && !atomic_load(&w->stop))
		pthread_cond_timedwait(&w->cv, &w->mu, &ts);
	g = w->want_gen;
	pthread_mutex_unlock(&w->mu);
	return g;
}

static int run_live(struct workload *w, struct err *e)
{
	struct knobs cur;
	unsigned long gen;
	struct hist *lat = calloc(1, sizeof *lat);
	struct counters c;
	double last_pub = 0, next_sizes = 0;
	int failed = 0, rc = 0;

	if (!lat)
		abort();
	pthread_mutex_lock(&w->mu);
	cur = w->want;
	gen = w->want_gen;
	pthread_mutex_unlock(&w->mu);
	set_state(w, LS_STARTING, "loading %lld rows", knobs_prefill(&cur));
	if (w->ops->setup(w->en, &cur, e) < 0 || sample(w, &c, e) < 0) {
		free(lat);
		return -1;
	}
	{
		struct knobs in_force = cur;

		set_in_force(w, &in_force, &gen);
	}
	publish(w, &c, &c, lat);
	refresh_sizes(w, e);
	set_state(w, LS_RUNNING, "running");
	w->budget = 16;
	while (!atomic_load(&w->stop)) {
		struct requests rq;
		int64_t got;
		double t;

		read_requests(w, &rq, !failed);
		if (failed) {
			/* A failed run resumes on a knob change or on resume. */
			if (rq.gen == gen && rq.paused) {
				wait_for_user(w, gen);
				continue;
			}
			failed = 0;
			set_state(w, LS_APPLYING, "rebuilding the table after the error");
			if ((rq.gen != gen ? take_change(w, &cur, &gen, lat, e)
			                   : w->ops->setup(w->en, &cur, e)) < 0) {
				enter_failed(w, e);
				failed = 1;
				continue;
			}
			set_state(w, LS_RUNNING, "running");
		}
		if (take_change(w, &cur, &gen, lat, e) < 0)
			goto failure;
		if (rq.rewrite) {
			if (finish(w, lat, e) < 0)
				goto failure;
			set_state(w, LS_APPLYING, "rewriting the table");
			if (w->ops->rewrite(w->en, e) < 0)
				goto failure;
			set_state(w, rq.paused ? LS_PAUSED : LS_RUNNING,
			          rq.paused ? "paused" : "running");
		}
		if (rq.paused) {
			if (finish(w, lat, e) < 0)
				goto failure;
			if (w->live.state != LS_PAUSED)
				set_state(w, LS_PAUSED, "paused");
			if (sample(w, &c, e) == 0)
				publish(w, NULL, &c, lat);
			wait_for_user(w, gen);
			continue;
		}
		if (w->live.state != LS_RUNNING)
			set_state(w, LS_RUNNING, "running");
		if (cur.v[K_OP] == OP_INSERT &&
		    w->ops->table_rows(w->en) >= (uint64_t)cur.v[K_ROWS]) {
			/* Keep the disk from filling up: a fresh table, and on we go. */
			if (finish(w, lat, e) < 0)
				goto failure;
			evlog_add(EV_INFO,
			          "the table reached %lld rows (the rows knob): starting over",
			          cur.v[K_ROWS]);
			set_state(w, LS_APPLYING, "starting over with a fresh table");
			if (w->ops->setup(w->en, &cur, e) < 0)
				goto failure;
			set_state(w, LS_RUNNING, "running");
		}
		got = batch(w, &cur, UINT64_MAX, lat, e);
		if (got < 0)
			goto failure;
		t = clock_now_s();
		if (got == 0) {
			if (finish(w, lat, e) < 0)
				goto failure;
			set_state(w, LS_IDLE, "no rows left to %s: change op or table size",
			          knob_table[K_OP].choices[cur.v[K_OP]]);
			evlog_add(EV_WARN, "no rows left to %s: change op or table size",
			          knob_table[K_OP].choices[cur.v[K_OP]]);
			while (!atomic_load(&w->stop) && wait_for_user(w, gen) == gen)
				;
			continue;
		}
		if (t - last_pub >= PUBLISH_EVERY) {
			if (sample(w, &c, e) < 0)
				goto failure;
			publish(w, NULL, &c, lat);
			last_pub = t;
		}
		if (t >= next_sizes) {
			double t0 = clock_now_s();

			if (refresh_sizes(w, e) < 0)
				goto failure;
			/* Index sizes walk every index page: keep that under 2 % of
			 * the worker's time however big the indexes grow. */
			t = clock_now_s();
			next_sizes = t + fmax(SIZES_EVERY, 50 * (t - t0));
		}
		continue;
	failure:
		if (atomic_load(&w->stop))
			break;
		enter_failed(w, e);
		failed = 1;
	}
	/* Stopped while failed: that failure (still in e) is how the run ended. */
	if (failed || finish(w, lat, e) < 0)
		rc = -1;
	free(lat);
	return rc;
}

/* ---- the thread --------------------------------------------------------- */

static void *worker(void *arg)
{
	struct workload *w = arg;
	struct knobs k;
	struct err e = { ERR_NONE, "" };
	int rc = 0;

	if (w->plan)
		plan_step(w->plan, 0, &k);
	else
		k = w->want;
	if (open_engine(w, &k, &e) < 0)
		rc = -1;
	else
		rc = w->plan ? run_plan(w, &e) : run_live(w, &e);
	if (rc < 0 && atomic_load(&w->stop) && w->plan) {
		rc = 0; /* stopped by the user inside a long statement */
	}
	if (rc < 0 && e.cls == ERR_NONE)
		err_set(&e, ERR_RUNTIME, "the workload failed");
	close_engine(w);
	pthread_mutex_lock(&w->mu);
	w->state = rc < 0 ? -1 : 1;
	w->err = e;
	w->live.state = rc < 0 ? LS_FAILED : LS_DONE;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

static int start(struct workload **out, const struct plan *p, const struct knobs *k, struct err *e)
{
	struct workload *w = calloc(1, sizeof *w);
	int rc;

	*out = NULL;
	if (!w)
		abort();
	w->plan = p;
	if (k) {
		w->want = *k;
		w->want_gen = WORKLOAD_FIRST_GEN;
		w->live.knobs = *k;
	}
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

int workload_start(struct workload **out, const struct plan *p, struct err *e)
{
	return start(out, p, NULL, e);
}

int workload_start_live(struct workload **out, const struct knobs *k, struct err *e)
{
	return start(out, NULL, k, e);
}

const char *live_state_name(enum live_state s)
{
	static const char *const names[LS_DONE + 1] = { "starting", "running", "paused", "applying",
		                                        "idle",     "failed",  "stopped" };

	return s >= 0 && s <= LS_DONE ? names[s] : "?";
}

unsigned long workload_set(struct workload *w, const struct knobs *k)
{
	unsigned long g;

	pthread_mutex_lock(&w->mu);
	w->want = *k;
	g = ++w->want_gen;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
	return g;
}

void workload_rewrite(struct workload *w)
{
	pthread_mutex_lock(&w->mu);
	w->rewrite = 1;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
}

void workload_pause(struct workload *w, int paused)
{
	pthread_mutex_lock(&w->mu);
	w->paused = paused;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
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
	if (!w)
		return;
	atomic_store(&w->stop, 1);
	pthread_mutex_lock(&w->mu);
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
}

void workload_free(struct workload *w)
{
	struct step_result *r;

	if (!w)
		return;
	workload_stop(w);
	if (w->started)
		pthread_join(w->thread, NULL);
	r = malloc(sizeof *r);
	while (r && workload_pop(w, r))
		;
	free(r);
	pthread_cond_destroy(&w->cv);
	pthread_mutex_destroy(&w->mu);
	free(w);
}
