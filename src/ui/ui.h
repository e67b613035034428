/* ui.h - the dashboard's parts, as struct dash holds them (for src/ui only).
 *
 *   term     the terminal: curses, glyphs, colours, fd 2      term.c
 *   lay      where the panels are this frame                  layout.c
 *   feed     where the figures come from: worker | recording  feed_*.c
 *   tape     --record                                         tape.c
 *   hist     samples, markers, the baseline                   history.c
 *   k        the sliders: what is wanted, posted, applied     dash.c
 *   prompt, help, confirming: the input modes                 input.c
 *   view     what the status line and the events box show     dash.c
 * Panels (panels.h, help.c) only read a struct dash; input.c's handlers
 * and dash.c's loop change it. */
#ifndef IDXLAB_UI_H
#define IDXLAB_UI_H

#include "../baseline.h"
#include "../demo.h"
#include "../evlog.h"
#include "../knobs.h"
#include "../workload.h"
#include "ab.h"
#include "dash.h"
#include "feed.h"
#include "history.h"
#include "layout.h"
#include "tape.h"
#include "term.h"

#define VIEW_EVENTS 256 /* event lines kept for the events box (it scrolls) */

struct sliders {
	struct knobs want;       /* what the sliders show */
	struct knobs confirm_to; /* a change that needs a rebuild, awaiting y/n */
	struct knobs applied;    /* the setting the feed last reported in force */
	unsigned long applied_gen;
	unsigned long posted_gen; /* the feed's answer to the last post */
	int confirming;
	int sel;                /* index into ids[] */
	int ids[K_COUNT], nids; /* the knobs with a slider, in table order */
};

struct prompt {
	int on;
	char text[128];
	size_t len;
	int fresh; /* text is still the knob's value: typing replaces it */
};

struct view {
	char flash[200]; /* a message for the status line, for a few seconds */
	double flash_t;
	char caption[400];          /* the demo's last `say`, or a recording's */
	struct ev evs[VIEW_EVENTS]; /* a fold (evlog.h) is one line, updated in place */
	int nevs;
	unsigned long ev_seen;
	int ev_back; /* the events box shows the lines this far above the newest */
};

struct dash {
	struct term term;
	struct layout lay;
	struct feed *feed;
	struct tape *tape; /* NULL: not recording */
	struct history *hist;
	struct live *live; /* the feed's latest snapshot (big: allocated) */
	struct demo *demo; /* borrowed: the plan's --demo, or NULL */
	struct sliders k;
	struct prompt prompt;
	struct view view;
	int help, help_top; /* the help overlay, and its first line shown */
	int paused, dragging, quit;
	int pin_pending;         /* a recorded pin, waiting for a second of history */
	int pin_waited;          /* a demo's pin waits for a commit: said so */
	int held;                /* the feed holds the table (a demo's hold) */
	long long figures;       /* the presenter's figures a demo's show or a
	                            recording set (packed as presenter-metrics);
	                            -1: none, the knob's */
	int view_taped;          /* the view as last written to the tape: */
	int taped_presenter;     /* (presenter) */
	long long taped_figures; /* (figures, packed) */
	int presenter;           /* the presenter view (--presenter, v) */
	unsigned hide;           /* the normal view's hidden panels: LAYOUT_HIDE_* */
	int blank;               /* a --demo's blank screen (b, .): only the caption */
	int demo_off;            /* the user left demo mode (D): keys move knobs again */
	struct knobs demo_start; /* the setting a --demo starts from */
	struct baseline *saved;  /* owned: --baseline's step, or NULL */
	struct ab ab;            /* an A/B comparison (key a) */
	double t0;               /* the dashboard's start, wall clock */
};

/* dash.c: the sliders and the baseline, as keys, the mouse and demos move
 * them. */

/* Why knob id cannot move now, or NULL. */
const char *dash_locked(const struct dash *d, int id);

/* Move knob id to v: post it, or ask first when it means a rebuild. */
void dash_set_knob(struct dash *d, int id, long long v);

/* Post setting to as it is (the user or the script consented). */
void dash_post(struct dash *d, const struct knobs *to);

/* A message on the status line for a few seconds. */
void dash_say(struct dash *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Pin a baseline (b); history_pin()'s HIST_PIN_* when it pinned nothing
 * (too soon after a change, no row committed since). quiet: PIN_* bits. */
enum { PIN_NO_FLASH = 1, PIN_NO_EVENT = 2 };
int dash_pin(struct dash *d, int quiet);

/* Pin --baseline's saved step (d->saved) again: at the start, and after a
 * replay's seek forgot the history. */
void dash_pin_saved(struct dash *d);

/* A --demo has cues left to play (and the user has not left demo mode). */
int dash_demo_playing(const struct dash *d);

/* A --demo is loaded and the user has not left demo mode (D): the clicker
 * keys are the demo's, even after its last cue. */
int dash_demo_mode(const struct dash *d);

/* A clicker's "previous": back to the caption before the one shown, and
 * the script's setting then. */
void dash_demo_back(struct dash *d);

/* ab_dash.c: A/B (key a). */

/* A knob move to `to` that A/B forbids (while it runs; a B needing a new
 * table): said, and 1; else 0. */
int dash_ab_refused(struct dash *d, const struct knobs *to);

/* Switch sides when due, once a frame. */
void dash_ab_tick(struct dash *d);

/* The status line while A/B is on: 1 with the line in buf, else 0. */
int dash_ab_status(const struct dash *d, char *buf, size_t len);

/* While A/B runs and compares metric m: 1 with "B/A 0.41x [...]" in buf;
 * else 0. */
int dash_ab_ratio_of(const struct dash *d, int m, char *buf, size_t len);

/* The trace (AB_A, AB_B) a figure over (t0, t1] of the figures' clock
 * belongs to, or AB_NONE: a transition, or no A/B. */
int dash_ab_trace(const struct dash *d, double t0, double t1);

#endif
