/* main.c - argv, config, the worker, the reporter, exit codes.
 *
 * Only this file calls exit(). Exit codes: 0 ok, 1 runtime failure, 2 usage
 * or config error, 130 after Ctrl-C (129 after SIGHUP, 131 after SIGQUIT,
 * 143 after SIGTERM); a stopped run still prints the partial result of the
 * step it was in. A second signal within a second of the first is the same
 * stop; a later one ends idxlab at once (killed by it), with its servers
 * and temp dirs gone all the same. */
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "config.h"
#include "engines/engine.h"
#include "engines/hurry.h"
#include "evlog.h"
#include "knobs.h"
#include "metrics.h"
#include "plot.h"
#include "redact.h"
#include "replay_export.h"
#include "report.h"
#include "ui/dash.h"
#include "ui/term.h"
#include "workload.h"

#ifndef IDXLAB_VERSION
#define IDXLAB_VERSION "0.0.0"
#endif

static volatile sig_atomic_t got_signal;
static atomic_llong first_signal_ns; /* CLOCK_MONOTONIC; 0: none yet */

/* A second signal this soon after the first is the same stop: `timeout -s
 * INT` sends one to idxlab and one to its process group, and a shell's
 * Ctrl-C may reach idxlab twice as well. */
#define SAME_STOP_NS 1000000000LL

/* A deliberate second SIGINT, SIGTERM or SIGQUIT: end at once, as the
 * signal's default would, but leave nothing behind (hurry.h). Runs in the
 * handler: async-signal-safe calls only. */
static void end_at_once(int sig)
{
	static const char msg[] = "idxlab: a second signal: ending at once (its servers "
	                          "killed, its temp dirs removed)\n";
	struct sigaction dfl;
	sigset_t set;

	term_restore_now(); /* first: the message then lands on the terminal */
	if (write(STDERR_FILENO, msg, sizeof msg - 1) < 0) {
		/* nothing to do about it */
	}
	hurry_now();
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, NULL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	raise(sig);                               /* pending while the handler blocks it ... */
	pthread_sigmask(SIG_UNBLOCK, &set, NULL); /* ... and delivered: the end */
	_exit(128 + sig);
}

/* The first signal starts the orderly stop (the loops watch got_signal). A
 * hangup sticks: once the terminal is gone, a later signal must not make
 * the dashboard write to it; and a hangup never ends idxlab at once (a
 * closed terminal sends several). */
static void on_signal(int sig)
{
	struct timespec ts;
	long long now, first = 0;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
	if (atomic_compare_exchange_strong(&first_signal_ns, &first, now)) {
		got_signal = sig;
		return;
	}
	if (sig == SIGHUP) {
		got_signal = SIGHUP;
		return;
	}
	if (now - first >= SAME_STOP_NS)
		end_at_once(sig);
}

