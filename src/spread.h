/* spread.h - the median of a step's runs and their spread (--repeat).
 *
 * A step run N times gives N values of each figure, each from that run's
 * own window (cumulative counters are per-run deltas before they come
 * here). The step's figure is their median, with the smallest and largest
 * beside it; two steps whose ranges overlap cannot be ranked. Pure
 * arithmetic: no knobs, no records (report_runs.c applies it to those). */
#ifndef IDXLAB_SPREAD_H
#define IDXLAB_SPREAD_H

#include <stddef.h>

struct spread {
	double med, min, max;
	int n; /* values that were numbers (NaN ones are left out) */
};

/* The median, minimum and maximum of v[0..n), NaN values left out: with
 * an even count the median is the mean of the two middle values. No value
 * a number (or n 0): med, min and max NaN, s.n 0. v is not changed. */
struct spread spread_of(const double *v, size_t n);

/* The larger distance from the median to the min or the max, as a
 * fraction of the median's size (0.03 for "+-3%"): NaN when s.n is 0 or
 * the median is 0 (then only the distance itself says it). */
double spread_share(const struct spread *s);

/* Do the ranges [a.min, a.max] and [b.min, b.max] overlap, so that the
 * difference of the medians is within the runs' noise? Two ranges of one
 * value each, the same value, do not count: the figure is equal, not
 * noisy. 0 when either has no value. */
int spread_overlap(const struct spread *a, const struct spread *b);

#endif
