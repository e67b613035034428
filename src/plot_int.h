/* plot_int.h - what the parts of --plot share (see plot.c): the records
 * kept (struct plot), the model built from them (plot_model.c), the axes
 * (plot_axis.c) and the drawing (plot_draw.c). */
#ifndef IDXLAB_PLOT_INT_H
#define IDXLAB_PLOT_INT_H

#include <cairo.h>
#include <stdio.h>

#include "metrics.h"
#include "plot.h"

#define W          1600.0
#define H          900.0
#define MAX_SERIES 64

enum plot_format { PF_SVG, PF_PNG, PF_PDF };
enum plot_kind { PK_AUTO, PK_SWEEP, PK_TIME };

struct point {
	int interval; /* an interval record; else a step's */
	long step;
	struct knobs k;
	double t0, t1;
	double v[M_COUNT];               /* NaN: n/a or unsettled */
	double lo[M_COUNT], hi[M_COUNT]; /* --repeat: the runs' min and max; NaN: none */
};

struct note {
	double t;
	char text[120];
};

struct plot {
	const struct plan *plan; /* borrowed */
	char *path;
	enum plot_format fmt;
	int metrics[PLOT_MAX_PANELS], nmetrics; /* nmetrics 0: the default */
	int xknob;                              /* a sweep's x axis, -1: one step */
	enum plot_kind kind;
	int dark; /* --plot-theme dark */
	struct point *pts;
	size_t n, cap;
	struct note *notes;
	size_t nnotes, notes_cap;
	int featured[PLOT_MAX_PANELS], nfeatured; /* plot_feature */
	int ranges;                               /* a point has a range (--repeat) */
	int runs;                                 /* the most runs a point is the median of */
};

/* ---- the model: what one drawing function draws ---- */

struct mark {
	double x;
	int caption; /* a caption's marker, else a knob change's */
	char text[160];
};

struct model {
	int over_time;
	/* x axis */
	int cat, log;
	double lo, hi;
	int ncat;
	char (*cat_label)[48];
	int xknob; /* -1: seconds */
	/* series: x per series, y per panel and series */
	int nseries;
	char label[MAX_SERIES][160];
	char legend_title[96];
	size_t len[MAX_SERIES];
	double *x[MAX_SERIES];
	double *y[PLOT_MAX_PANELS][MAX_SERIES];
	/* --repeat: a bar from lo to hi at each point (NULL: no ranges) */
	double *ylo[PLOT_MAX_PANELS][MAX_SERIES], *yhi[PLOT_MAX_PANELS][MAX_SERIES];
	int npanels, metric[PLOT_MAX_PANELS];
	int markers; /* a marker on every point */
	/* a sweep over indexes under a mix (mix_of): 1 + the point of each
	 * series whose mix costs least per 1,000 operations (the lowest
	 * mix_ms_per_1000_ops of two or more); 0: none marked */
	size_t cheapest[MAX_SERIES];
	struct mark *marks;
	size_t nmarks;
	char title[200], caption[900];
	size_t points; /* records drawn */
};

struct frame {
	double x, y, w, h;
};

/* How the y axis of metric m writes its ticks: a divisor and a suffix
 * chosen once from the axis' top (so every tick says the same unit). */
struct yunit {
	double div;
	char suffix[24];
};

/* Panel p's y axis for a frame fh units high: its top (a whole number of
 * steps), its step, the unit of its ticks; got: the values drawn. */
struct yaxis {
	double top, step;
	struct yunit u;
	int got;
};

/* plot.c */
/* A knob of the workload (what a chart's reader is shown), not a run
 * option, the dsn or the seed. */
int plot_workload_knob(int id);
/* A workload knob p sweeps (two values or more). */
int plot_swept(const struct plan *p, int id);
/* Whether knob id's values lie on a number line (indexes, cache, ...), not
 * words (engine, key order, commit row/100/all). */
int plot_numeric_knob(int id);

/* plot_model.c: the model of pl's records, interval ones or steps. */
/* The panels: --plot-metrics, else the default ones with data. */
void plot_pick_metrics(const struct plot *pl, int interval, struct model *md);
/* A sweep: x the first swept knob, a series per combination of the others. */
void plot_model_sweep(const struct plot *pl, struct model *md);
/* Records over time: one line, broken at each knob change and each gap;
 * a marker at each change and caption. */
void plot_model_time(const struct plot *pl, struct model *md);
/* Frees what md holds, not md. */
void plot_model_free(struct model *md);

/* plot_axis.c */
/* Model x as a position inside frame f. */
double plot_fx(const struct model *md, const struct frame *f, double x);
/* Tick value v (of an axis of step step) with its suffix, into buf. */
void plot_tick_text(double v, double step, const char *suffix, char *buf, size_t len);
/* Panel p's y axis for a frame fh units high. */
void plot_y_axis(const struct model *md, int p, double fh, struct yaxis *a);
/* The x axis' ticks under frame f, and with labels their labels. */
void plot_x_ticks(cairo_t *cr, const struct model *md, const struct frame *f, int labels);
/* The room the y tick labels of every panel need left of the frames. */
double plot_y_margin(cairo_t *cr, const struct model *md);

/* plot_draw.c */
/* Text at (x, y): ax 0 left, 0.5 centre, 1 right of x; y the baseline
 * (ay 0) or the middle of the text's height (ay 0.5). Its width. */
double plot_text(cairo_t *cr, double x, double y, const char *s, double size, int bold, double ax,
                 double ay);
double plot_text_width(cairo_t *cr, const char *s, double size, int bold);
/* A grey by its lightness on the light theme (1: the background, 0.05:
 * the title); the dark theme turns it around. */
void plot_grey(cairo_t *cr, double g);
/* Draw md on the format's surface into f. */
cairo_status_t plot_render(enum plot_format fmt, int dark, const struct model *md, FILE *f);

/* plot_same.c: how many markers of the series before s lie under s's
 * point i in panel p (s's marker is then a ring around them); whether a
 * series of the chart has another's values at every point; and the note
 * under panel p that names such series ("same as ..."). */
int plot_covered(const struct model *md, const struct frame *f, int p, int s, size_t i, double top);
int plot_any_hidden(const struct model *md);
void plot_same_as_note(cairo_t *cr, const struct model *md, int p, double x, double y,
                       double width);

#endif
