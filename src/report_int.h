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

struct report {
	const struct plan *plan; /* borrowed */
	FILE *out, *diag;
	int format;
	int header_done;
	char varying[K_COUNT]; /* set with the header: find_varying */
	int saw_unsettled;
	int saw_interrupted;
	int saw_short; /* a step shorter than SHORT_STEP_S */
	int saw_checkpoint;
	double t0; /* time of the first interval window */
	int have_t0;
	struct plot *plot; /* borrowed, or NULL */
};

/* The field called name in r, or NULL. */
const struct field *report_find(const struct record *r, const char *name);

/* The text table's row for r (its header first, once), a progress line on
 * diag, and the footnotes for the marks the rows carried. */
void report_write_text(struct report *rp, const struct record *r, const struct knobs *k);
void report_write_progress(struct report *rp, const struct record *r, double elapsed);
void report_text_footer(struct report *rp);

#endif
