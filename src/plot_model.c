/* plot_model.c - the records of a --plot chart turned into its model
 * (plot_int.h): the panels, an x axis (categories, numbers, a log scale,
 * or seconds), series of (x, y) with NaN for a gap, the markers of knob
 * changes and captions, the title and the caption of the knobs that stay
 * the same. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/engine.h"
#include "metrics.h"
#include "mix.h"
#include "plot_int.h"
#include "xalloc.h"

/* The panels a plain --plot draws: these two when they have data, then
 * the first of the others whose value moves across the run. */
static const int default_always[] = { M_ROWS_PER_S, M_P99_MS };
static const int default_more[] = { M_WAL_BYTES_PER_ROW, M_FSYNCS_PER_COMMIT,   M_MISSES_PER_ROW,
	                            M_SPILLS_PER_ROW,    M_WRITE_BYTES_PER_ROW, M_HOT_PCT,
	                            M_FPI_BYTES_PER_ROW };
#define DEFAULT_PANELS 4
/* ... and a sweep whose steps run a mix: the trade, its two sides and the
 * mix's total (the optimum marked, plot_model_sweep). */
static const int default_mix[] = { M_WRITE_MS_PER_ROW, M_READ_MS_PER_QUERY, M_MIX_MS_PER_1000_OPS };

/* The knobs a caption names when they are the same for the whole chart
 * (knob_def.caption), in their caption order; how many. */
static int caption_knobs(int *ids)
{
	int n = 0, id, j;

	for (id = 0; id < K_COUNT; id++) {
		if (knob_table[id].caption <= 0)
			continue;
		for (j = n; j > 0 && knob_table[ids[j - 1]].caption > knob_table[id].caption; j--)
			ids[j] = ids[j - 1];
		ids[j] = id;
		n++;
	}
	return n;
}

int plot_numeric_knob(int id)
{
	const struct knob_def *d = &knob_table[id];

	return knob_numeric(id) || d->kind == KNOB_SIZE || d->kind == KNOB_MILLIS;
}

/* "name=value" for each caption knob the same in every used point. */
static void fixed_caption(const struct plot *pl, int interval, char *buf, size_t len)
{
	const struct point *first = NULL;
	int ids[K_COUNT], nids = caption_knobs(ids), j;
	size_t i, n = 0;

	buf[0] = 0;
	for (j = 0; j < nids; j++) {
		int id = ids[j], same = 1;
		char v[160];

		first = NULL;
		for (i = 0; i < pl->n && same; i++) {
			if (pl->pts[i].interval != interval)
				continue;
			if (!first)
				first = &pl->pts[i];
			else if (id == K_PREFILL
			             ? knobs_prefill(&first->k) != knobs_prefill(&pl->pts[i].k)
			             : first->k.v[id] != pl->pts[i].k.v[id])
				same = 0;
		}
		if (!first || !same || !engine_has_knob((int)first->k.v[K_ENGINE], id))
			continue;
		record_knob_text(id, &first->k, v, sizeof v);
		if (n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s=%s", n ? "   " : "",
			                      knob_table[id].name, v);
	}
}

static int has_data(const struct plot *pl, int interval, int m, double *lo, double *hi)
{
	size_t i;
	int got = 0;

	*lo = INFINITY;
	*hi = -INFINITY;
	for (i = 0; i < pl->n; i++) {
		double v = pl->pts[i].v[m];

		if (pl->pts[i].interval != interval || isnan(v))
			continue;
		got++;
		*lo = fmin(*lo, v);
		*hi = fmax(*hi, v);
	}
	return got;
}

/* A step of pl runs a mix. */
static int steps_mix(const struct plot *pl)
{
	size_t i;

	for (i = 0; i < pl->n; i++)
		if (!pl->pts[i].interval && mix_of(&pl->pts[i].k, NULL))
			return 1;
	return 0;
}

static int has_panel(const struct model *md, int m)
{
	int p;

	for (p = 0; p < md->npanels; p++)
		if (md->metric[p] == m)
			return 1;
	return 0;
}

