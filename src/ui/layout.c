/* layout.c - one layout per frame (see layout.h).
 *
 * The normal view:
 *   line 0        title
 *   1..panel      knobs (KNOB_W columns) | metrics (the rest)
 *   next          status
 *   next          the caption, when there is one
 *   then          on a tall screen, a chart (the presenter's) of what an
 *                 events box of more than EVENTS_MAX_H lines would leave
 *   then          events (to the line before the last)
 *   last          hints
 * A hidden panel gives its room to the others: the metrics take the whole
 * width without the knobs, the events the lines the two boxes leave, and
 * the boxes the lines of hidden events.
 *
 * The presenter view:
 *   line 0        title
 *   1..           the big figures: a label line, then the digits
 *   then          the chart (all the lines left)
 *   next 2        the caption
 *   next          the knobs, in one line
 *   next          status
 *   last          hints
 * The help overlay covers the middle, 3 columns and 2 lines in. */
#include "layout.h"

#define KNOB_W 32 /* the knobs panel, borders included */
/* Events boxes taller than this (borders included: 10 lines) give the rest
 * to a chart of the metrics, when it gets at least CHART_MIN_H lines. */
#define EVENTS_MAX_H 12
#define CHART_MIN_H  8

static const struct rect none = { 0, 0, 0, 0 };

static void presenter(struct layout *l, int W, int H)
{
	int fig_h, chart_y;

	l->digit_rows = H >= 40 ? 10 : H >= 30 ? 5 : 3;
	fig_h = 1 + l->digit_rows;
	chart_y = 1 + fig_h;
	l->figures = (struct rect){ .y = 1, .x = 0, .h = fig_h, .w = W };
	l->chart = (struct rect){ .y = chart_y, .x = 0, .h = H - 5 - chart_y, .w = W };
	l->caption = (struct rect){ .y = H - 5, .x = 0, .h = 2, .w = W };
	l->knob_line = (struct rect){ .y = H - 3, .x = 0, .h = 1, .w = W };
	l->status = (struct rect){ .y = H - 2, .x = 0, .h = 1, .w = W };
	l->knobs = l->metrics = l->events = none;
	l->events_on = 0;
	l->knob_rows = 0;
}

void layout_compute_view(struct layout *l, int W, int H, int nknobs, int nmetrics,
                         const struct layout_view *v)
{
	int show_k = !(v->hide & LAYOUT_HIDE_KNOBS), show_m = !(v->hide & LAYOUT_HIDE_METRICS);
	int rows = (show_m && nmetrics > nknobs) || !show_k ? nmetrics : nknobs;
	int panel_h = show_k || show_m ? rows + 2 : 0;
	int cap_h = v->caption ? 1 : 0;
	int ev_y, knob_w = show_k ? KNOB_W : 0;

	l->W = W;
	l->H = H;
	l->too_small = W < LAYOUT_MIN_W || H < LAYOUT_MIN_H;
	l->title = (struct rect){ .y = 0, .x = 0, .h = 1, .w = W };
	l->hints = (struct rect){ .y = H - 1, .x = 0, .h = 1, .w = W };
	l->help = (struct rect){ .y = 2, .x = 3, .h = H - 4, .w = W - 6 };
	l->presenter = v->presenter;
	l->figures = l->chart = l->knob_line = none;
	l->digit_rows = 0;
	if (v->presenter) {
		presenter(l, W, H);
		return;
	}
	if (v->hide & LAYOUT_HIDE_EVENTS && panel_h) /* the boxes take the lines */
		panel_h = H - 3 - cap_h;
	ev_y = 1 + panel_h + 1 + cap_h;
	l->knobs = show_k ? (struct rect){ .y = 1, .x = 0, .h = panel_h, .w = KNOB_W } : none;
	l->metrics =
	    show_m ? (struct rect){ .y = 1, .x = knob_w, .h = panel_h, .w = W - knob_w } : none;
	l->status = (struct rect){ .y = 1 + panel_h, .x = 0, .h = 1, .w = W };
	l->caption = cap_h ? (struct rect){ .y = 2 + panel_h, .x = 0, .h = 1, .w = W } : none;
	l->events = (struct rect){ .y = ev_y, .x = 0, .h = H - 1 - ev_y, .w = W };
	l->events_on = !(v->hide & LAYOUT_HIDE_EVENTS) && l->events.h >= 3;
	if (!l->events_on)
		l->events = none;
	if (l->events_on && show_m && l->events.h - EVENTS_MAX_H >= CHART_MIN_H) {
		l->chart =
		    (struct rect){ .y = ev_y, .x = 0, .h = l->events.h - EVENTS_MAX_H, .w = W };
		l->events.y += l->chart.h;
		l->events.h = EVENTS_MAX_H;
	}
	l->knob_rows = !show_k ? 0 : nknobs < panel_h - 2 ? nknobs : panel_h - 2;
	l->name_w = 10;
	l->value_w = 9;
	l->wide_w = KNOB_W - 4 - l->name_w; /* to the box's last inner column */
	/* border, marker, name, space, value */
	l->bar_x = l->knobs.x + 1 + 1 + l->name_w + 1 + l->value_w;
	l->bar_w = 8;
}

void layout_compute(struct layout *l, int W, int H, int nknobs, int nmetrics)
{
	static const struct layout_view all = { 0, 0, 0 };

	layout_compute_view(l, W, H, nknobs, nmetrics, &all);
}

int layout_knob_row(const struct layout *l, int y)
{
	int row = y - (l->knobs.y + 1);

	return row >= 0 && row < l->knob_rows ? row : -1;
}

int layout_in_knobs(const struct layout *l, int x)
{
	return x >= l->knobs.x && x < l->knobs.x + l->knobs.w;
}

double layout_bar_pos(const struct layout *l, int x)
{
	if (x < l->bar_x || x >= l->bar_x + l->bar_w)
		return -1;
	return (x - l->bar_x + 0.5) / l->bar_w;
}
