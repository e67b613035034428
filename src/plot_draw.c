/* plot_draw.c - drawing a --plot model on a cairo context of W x H units:
 * the title, the caption, the legend, the labels of the markers, and a
 * panel per metric (its grid, ticks, series, markers and the note of the
 * series that coincide); the surface (image for PNG, SVG, PDF) is the only
 * thing that differs by format. */
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <fontconfig/fontconfig.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "plot_int.h"
#include "xalloc.h"

#define FONT        "Sans"
#define SERIES_KEYS 7 /* colours and markers before they repeat */

/* Okabe & Ito, "Color Universal Design" (2008), yellow last: it reads
 * poorly on white. */
static const double palette[SERIES_KEYS][3] = {
	{ 0.000, 0.447, 0.698 }, /* blue */
	{ 0.835, 0.369, 0.000 }, /* vermillion */
	{ 0.000, 0.620, 0.451 }, /* bluish green */
	{ 0.902, 0.624, 0.000 }, /* orange */
	{ 0.800, 0.475, 0.655 }, /* reddish purple */
	{ 0.337, 0.706, 0.914 }, /* sky blue */
	{ 0.941, 0.894, 0.259 }, /* yellow */
};

/* Text at (x, y): ax 0 left, 0.5 centre, 1 right of x; y the baseline
 * (ay 0) or the middle of the text's height (ay 0.5). Its width. */
double plot_text(cairo_t *cr, double x, double y, const char *s, double size, int bold, double ax,
                 double ay)
{
	cairo_text_extents_t te;

	cairo_select_font_face(cr, FONT, CAIRO_FONT_SLANT_NORMAL,
	                       bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, size);
	cairo_text_extents(cr, s, &te);
	cairo_move_to(cr, x - te.x_advance * ax, y + (ay > 0 ? size * 0.36 : 0));
	cairo_show_text(cr, s);
	return te.x_advance;
}

double plot_text_width(cairo_t *cr, const char *s, double size, int bold)
{
	cairo_text_extents_t te;

	cairo_select_font_face(cr, FONT, CAIRO_FONT_SLANT_NORMAL,
	                       bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, size);
	cairo_text_extents(cr, s, &te);
	return te.x_advance;
}

/* --plot-theme dark: cairo user data on the context (its address is the
 * key), so every grey below is the same call in both themes. */
static const cairo_user_data_key_t dark_key;

/* A grey by its lightness on the light theme (1: the background, 0.05:
 * the title); the dark theme turns it around, the background near black. */
void plot_grey(cairo_t *cr, double g)
{
	if (cairo_get_user_data(cr, &dark_key))
		g = 0.09 + (1 - g) * 0.86;
	cairo_set_source_rgb(cr, g, g, g);
}

static void series_style(cairo_t *cr, int s)
{
	static const double dash_long[] = { 14, 7 }, dash_dot[] = { 3, 6 };
	const double *c = palette[s % SERIES_KEYS];
	double lift = cairo_get_user_data(cr, &dark_key) ? 0.25 : 0; /* brighter on dark */
	int d = (s / SERIES_KEYS + s) % 3;

	cairo_set_source_rgb(cr, c[0] + (1 - c[0]) * lift, c[1] + (1 - c[1]) * lift,
	                     c[2] + (1 - c[2]) * lift);
	cairo_set_line_width(cr, 3.5);
	if (d == 0)
		cairo_set_dash(cr, NULL, 0, 0);
	else
		cairo_set_dash(cr, d == 1 ? dash_long : dash_dot, 2, 0);
}

/* Series s's marker at (x, y): circle, square, triangle, diamond, down
 * triangle, ring, open square; ring > 0: the outline alone, larger by
 * ring sizes up to two (it goes around ring markers of other series at
 * (x, y)). */
