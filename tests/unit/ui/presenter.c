/* presenter.c - the cases of src/ui/presenter.c: the pure parts of the
 * presenter view: the block font, the layouts with hidden panels and the
 * presenter view, --presenter-metrics, the theme COLORFGBG picks. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "demo.h"
#include "knobs.h"
#include "metrics.h"
#include "recording.h"
#include "ui/glyphs.h"
#include "ui/history.h"
#include "ui/layout.h"
#include "ui/term.h"
#include "unit.h"

/* history_offer() one sample at t with rows committed so far (and spills). */
static void offer(struct history *h, struct live *l, double t, uint64_t rows, uint64_t spills)
{
	l->gen++;
	l->c.t = t;
	l->c.v[C_ROWS] = rows;
	l->c.v[C_COMMITS] = rows / 100000; /* commit = 100000 */
	l->c.v[C_SPILLS] = spills;
	l->c.valid = 1u << C_ROWS | 1u << C_COMMITS | 1u << C_SPILLS;
	history_offer(h, l, t);
}

/* A pin waits until its window holds a committed row: big transactions on
 * a busy machine (commit = 100000) leave seconds without one, and a
 * baseline pinned then would read '-' for every ratio for good. */
static void pin_needs_a_commit(void)
{
	struct history *h = history_new();
	struct live *l = calloc(1, sizeof *l);
	struct knobs k;
	double span = 0, t = 100;
	int i;

	CHECK(l != NULL);
	knobs_defaults(&k);
	k.v[K_COMMIT] = 100000;
	for (i = 0; i < 12; i++, t += HIST_PERIOD)
		offer(h, l, t, 100000, 500); /* one commit before, none since */
	CHECK(history_pin(h, &k, 1, &span) == HIST_PIN_EMPTY && !h->base_on);
	for (i = 0; i < 4; i++, t += HIST_PERIOD)
		offer(h, l, t, 150000 + (uint64_t)i, 500); /* rows done, none committed */
	CHECK(history_pin(h, &k, 1, &span) == HIST_PIN_EMPTY && !h->base_on);
	k.v[K_COMMIT] = COMMIT_ALL; /* no commit will come: rows are enough */
	CHECK(history_pin(h, &k, 1, &span) == 0 && h->base_on);
	history_unpin(h);
	k.v[K_COMMIT] = 100000;
	history_mark(h, t - HIST_PERIOD / 2, K_INDEXES, "+1 idx");
	offer(h, l, t, 150003, 500);
	t += HIST_PERIOD;
	CHECK(history_pin(h, &k, 1, &span) == HIST_PIN_TOO_SOON && !h->base_on);
	for (i = 0; i < 6; i++, t += HIST_PERIOD)
		offer(h, l, t, 150003, 500);
	CHECK(history_pin(h, &k, 1, &span) == HIST_PIN_EMPTY && !h->base_on);
	offer(h, l, t, 250003, 900); /* the next commit */
	t += HIST_PERIOD;
	CHECK(history_pin(h, &k, 1, &span) == 0 && h->base_on && h->base[M_ROWS_PER_S] > 0 &&
	      fabs(h->base[M_SPILLS_PER_ROW] - 0.004) < 1e-9);
	free(l);
	history_free(h);
}

/* full scale of spill/row as the metrics panel draws it: a 60-column
 * sparkline over the spark window, the value column, the window's values */
static double spill_scale(const struct history *h)
{
	int back = (int)(HIST_SPARK_SPAN / HIST_PERIOD), marks[60], na;
	double vals[60], span = history_span(h, back);
	double v = history_value(h, M_SPILLS_PER_ROW, (int)(HIST_VALUE_SPAN / HIST_PERIOD), &na);

	history_series(h, M_SPILLS_PER_ROW, 60, span, vals);
	history_series_marks(h, 60, span, marks);
	return history_full_scale(h, M_SPILLS_PER_ROW, back,
	                          history_drawn_max(h, v, vals, marks, 60));
}

/* A knob change's own transition stays out of every scale: an index build
 * spills 400000 pages over a quarter second of 10 rows (133 spill/row in the
 * second after it) between steady seconds of 1 spill/row; the scale stays 1
 * then and after (its gauge is full for that second), where a spike with no
 * change in its window still holds the scale while it is in the window. */
