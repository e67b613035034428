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

#endif
