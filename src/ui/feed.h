/* feed.h - where the dashboard's figures come from: a source of snapshots.
 *
 * Two feeds: the live worker (feed_live.c) and a recording played back
 * (feed_replay.c). The dashboard polls its feed every frame and shows what
 * it gives; what a feed cannot do is a NULL operation, with the reason
 * beside it for the user (a recording has no `set`: its knobs are shown as
 * they were recorded). Like sqlite3_io_methods: the base struct is embedded
 * first in each feed's own. All calls from the UI thread. */
#ifndef IDXLAB_FEED_H
#define IDXLAB_FEED_H

#include <stddef.h>

#include "../err.h"
#include "../evlog.h"
#include "../knobs.h"
#include "../workload.h"

/* What came with a snapshot besides its figures (a recording's). */
struct feed_news {
	int caption;           /* text is a new caption ("": none any more) */
	char text[EVLOG_LINE]; /* valid while caption is set */
	int view;              /* the view changed: presenter, figures */
	int presenter;         /* (the presenter view, else the normal one) */
	long long figures;     /* (the presenter's figures, as presenter-metrics) */
	int unpin;             /* unpin the baseline ... */
	int pin;               /* ... then pin one (as soon as the history allows) */
	/* A seek: what the dashboard shows is of another time - forget the
	 * history, the markers, the baseline, the caption and the events
	 * shown; the recording from its start up to the new position follows,
	 * as more snapshots. */
	int rewound;
	/* A feed that times its snapshots (ops->timed) brought one: keep it in
	 * the history at wall time `when` (when it would have been shown).
	 * more: another one is due at once too (a fast replay, a seek's
	 * catch-up): poll again before drawing. */
	int played;
	double when;
	int more;
};

/* Where a seek goes. */
enum feed_seek {
	FEED_BACK,        /* 10 s of the figures back */
	FEED_ON,          /* 10 s on */
	FEED_NEXT_CHANGE, /* to the next knob change */
	FEED_PREV_CHANGE, /* to the knob change before */
	FEED_START,       /* to the start */
};
#define FEED_SEEK_STEP 10.0

struct feed;

struct feed_ops {
	const char *name;
	/* The latest snapshot into out (out->gen bumps when it is new), and
	 * what came with it into news (cleared by the caller). */
	void (*poll)(struct feed *f, struct live *out, struct feed_news *news);
	/* Post a setting; returns its generation (see live.knobs_gen).
	 * NULL: the knobs cannot move - no_set says why. */
	unsigned long (*set)(struct feed *f, const struct knobs *k);
	const char *no_set;
	/* Pause (1) or resume (0); says so in the event log. */
	void (*pause)(struct feed *f, int paused);
	/* Rewrite the table in place. NULL: no_rewrite says why. */
	void (*rewrite)(struct feed *f);
	/* Hold the table (1: it does not start over, workload_hold) or release
	 * it (0). NULL: there is no table to hold (a recording). */
	void (*hold)(struct feed *f, int on);
	const char *no_rewrite;
	/* Play twice as fast (faster) or half as fast; msg: what happened.
	 * NULL: no_speed says why. */
	void (*speed)(struct feed *f, int faster, char *msg, size_t len);
	const char *no_speed;
	/* Go elsewhere in the figures (the polls after say what to show);
	 * msg: what happened. NULL: no_seek says why. */
	void (*seek)(struct feed *f, enum feed_seek to, char *msg, size_t len);
	const char *no_seek;
	/* Now on the clock of the figures (a replay's runs at its speed). */
	double (*now)(const struct feed *f);
	/* 0 while it goes on; 1 once it ended; -1 when it failed (e filled). */
	int (*state)(struct feed *f, struct err *e);
	/* Ask it to stop and wait until it has (then state says how it ended:
	 * a live run quit while FAILED ends failed). NULL: nothing to stop. */
	void (*stop)(struct feed *f);
	/* Stop and free; the feed is gone after. */
	void (*close)(struct feed *f);
	/* Its events already say what each knob change was (a recording's). */
	int logs_changes;
	/* Its snapshots come timed (news.when, a recording's): the history keeps
	 * those, each at its time, and nothing between them (a paused replay
	 * adds nothing); its events already hold the checkpoints too. */
	int timed;
};

struct feed {
	const struct feed_ops *ops;
	int speed;    /* seconds of figures per second of wall time: 1, a replay 1..16 */
	int over;     /* nothing more will come (the recording's end) */
	char tag[64]; /* for the title: "REPLAY 2x 01:23 / 05:10 " or "" */
};

/* The live worker on setting k (copied; k->dsn borrowed). */
int feed_live_open(struct feed **out, const struct knobs *k, struct err *e);

/* A recording (recording.h) at path; *first: the knobs of its first sample
 * (left alone when it starts otherwise). Errors name the file and line. */
int feed_replay_open(struct feed **out, const char *path, struct knobs *first, struct err *e);

#endif
