/* report.c - records (record.h) written as CSV or JSON lines, or handed
 * to the text table (report_text.c); --fields picks and orders the fields
 * of every format. Each record that stands for a step, a batch or a
 * window is then handed on to the runner's sink (report_sink), which
 * gives it to the chart and the answer: this module imports neither. */
#include "report.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "report_int.h"

/* r with only the --fields, in their order (into out). */
static const struct record *selected(const struct report *rp, const struct record *r,
                                     struct record *out)
{
	int i;

	if (!rp->nsel)
		return r;
	out->n = 0;
	for (i = 0; i < rp->nsel; i++)
		out->f[out->n++] = *record_find(r, rp->sel[i]);
	return out;
}

/* ---- CSV ---- */

static void csv_value(FILE *out, const struct field *f)
{
	switch (f->kind) {
	case FIELD_STR:
		if (strpbrk(f->s, ",\"\n")) {
			const char *c;

			fputc('"', out);
			for (c = f->s; *c; c++) {
				if (*c == '"')
					fputc('"', out);
				fputc(*c, out);
			}
			fputc('"', out);
		} else {
			fputs(f->s, out);
		}
		break;
	case FIELD_INT:
		fprintf(out, "%lld", f->i);
		break;
	case FIELD_NUM:
		fprintf(out, "%.*f", f->decimals, f->d);
		break;
	case FIELD_NA:
	case FIELD_UNSETTLED:
		break;
	}
}

static void write_csv(struct report *rp, const struct record *r)
{
	int i;

	if (!rp->header_done) {
		for (i = 0; i < r->n; i++)
			fprintf(rp->out, "%s%s", i ? "," : "", r->f[i].name);
		fputc('\n', rp->out);
		rp->header_done = 1;
	}
	for (i = 0; i < r->n; i++) {
		if (i)
			fputc(',', rp->out);
		csv_value(rp->out, &r->f[i]);
	}
	fputc('\n', rp->out);
}

/* ---- JSON lines ---- */

static void write_json(struct report *rp, const struct record *r)
{
	json_t *o = json_object();
	char *s;
	int i;

	if (!o)
		abort();
	for (i = 0; i < r->n; i++) {
		const struct field *f = &r->f[i];
		json_t *v = NULL;

		switch (f->kind) {
		case FIELD_STR:
			v = json_string(f->s);
			break;
		case FIELD_INT:
			v = json_integer(f->i);
			break;
		case FIELD_NUM: {
			double scale = pow(10, f->decimals), x = round(f->d * scale) / scale;

			v = f->decimals == 0 ? json_integer((json_int_t)llround(x)) : json_real(x);
			break;
		}
		case FIELD_NA:
		case FIELD_UNSETTLED:
			v = json_null();
			break;
		}
		json_object_set_new(o, f->name, v);
	}
	s = json_dumps(o, JSON_PRESERVE_ORDER | JSON_COMPACT | JSON_REAL_PRECISION(15));
	if (!s)
		abort();
	fprintf(rp->out, "%s\n", s);
	free(s);
	json_decref(o);
}

struct report *report_new(const struct plan *p, FILE *out, FILE *diag)
{
	struct report *r = calloc(1, sizeof *r);

	if (!r)
		abort();
	r->plan = p;
	r->out = out;
	r->diag = diag;
	r->tty_line = diag && isatty(fileno(diag));
	r->format = (int)p->vals[K_FORMAT][0];
	r->t_begin = clock_now_s();
	/* a recording's windows are one run's */
	r->repeat = p->replay_path ? 1 : (int)p->vals[K_REPEAT][0];
	r->spread = r->repeat > 1;
	r->run_rows = 1;
	r->held_end = &r->held;
	if (p->fields) {
		const struct record *all;
		struct err e;
		int from, i;

		r->sel_text = strdup(p->fields);
		if (!r->sel_text || record_split_fields(r->sel_text, r->sel, &r->nsel, &e) < 0)
			abort(); /* headless_check checked the list */
		all = record_all(&from);
		for (i = 0; i < r->nsel; i++) /* asked for: there, also of one run */
			if (record_find(all, r->sel[i]) - all->f >= from)
				r->spread = 1;
		/* without record or run, a run's line could pass for its step's */
		r->run_rows = 0;
		for (i = 0; i < r->nsel; i++)
			if (strcmp(r->sel[i], "record") == 0 || strcmp(r->sel[i], "run") == 0)
				r->run_rows = 1;
	}
	return r;
}

