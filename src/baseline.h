/* baseline.h - --baseline FILE: a saved run as the dashboard's pinned
 * baseline ("now vs what we measured yesterday").
 *
 * FILE is what `idxlab run` wrote with --format csv or json (read as
 * --compare reads it: compare_int.h). Of its step records (record=step)
 * the one whose knob columns match the dashboard's starting knobs is the
 * baseline; when none matches, the nearest (the fewest knobs differ), and
 * of several the first in the file. Its figures (the metric fields, in
 * the dashboard's own units: both come from metric_compute) become the
 * baseline each metric's now/baseline ratio is taken against. A step's
 * total (seconds, commits, fsyncs) or flag is no figure of a second's
 * window: those stay unknown.
 *
 * FILE may also be a recording (--record): its stretches of running under
 * one setting of the knobs (a knob change starts the next; the first
 * second after one, the change's own transition, left out) stand for the
 * steps. The one with the dashboard's knobs is the baseline, else the
 * nearest, and of several the longest; its figures are metric_compute's
 * over the stretch (the engine's readings at its two ends), as the
 * dashboard computes its own. A stretch under a second long is none. */
#ifndef IDXLAB_BASELINE_H
#define IDXLAB_BASELINE_H

#include "err.h"
#include "knobs.h"
#include "metrics.h"

struct baseline {
	double v[M_COUNT];  /* NAN: unknown (n/a, or not a window's figure) */
	int na[M_COUNT];    /* the saved run says n/a */
	struct knobs knobs; /* the saved step's (knobs it has no column for: the dashboard's) */
	long step;          /* its step number in the file (from 1); 0: a recording's stretch */
	int line;           /* its line (a recording's: the stretch's last sample's) */
	int differ;         /* knobs it differs from the dashboard's in */
	char from[160];     /* "vs base.csv step 2", for the title */
	char says[600];     /* the event: which step, and why that one (the knobs it differs in) */
};

/* Read path as --baseline and pick the step for the dashboard's starting
 * knobs start. -1 (ERR_USAGE) naming --baseline, path and the line when
 * it cannot be read or is no run's CSV or JSON of this idxlab. */
int baseline_load(const char *path, const struct knobs *start, struct baseline *b, struct err *e);

#endif