static void install_signals(void)
{
	struct sigaction sa, old;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	/* A closed terminal or a dropped ssh session sends SIGHUP, often more
	 * than once (to the shell, then to its foreground job): every one is
	 * caught. Under nohup (SIGHUP ignored) it stays ignored. */
	if (sigaction(SIGHUP, NULL, &old) == 0 && old.sa_handler != SIG_IGN)
		sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

static void usage(FILE *f)
{
	char range[160], def[160];
	int id;

	fprintf(f,
	        "idxlab %s - see what indexes cost a write workload\n"
	        "\n"
	        "usage: idxlab [run] [-c FILE] [--demo FILE] [--record FILE] [--KNOB VALUE ...]\n"
	        "       idxlab [run] --replay FILE\n"
	        "  idxlab              the dashboard on a terminal (headless when piped)\n"
	        "  idxlab run          headless: one result row per step of the sweep\n"
	        "\n"
	        "Knobs (also config keys, `key = value`). A comma list is a sweep:\n"
	        "--indexes 0,1,3 --key-order seq,rand runs all 6 combinations, the first\n"
	        "knob varying slowest.\n",
	        IDXLAB_VERSION);
	for (id = 0; id < K_COUNT; id++) {
		const struct knob_def *d = &knob_table[id];

		if (id == K_FORMAT)
			fprintf(f, "\nRun options:\n");
		knob_range_text(id, range, sizeof range);
		if (d->kind == KNOB_BOOL)
			snprintf(range, sizeof range, "(a flag; on|off may follow)");
		else if (d->unit && strcmp(d->unit, "rows") == 0)
			snprintf(range + strlen(range), sizeof range - strlen(range),
			         " (also 100k, 1M, 1e6)");
		knob_default_text(id, def, sizeof def);
		fprintf(f, "  --%-10s %s\n  %13s%s %s\n", d->name, range, "", d->why, def);
	}
	fprintf(f,
	        "  -c, --config FILE   read knobs from FILE (default: $XDG_CONFIG_HOME/idxlab/"
	        "idxlab.conf\n"
	        "                      or ~/.config/idxlab/idxlab.conf if present)\n"
	        "  --demo FILE         play a scripted demo in the dashboard: knob changes,\n"
	        "                      captions, waits (Space: next cue); see man idxlab\n"
	        "  --record FILE       dashboard: also write what it shows to FILE (JSON lines)\n"
	        "  --replay FILE       show a recording again, with no engine (offline talks);\n"
	        "                      with run: its records (--format), a window a second\n"
	        "  --plot FILE         headless: also draw the records as a chart for a slide\n"
	        "                      (FILE.svg, .png or .pdf; the sweep, or over time)\n"
	        "  --plot-metrics LIST its panels, by field name (default rows_per_s,p99_ms\n"
	        "                      and the per-row figures that move)\n"
	        "  --plot-x KNOB       the sweep chart's x axis (default: the first swept)\n"
	        "  --plot-kind K       auto (over time with --interval), sweep or time\n"
	        "  --plot-theme T      light (default) or dark, for dark slides\n"
	        "  --schema-from SOURCE:TABLE  run on idxlab's own copy of the shape of a\n"
	        "                      table of yours, read read-only: SOURCE an SQLite file or\n"
	        "                      a PostgreSQL conninfo/URI (./app.db:users); prefill and\n"
	        "                      engine default to the source's rows and engine\n"
	        "  --fields a,b,...    headless: only these output fields, in this order, in\n"
	        "                      every format (names: the CSV header; man idxlab)\n"
	        "  -q                  --quiet: only errors on stderr (headless)\n"
	        "  -v                  --verbose: the detail events too (headless)\n"
	        "  --print-config      print the effective settings and exit\n"
	        "  -h, --help          this help;  -V, --version  the version\n"
	        "\n"
	        "Exit status: 0 ok, 1 runtime failure, 2 usage or config error, 130 after Ctrl-C,\n"
	        "129 after SIGHUP (a closed terminal), 131 after SIGQUIT, 143 after SIGTERM\n"
	        "(the partial result of the step is printed).\n"
	        "Output fields and every knob in detail: man idxlab.\n");
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

/* --plot: a chart of every record rep writes, or NULL. */
static struct plot *plot_start(const struct plan *p, struct report *rep)
{
	struct plot *pl = p->plot_path ? plot_new(p, p->plot_path, p->plot_metrics) : NULL;

	report_plot(rep, pl);
	return pl;
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

/* `idxlab run --replay FILE`: the recording as records; the exit code. */
static int run_replay(struct plan *p)
{
	struct report *rep = report_new(p, stdout, stderr);
	struct plot *pl = plot_start(p, rep);
	struct err e = { ERR_NONE, "" };
	int code = 0;

	if (replay_export(p, rep, pl, &e) < 0) {
		fprintf(stderr, "idxlab: %s\n", e.msg);
		code = e.cls == ERR_USAGE ? 2 : 1;
	}
	report_free(rep);
	if (code) {
		plot_free(pl);
		return code;
	}
	return plot_end(p, pl, code);
}

/* Run the plan headless; returns the exit code. */
static int run_headless(const struct plan *p)
{
	double interval = (double)p->vals[K_INTERVAL][0] / 1000.0;
	double next_tick = interval > 0 ? clock_now_s() + interval : INFINITY;
	struct live *prev = calloc(1, sizeof *prev), *cur = calloc(1, sizeof *cur);
	struct step_result *res = malloc(sizeof *res);
	struct workload *w = NULL;
	struct report *rep;
	struct plot *pl;
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
	rep = report_new(p, stdout, dr.quiet ? NULL : stderr);
	dr.rep = rep;
	pl = plot_start(p, rep);
	/* Mid-step samples feed the --interval windows: four a window at least;
	 * otherwise (the progress line, a partial result should the step be
	 * stopped) they may be as rare as their cost asks. */
	if (workload_start(&w, p, interval > 0 ? interval / 4 : INFINITY, &e) < 0) {
		state = -1;
	}
	while (state == 0) {
		double now = clock_now_s(), wait = next_tick - now;

		workload_wait(w, wait < 0.1 ? (wait > 0 ? wait : 0) : 0.1);
		if (got_signal && !stopping) {
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
	report_free(rep);
	free(prev);
	free(cur);
	free(res);
	if (state < 0) {
		fprintf(stderr, "idxlab: %s\n", e.msg);
		code = e.cls == ERR_USAGE ? 2 : 1;
	} else {
		code = 0;
	}
	if (got_signal)
		code = got_signal == SIGINT ? 130 : 128 + got_signal;
	if (state < 0) { /* no chart of a run that failed */
		plot_free(pl);
		return code;
	}
	return plot_end(p, pl, code);
}

int main(int argc, char **argv)
{
	struct plan plan;
	struct err e = { ERR_NONE, "" };
	int code, kind;

	for (kind = 0; kind < E_COUNT; kind++) /* idxlab may quote them */
		if (engine_table[kind] && engine_table[kind]->dsn_env)
			redact_learn(getenv(engine_table[kind]->dsn_env));
	if (plan_from_args(&plan, argc, argv, &e) < 0) {
		fprintf(stderr, "idxlab: %s\n", e.msg);
		plan_free(&plan);
		return 2;
	}
	switch (plan.mode) {
	case MODE_HELP:
		usage(stdout);
		code = 0;
		break;
	case MODE_VERSION:
		printf("idxlab %s\n", IDXLAB_VERSION);
		for (int i = 0; i < E_COUNT; i++) {
			if (engine_table[i])
				printf("  engine %s: %s\n", knob_table[K_ENGINE].choices[i],
				       engine_table[i]->version());
			else
				printf("  engine %s: not built (its library was missing at build "
				       "time: install %s, then make)\n",
				       knob_table[K_ENGINE].choices[i], engine_package(i));
		}
		code = 0;
		break;
	case MODE_PRINT_CONFIG:
		plan_print(&plan, stdout);
		code = 0;
		break;
	default:
		if (!plan.vals[K_QUIET][0]) {
			plan_warn_unused(&plan, stderr);
			plan_print_derived(&plan, stderr);
		}
		install_signals();
		if (plan.mode == MODE_AUTO && isatty(STDOUT_FILENO) && isatty(STDIN_FILENO)) {
			if (plan.steps > 1) {
				fprintf(stderr, "idxlab: a sweep runs headless: use `idxlab run` "
				                "(the dashboard takes one value per knob)\n");
				code = 2;
				break;
			}
			if (plan.plot_path) {
				fprintf(stderr, "idxlab: --plot draws a headless run: use `idxlab "
				                "run ... --plot FILE`\n");
				code = 2;
				break;
			}
			code = dash_run(&plan, &got_signal);
		} else if (plan.replay_path && plan.mode == MODE_RUN) {
			code = run_replay(&plan);
		} else if (plan.demo || plan.record_path || plan.replay_path) {
			fprintf(stderr,
			        "idxlab: --%s in the dashboard: run it on a terminal "
			        "(standard input and output)\n",
			        plan.demo          ? "demo plays"
			        : plan.record_path ? "record works"
			                           : "replay works");
			code = 2;
		} else {
			code = run_headless(&plan);
		}
		if (got_signal)
			code = got_signal == SIGINT ? 130 : 128 + got_signal;
		break;
	}
	plan_free(&plan);
	return code;
}
