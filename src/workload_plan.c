/* workload_plan.c - the worker's headless sweep (plan mode).
 *
 * A plan is a list of steps, each a complete knob setting. For each step
 * the worker builds a fresh table (setup), samples, runs the step's rows in
 * batches, samples again and queues a step_result for the reporter; a sweep
 * over engines reopens the engine when the engine knob changes (it varies
 * slowest, so each engine opens once). --warmup runs each engine's first
 * step once unmeasured. A stop (Ctrl-C) ends the current step early: what
 * was measured up to then is still queued, marked interrupted.
 *
 * --repeat N runs each step N times, each on a fresh table, interleaved:
 * run 1 of every step of an engine, then run 2 of every one, and so on, so
 * that drift (a disk warming, a neighbour's burst, the page cache) falls
 * on every step alike rather than on the steps that happen to come first
 * or last. The interleaving stays within an engine's steps: an engine
 * still opens once. Each run is queued as its own step_result (its run
 * number and its place in the order with it); the reporter takes the
 * medians. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "evlog.h"
#include "xalloc.h"
#include "engines/reads.h"
#include "workload_impl.h"
#include "mix.h"

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

/* What a mid-step sample of a run with no --interval is read for: the
 * progress line, and the partial result should the step stop without an
 * answer. Not the full-page-image count, which on PostgreSQL means reading
 * all the WAL since the last look: the closing sample counts it whole,
 * outside the step's window (a partial result has it n/a). */
#define MID_STEP_WANT (~(1u << C_FPI_BYTES | 1u << C_FPI_GAPS))

/* --interval-rows: where the current batch of a step began. */
struct batch {
	struct counters a;
	struct lats lat;
	uint64_t every, next; /* rows per batch, and the row count ending this one */
};

/* A batch of the step ended at done rows: queue its record (a measured
 * step's only), and begin the next. at: the sample that ends it (the last
 * batch ends with the step's own), or NULL: sample now. */
static int end_batch(struct workload *w, const struct step_result *r, struct batch *bt,
                     uint64_t done, const struct counters *at, struct err *e)
{
	struct node *n = xcalloc(1, sizeof *n);
	struct counters c;

	if (at) {
		c = *at;
	} else if (wl_sample(w, &c, e) < 0) {
		free(n);
		return -1;
	}
	n->r.index = r->index;
	n->r.run = r->run;
	n->r.order = r->order;
	n->r.rows_record = 1;
	n->r.knobs = r->knobs;
	n->r.a = bt->a;
	n->r.b = c;
	lats_delta(&r->lat, &bt->lat, &n->r.lat);
	n->r.sizes.db_bytes = n->r.sizes.index_bytes = -1;
	n->r.table_rows = w->rs.live_rows;
	n->r.build_s = -1;
	n->r.interrupted = at && r->interrupted; /* the last batch of a stopped step */
	if (r->index >= 0)
		queue_result(w, n);
	else
		free(n);
	bt->a = c;
	bt->lat = r->lat;
	bt->next = done + bt->every;
	return 0;
}

/* Each kind's p50, p99 and max (ms) from its histogram; NaN: none. */
static void op_quantiles(const struct hist *h, double q[OP_COUNT][3])
{
	int op;

	for (op = 0; op < OP_COUNT; op++) {
		q[op][0] = h[op].n ? hist_quantile(&h[op], 0.50) / 1e6 : NAN;
		q[op][1] = h[op].n ? hist_quantile(&h[op], 0.99) / 1e6 : NAN;
		q[op][2] = h[op].n ? (double)h[op].max_ns / 1e6 : NAN;
	}
}

/* The step's own end, inside its window: index-build after builds the
 * indexes now (timed, sampled before: r->pb), then the closing sample;
 * then, outside the window, the engine settles its sizes (engine.h) and
 * they are read; --vacuum
 * then runs the engine's reclaim, sampled apart (r->v). */
static int end_step(struct workload *w, const struct knobs *k, struct step_result *r, struct err *e)
{
	int (*reclaim)(struct engine *, struct err *) =
	    w->ops->reclaim ? w->ops->reclaim : w->ops->rewrite;
	struct counters c;

	if (wl_finish(w, &r->lat, e) < 0)
		return -1;
	op_quantiles(w->op_lat, r->op_q);
	if (k->v[K_INDEX_BUILD] == BUILD_AFTER && !atomic_load(&w->stop)) {
		double t0;

		/* where the load's commits end: the build's syncs are its own */
		if (wl_sample(w, &r->pb, e) < 0)
			return -1;
		t0 = clock_now_s();
		if (w->ops->apply(w->en, k, e) < 0)
			return err_prefix(e, "building the indexes after the load");
		r->build_s = clock_now_s() - t0;
	}
	if (wl_sample(w, &c, e) < 0)
		return -1;
	r->b = c;
	wl_publish(w, NULL, &r->b, &r->lat);
	if ((w->ops->settle && w->ops->settle(w->en, e) < 0) ||
	    w->ops->sizes(w->en, &r->sizes, e) < 0)
		return -1;
	r->table_rows = w->rs.live_rows;
	if ((OP_READS(k->v[K_OP]) || mix_of(k, NULL)) && w->ops->reads) {
		reads_plan_text(w->ops->reads(w->en), r->plan, sizeof r->plan);
		reads_served_text(w->ops->reads(w->en), r->served, sizeof r->served);
		reads_query_text(w->ops->reads(w->en), r->queries, sizeof r->queries);
	}
	if (k->v[K_VACUUM] && !atomic_load(&w->stop)) {
		double t0 = clock_now_s();

		if (reclaim(w->en, e) < 0)
			return err_prefix(e, "--vacuum");
		r->vacuum_s = clock_now_s() - t0;
		if (wl_sample(w, &r->v, e) < 0)
			return err_prefix(e, "--vacuum");
	}
	return 0;
}

