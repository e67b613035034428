/* panel_metrics.c - the metrics panel: per metric a row of label, the value
 * over the last second, a gauge, the ratio to a pinned baseline, and a
 * sparkline of the last two minutes whose columns are highlighted where a
 * knob changed. The history computes every figure; this file only lays
 * them out and paints. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engines/engine.h"
#include "../metrics.h"
#include "../mix.h"
#include "../record.h"
#include "../textfit.h"
#include "label.h"
#include "paint.h"
#include "panels.h"
#include "spark.h"
#include "ui.h"

#define SPARK_MAX 256
#define CKPT_SPAN 10.0 /* seconds a checkpoint stays marked in the title */
/* the samples of a sparkline's full window, which its scale covers */
#define SPARK_BACK ((int)lround(HIST_SPARK_SPAN / HIST_PERIOD))

/* Every row the dashboard may show, in the order of their rows; a row
 * shows only on the engines that can measure the counters of its metric
 * (engine_measures, from each engine's statistics table), so no row reads
 * n/a for good and none moves when a knob does; the reads' rows come
 * last, and only while the knobs read (an op lookup or range, a mix). */
const int panel_metric_ids[] = {
	M_ROWS_PER_S,
	M_COMMITS_PER_S,
	M_P50_MS,
	M_P99_MS,
	M_FSYNCS_PER_COMMIT,
	M_BG_SYNCS_PER_S,
	M_FORCED_SYNCS_PER_ROW,
	M_SPILLS_PER_ROW,
	M_MISSES_PER_ROW,
	M_WAL_BYTES_PER_ROW,
	M_FPI_BYTES_PER_ROW,
	M_HOT_PCT,
	M_WCHAR_PER_ROW,
	M_WRITE_BYTES_PER_ROW,
	M_DB_WRITE_BYTES_PER_ROW,
	M_CACHE_BYTES,
	M_CACHE_DIRTY_PCT,
	M_INDEX_BYTES,
	M_DB_BYTES,
	/* the reads (--read-share, op lookup): last, so the write rows keep
	 * their places, and only while the knobs read (reads) */
	M_READS_PER_S,
	M_READ_MS_PER_QUERY,
	M_ROWS_EXAMINED_PER_QUERY,
};
const int panel_nmetrics = (int)(sizeof panel_metric_ids / sizeof panel_metric_ids[0]);

/* Is m one of the reads' rows? */
static int read_row(int m)
{
	return m == M_READS_PER_S || m == M_READ_MS_PER_QUERY || m == M_ROWS_EXAMINED_PER_QUERY;
}

static int reading(const struct dash *d)
{
	return OP_READS(d->k.applied.v[K_OP]) || mix_of(&d->k.applied, NULL);
}

int panel_metric_lines(const struct dash *d)
{
	return panel_metric_rows(d, NULL) + reading(d);
}

int panel_metric_rows(const struct dash *d, int *ids)
{
	unsigned have = engine_measures((int)d->k.want.v[K_ENGINE]);
	int reads = reading(d);
	int i, n = 0;

	for (i = 0; i < panel_nmetrics; i++)
		if ((metric_needs(panel_metric_ids[i]) & ~have) == 0 &&
		    (reads || !read_row(panel_metric_ids[i]))) {
			if (ids)
				ids[n] = panel_metric_ids[i];
			n++;
		}
	return n;
}

/* The columns of a row: label, value, gauge, its scale, [now/base],
 * sparkline. Which way is better is in the help (a mark here would read as
 * a trend), and on a ratio to the baseline as better or worse. */
struct cols {
	int label, value, gauge, scale, ratio, spark;
	double span; /* samples the sparkline spans (history_span) */
};

/* Columns for a panel w wide: the sparkline gets what is left; a narrow
 * one (80 columns) shortens the gauge before it starves the sparkline. */
static void columns(const struct dash *d, int w, struct cols *c)
{
	int inner = w - 3; /* the borders and a blank before the right one */

	*c = (struct cols){ .label = 13, .value = 9, .gauge = 8, .scale = 7 };
	c->ratio = d->hist->base_on ? 9 : 0;
	c->spark = inner - c->label - c->value - 1 - c->gauge - c->scale - c->ratio;
	if (c->spark < 8) {
		c->spark += c->gauge - 5;
		c->gauge = 5;
	}
	if (c->spark > SPARK_MAX)
		c->spark = SPARK_MAX;
	if (c->spark < 0)
		c->spark = 0;
	c->span = history_span(d->hist, SPARK_BACK);
}

/* Metric m's value column (*na: n/a), its sparkline (vals, c->spark of
 * them) and the full scale both are drawn on (a knob change's own columns,
 * marks, left out of it). */