/* r's fields as CSV and JSON write them: the --fields, then the
 * annotation's (report_annotate). */
static const struct record *written(struct report *rp, const struct record *r)
{
	static struct record sel, ann; /* big: not on the stack; one reporter runs */
	const struct record *out = selected(rp, r, &sel);

	if (!rp->annotate)
		return out;
	ann = *out;
	rp->annotate(rp->annotate_ctx, r, &ann);
	return &ann;
}

static void write_now(struct report *rp, const struct record *r, const struct knobs *k)
{
	report_clear_line(rp);
	switch (rp->format) {
	case FMT_CSV:
		write_csv(rp, written(rp, r));
		break;
	case FMT_JSON:
		write_json(rp, written(rp, r));
		break;
	default:
		report_write_text(rp, r, k);
		break;
	}
	fflush(rp->out);
}

/* ---- held records (report_settle) ---- */

struct held {
	struct held *next;
	struct knobs k;
	int n;
	struct field f[]; /* the record's n fields: a record is mostly room */
};

static void hold(struct report *rp, const struct record *r, const struct knobs *k)
{
	struct held *h = malloc(sizeof *h + (size_t)r->n * sizeof h->f[0]);

	if (!h)
		abort();
	h->next = NULL;
	h->k = *k;
	h->n = r->n;
	memcpy(h->f, r->f, (size_t)r->n * sizeof h->f[0]);
	*rp->held_end = h;
	rp->held_end = &h->next;
}

/* Write the held records that settle now, in their order (final: all). */
static void release(struct report *rp, int final)
{
	struct held **at = &rp->held, *h;

	while ((h = *at)) {
		rp->scratch->n = h->n;
		memcpy(rp->scratch->f, h->f, (size_t)h->n * sizeof h->f[0]);
		if (!rp->settle(rp->settle_ctx, rp->scratch, &h->k, final) && !final) {
			at = &h->next;
			continue;
		}
		*at = h->next;
		write_now(rp, rp->scratch, &h->k);
		free(h);
	}
	rp->held_end = at;
}

/* A record that settles is written now, one that waits is held: the
 * records of the rest of the run (windows, other steps) are not held
 * behind it. */
void report_emit(struct report *rp, const struct record *r, const struct knobs *k)
{
	if (!rp->settle) {
		write_now(rp, r, k);
		return;
	}
	*rp->scratch = *r;
	if (rp->settle(rp->settle_ctx, rp->scratch, k, 0))
		write_now(rp, rp->scratch, k);
	else
		hold(rp, r, k);
}

void report_settle(struct report *rp, report_settle_fn *fn, void *ctx)
{
	if (rp->format == FMT_TEXT && !rp->nsel)
		return; /* the table's own columns: none waits (nor do its rows) */
	rp->settle = fn;
	rp->settle_ctx = ctx;
	if (fn && !rp->scratch && !(rp->scratch = malloc(sizeof *rp->scratch)))
		abort();
}

void report_build_step(struct report *rp, struct record *r, const struct step_result *s,
                       const char *kind)
{
	struct window w = { &s->a, &s->b, &s->lat, s->rows_record ? NULL : &s->sizes };

	record_build(r, &s->knobs, &w, kind, s->index, s->interrupted, s);
	if (rp->spread)
		record_add_spread(r, s->run + 1, 1);
}

