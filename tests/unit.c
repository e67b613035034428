/* unit.c - unit tests of the pure pieces: knobs, units, config files,
 * metrics maths, the /proc io parser, the histogram and the key generator.
 * Prints PASS/FAIL lines per test for tests/run.sh. argv[1]: fixtures dir. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/wait.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "evlog.h"
#include "recording.h"
#include "redact.h"
#include "engines/engine.h"
#include "engines/fstree.h"
#include "engines/rowset.h"
#include "engines/spawn.h"
#include "engines/tmpdir.h"
#include "engines/txn.h"
#include "keys.h"
#include "knobs.h"
#include "metrics.h"
#include "probes/proc.h"
#include "probes/proc_io.h"
#include "ui/dash.h"
#include "ui/history.h"
#include "ui/input.h"
#include "ui/layout.h"
#include "ui/spark.h"
#include "units.h"
#include "unit.h"

int failed_checks;
const char *fixtures = "tests/fixtures";

static void test_units(void)
{
	long long v = 0;
	char buf[64];

	CHECK(units_parse_size("2MiB", &v) == 0 && v == 2097152);
	CHECK(units_parse_size("1GiB", &v) == 0 && v == 1073741824LL);
	CHECK(units_parse_size("1gib", &v) == 0 && v == 1073741824LL);
	CHECK(units_parse_size("2000KiB", &v) == 0 && v == 2048000);
	/* kB, MB, GB as PostgreSQL means them: 1024-based */
	CHECK(units_parse_size("10MB", &v) == 0 && v == 10485760);
	CHECK(units_parse_size("512kB", &v) == 0 && v == 524288);
	CHECK(units_parse_size("2GB", &v) == 0 && v == 2147483648LL);
	units_format_size(524288, buf, sizeof buf);
	CHECK(strcmp(buf, "512KiB") == 0);
	/* row counts */
	CHECK(units_parse_count("100k", &v) == 0 && v == 100000);
	CHECK(units_parse_count("1M", &v) == 0 && v == 1000000);
	CHECK(units_parse_count("1e6", &v) == 0 && v == 1000000);
	CHECK(units_parse_count("1.5M", &v) == 0 && v == 1500000);
	CHECK(units_parse_count("1.001k", &v) == 0 && v == 1001);
	CHECK(units_parse_count("2G", &v) == 0 && v == 2000000000LL);
	CHECK(units_parse_count("42", &v) == 0 && v == 42);
	CHECK(units_parse_count("1.5", &v) < 0);
	CHECK(units_parse_count("0x10", &v) < 0);
	CHECK(units_parse_count("1k5", &v) < 0);
	CHECK(units_parse_count("1e", &v) < 0);
	CHECK(units_parse_count("k", &v) < 0);
	CHECK(units_parse_count("1e30", &v) < 0);
	CHECK(units_parse_count("", &v) < 0);
	CHECK(units_parse_size("1.5KiB", &v) == 0 && v == 1536);
	CHECK(units_parse_size("4096", &v) == 0 && v == 4096);
	CHECK(units_parse_size("2 MiB", &v) == 0 && v == 2097152);
	CHECK(units_parse_size("", &v) < 0);
	CHECK(units_parse_size("MiB", &v) < 0);
	CHECK(units_parse_size("-1MiB", &v) < 0);
	CHECK(units_parse_size("2XB", &v) < 0);
	CHECK(units_parse_size("0.3B", &v) < 0);
	CHECK(units_parse_size("99999999TiB", &v) < 0);
	units_format_size(2097152, buf, sizeof buf);
	CHECK(strcmp(buf, "2MiB") == 0);
	units_format_size(2048000, buf, sizeof buf);
	CHECK(strcmp(buf, "2000KiB") == 0);
	units_format_size(1000, buf, sizeof buf);
	CHECK(strcmp(buf, "1000B") == 0);
	CHECK(units_parse_int("12", &v) == 0 && v == 12);
	CHECK(units_parse_int("12x", &v) < 0);
	CHECK(units_parse_int("99999999999999999999", &v) < 0);
	CHECK(units_parse_int(" 1", &v) < 0);
	CHECK(units_parse_seconds("0.5", &v) == 0 && v == 500);
	CHECK(units_parse_seconds("2s", &v) == 0 && v == 2000);
	CHECK(units_parse_seconds("2m", &v) < 0);
	units_human(1234, "", buf, sizeof buf);
	CHECK(strcmp(buf, "1.23k") == 0);
	units_human(999, "", buf, sizeof buf);
	CHECK(strcmp(buf, "999") == 0);
	units_human(3.4 * 1024 * 1024, "B", buf, sizeof buf);
	CHECK(strcmp(buf, "3.40 MiB") == 0);
	units_human(870e-6, "s", buf, sizeof buf);
	CHECK(strcmp(buf, "870 us") == 0);
	units_human(0.0013, "s", buf, sizeof buf);
	CHECK(strcmp(buf, "1.30 ms") == 0);
	units_human(NAN, "", buf, sizeof buf);
	CHECK(strcmp(buf, "n/a") == 0);
}

static void test_knobs(void)
{
	struct err e = { ERR_NONE, "" };
	struct knobs k;
	long long v = -5;
	char buf[64];

	CHECK(knob_find("key-order") == K_KEY_ORDER);
	CHECK(knob_find("key_order") == K_KEY_ORDER);
	CHECK(knob_find("nope") < 0);
	CHECK(knob_parse(K_INDEXES, "8", &v, &e) == 0 && v == 8);
	CHECK(knob_parse(K_INDEXES, "9", &v, &e) == 0 && v == 9); /* a table may have 9 */
	CHECK(knob_check(K_INDEXES, 9, NULL, &e) < 0 && e.cls == ERR_USAGE); /* the default: 8 */
	CHECK(strstr(e.msg, "0..8") != NULL && strstr(e.msg, "the default table has 8 indexes"));
	CHECK(knob_parse(K_INDEXES, "-1", &v, &e) < 0);
	CHECK(knob_parse(K_INDEXES, "two", &v, &e) < 0);
	CHECK(knob_parse(K_COMMIT, "row", &v, &e) == 0 && v == 1);
	CHECK(knob_parse(K_COMMIT, "all", &v, &e) == 0 && v == COMMIT_ALL);
	CHECK(knob_parse(K_COMMIT, "1000", &v, &e) == 0 && v == 1000);
	CHECK(knob_parse(K_COMMIT, "0", &v, &e) < 0);
	CHECK(knob_parse(K_KEY_ORDER, "uuid7", &v, &e) == 0 && v == KO_UUID7);
	CHECK(knob_parse(K_KEY_ORDER, "random", &v, &e) < 0 && strstr(e.msg, "seq|rand"));
	CHECK(knob_parse(K_CACHE, "1GiB", &v, &e) == 0 && v == 1073741824LL);
	CHECK(knob_parse(K_CACHE, "1KiB", &v, &e) < 0 && strstr(e.msg, "out of range"));
	CHECK(knob_parse(K_CACHE, "lots", &v, &e) < 0 && strstr(e.msg, "not a size"));
	CHECK(knob_parse(K_PREFILL, "auto", &v, &e) == 0 && v == PREFILL_AUTO);
	CHECK(knob_parse(K_INTERVAL, "0.25", &v, &e) == 0 && v == 250);
	knob_format(K_COMMIT, 1, buf, sizeof buf);
	CHECK(strcmp(buf, "row") == 0);
	knob_format(K_COMMIT, 500, buf, sizeof buf);
	CHECK(strcmp(buf, "500") == 0);
	knob_format(K_CACHE, 2048000, buf, sizeof buf);
	CHECK(strcmp(buf, "2000KiB") == 0);
	knobs_defaults(&k);
	CHECK(k.v[K_INDEXES] == 0 && k.v[K_CACHE] == 2048000 && k.v[K_COMMIT] == COMMIT_ALL);
	CHECK(knobs_prefill(&k) == 0);
	k.v[K_OP] = OP_UPDATE;
	CHECK(knobs_prefill(&k) == k.v[K_ROWS]);
	/* Every default parses within its own range. */
	for (int i = 0; i < K_COUNT; i++)
		if (knob_table[i].kind != KNOB_STRING)
			CHECK(knob_parse(i, knob_table[i].def, &v, &e) == 0);
}

/* Which engines honour which knob: the answer knob_table[].engines gave
 * before the engine-specific knobs moved into the engines' ops
 * (engine_ops.own_knobs). One row per knob, one column per engine in
 * ENGINE_LIST order: sqlite, postgres, mongo, wiredtiger. An engine that is
 * not built honours none of the engine-specific knobs. */
static void test_knob_engines(void)
{
	static const signed char was[K_COUNT][4] = {
		[K_ENGINE] = { 1, 1, 1, 1 },
		[K_DSN] = { 1, 1, 1, 1 },
		[K_INDEXES] = { 1, 1, 1, 1 },
		[K_KEY_ORDER] = { 1, 1, 1, 1 },
		[K_PK] = { 1, 1, 1, 1 },
		[K_CACHE] = { 1, 1, 1, 1 },
		[K_FILLFACTOR] = { 0, 1, 0, 0 },
		[K_CHECKPOINT] = { 0, 0, 0, 1 },
		[K_COMMIT] = { 1, 1, 1, 1 },
		[K_SYNC] = { 1, 1, 1, 1 },
		[K_JOURNAL] = { 1, 0, 0, 0 },
		[K_OP] = { 1, 1, 1, 1 },
		[K_ROWS] = { 1, 1, 1, 1 },
		[K_PREFILL] = { 1, 1, 1, 1 },
		[K_PAYLOAD] = { 1, 1, 1, 1 },
		[K_SEED] = { 1, 1, 1, 1 },
		[K_FORMAT] = { 1, 1, 1, 1 },
		[K_INTERVAL] = { 1, 1, 1, 1 },
		[K_PROBES] = { 1, 1, 1, 1 },
		[K_WARMUP] = { 1, 1, 1, 1 },
		[K_REPEAT] = { 1, 1, 1, 1 },
		[K_PROGRESS] = { 1, 1, 1, 1 },
		[K_QUIET] = { 1, 1, 1, 1 },
		[K_VERBOSE] = { 1, 1, 1, 1 },
		[K_REFRESH] = { 1, 1, 1, 1 },
		[K_ASCII] = { 1, 1, 1, 1 },
		[K_NO_COLOR] = { 1, 1, 1, 1 },
		[K_NO_MOUSE] = { 1, 1, 1, 1 },
		/* the table model's knobs (issue 11): every engine */
		[K_SCHEMA] = { 1, 1, 1, 1 },
		[K_INDEX_BUILD] = { 1, 1, 1, 1 },
		[K_LOAD] = { 1, 1, 1, 1 },
		[K_VACUUM] = { 1, 1, 1, 1 },
		[K_INTERVAL_ROWS] = { 1, 1, 1, 1 },
		[K_SCALE] = { 1, 1, 1, 1 },
		/* the presenter view and themes (issue 12): every engine */
		[K_PRESENTER] = { 1, 1, 1, 1 },
		[K_PRESENTER_METRICS] = { 1, 1, 1, 1 },
		[K_THEME] = { 1, 1, 1, 1 },
		/* the question as a verb (issue 19): every engine */
		[K_ADD_INDEX] = { 1, 1, 1, 1 },
		[K_DROP_INDEX] = { 1, 1, 1, 1 },
	};
	static const int column[4] = { E_SQLITE, E_POSTGRES, E_MONGO, E_WIREDTIGER };
	int id, j;

	CHECK(E_COUNT == 4);
	for (id = 0; id < K_COUNT; id++)
		for (j = 0; j < 4; j++) {
			int kind = column[j], own = (knob_table[id].flags & KF_ENGINE_OWN) != 0;
			int want = engine_table[kind] || !own ? was[id][j] : 0;

			if (engine_has_knob(kind, id) != want) {
				printf("  %s on %s: %d, was %d\n", knob_table[id].name,
				       knob_table[K_ENGINE].choices[kind],
				       engine_has_knob(kind, id), want);
				failed_checks++;
			}
		}
	/* a knob only some engines honour is flagged so */
	for (id = 0; id < K_COUNT; id++)
		CHECK((knob_table[id].flags & KF_ENGINE_OWN) ||
		      was[id][0] + was[id][1] + was[id][2] + was[id][3] == 4);
	CHECK(!engine_has_knob(-1, K_CACHE) && !engine_has_knob(E_COUNT, K_CACHE));
	CHECK(!engine_has_knob(E_SQLITE, -1) && !engine_has_knob(E_SQLITE, K_COUNT));
}

/* The metrics each engine can measure, from its statistics table
 * (engine_measures, metric_needs): the dashboard's rows. Columns: sqlite,
 * postgres, mongo, wiredtiger; 0 where the engine has no such counter. */
static void test_metric_engines(void)
{
	static const struct {
		int m;
		signed char on[4];
	} only[] = {
		{ M_FPI_BYTES_PER_ROW, { 0, 1, 0, 0 } },      /* pg_walinspect */
		{ M_HOT_PCT, { 0, 1, 0, 0 } },                /* pg_stat_user_tables */
		{ M_DB_WRITE_BYTES_PER_ROW, { 1, 0, 0, 1 } }, /* their own file writes */
		{ M_CACHE_DIRTY_PCT, { 0, 1, 1, 1 } },        /* SQLite keeps no count */
		{ M_CHECKPOINT_IN_WINDOW, { 0, 1, 1, 1 } },   /* not a dashboard row */
	};
	static const int column[4] = { E_SQLITE, E_POSTGRES, E_MONGO, E_WIREDTIGER };
	int m, j;
	size_t i;

	for (m = 0; m < M_COUNT; m++)
		for (j = 0; j < 4; j++) {
			int want = 1, got;

			if (!engine_table[column[j]])
				continue; /* not built: every row (a replay's) */
			for (i = 0; i < sizeof only / sizeof only[0]; i++)
				if (only[i].m == m)
					want = only[i].on[j];
			got = (metric_needs(m) & ~engine_measures(column[j])) == 0;
			if (got != want) {
				printf("  %s on %s: %d, want %d\n", metric_table[m].field,
				       knob_table[K_ENGINE].choices[column[j]], got, want);
				failed_checks++;
			}
		}
	CHECK(engine_measures(-1) == ~0u && engine_measures(E_COUNT) == ~0u);
	CHECK(metric_needs(M_P99_MS) == 0 && metric_needs(M_DB_BYTES) == 0);
	CHECK(metric_needs(M_HOT_PCT) == (1u << C_HOT_UPDATES | 1u << C_UPDATES));
	/* every metric titles its --plot panel; a rate's ticks say what per second */
	for (m = 0; m < M_COUNT; m++)
		if (!metric_table[m].title || !*metric_table[m].title ||
		    (metric_table[m].kind == MK_RATE) != (metric_table[m].per_s != NULL)) {
			printf("  %s: no --plot title, or per_s not on exactly the rates\n",
			       metric_table[m].field);
			failed_checks++;
		}
}

