/* schema_order.c - the cases of src/schema_order.c: the seq family of value
 * orders (seq:R, desc[:R], late:P[:R]): values, the words written back, and
 * the order a column's evidence gives (issue 19, item 1). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "knobs.h"
#include "schema.h"
#include "schema_from.h"
#include "unit.h"

static const struct schema *load_text(const char *text)
{
	char path[4096];
	int fd = mkstemp(tmp_path(path, sizeof path, "idxlab-unit-ordersXXXXXX"));
	long long v = -1;
	struct err e = { ERR_NONE, "" };
	size_t n = strlen(text);

	CHECK(fd >= 0 && write(fd, text, n) == (ssize_t)n);
	close(fd);
	if (schema_load(path, &v, &e) < 0)
		printf("  %s\n", e.msg);
	unlink(path);
	return schema_get(v);
}

/* Compare two values as an engine's index would order them. */
static int cmp_value(const struct value *a, const struct value *b)
{
	if (a->type == COL_TEXT || a->type == COL_UUID) {
		size_t n = a->len < b->len ? a->len : b->len;
		int c = memcmp(a->b, b->b, n);

		return c ? c : (a->len > b->len) - (a->len < b->len);
	}
	return (a->i > b->i) - (a->i < b->i);
}

/* Over rows 0..n-1 of column col: falls, rises, and distinct values (runs
 * of equal neighbours, for an order that never falls). */
static void count(const struct schema *s, int col, uint64_t n, uint64_t version, int *falls,
                  int *rises, int *runs)
{
	struct knobs k;
	struct value prev, v;
	uint64_t row;

	knobs_defaults(&k);
	*falls = *rises = 0;
	*runs = 1;
	schema_value(s, &k, col, 0, version, &prev);
	for (row = 1; row < n; row++) {
		int c;

		schema_value(s, &k, col, row, version, &v);
		c = cmp_value(&v, &prev);
		*falls += c < 0;
		*rises += c > 0;
		*runs += c != 0;
		prev = v;
	}
}

static void values(void)
{
	const struct schema *s = load_text("id bigint desc\n"
	                                   "column a bigint seq:5.4\n"
	                                   "column b timestamp desc:3\n"
	                                   "column c int late:2%\n"
	                                   "column d text(12) late:0.05:4\n"
	                                   "column e text(16) desc\n"
	                                   "column f int desc\n"
	                                   "column g uuid seq:7\n");
	struct knobs k;
	struct value v, w;
	int falls, rises, runs, col;

	CHECK(s && s->ncols == 8);
	if (!s)
		return;
	count(s, 0, 10000, 0, &falls, &rises, &runs);
	CHECK(falls == 9999 && rises == 0); /* the id: one value per row, falling */
	count(s, 1, 10000, 0, &falls, &rises, &runs);
	CHECK(falls == 0 && fabs(10000.0 / runs - 5.4) < 0.05);
	count(s, 2, 9000, 0, &falls, &rises, &runs);
	CHECK(rises == 0 && runs == 3000);
	count(s, 3, 20000, 0, &falls, &rises, &runs);
	CHECK(falls > 20000 * 0.016 && falls < 20000 * 0.024);
	count(s, 4, 20000, 0, &falls, &rises, &runs);
	CHECK(falls > 20000 * 0.04 && falls < 20000 * 0.06); /* each late row a fall */
	count(s, 5, 5000, 0, &falls, &rises, &runs);
	CHECK(rises == 0 && falls == 4999);
	count(s, 6, 5000, 0, &falls, &rises, &runs);
	CHECK(rises == 0 && falls == 4999);
	count(s, 7, 7000, 0, &falls, &rises, &runs);
	CHECK(runs == 1000); /* 7 rows per uuid */
	/* Pure functions of the row; an update moves a growing value past
	 * every row, a falling one below every row (as seq's VERSION_STEP). */
	knobs_defaults(&k);
	for (col = 1; col < s->ncols; col++) {
		schema_value(s, &k, col, 1234, 0, &v);
		schema_value(s, &k, col, 1234, 0, &w);
		CHECK(cmp_value(&v, &w) == 0);
	}
	schema_value(s, &k, 1, 0, 1, &v);
	schema_value(s, &k, 1, 1000000, 0, &w);
	CHECK(v.i > w.i);
	schema_value(s, &k, 2, 0, 1, &v);
	schema_value(s, &k, 2, 1000000, 0, &w);
	CHECK(v.i < w.i);
	schema_value(s, &k, 3, 0, 1, &v);
	schema_value(s, &k, 3, 1000000, 0, &w);
	CHECK(v.i != w.i);
}

