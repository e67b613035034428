/* headless.c - the headless runner, the dashboard's twin (ui/dash.c):
 * `idxlab run`, or idxlab with its output not a terminal.
 *
 * It starts the worker on the plan, turns what the worker publishes into
 * records (through the report: a finished step's result, and with
 * --interval a window between two live snapshots), and opens the sinks
 * the records go to: the report writes them (text table, CSV or JSON on
 * stdout), then hands each on (report_sink) to the chart (--plot), the
 * answer (whatif.h) and the comparison with a saved run (--compare,
 * compare.h: its fields appended to each record, report_annotate), which
 * know nothing of each other. Events go to
 * stderr as they come, folded (evlog.h). It also checks the output
 * options (headless_check) once the plan is built, for main. */
#include "headless.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "answer.h"
#include "trade.h"
#include "baseline.h"
#include "clock.h"
#include "compare.h"
#include "evlog.h"
#include "plot.h"
#include "record.h"
#include "replay_export.h"
#include "report.h"
#include "workload.h"

int headless_check(const struct plan *p, struct err *e)
{
	if (p->fields && record_check_fields(p->fields, e) < 0)
		return err_prefix(e, "--fields");
	if (!p->plot_path && (p->plot_metrics || p->plot_x || p->plot_kind || p->plot_theme))
		return err_set(e, ERR_USAGE,
		               "%s a --plot chart: give --plot FILE.svg|.png|.pdf too",
		               p->plot_metrics ? "--plot-metrics picks the panels of"
		               : p->plot_x     ? "--plot-x picks the x axis of"
		               : p->plot_kind  ? "--plot-kind picks the kind of"
		                               : "--plot-theme picks the colours of");
	if (p->plot_path && plot_check(p, e) < 0)
		return -1;
	if (p->compare_new && !p->compare_path)
		return err_set(e, ERR_USAGE,
		               "--compare-new FILE is compared with a saved run: give --compare "
		               "SAVED too");
	/* read once now: a bad file stops the run before it starts */
	if (p->compare_path && p->mode != MODE_PRINT_CONFIG) {
		struct compare *c;

		if (compare_open(&c, p->compare_path, e) < 0)
			return -1;
		compare_free(c);
	}
	/* --baseline's too (the dashboard's): before the terminal is touched */
	if (p->baseline_path && p->mode != MODE_PRINT_CONFIG) {
		struct baseline b;
		struct knobs k;

		plan_step(p, 0, &k);
		if (baseline_load(p->baseline_path, &k, &b, e) < 0)
			return -1;
	}
	return 0;
}

/* Headless events on stderr. A line is printed when it first comes; the
 * repeats of a fold (evlog.h) are held and said once more, as "TEXT ×N",
 * when the fold has had no repeat for EVLOG_FOLD_S or the run ends. quiet:
 * errors only; a detail (evlog_detail) only when verbose. The progress
 * line of rep, if one is up, goes first. */
#define DRAIN_KEEP 16
struct drain {
	unsigned long seen;
	int quiet, verbose;
	struct report *rep; /* borrowed, or NULL */
	struct {
		struct ev e;
		unsigned said; /* the count printed */
		double at;     /* when its latest repeat came */
	} keep[DRAIN_KEEP];    /* the lines printed last, oldest first */
	int n;
};

static void say_event(const struct drain *dr, const struct ev *e)
{
	char text[EVLOG_LINE + 16];

	if ((dr->quiet && e->level != EV_ERROR) || (e->detail && !dr->verbose))
		return;
	report_clear_line(dr->rep);
	evlog_format(e, 1, text, sizeof text);
	fprintf(stderr, "idxlab: %s%s\n", evlog_level_prefix(e), text);
}

/* Say the held repeats older than EVLOG_FOLD_S (all: every one). */
static void say_folds(struct drain *dr, int all)
{
	double now = clock_now_s();
	int i;

	for (i = 0; i < dr->n; i++)
		if (dr->keep[i].e.count > dr->keep[i].said &&
		    (all || now - dr->keep[i].at > EVLOG_FOLD_S)) {
			say_event(dr, &dr->keep[i].e);
			dr->keep[i].said = dr->keep[i].e.count;
		}
}

