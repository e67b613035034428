/* report.c - text, CSV and JSON lines from one record builder. */
#include "report.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "answer.h"
#include "clock.h"
#include "engines/engine.h"
#include "plot.h"
#include "redact.h"
#include "report_int.h"
#include "units.h"

/* Knobs that go into every record, in contract order. */
static const int record_knobs[] = { K_ENGINE, K_OP,     K_INDEXES, K_KEY_ORDER, K_PK,
	                            K_CACHE,  K_COMMIT, K_SYNC,    K_JOURNAL };
/* Metrics in contract order, then the extras. */
static const int record_metrics[] = {
	M_SECONDS,
	M_ROWS_PER_S,
	M_COMMITS,
	M_FSYNCS_PER_COMMIT,
	M_SPILLS_PER_ROW,
	M_MISSES_PER_ROW,
	M_WAL_BYTES_PER_ROW,
	M_WCHAR_PER_ROW,
	M_WRITE_BYTES_PER_ROW,
	M_P50_MS,
	M_P99_MS,
	M_DB_BYTES,
	M_INDEX_BYTES,
	M_COMMITS_PER_S,
	M_DB_WRITE_BYTES_PER_ROW,
	M_MAX_MS,
	M_FSYNCS_TOTAL,
	M_HOT_PCT,
	M_FPI_BYTES_PER_ROW,
	M_CHECKPOINT_IN_WINDOW,
};
/* Metrics added later go after every other field, so the column numbers
 * of existing CSV scripts stay put. */
static const int later_metrics[] = { M_CACHE_BYTES, M_CACHE_DIRTY_PCT };

static struct field *add(struct record *r, const char *name, const char *label)
{
	struct field *f;

	if (r->n == MAX_FIELDS)
		abort(); /* a field too many: raise MAX_FIELDS */
	f = &r->f[r->n++];

	memset(f, 0, sizeof *f);
	f->name = name;
	f->label = label;
	f->unit = "";
	return f;
}

static void add_str(struct record *r, const char *name, const char *label, const char *s)
{
	struct field *f = add(r, name, label);

	f->kind = F_STR;
	snprintf(f->s, sizeof f->s, "%.*s", (int)sizeof f->s - 1, s);
}

static void add_int(struct record *r, const char *name, const char *label, long long v)
{
	struct field *f = add(r, name, label);

	f->kind = F_INT;
	f->i = v;
}

/* Field names are knob names with '-' as '_'. */
static const char *field_name(int id)
{
	static char names[K_COUNT][32];

	if (!names[id][0]) {
		char *c;

		snprintf(names[id], sizeof names[id], "%s", knob_table[id].name);
		for (c = names[id]; *c; c++)
			if (*c == '-')
				*c = '_';
	}
	return names[id];
}

static void add_metrics(struct record *r, const struct window *w, const int *ids, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct metric_def *d = &metric_table[ids[i]];
		struct mval v = metric_compute(ids[i], w);
		struct field *f = add(r, d->field, d->label);

		f->unit = d->unit;
		f->decimals = d->decimals;
		f->kind = v.state == MV_OK ? F_NUM : v.state == MV_NA ? F_NA : F_UNSETTLED;
		f->d = v.v;
		f->figure = 1;
	}
}

static void add_num(struct record *r, const char *name, const char *unit, int decimals, double v)
{
	struct field *f = add(r, name, name);

	f->unit = unit;
	f->decimals = decimals;
	f->kind = isnan(v) ? F_NA : F_NUM;
	f->d = v;
	f->figure = 1;
}

/* The fields of the table model and of the step's own end (index-build
 * after, vacuum): a step's (or a batch's) result has them, a live record
 * says n/a. Always present, in this order, so every record of a run has
 * the same columns. */
