/* report_text.c - the headless text table: a header of the knobs held
 * fixed, a column per knob that varies and per figure, footnotes for the
 * marks a row carried; and the pgbench -P style progress lines. */
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "clock.h"

#include "engines/engine.h"
#include "metrics.h"
#include "mix.h"
#include "redact.h"
#include "report_int.h"
#include "spread.h"
#include "textfit.h"
#include "units.h"

/* ---- text ---- */

/* The table fits TEXT_COLS columns: the knobs that vary, then the figures
 * that fit of the default columns (record_text_cols: the metric rows'
 * text places), by priority (pri: 0 first), shown in their order; TEXT_MARK
 * columns stay free for a row's mark, " (interrupted)". A figure n/a in the
 * first row is left out (in a sweep over engines, last in priority: another
 * engine may measure it). --fields names any others. */
#define TEXT_COLS     100
#define TEXT_MARK     14
#define MAX_TEXT_COLS 32  /* the default columns (record_text_cols) */
#define PRI_NA        100 /* n/a in the first row of a sweep over engines */
#define SPREAD_W      6   /* --repeat: " +-3.2%" after a figure */

const char *report_pm(void)
{
	static const char *pm;

	if (!pm) { /* the user's locale, without setting the process' own */
		locale_t l = newlocale(LC_CTYPE_MASK, "", (locale_t)0);

		pm = l && strcmp(nl_langinfo_l(CODESET, l), "UTF-8") == 0 ? "\xc2\xb1" : "+-";
		if (l)
			freelocale(l);
	}
	return pm;
}

/* --repeat: " +-3.2%" after the median of figure f of r, from its min
 * and max (the larger distance, in % of the median; where the median is
 * 0, the distance itself). */
static void spread_text(const struct record *r, const struct field *f, char *buf, size_t len)
{
	const struct field *lo, *hi;
	struct spread sp;
	size_t n = strlen(buf);
	double share;

	if (!f->figure || f->kind != FIELD_NUM || n >= len)
		return;
	lo = record_find(r, record_spread_name(f->name, 0));
	hi = record_find(r, record_spread_name(f->name, 1));
	if (!lo || !hi || lo->kind != FIELD_NUM || hi->kind != FIELD_NUM)
		return;
	sp = (struct spread){ f->d, lo->d, hi->d, 1 };
	share = 100 * spread_share(&sp);
	if (isnan(share))
		snprintf(buf + n, len - n, " %s%.*f", report_pm(), f->decimals,
		         fmax(f->d - lo->d, hi->d - f->d));
	else
		snprintf(buf + n, len - n, " %s%.*f%%", report_pm(),
		         share == 0 || share >= 9.95 ? 0 : 1, share);
}

/* s right-aligned in width columns and a space (a UTF-8 sign is one
 * column of two bytes). */
static void put_cell(FILE *out, int width, const char *s)
{
	int cols = 0;
	const char *c;

	for (c = s; *c; c++)
		cols += ((unsigned char)*c & 0xc0) != 0x80;
	fprintf(out, "%*s%s ", width > cols ? width - cols : 0, "", s);
}

/* table: 1 when the value goes into the stdout table (for the footnote). */
static void text_value(struct report *rp, const struct field *f, char *buf, size_t len, int table)
{
	switch (f->kind) {
	case FIELD_STR:
		snprintf(buf, len, "%.*s", (int)(len ? len - 1 : 0), f->s);
		break;
	case FIELD_INT:
		snprintf(buf, len, "%lld", f->i);
		break;
	case FIELD_NUM:
		if (strcmp(f->unit, "B") == 0 && f->decimals == 0)
			units_human(f->d, "B", buf, len);
		else
			snprintf(buf, len, "%.*f",
			         f->decimals > 2 ? (f->d >= 100 ? 1 : f->decimals) : f->decimals,
			         f->d);
		break;
	case FIELD_NA:
		snprintf(buf, len, "n/a");
		break;
	case FIELD_UNSETTLED:
		snprintf(buf, len, "...");
		if (table)
			rp->saw_unsettled = 1;
		break;
	}
}

