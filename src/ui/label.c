/* label.c - the words the dashboard writes about a change: the marker
 * label of a knob change ("+2 idx", "cache 2000KiB -> 1GiB") and a metric
 * over its pinned baseline as a ratio ("0.19x", "from 0"). Pure functions,
 * unit-tested; the panels and the history's markers call them. */
#include "label.h"

#include <math.h>
#include <stdio.h>

#include "glyphs.h"

void label_change(const struct knobs *a, const struct knobs *b, int ascii, char *buf, size_t len)
{
	const char *arrow = glyphs_for(ascii)->s[G_ARROW];
	size_t n = 0;
	int id;

	buf[0] = 0;
	for (id = 0; id < K_COUNT && n < len; id++) {
		char from[64], to[64];

		if (a->v[id] == b->v[id] || knob_table[id].kind == KNOB_STRING)
			continue;
		if (id == K_INDEXES) {
			n += (size_t)snprintf(buf + n, len - n, "%s%+lld idx", n ? ", " : "",
			                      b->v[id] - a->v[id]);
			continue;
		}
		knob_format(id, a->v[id], from, sizeof from);
		knob_format(id, b->v[id], to, sizeof to);
		n += (size_t)snprintf(buf + n, len - n, "%s%s %s %s %s", n ? ", " : "",
		                      knob_table[id].name, from, arrow, to);
	}
}

void label_ratio(double v, double base, char *buf, size_t len)
{
	label_ratio_near(v, base, 0, 1, buf, len);
}

void label_ratio_near(double v, double base, double near0, int ascii, char *buf, size_t len)
{
	double r;

	if (isnan(v) || isnan(base) || (base == 0 && v == 0) ||
	    (near0 > 0 && base <= near0 && v <= near0)) {
		snprintf(buf, len, "-");
		return;
	}
	if (base == 0) {
		snprintf(buf, len, "from 0");
		return;
	}
	if (base <= near0) {
		snprintf(buf, len, "from %s0", ascii ? "~" : "\u2248");
		return;
	}
	r = v / base;
	if (r >= 999.5)
		snprintf(buf, len, ">999x");
	else if (r > 0 && r < 0.001)
		snprintf(buf, len, "<0.001x");
	else
		snprintf(buf, len,
		         r >= 9.995            ? "%.0fx"
		         : r >= 0.01 || r == 0 ? "%.2fx"
		                               : "%.1gx",
		         r);
}