static void add_step_end(struct record *r, const struct knobs *k, const struct step_result *s)
{
	uint64_t rows = s ? s->b.v[C_ROWS] - s->a.v[C_ROWS] : 0;
	char buf[600];
	uint32_t wal = 1u << C_WAL_BYTES;
	int vac = s && s->v.t > 0;

	knob_format(K_SCHEMA, k->v[K_SCHEMA], buf, sizeof buf);
	add_str(r, "schema", "schema", buf);
	if (s)
		add_int(r, "table_rows", "table rows", (long long)s->table_rows);
	else
		add(r, "table_rows", "table rows")->kind = F_NA;
	add_str(r, "index_build", "index build",
	        knob_table[K_INDEX_BUILD].choices[k->v[K_INDEX_BUILD]]);
	add_str(r, "load", "load", knob_table[K_LOAD].choices[k->v[K_LOAD]]);
	add_num(r, "build_seconds", "s", 3, s && s->build_s >= 0 ? s->build_s : NAN);
	add_str(r, "vacuum", "vacuum", k->v[K_VACUUM] ? "on" : "off");
	add_num(r, "vacuum_seconds", "s", 3, vac ? s->vacuum_s : NAN);
	add_num(r, "vacuum_wal_bytes_per_row", "B", 1,
	        vac && rows && (s->v.valid & s->b.valid & wal)
	            ? (double)(s->v.v[C_WAL_BYTES] - s->b.v[C_WAL_BYTES]) / (double)rows
	            : NAN);
}

void report_add_spread(struct record *r, int run, int runs)
{
	int n = r->n, i, max;

	if (run > 0)
		add_int(r, "run", "run", run);
	else
		add(r, "run", "run")->kind = F_NA;
	add_int(r, "runs", "runs", runs);
	for (i = 0; i < n; i++)
		for (max = 0; max < 2 && r->f[i].figure; max++) {
			const char *name = report_spread_name(r->f[i].name, max);
			struct field *f = add(r, name, name);

			f->unit = r->f[i].unit;
			f->decimals = r->f[i].decimals;
			f->kind = F_NA;
		}
}

static void build(struct record *r, const struct knobs *k, const struct window *w, const char *kind,
                  long step, int interrupted)
{
	const struct counters *a = w->a, *b = w->b;
	char buf[160];
	size_t i;

	r->n = 0;
	for (i = 0; i < sizeof record_knobs / sizeof record_knobs[0]; i++) {
		int id = record_knobs[i];

		if (!engine_has_knob((int)k->v[K_ENGINE], id)) {
			add(r, field_name(id), knob_table[id].name)->kind = F_NA;
			continue; /* not a knob of this engine */
		}
		/* A plain number stays a number; words or units make it a string. */
		if (knob_numeric(id)) {
			add_int(r, field_name(id), knob_table[id].name, k->v[id]);
			continue;
		}
		knob_format(id, k->v[id], buf, sizeof buf);
		add_str(r, field_name(id), knob_table[id].name, buf);
	}
	add_int(r, "rows", "rows", (long long)(b->v[C_ROWS] - a->v[C_ROWS]));
	add_metrics(r, w, record_metrics, sizeof record_metrics / sizeof record_metrics[0]);
	if (engine_has_knob((int)k->v[K_ENGINE], K_FILLFACTOR))
		add_int(r, "fillfactor", "fillfactor", k->v[K_FILLFACTOR]);
	else
		add(r, "fillfactor", "fillfactor")->kind = F_NA;
	add_int(r, "prefill", "prefill", knobs_prefill(k));
	add_int(r, "payload", "payload", k->v[K_PAYLOAD]);
	add_int(r, "seed", "seed", k->v[K_SEED]);
	if (w->sizes) {
		size_t n = 0;
		int j;

		buf[0] = 0;
		for (j = 0; j < w->sizes->nindex; j++)
			n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%lld", j ? ";" : "",
			                      (long long)w->sizes->index_pages[j]);
		add_str(r, "index_pages", "index pages", buf);
	} else {
		add(r, "index_pages", "index pages")->kind = F_NA;
	}
	add_str(r, "record", "record", kind);
	add_int(r, "step", "step", step + 1);
	add_int(r, "interrupted", "interrupted", interrupted);
	add_metrics(r, w, later_metrics, sizeof later_metrics / sizeof later_metrics[0]);
}

const struct field *report_find(const struct record *r, const char *name)
{
	int i;

	for (i = 0; i < r->n; i++)
		if (strcmp(r->f[i].name, name) == 0)
			return &r->f[i];
	return NULL;
}

/* ---- --fields ---- */

/* Every field a record has, in record order (one record of default knobs
 * and empty counters: every record of every run has these fields), the
 * spread fields of --repeat last, from *spread_from on. */
static const struct record *all_fields(int *spread_from)
{
	static struct record r;
	static int from;

	if (!r.n) {
		static struct counters c;
		static struct hist h;
		struct window w = { &c, &c, &h, NULL };
		struct knobs k;

		knobs_defaults(&k);
		k.dsn = "";
		build(&r, &k, &w, "step", 0, 0);
		add_step_end(&r, &k, NULL);
		from = r.n;
		report_add_spread(&r, 1, 1);
	}
	if (spread_from)
		*spread_from = from;
	return &r;
}

