/* schema_from_order.c - the cases of src/schema_from_order.c that turn a
 * sample's least and greatest values into a column's in:LO..HI
 * (schema_from_range, issue 19): scaled to a numeric's units, widened for
 * few:N, and left out where it says nothing or would do harm. */
#include <stdio.h>
#include <string.h>

#include "schema.h"
#include "schema_from.h"
#include "unit.h"

/* A sampled number column of min..max over 3000 rows. */
static struct shape_col sampled(double min, double max)
{
	struct shape_col c;

	memset(&c, 0, sizeof c);
	c.sampled = 3000;
	c.s_ranged = 1;
	c.s_min = min;
	c.s_max = max;
	return c;
}

static struct column col(enum col_type t, enum col_order o, uint64_t n)
{
	struct column c;

	memset(&c, 0, sizeof c);
	snprintf(c.name, sizeof c.name, "x");
	c.type = t;
	c.order = o;
	c.n = n;
	if (t == COL_NUMERIC) {
		c.prec = 8;
		c.scale = 2;
	}
	return c;
}

static void from_sample(void)
{
	struct shape_col s = sampled(0.5, 99.99);
	struct column c = col(COL_NUMERIC, ORD_RAND, 0);
	char why[128] = "3000 distinct in 3000 rows -> rand";

	/* a numeric's units, and said beside the order */
	schema_from_range(&s, &c, 0, why, sizeof why);
	CHECK(c.ranged && c.lo == 50 && c.hi == 9999);
	CHECK(strcmp(why, "3000 distinct in 3000 rows -> rand in:0.50..99.99") == 0);
	/* few:50 over 1..10 needs room for its 50 values */
	s = sampled(1, 10);
	c = col(COL_INT, ORD_FEW, 50);
	schema_from_range(&s, &c, 0, NULL, 0);
	CHECK(c.ranged && c.lo == 1 && c.hi == 50);
	/* a bigint's every digit; floats to whole numbers outward */
	s = sampled(-2.5, 7.2);
	c = col(COL_BIGINT, ORD_RAND, 0);
	schema_from_range(&s, &c, 0, NULL, 0);
	CHECK(c.ranged && c.lo == -3 && c.hi == 8);
	/* desc: its top is where it falls from */
	s = sampled(100, 4000);
	c = col(COL_INT, ORD_DESC, 0);
	schema_from_range(&s, &c, 0, NULL, 0);
	CHECK(c.ranged && c.lo == 100 && c.hi == 4000);
}

static void left_out(void)
{
	struct shape_col s = sampled(1, 1000);
	struct column c = col(COL_BIGINT, ORD_RAND, 0);

	schema_from_range(&s, &c, 1, NULL, 0); /* unique: draws would collide */
	CHECK(!c.ranged);
	c = col(COL_INT, ORD_FEW, 10); /* few:10 over 0..9: its own values */
	s = sampled(0, 9);
	schema_from_range(&s, &c, 0, NULL, 0);
	CHECK(!c.ranged);
	c = col(COL_INT, ORD_SEQ, 0); /* seq from 0: its own values */
	s = sampled(0, 2999);
	schema_from_range(&s, &c, 0, NULL, 0);
	CHECK(!c.ranged);
	c = col(COL_TEXT, ORD_RAND, 0); /* not a number */
	schema_from_range(&s, &c, 0, NULL, 0);
	CHECK(!c.ranged);
	s = sampled(1, 5); /* a generated column: the engine computes it */
	snprintf(s.gen, sizeof s.gen, "a * 2");
	c = col(COL_INT, ORD_RAND, 0);
	schema_from_range(&s, &c, 0, NULL, 0);
	CHECK(!c.ranged);
	s = sampled(7, 7); /* rand of one value; a sample of one row */
	schema_from_range(&s, &c, 0, NULL, 0);
	CHECK(!c.ranged);
	s = sampled(1, 9);
	s.sampled = 1;
	schema_from_range(&s, &c, 0, NULL, 0);
	CHECK(!c.ranged);
}

const struct unit_case unit_schema_from_order[] = {
	{ "unit/from-range-sample", from_sample },
	{ "unit/from-range-left-out", left_out },
	{ NULL, NULL },
};
