/* label.h - the dashboard's words for a change: a knob change's marker label
 * and a metric's ratio to its pinned baseline (label.c). */
#ifndef IDXLAB_UI_LABEL_H
#define IDXLAB_UI_LABEL_H

#include <stddef.h>

#include "../knobs.h"

/* The marker label of a change from a to b ("+2 idx", "cache 2000KiB -> 1GiB");
 * "" when nothing a user sees changed. Pure: unit-tested. */
void label_change(const struct knobs *a, const struct knobs *b, int ascii, char *buf, size_t len);

/* A metric now over its pinned baseline: "0.19x", "13x" (from 9.995x up),
 * "0.004x" (one significant digit below 0.01), clamped to ">999x" and
 * "<0.001x"; "from 0" when the baseline is 0 and now is not; "-" when either
 * is unknown (NAN) or both are 0. Pure: unit-tested. */
void label_ratio(double v, double base, char *buf, size_t len);

/* The same, with a baseline at or under near0 (> 0: e.g. a thousandth of
 * the metric's full scale) counted as 0: "from ~0" (ascii) or "from" and
 * an almost-equal sign, instead of a ratio of noise (miss/row 175889x);
 * "-" when now is under it too. */
void label_ratio_near(double v, double base, double near0, int ascii, char *buf, size_t len);

#endif