static void marker(cairo_t *cr, int s, double x, double y, int ring)
{
	const double r = 8 + 5 * (ring < 2 ? ring : 2); /* past two: the shape tells them */
	int kind = s % SERIES_KEYS;

	cairo_set_dash(cr, NULL, 0, 0);
	cairo_new_path(cr);
	switch (kind) {
	case 0:
	case 5:
		cairo_arc(cr, x, y, r, 0, 2 * M_PI);
		break;
	case 1:
	case 6:
		cairo_rectangle(cr, x - r * 0.85, y - r * 0.85, r * 1.7, r * 1.7);
		break;
	case 2:
		cairo_move_to(cr, x, y - r * 1.1);
		cairo_line_to(cr, x + r, y + r * 0.75);
		cairo_line_to(cr, x - r, y + r * 0.75);
		cairo_close_path(cr);
		break;
	case 3:
		cairo_move_to(cr, x, y - r * 1.15);
		cairo_line_to(cr, x + r, y);
		cairo_line_to(cr, x, y + r * 1.15);
		cairo_line_to(cr, x - r, y);
		cairo_close_path(cr);
		break;
	default:
		cairo_move_to(cr, x, y + r * 1.1);
		cairo_line_to(cr, x + r, y - r * 0.75);
		cairo_line_to(cr, x - r, y - r * 0.75);
		cairo_close_path(cr);
		break;
	}
	if (ring) {
		cairo_set_line_width(cr, 3);
		cairo_stroke(cr);
	} else if (kind >= 5) { /* open: white inside, the colour around */
		cairo_save(cr);
		plot_grey(cr, 1);
		cairo_fill_preserve(cr);
		cairo_restore(cr);
		cairo_set_line_width(cr, 3);
		cairo_stroke(cr);
	} else {
		cairo_fill(cr);
	}
}

/* The vertical markers (knob changes, captions) inside frame f. */
static void draw_marks(cairo_t *cr, const struct model *md, const struct frame *f)
{
	static const double dash[] = { 6, 5 };
	size_t i;

	cairo_save(cr);
	cairo_set_line_width(cr, 1.5);
	for (i = 0; i < md->nmarks; i++) {
		double x = plot_fx(md, f, md->marks[i].x);

		if (x < f->x || x > f->x + f->w)
			continue;
		plot_grey(cr, md->marks[i].caption ? 0.6 : 0.3);
		cairo_set_dash(cr, md->marks[i].caption ? dash : NULL, md->marks[i].caption ? 2 : 0,
		               0);
		cairo_move_to(cr, x, f->y);
		cairo_line_to(cr, x, f->y + f->h);
		cairo_stroke(cr);
	}
	cairo_restore(cr);
}

/* The optimum of a mix's sweep (md->cheapest): at each series' cheapest
 * index count a dashed vertical line in the series' colour, in every
 * panel (under the lines); in the panel of mix_ms_per_1000_ops (label
 * set), a ring around its point and the word "cheapest" (with the series'
 * name when there are several). */
static void draw_cheapest(cairo_t *cr, const struct model *md, const struct frame *f, int p,
                          double top, int label)
{
	static const double dash[] = { 10, 7 };
	char buf[200];
	int s;

	for (s = 0; s < md->nseries; s++) {
		size_t j = md->cheapest[s];
		double x, y, ring;
		int left, t;

		if (!j || j > md->len[s] || isnan(md->x[s][j - 1]))
			continue;
		x = plot_fx(md, f, md->x[s][j - 1]);
		y = md->y[p][s][j - 1];
		cairo_save(cr);
		series_style(cr, s);
		if (!label) {
			cairo_set_line_width(cr, 2);
			cairo_set_dash(cr, dash, 2, 0);
			cairo_move_to(cr, x, f->y);
			cairo_line_to(cr, x, f->y + f->h);
			cairo_stroke(cr);
		} else if (!isnan(y)) {
			y = f->y + f->h - f->h * y / top;
			cairo_set_dash(cr, NULL, 0, 0);
			cairo_set_line_width(cr, 3);
			cairo_new_path(cr);
			for (ring = 20, t = 0; t < s; t++) /* around the earlier ones there */
				ring += md->cheapest[t] == j ? 7 : 0;
			cairo_arc(cr, x, y, ring, 0, 2 * M_PI);
			cairo_stroke(cr);
			snprintf(buf, sizeof buf, "cheapest%s%.150s", md->nseries > 1 ? ": " : "",
			         md->nseries > 1 ? md->label[s] : "");
			left = x + 26 + plot_text_width(cr, buf, 18, 1) > f->x + f->w;
			plot_grey(cr, 0.1); /* right of the ring, or left at the frame's end */
			plot_text(cr, left ? x - 26 : x + 26, y - 22 - 22 * s, buf, 18, 1, left, 0);
		}
		cairo_restore(cr);
	}
}