char *tmp_path(char *out, size_t len, const char *name)
{
	const char *dir = getenv("TMPDIR");

	if (!dir || !*dir)
		dir = "/tmp";
	if ((size_t)snprintf(out, len, "%s/%s", dir, name) >= len) {
		CHECK(0);
		out[0] = '\0';
	}
	return out;
}

static char *write_file(const char *text)
{
	static char path[PATH_MAX];
	char name[64];
	FILE *f;

	snprintf(name, sizeof name, "idxlab-unit-%d.conf", (int)getpid());
	tmp_path(path, sizeof path, name);
	f = fopen(path, "w");
	if (!f)
		return NULL;
	fputs(text, f);
	fclose(f);
	return path;
}

static int load(const char *text, struct plan *p, struct err *e)
{
	char *path = write_file(text);
	char *argv[] = { (char *)"idxlab", (char *)"run", (char *)"-c", path, NULL };
	int rc = plan_from_args(p, 4, argv, e);

	unlink(path);
	return rc;
}

static void test_config(void)
{
	struct plan p;
	struct err e = { ERR_NONE, "" };
	struct knobs k;

	CHECK(load("# a comment\n\nindexes = 0,1,3 # three steps\nkey-order=seq,rand\n"
	           "cache = 1GiB\ndsn = /tmp/x#y.db\n",
	           &p, &e) == 0);
	CHECK(p.steps == 6);
	CHECK(p.n[K_INDEXES] == 3 && p.vals[K_INDEXES][2] == 3);
	CHECK(strcmp(p.dsn, "/tmp/x#y.db") == 0);
	plan_step(&p, 0, &k);
	CHECK(k.v[K_INDEXES] == 0 && k.v[K_KEY_ORDER] == KO_SEQ);
	plan_step(&p, 1, &k);
	CHECK(k.v[K_INDEXES] == 0 && k.v[K_KEY_ORDER] == KO_RAND);
	plan_step(&p, 5, &k);
	CHECK(k.v[K_INDEXES] == 3 && k.v[K_KEY_ORDER] == KO_RAND && k.v[K_CACHE] == 1073741824LL);
	plan_free(&p);

	CHECK(load("indexes = 1\n\nindexs = 2\n", &p, &e) < 0 && e.cls == ERR_USAGE);
	CHECK(strstr(e.msg, ":3: unknown key 'indexs'") && strstr(e.msg, "did you mean 'indexes'"));
	plan_free(&p);
	CHECK(load("rows = 10\nindexes = 9\n", &p, &e) < 0);
	CHECK(strstr(e.msg, ":2: indexes: 9 is out of range (valid: 0..8)") != NULL);
	plan_free(&p);
	CHECK(load("just words\n", &p, &e) < 0 && strstr(e.msg, ":1: expected 'key = value'"));
	plan_free(&p);
	CHECK(load("format = csv,json\n", &p, &e) < 0 && strstr(e.msg, "not a list"));
	plan_free(&p);
	CHECK(load("op = delete\nrows = 10\nprefill = 5\n", &p, &e) < 0 &&
	      strstr(e.msg, "exceeds prefill"));
	plan_free(&p);
	/* An empty list item is refused, not skipped. */
	CHECK(load("rows = 10\nindexes = 1,,2\n", &p, &e) < 0 &&
	      strstr(e.msg, ":2: indexes: an empty item in the list '1,,2'"));
	plan_free(&p);
	CHECK(load("indexes = ,1\n", &p, &e) < 0 && strstr(e.msg, "an empty item"));
	plan_free(&p);
	CHECK(load("indexes = 1,2\n", &p, &e) == 0 && p.n[K_INDEXES] == 2);
	plan_free(&p);
	/* A control character: refused in a dsn, escaped in every message. */
	CHECK(load("dsn = /tmp/a\033b.db\n", &p, &e) < 0 && strstr(e.msg, "'/tmp/a\\x1bb.db'") &&
	      strstr(e.msg, "control character") && !strchr(e.msg, '\033'));
	plan_free(&p);
	CHECK(load("key-order = seq\rx\n", &p, &e) < 0 && strstr(e.msg, "'seq\\rx' is not one of"));
	plan_free(&p);
	{
		/* A NUL byte is said as such, not as a line too long. */
		char *path = write_file("");
		FILE *f = fopen(path, "w");
		char *argv[] = { (char *)"idxlab", (char *)"-c", path, NULL };

		fwrite("rows = 5\nindexes = 1\0\n", 1, 22, f);
		fclose(f);
		CHECK(plan_from_args(&p, 3, argv, &e) < 0 && strstr(e.msg, ":2: a NUL byte") &&
		      !strstr(e.msg, "too long"));
		plan_free(&p);
		unlink(path);
	}
	{
		char buf[16];
		struct err x;

		err_escape("a\nb\tc\001", buf, sizeof buf);
		CHECK(strcmp(buf, "a\\nb\\tc\\x01") == 0);
		err_escape("abc\n", buf, 5); /* cut, never half an escape */
		CHECK(strcmp(buf, "abc") == 0);
		err_set(&x, ERR_USAGE, "bad '%s'", "x\ny");
		CHECK(strcmp(x.msg, "bad 'x\\ny'") == 0);
		err_prefix(&x, "%s:%d", "f\n", 3);
		CHECK(strcmp(x.msg, "f\\n:3: bad 'x\\ny'") == 0);
	}
	{
		char *argv[] = { (char *)"idxlab", (char *)"run", (char *)"-c",
			         (char *)"/nonexistent/idxlab.conf", NULL };

		CHECK(plan_from_args(&p, 4, argv, &e) < 0 && strstr(e.msg, "cannot read config"));
		plan_free(&p);
	}
	{
		/* The command line overrides the file. */
		char *path = write_file("indexes = 4\nrows = 7\n");
		char *argv[] = { (char *)"idxlab",      (char *)"-c",      path,
			         (char *)"--indexes=2", (char *)"--bogus", NULL };

		CHECK(plan_from_args(&p, 4, argv, &e) == 0);
		CHECK(p.vals[K_INDEXES][0] == 2 && p.vals[K_ROWS][0] == 7);
		plan_free(&p);
		CHECK(plan_from_args(&p, 5, argv, &e) < 0 &&
		      strstr(e.msg, "unknown option '--bogus'"));
		plan_free(&p);
		unlink(path);
	}
}

static void test_metrics(void)
{
	struct counters a, b;
	struct hist h;
	struct window w = { &a, &b, &h, NULL };
	struct mval v;

	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	memset(&h, 0, sizeof h);
	v = metrics_ratio(10, 0);
	CHECK(v.state == MV_UNSETTLED);
	v = metrics_ratio(10, 4);
	CHECK(v.state == MV_OK && v.v == 2.5);
	a.valid = b.valid = (1u << C_ROWS) | (1u << C_COMMITS) | (1u << C_FSYNCS);
	a.t = 10;
	b.t = 12;
	b.v[C_ROWS] = 1000;
	b.v[C_FSYNCS] = 40;
	/* No commit in the window: per-commit figures are not settled, never 0. */
	v = metric_compute(M_FSYNCS_PER_COMMIT, &w);
	CHECK(v.state == MV_UNSETTLED);
	v = metric_compute(M_P50_MS, &w);
	CHECK(v.state == MV_UNSETTLED);
	b.v[C_COMMITS] = 10;
	v = metric_compute(M_FSYNCS_PER_COMMIT, &w);
	CHECK(v.state == MV_OK && v.v == 4.0);
	v = metric_compute(M_ROWS_PER_S, &w);
	CHECK(v.state == MV_OK && v.v == 500.0);
	/* Not measured: n/a, never 0. */
	v = metric_compute(M_SPILLS_PER_ROW, &w);
	CHECK(v.state == MV_NA);
	v = metric_compute(M_DB_BYTES, &w);
	CHECK(v.state == MV_NA);
	/* A zero-length window. */
	b.t = a.t;
	v = metric_compute(M_ROWS_PER_S, &w);
	CHECK(v.state == MV_UNSETTLED);
	/* No rows: per-row is unsettled. */
	b.v[C_ROWS] = 0;
	b.valid |= 1u << C_SPILLS;
	a.valid |= 1u << C_SPILLS;
	v = metric_compute(M_SPILLS_PER_ROW, &w);
	CHECK(v.state == MV_UNSETTLED);
	/* Gauges: the later sample's value, not a difference; a share needs its
	 * denominator measured, and one of 0 is not settled. */
	a.v[C_CACHE_USED] = 900;
	b.v[C_CACHE_USED] = 300;
	b.v[C_CACHE_DIRTY] = 75;
	a.valid |= 1u << C_CACHE_USED | 1u << C_CACHE_DIRTY;
	b.valid |= 1u << C_CACHE_USED | 1u << C_CACHE_DIRTY;
	v = metric_compute(M_CACHE_BYTES, &w);
	CHECK(v.state == MV_OK && v.v == 300);
	v = metric_compute(M_CACHE_DIRTY_PCT, &w);
	CHECK(v.state == MV_NA);
	a.valid |= 1u << C_CACHE_MAX;
	b.valid |= 1u << C_CACHE_MAX;
	v = metric_compute(M_CACHE_DIRTY_PCT, &w);
	CHECK(v.state == MV_UNSETTLED);
	b.v[C_CACHE_MAX] = 1000;
	v = metric_compute(M_CACHE_DIRTY_PCT, &w);
	CHECK(v.state == MV_OK && v.v == 7.5);
}

static void test_hist(void)
{
	struct hist h, h2, d;
	uint64_t i;
	double p50, p99;

	memset(&h, 0, sizeof h);
	CHECK(isnan(hist_quantile(&h, 0.5)));
	for (i = 1; i <= 1000; i++)
		hist_add(&h, i * 1000); /* 1 us .. 1 ms */
	p50 = hist_quantile(&h, 0.5);
	p99 = hist_quantile(&h, 0.99);
	CHECK(fabs(p50 - 500000) / 500000 < 0.0625);
	CHECK(fabs(p99 - 990000) / 990000 < 0.0625);
	CHECK(h.max_ns == 1000000);
	CHECK(hist_quantile(&h, 1.0) <= 1000000);
	/* Exact small values. */
	memset(&h2, 0, sizeof h2);
	hist_add(&h2, 3);
	hist_add(&h2, 3);
	hist_add(&h2, 7);
	CHECK(hist_quantile(&h2, 0.5) == 3);
	CHECK(hist_quantile(&h2, 1.0) == 7);
	/* A window: only what was added after the first copy. */
	h2 = h;
	for (i = 0; i < 100; i++)
		hist_add(&h, 5000000); /* 5 ms */
	hist_delta(&h, &h2, &d);
	CHECK(d.n == 100);
	CHECK(fabs(hist_quantile(&d, 0.5) - 5e6) / 5e6 < 0.0625);
	/* Huge values land in the last bucket, not out of bounds. */
	hist_add(&h, UINT64_MAX);
	CHECK(h.max_ns == UINT64_MAX);
}

/* Read fixture file name into buf; 0 or -1. */
static int read_fixture(const char *name, char *buf, size_t len)
{
	char path[512];
	size_t n;
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", fixtures, name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	buf[n] = 0;
	fclose(f);
	return 0;
}

static void test_proc_io(void)
{
	struct proc_io io;
	char buf[1024];

	CHECK(read_fixture("proc_io_full.txt", buf, sizeof buf) == 0);
	CHECK(proc_io_parse(buf, &io) == 0);
	CHECK(io.wchar == 323929600ULL && io.write_bytes == 323932160ULL);
	CHECK(read_fixture("proc_io_nowrite.txt", buf, sizeof buf) == 0);
	CHECK(proc_io_parse(buf, &io) < 0); /* write_bytes missing */
	CHECK(read_fixture("proc_io_big.txt", buf, sizeof buf) == 0);
	CHECK(proc_io_parse(buf, &io) == 0);
	CHECK(io.wchar == UINT64_MAX && io.write_bytes == 9223372036854775808ULL);
	/* "cancelled_write_bytes" must not be mistaken for "write_bytes". */
	CHECK(proc_io_parse("cancelled_write_bytes: 5\nwchar: 1\n", &io) < 0);
	CHECK(proc_io_read(0, &io) == 0);
}

static void test_keys(void)
{
	unsigned char a[KEYS_UUID_LEN], b[KEYS_UUID_LEN];
	uint64_t *s, i, sum = 0;
	int sorted = 1;

	CHECK(keys_int(1, KO_RAND, 1, 42, 0) == keys_int(1, KO_RAND, 1, 42, 0));
	CHECK(keys_int(1, KO_RAND, 1, 42, 0) != keys_int(2, KO_RAND, 1, 42, 0));
	CHECK(keys_int(1, KO_RAND, 1, 42, 0) != keys_int(1, KO_RAND, 2, 42, 0));
	CHECK(keys_int(1, KO_RAND, 1, 42, 0) != keys_int(1, KO_RAND, 1, 42, 1));
	CHECK(keys_int(1, KO_SEQ, 1, 5, 0) < keys_int(1, KO_SEQ, 1, 6, 0));
	CHECK(keys_int(1, KO_FEW, 3, 99, 0) >= 0 && keys_int(1, KO_FEW, 3, 99, 0) < KEYS_FEW);
	keys_uuid(1, 1, 0, 100, 0, a);
	keys_uuid(1, 1, 0, 100000, 0, b);
	CHECK(memcmp(a, b, KEYS_UUID_LEN) < 0); /* uuid7: later rows sort later */
	CHECK((a[6] >> 4) == 7 && (a[8] >> 6) == 2);
	keys_uuid(1, 0, 0, 100, 0, a);
	CHECK((a[6] >> 4) == 4 && (a[8] >> 6) == 2);
	s = keys_shuffle(7, 1000);
	CHECK(s != NULL);
	if (!s)
		return;
	for (i = 0; i < 1000; i++) {
		sum += s[i];
		if (i && s[i] < s[i - 1])
			sorted = 0;
	}
	CHECK(sum == 999 * 1000 / 2 && !sorted);
	free(s);
}