static void change_out_of_scale(void)
{
	struct history *h = history_new();
	struct live *l = calloc(1, sizeof *l);
	uint64_t rows = 0, spills = 0;
	double t = 100, during = 0, after = 0, plain = 0;
	int i;

	CHECK(l != NULL);
	for (i = 0; i < 120; i++, t += HIST_PERIOD) {
		if (i == 41) {
			history_mark(h, t - HIST_PERIOD / 2, K_INDEXES, "+1 idx");
			rows += 10;
			spills += 400000;
		} else {
			rows += 1000;
			spills += 1000;
		}
		offer(h, l, t, rows, spills);
		if (i == 42)
			during = spill_scale(h);
	}
	after = spill_scale(h);
	CHECK(during == 1 && after == 1);
	CHECK(history_at(h, 78)->change && history_at(h, 77)->change && !history_at(h, 82)->change);
	/* the same spike with no change: held while in the window */
	for (i = 0; i < 4; i++, t += HIST_PERIOD) {
		rows += i ? 1000 : 10;
		spills += i ? 1000 : 400000;
		offer(h, l, t, rows, spills);
	}
	for (i = 0; i < 40; i++, t += HIST_PERIOD) {
		rows += 1000;
		spills += 1000;
		offer(h, l, t, rows, spills);
	}
	plain = spill_scale(h);
	CHECK(plain >= 100);
	/* a replay's marker among samples already kept flags them too */
	history_mark(h, t - 2.5 * HIST_PERIOD, K_CACHE, "cache");
	CHECK(history_at(h, 0)->change && history_at(h, 1)->change && !history_at(h, 2)->change);
	free(l);
	history_free(h);
}

/* The chart draws trailing means: rows that come in bursts (a commit of
 * 8000 rows every 2 s, nothing between) chart flat at 4000/s over two
 * commits' time, where the raw columns are a comb of spikes and zeros. */
static void chart_means(void)
{
	struct history *h = history_new();
	struct live *l = calloc(1, sizeof *l);
	double vals[100], mean;
	int i, zeros = 0, flat = 0, known = 0;

	CHECK(l != NULL);
	for (i = 0; i < 200; i++) {
		l->gen++;
		l->c.t = 100 + i * HIST_PERIOD;
		if (i && i % 8 == 0) {
			l->c.v[C_ROWS] += 8000;
			l->c.v[C_COMMITS]++;
		}
		l->c.valid = 1u << C_ROWS | 1u << C_COMMITS;
		history_offer(h, l, l->c.t);
	}
	history_series(h, M_ROWS_PER_S, 100, 199, vals);
	for (i = 0; i < 100; i++)
		zeros += vals[i] == 0;
	CHECK(zeros > 30); /* the comb */
	mean = history_chart_mean(h, 199);
	CHECK(mean >= 16 && mean <= 18); /* 2 commits' time: about 4 s */
	history_series_mean(h, M_ROWS_PER_S, 100, 199, mean, vals, NULL);
	for (i = 0; i < 100; i++) {
		known += !isnan(vals[i]);
		flat += vals[i] > 4000 / 1.5 && vals[i] < 4000 * 1.5;
	}
	/* (the first columns, before a whole mean's time: unknown) */
	CHECK(known >= 90 && flat == known && isnan(vals[0]));
	/* a history too short to hold two commits: 2 s means */
	history_rewind(h);
	for (i = 0; i < 20; i++) {
		l->gen++;
		l->c.t += HIST_PERIOD;
		l->c.v[C_ROWS] += 100;
		history_offer(h, l, l->c.t);
	}
	CHECK(history_chart_mean(h, 19) == HIST_CHART_MEAN / HIST_PERIOD);
	free(l);
	history_free(h);
}