void plot_pick_metrics(const struct plot *pl, int interval, struct model *md)
{
	double lo, hi;
	unsigned i;

	md->npanels = 0;
	if (pl->nmetrics) {
		memcpy(md->metric, pl->metrics, sizeof md->metric);
		md->npanels = pl->nmetrics;
		return;
	}
	if (!interval && steps_mix(pl)) { /* drawn "n/a" where the engine had none */
		memcpy(md->metric, default_mix, sizeof default_mix);
		md->npanels = (int)(sizeof default_mix / sizeof default_mix[0]);
		return;
	}
	for (i = 0; i < sizeof default_always / sizeof default_always[0]; i++)
		if (has_data(pl, interval, default_always[i], &lo, &hi))
			md->metric[md->npanels++] = default_always[i];
	/* what the talk showed (plot_feature), whether it moves or not */
	for (i = 0; i < (unsigned)pl->nfeatured && md->npanels < PLOT_MAX_PANELS; i++)
		if (!has_panel(md, pl->featured[i]) &&
		    has_data(pl, interval, pl->featured[i], &lo, &hi))
			md->metric[md->npanels++] = pl->featured[i];
	for (i = 0;
	     i < sizeof default_more / sizeof default_more[0] && md->npanels < DEFAULT_PANELS; i++)
		if (!has_panel(md, default_more[i]) &&
		    has_data(pl, interval, default_more[i], &lo, &hi) >= 2 &&
		    hi - lo > 0.05 * fabs(hi) &&
		    hi >= (*metric_table[default_more[i]].unit ? 1 : 0.01))
			/* moves, and by more than a byte or a page in a hundred rows */
			md->metric[md->npanels++] = default_more[i];
	if (md->npanels == 0)
		md->metric[md->npanels++] = M_ROWS_PER_S; /* drawn as "n/a" */
}

