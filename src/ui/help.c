/* help.c - the help overlay: every key (from the binding table), every knob
 * and every metric the dashboard shows, each with its meaning, word-wrapped
 * to the overlay and scrolled by the help mode's keys. Reads, never
 * changes, the dashboard. */
#include <stdio.h>
#include <string.h>

#include "../metrics.h"
#include "../textfit.h"
#include "input.h"
#include "paint.h"
#include "panels.h"
#include "ui.h"

#define HELP_LINES 400

/* The help's lines, each at most `width` columns: "head text", text
 * word-wrapped, its continuation lines indented under its first word. A
 * line starting '*' is bold. */
struct help_lines {
	char (*line)[256];
	int n, cap, width;
};

static void help_add(struct help_lines *hl, int bold, const char *head, const char *text)
{
	int indent = paint_cols(head, strlen(head)), room = hl->width - indent;
	const char *p = text;

	if (room < 20) /* too narrow to wrap usefully: one clipped line */
		room = 1 << 20;
	do {
		size_t len = strlen(p), cut = len;
		char *l;

		if (hl->n == hl->cap)
			return;
		if (paint_cols(p, len) > room) {
			/* the last space within room columns; none: cut at room */
			size_t i, last = 0;
			int c = 0;

			for (i = 0; p[i] && c <= room; i++) {
				if (p[i] == ' ')
					last = i;
				c += (p[i] & 0xc0) != 0x80;
			}
			cut = last ? last : i - 1;
			while (cut > 1 && (p[cut] & 0xc0) == 0x80)
				cut--; /* not inside a UTF-8 sequence */
		}
		l = hl->line[hl->n++];
		if (p == text)
			snprintf(l, sizeof hl->line[0], "%c%s%.*s", bold ? '*' : ' ', head,
			         (int)cut, p);
		else
			snprintf(l, sizeof hl->line[0], "%c%*s%.*s", bold ? '*' : ' ', indent, "",
			         (int)cut, p);
		p += cut;
		while (*p == ' ')
			p++;
	} while (*p);
}

static void help_build(struct help_lines *hl, const struct glyphs *g, const struct knobs *k)
{
	char head[256];
	size_t i;
	int id;

	help_add(hl, 1, "", "Keys");
	for (i = 0; i < input_nbindings; i++) {
		if (!input_bindings[i].help)
			continue;
		snprintf(head, sizeof head, "  %-16s ", input_bindings[i].names);
		help_add(hl, 0, head, input_bindings[i].help);
	}
	help_add(hl, 0, "", " ");
	help_add(hl, 1, "", "Knobs");
	for (id = 0; id < K_COUNT; id++)
		if (!(knob_table[id].flags & KF_OPTION)) {
			snprintf(head, sizeof head, "  %-12s ", knob_table[id].name);
			help_add(hl, 0, head, knob_why(id, k));
		}
	help_add(hl, 0, "", " ");
	help_add(hl, 1, "", "Metrics (n/a: the engine cannot measure it; ...: not settled yet)");
	snprintf(head, sizeof head,
	         "%s higher is better, %s lower is better; after a ratio "
	         "now/baseline: %s went the good way, %s the bad way (more than 10 %%)",
	         g->s[G_HIGH_GOOD], g->s[G_LOW_GOOD], g->s[G_BETTER], g->s[G_WORSE]);
	help_add(hl, 0, "  ", head);
	help_add(hl, 0, "  ", "a row shows only where its engine measures it");
	for (id = 0; id < panel_nmetrics; id++) {
		const struct metric_def *md = &metric_table[panel_metric_ids[id]];
		static const enum glyph dir[] = { [BETTER_NONE] = G_NONE,
			                          [BETTER_HIGHER] = G_HIGH_GOOD,
			                          [BETTER_LOWER] = G_LOW_GOOD };

		snprintf(head, sizeof head, "  %-13s %-1s ", md->label, g->s[dir[md->better]]);
		help_add(hl, 0, head, md->why);
	}
}

/* On the bottom edge: where the lines shown are, whether more follow, and
 * the keys, whole parts only (the first ones matter most). */
static void help_footer(const struct glyphs *g, const struct rect *r, int from, int to, int n)
{
	const struct textfit parts = { .sep = "  ", .ellipsis = g->s[G_ELLIPSIS] };
	char text[256], shown[256];
	int more = to < n;

	if (r->h < 3 || r->w < 8)
		return;
	snprintf(text, sizeof text, " %s%slines %d-%d of %d  %s  %sq: close  Up/Down: a line ",
	         more ? g->s[G_MORE] : "", more ? " more  " : "(end)  ", from + 1, to, n,
	         more ? "PgDn/Space: page" : "Home: the start", from > 0 ? "PgUp: back  " : "");
	textfit(&parts, text, r->w - 4, shown, sizeof shown);
	attron(A_BOLD);
	paint_clipped(r->y + r->h - 1, r->x + 2, r->w - 4, shown);
	attroff(A_BOLD);
}

int help_draw(const struct dash *d, const struct rect *r, int top)
{
	static char store[HELP_LINES][256];
	struct help_lines hl = { .line = store, .cap = HELP_LINES, .width = r->w - 4 };
	int i, rows = r->h - 2;

	help_build(&hl, d->term.g, &d->k.want);
	if (top > hl.n - rows)
		top = hl.n - rows > 0 ? hl.n - rows : 0;
	if (top < 0)
		top = 0;
	paint_clear(r);
	paint_box(d->term.g, r, "help");
	for (i = 0; i < rows && top + i < hl.n; i++) {
		const char *s = hl.line[top + i];

		if (s[0] == '*')
			attron(A_BOLD);
		paint_clipped(r->y + 1 + i, r->x + 2, r->w - 4, s + 1);
		attroff(A_BOLD);
	}
	help_footer(d->term.g, r, top, top + i, hl.n);
	return top;
}
