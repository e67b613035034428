/* metrics.c - the cases of src/metrics.c: the metrics of a window and the
 * latency histogram. */
#include <math.h>
#include <string.h>

#include "metrics.h"
#include "unit.h"

static void test_metrics(void)
{
	struct counters a, b;
	struct hist h;
	static struct lats l;
	struct window w = { &a, &b, &l, NULL };
	struct mval v;

	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	memset(&h, 0, sizeof h);
	v = metrics_ratio(10, 0);
	CHECK(v.state == MV_UNSETTLED);
	v = metrics_ratio(10, 4);
	CHECK(v.state == MV_OK && v.v == 2.5);
	a.valid = b.valid = (1u << C_ROWS) | (1u << C_COMMITS) | (1u << C_FSYNCS);
	a.t = 10;
	b.t = 12;
	b.v[C_ROWS] = 1000;
	b.v[C_FSYNCS] = 40;
	/* No commit in the window: per-commit figures are not settled, never 0. */
	v = metric_compute(M_FSYNCS_PER_COMMIT, &w);
	CHECK(v.state == MV_UNSETTLED);
	v = metric_compute(M_P50_MS, &w);
	CHECK(v.state == MV_UNSETTLED);
	/* A query's latency and a commit's are each their own (a mix has both). */
	a.valid |= 1u << C_READS;
	b.valid |= 1u << C_READS;
	hist_add(&l.query, 2000000); /* 2 ms */
	v = metric_compute(M_P50_MS, &w);
	CHECK(v.state == MV_UNSETTLED);
	v = metric_compute(M_READ_P50_MS, &w);
	CHECK(v.state == MV_OK && fabs(v.v - 2.0) <= 2.0 * 0.0625);
	v = metric_compute(M_READ_MAX_MS, &w);
	CHECK(v.state == MV_OK && v.v == 2.0);
	hist_add(&l.commit, 8000000);
	v = metric_compute(M_MAX_MS, &w);
	CHECK(v.state == MV_OK && v.v == 8.0);
	v = metric_compute(M_READ_MAX_MS, &w);
	CHECK(v.state == MV_OK && v.v == 2.0);
	memset(&l, 0, sizeof l);
	b.v[C_COMMITS] = 10;
	v = metric_compute(M_FSYNCS_PER_COMMIT, &w);
	CHECK(v.state == MV_OK && v.v == 4.0);
	v = metric_compute(M_ROWS_PER_S, &w);
	CHECK(v.state == MV_OK && v.v == 500.0);
	/* Not measured: n/a, never 0. */
	v = metric_compute(M_SPILLS_PER_ROW, &w);
	CHECK(v.state == MV_NA);
	v = metric_compute(M_DB_BYTES, &w);
	CHECK(v.state == MV_NA);
	/* A zero-length window. */
	b.t = a.t;
	v = metric_compute(M_ROWS_PER_S, &w);
	CHECK(v.state == MV_UNSETTLED);
	/* No rows: per-row is unsettled. */
	b.v[C_ROWS] = 0;
	b.valid |= 1u << C_SPILLS;
	a.valid |= 1u << C_SPILLS;
	v = metric_compute(M_SPILLS_PER_ROW, &w);
	CHECK(v.state == MV_UNSETTLED);
	/* Gauges: the later sample's value, not a difference; a share needs its
	 * denominator measured, and one of 0 is not settled. */
	a.v[C_CACHE_USED] = 900;
	b.v[C_CACHE_USED] = 300;
	b.v[C_CACHE_DIRTY] = 75;
	a.valid |= 1u << C_CACHE_USED | 1u << C_CACHE_DIRTY;
	b.valid |= 1u << C_CACHE_USED | 1u << C_CACHE_DIRTY;
	v = metric_compute(M_CACHE_BYTES, &w);
	CHECK(v.state == MV_OK && v.v == 300);
	v = metric_compute(M_CACHE_DIRTY_PCT, &w);
	CHECK(v.state == MV_NA);
	a.valid |= 1u << C_CACHE_MAX;
	b.valid |= 1u << C_CACHE_MAX;
	v = metric_compute(M_CACHE_DIRTY_PCT, &w);
	CHECK(v.state == MV_UNSETTLED);
	b.v[C_CACHE_MAX] = 1000;
	v = metric_compute(M_CACHE_DIRTY_PCT, &w);
	CHECK(v.state == MV_OK && v.v == 7.5);
}

static void test_hist(void)
{
	struct hist h, h2, d;
	uint64_t i;
	double p50, p99;

	memset(&h, 0, sizeof h);
	CHECK(isnan(hist_quantile(&h, 0.5)));
	for (i = 1; i <= 1000; i++)
		hist_add(&h, i * 1000); /* 1 us .. 1 ms */
	p50 = hist_quantile(&h, 0.5);
	p99 = hist_quantile(&h, 0.99);
	CHECK(fabs(p50 - 500000) / 500000 < 0.0625);
	CHECK(fabs(p99 - 990000) / 990000 < 0.0625);
	CHECK(h.max_ns == 1000000);
	CHECK(hist_quantile(&h, 1.0) <= 1000000);
	/* Exact small values. */
	memset(&h2, 0, sizeof h2);
	hist_add(&h2, 3);
	hist_add(&h2, 3);
	hist_add(&h2, 7);
	CHECK(hist_quantile(&h2, 0.5) == 3);
	CHECK(hist_quantile(&h2, 1.0) == 7);
	/* A window: only what was added after the first copy. */
	h2 = h;
	for (i = 0; i < 100; i++)
		hist_add(&h, 5000000); /* 5 ms */
	hist_delta(&h, &h2, &d);
	CHECK(d.n == 100);
	CHECK(fabs(hist_quantile(&d, 0.5) - 5e6) / 5e6 < 0.0625);
	/* Huge values land in the last bucket, not out of bounds. */
	hist_add(&h, UINT64_MAX);
	CHECK(h.max_ns == UINT64_MAX);
}

const struct unit_case unit_metrics[] = {
	{ "unit/metrics", test_metrics },
	{ "unit/histogram", test_hist },
	{ NULL, NULL },
};
