/* spread.c - medians and ranges of a step's runs (spread.h).
 *
 * The median, not the mean: one run slowed by a neighbour's burst moves a
 * mean of three by a third of its delay and the median not at all. Min
 * and max, not a standard deviation: with 3 to 10 runs a deviation is
 * itself too noisy to quote, and the extremes are what a reader can check
 * against the per-run records. */
#include "spread.h"

#include <math.h>
#include <stdlib.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct spread spread_of(const double *v, size_t n)
{
	struct spread s = { NAN, NAN, NAN, 0 };
	double *sorted = n ? malloc(n * sizeof *sorted) : NULL;
	size_t i, k = 0;

	if (n && !sorted)
		abort();
	for (i = 0; i < n; i++)
		if (!isnan(v[i]))
			sorted[k++] = v[i];
	if (k) {
		qsort(sorted, k, sizeof *sorted, cmp_double);
		s.min = sorted[0];
		s.max = sorted[k - 1];
		s.med = k % 2 ? sorted[k / 2] : (sorted[k / 2 - 1] + sorted[k / 2]) / 2;
		s.n = (int)k;
	}
	free(sorted);
	return s;
}

double spread_share(const struct spread *s)
{
	double d;

	if (!s->n || s->med == 0)
		return NAN;
	d = fmax(s->med - s->min, s->max - s->med);
	return d / fabs(s->med);
}

int spread_overlap(const struct spread *a, const struct spread *b)
{
	if (!a->n || !b->n)
		return 0;
	if (a->min == a->max && b->min == b->max)
		return 0; /* one value each: equal or apart, never noise */
	return a->min <= b->max && b->min <= a->max;
}
