/* plot.c - --plot: a chart of the records of a headless run (see plot.h).
 *
 * The records are kept compactly (the knobs, the window, each metric's
 * value as the CSV prints it), then turned into a model at the end: an x
 * axis (categories, numbers, a log scale, or seconds), series of (x, y)
 * with NaN for a gap, one y list per panel, markers. One function draws the
 * model on a cairo context of W x H units; the surface (image for PNG,
 * SVG, PDF) is the only thing that differs by format. Colours are the
 * Okabe-Ito palette (safe for colour-blind readers), each series also has
 * its own marker and dash so it reads in greyscale; everything that is not
 * a series is drawn in greys, so a series is the only coloured stroke. */
#include "plot.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <cairo.h>
#include <errno.h>
#include <fontconfig/fontconfig.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engines/engine.h"
#include "metrics.h"
#include "units.h"
#include "xalloc.h"

#define W           1600.0
#define H           900.0
#define MAX_SERIES  64
#define FONT        "Sans"
#define SERIES_KEYS 7 /* colours and markers before they repeat */

enum plot_format { PF_SVG, PF_PNG, PF_PDF };
enum plot_kind { PK_AUTO, PK_SWEEP, PK_TIME };

static const char *const format_ext[] = { ".svg", ".png", ".pdf" };

/* Okabe & Ito, "Color Universal Design" (2008), yellow last: it reads
 * poorly on white. */
static const double palette[SERIES_KEYS][3] = {
	{ 0.000, 0.447, 0.698 }, /* blue */
	{ 0.835, 0.369, 0.000 }, /* vermillion */
	{ 0.000, 0.620, 0.451 }, /* bluish green */
	{ 0.902, 0.624, 0.000 }, /* orange */
	{ 0.800, 0.475, 0.655 }, /* reddish purple */
	{ 0.337, 0.706, 0.914 }, /* sky blue */
	{ 0.941, 0.894, 0.259 }, /* yellow */
};

/* The panels a plain --plot draws: these two when they have data, then
 * the first of the others whose value moves across the run. */
static const int default_always[] = { M_ROWS_PER_S, M_P99_MS };
static const int default_more[] = { M_WAL_BYTES_PER_ROW, M_FSYNCS_PER_COMMIT,   M_MISSES_PER_ROW,
	                            M_SPILLS_PER_ROW,    M_WRITE_BYTES_PER_ROW, M_HOT_PCT,
	                            M_FPI_BYTES_PER_ROW };
#define DEFAULT_PANELS 4

/* The knobs a caption names when they are the same for the whole chart. */
static const int caption_knobs[] = { K_ENGINE,     K_OP,         K_ROWS,      K_SCHEMA,
	                             K_PK,         K_INDEXES,    K_KEY_ORDER, K_CACHE,
	                             K_FILLFACTOR, K_CHECKPOINT, K_COMMIT,    K_SYNC,
	                             K_JOURNAL,    K_PREFILL,    K_PAYLOAD,   K_INDEX_BUILD,
	                             K_LOAD,       K_VACUUM };

struct point {
	int interval; /* an interval record; else a step's */
	long step;
	struct knobs k;
	double t0, t1;
	double v[M_COUNT]; /* NaN: n/a or unsettled */
};

struct note {
	double t;
	char text[120];
};

struct plot {
	const struct plan *plan; /* borrowed */
	char *path;
	enum plot_format fmt;
	int metrics[PLOT_MAX_PANELS], nmetrics; /* nmetrics 0: the default */
	int xknob;                              /* a sweep's x axis, -1: one step */
	enum plot_kind kind;
	int dark; /* --plot-theme dark */
	struct point *pts;
	size_t n, cap;
	struct note *notes;
	size_t nnotes, notes_cap;
};

/* ---- the model: what one drawing function draws ---- */

struct mark {
	double x;
	int caption; /* a caption's marker, else a knob change's */
	char text[160];
};

struct model {
	int over_time;
	/* x axis */
	int cat, log;
	double lo, hi;
	int ncat;
	char (*cat_label)[48];
	int xknob; /* -1: seconds */
	/* series: x per series, y per panel and series */
	int nseries;
	char label[MAX_SERIES][160];
	char legend_title[96];
	size_t len[MAX_SERIES];
	double *x[MAX_SERIES];
	double *y[PLOT_MAX_PANELS][MAX_SERIES];
	int npanels, metric[PLOT_MAX_PANELS];
	int markers; /* a marker on every point */
	struct mark *marks;
	size_t nmarks;
	char title[200], caption[900];
	size_t points; /* records drawn */
};

static int format_of(const char *path)
{
	const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
	int i;

	if (!dot || (slash && slash > dot))
		return -1;
	for (i = 0; i < 3; i++)
		if (strcasecmp(dot, format_ext[i]) == 0)
			return i;
	return -1;
}

static int metric_find(const char *name)
{
	int m;

	for (m = 0; m < M_COUNT; m++)
		if (strcmp(metric_table[m].field, name) == 0)
			return m;
	return -1;
}

static const char *nth_metric(int i, const void *ctx)
{
	(void)ctx;
	return i < M_COUNT ? metric_table[i].field : NULL;
}

/* LIST into out[]; the count, or -1. */
static int parse_metrics(const char *list, int *out, struct err *e)
{
	char *copy = xstrdup(list), *item, *next;
	int n = 0, rc = 0;

	for (next = copy; (item = strsep(&next, ","));) {
		int m = metric_find(item), j;

		if (m < 0) {
			const char *hint = config_closest(item, nth_metric, NULL);

			if (hint)
				rc = err_set(e, ERR_USAGE,
				             "--plot-metrics: '%s' is no metric field (did you "
				             "mean %s?)",
				             item, hint);
			else
				rc = err_set(e, ERR_USAGE,
				             "--plot-metrics: '%s' is no metric field (the CSV "
				             "header's names, e.g. rows_per_s,p99_ms; man idxlab "
				             "lists them)",
				             item);
			break;
		}
		for (j = 0; j < n && out[j] != m; j++)
			;
		if (j < n)
			continue; /* named twice: one panel */
		if (n == PLOT_MAX_PANELS) {
			rc =
			    err_set(e, ERR_USAGE,
			            "--plot-metrics: at most %d metrics (a panel each) fit a slide",
			            PLOT_MAX_PANELS);
			break;
		}
		out[n++] = m;
	}
	free(copy);
	return rc < 0 ? -1 : n;
}

/* ---- the chart's options ---- */

static const char *const kind_names[] = { "auto", "sweep", "time", NULL };
static const char *const theme_names[] = { "light", "dark", NULL };

