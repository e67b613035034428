/* history.c - the cases of src/ui/history.c: the dashboard's history without a
 * screen: samples, rates, baselines, scales and their labels, rewinding. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "knobs.h"
#include "metrics.h"
#include "ui/history.h"
#include "ui/spark.h"
#include "unit.h"

/* The dashboard's history without a screen: samples kept one period
 * apart, rates between them, a baseline refused too soon after a change
 * and pinned after a second, a reset keeping only the latest. */
static void test_history(void)
{
	struct history *h = history_new();
	struct live *l = calloc(1, sizeof *l);
	struct knobs k;
	double span = 0;
	int i, na = 1;

	knobs_defaults(&k);
	CHECK(l && history_at(h, 0) == NULL);
	for (i = 0; i < 12; i++) {
		l->gen = (unsigned long)i + 1;
		l->c.t = 100 + i * HIST_PERIOD;
		l->c.v[C_ROWS] = (uint64_t)i * 1000;
		l->c.valid = 1u << C_ROWS;
		CHECK(history_offer(h, l, l->c.t) == 0);
		CHECK(history_offer(h, l, l->c.t + 0.01) == 0); /* too soon: not kept */
	}
	CHECK(h->n == 12 && history_at(h, 0)->c.t == 100 + 11 * HIST_PERIOD);
	CHECK(fabs(history_value(h, M_ROWS_PER_S, 4, &na) - 4000) < 1e-6 && na == 0);
	history_mark(h, 100 + 10 * HIST_PERIOD, K_INDEXES, "+1 idx");
	CHECK(history_marked(h, 100 + 9 * HIST_PERIOD, 100 + 10 * HIST_PERIOD));
	CHECK(!history_marked(h, 100 + 10 * HIST_PERIOD, 100 + 11 * HIST_PERIOD));
	CHECK(history_pin(h, &k, 1, &span) < 0 && !h->base_on); /* a change 1 sample ago */
	h->nmarkers = 0;
	CHECK(history_pin(h, &k, 1, &span) == 0 && h->base_on);
	CHECK(fabs(h->base[M_ROWS_PER_S] - 4000) < 1e-6 && fabs(span - 11 * HIST_PERIOD) < 1e-9);
	history_reset(h);
	CHECK(h->n == 1 && h->nmarkers == 0 && history_at(h, 0)->c.v[C_ROWS] == 11000);
	free(l);
	history_free(h);
}

/* A chart's time axis covers what was seen: 5 s of samples draw on a 30-s
 * axis (the right sixth of the columns, the rest unknown), 60 s fill every
 * column, 200 s stop at the window; each knob change marks exactly one
 * column, the one its time falls in, and the series' last column is the
 * latest interval. */
static void test_series_span(void)
{
	struct history *h = history_new();
	struct live *l = calloc(1, sizeof *l);
	double vals[60];
	int marks[60], i, j, known, marked;

	CHECK(l != NULL);
	for (i = 0; i < 800; i++) {
		l->gen = (unsigned long)i + 1;
		l->c.t = 100 + i * HIST_PERIOD;
		l->c.v[C_ROWS] = (uint64_t)i * 1000; /* 4000 rows/s */
		l->c.valid = 1u << C_ROWS;
		history_offer(h, l, l->c.t);
		if (i == 20) { /* 5 s */
			CHECK(history_span(h, 480) == 120);
			history_series(h, M_ROWS_PER_S, 60, history_span(h, 480), vals);
			for (j = 0, known = 0; j < 60; j++)
				known += !isnan(vals[j]);
			CHECK(known == 10 && !isnan(vals[59]) && isnan(vals[49]));
		}
		if (i == 240) { /* 60 s: every column, at 4000 rows/s */
			CHECK(history_span(h, 480) == 240);
			history_mark(h, 100 + 230.5 * HIST_PERIOD, K_INDEXES, "+1 idx");
			history_series(h, M_ROWS_PER_S, 60, history_span(h, 480), vals);
			history_series_marks(h, 60, history_span(h, 480), marks);
			for (j = 0, known = 0, marked = 0; j < 60; j++) {
				known += fabs(vals[j] - 4000) < 1e-6;
				marked += marks[j] >= 0;
			}
			/* 230.5 is 9.5 samples back, 4 a column: column 57 */
			CHECK(known == 60 && marked == 1 && marks[57] == 0);
			/* 150 columns over 240 samples (1.6 a column): still one */
			{
				double v150[150];
				int m150[150];

				history_series(h, M_ROWS_PER_S, 150, 240, v150);
				history_series_marks(h, 150, 240, m150);
				for (j = 0, known = 0, marked = 0; j < 150; j++) {
					known += fabs(v150[j] - 4000) < 1e-6;
					marked += m150[j] >= 0;
				}
				CHECK(known == 150 && marked == 1 && m150[144] == 0);
			}
		}
	}
	CHECK(history_span(h, 480) == 480 && history_span(h, HIST_CAP - 1) == HIST_CAP - 1);
	history_rewind(h);
	CHECK(history_span(h, 480) == 120);
	free(l);
	history_free(h);
}

