/* presenter.c - the presenter view (--presenter, key v) and the caption.
 *
 * For a talk: one to three figures in block digits a room can read, each
 * with its now/baseline ratio; under them a chart of the first figure over
 * what the history holds (HIST_MIN_SPAN at least), its knob changes marked and labelled,
 * each point a trailing mean (history_chart_mean: no comb of big commits); the
 * caption in two lines of its own; the knobs in force in one line. The
 * title, the status and the hint line are the normal view's (panel_lines.c).
 * Everything comes from the history and the sliders: this file only paints.
 *
 * The block font is the glyph table's (glyphs_font_row): a pixel is a cell
 * of G_BLOCK ('#' in ASCII), scaled up on a big terminal; at 80x24 two
 * pixel rows share a cell (G_BLOCK_TOP / G_BLOCK_LOW). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../engines/engine.h"
#include "../metrics.h"
#include "../record.h"
#include "../textfit.h"
#include "paint.h"
#include "panels.h"
#include "spark.h"
#include "ui.h"

#define CHART_MAX  512 /* columns of the chart */
#define YLAB_W     8   /* the chart's scale labels */
#define LABEL_ROWS 3   /* rows the marker labels stagger over */

int presenter_metrics(const struct dash *d, int *ids)
{
	long long packed = d->figures >= 0 ? d->figures : d->k.want.v[K_PRESENTER_METRICS];

	return knobs_presenter_figures(packed, engine_figure((int)d->k.want.v[K_ENGINE]), ids);
}

/* ---- block digits -------------------------------------------------------- */

/* Pixels across s in the font (a pixel of space between characters). */
static int font_width(const char *s)
{
	int w = 0;

	for (; *s; s++)
		w += (int)strlen(glyphs_font_row((unsigned char)*s, 0)) + (s[1] ? 1 : 0);
	return w;
}

/* Pixel (px, py) of s, 0 or 1 (py past the font's rows: 0). */
static int font_pixel(const char *s, int px, int py)
{
	for (; *s; s++) {
		const char *row = glyphs_font_row((unsigned char)*s, py);
		int w = (int)strlen(glyphs_font_row((unsigned char)*s, 0));

		if (px < w)
			return row && row[px] == '#';
		px -= w + 1;
		if (px < 0)
			return 0;
	}
	return 0;
}

/* s (characters of the font only) in `rows` rows from (y, x), at most w
 * columns, as wide as fits (up to 3 columns a pixel). */
static void big_text(const struct glyphs *g, int y, int x, int w, int rows, const char *s)
{
	int half = rows < GLYPHS_FONT_H, sy = rows / GLYPHS_FONT_H, pw = font_width(s);
	int sx = 3, r, c;

	if (sy < 1)
		sy = 1;
	while (sx > 1 && pw * sx > w)
		sx--;
	for (r = 0; r < rows; r++) {
		move(y + r, x);
		for (c = 0; c < w && c < pw * sx; c++) {
			int px = c / sx, top, low;

			if (half) {
				top = font_pixel(s, px, 2 * r);
				low = font_pixel(s, px, 2 * r + 1);
			} else {
				top = low = font_pixel(s, px, r / sy);
			}
			addstr(top && low ? g->s[G_BLOCK]
			       : top      ? g->s[G_BLOCK_TOP]
			       : low      ? g->s[G_BLOCK_LOW]
			                  : " ");
		}
	}
}

/* One figure: its label line (label, unit, ratio), then its digits. */
static void figure(const struct dash *d, const struct rect *r, int rows, int m)
{
	char buf[64], big[32], line[160], ratio[96];
	int na = 0;
	size_t n = 0;
	double v = history_value(d->hist, m, (int)lround(HIST_VALUE_SPAN / HIST_PERIOD), &na);
	const char *rest;

	if (!record_metric_applies(m, &d->k.applied))
		na = 1;
	history_format(m, v, na, buf, sizeof buf);
	while (buf[n] && n + 1 < sizeof big && glyphs_font_row((unsigned char)buf[n], 0))
		n++;
	memcpy(big, buf, n);
	big[n] = 0;
	for (rest = buf + n; *rest == ' '; rest++)
		;
	snprintf(line, sizeof line, " %s%s%s", record_metric_label(m, &d->k.applied),
	         *rest ? " in " : "", rest);
	if (!n) /* n/a, ...: no digits to draw */
		snprintf(line, sizeof line, " %s  %s", record_metric_label(m, &d->k.applied), buf);
	attron(A_BOLD);
	paint_clipped(r->y, r->x, r->w, line);
	attroff(A_BOLD);
	if (dash_ab_ratio_of(d, m, ratio, sizeof ratio)) { /* A/B's, on stage */
		int x = r->x + paint_cols(line, strlen(line)) + 2;

		attron(term_color(&d->term, C_AB_B) | A_BOLD);
		if (x < r->x + r->w)
			paint_clipped(r->y, x, r->x + r->w - x, ratio);
		attroff(term_color(&d->term, C_AB_B) | A_BOLD);
	} else if (d->hist->base_on) {
		int x = r->x + paint_cols(line, strlen(line)) + 2;

		/* The metric rows' ratio: clamped near 0 (on the scale the chart
		 * would draw it with), marked and coloured by the good direction. */
		double full =
		    history_full_scale(d->hist, m, HIST_CAP - 1,
		                       history_drawn_max(d->hist, na ? NAN : v, NULL, NULL, 0));
		int sense = history_ratio_text(d->hist, m, na ? NAN : v, full, d->term.g->ascii,
		                               buf, sizeof buf);
		attr_t a = term_color(&d->term, sense > 0 ? C_SPARK : sense < 0 ? C_ERR : C_MARK);

		snprintf(ratio, sizeof ratio, "%.30s %.60s", buf,
		         *d->hist->base_from ? d->hist->base_from : "of the baseline");
		if (x < r->x + r->w && strcmp(buf, "-") != 0) { /* "-": unknown */
			attron(a | A_BOLD);
			paint_clipped(r->y, x, r->x + r->w - x, ratio);
			attroff(a | A_BOLD);
		}
	}
	attron(term_color(&d->term, C_TITLE) | A_BOLD);
	big_text(d->term.g, r->y + 1, r->x + 1, r->w - 3, rows, big);
	attroff(term_color(&d->term, C_TITLE) | A_BOLD);
}