static const char *nth_word(int i, const void *ctx)
{
	return ((const char *const *)ctx)[i];
}

/* word's index in words (NULL-terminated), or -1 with e filled. */
static int word_of(const char *opt, const char *word, const char *const *words, struct err *e)
{
	const char *hint;
	int i;

	for (i = 0; words[i]; i++)
		if (strcmp(word, words[i]) == 0)
			return i;
	hint = config_closest(word, nth_word, words);
	return err_set(e, ERR_USAGE, "%s %s: %s%s%s (valid: %s)", opt, word,
	               hint ? "did you mean " : "not a choice", hint ? hint : "", hint ? "?" : "",
	               words[1] == theme_names[1] ? "light, dark" : "auto, sweep, time");
}

/* A knob of the workload (what a chart's reader is shown), not a run
 * option, the dsn or the seed. */
static int workload_knob(int id)
{
	return !(knob_table[id].flags & KF_OPTION) && knob_table[id].kind != KNOB_STRING &&
	       id != K_SEED;
}

static int swept(const struct plan *p, int id)
{
	return p->n[id] > 1 && workload_knob(id);
}

/* The swept knobs' names, for "did you mean". */
static const char *nth_swept(int i, const void *ctx)
{
	const struct plan *p = ctx;
	int id;

	for (id = 0; id < K_COUNT; id++)
		if (swept(p, id) && i-- == 0)
			return knob_table[id].name;
	return NULL;
}

/* "indexes, key-order" into buf: the swept knobs. */
static void swept_list(const struct plan *p, char *buf, size_t len)
{
	size_t n = 0;
	int id;

	buf[0] = 0;
	for (id = 0; id < K_COUNT && n < len; id++)
		if (swept(p, id))
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "",
			                      knob_table[id].name);
}

/* The x axis of a sweep chart of p (--plot-x, checked, or the first swept
 * knob in the knob table's order); -1: nothing is swept. */
static int x_knob(const struct plan *p)
{
	int id;

	if (p->plot_x && (id = knob_find(p->plot_x)) >= 0 && swept(p, id))
		return id;
	for (id = 0; id < K_COUNT; id++)
		if (swept(p, id))
			return id;
	return -1;
}

/* The number of series of a sweep chart with x axis x. */
static long series_count(const struct plan *p, int x)
{
	long n = 1;
	int id;

	for (id = 0; id < K_COUNT; id++)
		if (id != x && swept(p, id))
			n *= p->n[id];
	return n;
}

/* --plot-x, and a sweep chart's series within PLOT_MAX_SERIES. */
static int check_sweep(const struct plan *p, struct err *e)
{
	char list[400];
	long n, best_n;
	int id, x, best = -1;

	swept_list(p, list, sizeof list);
	if (p->plot_x) {
		const char *hint;

		id = knob_find(p->plot_x);
		if (id >= 0 && swept(p, id)) {
			/* fine */
		} else if (!*list) {
			return err_set(e, ERR_USAGE,
			               "--plot-x %s: nothing is swept: --plot-x picks which swept "
			               "knob is the x axis (give a knob two values or more, e.g. "
			               "--indexes 0,1,2)",
			               p->plot_x);
		} else if ((hint = config_closest(p->plot_x, nth_swept, p)) &&
		           strcmp(hint, p->plot_x) != 0) {
			return err_set(
			    e, ERR_USAGE, "--plot-x %s: %s (did you mean %s?); the swept knobs: %s",
			    p->plot_x, id >= 0 ? "not swept" : "no such knob", hint, list);
		} else {
			return err_set(
			    e, ERR_USAGE,
			    "--plot-x %s: %s: the x axis is one of the swept knobs: %s", p->plot_x,
			    id >= 0 ? "not swept (it has one value)" : "no such knob", list);
		}
	}
	x = x_knob(p);
	n = series_count(p, x);
	if (n <= PLOT_MAX_SERIES)
		return 0;
	best_n = n;
	for (id = 0; id < K_COUNT; id++)
		if (swept(p, id) && series_count(p, id) < best_n) {
			best = id;
			best_n = series_count(p, id);
		}
	if (best >= 0 && best_n <= PLOT_MAX_SERIES)
		return err_set(e, ERR_USAGE,
		               "--plot: %ld series (one per combination of the swept knobs but "
		               "the x axis, %s) are more than a legend can tell apart (at most "
		               "%d): put the knob with the most values on x, --plot-x %s (%ld "
		               "series), or sweep fewer knobs",
		               n, knob_table[x].name, PLOT_MAX_SERIES, knob_table[best].name,
		               best_n);
	return err_set(e, ERR_USAGE,
	               "--plot: %ld series (one per combination of the swept knobs but the x "
	               "axis, %s) are more than a legend can tell apart (at most %d): sweep "
	               "fewer knobs at once (swept: %s), a chart each",
	               n, knob_table[x].name, PLOT_MAX_SERIES, list);
}

int plot_check(const struct plan *p, struct err *e)
{
	const char *path = p->plot_path, *metrics = p->plot_metrics;
	int ms[PLOT_MAX_PANELS], kind = PK_AUTO, over_time, rc = 0;
	struct stat st;
	char *dir, *slash;

	if (!*path)
		return err_set(e, ERR_USAGE, "--plot needs a file name (FILE.svg, .png or .pdf)");
	if (format_of(path) < 0) {
		const char *dot = strrchr(path, '.');

		return err_set(e, ERR_USAGE,
		               "--plot %s: %s%s%s: name the file .svg, .png or .pdf (the "
		               "extension picks the format)",
		               path, dot && !strchr(dot, '/') ? "unknown format '" : "no extension",
		               dot && !strchr(dot, '/') ? dot : "",
		               dot && !strchr(dot, '/') ? "'" : "");
	}
	if (stat(path, &st) == 0)
		return err_set(e, ERR_USAGE,
		               "--plot %s: the file exists (idxlab overwrites nothing: remove "
		               "it or choose another name)",
		               path);
	dir = xstrdup(path);
	slash = strrchr(dir, '/');
	if (slash)
		slash[slash == dir ? 1 : 0] = 0;
	if (access(slash ? dir : ".", W_OK) < 0)
		rc = err_set(e, ERR_USAGE, "--plot %s: cannot write in %s: %s", path,
		             slash ? dir : "the current directory", strerror(errno));
	free(dir);
	if (rc < 0 || (metrics && parse_metrics(metrics, ms, e) < 0))
		return -1;
	if (p->plot_theme && word_of("--plot-theme", p->plot_theme, theme_names, e) < 0)
		return -1;
	if (p->plot_kind && (kind = word_of("--plot-kind", p->plot_kind, kind_names, e)) < 0)
		return -1;
	if (kind == PK_TIME && p->vals[K_INTERVAL][0] <= 0 && !p->replay_path)
		return err_set(e, ERR_USAGE,
		               "--plot-kind time draws the records over time: give --interval S "
		               "too (or --replay FILE)");
	if (kind == PK_SWEEP && p->replay_path)
		return err_set(e, ERR_USAGE,
		               "--plot-kind sweep: a recording's records are windows over time, "
		               "with no steps to draw side by side: leave --plot-kind out");
	over_time =
	    kind == PK_TIME || (kind == PK_AUTO && (p->vals[K_INTERVAL][0] > 0 || p->replay_path));
	if (over_time && p->plot_x)
		return err_set(e, ERR_USAGE,
		               "--plot-x picks the x axis of a sweep chart; this one is over time "
		               "(x in seconds)%s",
		               p->replay_path ? "" : ": add --plot-kind sweep to draw the steps");
	return over_time ? 0 : check_sweep(p, e);
}