/* --repeat: series s's bars from each point's min to its max, with caps,
 * in the series' colour (solid), under its markers, a little apart from
 * the other series' at the same x. */
static void draw_ranges(cairo_t *cr, const struct model *md, const struct frame *f, int p, int s,
                        double top)
{
	size_t i;

	if (!md->ylo[p][s])
		return;
	cairo_save(cr);
	series_style(cr, s);
	cairo_set_dash(cr, NULL, 0, 0);
	cairo_set_line_width(cr, 2);
	for (i = 0; i < md->len[s]; i++) {
		double lo = md->ylo[p][s][i], hi = md->yhi[p][s][i], x;

		if (isnan(lo) || isnan(hi) || isnan(md->x[s][i]))
			continue;
		/* series side by side: bars at one x stay apart */
		x = plot_fx(md, f, md->x[s][i]) + 5 * (s - (md->nseries - 1) / 2.0);
		lo = f->y + f->h - f->h * lo / top;
		hi = f->y + f->h - f->h * hi / top;
		cairo_move_to(cr, x, lo);
		cairo_line_to(cr, x, hi);
		cairo_move_to(cr, x - 7, lo);
		cairo_line_to(cr, x + 7, lo);
		cairo_move_to(cr, x - 7, hi);
		cairo_line_to(cr, x + 7, hi);
	}
	cairo_stroke(cr);
	cairo_restore(cr);
}

/* Panel p of the model inside box (x, y, w, h), its frame margin units
 * from the left and head units down (its title, and a note line). */
