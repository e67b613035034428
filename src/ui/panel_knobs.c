/* panel_knobs.c - the knobs panel: one row per workload knob (name, value,
 * a slider bar), dimmed where it cannot move, the selected one reversed.
 * The columns are the layout's, which the mouse hit-tests against. */
#include <math.h>
#include <string.h>

#include "paint.h"
#include "panels.h"
#include "ui.h"

void panel_knobs(const struct dash *d, const struct layout *l)
{
	const struct glyphs *g = d->term.g;
	int i;

	paint_box(g, &l->knobs, "knobs");
	for (i = 0; i < d->k.nids && i < l->knob_rows; i++) {
		int id = d->k.ids[i], y = l->knobs.y + 1 + i, cells, vw;
		char val[64];
		const char *locked = dash_locked(d, id);
		attr_t a = locked ? term_dim(&d->term) : A_NORMAL;
		int fixed, wide;

		knob_format(id, d->k.want.v[id], val, sizeof val);
		/* A fixed knob (the engine) has no bar, and a long value
		 * (update-indexed) takes the bar's room rather than be cut. */
		fixed = (knob_table[id].flags & KF_FIXED) != 0;
		wide = fixed || strlen(val) > (size_t)l->value_w;
		vw = wide ? l->wide_w : l->value_w;
		if (i == d->k.sel)
			a |= A_REVERSE;
		attron(a);
		/* Greyed is not enough (a dim grey fades on a light background,
		 * high contrast has none): a mark says it too. */
		mvprintw(y, l->knobs.x + 1, "%s%-*.*s %-*.*s",
		         i == d->k.sel ? ">"
		         : locked      ? g->s[G_LOCKED]
		                       : " ",
		         l->name_w, l->name_w, knob_table[id].name, vw, vw, val);
		attroff(a);
		if (wide)
			continue; /* nothing to slide, or no room */
		cells = (int)lround(knob_position(id, &d->k.want, d->k.want.v[id]) * l->bar_w);
		move(y, l->bar_x);
		attron(term_color(&d->term, C_GAUGE));
		paint_repeat(g->s[G_BAR_ON], cells);
		paint_repeat(g->s[G_BAR_OFF], l->bar_w - cells);
		attroff(term_color(&d->term, C_GAUGE));
	}
}
