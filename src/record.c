/* record.c - a record built from the knob and metric tables (record.h).
 *
 * The columns are placed by their rows: knob_def.column, metric_def.column
 * and, for the few fields that are neither a knob's value nor a metric's,
 * own_fields[] below. The three are merged once into one list by position
 * (a position used twice is a bug: abort at the first record); a gap is
 * allowed. A knob column is written the way a user types the value (a
 * plain number stays a number), n/a on an engine that does not honour it;
 * a metric column is metric_compute's value, n/a or unsettled as it says. */
#include "record.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "conf_line.h"
#include "engines/engine.h"
#include "machine.h"

/* What a field that is neither a knob nor a metric is computed from. */
struct ctx {
	const struct knobs *k;
	const struct window *w;
	const char *kind;
	long step;
	int interrupted;
	const struct step_result *s; /* NULL: a live window */
};

struct own_field {
	int column; /* position, as knob_def.column */
	const char *name, *label, *unit;
	int knob; /* the knob whose column this is (rows: the rows measured), or -1 */
	void (*fill)(struct field *f, const struct ctx *c);
	struct text_place text; /* as metric_def.text */
	int gate; /* a text column only when this knob is set in some step; -1: always */
};

/* Does k log to a rollback journal (SQLite's journal modes but wal)? */
static int rollback_journal(const struct knobs *k)
{
	return engine_has_knob((int)k->v[K_ENGINE], K_JOURNAL) && k->v[K_JOURNAL] != J_WAL;
}

const char *record_metric_label(int m, const struct knobs *k)
{
	if (m == M_WAL_BYTES_PER_ROW && (!k || rollback_journal(k)))
		return k ? "journal B/row" : "wal|jrnl B/row";
	return metric_table[m].label;
}

int record_metric_applies(int m, const struct knobs *k)
{
	/* HOT % is a share of updates: a step that updates nothing has none */
	return m != M_HOT_PCT || k->v[K_OP] == OP_UPDATE || k->v[K_OP] == OP_UPDATE_INDEXED ||
	       k->v[K_OP] == OP_UPDATE_KEYS;
}

static void set_int(struct field *f, long long v)
{
	f->kind = FIELD_INT;
	f->i = v;
}

/* A measured figure; NaN: n/a. */
static void set_figure(struct field *f, int decimals, double v)
{
	f->decimals = decimals;
	f->kind = isnan(v) ? FIELD_NA : FIELD_NUM;
	f->d = v;
	f->figure = 1;
}

static void own_rows(struct field *f, const struct ctx *c)
{
	set_int(f, (long long)(c->w->b->v[C_ROWS] - c->w->a->v[C_ROWS]));
}

static void own_index_pages(struct field *f, const struct ctx *c)
{
	size_t n = 0;
	int j;

	if (!c->w->sizes) {
		f->kind = FIELD_NA;
		return;
	}
	f->kind = FIELD_STR;
	for (j = 0; j < c->w->sizes->nindex && n < sizeof f->s; j++)
		n += (size_t)snprintf(f->s + n, sizeof f->s - n, "%s%lld", j ? ";" : "",
		                      (long long)c->w->sizes->index_pages[j]);
}

static void own_kind(struct field *f, const struct ctx *c)
{
	f->kind = FIELD_STR;
	snprintf(f->s, sizeof f->s, "%s", c->kind);
}

static void own_step(struct field *f, const struct ctx *c)
{
	set_int(f, c->step + 1);
}

static void own_interrupted(struct field *f, const struct ctx *c)
{
	set_int(f, c->interrupted);
}

/* The table model and the step's own end (index-build after, vacuum): a
 * step's (or a batch's) result has them, a live window says n/a. */
static void own_table_rows(struct field *f, const struct ctx *c)
{
	if (c->s)
		set_int(f, (long long)c->s->table_rows);
	else
		f->kind = FIELD_NA;
}

static void own_build_seconds(struct field *f, const struct ctx *c)
{
	set_figure(f, 3, c->s && c->s->build_s >= 0 ? c->s->build_s : NAN);
}

static void own_vacuum_seconds(struct field *f, const struct ctx *c)
{
	set_figure(f, 3, c->s && c->s->v.t > 0 ? c->s->vacuum_s : NAN);
}