struct plot *plot_new(const struct plan *p, const char *path, const char *metrics)
{
	struct plot *pl = xcalloc(1, sizeof *pl);
	struct err e;

	pl->plan = p;
	pl->path = xstrdup(path);
	pl->fmt = (enum plot_format)format_of(path);
	pl->xknob = x_knob(p);
	pl->kind =
	    p->plot_kind ? (enum plot_kind)word_of("", p->plot_kind, kind_names, &e) : PK_AUTO;
	pl->dark = p->plot_theme && strcmp(p->plot_theme, "dark") == 0;
	if (metrics) {
		int n = parse_metrics(metrics, pl->metrics, &e);

		pl->nmetrics = n > 0 ? n : 0;
	}
	return pl;
}

void plot_add(struct plot *pl, const struct record *r, const struct knobs *k, double t0, double t1)
{
	const struct field *kind = report_find(r, "record"), *step = report_find(r, "step");
	struct point *pt;
	int m;

	if (!pl || !kind || strcmp(kind->s, "rows") == 0)
		return; /* an --interval-rows batch: neither a step nor a time window */
	if (pl->n == pl->cap) {
		pl->cap = pl->cap ? pl->cap * 2 : 64;
		pl->pts = realloc(pl->pts, pl->cap * sizeof *pl->pts);
		if (!pl->pts)
			abort();
	}
	pt = &pl->pts[pl->n++];
	memset(pt, 0, sizeof *pt);
	pt->interval = strcmp(kind->s, "interval") == 0;
	pt->step = step ? step->i : 0;
	pt->k = *k;
	pt->t0 = t0;
	pt->t1 = t1;
	for (m = 0; m < M_COUNT; m++) {
		const struct field *f = report_find(r, metric_table[m].field);
		char buf[64];

		pt->v[m] = NAN;
		if (!f)
			continue;
		if (f->kind == F_INT) {
			pt->v[m] = (double)f->i;
		} else if (f->kind == F_NUM) {
			/* the number exactly as the CSV prints it */
			snprintf(buf, sizeof buf, "%.*f", f->decimals, f->d);
			pt->v[m] = strtod(buf, NULL);
		}
	}
}

void plot_note(struct plot *pl, double t, const char *text)
{
	if (!pl)
		return;
	if (pl->nnotes == pl->notes_cap) {
		pl->notes_cap = pl->notes_cap ? pl->notes_cap * 2 : 16;
		pl->notes = realloc(pl->notes, pl->notes_cap * sizeof *pl->notes);
		if (!pl->notes)
			abort();
	}
	pl->notes[pl->nnotes].t = t;
	snprintf(pl->notes[pl->nnotes].text, sizeof pl->notes[pl->nnotes].text, "%s", text);
	pl->nnotes++;
}

/* ---- building the model ---- */

static int numeric_knob(int id)
{
	const struct knob_def *d = &knob_table[id];

	return (d->kind == KNOB_INT && !d->words) || d->kind == KNOB_SIZE || d->kind == KNOB_MILLIS;
}

static void knob_value_text(int id, const struct knobs *k, char *buf, size_t len)
{
	if (id == K_PREFILL)
		snprintf(buf, len, "%lld", knobs_prefill(k));
	else
		knob_format(id, k->v[id], buf, len);
}

