/* schema_type.c - the cases of src/schema_type.c: a table's own row (issue
 * 19, item 3): the types numeric, bool, date and timestamptz, NULL shares,
 * hot and payload words, as the spec language reads and writes them and as
 * schema_value() makes the values; a derived table's hot column; the
 * MongoDB document of such a row (Decimal128, a NULL field left out). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "knobs.h"
#include "schema.h"
#include "schema_from.h"
#include "unit.h"

#ifdef IDXLAB_HAVE_MONGO
#include "engines/mongo/doc.h"
#endif

static const char spec_text[] = "table own\n"
                                "id bigint seq\n"
                                "column amount numeric(10,2) rand\n"
                                "column flag bool few:2\n"
                                "column day date seq\n"
                                "column at timestamptz rand\n"
                                "column kind text(4) few:5 null:30%\n"
                                "column note text(20) rand null:2.5%\n"
                                "hot note\n"
                                "payload none\n"
                                "index kind\n";

static const struct schema *load_text(const char *text, struct err *e)
{
	char path[4096];
	int fd = mkstemp(tmp_path(path, sizeof path, "idxlab-unit-rowXXXXXX"));
	size_t n = strlen(text);
	long long v = -1;
	int rc;

	CHECK(fd >= 0 && write(fd, text, n) == (ssize_t)n);
	close(fd);
	rc = schema_load(path, &v, e);
	unlink(path);
	return rc == 0 ? schema_get(v) : NULL;
}

/* The words read back as they were written. */
static void row_spec_words(void)
{
	struct err e = { ERR_NONE, "" };
	const struct schema *s = load_text(spec_text, &e);
	char out[2048];

	CHECK(s != NULL);
	if (!s) {
		printf("  %s\n", e.msg);
		return;
	}
	CHECK(s->cols[1].type == COL_NUMERIC && s->cols[1].prec == 10 && s->cols[1].scale == 2);
	CHECK(s->cols[2].type == COL_BOOL && s->cols[3].type == COL_DATE &&
	      s->cols[4].type == COL_TIMESTAMPTZ);
	CHECK(s->cols[5].nulls > 0.2999 && s->cols[5].nulls < 0.3001);
	CHECK(s->hot_col == 6 && !schema_has_hot(s) && s->no_payload);
	schema_write(s, out, sizeof out);
	CHECK(strcmp(out, spec_text) == 0);
	if (strcmp(out, spec_text) != 0)
		printf("  written back:\n%s", out);
}

/* Values: within the type, NULLs at their share, the same every time. */
static void row_values(void)
{
	struct err e = { ERR_NONE, "" };
	const struct schema *s = load_text(spec_text, &e);
	struct knobs k;
	struct value v, w;
	int nulls = 0, notes = 0, ones = 0, bad = 0;
	uint64_t r;

	if (!s)
		return;
	knobs_defaults(&k);
	k.v[K_SCHEMA] = 0;
	for (r = 0; r < 20000; r++) {
		schema_value(s, &k, 1, r, 0, &v);
		bad += v.null || v.i < 0 || v.i >= 10000000000LL || v.scale != 2;
		schema_value(s, &k, 2, r, 0, &v);
		bad += v.i != 0 && v.i != 1;
		ones += v.i == 1;
		schema_value(s, &k, 3, r, 0, &v);
		bad += v.i != 20454 + (int64_t)r; /* 2026-01-01 + one day a row */
		schema_value(s, &k, 5, r, 0, &v);
		nulls += v.null;
		schema_value(s, &k, 5, r, 0, &w);
		bad += v.null != w.null || (!v.null && memcmp(v.b, w.b, v.len) != 0);
		schema_value(s, &k, 6, r, 0, &v);
		notes += v.null;
	}
	CHECK(bad == 0);
	CHECK(ones > 9000 && ones < 11000);
	CHECK(nulls > 5600 && nulls < 6400); /* 30 % of 20000 */
	CHECK(notes > 300 && notes < 700);   /* 2.5 % */
	/* op update writes the hot column's next version */
	{
		int cols[SCHEMA_COLS_MAX];

		CHECK(schema_op_cols(s, OP_UPDATE, cols) == 1 && cols[0] == 6);
	}
	/* few numeric values: a price list, 0.99, 1.99, 2.99 */
	s = load_text("column price numeric(6,2) few:3\n", &e);
	CHECK(s != NULL);
	for (r = 0, bad = 0; s && r < 300; r++) {
		schema_value(s, &k, 1, r, 0, &v);
		bad += v.i != 99 && v.i != 199 && v.i != 299;
	}
	CHECK(bad == 0);
	/* SQLite's text of a date and a time */
	v.type = COL_DATE;
	v.null = 0;
	v.i = 20454;
	schema_time_text(&v);
	CHECK(v.len == 10 && memcmp(v.b, "2026-01-01", 10) == 0);
	v.type = COL_TIMESTAMPTZ;
	v.i = 1767225600000000LL + 3723000000LL;
	schema_time_text(&v);
	CHECK(v.len == 19 && memcmp(v.b, "2026-01-01 01:02:03", 19) == 0);
}

