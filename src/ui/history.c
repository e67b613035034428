/* history.c - the dashboard's memory (see history.h).
 *
 * Owns: the sample ring, the markers, the baseline, and the numbers the
 * panels print (history_format; the change labels and ratios are label.c's). Must never: call curses, read a clock, or post to the
 * worker - whoever holds a history passes the times in. */
#include "history.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../units.h"
#include "label.h"
#include "glyphs.h"
#include "spark.h"

/* A ratio within this factor of 1 is neither better nor worse: noise. */
#define RATIO_SAME 1.1

struct history *history_new(void)
{
	struct history *h = calloc(1, sizeof *h);

	if (!h)
		abort();
	return h;
}

void history_free(struct history *h)
{
	free(h);
}

const struct sample *history_at(const struct history *h, int back)
{
	if (back < 0 || back >= h->n)
		return NULL;
	return &h->ring[(h->head - 1 - back + HIST_CAP) % HIST_CAP];
}

/* The value window ending at sample `back` (counted from the latest): the
 * figures' time it starts at; 0 with *t0 unset when it has none. */
static int value_window(const struct history *h, int back, double *t0)
{
	int span = (int)lround(HIST_VALUE_SPAN / HIST_PERIOD);
	const struct sample *a = history_at(h, back + span < h->n ? back + span : h->n - 1);

	if (!a || a == history_at(h, back))
		return 0;
	*t0 = a->c.t;
	return 1;
}

/* What each value column shows at the sample just kept (s, the latest). */
static void keep_shown(const struct history *h, struct sample *s)
{
	int m, na;
	double t0;

	s->change = value_window(h, 0, &t0) && history_marked(h, t0, s->c.t);
	for (m = 0; m < M_COUNT; m++) {
		double v = history_value(h, m, (int)lround(HIST_VALUE_SPAN / HIST_PERIOD), &na);

		s->shown[m] = na ? NAN : v;
	}
}

int history_offer(struct history *h, const struct live *l, double now)
{
	const struct sample *prev = history_at(h, 0);
	struct sample *s = &h->ring[h->head];
	int checkpoint;

	/* (Give or take rounding: a replay's catch-up offers samples exactly
	 * HIST_PERIOD apart.) */
	if (!l->gen || (now - h->last_push < HIST_PERIOD - 1e-6 && h->n))
		return 0;
	h->last_push = now;
	/* A checkpoint landed: the writes after it pay full-page images. */
	checkpoint = prev && (prev->full.valid & l->full.valid & (1u << C_CHECKPOINTS)) &&
	             l->full.v[C_CHECKPOINTS] > prev->full.v[C_CHECKPOINTS];
	s->c = l->c;
	s->full = l->full;
	s->lat = l->lat;
	s->sizes = l->sizes;
	s->table_rows = l->table_rows;
	h->head = (h->head + 1) % HIST_CAP;
	if (h->n < HIST_CAP)
		h->n++;
	keep_shown(h, s);
	return checkpoint;
}

void history_reset(struct history *h)
{
	const struct sample *latest = history_at(h, 0);

	if (latest) {
		struct sample keep = *latest;

		h->ring[0] = keep;
		h->head = 1;
		h->n = 1;
	}
	h->nmarkers = 0;
}

void history_rewind(struct history *h)
{
	h->n = 0;
	h->head = 0;
	h->last_push = 0;
	h->nmarkers = 0;
	h->base_on = 0;
}

/* The sample at or before `older` whose full reading is older than the one
 * `newer` has, or NULL (none kept). */
static const struct sample *full_before(const struct history *h, int older, const struct sample *b)
{
	const struct sample *a;

	while ((a = history_at(h, older)) != NULL && a->full.t >= b->full.t)
		older++;
	return a;
}

double history_between(const struct history *h, int m, int older, int newer, int *na)
{
	const struct sample *a = history_at(h, older), *b = history_at(h, newer);
	struct lats delta; /* on the stack: no allocation per sparkline cell */
	const struct hist *from;
	struct window w;
	struct mval v;

	if (na)
		*na = 0;
	if (!a || !b || older <= newer)
		return NAN;
	if ((from = lats_for(&a->lat, m))) /* only the histogram m reads */
		hist_delta(lats_for(&b->lat, m), from, (struct hist *)lats_for(&delta, m));
	w.a = &a->c;
	w.b = &b->c;
	w.lat = &delta;
	w.sizes = &b->sizes;
	v = metric_compute(m, &w);
	/* An engine's figure at a light end: between the full readings. */
	if (v.state == MV_NA && (a->full.t != a->c.t || b->full.t != b->c.t) &&
	    (a = full_before(h, older, b)) != NULL) {
		w.a = &a->full;
		w.b = &b->full;
		v = metric_compute(m, &w);
	}
	if (v.state == MV_NA && na)
		*na = 1;
	return v.state == MV_OK ? v.v : NAN;
}

