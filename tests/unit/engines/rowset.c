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

const struct unit_case unit_engines_rowset[] = {
	{ "unit/rowset", test_rowset },
	{ NULL, NULL },
};