static void own_vacuum_wal(struct field *f, const struct ctx *c)
{
	const struct step_result *s = c->s;
	uint64_t rows = s ? s->b.v[C_ROWS] - s->a.v[C_ROWS] : 0;
	uint32_t wal = 1u << C_WAL_BYTES;

	set_figure(f, 1,
	           s && s->v.t > 0 && rows && (s->v.valid & s->b.valid & wal)
	               ? (double)(s->v.v[C_WAL_BYTES] - s->b.v[C_WAL_BYTES]) / (double)rows
	               : NAN);
}

/* The rollback journal's bytes per row (SQLite under journal delete,
 * truncate ...: wal_bytes_per_row counts them there); n/a where the log
 * is a WAL. */
static void own_journal(struct field *f, const struct ctx *c)
{
	struct mval v = metric_compute(M_WAL_BYTES_PER_ROW, c->w);

	set_figure(f, metric_table[M_WAL_BYTES_PER_ROW].decimals,
	           rollback_journal(c->k) && v.state == MV_OK ? v.v : NAN);
	if (rollback_journal(c->k) && v.state == MV_UNSETTLED)
		f->kind = FIELD_UNSETTLED;
}

/* index-build after: the fsyncs the build made (between the load's end
 * and the step's closing sample), which fsyncs_per_commit leaves out: the
 * build's CREATE INDEX transactions are no commit of the step's. */
static void own_build_fsyncs(struct field *f, const struct ctx *c)
{
	const struct step_result *s = c->s;
	uint32_t bit = 1u << C_FSYNCS;

	set_figure(f, 0,
	           s && s->pb.t > 0 && (s->pb.valid & s->b.valid & bit)
	               ? (double)(s->b.v[C_FSYNCS] - s->pb.v[C_FSYNCS])
	               : NAN);
}

static void set_str(struct field *f, const char *text)
{
	f->kind = text && *text ? FIELD_STR : FIELD_NA;
	snprintf(f->s, sizeof f->s, "%s", text ? text : "");
}

/* --duration: what ended the step (rows, duration, table, stopped); a
 * batch's or a window's record: n/a. */
static void own_ended_by(struct field *f, const struct ctx *c)
{
	set_str(f, c->s && !c->s->rows_record ? c->s->ended_by : NULL);
}

/* What a comparison (--compare) needs to know of a record: who measured
 * it, when, on what machine, file system and engine version. */
static void own_version(struct field *f, const struct ctx *c)
{
	(void)c;
	set_str(f, IDXLAB_VERSION);
}

static void own_date(struct field *f, const struct ctx *c)
{
	time_t t = time(NULL);
	struct tm tm;

	(void)c;
	if (gmtime_r(&t, &tm) && strftime(f->s, sizeof f->s, "%Y-%m-%dT%H:%M:%SZ", &tm))
		f->kind = FIELD_STR;
	else
		f->kind = FIELD_NA;
}

static void own_cpu(struct field *f, const struct ctx *c)
{
	(void)c;
	set_str(f, machine_cpu());
}

static void own_kernel(struct field *f, const struct ctx *c)
{
	(void)c;
	set_str(f, machine_kernel());
}

/* The data's file system (dev 0: its type, 1: its device): a throwaway
 * database's or server's lives under TMPDIR; a --dsn file's is its own; a
 * server a --dsn names is not known here (n/a). The last answer is kept:
 * every record of a step asks the same. */
static void data_fs(struct field *f, const struct ctx *c, int dev)
{
	static char path[512], type[64], device[120];
	const char *where = c->k->dsn && c->k->dsn[0] ? c->k->dsn : getenv("TMPDIR");

	if (!where || !where[0])
		where = "/tmp";
	if (strcmp(where, path) != 0) {
		snprintf(path, sizeof path, "%s", where);
		(void)machine_fs(path, type, sizeof type, device, sizeof device);
	}
	set_str(f, dev ? device : type);
}

static void own_fs(struct field *f, const struct ctx *c)
{
	data_fs(f, c, 0);
}

static void own_device(struct field *f, const struct ctx *c)
{
	data_fs(f, c, 1);
}