static const char *nth_field(int i, const void *ctx)
{
	const struct record *r = ctx;

	return i < r->n ? r->f[i].name : NULL;
}

/* Split list (a copy, owned by the caller) into names; -1 on an unknown
 * or repeated one. */
static int split_fields(char *list, const char **names, int *n, struct err *e)
{
	const struct record *all = all_fields(NULL);
	char *item, *next = list;
	int i;

	*n = 0;
	while ((item = strsep(&next, ","))) {
		const char *hint;

		if (!*item)
			return err_set(e, ERR_USAGE,
			               "an empty name in the list: write field names between the "
			               "commas (rows_per_s,p99_ms)");
		if (report_find(all, item)) {
			for (i = 0; i < *n; i++)
				if (strcmp(names[i], item) == 0)
					return err_set(e, ERR_USAGE, "'%s' is in the list twice",
					               item);
			if (*n == MAX_FIELDS)
				return err_set(e, ERR_USAGE, "at most %d fields", MAX_FIELDS);
			names[(*n)++] = item;
			continue;
		}
		/* "p99" means p99_ms more likely than pk */
		for (i = 0, hint = NULL; i < all->n && !hint; i++)
			if (strncmp(all->f[i].name, item, strlen(item)) == 0)
				hint = all->f[i].name;
		if (!hint)
			hint = config_closest(item, nth_field, all);
		if (hint)
			return err_set(e, ERR_USAGE, "no field '%s' (did you mean %s?)", item,
			               hint);
		return err_set(e, ERR_USAGE,
		               "no field '%s' (the CSV header names them all; man idxlab, OUTPUT)",
		               item);
	}
	return 0;
}

int report_check_fields(const char *list, struct err *e)
{
	const char *names[MAX_FIELDS];
	char *copy = strdup(list);
	int n, rc;

	if (!copy)
		abort();
	rc = split_fields(copy, names, &n, e);
	free(copy);
	return rc;
}

/* r with only the --fields, in their order (into out). */
static const struct record *selected(const struct report *rp, const struct record *r,
                                     struct record *out)
{
	int i;

	if (!rp->nsel)
		return r;
	out->n = 0;
	for (i = 0; i < rp->nsel; i++)
		out->f[out->n++] = *report_find(r, rp->sel[i]);
	return out;
}

/* ---- CSV ---- */

