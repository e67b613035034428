/* input.c - keys and the mouse (see input.h).
 *
 * Owns: the binding table, the handlers it names, the prompt's line editing
 * and the mouse's hit-testing (against the frame's layout). Handlers change
 * the dashboard through the parts' own calls (dash_set_knob, the feed's
 * operations, the history); they never draw - the next frame shows what
 * they did. */
#include "input.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "paint.h"
#include "panels.h"
#include "ui.h"

/* ---- the dashboard (W_MAIN, W_DEMO, W_REPLAY) ------------------------- */

static void select_knob(struct dash *d, int ch)
{
	struct sliders *k = &d->k;

	if (ch == KEY_UP || ch == 'k')
		k->sel = k->sel > 0 ? k->sel - 1 : k->nids - 1;
	else
		k->sel = (k->sel + 1) % k->nids;
}

static void adjust_knob(struct dash *d, int ch)
{
	int id = d->k.ids[d->k.sel];
	int dir = ch == KEY_LEFT || ch == 'h' || ch == KEY_NPAGE ? -1 : 1;
	int big = ch == KEY_PPAGE || ch == KEY_NPAGE;

	dash_set_knob(d, id, knob_step(id, &d->k.want, d->k.want.v[id], dir, big));
}

static void start_prompt(struct dash *d, int ch)
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
static void mouse(struct dash *d, int ch)
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

static void pause_feed(struct dash *d, int ch)
{
	(void)ch;
	d->paused = !d->paused;
	d->feed->ops->pause(d->feed, d->paused);
}

/* A presenter's clicker sends PgUp/PgDn (a cheap one arrows, its blank
 * key b or .): in demo mode they are the demo's, never a knob's - after
 * its last cue too, until D says otherwise. */
static void next_cue(struct dash *d, int ch)
{
	(void)ch;
	d->blank = 0;
	if (demo_done(d->demo))
		dash_say(d, "demo: that was the last cue - D leaves demo mode (keys move knobs "
		            "again)");
	else if (!demo_skip(d->demo))
		dash_say(d, "demo: the last cue is still being carried out");
}

static void prev_cue(struct dash *d, int ch)
{
	(void)ch;
	d->blank = 0;
	dash_demo_back(d);
}

static void blank(struct dash *d, int ch)
{
	(void)ch;
	d->blank = !d->blank;
}

static void demo_mode(struct dash *d, int ch)
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

static void presenter(struct dash *d, int ch)
{
	(void)ch;
	d->presenter = !d->presenter;
}

static void hide_panel(struct dash *d, int ch)
{
	static const char *const names[] = { "knobs", "metrics", "events" };
	unsigned bit = 1u << (ch - '1');

	d->hide ^= bit;
	dash_say(d, "%s panel %s%s", names[ch - '1'], d->hide & bit ? "hidden" : "shown",
	         d->presenter ? " (in the normal view: v)" : "");
}

static void pin(struct dash *d, int ch)
{
	(void)ch;
	(void)dash_pin(d, 0);
}

static void unpin(struct dash *d, int ch)
{
	(void)ch;
	if (d->hist->base_on) {
		evlog_add(EV_INFO, "baseline unpinned");
		tape_note(d->tape, REC_UNPIN, NULL);
	}
	history_unpin(d->hist);
}

/* Freeze every gauge's and sparkline's scale where it is, or release them. */
static void pin_scales(struct dash *d, int ch)
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

static void reset_window(struct dash *d, int ch)
{
	(void)ch;
	history_reset(d->hist);
	evlog_add(EV_INFO, "measurement window reset");
}

static void rewrite(struct dash *d, int ch)
{
	(void)ch;
	if (d->feed->ops->rewrite)
		d->feed->ops->rewrite(d->feed);
	else
		dash_say(d, "W: %s", d->feed->ops->no_rewrite);
}

static void speed(struct dash *d, int ch)
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
static void scroll_events(struct dash *d, int ch)
{
	int *back = &d->view.ev_back;

	if (ch == '[')
		*back = *back + EVENTS_STEP < d->view.nevs ? *back + EVENTS_STEP : d->view.nevs;
	else
		*back = *back > EVENTS_STEP ? *back - EVENTS_STEP : 0;
}

/* A replay's arrows, clicker keys and Home: the knobs cannot move there,
 * the position can. */