static void test_spark(void)
{
	double vals[] = { 0, 1, 2, 4, 8, NAN, 7.99 };
	char buf[128];

	CHECK(spark_level(0, 8) == 0);
	CHECK(spark_level(8, 8) == SPARK_LEVELS - 1);
	CHECK(spark_level(100, 8) == SPARK_LEVELS - 1); /* clamped */
	CHECK(spark_level(4, 8) == 4);
	CHECK(spark_level(NAN, 8) == -1);
	CHECK(spark_level(3, 0) == SPARK_LEVELS - 1);
	CHECK(spark_level(0, 0) == 0);
	CHECK(strcmp(spark_glyph(0, 0), "\u2581") == 0 && strcmp(spark_glyph(7, 0), "\u2588") == 0);
	CHECK(strcmp(spark_glyph(-1, 0), " ") == 0);
	spark_render(vals, 7, 8, 1, buf, sizeof buf);
	CHECK(strcmp(buf, "_.:=# #") == 0);
	spark_render(vals, 7, 8, 0, buf, sizeof buf);
	CHECK(strlen(buf) == 6 * 3 + 1); /* six 3-byte blocks and one blank */
	spark_render(vals, 7, 8, 0, buf, 5);
	CHECK(strlen(buf) == 3); /* never a partial glyph */
	CHECK(spark_nice(0) == 0 && spark_nice(-3) == 0);
	CHECK(spark_nice(1) == 1 && spark_nice(1.5) == 2 && spark_nice(3) == 5 &&
	      spark_nice(7) == 10);
	CHECK(spark_nice(0.0042) > 0.00499 && spark_nice(0.0042) < 0.00501);
	CHECK(spark_nice(123456) == 200000);
	CHECK(gauge_cells(5, 10, 8) == 4);
	CHECK(gauge_cells(10, 10, 8) == 8 && gauge_cells(20, 10, 8) == 8);
	CHECK(gauge_cells(0.001, 10, 8) == 1); /* nonzero always shows */
	CHECK(gauge_cells(0, 10, 8) == 0 && gauge_cells(NAN, 10, 8) == 0 &&
	      gauge_cells(3, 0, 8) == 0);
}

static void test_slider(void)
{
	struct knobs a, b;
	char buf[160];

	CHECK(knob_step(K_INDEXES, NULL, 0, 1, 0) == 1 && knob_step(K_INDEXES, NULL, 8, 1, 0) == 8);
	CHECK(knob_step(K_INDEXES, NULL, 0, -1, 0) == 0);
	CHECK(knob_step(K_CACHE, NULL, 2048000, 1, 0) == 4096000);
	CHECK(knob_step(K_CACHE, NULL, 65536, -1, 0) == 65536);
	CHECK(knob_step(K_COMMIT, NULL, 1, 1, 0) == 2 && knob_step(K_COMMIT, NULL, 1, -1, 0) == 1);
	CHECK(knob_step(K_COMMIT, NULL, COMMIT_ALL, -1, 0) == 1000000000);
	CHECK(knob_step(K_COMMIT, NULL, 1000000000, 1, 0) == COMMIT_ALL);
	CHECK(knob_step(K_KEY_ORDER, NULL, KO_SEQ, 1, 0) == KO_RAND &&
	      knob_step(K_KEY_ORDER, NULL, KO_SEQ, -1, 0) == KO_SEQ);
	CHECK(knob_step(K_PREFILL, NULL, PREFILL_AUTO, 1, 0) == 1);
	CHECK(knob_position(K_INDEXES, NULL, 4) == 0.5);
	CHECK(knob_position(K_COMMIT, NULL, COMMIT_ALL) == 1);
	CHECK(knob_at_position(K_INDEXES, NULL, 0.5) == 4);
	CHECK(knob_at_position(K_KEY_ORDER, NULL, 1) == KO_UUID4);
	CHECK(knob_at_position(K_CACHE, NULL, knob_position(K_CACHE, NULL, 1073741824LL)) ==
	      1073741824LL);
	knobs_defaults(&a);
	b = a;
	CHECK(!knobs_need_rebuild(&a, &b));
	b.v[K_KEY_ORDER] = KO_RAND;
	b.v[K_INDEXES] = 3;
	CHECK(!knobs_need_rebuild(&a, &b));
	b.v[K_KEY_ORDER] = KO_UUID4;
	CHECK(knobs_need_rebuild(&a, &b));
	b = a;
	b.v[K_PK] = PK_UUID7;
	CHECK(knobs_need_rebuild(&a, &b));
	b = a;
	b.v[K_INDEXES] = 2;
	dash_change_label(&a, &b, 1, buf, sizeof buf);
	CHECK(strcmp(buf, "+2 idx") == 0);
	b.v[K_CACHE] = 1073741824LL;
	b.v[K_COMMIT] = 1000;
	dash_change_label(&a, &b, 1, buf, sizeof buf);
	CHECK(strcmp(buf, "+2 idx, cache 2000KiB -> 1GiB, commit all -> 1000") == 0);
	dash_change_label(&a, &a, 0, buf, sizeof buf);
	CHECK(buf[0] == 0);
	{
		static const struct {
			double v, base;
			const char *text;
		} ratios[] = {
			{ 20.2e3, 244e3, "0.08x" },
			{ 105, 240e3, "<0.001x" }, /* clamped */
			{ 1, 240, "0.004x" },
			{ 175889, 1, ">999x" }, /* clamped */
			{ 999.4, 1, "999x" },
			{ 0, 240e3, "0.00x" },
			{ 9.99, 1, "9.99x" },
			{ 217.4, 1, "217x" },
			{ 0.57, 0, "from 0" },
			{ 0, 0, "-" },
			{ NAN, 3, "-" },
			{ 3, NAN, "-" },
		};
		size_t i;

		for (i = 0; i < sizeof ratios / sizeof ratios[0]; i++) {
			dash_format_ratio(ratios[i].v, ratios[i].base, buf, sizeof buf);
			CHECK(strcmp(buf, ratios[i].text) == 0);
		}
	}
}

#ifdef IDXLAB_HAVE_MONGO /* the Makefile: the mongo engine is built */
/* ---- MongoDB: serverStatus / $collStats parsers and BSON builders -------
 * (self-contained block: its includes are here, not at the top) */
#include <bson/bson.h>

#include "engines/mongo/doc.h"
#include "engines/mongo/status.h"

/* A fixture file as BSON (relaxed or canonical extended JSON); NULL if bad. */
static bson_t *mongo_fixture(const char *name)
{
	static char buf[65536];
	bson_error_t be;
	bson_t *b;

	if (read_fixture(name, buf, sizeof buf) < 0)
		return NULL;
	b = bson_new_from_json((const uint8_t *)buf, -1, &be);
	if (!b)
		printf("  %s: %s\n", name, be.message);
	return b;
}

static void test_mongo(void)
{
	struct mongo_status st;
	struct counters a, c;
	struct window w;
	struct sizes sz;
	struct knobs k;
	struct err e;
	bson_t *doc, *bad, row, upd;
	bson_iter_t it, sub;
	mongoc_write_concern_t *wc;
	mongoc_uri_t *uri;
	unsigned char u[KEYS_UUID_LEN];
	const uint8_t *bin;
	uint32_t blen, slen;
	bson_subtype_t subtype;
	const char *keys[] = { "_id", "k1", "k2", "k3",  "k4",     "k5",
		               "k6",  "k7", "k8", "hot", "payload" };
	char hosts[128];
	int i;

	/* A full serverStatus: every value by its exact name, not its twins
	 * ("modified pages evicted by application threads", "pages read into
	 * cache after truncate", "log sync_dir operations"). */
	doc = mongo_fixture("serverstatus-full.json");
	CHECK(doc != NULL);
	if (!doc)
		return;
	CHECK(mongo_status_parse(doc, &st) == 0);
	CHECK(st.have == (1u << MS_COUNT) - 1);
	CHECK(st.v[MS_DIRTY_EVICTED] == 1234567);
	CHECK(st.v[MS_PAGES_READ] == 765432);
	CHECK(st.v[MS_LOG_SYNCS] == 5150);
	CHECK(st.v[MS_LOG_BYTES] == 4567890123ULL);
	CHECK(st.v[MS_FSYNC_IOS] == 7077);
	CHECK(st.v[MS_CHECKPOINTS] == 1441);
	CHECK(st.v[MS_CACHE_MAX] == 268435456);
	CHECK(st.v[MS_CACHE_BYTES] == 214748364);
	CHECK(st.v[MS_CACHE_DIRTY] == 42949672);
	CHECK(st.v[MS_OP_INSERT] == 2100000 && st.v[MS_OP_UPDATE] == 350000);
	CHECK(st.v[MS_OP_DELETE] == 25000 && st.v[MS_OP_COMMAND] == 90210);
	CHECK(st.v[MS_PID] == 48213);
	CHECK(strcmp(st.version, "6.0.19") == 0 && strcmp(st.process, "mongod") == 0);
	CHECK(strcmp(st.engine, "wiredTiger") == 0);
	CHECK(strcmp(st.host, "db1.example.net:27017") == 0);
	CHECK(strcmp(mongo_status_name(MS_DIRTY_EVICTED),
	             "wiredTiger.cache.modified pages evicted") == 0);
	memset(&c, 0, sizeof c);
	mongo_status_counters(&st, &c);
	CHECK(c.v[C_SPILLS] == 1234567 && c.v[C_MISSES] == 765432);
	CHECK(c.v[C_FSYNCS] == 5150 && c.v[C_WAL_BYTES] == 4567890123ULL);
	CHECK(c.v[C_CHECKPOINTS] == 1441);
	CHECK(c.valid ==
	      (1u << C_SPILLS | 1u << C_MISSES | 1u << C_FSYNCS | 1u << C_WAL_BYTES |
	       1u << C_CHECKPOINTS | 1u << C_CACHE_USED | 1u << C_CACHE_DIRTY | 1u << C_CACHE_MAX));
	/* The cache gauges: the values themselves, the dirty share of the size. */
	CHECK(c.v[C_CACHE_USED] == 214748364 && c.v[C_CACHE_MAX] == 268435456);
	memset(&w, 0, sizeof w);
	a = c;
	a.t = 0;
	c.t = 1;
	w.a = &a;
	w.b = &c;
	CHECK(metric_compute(M_CACHE_BYTES, &w).state == MV_OK &&
	      metric_compute(M_CACHE_BYTES, &w).v == 214748364);
	CHECK(fabs(metric_compute(M_CACHE_DIRTY_PCT, &w).v - 16.0) < 0.001);
	bson_destroy(doc);

	/* Newer WiredTiger: checkpoints in a section of their own; int64s in
	 * canonical extended JSON. */
	doc = mongo_fixture("serverstatus-ckpt-section.json");
	CHECK(doc != NULL);
	if (doc) {
		CHECK(mongo_status_parse(doc, &st) == 0);
		CHECK(st.have & 1u << MS_CHECKPOINTS && st.v[MS_CHECKPOINTS] == 60);
		CHECK(st.v[MS_LOG_SYNCS] == 1210 && st.v[MS_DIRTY_EVICTED] == 88012);
		CHECK(st.v[MS_PAGES_READ] == 4410 && st.v[MS_PID] == 1);
		CHECK(strcmp(st.version, "8.0.4") == 0);
		bson_destroy(doc);
	}

	/* No wiredTiger section (a mongos): the engine figures stay n/a. */
	doc = mongo_fixture("serverstatus-nowt.json");
	CHECK(doc != NULL);
	if (doc) {
		CHECK(mongo_status_parse(doc, &st) == 0);
		CHECK(st.have == (1u << MS_OP_INSERT | 1u << MS_OP_UPDATE | 1u << MS_OP_DELETE |
		                  1u << MS_OP_COMMAND | 1u << MS_PID));
		CHECK(strcmp(st.process, "mongos") == 0 && st.engine[0] == 0);
		memset(&a, 0, sizeof a);
		memset(&c, 0, sizeof c);
		mongo_status_counters(&st, &a);
		mongo_status_counters(&st, &c);
		CHECK(c.valid == 0);
		a.valid = c.valid |= 1u << C_ROWS | 1u << C_COMMITS;
		c.v[C_ROWS] = 100;
		c.v[C_COMMITS] = 10;
		c.t = 1;
		memset(&w, 0, sizeof w);
		w.a = &a;
		w.b = &c;
		CHECK(metric_compute(M_SPILLS_PER_ROW, &w).state == MV_NA);
		CHECK(metric_compute(M_FSYNCS_PER_COMMIT, &w).state == MV_NA);
		CHECK(metric_compute(M_WAL_BYTES_PER_ROW, &w).state == MV_NA);
		bson_destroy(doc);
	}

	/* Not a serverStatus reply; negative and non-numeric values are absent. */
	bad = BCON_NEW("x", BCON_INT32(1));
	CHECK(mongo_status_parse(bad, &st) < 0 && st.have == 0);
	bson_destroy(bad);
	bad = BCON_NEW("ok", BCON_DOUBLE(1), "wiredTiger", "{", "cache", "{",
	               "modified pages evicted", BCON_INT64(-5), "pages read into cache",
	               BCON_UTF8("12"), "}", "log", "{", "log sync operations", BCON_INT32(7), "}",
	               "}");
	CHECK(mongo_status_parse(bad, &st) == 0);
	CHECK(st.have == 1u << MS_LOG_SYNCS && st.v[MS_LOG_SYNCS] == 7);
	bson_destroy(bad);

	/* $collStats: totalSize; the secondary indexes k1_1.. in 4 KiB units. */
	doc = mongo_fixture("collstats-t.json");
	CHECK(doc != NULL);
	if (doc) {
		CHECK(mongo_collstats_sizes(doc, 3, &sz) == 0);
		CHECK(sz.db_bytes == 21405696);
		CHECK(sz.index_bytes == 2793472 + 2560000 + 2564096);
		CHECK(sz.nindex == 3 && sz.index_pages[0] == 682 && sz.index_pages[1] == 625 &&
		      sz.index_pages[2] == 626);
		CHECK(mongo_collstats_sizes(doc, 5, &sz) == 0 && sz.nindex == 3);
		CHECK(mongo_collstats_sizes(doc, 0, &sz) == 0 && sz.index_bytes == 0);
		bson_destroy(doc);
	}
	bad = BCON_NEW("storageStats", "{", "storageSize", BCON_INT32(10), "totalIndexSize",
	               BCON_INT32(5), "}");
	CHECK(mongo_collstats_sizes(bad, 1, &sz) == 0 && sz.db_bytes == 15 && sz.index_bytes == -1);
	bson_destroy(bad);
	bad = BCON_NEW("x", BCON_INT32(1));
	CHECK(mongo_collstats_sizes(bad, 1, &sz) < 0 && sz.db_bytes == -1);
	bson_destroy(bad);
	/* More indexes than index_pages holds (a table with candidates,
	 * --add-index): the pages of the first 8, the bytes of every one. */
	{
		const char *names[10] = { "a", "b", "c", "d", "e", "f", "g", "h", "i", "j" };

		bad = BCON_NEW("storageStats", "{", "totalSize", BCON_INT32(100000), "indexSizes",
		               "{", "a", BCON_INT32(4096), "b", BCON_INT32(4096), "c",
		               BCON_INT32(4096), "d", BCON_INT32(4096), "e", BCON_INT32(4096), "f",
		               BCON_INT32(4096), "g", BCON_INT32(4096), "h", BCON_INT32(4096), "i",
		               BCON_INT32(8192), "j", BCON_INT32(8192), "}", "}");
		CHECK(mongo_collstats_index_sizes(bad, names, 10, &sz) == 0);
		CHECK(sz.index_bytes == 8 * 4096 + 2 * 8192 && sz.nindex == SIZES_MAX_INDEXES);
		CHECK(mongo_collstats_sizes(bad, 10, &sz) == 0); /* k1_1..: none here */
		bson_destroy(bad);
	}

	/* The insert document of a row: fields in order, with their types. */
	knobs_defaults(&k);
	k.v[K_SEED] = 7;
	bson_init(&row);
	mongo_doc_row(&row, &k, 41, "abcde", 5);
	CHECK(bson_count_keys(&row) == 11);
	i = 0;
	if (bson_iter_init(&it, &row))
		while (bson_iter_next(&it) && i < 11)
			CHECK(strcmp(bson_iter_key(&it), keys[i++]) == 0);
	CHECK(bson_iter_init_find(&it, &row, "_id") && BSON_ITER_HOLDS_INT64(&it) &&
	      bson_iter_int64(&it) == 42);
	CHECK(bson_iter_init_find(&it, &row, "k3") && BSON_ITER_HOLDS_INT64(&it) &&
	      bson_iter_int64(&it) == keys_int(7, KO_SEQ, 3, 41, 0));
	CHECK(bson_iter_init_find(&it, &row, "hot") && BSON_ITER_HOLDS_INT32(&it) &&
	      bson_iter_int32(&it) == 0);
	CHECK(bson_iter_init_find(&it, &row, "payload") && BSON_ITER_HOLDS_UTF8(&it) &&
	      strcmp(bson_iter_utf8(&it, &slen), "abcde") == 0 && slen == 5);
	bson_destroy(&row);

	/* uuid keys and ids: binary subtype 4, the bytes keys.h makes. */
	k.v[K_PK] = PK_UUID4;
	k.v[K_KEY_ORDER] = KO_UUID7;
	bson_init(&row);
	mongo_doc_row(&row, &k, 9, "", 0);
	CHECK(bson_iter_init_find(&it, &row, "_id") && BSON_ITER_HOLDS_BINARY(&it));
	bson_iter_binary(&it, &subtype, &blen, &bin);
	keys_uuid(7, 0, 0, 9, 0, u);
	CHECK(subtype == BSON_SUBTYPE_UUID && blen == 16 && memcmp(bin, u, 16) == 0);
	CHECK((bin[6] >> 4) == 4);
	CHECK(bson_iter_init_find(&it, &row, "k8") && BSON_ITER_HOLDS_BINARY(&it));
	bson_iter_binary(&it, &subtype, &blen, &bin);
	keys_uuid(7, 1, 8, 9, 0, u);
	CHECK(subtype == BSON_SUBTYPE_UUID && blen == 16 && memcmp(bin, u, 16) == 0);
	CHECK((bin[6] >> 4) == 7);
	bson_destroy(&row);
	k.v[K_PK] = PK_UUID7;
	bson_init(&row);
	mongo_doc_filter(&row, &k, 9);
	CHECK(bson_count_keys(&row) == 1 && bson_iter_init_find(&it, &row, "_id"));
	bson_iter_binary(&it, &subtype, &blen, &bin);
	CHECK(subtype == BSON_SUBTYPE_UUID && blen == 16 && (bin[6] >> 4) == 7);
	bson_destroy(&row);

	/* Updates: $inc of hot by 1; $set of k1 to the row's next version. */
	k.v[K_PK] = PK_INT;
	k.v[K_KEY_ORDER] = KO_RAND;
	bson_init(&upd);
	mongo_doc_update(&upd, &k, OP_UPDATE, 3, 1);
	CHECK(bson_count_keys(&upd) == 1 && bson_iter_init_find(&it, &upd, "$inc") &&
	      bson_iter_recurse(&it, &sub) && bson_iter_find(&sub, "hot") &&
	      BSON_ITER_HOLDS_INT32(&sub) && bson_iter_int32(&sub) == 1);
	bson_destroy(&upd);
	bson_init(&upd);
	mongo_doc_update(&upd, &k, OP_UPDATE_INDEXED, 3, 2);
	CHECK(bson_iter_init_find(&it, &upd, "$set") && bson_iter_recurse(&it, &sub) &&
	      bson_iter_find(&sub, "k1") && BSON_ITER_HOLDS_INT64(&sub) &&
	      bson_iter_int64(&sub) == keys_int(7, KO_RAND, 1, 3, 2) &&
	      bson_iter_int64(&sub) != keys_int(7, KO_RAND, 1, 3, 0));
	bson_destroy(&upd);
	/* update-keys: $set of k1..k8, in order, at the new version. */
	bson_init(&upd);
	mongo_doc_update(&upd, &k, OP_UPDATE_KEYS, 3, 2);
	{
		int col = 0, good = 1;

		if (bson_iter_init_find(&it, &upd, "$set") && bson_iter_recurse(&it, &sub))
			while (bson_iter_next(&sub) && col < 8) {
				char name[16];

				col++;
				snprintf(name, sizeof name, "k%d", col);
				good &= strcmp(bson_iter_key(&sub), name) == 0 &&
				        BSON_ITER_HOLDS_INT64(&sub) &&
				        bson_iter_int64(&sub) == keys_int(7, KO_RAND, col, 3, 2);
			}
		CHECK(col == 8 && good && !bson_iter_next(&sub));
	}
	bson_destroy(&upd);

	/* Write concerns: sync off/normal/full/extra. */
	wc = mongo_doc_write_concern(SYNC_OFF);
	CHECK(mongoc_write_concern_get_w(wc) == 1 && mongoc_write_concern_journal_is_set(wc) &&
	      !mongoc_write_concern_get_journal(wc));
	mongoc_write_concern_destroy(wc);
	wc = mongo_doc_write_concern(SYNC_NORMAL);
	CHECK(mongoc_write_concern_get_w(wc) == 1 && mongoc_write_concern_get_journal(wc));
	mongoc_write_concern_destroy(wc);
	wc = mongo_doc_write_concern(SYNC_FULL);
	CHECK(mongoc_write_concern_get_w(wc) == 1 && mongoc_write_concern_get_journal(wc));
	mongoc_write_concern_destroy(wc);
	wc = mongo_doc_write_concern(SYNC_EXTRA);
	CHECK(mongoc_write_concern_get_wmajority(wc));
	mongoc_write_concern_destroy(wc);
	CHECK(strcmp(mongo_doc_write_concern_text(SYNC_OFF), "w:1 j:false") == 0);

	/* The URI: short timeouts unless it sets its own; no password shown. */
	CHECK(mongo_doc_uri("mongodb://127.0.0.1:1/", &uri, &e) == 0);
	if (uri) {
		CHECK(mongoc_uri_get_option_as_int32(uri, MONGOC_URI_SERVERSELECTIONTIMEOUTMS, 0) ==
		      MONGO_DOC_TIMEOUT_MS);
		CHECK(mongoc_uri_get_option_as_int32(uri, MONGOC_URI_CONNECTTIMEOUTMS, 0) ==
		      MONGO_DOC_TIMEOUT_MS);
		CHECK(mongoc_uri_get_appname(uri) &&
		      strcmp(mongoc_uri_get_appname(uri), "idxlab") == 0);
		mongoc_uri_destroy(uri);
	}
	CHECK(mongo_doc_uri("mongodb://u:secret@a:1,b:2/?serverSelectionTimeoutMS=100&appname=x",
	                    &uri, &e) == 0);
	if (uri) {
		CHECK(mongoc_uri_get_option_as_int32(uri, MONGOC_URI_SERVERSELECTIONTIMEOUTMS, 0) ==
		      100);
		CHECK(mongoc_uri_get_option_as_int32(uri, MONGOC_URI_CONNECTTIMEOUTMS, 0) ==
		      MONGO_DOC_TIMEOUT_MS);
		CHECK(strcmp(mongoc_uri_get_appname(uri), "x") == 0);
		mongo_doc_hosts(uri, hosts, sizeof hosts);
		CHECK(strcmp(hosts, "a:1,b:2") == 0);
		mongoc_uri_destroy(uri);
	}
	CHECK(mongo_doc_uri("http://x", &uri, &e) < 0 && uri == NULL && e.cls == ERR_USAGE &&
	      strstr(e.msg, "mongodb://") != NULL);
}

