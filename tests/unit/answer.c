/* answer.c - the cases of src/answer.c: the answer's words and numbers from
 * figures given per step (a spread too, as --repeat gives). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "mix.h"
#include "config.h"
#include "schema.h"
#include "whatif.h"
#include "unit.h"

/* The answer from figures given per step. */
static void test_answer(void)
{
	char *argv[] = { (char *)"idxlab",      (char *)"--schema", (char *)"textkey",
		         (char *)"--add-index", (char *)"id",       NULL };
	char *argv2[] = { (char *)"idxlab",      (char *)"--schema", (char *)"wide16",
		          (char *)"--add-index", (char *)"c5",       NULL };
	struct answer *a = answer_new();
	struct answer_step st[2];
	struct plan p;
	struct err e = { ERR_NONE, "" };
	char out[2048];
	FILE *f;
	int i, j;

	/* id is the primary key: refused */
	CHECK(plan_from_args(&p, 5, argv, &e) < 0 && strstr(e.msg, "primary key"));
	plan_free(&p);
	CHECK(plan_from_args(&p, 5, argv2, &e) == 0);
	memset(st, 0, sizeof st);
	for (i = 0; i < 2; i++) {
		plan_step(&p, 0, &st[i].k);
		st[i].k.v[K_INDEXES] = 4 + i; /* table, all */
		st[i].seconds = 2;
		for (j = 0; j < AF_COUNT; j++) {
			st[i].f[j].ok = 1;
			st[i].f[j].min = st[i].f[j].max = NAN;
		}
	}
	st[0].f[AF_ROWS_PER_S].v = 40000;
	st[1].f[AF_ROWS_PER_S].v = 30000;
	st[0].f[AF_WCHAR_PER_ROW].v = 100;
	st[1].f[AF_WCHAR_PER_ROW].v = 512.5;
	st[0].f[AF_SPILLS_PER_ROW].v = 0.1;
	st[1].f[AF_SPILLS_PER_ROW].v = 1.0;
	st[0].f[AF_WAL_BYTES_PER_ROW].ok = 0; /* n/a: left out */
	st[0].f[AF_INDEX_BYTES].v = 1048576;
	st[1].f[AF_INDEX_BYTES].v = 3 * 1048576;
	answer_add(a, &st[0]);
	answer_add(a, &st[1]);
	f = fmemopen(out, sizeof out, "w");
	CHECK(answer_write(a, f) == 1);
	fclose(f);
	CHECK(strstr(out, "answer: + index idxlab_add_c5 on c5: rows/s -25 % (40.0k -> 30.0k), "
	                  "write() +412.5 B/row, spills +0.9000/row, index +2.00 MiB\n") != NULL);
	answer_free(a);

	/* Reads: what the index buys a query, and whether it pays at the mix. */
	a = answer_new();
	{
		struct answer_step r[2];
		long long mix;

		memcpy(r, st, sizeof r);
		CHECK(mix_resolve("insert:80,lookup:20", &mix, &e) == 0);
		for (i = 0; i < 2; i++)
			r[i].k.v[K_MIX] = mix;
		r[0].f[AF_READS_PER_S].v = 10;
		r[1].f[AF_READS_PER_S].v = 24000;
		r[0].f[AF_WRITE_MS].v = 0.01;
		r[1].f[AF_WRITE_MS].v = 0.0138;
		r[0].f[AF_MIX_MS].v = 1900;
		r[1].f[AF_MIX_MS].v = 9.1;
		answer_add(a, &r[0]);
		answer_add(a, &r[1]);
	}
	f = fmemopen(out, sizeof out, "w");
	CHECK(answer_write(a, f) == 1);
	fclose(f);
	CHECK(strstr(out, ", writes +38 % (0.01 -> 0.0138 ms/row), queries 2400x faster (10 -> "
	                  "24.0k queries/s), at the mix insert:80+lookup:20 it pays (1900 -> 9.1 "
	                  "ms per 1,000 operations)\n") != NULL);
	answer_free(a);

	/* A per-row figure that moved under 2 %: named, without a number. */
	a = answer_new();
	st[0].f[AF_WAL_BYTES_PER_ROW].ok = 1;
	st[0].f[AF_WAL_BYTES_PER_ROW].v = 100;
	st[1].f[AF_WAL_BYTES_PER_ROW].v = 101;
	answer_add(a, &st[0]);
	answer_add(a, &st[1]);
	f = fmemopen(out, sizeof out, "w");
	CHECK(answer_write(a, f) == 1);
	fclose(f);
	/* (the default table's SQLite logs to a rollback journal: no WAL) */
	CHECK(strstr(out, "index +2.00 MiB; no clear change in journal\n") != NULL);
	answer_free(a);

	/* With a spread: rows/s ranges that overlap are within noise. */
	a = answer_new();
	st[0].f[AF_ROWS_PER_S].min = 29000;
	st[0].f[AF_ROWS_PER_S].max = 41000;
	st[1].f[AF_ROWS_PER_S].min = 28000;
	st[1].f[AF_ROWS_PER_S].max = 31000;
	answer_add(a, &st[0]);
	answer_add(a, &st[1]);
	f = fmemopen(out, sizeof out, "w");
	CHECK(answer_write(a, f) == 1);
	fclose(f);
	CHECK(strstr(out, "rows/s within noise") != NULL);
	answer_free(a);

	/* Only the table's own step: no question, no line. */
	a = answer_new();
	answer_add(a, &st[0]);
	f = fmemopen(out, sizeof out, "w");
	CHECK(answer_write(a, f) == 0);
	fclose(f);
	answer_free(a);
	plan_free(&p);
}

const struct unit_case unit_answer[] = {
	{ "unit/answer", test_answer },
	{ NULL, NULL },
};
