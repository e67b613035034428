/* workload_impl.h - what the worker's three rooms share (private to them).
 *
 * workload.c holds the API and the helpers below, workload_plan.c the
 * headless sweep, workload_live.c the dashboard's state machine. Fields are
 * in three groups by who may touch them: the request (written by the UI
 * through the API, read by the worker only under mu, see
 * wl_take_request()), the shared results (written by the worker under mu,
 * copied by readers under mu) and the worker's own (no lock: one thread). */
#ifndef IDXLAB_WORKLOAD_IMPL_H
#define IDXLAB_WORKLOAD_IMPL_H

#include <pthread.h>
#include <stdatomic.h>

#include "engines/engine.h"
#include "engines/txn.h"
#include "clock.h"
#include "workload.h"

#define PUBLISH_EVERY 0.05 /* seconds: the shortest time between mid-step samples */
#define SAMPLE_SHARE  0.02 /* the most of a step's time its samples may take */
#define SIZES_EVERY   2.0  /* seconds, live mode */
#define BATCH_TARGET  0.02 /* seconds per engine step() call */
#define BATCH_MAX     65536

/* The dashboard's samples: at least one each 0.2 s, under the 0.25 s at
 * which it keeps them (ui/history.h HIST_PERIOD), so each sample it keeps
 * is a fresh one. */
#define LIVE_SAMPLE_CAP 0.2

/* Of those, the ones that read the engine's statistics (the rest are light:
 * the worker's own counts, free) take LIVE_FULL_SHARE of the worker's time
 * at most, and come at least every LIVE_FULL_CAP s: a PostgreSQL sample
 * (six sources, a look at the WAL) takes ~15-25 ms, 10 % of the rows at
 * one each 0.2 s. SQLite's and WiredTiger's (~0.1 ms) are all full. */
#define LIVE_FULL_SHARE 0.01
#define LIVE_FULL_CAP   3.0

struct node {
	struct node *next;
	struct step_result r;
};

/* Live mode: what the UI asked for (workload_set/pause/rewrite). */
struct request {
	struct knobs knobs; /* the setting wanted */
	unsigned long gen;  /* its generation, bumped by every workload_set() */
	int paused;
	int rewrite; /* a rewrite was asked for and not yet taken */
	int hold;    /* an insert run's table does not start over (workload_hold) */
};

struct workload {
	const struct plan *plan; /* borrowed; NULL in live mode */
	pthread_t thread;
	int started;
	atomic_int stop;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	/* under mu */
	struct request req;
	struct live live;
	struct node *head, *tail;
	int state; /* 0 running, 1 done, -1 failed */
	struct err err;
	/* worker-private */
	const struct engine_ops *ops;
	long long engine; /* the K_ENGINE value ops and en are for */
	struct engine *en;
	/* The table's rows and the step loop over them: the engine gives the
	 * hooks (open) and resets the rowset (setup, apply); the worker runs
	 * txn_step / txn_finish and reads live_rows. */
	struct rowset rs;
	struct txn txn;
	int mixed; /* the last batch ran a mix: its finish too (a replay draws its ops) */
	struct hist op_lat[OP_COUNT]; /* a mix's latencies by op kind since the step began */
	uint64_t rows, commits;
	uint64_t budget;
	double sample_cap; /* the longest time between mid-step samples */
	long order;        /* plan mode: the measured runs begun so far */
};

/* A fresh table as k describes it: the engine's setup(), its load() of
 * the prefill (knobs_prefill; the rowset reset to it) and ready()
 * (engine.h); a table spec the engine cannot build yet is refused here,
 * never run as another. */
int wl_setup(struct workload *w, const struct knobs *k, struct err *e);

/* Sample everything into c: the worker's own counts plus the engine's. */
int wl_sample(struct workload *w, struct counters *c, struct err *e);
/* The same, of the counters want (struct counters.want) at least. */
int wl_sample_of(struct workload *w, struct counters *c, uint32_t want, struct err *e);

/* A light sample into c: the worker's own counts only (rows, commits). */
void wl_sample_light(struct workload *w, struct counters *c);

/* The time to the next mid-step sample after one that took cost seconds:
 * SAMPLE_SHARE of the time at most, PUBLISH_EVERY to cap apart. */
double wl_sample_every(double cost, double cap);

/* Publish under the lock the parts given (NULL: unchanged) and the table's
 * row count; c is also live.full (wl_publish_light: it is not). */
void wl_publish(struct workload *w, const struct counters *start, const struct counters *c,
                const struct lats *lat);
void wl_publish_light(struct workload *w, const struct counters *c, const struct lats *lat);

/* Publish the state and a status line (printf format). */
void wl_set_state(struct workload *w, enum live_state st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Run one engine batch of at most limit rows; adapts w->budget. Returns
 * rows done, or -1. */
int64_t wl_batch(struct workload *w, const struct knobs *k, uint64_t limit, struct lats *lat,
                 struct err *e);

/* Commit the engine's open transaction, if any. */
int wl_finish(struct workload *w, struct lats *lat, struct err *e);

/* Publish k, as the engine runs it (in_force), as the setting in force;
 * gen is the live-mode generation it answers (NULL: unchanged). */
void wl_set_in_force(struct workload *w, struct knobs *k, const unsigned long *gen);

/* The two modes, run on the worker thread with the engine open. */
int wl_run_plan(struct workload *w, struct err *e);
int wl_run_live(struct workload *w, struct err *e);

/* Open the engine k names (the worker's start; plan mode, on a sweep over
 * engines, after closing the one open). */
int wl_open_engine(struct workload *w, const struct knobs *k, struct err *e);
void wl_close_engine(struct workload *w);

#endif
