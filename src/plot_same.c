/* plot_same.c - where a chart's series hide one another: a marker over
 * another's (drawn as a ring around it) and a series whose values are
 * another's at every point (named under the panel: "same as ..."), so
 * every series a chart holds is seen or said. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "plot_int.h"

/* How many markers of the series before s lie under series s's point i
 * in panel p (within a marker's width): s's marker then goes around
 * them as a ring, one size larger for each, so every series shows. */
int plot_covered(const struct model *md, const struct frame *f, int p, int s, size_t i, double top)
{
	double x = plot_fx(md, f, md->x[s][i]), y = f->h * md->y[p][s][i] / top;
	int r, n = 0;
	size_t j;

	for (r = 0; r < s; r++)
		for (j = 0; j < md->len[r]; j++)
			if (!isnan(md->y[p][r][j]) && !isnan(md->x[r][j]) &&
			    fabs(plot_fx(md, f, md->x[r][j]) - x) < 12 &&
			    fabs(f->h * md->y[p][r][j] / top - y) < 12) {
				n++;
				break;
			}
	return n;
}

/* Series s and r of panel p have the same values (within 0.5 %) at the
 * same x, and the same gaps? */
static int same_values(const struct model *md, int p, int s, int r)
{
	size_t i, both = 0;

	if (md->len[s] != md->len[r])
		return 0;
	for (i = 0; i < md->len[s]; i++) {
		double a = md->y[p][s][i], b = md->y[p][r][i];

		if (isnan(a) != isnan(b))
			return 0;
		if (isnan(a))
			continue;
		if (fabs(a - b) > 0.005 * fmax(fabs(a), fabs(b)))
			return 0;
		both++;
	}
	return both > 0;
}

/* The earlier series that series s of panel p hides under, or -1. */
static int hides_under(const struct model *md, int p, int s)
{
	int r;

	for (r = 0; r < s; r++)
		if (same_values(md, p, s, r))
			return r;
	return -1;
}

/* Does any panel have a series hidden under another? (Their notes then get
 * a line under every panel's title.) */
int plot_any_hidden(const struct model *md)
{
	int p, s;

	for (p = 0; p < md->npanels; p++)
		for (s = 1; s < md->nseries; s++)
			if (hides_under(md, p, s) >= 0)
				return 1;
	return 0;
}

/* What tells series s from r, into buf: "rand: same as seq" (one other
 * swept knob), else the knobs whose values differ and, with context, those
 * they share: "key-order rand = seq (commit=all)" (labels are "name=value"
 * items two spaces apart). */
static void same_as_text(const struct model *md, int s, int r, int context, char *buf, size_t len)
{
	const char *a = md->label[s], *b = md->label[r];
	char shared[200] = "";
	size_t n = 0, ns = 0;

	if (md->legend_title[0] || !strchr(a, '=')) {
		snprintf(buf, len, "%s: same as %s", a, b);
		return;
	}
	buf[0] = 0;
	while (*a && *b && n < len && ns < sizeof shared) {
		size_t la = strcspn(a, " "), lb = strcspn(b, " "), eq = strcspn(a, "=");

		if (la != lb || strncmp(a, b, la) != 0)
			n += (size_t)snprintf(buf + n, len - n, "%s%.*s %.*s = %.*s", n ? ", " : "",
			                      (int)eq, a, (int)(la - eq - 1), a + eq + 1,
			                      (int)(lb - eq - 1), b + eq + 1);
		else
			ns += (size_t)snprintf(shared + ns, sizeof shared - ns, "%s%.*s",
			                       ns ? " " : "", (int)la, a);
		a += la + strspn(a + la, " ");
		b += lb + strspn(b + lb, " ");
	}
	if (context && *shared && n < len)
		snprintf(buf + n, len - n, " (%.160s)", shared); /* cut to the room left */
}

/* A note on the line under panel p's title (from x, at most width wide)
 * for each series that hides under an earlier one, "rand: same as seq":
 * its rings show where, the note says it is not missing. */
void plot_same_as_note(cairo_t *cr, const struct model *md, int p, double x, double y, double width)
{
	char note[600] = "", one[200];
	int s, r, hidden = 0, context;

	for (context = 1; context >= 0; context--) {
		size_t n = 0;

		hidden = 0;
		for (s = 1; s < md->nseries; s++) {
			if ((r = hides_under(md, p, s)) < 0)
				continue;
			hidden++;
			same_as_text(md, s, r, context, one, sizeof one);
			if (n < sizeof note)
				n += (size_t)snprintf(note + n, sizeof note - n, "%s%s",
				                      n ? ";  " : "", one);
		}
		if (!hidden)
			return;
		if (plot_text_width(cr, note, 18, 0) <= width)
			break;
	}
	if (hidden == md->nseries - 1 && hidden > 1) /* the shortest way to say it */
		snprintf(note, sizeof note, "all %d series the same (within 0.5 %%)", md->nseries);
	else if (context < 0)
		snprintf(note, sizeof note, "%d line%s under others (ringed)", hidden,
		         hidden == 1 ? "" : "s");
	plot_grey(cr, 0.3);
	plot_text(cr, x, y, note, 18, 0, 0, 0);
}
