/* schema_gen_fit.c - the cases of src/schema_gen_fit.c: a generated
 * column's arithmetic checked against PostgreSQL's types over the values
 * a run writes, and the in:LO..HI range that keeps its operands where a
 * source's are (issue 19). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "knobs.h"
#include "schema.h"
#include "schema_gen.h"
#include "unit.h"

/* A spec from text, or NULL with its error in e. */
static const struct schema *spec(const char *text, struct err *e)
{
	char path[4096];
	int fd = mkstemp(tmp_path(path, sizeof path, "idxlab-unit-genfitXXXXXX"));
	long long v = -1;
	size_t n = strlen(text);

	CHECK(fd >= 0 && write(fd, text, n) == (ssize_t)n);
	close(fd);
	*e = (struct err){ ERR_NONE, "" };
	if (schema_load(path, &v, e) < 0)
		v = -1;
	unlink(path);
	return v < 0 ? NULL : schema_get(v);
}

/* Does s fit in rows rows (updates to vmax)? 0, or -1 with e's message
 * holding want. */
static int fits(const struct schema *s, uint64_t rows, uint64_t vmax, const char *want)
{
	struct knobs k;
	struct err e = { ERR_NONE, "" };
	int rc;

	knobs_defaults(&k);
	k.v[K_OP] = vmax ? OP_UPDATE_KEYS : OP_INSERT;
	if (!s)
		return 1;
	rc = schema_gen_fits(s, &k, rows, vmax, &e);
	if (rc < 0 && want && !strstr(e.msg, want)) {
		printf("  message: %s\n  lacks: %s\n", e.msg, want);
		return 1;
	}
	return rc;
}

static void overflow(void)
{
	struct err e;
	const struct schema *big = spec("column qty bigint rand\ncolumn price bigint rand\n"
	                                "column total bigint rand generated (qty * price) stored\n",
	                                &e);
	const struct schema *small = spec("column qty int rand\ncolumn price int rand\n"
	                                  "column total int rand generated (qty * price) stored\n",
	                                  &e);
	const struct schema *lim = spec("column qty int few:10\ncolumn price int rand in:1..5000\n"
	                                "column total int rand generated (qty * price) stored\n",
	                                &e);

	CHECK(big && small && lim);
	/* bigint rand spans 63 bits: the product leaves bigint, named */
	CHECK(fits(big, 1000, 0, "column total generated (qty * price)") == -1);
	CHECK(fits(big, 1000, 0, "\"bigint out of range\"") == -1);
	CHECK(fits(big, 1000, 0, "in:LO..HI") == -1);
	/* int4 times int4 is int4 on PostgreSQL */
	CHECK(fits(small, 1000, 0, "\"integer out of range\"") == -1);
	/* 9 * 5000 stays an int */
	CHECK(fits(lim, 1000000, 0, NULL) == 0);
}

static void ranged(void)
{
	struct err e;
	const struct schema *s =
	    spec("column qty bigint rand in:1..1000\ncolumn price bigint few:50 in:100..9900\n"
	         "column total bigint rand generated (qty * price) stored\n"
	         "column up bigint seq in:-20..20\ncolumn down int desc in:-5..7\n",
	         &e);
	struct knobs k;
	struct value v;
	uint64_t row;
	int bad = 0, seen_lo = 0, seen_hi = 0;

	CHECK(s != NULL);
	if (!s) {
		printf("  %s\n", e.msg);
		return;
	}
	knobs_defaults(&k);
	CHECK(fits(s, 5000000, 0, NULL) == 0);
	for (row = 0; row < 20000; row++) {
		schema_value(s, &k, 1, row, 0, &v);
		bad += v.i < 1 || v.i > 1000;
		seen_lo |= v.i == 1;
		seen_hi |= v.i == 1000;
		schema_value(s, &k, 2, row, 0, &v); /* 50 values, 100 + 200 j */
		bad += v.i < 100 || v.i > 9900 || (v.i - 100) % 200 != 0;
	}
	CHECK(bad == 0 && seen_lo && seen_hi);
	schema_value(s, &k, 4, 0, 0, &v); /* seq grows from LO, past HI */
	CHECK(v.i == -20);
	schema_value(s, &k, 4, 100, 0, &v);
	CHECK(v.i == 80);
	schema_value(s, &k, 5, 0, 0, &v); /* desc falls from HI */
	CHECK(v.i == 7);
	schema_value(s, &k, 5, 12, 0, &v);
	CHECK(v.i == -5);
}

