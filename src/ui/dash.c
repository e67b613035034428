/* dash.c - the dashboard: its parts put together, and the frame loop.
 *
 * One thread: every frame (--refresh ms, default 250) it polls the feed
 * (the live worker, or a recording), keeps the snapshot in the history (at
 * most every 250 ms), lays the screen out and has every panel redraw its
 * part into stdscr; one doupdate() per frame sends only the difference, so
 * there is no flicker, on resize either. Then it reads the keys and the
 * mouse (input.c), until q or a signal.
 *
 * Owns: struct dash and the sliders' state - what the user wants, what was
 * posted to the feed, what the feed says is applied - and what follows from
 * it: markers and events when a change lands, the baseline pin, a demo's
 * cues. Must never: call curses other than through term.c, paint.c and the
 * panels, nor know whether its feed is live or a recording (it asks the
 * feed's operations). */
#include "../clock.h"
#include "../engines/engine.h"
#include "dash.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "label.h"
#include "panels.h"
#include "ui.h"

/* ---- the sliders ------------------------------------------------------ */

const char *dash_locked(const struct dash *d, int id)
{
	if (!d->feed->ops->set)
		return d->feed->ops->no_set;
	if (!engine_has_knob((int)d->k.want.v[K_ENGINE], id))
		return "this engine does not have this knob";
	if (knob_table[id].flags & KF_HEADLESS)
		return "headless runs only (idxlab run): the dashboard runs until you quit";
	if (knob_table[id].flags & KF_FIXED)
		return "fixed while running: restart idxlab to change it";
	return NULL;
}

void dash_say(struct dash *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->view.flash, sizeof d->view.flash, fmt, ap);
	va_end(ap);
	d->view.flash_t = clock_now_s();
}

void dash_post(struct dash *d, const struct knobs *to)
{
	d->k.want = *to;
	plan_resolve_indexes(&d->k.want); /* indexes table|all|without typed */
	d->k.posted_gen = d->feed->ops->set(d->feed, &d->k.want);
}

void dash_set_knob(struct dash *d, int id, long long v)
{
	struct knobs to = d->k.want;
	const char *why = dash_locked(d, id);

	if (why) {
		dash_say(d, "%s: %s", knob_table[id].name, why);
		return;
	}
	to.v[id] = v;
	if (to.v[id] == d->k.want.v[id] || dash_ab_refused(d, &to))
		return;
	if (knobs_need_rebuild(&d->k.want, &to)) {
		d->k.confirm_to = to;
		d->k.confirming = 1;
		return;
	}
	dash_post(d, &to);
}

/* The knobs with a slider: the workload's, but the dsn and those that mean
 * something only headless and nothing here (rows stays: the dashboard's
 * table starts over at its own). */
static void build_knob_list(struct sliders *k)
{
	int id;

	k->nids = 0;
	for (id = 0; id < K_COUNT; id++)
		if (!(knob_table[id].flags & KF_OPTION) && knob_table[id].kind != KNOB_STRING &&
		    !(knob_table[id].flags & KF_HEADLESS && !knob_table[id].dash_def))
			k->ids[k->nids++] = id;
}

/* When the feed applies a new setting: a marker and an event, labelled
 * with everything that changed since the last one applied. */
static void note_applied(struct dash *d)
{
	struct sliders *k = &d->k;
	const struct live *l = d->live;
	char label[160];
	int id, knob = -1;

	if (l->knobs_gen == k->applied_gen)
		return;
	if (k->applied_gen) {
		/* Where the change came in force (a live worker says when: the
		 * snapshot that brings it may already hold samples after it, and
		 * its transition must fall in the marked interval); else now. */
		double t = l->knobs_t > 0 && !d->feed->ops->timed ? l->knobs_t
		                                                  : d->feed->ops->now(d->feed);

		label_change(&k->applied, &l->knobs, d->term.g->ascii, label, sizeof label);
		for (id = 0; id < K_COUNT; id++)
			if (k->applied.v[id] != l->knobs.v[id])
				knob = id;
		if (*label) {
			history_mark(d->hist, t, knob, label);
			if (!d->feed->ops->logs_changes && d->ab.state != AB_RUNNING)
				evlog_add(EV_INFO, "%s %s", d->term.g->s[G_CHANGE], label);
		}
	}
	k->applied = l->knobs;
	k->applied_gen = l->knobs_gen;
	/* The engine runs some knob at another value than asked (WiredTiger's
	 * least cache, a server's shared_buffers; the engine says why in the
	 * event log): the slider shows what runs. A feed that takes no posts
	 * (a recording) is always up to date. */
	if (k->applied_gen < k->posted_gen)
		return; /* a newer setting is on its way */
	k->want = k->applied;
}