/* The value of knob id as the table shows it (prefill resolved). */
static void knob_text(int id, const struct knobs *k, char *buf, size_t len)
{
	if (id == K_PREFILL)
		snprintf(buf, len, "%lld", knobs_prefill(k));
	else
		knob_format(id, k->v[id], buf, len);
}

/* The knobs whose value differs between steps: the swept ones, the prefill
 * (auto follows the op and the rows), and those whose default differs by
 * engine in a sweep over engines (the cache; not the run options, such as
 * warmup). Once, before the header. */
void report_find_varying(struct report *rp)
{
	struct knobs a, b;
	long i;
	int id;

	if (rp->varying_done)
		return;
	rp->varying_done = 1;
	for (id = 0; id < K_COUNT; id++)
		rp->varying[id] = rp->plan->n[id] > 1;
	plan_step(rp->plan, 0, &a);
	for (i = 1; i < rp->plan->steps; i++) {
		plan_step(rp->plan, i, &b);
		for (id = 0; id < K_COUNT; id++)
			if (!(knob_table[id].flags & KF_OPTION) &&
			    (id == K_PREFILL ? knobs_prefill(&a) != knobs_prefill(&b)
			                     : a.v[id] != b.v[id]))
				rp->varying[id] = 1;
	}
}

static int is_varying(const struct report *rp, int id)
{
	return rp->varying[id];
}

/* Is candidate i a column of this run at all? A swept rows knob is its
 * own column (the measured rows are not printed twice: "(interrupted)"
 * says when they fall short); the step-end figures only when their knob
 * is set in some step. */
/* Is knob id set (not 0) in some step? */
static int set_in_a_step(const struct report *rp, int id)
{
	for (int j = 0; j < rp->plan->n[id]; j++)
		if (rp->plan->vals[id][j] != 0)
			return 1;
	return 0;
}

static int text_candidate(const struct report *rp, const struct record_text_col *c)
{
	if (c->gate < 0)
		return strcmp(c->field, record_knob_field(K_ROWS)) != 0 || !is_varying(rp, K_ROWS);
	return set_in_a_step(rp, c->gate);
}

/* Column width for a varying knob: its name or its longest value. */
static int knob_width(const struct report *rp, int id)
{
	int w = (int)strlen(knob_table[id].name), j;
	char buf[64];

	for (j = 0; j < rp->plan->n[id]; j++) {
		knob_format(id, rp->plan->vals[id][j], buf, sizeof buf);
		if ((int)strlen(buf) > w)
			w = (int)strlen(buf);
	}
	return w;
}

/* r: the first row (--repeat: a figure's column also holds its +-%). */
static int field_width(const struct report *rp, const struct record *r, const char *field,
                       const char *label)
{
	const struct record_text_col *cols;
	int w = (int)strlen(label), least = 7, n, i;

	for (cols = record_text_cols(&n), i = 0; i < n; i++)
		if (strcmp(cols[i].field, field) == 0 && cols[i].text.width)
			least = cols[i].text.width;
	if (rp->spread && record_find(r, field)->figure)
		least += SPREAD_W;
	if (record_find(r, field)->kind == FIELD_STR &&
	    (int)strlen(record_find(r, field)->s) > least)
		least = (int)strlen(
		    record_find(r, field)->s); /* a text (--fields plan,op_ms): the first row's */
	return w > least ? w : least;
}

/* The header of a figure's column: a metric whose label follows the knobs
 * (record_metric_label: WAL bytes under a rollback journal) takes the
 * steps' label, or the one for all when the steps differ. */
