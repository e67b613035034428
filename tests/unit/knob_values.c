/* knob_values.c - the cases of src/knob_values.c: a knob on a slider, its
 * steps and its positions. */
#include <math.h>

#include "knobs.h"
#include "unit.h"

static void test_slider(void)
{
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
}

const struct unit_case unit_knob_values[] = {
	{ "unit/sliders", test_slider },
	{ NULL, NULL },
};
