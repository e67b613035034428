/* ab.c - the cases of src/ui/ab.c: A/B's phases, which samples count in
 * which trace, the ratio B/A and its spread, and the knob a B that needs a
 * new table is refused for. */
#include <math.h>
#include <string.h>

#include "knobs.h"
#include "ui/ab.h"
#include "unit.h"

static const int figs[AB_NFIGS] = { 0, 1 };

/* A/B started at t = 0 with B in force, a period of 5 s; phase i (from 0)
 * comes in force at 6 i (a second of switching between) and gets figures
 * v0[i], v1[i] (NAN: none). Leaves n phases closed. */
static void run(struct ab *ab, int n, const double *v0, const double *v1)
{
	struct knobs a, b;
	int i;

	knobs_defaults(&a);
	b = a;
	b.v[K_INDEXES] = 3;
	ab_begin(ab, &a);
	ab_start(ab, &b, 5, figs, 0);
	for (i = 0; i < n; i++) {
		double t0 = 6.0 * i, v[AB_NFIGS] = { v0[i], v1[i] };
		int due = 0, k;

		if (i > 0)
			ab_in_force(ab, t0);
		else
			ab_in_force(ab, 0);
		for (k = 1; k <= 50 && !due; k++)
			due = ab_tick(ab, t0 + k * 0.25, 0.25, 1);
		CHECK(due && k - 1 == 20); /* 5 s of 0.25 s ticks */
		ab_switch(ab, t0 + 5, v);
	}
}

/* Sides alternate B, A, B, ...; the phase's first AB_SETTLE seconds and the
 * switch between two phases belong to no trace; a pause spoils a phase. */
static void test_ab_phases(void)
{
	static const double v0[] = { 50, 100, 40, 110 }, v1[] = { 2, 1, 2, 1 };
	struct ab ab;
	double from, to;

	run(&ab, 4, v0, v1);
	CHECK(ab.nph == 4 && ab.count == 4);
	CHECK(ab.ph[0].side == AB_B && ab.ph[1].side == AB_A && ab.ph[2].side == AB_B);
	CHECK(ab.pending && ab.side == AB_B); /* the fifth: B, posted */
	CHECK(ab_knobs(&ab, AB_B)->v[K_INDEXES] == 3 && ab_knobs(&ab, AB_A)->v[K_INDEXES] == 0);
	/* phase 1 (A): in force at 6, settled from 7 to 11 */
	CHECK(ab_settled(&ab.ph[1], 20, &from, &to) == 0 && from == 7 && to == 11);
	CHECK(ab_side_at(&ab, 7, 7.25) == AB_A);
	CHECK(ab_side_at(&ab, 10.75, 11) == AB_A);
	CHECK(ab_side_at(&ab, 6.75, 7.25) == AB_NONE); /* its settling */
	CHECK(ab_side_at(&ab, 6, 6.25) == AB_NONE);
	CHECK(ab_side_at(&ab, 11, 11.25) == AB_NONE);    /* the switch */
	CHECK(ab_side_at(&ab, 10.75, 13.25) == AB_NONE); /* across it */
	CHECK(ab_side_at(&ab, 13, 14) == AB_B);
	CHECK(ab_side_at(&ab, 1, 2) == AB_B);
	CHECK(ab_side_at(&ab, -5, -4) == AB_NONE); /* before A/B */
	CHECK(ab_side_at(&ab, 30, 31) == AB_NONE); /* the pending one: not in force */
	/* the open phase: settled from t0 + 1 on, to no end yet */
	ab_in_force(&ab, 24);
	CHECK(ab_settled(&ab.ph[4], 24.5, &from, &to) < 0);
	CHECK(ab_settled(&ab.ph[4], 26, &from, &to) == 0 && to == 0);
	CHECK(ab_side_at(&ab, 25.5, 27) == AB_B);
	/* not running in its settling: a lagging state, no harm; after: spoiled */
	CHECK(ab_tick(&ab, 24.5, 0.25, 0) == 0 && !ab.ph[4].spoiled);
	CHECK(ab_tick(&ab, 26, 0.25, 0) == 0 && ab.ph[4].spoiled);
	CHECK(ab_side_at(&ab, 25.5, 27) == AB_NONE);
	{
		double v[AB_NFIGS] = { 999, 999 };

		ab_switch(&ab, 30, v);
		CHECK(isnan(ab.ph[4].v[0])); /* its figures count nowhere */
	}
	/* the ring keeps the last AB_MAX_PHASES */
	{
		int i;

		for (i = 0; i < AB_MAX_PHASES + 3; i++) {
			double v[AB_NFIGS] = { 1, 1 };

			ab_in_force(&ab, 40.0 + i * 6);
			ab_switch(&ab, 45.0 + i * 6, v);
		}
		CHECK(ab.nph == AB_MAX_PHASES && ab.count == 5 + AB_MAX_PHASES + 3);
	}
}