/* ranges: with the --repeat bars' ends too. */
static void series_alloc(struct model *md, int s, size_t n, int ranges)
{
	int p;

	md->x[s] = xcalloc(n ? n : 1, sizeof(double));
	for (p = 0; p < md->npanels; p++) {
		md->y[p][s] = xcalloc(n ? n : 1, sizeof(double));
		if (ranges) {
			md->ylo[p][s] = xcalloc(n ? n : 1, sizeof(double));
			md->yhi[p][s] = xcalloc(n ? n : 1, sizeof(double));
		}
	}
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

/* The series of the first md->nseries (their first points: rep) whose
 * swept knobs other than x are those of k; md->nseries if none. */
static int series_of(const struct plot *pl, const struct model *md, const size_t *rep,
                     const struct knobs *k)
{
	int s, id;

	for (s = 0; s < md->nseries; s++) {
		const struct knobs *r = &pl->pts[rep[s]].k;

		for (id = 0; id < K_COUNT; id++)
			if (id != md->xknob && plot_swept(pl->plan, id) && r->v[id] != k->v[id])
				break;
		if (id == K_COUNT)
			break;
	}
	return s;
}

/* Step pt at point j of series s: under a mix, along an indexes axis,
 * the series' cheapest so far (the lowest mix_ms_per_1000_ops; a tie
 * keeps the fewer indexes) in md->cheapest[s], its cost in best[s];
 * priced[s] counts the steps compared. */
static void note_cheapest(struct model *md, const struct point *pt, int s, int j, double *best,
                          size_t *priced)
{
	double v = pt->v[M_MIX_MS_PER_1000_OPS];
	size_t was = md->cheapest[s];

	if (md->xknob != K_INDEXES || !mix_of(&pt->k, NULL) || isnan(v))
		return;
	priced[s]++;
	if (!was || v < best[s] || (v == best[s] && (size_t)j + 1 < was)) {
		md->cheapest[s] = (size_t)j + 1;
		best[s] = v;
	}
}

/* A sweep: x the knob x_knob (plot.c) chose, a series per combination of
 * the others. */
void plot_model_sweep(const struct plot *pl, struct model *md)
{
	long long xs[PLAN_MAX_VALUES * 4];
	size_t rep[MAX_SERIES] = { 0 }, i, priced[MAX_SERIES] = { 0 };
	double best[MAX_SERIES] = { 0 };
	int nx = 0, id, s, j, p, others;
	char buf[160];

	md->xknob = pl->xknob;
	md->nseries = 0;
	for (i = 0; i < pl->n; i++) {
		const struct point *pt = &pl->pts[i];

		if (pt->interval)
			continue;
		md->points++;
		if (md->xknob >= 0) {
			for (j = 0; j < nx && xs[j] != pt->k.v[md->xknob]; j++)
				;
			if (j == nx && nx < (int)(sizeof xs / sizeof xs[0]))
				xs[nx++] = pt->k.v[md->xknob];
		}
		s = series_of(pl, md, rep, &pt->k);
		if (s == md->nseries && s < MAX_SERIES)
			rep[md->nseries++] = i;
	}
	if (md->xknob < 0)
		nx = 1, xs[0] = 0; /* one step: one category */
	md->cat = md->xknob < 0 || !plot_numeric_knob(md->xknob);
	if (!md->cat)
		qsort(xs, (size_t)nx, sizeof xs[0], cmp_ll);
	md->log = !md->cat && xs[0] > 0 && (double)xs[nx - 1] / (double)xs[0] >= 20;
	md->ncat = nx;
	md->cat_label = xcalloc((size_t)nx, sizeof *md->cat_label);
	for (j = 0; j < nx; j++) {
		if (md->xknob >= 0)
			knob_format(md->xknob, xs[j], md->cat_label[j], sizeof md->cat_label[j]);
		else
			snprintf(md->cat_label[j], sizeof md->cat_label[j], "the step");
	}
	if (md->cat) {
		md->lo = -0.5;
		md->hi = nx - 0.5;
	} else {
		double a = md->log ? log10((double)xs[0]) : (double)xs[0];
		double b = md->log ? log10((double)xs[nx - 1]) : (double)xs[nx - 1];
		double pad = b > a ? (b - a) * 0.06 : 1;

		md->lo = a - pad;
		md->hi = b + pad;
	}
	/* series labels: the other swept knob's values under its name, or
	 * with two or more, "key-order=rand commit=1000" each */
	md->legend_title[0] = 0;
	for (id = 0, others = 0; id < K_COUNT; id++)
		others += id != md->xknob && plot_swept(pl->plan, id);
	for (id = 0; id < K_COUNT && others == 1; id++)
		if (id != md->xknob && plot_swept(pl->plan, id))
			snprintf(md->legend_title, sizeof md->legend_title, "%s",
			         knob_table[id].name);
	for (s = 0; s < md->nseries; s++) {
		const struct knobs *k = &pl->pts[rep[s]].k;
		size_t n = 0;

		md->label[s][0] = 0;
		for (id = 0; id < K_COUNT; id++) {
			if (id == md->xknob || !plot_swept(pl->plan, id))
				continue;
			record_knob_text(id, k, buf, sizeof buf);
			if (n < sizeof md->label[s])
				n += (size_t)snprintf(md->label[s] + n, sizeof md->label[s] - n,
				                      "%s%s%s%s", n ? "  " : "",
				                      others > 1 ? knob_table[id].name : "",
				                      others > 1 ? "=" : "", buf);
		}
		series_alloc(md, s, (size_t)nx, pl->ranges);
		md->len[s] = (size_t)nx;
		for (j = 0; j < nx; j++) {
			md->x[s][j] = md->cat ? j : md->log ? log10((double)xs[j]) : (double)xs[j];
			for (p = 0; p < md->npanels; p++) {
				md->y[p][s][j] = NAN;
				if (pl->ranges)
					md->ylo[p][s][j] = md->yhi[p][s][j] = NAN;
			}
		}
	}
	/* the values: each step at its series and x */
	for (i = 0; i < pl->n; i++) {
		const struct point *pt = &pl->pts[i];

		if (pt->interval)
			continue;
		s = series_of(pl, md, rep, &pt->k);
		if (s == md->nseries)
			continue; /* past MAX_SERIES */
		for (j = 0; md->xknob >= 0 && j < nx && xs[j] != pt->k.v[md->xknob]; j++)
			;
		if (j == nx)
			continue;
		note_cheapest(md, pt, s, j, best, priced);
		for (p = 0; p < md->npanels; p++) {
			md->y[p][s][j] = pt->v[md->metric[p]];
			if (pl->ranges) {
				md->ylo[p][s][j] = pt->lo[md->metric[p]];
				md->yhi[p][s][j] = pt->hi[md->metric[p]];
			}
		}
	}
	for (s = 0; s < md->nseries; s++)
		if (priced[s] < 2)
			md->cheapest[s] = 0; /* nothing to choose from */
	md->markers = 1;
	if (md->xknob >= 0) {
		snprintf(md->title, sizeof md->title, "idxlab: %s", knob_table[md->xknob].name);
		for (id = 0; id < K_COUNT; id++)
			if (id != md->xknob && plot_swept(pl->plan, id))
				snprintf(md->title + strlen(md->title),
				         sizeof md->title - strlen(md->title), " \xc3\x97 %s",
				         knob_table[id].name);
	} else {
		snprintf(md->title, sizeof md->title, "idxlab: one step");
	}
	if (pl->ranges && pl->runs > 1)
		snprintf(md->title + strlen(md->title), sizeof md->title - strlen(md->title),
		         " (medians of %d runs, bars from min to max)", pl->runs);
	fixed_caption(pl, 0, md->caption, sizeof md->caption);
}

/* "indexes=2, key-order=rand": what differs from a to b. */
static void change_text(const struct knobs *a, const struct knobs *b, char *buf, size_t len)
{
	size_t n = 0;
	int id;

	buf[0] = 0;
	for (id = 0; id < K_COUNT && n < len; id++) {
		char v[160];

		if (!plot_workload_knob(id) || a->v[id] == b->v[id])
			continue;
		record_knob_text(id, b, v, sizeof v);
		n += (size_t)snprintf(buf + n, len - n, "%s%s=%s", n ? ", " : "",
		                      knob_table[id].name, v);
	}
}

static void add_mark(struct model *md, double x, int caption, const char *text)
{
	md->marks = realloc(md->marks, (md->nmarks + 1) * sizeof *md->marks);
	if (!md->marks)
		abort();
	md->marks[md->nmarks].x = x;
	md->marks[md->nmarks].caption = caption;
	snprintf(md->marks[md->nmarks].text, sizeof md->marks[md->nmarks].text, "%s", text);
	md->nmarks++;
}

/* Records over time: one line, broken at each knob change and each gap;
 * a marker at each change and caption. */
void plot_model_time(const struct plot *pl, struct model *md)
{
	const struct point *last = NULL;
	size_t i, n = 0, cap = 0;
	double t_lo = INFINITY, t_hi = -INFINITY, pad;
	int p;

	md->over_time = 1;
	md->xknob = -1;
	md->nseries = 1;
	md->label[0][0] = 0;
	for (i = 0; i < pl->n; i++)
		cap += pl->pts[i].interval ? 2 : 0;
	series_alloc(md, 0, cap, 0);
	for (i = 0; i < pl->n; i++) {
		const struct point *pt = &pl->pts[i];

		if (!pt->interval)
			continue;
		md->points++;
		if (last && !knobs_same_workload(&last->k, &pt->k)) {
			char buf[160];

			change_text(&last->k, &pt->k, buf, sizeof buf);
			add_mark(md, pt->t0, 0, buf);
			md->x[0][n] = NAN; /* the line breaks at a change */
			for (p = 0; p < md->npanels; p++)
				md->y[p][0][n] = NAN;
			n++;
		}
		md->x[0][n] = pt->t1;
		for (p = 0; p < md->npanels; p++)
			md->y[p][0][n] = pt->v[md->metric[p]];
		n++;
		t_lo = fmin(t_lo, pt->t0);
		t_hi = fmax(t_hi, pt->t1);
		last = pt;
	}
	md->len[0] = n;
	for (i = 0; i < pl->nnotes; i++)
		add_mark(md, pl->notes[i].t, 1, pl->notes[i].text);
	if (!(t_lo < t_hi)) {
		t_lo = 0;
		t_hi = 1;
	}
	t_lo = fmin(t_lo, 0);
	pad = (t_hi - t_lo) * 0.02;
	md->lo = t_lo;
	md->hi = t_hi + pad;
	md->markers = md->points <= 40;
	snprintf(md->title, sizeof md->title, "idxlab: over time");
	fixed_caption(pl, 1, md->caption, sizeof md->caption);
}

void plot_model_free(struct model *md)
{
	int s, p;

	for (s = 0; s < MAX_SERIES; s++) {
		free(md->x[s]);
		for (p = 0; p < PLOT_MAX_PANELS; p++) {
			free(md->y[p][s]);
			free(md->ylo[p][s]);
			free(md->yhi[p][s]);
		}
	}
	free(md->cat_label);
	free(md->marks);
}
