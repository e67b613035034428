/* record_own.c - the record's fields that are neither a knob's value nor
 * a metric's (record_int.h): the rows measured, the record's kind and
 * step, the sizes' pages, the step-end figures (build, vacuum, journal),
 * what ended the step and what a comparison needs to know of a record (who
 * measured it, when, on what machine, file system and engine version).
 * Each is a row of record_own_fields[]: its column, name, label and the
 * function that fills it. */
#include "record_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engines/engine.h"
#include "machine.h"
#include "mix.h"

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
	long long op = k->v[K_OP];

	switch (m) {
	case M_HOT_PCT: /* a share of updates: a step that updates nothing has none */
		return (mix_ops(k) & OPS_UPDATES) != 0;
	case M_P50_MS: /* a read step times its queries, not its commits */
	case M_P99_MS:
	case M_MAX_MS:
		return !OP_READS(op);
	case M_READS_PER_S: /* the figures of queries: a read step's, a mix's */
	case M_READ_P50_MS:
	case M_READ_P99_MS:
	case M_READ_MAX_MS:
	case M_ROWS_RETURNED_PER_QUERY:
	case M_ROWS_EXAMINED_PER_QUERY:
	case M_PAGES_READ_PER_QUERY:
		return OP_READS(op) || mix_of(k, NULL);
	case M_READ_MS_PER_QUERY: /* a mix's, each kind of operation timed */
	case M_WRITE_MS_PER_ROW:
	case M_WRITES_PER_S:
	case M_WRITE_P50_MS:
	case M_WRITE_P99_MS:
	case M_WRITE_MAX_MS:
	case M_MIX_MS_PER_1000_OPS:
		return mix_of(k, NULL);
	default:
		return 1;
	}
}

void record_set_int(struct field *f, long long v)
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
	record_set_int(f, (long long)(c->w->b->v[C_ROWS] - c->w->a->v[C_ROWS]));
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
	record_set_int(f, c->step + 1);
}

static void own_interrupted(struct field *f, const struct ctx *c)
{
	record_set_int(f, c->interrupted);
}

/* The table model and the step's own end (index-build after, vacuum): a
 * step's (or a batch's) result has them, a live window says n/a. */
