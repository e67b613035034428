/* units.c - the cases of src/units.c: sizes, counts, seconds parsed and
 * formatted. */
#include <math.h>
#include <string.h>

#include "units.h"
#include "unit.h"

static void test_units(void)
{
	long long v = 0;
	char buf[64];

	CHECK(units_parse_size("2MiB", &v) == 0 && v == 2097152);
	CHECK(units_parse_size("1GiB", &v) == 0 && v == 1073741824LL);
	CHECK(units_parse_size("1gib", &v) == 0 && v == 1073741824LL);
	CHECK(units_parse_size("2000KiB", &v) == 0 && v == 2048000);
	/* kB, MB, GB as PostgreSQL means them: 1024-based */
	CHECK(units_parse_size("10MB", &v) == 0 && v == 10485760);
	CHECK(units_parse_size("512kB", &v) == 0 && v == 524288);
	CHECK(units_parse_size("2GB", &v) == 0 && v == 2147483648LL);
	units_format_size(524288, buf, sizeof buf);
	CHECK(strcmp(buf, "512KiB") == 0);
	/* row counts */
	CHECK(units_parse_count("100k", &v) == 0 && v == 100000);
	CHECK(units_parse_count("1M", &v) == 0 && v == 1000000);
	CHECK(units_parse_count("1e6", &v) == 0 && v == 1000000);
	CHECK(units_parse_count("1.5M", &v) == 0 && v == 1500000);
	CHECK(units_parse_count("1.001k", &v) == 0 && v == 1001);
	CHECK(units_parse_count("2G", &v) == 0 && v == 2000000000LL);
	CHECK(units_parse_count("42", &v) == 0 && v == 42);
	CHECK(units_parse_count("1.5", &v) < 0);
	CHECK(units_parse_count("0x10", &v) < 0);
	CHECK(units_parse_count("1k5", &v) < 0);
	CHECK(units_parse_count("1e", &v) < 0);
	CHECK(units_parse_count("k", &v) < 0);
	CHECK(units_parse_count("1e30", &v) < 0);
	CHECK(units_parse_count("", &v) < 0);
	CHECK(units_parse_size("1.5KiB", &v) == 0 && v == 1536);
	CHECK(units_parse_size("4096", &v) == 0 && v == 4096);
	CHECK(units_parse_size("2 MiB", &v) == 0 && v == 2097152);
	CHECK(units_parse_size("", &v) < 0);
	CHECK(units_parse_size("MiB", &v) < 0);
	CHECK(units_parse_size("-1MiB", &v) < 0);
	CHECK(units_parse_size("2XB", &v) < 0);
	CHECK(units_parse_size("0.3B", &v) < 0);
	CHECK(units_parse_size("99999999TiB", &v) < 0);
	units_format_size(2097152, buf, sizeof buf);
	CHECK(strcmp(buf, "2MiB") == 0);
	units_format_size(2048000, buf, sizeof buf);
	CHECK(strcmp(buf, "2000KiB") == 0);
	units_format_size(1000, buf, sizeof buf);
	CHECK(strcmp(buf, "1000B") == 0);
	CHECK(units_parse_int("12", &v) == 0 && v == 12);
	CHECK(units_parse_int("12x", &v) < 0);
	CHECK(units_parse_int("99999999999999999999", &v) < 0);
	CHECK(units_parse_int(" 1", &v) < 0);
	CHECK(units_parse_seconds("0.5", &v) == 0 && v == 500);
	CHECK(units_parse_seconds("2s", &v) == 0 && v == 2000);
	CHECK(units_parse_seconds("2m", &v) < 0);
	CHECK(units_parse_seconds("0.0004", &v) == -2 && units_parse_seconds("0.0006", &v) == 0 &&
	      v == 1);
	units_human(1234, "", buf, sizeof buf);
	CHECK(strcmp(buf, "1.23k") == 0);
	units_human(999, "", buf, sizeof buf);
	CHECK(strcmp(buf, "999") == 0);
	units_human(3.4 * 1024 * 1024, "B", buf, sizeof buf);
	CHECK(strcmp(buf, "3.40 MiB") == 0);
	units_human(870e-6, "s", buf, sizeof buf);
	CHECK(strcmp(buf, "870 us") == 0);
	units_human(0.0013, "s", buf, sizeof buf);
	CHECK(strcmp(buf, "1.30 ms") == 0);
	units_human(NAN, "", buf, sizeof buf);
	CHECK(strcmp(buf, "n/a") == 0);
}

const struct unit_case unit_units[] = {
	{ "unit/units", test_units },
	{ NULL, NULL },
};