/* ---- the baseline ------------------------------------------------------- */

int dash_pin(struct dash *d, int quiet)
{
	char rate[32], n[32];
	double span;
	int rc = history_pin(d->hist, &d->k.applied, d->feed->speed, &span);

	if (rc == HIST_PIN_TOO_SOON && !(quiet & PIN_NO_FLASH))
		dash_say(d, "baseline: wait a second after a change, then press b again");
	if (rc == HIST_PIN_EMPTY && !(quiet & PIN_NO_FLASH)) {
		knob_format(K_COMMIT, d->k.applied.v[K_COMMIT], n, sizeof n);
		dash_say(d,
		         "baseline: no commit since the change yet (commit %s): press b again once "
		         "one has",
		         n);
	}
	if (rc < 0)
		return rc;
	history_format(M_ROWS_PER_S, d->hist->base[M_ROWS_PER_S], d->hist->base_na[M_ROWS_PER_S],
	               rate, sizeof rate);
	tape_note(d->tape, REC_PIN, NULL);
	if (!(quiet & PIN_NO_EVENT))
		evlog_add(EV_INFO,
		          "baseline pinned: %s rows/s over %.1f s; each metric shows now/baseline "
		          "(B unpins)",
		          rate, span);
	return 0;
}

void dash_pin_saved(struct dash *d)
{
	const struct baseline *b = d->saved;

	history_pin_saved(d->hist, b->v, b->na, &b->knobs, b->from);
}

/* ---- a scripted demo (--demo) ------------------------------------------- */

int dash_demo_mode(const struct dash *d)
{
	return d->demo && !d->demo_off;
}

int dash_demo_playing(const struct dash *d)
{
	return dash_demo_mode(d) && !demo_done(d->demo);
}

void dash_demo_back(struct dash *d)
{
	struct knobs to = d->demo_start;
	const struct cue *c = demo_back(d->demo, &to);

	if (!c) {
		dash_say(d, "demo: this is its first caption");
		return;
	}
	snprintf(d->view.caption, sizeof d->view.caption, "%s", c->text);
	tape_note(d->tape, REC_CAPTION, c->text);
	evlog_add(EV_INFO, "%s back: %s", d->term.g->s[G_CAPTION], c->text);
	to.dsn = d->k.want.dsn;
	if (memcmp(to.v, d->k.want.v, sizeof to.v) != 0)
		dash_post(d, &to); /* the script's setting then: its consent */
}

/* A demo's pin: 1 when it is done with (pinned, given up by Space, or let
 * go on an idle workload, which does nothing to pin); 0 when it waits (put back: too
 * soon after a change, or no commit yet - big transactions on a busy
 * machine - whose empty baseline would read `-` for its ratios to the end
 * of the talk). */
static int pin_due(struct dash *d)
{
	int rc = dash_pin(d, PIN_NO_FLASH);
	char n[32];

	if (rc < 0 && d->demo->skip) { /* Space: on without it */
		evlog_add(EV_WARN, "demo: pin at line %d skipped (Space): %s",
		          d->demo->cues[d->demo->next - 1].line,
		          rc == HIST_PIN_EMPTY ? "no commit in its window"
		                               : "too soon after a change");
		rc = 0;
	} else if (rc == HIST_PIN_EMPTY && d->live->state == LS_IDLE) {
		evlog_add(EV_WARN,
		          "demo: pin at line %d skipped: the workload is idle, it has "
		          "nothing to pin",
		          d->demo->cues[d->demo->next - 1].line);
		rc = 0;
	} else if (rc == HIST_PIN_EMPTY && !d->pin_waited) {
		knob_format(K_COMMIT, d->k.applied.v[K_COMMIT], n, sizeof n);
		evlog_add(EV_INFO, "demo: the pin waits for a commit (commit %s)", n);
		d->pin_waited = 1;
	}
	if (rc < 0) {
		demo_unget(d->demo); /* again later */
		return 0;
	}
	d->pin_waited = 0;
	d->demo->skip = 0; /* (a Space for the pin ends no later wait) */
	return 1;
}

/* Play the demo's cues that are due: each once the workload runs with the
 * setting before it (an index build, a rebuild, a failed step - until the
 * user changes a knob - hold it; a pause holds it too). */