/* serverStatus's table: every value's name (messages and the man page use
 * them) and the counter it feeds. Each value gets a value of its own, so a
 * row feeding the wrong counter, or one that should feed none, shows. */
static void test_mongo_status_table(void)
{
	static const struct {
		int id;
		const char *name;
		int feed; /* C_COUNT: none */
	} want[MS_COUNT] = {
		{ MS_OP_INSERT, "opcounters.insert", C_COUNT },
		{ MS_OP_UPDATE, "opcounters.update", C_COUNT },
		{ MS_OP_DELETE, "opcounters.delete", C_COUNT },
		{ MS_OP_COMMAND, "opcounters.command", C_COUNT },
		{ MS_DIRTY_EVICTED, "wiredTiger.cache.modified pages evicted", C_SPILLS },
		{ MS_PAGES_READ, "wiredTiger.cache.pages read into cache", C_MISSES },
		{ MS_CACHE_BYTES, "wiredTiger.cache.bytes currently in the cache", C_CACHE_USED },
		{ MS_CACHE_DIRTY, "wiredTiger.cache.tracked dirty bytes in the cache",
		  C_CACHE_DIRTY },
		{ MS_CACHE_MAX, "wiredTiger.cache.maximum bytes configured", C_CACHE_MAX },
		{ MS_LOG_SYNCS, "wiredTiger.log.log sync operations", C_FSYNCS },
		{ MS_LOG_BYTES, "wiredTiger.log.log bytes written", C_WAL_BYTES },
		{ MS_FSYNC_IOS, "wiredTiger.connection.total fsync I/Os", C_COUNT },
		{ MS_CHECKPOINTS, "wiredTiger.transaction.transaction checkpoints", C_CHECKPOINTS },
		{ MS_PID, "pid", C_COUNT },
	};
	struct mongo_status st;
	struct counters c;
	unsigned valid = 0;
	bson_t *doc;
	int i;

	CHECK(strcmp(mongo_status_name(-1), "?") == 0 &&
	      strcmp(mongo_status_name(MS_COUNT), "?") == 0);
	memset(&st, 0, sizeof st);
	for (i = 0; i < MS_COUNT; i++) {
		CHECK(want[i].id == i && strcmp(mongo_status_name(i), want[i].name) == 0);
		st.have |= 1u << i;
		st.v[i] = 1000 + (uint64_t)i;
	}
	memset(&c, 0, sizeof c);
	mongo_status_counters(&st, &c);
	for (i = 0; i < MS_COUNT; i++)
		if (want[i].feed != C_COUNT) {
			CHECK(c.v[want[i].feed] == 1000 + (uint64_t)i);
			valid |= 1u << want[i].feed;
		}
	CHECK(c.valid == valid);
	/* The checkpoints' second place feeds the same counter. */
	doc = BCON_NEW("ok", BCON_INT32(1), "wiredTiger", "{", "checkpoint", "{",
	               "total succeed number of checkpoints", BCON_INT64(7), "}", "}");
	CHECK(mongo_status_parse(doc, &st) == 0 && st.have == 1u << MS_CHECKPOINTS);
	memset(&c, 0, sizeof c);
	mongo_status_counters(&st, &c);
	CHECK(c.valid == 1u << C_CHECKPOINTS && c.v[C_CHECKPOINTS] == 7);
	bson_destroy(doc);
}

#endif

/* ---- the shared step loop (engines/txn.c), on a fake engine ------------- */
struct engine {
	struct txn txn;
	struct rowset rs;
	int begins, ops, commits, ends;
	int retry_op_at;  /* the op call (1, 2, ...) that answers TXN_RETRY; 0: none */
	int rewinds;      /* op rewinds t itself before TXN_RETRY (as WiredTiger's) */
	int retry_commit; /* the next commit answers TXN_RETRY */
	int defer;        /* commits answer TXN_SENT, acknowledged at the end's sync */
	uint64_t sent[8]; /* the t0s of commits sent, not yet acknowledged */
	int nsent;
	uint64_t group[16]; /* rows per commit, in order */
	int ngroup;
	uint64_t retried[4]; /* n of each retry call */
	int nretried;
	uint64_t replay_first; /* the first row a replay got */
};

static int fake_begin(struct engine *en, struct err *e)
{
	(void)e;
	en->begins++;
	return 0;
}

static int fake_op(struct engine *en, long long op, uint64_t row, uint64_t version, struct err *e)
{
	(void)op, (void)row, (void)version, (void)e;
	if (++en->ops != en->retry_op_at)
		return 0;
	if (en->rewinds)
		txn_rewind(&en->txn);
	return TXN_RETRY;
}

static int fake_commit(struct engine *en, struct txn *t, struct err *e)
{
	(void)e;
	en->commits++;
	if (en->retry_commit) {
		en->retry_commit = 0;
		return TXN_RETRY;
	}
	if (en->ngroup < 16)
		en->group[en->ngroup++] = t->rows;
	if (en->defer && en->nsent < 8) {
		en->sent[en->nsent++] = t->t0;
		return TXN_SENT;
	}
	return 0;
}

static int fake_sync(struct engine *en, int at_end, struct step_out *out, struct hist *lat,
                     struct err *e)
{
	(void)e;
	if (!at_end)
		return 0;
	en->ends++;
	while (en->nsent)
		txn_acked(out, lat, en->sent[--en->nsent]);
	return 0;
}

/* Replay the n rows in one transaction, through the loop's primitives. */
static int fake_retry(struct engine *en, uint64_t n, struct step_out *out, struct hist *lat,
                      struct err *e)
{
	uint64_t j, row, version;

	if (en->nretried < 4)
		en->retried[en->nretried++] = n;
	if (en->txn.open || txn_begin(&en->txn, en->txn.op, e) < 0)
		return -1;
	for (j = 0; j < n; j++) {
		if (!rowset_next(&en->rs, en->txn.op, &row, &version))
			return -1;
		if (j == 0)
			en->replay_first = row;
		rowset_done(&en->rs, en->txn.op, row);
		en->txn.rows++;
	}
	return txn_commit(&en->txn, out, lat, e);
}

static const struct txn_hooks fake_hooks = {
	.begin = fake_begin,
	.op = fake_op,
	.commit = fake_commit,
	.sync = fake_sync,
	.retry = fake_retry,
};

static void fake_reset(struct engine *en)
{
	rowset_free(&en->rs);
	memset(en, 0, sizeof *en);
	rowset_reset(&en->rs, 0);
	rowset_prepare(&en->rs, OP_INSERT, 1);
	txn_init(&en->txn, en, &en->rs, &fake_hooks);
}

/* One step of budget rows then finish, per_commit rows a commit. */
static void fake_run(struct engine *en, uint64_t per_commit, uint64_t budget, struct step_out *out,
                     struct hist *lat)
{
	struct err e;

	memset(out, 0, sizeof *out);
	CHECK(txn_step(&en->txn, OP_INSERT, per_commit, budget, out, lat, &e) == 0);
}