static void numeric(void)
{
	struct err e;
	const struct schema *ok =
	    spec("column price numeric(8,2) rand\ncolumn qty int few:10\n"
	         "column total numeric(12,2) rand generated (price * qty) stored\n",
	         &e);
	const struct schema *tight =
	    spec("column price numeric(8,2) rand\ncolumn qty int few:10\n"
	         "column total numeric(7,2) rand generated (price * qty) stored\n",
	         &e);
	const struct schema *in =
	    spec("column price numeric(8,2) rand in:0.50..99.99\ncolumn qty int few:10\n"
	         "column total numeric(7,2) rand generated (price * qty) stored\n",
	         &e);
	char buf[SCHEMA_TEXT_SIZE];
	struct knobs k;
	struct value v;
	uint64_t row;
	int bad = 0;

	CHECK(ok && tight && in);
	if (!ok || !tight || !in)
		return;
	CHECK(fits(ok, 100000, 0, NULL) == 0);
	/* 999999.99 * 9 has 7 digits before the point: numeric(7,2) holds 5 */
	CHECK(fits(tight, 100000, 0, "\"numeric field overflow\"") == -1);
	CHECK(fits(in, 100000, 0, NULL) == 0);
	knobs_defaults(&k);
	for (row = 0; row < 5000; row++) {
		schema_value(in, &k, 1, row, 0, &v);
		bad += v.i < 50 || v.i > 9999 || v.scale != 2;
	}
	CHECK(bad == 0);
	schema_write(in, buf, sizeof buf);
	CHECK(strstr(buf, "column price numeric(8,2) rand in:0.50..99.99\n") != NULL);
}

static void updates(void)
{
	struct err e;
	const struct schema *s = spec("column a bigint seq\ncolumn b bigint seq\n"
	                              "column c bigint rand generated (a * b) stored\n",
	                              &e);

	CHECK(s != NULL);
	/* a million rows: 1e6 * 1e6 fits; an update moves seq values 2^40 up */
	CHECK(fits(s, 1000000, 0, NULL) == 0);
	CHECK(fits(s, 1000000, 1, "updates moving growing values up") == -1);
}

static void functions(void)
{
	struct err e;
	const struct schema *s =
	    spec("column a int rand\ncolumn b int few:100\ncolumn name text(8) rand\n"
	         "column c bigint rand generated (a::bigint * b) stored\n"
	         "column d int rand generated (length(name) * 100 + abs(b - 50)) stored\n"
	         "column e bigint rand generated (coalesce(a, b) / (b - 7)) stored\n",
	         &e);
	const struct schema *neg = spec("column a int rand\n"
	                                "column c int rand generated (-(a + 1)) stored\n",
	                                &e);

	CHECK(s && neg);
	/* a cast to bigint first: int8 holds 2^31 * 99 */
	CHECK(fits(s, 100000, 0, NULL) == 0);
	/* a + 1 leaves int at a = 2^31 - 1 */
	CHECK(fits(neg, 1000, 0, "\"integer out of range\"") == -1);
}

static void range_words(void)
{
	static const struct {
		const char *line, *want;
	} bad[] = {
		{ "column a int rand in:5..1\n", "LO is at most HI" },
		{ "column a int rand in:1.5..2\n", "'in:1.5..2': in:LO..HI" },
		{ "column a int rand in:0..3000000000\n", "within int" },
		{ "column a int few:10 in:1..5\n", "fewer than the 10 distinct values" },
		{ "column a text(8) rand in:1..5\n", "for an int, bigint or numeric" },
		{ "column a bigint knob in:1..5\n", "takes seq, desc, late, rand" },
		{ "column a numeric(4,2) rand in:0.001..1\n", "at most its scale's decimals" },
		{ "id bigint seq in:1..5\n", "the id's values are idxlab's" },
		{ "column a int rand in:1..5 in:1..5\n", "'in:1..5' after the order" },
	};
	struct err e;
	size_t i;
	char buf[SCHEMA_TEXT_SIZE];
	const struct schema *s;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		s = spec(bad[i].line, &e);
		CHECK(s == NULL && e.cls == ERR_USAGE && strstr(e.msg, bad[i].want));
		if (s || !strstr(e.msg, bad[i].want))
			printf("  %s -> %s\n", bad[i].line, e.msg);
	}
	s = spec("column a int rand in:-3..9 null:10%\ncolumn b bigint desc:4 in:0..100\n", &e);
	CHECK(s != NULL);
	if (!s)
		return;
	schema_write(s, buf, sizeof buf);
	CHECK(strstr(buf, "column a int rand in:-3..9 null:10%\n") &&
	      strstr(buf, "column b bigint desc:4 in:0..100\n"));
}

const struct unit_case unit_schema_gen_fit[] = {
	{ "unit/gen-fit-overflow", overflow },
	{ "unit/gen-fit-ranged", ranged },
	{ "unit/gen-fit-numeric", numeric },
	{ "unit/gen-fit-updates", updates },
	{ "unit/gen-fit-functions", functions },
	{ "unit/gen-fit-range-words", range_words },
	{ NULL, NULL },
};
