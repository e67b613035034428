/* rowset.c - the cases of src/engines/rowset.c: a rolled-back transaction's
 * rows. */
#include <string.h>

#include "engines/rowset.h"
#include "knobs.h"
#include "unit.h"

/* A rolled-back transaction's rows: rewound as if never touched. */
static void test_rowset(void)
{
	struct rowset rs;
	struct rowset_mark m;
	uint64_t row, v, first[3], i;

	memset(&rs, 0, sizeof rs);
	rowset_reset(&rs, 10);
	rowset_prepare(&rs, 1u << OP_DELETE, 1);
	rowset_mark(&rs, &m);
	for (i = 0; i < 3; i++) {
		CHECK(rowset_next(&rs, OP_DELETE, &row, &v) == 1);
		first[i] = row;
		rowset_done(&rs, OP_DELETE, row);
	}
	CHECK(rs.live_rows == 7);
	rowset_rewind(&rs, &m);
	CHECK(rs.live_rows == 10);
	/* The same rows come again, and are there to delete once more. */
	for (i = 0; i < 3; i++) {
		CHECK(rowset_next(&rs, OP_DELETE, &row, &v) == 1 && row == first[i]);
		rowset_done(&rs, OP_DELETE, row);
	}
	rowset_prepare(&rs, 1u << OP_DELETE, 1);
	CHECK(rs.norder == 7); /* the three deleted rows are gone from the order */
	/* Inserts: the row numbers are handed out again. */
	rowset_prepare(&rs, 1u << OP_INSERT, 1);
	rowset_mark(&rs, &m);
	CHECK(rowset_next(&rs, OP_INSERT, &row, &v) == 1 && row == 10);
	rowset_done(&rs, OP_INSERT, row);
	rowset_rewind(&rs, &m);
	CHECK(rowset_next(&rs, OP_INSERT, &row, &v) == 1 && row == 10 && rs.live_rows == 7);
	rowset_free(&rs);
}

/* A mix's updates and deletes along one order: an update never names a
 * row deleted, every row is deleted once, and a rolled-back transaction
 * of both (across an update's wrap) leaves no row deleted. */
static void test_rowset_mixed(void)
{
	const unsigned ops = 1u << OP_UPDATE | 1u << OP_DELETE;
	unsigned char gone[40] = { 0 };
	struct rowset rs;
	struct rowset_mark m;
	uint64_t row, v, i, deletes = 0;
	int bad = 0;

	memset(&rs, 0, sizeof rs);
	rowset_reset(&rs, 40);
	rowset_prepare(&rs, ops, 7);
	for (i = 0; i < 200; i++) {
		long long op = i % 3 ? OP_UPDATE : OP_DELETE;

		if (!rowset_next(&rs, op, &row, &v))
			continue; /* deletes are done with this pass */
		bad |= row >= 40 || gone[row];
		if (op == OP_DELETE) {
			gone[row] = 1;
			deletes++;
		}
		rowset_done(&rs, op, row);
	}
	CHECK(!bad);
	CHECK(rs.live_rows == 40 - deletes && deletes > 0 && deletes < 40);
	/* updates go on over the rows left, pass after pass */
	rowset_mark(&rs, &m);
	for (i = 0; i < 3 * 40; i++) {
		long long op = i % 2 ? OP_UPDATE : OP_DELETE;

		if (rowset_next(&rs, op, &row, &v)) {
			bad |= gone[row];
			rowset_done(&rs, op, row);
		}
	}
	CHECK(!bad && rs.passes > m.passes);
	rowset_rewind(&rs, &m);
	CHECK(rs.live_rows == 40 - deletes);
	rowset_prepare(&rs, ops, 7);
	CHECK(rs.norder == 40 - deletes); /* the rewound deletes are rows again */
	/* every row deleted: an update finds none, and says so */
	for (i = 0; i < 80; i++)
		if (rowset_next(&rs, OP_DELETE, &row, &v))
			rowset_done(&rs, OP_DELETE, row);
	CHECK(rs.live_rows == 0 && !rowset_next(&rs, OP_UPDATE, &row, &v));
	rowset_free(&rs);
}

const struct unit_case unit_engines_rowset[] = {
	{ "unit/rowset", test_rowset },
	{ "unit/rowset-mixed", test_rowset_mixed },
	{ NULL, NULL },
};
