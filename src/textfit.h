/* textfit.h - a line of fields cut to a width only where a field ends.
 *
 * A line that does not fit its columns loses whole fields from its end,
 * and says so with an ellipsis: `commit 1000   …`, never `commit 100` (a
 * value cut reads as another value). Text is ASCII or UTF-8 of one-column
 * glyphs, as everywhere on the dashboard. Pure: no curses, no locale. */
#ifndef IDXLAB_TEXTFIT_H
#define IDXLAB_TEXTFIT_H

#include <stddef.h>

/* The display columns of the first len bytes of s. */
int textfit_cols(const char *s, size_t len);

/* Where a line may be cut: after a field, before its separator sep (the
 * knob line's "   ", a list's ", "; " " for words). words: a cut never
 * falls right after a word that ends in a digit, so a number keeps its
 * unit ("in 0.05 s", "48000 rows") or goes with it. */
struct textfit {
	const char *sep;
	int words;
	const char *ellipsis; /* "…", or "..." (--ascii, headless) */
};

/* s into out (len bytes; out may not be s) in at most w columns: whole when
 * it fits; else the fields before the last cut that leaves room for the
 * ellipsis, then the ellipsis (with the separator's blanks before it, if
 * any); no field fits: the ellipsis alone, or "" under its width. Returns
 * 1 when s was cut, 0 when whole. */
int textfit(const struct textfit *f, const char *s, int w, char *out, size_t len);

#endif
