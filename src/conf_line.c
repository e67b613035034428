/* conf_line.c - idxlab's line syntax, shared by config files, demos and
 * spec files: reading a file line by line (comments, blank lines, line
 * numbers in every error) and "did you mean". It knows no knob: a
 * `key = value` line is read into a knob by knob_line (knob_values.c). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf_line.h"
#include "infile.h"

/* Levenshtein distance, for "did you mean". */
static int distance(const char *a, const char *b)
{
	int la = (int)strlen(a), lb = (int)strlen(b), i, j;
	int row[64];

	if (la > 60 || lb > 60)
		return 99;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		int prev = row[0], cur;

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			int best = prev + (a[i - 1] != b[j - 1]);

			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			cur = row[j];
			row[j] = best;
			prev = cur;
		}
	}
	return row[lb];
}

/* Is word an abbreviation of cand: its letters in order, from the same
 * first letter (rowsps of rows_per_s)? */
static int abbreviates(const char *word, const char *cand)
{
	if (!*word || *word != *cand)
		return 0;
	for (; *cand && *word; cand++)
		if (*cand == *word)
			word++;
	return !*word;
}

static size_t common_prefix(const char *a, const char *b)
{
	size_t n = 0;

	while (a[n] && a[n] == b[n])
		n++;
	return n;
}

/* How far cand is from word, in quarters: the edit distance (a typo: cahce
 * for cache) or, for an abbreviation, a quarter per letter left out
 * (rowsps is 1 from rows_per_s, 8 from rows), whichever is less. */
static int remoteness(const char *word, const char *cand)
{
	int d = distance(word, cand) * 4;

	if (abbreviates(word, cand) && (int)(strlen(cand) - strlen(word)) < d)
		d = (int)(strlen(cand) - strlen(word));
	return d;
}

const char *config_closest(const char *word, const char *(*nth)(int i, const void *ctx),
                           const void *ctx)
{
	int i, best = 3 * 4; /* an edit distance of 3 is no near miss */
	size_t prefix = 0;
	const char *hit = NULL, *cand;

	for (i = 0; (cand = nth(i, ctx)) != NULL; i++) {
		int d = remoteness(word, cand);
		size_t p = common_prefix(word, cand);

		/* a tie goes to the one that starts like the word */
		if (d < best || (hit && d == best && p > prefix)) {
			best = d;
			hit = cand;
			prefix = p;
		}
	}
	return hit;
}

int config_read(const char *path, config_line_fn *fn, void *ctx, struct err *e)
{
	char *line = NULL;
	size_t size = 0, len;
	FILE *f = infile_open(path, NULL, e);
	enum infile_rc got = INFILE_EOF;
	int lineno = 0, rc = 0;

	if (!f)
		return -1;
	while (rc == 0 &&
	       (got = infile_getline(f, &line, &size, CONFIG_LINE_MAX, &len)) == INFILE_LINE) {
		char *s = line, *end;

		lineno++;
		if (memchr(line, 0, len)) {
			rc = err_set(e, ERR_USAGE,
			             "%s:%d: a NUL byte: this is no text file (a config file is "
			             "'key = value' lines)",
			             path, lineno);
			break;
		}
		for (char *c = s; *c; c++) {
			if (*c == '#' && (c == s || isspace((unsigned char)c[-1]))) {
				*c = 0;
				break;
			}
		}
		while (isspace((unsigned char)*s))
			s++;
		end = s + strlen(s);
		while (end > s && isspace((unsigned char)end[-1]))
			*--end = 0;
		if (*s && fn(s, lineno, ctx, e) < 0)
			rc = err_prefix(e, "%s:%d", path, lineno);
	}
	if (rc == 0 && got == INFILE_LONG)
		rc = err_set(e, ERR_USAGE, "%s:%d: line too long (%d bytes at most)", path,
		             lineno + 1, CONFIG_LINE_MAX);
	else if (rc == 0 && got == INFILE_ERROR)
		rc = err_set(e, ERR_USAGE, "cannot read %s: %s", path, strerror(errno));
	free(line);
	fclose(f);
	return rc;
}