/* B/A is the mean over pairs (a B phase over the A phase before it), its
 * spread their lowest and highest; before a pair, B's mean over A's; a
 * phase without a figure counts in neither; A at 0: no ratio, said so. */
static void test_ab_ratio(void)
{
	static const double v0[] = { 50, 100, 40, 110, 45, NAN }, v1[] = { 2, 0, 4, 0, 2, 0 };
	struct ab ab;
	struct ab_ratio r;
	char buf[96];

	run(&ab, 1, v0, v1);
	CHECK(ab_ratio(&ab, 0, &r) < 0); /* only B so far */
	ab_format_ratio(&r, 0, buf, sizeof buf);
	CHECK(strcmp(buf, "...") == 0);
	run(&ab, 2, v0, v1); /* B 50, A 100: B came first, no pair */
	CHECK(ab_ratio(&ab, 0, &r) == 0 && r.pairs == 0 && fabs(r.ratio - 0.5) < 1e-9);
	ab_format_ratio(&r, 1, buf, sizeof buf);
	CHECK(strcmp(buf, "0.5x [no pair yet]") == 0);
	run(&ab, 3, v0, v1); /* + B 40: one pair, 0.4 */
	CHECK(ab_ratio(&ab, 0, &r) == 0 && r.pairs == 1 && fabs(r.lo - 0.4) < 1e-9);
	ab_format_ratio(&r, 1, buf, sizeof buf);
	CHECK(strcmp(buf, "0.4x [1 pair]") == 0);
	run(&ab, 6, v0, v1); /* B 50 40 45, A 100 110 (and one A without a figure) */
	CHECK(ab_ratio(&ab, 0, &r) == 0);
	CHECK(r.na == 2 && r.nb == 3 && r.pairs == 2);
	CHECK(fabs(r.mean_b / r.mean_a - 45.0 / 105.0) < 1e-9);
	CHECK(fabs(r.ratio - (0.4 + 45.0 / 110.0) / 2) < 1e-9); /* the pairs' */
	CHECK(r.ratio >= r.lo && r.ratio <= r.hi);
	CHECK(fabs(r.lo - 0.4) < 1e-9 && fabs(r.hi - 45.0 / 110.0) < 1e-9);
	CHECK(r.ratio < 1); /* B slower */
	ab_format_ratio(&r, 1, buf, sizeof buf);
	CHECK(strcmp(buf, "0.405x [0.4..0.409, 2 pairs]") == 0);
	/* the second figure: A at 0 (spills), B above it */
	CHECK(ab_ratio(&ab, 1, &r) == 0 && isnan(r.ratio));
	ab_format_ratio(&r, 1, buf, sizeof buf);
	CHECK(strcmp(buf, "from 0") == 0);
}

/* A B that needs a new table names its knob; one that applies live, none. */
static void test_ab_rebuild(void)
{
	struct knobs a, b;
	const char *name;

	knobs_defaults(&a);
	b = a;
	b.v[K_INDEXES] = 3;
	b.v[K_CACHE] = 1 << 30;
	CHECK(ab_rebuild_knob(&a, &b) == NULL);
	b.v[K_KEY_ORDER] = KO_UUID4; /* integers to UUIDs */
	name = ab_rebuild_knob(&a, &b);
	CHECK(name && strcmp(name, "key-order") == 0);
	b = a;
	b.v[K_PK] = !a.v[K_PK];
	name = ab_rebuild_knob(&a, &b);
	CHECK(name && strcmp(name, "pk") == 0);
}

const struct unit_case unit_ui_ab[] = {
	{ "unit/ab-phases", test_ab_phases },
	{ "unit/ab-ratio", test_ab_ratio },
	{ "unit/ab-rebuild", test_ab_rebuild },
	{ NULL, NULL },
};