static void drain_events(struct drain *dr)
{
	struct ev evs[32];
	size_t n, i;
	int j;

	while ((n = evlog_since(dr->seen, evs, 32)) > 0) {
		for (i = 0; i < n; i++) {
			dr->seen = evs[i].seq;
			for (j = 0; j < dr->n && dr->keep[j].e.id != evs[i].id; j++)
				;
			if (j < dr->n) { /* a repeat of a line printed: held */
				dr->keep[j].e = evs[i];
				dr->keep[j].at = clock_now_s();
				continue;
			}
			if (dr->n == DRAIN_KEEP) {
				say_folds(dr, 1);
				memmove(&dr->keep[0], &dr->keep[1],
				        sizeof dr->keep[0] * (DRAIN_KEEP - 1));
				dr->n--;
			}
			say_event(dr, &evs[i]);
			dr->keep[dr->n].e = evs[i];
			dr->keep[dr->n].said = evs[i].count;
			dr->keep[dr->n++].at = clock_now_s();
		}
	}
	say_folds(dr, 0);
}

/* The sinks a run's records go on to (report_sink), besides the report
 * that writes them: the chart (--plot, or NULL) and the answer. */
struct sinks {
	struct plot *pl;
	struct answer *ans;
	struct compare *cmp; /* --compare, or NULL */
	struct trade *tr;    /* a mix's cheapest step */
};

static void hand_on(void *ctx, const struct record *r, const struct knobs *k, double t0, double t1)
{
	struct sinks *sk = ctx;

	plot_add(sk->pl, r, k, t0, t1);
	answer_note(sk->ans, r, k);
	trade_note(sk->tr, r, k);
	if (sk->cmp)
		compare_note(sk->cmp, r);
}

static void annotate(void *ctx, const struct record *full, struct record *out)
{
	compare_fields(ctx, full, out);
}

/* The report on out (diag: its progress and, but in text, the answer) and
 * the sinks: a chart when --plot asks. */
static struct report *open_sinks(const struct plan *p, FILE *diag, struct sinks *sk)
{
	struct report *rep = report_new(p, stdout, diag);

	sk->pl = p->plot_path ? plot_new(p, p->plot_path, p->plot_metrics) : NULL;
	sk->ans = answer_new();
	sk->tr = trade_new(p);
	sk->cmp = NULL;
	if (p->compare_path) {
		struct err e = { ERR_NONE, "" };

		if (compare_open(&sk->cmp, p->compare_path, &e) < 0) /* checked: changed since */
			fprintf(stderr, "idxlab: %s (not compared)\n", e.msg);
		else
			report_annotate(rep, annotate, sk->cmp);
	}
	report_sink(rep, hand_on, sk);
	report_settle(rep, trade_settle, sk->tr);
	return rep;
}

/* The records written: the text table's footnotes, then the answer's
 * lines (after the table; CSV and JSON keep stdout for their records, so
 * there they go to diag), and the report closed. The chart stays. */
static void close_report(const struct plan *p, struct report *rep, FILE *diag, struct sinks *sk)
{
	report_finish(rep);
	if (p->vals[K_FORMAT][0] == FMT_TEXT) {
		answer_write(sk->ans, stdout);
		trade_write(sk->tr, stdout);
		compare_write(sk->cmp, stdout);
	} else if (diag) {
		answer_write(sk->ans, diag);
		trade_write(sk->tr, diag);
		compare_write(sk->cmp, diag);
	}
	trade_free(sk->tr);
	sk->tr = NULL;
	answer_free(sk->ans);
	sk->ans = NULL;
	compare_free(sk->cmp);
	sk->cmp = NULL;
	report_free(rep);
}

/* Write the chart (after the run's records: also when it was stopped) and
 * free it; the exit code, code if the chart is written (or none asked). */
static int plot_end(const struct plan *p, struct plot *pl, int code)
{
	struct err e = { ERR_NONE, "" };
	char summary[256];

	if (pl && plot_write(pl, summary, sizeof summary, &e) < 0) {
		fprintf(stderr, "idxlab: %s\n", e.msg);
		if (!code)
			code = 1;
	} else if (pl && !p->vals[K_QUIET][0]) {
		fprintf(stderr, "idxlab: wrote %s: %s\n", p->plot_path, summary);
	}
	plot_free(pl);
	return code;
}

/* --compare-new in CSV or JSON: a saved step's record written as a run's,
 * the comparison's fields appended. */
static void emit_new(void *ctx, const struct record *r)
{
	struct knobs k;

	knobs_defaults(&k); /* (the text table's; CSV and JSON need none) */
	report_emit(ctx, r, &k);
}