/* A scale never shrinks while a value that needed it is in the window:
 * rows/s driven up (40k/s for 2 s) then down (4k/s); the full scale stays
 * 50k until the peak's samples left the window, then drops to 5k. A pinned
 * scale stays where it was pinned whatever comes. */
static void test_scale(void)
{
	struct history *h = history_new();
	struct live *l = calloc(1, sizeof *l);
	int i, back = (int)(HIST_SPARK_SPAN / HIST_PERIOD), shrank_early = 0, peak_end = 0;
	double full = 0, pinned[M_COUNT] = { 0 };
	uint64_t rows = 0;

	CHECK(l != NULL);
	for (i = 0; i < 700; i++) {
		double now;

		rows += i >= 20 && i < 28 ? 10000 : 1000;
		l->gen = (unsigned long)i + 1;
		l->c.t = 100 + i * HIST_PERIOD;
		l->c.v[C_ROWS] = rows;
		l->c.valid = 1u << C_ROWS;
		history_offer(h, l, l->c.t);
		now = history_full_scale(h, M_ROWS_PER_S, back, 0);
		if (i == 27)
			peak_end = i;
		/* while the last peak sample (27) is within the window */
		if (i > 27 && i <= 27 + back && now < full)
			shrank_early = 1;
		if (i == 27 + back)
			CHECK(now == 50000); /* still in the window */
		if (i == 31 + back + 1)
			CHECK(now == 5000); /* the 1 s values holding the peak scrolled out */
		full = now;
	}
	CHECK(peak_end == 27 && !shrank_early && full == 5000);
	/* the figures drawn with it (a sparkline's columns) count too */
	CHECK(history_full_scale(h, M_ROWS_PER_S, back, 12345) == 20000);
	/* a percentage: always 0..100 */
	CHECK(history_full_scale(h, M_HOT_PCT, back, 3) == 100);
	/* pinned: the scale stays put while the rate goes up tenfold */
	pinned[M_ROWS_PER_S] = 5000;
	history_pin_scales(h, pinned);
	for (i = 0; i < 8; i++) {
		rows += 10000;
		l->gen++;
		l->c.t += HIST_PERIOD;
		l->c.v[C_ROWS] = rows;
		history_offer(h, l, l->c.t);
	}
	CHECK(h->scales_pinned && history_full_scale(h, M_ROWS_PER_S, back, 40000) == 5000);
	history_unpin_scales(h);
	CHECK(history_full_scale(h, M_ROWS_PER_S, back, 0) == 50000);
	/* bytes step in binary: 83 MiB on a 100 MiB scale, 700 KiB on 1 MiB */
	CHECK(spark_nice_bytes(83.0 * 1048576) == 100.0 * 1048576);
	CHECK(spark_nice_bytes(700.0 * 1024) == 1048576 && spark_nice_bytes(0) == 0);
	free(l);
	history_free(h);
}

