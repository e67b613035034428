/* compare.c - the cases of src/compare.c: a step matched to the saved step
 * with its knobs, every figure's ratio and verdict (the threshold, the
 * runs' spreads, the figure's direction), the knobs of a step not matched
 * named. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare.h"
#include "record.h"
#include "unit.h"

static struct field *set(struct record *r, const char *name)
{
	return (struct field *)record_find(r, name);
}

static void set_num(struct record *r, const char *name, double v)
{
	struct field *f = set(r, name);

	if (f) {
		f->kind = FIELD_NUM;
		f->d = v;
	}
}

/* r as a CSV file (a header and its one row). */
static char *save(const struct record *r)
{
	static char text[65536];
	size_t n = 0;
	int i, row;

	for (row = 0; row < 2; row++) {
		for (i = 0; i < r->n && n < sizeof text; i++) {
			const struct field *f = &r->f[i];

			if (i)
				text[n++] = ',';
			if (!row)
				n += (size_t)snprintf(text + n, sizeof text - n, "%s", f->name);
			else if (f->kind == FIELD_INT)
				n += (size_t)snprintf(text + n, sizeof text - n, "%lld", f->i);
			else if (f->kind == FIELD_NUM)
				n += (size_t)snprintf(text + n, sizeof text - n, "%.*f",
				                      f->decimals, f->d);
			else if (f->kind == FIELD_STR)
				n += (size_t)snprintf(text + n, sizeof text - n, "%s", f->s);
		}
		text[n++] = '\n';
	}
	text[n] = 0;
	return write_file(text);
}

static const struct field *out_field(const struct record *r, const char *name)
{
	return record_find(r, name);
}

static int verdict_is(const struct record *r, const char *name, const char *want)
{
	const struct field *f = out_field(r, name);

	return f && f->kind == FIELD_STR && strcmp(f->s, want) == 0;
}

static void test_compare(void)
{
	static struct record saved, now, out;
	struct compare *c = NULL;
	struct err e;
	const struct field *f;
	char *path;
	int n0;

	saved = *record_all(NULL);
	snprintf(set(&saved, "record")->s, sizeof saved.f[0].s, "step");
	set(&saved, "record")->kind = FIELD_STR;
	set_num(&saved, "rows_per_s", 1000);
	set_num(&saved, "p99_ms", 2.0);
	set_num(&saved, "wal_bytes_per_row", 300);
	path = save(&saved);
	CHECK(path && compare_open(&c, path, &e) == 0);
	if (!c)
		return;

	/* the same knobs: matched; 5 % is noise, 20 % is not; p99 up is worse */
	now = saved;
	set_num(&now, "rows_per_s", 1050);
	set_num(&now, "p99_ms", 3.0);
	set_num(&now, "wal_bytes_per_row", 300);
	out = now;
	n0 = out.n;
	compare_fields(c, &now, &out);
	CHECK(out.n > n0 + 3);
	f = out_field(&out, "vs_step");
	CHECK(f && f->kind == FIELD_INT && f->i == 1);
	f = out_field(&out, "rows_per_s_vs");
	CHECK(f && f->kind == FIELD_NUM && fabs(f->d - 1.05) < 1e-9);
	CHECK(verdict_is(&out, "rows_per_s_verdict", "within noise"));
	CHECK(verdict_is(&out, "p99_ms_verdict", "worse"));
	CHECK(verdict_is(&out, "wal_bytes_per_row_verdict", "within noise"));
	CHECK(verdict_is(&out, "vs_noise", "threshold"));
	set_num(&now, "rows_per_s", 1200);
	out = now;
	compare_fields(c, &now, &out);
	CHECK(verdict_is(&out, "rows_per_s_verdict", "better"));
	/* n/a on one side: no ratio, no verdict */
	f = out_field(&out, "spills_per_row_vs");
	CHECK(f && f->kind == FIELD_NA);

	/* the runs' spread: the saved 1000 within this run's 900..1300 is noise */
	set_num(&now, "rows_per_s_min", 900);
	set_num(&now, "rows_per_s_max", 1300);
	out = now;
	compare_fields(c, &now, &out);
	CHECK(verdict_is(&out, "rows_per_s_verdict", "within noise"));
	CHECK(verdict_is(&out, "vs_noise", "spread"));

	/* another knob: not compared, the knob named */
	now = saved;
	set(&now, "indexes")->i = 3;
	set(&now, "indexes")->kind = FIELD_INT;
	out = now;
	compare_fields(c, &now, &out);
	f = out_field(&out, "vs_step");
	CHECK(f && f->kind == FIELD_NA);
	f = out_field(&out, "vs_note");
	CHECK(f && f->kind == FIELD_STR && strstr(f->s, "indexes 3 vs 0"));
	CHECK(out_field(&out, "rows_per_s_vs")->kind == FIELD_NA);

	/* a record that is not a step's: the same fields, n/a */
	now = saved;
	snprintf(set(&now, "record")->s, sizeof now.f[0].s, "interval");
	out = now;
	compare_fields(c, &now, &out);
	CHECK(out.n > n0 + 3 && out_field(&out, "vs_step")->kind == FIELD_NA);
	compare_free(c);
	unlink(path);
}

const struct unit_case unit_compare[] = {
	{ "unit/compare", test_compare },
	{ NULL, NULL },
};
