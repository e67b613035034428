/* workload.c - the worker thread: its API, its shared state, the helpers
 * both modes use.
 *
 * Shared state is one mutex and one condition variable (see
 * workload_impl.h for who touches what): the UI posts requests and copies
 * snapshots under the mutex; the worker takes it to publish a snapshot,
 * queue a result, take a request or finish. The stop request is an atomic,
 * so the engine can poll it inside long statements. The modes themselves
 * are in workload_plan.c (headless sweeps) and workload_live.c (the
 * dashboard's state machine). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engines/reads.h"
#include "evlog.h"
#include "mix.h"
#include "redact.h"
#include "schema.h"
#include "workload_impl.h"

int wl_setup(struct workload *w, const struct knobs *k, struct err *e)
{
	uint64_t rows = (uint64_t)knobs_prefill(k);

	if (k->v[K_SCHEMA] != 0 && !w->ops->table_specs)
		return err_set(e, ERR_USAGE,
		               "--schema %s: the %s engine builds only the default table so far "
		               "(idxlab runs no other table in its place)",
		               schema_of(k)->name, knob_table[K_ENGINE].choices[k->v[K_ENGINE]]);
	if (w->ops->setup(w->en, k, e) < 0)
		return -1;
	rowset_reset(&w->rs, 0);
	if (rows) {
		if (w->ops->load(w->en, rows, e) < 0)
			return -1;
		rowset_reset(&w->rs, rows);
	}
	if (w->ops->ready(w->en, k, rows, e) < 0)
		return -1;
	w->txn.nops = 0; /* a fresh table draws its mix from the first draw again */
	w->mixed = 0;
	schema_say_unbuilt(schema_of(k), knob_table[K_ENGINE].choices[k->v[K_ENGINE]]);
	return 0;
}

/* What the step loop counts itself, free to read: rows, commits, and the
 * reads' - queries, the rows they returned (what they examined and the
 * pages they read: the engine's op hook's, valid where its measures say),
 * and a mix's time per kind of operation (0 outside a mix, whose figures
 * alone use them). */
static void loop_counts(const struct workload *w, struct counters *c)
{
	c->v[C_ROWS] = w->rows;
	c->v[C_COMMITS] = w->commits;
	c->v[C_READS] = w->txn.reads;
	c->v[C_READ_ROWS] = w->txn.read_rows;
	c->v[C_READ_EXAMINED] = w->txn.read_examined;
	c->v[C_READ_PAGES] = w->txn.read_pages;
	c->v[C_READ_NS] = w->txn.read_ns;
	c->v[C_WRITE_NS] = w->txn.write_ns;
	c->v[C_WRITES] = w->txn.writes;
	c->v[C_WRITES_TIMED] = w->txn.writes_timed;
	c->valid |= 1u << C_ROWS | 1u << C_COMMITS | 1u << C_READS | 1u << C_READ_ROWS |
	            1u << C_READ_NS | 1u << C_WRITE_NS | 1u << C_WRITES;
	if (!w->txn.deferred)
		c->valid |= 1u << C_WRITES_TIMED;
	memcpy(c->op_n, w->txn.op_n, sizeof c->op_n);
	memcpy(c->op_ns, w->txn.op_ns, sizeof c->op_ns);
	memcpy(c->op_read, w->txn.op_read, sizeof c->op_read);
	c->op_timed = w->txn.deferred ? 1u << OP_LOOKUP | 1u << OP_RANGE : (1u << OP_COUNT) - 1;
}

int wl_sample(struct workload *w, struct counters *c, struct err *e)
{
	return wl_sample_of(w, c, 0, e);
}

int wl_sample_of(struct workload *w, struct counters *c, uint32_t want, struct err *e)
{
	/* The counts stand for the moment the sample began: the worker's rows
	 * are done by then, and the engine's counters are read from there on
	 * (a server round trip or a WAL look can take milliseconds, which are
	 * the measurement's, not the workload's). */
	double t = clock_now_s();

	memset(c, 0, sizeof *c);
	c->want = want;
	if (w->ops->sample(w->en, c, e) < 0)
		return -1;
	c->t = t;
	loop_counts(w, c);
	c->valid |= w->ops->measures_more & (1u << C_READ_EXAMINED | 1u << C_READ_PAGES) &
	            ~w->ops->sample_sets;
	return 0;
}

void wl_sample_light(struct workload *w, struct counters *c)
{
	memset(c, 0, sizeof *c);
	c->t = clock_now_s();
	loop_counts(w, c);
}

double wl_sample_every(double cost, double cap)
{
	return fmin(fmax(PUBLISH_EVERY, cost / SAMPLE_SHARE), fmax(PUBLISH_EVERY, cap));
}

static void publish(struct workload *w, const struct counters *start, const struct counters *c,
                    const struct lats *lat, int full)
{
	pthread_mutex_lock(&w->mu);
	w->live.gen++;
	if (start)
		w->live.start = *start;
	if (c)
		w->live.c = *c;
	if (c && full) {
		w->live.full = *c;
		w->live.served[0] = 0;
		if (w->en && w->ops->reads)
			reads_served_text(w->ops->reads(w->en), w->live.served,
			                  sizeof w->live.served);
	}
	if (lat)
		w->live.lat = *lat;
	if (w->en)
		w->live.table_rows = w->rs.live_rows;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
}

