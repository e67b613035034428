/* actions.c - what each key does (see actions.h).
 *
 * The handlers the binding table (input.c) names. They change the
 * dashboard through the parts' own calls (dash_set_knob, the feed's
 * operations, the history); they never draw - the next frame shows what
 * they did. Owns the prompt's line editing and the mouse's hit-testing
 * (against the frame's layout). */
#include "actions.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "panels.h"
#include "ui.h"

/* ---- the dashboard (W_MAIN, W_DEMO, W_REPLAY) ------------------------- */

void actions_select_knob(struct dash *d, int ch)
{
	struct sliders *k = &d->k;

	if (ch == KEY_UP || ch == 'k')
		k->sel = k->sel > 0 ? k->sel - 1 : k->nids - 1;
	else
		k->sel = (k->sel + 1) % k->nids;
}

void actions_adjust_knob(struct dash *d, int ch)
{
	int id = d->k.ids[d->k.sel];
	int dir = ch == KEY_LEFT || ch == 'h' || ch == KEY_NPAGE ? -1 : 1;
	int big = ch == KEY_PPAGE || ch == KEY_NPAGE;

	dash_set_knob(d, id, knob_step(id, &d->k.want, d->k.want.v[id], dir, big));
}

void actions_start_prompt(struct dash *d, int ch)
{
	int id = d->k.ids[d->k.sel];
	const char *why = dash_locked(d, id);

	(void)ch;
	if (why) {
		dash_say(d, "%s: %s", knob_table[id].name, why);
		return;
	}
	d->prompt.on = 1;
	knob_format(id, d->k.want.v[id], d->prompt.text, sizeof d->prompt.text);
	d->prompt.len = strlen(d->prompt.text);
	d->prompt.fresh = 1;
}

/* Click a knob to select it; click or drag its bar to set it. */
void actions_mouse(struct dash *d, int ch)
{
	MEVENT me;
	double pos;
	int row;

	(void)ch;
	if (getmouse(&me) != OK)
		return;
	if (me.bstate & BUTTON1_RELEASED) {
		d->dragging = 0;
		return;
	}
	if (!(me.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)) && !d->dragging)
		return;
	row = d->dragging ? d->k.sel : layout_knob_row(&d->lay, me.y);
	if (row < 0 || row >= d->k.nids || !layout_in_knobs(&d->lay, me.x))
		return;
	d->k.sel = row;
	pos = layout_bar_pos(&d->lay, me.x);
	if (pos >= 0) {
		int id = d->k.ids[row];

		d->dragging = (me.bstate & BUTTON1_PRESSED) != 0 || d->dragging;
		dash_set_knob(d, id, knob_at_position(id, &d->k.want, pos));
	}
}

void actions_pause_feed(struct dash *d, int ch)
{
	(void)ch;
	d->paused = !d->paused;
	d->feed->ops->pause(d->feed, d->paused);
}

/* A presenter's clicker sends PgUp/PgDn (a cheap one arrows, its blank
 * key b or .): in demo mode they are the demo's, never a knob's - after
 * its last cue too, until D says otherwise. */
void actions_next_cue(struct dash *d, int ch)
{
	(void)ch;
	d->blank = 0;
	if (demo_done(d->demo))
		dash_say(d, "demo: that was the last cue - D leaves demo mode (keys move knobs "
		            "again)");
	else if (!demo_skip(d->demo))
		dash_say(d, "demo: the last cue is still being carried out");
}

void actions_prev_cue(struct dash *d, int ch)
{
	(void)ch;
	d->blank = 0;
	dash_demo_back(d);
}

void actions_blank(struct dash *d, int ch)
{
	(void)ch;
	d->blank = !d->blank;
}

void actions_demo_mode(struct dash *d, int ch)
{
	(void)ch;
	if (!d->demo) {
		dash_say(d, "D: no --demo is loaded");
		return;
	}
	d->demo_off = !d->demo_off;
	d->blank = 0;
	evlog_add(EV_INFO, "%s",
	          d->demo_off ? "left demo mode: the script stops, the keys move knobs "
	                        "again (D: back to the demo)"
	                      : "demo mode: PgUp/PgDn, the arrows, b and . are the "
	                        "demo's again");
}

void actions_presenter(struct dash *d, int ch)
{
	(void)ch;
	d->presenter = !d->presenter;
}

void actions_hide_panel(struct dash *d, int ch)
{
	static const char *const names[] = { "knobs", "metrics", "events" };
	unsigned bit = 1u << (ch - '1');

	d->hide ^= bit;
	dash_say(d, "%s panel %s%s", names[ch - '1'], d->hide & bit ? "hidden" : "shown",
	         d->presenter ? " (in the normal view: v)" : "");
}

void actions_pin(struct dash *d, int ch)
{
	(void)ch;
	(void)dash_pin(d, 0);
}

void actions_unpin(struct dash *d, int ch)
{
	(void)ch;
	if (d->hist->base_on) {
		evlog_add(EV_INFO, "baseline unpinned");
		tape_note(d->tape, REC_UNPIN, NULL);
	}
	history_unpin(d->hist);
}

