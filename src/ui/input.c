/* input.c - keys and the mouse (see input.h).
 *
 * Owns: the binding table, the dispatch it drives and the hint line. What
 * each key does is in actions.c, which the table's rows name. */
#include "input.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "actions.h"
#include "paint.h"
#include "ui.h"

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
	  .handler = actions_select_knob },
	{ .keys = { KEY_LEFT, KEY_RIGHT, 'h', 'l' },
	  .names = "Left/Right, h/l",
	  .label = "adjust",
	  .label_key = G_LEFT_RIGHT,
	  .label_in = W_MAIN,
	  .help = "move the selected knob one step (in demo mode Left/Right are the previous/next "
	          "cue; h/l do nothing there)",
	  .when = W_MAIN,
	  .handler = actions_adjust_knob },
	{ .keys = { KEY_PPAGE, KEY_NPAGE },
	  .names = "PgUp/PgDn",
	  .label = "PgUp/Dn",
	  .label_in = W_MAIN,
	  .help = "move it a big step up/down",
	  .when = W_MAIN,
	  .handler = actions_adjust_knob },
	{ .keys = { '\n', '\r', KEY_ENTER },
	  .names = "Enter",
	  .label = "Enter type",
	  .label_in = W_MAIN,
	  .help = "type an exact value for it (typing replaces the value shown)",
	  .when = LIVE,
	  .handler = actions_start_prompt },
	{ .keys = { KEY_MOUSE },
	  .names = "mouse",
	  .help = "click a knob, click or drag its bar (--no-mouse: off)",
	  .when = LIVE,
	  .handler = actions_mouse },
	{ .keys = { 'p', ' ' },
	  .names = "p, Space",
	  .label = "Space pause",
	  .label_in = W_MAIN | W_REPLAY,
	  .help = "pause / resume the workload (while a --demo plays, Space is its next cue)",
	  .when = W_MAIN | W_REPLAY,
	  .handler = actions_pause_feed },
	{ .keys = { 'p' },
	  .label = "p pause",
	  .label_in = W_DEMO,
	  .when = W_DEMO,
	  .handler = actions_pause_feed },
	{ .keys = { 'n', KEY_NPAGE, ' ', KEY_RIGHT, KEY_DOWN },
	  .names = "n, PgDn",
	  .label = "PgDn next",
	  .label_in = W_DEMO,
	  .help = "demo mode: the next cue - ends the wait in progress (a clicker's next: "
	          "PgDn, Right, Down)",
	  .when = W_DEMO,
	  .handler = actions_next_cue },
	{ .keys = { KEY_PPAGE, KEY_LEFT, KEY_UP },
	  .names = "PgUp",
	  .label = "PgUp back",
	  .label_in = W_DEMO,
	  .help = "demo mode: back to the previous caption and the script's knobs then (also "
	          "Left, Up)",
	  .when = W_DEMO,
	  .handler = actions_prev_cue },
	{ .keys = { 'b', '.' },
	  .names = "b, .",
	  .label = "b blank",
	  .label_in = W_DEMO,
	  .help = "demo mode: blank the screen but for the caption, and back (a clicker's "
	          "blank key); no baseline is pinned",
	  .when = W_DEMO,
	  .handler = actions_blank },
	{ .keys = { 'D' },
	  .names = "D",
	  .label = "D leave demo",
	  .label_in = W_DEMO,
	  .help = "leave demo mode: the script stops, the keys move knobs again (D again: back "
	          "to it)",
	  .when = LIVE,
	  .handler = actions_demo_mode },
	{ .keys = { 'b' },
	  .names = "b",
	  .label = "b pin",
	  .label_in = W_MAIN,
	  .help = "pin a baseline: the metrics since the last change (up to 10 s); each metric "
	          "then also shows now/baseline (0.19x), the title what changed since (a "
	          "--replay too: on the replayed figures)",
	  .when = W_MAIN | W_REPLAY,
	  .handler = actions_pin },
	{ .keys = { 'B' },
	  .names = "B",
	  .help = "unpin the baseline",
	  .when = LIVE,
	  .handler = actions_unpin },
	{ .keys = { 's' },
	  .names = "s",
	  .help = "pin every gauge's and sparkline's scale (the figure after each bar) where it "
	          "is, to compare bars over time; again to release. Unpinned, a scale covers "
	          "every value of its sparkline's window: it grows at once, and shrinks only "
	          "once the values that needed it scrolled out. A knob change's own second "
	          "(an index build's spills) is left out: its bar may be full then",
	  .when = LIVE,
	  .handler = actions_pin_scales },
	{ .keys = { 'a' },
	  .names = "a",
	  .label = "a A/B",
	  .label_in = W_MAIN,
	  .help = "A/B: the knobs in force become A; move knobs to set B and press a again: A "
	          "and B then run in turn on the same table, --ab-period seconds each (5), "
	          "rows/s and the engine's figure as B/A on the status line, the sparklines in "
	          "two traces (B underlined; shaded in the chart). The first second after each "
	          "switch counts in neither trace nor ratio. B may not change a knob that needs "
	          "a new table; no knob moves while it runs. a again (or Esc) ends it, back to A",
	  .when = W_MAIN | W_REPLAY,
	  .handler = actions_ab },
	{ .keys = { 27 },
	  .names = "Esc",
	  .help = "end A/B, or stop setting B: back to A's knobs",
	  .when = W_MAIN,
	  .handler = actions_ab_end },
	{ .keys = { 'r' },
	  .names = "r",
	  .label = "r reset",
	  .label_in = W_MAIN,
	  .help = "reset the measurement window (history and markers)",
	  .when = W_MAIN | W_DEMO,
	  .handler = actions_reset_window },
	{ .keys = { 'W' },
	  .names = "W",
	  .label = "W rewrite",
	  .label_in = W_MAIN,
	  .help = "rewrite the table in place: VACUUM FULL on PostgreSQL (repacks every page "
	          "with the current fillfactor), VACUUM on SQLite, compact on MongoDB and "
	          "WiredTiger",
	  .when = LIVE,
	  .handler = actions_rewrite },
	{ .keys = { KEY_LEFT, KEY_RIGHT },
	  .names = "Left/Right",
	  .label = "10 s",
	  .label_key = G_LEFT_RIGHT,
	  .label_in = W_REPLAY,
	  .help = "a --replay: 10 s of the recording back / on, at any speed (its knobs cannot "
	          "move)",
	  .when = W_REPLAY,
	  .handler = actions_seek },
	{ .keys = { KEY_NPAGE, KEY_PPAGE, 'n', 'N' },
	  .names = "PgDn/PgUp, n/N",
	  .label = "PgDn/Up change",
	  .label_in = W_REPLAY,
	  .help = "a --replay: on to the next knob change / back to the one before (within a "
	          "second of a change: the one before it); a presenter's clicker sends PgDn/PgUp",
	  .when = W_REPLAY,
	  .handler = actions_seek },
	{ .keys = { KEY_HOME, 'r' },
	  .names = "Home, r",
	  .label = "Home restart",
	  .label_in = W_REPLAY,
	  .help = "a --replay: back to its start (a seek rebuilds the history, markers, baseline, "
	          "caption and events of the new position)",
	  .when = W_REPLAY,
	  .handler = actions_seek },
	{ .keys = { '<', '>' },
	  .names = "<, >",
	  .label = "<> speed",
	  .label_in = W_REPLAY,
	  .help = "a --replay: half or twice as fast (1x to 16x)",
	  .when = LIVE,
	  .handler = actions_speed },
	{ .keys = { '[', ']' },
	  .names = "[, ]",
	  .help = "scroll the events box back (older lines) / forward to the newest",
	  .when = LIVE,
	  .handler = actions_scroll_events },
	{ .keys = { 'v' },
	  .names = "v",
	  .label = "v presenter",
	  .label_in = LIVE,
	  .help = "the presenter view and back: big figures, a big chart, the caption "
	          "(--presenter starts in it)",
	  .when = LIVE,
	  .handler = actions_presenter },
	{ .keys = { '1', '2', '3' },
	  .names = "1, 2, 3",
	  .help = "hide or show the knobs, the metrics, the events panel (the others take "
	          "the room)",
	  .when = LIVE,
	  .handler = actions_hide_panel },
	{ .keys = { '?', KEY_F(1) },
	  .names = "?, F1",
	  .label = "? help",
	  .label_in = LIVE,
	  .help = "this help (Up/Down scroll, PgDn/Space and PgUp page, Home/End; any other "
	          "key, q too, closes; F10 quits)",
	  .when = LIVE,
	  .handler = actions_open_help },
	{ .keys = { 'q', 'Q', KEY_F(10) },
	  .names = "q, F10",
	  .label = "q quit",
	  .label_in = LIVE,
	  .help = "quit",
	  .when = LIVE,
	  .handler = actions_quit },
	/* the help overlay */
	{ .keys = { KEY_UP, KEY_DOWN, 'k', 'j' }, .when = W_HELP, .handler = actions_scroll_help },
	{ .keys = { KEY_NPAGE, KEY_PPAGE, ' ', KEY_HOME, KEY_END },
	  .when = W_HELP,
	  .handler = actions_scroll_help },
	{ .keys = { KEY_F(10) }, .when = W_HELP, .handler = actions_quit }, /* q: closes it */
	{ .keys = { KEY_RESIZE, KEY_MOUSE }, .when = W_HELP },
	{ .keys = { KEY_OTHER }, .when = W_HELP, .handler = actions_close_help },
	/* a rebuild to confirm */
	{ .keys = { 'y', 'Y' }, .names = "y", .when = W_CONFIRM, .handler = actions_confirm },
	{ .keys = { KEY_OTHER }, .when = W_CONFIRM, .handler = actions_cancel },
	/* typing a value */
	{ .keys = { 27 },
	  .names = "Esc",
	  .help = "while typing a value: cancel it (Enter sets it)",
	  .when = W_PROMPT,
	  .handler = actions_prompt_cancel },
	{ .keys = { '\n', '\r', KEY_ENTER }, .when = W_PROMPT, .handler = actions_prompt_enter },
	{ .keys = { KEY_OTHER }, .when = W_PROMPT, .handler = actions_prompt_edit },
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