double history_value(const struct history *h, int m, int back, int *na)
{
	if (metric_table[m].kind == MK_INDEX_BYTES || metric_table[m].kind == MK_DB_BYTES)
		back = 1;
	if (back > h->n - 1)
		back = h->n - 1;
	return history_between(h, m, back, 0, na);
}

double history_span(const struct history *h, int most)
{
	double least = HIST_MIN_SPAN / HIST_PERIOD, seen = h->n - 1;

	if (seen < least)
		seen = least;
	return seen < most ? seen : most;
}

/* Column j of ncols over span samples ends `back` samples before the
 * latest: its right edge (its left one is column j - 1's). */
static double column_back(int ncols, double span, int j)
{
	return (ncols - 1 - j) * span / ncols;
}

/* The whole samples column j's figure is taken between: the one at or
 * before its right edge, and at or before its left one (at least the next). */
static void column_samples(int ncols, double span, int j, int *older, int *newer)
{
	*newer = (int)floor(column_back(ncols, span, j) + 1e-9);
	*older = (int)floor(column_back(ncols, span, j - 1) + 1e-9);
	if (*older <= *newer)
		*older = *newer + 1;
}

void history_series(const struct history *h, int m, int ncols, double span, double *vals)
{
	int j, older, newer;

	for (j = 0; j < ncols; j++) {
		column_samples(ncols, span, j, &older, &newer);
		vals[j] = history_between(h, m, older, newer, NULL);
	}
}

double history_chart_mean(const struct history *h, double span)
{
	const struct sample *a, *b = history_at(h, 0);
	double least = HIST_CHART_MEAN / HIST_PERIOD, most = HIST_CHART_MEAN_MAX / HIST_PERIOD;
	int back = (int)span < h->n - 1 ? (int)span : h->n - 1;

	a = history_at(h, back);
	if (a && b && b->c.v[C_COMMITS] > a->c.v[C_COMMITS] && b->c.t > a->c.t) {
		/* two commits' time, in samples of this history */
		double per = 2.0 * back / (double)(b->c.v[C_COMMITS] - a->c.v[C_COMMITS]);

		if (per > least)
			least = per;
	}
	return least < most ? ceil(least) : most;
}

void history_series_mean(const struct history *h, int m, int ncols, double span, double least,
                         double *vals, int *changed)
{
	int j, older, newer;

	for (j = 0; j < ncols; j++) {
		column_samples(ncols, span, j, &older, &newer);
		if (older < newer + (int)least)
			older = newer + (int)least; /* (before the history: unknown) */
		vals[j] = history_between(h, m, older, newer, NULL);
		if (changed)
			changed[j] = !isnan(vals[j]) && history_marked(h, history_at(h, older)->c.t,
			                                               history_at(h, newer)->c.t);
	}
}

int history_column_times(const struct history *h, int ncols, double span, double least, int j,
                         double *t0, double *t1)
{
	const struct sample *a, *b;
	int older, newer;

	column_samples(ncols, span, j, &older, &newer);
	if (older < newer + (int)least)
		older = newer + (int)least;
	a = history_at(h, older);
	b = history_at(h, newer);
	if (!a || !b)
		return -1;
	*t0 = a->c.t;
	*t1 = b->c.t;
	return 0;
}

/* The figures' time `back` (a fraction of samples) before the latest,
 * between the two samples around it; 0 with *t unset when none is kept. */
static int time_at(const struct history *h, double back, double *t)
{
	int i = (int)floor(back + 1e-9);
	const struct sample *a = history_at(h, i), *b = history_at(h, i + 1);
	double frac = back - i;

	if (!a || (frac > 1e-9 && !b))
		return 0;
	*t = frac > 1e-9 ? a->c.t - frac * (a->c.t - b->c.t) : a->c.t;
	return 1;
}

