/* report.h - headless output: an aligned text table, CSV or JSON lines.
 *
 * Every record - a step row or a live interval record - is first built as a
 * list of named fields (record.h), then written by the chosen format, so
 * the three formats always carry the same fields with the same values.
 * Field names are a contract, documented in man/idxlab.1. n/a and unsettled
 * values are empty in CSV and null in JSON. The records that stand for a
 * step (the median of its runs under --repeat), a batch or a window go on
 * to the runner's sink (report_sink): the chart and the answer. */
#ifndef IDXLAB_REPORT_H
#define IDXLAB_REPORT_H

#include <stdio.h>

#include "config.h"
#include "record.h"
#include "workload.h"

struct report;

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

/* Where the records go on to, after they are written: a step's (under
 * --repeat N > 1, the median record of its runs, not each run's), an
 * --interval-rows batch's (record "rows"), a window's (record "interval",
 * t0..t1 its seconds from the run's first window; a step's: 0, 0). r and
 * k are valid during the call only. fn NULL: nowhere. */
typedef void report_sink_fn(void *ctx, const struct record *r, const struct knobs *k, double t0,
                            double t1);
void report_sink(struct report *r, report_sink_fn *fn, void *ctx);

/* Fields appended to every record CSV and JSON write, after all the
 * others (--compare: compare.h): fn gets the complete record full and the
 * record about to be written, out (full or its --fields selection), to
 * append to; the same fields on every record. fn NULL: none. */
typedef void report_annotate_fn(void *ctx, const struct record *full, struct record *out);
void report_annotate(struct report *r, report_annotate_fn *fn, void *ctx);

/* Write record r (on knobs k) in rp's format: the run's own, or
 * one built elsewhere (--compare-new's saved steps) written as they are. */
void report_emit(struct report *rp, const struct record *r, const struct knobs *k);

/* A record whose fields wait on later ones (a mix sweep's `cheapest`, set
 * once every step of its sweep is in): fn gets a copy of each record
 * about to be written, in every format, and returns 1 when it is ready (it
 * may set its fields), 0 to hold it until fn says so. The others are
 * written as they come (a held step's windows stream); each finished
 * record asks again for the held ones, which are written in their order
 * as they settle. final 1 (the run's end, a stop): the last chance, fn
 * says what it can. fn NULL: none held. */
typedef int report_settle_fn(void *ctx, struct record *r, const struct knobs *k, int final);
void report_settle(struct report *r, report_settle_fn *fn, void *ctx);

/* A progress line on diag for a sweep: `step 13/24 (sqlite, indexes=3),
 * 41 %, ETA 9 s`, from the live snapshot l, at most once a second; on a
 * terminal the same line rewritten, cut to its width at a ", ". */
void report_progress(struct report *r, const struct live *l);

/* On a terminal, the progress line rewrites itself in place; before
 * anything else goes to the terminal (a record, an event, an error) it is
 * cleared: call this first. Does nothing when no line is up; safe on NULL.
 * Elsewhere (a file, a pipe) progress lines are plain lines. */
void report_clear_line(struct report *r);

/* The run's end: the median records of steps with runs missing (a
 * stopped run; to the sink too), the text table's footnotes, flush; the
 * progress line cleared. Then the caller may write its own closing lines
 * (the answer) after the table. Safe on NULL. */
void report_finish(struct report *r);

/* Safe on NULL. */
void report_free(struct report *r);

#endif
