/* report.c - text, CSV and JSON lines from one record builder. */
#include "report.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engines/engine.h"
#include "redact.h"
#include "units.h"

#define MAX_FIELDS   48
#define SHORT_STEP_S 1.0

enum fkind { F_STR, F_INT, F_NUM, F_NA, F_UNSETTLED };

struct field {
	const char *name;
	const char *label; /* text column header */
	const char *unit;  /* for human formatting in text */
	enum fkind kind;
	char s[128];
	long long i;
	double d;
	int decimals;
};

struct record {
	int n;
	struct field f[MAX_FIELDS];
};

struct report {
	const struct plan *plan; /* borrowed */
	FILE *out, *diag;
	int format;
	int header_done;
	char varying[K_COUNT]; /* set with the header: find_varying */
	int saw_unsettled;
	int saw_interrupted;
	int saw_short; /* a step shorter than SHORT_STEP_S */
	int saw_checkpoint;
	double t0; /* time of the first interval window */
};

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
	struct field *f = &r->f[r->n++];

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
	}
}

static void add_num(struct record *r, const char *name, const char *unit, int decimals, double v)
{
	struct field *f = add(r, name, name);

	f->unit = unit;
	f->decimals = decimals;
	f->kind = isnan(v) ? F_NA : F_NUM;
	f->d = v;
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
	add_num(r, "build_seconds", "s", 3, s && s->build_s >= 0 ? s->build_s : NAN);
	add_str(r, "vacuum", "vacuum", k->v[K_VACUUM] ? "on" : "off");
	add_num(r, "vacuum_seconds", "s", 3, vac ? s->v.t - s->b.t : NAN);
	add_num(r, "vacuum_wal_bytes_per_row", "B", 1,
	        vac && rows && (s->v.valid & s->b.valid & wal)
	            ? (double)(s->v.v[C_WAL_BYTES] - s->b.v[C_WAL_BYTES]) / (double)rows
	            : NAN);
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
		if (knob_table[id].kind == KNOB_INT && !knob_table[id].words) {
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

static const struct field *find(const struct record *r, const char *name)
{
	int i;

	for (i = 0; i < r->n; i++)
		if (strcmp(r->f[i].name, name) == 0)
			return &r->f[i];
	return NULL;
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

/* ---- text ---- */

/* Columns of the text table: knobs that vary in the sweep, then these; the
 * last ones only in a run that has them (their knob set, by a plan value). */
static const struct {
	const char *field, *label; /* label NULL: the metric's */
	int knob;                  /* -1: always; else shown when the plan sets it */
} text_cols[] = {
	{ "rows", NULL, -1 },
	{ "table_rows", "table rows", K_INTERVAL_ROWS },
	{ "seconds", NULL, -1 },
	{ "rows_per_s", NULL, -1 },
	{ "fsyncs_per_commit", NULL, -1 },
	{ "spills_per_row", NULL, -1 },
	{ "misses_per_row", NULL, -1 },
	{ "wal_bytes_per_row", NULL, -1 },
	{ "wchar_per_row", NULL, -1 },
	{ "write_bytes_per_row", NULL, -1 },
	{ "p50_ms", NULL, -1 },
	{ "p99_ms", NULL, -1 },
	{ "db_bytes", NULL, -1 },
	{ "index_bytes", NULL, -1 },
	{ "build_seconds", "build s", K_INDEX_BUILD },
	{ "vacuum_seconds", "vacuum s", K_VACUUM },
	{ "vacuum_wal_bytes_per_row", "vac wal B/r", K_VACUUM },
};

/* table: 1 when the value goes into the stdout table (for the footnote). */
static void text_value(struct report *rp, const struct field *f, char *buf, size_t len, int table)
{
	switch (f->kind) {
	case F_STR:
		snprintf(buf, len, "%s", f->s);
		break;
	case F_INT:
		snprintf(buf, len, "%lld", f->i);
		break;
	case F_NUM:
		if (strcmp(f->unit, "B") == 0 && f->decimals == 0)
			units_human(f->d, "B", buf, len);
		else
			snprintf(buf, len, "%.*f",
			         f->decimals > 2 ? (f->d >= 100 ? 1 : f->decimals) : f->decimals,
			         f->d);
		break;
	case F_NA:
		snprintf(buf, len, "n/a");
		break;
	case F_UNSETTLED:
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

/* Does knob id take more than one value across the sweep? */
/* The knobs whose value differs between steps: the swept ones, the prefill
 * (auto follows the op and the rows), and those whose default differs by
 * engine in a sweep over engines (the cache; not the run options, such as
 * warmup). Once, before the header. */
static void find_varying(struct report *rp)
{
	struct knobs a, b;
	long i;
	int id;

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

/* A swept rows knob is its own column: the measured rows are not printed
 * twice (the column shows them, "(interrupted)" says when they fall short). */
static int skip_text_col(const struct report *rp, size_t i)
{
	int id = text_cols[i].knob, j;

	if (id < 0)
		return strcmp(text_cols[i].field, "rows") == 0 && is_varying(rp, K_ROWS);
	for (j = 0; j < rp->plan->n[id]; j++)
		if (rp->plan->vals[id][j] != 0)
			return 0;
	return 1;
}

/* Column width for a varying knob: its name or its longest value. */
static int knob_width(const struct report *rp, int id)
{
	int w = 12, j;
	char buf[64];

	for (j = 0; j < rp->plan->n[id]; j++) {
		knob_format(id, rp->plan->vals[id][j], buf, sizeof buf);
		if ((int)strlen(buf) > w)
			w = (int)strlen(buf);
	}
	return w;
}

static void text_header(struct report *rp, const struct knobs *k)
{
	char buf[160];
	size_t i;
	int id;

	find_varying(rp);
	fprintf(rp->out, "#");
	for (id = 0; id < K_COUNT; id++) {
		if (knob_table[id].flags & KF_OPTION || is_varying(rp, id) ||
		    !engine_has_knob((int)k->v[K_ENGINE], id))
			continue; /* run options, columns, and knobs this engine lacks */
		if (knob_table[id].kind == KNOB_STRING) {
			if (*k->dsn) {
				redact_dsn(k->dsn, buf, sizeof buf);
				fprintf(rp->out, " %s=%s", knob_table[id].name, buf);
			}
			continue;
		}
		knob_text(id, k, buf, sizeof buf);
		fprintf(rp->out, " %s=%s", knob_table[id].name, buf);
	}
	fputc('\n', rp->out);
	for (id = 0; id < K_COUNT; id++)
		if (is_varying(rp, id))
			fprintf(rp->out, "%*s ", knob_width(rp, id), knob_table[id].name);
	for (i = 0; i < sizeof text_cols / sizeof text_cols[0]; i++) {
		int m;

		if (skip_text_col(rp, i))
			continue;
		for (m = 0; m < M_COUNT && strcmp(metric_table[m].field, text_cols[i].field); m++)
			;
		fprintf(rp->out, "%12s ",
		        text_cols[i].label ? text_cols[i].label
		        : m < M_COUNT      ? metric_table[m].label
		                           : text_cols[i].field);
	}
	fputc('\n', rp->out);
}

/* A checkpoint completed in the record's window (checkpoint_in_window). */
static int had_checkpoint(const struct record *r)
{
	const struct field *f = find(r, "checkpoint_in_window");

	return f->kind == F_NUM && f->d > 0;
}

static void write_text(struct report *rp, const struct record *r, const struct knobs *k)
{
	char buf[160];
	size_t i;
	int id;

	if (!rp->header_done) {
		text_header(rp, k);
		rp->header_done = 1;
	}
	for (id = 0; id < K_COUNT; id++) {
		if (!is_varying(rp, id))
			continue;
		if (id == K_ROWS)
			text_value(rp, find(r, "rows"), buf, sizeof buf, 1);
		else
			knob_text(id, k, buf, sizeof buf);
		fprintf(rp->out, "%*s ", knob_width(rp, id), buf);
	}
	for (i = 0; i < sizeof text_cols / sizeof text_cols[0]; i++) {
		const struct field *f = find(r, text_cols[i].field);

		if (skip_text_col(rp, i))
			continue;
		text_value(rp, f, buf, sizeof buf, 1);
		fprintf(rp->out, "%12s ", buf);
	}
	if (find(r, "interrupted")->i) {
		fprintf(rp->out, " (interrupted)");
		rp->saw_interrupted = 1;
	} else if (find(r, "seconds")->kind == F_NUM && find(r, "seconds")->d < SHORT_STEP_S) {
		fprintf(rp->out, " (short)");
		rp->saw_short = 1;
	}
	if (had_checkpoint(r)) {
		fprintf(rp->out, " (checkpoint)");
		rp->saw_checkpoint = 1;
	}
	fputc('\n', rp->out);
}

/* A pgbench -P style progress line on diag. */
static void write_progress(struct report *rp, const struct record *r, double elapsed)
{
	static const char *const cols[] = { "rows_per_s",     "fsyncs_per_commit",
		                            "spills_per_row", "wal_bytes_per_row",
		                            "wchar_per_row",  "p50_ms",
		                            "p99_ms" };
	char buf[160];
	size_t i;

	fprintf(rp->diag, "progress: step %lld, %.1f s", find(r, "step")->i, elapsed);
	for (i = 0; i < sizeof cols / sizeof cols[0]; i++) {
		const struct field *f = find(r, cols[i]);

		text_value(rp, f, buf, sizeof buf, 0);
		fprintf(rp->diag, ", %s %s", f->label, buf);
	}
	if (had_checkpoint(r))
		fprintf(rp->diag, ", a checkpoint completed");
	fputc('\n', rp->diag);
	fflush(rp->diag);
}

struct report *report_new(const struct plan *p, FILE *out, FILE *diag)
{
	struct report *r = calloc(1, sizeof *r);

	if (!r)
		abort();
	r->plan = p;
	r->out = out;
	r->diag = diag;
	r->format = (int)p->vals[K_FORMAT][0];
	return r;
}

static void emit(struct report *rp, const struct record *r, const struct knobs *k)
{
	switch (rp->format) {
	case FMT_CSV:
		write_csv(rp, r);
		break;
	case FMT_JSON:
		write_json(rp, r);
		break;
	default:
		write_text(rp, r, k);
		break;
	}
	fflush(rp->out);
}

void report_step(struct report *rp, const struct step_result *s)
{
	struct record *r = malloc(sizeof *r);
	struct window w = { &s->a, &s->b, &s->lat, s->rows_record ? NULL : &s->sizes };

	if (!r)
		abort();
	build(r, &s->knobs, &w, s->rows_record ? "rows" : "step", s->index, s->interrupted);
	add_step_end(r, &s->knobs, s);
	emit(rp, r, &s->knobs);
	free(r);
}

void report_interval(struct report *rp, const struct live *prev, const struct live *cur)
{
	struct record *r = malloc(sizeof *r);
	struct hist *d = malloc(sizeof *d);
	struct window w = { &prev->c, &cur->c, d, NULL };

	if (!r || !d)
		abort();
	if (rp->t0 == 0)
		rp->t0 = prev->c.t;
	hist_delta(&cur->lat, &prev->lat, d);
	build(r, &cur->knobs, &w, "interval", cur->step, 0);
	add_step_end(r, &cur->knobs, NULL);
	if (rp->format == FMT_TEXT)
		write_progress(rp, r, cur->c.t - rp->t0);
	else
		emit(rp, r, &cur->knobs);
	free(d);
	free(r);
}

void report_free(struct report *rp)
{
	if (!rp)
		return;
	if (rp->format == FMT_TEXT && rp->saw_unsettled)
		fprintf(rp->out, "# ... = not settled: no completed row or commit in the window\n");
	if (rp->format == FMT_TEXT && rp->saw_interrupted)
		fprintf(rp->out, "# interrupted: a partial step, stopped by a signal\n");
	if (rp->format == FMT_TEXT && rp->saw_short)
		fprintf(
		    rp->out,
		    "# short: under %.0f s, a step's rows/s moves by a fifth from run to run on a "
		    "busy machine; raise --rows for steadier ratios\n",
		    SHORT_STEP_S);
	if (rp->format == FMT_TEXT && rp->saw_checkpoint)
		fprintf(
		    rp->out,
		    "# checkpoint: a checkpoint completed during the step (checkpoint_in_window): "
		    "the first change to each page after it logs the whole page again, so WAL "
		    "B/row is higher, and its own writes and syncs are in the figures\n");
	fflush(rp->out);
	free(rp);
}
