/* history.c - the dashboard's memory (see history.h).
 *
 * Owns: the sample ring, the markers, the baseline, and the pure labels and
 * numbers the panels print (dash_change_label, dash_format_ratio,
 * history_format). Must never: call curses, read a clock, or post to the
 * worker - whoever holds a history passes the times in. */
#include "history.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../units.h"
#include "dash.h"
#include "glyphs.h"

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
	checkpoint = prev && (prev->c.valid & l->c.valid & (1u << C_CHECKPOINTS)) &&
	             l->c.v[C_CHECKPOINTS] > prev->c.v[C_CHECKPOINTS];
	s->c = l->c;
	s->lat = l->lat;
	s->sizes = l->sizes;
	s->table_rows = l->table_rows;
	h->head = (h->head + 1) % HIST_CAP;
	if (h->n < HIST_CAP)
		h->n++;
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

double history_between(const struct history *h, int m, int older, int newer, int *na)
{
	const struct sample *a = history_at(h, older), *b = history_at(h, newer);
	struct hist delta; /* 8 KiB on the stack: no allocation per sparkline cell */
	struct window w;
	struct mval v;

	if (na)
		*na = 0;
	if (!a || !b || older <= newer)
		return NAN;
	hist_delta(&b->lat, &a->lat, &delta);
	w.a = &a->c;
	w.b = &b->c;
	w.lat = &delta;
	w.sizes = &b->sizes;
	v = metric_compute(m, &w);
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

void history_series(const struct history *h, int m, int ncols, int per_col, double *vals)
{
	int j;

	for (j = 0; j < ncols; j++) {
		int newer = (ncols - 1 - j) * per_col;

		vals[j] = history_between(h, m, newer + per_col, newer, NULL);
	}
}

void history_series_marks(const struct history *h, int ncols, int per_col, int *marks)
{
	int j;

	for (j = 0; j < ncols; j++) {
		int newer = (ncols - 1 - j) * per_col;
		const struct sample *a = history_at(h, newer + per_col), *b = history_at(h, newer);

		marks[j] = a && b && history_marked(h, a->c.t, b->c.t);
	}
}

void history_mark(struct history *h, double t, int knob, const char *label)
{
	struct marker *m;

	if (h->nmarkers == HIST_MAX_MARKERS) {
		memmove(h->markers, h->markers + 1, sizeof h->markers[0] * (HIST_MAX_MARKERS - 1));
		h->nmarkers--;
	}
	m = &h->markers[h->nmarkers++];
	m->t = t;
	m->knob = knob;
	snprintf(m->label, sizeof m->label, "%.*s", (int)sizeof m->label - 1, label);
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

	/* HIST_BASE_SPAN on the figures' clock: a 4x replay's history runs 4x. */
	most = most / speed > 4 ? most / speed : 4;
	while (back < most && (s = history_at(h, back + 1)) != NULL && s->c.t >= since)
		back++;
	if (back < (int)lround(HIST_VALUE_SPAN / HIST_PERIOD))
		return -1;
	for (m = 0; m < M_COUNT; m++) {
		double v = history_value(h, m, back, &h->base_na[m]);

		h->base[m] = h->base_na[m] ? NAN : v;
	}
	h->base_on = 1;
	h->base_knobs = *knobs;
	*span = history_at(h, 0)->c.t - history_at(h, back)->c.t;
	return 0;
}

void history_unpin(struct history *h)
{
	h->base_on = 0;
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
		else if (v < 0.01)
			snprintf(buf, len, "%.4f", v);
		else
			units_human(v, "", buf, len);
	} else {
		units_human(v, md->unit, buf, len);
	}
}

void dash_change_label(const struct knobs *a, const struct knobs *b, int ascii, char *buf,
                       size_t len)
{
	const char *arrow = glyphs_for(ascii)->s[G_ARROW];
	size_t n = 0;
	int id;

	buf[0] = 0;
	for (id = 0; id < K_COUNT && n < len; id++) {
		char from[64], to[64];

		if (a->v[id] == b->v[id] || knob_table[id].kind == KNOB_STRING)
			continue;
		if (id == K_INDEXES) {
			n += (size_t)snprintf(buf + n, len - n, "%s%+lld idx", n ? ", " : "",
			                      b->v[id] - a->v[id]);
			continue;
		}
		knob_format(id, a->v[id], from, sizeof from);
		knob_format(id, b->v[id], to, sizeof to);
		n += (size_t)snprintf(buf + n, len - n, "%s%s %s %s %s", n ? ", " : "",
		                      knob_table[id].name, from, arrow, to);
	}
}

void dash_format_ratio(double v, double base, char *buf, size_t len)
{
	double r;

	if (isnan(v) || isnan(base) || (base == 0 && v == 0)) {
		snprintf(buf, len, "-");
		return;
	}
	if (base == 0) {
		snprintf(buf, len, "from 0");
		return;
	}
	r = v / base;
	snprintf(buf, len, r >= 9.995 ? "%.0fx" : r >= 0.01 || r == 0 ? "%.2fx" : "%.1gx", r);
}
