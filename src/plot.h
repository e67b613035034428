/* plot.h - charts of a headless run, for slides: --plot FILE.svg|.png|.pdf.
 *
 * Every record the headless runner hands on (report_sink) comes here; the
 * chart is drawn from those records' own fields, so it shows exactly the
 * numbers the CSV carries (n/a and unsettled values are gaps, never 0).
 * A sweep: one panel per chosen metric, x the first swept knob (or
 * --plot-x), one series per combination of the other swept knobs; under a
 * mix (mix_of) along indexes, the trade: write, read and total panels by
 * default, each series' cheapest step marked (a ring, "cheapest", and a
 * dashed line at its index count in every panel). Records
 * over time (--interval unless --plot-kind sweep,
 * or a recording exported with --replay): the metrics over seconds, with a
 * labelled marker at every knob change (and every demo caption). PNG, SVG
 * and PDF are drawn by one code path (cairo): only the surface differs. */
#ifndef IDXLAB_PLOT_H
#define IDXLAB_PLOT_H

#include "config.h"
#include "err.h"
#include "record.h"

#define PLOT_MAX_PANELS 6
#define PLOT_MAX_SERIES 12 /* a legend a slide's reader can still match */

struct plot;

/* p's --plot PATH and the options of its chart, checked before any engine
 * starts (p is otherwise complete): the extension names the format (.svg,
 * .png, .pdf); an existing file is refused (idxlab overwrites nothing) and
 * so is a directory idxlab cannot write to; --plot-metrics holds metric
 * field names (the CSV header's), at most PLOT_MAX_PANELS; --plot-x names
 * a swept knob; --plot-kind is auto, sweep (the steps) or time (the
 * --interval records); --plot-theme light or dark; a sweep chart has at
 * most PLOT_MAX_SERIES series. Usage errors. */
int plot_check(const struct plan *p, struct err *e);

/* A chart for plan p (borrowed: its swept knobs and --plot-x pick the x
 * axis and the series, --plot-kind and --plot-theme the chart) to be
 * written to path; metrics as for plot_check (which passed). */
struct plot *plot_new(const struct plan *p, const char *path, const char *metrics);

/* One record, built on knobs k (copied); t0..t1 its window in seconds from
 * the run's first window (interval records; ignored for steps). */
void plot_add(struct plot *pl, const struct record *r, const struct knobs *k, double t0, double t1);

/* A caption shown at time t (seconds on the same clock): a marker. */
void plot_note(struct plot *pl, double t, const char *text);

/* Metric m is what the talk was about (a recording's presenter figures): a
 * chart with the default panels draws it too (after rows/s and p99). */
void plot_feature(struct plot *pl, int m);

/* Draw the chart and write it (the file is created now, never
 * overwritten); -1 with e filled when there is nothing to draw or the
 * write failed (the half-written file is removed). summary (may be NULL)
 * gets a line that names the kind of chart, such as "a sweep chart (x
 * indexes): 2 panels, 2 series, 12 records" (", the cheapest marked:
 * indexes 1" when a mix's optimum is). */
int plot_write(struct plot *pl, char *summary, size_t len, struct err *e);

/* Safe on NULL. */
void plot_free(struct plot *pl);

#endif