static double measure(const struct dash *d, const struct cols *c, int m, const int *marks,
                      double *vals, int *na)
{
	double v = history_value(d->hist, m, (int)lround(HIST_VALUE_SPAN / HIST_PERIOD), na);

	history_series(d->hist, m, c->spark, c->span, vals);
	/* (the sparkline's whole window, however much of it is drawn yet) */
	vals[c->spark] = history_full_scale(d->hist, m, SPARK_BACK,
	                                    history_drawn_max(d->hist, v, vals, marks, c->spark));
	return v;
}

void panel_metric_scales(const struct dash *d, double *full)
{
	double vals[SPARK_MAX + 1];
	int marks[SPARK_MAX];
	struct cols c;
	int m, na;

	columns(d, d->lay.metrics.w, &c);
	history_series_marks(d->hist, c.spark, c.span, marks);
	for (m = 0; m < M_COUNT; m++) {
		(void)measure(d, &c, m, marks, vals, &na);
		full[m] = vals[c.spark];
	}
}

static void title(const struct dash *d, const struct cols *c, int w, char *buf, size_t len)
{
	/* The spans in seconds of the figures' own clock (a fast replay's). */
	double value_span = HIST_VALUE_SPAN * d->feed->speed;
	double spark_span = c->span * HIST_PERIOD * d->feed->speed;
	const char *name = d->hist->scales_pinned ? "metrics, scales pinned" : "metrics";
	char diff[160];
	const char *from = d->hist->base_from; /* a saved run's: "vs FILE step 2" */
	int na = 0;
	size_t used;

	snprintf(buf, len, "%s (last %.0f s | %.0f s)", name, value_span, spark_span);
	if (d->hist->base_on) {
		label_change(&d->hist->base_knobs, &d->k.applied, d->term.g->ascii, diff,
		             sizeof diff);
		snprintf(buf, len, "%s (last %.0f s | %.0f s)  now/base%s%.60s (%.100s)", name,
		         value_span, spark_span, *from ? " " : "", from,
		         *diff ? diff : "same knobs");
		if (paint_cols(buf, strlen(buf)) > w - 6) /* what changed matters more */
			snprintf(buf, len, "%s  now/base%s%.60s (%.100s)", name, *from ? " " : "",
			         from, *diff ? diff : "same knobs");
	}
	/* A checkpoint in the value window: its full-page images and writes are
	 * in the figures (checkpoint_in_window). */
	used = strlen(buf);
	if (history_value(d->hist, M_CHECKPOINT_IN_WINDOW, (int)lround(CKPT_SPAN / HIST_PERIOD),
	                  &na) > 0 &&
	    !na)
		snprintf(buf + used, len - used, "  CHECKPOINT in the last %.0f s",
		         CKPT_SPAN * d->feed->speed);
}

/* The ratio now/baseline at the cursor, right-aligned in c->ratio columns,
 * with a mark of better or worse by the metric's good direction (coloured,
 * and readable without colour). */
static void ratio(const struct dash *d, const struct cols *c, int m, double v, double full)
{
	char buf[32];
	int sense = history_ratio_text(d->hist, m, v, full, d->term.g->ascii, buf, sizeof buf);
	attr_t a = sense ? term_color(&d->term, sense > 0 ? C_SPARK : C_ERR) : 0;
	int pad;

	/* (no mark: a blank in its column, so the ratios stay aligned) */
	pad = c->ratio - paint_cols(buf, strlen(buf)) - !sense;
	printw("%*s", pad > 0 ? pad : 0, "");
	attron(A_BOLD | a);
	addstr(buf);
	addstr(sense ? "" : " ");
	attroff(A_BOLD | a);
}

/* How sparkline column j draws: in A/B, A's trace and B's (underlined: it
 * reads without colour too) in their colours, a transition dimmed; else
 * the sparklines' colour. */
static attr_t trace_attr(const struct dash *d, const struct cols *c, int j)
{
	double t0, t1;
	int side;

	if (d->ab.state != AB_RUNNING)
		return term_color(&d->term, C_SPARK);
	if (history_column_times(d->hist, c->spark, c->span, 0, j, &t0, &t1) < 0)
		return term_dim(&d->term);
	side = dash_ab_trace(d, t0, t1);
	return side == AB_A   ? term_color(&d->term, C_AB_A)
	       : side == AB_B ? term_color(&d->term, C_AB_B) | A_UNDERLINE
	                      : term_dim(&d->term);
}