static void draw_panel(cairo_t *cr, const struct model *md, int p, double x, double y, double w,
                       double h, int last_row, double margin, double head)
{
	struct frame f = { x + margin, y + head, w - margin - 24, h - head - (last_row ? 74 : 14) };
	double top, v;
	struct yaxis a;
	char buf[96];
	size_t i;
	int s;

	plot_y_axis(md, p, f.h, &a);
	top = a.top;
	/* panel title: what the metric is (the ticks say its unit) */
	plot_grey(cr, 0.1);
	plot_text(cr, f.x, y + 28, metric_table[md->metric[p]].title, 24, 1, 0, 0);
	/* grid and y ticks */
	cairo_set_line_width(cr, 1);
	for (v = 0; v <= top + a.step * 1e-6; v += a.step) {
		double yy = f.y + f.h - f.h * v / top;

		plot_grey(cr, v == 0 ? 0.35 : 0.87);
		cairo_move_to(cr, f.x, yy);
		cairo_line_to(cr, f.x + f.w, yy);
		cairo_stroke(cr);
		plot_grey(cr, 0.2);
		plot_tick_text(v / a.u.div, a.step / a.u.div, a.u.suffix, buf, sizeof buf);
		plot_text(cr, f.x - 10, yy, buf, 18, 0, 1, 0.5);
	}
	plot_grey(cr, 0.35);
	cairo_move_to(cr, f.x, f.y);
	cairo_line_to(cr, f.x, f.y + f.h);
	cairo_stroke(cr);
	draw_marks(cr, md, &f);
	plot_x_ticks(cr, md, &f, last_row);
	if (last_row) {
		plot_grey(cr, 0.1);
		if (md->xknob >= 0 && knob_table[md->xknob].unit &&
		    strcmp(knob_table[md->xknob].unit, "bytes") != 0)
			snprintf(buf, sizeof buf, "%s (%s)", knob_table[md->xknob].name,
			         knob_table[md->xknob].unit);
		else
			snprintf(buf, sizeof buf, "%s",
			         md->over_time   ? "seconds"
			         : md->xknob < 0 ? ""
			                         : knob_table[md->xknob].name);
		if (md->log)
			snprintf(buf + strlen(buf), sizeof buf - strlen(buf), " (log scale)");
		plot_text(cr, f.x + f.w / 2, f.y + f.h + 62, buf, 20, 1, 0.5, 0);
	}
	if (!a.got) {
		plot_grey(cr, 0.45);
		plot_text(cr, f.x + f.w / 2, f.y + f.h / 2, "n/a in this run", 22, 0, 0.5, 0.5);
		return;
	}
	plot_same_as_note(cr, md, p, f.x, y + 54, f.w);
	/* the series: a line through consecutive values, a gap at NaN */
	cairo_save(cr);
	cairo_rectangle(cr, f.x - 24, f.y - 24, f.w + 48, f.h + 48);
	cairo_clip(cr);
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
	draw_cheapest(cr, md, &f, p, top, 0);
	for (s = 0; s < md->nseries; s++) {
		int open = 0;

		series_style(cr, s);
		cairo_new_path(cr);
		for (i = 0; i < md->len[s]; i++) {
			double xv = md->x[s][i], yv = md->y[p][s][i];

			if (isnan(xv) || isnan(yv)) {
				open = 0;
				continue;
			}
			if (open)
				cairo_line_to(cr, plot_fx(md, &f, xv), f.y + f.h - f.h * yv / top);
			else
				cairo_move_to(cr, plot_fx(md, &f, xv), f.y + f.h - f.h * yv / top);
			open = 1;
		}
		cairo_stroke(cr);
		draw_ranges(cr, md, &f, p, s, top);
		for (i = 0; i < md->len[s]; i++) {
			double xv = md->x[s][i], yv = md->y[p][s][i];
			int alone =
			    (i == 0 || isnan(md->y[p][s][i - 1]) || isnan(md->x[s][i - 1])) &&
			    (i + 1 == md->len[s] || isnan(md->y[p][s][i + 1]) ||
			     isnan(md->x[s][i + 1]));

			if (isnan(xv) || isnan(yv) || !(md->markers || alone))
				continue;
			series_style(cr, s);
			marker(cr, s, plot_fx(md, &f, xv), f.y + f.h - f.h * yv / top,
			       plot_covered(md, &f, p, s, i, top));
		}
	}
	if (md->metric[p] == M_MIX_MS_PER_1000_OPS)
		draw_cheapest(cr, md, &f, p, top, 1);
	cairo_restore(cr);
}

/* Lines of at most width units from the "   "-separated items of s, drawn
 * from y down; the y under the last. */
static double wrapped(cairo_t *cr, const char *s, double x, double y, double width, double size)
{
	char line[1200] = "", item[200];
	const char *c = s;

	while (*c) {
		const char *end = strstr(c, "   ");
		size_t n = end ? (size_t)(end - c) : strlen(c);
		char tryl[1200];

		snprintf(item, sizeof item, "%.*s", (int)n, c);
		snprintf(tryl, sizeof tryl, "%.990s%s%.199s", line, *line ? "   " : "", item);
		if (*line && plot_text_width(cr, tryl, size, 0) > width) {
			plot_text(cr, x, y, line, size, 0, 0, 0);
			y += size * 1.35;
			snprintf(line, sizeof line, "%s", item);
		} else {
			snprintf(line, sizeof line, "%s", tryl);
		}
		c += n;
		while (*c == ' ')
			c++;
	}
	if (*line) {
		plot_text(cr, x, y, line, size, 0, 0, 0);
		y += size * 1.35;
	}
	return y;
}