static void seek(struct dash *d, int ch)
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

static void open_help(struct dash *d, int ch)
{
	(void)ch;
	d->help = 1;
	d->help_top = 0;
}

static void quit(struct dash *d, int ch)
{
	(void)ch;
	d->quit = 1;
}

/* ---- the help overlay (W_HELP) ---------------------------------------- */

/* A line, a page (the overlay's rows less one, kept for context), or to
 * either end; help_draw keeps the top within the text. */
static void scroll_help(struct dash *d, int ch)
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

static void close_help(struct dash *d, int ch)
{
	(void)ch;
	d->help = 0;
}

/* ---- a rebuild to confirm (W_CONFIRM) --------------------------------- */

static void confirm(struct dash *d, int ch)
{
	(void)ch;
	dash_post(d, &d->k.confirm_to);
	d->k.confirming = 0;
}

static void cancel(struct dash *d, int ch)
{
	(void)ch;
	d->k.confirming = 0;
}

/* ---- typing a value (W_PROMPT) ---------------------------------------- */

static void prompt_cancel(struct dash *d, int ch)
{
	(void)ch;
	d->prompt.on = 0;
}

static void prompt_enter(struct dash *d, int ch)
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

static void prompt_edit(struct dash *d, int ch)
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

/* ---- the table ---------------------------------------------------------- */

#define LIVE (W_MAIN | W_DEMO | W_REPLAY)

