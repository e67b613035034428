/* ab.h - the dashboard's A/B comparison (key a): its bookkeeping, pure.
 *
 * A is the setting in force when a is pressed; the user then moves knobs to
 * set B and presses a again. From then on the dashboard alternates the two
 * on the same running table (the worker applies each as a whole, between
 * two batches, as any knob change: never a rebuild - B differs from A only
 * in knobs that apply() changes live), each side running for a period of
 * seconds once it is in force. A phase is one side's turn: from the moment
 * it came in force (t0) to the moment the other side was posted (t1). Its
 * first AB_SETTLE seconds - the switch's own transition: an index build's
 * last rows, a cache warming - are left out of both traces and of every
 * figure; what is left is the phase's settled part, and its figures are
 * taken over that alone. A phase during which the workload did not run all
 * through (paused, the table starting over at the rows knob) is spoiled: it
 * counts in no figure.
 *
 * The ratio B/A of a figure is taken over pairs - a B phase and the A phase
 * just before it - so that what drifts along both (a table that grows)
 * cancels: the mean of the pairs' ratios, its spread their lowest and
 * highest. Before the first pair, the mean of the B phases' figures over
 * the mean of the A phases'.
 *
 * No curses, no clock, no history: times and figures come in, so this is
 * unit-testable (tests/unit/ui/ab.c). ab_dash.c ties it to the dashboard. */
#ifndef IDXLAB_AB_H
#define IDXLAB_AB_H

#include <stddef.h>

#include "../knobs.h"

#define AB_SETTLE     1.0 /* seconds after a switch left out of both traces */
#define AB_PERIOD     5.0 /* seconds each side runs, its transition included */
#define AB_MAX_PHASES 128 /* phases kept (the oldest go first) */
#define AB_NFIGS      2   /* the figures compared: rows/s and the engine's */

enum ab_state { AB_OFF, AB_SET_B, AB_RUNNING };
enum ab_side { AB_NONE = -1, AB_A = 0, AB_B = 1 };

struct ab_phase {
	int side;           /* AB_A or AB_B */
	int n;              /* its number since A/B started, from 1 */
	double t0;          /* when it came in force (the figures' clock) */
	double t1;          /* when the other side was posted; 0: it runs */
	int spoiled;        /* the workload did not run all through it */
	double v[AB_NFIGS]; /* its figures over its settled part (NAN: none) */
};

struct ab {
	int state;
	struct knobs a, b;
	double period;
	int figs[AB_NFIGS]; /* metric ids */
	int side;           /* the side in force, or on its way */
	int pending;        /* that side is posted, not in force yet */
	double elapsed;     /* seconds the open phase has run */
	struct ab_phase ph[AB_MAX_PHASES];
	int nph;       /* phases kept; the last is open while running and not pending */
	int count;     /* phases begun since A/B started */
	double t_last; /* (ab_dash.c's) the last frame's time */
};

/* a pressed: A is a (copied). */
void ab_begin(struct ab *ab, const struct knobs *a);

/* a pressed again: B is b, which is in force or on its way (pending); each
 * side runs `period` seconds; figs: the AB_NFIGS metric ids compared. */
void ab_start(struct ab *ab, const struct knobs *b, double period, const int *figs, int pending);

/* The knobs of side s. */
const struct knobs *ab_knobs(const struct ab *ab, int side);

/* The side posted (pending) came in force at t: its phase opens. */
void ab_in_force(struct ab *ab, double t);

/* dt seconds passed at time t; the workload ran (running) or not. Time
 * counts only while it runs; not running past the phase's settling spoils
 * the phase. Returns 1 when the open phase has run its period. */
int ab_tick(struct ab *ab, double t, double dt, int running);

/* Close the open phase at t1 with its figures v (AB_NFIGS of them, NAN:
 * unknown; ignored when spoiled) and make the other side pending; returns
 * that side. */
int ab_switch(struct ab *ab, double t1, const double *v);

/* The settled part of phase p: [*from, *to] (to: 0 while it runs); 0 when
 * it has one yet at time now (more than AB_SETTLE in force), else -1. */
int ab_settled(const struct ab_phase *p, double now, double *from, double *to);

/* The trace a figure over (t0, t1] belongs to: the side of the phase whose
 * settled part holds all of it, else AB_NONE (a transition, or before or
 * outside A/B). */
int ab_side_at(const struct ab *ab, double t0, double t1);

struct ab_ratio {
	double mean_a, mean_b; /* the means of each side's phases' figures */
	double ratio;          /* the pairs' mean, else mean_b / mean_a; NAN: A's is 0 */
	double lo, hi;         /* the lowest and highest pair's ratio */
	int pairs;             /* B phases with an A phase before them, both with a figure */
	int na, nb;            /* phases with a figure, per side */
};

/* Figure f's ratio B/A over the closed phases; 0, or -1 when a side has no
 * figure yet. */
int ab_ratio(const struct ab *ab, int f, struct ab_ratio *r);

/* The knob whose change from a to b needs a new table (its name), or NULL
 * when b applies to a's table live. */
const char *ab_rebuild_knob(const struct knobs *a, const struct knobs *b);

/* "0.41x [0.38..0.44, 3 pairs]", "0.41x [1 pair]", "0.41x [no pair yet]";
 * "from 0" when A's mean is 0 (both 0: "0 both"); "..." when unknown. */
void ab_format_ratio(const struct ab_ratio *r, int known, char *buf, size_t len);

#endif
