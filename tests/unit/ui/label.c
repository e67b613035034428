/* label.c - the cases of src/ui/label.c: a knob change's marker label and a
 * ratio to the pin. */
#include <math.h>
#include <string.h>

#include "knobs.h"
#include "ui/label.h"
#include "unit.h"

/* The label of a knob change (the event line, the chart's marks) and of a
 * ratio to the baseline, clamped at both ends; near a baseline of about 0,
 * no ratio of noise. */
static void test_labels(void)
{
	struct knobs a, b;
	char buf[160];

	knobs_defaults(&a);
	b = a;
	b.v[K_INDEXES] = 2;
	label_change(&a, &b, 1, buf, sizeof buf);
	CHECK(strcmp(buf, "+2 idx") == 0);
	b.v[K_CACHE] = 1073741824LL;
	b.v[K_COMMIT] = 1000;
	label_change(&a, &b, 1, buf, sizeof buf);
	CHECK(strcmp(buf, "+2 idx, cache 2000KiB -> 1GiB, commit all -> 1000") == 0);
	label_change(&a, &a, 0, buf, sizeof buf);
	CHECK(buf[0] == 0);
	{
		static const struct {
			double v, base;
			const char *text;
		} ratios[] = {
			{ 20.2e3, 244e3, "0.08x" },
			{ 105, 240e3, "<0.001x" }, /* clamped */
			{ 1, 240, "0.004x" },
			{ 175889, 1, ">999x" }, /* clamped */
			{ 999.4, 1, "999x" },
			{ 0, 240e3, "0.00x" },
			{ 9.99, 1, "9.99x" },
			{ 217.4, 1, "217x" },
			{ 0.57, 0, "from 0" },
			{ 0, 0, "-" },
			{ NAN, 3, "-" },
			{ 3, NAN, "-" },
		};
		size_t i;

		for (i = 0; i < sizeof ratios / sizeof ratios[0]; i++) {
			label_ratio(ratios[i].v, ratios[i].base, buf, sizeof buf);
			CHECK(strcmp(buf, ratios[i].text) == 0);
		}
	}
	/* a baseline near 0 (under a thousandth of the full scale): no ratio of
	 * noise (miss/row 175889x) */
	label_ratio_near(1.76, 0.00001, 0.002, 1, buf, sizeof buf);
	CHECK(strcmp(buf, "from ~0") == 0);
	label_ratio_near(1.76, 0.00001, 0.002, 0, buf, sizeof buf);
	CHECK(strcmp(buf, "from \u22480") == 0);
	label_ratio_near(0.0001, 0.00001, 0.002, 1, buf, sizeof buf);
	CHECK(strcmp(buf, "-") == 0);
	label_ratio_near(0.5, 2, 0.002, 1, buf, sizeof buf);
	CHECK(strcmp(buf, "0.25x") == 0);
}

const struct unit_case unit_ui_label[] = {
	{ "unit/labels", test_labels },
	{ NULL, NULL },
};