static const char *col_label(const struct report *rp, const char *field, const char *label)
{
	const char *l = NULL, *li;
	struct knobs k;
	long i;
	int m;

	for (m = 0; m < M_COUNT && strcmp(metric_table[m].field, field) != 0; m++)
		;
	if (m == M_COUNT)
		return label;
	for (i = 0; i < rp->plan->steps; i++) {
		plan_step(rp->plan, i, &k);
		li = record_metric_label(m, &k);
		if (l && strcmp(l, li) != 0)
			return record_metric_label(m, NULL);
		l = li;
	}
	return !l || strcmp(l, metric_table[m].label) == 0 ? label : l;
}

static void add_col(struct report *rp, const struct record *r, int knob, const char *field,
                    const char *label)
{
	struct text_col *c = &rp->cols[rp->ncols++];

	if (knob < 0)
		label = col_label(rp, field, label);

	c->knob = knob;
	c->field = field;
	c->label = label;
	c->width = knob >= 0 ? knob_width(rp, knob) : field_width(rp, r, field, label);
}

/* The figures' columns of a run without --fields, chosen from the first
 * row r: by priority while they fit in width (what the knobs left). */
static void default_cols(struct report *rp, const struct record *r, int width)
{
	int n, i, p, pri[MAX_TEXT_COLS], take[MAX_TEXT_COLS] = { 0 };
	const struct record_text_col *c = record_text_cols(&n);
	int engines = rp->plan->n[K_ENGINE] > 1;

	if (n > MAX_TEXT_COLS)
		abort(); /* raise MAX_TEXT_COLS */
	for (i = 0; i < n; i++) {
		const struct field *f = record_find(r, c[i].field);

		/* (a step-end figure of a knob some step sets, n/a in the
		 * first row, is read in the others: index-build during,after) */
		pri[i] = !text_candidate(rp, &c[i])              ? -1
		         : f->kind != FIELD_NA || c[i].gate >= 0 ? c[i].text.pri
		         : engines                               ? PRI_NA + c[i].text.pri
		                                                 : -1;
		/* steps that run for a time (--duration) measure different row
		 * counts: the rows each measured come first */
		if (pri[i] >= 0 && strcmp(c[i].field, record_knob_field(K_ROWS)) == 0 &&
		    set_in_a_step(rp, K_DURATION))
			pri[i] = 0;
	}
	for (p = 0; p <= 2 * PRI_NA; p++)
		for (i = 0; i < n; i++) {
			int w = field_width(rp, r, c[i].field, c[i].label) + 1;

			if (pri[i] == p && w <= width) {
				take[i] = 1;
				width -= w;
			}
		}
	for (i = 0; i < n; i++)
		if (take[i])
			add_col(rp, r, -1, c[i].field, c[i].label);
}

/* The columns, from the first row r. */
static void choose_cols(struct report *rp, const struct record *r)
{
	int id, i, width = TEXT_COLS - TEXT_MARK;

	rp->ncols = 0;
	if (rp->nsel) {
		for (i = 0; i < rp->nsel; i++)
			add_col(rp, r, -1, rp->sel[i], record_find(r, rp->sel[i])->label);
		return;
	}
	for (id = 0; id < K_COUNT; id++)
		if (is_varying(rp, id)) {
			add_col(rp, r, id, "rows", knob_table[id].name);
			width -= rp->cols[rp->ncols - 1].width + 1;
		}
	default_cols(rp, r, width);
}

/* One "name=value" of the settings line, which wraps before TEXT_COLS. */
static void setting(struct report *rp, int *at, const char *name, const char *value)
{
	int n = 1 + (int)strlen(name) + 1 + (int)strlen(value);

	if (*at > 1 && *at + n > TEXT_COLS) {
		fputs("\n#", rp->out);
		*at = 1;
	}
	*at += fprintf(rp->out, " %s=%s", name, value);
}

/* A knob of the reads (miss, range-rows, mix, read-share, queries) at its
 * default where nothing reads: nothing to say. */