/* The legend (a sweep with more than one series) from y; the y under it. */
static double draw_legend(cairo_t *cr, const struct model *md, double y)
{
	double x = 60, lx;
	int s;

	if (md->nseries < 2)
		return y;
	plot_grey(cr, 0.1);
	if (md->legend_title[0])
		x += plot_text(cr, x, y, md->legend_title, 21, 1, 0, 0.5) + 24;
	for (s = 0; s < md->nseries; s++) {
		double wd = 64 + plot_text_width(cr, md->label[s], 21, 0) + 30;

		if (x + wd > W - 40) {
			x = 60;
			y += 34;
		}
		lx = x;
		series_style(cr, s);
		cairo_move_to(cr, lx, y);
		cairo_line_to(cr, lx + 52, y);
		cairo_stroke(cr);
		marker(cr, s, lx + 26, y, 0);
		plot_grey(cr, 0.1);
		plot_text(cr, lx + 64, y, md->label[s], 21, 0, 0, 0.5);
		x += wd;
	}
	return y + 24;
}

/* The labels of the markers in a band from y, in as many rows as they
 * need (at most three): a knob change's its label, a caption its number
 * (the list above has them all, whole). A label with no room is left out,
 * its line stays; *left_out counts the knob changes' (paint 0: only
 * count). The y under the band. */
static double mark_labels(cairo_t *cr, const struct model *md, const struct frame *f, double y,
                          int paint, int *left_out)
{
	double right[3] = { -INFINITY, -INFINITY, -INFINITY }, bottom;
	int used = 0, r, ncap = 0;
	size_t i;

	*left_out = 0;
	for (i = 0; i < md->nmarks; i++) {
		double x = plot_fx(md, f, md->marks[i].x), wd;
		char buf[sizeof md->marks[i].text + 8];

		if (md->marks[i].caption)
			snprintf(buf, sizeof buf, "%d", ++ncap);
		else
			snprintf(buf, sizeof buf, "%s", md->marks[i].text);
		if (x < f->x - 1 || x > f->x + f->w + 1)
			continue;
		wd = plot_text_width(cr, buf, 18, md->marks[i].caption);
		for (r = 0; r < 3 && x < right[r] + 12; r++)
			;
		if (r == 3) {
			*left_out += !md->marks[i].caption;
			continue;
		}
		right[r] = x + wd + 4;
		if (r + 1 > used)
			used = r + 1;
		if (!paint)
			continue;
		plot_grey(cr, md->marks[i].caption ? 0.4 : 0.15);
		plot_text(cr, x + wd > W - 20 ? x - wd - 4 : x + 4, y + 18 + r * 24, buf, 18,
		          md->marks[i].caption, 0, 0);
	}
	if (!paint)
		return y;
	bottom = y + 24 * used + 8;
	for (i = 0; i < md->nmarks; i++) { /* the lines down to the panels */
		double x = plot_fx(md, f, md->marks[i].x);

		if (x < f->x - 1 || x > f->x + f->w + 1)
			continue;
		plot_grey(cr, md->marks[i].caption ? 0.6 : 0.3);
		cairo_set_line_width(cr, 1.5);
		cairo_move_to(cr, x, y + 2);
		cairo_line_to(cr, x, bottom + 48);
		cairo_stroke(cr);
	}
	return bottom;
}

/* Every caption, numbered as its line is (1 at the first), with its time,
 * wrapped under the legend; and how many knob changes' labels the band
 * leaves out for want of room. The y under it. */
