/* ab.c - the A/B comparison's bookkeeping (see ab.h).
 *
 * Owns: the two settings, which side runs, its phases and their figures,
 * and the ratios drawn from them. Must never: call curses, read a clock or
 * the history, or post to the worker - ab_dash.c does, and passes in the
 * times and figures. */
#include "ab.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void ab_begin(struct ab *ab, const struct knobs *a)
{
	memset(ab, 0, sizeof *ab);
	ab->state = AB_SET_B;
	ab->a = *a;
}

void ab_start(struct ab *ab, const struct knobs *b, double period, const int *figs, int pending)
{
	ab->state = AB_RUNNING;
	ab->b = *b;
	ab->period = period;
	memcpy(ab->figs, figs, sizeof ab->figs);
	ab->side = AB_B;
	ab->pending = pending;
	ab->nph = 0;
	ab->count = 0;
}

const struct knobs *ab_knobs(const struct ab *ab, int side)
{
	return side == AB_B ? &ab->b : &ab->a;
}

void ab_in_force(struct ab *ab, double t)
{
	struct ab_phase *p;
	int i;

	if (ab->nph == AB_MAX_PHASES) {
		memmove(ab->ph, ab->ph + 1, sizeof ab->ph[0] * (AB_MAX_PHASES - 1));
		ab->nph--;
	}
	p = &ab->ph[ab->nph++];
	memset(p, 0, sizeof *p);
	p->side = ab->side;
	p->n = ++ab->count;
	p->t0 = t;
	for (i = 0; i < AB_NFIGS; i++)
		p->v[i] = NAN;
	ab->pending = 0;
	ab->elapsed = 0;
}

int ab_tick(struct ab *ab, double t, double dt, int running)
{
	struct ab_phase *p;

	if (ab->state != AB_RUNNING || ab->pending || !ab->nph)
		return 0;
	p = &ab->ph[ab->nph - 1];
	if (running)
		ab->elapsed += dt;
	else if (t > p->t0 + AB_SETTLE)
		p->spoiled = 1; /* (in its transition, a state may lag) */
	return ab->elapsed >= ab->period;
}

int ab_switch(struct ab *ab, double t1, const double *v)
{
	if (ab->nph && !ab->pending) {
		struct ab_phase *p = &ab->ph[ab->nph - 1];
		int i;

		p->t1 = t1 > p->t0 ? t1 : p->t0;
		for (i = 0; i < AB_NFIGS; i++)
			p->v[i] = p->spoiled ? NAN : v[i];
	}
	ab->side = ab->side == AB_A ? AB_B : AB_A;
	ab->pending = 1;
	ab->elapsed = 0;
	return ab->side;
}

int ab_settled(const struct ab_phase *p, double now, double *from, double *to)
{
	*from = p->t0 + AB_SETTLE;
	*to = p->t1;
	if (p->t1 > 0)
		return p->t1 > *from ? 0 : -1;
	return now > *from ? 0 : -1;
}

int ab_side_at(const struct ab *ab, double t0, double t1)
{
	int i;

	if (ab->state != AB_RUNNING || !(t1 > t0))
		return AB_NONE;
	for (i = ab->nph - 1; i >= 0; i--) {
		const struct ab_phase *p = &ab->ph[i];
		double from = p->t0 + AB_SETTLE;

		if (t0 >= from && (p->t1 == 0 ? 1 : t1 <= p->t1))
			return p->spoiled ? AB_NONE : p->side;
		if (t0 >= p->t0)
			return AB_NONE; /* inside this phase, not all in its settled part */
	}
	return AB_NONE;
}

int ab_ratio(const struct ab *ab, int f, struct ab_ratio *r)
{
	double sum[2] = { 0, 0 }, last_a = NAN, pairs_sum = 0;
	int i;

	memset(r, 0, sizeof *r);
	r->ratio = r->lo = r->hi = NAN;
	for (i = 0; i < ab->nph; i++) {
		const struct ab_phase *p = &ab->ph[i];
		double v = p->v[f];

		if (p->t1 == 0 || isnan(v))
			continue;
		sum[p->side] += v;
		if (p->side == AB_A) {
			r->na++;
			last_a = v;
			continue;
		}
		r->nb++;
		if (!isnan(last_a) && last_a > 0) {
			double q = v / last_a;

			if (!r->pairs || q < r->lo)
				r->lo = q;
			if (!r->pairs || q > r->hi)
				r->hi = q;
			pairs_sum += q;
			r->pairs++;
		}
		last_a = NAN; /* each A phase pairs with the B after it only */
	}
	if (!r->na || !r->nb)
		return -1;
	r->mean_a = sum[AB_A] / r->na;
	r->mean_b = sum[AB_B] / r->nb;
	if (r->pairs)
		r->ratio = pairs_sum / r->pairs;
	else
		r->ratio = r->mean_a > 0 ? r->mean_b / r->mean_a : NAN;
	return 0;
}

const char *ab_rebuild_knob(const struct knobs *a, const struct knobs *b)
{
	int id;

	if (!knobs_need_rebuild(a, b))
		return NULL;
	for (id = 0; id < K_COUNT; id++) {
		struct knobs one = *a;

		if (a->v[id] == b->v[id])
			continue;
		one.v[id] = b->v[id];
		if (knobs_need_rebuild(a, &one))
			return knob_table[id].name;
	}
	return "the table's shape"; /* (only knobs together: never so today) */
}

void ab_format_ratio(const struct ab_ratio *r, int known, char *buf, size_t len)
{
	if (!known)
		snprintf(buf, len, "...");
	else if (isnan(r->ratio))
		snprintf(buf, len, "%s", r->mean_b > 0 ? "from 0" : "0 both");
	else if (r->pairs > 1)
		snprintf(buf, len, "%.3gx [%.3g..%.3g, %d pairs]", r->ratio, r->lo, r->hi,
		         r->pairs);
	else if (r->pairs == 1)
		snprintf(buf, len, "%.3gx [1 pair]", r->ratio);
	else
		snprintf(buf, len, "%.3gx [no pair yet]", r->ratio);
}