static int quiet_read_knob(int id, const struct knobs *k)
{
	int reads = OP_READS(k->v[K_OP]) || mix_of(k, NULL);

	switch (id) {
	case K_MIX:
	case K_READ_SHARE:
		return !k->v[id];
	case K_MISS:
	case K_RANGE_ROWS:
	case K_QUERIES:
		return !reads;
	default:
		return 0;
	}
}

static void text_header(struct report *rp, const struct record *r, const struct knobs *k)
{
	char buf[160];
	int id, i, at = 1;

	report_find_varying(rp);
	fprintf(rp->out, "#");
	for (id = 0; id < K_COUNT; id++) {
		if ((knob_table[id].flags & KF_OPTION &&
		     !((id == K_ADD_INDEX || id == K_DROP_INDEX) && k->v[id])) ||
		    is_varying(rp, id) || !engine_has_knob((int)k->v[K_ENGINE], id) ||
		    (id == K_DURATION && !k->v[id]) || quiet_read_knob(id, k))
			continue; /* run options (but the question), columns, knobs
			           * this engine lacks, no --duration, the reads'
			           * knobs where nothing reads */
		if (knob_table[id].kind == KNOB_STRING) {
			if (*k->dsn) {
				redact_dsn(k->dsn, buf, sizeof buf);
				setting(rp, &at, knob_table[id].name, buf);
			}
			continue;
		}
		knob_text(id, k, buf, sizeof buf);
		setting(rp, &at, knob_table[id].name, buf);
	}
	fputc('\n', rp->out);
	{
		char src[1024]; /* a table read from a source: its size and engine */

		plan_whatif_source_text(rp->plan, src, sizeof src);
		if (*src)
			fprintf(rp->out, "# %s\n", src);
	}
	choose_cols(rp, r);
	for (i = 0; i < rp->ncols; i++)
		fprintf(rp->out, "%*s ", rp->cols[i].width, rp->cols[i].label);
	fputc('\n', rp->out);
}

/* A checkpoint completed in the record's window (checkpoint_in_window). */
static int had_checkpoint(const struct record *r)
{
	const struct field *f = record_find(r, "checkpoint_in_window");

	return f->kind == FIELD_NUM && f->d > 0;
}

/* The step's own record after its --interval-rows batches (record step
 * or run, not rows): it covers them all, and is no further batch. */
static int whole_step(const struct record *r, const struct knobs *k)
{
	const struct field *f = record_find(r, "record");

	return k->v[K_INTERVAL_ROWS] > 0 && strcmp(f->s, "rows") != 0 &&
	       strcmp(f->s, "interval") != 0;
}

void report_write_text(struct report *rp, const struct record *r, const struct knobs *k)
{
	char buf[160];
	int i;

	if (!rp->header_done) {
		text_header(rp, r, k);
		rp->header_done = 1;
	}
	for (i = 0; i < rp->ncols; i++) {
		const struct text_col *c = &rp->cols[i];

		if (c->knob >= 0 && c->knob != K_ROWS) {
			knob_text(c->knob, k, buf, sizeof buf);
		} else {
			text_value(rp, record_find(r, c->field), buf, sizeof buf, 1);
			if (rp->spread)
				spread_text(r, record_find(r, c->field), buf, sizeof buf);
		}
		put_cell(rp->out, c->width, buf);
	}
	if (record_find(r, "interrupted")->i) {
		fprintf(rp->out, " (interrupted)");
		rp->saw_interrupted = 1;
	} else if (record_find(r, "seconds")->kind == FIELD_NUM &&
	           record_find(r, "seconds")->d < SHORT_STEP_S) {
		fprintf(rp->out, " (short)");
		/* what to raise: the step ended at its time, or at its rows */
		rp->saw_short |= strcmp(record_find(r, "ended_by")->s, "duration") == 0
		                     ? SHORT_BY_TIME
		                     : SHORT_BY_ROWS;
	}
	if (had_checkpoint(r)) {
		fprintf(rp->out, " (checkpoint)");
		rp->saw_checkpoint = 1;
	}
	if (whole_step(r, k)) {
		fprintf(rp->out, " (whole step)");
		rp->saw_whole_step = 1;
	}
	fputc('\n', rp->out);
}

