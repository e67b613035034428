/* schema_query_file.c - the cases of src/schema_query_file.c: query lines
 * parse to the right struct, write back to the same struct, and each bad
 * line is refused at file:line naming the word; schema_check refuses a
 * q[] out of range; --schema-from's guessed lookups. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema_from.h"
#include "schema_int.h"
#include "unit.h"

/* The columns every case reads: id 0, email 1, created_at 2, country 3. */
static const char head[] = "table t\n"
                           "id bigint seq\n"
                           "column email text(26) rand\n"
                           "column created_at timestamptz seq\n"
                           "column country text(2) zipf:1:50\n"
                           "index email\n"
                           "index country,created_at\n";
#define HEAD_LINES 7

static int same_query(const struct query_spec *a, const struct query_spec *b)
{
	int i;

	if (strcmp(a->name, b->name) != 0 || a->nterms != b->nterms ||
	    a->order_col != b->order_col || a->order_desc != b->order_desc ||
	    a->limit != b->limit || a->guessed != b->guessed)
		return 0;
	for (i = 0; i < a->nterms; i++)
		if (a->term[i].col != b->term[i].col || a->term[i].cmp != b->term[i].cmp)
			return 0;
	return 1;
}

/* One table: a query line and the struct it reads as (want.name "" and
 * err set: the error it gives, after "spec:8: "). */
static const struct {
	const char *line;
	struct query_spec want;
	const char *err;
} cases[] = {
	{ "query by_email: email = ?",
	  { .name = "by_email",
	    .nterms = 1,
	    .term = { { 1, QC_EQ } },
	    .order_col = -1,
	    .order_desc = 0,
	    .limit = 0,
	    .guessed = 0 },
	  NULL },
	{ "query by_id: id = ?",
	  { .name = "by_id",
	    .nterms = 1,
	    .term = { { 0, QC_EQ } },
	    .order_col = -1,
	    .order_desc = 0,
	    .limit = 0,
	    .guessed = 0 },
	  NULL },
	{ "query recent: created_at > ? order by created_at desc limit 10",
	  { .name = "recent",
	    .nterms = 1,
	    .term = { { 2, QC_GT } },
	    .order_col = 2,
	    .order_desc = 1,
	    .limit = 10,
	    .guessed = 0 },
	  NULL },
	{ "query rc: country = ? and created_at <= ? order by created_at limit 100000",
	  { .name = "rc",
	    .nterms = 2,
	    .term = { { 3, QC_EQ }, { 2, QC_LE } },
	    .order_col = 2,
	    .order_desc = 0,
	    .limit = 100000,
	    .guessed = 0 },
	  NULL },
	/* SQL's spelling: upper case, no spaces, $1, where, asc */
	{ "query x :WHERE country=$1 AND created_at>=$2 ORDER BY created_at ASC LIMIT 5",
	  { .name = "x",
	    .nterms = 2,
	    .term = { { 3, QC_EQ }, { 2, QC_GE } },
	    .order_col = 2,
	    .order_desc = 0,
	    .limit = 5,
	    .guessed = 0 },
	  NULL },
	{ "query g: created_at < ? guessed",
	  { .name = "g",
	    .nterms = 1,
	    .term = { { 2, QC_LT } },
	    .order_col = -1,
	    .order_desc = 0,
	    .limit = 0,
	    .guessed = 1 },
	  NULL },
	{ "query by_email: emial = ?",
	  { .name = "" },
	  "unknown column 'emial' (did you mean 'email'?)" },
	{ "query by_email: email like ?",
	  { .name = "" },
	  "email like: a query compares a column with" },
	{ "query by_email: email in (?)", { .name = "" }, "email in: a query compares" },
	{ "query a: email = ? or country = ?", { .name = "" }, "'or': a query compares" },
	{ "query a: email <> ?", { .name = "" }, "email <>: a query compares" },
	{ "query a: email between ? and ?", { .name = "" }, "email between: a query compares" },
	{ "query a: email is null", { .name = "" }, "email is: a query compares" },
	{ "query a: lower(email) = ?",
	  { .name = "" },
	  "'lower(': a query compares a column itself" },
	{ "query a: email = 'x@y'", { .name = "" }, "email = 'x@y': a constant; write ?" },
	{ "query a: created_at > 42", { .name = "" }, "created_at > 42: a constant; write ?" },
	{ "query a: email = ? and country = ? and id = ?",
	  { .name = "" },
	  "'and id': more than 2 terms" },
	{ "query a: email = ? order by creatd_at",
	  { .name = "" },
	  "order by: unknown column 'creatd_at' (did you mean 'created_at'?)" },
	{ "query a: email = ? order email", { .name = "" }, "order email: write order by COL" },
	{ "query a: email = ? limit 0",
	  { .name = "" },
	  "limit 0: the rows a query returns at most" },
	{ "query a: email = ? limit 100001", { .name = "" }, "limit 100001: the rows" },
	{ "query a: email = ? limit 5 order by email", { .name = "" }, "'order' here:" },
	{ "query a: email = ? lmit 5",
	  { .name = "" },
	  "unknown word 'lmit' (did you mean 'limit'?)" },
	{ "query a email = ?", { .name = "" }, "query a email: a ':' after the name" },
	{ "query a:", { .name = "" }, "the condition is missing" },
	{ "query a: email =", { .name = "" }, "the value is missing" },
	{ "query a: payload = ?", { .name = "" }, "'payload' is a column of idxlab's own" },
	{ "query a: t.email = ?",
	  { .name = "" },
	  "'t.email': write the column's name alone (email)" },
	{ "query By_email: email = ?", { .name = "" }, "'By_email' is not a query name" },
	{ "query", { .name = "" }, "query NAME: COL = ?" },
	{ "querry a: email = ?", { .name = "" }, "unknown line 'querry' (did you mean 'query'?)" },
};

