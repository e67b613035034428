/* workload.h - the worker thread: runs the workload on an engine.
 *
 * The worker owns the engine connection. It runs in one of two modes:
 *  - plan mode (headless): for each step of a plan, a fresh table, then the
 *    step's rows; each finished step is queued as a step_result;
 *  - live mode (the dashboard): one open-ended run on one table, driven by
 *    knob settings posted with workload_set(), applied between batches
 *    (index builds, cache, commit shape...) or by rebuilding the table.
 * Operations run in batches sized to take about 20 ms, so a stop, a pause
 * or a knob change is honoured quickly. Between batches the worker samples
 * the engine's cumulative counters and publishes a snapshot (at most every
 * 50 ms). Readers only ever see copies. */
#ifndef IDXLAB_WORKLOAD_H
#define IDXLAB_WORKLOAD_H

#include "config.h"
#include "err.h"
#include "knobs.h"
#include "metrics.h"

struct step_result {
	long index;      /* step number in the plan, from 0 */
	int run;         /* --repeat: which run of the step, from 0 */
	long order;      /* the measured runs' count before this one (the worker's order) */
	int rows_record; /* one --interval-rows batch of the step, not the step */
	struct knobs knobs;
	struct counters a, b; /* samples at the start and the end of the measurement */
	struct lats lat;      /* latencies of the step (of the batch) */
	struct sizes sizes;   /* (a batch: none, db_bytes -1) */
	uint64_t table_rows;  /* rows in the table at the end */
	double build_s;       /* index-build after: the indexes' build, inside a..b; -1: none */
	struct counters pb;   /* index-build after: a sample before the build (pb.t 0: none) */
	struct counters v;    /* vacuum on: a sample after it (v.t == 0: none) */
	double vacuum_s;      /* vacuum on: the reclaim's own time, after b */
	int interrupted;      /* stopped early: a partial result */
	/* What ended the step (static text): "rows" (--rows done), "duration"
	 * (--duration passed), "table" (no row left to work on), "stopped" (a
	 * signal, a failure); NULL: a batch's record, or none yet. */
	const char *ended_by;
	/* A read step (op lookup, range): what served each query
	 * (reads_plan_text) and each index's share (reads_served_text); "". */
	char plan[512], served[512], queries[512]; /* queries: reads_query_text */
	/* A mix: each op kind's latency p50, p99 and max in ms, of the ops
	 * timed one by one (NaN: none); a batch's record has none. */
	double op_q[OP_COUNT][3];
};

enum live_state {
	LS_STARTING, /* opening, loading the first table */
	LS_RUNNING,
	LS_PAUSED,
	LS_APPLYING, /* building indexes, rebuilding the table */
	LS_IDLE,     /* nothing to do (no rows left to delete): change a knob */
	LS_FAILED,   /* the last batch failed: change a knob or resume */
	LS_DONE,
};

struct live {
	long step;         /* plan mode: the step measuring; -1 before the first */
	int run;           /* plan mode: its run (--repeat), from 0 */
	long order;        /* plan mode: step_result.order of the run measuring; -1: none */
	unsigned long gen; /* bumps at every publish */
	enum live_state state;
	char activity[160];      /* what the worker is doing, for a status line */
	double activity_t0;      /* when that started (CLOCK_MONOTONIC seconds) */
	unsigned long knobs_gen; /* live mode: the workload_set() generation applied */
	double knobs_t;          /* live mode: when it came in force (clock_now_s, as c.t) */
	struct knobs knobs;      /* the setting in force */
	uint64_t table_rows;
	struct counters start; /* sampled when the step (or the run) began measuring */
	struct counters c;     /* cumulative */
	struct lats lat;       /* cumulative since start */
	struct sizes sizes;    /* live mode: refreshed every few seconds */
	/* Each index's share of the queries since the knobs in force came in
	 * (reads_served_text), at the last full sample; "": none read. */
	char served[256];
	char where[256]; /* where the data lives */
	/* The last sample with the engine's statistics in it: c itself, but in
	 * live mode between two readings of them (LIVE_FULL_SHARE), where c
	 * is light - the worker's own counts (rows, commits) - and the engine's
	 * figures are taken between two of these. */
	struct counters full;
};

/* "running", "applying", ... (as the dashboard's title bar and recordings
 * say it). */
const char *live_state_name(enum live_state s);

struct workload;

/* Start the worker on plan p (borrowed: must outlive the workload). Its
 * mid-step samples are spaced so that their own time stays under 2 % of
 * the step's (a sample is not free everywhere: a PostgreSQL COPY is ended
 * and started again for it), and come at least every sample_cap seconds;
 * INFINITY: none is read but by the progress line, so they also leave out
 * what is costly to count mid-step (counters.want). */
int workload_start(struct workload **out, const struct plan *p, double sample_cap, struct err *e);

/* Start the worker in live mode on setting k (copied; k->dsn borrowed),
 * which is generation WORKLOAD_FIRST_GEN (see live.knobs_gen). */
#define WORKLOAD_FIRST_GEN 1UL
int workload_start_live(struct workload **out, const struct knobs *k, struct err *e);

/* Live mode: post a new setting; returns its generation (see live.knobs_gen). */
unsigned long workload_set(struct workload *w, const struct knobs *k);

/* Live mode: rewrite the table in place (VACUUM FULL / VACUUM) between
 * batches. */
void workload_rewrite(struct workload *w);

/* Live mode: pause (1) or resume (0). Resuming after a failure rebuilds. */
void workload_pause(struct workload *w, int paused);

/* Live mode: hold (1) the table of an insert run, or release it (0). Held,
 * it does not start over at the rows knob (a demo keeps the index its next
 * cue talks about), only at WORKLOAD_HOLD_MAX times it, for the disk's
 * sake; released past the rows knob, it starts over at the next batch. */
#define WORKLOAD_HOLD_MAX 8
void workload_hold(struct workload *w, int on);

/* Block until something happened (publish, result, end) or timeout_s passed. */
void workload_wait(struct workload *w, double timeout_s);

/* Copy the latest snapshot. */
void workload_live(struct workload *w, struct live *out);

/* Pop the oldest queued step result into out: 1, or 0 when none. */
int workload_pop(struct workload *w, struct step_result *out);

/* 0 while running; 1 when finished; -1 when it failed (e filled). Live
 * mode: a run stopped while it is failed (LS_FAILED) ends failed. */
int workload_state(struct workload *w, struct err *e);

/* Ask the worker to stop after the current batch (async: see state). */
void workload_stop(struct workload *w);

/* Stop, join and free. Safe on NULL. */
void workload_free(struct workload *w);

#endif
