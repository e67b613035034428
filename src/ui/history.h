/* history.h - what the dashboard remembers: samples, knob changes, a baseline.
 *
 * A ring of the worker's snapshots (one per HIST_PERIOD at most, 150 s of
 * them), the markers of knob changes, and the pinned baseline. Every figure
 * the panels show is computed here from two samples by metric_compute(), so
 * the panels only paint. No curses, no clock of its own (times come in):
 * unit-testable. */
#ifndef IDXLAB_HISTORY_H
#define IDXLAB_HISTORY_H

#include <stddef.h>
#include <stdint.h>

#include "../knobs.h"
#include "../metrics.h"
#include "../workload.h"

#define HIST_PERIOD      0.25 /* seconds between samples kept */
#define HIST_CAP         600  /* 150 s of them */
#define HIST_VALUE_SPAN  1.0  /* a value column: the last second */
#define HIST_SPARK_SPAN  120.0
#define HIST_MIN_SPAN    30.0 /* a fresh chart's time axis: at least this long */
#define HIST_BASE_SPAN   10.0 /* a pinned baseline: the mean over up to this long */
#define HIST_MAX_MARKERS 64

struct sample {
	struct counters c;
	/* live.full: the last sample with the engine's statistics (c itself
	 * but between two in live mode). A figure c's window cannot give (a
	 * light c has no engine counter) is taken between the full samples at
	 * or before its two ends, a longer window ending at the latest
	 * reading: the figure means what it meant, over that time. */
	struct counters full;
	struct lats lat;
	struct sizes sizes;
	uint64_t table_rows;
	/* each metric as a value column showed it at this sample (NAN: none):
	 * what a scale must cover while the sample is in a sparkline's window */
	double shown[M_COUNT];
	/* a knob change landed inside the value window ending here: the
	 * change's own transition (an index build's spills over a second of
	 * few rows), which no scale covers */
	int change;
};

struct marker {
	double t; /* on the figures' clock (the counters' c.t) */
	int knob; /* the last knob that changed */
	char label[64];
};

struct history {
	struct sample ring[HIST_CAP];
	int n, head;      /* head: where the next sample goes */
	double last_push; /* wall time of the last sample kept */
	struct marker markers[HIST_MAX_MARKERS];
	int nmarkers;
	int base_on;          /* a baseline is pinned */
	double base[M_COUNT]; /* per metric; NAN: unknown */
	int base_na[M_COUNT]; /* the engine cannot measure it */
	struct knobs base_knobs;
	char base_from[160];    /* a saved run's baseline: "vs FILE step 2"; "": a live pin */
	int scales_pinned;      /* the s key: every scale frozen at pinned[m] */
	double pinned[M_COUNT]; /* per metric; 0: none to freeze */
};

/* A new, empty history (big: allocated; aborts when memory is short). */
struct history *history_new(void);
void history_free(struct history *h);

/* The sample `back` steps before the latest (0: the latest), or NULL. */
const struct sample *history_at(const struct history *h, int back);

/* Keep l's figures when a period has passed since the last (at wall time
 * now) or none is kept yet. Returns 1 when a checkpoint completed between
 * the previous sample and this one, else 0. */
int history_offer(struct history *h, const struct live *l, double now);

/* Drop all but the latest sample, and the markers (pinned scales stay). */
void history_reset(struct history *h);

/* Forget all: the samples, the markers, the baseline (a replay sought
 * elsewhere offers again what leads there). */
void history_rewind(struct history *h);

/* Metric m between samples `older` and `newer` (counted back from the
 * latest); NAN when unknown or not settled, *na (may be NULL) when the
 * engine cannot measure it. */
double history_between(const struct history *h, int m, int older, int newer, int *na);

/* Metric m over the last `back` samples as a value column shows it (sizes:
 * the latest). */
double history_value(const struct history *h, int m, int back, int *na);

/* The samples a chart's time axis spans: those seen so far, at least
 * HIST_MIN_SPAN seconds of them, at most `most` (its full window). So a
 * fresh chart is full width from the start and stretches as it fills. */
double history_span(const struct history *h, int most);

/* One chart or sparkline: ncols columns over the last `span` samples
 * (history_span), the last column ending at the latest sample, each
 * span / ncols samples wide (less than one: neighbours share a sample's
 * figure); vals[j] as history_between (NAN: unknown, or before the first
 * sample). */
void history_series(const struct history *h, int m, int ncols, double span, double *vals);

/* A chart's smoothing: each column the mean over at least this many
 * samples before its right edge - HIST_CHART_MEAN seconds, or two commits'
 * time over the last `span` samples when commits are further apart (a
 * commit of 100000 rows pauses the rows for its length: the raw columns
 * would be a comb of spikes and zeros), HIST_CHART_MEAN_MAX at most. */
