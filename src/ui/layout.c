/* layout.c - one layout per frame (see layout.h).
 *
 *   line 0        title
 *   1..panel      knobs (KNOB_W columns) | metrics (the rest)
 *   next          status
 *   then          events (to the line before the last)
 *   last          hints
 * The help overlay covers the middle, 3 columns and 2 lines in. */
#include "layout.h"

#define KNOB_W 32 /* the knobs panel, borders included */

void layout_compute(struct layout *l, int W, int H, int nknobs, int nmetrics)
{
	int panel_h = (nmetrics > nknobs ? nmetrics : nknobs) + 2;
	int ev_y = 1 + panel_h + 1;

	l->W = W;
	l->H = H;
	l->too_small = W < LAYOUT_MIN_W || H < LAYOUT_MIN_H;
	l->title = (struct rect){ .y = 0, .x = 0, .h = 1, .w = W };
	l->knobs = (struct rect){ .y = 1, .x = 0, .h = panel_h, .w = KNOB_W };
	l->metrics = (struct rect){ .y = 1, .x = KNOB_W, .h = panel_h, .w = W - KNOB_W };
	l->status = (struct rect){ .y = 1 + panel_h, .x = 0, .h = 1, .w = W };
	l->events = (struct rect){ .y = ev_y, .x = 0, .h = H - 1 - ev_y, .w = W };
	l->events_on = l->events.h >= 3;
	l->hints = (struct rect){ .y = H - 1, .x = 0, .h = 1, .w = W };
	l->help = (struct rect){ .y = 2, .x = 3, .h = H - 4, .w = W - 6 };
	l->knob_rows = nknobs < panel_h - 2 ? nknobs : panel_h - 2;
	l->name_w = 10;
	l->value_w = 9;
	l->wide_w = KNOB_W - 4 - l->name_w; /* to the box's last inner column */
	/* border, marker, name, space, value */
	l->bar_x = l->knobs.x + 1 + 1 + l->name_w + 1 + l->value_w;
	l->bar_w = 8;
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