static void test_txn(void)
{
	static struct engine en; /* zero: fake_reset frees its rowset */
	struct step_out out, fin;
	struct hist lat;
	struct err e;

	/* A commit per row. */
	fake_reset(&en);
	memset(&lat, 0, sizeof lat);
	fake_run(&en, 1, 5, &out, &lat);
	CHECK(out.rows == 5 && out.commits == 5 && en.begins == 5 && en.ops == 5);
	CHECK(en.commits == 5 && lat.n == 5 && !en.txn.open && en.ends == 1);

	/* Every 3 rows; finish commits the rest. */
	fake_reset(&en);
	memset(&lat, 0, sizeof lat);
	fake_run(&en, 3, 7, &out, &lat);
	CHECK(out.rows == 7 && out.commits == 2 && en.begins == 3 && en.txn.open);
	CHECK(en.txn.rows == 1);
	memset(&fin, 0, sizeof fin);
	CHECK(txn_finish(&en.txn, &fin, &lat, &e) == 0);
	CHECK(fin.commits == 1 && !en.txn.open && lat.n == 3 && en.ngroup == 3);
	CHECK(en.group[0] == 3 && en.group[1] == 3 && en.group[2] == 1);
	memset(&fin, 0, sizeof fin);
	CHECK(txn_finish(&en.txn, &fin, &lat, &e) == 0 && fin.commits == 0 && en.commits == 3);

	/* commit = all: one transaction over every step, committed at finish. */
	fake_reset(&en);
	memset(&lat, 0, sizeof lat);
	fake_run(&en, COMMIT_ALL, 4, &out, &lat);
	fake_run(&en, COMMIT_ALL, 4, &out, &lat);
	CHECK(out.rows == 4 && out.commits == 0 && en.begins == 1 && en.commits == 0);
	CHECK(en.txn.open && en.txn.rows == 8 && en.ends == 2);
	memset(&fin, 0, sizeof fin);
	CHECK(txn_finish(&en.txn, &fin, &lat, &e) == 0);
	CHECK(fin.commits == 1 && en.group[0] == 8 && lat.n == 1 && en.rs.next_row == 8);

	/* A cap below commit = all. */
	fake_reset(&en);
	en.txn.cap = 2;
	fake_run(&en, COMMIT_ALL, 5, &out, NULL);
	CHECK(out.commits == 2 && en.group[0] == 2 && en.group[1] == 2 && en.txn.rows == 1);
	/* ... and below a bigger per_commit; a bigger cap does not raise it. */
	fake_reset(&en);
	en.txn.cap = 2;
	fake_run(&en, 3, 6, &out, NULL);
	CHECK(out.commits == 3);
	fake_reset(&en);
	en.txn.cap = 5;
	fake_run(&en, 3, 6, &out, NULL);
	CHECK(out.commits == 2 && en.group[0] == 3);

	/* A deferred acknowledgement counts when the engine acknowledges it. */
	fake_reset(&en);
	en.defer = 1;
	memset(&lat, 0, sizeof lat);
	fake_run(&en, 2, 5, &out, &lat);
	CHECK(en.commits == 2 && out.commits == 2 && lat.n == 2 && !en.nsent && en.txn.open);
	memset(&fin, 0, sizeof fin);
	CHECK(txn_finish(&en.txn, &fin, &lat, &e) == 0);
	CHECK(fin.commits == 1 && lat.n == 3 && !en.txn.open);

	/* An op rolled back: its transaction of 4 (the failed row included)
	 * replayed from its first row; each row counted once. */
	fake_reset(&en);
	en.retry_op_at = 4;
	fake_run(&en, 10, 6, &out, NULL);
	CHECK(en.nretried == 1 && en.retried[0] == 4 && en.replay_first == 0);
	CHECK(out.rows == 6 && out.commits == 1 && en.rs.next_row == 6);
	CHECK(en.txn.open && en.txn.rows == 2);
	/* The same when the engine rewinds before it answers. */
	fake_reset(&en);
	en.retry_op_at = 4;
	en.rewinds = 1;
	fake_run(&en, 10, 6, &out, NULL);
	CHECK(en.nretried == 1 && en.retried[0] == 4 && en.replay_first == 0);
	CHECK(out.rows == 6 && out.commits == 1 && en.rs.next_row == 6);

	/* A commit rolled back: its 3 rows replayed. */
	fake_reset(&en);
	en.retry_commit = 1;
	fake_run(&en, 3, 3, &out, NULL);
	CHECK(en.nretried == 1 && en.retried[0] == 3 && en.replay_first == 0);
	CHECK(out.rows == 3 && out.commits == 1 && en.rs.next_row == 3 && !en.txn.open);
	/* ... and at finish. */
	fake_reset(&en);
	fake_run(&en, COMMIT_ALL, 2, &out, NULL);
	en.retry_commit = 1;
	memset(&fin, 0, sizeof fin);
	CHECK(txn_finish(&en.txn, &fin, NULL, &e) == 0);
	CHECK(en.nretried == 1 && en.retried[0] == 2 && fin.commits == 1 && !en.txn.open);

	/* Nothing left to delete: no transaction at all. */
	fake_reset(&en);
	rowset_prepare(&en.rs, OP_DELETE, 1);
	memset(&out, 0, sizeof out);
	CHECK(txn_step(&en.txn, OP_DELETE, 1, 5, &out, NULL, &e) == 0);
	CHECK(out.rows == 0 && en.begins == 0 && en.ends == 1);
	rowset_free(&en.rs);
}

/* A rolled-back transaction's rows: rewound as if never touched. */
static void test_rowset(void)
{
	struct rowset rs;
	struct rowset_mark m;
	uint64_t row, v, first[3], i;

	memset(&rs, 0, sizeof rs);
	rowset_reset(&rs, 10);
	rowset_prepare(&rs, OP_DELETE, 1);
	rowset_mark(&rs, &m);
	for (i = 0; i < 3; i++) {
		CHECK(rowset_next(&rs, OP_DELETE, &row, &v) == 1);
		first[i] = row;
		rowset_done(&rs, OP_DELETE, row);
	}
	CHECK(rs.live_rows == 7);
	rowset_rewind(&rs, &m, OP_DELETE);
	CHECK(rs.live_rows == 10);
	/* The same rows come again, and are there to delete once more. */
	for (i = 0; i < 3; i++) {
		CHECK(rowset_next(&rs, OP_DELETE, &row, &v) == 1 && row == first[i]);
		rowset_done(&rs, OP_DELETE, row);
	}
	rowset_prepare(&rs, OP_DELETE, 1);
	CHECK(rs.norder == 7); /* the three deleted rows are gone from the order */
	/* Inserts: the row numbers are handed out again. */
	rowset_prepare(&rs, OP_INSERT, 1);
	rowset_mark(&rs, &m);
	CHECK(rowset_next(&rs, OP_INSERT, &row, &v) == 1 && row == 10);
	rowset_done(&rs, OP_INSERT, row);
	rowset_rewind(&rs, &m, OP_INSERT);
	CHECK(rowset_next(&rs, OP_INSERT, &row, &v) == 1 && row == 10 && rs.live_rows == 7);
	rowset_free(&rs);
}

/* The end of a server log, for messages about a server that died. */
static void test_log_tail(void)
{
	char dir[PATH_MAX], path[PATH_MAX + 16], buf[64];
	FILE *f;

	if (!mkdtemp(tmp_path(dir, sizeof dir, "idxlab-unit.XXXXXX"))) {
		CHECK(0);
		return;
	}
	snprintf(path, sizeof path, "%s/x.log", dir);
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (!f)
		return;
	fputs("one\n\ntwo\nthree\n\n", f);
	fclose(f);
	tmpdir_log_tail(dir, "x.log", 2, buf, sizeof buf);
	CHECK(strcmp(buf, "two | three") == 0);
	tmpdir_log_tail(dir, "x.log", 9, buf, sizeof buf);
	CHECK(strcmp(buf, "one | two | three") == 0);
	tmpdir_log_tail(dir, "x.log", 9, buf, 8); /* cut to fit */
	CHECK(strlen(buf) < 8 && strncmp(buf, "one", 3) == 0);
	tmpdir_log_tail(dir, "none.log", 2, buf, sizeof buf);
	CHECK(buf[0] == 0);
	unlink(path);
	rmdir(dir);
}

/* Demo scripts: the parser, the starting setting in the plan, and time. */
static void test_demo(void)
{
	struct demo dm;
	struct plan p;
	struct err e = { ERR_NONE, "" };
	const struct cue *c;
	char *path = write_file("# a talk\nengine = wiredtiger\nrows = 5000 # small\n\n"
	                        "say one # two\nwait 1.5\nindexes = 2\npin\nwait key\n"
	                        "say\nunpin\n");

	CHECK(demo_load(&dm, path, &e) == 0);
	CHECK(dm.n == 9 && dm.header == 2 && dm.next == 2);
	CHECK(dm.cues[0].kind == CUE_SET && dm.cues[0].knob == K_ENGINE &&
	      dm.cues[0].value == E_WIREDTIGER && dm.cues[0].line == 2);
	CHECK(dm.cues[2].kind == CUE_SAY && strcmp(dm.cues[2].text, "one") == 0 &&
	      dm.cues[2].line == 5);
	CHECK(dm.cues[3].kind == CUE_WAIT && dm.cues[3].seconds == 1.5);
	CHECK(demo_check(&dm, E_WIREDTIGER, &e) == 0);
	/* Time: the say at once, then nothing for 1.5 s, then the knob. */
	c = demo_next(&dm, 100.0);
	CHECK(c && c->kind == CUE_SAY);
	CHECK(demo_next(&dm, 100.0) == NULL);
	CHECK(demo_next(&dm, 101.4) == NULL);
	{
		double left = 0;

		CHECK(demo_waiting(&dm, 101.0, &left) && left > 0.49 && left < 0.51);
	}
	c = demo_next(&dm, 101.5);
	CHECK(c && c->kind == CUE_SET && c->knob == K_INDEXES && c->value == 2);
	c = demo_next(&dm, 101.5);
	CHECK(c && c->kind == CUE_PIN);
	demo_unget(&dm); /* could not pin yet: the same cue again */
	c = demo_next(&dm, 101.6);
	CHECK(c && c->kind == CUE_PIN);
	/* wait key: nothing until Space, however long. */
	CHECK(demo_next(&dm, 1e6) == NULL && !demo_done(&dm));
	CHECK(demo_skip(&dm) == 1);
	c = demo_next(&dm, 1e6);
	CHECK(c && c->kind == CUE_SAY && *c->text == 0);
	c = demo_next(&dm, 1e6);
	CHECK(c && c->kind == CUE_UNPIN && !demo_next(&dm, 1e6) && demo_done(&dm));
	CHECK(demo_skip(&dm) == 0);
	demo_free(&dm);

	/* The starting setting goes into the plan; the command line wins. */
	{
		char *argv[] = { (char *)"idxlab", (char *)"--demo", path, (char *)"--rows=7",
			         NULL };

		CHECK(plan_from_args(&p, 4, argv, &e) == 0 && p.demo);
		CHECK(p.vals[K_ENGINE][0] == E_WIREDTIGER && p.vals[K_ROWS][0] == 7);
		plan_free(&p);
		argv[3] = (char *)"--engine=sqlite,wiredtiger";
		CHECK(plan_from_args(&p, 4, argv, &e) < 0 && strstr(e.msg, "one engine"));
		plan_free(&p);
	}
	unlink(path);

	/* Bad lines name the line. */
	{
		static const struct {
			const char *text, *msg;
		} bad[] = {
			{ "say x\nwait soon\n", ":2: wait takes seconds" },
			{ "say x\nwait 0\n", ":2: wait takes seconds" },
			{ "say x\npin now\n", ":2: 'pin' takes nothing" },
			{ "say x\ndance\n", ":2: 'dance' is not a cue" },
			{ "indxes = 2\nsay x\n",
			  ":1: unknown key 'indxes' (did you mean 'indexes'?)" },
			{ "say x\nindexes = 9\n", ":2: indexes: 9 is out of range" },
			{ "say x\nformat = csv\n", ":2: format is a run option" },
			{ "indexes = 2\n", "has no cue to play" },
		};
		size_t i;

		for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
			char *f = write_file(bad[i].text);

			CHECK(demo_load(&dm, f, &e) < 0 && e.cls == ERR_USAGE);
			if (!strstr(e.msg, bad[i].msg))
				printf("  demo case %zu: got '%s'\n", i, e.msg);
			CHECK(strstr(e.msg, bad[i].msg) != NULL);
			demo_free(&dm);
			unlink(f);
		}
	}
	/* After the starting setting: only knobs the dashboard changes live,
	 * and only the engine's. */
	{
		char *f = write_file("say x\nengine = postgres\n");

		CHECK(demo_load(&dm, f, &e) == 0 && demo_check(&dm, E_SQLITE, &e) < 0 &&
		      strstr(e.msg, ":2: engine cannot change while the dashboard runs"));
		demo_free(&dm);
		unlink(f);
		f = write_file("say x\nfillfactor = 50\n");
		CHECK(demo_load(&dm, f, &e) == 0 && demo_check(&dm, E_SQLITE, &e) < 0 &&
		      strstr(e.msg, ":2: sqlite has no fillfactor knob"));
		CHECK(demo_check(&dm, E_POSTGRES, &e) == 0);
		demo_free(&dm);
		unlink(f);
	}
}