/* "name=value" for each caption knob the same in every used point. */
static void fixed_caption(const struct plot *pl, int interval, char *buf, size_t len)
{
	const struct point *first = NULL;
	size_t i, n = 0;
	unsigned j;

	buf[0] = 0;
	for (j = 0; j < sizeof caption_knobs / sizeof caption_knobs[0]; j++) {
		int id = caption_knobs[j], same = 1;
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
		knob_value_text(id, &first->k, v, sizeof v);
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

static void pick_metrics(const struct plot *pl, int interval, struct model *md)
{
	double lo, hi;
	unsigned i;

	md->npanels = 0;
	if (pl->nmetrics) {
		memcpy(md->metric, pl->metrics, sizeof md->metric);
		md->npanels = pl->nmetrics;
		return;
	}
	for (i = 0; i < sizeof default_always / sizeof default_always[0]; i++)
		if (has_data(pl, interval, default_always[i], &lo, &hi))
			md->metric[md->npanels++] = default_always[i];
	for (i = 0;
	     i < sizeof default_more / sizeof default_more[0] && md->npanels < DEFAULT_PANELS; i++)
		if (has_data(pl, interval, default_more[i], &lo, &hi) >= 2 &&
		    hi - lo > 0.05 * fabs(hi) &&
		    hi >= (*metric_table[default_more[i]].unit ? 1 : 0.01))
			/* moves, and by more than a byte or a page in a hundred rows */
			md->metric[md->npanels++] = default_more[i];
	if (md->npanels == 0)
		md->metric[md->npanels++] = M_ROWS_PER_S; /* drawn as "n/a" */
}

static void series_alloc(struct model *md, int s, size_t n)
{
	int p;

	md->x[s] = xcalloc(n ? n : 1, sizeof(double));
	for (p = 0; p < md->npanels; p++)
		md->y[p][s] = xcalloc(n ? n : 1, sizeof(double));
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
			if (id != md->xknob && swept(pl->plan, id) && r->v[id] != k->v[id])
				break;
		if (id == K_COUNT)
			break;
	}
	return s;
}

/* A sweep: x the first swept knob, a series per combination of the others. */
static void model_sweep(const struct plot *pl, struct model *md)
{
	long long xs[PLAN_MAX_VALUES * 4];
	size_t rep[MAX_SERIES] = { 0 }, i;
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
	md->cat = md->xknob < 0 || !numeric_knob(md->xknob);
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
		others += id != md->xknob && swept(pl->plan, id);
	for (id = 0; id < K_COUNT && others == 1; id++)
		if (id != md->xknob && swept(pl->plan, id))
			snprintf(md->legend_title, sizeof md->legend_title, "%s",
			         knob_table[id].name);
	for (s = 0; s < md->nseries; s++) {
		const struct knobs *k = &pl->pts[rep[s]].k;
		size_t n = 0;

		md->label[s][0] = 0;
		for (id = 0; id < K_COUNT; id++) {
			if (id == md->xknob || !swept(pl->plan, id))
				continue;
			knob_value_text(id, k, buf, sizeof buf);
			if (n < sizeof md->label[s])
				n += (size_t)snprintf(md->label[s] + n, sizeof md->label[s] - n,
				                      "%s%s%s%s", n ? "  " : "",
				                      others > 1 ? knob_table[id].name : "",
				                      others > 1 ? "=" : "", buf);
		}
		series_alloc(md, s, (size_t)nx);
		md->len[s] = (size_t)nx;
		for (j = 0; j < nx; j++) {
			md->x[s][j] = md->cat ? j : md->log ? log10((double)xs[j]) : (double)xs[j];
			for (p = 0; p < md->npanels; p++)
				md->y[p][s][j] = NAN;
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
		for (p = 0; p < md->npanels; p++)
			md->y[p][s][j] = pt->v[md->metric[p]];
	}
	md->markers = 1;
	if (md->xknob >= 0) {
		snprintf(md->title, sizeof md->title, "idxlab: %s", knob_table[md->xknob].name);
		for (id = 0; id < K_COUNT; id++)
			if (id != md->xknob && swept(pl->plan, id))
				snprintf(md->title + strlen(md->title),
				         sizeof md->title - strlen(md->title), " \xc3\x97 %s",
				         knob_table[id].name);
	} else {
		snprintf(md->title, sizeof md->title, "idxlab: one step");
	}
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

		if (!workload_knob(id) || a->v[id] == b->v[id])
			continue;
		knob_value_text(id, b, v, sizeof v);
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
static void model_time(const struct plot *pl, struct model *md)
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
	series_alloc(md, 0, cap);
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

static void model_free(struct model *md)
{
	int s, p;

	for (s = 0; s < MAX_SERIES; s++) {
		free(md->x[s]);
		for (p = 0; p < PLOT_MAX_PANELS; p++)
			free(md->y[p][s]);
	}
	free(md->cat_label);
	free(md->marks);
}

/* ---- drawing ---- */

/* Text at (x, y): ax 0 left, 0.5 centre, 1 right of x; y the baseline
 * (ay 0) or the middle of the text's height (ay 0.5). Its width. */
static double text(cairo_t *cr, double x, double y, const char *s, double size, int bold, double ax,
                   double ay)
{
	cairo_text_extents_t te;

	cairo_select_font_face(cr, FONT, CAIRO_FONT_SLANT_NORMAL,
	                       bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, size);
	cairo_text_extents(cr, s, &te);
	cairo_move_to(cr, x - te.x_advance * ax, y + (ay > 0 ? size * 0.36 : 0));
	cairo_show_text(cr, s);
	return te.x_advance;
}

static double text_width(cairo_t *cr, const char *s, double size, int bold)
{
	cairo_text_extents_t te;

	cairo_select_font_face(cr, FONT, CAIRO_FONT_SLANT_NORMAL,
	                       bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, size);
	cairo_text_extents(cr, s, &te);
	return te.x_advance;
}

/* --plot-theme dark: cairo user data on the context (its address is the
 * key), so every grey below is the same call in both themes. */
static const cairo_user_data_key_t dark_key;

/* A grey by its lightness on the light theme (1: the background, 0.05:
 * the title); the dark theme turns it around, the background near black. */
static void grey(cairo_t *cr, double g)
{
	if (cairo_get_user_data(cr, &dark_key))
		g = 0.09 + (1 - g) * 0.86;
	cairo_set_source_rgb(cr, g, g, g);
}

static void series_style(cairo_t *cr, int s)
{
	static const double dash_long[] = { 14, 7 }, dash_dot[] = { 3, 6 };
	const double *c = palette[s % SERIES_KEYS];
	double lift = cairo_get_user_data(cr, &dark_key) ? 0.25 : 0; /* brighter on dark */
	int d = (s / SERIES_KEYS + s) % 3;

	cairo_set_source_rgb(cr, c[0] + (1 - c[0]) * lift, c[1] + (1 - c[1]) * lift,
	                     c[2] + (1 - c[2]) * lift);
	cairo_set_line_width(cr, 3.5);
	if (d == 0)
		cairo_set_dash(cr, NULL, 0, 0);
	else
		cairo_set_dash(cr, d == 1 ? dash_long : dash_dot, 2, 0);
}

/* Series s's marker at (x, y): circle, square, triangle, diamond, down
 * triangle, ring, open square; ring > 0: the outline alone, larger by
 * ring sizes up to two (it goes around ring markers of other series at
 * (x, y)). */
static void marker(cairo_t *cr, int s, double x, double y, int ring)
{
	const double r = 8 + 5 * (ring < 2 ? ring : 2); /* past two: the shape tells them */
	int kind = s % SERIES_KEYS;

	cairo_set_dash(cr, NULL, 0, 0);
	cairo_new_path(cr);
	switch (kind) {
	case 0:
	case 5:
		cairo_arc(cr, x, y, r, 0, 2 * M_PI);
		break;
	case 1:
	case 6:
		cairo_rectangle(cr, x - r * 0.85, y - r * 0.85, r * 1.7, r * 1.7);
		break;
	case 2:
		cairo_move_to(cr, x, y - r * 1.1);
		cairo_line_to(cr, x + r, y + r * 0.75);
		cairo_line_to(cr, x - r, y + r * 0.75);
		cairo_close_path(cr);
		break;
	case 3:
		cairo_move_to(cr, x, y - r * 1.15);
		cairo_line_to(cr, x + r, y);
		cairo_line_to(cr, x, y + r * 1.15);
		cairo_line_to(cr, x - r, y);
		cairo_close_path(cr);
		break;
	default:
		cairo_move_to(cr, x, y + r * 1.1);
		cairo_line_to(cr, x + r, y - r * 0.75);
		cairo_line_to(cr, x - r, y - r * 0.75);
		cairo_close_path(cr);
		break;
	}
	if (ring) {
		cairo_set_line_width(cr, 3);
		cairo_stroke(cr);
	} else if (kind >= 5) { /* open: white inside, the colour around */
		cairo_save(cr);
		grey(cr, 1);
		cairo_fill_preserve(cr);
		cairo_restore(cr);
		cairo_set_line_width(cr, 3);
		cairo_stroke(cr);
	} else {
		cairo_fill(cr);
	}
}

/* How the y axis of metric m writes its ticks: a divisor and a suffix
 * chosen once from the axis' top (so every tick says the same unit). */
struct yunit {
	double div;
	char suffix[24];
};

static struct yunit y_unit(int m, double top)
{
	const char *unit = metric_table[m].unit, *f = metric_table[m].field, *suffix = "";
	size_t fl = strlen(f);
	struct yunit u = { 1, "" };

	if (fl > 4 && strcmp(f + fl - 4, "_pct") == 0) {
		suffix = " %";
	} else if (fl > 3 && strcmp(f + fl - 3, "_ms") == 0) {
		/* values in ms */
		if (top < 1)
			u.div = 0.001, suffix = " \xc2\xb5s";
		else if (top >= 1000)
			u.div = 1000, suffix = " s";
		else
			suffix = " ms";
	} else if (strcmp(unit, "s") == 0) {
		suffix = " s";
	} else if (strcmp(unit, "B") == 0) {
		static const char *const names[] = { " B", " KiB", " MiB", " GiB", " TiB" };
		int i = 0;

		while (top >= 1024 * u.div && i < 4) {
			u.div *= 1024;
			i++;
		}
		suffix = names[i];
	} else {
		static const char *const names[] = { "", "k", "M", "G" };
		int i = 0;

		while (top >= 1000 * u.div && i < 3) {
			u.div *= 1000;
			i++;
		}
		suffix = names[i];
	}
	snprintf(u.suffix, sizeof u.suffix, "%s%s", suffix,
	         metric_table[m].per_s ? metric_table[m].per_s : "");
	return u;
}

/* 1, 2, 5 times a power of ten near range / n. */
static double nice_step(double range, int n)
{
	double raw = range / n, mag = pow(10, floor(log10(raw))), f = raw / mag;

	return (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * mag;
}

static void tick_text(double v, double step, const char *suffix, char *buf, size_t len)
{
	int dec = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);

	if (v == 0) /* 0, not 0k, 0 KiB or 0.0000 */
		dec = 0, suffix = "";
	snprintf(buf, len, "%.*f%s", dec > 6 ? 6 : dec, v, suffix);
}

struct frame {
	double x, y, w, h;
};

static double fx(const struct model *md, const struct frame *f, double x)
{
	return f->x + f->w * (x - md->lo) / (md->hi - md->lo);
}

/* The x axis' ticks and labels under frame f (labels that would overlap
 * the one before are left out). */
static void draw_x_ticks(cairo_t *cr, const struct model *md, const struct frame *f, int labels)
{
	double right = -INFINITY, base = f->y + f->h;
	char buf[64];
	int j;

	grey(cr, 0.2);
	if (md->over_time) {
		double step = nice_step(md->hi - md->lo, 8), v;

		for (v = ceil(md->lo / step) * step; v <= md->hi + 1e-9; v += step) {
			double x = fx(md, f, v), wd;

			tick_text(v, step, "", buf, sizeof buf);
			wd = text_width(cr, buf, 18, 0);
			if (x - wd / 2 < right + 10)
				continue;
			grey(cr, 0.35);
			cairo_move_to(cr, x, base);
			cairo_line_to(cr, x, base + 7);
			cairo_stroke(cr);
			grey(cr, 0.2);
			if (labels)
				text(cr, x, base + 28, buf, 18, 0, 0.5, 0);
			right = x + wd / 2;
		}
		return;
	}
	for (j = 0; j < md->ncat; j++) {
		double x = fx(md, f, md->nseries ? md->x[0][j] : j), wd;

		wd = text_width(cr, md->cat_label[j], 18, 0);
		if (x - wd / 2 < right + 10)
			continue;
		grey(cr, 0.35);
		cairo_move_to(cr, x, base);
		cairo_line_to(cr, x, base + 7);
		cairo_stroke(cr);
		grey(cr, 0.2);
		text(cr, x, base + 28, md->cat_label[j], 18, 0, 0.5, 0);
		right = x + wd / 2;
	}
}

/* The vertical markers (knob changes, captions) inside frame f. */
static void draw_marks(cairo_t *cr, const struct model *md, const struct frame *f)
{
	static const double dash[] = { 6, 5 };
	size_t i;

	cairo_save(cr);
	cairo_set_line_width(cr, 1.5);
	for (i = 0; i < md->nmarks; i++) {
		double x = fx(md, f, md->marks[i].x);

		if (x < f->x || x > f->x + f->w)
			continue;
		grey(cr, md->marks[i].caption ? 0.6 : 0.3);
		cairo_set_dash(cr, md->marks[i].caption ? dash : NULL, md->marks[i].caption ? 2 : 0,
		               0);
		cairo_move_to(cr, x, f->y);
		cairo_line_to(cr, x, f->y + f->h);
		cairo_stroke(cr);
	}
	cairo_restore(cr);
}

/* How many markers of the series before s lie under series s's point i
 * in panel p (within a marker's width): s's marker then goes around
 * them as a ring, one size larger for each, so every series shows. */
static int covered(const struct model *md, const struct frame *f, int p, int s, size_t i,
                   double top)
{
	double x = fx(md, f, md->x[s][i]), y = f->h * md->y[p][s][i] / top;
	int r, n = 0;
	size_t j;

	for (r = 0; r < s; r++)
		for (j = 0; j < md->len[r]; j++)
			if (!isnan(md->y[p][r][j]) && !isnan(md->x[r][j]) &&
			    fabs(fx(md, f, md->x[r][j]) - x) < 12 &&
			    fabs(f->h * md->y[p][r][j] / top - y) < 12) {
				n++;
				break;
			}
	return n;
}

/* Series s and r of panel p have the same values (within 0.5 %) at the
 * same x, and the same gaps? */
static int same_values(const struct model *md, int p, int s, int r)
{
	size_t i, both = 0;

	if (md->len[s] != md->len[r])
		return 0;
	for (i = 0; i < md->len[s]; i++) {
		double a = md->y[p][s][i], b = md->y[p][r][i];

		if (isnan(a) != isnan(b))
			return 0;
		if (isnan(a))
			continue;
		if (fabs(a - b) > 0.005 * fmax(fabs(a), fabs(b)))
			return 0;
		both++;
	}
	return both > 0;
}

/* The earlier series that series s of panel p hides under, or -1. */
static int hides_under(const struct model *md, int p, int s)
{
	int r;

	for (r = 0; r < s; r++)
		if (same_values(md, p, s, r))
			return r;
	return -1;
}

/* Does any panel have a series hidden under another? (Their notes then get
 * a line under every panel's title.) */
static int any_hidden(const struct model *md)
{
	int p, s;

	for (p = 0; p < md->npanels; p++)
		for (s = 1; s < md->nseries; s++)
			if (hides_under(md, p, s) >= 0)
				return 1;
	return 0;
}

/* What tells series s from r, into buf: "rand: same as seq" (one other
 * swept knob), else the knobs whose values differ and, with context, those
 * they share: "key-order rand = seq (commit=all)" (labels are "name=value"
 * items two spaces apart). */
static void same_as_text(const struct model *md, int s, int r, int context, char *buf, size_t len)
{
	const char *a = md->label[s], *b = md->label[r];
	char shared[200] = "";
	size_t n = 0, ns = 0;

	if (md->legend_title[0] || !strchr(a, '=')) {
		snprintf(buf, len, "%s: same as %s", a, b);
		return;
	}
	buf[0] = 0;
	while (*a && *b && n < len && ns < sizeof shared) {
		size_t la = strcspn(a, " "), lb = strcspn(b, " "), eq = strcspn(a, "=");

		if (la != lb || strncmp(a, b, la) != 0)
			n += (size_t)snprintf(buf + n, len - n, "%s%.*s %.*s = %.*s", n ? ", " : "",
			                      (int)eq, a, (int)(la - eq - 1), a + eq + 1,
			                      (int)(lb - eq - 1), b + eq + 1);
		else
			ns += (size_t)snprintf(shared + ns, sizeof shared - ns, "%s%.*s",
			                       ns ? " " : "", (int)la, a);
		a += la + strspn(a + la, " ");
		b += lb + strspn(b + lb, " ");
	}
	if (context && *shared && n < len)
		snprintf(buf + n, len - n, " (%.160s)", shared); /* cut to the room left */
}

/* A note on the line under panel p's title (from x, at most width wide)
 * for each series that hides under an earlier one, "rand: same as seq":
 * its rings show where, the note says it is not missing. */
static void same_as_note(cairo_t *cr, const struct model *md, int p, double x, double y,
                         double width)
{
	char note[600] = "", one[200];
	int s, r, hidden = 0, context;

	for (context = 1; context >= 0; context--) {
		size_t n = 0;

		hidden = 0;
		for (s = 1; s < md->nseries; s++) {
			if ((r = hides_under(md, p, s)) < 0)
				continue;
			hidden++;
			same_as_text(md, s, r, context, one, sizeof one);
			if (n < sizeof note)
				n += (size_t)snprintf(note + n, sizeof note - n, "%s%s",
				                      n ? ";  " : "", one);
		}
		if (!hidden)
			return;
		if (text_width(cr, note, 18, 0) <= width)
			break;
	}
	if (hidden == md->nseries - 1 && hidden > 1) /* the shortest way to say it */
		snprintf(note, sizeof note, "all %d series the same (within 0.5 %%)", md->nseries);
	else if (context < 0)
		snprintf(note, sizeof note, "%d line%s under others (ringed)", hidden,
		         hidden == 1 ? "" : "s");
	grey(cr, 0.3);
	text(cr, x, y, note, 18, 0, 0, 0);
}

/* Panel p's y axis for a frame fh units high: its top (a whole number of
 * steps), its step, the unit of its ticks; got: the values drawn. */
struct yaxis {
	double top, step;
	struct yunit u;
	int got;
};

static void y_axis(const struct model *md, int p, double fh, struct yaxis *a)
{
	double high;
	size_t i;
	int s, pass;

	a->top = 0;
	a->got = 0;
	for (s = 0; s < md->nseries; s++)
		for (i = 0; i < md->len[s]; i++)
			if (!isnan(md->y[p][s][i])) {
				a->top = fmax(a->top, md->y[p][s][i]);
				a->got++;
			}
	if (a->top <= 0)
		a->top = 1;
	high = a->top;
	a->u = y_unit(md->metric[p], high);
	for (pass = 0; pass < 2; pass++) {
		a->step = nice_step(high / a->u.div, fh > 200 ? 4 : fh > 110 ? 3 : 2) * a->u.div;
		a->top = ceil(high * 1.04 / a->step) * a->step;
		/* the top tick rounded up into the next unit (1000k): that unit */
		if (y_unit(md->metric[p], a->top).div == a->u.div)
			break;
		a->u = y_unit(md->metric[p], a->top);
	}
}

/* The room the y tick labels of every panel need left of the frames
 * (one for all, so stacked panels and their markers line up). */
static double y_margin(cairo_t *cr, const struct model *md)
{
	static const double heights[] = { 300, 150, 100 };
	double widest = 0, v;
	struct yaxis a;
	char buf[96];
	unsigned k;
	int p;

	for (p = 0; p < md->npanels; p++)
		for (k = 0; k < sizeof heights / sizeof heights[0]; k++) {
			y_axis(md, p, heights[k], &a);
			for (v = 0; v <= a.top + a.step * 1e-6; v += a.step) {
				tick_text(v / a.u.div, a.step / a.u.div, a.u.suffix, buf,
				          sizeof buf);
				widest = fmax(widest, text_width(cr, buf, 18, 0));
			}
		}
	return fmax(110, widest + 26);
}

/* Panel p of the model inside box (x, y, w, h), its frame margin units
 * from the left and head units down (its title, and a note line). */
static void draw_panel(cairo_t *cr, const struct model *md, int p, double x, double y, double w,
                       double h, int last_row, double margin, double head)
{
	struct frame f = { x + margin, y + head, w - margin - 24, h - head - (last_row ? 74 : 14) };
	double top, v;
	struct yaxis a;
	char buf[96];
	size_t i;
	int s;

	y_axis(md, p, f.h, &a);
	top = a.top;
	/* panel title: what the metric is (the ticks say its unit) */
	grey(cr, 0.1);
	text(cr, f.x, y + 28, metric_table[md->metric[p]].title, 24, 1, 0, 0);
	/* grid and y ticks */
	cairo_set_line_width(cr, 1);
	for (v = 0; v <= top + a.step * 1e-6; v += a.step) {
		double yy = f.y + f.h - f.h * v / top;

		grey(cr, v == 0 ? 0.35 : 0.87);
		cairo_move_to(cr, f.x, yy);
		cairo_line_to(cr, f.x + f.w, yy);
		cairo_stroke(cr);
		grey(cr, 0.2);
		tick_text(v / a.u.div, a.step / a.u.div, a.u.suffix, buf, sizeof buf);
		text(cr, f.x - 10, yy, buf, 18, 0, 1, 0.5);
	}
	grey(cr, 0.35);
	cairo_move_to(cr, f.x, f.y);
	cairo_line_to(cr, f.x, f.y + f.h);
	cairo_stroke(cr);
	draw_marks(cr, md, &f);
	draw_x_ticks(cr, md, &f, last_row);
	if (last_row) {
		grey(cr, 0.1);
		if (md->xknob >= 0 && knob_table[md->xknob].unit &&
		    strcmp(knob_table[md->xknob].unit, "bytes") != 0)
			snprintf(buf, sizeof buf, "%s (%s)", knob_table[md->xknob].name,
			         knob_table[md->xknob].unit);
		else
			snprintf(buf, sizeof buf, "%s",
			         md->over_time   ? "seconds"
			         : md->xknob < 0 ? ""
			                         : knob_table[md->xknob].name);
		if (md->log)
			snprintf(buf + strlen(buf), sizeof buf - strlen(buf), " (log scale)");
		text(cr, f.x + f.w / 2, f.y + f.h + 62, buf, 20, 1, 0.5, 0);
	}
	if (!a.got) {
		grey(cr, 0.45);
		text(cr, f.x + f.w / 2, f.y + f.h / 2, "n/a in this run", 22, 0, 0.5, 0.5);
		return;
	}
	same_as_note(cr, md, p, f.x, y + 54, f.w);
	/* the series: a line through consecutive values, a gap at NaN */
	cairo_save(cr);
	cairo_rectangle(cr, f.x - 24, f.y - 24, f.w + 48, f.h + 48);
	cairo_clip(cr);
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
	for (s = 0; s < md->nseries; s++) {
		int open = 0;

		series_style(cr, s);
		cairo_new_path(cr);
		for (i = 0; i < md->len[s]; i++) {
			double xv = md->x[s][i], yv = md->y[p][s][i];

			if (isnan(xv) || isnan(yv)) {
				open = 0;
				continue;
			}
			if (open)
				cairo_line_to(cr, fx(md, &f, xv), f.y + f.h - f.h * yv / top);
			else
				cairo_move_to(cr, fx(md, &f, xv), f.y + f.h - f.h * yv / top);
			open = 1;
		}
		cairo_stroke(cr);
		for (i = 0; i < md->len[s]; i++) {
			double xv = md->x[s][i], yv = md->y[p][s][i];
			int alone =
			    (i == 0 || isnan(md->y[p][s][i - 1]) || isnan(md->x[s][i - 1])) &&
			    (i + 1 == md->len[s] || isnan(md->y[p][s][i + 1]) ||
			     isnan(md->x[s][i + 1]));

			if (isnan(xv) || isnan(yv) || !(md->markers || alone))
				continue;
			series_style(cr, s);
			marker(cr, s, fx(md, &f, xv), f.y + f.h - f.h * yv / top,
			       covered(md, &f, p, s, i, top));
		}
	}
	cairo_restore(cr);
}

/* Lines of at most width units from the "   "-separated items of s, drawn
 * from y down; the y under the last. */
static double wrapped(cairo_t *cr, const char *s, double x, double y, double width, double size)
{
	char line[1200] = "", item[200];
	const char *c = s;

	while (*c) {
		const char *end = strstr(c, "   ");
		size_t n = end ? (size_t)(end - c) : strlen(c);
		char tryl[1200];

		snprintf(item, sizeof item, "%.*s", (int)n, c);
		snprintf(tryl, sizeof tryl, "%.990s%s%.199s", line, *line ? "   " : "", item);
		if (*line && text_width(cr, tryl, size, 0) > width) {
			text(cr, x, y, line, size, 0, 0, 0);
			y += size * 1.35;
			snprintf(line, sizeof line, "%s", item);
		} else {
			snprintf(line, sizeof line, "%s", tryl);
		}
		c += n;
		while (*c == ' ')
			c++;
	}
	if (*line) {
		text(cr, x, y, line, size, 0, 0, 0);
		y += size * 1.35;
	}
	return y;
}

/* The legend (a sweep with more than one series) from y; the y under it. */
static double draw_legend(cairo_t *cr, const struct model *md, double y)
{
	double x = 60, lx;
	int s;

	if (md->nseries < 2)
		return y;
	grey(cr, 0.1);
	if (md->legend_title[0])
		x += text(cr, x, y, md->legend_title, 21, 1, 0, 0.5) + 24;
	for (s = 0; s < md->nseries; s++) {
		double wd = 64 + text_width(cr, md->label[s], 21, 0) + 30;

		if (x + wd > W - 40) {
			x = 60;
			y += 34;
		}
		lx = x;
		series_style(cr, s);
		cairo_move_to(cr, lx, y);
		cairo_line_to(cr, lx + 52, y);
		cairo_stroke(cr);
		marker(cr, s, lx + 26, y, 0);
		grey(cr, 0.1);
		text(cr, lx + 64, y, md->label[s], 21, 0, 0, 0.5);
		x += wd;
	}
	return y + 24;
}

/* The labels of the markers in a band from y, in as many rows as they
 * need (at most three; a label with no room is left out, its line stays).
 * The y under the band. */
static double mark_labels(cairo_t *cr, const struct model *md, const struct frame *f, double y)
{
	double right[3] = { -INFINITY, -INFINITY, -INFINITY }, bottom;
	int used = 0, r;
	size_t i;

	for (i = 0; i < md->nmarks; i++) {
		double x = fx(md, f, md->marks[i].x), wd;
		char buf[sizeof md->marks[i].text + 8];

		if (x < f->x - 1 || x > f->x + f->w + 1)
			continue;
		snprintf(buf, sizeof buf,
		         md->marks[i].caption ? "\xe2\x80\x9c%s\xe2\x80\x9d" : "%s",
		         md->marks[i].text);
		wd = text_width(cr, buf, 18, 0);
		for (r = 0; r < 3 && x < right[r] + 12; r++)
			;
		if (r == 3)
			continue;
		right[r] = x + wd + 4;
		if (r + 1 > used)
			used = r + 1;
		grey(cr, md->marks[i].caption ? 0.4 : 0.15);
		text(cr, x + wd > W - 20 ? x - wd - 4 : x + 4, y + 18 + r * 24, buf, 18, 0, 0, 0);
	}
	bottom = y + 24 * used + 8;
	for (i = 0; i < md->nmarks; i++) { /* the lines down to the panels */
		double x = fx(md, f, md->marks[i].x);

		if (x < f->x - 1 || x > f->x + f->w + 1)
			continue;
		grey(cr, md->marks[i].caption ? 0.6 : 0.3);
		cairo_set_line_width(cr, 1.5);
		cairo_move_to(cr, x, y + 2);
		cairo_line_to(cr, x, bottom + 48);
		cairo_stroke(cr);
	}
	return bottom;
}

static void draw(cairo_t *cr, const struct model *md)
{
	double y, top, margin = y_margin(cr, md), head = any_hidden(md) ? 64 : 44;
	int cols, rows, p;

	grey(cr, 1);
	cairo_paint(cr);
	grey(cr, 0.05);
	text(cr, 60, 54, md->title, 34, 1, 0, 0);
	grey(cr, 0.3);
	y = wrapped(cr, md->caption, 60, 92, W - 120, 20);
	y = draw_legend(cr, md, y + 12);
	if (md->over_time) {
		struct frame f = { margin, 0, W - margin - 24, 0 };

		if (md->nmarks)
			y = mark_labels(cr, md, &f, y);
		cols = 1;
		rows = md->npanels;
	} else {
		cols = md->npanels <= 3 ? md->npanels : md->npanels == 4 ? 2 : 3;
		rows = (md->npanels + cols - 1) / cols;
	}
	top = y + 4;
	for (p = 0; p < md->npanels; p++) {
		/* stacked over time, only the last panel has the x labels */
		double extra = md->over_time && rows > 1 ? 60 : 0;
		double pw = W / cols, ph = (H - top - 8 - extra) / rows;
		int c = p % cols, r = p / cols, last = !md->over_time || r == rows - 1;

		draw_panel(cr, md, p, c * pw, top + r * ph, pw, ph + (last ? extra : 0), last,
		           margin, head);
	}
}

static cairo_status_t put(void *closure, const unsigned char *data, unsigned int len)
{
	return fwrite(data, 1, len, closure) == len ? CAIRO_STATUS_SUCCESS
	                                            : CAIRO_STATUS_WRITE_ERROR;
}

/* Draw md on the format's surface into f. */
static cairo_status_t render(enum plot_format fmt, int dark, const struct model *md, FILE *f)
{
	cairo_surface_t *sf;
	cairo_status_t st;
	cairo_t *cr;

	switch (fmt) {
	case PF_PNG:
		sf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)W, (int)H);
		break;
	case PF_PDF:
		sf = cairo_pdf_surface_create_for_stream(put, f, W, H);
		break;
	case PF_SVG:
	default:
		sf = cairo_svg_surface_create_for_stream(put, f, W, H);
		break;
	}
	cr = cairo_create(sf);
	if (dark) /* any non-NULL pointer says dark */
		cairo_set_user_data(cr, &dark_key, (void *)&dark_key, NULL);
	draw(cr, md);
	st = cairo_status(cr);
	cairo_destroy(cr);
	if (st == CAIRO_STATUS_SUCCESS && fmt == PF_PNG)
		st = cairo_surface_write_to_png_stream(sf, put, f);
	cairo_surface_finish(sf);
	if (st == CAIRO_STATUS_SUCCESS)
		st = cairo_surface_status(sf);
	cairo_surface_destroy(sf);
	/* Give back the fonts cairo and fontconfig loaded (the process is
	 * done drawing; a later chart loads them again). */
	cairo_debug_reset_static_data();
	FcFini();
	return st;
}

int plot_write(struct plot *pl, char *summary, size_t len, struct err *e)
{
	struct model *md = xcalloc(1, sizeof *md);
	cairo_status_t st;
	int interval = 0, fd, rc = 0;
	size_t i;
	FILE *f;

	for (i = 0; i < pl->n; i++)
		interval |= pl->pts[i].interval;
	if (pl->kind != PK_AUTO)
		interval = pl->kind == PK_TIME;
	pick_metrics(pl, interval, md);
	if (interval)
		model_time(pl, md);
	else
		model_sweep(pl, md);
	if (md->points == 0) {
		model_free(md);
		free(md);
		return err_set(e, ERR_RUNTIME, "--plot %s: no record to draw (no step finished)",
		               pl->path);
	}
	fd = open(pl->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		rc = err_set(e, ERR_RUNTIME, "--plot %s: cannot create it: %s%s", pl->path,
		             strerror(errno),
		             errno == EEXIST ? " (it appeared during the run; idxlab overwrites "
		                               "nothing)"
		                             : "");
		if (fd >= 0)
			close(fd);
	} else {
		st = render(pl->fmt, pl->dark, md, f);
		if (fclose(f) != 0 && st == CAIRO_STATUS_SUCCESS)
			st = CAIRO_STATUS_WRITE_ERROR;
		if (st != CAIRO_STATUS_SUCCESS) {
			rc = err_set(e, ERR_RUNTIME, "--plot %s: %s (the file is removed)",
			             pl->path, cairo_status_to_string(st));
			unlink(pl->path);
		}
	}
	if (rc == 0 && summary) {
		size_t changes = 0, n;

		for (i = 0; i < md->nmarks; i++)
			changes += !md->marks[i].caption;
		if (md->over_time)
			n = (size_t)snprintf(
			    summary, len, "an over-time chart (%s): ",
			    pl->plan->replay_path ? "the recording's windows"
			    : pl->plan->steps > 1
			        ? "the --interval records; --plot-kind sweep draws "
			          "the steps"
			        : "the --interval records");
		else if (md->xknob >= 0)
			n = (size_t)snprintf(summary, len,
			                     "a sweep chart (x %s): ", knob_table[md->xknob].name);
		else
			n = (size_t)snprintf(summary, len, "a one-step chart: ");
		if (n < len)
			snprintf(summary + n, len - n, "%d panel%s, %d series, %zu record%s",
			         md->npanels, md->npanels == 1 ? "" : "s", md->nseries, md->points,
			         md->points == 1 ? "" : "s");
		if (md->over_time)
			snprintf(summary + strlen(summary), len - strlen(summary),
			         ", %zu knob change%s", changes, changes == 1 ? "" : "s");
	}
	model_free(md);
	free(md);
	return rc;
}

void plot_free(struct plot *pl)
{
	if (!pl)
		return;
	free(pl->path);
	free(pl->pts);
	free(pl->notes);
	free(pl);
}