/* A warm-up runs the first tenth of its step (of its rows, or of its
 * --duration), at least WARMUP_MIN_ROWS of them (the whole step if it has
 * fewer) unless WARMUP_MAX_S seconds (or a tenth of --duration) end it
 * first. What it is for (the server's and the library's first-use costs,
 * the CPU's clock up) is done by then: step 1 / step 3 of the same knobs
 * read 0.83-1.19 after a tenth, 0.76-1.45 after the whole step (up to 5 s,
 * as it was), 0.74-1.00 with none (PostgreSQL, SQLite, WiredTiger, three
 * runs each), and the whole step doubled a short preset's time (issue 21
 * item 8: sqlite-textkey 12.3 s for 7.2 s of steps). */
#define WARMUP_MAX_S    5.0
#define WARMUP_SHARE    10 /* 1/10 of the step */
#define WARMUP_MIN_ROWS 100

/* A warm-up's table holds at most this many of the step's prefilled rows.
 * Each step builds its table afresh (a new file, or a dropped and created
 * table), so the warm-up's table is gone before step 1 begins and what
 * step 1 starts from is its own set-up; a warm-up (a tenth of the step, 5 s
 * at most) touches some tens of thousands of rows. Loading the step's whole
 * prefill for it (a million rows and eight index builds on
 * pg-hot-fillfactor: ~20 s) warmed nothing step 1 does not warm again in
 * its own set-up: it only made the run longer (issue 21 item 8). */
#define WARMUP_PREFILL_MAX 100000LL

/* Run one step (its run number run); queues its result. index < 0: a
 * warm-up run of the step -index - 1, measured by no one (its result is
 * dropped, no interval record is printed for it). A stop that the engine
 * cannot finish (a server that no longer answers) still queues the partial
 * result, up to the last sample that succeeded, and says why in the event
 * log. index-build after: the table is set up with no secondary index. */
