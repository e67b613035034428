/* dash.c - the dashboard.
 *
 * One thread: every frame (--refresh ms, default 250) it reads keys and the
 * mouse, copies the worker's latest snapshot, appends it to a history ring
 * (at most every 250 ms), and redraws the whole screen into stdscr; one
 * doupdate() per frame sends only the difference, so there is no flicker,
 * on resize either. Every figure comes from metric_compute() over a window
 * of two history samples: the value over the last second, and one
 * sparkline column per slice of the last two minutes.
 *
 * The terminal is always restored: on q, on Ctrl-C/SIGTERM/SIGQUIT (main's
 * handler sets *sig and the loop ends), on a fatal signal (crash_handler),
 * and at exit; after SIGHUP it is gone, and nothing more is sent to it.
 * While the dashboard runs, fd 2 is a pipe the loop drains into the event
 * log, so nothing a library prints lands on the screen. */
#include "dash.h"

#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../clock.h"
#include "../demo.h"
#include "../evlog.h"
#include "../recording.h"
#include "../knobs.h"
#include "../metrics.h"
#include "../units.h"
#include "../workload.h"
#include "spark.h"

#ifndef IDXLAB_VERSION
#define IDXLAB_VERSION "0.0.0"
#endif

#define MIN_W       80
#define MIN_H       24
#define KNOB_W      32 /* the slider panel, borders included */
#define HIST_PERIOD 0.25
#define HIST_CAP    600 /* 150 s of history */
#define SPARK_SPAN  120.0
#define VALUE_SPAN  1.0
#define CKPT_SPAN   10.0 /* seconds a checkpoint stays marked in the metrics title */
#define BASE_SPAN   10.0 /* a pinned baseline: the mean over up to this long */
#define MAX_MARKERS 64
#define EV_KEEP     64

enum color { C_TITLE = 1, C_SPARK, C_GAUGE, C_MARK, C_ERR, C_WARN, C_DIM };

struct sample {
	struct counters c;
	struct hist lat;
	struct sizes sizes;
	uint64_t table_rows;
};

struct marker {
	double t;
	int knob;
	char label[64];
};

struct dash {
	const struct plan *plan; /* borrowed */
	struct workload *w;
	struct knobs want;       /* what the sliders show */
	struct knobs confirm_to; /* a change that needs a rebuild, awaiting y/n */
	struct knobs applied;    /* the setting the worker last reported in force */
	unsigned long applied_gen;
	unsigned long posted_gen; /* workload_set()'s answer to the last post */
	int confirming;
	int sel;
	int ids[K_COUNT], nids;
	int ascii, color, mouse, refresh_ms;
	int help, help_top;
	int paused;
	int prompting;
	char input[128];
	size_t input_len;
	int input_fresh; /* input is still the knob's value: typing replaces it */
	int base_on;     /* a baseline is pinned (b): ratios now/baseline shown */
	double base[64]; /* per dash_metrics[] entry; NAN: unknown */
	struct knobs base_knobs;
	struct demo *demo; /* --demo: the plan's, borrowed; NULL: none */
	char caption[400]; /* the demo's last `say` */
	/* --record: what the dashboard shows goes to rec as it comes */
	struct recorder *rec;
	unsigned long rec_gen; /* the last sample written */
	enum live_state rec_state;
	char
	    rec_err[sizeof((struct err *)0)->msg]; /* why recording stopped, for the exit message */
	long rec_items;
	/* --replay: the figures come from rp instead of a worker */
	struct replay *rp;
	struct rec_head rp_head;
	struct rec_item *rp_next; /* read, not yet due; NULL at the end */
	/* The replay clock, in seconds of the recording: rp_pos at wall time
	 * rp_mark, running at rp_speed (1x..16x) unless paused. A recorded time
	 * t is shown as rp_t0 + t, on the clock the counters' times use. */
	double rp_t0, rp_pos, rp_mark;
	int rp_speed;
	unsigned long rp_gen;
	int rp_pin; /* a recorded pin not yet possible (its second of history lags) */
	int dragging;
	char flash[200];
	double flash_t;
	struct sample *ring;
	int ring_n, ring_head; /* ring_head: where the next sample goes */
	double last_push;
	struct marker markers[MAX_MARKERS];
	int nmarkers;
	struct ev evs[EV_KEEP];
	int nevs;
	unsigned long ev_seen;
	struct live *live;
	int quit;
	int H, W;
	int saved_stderr, err_fd;
	char errbuf[1024];
	size_t errlen;
	double t0;
};

/* For the crash handler: restore what we changed. */
static int curses_on;
static int crash_saved_stderr = -1;

static const int dash_metrics[] = {
	M_ROWS_PER_S,
	M_COMMITS_PER_S,
	M_P50_MS,
	M_P99_MS,
	M_FSYNCS_PER_COMMIT,
	M_SPILLS_PER_ROW,
	M_MISSES_PER_ROW,
	M_WAL_BYTES_PER_ROW,
	M_WCHAR_PER_ROW,
	M_WRITE_BYTES_PER_ROW,
	M_DB_WRITE_BYTES_PER_ROW,
	M_CACHE_BYTES,
	M_CACHE_DIRTY_PCT,
	M_INDEX_BYTES,
	M_DB_BYTES,
};
#define NMETRICS ((int)(sizeof dash_metrics / sizeof dash_metrics[0]))
_Static_assert(sizeof dash_metrics / sizeof dash_metrics[0] <=
                   sizeof((struct dash *)0)->base / sizeof(double),
               "struct dash's base[] holds every metric");

static double replay_clock(const struct dash *d);

/* Now, on the clock of the figures shown: the monotonic clock, or in a
 * replay the recording's (which may run faster, or stand still). */
static double dash_now(const struct dash *d)
{
	return d->rp ? d->rp_t0 + replay_clock(d) : clock_now_s();
}

/* ---- labels --------------------------------------------------------------- */

void dash_change_label(const struct knobs *a, const struct knobs *b, int ascii, char *buf,
                       size_t len)
{
	const char *arrow = ascii ? "->" : "\u2192";
	size_t n = 0;
	int id;

	buf[0] = 0;
	for (id = 0; id < K_COUNT && n < len; id++) {
		char from[64], to[64];

		if (a->v[id] == b->v[id] || knob_table[id].kind == KNOB_STRING)
			continue;
		if (id == K_INDEXES) {
			n += (size_t)snprintf(buf + n, len - n, "%s%+lld idx", n ? ", " : "",
			                      b->v[id] - a->v[id]);
			continue;
		}
		knob_format(id, a->v[id], from, sizeof from);
		knob_format(id, b->v[id], to, sizeof to);
		n += (size_t)snprintf(buf + n, len - n, "%s%s %s %s %s", n ? ", " : "",
		                      knob_table[id].name, from, arrow, to);
	}
}

/* ---- terminal set-up and restoration ---------------------------------------- */

/* tty_gone (SIGHUP): endwin() would only write to a terminal that is no more. */
static void restore_terminal(int tty_gone)
{
	if (curses_on) {
		curses_on = 0;
		if (!tty_gone)
			endwin();
	}
	if (crash_saved_stderr >= 0) {
		dup2(crash_saved_stderr, STDERR_FILENO);
		close(crash_saved_stderr);
		crash_saved_stderr = -1;
	}
}