/* Recordings: what is written is what is read back; bad files name the line. */
static void test_recording(void)
{
	static struct rec_item in, out;
	struct rec_head h;
	struct recorder *r;
	struct replay *p;
	struct err e = { ERR_NONE, "" };
	char path[PATH_MAX], name[64];
	FILE *f;

	snprintf(name, sizeof name, "idxlab-unit-%d.rec", (int)getpid());
	tmp_path(path, sizeof path, name);
	unlink(path);
	CHECK((r = rec_create(path, "sqlite", "9.9.9", &e)) != NULL);
	memset(&in, 0, sizeof in);
	in.kind = REC_SAMPLE;
	in.t = 1.5;
	knobs_defaults(&in.live.knobs);
	in.live.knobs.v[K_INDEXES] = 3;
	in.live.knobs.v[K_CACHE] = 1073741824LL;
	in.live.knobs.v[K_KEY_ORDER] = KO_RAND;
	in.live.knobs.dsn = "postgresql://u:secret@h/db";
	in.live.knobs_gen = 4;
	in.live.state = LS_APPLYING;
	snprintf(in.live.activity, sizeof in.live.activity, "building idxlab_k3");
	in.live.activity_t0 = 1.25;
	in.live.table_rows = 123456;
	in.live.c.t = 1.4;
	in.live.c.v[C_ROWS] = 123456;
	in.live.c.v[C_SPILLS] = 99;
	in.live.c.v[C_CACHE_USED] = 1ULL << 40;
	in.live.c.valid = (1u << C_ROWS) | (1u << C_SPILLS) | (1u << C_CACHE_USED);
	hist_add(&in.live.lat, 870000);
	hist_add(&in.live.lat, 5000000);
	in.live.sizes.db_bytes = 4096000;
	in.live.sizes.index_bytes = -1;
	in.live.sizes.nindex = 2;
	in.live.sizes.index_pages[1] = 77;
	snprintf(in.live.where, sizeof in.live.where, "/tmp/x/idxlab.db");
	CHECK(rec_write(r, &in, &e) == 0);
	memset(&in.live, 0, sizeof in.live);
	in.kind = REC_EVENT;
	in.t = 2;
	in.level = EV_WARN;
	snprintf(in.text, sizeof in.text, "a \"quoted\" \u25b2 event");
	CHECK(rec_write(r, &in, &e) == 0);
	in.kind = REC_PIN;
	CHECK(rec_write(r, &in, &e) == 0);
	CHECK(rec_finish(r, &e) == 0);
	CHECK(rec_create(path, "sqlite", "9.9.9", &e) == NULL &&
	      strstr(e.msg, "overwrites nothing"));
	{
		char line[4096];
		int secret = 0;

		f = fopen(path, "r");
		while (f && fgets(line, sizeof line, f))
			secret |= strstr(line, "secret") != NULL;
		if (f)
			fclose(f);
		CHECK(!secret); /* the dsn is never written */
	}

	CHECK((p = rec_open(path, &h, &e)) != NULL);
	CHECK(h.version == REC_VERSION && strcmp(h.engine, "sqlite") == 0 &&
	      strcmp(h.idxlab, "9.9.9") == 0);
	CHECK(rec_read(p, &out, &e) == 1 && out.kind == REC_SAMPLE && out.t == 1.5);
	CHECK(out.live.knobs.v[K_INDEXES] == 3 && out.live.knobs.v[K_CACHE] == 1073741824LL &&
	      out.live.knobs.v[K_KEY_ORDER] == KO_RAND && out.live.knobs_gen == 4);
	CHECK(out.live.state == LS_APPLYING &&
	      strcmp(out.live.activity, "building idxlab_k3") == 0 &&
	      out.live.activity_t0 == 1.25 && out.live.table_rows == 123456);
	CHECK(out.live.c.t == 1.4 &&
	      out.live.c.valid == ((1u << C_ROWS) | (1u << C_SPILLS) | (1u << C_CACHE_USED)));
	CHECK(out.live.c.v[C_ROWS] == 123456 && out.live.c.v[C_SPILLS] == 99 &&
	      out.live.c.v[C_CACHE_USED] == 1ULL << 40);
	CHECK(memcmp(&out.live.lat, &(struct live){ 0 }.lat, sizeof out.live.lat) != 0);
	{
		static struct live want;

		memset(&want, 0, sizeof want);
		hist_add(&want.lat, 870000);
		hist_add(&want.lat, 5000000);
		CHECK(memcmp(&out.live.lat, &want.lat, sizeof want.lat) == 0);
	}
	CHECK(out.live.sizes.db_bytes == 4096000 && out.live.sizes.index_bytes == -1 &&
	      out.live.sizes.nindex == 2 && out.live.sizes.index_pages[1] == 77);
	CHECK(strcmp(out.live.where, "/tmp/x/idxlab.db") == 0);
	CHECK(rec_read(p, &out, &e) == 1 && out.kind == REC_EVENT && out.level == EV_WARN &&
	      strcmp(out.text, "a \"quoted\" \u25b2 event") == 0 && out.t == 2);
	CHECK(rec_read(p, &out, &e) == 1 && out.kind == REC_PIN);
	CHECK(rec_read(p, &out, &e) == 0);
	rec_close(p);

	/* A line cut short, and a file that is no recording. */
	f = fopen(path, "a");
	if (f) {
		fputs("{\"t\":3,\"ev\":\"cut", f);
		fclose(f);
	}
	CHECK((p = rec_open(path, &h, &e)) != NULL);
	while (rec_read(p, &out, &e) > 0)
		;
	CHECK(strstr(e.msg, ".rec:5: not JSON") != NULL);
	rec_close(p);
	f = fopen(path, "w");
	if (f) {
		fputs("indexes = 3\n", f);
		fclose(f);
	}
	CHECK(rec_open(path, &h, &e) == NULL && strstr(e.msg, ":1: not JSON"));
	/* ... which is no recording, not one cut short. */
	CHECK(strstr(e.msg, "not an idxlab recording") != NULL && !strstr(e.msg, "cut short"));
	f = fopen(path, "w");
	if (f) {
		fputs("{\"t\":1}\n", f);
		fclose(f);
	}
	CHECK(rec_open(path, &h, &e) == NULL && strstr(e.msg, ":1: not an idxlab recording"));
	f = fopen(path, "w");
	if (f) {
		fputs("{\"idxlab_recording\":99,\"idxlab\":\"7.0\"}\n", f);
		fclose(f);
	}
	CHECK(rec_open(path, &h, &e) == NULL && strstr(e.msg, "version 99") &&
	      strstr(e.msg, "update idxlab"));
	unlink(path);
}

static void test_redact(void)
{
	/* Every form a secret takes, by pattern alone (redact_dsn). */
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "host=h password=pw user=u", "host=h password=*** user=u" },
		{ "password=pw", "password=***" },
		{ "host=h password = pw", "host=h password = ***" },
		{ "host=h password='a b' user=u", "host=h password=*** user=u" },
		{ "host=h password='it\\'s x' user=u", "host=h password=*** user=u" },
		{ "host=h password='unterminated", "host=h password=***" },
		{ "host=h PASSWORD=pw", "host=h PASSWORD=***" },
		{ "host=h sslpassword=pw", "host=h sslpassword=***" },
		{ "host=h password=", "host=h password=" },
		{ "host=h mypassword=pw", "host=h mypassword=pw" },
		{ "postgres://u:pw@h/d", "postgres://u:***@h/d" },
		{ "postgresql://u:p@ss@h:5432/d", "postgresql://u:***@h:5432/d" },
		{ "postgres://u:p/w@h/d", "postgres://u:***@h/d" },
		{ "postgres://u@h/d", "postgres://u@h/d" },
		{ "postgres://h:5432/d", "postgres://h:5432/d" },
		{ "postgres://u@h/d?password=pw", "postgres://u@h/d?password=***" },
		{ "postgres://u@h/d?sslmode=require&password=pw&x=1",
		  "postgres://u@h/d?sslmode=require&password=***&x=1" },
		{ "postgres://u:pw@h/d?password=pw2", "postgres://u:***@h/d?password=***" },
		{ "mongodb://u:pw@h1,h2/?replicaSet=r", "mongodb://u:***@h1,h2/?replicaSet=r" },
		{ "mongodb+srv://u:pw@c.example/", "mongodb+srv://u:***@c.example/" },
		{ "mongodb://h/?authMechanism=MONGODB-AWS&authMechanismProperties=AWS_SESSION_"
		  "TOKEN:tok,X:y&w=1",
		  "mongodb://h/?authMechanism=MONGODB-AWS&authMechanismProperties=***&w=1" },
		{ "mongodb://h/?tlsCertificateKeyFilePassword=pw",
		  "mongodb://h/?tlsCertificateKeyFilePassword=***" },
		/* whitespace around '=' as libpq takes it, an escaped space; a URI
		 * that is the whole dsn ends its password at '@' only */
		{ "host=h password=\tpw user=u", "host=h password=\t*** user=u" },
		{ "host=h password\t=pw", "host=h password\t=***" },
		{ "host=h password=\npw", "host=h password=\n***" },
		{ "host=h password=a\\ b user=u", "host=h password=*** user=u" },
		{ "postgresql://u:a b@h/d", "postgresql://u:***@h/d" },
		{ "postgresql://u:a'b\"c@h/d", "postgresql://u:***@h/d" },
		{ "postgresql://u@h/d?password=a b&x=1", "postgresql://u@h/d?password=***&x=1" },
		/* in messages that quote a dsn */
		{ "URI: \"postgres://u:pw@[::1/d\" - check",
		  "URI: \"postgres://u:***@[::1/d\" - check" },
		{ "'mongodb://u:pw@h:99999/' is not", "'mongodb://u:***@h:99999/' is not" },
		{ "argument 'password=pw' (the", "argument 'password=***' (the" },
		{ "--dsn 'host=x password=pw' holds", "--dsn 'host=x password=***' holds" },
		{ "write mongodb://[user:password@]host[:port]",
		  "write mongodb://[user:password@]host[:port]" },
		{ "/data/password=1/x.db", "/data/password=1/x.db" },
		{ "", "" },
	};
	char buf[256], arg[64];
	struct err e = { ERR_NONE, "" };
	struct ev ev[256];
	size_t i, n;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		redact_dsn(cases[i].in, buf, sizeof buf);
		if (strcmp(buf, cases[i].out) != 0) {
			printf("  redact_dsn(%s) = %s, want %s\n", cases[i].in, buf, cases[i].out);
			failed_checks++;
		}
		CHECK(redact_has_secret(cases[i].in) == (strcmp(cases[i].in, cases[i].out) != 0));
	}
	/* Cut at the end, and the full length returned. */
	CHECK(redact_dsn("password=secret x", buf, 12) == strlen("password=*** x") &&
	      strcmp(buf, "password=**") == 0);

	/* Learnt secrets: masked wherever a message quotes them, as written and
	 * as the library reads them; short ones only by pattern. */
	redact_forget();
	redact_learn("postgres://u:SECR%45TPW@h/d?x=1");
	redact_learn("host=h password='it\\'s longer' user=u");
	redact_learn("mongodb://h/?authMechanismProperties=AWS_SESSION_TOKEN:TOKEN123,B:x");
	redact_learn("password=ab");
	redact_learn(NULL);
	redact_text("token: \"SECR%45TPW\", decoded SECRETPW", buf, sizeof buf);
	CHECK(strcmp(buf, "token: \"***\", decoded ***") == 0);
	redact_text("it's longer or it\\'s longer", buf, sizeof buf);
	CHECK(strcmp(buf, "*** or ***") == 0);
	redact_text("token TOKEN123; ab stays", buf, sizeof buf);
	CHECK(strcmp(buf, "token ***; ab stays") == 0);
	CHECK(redact_text("SECRETPW", NULL, 0) == 3);
	redact_learn("postgresql://u:SEC RETPW@h/d");
	redact_text("token \"SEC RETPW\"", buf, sizeof buf);
	CHECK(strcmp(buf, "token \"***\"") == 0);

	/* argv in place: never longer, the rest NUL. */
	snprintf(arg, sizeof arg, "host=h password=SECRETPW user=u");
	n = strlen(arg);
	redact_in_place(arg);
	CHECK(strcmp(arg, "host=h password=*** user=u") == 0);
	CHECK(memchr(arg, 'S', n) == NULL && arg[n - 1] == 0);
	snprintf(arg, sizeof arg, "mongodb://u:a b c d@h/");
	redact_in_place(arg);
	CHECK(strcmp(arg, "mongodb://u:***@h/") == 0);
	snprintf(arg, sizeof arg, "password=a");
	redact_in_place(arg);
	CHECK(strcmp(arg, "password=*") == 0);

	/* Every message: err_set, err_prefix, the event log. */
	err_set(&e, ERR_USAGE, "bad '%s'", "postgres://u:SECRETPW@[::1/d");
	CHECK(strcmp(e.msg, "bad 'postgres://u:***@[::1/d'") == 0);
	err_prefix(&e, "--dsn %s", "SECRETPW");
	CHECK(strstr(e.msg, "SECRETPW") == NULL && strstr(e.msg, "--dsn ***: bad"));
	evlog_add(EV_WARN, "libpq says: \"%s\"", "SECRETPW");
	n = evlog_since(0, ev, 256);
	CHECK(n > 0 && strcmp(ev[n - 1].text, "libpq says: \"***\"") == 0);
	/* A message cut to fit is masked first: no part of a password is left. */
	err_set(&e, ERR_USAGE, "%*s postgres://u:%s@h", (int)sizeof e.msg - 20, "x", "SECRETPW");
	CHECK(strstr(e.msg, "SECR") == NULL && strlen(e.msg) == sizeof e.msg - 1);
	evlog_add(EV_WARN, "%*s mongodb://u:%s@h", EVLOG_LINE - 20, "x", "SECRETPW");
	n = evlog_since(0, ev, 256);
	CHECK(n > 0 && strstr(ev[n - 1].text, "SECR") == NULL);
	redact_forget();
	redact_text("SECRETPW", buf, sizeof buf);
	CHECK(strcmp(buf, "SECRETPW") == 0);
	{
		/* plan_from_args masks every secret of argv (ps shows it) and
		 * runs on what was given: --dsn and --schema-from, both forms. */
		char a1[] = "--dsn=host=h password=SECRETPW", a2[] = "--schema-from";
		char a3[] = "postgresql://u:SECRETPW@/d?host=/nonexistent:t", a4[] = "--rows=5";
		char *argv[] = { (char *)"idxlab", a1, a2, a3, a4, NULL };
		struct plan p;

		CHECK(plan_from_args(&p, 5, argv, &e) < 0 && strstr(e.msg, "--schema-from") &&
		      !strstr(e.msg, "SECRETPW"));
		CHECK(strcmp(a1, "--dsn=host=h password=***") == 0);
		CHECK(strcmp(a3, "postgresql://u:***@/d?host=/nonexistent:t") == 0);
		CHECK(strcmp(a4, "--rows=5") == 0 &&
		      strcmp(p.args[1], "--dsn=host=h password=SECRETPW") == 0);
		plan_free(&p);
		snprintf(a1, sizeof a1, "--dsn=host=h password=SECRETPW");
		argv[2] = a4;
		CHECK(plan_from_args(&p, 3, argv, &e) == 0 &&
		      strcmp(p.dsn, "host=h password=SECRETPW") == 0 &&
		      strcmp(a1, "--dsn=host=h password=***") == 0);
		plan_free(&p);
		redact_forget();
	}
}

static double fake_now;

static double fake_clock(void *arg)
{
	(void)arg;
	return fake_now;
}

/* evlog: a repeat folds into its line among the last EVLOG_FOLD_BACK (numbers
 * may differ, a name such as idxlab_k1 may not, nor the level); the line
 * keeps its id, shows the latest text and the count, and a reader gets it
 * again under a new seq, once, at its latest repeat. */
