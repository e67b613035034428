/* dash.h - the dashboard: sliders, gauges, sparklines, the event log.
 *
 * src/ui is the only code that calls curses (ui.h lists its parts). It
 * knows no engine: the slider panel is generated from the knob table
 * (greyed where the engine does not support a knob), the metrics panel from
 * the metric table, and it shows a feed - the live worker, driven through
 * workload_set()/workload_pause(), or a --replay recording. */
#ifndef IDXLAB_DASH_H
#define IDXLAB_DASH_H

#include <signal.h>

#include "../config.h"

/* Run the dashboard on the first step of plan p until the user quits or a
 * signal arrives (*sig becomes non-zero). Returns the exit code. */
int dash_run(const struct plan *p, volatile sig_atomic_t *sig);

/* The marker label of a change from a to b ("+2 idx", "cache 2000KiB -> 1GiB");
 * "" when nothing a user sees changed. Pure: unit-tested. */
void dash_change_label(const struct knobs *a, const struct knobs *b, int ascii, char *buf,
                       size_t len);

/* A metric now over its pinned baseline: "0.19x", "13x" (from 9.995x up),
 * "0.004x" (one significant digit below 0.01), clamped to ">999x" and
 * "<0.001x"; "from 0" when the baseline is 0 and now is not; "-" when either
 * is unknown (NAN) or both are 0. Pure: unit-tested. */
void dash_format_ratio(double v, double base, char *buf, size_t len);

/* The same, with a baseline at or under near0 (> 0: e.g. a thousandth of
 * the metric's full scale) counted as 0: "from ~0" (ascii) or "from" and
 * an almost-equal sign, instead of a ratio of noise (miss/row 175889x);
 * "-" when now is under it too. */
void dash_format_ratio_near(double v, double base, double near0, int ascii, char *buf, size_t len);

#endif