static void test_query_lines(void)
{
	static struct schema s, back;
	static char text[SCHEMA_TEXT_SIZE], spec[4096];
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct err e = { ERR_NONE, "" };
		char want[256];
		int rc;

		snprintf(spec, sizeof spec, "%s%s\n", head, cases[i].line);
		rc = schema_parse_text(spec, "spec", &s, &e);
		if (cases[i].err) {
			snprintf(want, sizeof want, "spec:%d: ", HEAD_LINES + 1);
			if (rc == 0 || strncmp(e.msg, want, strlen(want)) != 0 ||
			    !strstr(e.msg, cases[i].err)) {
				printf("  '%s': got '%s', want '%s%s'\n", cases[i].line,
				       rc == 0 ? "(parsed)" : e.msg, want, cases[i].err);
				failed_checks++;
			}
			continue;
		}
		if (rc < 0 || schema_check(&s, &e) < 0 || s.nqueries != 1 ||
		    !same_query(&s.q[0], &cases[i].want)) {
			printf("  '%s': %s\n", cases[i].line,
			       rc < 0 || e.msg[0] ? e.msg : "not read as wanted");
			failed_checks++;
			continue;
		}
		/* parse(write(s)) == s */
		schema_write(&s, text, sizeof text);
		if (schema_parse_text(text, "written", &back, &e) < 0 || back.nqueries != 1 ||
		    !same_query(&back.q[0], &s.q[0])) {
			printf("  '%s' written as\n%s  read back: %s\n", cases[i].line, text,
			       e.msg);
			failed_checks++;
		}
	}
}

/* A spec's limits: its queries' names, how many, and every one whatever
 * made it checked by schema_check (the registry runs it on every spec). */