static void test_evlog_fold(void)
{
	static struct ev ev[256];
	unsigned long seen, id;
	char buf[EVLOG_LINE + 16];
	size_t n;
	int i;

	n = evlog_since(0, ev, 256);
	seen = n ? ev[n - 1].seq : 0;
	evlog_add(EV_INFO, "fold: the table reached %d rows: starting over", 20000);
	n = evlog_since(seen, ev, 256);
	CHECK(n == 1 && ev[0].count == 1 && ev[0].id == ev[0].seq);
	id = ev[0].id;
	seen = ev[0].seq;
	/* WiredTiger's restart: two lines again and again, one folded line each */
	evlog_add(EV_INFO, "fold: previous table: %d log syncs", 25);
	for (i = 0; i < 11; i++) {
		evlog_add(EV_INFO, "fold: the table reached %d rows: starting over", 20000);
		evlog_add(EV_INFO, "fold: previous table: %d log syncs", 26 + i);
	}
	n = evlog_since(seen, ev, 256);
	CHECK(n == 2);
	CHECK(n == 2 && ev[0].id == id && ev[0].count == 12 && ev[0].seq > id);
	CHECK(n == 2 && ev[1].count == 12 &&
	      strcmp(ev[1].text, "fold: previous table: 36 log syncs") == 0);
	evlog_format(&ev[0], 1, buf, sizeof buf);
	CHECK(strcmp(buf, "fold: the table reached 20000 rows: starting over x12") == 0);
	evlog_format(&ev[0], 0, buf, sizeof buf);
	CHECK(strcmp(buf, "fold: the table reached 20000 rows: starting over \u00d712") == 0);
	seen = ev[n - 1].seq;
	/* a number glued to a name is part of the name */
	evlog_add(EV_INFO, "fold: built idxlab_k1 on %d rows in %.2f s", 0, 0.01);
	evlog_add(EV_INFO, "fold: built idxlab_k2 on %d rows in %.2f s", 0, 0.01);
	evlog_add(EV_INFO, "fold: built idxlab_k1 on %d rows in %.2f s", 5000, 0.02);
	n = evlog_since(seen, ev, 256);
	CHECK(n == 2 && ev[0].count == 1 && strstr(ev[0].text, "idxlab_k2"));
	CHECK(n == 2 && ev[1].count == 2 &&
	      strcmp(ev[1].text, "fold: built idxlab_k1 on 5000 rows in 0.02 s") == 0);
	seen = ev[n - 1].seq;
	/* another level is another line; so is a repeat beyond the look-back */
	evlog_add(EV_WARN, "fold: built idxlab_k1 on %d rows in %.2f s", 1, 0.01);
	for (i = 0; i < EVLOG_FOLD_BACK; i++)
		evlog_add(EV_INFO, "fold: other line %c", 'a' + i);
	evlog_add(EV_WARN, "fold: built idxlab_k1 on %d rows in %.2f s", 2, 0.01);
	n = evlog_since(seen, ev, 256);
	CHECK(n == EVLOG_FOLD_BACK + 2 && ev[0].level == EV_WARN && ev[0].count == 1);
	CHECK(n == EVLOG_FOLD_BACK + 2 && ev[n - 1].count == 1 && ev[n - 1].id == ev[n - 1].seq);
	CHECK(strcmp(evlog_level_prefix(&ev[0]), "warning: ") == 0);
	/* on the log's clock: SQLite's "starting over" every ~10 s still folds
	 * (the issue's "starting over x12"); after a minute's quiet a new line */
	seen = ev[n - 1].seq;
	fake_now = 1000;
	evlog_set_clock(fake_clock, NULL);
	for (i = 0; i < 6; i++, fake_now += 10)
		evlog_add(EV_INFO, "fold: the table reached %d rows: starting over", 3000);
	fake_now += EVLOG_FOLD_S + 1;
	evlog_add(EV_INFO, "fold: the table reached %d rows: starting over", 3000);
	evlog_set_clock(NULL, NULL);
	n = evlog_since(seen, ev, 256);
	CHECK(n == 2 && ev[0].count == 6 && ev[1].count == 1 && ev[1].id != ev[0].id);
}

/* fstree: a link inside a tree is copied and removed as a link, never
 * followed; a path through a link is refused. */
static void test_fstree(void)
{
	char top[PATH_MAX], path[PATH_MAX + 16], buf[64];
	struct stat st;
	int at, src, fd;

	if (!mkdtemp(tmp_path(top, sizeof top, "idxlab-unit-fstree.XXXXXX"))) {
		CHECK(0);
		return;
	}
	at = open(top, O_RDONLY | O_DIRECTORY);
	CHECK(mkdirat(at, "outside", 0700) == 0 && mkdirat(at, "tree", 0700) == 0 &&
	      mkdirat(at, "tree/sub", 0700) == 0);
	fd = openat(at, "outside/keep", O_WRONLY | O_CREAT, 0600);
	CHECK(fd >= 0 && write(fd, "kept", 4) == 4);
	close(fd);
	fd = openat(at, "tree/sub/file", O_WRONLY | O_CREAT, 0640);
	CHECK(fd >= 0 && write(fd, "data", 4) == 4);
	close(fd);
	snprintf(path, sizeof path, "%s/outside", top);
	CHECK(symlinkat(path, at, "tree/sub/link") == 0);

	CHECK(fstree_read(at, "tree/sub/file", buf, sizeof buf) == 4 && strcmp(buf, "data") == 0);
	CHECK(fstree_read(at, "tree/sub/link/keep", buf, sizeof buf) < 0); /* through a link */
	CHECK(fstree_open(at, "tree/../outside/keep", O_RDONLY) < 0);      /* no .. */
	src = fstree_open_dir(at, "tree");
	CHECK(src >= 0 && fstree_copy(src, at, "copy", (uid_t)-1) == 0);
	CHECK(fstree_read(at, "copy/sub/file", buf, sizeof buf) == 4 && strcmp(buf, "data") == 0);
	CHECK(fstatat(at, "copy/sub/file", &st, 0) == 0 && (st.st_mode & 0777) == 0640);
	CHECK(fstatat(at, "copy/sub/link", &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode));
	CHECK(fstree_copy(src, at, "copy", (uid_t)-1) < 0 && errno == EEXIST);
	CHECK(fstree_copy(src, at, "copy2", getuid() + 1) < 0 && errno == EPERM);
	CHECK(fstatat(at, "copy2", &st, 0) < 0); /* a failed copy leaves nothing */
	close(src);
	fstatat(at, "tree", &st, 0);
	CHECK(fstree_remove(at, "copy", &st) < 0 && errno == EXDEV); /* not that dir */
	CHECK(fstree_remove(at, "copy", NULL) == 0 && fstree_remove(at, "tree", &st) == 0);
	CHECK(fstree_read(at, "outside/keep", buf, sizeof buf) == 4); /* untouched */
	CHECK(fstree_remove(at, "outside", NULL) == 0);
	close(at);
	CHECK(rmdir(top) == 0);
}

/* The dashboard's history without a screen: samples kept one period
 * apart, rates between them, a baseline refused too soon after a change
 * and pinned after a second, a reset keeping only the latest. */
static void test_history(void)
{
	struct history *h = history_new();
	struct live *l = calloc(1, sizeof *l);
	struct knobs k;
	double span = 0;
	int i, na = 1;

	knobs_defaults(&k);
	CHECK(l && history_at(h, 0) == NULL);
	for (i = 0; i < 12; i++) {
		l->gen = (unsigned long)i + 1;
		l->c.t = 100 + i * HIST_PERIOD;
		l->c.v[C_ROWS] = (uint64_t)i * 1000;
		l->c.valid = 1u << C_ROWS;
		CHECK(history_offer(h, l, l->c.t) == 0);
		CHECK(history_offer(h, l, l->c.t + 0.01) == 0); /* too soon: not kept */
	}
	CHECK(h->n == 12 && history_at(h, 0)->c.t == 100 + 11 * HIST_PERIOD);
	CHECK(fabs(history_value(h, M_ROWS_PER_S, 4, &na) - 4000) < 1e-6 && na == 0);
	history_mark(h, 100 + 10 * HIST_PERIOD, K_INDEXES, "+1 idx");
	CHECK(history_marked(h, 100 + 9 * HIST_PERIOD, 100 + 10 * HIST_PERIOD));
	CHECK(!history_marked(h, 100 + 10 * HIST_PERIOD, 100 + 11 * HIST_PERIOD));
	CHECK(history_pin(h, &k, 1, &span) < 0 && !h->base_on); /* a change 1 sample ago */
	h->nmarkers = 0;
	CHECK(history_pin(h, &k, 1, &span) == 0 && h->base_on);
	CHECK(fabs(h->base[M_ROWS_PER_S] - 4000) < 1e-6 && fabs(span - 11 * HIST_PERIOD) < 1e-9);
	history_reset(h);
	CHECK(h->n == 1 && h->nmarkers == 0 && history_at(h, 0)->c.v[C_ROWS] == 11000);
	free(l);
	history_free(h);
}

/* A chart's time axis covers what was seen: 5 s of samples draw on a 30-s
 * axis (the right sixth of the columns, the rest unknown), 60 s fill every
 * column, 200 s stop at the window; each knob change marks exactly one
 * column, the one its time falls in, and the series' last column is the
 * latest interval. */
static void test_series_span(void)
{
	struct history *h = history_new();
	struct live *l = calloc(1, sizeof *l);
	double vals[60];
	int marks[60], i, j, known, marked;

	CHECK(l != NULL);
	for (i = 0; i < 800; i++) {
		l->gen = (unsigned long)i + 1;
		l->c.t = 100 + i * HIST_PERIOD;
		l->c.v[C_ROWS] = (uint64_t)i * 1000; /* 4000 rows/s */
		l->c.valid = 1u << C_ROWS;
		history_offer(h, l, l->c.t);
		if (i == 20) { /* 5 s */
			CHECK(history_span(h, 480) == 120);
			history_series(h, M_ROWS_PER_S, 60, history_span(h, 480), vals);
			for (j = 0, known = 0; j < 60; j++)
				known += !isnan(vals[j]);
			CHECK(known == 10 && !isnan(vals[59]) && isnan(vals[49]));
		}
		if (i == 240) { /* 60 s: every column, at 4000 rows/s */
			CHECK(history_span(h, 480) == 240);
			history_mark(h, 100 + 230.5 * HIST_PERIOD, K_INDEXES, "+1 idx");
			history_series(h, M_ROWS_PER_S, 60, history_span(h, 480), vals);
			history_series_marks(h, 60, history_span(h, 480), marks);
			for (j = 0, known = 0, marked = 0; j < 60; j++) {
				known += fabs(vals[j] - 4000) < 1e-6;
				marked += marks[j] >= 0;
			}
			/* 230.5 is 9.5 samples back, 4 a column: column 57 */
			CHECK(known == 60 && marked == 1 && marks[57] == 0);
			/* 150 columns over 240 samples (1.6 a column): still one */
			{
				double v150[150];
				int m150[150];

				history_series(h, M_ROWS_PER_S, 150, 240, v150);
				history_series_marks(h, 150, 240, m150);
				for (j = 0, known = 0, marked = 0; j < 150; j++) {
					known += fabs(v150[j] - 4000) < 1e-6;
					marked += m150[j] >= 0;
				}
				CHECK(known == 150 && marked == 1 && m150[144] == 0);
			}
		}
	}
	CHECK(history_span(h, 480) == 480 && history_span(h, HIST_CAP - 1) == HIST_CAP - 1);
	history_rewind(h);
	CHECK(history_span(h, 480) == 120);
	free(l);
	history_free(h);
}

/* A scale never shrinks while a value that needed it is in the window:
 * rows/s driven up (40k/s for 2 s) then down (4k/s); the full scale stays
 * 50k until the peak's samples left the window, then drops to 5k. A pinned
 * scale stays where it was pinned whatever comes. */
static void test_scale(void)
{
	struct history *h = history_new();
	struct live *l = calloc(1, sizeof *l);
	int i, back = (int)(HIST_SPARK_SPAN / HIST_PERIOD), shrank_early = 0, peak_end = 0;
	double full = 0, pinned[M_COUNT] = { 0 };
	uint64_t rows = 0;

	CHECK(l != NULL);
	for (i = 0; i < 700; i++) {
		double now;

		rows += i >= 20 && i < 28 ? 10000 : 1000;
		l->gen = (unsigned long)i + 1;
		l->c.t = 100 + i * HIST_PERIOD;
		l->c.v[C_ROWS] = rows;
		l->c.valid = 1u << C_ROWS;
		history_offer(h, l, l->c.t);
		now = history_full_scale(h, M_ROWS_PER_S, back, 0);
		if (i == 27)
			peak_end = i;
		/* while the last peak sample (27) is within the window */
		if (i > 27 && i <= 27 + back && now < full)
			shrank_early = 1;
		if (i == 27 + back)
			CHECK(now == 50000); /* still in the window */
		if (i == 31 + back + 1)
			CHECK(now == 5000); /* the 1 s values holding the peak scrolled out */
		full = now;
	}
	CHECK(peak_end == 27 && !shrank_early && full == 5000);
	/* the figures drawn with it (a sparkline's columns) count too */
	CHECK(history_full_scale(h, M_ROWS_PER_S, back, 12345) == 20000);
	/* a percentage: always 0..100 */
	CHECK(history_full_scale(h, M_HOT_PCT, back, 3) == 100);
	/* pinned: the scale stays put while the rate goes up tenfold */
	pinned[M_ROWS_PER_S] = 5000;
	history_pin_scales(h, pinned);
	for (i = 0; i < 8; i++) {
		rows += 10000;
		l->gen++;
		l->c.t += HIST_PERIOD;
		l->c.v[C_ROWS] = rows;
		history_offer(h, l, l->c.t);
	}
	CHECK(h->scales_pinned && history_full_scale(h, M_ROWS_PER_S, back, 40000) == 5000);
	history_unpin_scales(h);
	CHECK(history_full_scale(h, M_ROWS_PER_S, back, 0) == 50000);
	/* bytes step in binary: 83 MiB on a 100 MiB scale, 700 KiB on 1 MiB */
	CHECK(spark_nice_bytes(83.0 * 1048576) == 100.0 * 1048576);
	CHECK(spark_nice_bytes(700.0 * 1024) == 1048576 && spark_nice_bytes(0) == 0);
	free(l);
	history_free(h);
}

/* A scale's label in the metric's unit, at most 6 columns; ratios marked
 * by the metric's good direction. */