/* Bad words: file:line and what is meant. */
static void row_spec_errors(void)
{
	static const struct {
		const char *text, *want;
	} bad[] = {
		{ "column a numeric(20,2) rand\n", ":1: 'numeric(20,2)': numeric(P,S)" },
		{ "column a numeric(4,5) rand\n", ":1: 'numeric(4,5)': numeric(P,S)" },
		{ "column a numeric rand\n", ":1: a numeric column says its precision" },
		{ "column a int rand null:120%\n", ":1: 'null:120%': null:P%" },
		{ "column a int rand nulls\n", ":1: 'nulls' after the order: only null:P%" },
		{ "column a bool few:3\n", ":1: a: a bool holds 2 distinct values" },
		{ "column a numeric(2,0) few:500\n", ":1: a: numeric(2,0) holds fewer than 500" },
		{ "column a numeric(4,2) few:101\n", ":1: a: numeric(4,2) holds fewer than 101" },
		{ "payload some\n", ":1: payload none:" },
		{ "column a int rand\nhot a\nindex a\n", ":3: index a: a is the column" },
		{ "column hot int rand\nindex hot\n",
		  "column hot: hot is the name of idxlab's own" },
	};
	size_t i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct err e = { ERR_NONE, "" };

		CHECK(load_text(bad[i].text, &e) == NULL && strstr(e.msg, bad[i].want));
		if (!strstr(e.msg, bad[i].want))
			printf("  '%s': got '%s'\n", bad[i].want, e.msg);
	}
}

/* A derived table: no payload, no hot; op update on a column no index
 * covers, none when every column is indexed; NULL shares kept. */
static void row_derived(void)
{
	static struct table_shape t;
	struct schema s;
	int cols[SCHEMA_COLS_MAX];

	memset(&t, 0, sizeof t);
	t.rows = 1000;
	t.ncols = 3;
	snprintf(t.cols[0].name, sizeof t.cols[0].name, "id");
	t.cols[0].type = COL_BIGINT;
	t.cols[0].pk = 1;
	t.cols[0].ndistinct = 1000;
	snprintf(t.cols[1].name, sizeof t.cols[1].name, "amount");
	t.cols[1].type = COL_NUMERIC;
	t.cols[1].prec = 10;
	t.cols[1].scale = 2;
	t.cols[1].ndistinct = 1000;
	snprintf(t.cols[2].name, sizeof t.cols[2].name, "kind");
	t.cols[2].type = COL_TEXT;
	t.cols[2].len = 3;
	t.cols[2].ndistinct = 5;
	t.cols[2].nulls = 0.283;
	t.nindexes = 1;
	snprintf(t.idx[0].name, sizeof t.idx[0].name, "t_kind");
	t.idx[0].ncols = 1;
	t.idx[0].cols[0] = 2;
	schema_from_derive(&t, "t", &s);
	CHECK(s.no_payload && !schema_has_hot(&s) && s.hot_col == 1);
	CHECK(s.cols[1].type == COL_NUMERIC && s.cols[1].prec == 10 && s.cols[1].scale == 2);
	CHECK(s.cols[2].nulls > 0.2825 && s.cols[2].nulls < 0.2835);
	CHECK(strstr(s.notes, "amount: numeric(10,2) kept") &&
	      strstr(s.notes, "kind: 28.3 % NULL"));
	CHECK(schema_op_cols(&s, OP_UPDATE, cols) == 1 && cols[0] == 1);
	/* index amount too: nothing left for op update */
	t.nindexes = 2;
	snprintf(t.idx[1].name, sizeof t.idx[1].name, "t_amount");
	t.idx[1].ncols = 1;
	t.idx[1].cols[0] = 1;
	schema_from_derive(&t, "t", &s);
	CHECK(s.hot_col == 0 && s.hot[0] == 0 && schema_op_cols(&s, OP_UPDATE, cols) == 0);
	CHECK(strstr(s.notes, "every column is indexed"));
}

#ifdef IDXLAB_HAVE_MONGO
/* A document: numeric as Decimal128, bool, a NULL left out, no hot and no
 * payload field. */
static void row_mongo(void)
{
	struct err e = { ERR_NONE, "" };
	const struct schema *s = load_text(spec_text, &e);
	struct knobs k;
	long long v = -1;
	uint64_t r;
	int absent = 0, present = 0;

	if (!s)
		return;
	knobs_defaults(&k);
	for (v = 0; schema_get(v) && schema_get(v) != s; v++)
		;
	k.v[K_SCHEMA] = v;
	k.v[K_PAYLOAD] = 0;
	for (r = 0; r < 200; r++) {
		bson_t doc;
		bson_iter_t it;

		bson_init(&doc);
		mongo_doc_row(&doc, &k, r, "", 0);
		CHECK(bson_iter_init_find(&it, &doc, "amount") && BSON_ITER_HOLDS_DECIMAL128(&it));
		CHECK(bson_iter_init_find(&it, &doc, "flag") && BSON_ITER_HOLDS_BOOL(&it));
		CHECK(bson_iter_init_find(&it, &doc, "day") && BSON_ITER_HOLDS_DATE_TIME(&it));
		CHECK(!bson_iter_init_find(&it, &doc, "hot") &&
		      !bson_iter_init_find(&it, &doc, "payload"));
		if (bson_iter_init_find(&it, &doc, "kind"))
			present++;
		else
			absent++;
		bson_destroy(&doc);
	}
	CHECK(absent > 30 && absent < 90 && present + absent == 200);
}
#endif

static void test_row(void)
{
	row_spec_words();
	row_values();
	row_spec_errors();
	row_derived();
#ifdef IDXLAB_HAVE_MONGO
	row_mongo();
#endif
}

const struct unit_case unit_schema_type[] = {
	{ "unit/row", test_row },
	{ NULL, NULL },
};
