/* config.h - turning argv and config files into a plan.
 *
 * A plan holds, for every knob, the list of values asked for (a comma list
 * is a sweep), plus what the command line asked idxlab to do. Values come
 * from the knob defaults, then a config file (-c FILE, else
 * $XDG_CONFIG_HOME/idxlab/idxlab.conf or ~/.config/idxlab/idxlab.conf when
 * present), then the command line; a later source replaces a knob's list. */
#ifndef IDXLAB_CONFIG_H
#define IDXLAB_CONFIG_H

#include <stdio.h>

#include "conf_line.h"
#include "demo.h"
#include "err.h"
#include "knobs.h"

#define PLAN_MAX_VALUES 64
#define PLAN_MAX_STEPS  100000

enum plan_mode {
	MODE_AUTO,         /* dashboard on a tty, headless otherwise */
	MODE_RUN,          /* `idxlab run`: headless */
	MODE_HELP,         /* --help */
	MODE_VERSION,      /* --version */
	MODE_PRINT_CONFIG, /* --print-config */
};

struct plan {
	enum plan_mode mode;
	int n[K_COUNT];
	long long vals[K_COUNT][PLAN_MAX_VALUES];
	int set[K_COUNT];         /* given in a config file or on the command line */
	char where[K_COUNT][160]; /* where each was last given, for messages ("--indexes") */
	const char *reading;      /* the config file being read, for where */
	char *dsn;                /* owned */
	char *config_path;        /* owned; the config file that was read, or NULL */
	struct demo *demo;        /* owned; --demo FILE, or NULL */
	char *record_path;        /* owned; --record FILE, or NULL */
	char *replay_path;        /* owned; --replay FILE, or NULL */
	char *plot_path;          /* owned; --plot FILE (.svg, .png, .pdf), or NULL */
	char *plot_metrics;       /* owned; --plot-metrics LIST, or NULL: the default */
	char *plot_x;             /* owned; --plot-x KNOB (a swept knob), or NULL: the first */
	char *plot_kind;          /* owned; --plot-kind auto|sweep|time, or NULL: auto */
	char *plot_theme;         /* owned; --plot-theme light|dark, or NULL: light */
	char *fields;       /* owned; --fields a,b,... (checked: every one a field), or NULL */
	char *compare_path; /* owned; --compare FILE (a saved run), or NULL */
	char *compare_new;  /* owned; --compare-new FILE (compared instead of a run), or NULL */
	char *
	    baseline_path; /* owned; --baseline FILE (a saved run, the dashboard's baseline), or NULL */
	long steps;        /* number of knob combinations */
	char **args;       /* owned; argv as given (argv itself has its secrets masked) */
	int nargs;
};

/* Build a plan from argv (argv[0] is skipped). Reads the config file too.
 * On failure e->cls is ERR_USAGE. plan_free() is safe afterwards either way. */
int plan_from_args(struct plan *p, int argc, char **argv, struct err *e);

/* Read a config file into p; errors name the file and line. */
int plan_load_file(struct plan *p, const char *path, struct err *e);

/* The tables read from a user's database (--schema-from): each spec and how
 * it was guessed, for stderr at the start of a run. */
void plan_print_derived(const struct plan *p, FILE *f);

/* Set knob id from text, a comma list unless the knob is KF_NOSWEEP. */
int plan_set(struct plan *p, int id, const char *text, struct err *e);

/* The knobs of step i (0 <= i < p->steps); the first knob varies slowest.
 * Its row counts and --duration are --scale's; plan_step_as_given's are
 * the plan's own (what a config file says). */
void plan_step(const struct plan *p, long i, struct knobs *out);
void plan_step_as_given(const struct plan *p, long i, struct knobs *out);

/* Check every step's knobs against each other. */
int plan_validate(struct plan *p, struct err *e);

/* Warn (on f) about knobs the user set that no engine of the plan has. */
void plan_warn_unused(const struct plan *p, FILE *f);

/* Print the effective settings as a config file. */
void plan_print(const struct plan *p, FILE *f);

void plan_free(struct plan *p);

/* ---- the question as a verb, on the plan (plan_whatif.c; whatif.h) ---- */

/* Every table of p with p's candidates and drops: each schema value
 * becomes the registry index of a spec that extends it (whatif_extend; an
 * error names the bad candidate or name and where it was given). Then, for
 * a table read from a source (--schema-from), the engine and the prefill
 * the user left unset are the source's. */
int plan_whatif_apply(struct plan *p, struct err *e);

/* Warn on f when p has candidates (or drops) that no step measures: no
 * step's indexes reaches past the table's own (or stops before the drops),
 * and say the words that would. */
void plan_whatif_warn_unused(const struct plan *p, FILE *f);

/* The indexes knob's words in k resolved (plan_step, the dashboard). */
void plan_resolve_indexes(struct knobs *k);

/* The table's size and engine as the source gave them, for a run's
 * header: "app.db:users: 3000 rows at the source (prefill), engine sqlite
 * (the source's)"; "" when no table of p was read from a source. */
void plan_whatif_source_text(const struct plan *p, char *buf, size_t len);

/* The dashboard's rows (where an insert run starts over) for a table read
 * from a source, when the user left rows unset: twice the source's rows,
 * and at least PLAN_DASH_ROWS_MORE more than them (a small table would
 * start over every moment, and the screen say little else); -1 for any
 * other table. */
#define PLAN_DASH_ROWS_MORE 50000
long long plan_dash_rows(const struct knobs *k);

#endif
