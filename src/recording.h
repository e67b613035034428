/* recording.h - a dashboard session as JSON lines, and reading it back.
 *
 * `idxlab --record FILE` writes what the dashboard saw, so that
 * `idxlab --replay FILE` can show it again with no engine at all (a talk on
 * a laptop whose demo must work offline). One JSON object per line:
 *
 *   {"idxlab_recording":2,"idxlab":"0.1.0","engine":"sqlite","started":"..."}
 *   {"t":1.25,"state":"running","knobs":{"indexes":"1",...},"c":{...},...}
 *   {"t":2.5,"ev":"built idxlab_k1 on 40000 rows in 0.05 s","level":"info"}
 *   {"t":3.0,"caption":"one random index"}      (a --demo caption)
 *   {"t":9.0,"pin":true}  {"t":12.0,"unpin":true}
 *   {"t":0.0,"view":"presenter","figures":"rows_per_s,fsyncs_per_commit"}
 *                                 (the view, at the start and as it changes:
 *                                 a replay shows it so; figures "auto" or as
 *                                 --presenter-metrics)
 *
 * A sample holds the cumulative counters (by name, only those the engine
 * measures), the cumulative commit-latency histogram (non-empty buckets),
 * the sizes, the knobs in force (as text, the dsn never: it may hold a
 * password) and the worker's state. t counts seconds from the start of the
 * recording; so do the counters' and the activity's times. */
#ifndef IDXLAB_RECORDING_H
#define IDXLAB_RECORDING_H

#include "err.h"
#include "evlog.h"
#include "workload.h"

#define REC_VERSION 2 /* 2: view lines */

enum rec_kind { REC_SAMPLE, REC_EVENT, REC_CAPTION, REC_PIN, REC_UNPIN, REC_VIEW };

struct rec_item {
	enum rec_kind kind;
	double t;
	struct live live;      /* REC_SAMPLE */
	enum ev_level level;   /* REC_EVENT */
	char text[EVLOG_LINE]; /* REC_EVENT, REC_CAPTION */
	int presenter;         /* REC_VIEW: the presenter view (else the normal one) */
	long long figures;     /* REC_VIEW: its figures, packed as presenter-metrics */
};

struct rec_head {
	int version;
	char engine[32];
	char idxlab[32];
	char started[40];
};

struct recorder;
struct replay;

/* Create path (refused when it exists: nothing is overwritten) and write
 * the header; when that fails, path is removed again. e->cls: ERR_USAGE
 * for a name refused (it exists, a directory that is not there),
 * ERR_RUNTIME for a full disk or another write error. */
struct recorder *rec_create(const char *path, const char *engine, const char *idxlab_version,
                            struct err *e);

/* Append one item; -1 (e filled, e.g. a full disk) leaves the lines so far
 * whole. */
int rec_write(struct recorder *r, const struct rec_item *it, struct err *e);

/* Flush, sync and close; -1 when a write failed. Frees r either way. */
int rec_finish(struct recorder *r, struct err *e);

/* Open a recording and read its header; errors name the file and line. */
struct replay *rec_open(const char *path, struct rec_head *h, struct err *e);

/* The next item: 1, 0 at the end, -1 on a bad line (e: "FILE:LINE: ..."). */
int rec_read(struct replay *p, struct rec_item *it, struct err *e);

void rec_close(struct replay *p);

/* One line of a recording as an outline keeps it: enough to go on reading
 * there (rec_seek), and what a line other than a sample says. */
struct rec_entry {
	double t;
	enum rec_kind kind;
	long long offset;    /* where the line starts in the file */
	int line;            /* the lines before it */
	enum ev_level level; /* REC_EVENT */
	char *text;          /* REC_EVENT, REC_CAPTION (owned); else NULL */
	int presenter;       /* REC_VIEW */
	long long figures;   /* REC_VIEW */
};

/* A recording's outline, for seeking in it: how long it is, when its knobs
 * changed - the samples whose knobs_gen differs from the sample's before
 * (what the dashboard marks) - and where each line is. All owned;
 * rec_outline_free frees them. */
struct rec_outline {
	double first;    /* the first sample's t (0 when there is none) */
	double end;      /* the latest line's t */
	double *changes; /* ascending */
	int nchanges;
	struct rec_entry *lines; /* every line after the header, in file order */
	int nlines;
};

/* Read the whole of path for its outline (the samples' figures unread), up
 * to its end or its first bad line (the replay stops there too and says
 * why): 0, or -1 when it cannot be opened (e filled). rec_outline_free
 * after, either way. */
int rec_outline(const char *path, struct rec_outline *o, struct err *e);
void rec_outline_free(struct rec_outline *o);

/* Go on reading p at the line of `at` (an entry of p's file's outline): the
 * next rec_read gives that line, and bad lines are named as before. -1
 * with e filled when the file cannot be sought. */
int rec_seek(struct replay *p, const struct rec_entry *at, struct err *e);

/* The knob change to seek to from t: the first after t (dir > 0), or the
 * last before t - grace (dir < 0: a press shortly after a change goes to
 * the one before it); its index, or -1 when there is none. */
int rec_change_near(const struct rec_outline *o, double t, int dir, double grace);

#endif