/* A step's record, or with --repeat N > 1 a run's (record=run, each on
 * stdout in CSV and JSON; the text table shows the steps' medians only),
 * the median record coming with the step's last run (report_runs.c). */
void report_step(struct report *rp, const struct step_result *s)
{
	struct record *r = malloc(sizeof *r);
	int runs = rp->repeat > 1;

	if (!r)
		abort();
	report_build_step(rp, r, s, s->rows_record ? "rows" : runs ? "run" : "step");
	/* now: a batch, a step of one run (a --fields spread: its median
	 * record below); under --repeat N > 1 a run, in CSV and JSON, when
	 * the fields can tell it from its step's median record */
	if (runs ? rp->format != FMT_TEXT && (s->rows_record || rp->run_rows)
	         : s->rows_record || !rp->spread)
		report_emit(rp, r, &s->knobs);
	if (rp->spread && !s->rows_record)
		report_runs_step(rp, r, s); /* the median record, once all runs are in */
	else if (!runs)
		report_hand_on(rp, r, &s->knobs, 0, 0);
	free(r);
}

/* row: a row of the text table too (a recording's window), else a text
 * run's progress line. */
static void interval(struct report *rp, const struct live *prev, const struct live *cur, int row)
{
	struct record *r = malloc(sizeof *r);
	struct lats *d = malloc(sizeof *d);
	struct window w = { &prev->c, &cur->c, d, NULL };

	if (!r || !d)
		abort();
	if (!rp->have_t0) {
		rp->t0 = prev->c.t;
		rp->have_t0 = 1;
	}
	lats_delta(&cur->lat, &prev->lat, d);
	record_build(r, &cur->knobs, &w, "interval", cur->step, 0, NULL);
	if (cur->served[0]) { /* what served the queries so far (a recording's too) */
		struct field *f = (struct field *)record_find(r, "index_served");

		if (f) {
			f->kind = FIELD_STR;
			snprintf(f->s, sizeof f->s, "%s", cur->served);
		}
	}
	if (rp->spread)
		record_add_spread(r, cur->run + 1, 1);
	if (rp->format == FMT_TEXT && !row)
		report_write_progress(rp, r, cur->c.t - rp->t0);
	else
		report_emit(rp, r, &cur->knobs);
	report_hand_on(rp, r, &cur->knobs, prev->c.t - rp->t0, cur->c.t - rp->t0);
	free(d);
	free(r);
}

void report_interval(struct report *rp, const struct live *prev, const struct live *cur)
{
	interval(rp, prev, cur, 0);
}

void report_window(struct report *rp, const struct live *prev, const struct live *cur)
{
	interval(rp, prev, cur, 1);
}

void report_hand_on(struct report *rp, const struct record *r, const struct knobs *k, double t0,
                    double t1)
{
	if (rp->sink)
		rp->sink(rp->sink_ctx, r, k, t0, t1);
	if (rp->held)
		release(rp, 0); /* what the sink learnt may settle them */
}

void report_sink(struct report *rp, report_sink_fn *fn, void *ctx)
{
	rp->sink = fn;
	rp->sink_ctx = ctx;
}

void report_annotate(struct report *rp, report_annotate_fn *fn, void *ctx)
{
	rp->annotate = fn;
	rp->annotate_ctx = ctx;
}

void report_finish(struct report *rp)
{
	if (!rp)
		return;
	report_clear_line(rp);
	report_runs_flush(rp);
	if (rp->held)
		release(rp, 1);
	if (rp->format == FMT_TEXT)
		report_text_footer(rp);
	fflush(rp->out);
}

void report_free(struct report *rp)
{
	if (!rp)
		return;
	report_clear_line(rp);
	fflush(rp->out);
	report_runs_free(rp);
	while (rp->held) {
		struct held *h = rp->held;

		rp->held = h->next;
		free(h);
	}
	free(rp->scratch);
	free(rp->sel_text);
	free(rp->rows_before);
	free(rp->block_first);
	free(rp);
}
