/* units.c - parsing and formatting of sizes, durations and counts. */
#include "units.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct {
	const char *suffix;
	long long mult;
} size_units[] = {
	{ "", 1 },
	{ "b", 1 },
	{ "k", 1024 },
	{ "kib", 1024 },
	{ "kb", 1024 }, /* PostgreSQL's kB, MB, GB, TB: 1024-based */
	{ "m", 1024LL * 1024 },
	{ "mib", 1024LL * 1024 },
	{ "mb", 1024LL * 1024 },
	{ "g", 1024LL * 1024 * 1024 },
	{ "gib", 1024LL * 1024 * 1024 },
	{ "gb", 1024LL * 1024 * 1024 },
	{ "t", 1024LL * 1024 * 1024 * 1024 },
	{ "tib", 1024LL * 1024 * 1024 * 1024 },
	{ "tb", 1024LL * 1024 * 1024 * 1024 },
};

int units_parse_int(const char *s, long long *out)
{
	char *end;
	long long v;

	if (!s || !*s || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end || end == s)
		return -1;
	*out = v;
	return 0;
}

int units_parse_count(const char *s, long long *out)
{
	static const char suffixes[] = "kmg"; /* x1e3, x1e6, x1e9 */
	const char *at;
	char *end;
	double v;

	if (units_parse_int(s, out) == 0)
		return 0;
	/* 1e6, 1.5M, 100k: how a whole number of rows is written too */
	if (!s || !(isdigit((unsigned char)*s) || *s == '.') || strpbrk(s, "xX"))
		return -1; /* no hexadecimal (strtod would take 0x10) */
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s)
		return -1;
	if (*end && !end[1] && (at = strchr(suffixes, tolower((unsigned char)*end))) != NULL) {
		v *= pow(1e3, (double)(at - suffixes + 1));
		end++;
		/* 1.001k is 1001 however the binary fraction rounds */
		if (fabs(v - round(v)) < 1e-6)
			v = round(v);
	}
	if (*end || v != floor(v) || v > 9.2e18)
		return -1;
	*out = (long long)v;
	return 0;
}

int units_parse_size(const char *s, long long *out)
{
	char *end;
	double v;
	size_t i;

	if (!s || !*s || !(isdigit((unsigned char)*s) || *s == '.'))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || v < 0)
		return -1;
	while (*end == ' ')
		end++;
	for (i = 0; i < sizeof size_units / sizeof size_units[0]; i++) {
		if (strcasecmp(end, size_units[i].suffix) == 0) {
			double bytes = v * (double)size_units[i].mult;

			if (bytes > 9.2e18 || bytes != floor(bytes))
				return -1;
			*out = (long long)bytes;
			return 0;
		}
	}
	return -1;
}

int units_parse_seconds(const char *s, long long *ms)
{
	char *end;
	double v;

	if (!s || !*s || !(isdigit((unsigned char)*s) || *s == '.'))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || v < 0 || v > 1e9)
		return -1;
	if (*end == 's' && end[1] == 0)
		end++;
	if (*end)
		return -1;
	*ms = (long long)llround(v * 1000.0);
	return *ms == 0 && v > 0 ? -2 : 0;
}

void units_format_size(long long bytes, char *buf, size_t len)
{
	static const char *const names[] = { "TiB", "GiB", "MiB", "KiB" };
	static const long long mults[] = { 1LL << 40, 1LL << 30, 1LL << 20, 1LL << 10 };
	size_t i;

	for (i = 0; i < 4; i++) {
		if (bytes >= mults[i] && bytes % mults[i] == 0) {
			snprintf(buf, len, "%lld%s", bytes / mults[i], names[i]);
			return;
		}
	}
	snprintf(buf, len, "%lldB", bytes);
}

/* Three significant digits at most, no trailing noise: 1.23, 12.3, 123. */
static void fmt3(double v, const char *suffix, char *buf, size_t len)
{
	double a = fabs(v);

	if (a >= 99.95 || a == 0)
		snprintf(buf, len, "%.0f%s", v, suffix);
	else if (a >= 9.995)
		snprintf(buf, len, "%.1f%s", v, suffix);
	else
		snprintf(buf, len, "%.2f%s", v, suffix);
}

void units_human(double v, const char *unit, char *buf, size_t len)
{
	double a = fabs(v);

	if (isnan(v)) {
		snprintf(buf, len, "n/a");
	} else if (unit && strcmp(unit, "B") == 0) {
		static const char *const names[] = { " B", " KiB", " MiB", " GiB", " TiB" };
		int i = 0;

		while (a >= 1023.5 && i < 4) {
			v /= 1024;
			a /= 1024;
			i++;
		}
		fmt3(v, names[i], buf, len);
	} else if (unit && strcmp(unit, "s") == 0) {
		if (a == 0)
			snprintf(buf, len, "0 s");
		else if (a < 999.5e-9)
			fmt3(v * 1e9, " ns", buf, len);
		else if (a < 999.5e-6)
			fmt3(v * 1e6, " us", buf, len);
		else if (a < 999.5e-3)
			fmt3(v * 1e3, " ms", buf, len);
		else
			fmt3(v, " s", buf, len);
	} else {
		static const char *const names[] = { "", "k", "M", "G", "T" };
		int i = 0;

		if (a < 999.5 && a == floor(a)) {
			snprintf(buf, len, "%.0f", v);
			return;
		}
		while (a >= 999.5 && i < 4) {
			v /= 1000;
			a /= 1000;
			i++;
		}
		fmt3(v, names[i], buf, len);
	}
}
