/* layout.c - the cases of src/ui/layout.c: the mouse hits what was drawn. */
#include <math.h>

#include "ui/layout.h"
#include "unit.h"

/* The mouse hits what was drawn: knob rows under the title and the box's
 * top line, bar cells at columns 22..29 of the 32-column knobs panel. */
static void test_layout(void)
{
	struct layout l;

	layout_compute(&l, 100, 30, 15, 15);
	CHECK(!l.too_small && l.knobs.w == 32 && l.metrics.x == 32 && l.events_on);
	CHECK(layout_knob_row(&l, 1) == -1 && layout_knob_row(&l, 2) == 0 &&
	      layout_knob_row(&l, 16) == 14 && layout_knob_row(&l, 17) == -1);
	CHECK(layout_bar_pos(&l, 21) < 0 && layout_bar_pos(&l, 30) < 0);
	CHECK(fabs(layout_bar_pos(&l, 22) - 0.5 / 8) < 1e-9 &&
	      fabs(layout_bar_pos(&l, 29) - 7.5 / 8) < 1e-9);
	CHECK(layout_in_knobs(&l, 31) && !layout_in_knobs(&l, 32));
	layout_compute(&l, 79, 30, 15, 15);
	CHECK(l.too_small);
}

const struct unit_case unit_ui_layout[] = {
	{ "unit/layout", test_layout },
	{ NULL, NULL },
};
