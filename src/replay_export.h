/* replay_export.h - `idxlab run --replay FILE`: a dashboard recording
 * (recording.h) turned into interval records, as a live --interval run
 * prints them, for a table (--format) or a chart (--plot). */
#ifndef IDXLAB_REPLAY_EXPORT_H
#define IDXLAB_REPLAY_EXPORT_H

#include "config.h"
#include "err.h"
#include "plot.h"
#include "report.h"

/* Read p->replay_path twice: first the knob values it went through (into
 * p, so the text table gives a column to each knob that changed), then its
 * samples, a record per window of --interval seconds (default 1) to rep,
 * cut short at every knob change; the captions to pl (NULL: none) as
 * markers. -1 (e "FILE:LINE: ...") on a bad line or a recording with no
 * sample: nothing is written before the whole file has been read once. */
int replay_export(struct plan *p, struct report *rep, struct plot *pl, struct err *e);

#endif
