/* spread.c - the cases of src/spread.c: the median, min and max of a
 * step's runs. */
#include <math.h>

#include "spread.h"
#include "unit.h"

static void test_spread(void)
{
	static const double odd[] = { 38.0, 27.0, 31.0 }, even[] = { 4, 1, 3, 2 };
	static const double gaps[] = { NAN, 5, NAN, 1, 9 }, none[] = { NAN, NAN };
	double keep[3] = { 38.0, 27.0, 31.0 };
	struct spread s, a, b;

	/* odd: the middle value; min and max the extremes; v left alone */
	s = spread_of(keep, 3);
	CHECK(s.med == 31.0 && s.min == 27.0 && s.max == 38.0 && s.n == 3);
	CHECK(keep[0] == 38.0 && keep[1] == 27.0 && keep[2] == 31.0);
	s = spread_of(odd, 1);
	CHECK(s.med == 38.0 && s.min == 38.0 && s.max == 38.0 && s.n == 1);
	/* even: the mean of the middle two */
	s = spread_of(even, 4);
	CHECK(s.med == 2.5 && s.min == 1 && s.max == 4 && s.n == 4);
	s = spread_of(even, 2);
	CHECK(s.med == 2.5 && s.n == 2);
	/* NaN (n/a, not settled in a run) left out */
	s = spread_of(gaps, 5);
	CHECK(s.med == 5 && s.min == 1 && s.max == 9 && s.n == 3);
	s = spread_of(none, 2);
	CHECK(s.n == 0 && isnan(s.med) && isnan(s.min) && isnan(s.max));
	s = spread_of(NULL, 0);
	CHECK(s.n == 0 && isnan(s.med));

	/* the share: the larger distance from the median, over the median */
	s = spread_of(odd, 3); /* 31: 4 below, 7 above */
	CHECK(fabs(spread_share(&s) - 7.0 / 31.0) < 1e-12);
	s = (struct spread){ -10, -12, -9, 3 }; /* a negative median: over its size */
	CHECK(fabs(spread_share(&s) - 0.2) < 1e-12);
	s = (struct spread){ 0, 0, 1, 3 };
	CHECK(isnan(spread_share(&s)));
	s = (struct spread){ 5, 5, 5, 3 };
	CHECK(spread_share(&s) == 0);
	s = spread_of(none, 2);
	CHECK(isnan(spread_share(&s)));

	/* overlap: within noise */
	a = (struct spread){ 30, 27, 38, 3 };
	b = (struct spread){ 36, 35, 40, 3 };
	CHECK(spread_overlap(&a, &b) && spread_overlap(&b, &a));
	b = (struct spread){ 50, 39, 60, 3 };
	CHECK(!spread_overlap(&a, &b) && !spread_overlap(&b, &a));
	b = (struct spread){ 38, 38, 40, 3 }; /* touching ends: can't be ranked */
	CHECK(spread_overlap(&a, &b));
	/* one value each: equal or apart, never noise */
	a = (struct spread){ 4, 4, 4, 3 };
	b = (struct spread){ 4, 4, 4, 3 };
	CHECK(!spread_overlap(&a, &b));
	b = (struct spread){ 4, 3, 5, 3 }; /* but a range around it is */
	CHECK(spread_overlap(&a, &b));
	b = spread_of(none, 2);
	CHECK(!spread_overlap(&a, &b) && !spread_overlap(&b, &a));
}

const struct unit_case unit_spread[] = {
	{ "unit/spread", test_spread },
	{ NULL, NULL },
};
