/* ab_dash.c - A/B on the dashboard (key a; ab.h says what it is).
 *
 * The keys (a: take A, then start; a again or Esc: end, back to A), the
 * frame's tick that switches sides, the status line, and which trace a
 * column of a sparkline or chart belongs to. A side is posted whole with
 * dash_post, like any knob change: the worker applies it between two
 * batches, all of it at once (workload_live.c's apply_change), so it never
 * runs half of one. B may differ from A only in knobs the engine changes
 * live on the same table: a knob that needs a new table is refused while B
 * is being set, naming it. While A/B runs the knobs do not move (a or Esc
 * ends it first); a failed run, or a demo playing, ends it.
 *
 * The figures of each phase are taken from the history over the phase's
 * settled part (ab.h: its first AB_SETTLE seconds left out) when it ends. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../engines/engine.h"
#include "../record.h"
#include "actions.h"
#include "label.h"
#include "ui.h"

/* The least a phase's settled part must span to give a figure. */
#define AB_LEAST_S 1.0

static double period_of(const struct dash *d)
{
	double p = (double)d->k.want.v[K_AB_PERIOD] / 1000.0;

	return p > 0 ? p : AB_PERIOD;
}

/* Phase p's figures over its settled part, up to the latest sample. */
static void phase_figures(const struct dash *d, const struct ab_phase *p, double *v)
{
	const struct history *h = d->hist;
	const struct sample *s, *latest = history_at(h, 0);
	double from = p->t0 + AB_SETTLE;
	int back = 0, i, na;

	for (i = 0; i < AB_NFIGS; i++)
		v[i] = NAN;
	while ((s = history_at(h, back + 1)) != NULL && s->c.t >= from)
		back++;
	s = history_at(h, back);
	if (!latest || !s || s->c.t < from || latest->c.t - s->c.t < AB_LEAST_S)
		return; /* too little of it settled (a slow sample, a reset) */
	for (i = 0; i < AB_NFIGS; i++) {
		double x = history_between(h, d->ab.figs[i], back, 0, &na);

		v[i] = na ? NAN : x;
	}
}

/* "rows/s B/A 0.41x [0.38..0.44, 3 pairs]" for each figure, into buf. */
static void ratios_text(const struct dash *d, char *buf, size_t len)
{
	size_t n = 0;
	int f;

	buf[0] = 0;
	for (f = 0; f < AB_NFIGS && n < len; f++) {
		struct ab_ratio r;
		char q[96];
		int known = ab_ratio(&d->ab, f, &r) == 0;

		ab_format_ratio(&r, known, q, sizeof q);
		n += (size_t)snprintf(buf + n, len - n, "%s%s B/A %s", f ? ", " : "",
		                      record_metric_label(d->ab.figs[f], &d->k.applied), q);
	}
}

/* End A/B (why: what ended it); back to A's knobs unless stay. */
static void ab_stop(struct dash *d, const char *why, int stay)
{
	struct ab *ab = &d->ab;
	char text[400];

	if (ab->state == AB_RUNNING) {
		ratios_text(d, text, sizeof text);
		evlog_add(stay ? EV_WARN : EV_INFO, "A/B ended (%s) after %d phases, %s: %s", why,
		          ab->count, stay ? "the knobs stay as they are" : "back to A", text);
	} else {
		evlog_add(EV_INFO, "A/B cancelled (%s)%s", why, stay ? "" : ": back to A");
	}
	ab->state = AB_OFF;
	if (!stay && memcmp(d->k.want.v, ab->a.v, sizeof ab->a.v) != 0)
		dash_post(d, &ab->a);
}

void actions_ab(struct dash *d, int ch)
{
	struct ab *ab = &d->ab;
	const char *name;
	char label[160];
	int figs[AB_NFIGS];

	(void)ch;
	if (!d->feed->ops->set) { /* (the events too: an apply may hold the status line) */
		evlog_add(EV_WARN, "A/B: %s", d->feed->ops->no_set);
		dash_say(d, "A/B: %s", d->feed->ops->no_set);
		return;
	}
	if (ab->state == AB_RUNNING) {
		ab_stop(d, "a", 0);
		return;
	}
	if (ab->state == AB_OFF) {
		ab_begin(ab, &d->k.want);
		evlog_add(EV_INFO, "A/B: A is the setting now; move knobs to set B, then press a "
		                   "again to start (Esc cancels)");
		return;
	}
	if (knobs_same_workload(&ab->a, &d->k.want)) {
		dash_say(d, "A/B: B is still A - move a knob to set B, then press a (Esc cancels)");
		return;
	}
	if ((name = ab_rebuild_knob(&ab->a, &d->k.want)) != NULL) {
		dash_say(d, "A/B: B's %s needs a new table; A and B share one", name);
		return;
	}
	figs[0] = M_ROWS_PER_S;
	figs[1] = engine_figure((int)d->k.want.v[K_ENGINE]);
	ab_start(ab, &d->k.want, period_of(d), figs, d->k.applied_gen < d->k.posted_gen);
	if (!ab->pending)
		ab_in_force(ab, d->feed->ops->now(d->feed));
	ab->t_last = d->feed->ops->now(d->feed);
	label_change(&ab->a, &ab->b, d->term.g->ascii, label, sizeof label);
	evlog_add(EV_INFO,
	          "A/B: B is A with %s; each runs %.0f s in turn, its first %.0f s after a "
	          "switch counted in neither trace (a or Esc ends)",
	          label, ab->period, AB_SETTLE);
}