/* A pgbench -P style progress line on diag. */
void report_write_progress(struct report *rp, const struct record *r, double elapsed)
{
	const struct record_text_col *cols;
	char buf[160];
	int i, n;

	if (!rp->diag)
		return;        /* -q */
	report_clear_line(rp); /* these stay: the records --interval asked for */
	fprintf(rp->diag, "progress: step %lld, %.1f s", record_find(r, "step")->i, elapsed);
	for (cols = record_text_cols(&n), i = 0; i < n; i++) {
		const struct field *f = record_find(r, cols[i].field);

		if (!cols[i].text.progress)
			continue;
		text_value(rp, f, buf, sizeof buf, 0);
		fprintf(rp->diag, ", %s %s", f->label, buf);
	}
	if (had_checkpoint(r))
		fprintf(rp->diag, ", a checkpoint completed");
	fputc('\n', rp->diag);
	fflush(rp->diag);
}

/* A footnote, "# " and its text wrapped at a space before TEXT_COLS. */
static void footnote(struct report *rp, const char *text)
{
	const char *c = text;

	while (*c) {
		size_t n = strlen(c), cut = n;

		if (n > TEXT_COLS - 2) {
			for (cut = TEXT_COLS - 2; cut > 0 && c[cut] != ' '; cut--)
				;
			if (!cut)
				cut = n;
		}
		fprintf(rp->out, "# %.*s\n", (int)cut, c);
		c += cut;
		while (*c == ' ')
			c++;
	}
}

void report_footnote(struct report *rp, const char *text)
{
	footnote(rp, text);
}

void report_text_footer(struct report *rp)
{
	char buf[200];

	if (rp->format != FMT_TEXT)
		return;
	if (rp->saw_unsettled)
		footnote(rp, "... = not settled: no completed row or commit in the window");
	if (rp->saw_interrupted)
		footnote(rp, "interrupted: a partial step, stopped by a signal");
	if (rp->saw_whole_step)
		footnote(rp, "whole step: the step's own record (record=step), over all the "
		             "batches above it (record=rows); its table rows are the last "
		             "batch's, not another batch");
	if (rp->saw_short) {
		snprintf(buf, sizeof buf,
		         "short: under %.0f s, a step's rows/s moves by a fifth from run to run on "
		         "a busy machine; raise %s for steadier ratios",
		         SHORT_STEP_S,
		         rp->saw_short == SHORT_BY_TIME   ? "--duration (or --scale)"
		         : rp->saw_short == SHORT_BY_ROWS ? "--rows"
		                                          : "--rows and --duration");
		footnote(rp, buf);
	}
	if (rp->saw_checkpoint)
		footnote(rp, "checkpoint: a checkpoint completed during the step "
		             "(checkpoint_in_window): the first change to each page after it logs "
		             "the whole page again, so WAL B/row is higher, and its own writes and "
		             "syncs are in the figures");
	report_runs_footer(rp);
}

/* ---- progress on a sweep ---- */

/* "9 s", "2 min 05 s", "1 h 02 min" */
static void duration_text(double s, char *buf, size_t len)
{
	long t = (long)(s + 0.5);

	if (t < 100)
		snprintf(buf, len, "%ld s", t);
	else if (t < 3600)
		snprintf(buf, len, "%ld min %02ld s", t / 60, t % 60);
	else
		snprintf(buf, len, "%ld h %02ld min", t / 3600, t % 3600 / 60);
}

