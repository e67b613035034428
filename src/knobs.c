/* knobs.c - the knob table (the master copy) and the questions asked of it:
 * lookup by name, defaults (per mode), ranges that depend on other knobs,
 * what needs a rebuild. knob_values.c parses, formats and steps a knob's
 * values. The table sits below the engines: they read it, it reads none of
 * them (an engine's own defaults and telling figure are in its ops, which
 * the layers above read through engines.c).
 *
 * Rows are in the order --help lists them; the first workload knob varies
 * slowest in a sweep. Defaults are text, parsed like user input, so a default
 * can never drift out of its own range. */
#include "knobs.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "metrics.h"
#include "mix.h"
#include "schema.h"
#include "units.h"
#include "whatif.h"

#define KNOBS_ENGINE_NAME(id, name, package) #name,
static const char *const engines[] = { ENGINE_LIST(KNOBS_ENGINE_NAME) NULL };
#undef KNOBS_ENGINE_NAME
static const char *const key_orders[] = { "seq", "rand", "few", "uuid7", "uuid4", NULL };
static const char *const pks[] = { "int", "uuid7", "uuid4", NULL };
static const char *const syncs[] = { "off", "normal", "full", "extra", NULL };
static const char *const journals[] = { "delete", "truncate", "wal", "memory", "off", NULL };
static const char *const ops[] = { "insert", "update", "update-indexed", "update-keys",
	                           "delete", "lookup", "range",          NULL };
static const char *const formats[] = { "text", "csv", "json", NULL };
static const char *const onoff[] = { "off", "on", NULL };
static const char *const builds[] = { "before", "after", NULL };
static const char *const loads[] = { "insert", "multirow", "copy", NULL };
static const char *const protocols[] = { "simple", "extended", "prepared", NULL };
static const char *const themes[] = { "auto", "dark", "light", "high-contrast", NULL };
static const struct knob_word commit_words[] = { { "row", 1 }, { "all", COMMIT_ALL }, { NULL, 0 } };
static const struct knob_word prefill_words[] = { { "auto", PREFILL_AUTO }, { NULL, 0 } };
static const struct knob_word indexes_words[] = { { "table", INDEXES_TABLE },
	                                          { "all", INDEXES_ALL },
	                                          { "without", INDEXES_WITHOUT },
	                                          { NULL, 0 } };

#define GiB (1024LL * 1024 * 1024)

/* --presenter-metrics: "auto", or up to three CSV field names. */
static int presenter_resolve(const char *text, long long *out, struct err *e)
{
	char buf[256], *tok, *save = NULL;
	long long packed = 0;
	int n = 0;

	if (strcmp(text, "auto") == 0) {
		*out = 0;
		return 0;
	}
	snprintf(buf, sizeof buf, "%s", text);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int m;

		for (m = 0; m < M_COUNT && strcmp(metric_table[m].field, tok) != 0; m++)
			;
		if (m == M_COUNT)
			return err_set(e, ERR_USAGE,
			               "'%s' is not a metric: give CSV field names (rows_per_s, "
			               "p99_ms, wal_bytes_per_row, ... - see OUTPUT FIELDS in "
			               "idxlab(1)), or auto",
			               tok);
		if (n == PRESENTER_MAX)
			return err_set(e, ERR_USAGE,
			               "at most %d metrics fit the presenter view, got '%s'",
			               PRESENTER_MAX, text);
		packed |= (long long)(m + 1) << (8 * n++);
	}
	if (!n)
		return err_set(e, ERR_USAGE, "no metric in '%s': give e.g. rows_per_s,p99_ms",
		               text);
	*out = packed;
	return 0;
}

int knobs_presenter_metric(long long packed, int i)
{
	int m = (int)((packed >> (8 * i)) & 0xff) - 1;

	return i < PRESENTER_MAX && m >= 0 && m < M_COUNT ? m : -1;
}

int knobs_presenter_figures(long long packed, int figure, int *ids)
{
	int n = 0;

	if (!packed) {
		ids[n++] = M_ROWS_PER_S;
		ids[n++] = figure; /* the per-row figure the engine's story turns on */
		return n;
	}
	while (n < PRESENTER_MAX && knobs_presenter_metric(packed, n) >= 0) {
		ids[n] = knobs_presenter_metric(packed, n);
		n++;
	}
	return n;
}

