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
static const struct knob_word commit_words[] = { { "row", 1 }, { "all", COMMIT_ALL }, { NULL, 0 } };
static const struct knob_word prefill_words[] = { { "auto", PREFILL_AUTO }, { NULL, 0 } };

#define GiB (1024LL * 1024 * 1024)

const struct knob_def knob_table[K_COUNT] = {
	[K_ENGINE] = { "engine", KNOB_CHOICE, 0, 0, engines, NULL, "sqlite", "", ENG_ALL, KF_FIXED,
	               "which database runs the workload (sqlite is embedded: nothing to set up)" },
	[K_DSN] = { "dsn", KNOB_STRING, 0, 0, NULL, NULL, "", "", ENG_ALL, KF_NOSWEEP | KF_FIXED,
	            "where: an SQLite file or WiredTiger directory idxlab created, a PostgreSQL "
	            "conninfo/URI or a mongodb:// URI (default: a throwaway one, removed at "
	            "exit)" },
	[K_INDEXES] = { "indexes", KNOB_INT, 0, 8, NULL, NULL, "0", "", ENG_ALL, 0,
	                "secondary indexes on k1..kN: every one is another btree each row must "
	                "enter" },
	[K_KEY_ORDER] = { "key-order", KNOB_CHOICE, 0, 0, key_orders, NULL, "seq", "", ENG_ALL, 0,
	                  "values written to indexed columns: random keys land on cold leaf "
	                  "pages" },
	[K_PK] = { "pk", KNOB_CHOICE, 0, 0, pks, NULL, "int", "", ENG_ALL, KF_REBUILD,
	           "primary key type; a uuid pk makes the SQLite table clustered (WITHOUT ROWID)" },
	[K_CACHE] = { "cache", KNOB_SIZE, 64 * 1024, 64 * GiB, NULL, NULL, "2000KiB", "bytes",
	              ENG_ALL, KF_LOG,
	              "page cache size (SQLite cache_size, PostgreSQL shared_buffers, "
	              "WiredTiger/MongoDB cache_size): past it, dirty pages spill" },
	[K_FILLFACTOR] = { "fillfactor", KNOB_INT, 10, 100, NULL, NULL, "100", "%", ENG_POSTGRES, 0,
	                   "% of each heap page filled by inserts: the rest keeps updates HOT "
	                   "(no index entries)" },
	[K_CHECKPOINT] = { "checkpoint", KNOB_INT, 0, 3600, NULL, NULL, "60", "s", ENG_WIREDTIGER,
	                   0,
	                   "seconds between checkpoints, like mongod's 60 (0: only at the end)" },
	[K_COMMIT] = { "commit", KNOB_INT, 1, 1000000000, NULL, commit_words, "all", "rows",
	               ENG_ALL, KF_LOG,
	               "rows per transaction (row|N|all): each commit pays fsyncs and a journal" },
	[K_SYNC] = { "sync", KNOB_CHOICE, 0, 0, syncs, NULL, "full", "", ENG_ALL, 0,
	             "durability: SQLite synchronous; PostgreSQL synchronous_commit (off, else "
	             "on); "
	             "MongoDB write concern (off j:false, normal/full j:true, extra w:majority); "
	             "WiredTiger commit sync (off, else on)" },
	[K_JOURNAL] = { "journal", KNOB_CHOICE, 0, 0, journals, NULL, "delete", "", ENG_SQLITE, 0,
	                "SQLite journal mode: a rollback journal or a write-ahead log" },
	[K_OP] = { "op", KNOB_CHOICE, 0, 0, ops, NULL, "insert", "", ENG_ALL, 0,
	           "what each row does: update changes the unindexed hot column, update-indexed "
	           "k1, update-keys every key column k1..k8" },
	[K_ROWS] = { "rows", KNOB_INT, 1, 1000000000, NULL, NULL, "100000", "rows", ENG_ALL,
	             KF_HEADLESS | KF_LOG,
	             "operations measured in each step (dashboard: inserts start over at this "
	             "table size)" },
	[K_PREFILL] = { "prefill", KNOB_INT, 0, 1000000000, NULL, prefill_words, "auto", "rows",
	                ENG_ALL, KF_REBUILD | KF_LOG,
	                "rows in the table before measuring (auto: 0 for insert, rows otherwise)" },
	[K_PAYLOAD] = { "payload", KNOB_INT, 0, 1048576, NULL, NULL, "100", "bytes", ENG_ALL,
	                KF_LOG, "bytes of filler per row: wider rows fill table pages sooner" },
	[K_SEED] = { "seed", KNOB_INT, 0, 0x7fffffffffffffffLL, NULL, NULL, "1", "", ENG_ALL, 0,
	             "random seed: the same seed writes the same rows in the same order" },
	[K_FORMAT] = { "format", KNOB_CHOICE, 0, 0, formats, NULL, "text", "", ENG_ALL,
	               KF_OPTION | KF_NOSWEEP | KF_FIXED,
	               "headless output: an aligned table, CSV or JSON lines" },
	[K_INTERVAL] = { "interval", KNOB_MILLIS, 0, 3600 * 1000, NULL, NULL, "0", "s", ENG_ALL,
	                 KF_OPTION | KF_NOSWEEP | KF_FIXED,
	                 "also print a live record every S seconds (0: only one row per step)" },
	[K_PROBES] = { "probes", KNOB_CHOICE, 0, 0, onoff, NULL, "on", "", ENG_ALL,
	               KF_OPTION | KF_NOSWEEP | KF_FIXED,
	               "off skips the VFS shim, cache status and /proc reads (to measure their "
	               "cost)" },
	[K_WARMUP] = { "warmup", KNOB_CHOICE, 0, 0, onoff, NULL, "off", "", ENG_ALL,
	               KF_OPTION | KF_NOSWEEP | KF_FIXED,
	               "headless: run each engine's first step once, unmeasured, before it (the "
	               "first step after opening an engine also pays for growing its heap and "
	               "journal files)" },
	[K_REFRESH] = { "refresh", KNOB_INT, 50, 10000, NULL, NULL, "250", "ms", ENG_ALL,
	                KF_OPTION | KF_NOSWEEP | KF_FIXED,
	                "dashboard: milliseconds between frames" },
	[K_ASCII] = { "ascii", KNOB_BOOL, 0, 1, NULL, NULL, "off", "", ENG_ALL,
	              KF_OPTION | KF_NOSWEEP | KF_FIXED,
	              "dashboard: ASCII only (automatic when the locale is not UTF-8)" },
	[K_NO_COLOR] = { "no-color", KNOB_BOOL, 0, 1, NULL, NULL, "off", "", ENG_ALL,
	                 KF_OPTION | KF_NOSWEEP | KF_FIXED,
	                 "dashboard: no colours (also when NO_COLOR is set)" },
	[K_NO_MOUSE] = { "no-mouse", KNOB_BOOL, 0, 1, NULL, NULL, "off", "", ENG_ALL,
	                 KF_OPTION | KF_NOSWEEP | KF_FIXED,
	                 "dashboard: leave the mouse to the terminal (copy and paste)" },
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
		if (n < len)
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
		snprintf(buf, len, "%g..%g seconds", d->min / 1000.0, d->max / 1000.0);
		break;
	case KNOB_STRING:
		snprintf(buf, len, "text");
		break;
	case KNOB_BOOL:
		snprintf(buf, len, "on|off");
		break;
	}
}