static void csv_value(FILE *out, const struct field *f)
{
	switch (f->kind) {
	case F_STR:
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
	case F_INT:
		fprintf(out, "%lld", f->i);
		break;
	case F_NUM:
		fprintf(out, "%.*f", f->decimals, f->d);
		break;
	case F_NA:
	case F_UNSETTLED:
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
		case F_STR:
			v = json_string(f->s);
			break;
		case F_INT:
			v = json_integer(f->i);
			break;
		case F_NUM: {
			double scale = pow(10, f->decimals), x = round(f->d * scale) / scale;

			v = f->decimals == 0 ? json_integer((json_int_t)llround(x)) : json_real(x);
			break;
		}
		case F_NA:
		case F_UNSETTLED:
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
	r->answer = answer_new();
	/* a recording's windows are one run's */
	r->repeat = p->replay_path ? 1 : (int)p->vals[K_REPEAT][0];
	r->spread = r->repeat > 1;
	r->run_rows = 1;
	if (p->fields) {
		const struct record *all;
		struct err e;
		int from, i;

		r->sel_text = strdup(p->fields);
		if (!r->sel_text || split_fields(r->sel_text, r->sel, &r->nsel, &e) < 0)
			abort(); /* plan_from_args checked the list */
		all = all_fields(&from);
		for (i = 0; i < r->nsel; i++) /* asked for: there, also of one run */
			if (report_find(all, r->sel[i]) - all->f >= from)
				r->spread = 1;
		/* without record or run, a run's line could pass for its step's */
		r->run_rows = 0;
		for (i = 0; i < r->nsel; i++)
			if (strcmp(r->sel[i], "record") == 0 || strcmp(r->sel[i], "run") == 0)
				r->run_rows = 1;
	}
	return r;
}

void report_emit(struct report *rp, const struct record *r, const struct knobs *k)
{
	static struct record sel; /* big: not on the stack; one reporter runs */

	report_clear_line(rp);
	switch (rp->format) {
	case FMT_CSV:
		write_csv(rp, selected(rp, r, &sel));
		break;
	case FMT_JSON:
		write_json(rp, selected(rp, r, &sel));
		break;
	default:
		report_write_text(rp, r, k);
		break;
	}
	fflush(rp->out);
}

double report_csv_number(const struct field *f)
{
	char buf[64];

	if (!f)
		return NAN;
	if (f->kind == F_INT)
		return (double)f->i;
	if (f->kind != F_NUM)
		return NAN;
	snprintf(buf, sizeof buf, "%.*f", f->decimals, f->d);
	return strtod(buf, NULL);
}

/* A step's figures, kept for the answer (answer.h): a step of one run, or
 * the median record of N (its FIELD_min / FIELD_max the range). */
void report_note_answer(struct report *rp, const struct record *r, const struct knobs *k)
{
	const struct field *secs = report_find(r, "seconds"), *cut = report_find(r, "interrupted");
	struct answer_step a = { .k = *k,
		                 .interrupted = cut && cut->kind == F_INT && cut->i,
		                 .seconds = secs && secs->kind == F_NUM ? secs->d : 0 };
	int f;

	for (f = 0; f < AF_COUNT; f++) {
		const char *name = answer_field((enum answer_fig)f);
		const struct field *x = report_find(r, name);
		const struct field *lo =
		    rp->spread ? report_find(r, report_spread_name(name, 0)) : NULL;
		const struct field *hi =
		    rp->spread ? report_find(r, report_spread_name(name, 1)) : NULL;

		a.f[f].ok = x && x->kind == F_NUM;
		a.f[f].v = x ? x->d : NAN;
		a.f[f].min = lo && lo->kind == F_NUM ? lo->d : NAN;
		a.f[f].max = hi && hi->kind == F_NUM ? hi->d : NAN;
	}
	answer_add(rp->answer, &a);
}

void report_build_step(struct report *rp, struct record *r, const struct step_result *s,
                       const char *kind)
{
	struct window w = { &s->a, &s->b, &s->lat, s->rows_record ? NULL : &s->sizes };

	build(r, &s->knobs, &w, kind, s->index, s->interrupted);
	add_step_end(r, &s->knobs, s);
	if (rp->spread)
		report_add_spread(r, s->run + 1, 1);
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
	else if (!runs) {
		plot_add(rp->plot, r, &s->knobs, 0, 0);
		if (!s->rows_record)
			report_note_answer(rp, r, &s->knobs);
	}
	free(r);
}

/* row: a row of the text table too (a recording's window), else a text
 * run's progress line. */
static void interval(struct report *rp, const struct live *prev, const struct live *cur, int row)
{
	struct record *r = malloc(sizeof *r);
	struct hist *d = malloc(sizeof *d);
	struct window w = { &prev->c, &cur->c, d, NULL };

	if (!r || !d)
		abort();
	if (!rp->have_t0) {
		rp->t0 = prev->c.t;
		rp->have_t0 = 1;
	}
	hist_delta(&cur->lat, &prev->lat, d);
	build(r, &cur->knobs, &w, "interval", cur->step, 0);
	add_step_end(r, &cur->knobs, NULL);
	if (rp->spread)
		report_add_spread(r, cur->run + 1, 1);
	if (rp->format == FMT_TEXT && !row)
		report_write_progress(rp, r, cur->c.t - rp->t0);
	else
		report_emit(rp, r, &cur->knobs);
	plot_add(rp->plot, r, &cur->knobs, prev->c.t - rp->t0, cur->c.t - rp->t0);
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

void report_plot(struct report *rp, struct plot *pl)
{
	rp->plot = pl;
}

void report_free(struct report *rp)
{
	if (!rp)
		return;
	report_clear_line(rp);
	report_runs_flush(rp);
	if (rp->format == FMT_TEXT) {
		report_text_footer(rp);
		answer_write(rp->answer, rp->out); /* the last lines */
	} else if (rp->diag) {
		answer_write(rp->answer, rp->diag); /* CSV/JSON keep their records */
	}
	answer_free(rp->answer);
	fflush(rp->out);
	report_runs_free(rp);
	free(rp->sel_text);
	free(rp->rows_before);
	free(rp->block_first);
	free(rp);
}
