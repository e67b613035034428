/* knobs.c - the knob table and the parsing/formatting it drives.
 *
 * Rows are in the order --help lists them; the first workload knob varies
 * slowest in a sweep. Defaults are text, parsed like user input, so a default
 * can never drift out of its own range. */
#include "knobs.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engines/engine.h"
#include "metrics.h"
#include "schema.h"
#include "units.h"

#define KNOBS_ENGINE_NAME(id, name, package) #name,
static const char *const engines[] = { ENGINE_LIST(KNOBS_ENGINE_NAME) NULL };
#undef KNOBS_ENGINE_NAME
static const char *const key_orders[] = { "seq", "rand", "few", "uuid7", "uuid4", NULL };
static const char *const pks[] = { "int", "uuid7", "uuid4", NULL };
static const char *const syncs[] = { "off", "normal", "full", "extra", NULL };
static const char *const journals[] = { "delete", "truncate", "wal", "memory", "off", NULL };
static const char *const ops[] = { "insert",      "update", "update-indexed",
	                           "update-keys", "delete", NULL };
static const char *const formats[] = { "text", "csv", "json", NULL };
static const char *const onoff[] = { "off", "on", NULL };
static const char *const builds[] = { "before", "after", NULL };
static const char *const loads[] = { "insert", "multirow", "copy", NULL };
static const char *const themes[] = { "auto", "dark", "light", "high-contrast", NULL };
static const struct knob_word commit_words[] = { { "row", 1 }, { "all", COMMIT_ALL }, { NULL, 0 } };
static const struct knob_word prefill_words[] = { { "auto", PREFILL_AUTO }, { NULL, 0 } };

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
		.name = "indexes", .kind = KNOB_INT,
		.max = SCHEMA_IDX_MAX, .max_of = schema_index_max,
		.max_why = schema_max_why,
		.def = "0",
		.why = "secondary indexes: the first N of the table's index list (the default "
		       "table: k1..kN); every one is another btree each row must enter",
	},

	[K_KEY_ORDER] = {
		.name = "key-order", .kind = KNOB_CHOICE, .choices = key_orders,
		.def = "seq",
		.why = "values written to indexed columns: random keys land on cold leaf pages",
	},
	[K_PK] = {
		.name = "pk", .kind = KNOB_CHOICE, .choices = pks,
		.def = "int", .flags = KF_REBUILD,
		.why = "primary key type; a uuid pk makes the SQLite table clustered (WITHOUT "
		       "ROWID)",
	},
	[K_CACHE] = {
		.name = "cache", .kind = KNOB_SIZE,
		.min = 64 * 1024, .max = 64 * GiB, .unit = "bytes",
		.def = "2000KiB", .flags = KF_LOG,
		.why = "page cache size (SQLite cache_size, PostgreSQL shared_buffers, "
		       "WiredTiger/MongoDB cache_size): past it, dirty pages spill",
	},
	[K_FILLFACTOR] = {
		.name = "fillfactor", .kind = KNOB_INT,
		.min = 10, .max = 100, .unit = "%",
		.def = "100", .flags = KF_ENGINE_OWN,
		.why = "% of each heap page filled by inserts: the rest keeps updates HOT (no "
		       "index entries)",
	},
	[K_CHECKPOINT] = {
		.name = "checkpoint", .kind = KNOB_INT,
		.max = 3600, .unit = "s",
		.def = "60", .flags = KF_ENGINE_OWN,
		.why = "seconds between checkpoints, like mongod's 60 (0: only at the end)",
	},
	[K_COMMIT] = {
		.name = "commit", .kind = KNOB_INT, .words = commit_words,
		.min = 1, .max = 1000000000, .unit = "rows",
		.def = "all", .dash_def = "1000", .flags = KF_LOG,
		.why = "rows per transaction (row|N|all): each commit pays fsyncs and a journal",
	},
	[K_SYNC] = {
		.name = "sync", .kind = KNOB_CHOICE, .choices = syncs,
		.def = "full",
		.why = "durability: SQLite synchronous; PostgreSQL synchronous_commit (off, "
		       "else on); MongoDB write concern (off j:false, normal/full j:true, extra "
		       "w:majority); WiredTiger commit sync (off, else on)",
	},
	[K_JOURNAL] = {
		.name = "journal", .kind = KNOB_CHOICE, .choices = journals,
		.def = "delete", .flags = KF_ENGINE_OWN,
		.why = "SQLite journal mode: a rollback journal or a write-ahead log",
	},
	[K_OP] = {
		.name = "op", .kind = KNOB_CHOICE, .choices = ops,
		.def = "insert",
		.why = "what each row does: update changes the unindexed hot column, "
		       "update-indexed k1, update-keys every key column k1..k8",
	},


	[K_ROWS] = {
		.name = "rows", .kind = KNOB_INT,
		.min = 1, .max = 1000000000, .unit = "rows",
		.def = "100000", .dash_def = "5000000", .flags = KF_HEADLESS | KF_LOG,
		.why = "operations measured in each step (dashboard: inserts start over at this "
		       "table size)",
	},
	[K_PREFILL] = {
		.name = "prefill", .kind = KNOB_INT, .words = prefill_words,
		.max = 1000000000, .unit = "rows",
		.def = "auto", .flags = KF_REBUILD | KF_LOG,
		.why = "rows in the table before measuring (auto: 0 for insert, rows otherwise)",
	},
	[K_PAYLOAD] = {
		.name = "payload", .kind = KNOB_INT,
		.max = 1048576, .unit = "bytes",
		.def = "100", .flags = KF_LOG,
		.why = "bytes of filler per row: wider rows fill table pages sooner",
	},
	[K_SEED] = {
		.name = "seed", .kind = KNOB_INT,
		.max = 0x7fffffffffffffffLL,
		.def = "1",
		.why = "random seed: the same seed writes the same rows in the same order",
	},	[K_SCHEMA] = {
		.name = "schema", .kind = KNOB_NAMED, .resolve = schema_load, .label = schema_label,
		.def = "default", .flags = KF_REBUILD,
		.why = "the table: a built-in spec (default, users, textkey, wal, fields, wide16, "
		       "events) or a spec file's path - typed columns, value orders, the index list",
	},	[K_INDEX_BUILD] = {
		.name = "index-build", .kind = KNOB_CHOICE, .choices = builds,
		.def = "before", .flags = KF_HEADLESS,
		.why = "after: load the rows with no secondary index, then build the indexes "
		       "inside the step (build_seconds): one sort instead of a btree insert per row",
	},	[K_LOAD] = {
		.name = "load", .kind = KNOB_CHOICE, .choices = loads,
		.def = "insert", .flags = KF_HEADLESS,
		.why = "how inserted rows reach the engine: a statement per row, multi-row "
		       "statements, or its bulk path (PostgreSQL COPY, WiredTiger's bulk cursor, "
		       "MongoDB insert_many)",
	},	[K_VACUUM] = {
		.name = "vacuum", .kind = KNOB_BOOL,
		.max = 1, .def = "off", .flags = KF_HEADLESS,
		.why = "end each step with the engine's reclaim (PostgreSQL VACUUM, SQLite VACUUM, "
		       "WiredTiger/MongoDB compact), measured apart: vacuum_seconds and its WAL per row",
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
		       "equals interval-rows) by F: a preset at 0.1 for a quick look",
	},
	[K_PROBES] = {
		.name = "probes", .kind = KNOB_CHOICE, .choices = onoff,
		.def = "on", .flags = KF_OPTION | KF_NOSWEEP | KF_FIXED,
		.why = "off skips the VFS shim, cache status and /proc reads (to measure their "
		       "cost)",
	},
	[K_WARMUP] = {
		.name = "warmup", .kind = KNOB_CHOICE, .choices = onoff,
		.def = "off", .flags = KF_OPTION | KF_NOSWEEP | KF_FIXED,
		.why = "headless: run each engine's first step once, unmeasured, before it (the "
		       "first step after opening an engine also pays for growing its heap and "
		       "journal files)",
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
		.why = "headless (-q): no events, warnings and progress on stderr; errors still",
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

void knob_range_text(int id, char *buf, size_t len)
{
	const struct knob_def *d = &knob_table[id];
	size_t n = 0;
	int i;

	buf[0] = 0;
	switch (d->kind) {
	case KNOB_CHOICE:
		for (i = 0; d->choices[i] && n < len; i++)
			n +=
			    (size_t)snprintf(buf + n, len - n, "%s%s", i ? "|" : "", d->choices[i]);
		break;
	case KNOB_INT:
		for (i = 0; d->words && d->words[i].word && n < len; i++)
			n += (size_t)snprintf(buf + n, len - n, "%s|", d->words[i].word);
		if (n < len && d->max_of) /* the max depends on other knobs */
			snprintf(buf + n, len - n, "%lld..%lld (%s)", d->min, knob_max(id, NULL),
			         d->max_why(NULL));
		else if (n < len)
			snprintf(buf + n, len - n, "%lld..%lld", d->min, d->max);
		break;
	case KNOB_SIZE: {
		char lo[32], hi[32];

		units_format_size(d->min, lo, sizeof lo);
		units_format_size(d->max, hi, sizeof hi);
		snprintf(buf, len, "%s..%s", lo, hi);
		break;
	}
	case KNOB_MILLIS:
		snprintf(buf, len, "%g..%g%s", d->min / 1000.0, d->max / 1000.0,
		         strcmp(d->unit, "s") == 0 ? " seconds" : "");
		break;
	case KNOB_STRING:
		snprintf(buf, len, "text");
		break;
	case KNOB_BOOL:
		snprintf(buf, len, "on|off");
		break;
	case KNOB_NAMED:
		if (d->range) {
			snprintf(buf, len, "%s", d->range);
			break;
		}
		for (i = 0; d->label(i) && i < 16 && n < len; i++)
			n += (size_t)snprintf(buf + n, len - n, "%s|", d->label(i));
		if (n < len)
			snprintf(buf + n, len - n, "FILE");
		break;
	}
}

int knob_parse(int id, const char *text, long long *out, struct err *e)
{
	const struct knob_def *d = &knob_table[id];
	char range[160];
	long long v = 0;
	int i;

	if (d->max_of) /* the table in force is not known yet: no default's range */
		snprintf(range, sizeof range, "%lld up to the table's number of indexes", d->min);
	else
		knob_range_text(id, range, sizeof range);
	switch (d->kind) {
	case KNOB_CHOICE:
		for (i = 0; d->choices[i]; i++) {
			if (strcmp(text, d->choices[i]) == 0) {
				*out = i;
				return 0;
			}
		}
		return err_set(e, ERR_USAGE, "'%s' is not one of %s", text, range);
	case KNOB_INT:
		for (i = 0; d->words && d->words[i].word; i++) {
			if (strcmp(text, d->words[i].word) == 0) {
				*out = d->words[i].value;
				return 0;
			}
		}
		if (units_parse_int(text, &v) < 0)
			return err_set(e, ERR_USAGE, "'%s' is not a whole number (valid: %s)", text,
			               range);
		break;
	case KNOB_SIZE:
		if (units_parse_size(text, &v) < 0)
			return err_set(
			    e, ERR_USAGE,
			    "'%s' is not a size (write e.g. 512KiB, 64MiB, 1GiB; valid: %s)", text,
			    range);
		break;
	case KNOB_MILLIS:
		if (units_parse_seconds(text, &v) < 0)
			return err_set(e, ERR_USAGE, "'%s' is not a number%s (valid: %s)", text,
			               strcmp(d->unit, "s") == 0 ? " of seconds" : "", range);
		break;
	case KNOB_STRING:
		*out = 0;
		return 0;
	case KNOB_NAMED:
		return d->resolve(text, out, e);
	case KNOB_BOOL: {
		static const char *const yes[] = { "on", "yes", "true", "1" };
		static const char *const no[] = { "off", "no", "false", "0" };

		for (i = 0; i < 4; i++) {
			if (strcmp(text, yes[i]) == 0 || strcmp(text, no[i]) == 0) {
				*out = strcmp(text, yes[i]) == 0;
				return 0;
			}
		}
		return err_set(e, ERR_USAGE, "'%s' is not on or off", text);
	}
	}
	/* A max that depends on the other knobs (indexes: the table in force)
	 * is knob_check's to judge: a range named here would be the default
	 * table's. */
	if (v < d->min || (v > d->max && !d->max_of))
		return err_set(e, ERR_USAGE, "%s is out of range (valid: %s)", text, range);
	*out = v;
	return 0;
}

void knob_format(int id, long long v, char *buf, size_t len)
{
	const struct knob_def *d = &knob_table[id];
	int i;

	switch (d->kind) {
	case KNOB_CHOICE:
		snprintf(buf, len, "%s", d->choices[v]);
		return;
	case KNOB_INT:
		for (i = 0; d->words && d->words[i].word; i++) {
			if (d->words[i].value == v) {
				snprintf(buf, len, "%s", d->words[i].word);
				return;
			}
		}
		snprintf(buf, len, "%lld", v);
		return;
	case KNOB_SIZE:
		units_format_size(v, buf, len);
		return;
	case KNOB_MILLIS:
		snprintf(buf, len, "%g", v / 1000.0);
		return;
	case KNOB_STRING:
		snprintf(buf, len, "%s", "");
		return;
	case KNOB_BOOL:
		snprintf(buf, len, "%s", v ? "on" : "off");
		return;
	case KNOB_NAMED:
		snprintf(buf, len, "%s", d->label(v) ? d->label(v) : "?");
		return;
	}
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
	if (k->v[K_PREFILL] != PREFILL_AUTO)
		return k->v[K_PREFILL];
	return k->v[K_OP] == OP_INSERT ? 0 : k->v[K_ROWS];
}

/* The values a choice or a named knob's slider runs over. */
static long long choice_count(const struct knob_def *d)
{
	long long count = 0;

	while (d->kind == KNOB_NAMED ? d->label(count) != NULL : d->choices[count] != NULL)
		count++;
	return count;
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

/* Log-scale knobs step by x2 (x16 for a page); "all" sits above max and
 * "auto" below min. Linear knobs step by 1 (by a tenth of the range). */
long long knob_step(int id, const struct knobs *k, long long v, int dir, int big)
{
	const struct knob_def *d = &knob_table[id];
	long long n, max = knob_max(id, k);

	switch (d->kind) {
	case KNOB_CHOICE:
	case KNOB_NAMED: {
		long long count = choice_count(d);

		n = v + dir * (big ? count : 1);
		return n < 0 ? 0 : n >= count ? count - 1 : n;
	}
	case KNOB_BOOL:
		return dir > 0;
	case KNOB_STRING:
	case KNOB_MILLIS:
		return v;
	case KNOB_INT:
	case KNOB_SIZE:
		break;
	}
	if (id == K_COMMIT && v == COMMIT_ALL)
		v = max * 2; /* "all" is past the largest batch */
	if (id == K_PREFILL && v == PREFILL_AUTO)
		v = 0;
	if (d->flags & KF_LOG) {
		long long f = big ? 16 : 2;

		if (dir > 0)
			n = v <= 0 ? (d->min > 0 ? d->min : 1) : v > max / f ? max + 1 : v * f;
		else
			n = v / f;
	} else {
		long long stepv = big ? (max - d->min + 9) / 10 : 1;

		n = v + dir * stepv;
	}
	if (id == K_COMMIT && n > max)
		return COMMIT_ALL;
	if (n > max)
		n = max;
	if (n < d->min)
		n = d->min;
	return n;
}

double knob_position(int id, const struct knobs *k, long long v)
{
	const struct knob_def *d = &knob_table[id];
	long long max = knob_max(id, k);
	double lo, hi, x;

	if (d->kind == KNOB_CHOICE || d->kind == KNOB_NAMED) {
		long long count = choice_count(d);

		return count > 1 ? (double)v / (double)(count - 1) : 0;
	}
	if (d->kind == KNOB_STRING || d->kind == KNOB_BOOL || d->kind == KNOB_MILLIS)
		return d->kind == KNOB_BOOL ? (double)v : 0;
	if (id == K_COMMIT && v == COMMIT_ALL)
		return 1;
	if (id == K_PREFILL && v == PREFILL_AUTO)
		return 0;
	if (max <= d->min)
		return 0;
	if (d->flags & KF_LOG) {
		lo = log((double)(d->min > 0 ? d->min : 1));
		hi = log((double)max);
		x = v > 0 ? (log((double)v) - lo) / (hi - lo) : 0;
	} else {
		x = (double)(v - d->min) / (double)(max - d->min);
	}
	return x < 0 ? 0 : x > 1 ? 1 : x;
}

long long knob_at_position(int id, const struct knobs *k, double pos)
{
	const struct knob_def *d = &knob_table[id];
	long long v, max = knob_max(id, k);

	if (pos < 0)
		pos = 0;
	if (pos > 1)
		pos = 1;
	if (d->kind == KNOB_CHOICE || d->kind == KNOB_NAMED) {
		long long count = choice_count(d);

		return llround(pos * (double)(count - 1));
	}
	if (id == K_COMMIT && pos >= 0.999)
		return COMMIT_ALL;
	if (d->flags & KF_LOG) {
		double lo = log((double)(d->min > 0 ? d->min : 1)), hi = log((double)max);

		v = llround(exp(lo + pos * (hi - lo)));
		if (d->kind == KNOB_SIZE) /* whole KiB: what a cache size is set in */
			v = (v + 512) / 1024 * 1024;
	} else {
		v = d->min + llround(pos * (double)(max - d->min));
	}
	return v < d->min ? d->min : v > max ? max : v;
}

int knobs_need_rebuild(const struct knobs *a, const struct knobs *b)
{
	int id;

	for (id = 0; id < K_COUNT; id++)
		if (knob_table[id].flags & KF_REBUILD && a->v[id] != b->v[id])
			return 1;
	return (a->v[K_KEY_ORDER] >= KO_UUID7) != (b->v[K_KEY_ORDER] >= KO_UUID7);
}

void knobs_engine_defaults(struct knobs *k, const int *set)
{
	const struct engine_ops *en =
	    k->v[K_ENGINE] >= 0 && k->v[K_ENGINE] < E_COUNT ? engine_table[k->v[K_ENGINE]] : NULL;
	const struct knob_default *d;

	for (d = en ? en->defaults : NULL; d && d->def; d++)
		if (!set || !set[d->knob])
			(void)knob_parse(d->knob, d->def, &k->v[d->knob], NULL);
}

void knobs_dash_defaults(struct knobs *k, const int *set)
{
	int id;

	for (id = 0; id < K_COUNT; id++)
		if (knob_table[id].dash_def && (!set || !set[id]))
			(void)knob_parse(id, knob_table[id].dash_def, &k->v[id], NULL);
}

void knob_default_text(int id, char *buf, size_t len)
{
	const struct knob_default *d;
	size_t n;
	int i;

	n = (size_t)snprintf(buf, len, "[default %s",
	                     *knob_table[id].def ? knob_table[id].def : "(none)");
	if (knob_table[id].dash_def && n < len)
		n += (size_t)snprintf(buf + n, len - n, "; dashboard: %s", knob_table[id].dash_def);
	for (i = 0; i < E_COUNT; i++)
		for (d = engine_table[i] ? engine_table[i]->defaults : NULL; d && d->def && n < len;
		     d++)
			if (d->knob == id)
				n += (size_t)snprintf(buf + n, len - n, "; %s: %s",
				                      knob_table[K_ENGINE].choices[i], d->def);
	if (n < len)
		snprintf(buf + n, len - n, "]");
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
