/* report_int.h - what the record builder (report.c) and the text writer
 * (report_text.c) share: a record is a list of named fields. */
#ifndef IDXLAB_REPORT_INT_H
#define IDXLAB_REPORT_INT_H

#include <stdio.h>

#include "config.h"
#include "report.h"

#define MAX_FIELDS   64
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
};

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