void actions_ab_end(struct dash *d, int ch)
{
	(void)ch;
	if (d->ab.state != AB_OFF)
		ab_stop(d, "Esc", 0);
}

int dash_ab_refused(struct dash *d, const struct knobs *to)
{
	const char *name;

	if (d->ab.state == AB_RUNNING) {
		/* (in the events too: a switch's "building ..." holds the status line) */
		evlog_add(EV_WARN, "A/B runs: press a or Esc to end it before moving a knob");
		dash_say(d, "A/B runs: press a or Esc to end it before moving a knob");
		return 1;
	}
	if (d->ab.state == AB_SET_B && (name = ab_rebuild_knob(&d->ab.a, to)) != NULL) {
		evlog_add(EV_WARN,
		          "A/B: B cannot change %s: that needs a new table, and A and B run on "
		          "the same one (Esc ends A/B)",
		          name);
		dash_say(d, "A/B: %s needs a new table - refused (Esc ends A/B)", name);
		return 1;
	}
	return 0;
}

/* The side just posted came in force: its phase opens. */
static void in_force(struct dash *d, double now)
{
	struct ab *ab = &d->ab;
	char label[160];

	ab_in_force(ab, d->live->knobs_t > 0 ? d->live->knobs_t : now);
	label_change(ab_knobs(ab, !ab->side), ab_knobs(ab, ab->side), d->term.g->ascii, label,
	             sizeof label);
	/* (short: its repeats fold into "A/B 2, 4, 6: A in force ... x3"; the
	 * ratios are on the status line, and in the line that ends A/B) */
	evlog_add(EV_INFO, "A/B %d: %c in force (%s)", ab->count, ab->side == AB_A ? 'A' : 'B',
	          label);
}

void dash_ab_tick(struct dash *d)
{
	struct ab *ab = &d->ab;
	double now = d->feed->ops->now(d->feed), dt = now - ab->t_last, v[AB_NFIGS];
	const struct sample *latest;

	ab->t_last = now;
	if (ab->state != AB_RUNNING)
		return;
	if (d->live->state == LS_FAILED) {
		ab_stop(d, "the run failed", 1);
		return;
	}
	if (dash_demo_playing(d)) {
		ab_stop(d, "the demo plays", 1);
		return;
	}
	if (ab->pending) {
		if (d->k.applied_gen >= d->k.posted_gen)
			in_force(d, now);
		return;
	}
	if (!ab_tick(ab, now, dt, d->live->state == LS_RUNNING))
		return;
	latest = history_at(d->hist, 0);
	phase_figures(d, &ab->ph[ab->nph - 1], v);
	if (ab->ph[ab->nph - 1].spoiled)
		evlog_add(EV_WARN,
		          "A/B %d: %c left out of the figures: the workload did not run all "
		          "through it (a pause, the table starting over)",
		          ab->count, ab->side == AB_A ? 'A' : 'B');
	ab_switch(ab, latest ? latest->c.t : now, v);
	dash_post(d, ab_knobs(ab, ab->side));
}

/* What the colours and glyphs of the two traces are, per theme. */
static const char *legend(const struct dash *d)
{
	if (!d->term.color || !has_colors())
		return "A plain, B underlined";
	if (d->term.theme == THEME_LIGHT)
		return "A blue, B red underlined";
	return "A cyan, B yellow underlined";
}

int dash_ab_status(const struct dash *d, char *buf, size_t len)
{
	const struct ab *ab = &d->ab;
	char label[160], text[400], where[64];

	if (ab->state == AB_OFF)
		return 0;
	if (ab->state == AB_SET_B) {
		label_change(&ab->a, &d->k.want, d->term.g->ascii, label, sizeof label);
		snprintf(buf, len,
		         " A/B: set B with the knobs (B: %s), press a again to start; Esc "
		         "cancels",
		         *label ? label : "still A");
		return 1;
	}
	if (ab->pending)
		snprintf(where, sizeof where, "switching to %c", ab->side == AB_A ? 'A' : 'B');
	else
		snprintf(where, sizeof where, "%d: %c, %.0f s left", ab->count,
		         ab->side == AB_A ? 'A' : 'B',
		         ab->period > ab->elapsed ? ceil(ab->period - ab->elapsed) : 0);
	ratios_text(d, text, sizeof text);
	snprintf(buf, len, " A/B %s  %s  (traces: %s; a/Esc ends)", where, text, legend(d));
	return 1;
}

int dash_ab_ratio_of(const struct dash *d, int m, char *buf, size_t len)
{
	struct ab_ratio r;
	char q[96];
	int f;

	if (d->ab.state != AB_RUNNING)
		return 0;
	for (f = 0; f < AB_NFIGS && d->ab.figs[f] != m; f++)
		;
	if (f == AB_NFIGS)
		return 0;
	ab_format_ratio(&r, ab_ratio(&d->ab, f, &r) == 0, q, sizeof q);
	snprintf(buf, len, "B/A %s", q);
	return 1;
}

int dash_ab_trace(const struct dash *d, double t0, double t1)
{
	return ab_side_at(&d->ab, t0, t1);
}
