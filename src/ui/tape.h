/* tape.h - --record: what the dashboard shows, written as it comes.
 *
 * The dashboard hands the tape each new snapshot, each event it shows, and
 * each caption and pin; the tape writes them as recording.h's lines, times
 * counted from the dashboard's start. A failed write (a full disk) stops
 * the tape - the lines so far stay whole - and says so in the event log;
 * the dashboard goes on. Never touches the screen. */
#ifndef IDXLAB_TAPE_H
#define IDXLAB_TAPE_H

#include <stddef.h>

#include "../err.h"
#include "../evlog.h"
#include "../recording.h"
#include "../workload.h"

struct tape;

/* Create path (never overwritten) for engine; t0: the dashboard's start on
 * clock_now_s()'s clock. */
int tape_open(struct tape **out, const char *path, const char *engine, double t0, struct err *e);

/* A snapshot, when it is new (another sample, or another state). */
void tape_sample(struct tape *t, const struct live *l);

/* An event the dashboard showed. */
void tape_event(struct tape *t, const struct ev *ev);

/* A caption (REC_CAPTION, text), a pin or an unpin (text NULL). */
void tape_note(struct tape *t, enum rec_kind kind, const char *text);

/* The view: the presenter's (presenter) or the normal one, and the
 * presenter's figures (packed as the knob presenter-metrics). */
void tape_view(struct tape *t, int presenter, long long figures);

/* Finish and free (safe on NULL: returns 0 with msg ""). msg: what to tell
 * the user ("recorded 12 s (40 lines) to F: ..."); -1 when the recording
 * stopped early (msg says why). */
int tape_close(struct tape *t, char *msg, size_t len);

#endif
