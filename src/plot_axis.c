/* plot_axis.c - the axes of a --plot chart: where a model x lands in a
 * frame, the y axis' top, step and unit (one unit for every tick, chosen
 * from the top: 2 ms, 8 KiB, 400k rows/s, 40 %), and the x ticks. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "metrics.h"
#include "plot_int.h"

static struct yunit y_unit(int m, double top)
{
	const char *unit = metric_table[m].unit, *f = metric_table[m].field, *suffix = "";
	size_t fl = strlen(f);
	struct yunit u = { 1, "" };

	if (fl > 4 && strcmp(f + fl - 4, "_pct") == 0) {
		suffix = " %";
	} else if (fl > 3 && strcmp(f + fl - 3, "_ms") == 0) {
		/* values in ms */
		if (top < 1)
			u.div = 0.001, suffix = " \xc2\xb5s";
		else if (top >= 1000)
			u.div = 1000, suffix = " s";
		else
			suffix = " ms";
	} else if (strcmp(unit, "s") == 0) {
		suffix = " s";
	} else if (strcmp(unit, "B") == 0) {
		static const char *const names[] = { " B", " KiB", " MiB", " GiB", " TiB" };
		int i = 0;

		while (top >= 1024 * u.div && i < 4) {
			u.div *= 1024;
			i++;
		}
		suffix = names[i];
	} else {
		static const char *const names[] = { "", "k", "M", "G" };
		int i = 0;

		while (top >= 1000 * u.div && i < 3) {
			u.div *= 1000;
			i++;
		}
		suffix = names[i];
	}
	snprintf(u.suffix, sizeof u.suffix, "%s%s", suffix,
	         metric_table[m].per_s ? metric_table[m].per_s : "");
	return u;
}

/* 1, 2, 5 times a power of ten near range / n. */
static double nice_step(double range, int n)
{
	double raw = range / n, mag = pow(10, floor(log10(raw))), f = raw / mag;

	return (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * mag;
}

void plot_tick_text(double v, double step, const char *suffix, char *buf, size_t len)
{
	int dec = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);

	if (v == 0) /* 0, not 0k, 0 KiB or 0.0000 */
		dec = 0, suffix = "";
	snprintf(buf, len, "%.*f%s", dec > 6 ? 6 : dec, v, suffix);
}

double plot_fx(const struct model *md, const struct frame *f, double x)
{
	return f->x + f->w * (x - md->lo) / (md->hi - md->lo);
}

/* A tick at x on the line base, with label under it when labels; left
 * out when its label would overlap the one before (*right: where that
 * one ends, moved on). */
static void x_tick(cairo_t *cr, double x, double base, const char *label, int labels, double *right)
{
	double wd = plot_text_width(cr, label, 18, 0);

	if (x - wd / 2 < *right + 10)
		return;
	plot_grey(cr, 0.35);
	cairo_move_to(cr, x, base);
	cairo_line_to(cr, x, base + 7);
	cairo_stroke(cr);
	plot_grey(cr, 0.2);
	if (labels)
		plot_text(cr, x, base + 28, label, 18, 0, 0.5, 0);
	*right = x + wd / 2;
}

/* The x axis' ticks and labels under frame f (labels that would overlap
 * the one before are left out). */
void plot_x_ticks(cairo_t *cr, const struct model *md, const struct frame *f, int labels)
{
	double right = -INFINITY, base = f->y + f->h;
	char buf[64];
	int j;

	plot_grey(cr, 0.2);
	if (md->over_time) {
		double step = nice_step(md->hi - md->lo, 8), v;

		for (v = ceil(md->lo / step) * step; v <= md->hi + 1e-9; v += step) {
			plot_tick_text(v, step, "", buf, sizeof buf);
			x_tick(cr, plot_fx(md, f, v), base, buf, labels, &right);
		}
		return;
	}
	for (j = 0; j < md->ncat; j++)
		x_tick(cr, plot_fx(md, f, md->nseries ? md->x[0][j] : j), base, md->cat_label[j], 1,
		       &right);
}

void plot_y_axis(const struct model *md, int p, double fh, struct yaxis *a)
{
	double high;
	size_t i;
	int s, pass;

	a->top = 0;
	a->got = 0;
	for (s = 0; s < md->nseries; s++)
		for (i = 0; i < md->len[s]; i++)
			if (!isnan(md->y[p][s][i])) {
				a->top = fmax(a->top, md->y[p][s][i]);
				if (md->yhi[p][s] && !isnan(md->yhi[p][s][i]))
					a->top = fmax(a->top, md->yhi[p][s][i]); /* a range bar */
				a->got++;
			}
	if (a->top <= 0)
		a->top = 1;
	high = a->top;
	a->u = y_unit(md->metric[p], high);
	for (pass = 0; pass < 2; pass++) {
		a->step = nice_step(high / a->u.div, fh > 200 ? 4 : fh > 110 ? 3 : 2) * a->u.div;
		a->top = ceil(high * 1.04 / a->step) * a->step;
		/* the top tick rounded up into the next unit (1000k): that unit */
		if (y_unit(md->metric[p], a->top).div == a->u.div)
			break;
		a->u = y_unit(md->metric[p], a->top);
	}
}

/* The room the y tick labels of every panel need left of the frames
 * (one for all, so stacked panels and their markers line up). */
double plot_y_margin(cairo_t *cr, const struct model *md)
{
	static const double heights[] = { 300, 150, 100 };
	double widest = 0, v;
	struct yaxis a;
	char buf[96];
	unsigned k;
	int p;

	for (p = 0; p < md->npanels; p++)
		for (k = 0; k < sizeof heights / sizeof heights[0]; k++) {
			plot_y_axis(md, p, heights[k], &a);
			for (v = 0; v <= a.top + a.step * 1e-6; v += a.step) {
				plot_tick_text(v / a.u.div, a.step / a.u.div, a.u.suffix, buf,
				               sizeof buf);
				widest = fmax(widest, plot_text_width(cr, buf, 18, 0));
			}
		}
	return fmax(110, widest + 26);
}