static void play_demo(struct dash *d)
{
	const struct cue *c;

	while (dash_demo_playing(d) &&
	       (d->live->state == LS_RUNNING || d->live->state == LS_IDLE) &&
	       d->k.applied_gen >= d->k.posted_gen &&
	       (c = demo_next(d->demo, clock_now_s())) != NULL) {
		struct knobs to;

		switch (c->kind) {
		case CUE_SET:
			to = d->k.want;
			to.v[c->knob] = c->value;
			if (to.v[c->knob] != d->k.want.v[c->knob])
				dash_post(d, &to); /* a rebuild too: the script is the consent */
			break;
		case CUE_SAY:
			snprintf(d->view.caption, sizeof d->view.caption, "%s", c->text);
			tape_note(d->tape, REC_CAPTION, c->text);
			if (*c->text)
				evlog_add(EV_INFO, "%s %s", d->term.g->s[G_CAPTION], c->text);
			break;
		case CUE_PIN:
			if (!pin_due(d))
				return;
			break;
		case CUE_UNPIN:
			history_unpin(d->hist);
			tape_note(d->tape, REC_UNPIN, NULL);
			break;
		case CUE_SHOW:
			evlog_add(EV_INFO, "demo: the presenter's figures: %s", c->text);
			break;
		case CUE_HOLD:
		case CUE_RELEASE:
			evlog_add(
			    EV_INFO,
			    c->kind == CUE_HOLD
			        ? "demo: the table is held: it does not start over at the rows "
			          "knob until the demo releases it"
			        : "demo: the table is released: it starts over at the rows knob "
			          "again");
			break;
		case CUE_WAIT:
		case CUE_WAIT_KEY:
			break; /* demo_next() keeps the time */
		}
		if (demo_done(d->demo))
			evlog_add(EV_INFO, "the demo is over: D leaves demo mode (the keys then "
			                   "move knobs again)");
	}
}

/* The feed holds the table while the demo says so (a `hold` played, no
 * `release` since) and plays on; its end, or D, releases it. */
static void sync_hold(struct dash *d)
{
	int want = dash_demo_playing(d) && demo_holding(d->demo);

	if (!d->feed->ops->hold || want == d->held)
		return;
	d->feed->ops->hold(d->feed, want);
	d->held = want;
}

/* The presenter's figures follow a demo's `show` cues (back included); a
 * recording gets the view at its start and at every change (v, a show), so
 * a replay shows what the audience saw. */
static void sync_view(struct dash *d)
{
	long long figs;

	if (dash_demo_mode(d))
		d->figures = demo_figures(d->demo);
	figs = d->figures >= 0 ? d->figures : d->k.want.v[K_PRESENTER_METRICS];
	if (d->view_taped && d->taped_presenter == d->presenter && d->taped_figures == figs)
		return;
	tape_view(d->tape, d->presenter, figs);
	d->view_taped = 1;
	d->taped_presenter = d->presenter;
	d->taped_figures = figs;
}

/* ---- the frame ---------------------------------------------------------- */

/* What came with the snapshot: a recording's captions and pins, and after
 * a seek the start again of what it shows. */
static void take_news(struct dash *d, const struct feed_news *news)
{
	if (news->rewound) {
		history_rewind(d->hist);
		if (d->saved) /* --baseline's stays pinned through a seek */
			dash_pin_saved(d);
		d->view.caption[0] = 0;
		d->view.nevs = 0;
		d->pin_pending = 0;
		d->k.applied_gen = 0; /* the first snapshot again: no marker */
	}
	if (news->caption)
		snprintf(d->view.caption, sizeof d->view.caption, "%s", news->text);
	if (news->view) { /* as the audience saw it */
		d->presenter = news->presenter;
		d->figures = news->figures;
	}
	if (news->unpin) {
		history_unpin(d->hist);
		d->pin_pending = 0;
	}
	if (news->pin)
		d->pin_pending = 1;
	if (d->pin_pending && dash_pin(d, PIN_NO_FLASH | PIN_NO_EVENT) == 0)
		d->pin_pending = 0;
}