/* A scale's label in the metric's unit, at most 6 columns; ratios marked
 * by the metric's good direction. */
static void test_scale_labels(void)
{
	static const struct {
		int m;
		double full;
		const char *text;
	} labels[] = {
		{ M_ROWS_PER_S, 500000, "500k" },
		{ M_FSYNCS_PER_COMMIT, 5, "5" },
		{ M_MISSES_PER_ROW, 0.002, "0.002" },
		{ M_DB_BYTES, 100.0 * 1048576, "100MiB" },
		{ M_WAL_BYTES_PER_ROW, 500, "500B" },
		{ M_P99_MS, 20, "20ms" },
		{ M_P50_MS, 0.5, "500us" },
		{ M_HOT_PCT, 100, "100%" },
		{ M_CACHE_BYTES, 2.0 * 1048576, "2MiB" },
		{ M_ROWS_PER_S, 0, "" },
		/* under a byte a row (SQLite's wal B/row): not "0B" */
		{ M_WAL_BYTES_PER_ROW, 0.5, "0.5B" },
		{ M_WAL_BYTES_PER_ROW, 0.05, "0.05B" },
	};
	char buf[32];
	size_t i;

	for (i = 0; i < sizeof labels / sizeof labels[0]; i++) {
		history_format_scale(labels[i].m, labels[i].full, buf, sizeof buf);
		if (strcmp(buf, labels[i].text) != 0)
			printf("  scale %g of %s: '%s', want '%s'\n", labels[i].full,
			       metric_table[labels[i].m].field, buf, labels[i].text);
		CHECK(strcmp(buf, labels[i].text) == 0 && strlen(buf) <= 6);
	}
	/* a value under a ten-thousandth a row is small, not none */
	history_format(M_MISSES_PER_ROW, 0.00003, 0, buf, sizeof buf);
	CHECK(strcmp(buf, "<0.0001") == 0);
	history_format(M_MISSES_PER_ROW, 0.0003, 0, buf, sizeof buf);
	CHECK(strcmp(buf, "0.0003") == 0);
	history_format(M_MISSES_PER_ROW, 0, 0, buf, sizeof buf);
	CHECK(strcmp(buf, "0") == 0);
	/* the good direction: rows/s 0.26x is worse, p99 0.26x better */
	CHECK(history_ratio_sense(M_ROWS_PER_S, 26, 100, 0) == -1);
	CHECK(history_ratio_sense(M_P99_MS, 26, 100, 0) == 1);
	CHECK(history_ratio_sense(M_ROWS_PER_S, 300, 100, 0) == 1);
	CHECK(history_ratio_sense(M_P99_MS, 300, 100, 0) == -1);
	CHECK(history_ratio_sense(M_ROWS_PER_S, 105, 100, 0) == 0); /* within 10 %: noise */
	CHECK(history_ratio_sense(M_DB_BYTES, 300, 100, 0) == 0);   /* no good direction */
	CHECK(history_ratio_sense(M_MISSES_PER_ROW, 1.76, 0.00001, 0.002) == -1); /* from ~0 */
	CHECK(history_ratio_sense(M_HOT_PCT, 90, 0, 0) == 1);
	CHECK(history_ratio_sense(M_P99_MS, NAN, 3, 0) == 0);
	/* every metric the dashboard shows has a good direction or is a size/gauge */
	CHECK(metric_table[M_HOT_PCT].better == BETTER_HIGHER &&
	      metric_table[M_FPI_BYTES_PER_ROW].better == BETTER_LOWER &&
	      metric_table[M_CACHE_BYTES].better == BETTER_NONE);
}