const struct binding input_bindings[] = {
	{ .keys = { KEY_UP, KEY_DOWN, 'k', 'j' },
	  .names = "Up/Down, k/j",
	  .label = "select",
	  .label_key = G_UP_DOWN,
	  .label_in = W_MAIN,
	  .help = "select a knob (in demo mode: the demo's previous/next cue)",
	  .when = W_MAIN | W_REPLAY,
	  .handler = select_knob },
	{ .keys = { KEY_LEFT, KEY_RIGHT, 'h', 'l' },
	  .names = "Left/Right, h/l",
	  .label = "adjust",
	  .label_key = G_LEFT_RIGHT,
	  .label_in = W_MAIN,
	  .help = "move the selected knob one step (in demo mode Left/Right are the previous/next "
	          "cue; h/l do nothing there)",
	  .when = W_MAIN,
	  .handler = adjust_knob },
	{ .keys = { KEY_PPAGE, KEY_NPAGE },
	  .names = "PgUp/PgDn",
	  .label = "PgUp/Dn",
	  .label_in = W_MAIN,
	  .help = "move it a big step up/down",
	  .when = W_MAIN,
	  .handler = adjust_knob },
	{ .keys = { '\n', '\r', KEY_ENTER },
	  .names = "Enter",
	  .label = "Enter type",
	  .label_in = W_MAIN,
	  .help = "type an exact value for it (typing replaces the value shown)",
	  .when = LIVE,
	  .handler = start_prompt },
	{ .keys = { KEY_MOUSE },
	  .names = "mouse",
	  .help = "click a knob, click or drag its bar (--no-mouse: off)",
	  .when = LIVE,
	  .handler = mouse },
	{ .keys = { 'p', ' ' },
	  .names = "p, Space",
	  .label = "Space pause",
	  .label_in = W_MAIN | W_REPLAY,
	  .help = "pause / resume the workload (while a --demo plays, Space is its next cue)",
	  .when = W_MAIN | W_REPLAY,
	  .handler = pause_feed },
	{ .keys = { 'p' },
	  .label = "p pause",
	  .label_in = W_DEMO,
	  .when = W_DEMO,
	  .handler = pause_feed },
	{ .keys = { 'n', KEY_NPAGE, ' ', KEY_RIGHT, KEY_DOWN },
	  .names = "n, PgDn",
	  .label = "PgDn next",
	  .label_in = W_DEMO,
	  .help = "demo mode: the next cue - ends the wait in progress (a clicker's next: "
	          "PgDn, Right, Down)",
	  .when = W_DEMO,
	  .handler = next_cue },
	{ .keys = { KEY_PPAGE, KEY_LEFT, KEY_UP },
	  .names = "PgUp",
	  .label = "PgUp back",
	  .label_in = W_DEMO,
	  .help = "demo mode: back to the previous caption and the script's knobs then (also "
	          "Left, Up)",
	  .when = W_DEMO,
	  .handler = prev_cue },
	{ .keys = { 'b', '.' },
	  .names = "b, .",
	  .label = "b blank",
	  .label_in = W_DEMO,
	  .help = "demo mode: blank the screen but for the caption, and back (a clicker's "
	          "blank key); no baseline is pinned",
	  .when = W_DEMO,
	  .handler = blank },
	{ .keys = { 'D' },
	  .names = "D",
	  .label = "D leave demo",
	  .label_in = W_DEMO,
	  .help = "leave demo mode: the script stops, the keys move knobs again (D again: back "
	          "to it)",
	  .when = LIVE,
	  .handler = demo_mode },
	{ .keys = { 'b' },
	  .names = "b",
	  .label = "b pin",
	  .label_in = W_MAIN,
	  .help = "pin a baseline: the metrics since the last change (up to 10 s); each metric "
	          "then also shows now/baseline (0.19x), the title what changed since (a "
	          "--replay too: on the replayed figures)",
	  .when = W_MAIN | W_REPLAY,
	  .handler = pin },
	{ .keys = { 'B' },
	  .names = "B",
	  .help = "unpin the baseline",
	  .when = LIVE,
	  .handler = unpin },
	{ .keys = { 's' },
	  .names = "s",
	  .help = "pin every gauge's and sparkline's scale (the figure after each bar) where it "
	          "is, to compare bars over time; again to release. Unpinned, a scale covers "
	          "every value of its sparkline's window: it grows at once, and shrinks only "
	          "once the values that needed it scrolled out",
	  .when = LIVE,
	  .handler = pin_scales },
	{ .keys = { 'r' },
	  .names = "r",
	  .label = "r reset",
	  .label_in = W_MAIN,
	  .help = "reset the measurement window (history and markers)",
	  .when = W_MAIN | W_DEMO,
	  .handler = reset_window },
	{ .keys = { 'W' },
	  .names = "W",
	  .label = "W rewrite",
	  .label_in = W_MAIN,
	  .help = "rewrite the table in place: VACUUM FULL on PostgreSQL (repacks every page "
	          "with the current fillfactor), VACUUM on SQLite, compact on MongoDB and "
	          "WiredTiger",
	  .when = LIVE,
	  .handler = rewrite },
	{ .keys = { KEY_LEFT, KEY_RIGHT },
	  .names = "Left/Right",
	  .label = "10 s",
	  .label_key = G_LEFT_RIGHT,
	  .label_in = W_REPLAY,
	  .help = "a --replay: 10 s of the recording back / on, at any speed (its knobs cannot "
	          "move)",
	  .when = W_REPLAY,
	  .handler = seek },
	{ .keys = { KEY_NPAGE, KEY_PPAGE, 'n', 'N' },
	  .names = "PgDn/PgUp, n/N",
	  .label = "PgDn/Up change",
	  .label_in = W_REPLAY,
	  .help = "a --replay: on to the next knob change / back to the one before (within a "
	          "second of a change: the one before it); a presenter's clicker sends PgDn/PgUp",
	  .when = W_REPLAY,
	  .handler = seek },
	{ .keys = { KEY_HOME, 'r' },
	  .names = "Home, r",
	  .label = "Home restart",
	  .label_in = W_REPLAY,
	  .help = "a --replay: back to its start (a seek rebuilds the history, markers, baseline, "
	          "caption and events of the new position)",
	  .when = W_REPLAY,
	  .handler = seek },
	{ .keys = { '<', '>' },
	  .names = "<, >",
	  .label = "<> speed",
	  .label_in = W_REPLAY,
	  .help = "a --replay: half or twice as fast (1x to 16x)",
	  .when = LIVE,
	  .handler = speed },
	{ .keys = { '[', ']' },
	  .names = "[, ]",
	  .help = "scroll the events box back (older lines) / forward to the newest",
	  .when = LIVE,
	  .handler = scroll_events },
	{ .keys = { 'v' },
	  .names = "v",
	  .label = "v presenter",
	  .label_in = LIVE,
	  .help = "the presenter view and back: big figures, a big chart, the caption "
	          "(--presenter starts in it)",
	  .when = LIVE,
	  .handler = presenter },
	{ .keys = { '1', '2', '3' },
	  .names = "1, 2, 3",
	  .help = "hide or show the knobs, the metrics, the events panel (the others take "
	          "the room)",
	  .when = LIVE,
	  .handler = hide_panel },
	{ .keys = { '?', KEY_F(1) },
	  .names = "?, F1",
	  .label = "? help",
	  .label_in = LIVE,
	  .help = "this help (Up/Down scroll, PgDn/Space and PgUp page, Home/End; any other "
	          "key, q too, closes; F10 quits)",
	  .when = LIVE,
	  .handler = open_help },
	{ .keys = { 'q', 'Q', KEY_F(10) },
	  .names = "q, F10",
	  .label = "q quit",
	  .label_in = LIVE,
	  .help = "quit",
	  .when = LIVE,
	  .handler = quit },
	/* the help overlay */
	{ .keys = { KEY_UP, KEY_DOWN, 'k', 'j' }, .when = W_HELP, .handler = scroll_help },
	{ .keys = { KEY_NPAGE, KEY_PPAGE, ' ', KEY_HOME, KEY_END },
	  .when = W_HELP,
	  .handler = scroll_help },
	{ .keys = { KEY_F(10) }, .when = W_HELP, .handler = quit }, /* q: closes it */
	{ .keys = { KEY_RESIZE, KEY_MOUSE }, .when = W_HELP },
	{ .keys = { KEY_OTHER }, .when = W_HELP, .handler = close_help },
	/* a rebuild to confirm */
	{ .keys = { 'y', 'Y' }, .names = "y", .when = W_CONFIRM, .handler = confirm },
	{ .keys = { KEY_OTHER }, .when = W_CONFIRM, .handler = cancel },
	/* typing a value */
	{ .keys = { 27 },
	  .names = "Esc",
	  .help = "while typing a value: cancel it (Enter sets it)",
	  .when = W_PROMPT,
	  .handler = prompt_cancel },
	{ .keys = { '\n', '\r', KEY_ENTER }, .when = W_PROMPT, .handler = prompt_enter },
	{ .keys = { KEY_OTHER }, .when = W_PROMPT, .handler = prompt_edit },
};
const size_t input_nbindings = sizeof input_bindings / sizeof input_bindings[0];