static void test_scale_labels(void)
{
	static const struct {
		int m;
		double full;
		const char *text;
	} labels[] = {
		{ M_ROWS_PER_S, 500000, "500k" },
		{ M_FSYNCS_PER_COMMIT, 5, "5" },
		{ M_MISSES_PER_ROW, 0.002, "0.002" },
		{ M_DB_BYTES, 100.0 * 1048576, "100MiB" },
		{ M_WAL_BYTES_PER_ROW, 500, "500B" },
		{ M_P99_MS, 20, "20ms" },
		{ M_P50_MS, 0.5, "500us" },
		{ M_HOT_PCT, 100, "100%" },
		{ M_CACHE_BYTES, 2.0 * 1048576, "2MiB" },
		{ M_ROWS_PER_S, 0, "" },
		/* under a byte a row (SQLite's wal B/row): not "0B" */
		{ M_WAL_BYTES_PER_ROW, 0.5, "0.5B" },
		{ M_WAL_BYTES_PER_ROW, 0.05, "0.05B" },
	};
	char buf[32];
	size_t i;

	for (i = 0; i < sizeof labels / sizeof labels[0]; i++) {
		history_format_scale(labels[i].m, labels[i].full, buf, sizeof buf);
		if (strcmp(buf, labels[i].text) != 0)
			printf("  scale %g of %s: '%s', want '%s'\n", labels[i].full,
			       metric_table[labels[i].m].field, buf, labels[i].text);
		CHECK(strcmp(buf, labels[i].text) == 0 && strlen(buf) <= 6);
	}
	/* a baseline near 0 (under a thousandth of the full scale): no ratio of
	 * noise (miss/row 175889x) */
	dash_format_ratio_near(1.76, 0.00001, 0.002, 1, buf, sizeof buf);
	CHECK(strcmp(buf, "from ~0") == 0);
	dash_format_ratio_near(1.76, 0.00001, 0.002, 0, buf, sizeof buf);
	CHECK(strcmp(buf, "from \u22480") == 0);
	dash_format_ratio_near(0.0001, 0.00001, 0.002, 1, buf, sizeof buf);
	CHECK(strcmp(buf, "-") == 0);
	dash_format_ratio_near(0.5, 2, 0.002, 1, buf, sizeof buf);
	CHECK(strcmp(buf, "0.25x") == 0);
	/* a value under a ten-thousandth a row is small, not none */
	history_format(M_MISSES_PER_ROW, 0.00003, 0, buf, sizeof buf);
	CHECK(strcmp(buf, "<0.0001") == 0);
	history_format(M_MISSES_PER_ROW, 0.0003, 0, buf, sizeof buf);
	CHECK(strcmp(buf, "0.0003") == 0);
	history_format(M_MISSES_PER_ROW, 0, 0, buf, sizeof buf);
	CHECK(strcmp(buf, "0") == 0);
	/* the good direction: rows/s 0.26x is worse, p99 0.26x better */
	CHECK(history_ratio_sense(M_ROWS_PER_S, 26, 100, 0) == -1);
	CHECK(history_ratio_sense(M_P99_MS, 26, 100, 0) == 1);
	CHECK(history_ratio_sense(M_ROWS_PER_S, 300, 100, 0) == 1);
	CHECK(history_ratio_sense(M_P99_MS, 300, 100, 0) == -1);
	CHECK(history_ratio_sense(M_ROWS_PER_S, 105, 100, 0) == 0); /* within 10 %: noise */
	CHECK(history_ratio_sense(M_DB_BYTES, 300, 100, 0) == 0);   /* no good direction */
	CHECK(history_ratio_sense(M_MISSES_PER_ROW, 1.76, 0.00001, 0.002) == -1); /* from ~0 */
	CHECK(history_ratio_sense(M_HOT_PCT, 90, 0, 0) == 1);
	CHECK(history_ratio_sense(M_P99_MS, NAN, 3, 0) == 0);
	/* every metric the dashboard shows has a good direction or is a size/gauge */
	CHECK(metric_table[M_HOT_PCT].better == BETTER_HIGHER &&
	      metric_table[M_FPI_BYTES_PER_ROW].better == BETTER_LOWER &&
	      metric_table[M_CACHE_BYTES].better == BETTER_NONE);
}

/* The mouse hits what was drawn: knob rows under the title and the box's
 * top line, bar cells at columns 22..29 of the 32-column knobs panel. */
static void test_layout(void)
{
	struct layout l;

	layout_compute(&l, 100, 30, 15, 15);
	CHECK(!l.too_small && l.knobs.w == 32 && l.metrics.x == 32 && l.events_on);
	CHECK(layout_knob_row(&l, 1) == -1 && layout_knob_row(&l, 2) == 0 &&
	      layout_knob_row(&l, 16) == 14 && layout_knob_row(&l, 17) == -1);
	CHECK(layout_bar_pos(&l, 21) < 0 && layout_bar_pos(&l, 30) < 0);
	CHECK(fabs(layout_bar_pos(&l, 22) - 0.5 / 8) < 1e-9 &&
	      fabs(layout_bar_pos(&l, 29) - 7.5 / 8) < 1e-9);
	CHECK(layout_in_knobs(&l, 31) && !layout_in_knobs(&l, 32));
	layout_compute(&l, 79, 30, 15, 15);
	CHECK(l.too_small);
}

/* A man page heading line (.B, .BR, .RB ...) as groff prints it. */
static void man_render(const char *line, char *out, size_t len)
{
	int alternate = line[2] != ' ', quoted = 0;
	size_t n = 0;
	const char *p = strchr(line, ' ');

	for (p = p ? p + 1 : ""; *p && n + 1 < len; p++) {
		if (*p == '"') {
			quoted = !quoted;
		} else if (*p == ' ' && !quoted) {
			if (!alternate)
				out[n++] = ' ';
		} else if (p[0] == '\\' && p[1] == '-') {
			out[n++] = '-';
			p++;
		} else if (p[0] == '\\' && p[1] == '&') {
			p++;
		} else {
			out[n++] = *p;
		}
	}
	out[n] = 0;
}

/* Every key of the dashboard's binding table has a heading in the man
 * page's DASHBOARD section, named as the table names it. */
static void test_man_keys(void)
{
	char path[1024], line[512], heads[64][128];
	int nheads = 0, in = 0, next = 0;
	size_t i, j;
	FILE *f;

	snprintf(path, sizeof path, "%s/../../man/idxlab.1", fixtures);
	f = fopen(path, "r");
	CHECK(f != NULL);
	if (!f)
		return;
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = 0;
		if (strncmp(line, ".SH ", 4) == 0)
			in = strcmp(line, ".SH DASHBOARD") == 0;
		if (in && next && nheads < 64)
			man_render(line, heads[nheads++], sizeof heads[0]);
		next = in && strcmp(line, ".TP") == 0;
	}
	fclose(f);
	CHECK(nheads >= 10);
	for (i = 0; i < input_nbindings; i++) {
		const char *names = input_bindings[i].names;
		int found = 0;

		if (!names)
			continue;
		for (j = 0; j < (size_t)nheads; j++)
			found |= strcmp(heads[j], names) == 0;
		if (!found)
			printf("  the man page's DASHBOARD section has no heading '%s'\n", names);
		CHECK(found);
	}
}

/* The launcher: a failed exec is reported with its errno, not as a child
 * that "exited 127"; the child gets default signal dispositions (idxlab
 * ignores SIGPIPE), only fds 0-2 of ours, and the default environment. */
static void test_spawn(void)
{
	const char *nothere[] = { "/nonexistent/idxlab-prog", NULL };
	const char *sig[] = { "/bin/sh", "-c", "grep SigIgn /proc/self/status", NULL };
	const char *fds[] = { "/bin/sh", "-c", "ls /proc/self/fd | wc -l", NULL };
	const char *env[] = { "/bin/sh", "-c", "echo \"${IDXLAB_UNIT_ENV:-unset} $LC_ALL\"", NULL };
	struct spawn s = { .argv = nothere, .out = -1 };
	struct err e = { ERR_NONE, "" };
	char buf[256], dir[PATH_MAX];
	const char *pos;
	int leak = open("/dev/null", O_RDONLY), st = -1, rc;
	unsigned long long ign;
	pid_t pid;

	CHECK(spawn_start(&s, "the test program", &e) < 0 &&
	      strstr(e.msg, "cannot run the test program: No such file or directory"));
	signal(SIGPIPE, SIG_IGN);
	/* SIGPIPE (bit 13) only: what idxlab's own ancestors ignored, such as
	 * glibc's signals 32 and 33 that sigaction() cannot reset, may stay. */
	rc = spawn_capture(sig, buf, sizeof buf);
	ign = strstr(buf, "SigIgn:\t") ? strtoull(strstr(buf, "SigIgn:\t") + 8, NULL, 16) : ~0ULL;
	CHECK(rc == 0 && !(ign & 1ULL << (SIGPIPE - 1)));
	if (rc != 0 || ign & 1ULL << (SIGPIPE - 1))
		printf("  capture: %d, \"%s\"\n", rc, buf);
	signal(SIGPIPE, SIG_DFL);
	/* 0, 1, 2 and the dir ls reads: not `leak` (no close-on-exec) */
	rc = spawn_capture(fds, buf, sizeof buf);
	CHECK(leak > 2 && rc == 0 && atoi(buf) == 4);
	if (rc != 0 || atoi(buf) != 4)
		printf("  capture: %d, \"%s\"\n", rc, buf);
	close(leak);
	setenv("IDXLAB_UNIT_ENV", "set", 1);
	CHECK(spawn_capture(env, buf, sizeof buf) == 0 && strcmp(buf, "unset C\n") == 0);
	unsetenv("IDXLAB_UNIT_ENV");
	CHECK(spawn_run(&s, "it", &e) < 0);
	s.argv = sig;
	CHECK(spawn_run(&s, "it", &e) == 0);
	/* A child that ends is reaped within the bound; a live one is not. */
	s.argv = (const char *[]){ "/bin/sleep", "30", NULL };
	pid = spawn_start(&s, "sleep", &e);
	CHECK(pid > 0 && spawn_reap(pid, &st, 0) == 0);
	/* its own session: it leads its process group */
	CHECK(pid > 0 && getpgid(pid) == pid && getsid(pid) == pid);
	CHECK(proc_comm(pid, buf, sizeof buf) == 0 && strcmp(buf, "sleep") == 0);
	CHECK(proc_cmdline(pid, buf, sizeof buf) > 0 && strcmp(buf, "/bin/sleep 30 ") == 0);
	CHECK(proc_ppid(pid) == getpid());
	{
		pid_t kids[8];
		int n = proc_children(getpid(), kids, 8), i, found = 0;

		for (i = 0; i < n; i++)
			found |= kids[i] == pid;
		CHECK(found);
	}
	if (pid > 0)
		kill(pid, SIGKILL);
	CHECK(pid > 0 && spawn_reap(pid, &st, 5000) == 1 && WIFSIGNALED(st));
	CHECK(proc_comm(pid, buf, sizeof buf) < 0);
	spawn_describe_status(st, buf, sizeof buf);
	CHECK(strcmp(buf, "was killed by signal 9 (Killed)") == 0);
	/* $PATH: absolute entries only */
	pos = "rel:/usr/bin::/bin";
	CHECK(spawn_path_next(&pos, dir, sizeof dir) == 0 && strcmp(dir, "/usr/bin") == 0);
	CHECK(spawn_path_next(&pos, dir, sizeof dir) == 0 && strcmp(dir, "/bin") == 0);
	CHECK(spawn_path_next(&pos, dir, sizeof dir) < 0);
	CHECK(spawn_is_exec_file("/bin", "sh") && !spawn_is_exec_file("/", "bin"));
}

/* The log tail of an open fd, from an offset, keeping the newest lines. */
static void test_fd_tail(void)
{
	static const char text[] = "old\nnew one  \n\ntwo\nthree\n";
	char path[PATH_MAX], buf[64];
	int fd = mkstemp(tmp_path(path, sizeof path, "idxlab-unit-tail.XXXXXX"));
	ssize_t w;

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	unlink(path);
	w = write(fd, text, strlen(text));
	CHECK(w == (ssize_t)strlen(text));
	tmpdir_fd_tail(fd, 4, 10, TMPDIR_TAIL_NEWEST, buf, sizeof buf);
	CHECK(strcmp(buf, "new one | two | three") == 0);
	tmpdir_fd_tail(fd, 4, 2, TMPDIR_TAIL_NEWEST, buf, sizeof buf);
	CHECK(strcmp(buf, "two | three") == 0);
	tmpdir_fd_tail(fd, 0, 10, TMPDIR_TAIL_NEWEST, buf, 12);
	CHECK(strcmp(buf, "two | three") == 0);
	tmpdir_fd_tail(fd, (off_t)strlen(text), 10, TMPDIR_TAIL_NEWEST, buf, sizeof buf);
	CHECK(buf[0] == 0);
	tmpdir_fd_tail(-1, 0, 10, TMPDIR_TAIL_NEWEST, buf, sizeof buf);
	CHECK(buf[0] == 0);
	close(fd);
}

static const struct {
	const char *name;
	void (*fn)(void);
} tests[] = {
	{ "unit/log-tail", test_log_tail },
	{ "unit/rowset", test_rowset },
	{ "unit/units", test_units },
	{ "unit/knobs", test_knobs },
	{ "unit/knob-engines", test_knob_engines },
	{ "unit/metric-engines", test_metric_engines },
	{ "unit/config", test_config },
	{ "unit/demo", test_demo },
	{ "unit/metrics", test_metrics },
	{ "unit/histogram", test_hist },
	{ "unit/proc_io", test_proc_io },
	{ "unit/keys", test_keys },
	{ "unit/sparkline-gauge", test_spark },
	{ "unit/sliders-labels", test_slider },
	{ "unit/recording", test_recording },
	{ "unit/fstree", test_fstree },
	{ "unit/redact", test_redact },
	{ "unit/evlog-fold", test_evlog_fold },
	{ "unit/history", test_history },
	{ "unit/scale-grow-only", test_scale },
	{ "unit/series-span", test_series_span },
	{ "unit/scale-labels-ratio-sense", test_scale_labels },
	{ "unit/layout", test_layout },
	{ "unit/presenter", test_presenter },
	{ "unit/demo-back", test_demo_back },
	{ "unit/man-keys", test_man_keys },
	{ "unit/spawn-proc", test_spawn },
	{ "unit/fd-tail", test_fd_tail },
	{ "unit/schema", test_schema },
	{ "unit/schema-files", test_schema_files },
	{ "unit/row", test_row },
	{ "unit/own-index", test_own_index },
	{ "unit/orders", test_orders },
	{ "unit/txn-loop", test_txn },
	{ "unit/replay-seek", test_replay_seek },
	{ "unit/replay-seek-long", test_replay_seek_long },
	{ "unit/history-rewind", test_history_rewind },
	{ "unit/replay-seek-events-once", test_replay_seek_events_once },
	{ "unit/textfit", test_textfit },
	{ "unit/whatif", test_whatif },
	{ "unit/answer", test_answer },
	{ "unit/spread", test_spread },
#ifdef IDXLAB_HAVE_MONGO
	{ "unit/mongo", test_mongo },
	{ "unit/mongo-status-table", test_mongo_status_table },
#endif
};

int main(int argc, char **argv)
{
	size_t i;
	int failed = 0;

	if (argc > 1)
		fixtures = argv[1];
#ifndef IDXLAB_HAVE_MONGO
	printf(
	    "SKIP unit/mongo: built without the mongo engine (install libmongoc-dev, then make)\n");
#endif
	for (i = 0; i < sizeof tests / sizeof tests[0]; i++) {
		failed_checks = 0;
		tests[i].fn();
		if (failed_checks) {
			printf("FAIL %s: %d checks failed\n", tests[i].name, failed_checks);
			failed++;
		} else {
			printf("PASS %s\n", tests[i].name);
		}
	}
	return failed ? 1 : 0;
}