static double caption_list(cairo_t *cr, const struct model *md, const struct frame *f, double y)
{
	char *list = xcalloc(md->nmarks + 1, 200), one[200];
	size_t i, n = 0;
	int ncap = 0, left_out;

	(void)mark_labels(cr, md, f, y, 0, &left_out);
	for (i = 0; i < md->nmarks; i++) {
		if (!md->marks[i].caption)
			continue;
		snprintf(one, sizeof one, "%s%d \xe2\x80\x9c%.150s\xe2\x80\x9d (%.0f s)",
		         ncap ? "   " : "", ncap + 1, md->marks[i].text, md->marks[i].x);
		ncap++;
		n += (size_t)snprintf(list + n, 200 * (md->nmarks + 1) - n, "%s", one);
	}
	if (left_out)
		snprintf(
		    list + n, 200 * (md->nmarks + 1) - n,
		    "%s(the labels of %d knob change%s left out: no room; the lines are drawn)",
		    n ? "   " : "", left_out, left_out == 1 ? "" : "s");
	if (*list) {
		plot_grey(cr, 0.3);
		y = wrapped(cr, list, 60, y + 18, W - 120, 18) - 8;
	}
	free(list);
	return y;
}

static void draw(cairo_t *cr, const struct model *md)
{
	double y, top, margin = plot_y_margin(cr, md), head = plot_any_hidden(md) ? 64 : 44;
	int cols, rows, p, left_out;

	plot_grey(cr, 1);
	cairo_paint(cr);
	plot_grey(cr, 0.05);
	plot_text(cr, 60, 54, md->title, 34, 1, 0, 0);
	plot_grey(cr, 0.3);
	y = wrapped(cr, md->caption, 60, 92, W - 120, 20);
	y = draw_legend(cr, md, y + 12);
	if (md->over_time) {
		struct frame f = { margin, 0, W - margin - 24, 0 };

		if (md->nmarks)
			y = mark_labels(cr, md, &f, caption_list(cr, md, &f, y), 1, &left_out);
		cols = 1;
		rows = md->npanels;
	} else {
		cols = md->npanels <= 3 ? md->npanels : md->npanels == 4 ? 2 : 3;
		rows = (md->npanels + cols - 1) / cols;
	}
	top = y + 4;
	for (p = 0; p < md->npanels; p++) {
		/* stacked over time, only the last panel has the x labels */
		double extra = md->over_time && rows > 1 ? 60 : 0;
		double pw = W / cols, ph = (H - top - 8 - extra) / rows;
		int c = p % cols, r = p / cols, last = !md->over_time || r == rows - 1;

		draw_panel(cr, md, p, c * pw, top + r * ph, pw, ph + (last ? extra : 0), last,
		           margin, head);
	}
}

static cairo_status_t put(void *closure, const unsigned char *data, unsigned int len)
{
	return fwrite(data, 1, len, closure) == len ? CAIRO_STATUS_SUCCESS
	                                            : CAIRO_STATUS_WRITE_ERROR;
}

/* Draw md on the format's surface into f. */
cairo_status_t plot_render(enum plot_format fmt, int dark, const struct model *md, FILE *f)
{
	cairo_surface_t *sf;
	cairo_status_t st;
	cairo_t *cr;

	switch (fmt) {
	case PF_PNG:
		sf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)W, (int)H);
		break;
	case PF_PDF:
		sf = cairo_pdf_surface_create_for_stream(put, f, W, H);
		break;
	case PF_SVG:
	default:
		sf = cairo_svg_surface_create_for_stream(put, f, W, H);
		break;
	}
	cr = cairo_create(sf);
	if (dark) /* any non-NULL pointer says dark */
		cairo_set_user_data(cr, &dark_key, (void *)&dark_key, NULL);
	draw(cr, md);
	st = cairo_status(cr);
	cairo_destroy(cr);
	if (st == CAIRO_STATUS_SUCCESS && fmt == PF_PNG)
		st = cairo_surface_write_to_png_stream(sf, put, f);
	cairo_surface_finish(sf);
	if (st == CAIRO_STATUS_SUCCESS)
		st = cairo_surface_status(sf);
	cairo_surface_destroy(sf);
	/* Give back the fonts cairo and fontconfig loaded (the process is
	 * done drawing; a later chart loads them again). */
	cairo_debug_reset_static_data();
	FcFini();
	return st;
}