static const char *presenter_label(long long v)
{
	static char buf[128];
	size_t n = 0;
	int i;

	if (v == 0)
		return "auto";
	buf[0] = 0;
	for (i = 0; knobs_presenter_metric(v, i) >= 0 && n < sizeof buf; i++)
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", i ? "," : "",
		                      metric_table[knobs_presenter_metric(v, i)].field);
	return buf;
}

const struct knob_def knob_table[K_COUNT] = {
	[K_ENGINE] = {
		.name = "engine", .kind = KNOB_CHOICE, .choices = engines,
		.column = 1,
		.caption = 1,
		.def = ENGINE_DEFAULT, .flags = KF_FIXED,
		.why = "which database runs the workload (sqlite is embedded: nothing to set up)",
	},
	[K_DSN] = {
		.name = "dsn", .kind = KNOB_STRING,
		.def = "", .flags = KF_NOSWEEP | KF_FIXED,
		.why = "where: an SQLite file or WiredTiger directory idxlab created, a "
		       "PostgreSQL conninfo/URI or a mongodb:// URI (default: a throwaway one, "
		       "removed at exit)",
	},

	[K_INDEXES] = {
		.name = "indexes", .kind = KNOB_INT, .words = indexes_words,
		.column = 3,
		.caption = 6,
		.max = SCHEMA_IDX_MAX, .max_of = schema_index_max,
		.max_why = schema_max_why,
		.why_of = schema_indexes_why,
		.def = "0",
		.why = "secondary indexes: the first N of the table's index list (the default "
		       "table: k1..kN; table: its own, all: with --add-index's, without: less "
		       "--drop-index's); every one is another btree each row must enter",
	},

	[K_KEY_ORDER] = {
		.name = "key-order", .kind = KNOB_CHOICE, .choices = key_orders,
		.column = 4,
		.caption = 7,
		.def = "seq",
		.why = "values written to indexed columns: random keys land on cold leaf pages",
	},
	[K_PK] = {
		.name = "pk", .kind = KNOB_CHOICE, .choices = pks,
		.column = 5,
		.caption = 5,
		.def = "int", .flags = KF_REBUILD,
		.why = "primary key type; a uuid pk makes the SQLite table clustered (WITHOUT "
		       "ROWID)",
	},
	[K_CACHE] = {
		.name = "cache", .kind = KNOB_SIZE,
		.column = 6,
		.caption = 8,
		.min = 64 * 1024, .max = 64 * GiB, .unit = "bytes",
		.def = "2000KiB", .flags = KF_LOG,
		.why = "page cache size (SQLite cache_size, PostgreSQL shared_buffers, "
		       "WiredTiger/MongoDB cache_size): past it, dirty pages spill",
	},
	[K_FILLFACTOR] = {
		.name = "fillfactor", .kind = KNOB_INT,
		.column = 31,
		.caption = 9,
		.min = 10, .max = 100, .unit = "%",
		.def = "100", .flags = KF_ENGINE_OWN,
		.why = "% of each heap page filled by inserts: the rest keeps updates HOT (no "
		       "index entries)",
	},
	[K_CHECKPOINT] = {
		.name = "checkpoint", .kind = KNOB_INT,
		.column = 49, /* after vacuum_wal_bytes_per_row: appended (issue 20) */
		.caption = 10,
		.max = 3600, .unit = "s",
		.def = "60", .flags = KF_ENGINE_OWN,
		.why = "seconds between checkpoints, like mongod's 60 (0: only at the end)",
	},
	[K_COMMIT] = {
		.name = "commit", .kind = KNOB_INT, .words = commit_words,
		.column = 7,
		.caption = 11,
		.min = 1, .max = 1000000000, .unit = "rows",
		.def = "all", .dash_def = "1000", .flags = KF_LOG,
		.why = "rows per transaction (row|N|all): each commit pays fsyncs and a journal",
	},
	[K_SYNC] = {
		.name = "sync", .kind = KNOB_CHOICE, .choices = syncs,
		.column = 8,
		.caption = 12,
		.def = "full",
		.why = "durability: SQLite synchronous; PostgreSQL synchronous_commit (off, "
		       "else on); MongoDB write concern (off j:false, normal/full j:true, extra "
		       "w:majority); WiredTiger commit sync (off, else on)",
	},
	[K_JOURNAL] = {
		.name = "journal", .kind = KNOB_CHOICE, .choices = journals,
		.column = 9,
		.caption = 13,
		.def = "delete", .flags = KF_ENGINE_OWN,
		.why = "SQLite journal mode: a rollback journal or a write-ahead log",
	},
	[K_OP] = {
		.name = "op", .kind = KNOB_CHOICE, .choices = ops,
		.column = 2,
		.caption = 2,
		.def = "insert",
		.why = "what each row does: update changes the unindexed hot column, "
		       "update-indexed k1, update-keys every key column k1..k8; lookup runs the "
		       "table's queries (else = on its first index's column), range reads "
		       "range-rows rows in order",
	},


	[K_ROWS] = {
		.name = "rows", .kind = KNOB_INT,
		.caption = 3,
		.min = 1, .max = 1000000000, .unit = "rows",
		.def = "100000", .dash_def = "5000000", .flags = KF_HEADLESS | KF_LOG,
		.why = "operations measured in each step (dashboard: inserts start over at this "
		       "table size)",
	},
	[K_PREFILL] = {
		.name = "prefill", .kind = KNOB_INT, .words = prefill_words,
		.column = 32,
		.caption = 14,
		.max = 1000000000, .unit = "rows",
		.def = "auto", .flags = KF_REBUILD | KF_LOG,
		.why = "rows in the table before measuring (auto: 0 for insert, rows otherwise)",
	},
	[K_PAYLOAD] = {
		.name = "payload", .kind = KNOB_INT,
		.column = 33,
		.caption = 15,
		.max = 1048576, .unit = "bytes",
		.def = "100", .flags = KF_LOG,
		.why = "bytes of filler per row: wider rows fill table pages sooner",
	},
	[K_SEED] = {
		.name = "seed", .kind = KNOB_INT,
		.column = 34,
		.max = 0x7fffffffffffffffLL,
		.def = "1",
		.why = "random seed: the same seed writes the same rows in the same order",
	},	[K_SCHEMA] = {
		.name = "schema", .kind = KNOB_NAMED, .resolve = schema_load, .label = schema_label,
		.column = 41,
		.caption = 4,
		.def = "default", .flags = KF_REBUILD,
		.why = "the table: a built-in spec (default, users, textkey, wal, fields, wide16, "
		       "events) or a spec file's path - typed columns, value orders, the index list",
	},	[K_INDEX_BUILD] = {
		.name = "index-build", .kind = KNOB_CHOICE, .choices = builds,
		.column = 43,
		.caption = 16,
		.def = "before", .flags = KF_HEADLESS,
		.why = "after: load the rows with no secondary index, then build the indexes "
		       "inside the step (build_seconds): one sort instead of a btree insert per row",
	},	[K_LOAD] = {
		.name = "load", .kind = KNOB_CHOICE, .choices = loads,
		.column = 44,
		.caption = 17,
		.def = "insert", .flags = KF_HEADLESS,
		.why = "how inserted rows reach the engine: a statement per row, multi-row "
		       "statements, or its bulk path (PostgreSQL COPY, WiredTiger's bulk cursor, "
		       "MongoDB insert_many)",
	},	[K_VACUUM] = {
		.name = "vacuum", .kind = KNOB_BOOL,
		.column = 46,
		.caption = 18,
		.max = 1, .def = "off", .flags = KF_HEADLESS,
		.why = "end each step with the engine's reclaim (PostgreSQL VACUUM, SQLite VACUUM, "
		       "WiredTiger/MongoDB compact), measured apart: vacuum_seconds and its WAL per row",
	},
	[K_PROTOCOL] = {
		.name = "protocol", .kind = KNOB_CHOICE, .choices = protocols,
		.column = 50,
		.caption = 19,
		.def = "prepared", .flags = KF_HEADLESS | KF_ENGINE_OWN,
		.why = "PostgreSQL: how a statement per row is sent, as pgbench -M: simple (SQL "
		       "text with the values in it, as psql sends a file of INSERTs), extended "
		       "(text and parameters: parsed and planned each row), prepared (once)",
	},
	[K_PIPELINE] = {
		.name = "pipeline", .kind = KNOB_BOOL,
		.column = 51,
		.caption = 20,
		.max = 1, .def = "on", .flags = KF_HEADLESS | KF_ENGINE_OWN,
		.why = "PostgreSQL: on sends the statements back to back and reads their results "
		       "every 1000 (libpq's pipeline); off waits for each: a round trip per row",
	},
	[K_DURATION] = {
		.name = "duration", .kind = KNOB_MILLIS,
		.column = 57,
		.max = 86400 * 1000, .unit = "s",
		.def = "0", .flags = KF_HEADLESS,
		.why = "seconds a step runs at most, like pgbench -T (0: no limit); it ends at "
		       "--rows or at this time, whichever comes first (ended_by says which)",
	},
	[K_MISS] = {
		.name = "miss", .kind = KNOB_MILLIS,
		.column = 66,
		.max = 1000, .unit = "",
		.def = "0", .flags = KF_HEADLESS,
		.why = "op lookup/range: the share of queries (0..1) given a value no row holds, "
		       "so they find nothing (a boolean column's always finds rows)",
	},
	[K_RANGE_ROWS] = {
		.name = "range-rows", .kind = KNOB_INT,
		.column = 67,
		.min = 1, .max = 100000, .unit = "rows",
		.def = "100", .flags = KF_LOG | KF_HEADLESS,
		.why = "op range: rows each query reads, in the column's order from a value present",
	},
	[K_MIX] = {
		.name = "mix", .kind = KNOB_NAMED, .resolve = mix_resolve, .label = mix_label,
		.column = 76,
		.caption = 21,
		.range = "none, or OP:PCT,... adding to 100, a comma list (any ops, each once)",
		.def = "none", .flags = KF_NOSWEEP | KF_LIST | KF_HEADLESS,
		.why = "a mixed workload instead of one op: each operation drawn by weight "
		       "from the seed (insert:80,lookup:20); the step's op is the mix's",
	},
	[K_READ_SHARE] = {
		.name = "read-share", .kind = KNOB_INT,
		.column = 80,
		.caption = 22,
		.max = 100, .unit = "%",
		.def = "0",
		.why = "% of operations that are lookups beside a write op (--mix OP:100-N,"
		       "lookup:N): writes slow and reads speed up as indexes are added",
	},
	[K_QUERIES] = {
		.name = "queries", .kind = KNOB_NAMED,
		.resolve = schema_queries_resolve, .label = schema_queries_label,
		.column = 81,
		.range = "all, or the names of the table's query lines, a comma list",
		.def = "all", .flags = KF_NOSWEEP | KF_LIST | KF_HEADLESS,
		.why = "the table's query lines a lookup or range runs (by_email,recent): all, "
		       "one drawn at random per operation, or those named",
	},
	[K_ADD_INDEX] = {
		.name = "add-index", .kind = KNOB_NAMED,
		.resolve = whatif_resolve_add, .label = whatif_label,
		.range = "none, or COL[+COL...][:unique], a comma list; repeatable",
		.def = "none", .flags = KF_OPTION | KF_NOSWEEP | KF_LIST | KF_REPEAT | KF_FIXED,
		.why = "a candidate index, after the table's own in its list (indexes table,all "
		       "asks what it costs and the run's last lines answer); a+b: a composite",
	},
	[K_DROP_INDEX] = {
		.name = "drop-index", .kind = KNOB_NAMED,
		.resolve = whatif_resolve_drop, .label = whatif_label,
		.range = "none, or an index's name, a comma list; repeatable",
		.def = "none", .flags = KF_OPTION | KF_NOSWEEP | KF_LIST | KF_REPEAT | KF_FIXED,
		.why = "the reverse: the table's index NAME goes last in its own list, so "
		       "indexes without,table asks what it costs",
	},
	[K_FORMAT] = {
		.name = "format", .kind = KNOB_CHOICE, .choices = formats,
		.def = "text", .flags = KF_OPTION | KF_NOSWEEP | KF_FIXED,
		.why = "headless output: an aligned table, CSV or JSON lines",
	},
	[K_INTERVAL] = {
		.name = "interval", .kind = KNOB_MILLIS,
		.max = 3600 * 1000, .unit = "s",
		.def = "0", .flags = KF_OPTION | KF_NOSWEEP | KF_FIXED,
		.why = "also print a live record every S seconds (0: only one row per step)",
	},
	[K_INTERVAL_ROWS] = {
		.name = "interval-rows", .kind = KNOB_INT,
		.max = 1000000000, .unit = "rows",
		.def = "0", .flags = KF_OPTION | KF_NOSWEEP | KF_FIXED | KF_HEADLESS,
		.why = "also print a record every N rows of a step, with the rows in the table "
		       "then (table_rows): time per batch as a table grows (0: off)",
	},
	[K_SCALE] = {
		.name = "scale", .kind = KNOB_MILLIS,
		.min = 1, .max = 1000 * 1000, .unit = "x",
		.def = "1", .flags = KF_OPTION | KF_NOSWEEP | KF_FIXED | KF_HEADLESS,
		.why = "multiply every row count (rows, prefill, interval-rows; commit where it "
		       "equals interval-rows) and --duration by F: a preset at 0.1 for a quick "
		       "look",
	},
	[K_PROBES] = {
		.name = "probes", .kind = KNOB_CHOICE, .choices = onoff,
		.def = "on", .flags = KF_OPTION | KF_NOSWEEP | KF_FIXED,
		.why = "off skips the VFS shim, cache status and /proc reads (to measure their "
		       "cost)",
	},
	[K_WARMUP] = {
		.name = "warmup", .kind = KNOB_CHOICE, .choices = onoff,
		.def = "on", .flags = KF_OPTION | KF_NOSWEEP | KF_FIXED,
		.why = "headless: run the start of each engine's first step (a tenth of it, at "
		       "least 100 rows, at most 5 s), unmeasured, before it (the engine's "
		       "first-use costs)",
	},
	[K_REPEAT] = {
		.name = "repeat", .kind = KNOB_INT,
		.min = 1, .max = 1000, .unit = "runs",
		.def = "1", .flags = KF_OPTION | KF_NOSWEEP | KF_FIXED | KF_HEADLESS,
		.why = "headless: run each step N times, each on a fresh table, the steps' runs "
		       "interleaved; every figure is then the median of the runs, with their min "
		       "and max",
	},
	[K_PROGRESS] = {
		.name = "progress", .kind = KNOB_BOOL,
		.max = 1,
		.def = "off", .flags = KF_OPTION | KF_NOSWEEP | KF_FIXED | KF_HEADLESS,
		.why = "headless: a line on stderr at most once a second, `step 13/24 (sqlite, "
		       "indexes=3), 41 %, ETA 9 s` (on by itself when stderr is a terminal)",
	},
	[K_QUIET] = {
		.name = "quiet", .kind = KNOB_BOOL,
		.max = 1,
		.def = "off", .flags = KF_OPTION | KF_NOSWEEP | KF_FIXED | KF_HEADLESS,
		.why = "headless (-q): no events, warnings and progress on stderr, no \"wrote "
		       "FILE\"; errors still",
	},
	[K_VERBOSE] = {
		.name = "verbose", .kind = KNOB_BOOL,
		.max = 1,
		.def = "off", .flags = KF_OPTION | KF_NOSWEEP | KF_FIXED | KF_HEADLESS,
		.why = "headless (-v): the detail events too on stderr (the fsync+fdatasync calls "
		       "made while closing an engine, the warm-up's time)",
	},
	[K_REFRESH] = {
		.name = "refresh", .kind = KNOB_INT,
		.min = 50, .max = 10000, .unit = "ms",
		.def = "250", .flags = KF_OPTION | KF_NOSWEEP | KF_FIXED,
		.why = "dashboard: milliseconds between frames",
	},
	[K_ASCII] = {
		.name = "ascii", .kind = KNOB_BOOL,
		.max = 1,
		.def = "off", .flags = KF_OPTION | KF_NOSWEEP | KF_FIXED,
		.why = "dashboard: ASCII only (automatic when the locale is not UTF-8)",
	},
	[K_NO_COLOR] = {
		.name = "no-color", .kind = KNOB_BOOL,
		.max = 1,
		.def = "off", .flags = KF_OPTION | KF_NOSWEEP | KF_FIXED,
		.why = "dashboard: no colours (also when NO_COLOR is set)",
	},
	[K_NO_MOUSE] = {
		.name = "no-mouse", .kind = KNOB_BOOL,
		.max = 1,
		.def = "off", .flags = KF_OPTION | KF_NOSWEEP | KF_FIXED,
		.why = "dashboard: leave the mouse to the terminal (copy and paste)",
	},
	[K_PRESENTER] = {
		.name = "presenter", .kind = KNOB_BOOL,
		.max = 1,
		.def = "off", .flags = KF_OPTION | KF_NOSWEEP | KF_FIXED,
		.why = "dashboard: start in the presenter view - big figures, a big chart, the "
		       "caption (key v toggles it)",
	},
	[K_PRESENTER_METRICS] = {
		.name = "presenter-metrics", .kind = KNOB_NAMED,
		.resolve = presenter_resolve, .label = presenter_label,
		.range = "auto or 1 to 3 CSV field names, e.g. rows_per_s,wal_bytes_per_row",
		.def = "auto", .flags = KF_OPTION | KF_NOSWEEP | KF_FIXED | KF_LIST,
		.why = "dashboard: the presenter view's big figures, by CSV field name; the first "
		       "is also charted (auto: rows/s and the engine's telling per-row figure)",
	},
	[K_THEME] = {
		.name = "theme", .kind = KNOB_CHOICE, .choices = themes,
		.def = "auto", .flags = KF_OPTION | KF_NOSWEEP | KF_FIXED,
		.why = "dashboard: colours for a dark or a light background, or high-contrast "
		       "(a projector); auto reads COLORFGBG, else dark",
	},
	[K_AB_PERIOD] = {
		.name = "ab-period", .kind = KNOB_MILLIS,
		.min = 2000, .max = 3600 * 1000, .unit = "s",
		.def = "5", .flags = KF_OPTION | KF_NOSWEEP | KF_FIXED,
		.why = "dashboard: seconds each of A and B runs in turn in an A/B comparison (key a)",
	},
};

