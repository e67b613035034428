/* report_int.h - what the record builder (report.c) and the text writer
 * (report_text.c) share: a record is a list of named fields. */
#ifndef IDXLAB_REPORT_INT_H
#define IDXLAB_REPORT_INT_H

#include <stdio.h>

#include "config.h"
#include "report.h"

#define MAX_FIELDS   128
#define SHORT_STEP_S 1.0

enum fkind { F_STR, F_INT, F_NUM, F_NA, F_UNSETTLED };

struct field {
	const char *name;
	const char *label; /* text column header */
	const char *unit;  /* for human formatting in text */
	enum fkind kind;
	char s[128];
	long long i;
	double d;
	int decimals;
	int figure; /* a measured figure (a metric, a step-end time): --repeat's median */
};

struct record {
	int n;
	struct field f[MAX_FIELDS];
};

/* A column of the text table: a knob that varies, or a record's field. */
struct text_col {
	int knob;          /* -1: the field */
	const char *field; /* the record's field (knob K_ROWS: "rows", measured) */
	const char *label;
	int width;
};

struct report {
	const struct plan *plan; /* borrowed */
	FILE *out, *diag;
	int format;
	int header_done;
	char varying[K_COUNT]; /* report_find_varying */
	int varying_done;
	int saw_unsettled;
	int saw_interrupted;
	int saw_short; /* a step shorter than SHORT_STEP_S */
	int saw_checkpoint;
	double t0; /* time of the first interval window */
	int have_t0;
	struct plot *plot; /* borrowed, or NULL */
	/* --fields: the fields every format writes, in this order (nsel 0: the
	 * format's own choice); the names point into sel_text (owned). */
	const char *sel[MAX_FIELDS];
	int nsel;
	char *sel_text;
	/* The text table's columns (text_header), the same for every row. */
	struct text_col cols[MAX_FIELDS + K_COUNT];
	int ncols;
	/* Progress (report_progress): the rows the plan has before each step
	 * (owned, [steps + 1]: the last, all of them), and when the run began
	 * and the last line was printed. */
	double *rows_before, t_begin, t_said;
	/* diag is a terminal: the sweep's progress is one line that rewrites
	 * itself (no newline: line_up while it shows), cleared before
	 * anything else is written (report_clear_line). */
	int tty_line, line_up;
	struct answer *answer; /* owned: the steps, for the answer (answer.h) */
	/* --repeat (report_runs.c): runs per step; spread: records carry run,
	 * runs and FIELD_min/FIELD_max (repeat > 1, or --fields names one);
	 * the runs of the steps not yet complete, and what the closing
	 * within-noise lines compare. */
	int repeat, spread;
	int run_rows; /* each run's record is written (--fields keeps record or run) */
	struct runs *runs;
	long *block_first; /* progress: each step's first step on its engine (owned) */
};

/* report.c: what a record of the run is built from, and written by. */
void report_build_step(struct report *rp, struct record *r, const struct step_result *s,
                       const char *kind);
void report_emit(struct report *rp, const struct record *r, const struct knobs *k);

/* ---- report_runs.c: --repeat ---- */

/* The spread fields (run, runs, FIELD_min and FIELD_max of every figure
 * of r, in r's order) appended to r: run from 1 (0: none, the median
 * record), runs the number of runs r stands for; min and max n/a
 * (report_runs_step fills them on the median record). */
void report_add_spread(struct record *r, int run, int runs);

/* "rows_per_s_min" (max 0) or "rows_per_s_max" (max 1) for field name:
 * interned, valid for the process' life. */
const char *report_spread_name(const char *field, int max);

/* A finished run of a step (s->rows_record 0) whose record r (built with
 * its spread fields) has been written: kept; when the step has all its
 * runs, the median record is written (and charted). */
void report_runs_step(struct report *rp, const struct record *r, const struct step_result *s);

/* The steps with fewer runs than asked (the run was stopped): their
 * median records, in step order, marked interrupted. */
void report_runs_flush(struct report *rp);

/* Text: the closing lines - what the +-% means, and the neighbouring steps
 * whose ranges overlap ("indexes 2 and 3: within noise"). */
void report_runs_footer(struct report *rp);

void report_runs_free(struct report *rp);

/* report_text.c: a footnote, "# " and text wrapped before the table's
 * width; the plus-minus sign ("±" in a UTF-8 locale, else "+-"). */
void report_footnote(struct report *rp, const char *text);
const char *report_pm(void);

/* report.c: a finished step's record (one run's, or the median of N)
 * kept for the answer's closing lines (answer.h). */
void report_note_answer(struct report *rp, const struct record *r, const struct knobs *k);

/* f's number exactly as the CSV prints it (its decimals); NaN: no field
 * (f NULL), n/a, unsettled, a string. */
double report_csv_number(const struct field *f);

/* The field called name in r, or NULL. */
const struct field *report_find(const struct record *r, const char *name);

/* The text table's row for r (its header first, once), a progress line on
 * diag, and the footnotes for the marks the rows carried. */
void report_write_text(struct report *rp, const struct record *r, const struct knobs *k);
void report_write_progress(struct report *rp, const struct record *r, double elapsed);
void report_text_footer(struct report *rp);

/* The knobs that vary across the plan's steps, into rp->varying (once). */
void report_find_varying(struct report *rp);

#endif
