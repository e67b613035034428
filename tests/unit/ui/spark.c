/* spark.c - the cases of src/ui/spark.c: sparkline levels and glyphs, nice
 * scales, gauges. */
#include <math.h>
#include <string.h>

#include "ui/spark.h"
#include "unit.h"

static void test_spark(void)
{
	double vals[] = { 0, 1, 2, 4, 8, NAN, 7.99 };
	char buf[128];

	CHECK(spark_level(0, 8) == 0);
	CHECK(spark_level(8, 8) == SPARK_LEVELS - 1);
	CHECK(spark_level(100, 8) == SPARK_LEVELS - 1); /* clamped */
	CHECK(spark_level(4, 8) == 4);
	CHECK(spark_level(NAN, 8) == -1);
	CHECK(spark_level(3, 0) == SPARK_LEVELS - 1);
	CHECK(spark_level(0, 0) == 0);
	CHECK(strcmp(spark_glyph(0, 0), "\u2581") == 0 && strcmp(spark_glyph(7, 0), "\u2588") == 0);
	CHECK(strcmp(spark_glyph(-1, 0), " ") == 0);
	spark_render(vals, 7, 8, 1, buf, sizeof buf);
	CHECK(strcmp(buf, "_.:=# #") == 0);
	spark_render(vals, 7, 8, 0, buf, sizeof buf);
	CHECK(strlen(buf) == 6 * 3 + 1); /* six 3-byte blocks and one blank */
	spark_render(vals, 7, 8, 0, buf, 5);
	CHECK(strlen(buf) == 3); /* never a partial glyph */
	CHECK(spark_nice(0) == 0 && spark_nice(-3) == 0);
	CHECK(spark_nice(1) == 1 && spark_nice(1.5) == 2 && spark_nice(3) == 5 &&
	      spark_nice(7) == 10);
	CHECK(spark_nice(0.0042) > 0.00499 && spark_nice(0.0042) < 0.00501);
	CHECK(spark_nice(123456) == 200000);
	CHECK(gauge_cells(5, 10, 8) == 4);
	CHECK(gauge_cells(10, 10, 8) == 8 && gauge_cells(20, 10, 8) == 8);
	CHECK(gauge_cells(0.001, 10, 8) == 1); /* nonzero always shows */
	CHECK(gauge_cells(0, 10, 8) == 0 && gauge_cells(NAN, 10, 8) == 0 &&
	      gauge_cells(3, 0, 8) == 0);
}

const struct unit_case unit_ui_spark[] = {
	{ "unit/sparkline-gauge", test_spark },
	{ NULL, NULL },
};
