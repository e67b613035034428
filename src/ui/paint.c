/* paint.c - painting primitives (see paint.h). The only place that turns
 * the glyph table's box keys into curses characters. */
#include "paint.h"

#include <curses.h>

static chtype box_char(const struct glyphs *g, enum box_part part)
{
	return g->acs ? NCURSES_ACS(g->box[part]) : (chtype)(unsigned char)g->box[part];
}

int paint_cols(const char *s, size_t len)
{
	int c = 0;
	size_t i;

	for (i = 0; i < len; i++)
		c += (s[i] & 0xc0) != 0x80;
	return c;
}

void paint_clipped(int y, int x, int w, const char *s)
{
	int cols = 0;
	const char *p = s;

	while (*p && cols < w) {
		p++;
		while ((*p & 0xc0) == 0x80)
			p++;
		cols++;
	}
	mvaddnstr(y, x, s, (int)(p - s));
}

void paint_hline(const struct glyphs *g, int y, int x, int w)
{
	int i;

	for (i = 0; i < w; i++)
		mvaddch(y, x + i, box_char(g, BOX_H));
}

void paint_box(const struct glyphs *g, const struct rect *r, const char *title)
{
	int i, y = r->y, x = r->x, h = r->h, w = r->w;

	if (h < 2 || w < 2)
		return;
	paint_hline(g, y, x + 1, w - 2);
	paint_hline(g, y + h - 1, x + 1, w - 2);
	for (i = 1; i < h - 1; i++) {
		mvaddch(y + i, x, box_char(g, BOX_V));
		mvaddch(y + i, x + w - 1, box_char(g, BOX_V));
	}
	mvaddch(y, x, box_char(g, BOX_UL));
	mvaddch(y, x + w - 1, box_char(g, BOX_UR));
	mvaddch(y + h - 1, x, box_char(g, BOX_LL));
	mvaddch(y + h - 1, x + w - 1, box_char(g, BOX_LR));
	if (title && w > 6) {
		attron(A_BOLD);
		mvaddch(y, x + 2, ' ');
		paint_clipped(y, x + 3, w - 6, title);
		addch(' ');
		attroff(A_BOLD);
	}
}

void paint_clear(const struct rect *r)
{
	int i;

	for (i = 0; i < r->h; i++)
		mvhline(r->y + i, r->x, ' ', r->w);
}

void paint_repeat(const char *s, int n)
{
	while (n-- > 0)
		addstr(s);
}
