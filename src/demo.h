/* demo.h - scripted demos for talks: a file of cues the dashboard plays.
 *
 * A demo file has idxlab's line syntax (config.h: `#` comments, blank lines
 * skipped). Each line is one cue, played in order:
 *
 *   key = value    set a knob, as the sliders would (the next cue waits until
 *                  the workload runs with it: an index build, a rebuild)
 *   say TEXT       the caption shown under the panels, until the next say
 *                  (`say` alone clears it)
 *   wait SECONDS   let the audience watch (Space cuts it short)
 *   wait key       until Space is pressed
 *   pin / unpin    pin the metrics as the baseline / unpin it (keys b / B)
 *   show FIELDS    the presenter's figures from here (as --presenter-metrics:
 *                  1 to 3 CSV field names, or auto), the first one charted
 *   hold / release the table does not start over at the rows knob from here
 *                  (the index a later cue talks about stays) / it does again
 *
 * The `key = value` lines before the first other cue are the demo's starting
 * setting: they go into the plan like a config file's (so engine, rows or a
 * dsn may be set there); later ones must be knobs the dashboard can change
 * live. This module is pure: it parses and keeps time, the dashboard acts. */
#ifndef IDXLAB_DEMO_H
#define IDXLAB_DEMO_H

#include "err.h"
#include "knobs.h"

enum cue_kind {
	CUE_SET,
	CUE_SAY,
	CUE_WAIT,
	CUE_WAIT_KEY,
	CUE_PIN,
	CUE_UNPIN,
	CUE_HOLD,
	CUE_RELEASE,
	CUE_SHOW
};

struct cue {
	enum cue_kind kind;
	int line;        /* in the file, for messages */
	int knob;        /* CUE_SET */
	char *text;      /* CUE_SET, CUE_SHOW: the value as written; CUE_SAY: the caption */
	long long value; /* CUE_SET: parsed; CUE_SHOW: the figures, packed (0: auto) */
	double seconds;  /* CUE_WAIT */
};

struct demo {
	char *path;
	struct cue *cues;
	int n;
	int header;        /* cues[0..header) are the starting setting */
	int next;          /* the cue to play next */
	double wait_until; /* a CUE_WAIT in progress: when it ends; 0: none */
	int skip;          /* Space pressed: end the current wait */
	struct knobs k;    /* the defaults as the cues so far set them: each
	                      cue's value is checked under the ones before */
};

/* Parse path into dm. Errors name the file and line (ERR_USAGE);
 * demo_free() is safe afterwards either way. */
int demo_load(struct demo *dm, const char *path, struct err *e);

/* Check the cues after the header against engine: each knob must exist on
 * it and be one the dashboard changes live. */
int demo_check(const struct demo *dm, int engine, struct err *e);

/* The next cue to act on at time now (seconds, any monotonic clock), or
 * NULL while a wait lasts or when the demo is over. Waits are handled here:
 * they are never returned. Call again after acting on a cue. */
const struct cue *demo_next(struct demo *dm, double now);

/* Put back the cue demo_next() just gave (it could not be carried out yet). */
void demo_unget(struct demo *dm);

/* Space: end the wait in progress (or the `wait key`), or give up a pin
 * that waits (its cue is next: demo_unget), now. 0 when nothing was
 * waiting (the demo is over, or a knob cue is still being acted on). */
int demo_skip(struct demo *dm);

/* Waiting for Space (a `wait key`, or a timed wait: *left its seconds). */
int demo_waiting(const struct demo *dm, double now, double *left);

int demo_done(const struct demo *dm);

/* The figures the last `show` played asks for (packed as the knob
 * presenter-metrics; 0: auto), or -1 when none has played. */
long long demo_figures(const struct demo *dm);

/* The table is held (a `hold` played, and no `release` after it; before
 * either is played, as demo_holds_at_start says). */
int demo_holding(const struct demo *dm);
/* 1 when a `hold` comes before the demo's first wait or pin (and no
 * `release` after it): the table is held from the start, before the first
 * frame plays those cues, so a fast worker cannot start over in between. */
int demo_holds_at_start(const struct demo *dm);

/* Back one caption (a clicker's "previous"): the `say` before the one
 * shown last becomes the cue just played, and *k - the demo's starting
 * setting on entry - the setting the script had then (its `key = value`
 * cues up to that say). Returns that say's cue, or NULL when the caption
 * shown is the first (nothing changes then). */
const struct cue *demo_back(struct demo *dm, struct knobs *k);

void demo_free(struct demo *dm);

#endif