/* ---- the chart ----------------------------------------------------------- */

static void chart(const struct dash *d, const struct rect *r, int m)
{
	const struct glyphs *g = d->term.g;
	double vals[CHART_MAX], max = 0;
	int marks[CHART_MAX], changed[CHART_MAX], label_end[LABEL_ROWS] = { 0 }, side[CHART_MAX];
	/* by side[j] + 2: no A/B, a transition, A, B */
	const attr_t color[] = { term_color(&d->term, C_SPARK), term_dim(&d->term),
		                 term_color(&d->term, C_AB_A), term_color(&d->term, C_AB_B) };
	int plot_w = r->w - 2 - YLAB_W, plot_h = r->h - 2, j, i;
	int x0 = r->x + 1 + YLAB_W, y_bottom = r->y + r->h - 2;
	char title[200], lab[32];
	double span = history_span(d->hist, HIST_CAP - 1), mean;

	if (plot_w > CHART_MAX)
		plot_w = CHART_MAX;
	if (plot_w < 4 || plot_h < 2)
		return;
	/* Trailing means, so that big commits' pauses make no comb of spikes
	 * and zeros; the title says over how long. */
	mean = history_chart_mean(d->hist, span);
	history_series_mean(d->hist, m, plot_w, span, mean, vals, changed);
	history_series_marks(d->hist, plot_w, span, marks);
	for (j = 0; j < plot_w; j++)
		changed[j] = changed[j] ? 0 : -1; /* as marks: left out of the scale */
	/* The dashboard's scale rule: never shrinks while a value that needed
	 * it is on the chart, a knob change's own columns left out; pinned
	 * with the others (s). */
	max = history_full_scale(d->hist, m, HIST_CAP - 1,
	                         history_drawn_max(d->hist, NAN, vals, changed, plot_w));
	snprintf(title, sizeof title,
	         "%s over the last %.0f s%s, each point the mean of the %.0f s before it (knob "
	         "changes marked)",
	         record_metric_label(m, &d->k.applied), span * HIST_PERIOD * d->feed->speed,
	         d->hist->scales_pinned ? ", scale pinned" : "",
	         mean * HIST_PERIOD * d->feed->speed);
	paint_box(g, r, title);
	/* The scale: its top, its middle, 0. */
	for (i = 0; i < 3; i++) {
		int y = i == 0 ? r->y + 1 : i == 1 ? r->y + 1 + plot_h / 2 : y_bottom;
		double v = max * (i == 0 ? 1 : i == 1 ? (double)(plot_h - plot_h / 2) / plot_h : 0);

		history_format(m, v, 0, lab, sizeof lab);
		attron(term_dim(&d->term));
		mvprintw(y, r->x + 1, "%*.*s ", YLAB_W - 1, YLAB_W - 1, max > 0 || !i ? lab : "");
		attroff(term_dim(&d->term));
	}
	/* In A/B: each column's trace (ab.h; a transition: neither, dimmed). */
	for (j = 0; j < plot_w; j++) {
		double t0, t1;

		side[j] = d->ab.state != AB_RUNNING ? AB_A - 2
		          : history_column_times(d->hist, plot_w, span, mean, j, &t0, &t1) < 0
		              ? AB_NONE
		              : dash_ab_trace(d, t0, t1);
	}
	for (j = 0; j < plot_w; j++) {
		int eighths = isnan(vals[j]) || max <= 0
		                  ? 0
		                  : (int)lround(vals[j] / max * plot_h * SPARK_LEVELS);

		if (!isnan(vals[j]) && vals[j] > 0 && eighths == 0)
			eighths = 1; /* something, however little */
		for (i = 0; i < plot_h; i++) {
			int fill = eighths - i * SPARK_LEVELS;
			const char *s = fill >= SPARK_LEVELS ? g->s[G_BLOCK]
			                : fill > 0           ? spark_glyph(fill - 1, g->ascii)
			                                     : NULL;

			if (s) {
				/* B reads without colour too: shaded, its top underlined */
				attr_t a = color[side[j] + 2] | (side[j] == AB_B ? A_UNDERLINE : 0);

				if (side[j] == AB_B && fill >= SPARK_LEVELS)
					s = g->s[G_AB_B];
				attron(a);
				mvaddstr(y_bottom - i, x0 + j, s);
				attroff(a);
			} else if (marks[j] >= 0) {
				attron(term_color(&d->term, C_MARK) | A_BOLD);
				mvaddstr(y_bottom - i, x0 + j, g->s[G_GAP_MARK]);
				attroff(term_color(&d->term, C_MARK) | A_BOLD);
			}
		}
	}
	/* Labels at the top, from their line on (near the right edge: ending
	 * at it), each on the first row free there. */
	for (j = 0; j < plot_w; j++) {
		const char *label;
		int row, w, at;

		if (marks[j] < 0)
			continue;
		label = d->hist->markers[marks[j]].label;
		w = paint_cols(label, strlen(label));
		at = j + w > plot_w && j + 1 >= w ? j + 1 - w : j;
		for (row = 0; row < LABEL_ROWS && row < plot_h && label_end[row] > at; row++)
			;
		if (row == LABEL_ROWS || row >= plot_h)
			continue;
		label_end[row] = at + w + 1;
		attron(term_color(&d->term, C_MARK) | A_BOLD | A_REVERSE);
		paint_clipped(r->y + 1 + row, x0 + at, plot_w - at, label);
		attroff(term_color(&d->term, C_MARK) | A_BOLD | A_REVERSE);
	}
}