static void pull_events(struct dash *d)
{
	struct view *v = &d->view;
	struct ev evs[32];
	size_t n, i;

	while ((n = evlog_since(v->ev_seen, evs, 32)) > 0) {
		for (i = 0; i < n; i++) {
			int j;

			for (j = v->nevs - 1; j >= 0 && v->evs[j].id != evs[i].id; j--)
				;
			if (j >= 0) { /* a fold's repeat: its line, updated where it is */
				v->evs[j] = evs[i];
				v->ev_seen = evs[i].seq;
				tape_event(d->tape, &evs[i]);
				continue;
			}
			if (v->ev_back > 0 && v->ev_back < VIEW_EVENTS)
				v->ev_back++; /* scrolled back: the lines shown stay put */
			if (v->nevs == VIEW_EVENTS) {
				memmove(v->evs, v->evs + 1, sizeof v->evs[0] * (VIEW_EVENTS - 1));
				v->nevs--;
			}
			v->evs[v->nevs++] = evs[i];
			v->ev_seen = evs[i].seq;
			tape_event(d->tape, &evs[i]);
		}
	}
}

static void draw(struct dash *d)
{
	struct layout *l = &d->lay;

	struct layout_view v = { .hide = d->hide,
		                 .presenter = d->presenter,
		                 .caption = *d->view.caption != 0 };

	term_frame_begin(&d->term);
	layout_compute_view(l, d->term.W, d->term.H, d->k.nids, panel_metric_lines(d), &v);
	if (l->too_small) {
		panel_too_small(l);
		term_frame_end();
		return;
	}
	if (d->blank) {
		panel_blank(d, l);
		term_frame_end();
		return;
	}
	panel_title(d, &l->title);
	if (l->presenter) {
		panel_presenter(d, l);
	} else {
		if (l->knobs.w)
			panel_knobs(d, l);
		if (l->metrics.w)
			panel_metrics(d, &l->metrics);
		if (l->chart.h)
			panel_chart(d, &l->chart);
		panel_caption(d, &l->caption);
	}
	panel_status(d, &l->status);
	if (l->events_on)
		panel_events(d, &l->events);
	panel_hints(d, &l->hints);
	if (d->help)
		d->help_top = help_draw(d, &l->help, d->help_top);
	term_frame_end();
}

/* One frame; 0, or the feed's state when it ended (-1: e filled). */
static int frame(struct dash *d, struct err *e)
{
	double t = clock_now_s();
	struct feed_news news;
	int state, ch;

	do { /* each snapshot that is due */
		memset(&news, 0, sizeof news);
		d->feed->ops->poll(d->feed, d->live, &news);
		take_news(d, &news);
		note_applied(d);
		if (news.played)
			(void)history_offer(d->hist, d->live, news.when);
	} while (news.more);
	dash_ab_tick(d);
	play_demo(d);
	sync_hold(d);
	sync_view(d);
	tape_sample(d->tape, d->live);
	/* Say when a checkpoint lands: the writes after it pay full-page images. */
	if (!d->feed->ops->timed && history_offer(d->hist, d->live, t))
		evlog_add(EV_WARN, "%s",
		          (d->live->full.valid & (1u << C_FPI_BYTES))
		              ? "a checkpoint completed: the next write to each page logs a "
		                "full-page image (srv FPI B/row rises for a while)"
		              : "a checkpoint completed: its page writes and fsyncs land in this "
		                "window");
	term_drain(&d->term);
	pull_events(d);
	draw(d);
	state = d->feed->ops->state(d->feed, e);
	if (state != 0)
		return state;
	for (ch = term_key(&d->term, 1); ch != ERR && !d->quit; ch = term_key(&d->term, 0)) {
		input_key(d, ch);
		if (ch == KEY_RESIZE)
			break;
	}
	return 0;
}

/* ---- start and end ------------------------------------------------------ */

/* Open --record, then the feed (a recording, or the live worker), before
 * the screen; 0, or -1 with the exit code in *code (said on stderr). */
static int open_sources(struct dash *d, const struct plan *p, int *code)
{
	struct err e = { ERR_NONE, "" };
	const char *engine = knob_table[K_ENGINE].choices[d->k.want.v[K_ENGINE]];

	if (p->record_path && tape_open(&d->tape, p->record_path, engine, d->t0, &e) < 0)
		*code = e.cls == ERR_RUNTIME ? 1 : 2; /* a full disk: 1 */
	else if (p->replay_path && feed_replay_open(&d->feed, p->replay_path, &d->k.want, &e) < 0)
		*code = 2;
	else if (!p->replay_path && feed_live_open(&d->feed, &d->k.want, &e) < 0)
		*code = 1;
	if (!*code) {
		/* A demo that holds from its first lines holds from the start:
		 * the first frame would come after the worker's first rows. */
		if (!p->replay_path && dash_demo_mode(d) && demo_holds_at_start(d->demo)) {
			d->feed->ops->hold(d->feed, 1);
			d->held = 1;
		}
		return 0;
	}
	fprintf(stderr, "idxlab: %s\n", e.msg);
	return -1;
}