#define HIST_CHART_MEAN     2.0
#define HIST_CHART_MEAN_MAX 15.0
double history_chart_mean(const struct history *h, double span);

/* As history_series, each column over at least `least` samples (a trailing
 * mean: columns narrower than that overlap); changed[j] (changed may be
 * NULL): 1 when a knob change is inside column j's mean (its transition,
 * which no scale covers), else 0. */
void history_series_mean(const struct history *h, int m, int ncols, double span, double least,
                         double *vals, int *changed);

/* The figures' times of the samples column j of such a chart takes its
 * figure between, each over at least `least` samples (0: as
 * history_series): 0, or -1 when the history has no such samples. */
int history_column_times(const struct history *h, int ncols, double span, double least, int j,
                         double *t0, double *t1);

/* marks[j]: the index in h->markers of the last knob change inside column j
 * of such a chart (each marker in exactly one column), else -1. */
void history_series_marks(const struct history *h, int ncols, double span, int *marks);

/* A knob change at time t. */
void history_mark(struct history *h, double t, int knob, const char *label);

/* A marker in (t0, t1]. */
int history_marked(const struct history *h, double t0, double t1);

/* Why history_pin() pinned nothing. */
enum { HIST_PIN_TOO_SOON = -1, HIST_PIN_EMPTY = -2 };

/* Pin the metrics of the setting in force (knobs) as the baseline: each the
 * mean since the last marker, over at most HIST_BASE_SPAN seconds of the
 * figures' clock, which runs `speed` times the wall clock (a fast replay).
 * HIST_PIN_TOO_SOON when less than a second has passed since the change,
 * HIST_PIN_EMPTY when no row was done or no transaction committed in that
 * window (big transactions on a busy machine: the per-commit figures, or
 * all, would be unknown for as long as the baseline stays; under commit =
 * all no commit is waited for); nothing changes then. Else 0 with *span
 * the seconds the baseline covers. */
int history_pin(struct history *h, const struct knobs *knobs, int speed, double *span);

void history_unpin(struct history *h);

/* Pin figures from elsewhere as the baseline (--baseline: a saved run's
 * step): v[m] per metric (NAN: unknown), na[m] the engine could not
 * measure it, knobs its setting, from what the title says it is ("vs
 * FILE step 2"). A live pin (history_pin) replaces it. */
void history_pin_saved(struct history *h, const double *v, const int *na, const struct knobs *knobs,
                       const char *from);

/* The full scale (the value of a full gauge, of a sparkline's top level) of
 * metric m: 100 for a percentage; the pinned one while scales are pinned;
 * else the next nice number (spark_nice, spark_nice_bytes for bytes) at or
 * above both on_screen (the largest other figure drawn with it:
 * history_drawn_max) and every value the value column showed over the
 * last `back` samples. So it never shrinks while a value that needed it is
 * in that window; only once those samples scrolled out. A knob change's
 * own transition - the value windows with a change inside (sample.change)
 * - counts in none of it: a one-second spike of an index build would
 * otherwise set the scale for two minutes, with every later bar a sliver
 * (its bar is full then; its figure is printed). 0: nothing yet. */
double history_full_scale(const struct history *h, int m, int back, double on_screen);

/* The largest figure drawn now that a scale covers: the value column's v
 * unless its window holds a knob change, and vals[0..n) (a chart's columns)
 * but those marked as holding one (marks from history_series_marks; NULL:
 * none). NANs count as nothing; 0 when nothing counts. */
double history_drawn_max(const struct history *h, double v, const double *vals, const int *marks,
                         int n);

/* Freeze every metric's scale at full[m] (M_COUNT of them), or release
 * them. */
void history_pin_scales(struct history *h, const double *full);
void history_unpin_scales(struct history *h);

/* A full scale as its row prints it, in the metric's unit and at most 6
 * columns: "200k", "0.005", "2MiB", "500us", "100%"; "" for 0. */
void history_format_scale(int m, double full, char *buf, size_t len);

/* Which way a ratio now/baseline of metric m went, by the metric's good
 * direction: 1 better, -1 worse, 0 neither (within 10 %, unknown, both
 * near 0, or a metric with no good direction). A baseline at or under
 * near0 counts as 0, as in label_ratio_near. */
int history_ratio_sense(int m, double v, double base, double near0);

/* The ratio now/baseline of metric m drawn on full scale `full`, as a row
 * or a big figure prints it: label_ratio_near with a baseline under a
 * thousandth of the scale as (about) 0, and the better/worse mark after it
 * (G_BETTER, G_WORSE). Returns its history_ratio_sense. */
int history_ratio_text(const struct history *h, int m, double v, double full, int ascii, char *buf,
                       size_t len);

/* A metric's value as the dashboard prints it: "1.2 ms", "0.0062", "n/a"
 * (na), "..." (NAN: not settled). */
void history_format(int m, double v, int na, char *buf, size_t len);

#endif