/* ---- the caption and the knobs ------------------------------------------ */

void panel_caption(const struct dash *d, const struct rect *r)
{
	const char *s = d->view.caption;
	int line;

	if (!*s || r->h < 1)
		return;
	attron(A_BOLD | A_REVERSE);
	for (line = 0; line < r->h; line++)
		mvhline(r->y + line, r->x, ' ', r->w);
	/* Wrapped at a blank; the last line takes what is left (clipped). */
	for (line = 0; line < r->h && *s; line++) {
		char buf[512];
		int w = r->w - 4, cols = 0, cut = -1, i;

		for (i = 0; s[i] && cols < w; i++) {
			if (s[i] == ' ')
				cut = i;
			cols += (s[i] & 0xc0) != 0x80;
		}
		if (!s[i] || line == r->h - 1 || cut < 0)
			cut = i;
		snprintf(buf, sizeof buf, "%s %.*s", line ? " " : d->term.g->s[G_CAPTION], cut, s);
		paint_clipped(r->y + line, r->x + 1, r->w - 2, buf);
		for (s += cut; *s == ' '; s++)
			;
	}
	attroff(A_BOLD | A_REVERSE);
}

/* The knobs of this engine that a slider moves, name=value, in a line. */
static void knob_line(const struct dash *d, const struct rect *r)
{
	const struct textfit fields = { .sep = "   ", .ellipsis = d->term.g->s[G_ELLIPSIS] };
	char line[1024], shown[1024], val[64];
	size_t n = 0;
	int i;

	line[0] = 0;
	for (i = 0; i < d->k.nids && n < sizeof line; i++) {
		int id = d->k.ids[i];

		if (!engine_has_knob((int)d->k.want.v[K_ENGINE], id) ||
		    knob_table[id].flags & KF_HEADLESS)
			continue;
		knob_format(id, d->k.want.v[id], val, sizeof val);
		n += (size_t)snprintf(line + n, sizeof line - n, "%s%s %s", n ? "   " : " ",
		                      knob_table[id].name, val);
	}
	/* Whole knobs only: `commit 100` for 1000 would be a lie on stage. */
	textfit(&fields, line, r->w, shown, sizeof shown);
	paint_clipped(r->y, r->x, r->w, shown);
}

void panel_presenter(const struct dash *d, const struct layout *l)
{
	int ids[PRESENTER_MAX], n = presenter_metrics(d, ids), i;

	for (i = 0; i < n; i++) {
		struct rect f = l->figures;

		f.x = l->figures.x + i * l->figures.w / n;
		f.w = l->figures.w / n;
		figure(d, &f, l->digit_rows, ids[i]);
	}
	chart(d, &l->chart, ids[0]);
	panel_caption(d, &l->caption);
	knob_line(d, &l->knob_line);
}

void panel_chart(const struct dash *d, const struct rect *r)
{
	int ids[PRESENTER_MAX];

	(void)presenter_metrics(d, ids);
	chart(d, r, ids[0]);
}

void panel_blank(const struct dash *d, const struct layout *l)
{
	struct rect r = { .y = l->H / 2 - 1, .x = 0, .h = 2, .w = l->W };

	panel_caption(d, &r);
}
