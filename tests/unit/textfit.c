/* textfit.c - the cases of src/textfit.c: text cut to its columns only
 * where a field ends. */
#include <string.h>

#include "textfit.h"
#include "unit.h"

static void test_textfit(void)
{
	static const struct textfit knobs = { .sep = "   ", .ellipsis = "\u2026" };
	static const struct textfit list = { .sep = ", ", .ellipsis = "..." };
	static const struct textfit words = { .sep = " ", .words = 1, .ellipsis = "..." };
	const char *line = " indexes 3   commit 1000   payload 100   seed 1";
	char out[128];

	CHECK(textfit(&knobs, line, 80, out, sizeof out) == 0 && strcmp(out, line) == 0);
	/* 25 columns: "commit 1000" and the ellipsis need 26, never "commit 10". */
	CHECK(textfit(&knobs, line, 25, out, sizeof out) == 1);
	CHECK(strcmp(out, " indexes 3 \u2026") == 0);
	CHECK(textfit(&knobs, line, 26, out, sizeof out) == 1);
	CHECK(strcmp(out, " indexes 3   commit 1000 \u2026") == 0);
	CHECK(textfit_cols(out, strlen(out)) == 26);
	/* At the width of "... payload 100   seed": the value stays whole. */
	CHECK(textfit(&knobs, line, 46, out, sizeof out) == 1);
	CHECK(strcmp(out, " indexes 3   commit 1000   payload 100 \u2026") == 0);
	CHECK(textfit(&knobs, line, 3, out, sizeof out) == 1 && strcmp(out, "\u2026") == 0);
	CHECK(textfit(&knobs, line, 0, out, sizeof out) == 1 && strcmp(out, "") == 0);
	/* A list: whole parts; the text's own UTF-8 counts a column a glyph. */
	CHECK(textfit(&list, "step 2/4 (sqlite, indexes=1), 41 %, ETA 9 s", 40, out, sizeof out) ==
	      1);
	CHECK(strcmp(out, "step 2/4 (sqlite, indexes=1), 41 % ...") == 0);
	CHECK(textfit_cols("\u25b8 a\u2192b", 9) == 5);
	/* Words: a number keeps the word after it (its unit) or goes with it. */
	CHECK(textfit(&words, "built idxlab_k1 on 48000 rows in 0.05 s", 27, out, sizeof out) == 1);
	CHECK(strcmp(out, "built idxlab_k1 on ...") == 0);
	CHECK(textfit(&words, "built idxlab_k1 on 48000 rows in 0.05 s", 30, out, sizeof out) == 1);
	CHECK(strcmp(out, "built idxlab_k1 on 48000 rows ...") == 0 ||
	      strcmp(out, "built idxlab_k1 on ...") == 0);
}

const struct unit_case unit_textfit[] = {
	{ "unit/textfit", test_textfit },
	{ NULL, NULL },
};