void wl_publish(struct workload *w, const struct counters *start, const struct counters *c,
                const struct lats *lat)
{
	publish(w, start, c, lat, 1);
}

void wl_publish_light(struct workload *w, const struct counters *c, const struct lats *lat)
{
	publish(w, NULL, c, lat, 0);
}

void wl_set_state(struct workload *w, enum live_state st, const char *fmt, ...)
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

int64_t wl_batch(struct workload *w, const struct knobs *k, uint64_t limit, struct lats *lat,
                 struct err *e)
{
	uint64_t b = limit < w->budget ? limit : w->budget;
	struct step_out out = { 0, 0 };
	double t0 = clock_now_s(), dt;

	/* a mix's weights and seed, for the loop's draws */
	w->txn.mixed = mix_of(k, w->txn.mix);
	w->txn.seed = (uint64_t)k->v[K_SEED];
	w->txn.op_lat = w->op_lat;
	if ((w->ops->step_start && w->ops->step_start(w->en, e) < 0) ||
	    txn_step(&w->txn, k->v[K_OP], (uint64_t)k->v[K_COMMIT], b, &out, lat, e) < 0) {
		w->txn.mixed = 0;
		return -1;
	}
	w->mixed = w->txn.mixed;
	w->txn.mixed = 0; /* an engine's own load steps insert alone */
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

int wl_finish(struct workload *w, struct lats *lat, struct err *e)
{
	struct step_out out = { 0, 0 };
	int rc;

	/* the open transaction is the last batch's: its commit, or a replay
	 * of it, is the mix's */
	w->txn.mixed = w->mixed;
	rc = (w->ops->finish_start && w->ops->finish_start(w->en, e) < 0) ||
	     txn_finish(&w->txn, &out, lat, e) < 0 ||
	     (w->ops->finish_end && w->ops->finish_end(w->en, e) < 0);
	w->txn.mixed = 0;
	if (rc)
		return -1;
	w->commits += out.commits;
	return 0;
}

void wl_set_in_force(struct workload *w, struct knobs *k, const unsigned long *gen)
{
	if (w->ops->in_force)
		w->ops->in_force(w->en, k);
	pthread_mutex_lock(&w->mu);
	w->live.knobs = *k;
	if (gen)
		w->live.knobs_gen = *gen;
	w->live.knobs_t = clock_now_s();
	pthread_mutex_unlock(&w->mu);
}

/* w->ops and w->en are set only on success. */
int wl_open_engine(struct workload *w, const struct knobs *k, struct err *e)
{
	const char *name = knob_table[K_ENGINE].choices[k->v[K_ENGINE]];
	const struct engine_ops *ops = engine_find(name);

	if (!ops)
		return err_set(
		    e, ERR_USAGE,
		    "engine %s is not built into this idxlab: its library was missing at "
		    "build time (install %s - make deps does - then make)",
		    name, engine_package((int)k->v[K_ENGINE]));
	txn_init(&w->txn, NULL, &w->rs, NULL); /* open gives it its engine and hooks */
	if (ops->open(&w->en, k, &w->txn, &w->stop, e) < 0) {
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

void wl_close_engine(struct workload *w)
{
	if (w->ops && w->en)
		w->ops->close(w->en);
	w->en = NULL;
	rowset_free(&w->rs);
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
	else {
		pthread_mutex_lock(&w->mu);
		k = w->req.knobs;
		pthread_mutex_unlock(&w->mu);
	}
	if (wl_open_engine(w, &k, &e) < 0)
		rc = -1;
	else
		rc = w->plan ? wl_run_plan(w, &e) : wl_run_live(w, &e);
	if (rc < 0 && atomic_load(&w->stop) && w->plan) {
		rc = 0; /* stopped by the user inside a long statement */
	}
	if (rc < 0 && e.cls == ERR_NONE)
		err_set(&e, ERR_RUNTIME, "the workload failed");
	wl_close_engine(w);
	pthread_mutex_lock(&w->mu);
	w->state = rc < 0 ? -1 : 1;
	w->err = e;
	w->live.state = rc < 0 ? LS_FAILED : LS_DONE;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

static int start(struct workload **out, const struct plan *p, const struct knobs *k,
                 double sample_cap, struct err *e)
{
	struct workload *w = calloc(1, sizeof *w);
	int rc;

	*out = NULL;
	if (!w)
		abort();
	w->plan = p;
	w->sample_cap = sample_cap;
	if (k) {
		w->req.knobs = *k;
		w->req.gen = WORKLOAD_FIRST_GEN;
		w->live.knobs = *k;
	}
	w->live.step = -1;
	w->live.order = -1;
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

int workload_start(struct workload **out, const struct plan *p, double sample_cap, struct err *e)
{
	return start(out, p, NULL, sample_cap, e);
}

int workload_start_live(struct workload **out, const struct knobs *k, struct err *e)
{
	return start(out, NULL, k, LIVE_SAMPLE_CAP, e);
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
	w->req.knobs = *k;
	g = ++w->req.gen;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
	return g;
}

void workload_rewrite(struct workload *w)
{
	pthread_mutex_lock(&w->mu);
	w->req.rewrite = 1;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
}

void workload_hold(struct workload *w, int on)
{
	pthread_mutex_lock(&w->mu);
	w->req.hold = on;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
}

void workload_pause(struct workload *w, int paused)
{
	pthread_mutex_lock(&w->mu);
	w->req.paused = paused;
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
