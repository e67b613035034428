/* panel_lines.c - the one-line panels and the events box: the title, the
 * status line (a rebuild to confirm, what the worker is doing, a message,
 * a caption, or what the selected knob does), the events, and the hints
 * (or the prompt, or where a demo is). The hint line's keys come from the
 * binding table (input.c). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../clock.h"
#include "../units.h"
#include "input.h"
#include "paint.h"
#include "panels.h"
#include "ui.h"

void panel_title(const struct dash *d, const struct rect *r)
{
	const struct live *l = d->live;
	char rows[32], line[512];
	const char *right = "? help  q quit";

	units_human((double)l->table_rows, "", rows, sizeof rows);
	snprintf(line, sizeof line, " idxlab  %s%s  %s  %s rows in table  %s", d->feed->tag,
	         knob_table[K_ENGINE].choices[d->k.want.v[K_ENGINE]],
	         d->feed->over ? "over" : live_state_name(l->state), rows,
	         *l->where ? l->where : "(opening)");
	attron(A_REVERSE | A_BOLD);
	mvhline(r->y, r->x, ' ', r->w);
	paint_clipped(r->y, r->x, r->w - (int)strlen(right) - 2, line);
	mvaddstr(r->y, r->x + r->w - (int)strlen(right) - 1, right);
	attroff(A_REVERSE | A_BOLD);
}

/* A whole line in bold reverse video. */
static void banner(const struct rect *r, const char *line)
{
	attron(A_BOLD | A_REVERSE);
	mvhline(r->y, r->x, ' ', r->w);
	paint_clipped(r->y, r->x, r->w, line);
	attroff(A_BOLD | A_REVERSE);
}

void panel_status(const struct dash *d, const struct rect *r)
{
	const struct live *l = d->live;
	int id = d->k.ids[d->k.sel];
	const char *locked = dash_locked(d, id);
	char line[512];

	if (d->k.confirming) {
		char label[160];

		dash_change_label(&d->k.want, &d->k.confirm_to, d->term.g->ascii, label,
		                  sizeof label);
		snprintf(line, sizeof line, " Rebuild the table for %s? It drops the rows. (y/n)",
		         label);
		banner(r, line);
		return;
	}
	if (l->state == LS_APPLYING || l->state == LS_STARTING || l->state == LS_FAILED ||
	    l->state == LS_IDLE) {
		attr_t a = A_BOLD | (l->state == LS_FAILED ? term_color(&d->term, C_ERR) : 0);

		snprintf(line, sizeof line, " %s%s (%.1f s)",
		         l->state == LS_FAILED ? "FAILED: " : "", l->activity,
		         d->feed->ops->now(d->feed) - l->activity_t0);
		attron(a);
		paint_clipped(r->y, r->x, r->w, line);
		attroff(a);
		return;
	}
	if (*d->view.flash && clock_now_s() - d->view.flash_t < 4) {
		attron(term_color(&d->term, C_WARN) | A_BOLD);
		paint_clipped(r->y, r->x + 1, r->w - 2, d->view.flash);
		attroff(term_color(&d->term, C_WARN) | A_BOLD);
		return;
	}
	if (*d->view.caption) { /* a --demo's, or a replayed one */
		snprintf(line, sizeof line, " %s %s", d->term.g->s[G_CAPTION], d->view.caption);
		banner(r, line);
		return;
	}
	snprintf(line, sizeof line, " %s: %s%s%s", knob_table[id].name, knob_table[id].why,
	         locked ? " - " : "", locked ? locked : "");
	attron(locked ? A_DIM : A_NORMAL);
	paint_clipped(r->y, r->x, r->w, line);
	attroff(locked ? A_DIM : A_NORMAL);
}

void panel_events(const struct dash *d, const struct rect *r)
{
	int rows = r->h - 2, i, first;

	paint_box(d->term.g, r, "events");
	first = d->view.nevs > rows ? d->view.nevs - rows : 0;
	for (i = first; i < d->view.nevs; i++) {
		const struct ev *e = &d->view.evs[i];
		attr_t a = e->level == EV_ERROR  ? (term_color(&d->term, C_ERR) | A_BOLD)
		           : e->level == EV_WARN ? term_color(&d->term, C_WARN)
		                                 : A_NORMAL;
		char line[400];

		snprintf(line, sizeof line, "%7.1fs  %s", e->t, e->text);
		attron(a);
		paint_clipped(r->y + 1 + i - first, r->x + 1, r->w - 2, line);
		attroff(a);
	}
}

static void prompt_line(const struct dash *d, const struct rect *r)
{
	const struct prompt *p = &d->prompt;
	const char *tail = p->fresh ? "_   (type to replace, Enter sets, Esc cancels)"
	                            : "_   (Enter sets, Esc cancels)";
	char head[64];
	int x;

	snprintf(head, sizeof head, " %s = ", knob_table[d->k.ids[d->k.sel]].name);
	x = (int)strlen(head);
	attron(A_BOLD);
	paint_clipped(r->y, r->x, r->w, head);
	if (p->fresh)
		attron(A_REVERSE);
	if (x < r->w)
		paint_clipped(r->y, r->x + x, r->w - x, p->text);
	attroff(A_REVERSE);
	x += (int)p->len;
	if (x < r->w)
		paint_clipped(r->y, r->x + x, r->w - x, tail);
	attroff(A_BOLD);
}

static void demo_line(const struct dash *d, const struct rect *r)
{
	const struct demo *dm = d->demo;
	int at = dm->next - dm->header, n = dm->n - dm->header;
	char line[512], hints[256];
	double left;

	if (!demo_waiting(dm, clock_now_s(), &left))
		snprintf(line, sizeof line, " demo %d/%d  playing", at, n);
	else if (left > 0)
		snprintf(line, sizeof line, " demo %d/%d  next cue in %.0f s: Space now", at, n,
		         ceil(left));
	else
		snprintf(line, sizeof line, " demo %d/%d  Space: next cue", at, n);
	input_hints(d->term.g, W_DEMO, r->w - paint_cols(line, strlen(line)) - 1, hints,
	            sizeof hints);
	snprintf(line + strlen(line), sizeof line - strlen(line), " %s", hints);
	attron(A_BOLD);
	paint_clipped(r->y, r->x, r->w, line);
	attroff(A_BOLD);
}

void panel_hints(const struct dash *d, const struct rect *r)
{
	char hints[256];

	if (d->prompt.on) {
		prompt_line(d, r);
		return;
	}
	if (dash_demo_playing(d)) {
		demo_line(d, r);
		return;
	}
	input_hints(d->term.g, d->feed->ops->seek ? W_REPLAY : W_MAIN, r->w, hints, sizeof hints);
	attron(A_DIM);
	paint_clipped(r->y, r->x, r->w, hints);
	attroff(A_DIM);
}

void panel_too_small(const struct layout *l)
{
	char msg[160];

	snprintf(msg, sizeof msg, "idxlab needs a %dx%d terminal (this one is %dx%d)", LAYOUT_MIN_W,
	         LAYOUT_MIN_H, l->W, l->H);
	paint_clipped(l->H / 2 - 1 >= 0 ? l->H / 2 - 1 : 0, 0, l->W, msg);
	paint_clipped(l->H / 2 >= 0 ? l->H / 2 : 0, 0, l->W, "enlarge it, or press q to quit");
}