static void crash_handler(int sig)
{
	restore_terminal(0);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* fd 2 becomes a non-blocking pipe that the frame loop drains. */
static void capture_stderr(struct dash *d)
{
	int p[2];

	d->err_fd = -1;
	d->saved_stderr = -1;
	if (pipe(p) < 0)
		return;
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	fcntl(p[1], F_SETFL, O_NONBLOCK);
	fcntl(p[0], F_SETFD, FD_CLOEXEC);
	d->saved_stderr = dup(STDERR_FILENO);
	fcntl(d->saved_stderr, F_SETFD, FD_CLOEXEC);
	dup2(p[1], STDERR_FILENO);
	close(p[1]);
	d->err_fd = p[0];
	crash_saved_stderr = d->saved_stderr;
}

static void drain_stderr(struct dash *d)
{
	ssize_t n;

	if (d->err_fd < 0)
		return;
	while ((n = read(d->err_fd, d->errbuf + d->errlen, sizeof d->errbuf - 1 - d->errlen)) > 0) {
		char *nl;

		d->errlen += (size_t)n;
		d->errbuf[d->errlen] = 0;
		while ((nl = strchr(d->errbuf, '\n')) || d->errlen == sizeof d->errbuf - 1) {
			size_t cut = nl ? (size_t)(nl - d->errbuf) : d->errlen;

			d->errbuf[cut] = 0;
			if (cut)
				evlog_add(EV_WARN, "stderr: %s", d->errbuf);
			cut += nl ? 1 : 0;
			memmove(d->errbuf, d->errbuf + cut, d->errlen - cut);
			d->errlen -= cut;
			d->errbuf[d->errlen] = 0;
		}
	}
}

static void init_colors(struct dash *d)
{
	if (!d->color || !has_colors())
		return;
	start_color();
	use_default_colors(); /* keep the user's background: dark or light */
	init_pair(C_TITLE, COLOR_BLUE, -1);
	init_pair(C_SPARK, COLOR_GREEN, -1);
	init_pair(C_GAUGE, COLOR_CYAN, -1);
	init_pair(C_MARK, COLOR_MAGENTA, -1);
	init_pair(C_ERR, COLOR_RED, -1);
	init_pair(C_WARN, COLOR_MAGENTA, -1);
	init_pair(C_DIM, -1, -1);
}

static attr_t col(const struct dash *d, int pair)
{
	return d->color && has_colors() ? COLOR_PAIR(pair) : A_NORMAL;
}

/* ---- history -------------------------------------------------------------- */

static const struct sample *ring_at(const struct dash *d, int back)
{
	if (back < 0 || back >= d->ring_n)
		return NULL;
	return &d->ring[(d->ring_head - 1 - back + HIST_CAP) % HIST_CAP];
}

static void ring_push(struct dash *d, const struct live *l)
{
	const struct sample *prev = ring_at(d, 0);

	/* Say when a checkpoint lands: the writes after it pay full-page images. */
	if (prev && (prev->c.valid & l->c.valid & (1u << C_CHECKPOINTS)) &&
	    l->c.v[C_CHECKPOINTS] > prev->c.v[C_CHECKPOINTS])
		evlog_add(EV_WARN, "%s",
		          (l->c.valid & (1u << C_FPI_BYTES))
		              ? "a checkpoint completed: the next write to each page logs a "
		                "full-page image (FPI B/row rises for a while)"
		              : "a checkpoint completed: its page writes and fsyncs land in this "
		                "window");
	struct sample *s = &d->ring[d->ring_head];

	s->c = l->c;
	s->lat = l->lat;
	s->sizes = l->sizes;
	s->table_rows = l->table_rows;
	d->ring_head = (d->ring_head + 1) % HIST_CAP;
	if (d->ring_n < HIST_CAP)
		d->ring_n++;
}

/* Metric m between history samples `older` and `newer` (counts back from the
 * latest); NAN when unknown or not settled. *na: the engine cannot measure. */
static double metric_between(const struct dash *d, int m, int older, int newer, int *na)
{
	const struct sample *a = ring_at(d, older), *b = ring_at(d, newer);
	struct hist *delta;
	struct window w;
	struct mval v;

	if (na)
		*na = 0;
	if (!a || !b || older <= newer)
		return NAN;
	delta = malloc(sizeof *delta);
	if (!delta)
		abort();
	hist_delta(&b->lat, &a->lat, delta);
	w.a = &a->c;
	w.b = &b->c;
	w.lat = delta;
	w.sizes = &b->sizes;
	v = metric_compute(m, &w);
	free(delta);
	if (v.state == MV_NA && na)
		*na = 1;
	return v.state == MV_OK ? v.v : NAN;
}

/* ---- the knob panel ----------------------------------------------------- */

static int knob_supported(const struct dash *d, int id)
{
	return (knob_table[id].engines >> d->want.v[K_ENGINE]) & 1;
}

/* Why a knob cannot be moved here, or NULL. */
static const char *knob_locked(const struct dash *d, int id)
{
	if (d->rp)
		return "a replay shows the knobs as they were recorded";
	if (!knob_supported(d, id))
		return "this engine does not have this knob";
	if (knob_table[id].flags & KF_HEADLESS)
		return "headless runs only (idxlab run): the dashboard runs until you quit";
	if (knob_table[id].flags & KF_FIXED)
		return "fixed while running: restart idxlab to change it";
	return NULL;
}

static void build_knob_list(struct dash *d)
{
	int id;

	d->nids = 0;
	for (id = 0; id < K_COUNT; id++)
		if (!(knob_table[id].flags & KF_OPTION) && knob_table[id].kind != KNOB_STRING)
			d->ids[d->nids++] = id;
}

static void add_marker(struct dash *d, int knob, const char *label)
{
	double t = dash_now(d);
	struct marker *m;

	if (d->nmarkers == MAX_MARKERS) {
		memmove(d->markers, d->markers + 1, sizeof d->markers[0] * (MAX_MARKERS - 1));
		d->nmarkers--;
	}
	m = &d->markers[d->nmarkers++];
	m->t = t;
	m->knob = knob;
	snprintf(m->label, sizeof m->label, "%.*s", (int)sizeof m->label - 1, label);
}

static void post(struct dash *d, const struct knobs *to)
{
	d->want = *to;
	d->posted_gen = workload_set(d->w, &d->want);
}

/* When the worker applies a new setting: a marker and an event, labelled
 * with everything that changed since the last one applied. */
static void note_applied(struct dash *d)
{
	char label[160];
	int id, knob = -1;

	if (d->live->knobs_gen == d->applied_gen)
		return;
	if (d->applied_gen) {
		dash_change_label(&d->applied, &d->live->knobs, d->ascii, label, sizeof label);
		for (id = 0; id < K_COUNT; id++)
			if (d->applied.v[id] != d->live->knobs.v[id])
				knob = id;
		if (*label) {
			add_marker(d, knob, label);
			if (!d->rp) /* a recording has the line already */
				evlog_add(EV_INFO, "%s %s", d->ascii ? "*" : "\u25b2", label);
		}
	}
	d->applied = d->live->knobs;
	d->applied_gen = d->live->knobs_gen;
	/* The engine runs some knob at another value than asked (WiredTiger's
	 * least cache, a server's shared_buffers; the engine says why in the
	 * event log): the slider shows what runs. */
	if (d->applied_gen != d->posted_gen)
		return; /* a newer setting is on its way */
	d->want = d->applied;
}

static void say(struct dash *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say(struct dash *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->flash, sizeof d->flash, fmt, ap);
	va_end(ap);
	d->flash_t = clock_now_s();
}

/* Move knob id to value v: post it, or ask first when it means a rebuild. */
static void set_knob(struct dash *d, int id, long long v)
{
	struct knobs to = d->want;
	const char *why = knob_locked(d, id);

	if (why) {
		say(d, "%s: %s", knob_table[id].name, why);
		return;
	}
	to.v[id] = v;
	if (to.v[id] == d->want.v[id])
		return;
	if (knobs_need_rebuild(&d->want, &to)) {
		d->confirm_to = to;
		d->confirming = 1;
		return;
	}
	post(d, &to);
}

/* ---- drawing -------------------------------------------------------------- */

static void hline_at(const struct dash *d, int y, int x, int w)
{
	int i;

	for (i = 0; i < w; i++) {
		if (d->ascii)
			mvaddch(y, x + i, '-');
		else
			mvaddch(y, x + i, ACS_HLINE);
	}
}

static void put_clipped(int y, int x, int w, const char *s);

static void box_at(const struct dash *d, int y, int x, int h, int w, const char *title)
{
	int i;

	if (h < 2 || w < 2)
		return;
	hline_at(d, y, x + 1, w - 2);
	hline_at(d, y + h - 1, x + 1, w - 2);
	for (i = 1; i < h - 1; i++) {
		mvaddch(y + i, x, d->ascii ? '|' : ACS_VLINE);
		mvaddch(y + i, x + w - 1, d->ascii ? '|' : ACS_VLINE);
	}
	mvaddch(y, x, d->ascii ? '+' : ACS_ULCORNER);
	mvaddch(y, x + w - 1, d->ascii ? '+' : ACS_URCORNER);
	mvaddch(y + h - 1, x, d->ascii ? '+' : ACS_LLCORNER);
	mvaddch(y + h - 1, x + w - 1, d->ascii ? '+' : ACS_LRCORNER);
	if (title && w > 6) {
		attron(A_BOLD);
		mvaddch(y, x + 2, ' ');
		put_clipped(y, x + 3, w - 6, title);
		addch(' ');
		attroff(A_BOLD);
	}
}

/* The display columns of the first len bytes of s (1-column glyphs). */
static int cols_of(const char *s, size_t len)
{
	int c = 0;
	size_t i;

	for (i = 0; i < len; i++)
		c += (s[i] & 0xc0) != 0x80;
	return c;
}

/* Print at most w display columns of s (s is ASCII or UTF-8 of 1-column glyphs). */
static void put_clipped(int y, int x, int w, const char *s)
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

/* A --demo has cues left to play. */
static int demo_playing(const struct dash *d)
{
	return d->demo && !demo_done(d->demo);
}

static void draw_title(struct dash *d)
{
	const struct live *l = d->live;
	char rows[32], line[512], replay[32] = "";
	const char *right = "? help  q quit";

	if (d->rp)
		snprintf(replay, sizeof replay, "REPLAY %dx ", d->rp_speed);
	units_human((double)l->table_rows, "", rows, sizeof rows);
	snprintf(line, sizeof line, " idxlab  %s%s  %s  %s rows in table  %s", replay,
	         knob_table[K_ENGINE].choices[d->want.v[K_ENGINE]],
	         d->rp && !d->rp_next ? "over" : live_state_name(l->state), rows,
	         *l->where ? l->where : "(opening)");
	attron(A_REVERSE | A_BOLD);
	mvhline(0, 0, ' ', d->W);
	put_clipped(0, 0, d->W - (int)strlen(right) - 2, line);
	mvaddstr(0, d->W - (int)strlen(right) - 1, right);
	attroff(A_REVERSE | A_BOLD);
}

static void draw_knobs(struct dash *d, int y0, int h)
{
	int i, bar_w = 8;

	box_at(d, y0, 0, h, KNOB_W, "knobs");
	for (i = 0; i < d->nids && i < h - 2; i++) {
		int id = d->ids[i], y = y0 + 1 + i, cells, c;
		char val[64];
		const char *locked = knob_locked(d, id);
		attr_t a = locked ? A_DIM : A_NORMAL;
		int fixed, wide;

		knob_format(id, d->want.v[id], val, sizeof val);
		/* A fixed knob (the engine) has no bar, and a long value
		 * (update-indexed) takes the bar's room rather than be cut. */
		fixed = (knob_table[id].flags & KF_FIXED) != 0;
		wide = fixed || strlen(val) > 9;
		if (i == d->sel)
			a |= A_REVERSE;
		attron(a);
		mvprintw(y, 1, "%s%-10.10s %-*.*s", i == d->sel ? ">" : " ", knob_table[id].name,
		         wide ? KNOB_W - 14 : 9, wide ? KNOB_W - 14 : 9, val);
		attroff(a);
		if (wide)
			continue; /* nothing to slide, or no room */
		cells = (int)lround(knob_position(id, d->want.v[id]) * bar_w);
		move(y, 22);
		attron(col(d, C_GAUGE));
		for (c = 0; c < bar_w; c++) {
			if (c < cells)
				addstr(d->ascii ? "#" : "\u2588");
			else
				addstr(d->ascii ? "." : "\u2591");
		}
		attroff(col(d, C_GAUGE));
	}
}

static int marker_in(const struct dash *d, double t0, double t1)
{
	int i;

	for (i = 0; i < d->nmarkers; i++)
		if (d->markers[i].t > t0 && d->markers[i].t <= t1)
			return 1;
	return 0;
}

static void format_value(int m, double v, int na, char *buf, size_t len)
{
	const struct metric_def *md = &metric_table[m];

	if (na) {
		snprintf(buf, len, "n/a");
	} else if (isnan(v)) {
		snprintf(buf, len, "...");
	} else if (md->kind == MK_QUANTILE || md->kind == MK_MAX) {
		units_human(v / 1000.0, "s", buf, len);
	} else if (md->kind == MK_PER_ROW || md->kind == MK_PER_COMMIT) {
		if (strcmp(md->unit, "B") == 0)
			units_human(v, "B", buf, len);
		else if (v == 0)
			snprintf(buf, len, "0");
		else if (v < 0.01)
			snprintf(buf, len, "%.4f", v);
		else
			units_human(v, "", buf, len);
	} else {
		units_human(v, md->unit, buf, len);
	}
}

/* Metric m over the last `back` history periods, as the value column shows
 * it (sizes: the latest); NAN when unknown, *na when the engine cannot tell. */
static double metric_over(const struct dash *d, int m, int back, int *na)
{
	if (metric_table[m].kind == MK_INDEX_BYTES || metric_table[m].kind == MK_DB_BYTES)
		back = 1;
	if (back > d->ring_n - 1)
		back = d->ring_n - 1;
	return metric_between(d, m, back, 0, na);
}

void dash_format_ratio(double v, double base, char *buf, size_t len)
{
	double r;

	if (isnan(v) || isnan(base) || (base == 0 && v == 0)) {
		snprintf(buf, len, "-");
		return;
	}
	if (base == 0) {
		snprintf(buf, len, "from 0");
		return;
	}
	r = v / base;
	snprintf(buf, len, r >= 9.995 ? "%.0fx" : r >= 0.01 || r == 0 ? "%.2fx" : "%.1gx", r);
}

/* b: pin the metrics of the setting in force as the baseline - each the mean
 * since the last knob change, over at most BASE_SPAN. -1: too soon after a
 * change (said unless quiet). */
enum { PIN_NO_FLASH = 1, PIN_NO_EVENT = 2 };

static void record(struct dash *d, enum rec_kind kind, const char *text);
static void replay_speed(struct dash *d, int faster);

static int pin_baseline(struct dash *d, int quiet)
{
	double since = d->nmarkers ? d->markers[d->nmarkers - 1].t : 0;
	int back = 0, most = (int)lround(BASE_SPAN / HIST_PERIOD), i;
	const struct sample *s;
	char rate[32] = "?";

	/* BASE_SPAN on the figures' clock: a 4x replay's history runs 4x. */
	if (d->rp)
		most = most / d->rp_speed > 4 ? most / d->rp_speed : 4;
	while (back < most && (s = ring_at(d, back + 1)) != NULL && s->c.t >= since)
		back++;
	if (back < (int)lround(VALUE_SPAN / HIST_PERIOD)) {
		if (!(quiet & PIN_NO_FLASH))
			say(d, "baseline: wait a second after a change, then press b again");
		return -1;
	}
	for (i = 0; i < NMETRICS; i++) {
		int na = 0;
		double v = metric_over(d, dash_metrics[i], back, &na);

		d->base[i] = na ? NAN : v;
		if (dash_metrics[i] == M_ROWS_PER_S)
			format_value(M_ROWS_PER_S, d->base[i], na, rate, sizeof rate);
	}
	d->base_on = 1;
	d->base_knobs = d->applied;
	record(d, REC_PIN, NULL);
	if (!(quiet & PIN_NO_EVENT))
		evlog_add(
		    EV_INFO,
		    "baseline pinned: %s rows/s over %.1f s; each metric shows now/baseline (B "
		    "unpins)",
		    rate, ring_at(d, 0)->c.t - ring_at(d, back)->c.t);
	return 0;
}

static int is_pct(int m)
{
	return metric_table[m].kind == MK_PCT || metric_table[m].kind == MK_GAUGE_PCT;
}

static void draw_metrics(struct dash *d, int y0, int x0, int h, int w)
{
	int label_w = 13, value_w = 9, gauge_w = 8, ratio_w = d->base_on ? 7 : 0;
	int spark_w = w - 2 - label_w - value_w - gauge_w - ratio_w - 3;
	int frames_value = (int)lround(VALUE_SPAN / HIST_PERIOD);
	int per_col, i, j, speed = d->rp ? d->rp_speed : 1;
	double vals[256], value_span, spark_span;
	char title[256];

	if (spark_w > 256)
		spark_w = 256;
	if (spark_w < 4)
		spark_w = 4;
	per_col = (int)ceil(SPARK_SPAN / HIST_PERIOD / spark_w);
	/* The spans in seconds of the figures' own clock (a fast replay's). */
	value_span = VALUE_SPAN * speed;
	spark_span = per_col * HIST_PERIOD * spark_w * speed;
	snprintf(title, sizeof title, "metrics (last %.0f s | %.0f s)", value_span, spark_span);
	if (d->base_on) {
		char diff[160];

		dash_change_label(&d->base_knobs, &d->applied, d->ascii, diff, sizeof diff);
		snprintf(title, sizeof title, "metrics (last %.0f s | %.0f s)  now/base (%s)",
		         value_span, spark_span, *diff ? diff : "same knobs");
		if (cols_of(title, strlen(title)) > w - 6) /* what changed matters more */
			snprintf(title, sizeof title, "metrics  now/base (%s)",
			         *diff ? diff : "same knobs");
	}
	{
		/* A checkpoint in the value window: its full-page images and
		 * writes are in the figures (checkpoint_in_window). */
		int na = 0;
		size_t used = strlen(title);

		if (metric_over(d, M_CHECKPOINT_IN_WINDOW, (int)lround(CKPT_SPAN / HIST_PERIOD),
		                &na) > 0 &&
		    !na)
			snprintf(title + used, sizeof title - used,
			         "  CHECKPOINT in the last %.0f s", CKPT_SPAN * speed);
	}
	box_at(d, y0, x0, h, w, title);
	for (i = 0; i < NMETRICS && i < h - 2; i++) {
		int m = dash_metrics[i], y = y0 + 1 + i, na = 0, cells;
		double v, max = 0;
		char buf[64];
		const struct sample *latest = ring_at(d, 0);

		v = metric_over(d, m, frames_value, &na);
		for (j = 0; j < spark_w; j++) {
			int newer = (spark_w - 1 - j) * per_col, older = newer + per_col;

			vals[j] = metric_between(d, m, older, newer, NULL);
			if (!isnan(vals[j]) && vals[j] > max)
				max = vals[j];
		}
		if (!isnan(v) && v > max)
			max = v;
		/* Percentages have a scale of their own. */
		max = is_pct(m) ? 100 : spark_nice(max);
		format_value(m, v, na, buf, sizeof buf);
		mvprintw(y, x0 + 1, "%-*.*s", label_w, label_w, metric_table[m].label);
		attron(A_BOLD);
		mvprintw(y, x0 + 1 + label_w, "%*s", value_w, buf);
		attroff(A_BOLD);
		move(y, x0 + 2 + label_w + value_w);
		cells = gauge_cells(v, max, gauge_w);
		attron(col(d, C_GAUGE));
		for (j = 0; j < gauge_w; j++)
			addstr(j < cells ? (d->ascii ? "=" : "\u25a0") : " ");
		attroff(col(d, C_GAUGE));
		if (d->base_on) {
			dash_format_ratio(na ? NAN : v, d->base[i], buf, sizeof buf);
			attron(A_BOLD);
			mvprintw(y, x0 + 2 + label_w + value_w + gauge_w, "%*s", ratio_w, buf);
			attroff(A_BOLD);
		}
		move(y, x0 + 3 + label_w + value_w + gauge_w + ratio_w);
		for (j = 0; j < spark_w; j++) {
			int newer = (spark_w - 1 - j) * per_col, older = newer + per_col;
			const struct sample *sa = ring_at(d, older), *sb = ring_at(d, newer);
			int mark = sa && sb && latest && marker_in(d, sa->c.t, sb->c.t);
			const char *g = spark_glyph(spark_level(vals[j], max), d->ascii);

			if (mark) {
				attron(col(d, C_MARK) | A_REVERSE);
				addstr(isnan(vals[j]) ? (d->ascii ? "|" : "\u2502") : g);
				attroff(col(d, C_MARK) | A_REVERSE);
			} else {
				attron(col(d, C_SPARK));
				addstr(g);
				attroff(col(d, C_SPARK));
			}
		}
		(void)latest;
	}
}

static void draw_events(struct dash *d, int y0, int h)
{
	int rows = h - 2, i, first;

	box_at(d, y0, 0, h, d->W, "events");
	first = d->nevs > rows ? d->nevs - rows : 0;
	for (i = first; i < d->nevs; i++) {
		const struct ev *e = &d->evs[i];
		attr_t a = e->level == EV_ERROR  ? (col(d, C_ERR) | A_BOLD)
		           : e->level == EV_WARN ? col(d, C_WARN)
		                                 : A_NORMAL;
		char line[400];

		snprintf(line, sizeof line, "%7.1fs  %s", e->t, e->text);
		attron(a);
		put_clipped(y0 + 1 + i - first, 1, d->W - 2, line);
		attroff(a);
	}
}

static void draw_status(struct dash *d, int y)
{
	const struct live *l = d->live;
	int id = d->ids[d->sel];
	const char *locked = knob_locked(d, id);
	char line[512];

	if (d->confirming) {
		char label[160];

		dash_change_label(&d->want, &d->confirm_to, d->ascii, label, sizeof label);
		snprintf(line, sizeof line, " Rebuild the table for %s? It drops the rows. (y/n)",
		         label);
		attron(A_BOLD | A_REVERSE);
		mvhline(y, 0, ' ', d->W);
		put_clipped(y, 0, d->W, line);
		attroff(A_BOLD | A_REVERSE);
		return;
	}
	if (l->state == LS_APPLYING || l->state == LS_STARTING || l->state == LS_FAILED ||
	    l->state == LS_IDLE) {
		snprintf(line, sizeof line, " %s%s (%.1f s)",
		         l->state == LS_FAILED ? "FAILED: " : "", l->activity,
		         dash_now(d) - l->activity_t0);
		attron(A_BOLD | (l->state == LS_FAILED ? col(d, C_ERR) : 0));
		put_clipped(y, 0, d->W, line);
		attroff(A_BOLD | (l->state == LS_FAILED ? col(d, C_ERR) : 0));
		return;
	}
	if (*d->flash && clock_now_s() - d->flash_t < 4) {
		attron(col(d, C_WARN) | A_BOLD);
		put_clipped(y, 1, d->W - 2, d->flash);
		attroff(col(d, C_WARN) | A_BOLD);
		return;
	}
	if (*d->caption) { /* a --demo's, or a replayed one */
		attron(A_BOLD | A_REVERSE);
		mvhline(y, 0, ' ', d->W);
		snprintf(line, sizeof line, " %s %s", d->ascii ? ">" : "\u25b6", d->caption);
		put_clipped(y, 0, d->W, line);
		attroff(A_BOLD | A_REVERSE);
		return;
	}
	snprintf(line, sizeof line, " %s: %s%s%s", knob_table[id].name, knob_table[id].why,
	         locked ? " - " : "", locked ? locked : "");
	attron(locked ? A_DIM : A_NORMAL);
	put_clipped(y, 0, d->W, line);
	attroff(locked ? A_DIM : A_NORMAL);
}

static void draw_hints(struct dash *d, int y)
{
	const char *hints = d->ascii
	                        ? " up/down select  left/right adjust  PgUp/Dn  Enter type  "
	                          "Space pause  b pin  r reset  W rewrite  ? help  q quit"
	                        : " \u2191\u2193 select  \u2190\u2192 adjust  PgUp/Dn  Enter type  "
	                          "Space pause  b pin  r reset  W rewrite  ? help  q quit";

	if (d->prompting) {
		char head[64];
		const char *tail = d->input_fresh ? "_   (type to replace, Enter sets, Esc cancels)"
		                                  : "_   (Enter sets, Esc cancels)";
		int x;

		snprintf(head, sizeof head, " %s = ", knob_table[d->ids[d->sel]].name);
		x = (int)strlen(head);
		attron(A_BOLD);
		put_clipped(y, 0, d->W, head);
		if (d->input_fresh)
			attron(A_REVERSE);
		if (x < d->W)
			put_clipped(y, x, d->W - x, d->input);
		attroff(A_REVERSE);
		x += (int)d->input_len;
		if (x < d->W)
			put_clipped(y, x, d->W - x, tail);
		attroff(A_BOLD);
		return;
	}
	if (demo_playing(d)) {
		char line[256];
		double left;

		if (!demo_waiting(d->demo, clock_now_s(), &left))
			snprintf(line, sizeof line, " demo %d/%d  playing",
			         d->demo->next - d->demo->header, d->demo->n - d->demo->header);
		else if (left > 0)
			snprintf(line, sizeof line, " demo %d/%d  next cue in %.0f s: Space now",
			         d->demo->next - d->demo->header, d->demo->n - d->demo->header,
			         ceil(left));
		else
			snprintf(line, sizeof line, " demo %d/%d  Space: next cue",
			         d->demo->next - d->demo->header, d->demo->n - d->demo->header);
		snprintf(line + strlen(line), sizeof line - strlen(line),
		         "  p pause  b pin  ? help  q quit");
		attron(A_BOLD);
		put_clipped(y, 0, d->W, line);
		attroff(A_BOLD);
		return;
	}
	attron(A_DIM);
	put_clipped(y, 0, d->W, hints);
	attroff(A_DIM);
}

/* Keys, in one table: the help overlay is generated from it. */
struct key_help {
	const char *keys;
	const char *what;
};

static const struct key_help key_table[] = {
	{ "Up/Down, k/j", "select a knob" },
	{ "Left/Right, h/l", "move the selected knob one step" },
	{ "PgUp/PgDn", "move it a big step up/down" },
	{ "Enter", "type an exact value for it (typing replaces the value shown)" },
	{ "mouse", "click a knob, click or drag its bar (--no-mouse: off)" },
	{ "p, Space", "pause / resume the workload (while a --demo plays, Space is its next cue)" },
	{ "n, PgDn", "a --demo's next cue: ends the wait in progress (a presenter's clicker "
	             "sends PgDn)" },
	{ "r", "reset the measurement window (history and markers)" },
	{ "b", "pin a baseline: the metrics since the last change (up to 10 s); each metric "
	       "then also shows now/baseline (0.19x), the title what changed since" },
	{ "B", "unpin the baseline" },
	{ "W", "rewrite the table in place (VACUUM FULL / VACUUM): repacks every page with the "
	       "current fillfactor" },
	{ "<, >", "a --replay: half or twice as fast (1x to 16x)" },
	{ "?, F1", "this help (Up/Down scroll, any other key closes)" },
	{ "q, F10", "quit" },
};

/* The help's lines, each at most `width` columns: "head text", text
 * word-wrapped, its continuation lines indented under its first word. */
struct help_lines {
	char (*line)[256];
	int n, cap, width;
};

static void help_add(struct help_lines *hl, int bold, const char *head, const char *text)
{
	int indent = cols_of(head, strlen(head)), room = hl->width - indent;
	const char *p = text;

	if (room < 20) /* too narrow to wrap usefully: one clipped line */
		room = 1 << 20;
	do {
		size_t len = strlen(p), cut = len;
		char *l;

		if (hl->n == hl->cap)
			return;
		if (cols_of(p, len) > room) {
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

static void draw_help(struct dash *d)
{
	static char store[400][256];
	struct help_lines hl = { store, 0, 400, 0 };
	int i, h = d->H - 4, w = d->W - 6, id;
	char head[64];

	hl.width = w - 4;
	help_add(&hl, 1, "", "Keys");
	for (i = 0; i < (int)(sizeof key_table / sizeof key_table[0]); i++) {
		snprintf(head, sizeof head, "  %-16s ", key_table[i].keys);
		help_add(&hl, 0, head, key_table[i].what);
	}
	help_add(&hl, 0, "", " ");
	help_add(&hl, 1, "", "Knobs");
	for (id = 0; id < K_COUNT; id++)
		if (!(knob_table[id].flags & KF_OPTION)) {
			snprintf(head, sizeof head, "  %-12s ", knob_table[id].name);
			help_add(&hl, 0, head, knob_table[id].why);
		}
	help_add(&hl, 0, "", " ");
	help_add(&hl, 1, "", "Metrics (n/a: the engine cannot measure it; ...: not settled yet)");
	for (i = 0; i < NMETRICS; i++) {
		snprintf(head, sizeof head, "  %-14s ", metric_table[dash_metrics[i]].label);
		help_add(&hl, 0, head, metric_table[dash_metrics[i]].why);
	}
	if (d->help_top > hl.n - (h - 2))
		d->help_top = hl.n - (h - 2) > 0 ? hl.n - (h - 2) : 0;
	for (i = 0; i < h; i++)
		mvhline(2 + i, 3, ' ', w);
	box_at(d, 2, 3, h, w, "help");
	for (i = 0; i < h - 2 && d->help_top + i < hl.n; i++) {
		const char *s = hl.line[d->help_top + i];

		if (s[0] == '*')
			attron(A_BOLD);
		put_clipped(3 + i, 5, w - 4, s + 1);
		attroff(A_BOLD);
	}
}

static void draw(struct dash *d)
{
	int panel_h = (NMETRICS > d->nids ? NMETRICS : d->nids) + 2;
	int ev_y = 1 + panel_h + 1, ev_h = d->H - 1 - ev_y;

	erase();
	getmaxyx(stdscr, d->H, d->W);
	if (d->W < MIN_W || d->H < MIN_H) {
		char msg[160];

		snprintf(msg, sizeof msg, "idxlab needs a %dx%d terminal (this one is %dx%d)",
		         MIN_W, MIN_H, d->W, d->H);
		put_clipped(d->H / 2 - 1 >= 0 ? d->H / 2 - 1 : 0, 0, d->W, msg);
		put_clipped(d->H / 2 >= 0 ? d->H / 2 : 0, 0, d->W,
		            "enlarge it, or press q to quit");
		wnoutrefresh(stdscr);
		doupdate();
		return;
	}
	draw_title(d);
	draw_knobs(d, 1, panel_h);
	draw_metrics(d, 1, KNOB_W, panel_h, d->W - KNOB_W);
	draw_status(d, 1 + panel_h);
	if (ev_h >= 3)
		draw_events(d, ev_y, ev_h);
	draw_hints(d, d->H - 1);
	if (d->help)
		draw_help(d);
	wnoutrefresh(stdscr);
	doupdate();
}

/* ---- input -------------------------------------------------------------- */

static void start_prompt(struct dash *d)
{
	int id = d->ids[d->sel];
	const char *why = knob_locked(d, id);

	if (why) {
		say(d, "%s: %s", knob_table[id].name, why);
		return;
	}
	d->prompting = 1;
	knob_format(id, d->want.v[id], d->input, sizeof d->input);
	d->input_len = strlen(d->input);
	d->input_fresh = 1;
}

static void prompt_key(struct dash *d, int ch)
{
	int id = d->ids[d->sel];

	if (ch == 27) {
		d->prompting = 0;
	} else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
		struct err e = { ERR_NONE, "" };
		long long v;

		d->prompting = 0;
		if (knob_parse(id, d->input, &v, &e) < 0)
			say(d, "%s: %s", knob_table[id].name, e.msg);
		else
			set_knob(d, id, v);
	} else if (ch == 21 || ((ch == KEY_BACKSPACE || ch == 127 || ch == 8) && d->input_fresh)) {
		d->input_len = 0; /* Ctrl-U, or Backspace on the whole value */
		d->input[0] = 0;
	} else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
		if (d->input_len)
			d->input[--d->input_len] = 0;
	} else if (ch >= 32 && ch < 127) {
		if (d->input_fresh)
			d->input_len = 0;
		if (d->input_len + 1 < sizeof d->input) {
			d->input[d->input_len++] = (char)ch;
			d->input[d->input_len] = 0;
		}
	}
	d->input_fresh = 0;
}

static void reset_window(struct dash *d)
{
	const struct sample *latest = ring_at(d, 0);

	if (latest) {
		struct sample keep = *latest;

		d->ring[0] = keep;
		d->ring_head = 1;
		d->ring_n = 1;
	}
	d->nmarkers = 0;
	evlog_add(EV_INFO, "measurement window reset");
}

static void mouse_event(struct dash *d)
{
	MEVENT me;
	int i;

	if (getmouse(&me) != OK)
		return;
	if (me.bstate & BUTTON1_RELEASED) {
		d->dragging = 0;
		return;
	}
	if (!(me.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)) && !d->dragging)
		return;
	i = me.y - 2;
	if (d->dragging)
		i = d->sel;
	if (i < 0 || i >= d->nids || me.x >= KNOB_W)
		return;
	d->sel = i;
	if (me.x >= 22 && me.x < 30) {
		int id = d->ids[i];

		d->dragging = (me.bstate & BUTTON1_PRESSED) != 0 || d->dragging;
		set_knob(d, id, knob_at_position(id, (me.x - 22 + 0.5) / 8.0));
	}
}

static void key(struct dash *d, int ch)
{
	int id = d->ids[d->sel];

	if (d->confirming) {
		if (ch == 'y' || ch == 'Y')
			post(d, &d->confirm_to);
		d->confirming = 0;
		return;
	}
	if (d->prompting) {
		prompt_key(d, ch);
		return;
	}
	if (d->help) {
		if (ch == KEY_DOWN || ch == 'j')
			d->help_top++;
		else if (ch == KEY_UP || ch == 'k')
			d->help_top = d->help_top > 0 ? d->help_top - 1 : 0;
		else if (ch == 'q' || ch == KEY_F(10))
			d->quit = 1;
		else if (ch != KEY_RESIZE && ch != KEY_MOUSE)
			d->help = 0;
		return;
	}
	switch (ch) {
	case 'q':
	case 'Q':
	case KEY_F(10):
		d->quit = 1;
		break;
	case '?':
	case KEY_F(1):
		d->help = 1;
		d->help_top = 0;
		break;
	case KEY_UP:
	case 'k':
		d->sel = d->sel > 0 ? d->sel - 1 : d->nids - 1;
		break;
	case KEY_DOWN:
	case 'j':
		d->sel = (d->sel + 1) % d->nids;
		break;
	case KEY_PPAGE:
	case KEY_NPAGE:
		/* A presenter's clicker sends PgDn/PgUp: while a demo plays they
		 * are its cues, never a big step of whatever knob is selected. */
		if (demo_playing(d)) {
			if (ch == KEY_PPAGE)
				say(d, "demo: cues only go forward (PgDn, Space or n)");
			else if (!demo_skip(d->demo))
				say(d, "demo: the last cue is still being carried out");
			break;
		}
		/* fall through */
	case KEY_LEFT:
	case 'h':
	case KEY_RIGHT:
	case 'l': {
		int dir = ch == KEY_LEFT || ch == 'h' || ch == KEY_NPAGE ? -1 : 1;
		int big = ch == KEY_PPAGE || ch == KEY_NPAGE;

		set_knob(d, id, knob_step(id, d->want.v[id], dir, big));
		break;
	}
	case '\n':
	case '\r':
	case KEY_ENTER:
		start_prompt(d);
		break;
	case ' ':
	case 'n':
		if (demo_playing(d)) {
			if (!demo_skip(d->demo))
				say(d, "demo: the last cue is still being carried out");
			break;
		}
		if (ch == 'n')
			break;
		/* fall through */
	case 'p':
		d->paused = !d->paused;
		if (d->rp && d->paused) {
			d->paused = 0;
			d->rp_pos = replay_clock(d);
			d->paused = 1;
		} else if (d->rp) {
			d->rp_mark = clock_now_s();
		} else {
			workload_pause(d->w, d->paused);
		}
		evlog_add(EV_INFO, "%s%s", d->rp ? "replay " : "",
		          d->paused ? "paused" : "resumed");
		break;
	case 'r':
		reset_window(d);
		break;
	case 'b':
		(void)pin_baseline(d, 0);
		break;
	case 'B':
		if (d->base_on) {
			evlog_add(EV_INFO, "baseline unpinned");
			record(d, REC_UNPIN, NULL);
		}
		d->base_on = 0;
		break;
	case '>':
	case '<':
		if (d->rp)
			replay_speed(d, ch == '>');
		else
			say(d, "< and >: the speed of a --replay");
		break;
	case 'W':
		if (d->rp) {
			say(d, "W: a replay shows the table as it was recorded");
			break;
		}
		workload_rewrite(d->w);
		evlog_add(EV_INFO, "rewrite asked for");
		break;
	case KEY_MOUSE:
		mouse_event(d);
		break;
	default:
		break;
	}
}

/* ---- a scripted demo (--demo) ------------------------------------------- */

/* Play the demo's cues that are due: each once the workload runs with the
 * setting before it (an index build, a rebuild, a failed step - until the
 * user changes a knob - hold it; a pause holds it too). */
static void play_demo(struct dash *d)
{
	const struct cue *c;

	while (demo_playing(d) && (d->live->state == LS_RUNNING || d->live->state == LS_IDLE) &&
	       d->applied_gen == d->posted_gen && (c = demo_next(d->demo, clock_now_s())) != NULL) {
		struct knobs to;

		switch (c->kind) {
		case CUE_SET:
			to = d->want;
			to.v[c->knob] = c->value;
			if (to.v[c->knob] != d->want.v[c->knob])
				post(d, &to); /* a rebuild too: the script is the consent */
			break;
		case CUE_SAY:
			snprintf(d->caption, sizeof d->caption, "%s", c->text);
			record(d, REC_CAPTION, c->text);
			if (*c->text)
				evlog_add(EV_INFO, "%s %s", d->ascii ? ">" : "\u25b6", c->text);
			break;
		case CUE_PIN:
			if (pin_baseline(d, 1) < 0) {
				demo_unget(d->demo); /* too soon after a change: again later */
				return;
			}
			break;
		case CUE_UNPIN:
			d->base_on = 0;
			record(d, REC_UNPIN, NULL);
			break;
		case CUE_WAIT:
		case CUE_WAIT_KEY:
			break; /* demo_next() keeps the time */
		}
		if (demo_done(d->demo))
			evlog_add(EV_INFO,
			          "the demo is over: the knobs are yours (Space pauses again)");
	}
}

/* ---- --record and --replay ------------------------------------------------ */

/* Write one item (times from the start of the dashboard); a failed write
 * stops the recording - the lines so far stay whole - and says so. */
static void record_item(struct dash *d, struct rec_item *it)
{
	struct err e = { ERR_NONE, "" };

	if (!d->rec)
		return;
	it->t = clock_now_s() - d->t0;
	if (rec_write(d->rec, it, &e) == 0) {
		d->rec_items++;
		return;
	}
	snprintf(d->rec_err, sizeof d->rec_err, "%s", e.msg);
	(void)rec_finish(d->rec, NULL);
	d->rec = NULL;
	evlog_add(EV_ERROR, "recording stopped: %s (the lines before are intact)", d->rec_err);
}

/* A cleared item of that kind: the UI thread's one (struct live is big). */
static struct rec_item *rec_blank(enum rec_kind kind)
{
	static struct rec_item it;

	memset(&it, 0, sizeof it);
	it.kind = kind;
	return &it;
}

static void record(struct dash *d, enum rec_kind kind, const char *text)
{
	struct rec_item *it;

	if (!d->rec)
		return;
	it = rec_blank(kind);
	if (text)
		snprintf(it->text, sizeof it->text, "%s", text);
	record_item(d, it);
}

/* A new sample, or a new state, since the last one written. */
static void record_live(struct dash *d)
{
	struct rec_item *it;

	if (!d->rec || (d->live->gen == d->rec_gen && d->live->state == d->rec_state))
		return;
	it = rec_blank(REC_SAMPLE);
	it->live = *d->live;
	it->live.c.t -= d->t0;
	it->live.activity_t0 -= d->t0;
	d->rec_gen = d->live->gen;
	d->rec_state = d->live->state;
	record_item(d, it);
}

static void record_event(struct dash *d, const struct ev *ev)
{
	struct rec_item *it;

	if (!d->rec)
		return;
	it = rec_blank(REC_EVENT);
	it->level = ev->level;
	snprintf(it->text, sizeof it->text, "%s", ev->text);
	record_item(d, it);
}

static double replay_clock(const struct dash *d)
{
	return d->paused ? d->rp_pos : d->rp_pos + (clock_now_s() - d->rp_mark) * d->rp_speed;
}

/* > and <: the replay twice as fast or as slow, 1x to 16x. */
static void replay_speed(struct dash *d, int faster)
{
	int to = faster ? d->rp_speed * 2 : d->rp_speed / 2;

	if (to < 1 || to > 16) {
		say(d, "replay: %dx is as %s as it goes", d->rp_speed, faster ? "fast" : "slow");
		return;
	}
	d->rp_pos = replay_clock(d);
	d->rp_mark = clock_now_s();
	d->rp_speed = to;
	say(d, "replay at %dx", to);
}

/* Read the next item into rp_next; at the end (or a bad line, said) NULL. */
static void replay_read(struct dash *d)
{
	struct err e = { ERR_NONE, "" };
	int rc = rec_read(d->rp, d->rp_next, &e);

	if (rc > 0)
		return;
	if (rc < 0)
		evlog_add(EV_ERROR, "the replay stops here: %s", e.msg);
	else
		evlog_add(EV_INFO, "the recording is over: q quits, b pins, r resets");
	free(d->rp_next);
	d->rp_next = NULL;
}

/* Play what is due on the replay clock, as the worker and the user did. */
static void replay_advance(struct dash *d)
{
	double base = d->rp_t0;
	struct rec_item *it;

	while ((it = d->rp_next) != NULL && it->t <= replay_clock(d)) {
		switch (it->kind) {
		case REC_SAMPLE:
			*d->live = it->live;
			d->live->c.t += base;
			d->live->activity_t0 += base;
			d->live->gen = ++d->rp_gen;
			d->posted_gen = d->live->knobs_gen; /* the sliders follow */
			break;
		case REC_EVENT:
			evlog_add(it->level, "%s", it->text);
			break;
		case REC_CAPTION:
			snprintf(d->caption, sizeof d->caption, "%s", it->text);
			break;
		case REC_PIN:
			d->rp_pin = 1;
			break;
		case REC_UNPIN:
			d->base_on = d->rp_pin = 0;
			break;
		}
		replay_read(d);
	}
	if (d->rp_pin && pin_baseline(d, PIN_NO_FLASH | PIN_NO_EVENT) == 0)
		d->rp_pin = 0;
}

/* Open --replay or create --record before the screen; 0, or -1 said. */
static int open_recording(struct dash *d, const struct plan *p)
{
	struct err e = { ERR_NONE, "" };

	if (p->record_path) {
		d->rec =
		    rec_create(p->record_path, knob_table[K_ENGINE].choices[d->want.v[K_ENGINE]],
		               IDXLAB_VERSION, &e);
		if (!d->rec)
			goto fail;
	}
	if (p->replay_path) {
		d->rp = rec_open(p->replay_path, &d->rp_head, &e);
		if (!d->rp)
			goto fail;
		d->rp_next = malloc(sizeof *d->rp_next);
		if (!d->rp_next)
			abort();
		if (rec_read(d->rp, d->rp_next, &e) <= 0) {
			if (!*e.msg)
				snprintf(e.msg, sizeof e.msg, "%s has no sample to show",
				         p->replay_path);
			goto fail;
		}
		if (d->rp_next->kind == REC_SAMPLE)
			d->want = d->rp_next->live.knobs;
		d->rp_t0 = d->rp_mark = clock_now_s();
		d->rp_speed = 1;
	}
	return 0;
fail:
	fprintf(stderr, "idxlab: %s\n", e.msg);
	return -1;
}

/* ---- the loop ----------------------------------------------------------- */

static void pull_events(struct dash *d)
{
	struct ev evs[32];
	size_t n, i;

	while ((n = evlog_since(d->ev_seen, evs, 32)) > 0) {
		for (i = 0; i < n; i++) {
			if (d->nevs == EV_KEEP) {
				memmove(d->evs, d->evs + 1, sizeof d->evs[0] * (EV_KEEP - 1));
				d->nevs--;
			}
			d->evs[d->nevs++] = evs[i];
			d->ev_seen = evs[i].seq;
			record_event(d, &evs[i]);
		}
	}
}

static int dumb_terminal(void)
{
	const char *term = getenv("TERM");

	return !term || !*term || strcmp(term, "dumb") == 0;
}

int dash_run(const struct plan *p, volatile sig_atomic_t *sig)
{
	struct dash *d;
	struct err e = { ERR_NONE, "" };
	struct sigaction sa;
	int code = 0, state;
	const char *no_color = getenv("NO_COLOR");

	if (dumb_terminal()) {
		fprintf(stderr,
		        "idxlab: this terminal (TERM=%s) cannot show the dashboard: "
		        "use `idxlab run` for headless output\n",
		        getenv("TERM") ? getenv("TERM") : "");
		return 1;
	}
	d = calloc(1, sizeof *d);
	if (!d)
		abort();
	d->plan = p;
	plan_step(p, 0, &d->want);
	/* Dashboard defaults where the user chose nothing: commits a human can
	 * watch, and a table that starts over before it fills the disk. */
	if (!p->set[K_COMMIT])
		d->want.v[K_COMMIT] = 1000;
	if (!p->set[K_ROWS])
		d->want.v[K_ROWS] = 5000000;
	evlog_start_clock();
	d->ring = malloc(sizeof *d->ring * HIST_CAP);
	d->live = malloc(sizeof *d->live);
	if (!d->ring || !d->live)
		abort();
	memset(d->live, 0, sizeof *d->live);
	d->refresh_ms = (int)d->want.v[K_REFRESH];
	setlocale(LC_ALL, "");
	d->ascii = d->want.v[K_ASCII] || strcmp(nl_langinfo(CODESET), "UTF-8") != 0;
	d->color = !d->want.v[K_NO_COLOR] && !(no_color && *no_color);
	d->mouse = !d->want.v[K_NO_MOUSE];
	build_knob_list(d);
	d->sel = 1; /* indexes: the knob people come for */
	d->t0 = clock_now_s();
	d->demo = p->demo;

	if (open_recording(d, p) < 0) {
		code = 2;
		goto out;
	}
	if (!d->rp && workload_start_live(&d->w, &d->want, &e) < 0) {
		fprintf(stderr, "idxlab: %s\n", e.msg);
		code = 1;
		goto out;
	}
	d->posted_gen = WORKLOAD_FIRST_GEN;
	if (!newterm(NULL, stdout, stdin)) {
		fprintf(stderr, "idxlab: cannot start the dashboard on TERM=%s: use `idxlab run`\n",
		        getenv("TERM"));
		code = 1;
		goto out;
	}
	curses_on = 1;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = crash_handler;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGFPE, &sa, NULL);
	sigaction(SIGABRT, &sa, NULL);
	capture_stderr(d);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	timeout(d->refresh_ms);
	init_colors(d);
	if (d->mouse) {
		mousemask(BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON1_CLICKED |
		              REPORT_MOUSE_POSITION,
		          NULL);
		mouseinterval(0);
	}

	while (!d->quit && !*sig) {
		double t = clock_now_s();
		int ch;

		if (d->rp)
			replay_advance(d);
		else
			workload_live(d->w, d->live);
		note_applied(d);
		play_demo(d);
		record_live(d);
		if (d->live->gen && (t - d->last_push >= HIST_PERIOD || !d->ring_n)) {
			ring_push(d, d->live);
			d->last_push = t;
		}
		drain_stderr(d);
		pull_events(d);
		draw(d);
		state = d->rp ? 0 : workload_state(d->w, &e);
		if (state != 0)
			break;
		ch = getch();
		while (ch != ERR && !d->quit) {
			key(d, ch);
			if (ch == KEY_RESIZE)
				break;
			timeout(0);
			ch = getch();
		}
		timeout(d->refresh_ms);
	}
	/* How the worker ended: a run quit while FAILED ends failed. */
	state = 0;
	workload_stop(d->w);
	while (d->w && (state = workload_state(d->w, &e)) == 0)
		workload_wait(d->w, 0.1);
	workload_free(d->w);
	d->w = NULL;
	restore_terminal(*sig == SIGHUP);
	if (d->err_fd >= 0)
		close(d->err_fd);
	pull_events(d);
	if (state < 0) {
		fprintf(stderr, "idxlab: %s\n", e.msg);
		code = e.cls == ERR_USAGE ? 2 : 1;
	}
out:
	workload_free(d->w);
	if (p->record_path && (d->rec || *d->rec_err)) {
		struct err re = { ERR_NONE, "" };

		if (d->rec && rec_finish(d->rec, &re) < 0)
			snprintf(d->rec_err, sizeof d->rec_err, "%s", re.msg);
		if (*d->rec_err)
			fprintf(stderr, "idxlab: the recording %s stopped early: %s\n",
			        p->record_path, d->rec_err);
		else
			fprintf(
			    stderr,
			    "idxlab: recorded %.0f s (%ld lines) to %s: idxlab --replay %s shows "
			    "it again\n",
			    clock_now_s() - d->t0, d->rec_items, p->record_path, p->record_path);
		if (*d->rec_err && !code)
			code = 1;
	}
	rec_close(d->rp);
	free(d->rp_next);
	free(d->ring);
	free(d->live);
	free(d);
	return code;
}