static void own_engine_version(struct field *f, const struct ctx *c)
{
	int en = (int)c->k->v[K_ENGINE];

	set_str(f,
	        en >= 0 && en < E_COUNT && engine_table[en] ? engine_table[en]->version() : NULL);
}

/* The fields that are neither a knob's value nor a metric, at their
 * positions among the knob and metric rows' (append-only). */
static const struct own_field own_fields[] = {
	{ 10, "rows", "rows", "", K_ROWS, own_rows, { .order = 1, .pri = 11 }, -1 },
	{ 35, "index_pages", "index pages", "", -1, own_index_pages, { 0 }, -1 },
	{ 36, "record", "record", "", -1, own_kind, { 0 }, -1 },
	{ 37, "step", "step", "", -1, own_step, { 0 }, -1 },
	{ 38, "interrupted", "interrupted", "", -1, own_interrupted, { 0 }, -1 },
	{ 42,
	  "table_rows",
	  "table rows",
	  "",
	  -1,
	  own_table_rows,
	  { .order = 2, .pri = 1 },
	  K_INTERVAL_ROWS },
	{ 45,
	  "build_seconds",
	  "build_seconds",
	  "s",
	  -1,
	  own_build_seconds,
	  { .order = 17, .pri = 1, .label = "build s" },
	  K_INDEX_BUILD },
	{ 47,
	  "vacuum_seconds",
	  "vacuum_seconds",
	  "s",
	  -1,
	  own_vacuum_seconds,
	  { .order = 18, .pri = 1, .label = "vacuum s" },
	  K_VACUUM },
	{ 48,
	  "vacuum_wal_bytes_per_row",
	  "vacuum_wal_bytes_per_row",
	  "B",
	  -1,
	  own_vacuum_wal,
	  { .order = 19, .pri = 1, .label = "vac wal B/r" },
	  K_VACUUM },
	{ 55, "journal_bytes_per_row", "journal B/row", "B", -1, own_journal, { 0 }, -1 },
	{ 56, "build_fsyncs", "build fsyncs", "", -1, own_build_fsyncs, { 0 }, K_INDEX_BUILD },
	/* issue 21: --duration's end, and what --compare needs */
	{ 58, "ended_by", "ended by", "", -1, own_ended_by, { 0 }, -1 },
	{ 59, "idxlab_version", "idxlab version", "", -1, own_version, { 0 }, -1 },
	{ 60, "date", "date", "", -1, own_date, { 0 }, -1 },
	{ 61, "cpu", "cpu", "", -1, own_cpu, { 0 }, -1 },
	{ 62, "kernel", "kernel", "", -1, own_kernel, { 0 }, -1 },
	{ 63, "fs", "fs", "", -1, own_fs, { 0 }, -1 },
	{ 64, "device", "device", "", -1, own_device, { 0 }, -1 },
	{ 65, "engine_version", "engine version", "", -1, own_engine_version, { 0 }, -1 },
};
#define NOWN (int)(sizeof own_fields / sizeof own_fields[0])

enum src { SRC_NONE, SRC_KNOB, SRC_METRIC, SRC_OWN };

struct slot {
	enum src src;
	int id;
};

/* The columns by position (slots[0] unused), and the last position. */
static struct slot slots[RECORD_MAX_FIELDS + 1];
static int last;

static void place(int column, enum src src, int id)
{
	if (column <= 0)
		return;
	if (column > RECORD_MAX_FIELDS || slots[column].src != SRC_NONE)
		abort(); /* two rows claim one column, or too many: fix the tables */
	slots[column].src = src;
	slots[column].id = id;
	if (column > last)
		last = column;
}

static void order(void)
{
	int i;

	if (last)
		return;
	for (i = 0; i < K_COUNT; i++)
		place(knob_table[i].column, SRC_KNOB, i);
	for (i = 0; i < M_COUNT; i++)
		place(metric_table[i].column, SRC_METRIC, i);
	for (i = 0; i < NOWN; i++)
		place(own_fields[i].column, SRC_OWN, i);
}

/* Field names are knob names with '-' as '_'. */
static const char *knob_field(int id)
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

