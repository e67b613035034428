/* err.c - the cases of src/err.c: outside text escaped in every message,
 * never cut inside an escape. */
#include <string.h>

#include "err.h"
#include "unit.h"

static void test_err_escape(void)
{
	char buf[16];
	struct err x;

	err_escape("a\nb\tc\001", buf, sizeof buf);
	CHECK(strcmp(buf, "a\\nb\\tc\\x01") == 0);
	err_escape("abc\n", buf, 5); /* cut, never half an escape */
	CHECK(strcmp(buf, "abc") == 0);
	err_set(&x, ERR_USAGE, "bad '%s'", "x\ny");
	CHECK(strcmp(x.msg, "bad 'x\\ny'") == 0);
	err_prefix(&x, "%s:%d", "f\n", 3);
	CHECK(strcmp(x.msg, "f\\n:3: bad 'x\\ny'") == 0);
}

const struct unit_case unit_err[] = {
	{ "unit/err-escape", test_err_escape },
	{ NULL, NULL },
};