int headless_compare(const struct plan *p)
{
	struct compare *c = NULL;
	struct report *rep = NULL;
	struct err e = { ERR_NONE, "" };
	int code = 0, text = p->vals[K_FORMAT][0] == FMT_TEXT;
	/* the table: the output in text; else on stderr, as a run's is */
	FILE *table = text ? stdout : p->vals[K_QUIET][0] ? NULL : stderr;

	if (compare_open(&c, p->compare_path, &e) == 0 && !text) {
		rep = report_new(p, stdout, NULL);
		report_annotate(rep, annotate, c);
	}
	if (!c || compare_files(c, p->compare_new, table, rep ? emit_new : NULL, rep, &e) < 0) {
		fprintf(stderr, "idxlab: %s\n", e.msg);
		code = 2;
	}
	report_finish(rep);
	report_free(rep);
	compare_free(c);
	return code;
}

int headless_replay(struct plan *p)
{
	struct sinks sk;
	struct report *rep = open_sinks(p, stderr, &sk);
	struct err e = { ERR_NONE, "" };
	int code = 0;

	if (replay_export(p, rep, sk.pl, &e) < 0) {
		fprintf(stderr, "idxlab: %s\n", e.msg);
		code = e.cls == ERR_USAGE ? 2 : 1;
	}
	close_report(p, rep, stderr, &sk);
	if (code) {
		plot_free(sk.pl);
		return code;
	}
	return plot_end(p, sk.pl, code);
}

int headless_run(const struct plan *p, volatile sig_atomic_t *sig)
{
	double interval = (double)p->vals[K_INTERVAL][0] / 1000.0;
	double next_tick = interval > 0 ? clock_now_s() + interval : INFINITY;
	struct live *prev = calloc(1, sizeof *prev), *cur = calloc(1, sizeof *cur);
	struct step_result *res = malloc(sizeof *res);
	struct workload *w = NULL;
	struct report *rep;
	struct sinks sk;
	FILE *diag;
	struct err e = { ERR_NONE, "" };
	struct drain dr = { .quiet = (int)p->vals[K_QUIET][0],
		            .verbose = (int)p->vals[K_VERBOSE][0] };
	int state = 0, stopping = 0, code;
	/* pgbench -P style: on a terminal, or when asked; never with -q */
	int progress = !dr.quiet && (p->vals[K_PROGRESS][0] || isatty(STDERR_FILENO));
	long finished = -1; /* the last run (step_result.order) whose result was printed */

	if (!prev || !cur || !res)
		abort();
	prev->step = -1;
	prev->order = -1;
	diag = dr.quiet ? NULL : stderr;
	rep = open_sinks(p, diag, &sk);
	dr.rep = rep;
	/* Mid-step samples feed the --interval windows: four a window at least;
	 * otherwise (the progress line, a partial result should the step be
	 * stopped) they may be as rare as their cost asks. */
	if (workload_start(&w, p, interval > 0 ? interval / 4 : INFINITY, &e) < 0) {
		state = -1;
	}
	while (state == 0) {
		double now = clock_now_s(), wait = next_tick - now;

		workload_wait(w, wait < 0.1 ? (wait > 0 ? wait : 0) : 0.1);
		if (*sig && !stopping) {
			workload_stop(w);
			stopping = 1;
		}
		drain_events(&dr);
		while (workload_pop(w, res)) {
			report_step(rep, res);
			finished = res->order;
		}
		if (progress) {
			workload_live(w, cur);
			report_progress(rep, cur);
		}
		now = clock_now_s();
		if (now >= next_tick) {
			workload_live(w, cur);
			if (cur->order > finished && prev->order != cur->order) {
				/* The first window of a run starts where the run did. */
				prev->step = cur->step;
				prev->order = cur->order;
				prev->gen = 0;
				prev->knobs = cur->knobs;
				prev->c = cur->start;
				memset(&prev->lat, 0, sizeof prev->lat);
			}
			if (cur->order > finished && cur->gen != prev->gen &&
			    cur->c.t - prev->c.t > 0.001)
				report_interval(rep, prev, cur);
			if (cur->gen != prev->gen) {
				struct live *t = prev;

				prev = cur;
				cur = t;
			}
			while (next_tick <= now)
				next_tick += interval;
		}
		state = workload_state(w, &e);
	}
	if (w)
		while (workload_pop(w, res))
			report_step(rep, res);
	workload_free(w);
	drain_events(&dr);
	say_folds(&dr, 1);
	close_report(p, rep, diag, &sk);
	free(prev);
	free(cur);
	free(res);
	if (state < 0) {
		fprintf(stderr, "idxlab: %s\n", e.msg);
		code = e.cls == ERR_USAGE ? 2 : 1;
	} else {
		code = 0;
	}
	if (*sig)
		code = *sig == SIGINT ? 130 : 128 + *sig;
	if (state < 0) { /* no chart of a run that failed */
		plot_free(sk.pl);
		return code;
	}
	return plot_end(p, sk.pl, code);
}