static struct dash *dash_new(const struct plan *p)
{
	struct dash *d = calloc(1, sizeof *d);
	const char *no_color = getenv("NO_COLOR");
	const struct knobs *k;

	if (!d)
		abort();
	plan_step(p, 0, &d->k.want);
	knobs_dash_defaults(&d->k.want, p->set);
	/* A table read from a source starts over at twice its size (a small
	 * one 50000 rows past it), not at the dashboard's 5M rows: its size
	 * against the cache is the point. */
	if (!p->set[K_ROWS] && plan_dash_rows(&d->k.want) > 0)
		d->k.want.v[K_ROWS] = plan_dash_rows(&d->k.want);
	k = &d->k.want;
	term_setup(&d->term, (int)k->v[K_ASCII], !k->v[K_NO_COLOR] && !(no_color && *no_color),
	           !k->v[K_NO_MOUSE], (int)k->v[K_REFRESH], (int)k->v[K_THEME]);
	d->hist = history_new();
	d->live = calloc(1, sizeof *d->live);
	if (!d->live)
		abort();
	build_knob_list(&d->k);
	d->k.sel = 1; /* indexes: the knob people come for */
	d->k.posted_gen = WORKLOAD_FIRST_GEN;
	d->t0 = clock_now_s();
	d->demo = p->demo;
	d->demo_start = d->k.want;
	d->presenter = (int)k->v[K_PRESENTER];
	d->figures = -1;
	return d;
}

int dash_run(const struct plan *p, volatile sig_atomic_t *sig)
{
	struct dash *d;
	struct err e = { ERR_NONE, "" };
	int code = 0, state = 0;
	char msg[2200];

	if (term_check(&e) < 0) {
		fprintf(stderr, "idxlab: %s\n", e.msg);
		return 1;
	}
	d = dash_new(p);
	evlog_start_clock();
	{
		char src[1024];

		plan_whatif_source_text(p, src, sizeof src);
		if (*src && !p->replay_path)
			evlog_add(EV_INFO, "%s; the table starts over at %lld rows%s", src,
			          d->k.want.v[K_ROWS],
			          p->set[K_ROWS] ? " (rows)" : " (the source's and as many more)");
	}
	if (open_sources(d, p, &code) < 0)
		goto out;
	if (p->baseline_path) { /* read at the start (headless_check): again, for these knobs */
		d->saved = calloc(1, sizeof *d->saved);
		if (!d->saved)
			abort();
		if (baseline_load(p->baseline_path, &d->k.want, d->saved, &e) < 0) {
			fprintf(stderr, "idxlab: %s\n", e.msg);
			code = 2;
			goto out;
		}
		dash_pin_saved(d);
		evlog_add(EV_INFO, "%s", d->saved->says);
	}
	/* A recording with no view line (an older idxlab's) still says in its
	 * knobs whether it was made in the presenter view. */
	if (p->replay_path && d->k.want.v[K_PRESENTER])
		d->presenter = 1;
	if (term_open(&d->term, &e) < 0) {
		fprintf(stderr, "idxlab: %s\n", e.msg);
		code = 1;
		goto out;
	}
	while (!d->quit && !*sig && state == 0)
		state = frame(d, &e);
	if (d->feed->ops->stop) /* the worker stops before the screen goes */
		d->feed->ops->stop(d->feed);
	if (state == 0)
		state = d->feed->ops->state(d->feed, &e);
	if (state > 0)
		state = 0;
	d->feed->ops->close(d->feed);
	d->feed = NULL;
	term_close(&d->term, *sig == SIGHUP);
	pull_events(d);
	if (state < 0) {
		fprintf(stderr, "idxlab: %s\n", e.msg);
		code = e.cls == ERR_USAGE ? 2 : 1;
	}
out:
	if (d->feed)
		d->feed->ops->close(d->feed);
	if (d->tape) {
		if (tape_close(d->tape, msg, sizeof msg) < 0 && !code)
			code = 1;
		fprintf(stderr, "idxlab: %s\n", msg);
	}
	history_free(d->hist);
	free(d->saved);
	free(d->live);
	free(d);
	return code;
}
