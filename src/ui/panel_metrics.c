/* panel_metrics.c - the metrics panel: per metric a row of label, the value
 * over the last second, a gauge, the ratio to a pinned baseline, and a
 * sparkline of the last two minutes whose columns are highlighted where a
 * knob changed. The history computes every figure; this file only lays
 * them out and paints. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../metrics.h"
#include "paint.h"
#include "panels.h"
#include "spark.h"
#include "ui.h"

#define SPARK_MAX 256
#define CKPT_SPAN 10.0 /* seconds a checkpoint stays marked in the title */

const int panel_metric_ids[] = {
	M_ROWS_PER_S,
	M_COMMITS_PER_S,
	M_P50_MS,
	M_P99_MS,
	M_FSYNCS_PER_COMMIT,
	M_SPILLS_PER_ROW,
	M_MISSES_PER_ROW,
	M_WAL_BYTES_PER_ROW,
	M_WCHAR_PER_ROW,
	M_WRITE_BYTES_PER_ROW,
	M_DB_WRITE_BYTES_PER_ROW,
	M_CACHE_BYTES,
	M_CACHE_DIRTY_PCT,
	M_INDEX_BYTES,
	M_DB_BYTES,
};
const int panel_nmetrics = (int)(sizeof panel_metric_ids / sizeof panel_metric_ids[0]);

/* The columns of a row. */
struct cols {
	int label, value, gauge, ratio, spark;
	int per_col; /* samples per sparkline column */
};

static int is_pct(int m)
{
	return metric_table[m].kind == MK_PCT || metric_table[m].kind == MK_GAUGE_PCT;
}

static void title(const struct dash *d, const struct cols *c, int w, char *buf, size_t len)
{
	/* The spans in seconds of the figures' own clock (a fast replay's). */
	double value_span = HIST_VALUE_SPAN * d->feed->speed;
	double spark_span = c->per_col * HIST_PERIOD * c->spark * d->feed->speed;
	char diff[160];

	int na = 0;
	size_t used;

	snprintf(buf, len, "metrics (last %.0f s | %.0f s)", value_span, spark_span);
	if (d->hist->base_on) {
		dash_change_label(&d->hist->base_knobs, &d->k.applied, d->term.g->ascii, diff,
		                  sizeof diff);
		snprintf(buf, len, "metrics (last %.0f s | %.0f s)  now/base (%s)", value_span,
		         spark_span, *diff ? diff : "same knobs");
		if (paint_cols(buf, strlen(buf)) > w - 6) /* what changed matters more */
			snprintf(buf, len, "metrics  now/base (%s)", *diff ? diff : "same knobs");
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

/* One metric's row at line y from column x. */
static void metric_row(const struct dash *d, const struct cols *c, int m, int y, int x,
                       const int *marks)
{
	const struct glyphs *g = d->term.g;
	double vals[SPARK_MAX], v, max = 0;
	int na = 0, j, cells;
	char buf[64];

	v = history_value(d->hist, m, (int)lround(HIST_VALUE_SPAN / HIST_PERIOD), &na);
	history_series(d->hist, m, c->spark, c->per_col, vals);
	for (j = 0; j < c->spark; j++)
		if (!isnan(vals[j]) && vals[j] > max)
			max = vals[j];
	if (!isnan(v) && v > max)
		max = v;
	/* Percentages have a scale of their own. */
	max = is_pct(m) ? 100 : spark_nice(max);
	history_format(m, v, na, buf, sizeof buf);
	mvprintw(y, x + 1, "%-*.*s", c->label, c->label, metric_table[m].label);
	attron(A_BOLD);
	mvprintw(y, x + 1 + c->label, "%*s", c->value, buf);
	attroff(A_BOLD);
	move(y, x + 2 + c->label + c->value);
	cells = gauge_cells(v, max, c->gauge);
	attron(term_color(&d->term, C_GAUGE));
	paint_repeat(g->s[G_GAUGE], cells);
	paint_repeat(" ", c->gauge - cells);
	attroff(term_color(&d->term, C_GAUGE));
	if (d->hist->base_on) {
		dash_format_ratio(na ? NAN : v, d->hist->base[m], buf, sizeof buf);
		attron(A_BOLD);
		mvprintw(y, x + 2 + c->label + c->value + c->gauge, "%*s", c->ratio, buf);
		attroff(A_BOLD);
	}
	move(y, x + 3 + c->label + c->value + c->gauge + c->ratio);
	for (j = 0; j < c->spark; j++) {
		const char *s = spark_glyph(spark_level(vals[j], max), g->ascii);

		if (marks[j]) {
			attron(term_color(&d->term, C_MARK) | A_REVERSE);
			addstr(isnan(vals[j]) ? g->s[G_GAP_MARK] : s);
			attroff(term_color(&d->term, C_MARK) | A_REVERSE);
		} else {
			attron(term_color(&d->term, C_SPARK));
			addstr(s);
			attroff(term_color(&d->term, C_SPARK));
		}
	}
}

void panel_metrics(const struct dash *d, const struct rect *r)
{
	struct cols c = { .label = 13, .value = 9, .gauge = 8, .ratio = d->hist->base_on ? 7 : 0 };
	int marks[SPARK_MAX], i;
	char buf[256];

	c.spark = r->w - 2 - c.label - c.value - c.gauge - c.ratio - 3;
	if (c.spark > SPARK_MAX)
		c.spark = SPARK_MAX;
	if (c.spark < 4)
		c.spark = 4;
	c.per_col = (int)ceil(HIST_SPARK_SPAN / HIST_PERIOD / c.spark);
	title(d, &c, r->w, buf, sizeof buf);
	paint_box(d->term.g, r, buf);
	history_series_marks(d->hist, c.spark, c.per_col, marks);
	for (i = 0; i < panel_nmetrics && i < r->h - 2; i++)
		metric_row(d, &c, panel_metric_ids[i], r->y + 1 + i, r->x, marks);
}