/* Freeze every gauge's and sparkline's scale where it is, or release them. */
void actions_pin_scales(struct dash *d, int ch)
{
	double full[M_COUNT];

	(void)ch;
	if (d->hist->scales_pinned) {
		history_unpin_scales(d->hist);
		dash_say(d, "scales released: each follows the largest value on screen again");
		return;
	}
	panel_metric_scales(d, full);
	history_pin_scales(d->hist, full);
	dash_say(d, "scales pinned: every bar and sparkline keeps its full scale (s releases)");
}

void actions_reset_window(struct dash *d, int ch)
{
	(void)ch;
	history_reset(d->hist);
	evlog_add(EV_INFO, "measurement window reset");
}

void actions_rewrite(struct dash *d, int ch)
{
	(void)ch;
	if (d->feed->ops->rewrite)
		d->feed->ops->rewrite(d->feed);
	else
		dash_say(d, "W: %s", d->feed->ops->no_rewrite);
}

void actions_speed(struct dash *d, int ch)
{
	char msg[80];

	if (!d->feed->ops->speed) {
		dash_say(d, "%s", d->feed->ops->no_speed);
		return;
	}
	d->feed->ops->speed(d->feed, ch == '>', msg, sizeof msg);
	dash_say(d, "%s", msg);
}

/* [ older, ] newer: the events box scrolls by EVENTS_STEP lines (panel_events
 * clamps it to what there is). */
#define EVENTS_STEP 5
void actions_scroll_events(struct dash *d, int ch)
{
	int *back = &d->view.ev_back;

	if (ch == '[')
		*back = *back + EVENTS_STEP < d->view.nevs ? *back + EVENTS_STEP : d->view.nevs;
	else
		*back = *back > EVENTS_STEP ? *back - EVENTS_STEP : 0;
}

/* A replay's arrows, clicker keys and Home: the knobs cannot move there,
 * the position can. */
void actions_seek(struct dash *d, int ch)
{
	enum feed_seek to = ch == KEY_LEFT                 ? FEED_BACK
	                    : ch == KEY_RIGHT              ? FEED_ON
	                    : ch == KEY_NPAGE || ch == 'n' ? FEED_NEXT_CHANGE
	                    : ch == KEY_PPAGE || ch == 'N' ? FEED_PREV_CHANGE
	                                                   : FEED_START;
	char msg[160];

	if (!d->feed->ops->seek) {
		dash_say(d, "%s", d->feed->ops->no_seek);
		return;
	}
	d->feed->ops->seek(d->feed, to, msg, sizeof msg);
	dash_say(d, "%s", msg);
}

void actions_open_help(struct dash *d, int ch)
{
	(void)ch;
	d->help = 1;
	d->help_top = 0;
}

void actions_quit(struct dash *d, int ch)
{
	(void)ch;
	d->quit = 1;
}

/* ---- the help overlay (W_HELP) ---------------------------------------- */

/* A line, a page (the overlay's rows less one, kept for context), or to
 * either end; help_draw keeps the top within the text. */
void actions_scroll_help(struct dash *d, int ch)
{
	int page = d->lay.help.h - 3 > 1 ? d->lay.help.h - 3 : 1;

	if (ch == KEY_DOWN || ch == 'j')
		d->help_top++;
	else if (ch == KEY_NPAGE || ch == ' ')
		d->help_top += page;
	else if (ch == KEY_PPAGE)
		d->help_top -= page;
	else if (ch == KEY_HOME)
		d->help_top = 0;
	else if (ch == KEY_END)
		d->help_top = HELP_END;
	else
		d->help_top--;
	if (d->help_top < 0)
		d->help_top = 0;
}

void actions_close_help(struct dash *d, int ch)
{
	(void)ch;
	d->help = 0;
}

/* ---- a rebuild to confirm (W_CONFIRM) --------------------------------- */

void actions_confirm(struct dash *d, int ch)
{
	(void)ch;
	dash_post(d, &d->k.confirm_to);
	d->k.confirming = 0;
}

void actions_cancel(struct dash *d, int ch)
{
	(void)ch;
	d->k.confirming = 0;
}

/* ---- typing a value (W_PROMPT) ---------------------------------------- */

void actions_prompt_cancel(struct dash *d, int ch)
{
	(void)ch;
	d->prompt.on = 0;
}

void actions_prompt_enter(struct dash *d, int ch)
{
	int id = d->k.ids[d->k.sel];
	struct err e = { ERR_NONE, "" };
	long long v;

	(void)ch;
	d->prompt.on = 0;
	if (knob_parse(id, d->prompt.text, &v, &e) < 0 || knob_check(id, v, &d->k.want, &e) < 0)
		dash_say(d, "%s: %s", knob_table[id].name, e.msg);
	else
		dash_set_knob(d, id, v);
}

void actions_prompt_edit(struct dash *d, int ch)
{
	struct prompt *p = &d->prompt;
	int backspace = ch == KEY_BACKSPACE || ch == 127 || ch == 8;

	if (ch == 21 || (backspace && p->fresh)) {
		p->len = 0; /* Ctrl-U, or Backspace on the whole value */
		p->text[0] = 0;
	} else if (backspace) {
		if (p->len)
			p->text[--p->len] = 0;
	} else if (ch >= 32 && ch < 127) {
		if (p->fresh)
			p->len = 0;
		if (p->len + 1 < sizeof p->text) {
			p->text[p->len++] = (char)ch;
			p->text[p->len] = 0;
		}
	}
	p->fresh = 0;
}
