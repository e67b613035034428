/* report_int.h - what the writers of records (report.c: CSV and JSON
 * lines; report_text.c: the text table) and --repeat's medians
 * (report_runs.c) share. */
#ifndef IDXLAB_REPORT_INT_H
#define IDXLAB_REPORT_INT_H

#include <stdio.h>

#include "config.h"
#include "record.h"
#include "report.h"

/* what ended the short steps (report.saw_short) */
#define SHORT_BY_ROWS 1
#define SHORT_BY_TIME 2

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
	int saw_short; /* a step shorter than SHORT_STEP_S: SHORT_BY_ROWS | SHORT_BY_TIME */
	int saw_checkpoint;
	int saw_whole_step; /* a step's own record after its --interval-rows batches */
	double t0;          /* time of the first interval window */
	int have_t0;
	report_sink_fn *sink; /* report_sink: where finished records go on to, or NULL */
	void *sink_ctx;
	report_annotate_fn *annotate; /* report_annotate, or NULL */
	void *annotate_ctx;
	report_settle_fn *settle; /* report_settle, or NULL */
	void *settle_ctx;
	struct held *held, **held_end; /* the records waiting on settle, oldest first */
	struct record *scratch;        /* a record settled before it is written (owned) */
	/* --fields: the fields every format writes, in this order (nsel 0: the
	 * format's own choice); the names point into sel_text (owned). */
	const char *sel[RECORD_MAX_FIELDS];
	int nsel;
	char *sel_text;
	/* The text table's columns (text_header), the same for every row. */
	struct text_col cols[RECORD_MAX_FIELDS + K_COUNT];
	int ncols;
	/* Progress (report_progress): the rows the plan has before each step
	 * (owned, [steps + 1]: the last, all of them), and when the run began
	 * and the last line was printed. */
	double *rows_before, t_begin, t_said;
	/* diag is a terminal: the sweep's progress is one line that rewrites
	 * itself (no newline: line_up while it shows), cleared before
	 * anything else is written (report_clear_line). */
	int tty_line, line_up;
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

/* r (on knobs k) stands for a finished step (one run's, or the median of
 * its runs), a batch or a window: handed to the sink (report_sink), its
 * window t0..t1 (0, 0: a step). */
void report_hand_on(struct report *rp, const struct record *r, const struct knobs *k, double t0,
                    double t1);

/* ---- report_runs.c: --repeat ---- */

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

/* The text table's row for r (its header first, once), a progress line on
 * diag, and the footnotes for the marks the rows carried. */
void report_write_text(struct report *rp, const struct record *r, const struct knobs *k);
void report_write_progress(struct report *rp, const struct record *r, double elapsed);
void report_text_footer(struct report *rp);

/* The knobs that vary across the plan's steps, into rp->varying (once). */
void report_find_varying(struct report *rp);

#endif
