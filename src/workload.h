/* workload.h - the worker thread: runs a plan's steps on an engine.
 *
 * The worker owns the engine connection. For each step of the plan it sets
 * up a fresh table, then runs the step's operations in small batches sized
 * to take about 20 ms each, so a stop request is honoured quickly. Between
 * batches it samples the engine's cumulative counters and publishes a
 * snapshot (at most every 50 ms); at the end of a step it commits, samples,
 * measures sizes and queues a step_result. Readers (the headless reporter,
 * later the dashboard) only ever see copies. */
#ifndef IDXLAB_WORKLOAD_H
#define IDXLAB_WORKLOAD_H

#include "config.h"
#include "err.h"
#include "knobs.h"
#include "metrics.h"

struct step_result {
	long index; /* step number in the plan, from 0 */
	struct knobs knobs;
	struct counters a, b; /* samples at the start and the end of the measurement */
	struct hist lat;      /* commit latencies of the step */
	struct sizes sizes;
	int interrupted; /* stopped early: a partial result */
};

struct live {
	long step;         /* -1 before the first step starts measuring */
	unsigned long gen; /* bumps at every publish */
	struct knobs knobs;
	struct counters start; /* sampled when the step began measuring */
	struct counters c;     /* cumulative */
	struct hist lat;       /* cumulative since the step started */
};

struct workload;

/* Start the worker on plan p (borrowed: must outlive the workload). */
int workload_start(struct workload **out, const struct plan *p, struct err *e);

/* Block until something happened (publish, result, end) or timeout_s passed. */
void workload_wait(struct workload *w, double timeout_s);

/* Copy the latest snapshot. */
void workload_live(struct workload *w, struct live *out);

/* Pop the oldest queued step result into out: 1, or 0 when none. */
int workload_pop(struct workload *w, struct step_result *out);

/* 0 while running; 1 when finished; -1 when it failed (e filled). */
int workload_state(struct workload *w, struct err *e);

/* Ask the worker to stop after the current batch (async: see state). */
void workload_stop(struct workload *w);

/* Stop, join and free. Safe on NULL. */
void workload_free(struct workload *w);

#endif