static void words(void)
{
	static const char *const back[] = { "seq:5.4",   "desc",      "desc:3", "late:2%",
		                            "late:5%:4", "late:0.5%", "seq" };
	const struct schema *s = load_text("column a bigint seq:5.4\n"
	                                   "column b bigint desc\n"
	                                   "column c bigint desc:3\n"
	                                   "column d bigint late:0.02\n"
	                                   "column e bigint late:5%:4\n"
	                                   "column f bigint late:0.5%\n"
	                                   "column g bigint seq:1\n");
	char buf[64];
	int i;

	CHECK(s && s->ncols == 8);
	for (i = 0; s && i < 7; i++) {
		schema_order_text(&s->cols[i + 1], buf, sizeof buf);
		if (strcmp(buf, back[i]) != 0) {
			printf("  column %d written '%s', want '%s'\n", i + 1, buf, back[i]);
			failed_checks++;
		}
	}
}

/* A column's evidence, and the order it must give. */
static void derived(void)
{
	static const struct {
		double sampled, up, down, atmax, atmin, distinct, corr, nd;
		const char *dflt, *counter;
		enum col_type type;
		const char *want, *why;
		int paged; /* a sample in PostgreSQL's heap order */
	} t[] = {
		{ 2240, 412, 0, 2239, 4, 413, NAN, 413, "", NULL, COL_INT, "seq:5.4",
		  "never decreases in 2240 sampled rows, ~5.42 rows per value -> seq:5.4", 0 },
		{ 3000, 2939, 60, 2939, 0, 2940, NAN, 2940, "", NULL, COL_BIGINT, "late:2%",
		  "below an earlier row at 60 of 3000 sampled rows (2%) -> late:2%", 0 },
		{ 3000, 0, 2999, 0, 2999, 3000, NAN, 3000, "", NULL, COL_BIGINT, "desc",
		  "never increases in 3000 sampled rows -> desc", 0 },
		{ 3000, 1500, 1499, 9, 7, 3000, NAN, 3000, "", NULL, COL_BIGINT, "rand", NULL, 0 },
		/* a cycle: rises nearly always, but comes back to the bottom */
		{ 3000, 2997, 2, 2, 2, 1000, NAN, 1000, "", NULL, COL_BIGINT, "few:1000", NULL, 0 },
		{ 3000, 1120, 1130, 3, 3, 5, NAN, 5, "", NULL, COL_INT, "few:5", NULL, 0 },
		{ 3000, 1, 0, 2999, 1000, 2, NAN, 2, "", NULL, COL_INT, "few:2", NULL,
		  0 }, /* a flag */
		{ 0, 0, 0, 0, 0, 0, 1.0, 412, "", NULL, COL_INT, "seq:5.4", NULL,
		  0 }, /* pg_stats */
		{ 0, 0, 0, 0, 0, 0, -0.99, 2240, "", NULL, COL_INT, "desc", NULL, 0 },
		{ 0, 0, 0, 0, 0, 0, 0.1, 2240, "now()", NULL, COL_TIMESTAMP, "seq",
		  "default now() -> seq", 0 },
		{ 0, 0, 0, 0, 0, 0, 1, 2240, "gen_random_uuid()", NULL, COL_UUID, "uuid4", NULL,
		  0 },
		{ 0, 0, 0, 0, 0, 0, 0, 2240, "uuidv7()", NULL, COL_UUID, "uuid7", NULL, 0 },
		{ 0, 0, 0, 0, 0, 0, NAN, -1, "", "identity", COL_BIGINT, "seq", "identity -> seq",
		  0 },
		/* PostgreSQL's heap, page by page in insertion order (rows put back
		 * in earlier pages' free space): a third below an earlier row, but
		 * few falls and a correlation near 1 - it grows, and an identity
		 * stands; random values with the same correlation fall too often */
		{ 5000, 4989, 10, 3535, 1, 5000, 0.99997, 5000, "", NULL, COL_TIMESTAMP, "seq",
		  "correlation 1.00, falls 10 times in 5000 sampled rows (the heap's order is the "
		  "insertion order page by page) -> seq",
		  1 },
		{ 5000, 4989, 10, 3535, 1, 5000, 0.99997, 5000, "", "identity", COL_BIGINT, "seq",
		  "identity -> seq", 1 },
		{ 5000, 3000, 1999, 3535, 1, 5000, 0.95, 5000, "", NULL, COL_BIGINT, "rand", NULL,
		  1 },
		/* a cycle in SQLite's rowid order: its correlation is the sample's
		 * own share of rows that did not fall, no evidence of growth */
		{ 3000, 2990, 9, 299, 10, 300, 0.994, 300, "", NULL, COL_BIGINT, "few:300", NULL,
		  0 },
		/* a clock default the application does not use: the data wins */
		{ 3000, 1500, 1499, 9, 7, 3000, NAN, 3000, "CURRENT_TIMESTAMP", NULL, COL_TIMESTAMP,
		  "rand", NULL, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		struct shape_col c = { .ndistinct = t[i].nd,
			               .correlation = t[i].corr,
			               .top_freq = NAN,
			               .sampled = t[i].sampled,
			               .s_up = t[i].up,
			               .s_down = t[i].down,
			               .s_distinct = t[i].distinct,
			               .s_atmax = t[i].atmax,
			               .s_atmin = t[i].atmin,
			               .counter = t[i].counter,
			               .paged = t[i].paged };
		struct column out = { .type = t[i].type, .len = t[i].type == COL_UUID ? 16 : 0 };
		char why[256], got[32];

		snprintf(c.dflt, sizeof c.dflt, "%s", t[i].dflt);
		schema_from_order(&c, 2240 * (t[i].sampled == 3000 ? 3000.0 / 2240 : 1), &out, why,
		                  sizeof why);
		schema_order_text(&out, got, sizeof got);
		if (strcmp(got, t[i].want) != 0 || (t[i].why && strcmp(why, t[i].why) != 0)) {
			printf("  case %zu: '%s' (%s), want '%s'\n", i, got, why, t[i].want);
			failed_checks++;
		}
	}
	/* Skew against chance: 3,303 track ids drawn uniformly into a sample of
	 * 10,000 rows put ~10 rows on the most common one (3x its fair share, by
	 * chance alone): few, not zipf; a real hot key (a fifth of the rows) is
	 * zipf; PostgreSQL's top share is of ANALYZE's 30,000-row sample. */
	{
		static const struct {
			double sampled, rows, nd, top;
			const char *want;
		} z[] = {
			{ 10000, 1e7, 3303, 10.0 / 10000, "few:3303" },
			{ 10000, 1e7, 3303, 0.2, "zipf" },
			{ 0, 2e6, 1000, 0.0025, "few:1000" },
			{ 0, 2e6, 1000, 0.05, "zipf" },
		};

		for (i = 0; i < sizeof z / sizeof z[0]; i++) {
			struct shape_col c = { .ndistinct = z[i].nd,
				               .correlation = NAN,
				               .top_freq = z[i].top,
				               .sampled = z[i].sampled };
			struct column out = { .type = COL_INT };
			char got[32];

			schema_from_order(&c, z[i].rows, &out, NULL, 0);
			schema_order_text(&out, got, sizeof got);
			if (strncmp(got, z[i].want, strlen(z[i].want)) != 0) {
				printf("  skew case %zu: '%s', want '%s'\n", i, got, z[i].want);
				failed_checks++;
			}
		}
	}
	CHECK(schema_from_default("nextval('t_id_seq'::regclass)") == ORD_SEQ);
	CHECK(schema_from_default("datetime('now')") == ORD_SEQ);
	CHECK(schema_from_default("CURRENT_TIMESTAMP") == ORD_SEQ);
	CHECK(schema_from_default("uuid_generate_v4()") == ORD_UUID4);
	CHECK(schema_from_default("public.uuid_generate_v7()") == ORD_UUID7);
	CHECK(schema_from_default("'x'::text") == ORD_KNOB);
	CHECK(schema_from_default("CURRENT_TIME") == ORD_KNOB); /* a time of day wraps */
}

static void test_orders(void)
{
	values();
	words();
	derived();
}

const struct unit_case unit_schema_order[] = {
	{ "unit/orders", test_orders },
	{ NULL, NULL },
};