static void test_presenter(void)
{
	static const char digits[] = "0123456789.-kMG<";
	struct layout l;
	struct layout_view v = { 0, 0, 0 };
	struct err e = { ERR_NONE, "" };
	long long packed;
	char small[32];
	const char *c;
	int i, r;

	/* The font: every digit, all rows as wide as the first. */
	for (i = 0; digits[i]; i++)
		for (r = 0; r < GLYPHS_FONT_H; r++)
			CHECK(glyphs_font_row(digits[i], r) &&
			      strlen(glyphs_font_row(digits[i], r)) ==
			          strlen(glyphs_font_row(digits[i], 0)));
	CHECK(glyphs_font_row('q', 0) == NULL && glyphs_font_row('0', GLYPHS_FONT_H) == NULL);
	/* a figure too small for four decimals is drawn whole, "<0.0001" */
	history_format(M_SPILLS_PER_ROW, 0.00002, 0, small, sizeof small);
	for (c = small; *c && glyphs_font_row((unsigned char)*c, 0); c++)
		;
	CHECK(strcmp(small, "<0.0001") == 0 && *c == 0);
	CHECK(strcmp(glyphs_for(1)->s[G_BLOCK], "#") == 0);

	/* Hidden panels give their room away. */
	v.hide = LAYOUT_HIDE_KNOBS;
	layout_compute_view(&l, 100, 30, 15, 15, &v);
	CHECK(l.knobs.w == 0 && l.metrics.x == 0 && l.metrics.w == 100 &&
	      layout_knob_row(&l, 2) == -1);
	v.hide = LAYOUT_HIDE_KNOBS | LAYOUT_HIDE_METRICS;
	layout_compute_view(&l, 100, 30, 15, 15, &v);
	CHECK(l.metrics.w == 0 && l.events_on && l.events.y == 2 && l.events.h == 27);
	v.hide = LAYOUT_HIDE_EVENTS;
	layout_compute_view(&l, 100, 30, 15, 15, &v);
	CHECK(!l.events_on && l.metrics.h == 27 && l.status.y == 28);
	/* A caption has a line of its own, under the status. */
	v.hide = 0;
	v.caption = 1;
	layout_compute_view(&l, 100, 30, 15, 15, &v);
	CHECK(l.caption.h == 1 && l.caption.y == l.status.y + 1 && l.events.y == l.caption.y + 1);
	/* A big terminal's normal view: the events box stops at 10 lines, a
	 * chart takes the rest (above it); 80x24 and 100x30 as they were. */
	v.caption = 0;
	layout_compute_view(&l, 80, 24, 16, 14, &v);
	CHECK(l.chart.h == 0 && l.events.y == 20 && l.events.h == 3);
	layout_compute_view(&l, 100, 30, 16, 14, &v);
	CHECK(l.chart.h == 0 && l.events.h == 9);
	layout_compute_view(&l, 160, 45, 16, 14, &v);
	CHECK(l.chart.h == 12 && l.chart.y == l.status.y + 1 && l.chart.w == 160 &&
	      l.events.y == l.chart.y + l.chart.h && l.events.h == 12 &&
	      l.events.y + l.events.h == l.hints.y);
	layout_compute_view(&l, 200, 55, 16, 14, &v);
	CHECK(l.chart.h == 22 && l.events.h == 12);
	v.hide = LAYOUT_HIDE_METRICS; /* the chart is the metrics' */
	layout_compute_view(&l, 160, 45, 16, 14, &v);
	CHECK(l.chart.h == 0 && l.events.h == 24);
	v.hide = 0;
	v.caption = 1;
	/* The presenter view: digits as tall as the screen allows, the caption
	 * in two lines, nothing of the normal view's boxes. */
	v.presenter = 1;
	layout_compute_view(&l, 80, 24, 15, 15, &v);
	CHECK(l.presenter && l.digit_rows == 3 && l.chart.h >= 10 && l.caption.h == 2 &&
	      l.knobs.w == 0 && !l.events_on && l.hints.y == 23);
	layout_compute_view(&l, 100, 30, 15, 15, &v);
	CHECK(l.digit_rows == 5);
	layout_compute_view(&l, 160, 45, 15, 15, &v);
	CHECK(l.digit_rows == 10 && l.chart.h >= 25 && l.chart.y + l.chart.h == l.caption.y);

	/* --presenter-metrics: field names, at most three; auto is 0. */
	CHECK(knob_parse(K_PRESENTER_METRICS, "rows_per_s,wal_bytes_per_row", &packed, &e) == 0);
	CHECK(knobs_presenter_metric(packed, 0) == M_ROWS_PER_S &&
	      knobs_presenter_metric(packed, 1) == M_WAL_BYTES_PER_ROW &&
	      knobs_presenter_metric(packed, 2) == -1);
	CHECK(knob_parse(K_PRESENTER_METRICS, "auto", &packed, &e) == 0 && packed == 0);
	CHECK(knob_parse(K_PRESENTER_METRICS, "rows_per_s,nope", &packed, &e) < 0 &&
	      strstr(e.msg, "'nope' is not a metric"));
	CHECK(knob_parse(K_PRESENTER_METRICS, "p50_ms,p99_ms,max_ms,rows_per_s", &packed, &e) < 0 &&
	      strstr(e.msg, "at most 3"));

	/* COLORFGBG: the last field is the background. */
	CHECK(term_auto_theme(NULL) == THEME_DARK && term_auto_theme("15;0") == THEME_DARK &&
	      term_auto_theme("0;15") == THEME_LIGHT &&
	      term_auto_theme("0;default;7") == THEME_LIGHT);
	pin_needs_a_commit();
	change_out_of_scale();
	chart_means();
}

const struct unit_case unit_ui_presenter[] = {
	{ "unit/presenter", test_presenter },
	{ NULL, NULL },
};