unsigned input_mode(const struct dash *d)
{
	if (d->k.confirming)
		return W_CONFIRM;
	if (d->prompt.on)
		return W_PROMPT;
	if (d->help)
		return W_HELP;
	if (dash_demo_mode(d))
		return W_DEMO;
	return d->feed->ops->seek ? W_REPLAY : W_MAIN;
}

static int takes(const struct binding *b, int ch)
{
	int i;

	for (i = 0; i < BINDING_KEYS && b->keys[i]; i++)
		if (b->keys[i] == ch || b->keys[i] == KEY_OTHER)
			return 1;
	return 0;
}

void input_key(struct dash *d, int ch)
{
	unsigned mode = input_mode(d);
	size_t i;

	for (i = 0; i < input_nbindings; i++) {
		const struct binding *b = &input_bindings[i];

		if ((b->when & mode) && takes(b, ch)) {
			if (b->handler)
				b->handler(d, ch);
			return;
		}
	}
}

void input_hints(const struct glyphs *g, unsigned mode, int cols, int keep, char *buf, size_t len)
{
	const struct binding *shown[64];
	size_t i, n = 0, k = 0, w = 0;
	int drop;

	for (i = 0; i < input_nbindings && k < sizeof shown / sizeof shown[0]; i++)
		if (input_bindings[i].label && (input_bindings[i].label_in & mode))
			shown[k++] = &input_bindings[i];
	/* Too wide: whole entries go from the right, the last two (help, quit)
	 * and keep's stay; a hint is never cut in the middle. */
	for (;;) {
		buf[0] = 0;
		for (i = 0, n = 0; i < k && n < len; i++)
			n += (size_t)snprintf(buf + n, len - n, "%s%s%s%s", n ? "  " : " ",
			                      g->s[shown[i]->label_key],
			                      shown[i]->label_key ? " " : "", shown[i]->label);
		w = (size_t)paint_cols(buf, strlen(buf));
		for (drop = (int)k - 3; drop >= 0 && keep && takes(shown[drop], keep); drop--)
			;
		if (cols <= 0 || w <= (size_t)cols || drop < 0)
			return;
		memmove(&shown[drop], &shown[drop + 1], (k - 1 - (size_t)drop) * sizeof shown[0]);
		k--;
	}
}