/* history_rewind forgets all, and takes samples again from nothing. */
static void test_history_rewind(void)
{
	struct history *h = history_new();
	struct live *l = calloc(1, sizeof *l);
	struct knobs k;
	double span;
	int i;

	if (!l) {
		CHECK(0);
		history_free(h);
		return;
	}
	knobs_defaults(&k);
	l->gen = 1;
	l->c.valid = 1u << C_ROWS;
	for (i = 0; i < 12; i++) {
		l->c.t = i * HIST_PERIOD;
		l->c.v[C_ROWS] = (uint64_t)i * 1000;
		history_offer(h, l, 1000 + i * HIST_PERIOD); /* exactly one period apart */
	}
	CHECK(h->n == 12);
	history_mark(h, 0.5, K_INDEXES, "+1 idx");
	CHECK(history_pin(h, &k, 1, &span) == 0 && h->base_on);
	history_rewind(h);
	CHECK(h->n == 0 && h->nmarkers == 0 && !h->base_on && history_at(h, 0) == NULL);
	history_offer(h, l, 5); /* an earlier time than before: a replay's catch-up */
	CHECK(h->n == 1 && history_at(h, 0)->c.v[C_ROWS] == 11000);
	free(l);
	history_free(h);
}

/* Light samples (the dashboard's between two readings of the engine's
 * statistics, live.full): rows/s comes from the light ones, an engine's
 * figure from the full readings at or before the window's ends - never
 * from a light sample's rows against an older reading's bytes, never n/a.
 * Readings every 8 samples (2 s); 4000 rows/s throughout; 100 WAL bytes a
 * row up to the second reading, 300 after. */
static void test_history_light(void)
{
	struct history *h = history_new();
	struct live *l = calloc(1, sizeof *l);
	double vals[8];
	uint64_t wal = 0;
	int i, j, na = 1;

	CHECK(l != NULL);
	for (i = 0; i <= 20; i++) {
		uint64_t rows = (uint64_t)i * 1000;

		l->gen = (unsigned long)i + 1;
		l->c.t = 100 + i * HIST_PERIOD;
		l->c.v[C_ROWS] = rows;
		l->c.valid = 1u << C_ROWS;
		if (i > 0)
			wal += (i <= 8 ? 100 : 300) * 1000;
		if (i % 8 == 0) { /* a reading: c is full */
			l->c.v[C_WAL_BYTES] = wal;
			l->c.valid |= 1u << C_WAL_BYTES;
			l->full = l->c;
		}
		history_offer(h, l, l->c.t);
		if (i == 4) /* no second reading yet: unknown, not a guess */
			CHECK(isnan(history_value(h, M_WAL_BYTES_PER_ROW, 4, &na)) && na);
	}
	CHECK(fabs(history_value(h, M_ROWS_PER_S, 4, &na) - 4000) < 1e-6 && !na);
	/* the latest (20) reads 16's reading, as does 16: back to 8's */
	CHECK(fabs(history_value(h, M_WAL_BYTES_PER_ROW, 4, &na) - 300) < 1e-9 && !na);
	/* over the last 5 s: readings 0 and 16, 8000 rows at 100 and 300 */
	CHECK(fabs(history_value(h, M_WAL_BYTES_PER_ROW, 20, &na) - 200) < 1e-9 && !na);
	/* the last 4 s in 8 columns: the first has no reading before it (the
	 * first was at its end), the others read 100 up to reading 8's, 300
	 * after */
	history_series(h, M_WAL_BYTES_PER_ROW, 8, 16, vals);
	CHECK(isnan(vals[0]));
	for (j = 1; j < 8; j++)
		CHECK(vals[j] == (j < 5 ? 100 : 300));
	free(l);
	history_free(h);
}

const struct unit_case unit_ui_history[] = {
	{ "unit/history", test_history },
	{ "unit/scale-grow-only", test_scale },
	{ "unit/series-span", test_series_span },
	{ "unit/scale-labels-ratio-sense", test_scale_labels },
	{ "unit/history-rewind", test_history_rewind },
	{ "unit/history-light-samples", test_history_light },
	{ NULL, NULL },
};