const struct record_text_col *record_text_cols(int *n)
{
	static struct record_text_col cols[M_COUNT + NOWN];
	static int ncols = -1;
	int i, j;

	if (ncols < 0) {
		ncols = 0;
		for (i = 0; i < M_COUNT; i++)
			if (metric_table[i].text.order > 0)
				cols[ncols++] =
				    (struct record_text_col){ metric_table[i].field,
					                      metric_table[i].text.label
					                          ? metric_table[i].text.label
					                          : metric_table[i].label,
					                      metric_table[i].text, -1 };
		for (i = 0; i < NOWN; i++)
			if (own_fields[i].text.order > 0)
				cols[ncols++] = (struct record_text_col){
					own_fields[i].name,
					own_fields[i].text.label ? own_fields[i].text.label
					                         : own_fields[i].label,
					own_fields[i].text, own_fields[i].gate
				};
		for (i = 1; i < ncols; i++) /* by order: a handful, insertion sort */
			for (j = i; j > 0 && cols[j].text.order < cols[j - 1].text.order; j--) {
				struct record_text_col t = cols[j];

				cols[j] = cols[j - 1];
				cols[j - 1] = t;
			}
	}
	*n = ncols;
	return cols;
}

const char *record_knob_field(int id)
{
	int i;

	if (id < 0 || id >= K_COUNT)
		return NULL;
	if (knob_table[id].column > 0)
		return knob_field(id);
	for (i = 0; i < NOWN; i++)
		if (own_fields[i].knob == id)
			return own_fields[i].name;
	return NULL;
}

void record_knob_text(int id, const struct knobs *k, char *buf, size_t len)
{
	if (id == K_PREFILL)
		snprintf(buf, len, "%lld", knobs_prefill(k));
	else
		knob_format(id, k->v[id], buf, len);
}

static struct field *add(struct record *r, const char *name, const char *label)
{
	struct field *f;

	if (r->n == RECORD_MAX_FIELDS)
		abort(); /* a field too many: raise RECORD_MAX_FIELDS */
	f = &r->f[r->n++];
	memset(f, 0, sizeof *f);
	f->name = name;
	f->label = label;
	f->unit = "";
	return f;
}

static void add_knob(struct record *r, int id, const struct knobs *k)
{
	struct field *f = add(r, knob_field(id), knob_table[id].name);

	if (!engine_has_knob((int)k->v[K_ENGINE], id)) {
		f->kind = FIELD_NA; /* not a knob of this engine */
	} else if (id == K_PREFILL || knob_numeric(id)) {
		/* a plain number stays a number; words or units make it a string */
		set_int(f, id == K_PREFILL ? knobs_prefill(k) : k->v[id]);
	} else {
		char buf[600];

		knob_format(id, k->v[id], buf, sizeof buf);
		f->kind = FIELD_STR;
		snprintf(f->s, sizeof f->s, "%.*s", (int)sizeof f->s - 1, buf);
	}
}

static void add_metric(struct record *r, int m, const struct window *w, const struct knobs *k)
{
	const struct metric_def *d = &metric_table[m];
	struct mval v = metric_compute(m, w);
	struct field *f = add(r, d->field, record_metric_label(m, k));

	if (!record_metric_applies(m, k))
		v.state = MV_NA;

	f->unit = d->unit;
	f->decimals = d->decimals;
	f->kind = v.state == MV_OK ? FIELD_NUM : v.state == MV_NA ? FIELD_NA : FIELD_UNSETTLED;
	f->d = v.v;
	f->figure = 1;
}

void record_build(struct record *r, const struct knobs *k, const struct window *w, const char *kind,
                  long step, int interrupted, const struct step_result *s)
{
	struct ctx c = { k, w, kind, step, interrupted, s };
	/* index-build after: per commit over the load alone (build_fsyncs) */
	struct window load = { w->a, s && s->pb.t > 0 ? &s->pb : w->b, w->lat, w->sizes };
	int i;

	order();
	r->n = 0;
	for (i = 1; i <= last; i++) {
		const struct own_field *o;
		struct field *f;

		switch (slots[i].src) {
		case SRC_KNOB:
			add_knob(r, slots[i].id, k);
			break;
		case SRC_METRIC:
			add_metric(r, slots[i].id,
			           metric_table[slots[i].id].kind == MK_PER_COMMIT ? &load : w, k);
			break;
		case SRC_OWN:
			o = &own_fields[slots[i].id];
			f = add(r, o->name, o->label);
			f->unit = o->unit;
			o->fill(f, &c);
			break;
		case SRC_NONE:
			break;
		}
	}
}