/* One metric's row at line y from column x. */
static void metric_row(const struct dash *d, const struct cols *c, int m, int y, int x,
                       const int *marks)
{
	const struct glyphs *g = d->term.g;
	double vals[SPARK_MAX + 1], v, full;
	int na = 0, j, cells;
	char buf[64];

	v = measure(d, c, m, marks, vals, &na);
	full = vals[c->spark];
	if (!record_metric_applies(m, &d->k.applied))
		na = 1; /* HOT % while inserting: n/a, not "not settled" */
	history_format(m, v, na, buf, sizeof buf);
	mvprintw(y, x + 1, "%-*.*s", c->label, c->label, record_metric_label(m, &d->k.applied));
	attron(A_BOLD);
	printw("%*s", c->value, buf);
	attroff(A_BOLD);
	addstr(" ");
	cells = gauge_cells(v, full, c->gauge);
	attron(term_color(&d->term, C_GAUGE));
	paint_repeat(g->s[G_GAUGE], cells);
	paint_repeat(" ", c->gauge - cells);
	attroff(term_color(&d->term, C_GAUGE));
	/* The scale after the bar: a full bar, and the sparkline's top. */
	history_format_scale(m, full, buf, sizeof buf);
	printw(" %-*.*s", c->scale - 1, c->scale - 1, buf);
	if (d->hist->base_on)
		ratio(d, c, m, na ? NAN : v, full);
	if (!c->spark)
		return;
	addstr(" ");
	for (j = 0; j < c->spark; j++) {
		const char *s = spark_glyph(spark_level(vals[j], full), g->ascii);

		attr_t a = trace_attr(d, c, j);

		if (marks[j] >= 0) {
			attron(term_color(&d->term, C_MARK) | A_REVERSE);
			addstr(isnan(vals[j]) ? g->s[G_GAP_MARK] : s);
			attroff(term_color(&d->term, C_MARK) | A_REVERSE);
		} else {
			attron(a);
			addstr(s);
			attroff(a);
		}
	}
}

/* The reads' last line, from live.served ("idxlab_email:1.00
 * idxlab_name:0.00", each index's share of the queries since the knobs in
 * force came in): the indexes no query used first - what the line is
 * for, and what a narrow panel must not cut - then each other's share and
 * the queries no index served (a scan, the key); idxlab's own prefix
 * left off the names. Cut where a name ends. */
static void served_row(const struct dash *d, int y, int x, int w)
{
	const struct textfit fit = { .sep = ", ", .ellipsis = d->term.g->s[G_ELLIPSIS] };
	char copy[sizeof d->live->served], unused[512] = "", used[512] = "", text[1040];
	char shown[1040], *tok, *save = NULL;
	size_t nu = 0, ns = 0;
	double rest = 1;

	snprintf(copy, sizeof copy, "%s", d->live->served);
	for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char *colon = strrchr(tok, ':'), *name = tok;
		double share = colon ? strtod(colon + 1, NULL) : 0;

		if (colon)
			*colon = 0;
		if (strncmp(name, "idxlab_", 7) == 0 && name[7])
			name += 7;
		rest -= share;
		if (share <= 0 && nu < sizeof unused)
			nu += (size_t)snprintf(unused + nu, sizeof unused - nu, "%s%s",
			                       nu ? ", " : "", name);
		else if (share > 0 && ns < sizeof used)
			ns += (size_t)snprintf(used + ns, sizeof used - ns,
			                       share < 0.005 ? "%s%s <1 %%" : "%s%s %.0f %%",
			                       ns ? ", " : "", name, 100 * share);
	}
	if (!d->live->served[0]) {
		snprintf(text, sizeof text, "queries served: %s",
		         d->k.applied.v[K_INDEXES] ? "(none yet)" : "no index: scans, the key");
	} else {
		size_t n =
		    (size_t)snprintf(text, sizeof text, "%s%s%sserved: %s",
		                     nu ? "used by no query: " : "", unused, nu ? "; " : "", used);

		if (rest >= 0.005 && n < sizeof text) /* what no index served */
			snprintf(text + n, sizeof text - n, "%sscan or key %.0f %%", ns ? ", " : "",
			         100 * rest);
	}
	textfit(&fit, text, w, shown, sizeof shown);
	attron(term_color(&d->term, C_DIM));
	mvaddstr(y, x, shown);
	attroff(term_color(&d->term, C_DIM));
}

void panel_metrics(const struct dash *d, const struct rect *r)
{
	int marks[SPARK_MAX], ids[sizeof panel_metric_ids / sizeof panel_metric_ids[0]];
	int i, n = panel_metric_rows(d, ids);
	struct cols c;
	char buf[256];

	columns(d, r->w, &c);
	title(d, &c, r->w, buf, sizeof buf);
	paint_box(d->term.g, r, buf);
	history_series_marks(d->hist, c.spark, c.span, marks);
	for (i = 0; i < n && i < r->h - 2; i++)
		metric_row(d, &c, ids[i], r->y + 1 + i, r->x, marks);
	if (reading(d) && i < r->h - 2)
		served_row(d, r->y + 1 + i, r->x + 1, r->w - 3);
}