int knob_parse(int id, const char *text, long long *out, struct err *e)
{
	const struct knob_def *d = &knob_table[id];
	char range[160];
	long long v = 0;
	int i;

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
			return err_set(e, ERR_USAGE, "'%s' is not a number of seconds (valid: %s)",
			               text, range);
		break;
	case KNOB_STRING:
		*out = 0;
		return 0;
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
	if (v < d->min || v > d->max)
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

/* Log-scale knobs step by x2 (x16 for a page); "all" sits above max and
 * "auto" below min. Linear knobs step by 1 (by a tenth of the range). */
long long knob_step(int id, long long v, int dir, int big)
{
	const struct knob_def *d = &knob_table[id];
	long long n;

	switch (d->kind) {
	case KNOB_CHOICE: {
		long long count = 0;

		while (d->choices[count])
			count++;
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
		v = d->max * 2; /* "all" is past the largest batch */
	if (id == K_PREFILL && v == PREFILL_AUTO)
		v = 0;
	if (d->flags & KF_LOG) {
		long long f = big ? 16 : 2;

		if (dir > 0)
			n = v <= 0           ? (d->min > 0 ? d->min : 1)
			    : v > d->max / f ? d->max + 1
			                     : v * f;
		else
			n = v / f;
	} else {
		long long stepv = big ? (d->max - d->min + 9) / 10 : 1;

		n = v + dir * stepv;
	}
	if (id == K_COMMIT && n > d->max)
		return COMMIT_ALL;
	if (n > d->max)
		n = d->max;
	if (n < d->min)
		n = d->min;
	return n;
}

double knob_position(int id, long long v)
{
	const struct knob_def *d = &knob_table[id];
	double lo, hi, x;

	if (d->kind == KNOB_CHOICE) {
		long long count = 0;

		while (d->choices[count])
			count++;
		return count > 1 ? (double)v / (double)(count - 1) : 0;
	}
	if (d->kind == KNOB_STRING || d->kind == KNOB_BOOL || d->kind == KNOB_MILLIS)
		return d->kind == KNOB_BOOL ? (double)v : 0;
	if (id == K_COMMIT && v == COMMIT_ALL)
		return 1;
	if (id == K_PREFILL && v == PREFILL_AUTO)
		return 0;
	if (d->max <= d->min)
		return 0;
	if (d->flags & KF_LOG) {
		lo = log((double)(d->min > 0 ? d->min : 1));
		hi = log((double)d->max);
		x = v > 0 ? (log((double)v) - lo) / (hi - lo) : 0;
	} else {
		x = (double)(v - d->min) / (double)(d->max - d->min);
	}
	return x < 0 ? 0 : x > 1 ? 1 : x;
}

long long knob_at_position(int id, double pos)
{
	const struct knob_def *d = &knob_table[id];
	long long v;

	if (pos < 0)
		pos = 0;
	if (pos > 1)
		pos = 1;
	if (d->kind == KNOB_CHOICE) {
		long long count = 0;

		while (d->choices[count])
			count++;
		return llround(pos * (double)(count - 1));
	}
	if (id == K_COMMIT && pos >= 0.999)
		return COMMIT_ALL;
	if (d->flags & KF_LOG) {
		double lo = log((double)(d->min > 0 ? d->min : 1)), hi = log((double)d->max);

		v = llround(exp(lo + pos * (hi - lo)));
		if (d->kind == KNOB_SIZE) /* whole KiB: what a cache size is set in */
			v = (v + 512) / 1024 * 1024;
	} else {
		v = d->min + llround(pos * (double)(d->max - d->min));
	}
	return v < d->min ? d->min : v > d->max ? d->max : v;
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

void knob_default_text(int id, char *buf, size_t len)
{
	const struct knob_default *d;
	size_t n;
	int i;

	n = (size_t)snprintf(buf, len, "[default %s",
	                     *knob_table[id].def ? knob_table[id].def : "(none)");
	for (i = 0; i < E_COUNT; i++)
		for (d = engine_table[i] ? engine_table[i]->defaults : NULL; d && d->def && n < len;
		     d++)
			if (d->knob == id)
				n += (size_t)snprintf(buf + n, len - n, "; %s: %s",
				                      knob_table[K_ENGINE].choices[i], d->def);
	if (n < len)
		snprintf(buf + n, len - n, "]");
}