static void test_query_limits(void)
{
	static struct schema s, bad;
	static char spec[8192];
	struct err e = { ERR_NONE, "" };
	size_t n;
	int i;

	n = (size_t)snprintf(spec, sizeof spec, "%squery a: email = ?\nquery a: id = ?\n", head);
	CHECK(schema_parse_text(spec, "spec", &s, &e) < 0 &&
	      strstr(e.msg, "spec:9: query a: a query of that name exists already"));
	n = (size_t)snprintf(spec, sizeof spec, "%s", head);
	for (i = 0; i <= SCHEMA_QUERY_MAX; i++)
		n += (size_t)snprintf(spec + n, sizeof spec - n, "query q%d: email = ?\n", i);
	CHECK(schema_parse_text(spec, "spec", &s, &e) < 0 &&
	      strstr(e.msg, "query q8: more than 8 queries"));
	snprintf(spec, sizeof spec, "%squery a: email = ?\nquery b: created_at > ? limit 3\n",
	         head);
	CHECK(schema_parse_text(spec, "spec", &s, &e) == 0 && s.nqueries == 2);
	CHECK(schema_check(&s, &e) == 0);
	/* the built-ins: users the reads of its indexes, default none (a lookup
	 * there is by k1, schema_read_queries) */
	CHECK(schema_get(0) && schema_get(0)->nqueries == 0);
	CHECK(schema_get(1) && strcmp(schema_get(1)->name, "users") == 0 &&
	      schema_get(1)->nqueries == 4);
	/* each field out of range, one at a time */
	for (i = 0; i < 9; i++) {
		bad = s;
		switch (i) {
		case 0:
			bad.q[1].term[0].col = bad.ncols;
			break;
		case 1:
			bad.q[1].term[0].cmp = QC_COUNT;
			break;
		case 2:
			bad.q[1].nterms = SCHEMA_QUERY_TERMS + 1;
			break;
		case 3:
			bad.q[1].nterms = 0;
			break;
		case 4:
			bad.q[1].order_col = bad.ncols;
			break;
		case 5:
			bad.q[1].limit = SCHEMA_LIMIT_MAX + 1;
			break;
		case 6:
			bad.nqueries = SCHEMA_QUERY_MAX + 1;
			break;
		case 7:
			snprintf(bad.q[1].name, sizeof bad.q[1].name, "a");
			break;
		default:
			snprintf(bad.q[1].name, sizeof bad.q[1].name, "B;drop");
			break;
		}
		if (schema_check(&bad, &e) == 0) {
			printf("  schema_check passed spoilt query field %d\n", i);
			failed_checks++;
		}
	}
}

/* --schema-from's lookups: one per index's distinct plain leading column,
 * guessed, by_COL, and a note that says they are guesses. */
static void test_guessed_lookups(void)
{
	static struct schema s;
	struct err e = { ERR_NONE, "" };
	static const char spec[] = "table t\nid bigint seq\n"
	                           "column email text(26) rand\n"
	                           "column created_at timestamptz seq\n"
	                           "column country text(2) zipf:1:50\n"
	                           "index lower(email)\n"
	                           "index country,created_at\n"
	                           "index created_at\n"
	                           "index country\n";

	CHECK(schema_parse_text(spec, "spec", &s, &e) == 0);
	schema_from_queries(&s);
	CHECK(s.nqueries == 2);
	CHECK(strcmp(s.q[0].name, "by_country") == 0 && s.q[0].term[0].col == 3 &&
	      s.q[0].term[0].cmp == QC_EQ && s.q[0].guessed && s.q[0].order_col == -1);
	CHECK(strcmp(s.q[1].name, "by_created_at") == 0 && s.q[1].guessed);
	CHECK(strstr(s.notes, "queries by_country, by_created_at: guessed from the indexes"));
	CHECK(strstr(s.notes, "on an expression of email: no query line uses it"));
	CHECK(schema_check(&s, &e) == 0);
	/* two long names that by_ cuts alike: each its own */
	{
		static const char longer[] =
		    "table t\nid bigint seq\n"
		    "column abcdefghijabcdefghijabcdefghijabcdefghijabcd_1 int rand\n"
		    "column abcdefghijabcdefghijabcdefghijabcdefghijabcd_2 int rand\n"
		    "index abcdefghijabcdefghijabcdefghijabcdefghijabcd_1\n"
		    "index abcdefghijabcdefghijabcdefghijabcdefghijabcd_2\n";

		CHECK(schema_parse_text(longer, "spec", &s, &e) == 0);
		schema_from_queries(&s);
		CHECK(s.nqueries == 2 && strcmp(s.q[0].name, s.q[1].name) != 0);
		CHECK(strcmp(s.q[1].name, "by_abcdefghijabcdefghijabcdefghijabcdefghij_2") == 0);
		CHECK(schema_check(&s, &e) == 0);
	}
}

const struct unit_case unit_schema_query_file[] = {
	{ "unit/query-lines", test_query_lines },
	{ "unit/query-limits", test_query_limits },
	{ "unit/query-guessed", test_guessed_lookups },
	{ NULL, NULL },
};