void history_series_marks(const struct history *h, int ncols, double span, int *marks)
{
	int j, i;

	for (j = 0; j < ncols; j++) {
		double t0, t1;

		marks[j] = -1;
		if (!time_at(h, column_back(ncols, span, j - 1), &t0) ||
		    !time_at(h, column_back(ncols, span, j), &t1))
			continue;
		for (i = 0; i < h->nmarkers; i++)
			if (h->markers[i].t > t0 && h->markers[i].t <= t1)
				marks[j] = i;
	}
}

void history_mark(struct history *h, double t, int knob, const char *label)
{
	struct marker *m;
	int i;

	if (h->nmarkers == HIST_MAX_MARKERS) {
		memmove(h->markers, h->markers + 1, sizeof h->markers[0] * (HIST_MAX_MARKERS - 1));
		h->nmarkers--;
	}
	m = &h->markers[h->nmarkers++];
	m->t = t;
	m->knob = knob;
	snprintf(m->label, sizeof m->label, "%.*s", (int)sizeof m->label - 1, label);
	/* (a replay's marker may land among samples already kept) */
	for (i = 0; i < h->n; i++) {
		struct sample *s = &h->ring[(h->head - 1 - i + HIST_CAP) % HIST_CAP];
		double t0;

		if (s->c.t < t)
			break;
		if (value_window(h, i, &t0) && t0 < t)
			s->change = 1;
	}
}

int history_marked(const struct history *h, double t0, double t1)
{
	int i;

	for (i = 0; i < h->nmarkers; i++)
		if (h->markers[i].t > t0 && h->markers[i].t <= t1)
			return 1;
	return 0;
}

int history_pin(struct history *h, const struct knobs *knobs, int speed, double *span)
{
	double since = h->nmarkers ? h->markers[h->nmarkers - 1].t : 0;
	int back = 0, most = (int)lround(HIST_BASE_SPAN / HIST_PERIOD), m;
	const struct sample *s;
	const struct counters *a, *b;

	/* HIST_BASE_SPAN on the figures' clock: a 4x replay's history runs 4x. */
	most = most / speed > 4 ? most / speed : 4;
	while (back < most && (s = history_at(h, back + 1)) != NULL && s->c.t >= since)
		back++;
	if (back < (int)lround(HIST_VALUE_SPAN / HIST_PERIOD))
		return HIST_PIN_TOO_SOON;
	/* A window with no row done, or no commit (but under commit = all,
	 * which has none to wait for), has no figure to pin. */
	a = &history_at(h, back)->c;
	b = &history_at(h, 0)->c;
	if (a->v[C_ROWS] == b->v[C_ROWS] ||
	    (a->v[C_COMMITS] == b->v[C_COMMITS] && knobs->v[K_COMMIT] != COMMIT_ALL))
		return HIST_PIN_EMPTY;
	for (m = 0; m < M_COUNT; m++) {
		double v = history_value(h, m, back, &h->base_na[m]);

		h->base[m] = h->base_na[m] ? NAN : v;
	}
	h->base_on = 1;
	h->base_knobs = *knobs;
	h->base_from[0] = 0;
	*span = history_at(h, 0)->c.t - history_at(h, back)->c.t;
	return 0;
}

void history_unpin(struct history *h)
{
	h->base_on = 0;
}

void history_pin_saved(struct history *h, const double *v, const int *na, const struct knobs *knobs,
                       const char *from)
{
	memcpy(h->base, v, sizeof h->base);
	memcpy(h->base_na, na, sizeof h->base_na);
	h->base_knobs = *knobs;
	snprintf(h->base_from, sizeof h->base_from, "%s", from);
	h->base_on = 1;
}

static int is_pct(int m)
{
	return metric_table[m].kind == MK_PCT || metric_table[m].kind == MK_GAUGE_PCT;
}

double history_full_scale(const struct history *h, int m, int back, double on_screen)
{
	double max = isnan(on_screen) ? 0 : on_screen;
	const struct sample *s;
	int i;

	if (is_pct(m))
		return 100;
	if (h->scales_pinned && h->pinned[m] > 0)
		return h->pinned[m];
	for (i = 0; i <= back && (s = history_at(h, i)) != NULL; i++)
		if (!s->change && s->shown[m] > max) /* false for NAN */
			max = s->shown[m];
	return strcmp(metric_table[m].unit, "B") == 0 ? spark_nice_bytes(max) : spark_nice(max);
}