static void own_table_rows(struct field *f, const struct ctx *c)
{
	if (c->s)
		record_set_int(f, (long long)c->s->table_rows);
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

/* A read step's plan: what served each query, each index's share. */
static void own_plan(struct field *f, const struct ctx *c)
{
	set_str(f, c->s && !c->s->rows_record ? c->s->plan : NULL);
}

static void own_served(struct field *f, const struct ctx *c)
{
	set_str(f, c->s && !c->s->rows_record ? c->s->served : NULL);
}

static void own_query_text(struct field *f, const struct ctx *c)
{
	set_str(f, c->s && !c->s->rows_record ? c->s->queries : NULL);
}

/* A mix's operations by kind over the window, as what (enum op_what):
 * their count ("insert:8012 update:3990"), rate per second, or mean ms of
 * those timed one by one ("insert:0.0123 lookup:0.0021"); n/a outside a
 * mix and in a recording (which keeps no kinds). */
enum op_what { OPW_COUNT, OPW_PER_S, OPW_MS };

static void op_kinds(struct field *f, const struct ctx *c, int what)
{
	const struct counters *a = c->w->a, *b = c->w->b;
	double secs = b->t - a->t;
	size_t n = 0;
	int op;

	f->s[0] = 0;
	for (op = 0; op < OP_COUNT && mix_of(c->k, NULL) && n < sizeof f->s; op++) {
		uint64_t ops = b->op_n[op] - a->op_n[op];
		double v = what == OPW_COUNT   ? (double)ops
		           : what == OPW_PER_S ? (secs > 0 ? (double)ops / secs : NAN)
		                               : (double)(b->op_ns[op] - a->op_ns[op]) / 1e6 / ops;

		if (!ops || isnan(v) || (what == OPW_MS && !(b->op_timed & 1u << op)))
			continue;
		n += (size_t)snprintf(f->s + n, sizeof f->s - n,
		                      what == OPW_COUNT   ? "%s%s:%.0f"
		                      : what == OPW_PER_S ? "%s%s:%.1f"
		                                          : "%s%s:%.4g",
		                      n ? " " : "", knob_table[K_OP].choices[op], v);
	}
	f->kind = f->s[0] ? FIELD_STR : FIELD_NA;
}

/* A mix's queries by read kind: count x (enum op_read: rows returned,
 * examined, pages read) per query, "lookup:1.00 range:50.5"; only where
 * the engine counted every one in its op hook (their sum is the window's
 * count), else n/a. */
static void op_reads(struct field *f, const struct ctx *c, int x)
{
	const struct counters *a = c->w->a, *b = c->w->b;
	enum ctr all = op_read_ctr[x];
	uint64_t hooked = 0;
	size_t n = 0;
	int op;

	f->s[0] = 0;
	f->kind = FIELD_NA;
	for (op = OP_LOOKUP; op <= OP_RANGE; op++)
		hooked += b->op_read[x][op] - a->op_read[x][op];
	if (!mix_of(c->k, NULL) || !(b->valid & 1u << all) || hooked != b->v[all] - a->v[all])
		return; /* counted from statistics at the samples: not by kind */
	for (op = OP_LOOKUP; op <= OP_RANGE && n < sizeof f->s; op++) {
		uint64_t q = b->op_n[op] - a->op_n[op];

		if (q)
			n += (size_t)snprintf(f->s + n, sizeof f->s - n, "%s%s:%.2f", n ? " " : "",
			                      knob_table[K_OP].choices[op],
			                      (double)(b->op_read[x][op] - a->op_read[x][op]) /
			                          (double)q);
	}
	f->kind = f->s[0] ? FIELD_STR : FIELD_NA;
}

/* A mix step's latency quantile q (0 p50, 1 p99, 2 max) by op kind, in ms
 * ("insert:0.0012 lookup:0.0031"): the kinds timed one by one; n/a
 * elsewhere (a batch's or a window's record, a replay). */
static void op_quantile(struct field *f, const struct ctx *c, int q)
{
	size_t n = 0;
	int op;

	f->s[0] = 0;
	for (op = 0; c->s && !c->s->rows_record && op < OP_COUNT && n < sizeof f->s; op++)
		if (!isnan(c->s->op_q[op][q]))
			n += (size_t)snprintf(f->s + n, sizeof f->s - n, "%s%s:%.4g", n ? " " : "",
			                      knob_table[K_OP].choices[op], c->s->op_q[op][q]);
	f->kind = f->s[0] ? FIELD_STR : FIELD_NA;
}

/* A mix's fields by op kind, one table: each its list and what of it. */
static const struct {
	const char *name;
	void (*list)(struct field *f, const struct ctx *c, int what);
	int what;
} op_fields[] = {
	{ "op_counts", op_kinds, OPW_COUNT },
	{ "op_per_s", op_kinds, OPW_PER_S },
	{ "op_ms", op_kinds, OPW_MS },
	{ "op_p50_ms", op_quantile, 0 },
	{ "op_p99_ms", op_quantile, 1 },
	{ "op_max_ms", op_quantile, 2 },
	{ "op_rows_per_query", op_reads, OP_READ_ROWS },
	{ "op_examined_per_query", op_reads, OP_READ_EXAMINED },
	{ "op_pages_read_per_query", op_reads, OP_READ_PAGES },
};

static void own_op_list(struct field *f, const struct ctx *c)
{
	size_t i;

	for (i = 0; i < sizeof op_fields / sizeof op_fields[0]; i++)
		if (strcmp(f->name, op_fields[i].name) == 0)
			op_fields[i].list(f, c, op_fields[i].what);
}

/* A mix sweep's cheapest step: set when the sweep is in (trade.h). */
static void own_cheapest(struct field *f, const struct ctx *c)
{
	(void)c;
	f->kind = FIELD_NA;
}

static void own_engine_version(struct field *f, const struct ctx *c)
{
	int en = (int)c->k->v[K_ENGINE];

	set_str(f,
	        en >= 0 && en < E_COUNT && engine_table[en] ? engine_table[en]->version() : NULL);
}

/* The fields that are neither a knob's value nor a metric, at their
 * positions among the knob and metric rows' (append-only). */
const struct own_field record_own_fields[] = {
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
	/* issue 22: what served a read step's queries */
	{ 74, "plan", "plan", "", -1, own_plan, { 0 }, -1 },
	{ 75, "index_served", "index served", "", -1, own_served, { 0 }, -1 },
	{ 82, "query_text", "query text", "", -1, own_query_text, { 0 }, -1 },
	{ 83, "cheapest", "cheapest", "", -1, own_cheapest, { 0 }, -1 },
	{ 89, "op_counts", "op counts", "", -1, own_op_list, { 0 }, -1 },
	{ 90, "op_ms", "op ms", "ms", -1, own_op_list, { 0 }, -1 },
	{ 91, "op_p50_ms", "op p50 ms", "ms", -1, own_op_list, { 0 }, -1 },
	{ 92, "op_p99_ms", "op p99 ms", "ms", -1, own_op_list, { 0 }, -1 },
	{ 93, "op_max_ms", "op max ms", "ms", -1, own_op_list, { 0 }, -1 },
	{ 94, "op_rows_per_query", "op rows/q", "", -1, own_op_list, { 0 }, -1 },
	{ 95, "op_examined_per_query", "op examined/q", "", -1, own_op_list, { 0 }, -1 },
	{ 96, "op_pages_read_per_query", "op pages/q", "", -1, own_op_list, { 0 }, -1 },
	{ 97, "op_per_s", "op per s", "", -1, own_op_list, { 0 }, -1 },
};
const int record_nown = (int)(sizeof record_own_fields / sizeof record_own_fields[0]);
