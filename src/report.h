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

/* out: where records go (stdout); diag: where text-mode progress goes. */
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

/* Footnotes (text), flush. Safe on NULL. */
void report_free(struct report *r);

#endif
