/* baseline.c - the cases of src/baseline.c: a saved run's step as the
 * dashboard's baseline - the step with the dashboard's knobs (the first of
 * several), else the one differing least (the first of a tie) - and its
 * figures as the baseline's: a rate's and a per-row figure's as saved, a
 * step's length and totals unknown, an n/a field n/a. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "baseline.h"
#include "record.h"
#include "unit.h"

/* A step's record under knobs k (step from 0): k's rows over secs
 * seconds, 100 WAL bytes a row. */
static void build(struct record *r, const struct knobs *k, long step, double secs)
{
	double rows = (double)k->v[K_ROWS];
	static struct lats lat;
	struct counters a, b;
	struct window w = { &a, &b, &lat, NULL };

	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	b.t = secs;
	b.v[C_ROWS] = (uint64_t)rows;
	b.v[C_WAL_BYTES] = (uint64_t)rows * 100;
	a.valid = b.valid = (1u << C_ROWS) | (1u << C_WAL_BYTES);
	record_build(r, k, &w, "step", step, 0, NULL);
}

/* The records as a CSV (the header, a row each). */
static char *save(const struct record *rs, int n)
{
	static char text[1 << 17];
	size_t o = 0;
	int i, row;

	for (row = -1; row < n; row++) {
		const struct record *r = &rs[row < 0 ? 0 : row];

		for (i = 0; i < r->n && o < sizeof text - 200; i++) {
			const struct field *f = &r->f[i];

			if (i)
				text[o++] = ',';
			if (row < 0)
				o += (size_t)snprintf(text + o, sizeof text - o, "%s", f->name);
			else if (f->kind == FIELD_INT)
				o += (size_t)snprintf(text + o, sizeof text - o, "%lld", f->i);
			else if (f->kind == FIELD_NUM)
				o += (size_t)snprintf(text + o, sizeof text - o, "%.*f",
				                      f->decimals, f->d);
			else if (f->kind == FIELD_STR)
				o += (size_t)snprintf(text + o, sizeof text - o, "\"%s\"", f->s);
		}
		text[o++] = '\n';
	}
	text[o] = 0;
	return write_file(text);
}

static void test_baseline(void)
{
	static struct record rs[3];
	struct knobs k, dash;
	struct baseline b;
	struct err e;
	char *path;

	knobs_defaults(&k);
	k.v[K_ROWS] = 1000;
	k.v[K_INDEXES] = 0;
	build(&rs[0], &k, 0, 2);
	k.v[K_INDEXES] = 1;
	build(&rs[1], &k, 1, 5);
	build(&rs[2], &k, 2, 10); /* the same knobs again */
	path = save(rs, 3);
	CHECK(path != NULL);
	if (!path)
		return;

	/* indexes 1: the second step (the first with its knobs) */
	dash = k;
	CHECK(baseline_load(path, &dash, &b, &e) == 0);
	CHECK(b.step == 2 && b.line == 3 && b.differ == 0);
	CHECK(fabs(b.v[M_ROWS_PER_S] - 200) < 1e-9);        /* 1000 rows / 5 s */
	CHECK(fabs(b.v[M_WAL_BYTES_PER_ROW] - 100) < 1e-9); /* as saved */
	CHECK(isnan(b.v[M_SECONDS]) && !b.na[M_SECONDS]);   /* the step's length: no window's */
	CHECK(isnan(b.v[M_COMMITS]) && isnan(b.v[M_FSYNCS_TOTAL]));
	CHECK(isnan(b.v[M_FSYNCS_PER_COMMIT]) && b.na[M_FSYNCS_PER_COMMIT]); /* n/a saved */
	CHECK(b.knobs.v[K_INDEXES] == 1);
	CHECK(strstr(b.from, "step 2") && strncmp(b.from, "vs ", 3) == 0);
	CHECK(strstr(b.says, "saved step 2 of ") && strstr(b.says, "its knobs the dashboard's"));

	/* indexes 0: the first */
	dash.v[K_INDEXES] = 0;
	CHECK(baseline_load(path, &dash, &b, &e) == 0);
	CHECK(b.step == 1 && b.differ == 0 && fabs(b.v[M_ROWS_PER_S] - 500) < 1e-9);

	/* indexes 2: none has it; of the nearest (all differ in it), the first,
	 * and what differs said; the baseline's knobs the saved step's */
	dash.v[K_INDEXES] = 2;
	CHECK(baseline_load(path, &dash, &b, &e) == 0);
	CHECK(b.step == 1 && b.differ == 1 && b.knobs.v[K_INDEXES] == 0);
	CHECK(strstr(b.says, "the nearest of 3: indexes 0 (now 2) (line 2)") != NULL);

	/* indexes 1 and another seed: the steps with indexes 1 differ least */
	dash.v[K_INDEXES] = 1;
	dash.v[K_SEED] = k.v[K_SEED] + 1;
	CHECK(baseline_load(path, &dash, &b, &e) == 0);
	CHECK(b.step == 2 && b.differ == 1 && strstr(b.says, "the nearest of 3: seed "));
	unlink(path);

	/* a recording with no stretch of running: refused, the file named */
	path = write_file("{\"idxlab_recording\":2,\"idxlab\":\"0.1.0\",\"engine\":\"sqlite\"}\n");
	CHECK(path && baseline_load(path, &dash, &b, &e) < 0 && e.cls == ERR_USAGE &&
	      strstr(e.msg, "a recording with no second of running") &&
	      strncmp(e.msg, "--baseline ", 11) == 0);
	if (path)
		unlink(path);
	/* not idxlab's: the reader's message, under --baseline */
	path = write_file("record,what\nstep,1\n");
	CHECK(path && baseline_load(path, &dash, &b, &e) < 0 && e.cls == ERR_USAGE &&
	      strstr(e.msg, ":1: 'what' is not a field") && strncmp(e.msg, "--baseline ", 11) == 0);
	if (path)
		unlink(path);
}

const struct unit_case unit_baseline[] = {
	{ "unit/baseline", test_baseline },
	{ NULL, NULL },
};