void report_progress(struct report *rp, const struct live *l)
{
	double now = clock_now_s(), done, planned;
	const struct plan *p = rp->plan;
	char line[512], eta[64];
	struct knobs k;
	size_t n;
	long i, first_s, end_s;
	long long engine = -1;
	int id, first;

	if (now - (rp->t_said ? rp->t_said : rp->t_begin) < 1.0 || l->step < 0 ||
	    l->step >= p->steps)
		return; /* a warm-up run is not a step of the plan */
	rp->t_said = now;
	report_find_varying(rp);
	if (!rp->rows_before) { /* once: the rows planned before each step */
		rp->rows_before = calloc((size_t)p->steps + 1, sizeof *rp->rows_before);
		/* the first and the end of each step's engine's block of steps,
		 * which --repeat runs over and over (workload_plan.c) */
		rp->block_first = calloc(2 * (size_t)p->steps, sizeof *rp->block_first);
		if (!rp->rows_before || !rp->block_first)
			abort();
		for (i = 0; i < p->steps; i++) {
			plan_step(p, i, &k);
			rp->rows_before[i + 1] = rp->rows_before[i] + (double)k.v[K_ROWS];
			rp->block_first[i] =
			    i && k.v[K_ENGINE] == engine ? rp->block_first[i - 1] : i;
			engine = k.v[K_ENGINE];
		}
		for (i = p->steps - 1; i >= 0; i--)
			rp->block_first[p->steps + i] =
			    i + 1 < p->steps && rp->block_first[i + 1] == rp->block_first[i]
			        ? rp->block_first[p->steps + i + 1]
			        : i + 1;
	}
	first_s = rp->block_first[l->step];
	end_s = rp->block_first[p->steps + l->step];
	planned = rp->rows_before[p->steps] * rp->repeat;
	done = rp->rows_before[first_s] * rp->repeat +
	       (rp->rows_before[end_s] - rp->rows_before[first_s]) * l->run +
	       rp->rows_before[l->step] - rp->rows_before[first_s] +
	       (l->c.v[C_ROWS] > l->start.v[C_ROWS] ? (double)(l->c.v[C_ROWS] - l->start.v[C_ROWS])
	                                            : 0);
	n = (size_t)snprintf(line, sizeof line, "step %ld/%ld", l->step + 1, p->steps);
	if (rp->repeat > 1)
		n += (size_t)snprintf(line + n, sizeof line - n, ", run %d/%d", l->run + 1,
		                      rp->repeat);
	n += (size_t)snprintf(line + n, sizeof line - n, " (%s",
	                      knob_table[K_ENGINE].choices[l->knobs.v[K_ENGINE]]);
	for (id = 0, first = 1; id < K_COUNT && n < sizeof line; id++)
		if (id != K_ENGINE && is_varying(rp, id)) {
			char v[64];

			knob_text(id, &l->knobs, v, sizeof v);
			n += (size_t)snprintf(line + n, sizeof line - n, "%s%s=%s",
			                      first ? ", " : " ", knob_table[id].name, v);
			first = 0;
		}
	if (n < sizeof line)
		n += (size_t)snprintf(line + n, sizeof line - n, "), %.0f %%",
		                      planned > 0 ? 100 * done / planned : 0);
	if (done > 0 && done < planned && n < sizeof line) {
		duration_text((now - rp->t_begin) * (planned - done) / done, eta, sizeof eta);
		snprintf(line + n, sizeof line - n, ", ETA %s", eta);
	}
	if (rp->tty_line) {
		static const struct textfit list = { .sep = ", ", .ellipsis = "..." };
		struct winsize ws;
		char shown[sizeof line];
		int cols =
		    ioctl(fileno(rp->diag), TIOCGWINSZ, &ws) == 0 && ws.ws_col ? ws.ws_col : 80;

		/* One column short of the width: no terminal wraps it. */
		textfit(&list, line, cols - 1, shown, sizeof shown);
		fprintf(rp->diag, "\r%s\033[K", shown);
		rp->line_up = 1;
	} else {
		fprintf(rp->diag, "%s\n", line);
	}
	fflush(rp->diag);
}

void report_clear_line(struct report *rp)
{
	if (!rp || !rp->line_up)
		return;
	fputs("\r\033[K", rp->diag);
	fflush(rp->diag);
	rp->line_up = 0;
}