int knob_find(const char *name)
{
	int i;

	for (i = 0; i < K_COUNT; i++) {
		const char *a = knob_table[i].name, *b = name;

		while (*a && (*a == *b || (*a == '-' && *b == '_'))) {
			a++;
			b++;
		}
		if (!*a && !*b)
			return i;
	}
	return -1;
}

void knobs_defaults(struct knobs *k)
{
	int i;

	for (i = 0; i < K_COUNT; i++) {
		k->v[i] = 0;
		if (knob_table[i].kind != KNOB_STRING)
			(void)knob_parse(i, knob_table[i].def, &k->v[i], NULL);
	}
	k->dsn = "";
}

long long knobs_prefill(const struct knobs *k)
{
	unsigned char w[OP_COUNT];
	int op, more = 0;

	if (k->v[K_PREFILL] != PREFILL_AUTO)
		return k->v[K_PREFILL];
	/* a mix that reads, updates or deletes needs rows from the start;
	 * under read-share (the dashboard's slider) the inserts make them, and
	 * a lookup with no row yet inserts instead (txn.c) */
	mix_weights(k->v[K_MIX], w);
	for (op = OP_INSERT + 1; op < OP_COUNT; op++)
		more |= w[op];
	return k->v[K_OP] == OP_INSERT && !more ? 0 : k->v[K_ROWS];
}

