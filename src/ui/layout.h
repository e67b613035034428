/* layout.h - where each panel goes, computed once per frame.
 *
 * Drawing and the mouse use the same numbers: a click lands on the knob row
 * and bar cell that were drawn there. Pure (no curses): unit-testable. */
#ifndef IDXLAB_LAYOUT_H
#define IDXLAB_LAYOUT_H

#define LAYOUT_MIN_W 80
#define LAYOUT_MIN_H 24

struct rect {
	int y, x, h, w;
};

/* What the frame shows: panels hidden (keys 1 2 3), the presenter view. */
enum { LAYOUT_HIDE_KNOBS = 1, LAYOUT_HIDE_METRICS = 2, LAYOUT_HIDE_EVENTS = 4 };

struct layout_view {
	unsigned hide; /* LAYOUT_HIDE_* bits (the normal view) */
	int presenter; /* the presenter view instead */
	int caption;   /* there is a caption: it gets lines of its own */
};

struct layout {
	int H, W;
	int too_small; /* under LAYOUT_MIN_W x LAYOUT_MIN_H: only a message */
	struct rect title, knobs, metrics, status, events, hints, help;
	struct rect caption; /* h 0: none (the normal view: 1 line; presenter: 2) */
	int events_on;       /* room for the events box */
	int presenter;       /* the rectangles below, not knobs/metrics/events */
	struct rect figures; /* the big figures, side by side */
	int digit_rows;      /* rows of a big digit: 3 (half blocks), 5 or 10 */
	struct rect chart;   /* the big chart, its box included (the normal view:
	                      * on a tall screen only, above the events; h 0: none) */
	struct rect knob_line;
	int knob_rows; /* knob rows inside the knobs box, from knobs.y + 1 */
	int name_w;    /* a knob row: marker, name, value, then its bar */
	int value_w;   /* the value's columns when the knob has a bar */
	int wide_w;    /* ... and when it has none (fixed, or a long value) */
	int bar_x;     /* the bars' first column (absolute) */
	int bar_w;     /* cells of a bar */
};

/* The layout of a W x H screen for nknobs slider rows and nmetrics rows. */
void layout_compute(struct layout *l, int W, int H, int nknobs, int nmetrics);

/* ... and what view v shows (layout_compute: all panels, no caption).
 * Hidden panels' room goes to the others; their rects are empty. */
void layout_compute_view(struct layout *l, int W, int H, int nknobs, int nmetrics,
                         const struct layout_view *v);

/* The knob row at screen line y, or -1. */
int layout_knob_row(const struct layout *l, int y);

/* Column x is inside the knobs panel. */
int layout_in_knobs(const struct layout *l, int x);

/* Where column x falls on a bar, 0..1 (the middle of a cell), or -1 off it. */
double layout_bar_pos(const struct layout *l, int x);

#endif