double history_drawn_max(const struct history *h, double v, const double *vals, const int *marks,
                         int n)
{
	const struct sample *latest = history_at(h, 0);
	double max = 0;
	int j;

	if (!(latest && latest->change) && v > max) /* false for NAN */
		max = v;
	for (j = 0; j < n; j++)
		if (!(marks && marks[j] >= 0) && vals[j] > max)
			max = vals[j];
	return max;
}

void history_pin_scales(struct history *h, const double *full)
{
	memcpy(h->pinned, full, sizeof h->pinned);
	h->scales_pinned = 1;
}

void history_unpin_scales(struct history *h)
{
	h->scales_pinned = 0;
}

void history_format_scale(int m, double full, char *buf, size_t len)
{
	static const char *const bytes[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	static const char *const plain[] = { "", "k", "M", "G", "T" };
	const char *unit = metric_table[m].unit;
	int i = 0;

	if (!(full > 0) || isinf(full)) {
		snprintf(buf, len, "%s", "");
	} else if (is_pct(m)) {
		snprintf(buf, len, "%.0f%%", full);
	} else if (strcmp(unit, "B") == 0 && full < 1) { /* a per-row figure under a byte */
		snprintf(buf, len, "%.2gB", full);
	} else if (strcmp(unit, "B") == 0) {
		while (full >= 1024 && i < 4) {
			full /= 1024;
			i++;
		}
		snprintf(buf, len, "%.0f%s", full, bytes[i]);
	} else if (strcmp(unit, "s") == 0) { /* the value is in milliseconds */
		if (full >= 1000)
			snprintf(buf, len, "%.0fs", full / 1000);
		else if (full >= 1)
			snprintf(buf, len, "%.0fms", full);
		else if (full >= 1e-3)
			snprintf(buf, len, "%.0fus", full * 1e3);
		else
			snprintf(buf, len, "%.0fns", full * 1e6);
	} else if (full < 1) {
		snprintf(buf, len, "%.2g", full);
	} else {
		while (full >= 1000 && i < 4) {
			full /= 1000;
			i++;
		}
		snprintf(buf, len, "%.0f%s", full, plain[i]);
	}
}

int history_ratio_sense(int m, double v, double base, double near0)
{
	enum better b = metric_table[m].better;
	int up;

	if (b == BETTER_NONE || isnan(v) || isnan(base))
		return 0;
	if (base <= near0 || base == 0) {
		if (v <= near0 || v == 0)
			return 0;
		up = 1; /* from (about) 0 */
	} else if (v / base >= RATIO_SAME) {
		up = 1;
	} else if (v / base <= 1 / RATIO_SAME) {
		up = 0;
	} else {
		return 0;
	}
	return up == (b == BETTER_HIGHER) ? 1 : -1;
}

int history_ratio_text(const struct history *h, int m, double v, double full, int ascii, char *buf,
                       size_t len)
{
	static const enum glyph mark[] = { [0] = G_WORSE, [1] = G_NONE, [2] = G_BETTER };
	double near0 = full / 1000, base = h->base[m];
	int sense = history_ratio_sense(m, v, base, near0);
	size_t n;

	label_ratio_near(v, base, near0, ascii, buf, len);
	n = strlen(buf);
	snprintf(buf + n, len - n, "%s", glyphs_for(ascii)->s[mark[sense + 1]]);
	return sense;
}

void history_format(int m, double v, int na, char *buf, size_t len)
{
	const struct metric_def *md = &metric_table[m];

	if (na) {
		snprintf(buf, len, "n/a");
	} else if (isnan(v)) {
		snprintf(buf, len, "...");
	} else if (md->kind == MK_QUANTILE || md->kind == MK_MAX) {
		units_human(v / 1000.0, "s", buf, len);
	} else if (md->kind == MK_PER_ROW || md->kind == MK_PER_COMMIT) {
		if (strcmp(md->unit, "B") == 0)
			units_human(v, "B", buf, len);
		else if (v == 0)
			snprintf(buf, len, "0");
		else if (v < 0.0001) /* not "0.0000": it is not none */
			snprintf(buf, len, "<0.0001");
		else if (v < 0.01)
			snprintf(buf, len, "%.4f", v);
		else
			units_human(v, "", buf, len);
	} else {
		units_human(v, md->unit, buf, len);
	}
}
