/* plot_time.c - how long --plot takes to draw a 24-step sweep's chart
 * (issue 12: <= 0.5 s), the drawing alone: the records are made by the
 * report's own builder from synthetic step results (6 index counts x 4 key
 * orders, every metric the default panels pick moving), then each format
 * is drawn REPS times into DIR. Prints one line per format: the median and
 * the slowest time in milliseconds.
 *
 *   plot_time DIR [REPS]   */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "config.h"
#include "plot.h"
#include "report.h"
#include "workload.h"

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Step i's result: rows, commits, journal bytes and latencies that grow
 * with the index count and the key order. */
static void fake_step(const struct plan *p, long i, struct step_result *s)
{
	uint64_t rows = 100000, n;
	int k;

	memset(s, 0, sizeof *s);
	s->index = i;
	plan_step(p, i, &s->knobs);
	s->a.t = 0;
	s->b.t = 0.5 + 0.1 * (double)s->knobs.v[K_INDEXES] * (1 + (double)s->knobs.v[K_KEY_ORDER]);
	for (k = 0; k <= C_FPI_GAPS; k++) {
		s->a.valid |= 1u << k;
		s->b.valid |= 1u << k;
	}
	s->b.v[C_ROWS] = rows;
	s->b.v[C_COMMITS] = 100;
	s->b.v[C_FSYNCS] = 400;
	s->b.v[C_WAL_BYTES] = rows * (uint64_t)(20 + 18 * s->knobs.v[K_INDEXES]);
	s->b.v[C_MISSES] = rows * (uint64_t)s->knobs.v[K_KEY_ORDER] / 10;
	s->b.v[C_WRITE_BYTES] = rows * (uint64_t)(150 + 40 * s->knobs.v[K_INDEXES]);
	for (n = 0; n < 100; n++)
		hist_add(&s->lat.commit,
		         (uint64_t)(2e6 + 1e5 * (double)n * (1 + (double)s->knobs.v[K_INDEXES])));
	s->sizes.db_bytes = s->sizes.index_bytes = -1;
	s->build_s = -1;
}

/* The report's sink: each record on to the chart, as the headless runner
 * hands it on. */
static void to_plot(void *ctx, const struct record *r, const struct knobs *k, double t0, double t1)
{
	plot_add(ctx, r, k, t0, t1);
}

int main(int argc, char **argv)
{
	static char a0[] = "idxlab", a1[] = "run", a2[] = "--indexes", a3[] = "0,1,2,3,4,5",
	            a4[] = "--key-order", a5[] = "seq,rand,few,uuid7";
	char *args[] = { a0, a1, a2, a3, a4, a5 };
	static const char *const ext[] = { "png", "svg", "pdf" };
	int reps = argc > 2 ? atoi(argv[2]) : 10, f, r;
	struct step_result *s = malloc(sizeof *s);
	struct err e = { ERR_NONE, "" };
	double *ms = calloc((size_t)(reps > 0 ? reps : 1), sizeof *ms);
	struct plan p;
	FILE *devnull = fopen("/dev/null", "w");

	if (argc < 2 || reps < 1 || !s || !ms || !devnull) {
		fprintf(stderr, "usage: plot_time DIR [REPS]\n");
		return 2;
	}
	if (plan_from_args(&p, 6, args, &e) < 0) {
		fprintf(stderr, "plot_time: %s\n", e.msg);
		return 1;
	}
	for (f = 0; f < 3; f++) {
		for (r = 0; r < reps; r++) {
			char path[4096], summary[160];
			struct report *rep = report_new(&p, devnull, devnull);
			struct plot *pl;
			double t0;
			long i;

			snprintf(path, sizeof path, "%s/sweep24-%d.%s", argv[1], r, ext[f]);
			remove(path);
			pl = plot_new(&p, path, NULL);
			report_sink(rep, to_plot, pl);
			for (i = 0; i < p.steps; i++) {
				fake_step(&p, i, s);
				report_step(rep, s);
			}
			report_free(rep);
			t0 = clock_now_s();
			if (plot_write(pl, summary, sizeof summary, &e) < 0) {
				fprintf(stderr, "plot_time: %s\n", e.msg);
				return 1;
			}
			ms[r] = (clock_now_s() - t0) * 1000;
			plot_free(pl);
			if (r == 0)
				fprintf(stderr, "plot_time: %s: %s\n", path, summary);
		}
		qsort(ms, (size_t)reps, sizeof *ms, cmp_d);
		printf("%s %.1f %.1f\n", ext[f], ms[reps / 2], ms[reps - 1]);
	}
	plan_free(&p);
	free(s);
	free(ms);
	fclose(devnull);
	return 0;
}
