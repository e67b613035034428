/* panels.h - the dashboard's panels, each drawn into its rectangle of the
 * frame's layout from a struct dash it only reads. */
#ifndef IDXLAB_PANELS_H
#define IDXLAB_PANELS_H

#include "layout.h"

struct dash;

/* The metrics the dashboard may show, in the order of their rows. */
extern const int panel_metric_ids[];
extern const int panel_nmetrics;

/* The rows shown on the engine in force: the metrics of panel_metric_ids
 * it can measure, in their order, into ids (may be NULL: only count). */
int panel_metric_rows(const struct dash *d, int *ids);

/* The lines the metrics panel needs inside its box: its rows, and while
 * the knobs read, the line of what served the queries. */
int panel_metric_lines(const struct dash *d);

/* Every metric's full scale as the metrics panel draws it now, into full
 * (M_COUNT of them): what the s key pins. */
void panel_metric_scales(const struct dash *d, double *full);

void panel_title(const struct dash *d, const struct rect *r);
void panel_knobs(const struct dash *d, const struct layout *l);
void panel_metrics(const struct dash *d, const struct rect *r);
void panel_status(const struct dash *d, const struct rect *r);
void panel_events(const struct dash *d, const struct rect *r);
void panel_hints(const struct dash *d, const struct rect *r);
/* The screen is under LAYOUT_MIN_W x LAYOUT_MIN_H: say so instead. */
void panel_too_small(const struct layout *l);

/* presenter.c: the presenter view's figures, chart, caption and knobs;
 * the caption in its own lines (either view); a blank screen with only the
 * caption. presenter_metrics: the figures' metric ids (the first is
 * charted), PRESENTER_MAX at most; returns how many. */
void panel_presenter(const struct dash *d, const struct layout *l);
void panel_caption(const struct dash *d, const struct rect *r);
void panel_blank(const struct dash *d, const struct layout *l);
/* The presenter's chart of its first figure in r (the normal view's on a
 * tall screen). */
void panel_chart(const struct dash *d, const struct rect *r);
int presenter_metrics(const struct dash *d, int *ids);

/* help.c: the help overlay from line `top` on (every key, knob and metric
 * with its meaning); returns top, clamped to what there is to show
 * (HELP_END: the last page). Its bottom edge says which lines show, that
 * more follow, and the keys that page it, whatever the top. */
#define HELP_END (1 << 20)
int help_draw(const struct dash *d, const struct rect *r, int top);

#endif
