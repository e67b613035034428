/* headless.h - the headless runner (`idxlab run`, or output not a
 * terminal), the dashboard's twin (ui/dash.h): the plan's steps run by the
 * worker, their records written on stdout (report.h), charted (plot.h)
 * and answered (answer.h); events on stderr. */
#ifndef IDXLAB_HEADLESS_H
#define IDXLAB_HEADLESS_H

#include <signal.h>

#include "config.h"
#include "err.h"

/* The output options of a complete plan p, before any engine starts:
 * --fields (every name a field, none twice), the --plot options (plot.h:
 * plot_check; the chart's own options only with --plot), --compare's file
 * (read: this idxlab's output). Usage errors. */
int headless_check(const struct plan *p, struct err *e);

/* Run plan p headless until its steps are done or a signal arrives (*sig
 * becomes non-zero: the step running is stopped, its partial record
 * printed). Returns the exit code (main.c's list). */
int headless_run(const struct plan *p, volatile sig_atomic_t *sig);

/* `idxlab run --compare SAVED --compare-new NEW`: two saved runs
 * compared (compare.h), no engine run; the exit code. */
int headless_compare(const struct plan *p);

/* `idxlab run --replay FILE`: the recording's windows as records (and a
 * chart); the exit code. */
int headless_replay(struct plan *p);

#endif
