/* panel_lines.c - the one-line panels and the events box: the title, the
 * status line (a rebuild to confirm, what the worker is doing, a message,
 * a caption, or what the selected knob does), the events, and the hints
 * (or the prompt, or where a demo is). The hint line's keys come from the
 * binding table (input.c). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../clock.h"
#include "../engines/engine.h"
#include "../textfit.h"
#include "../units.h"
#include "input.h"
#include "label.h"
#include "paint.h"
#include "panels.h"
#include "ui.h"

/* Where the data lives, as the title says it: the user's database (its
 * dsn or file, redacted by the worker), or the one idxlab made for itself -
 * never its temp path, which says nothing to an audience. The engine tells
 * them apart from what its where() said (a recording's too); *own is 1 for
 * idxlab's own. */
static const char *where_text(const struct dash *d, int *own)
{
	*own = 0;
	if (!*d->live->where)
		return "(opening)";
	return engine_where_shown((int)d->k.want.v[K_ENGINE], d->live->where, own);
}

void panel_title(const struct dash *d, const struct rect *r)
{
	const struct live *l = d->live;
	char rows[32], line[512];
	const char *right = "? help  q quit", *where;
	size_t n;
	int own;

	where = where_text(d, &own);
	units_human((double)l->table_rows, "", rows, sizeof rows);
	snprintf(line, sizeof line, " idxlab  %s%s  %s  %s rows in table", d->feed->tag,
	         knob_table[K_ENGINE].choices[d->k.want.v[K_ENGINE]],
	         d->feed->over ? "over" : live_state_name(l->state), rows);
	n = strlen(line);
	snprintf(line + n, sizeof line - n, "  %s %s", d->term.g->s[G_DOT], where);
	/* idxlab's own db is said whole or not at all (a path is clipped) */
	if (paint_cols(line, strlen(line)) > r->w - (int)strlen(right) - 2 && own)
		line[n] = 0;
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
	const struct textfit words = { .sep = " ",
		                       .words = 1,
		                       .ellipsis = d->term.g->s[G_ELLIPSIS] };
	char line[1400], fitted[1400];

	if (d->k.confirming) {
		char label[160];

		label_change(&d->k.want, &d->k.confirm_to, d->term.g->ascii, label, sizeof label);
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
	if (dash_ab_status(d, line, sizeof line)) { /* on stage too */
		textfit(&words, line, r->w, fitted, sizeof fitted);
		attron(A_BOLD);
		paint_clipped(r->y, r->x, r->w, fitted);
		attroff(A_BOLD);
		return;
	}
	if (d->presenter)
		return; /* on stage: no knob is selected there */
	snprintf(line, sizeof line, " %s: %s%s%s", knob_table[id].name, knob_why(id, &d->k.want),
	         locked ? " - " : "", locked ? locked : "");
	/* Cut where a word ends, never inside a number or before its unit. */
	textfit(&words, line, r->w, fitted, sizeof fitted);
	attron(locked ? term_dim(&d->term) : A_NORMAL);
	paint_clipped(r->y, r->x, r->w, fitted);
	attroff(locked ? term_dim(&d->term) : A_NORMAL);
}

/* The events box: the newest lines, or (scrolled back with [ and ]) older
 * ones; a level mark before each (warn "!", error "!!", in colour, in the
 * time's padding) and a
 * fold's count after it ("starting over ×12"), at the time of its first
 * line: a fold stays where it began, so the times read in order. */
void panel_events(const struct dash *d, const struct rect *r)
{
	int rows = r->h - 2, i, first, back = d->view.ev_back;
	const struct textfit words = { .sep = " ",
		                       .words = 1,
		                       .ellipsis = d->term.g->s[G_ELLIPSIS] };
	char title[64];

	if (back > d->view.nevs - rows)
		back = d->view.nevs - rows > 0 ? d->view.nevs - rows : 0;
	if (back > 0)
		snprintf(title, sizeof title, "events (%d newer: ])", back);
	else
		snprintf(title, sizeof title, "events");
	paint_box(d->term.g, r, title);
	first = d->view.nevs > rows + back ? d->view.nevs - rows - back : 0;
	for (i = first; i < d->view.nevs - back; i++) {
		const struct ev *e = &d->view.evs[i];
		attr_t a = e->level == EV_ERROR  ? (term_color(&d->term, C_ERR) | A_BOLD)
		           : e->level == EV_WARN ? term_color(&d->term, C_WARN)
		                                 : A_NORMAL;
		char text[EVLOG_LINE + 16], line[400];
		struct ev cut = *e;
		int room;

		/* The text cut where a word ends (never inside a number or before
		 * its unit), its fold count kept: the count's room first. */
		snprintf(line, sizeof line, "%7.1fs  ", e->t_first);
		cut.text[0] = 0;
		evlog_format(&cut, d->term.g->ascii, text, sizeof text);
		room =
		    r->w - 2 - textfit_cols(line, strlen(line)) - textfit_cols(text, strlen(text));
		textfit(&words, e->text, room, cut.text, sizeof cut.text);
		evlog_format(&cut, d->term.g->ascii, text, sizeof text);
		snprintf(line + strlen(line), sizeof line - strlen(line), "%s", text);
		/* the mark in the time's padding: the texts stay aligned */
		if (e->level != EV_INFO && line[0] == ' ')
			line[0] = '!';
		if (e->level == EV_ERROR && line[1] == ' ')
			line[1] = '!';
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

	if (demo_done(dm))
		snprintf(line, sizeof line, " demo over (%d/%d)", at, n);
	else if (!demo_waiting(dm, clock_now_s(), &left))
		snprintf(line, sizeof line, " demo %d/%d  playing", at, n);
	else if (left > 0)
		snprintf(line, sizeof line, " demo %d/%d  next cue in %.0f s: Space now", at, n,
		         ceil(left));
	else
		snprintf(line, sizeof line, " demo %d/%d  Space: next cue", at, n);
	/* Over, D is the key that matters: its hint is never dropped. */
	input_hints(d->term.g, W_DEMO, r->w - paint_cols(line, strlen(line)) - 1,
	            demo_done(dm)  ? 'D'
	            : d->presenter ? 'v'
	                           : 0,
	            hints, sizeof hints);
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
	if (dash_demo_mode(d)) {
		demo_line(d, r);
		return;
	}
	input_hints(d->term.g, d->feed->ops->seek ? W_REPLAY : W_MAIN, r->w, d->presenter ? 'v' : 0,
	            hints, sizeof hints);
	attron(term_dim(&d->term));
	paint_clipped(r->y, r->x, r->w, hints);
	attroff(term_dim(&d->term));
}

void panel_too_small(const struct layout *l)
{
	char msg[160];

	snprintf(msg, sizeof msg, "idxlab needs a %dx%d terminal (this one is %dx%d)", LAYOUT_MIN_W,
	         LAYOUT_MIN_H, l->W, l->H);
	paint_clipped(l->H / 2 - 1 >= 0 ? l->H / 2 - 1 : 0, 0, l->W, msg);
	paint_clipped(l->H / 2 >= 0 ? l->H / 2 : 0, 0, l->W, "enlarge it, or press q to quit");
}
