/* knob_values.c - the cases of src/knob_values.c: a knob on a slider (its
 * steps and positions), what needs a rebuild, and the labels of a change and a
 * ratio. */
#include <math.h>
#include <string.h>

#include "knobs.h"
#include "ui/label.h"
#include "unit.h"

static void test_slider(void)
{
	struct knobs a, b;
	char buf[160];

	CHECK(knob_step(K_INDEXES, NULL, 0, 1, 0) == 1 && knob_step(K_INDEXES, NULL, 8, 1, 0) == 8);
	CHECK(knob_step(K_INDEXES, NULL, 0, -1, 0) == 0);
	CHECK(knob_step(K_CACHE, NULL, 2048000, 1, 0) == 4096000);
	CHECK(knob_step(K_CACHE, NULL, 65536, -1, 0) == 65536);
	CHECK(knob_step(K_COMMIT, NULL, 1, 1, 0) == 2 && knob_step(K_COMMIT, NULL, 1, -1, 0) == 1);
	CHECK(knob_step(K_COMMIT, NULL, COMMIT_ALL, -1, 0) == 1000000000);
	CHECK(knob_step(K_COMMIT, NULL, 1000000000, 1, 0) == COMMIT_ALL);
	CHECK(knob_step(K_KEY_ORDER, NULL, KO_SEQ, 1, 0) == KO_RAND &&
	      knob_step(K_KEY_ORDER, NULL, KO_SEQ, -1, 0) == KO_SEQ);
	CHECK(knob_step(K_PREFILL, NULL, PREFILL_AUTO, 1, 0) == 1);
	CHECK(knob_position(K_INDEXES, NULL, 4) == 0.5);
	CHECK(knob_position(K_COMMIT, NULL, COMMIT_ALL) == 1);
	CHECK(knob_at_position(K_INDEXES, NULL, 0.5) == 4);
	CHECK(knob_at_position(K_KEY_ORDER, NULL, 1) == KO_UUID4);
	CHECK(knob_at_position(K_CACHE, NULL, knob_position(K_CACHE, NULL, 1073741824LL)) ==
	      1073741824LL);
	knobs_defaults(&a);
	b = a;
	CHECK(!knobs_need_rebuild(&a, &b));
	b.v[K_KEY_ORDER] = KO_RAND;
	b.v[K_INDEXES] = 3;
	CHECK(!knobs_need_rebuild(&a, &b));
	b.v[K_KEY_ORDER] = KO_UUID4;
	CHECK(knobs_need_rebuild(&a, &b));
	b = a;
	b.v[K_PK] = PK_UUID7;
	CHECK(knobs_need_rebuild(&a, &b));
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
}

const struct unit_case unit_knob_values[] = {
	{ "unit/sliders-labels", test_slider },
	{ NULL, NULL },
};
