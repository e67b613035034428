/* textfit.c - cut a line of fields at a field's end (see textfit.h).
 *
 * The cut points are the separator's occurrences; the last one whose
 * prefix and ellipsis fit wins. The blank the separator starts with stays
 * before the ellipsis so it reads as "more follows", not as part of the
 * last value ("commit 1000 …"). */
#include "textfit.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

int textfit_cols(const char *s, size_t len)
{
	int n = 0;
	size_t i;

	for (i = 0; i < len && s[i]; i++)
		n += ((unsigned char)s[i] & 0xc0) != 0x80;
	return n;
}

/* May s be cut at byte `at` (an occurrence of the separator)? */
static int cut_ok(const struct textfit *f, const char *s, size_t at)
{
	size_t b = at;

	while (b > 0 && s[b - 1] == ' ')
		b--;
	if (!b)
		return 0; /* nothing before it: no field */
	return !f->words || !isdigit((unsigned char)s[b - 1]);
}

int textfit(const struct textfit *f, const char *s, int w, char *out, size_t len)
{
	size_t slen = strlen(s), seplen = strlen(f->sep), best = 0;
	int ell = textfit_cols(f->ellipsis, strlen(f->ellipsis)), found = 0;
	const char *p;

	if (!len)
		return 1;
	if (textfit_cols(s, slen) <= w) {
		snprintf(out, len, "%s", s);
		return 0;
	}
	for (p = strstr(s, f->sep); p && seplen; p = strstr(p + 1, f->sep)) {
		size_t at = (size_t)(p - s);

		if (!cut_ok(f, s, at))
			continue;
		/* The field, a blank, the ellipsis. */
		if (textfit_cols(s, at) + 1 + ell > w)
			break;
		best = at;
		found = 1;
	}
	if (!found) {
		snprintf(out, len, "%s", ell <= w ? f->ellipsis : "");
		return 1;
	}
	while (best > 0 && s[best - 1] == ' ')
		best--;
	snprintf(out, len, "%.*s %s", (int)best, s, f->ellipsis);
	return 1;
}