const char *record_spread_name(const char *field, int max)
{
	static char names[2 * RECORD_MAX_FIELDS][64];
	static int n;
	char want[64];
	int i;

	snprintf(want, sizeof want, "%s_%s", field, max ? "max" : "min");
	for (i = 0; i < n; i++)
		if (strcmp(names[i], want) == 0)
			return names[i];
	if (n == 2 * RECORD_MAX_FIELDS)
		abort(); /* more figures than fields */
	memcpy(names[n], want, sizeof want);
	return names[n++];
}

void record_add_spread(struct record *r, int run, int runs)
{
	int n = r->n, i, max;

	if (run > 0)
		set_int(add(r, "run", "run"), run);
	else
		add(r, "run", "run")->kind = FIELD_NA;
	set_int(add(r, "runs", "runs"), runs);
	for (i = 0; i < n; i++)
		for (max = 0; max < 2 && r->f[i].figure; max++) {
			const char *name = record_spread_name(r->f[i].name, max);
			struct field *f = add(r, name, name);

			f->unit = r->f[i].unit;
			f->decimals = r->f[i].decimals;
			f->kind = FIELD_NA;
		}
}

const struct field *record_find(const struct record *r, const char *name)
{
	int i;

	for (i = 0; i < r->n; i++)
		if (strcmp(r->f[i].name, name) == 0)
			return &r->f[i];
	return NULL;
}

double record_csv_number(const struct field *f)
{
	char buf[64];

	if (!f)
		return NAN;
	if (f->kind == FIELD_INT)
		return (double)f->i;
	if (f->kind != FIELD_NUM)
		return NAN;
	snprintf(buf, sizeof buf, "%.*f", f->decimals, f->d);
	return strtod(buf, NULL);
}

/* ---- the field list, --fields ---- */

const struct record *record_all(int *spread_from)
{
	static struct record r;
	static int from;

	if (!r.n) {
		/* one record of default knobs and empty counters: every record
		 * of every run has these fields */
		static struct counters c;
		static struct hist h;
		struct window w = { &c, &c, &h, NULL };
		struct knobs k;

		knobs_defaults(&k);
		k.dsn = "";
		record_build(&r, &k, &w, "step", 0, 0, NULL);
		from = r.n;
		record_add_spread(&r, 1, 1);
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

/* The field name closest to word, for "did you mean" ("p99" means p99_ms
 * more likely than pk: a name it begins first). */
static const char *closest(const struct record *all, const char *word)
{
	int i;

	for (i = 0; i < all->n; i++)
		if (strncmp(all->f[i].name, word, strlen(word)) == 0)
			return all->f[i].name;
	return config_closest(word, nth_field, all);
}

int record_split_fields(char *list, const char **names, int *n, struct err *e)
{
	const struct record *all = record_all(NULL);
	char *item, *next = list;
	int i;

	*n = 0;
	while ((item = strsep(&next, ","))) {
		const char *hint;

		if (!*item)
			return err_set(e, ERR_USAGE,
			               "an empty name in the list: write field names between the "
			               "commas (rows_per_s,p99_ms)");
		if (record_find(all, item)) {
			for (i = 0; i < *n; i++)
				if (strcmp(names[i], item) == 0)
					return err_set(e, ERR_USAGE, "'%s' is in the list twice",
					               item);
			if (*n == RECORD_MAX_FIELDS)
				return err_set(e, ERR_USAGE, "at most %d fields",
				               RECORD_MAX_FIELDS);
			names[(*n)++] = item;
			continue;
		}
		hint = closest(all, item);
		if (hint)
			return err_set(e, ERR_USAGE, "no field '%s' (did you mean %s?)", item,
			               hint);
		return err_set(e, ERR_USAGE,
		               "no field '%s' (the CSV header names them all; man idxlab, OUTPUT)",
		               item);
	}
	return 0;
}

int record_check_fields(const char *list, struct err *e)
{
	const char *names[RECORD_MAX_FIELDS];
	char *copy = strdup(list);
	int n, rc;

	if (!copy)
		abort();
	rc = record_split_fields(copy, names, &n, e);
	free(copy);
	return rc;
}
