/* main.c - argv -> mode -> exit code: the plan from argv and config
 * files, then the dashboard (ui/dash.h) or the headless runner
 * (headless.h), and the signals that stop either.
 *
 * Only this file calls exit(). Exit codes: 0 ok, 1 runtime failure, 2 usage
 * or config error, 130 after Ctrl-C (129 after SIGHUP, 131 after SIGQUIT,
 * 143 after SIGTERM); a stopped run still prints the partial result of the
 * step it was in. A second signal within a second of the first is the same
 * stop; a later one ends idxlab at once (killed by it), with its servers
 * and temp dirs gone all the same. */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "engines/engine.h"
#include "engines/hurry.h"
#include "headless.h"
#include "mix.h"
#include "knobs.h"
#include "redact.h"
#include "schema_from.h"
#include "ui/dash.h"
#include "ui/term.h"

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
	char range[160], def[160], more[160];
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
		else if (d->kind == KNOB_SIZE) /* as postgresql.conf writes them */
			snprintf(range + strlen(range), sizeof range - strlen(range),
			         " (kB, MB, GB as PostgreSQL: 1024-based, = KiB, MiB, GiB)");
		engine_defaults_text(id, more, sizeof more);
		knob_default_text(id, more, def, sizeof def);
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
	        "                      and the per-row figures that move; a mix's sweep:\n"
	        "                      write, read and mix cost, the cheapest marked)\n"
	        "  --plot-x KNOB       the sweep chart's x axis (default: the first swept)\n"
	        "  --plot-kind K       auto (over time with --interval), sweep or time\n"
	        "  --plot-theme T      light (default) or dark, for dark slides\n"
	        "  --schema-from SOURCE:TABLE  run on idxlab's own copy of the shape of a\n"
	        "                      table of yours, read read-only: SOURCE an SQLite file or\n"
	        "                      a PostgreSQL conninfo/URI (./app.db:users); prefill and\n"
	        "                      engine default to the source's rows and engine\n"
	        "  --fields a,b,...    headless: only these output fields, in this order, in\n"
	        "                      every format (names: the CSV header; man idxlab)\n"
	        "  --compare FILE      headless: each step beside the step with the same knobs\n"
	        "                      of a saved run (its --format csv or json): per figure\n"
	        "                      the ratio new/saved and better, worse or within noise\n"
	        "                      (the runs' spread with --repeat, else 10 %%)\n"
	        "  --compare-new FILE  compare FILE (another saved run) instead of running\n"
	        "  --baseline FILE     dashboard: pin a saved run (its --format csv or json, or\n"
	        "                      a --record recording) as the baseline: its step (or\n"
	        "                      stretch) with the dashboard's knobs, else the nearest;\n"
	        "                      each metric shows now/saved (B unpins)\n"
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

int main(int argc, char **argv)
{
	struct plan plan;
	struct err e = { ERR_NONE, "" };
	int code, kind;

	for (kind = 0; kind < E_COUNT; kind++) /* idxlab may quote them */
		if (engine_table[kind] && engine_table[kind]->dsn_env)
			redact_learn(getenv(engine_table[kind]->dsn_env));
	schema_from_reader(engine_read_source); /* --schema-from: the engines read */
	if (plan_from_args(&plan, argc, argv, &e) < 0 ||
	    (plan.mode != MODE_HELP && plan.mode != MODE_VERSION &&
	     headless_check(&plan, &e) < 0)) {
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
		if (plan.compare_new) {
			code = headless_compare(&plan);
		} else if (plan.mode == MODE_AUTO && isatty(STDOUT_FILENO) &&
		           isatty(STDIN_FILENO)) {
			if (plan.steps > 1) {
				fprintf(stderr, "idxlab: a sweep runs headless: use `idxlab run` "
				                "(the dashboard takes one value per knob)\n");
				code = 2;
				break;
			}
			if (plan.vals[K_MIX][0]) {
				fprintf(stderr,
				        "idxlab: --mix runs headless: use `idxlab run ... --mix "
				        "%s` (the dashboard mixes lookups in with its read-share "
				        "slider, --read-share N)\n",
				        mix_label(plan.vals[K_MIX][0]));
				code = 2;
				break;
			}
			if (plan.plot_path || plan.compare_path) {
				fprintf(stderr,
				        "idxlab: %s a headless run: use `idxlab run ... %s FILE`\n",
				        plan.plot_path ? "--plot draws" : "--compare compares",
				        plan.plot_path ? "--plot" : "--compare");
				code = 2;
				break;
			}
			code = dash_run(&plan, &got_signal);
		} else if (plan.replay_path && plan.mode == MODE_RUN) {
			code = headless_replay(&plan);
		} else if (plan.demo || plan.record_path || plan.replay_path ||
		           plan.baseline_path) {
			fprintf(stderr,
			        "idxlab: --%s in the dashboard: run it on a terminal "
			        "(standard input and output)\n",
			        plan.demo          ? "demo plays"
			        : plan.record_path ? "record works"
			        : plan.replay_path ? "replay works"
			                           : "baseline pins a saved run");
			code = 2;
		} else {
			code = headless_run(&plan, &got_signal);
		}
		if (got_signal)
			code = got_signal == SIGINT ? 130 : 128 + got_signal;
		break;
	}
	plan_free(&plan);
	return code;
}
