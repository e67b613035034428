/* report.h - headless output: an aligned text table, CSV or JSON lines.
 *
 * Every record - a step row or a live interval record - is first built as a
 * list of named fields (struct record), then written by the chosen format,
 * so the three formats always carry the same fields with the same values.
 * Field names are a contract, documented in man/idxlab.1. n/a and unsettled
 * values are empty in CSV and null in JSON. */
#ifndef IDXLAB_REPORT_H
#define IDXLAB_REPORT_H

#include <stdio.h>

#include "config.h"
#include "workload.h"

struct report;
struct plot;

/* out: where records go (stdout); diag: where text-mode progress goes
 * (NULL: nowhere, -q). */
struct report *report_new(const struct plan *p, FILE *out, FILE *diag);

/* A finished (or interrupted) step. */
void report_step(struct report *r, const struct step_result *s);

/* A live record for the window between two snapshots of the same step. */
void report_interval(struct report *r, const struct live *prev, const struct live *cur);

/* A window of a recording (--replay exported): a record like
 * report_interval's, also a row of the text table. */
void report_window(struct report *r, const struct live *prev, const struct live *cur);

/* Every record from now on also goes to pl (borrowed; NULL: none), with
 * its window in seconds from the first interval window's start. */
void report_plot(struct report *r, struct plot *pl);

/* --fields: is every name in the comma list a field (CSV/JSON name), and
 * none twice? -1 with a "did you mean" otherwise (ERR_USAGE). */
int report_check_fields(const char *list, struct err *e);

/* A progress line on diag for a sweep: `step 13/24 (sqlite, indexes=3),
 * 41 %, ETA 9 s`, from the live snapshot l, at most once a second; on a
 * terminal the same line rewritten, cut to its width at a ", ". */
void report_progress(struct report *r, const struct live *l);

/* On a terminal, the progress line rewrites itself in place; before
 * anything else goes to the terminal (a record, an event, an error) it is
 * cleared: call this first. Does nothing when no line is up; safe on NULL.
 * Elsewhere (a file, a pipe) progress lines are plain lines. */
void report_clear_line(struct report *r);

/* Footnotes (text), flush; the progress line cleared. Safe on NULL. */
void report_free(struct report *r);

#endif