const char *knob_why(int id, const struct knobs *k)
{
	const char *w = knob_table[id].why_of ? knob_table[id].why_of(k) : NULL;

	return w ? w : knob_table[id].why;
}

long long knob_max(int id, const struct knobs *k)
{
	return knob_table[id].max_of ? knob_table[id].max_of(k) : knob_table[id].max;
}

int knob_check(int id, long long v, const struct knobs *k, struct err *e)
{
	long long max = knob_max(id, k);

	if (!knob_table[id].max_of || v <= max)
		return 0;
	return err_set(e, ERR_USAGE, "%lld is out of range (valid: %lld..%lld) - %s", v,
	               knob_table[id].min, max, knob_table[id].max_why(k));
}

int knobs_check(const struct knobs *k, struct err *e)
{
	int id;

	for (id = 0; id < K_COUNT; id++)
		if (knob_check(id, k->v[id], k, e) < 0)
			return err_prefix(e, "%s", knob_table[id].name);
	return 0;
}

int knobs_need_rebuild(const struct knobs *a, const struct knobs *b)
{
	int id;

	for (id = 0; id < K_COUNT; id++)
		if (knob_table[id].flags & KF_REBUILD && a->v[id] != b->v[id])
			return 1;
	/* a payload column comes or goes (a `payload none` table) */
	if (schema_has_payload(schema_of(a), a) != schema_has_payload(schema_of(b), b))
		return 1;
	/* an `unindexed` id's btree comes or goes with op insert */
	if (schema_id_indexed(schema_of(a), a) != schema_id_indexed(schema_of(b), b))
		return 1;
	return (a->v[K_KEY_ORDER] >= KO_UUID7) != (b->v[K_KEY_ORDER] >= KO_UUID7);
}

void knobs_dash_defaults(struct knobs *k, const int *set)
{
	int id;

	for (id = 0; id < K_COUNT; id++)
		if (knob_table[id].dash_def && (!set || !set[id]))
			(void)knob_parse(id, knob_table[id].dash_def, &k->v[id], NULL);
}

int knobs_same_workload(const struct knobs *a, const struct knobs *b)
{
	int id;

	for (id = 0; id < K_COUNT; id++)
		if (!(knob_table[id].flags & KF_OPTION) && knob_table[id].kind != KNOB_STRING &&
		    a->v[id] != b->v[id])
			return 0;
	return 1;
}