static int run_step(struct workload *w, long index, int run, const struct knobs *k, struct err *e)
{
	struct node *n = xcalloc(1, sizeof *n);
	struct step_result *r = &n->r;
	uint64_t target = (uint64_t)k->v[K_ROWS], done = 0, warm_rows = target;
	double warm_s = WARMUP_MAX_S;
	struct knobs load = *k;
	struct batch bt = { .every = (uint64_t)k->v[K_INTERVAL_ROWS] };
	double last_pub, t_open, every = PUBLISH_EVERY; /* the time between mid-step samples */
	struct counters c;
	int measuring = 0;

	r->index = index;
	r->run = run;
	r->order = index >= 0 ? w->order++ : -1;
	r->knobs = *k;
	r->build_s = -1;
	if (k->v[K_INDEX_BUILD] == BUILD_AFTER)
		load.v[K_INDEXES] = 0;
	if (index < 0 && knobs_prefill(k) > WARMUP_PREFILL_MAX)
		load.v[K_PREFILL] = WARMUP_PREFILL_MAX;
	pthread_mutex_lock(&w->mu);
	w->live.knobs = *k;
	pthread_mutex_unlock(&w->mu);
	if (wl_setup(w, &load, e) < 0)
		goto fail;
	t_open = clock_now_s();
	if (wl_sample(w, &r->a, e) < 0)
		goto fail;
	/* The rows begin once the opening sample is read; what a sample costs
	 * is first guessed from this one. */
	r->a.t = clock_now_s();
	every = wl_sample_every(r->a.t - t_open, w->sample_cap);
	wl_set_in_force(w, &r->knobs, NULL);
	pthread_mutex_lock(&w->mu);
	w->live.step = index;
	w->live.run = run;
	w->live.order = r->order;
	pthread_mutex_unlock(&w->mu);
	wl_publish(w, &r->a, &r->a, &r->lat);
	memset(w->op_lat, 0, sizeof w->op_lat);
	op_quantiles(w->op_lat, r->op_q); /* none yet */
	last_pub = r->a.t;
	r->b = r->a; /* the last good sample, should the step end early */
	bt.a = r->a;
	bt.next = bt.every ? bt.every : UINT64_MAX;
	measuring = 1;
	w->budget = 16;
	if (index < 0) { /* the warm-up's share of the step */
		warm_rows = target / WARMUP_SHARE;
		if (warm_rows < WARMUP_MIN_ROWS)
			warm_rows = target < WARMUP_MIN_ROWS ? target : WARMUP_MIN_ROWS;
		if (k->v[K_DURATION] && (double)k->v[K_DURATION] / 1000.0 / WARMUP_SHARE < warm_s)
			warm_s = (double)k->v[K_DURATION] / 1000.0 / WARMUP_SHARE;
	}
	while (
	    done < target && !atomic_load(&w->stop) &&
	    (!k->v[K_DURATION] || (clock_now_s() - r->a.t) * 1000.0 < (double)k->v[K_DURATION])) {
		uint64_t want = (bt.next < warm_rows ? bt.next : warm_rows) - done;
		int64_t got = wl_batch(w, &load, want, &r->lat, e);
		double t;

		if (got < 0)
			goto fail;
		done += (uint64_t)got;
		if (got == 0) {
			r->ended_by = "table";
			break; /* the engine ran out of rows to work on */
		}
		if (done == bt.next && done < target && end_batch(w, r, &bt, done, NULL, e) < 0)
			goto fail;
		t = clock_now_s();
		if (index < 0 && (done >= warm_rows || t - r->a.t >= warm_s))
			break; /* warm enough: the warm-up is the step's start */
		if (t - last_pub >= every) {
			if (wl_sample_of(w, &c, isinf(w->sample_cap) ? MID_STEP_WANT : 0, e) < 0)
				goto fail;
			wl_publish(w, NULL, &c, &r->lat);
			r->b = c;
			last_pub = t;
			every = wl_sample_every(clock_now_s() - t, w->sample_cap);
		}
	}
	/* --duration: what ended the step (a stop, the rows, the time) */
	if (done >= target)
		r->ended_by = "rows";
	else if (atomic_load(&w->stop))
		r->ended_by = "stopped";
	else if (!r->ended_by)
		r->ended_by = "duration";
	r->interrupted = done < target && strcmp(r->ended_by, "duration") != 0;
	if (end_step(w, k, r, e) < 0 ||
	    (bt.every && done > bt.next - bt.every && end_batch(w, r, &bt, done, &r->b, e) < 0))
		goto fail;
	if (index < 0) {
		char held[96] = "";

		if (load.v[K_PREFILL] != k->v[K_PREFILL])
			snprintf(held, sizeof held, ", on %lld of its %lld prefilled rows",
			         load.v[K_PREFILL], knobs_prefill(k));
		evlog_detail(
		    "warm-up: step %ld ran %s unmeasured (%llu of its %llu rows, %.2f s%s) "
		    "before it is measured (--warmup)",
		    -index, done < target ? "its start" : "once", (unsigned long long)done,
		    (unsigned long long)target, clock_now_s() - r->a.t, held);
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
		r->ended_by = "stopped";
		op_quantiles(w->op_lat, r->op_q);
		queue_result(w, n);
		return 0;
	}
	free(n);
	return -1;
}

/* The end of the block of steps from first on the same engine. */
static long engine_block_end(const struct plan *p, long first)
{
	struct knobs a, b;
	long end;

	plan_step(p, first, &a);
	for (end = first + 1; end < p->steps; end++) {
		plan_step(p, end, &b);
		if (b.v[K_ENGINE] != a.v[K_ENGINE])
			break;
	}
	return end;
}

int wl_run_plan(struct workload *w, struct err *e)
{
	int runs = (int)w->plan->vals[K_REPEAT][0], run;
	long first, end, i;
	struct knobs k;

	for (first = 0; first < w->plan->steps && !atomic_load(&w->stop); first = end) {
		end = engine_block_end(w->plan, first);
		plan_step(w->plan, first, &k);
		/* A sweep over engines: the engine knob varies slowest. */
		if (k.v[K_ENGINE] != w->engine) {
			wl_close_engine(w);
			if (wl_open_engine(w, &k, e) < 0)
				return -1;
		}
		if (k.v[K_WARMUP] && run_step(w, -(first + 1), 0, &k, e) < 0)
			return -1;
		if (atomic_load(&w->stop)) {
			if (k.v[K_WARMUP])
				evlog_add(EV_INFO,
				          "stopped in the warm-up of step %ld: nothing measured",
				          first + 1);
			break;
		}
		for (run = 0; run < (runs > 0 ? runs : 1); run++)
			for (i = first; i < end && !atomic_load(&w->stop); i++) {
				plan_step(w->plan, i, &k);
				if (run_step(w, i, run, &k, e) < 0)
					return -1;
			}
	}
	return 0;
}
