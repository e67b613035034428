/* proc_io.c - the cases of src/probes/proc_io.c: the /proc/<pid>/io parser. */
#include <stdint.h>

#include "probes/proc_io.h"
#include "unit.h"

static void test_proc_io(void)
{
	struct proc_io io;
	char buf[1024];

	CHECK(read_fixture("proc_io_full.txt", buf, sizeof buf) == 0);
	CHECK(proc_io_parse(buf, &io) == 0);
	CHECK(io.wchar == 323929600ULL && io.write_bytes == 323932160ULL);
	CHECK(read_fixture("proc_io_nowrite.txt", buf, sizeof buf) == 0);
	CHECK(proc_io_parse(buf, &io) < 0); /* write_bytes missing */
	CHECK(read_fixture("proc_io_big.txt", buf, sizeof buf) == 0);
	CHECK(proc_io_parse(buf, &io) == 0);
	CHECK(io.wchar == UINT64_MAX && io.write_bytes == 9223372036854775808ULL);
	/* "cancelled_write_bytes" must not be mistaken for "write_bytes". */
	CHECK(proc_io_parse("cancelled_write_bytes: 5\nwchar: 1\n", &io) < 0);
	CHECK(proc_io_read(0, &io) == 0);
}

const struct unit_case unit_probes_proc_io[] = {
	{ "unit/proc_io", test_proc_io },
	{ NULL, NULL },
};
