/* knob_values.c - a knob's values as text and on a slider: parsing what a
 * user typed (a flag, a config line, the dashboard's prompt), formatting it
 * back, the valid range for messages and --help, and the slider's steps and
 * positions. Everything here reads knob_table (knobs.c), the one table. */
#include "knobs.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "conf_line.h"
#include "units.h"

void knob_range_text(int id, char *buf, size_t len)
{
	const struct knob_def *d = &knob_table[id];
	size_t n = 0;
	int i;

	buf[0] = 0;
	switch (d->kind) {
	case KNOB_CHOICE:
		for (i = 0; d->choices[i] && n < len; i++)
			n +=
			    (size_t)snprintf(buf + n, len - n, "%s%s", i ? "|" : "", d->choices[i]);
		break;
	case KNOB_INT:
		for (i = 0; d->words && d->words[i].word && n < len; i++)
			n += (size_t)snprintf(buf + n, len - n, "%s|", d->words[i].word);
		if (n < len && d->max_of) /* the max depends on other knobs */
			snprintf(buf + n, len - n, "%lld..%lld (%s)", d->min, knob_max(id, NULL),
			         d->max_why(NULL));
		else if (n < len)
			snprintf(buf + n, len - n, "%lld..%lld", d->min, d->max);
		break;
	case KNOB_SIZE: {
		char lo[32], hi[32];

		units_format_size(d->min, lo, sizeof lo);
		units_format_size(d->max, hi, sizeof hi);
		snprintf(buf, len, "%s..%s", lo, hi);
		break;
	}
	case KNOB_MILLIS:
		snprintf(buf, len, "%g..%g%s", d->min / 1000.0, d->max / 1000.0,
		         strcmp(d->unit, "s") == 0 ? " seconds" : "");
		break;
	case KNOB_STRING:
		snprintf(buf, len, "text");
		break;
	case KNOB_BOOL:
		snprintf(buf, len, "on|off");
		break;
	case KNOB_NAMED:
		if (d->range) {
			snprintf(buf, len, "%s", d->range);
			break;
		}
		for (i = 0; d->label(i) && i < 16 && n < len; i++)
			n += (size_t)snprintf(buf + n, len - n, "%s|", d->label(i));
		if (n < len)
			snprintf(buf + n, len - n, "FILE");
		break;
	}
}

int knob_numeric(int id)
{
	return knob_table[id].kind == KNOB_INT && (!knob_table[id].words || id == K_INDEXES);
}

int knob_bool_word(const char *text, size_t len)
{
	static const char *const yes[] = { "on", "yes", "true", "1" };
	static const char *const no[] = { "off", "no", "false", "0" };
	int i;

	for (i = 0; i < 4; i++) {
		if (strlen(yes[i]) == len && strncmp(text, yes[i], len) == 0)
			return 1;
		if (strlen(no[i]) == len && strncmp(text, no[i], len) == 0)
			return 0;
	}
	return -1;
}

int knob_parse(int id, const char *text, long long *out, struct err *e)
{
	const struct knob_def *d = &knob_table[id];
	char range[160];
	long long v = 0;
	int i;

	if (d->max_of) { /* the table in force is not known yet: no default's range */
		size_t n = 0;

		for (i = 0; d->words && d->words[i].word; i++)
			n += (size_t)snprintf(range + n, sizeof range - n, "%s|", d->words[i].word);
		snprintf(range + n, sizeof range - n, "%lld up to the table's number of indexes",
		         d->min);
	} else
		knob_range_text(id, range, sizeof range);
	switch (d->kind) {
	case KNOB_CHOICE:
		for (i = 0; d->choices[i]; i++) {
			if (strcmp(text, d->choices[i]) == 0) {
				*out = i;
				return 0;
			}
		}
		return err_set(e, ERR_USAGE, "'%s' is not one of %s", text, range);
	case KNOB_INT:
		for (i = 0; d->words && d->words[i].word; i++) {
			if (strcmp(text, d->words[i].word) == 0) {
				*out = d->words[i].value;
				return 0;
			}
		}
		/* a row count may be written 100k, 1M, 1e6 */
		if ((d->unit && strcmp(d->unit, "rows") == 0 ? units_parse_count(text, &v)
		                                             : units_parse_int(text, &v)) < 0)
			return err_set(
			    e, ERR_USAGE, "'%s' is not a whole number (valid: %s%s)", text, range,
			    d->unit && strcmp(d->unit, "rows") == 0 ? "; also 100k, 1M, 1e6" : "");
		break;
	case KNOB_SIZE:
		if (units_parse_size(text, &v) < 0)
			return err_set(
			    e, ERR_USAGE,
			    "'%s' is not a size (write e.g. 512KiB, 64MiB, 1GiB - kB, MB, GB are "
			    "the same, 1024-based; valid: %s)",
			    text, range);
		break;
	case KNOB_MILLIS:
		i = units_parse_seconds(text, &v);
		if (i == -1)
			return err_set(e, ERR_USAGE, "'%s' is not a number%s (valid: %s)", text,
			               strcmp(d->unit, "s") == 0 ? " of seconds" : "", range);
		/* (0.0004 would read 0: --duration's "no limit") */
		if (i < 0)
			return err_set(e, ERR_USAGE,
			               "'%s' is finer than idxlab reads: 0.001 at the least, or 0 "
			               "(valid: %s)",
			               text, range);
		break;
	case KNOB_STRING:
		*out = 0;
		return 0;
	case KNOB_NAMED:
		return d->resolve(text, out, e);
	case KNOB_BOOL:
		if ((i = knob_bool_word(text, strlen(text))) < 0)
			return err_set(e, ERR_USAGE, "'%s' is not on or off", text);
		*out = i;
		return 0;
	}
	/* A max that depends on the other knobs (indexes: the table in force)
	 * is knob_check's to judge: a range named here would be the default
	 * table's. */
	if (v < d->min || (v > d->max && !d->max_of))
		return err_set(e, ERR_USAGE, "%s is out of range (valid: %s)", text, range);
	*out = v;
	return 0;
}

void knob_format(int id, long long v, char *buf, size_t len)
{
	const struct knob_def *d = &knob_table[id];
	int i;

	switch (d->kind) {
	case KNOB_CHOICE:
		snprintf(buf, len, "%s", d->choices[v]);
		return;
	case KNOB_INT:
		for (i = 0; d->words && d->words[i].word; i++) {
			if (d->words[i].value == v) {
				snprintf(buf, len, "%s", d->words[i].word);
				return;
			}
		}
		snprintf(buf, len, "%lld", v);
		return;
	case KNOB_SIZE:
		units_format_size(v, buf, len);
		return;
	case KNOB_MILLIS:
		snprintf(buf, len, "%g", v / 1000.0);
		return;
	case KNOB_STRING:
		snprintf(buf, len, "%s", "");
		return;
	case KNOB_BOOL:
		snprintf(buf, len, "%s", v ? "on" : "off");
		return;
	case KNOB_NAMED:
		snprintf(buf, len, "%s", d->label(v) ? d->label(v) : "?");
		return;
	}
}

void knob_default_text(int id, const char *more, char *buf, size_t len)
{
	size_t n;

	n = (size_t)snprintf(buf, len, "[default %s",
	                     *knob_table[id].def ? knob_table[id].def : "(none)");
	if (knob_table[id].dash_def && n < len)
		n += (size_t)snprintf(buf + n, len - n, "; dashboard: %s", knob_table[id].dash_def);
	if (more && n < len)
		n += (size_t)snprintf(buf + n, len - n, "%s", more);
	if (n < len)
		snprintf(buf + n, len - n, "]");
}

/* The values a choice or a named knob's slider runs over. */
static long long choice_count(const struct knob_def *d)
{
	long long count = 0;

	while (d->kind == KNOB_NAMED ? d->label(count) != NULL : d->choices[count] != NULL)
		count++;
	return count;
}

/* Log-scale knobs step by x2 (x16 for a page); "all" sits above max and
 * "auto" below min. Linear knobs step by 1 (by a tenth of the range). */
long long knob_step(int id, const struct knobs *k, long long v, int dir, int big)
{
	const struct knob_def *d = &knob_table[id];
	long long n, max = knob_max(id, k);

	switch (d->kind) {
	case KNOB_CHOICE:
	case KNOB_NAMED: {
		long long count = choice_count(d);

		n = v + dir * (big ? count : 1);
		return n < 0 ? 0 : n >= count ? count - 1 : n;
	}
	case KNOB_BOOL:
		return dir > 0;
	case KNOB_STRING:
	case KNOB_MILLIS:
		return v;
	case KNOB_INT:
	case KNOB_SIZE:
		break;
	}
	if (id == K_COMMIT && v == COMMIT_ALL)
		v = max * 2; /* "all" is past the largest batch */
	if (id == K_PREFILL && v == PREFILL_AUTO)
		v = 0;
	if (d->flags & KF_LOG) {
		long long f = big ? 16 : 2;

		if (dir > 0)
			n = v <= 0 ? (d->min > 0 ? d->min : 1) : v > max / f ? max + 1 : v * f;
		else
			n = v / f;
	} else {
		long long stepv = big ? (max - d->min + 9) / 10 : 1;

		n = v + dir * stepv;
	}
	if (id == K_COMMIT && n > max)
		return COMMIT_ALL;
	if (n > max)
		n = max;
	if (n < d->min)
		n = d->min;
	return n;
}

double knob_position(int id, const struct knobs *k, long long v)
{
	const struct knob_def *d = &knob_table[id];
	long long max = knob_max(id, k);
	double lo, hi, x;

	if (d->kind == KNOB_CHOICE || d->kind == KNOB_NAMED) {
		long long count = choice_count(d);

		return count > 1 ? (double)v / (double)(count - 1) : 0;
	}
	if (d->kind == KNOB_STRING || d->kind == KNOB_BOOL || d->kind == KNOB_MILLIS)
		return d->kind == KNOB_BOOL ? (double)v : 0;
	if (id == K_COMMIT && v == COMMIT_ALL)
		return 1;
	if (id == K_PREFILL && v == PREFILL_AUTO)
		return 0;
	if (max <= d->min)
		return 0;
	if (d->flags & KF_LOG) {
		lo = log((double)(d->min > 0 ? d->min : 1));
		hi = log((double)max);
		x = v > 0 ? (log((double)v) - lo) / (hi - lo) : 0;
	} else {
		x = (double)(v - d->min) / (double)(max - d->min);
	}
	return x < 0 ? 0 : x > 1 ? 1 : x;
}

long long knob_at_position(int id, const struct knobs *k, double pos)
{
	const struct knob_def *d = &knob_table[id];
	long long v, max = knob_max(id, k);

	if (pos < 0)
		pos = 0;
	if (pos > 1)
		pos = 1;
	if (d->kind == KNOB_CHOICE || d->kind == KNOB_NAMED) {
		long long count = choice_count(d);

		return llround(pos * (double)(count - 1));
	}
	if (id == K_COMMIT && pos >= 0.999)
		return COMMIT_ALL;
	if (d->flags & KF_LOG) {
		double lo = log((double)(d->min > 0 ? d->min : 1)), hi = log((double)max);

		v = llround(exp(lo + pos * (hi - lo)));
		if (d->kind == KNOB_SIZE) /* whole KiB: what a cache size is set in */
			v = (v + 512) / 1024 * 1024;
	} else {
		v = d->min + llround(pos * (double)(max - d->min));
	}
	return v < d->min ? d->min : v > max ? max : v;
}

static const char *nth_knob(int i, const void *ctx)
{
	(void)ctx;
	return i < K_COUNT ? knob_table[i].name : NULL;
}

const char *knob_closest(const char *name)
{
	return config_closest(name, nth_knob, NULL);
}

int knob_read_line(char *s, int *id, char **val, struct err *e)
{
	char *eq = strchr(s, '='), *end;

	if (!eq)
		return err_set(e, ERR_USAGE,
		               "expected 'key = value', got '%s' (see idxlab --help for the keys)",
		               s);
	*eq = 0;
	for (end = eq; end > s && isspace((unsigned char)end[-1]);)
		*--end = 0;
	*val = eq + 1;
	while (isspace((unsigned char)**val))
		(*val)++;
	*id = knob_find(s);
	if (*id < 0) {
		const char *hint = knob_closest(s);

		if (hint)
			return err_set(e, ERR_USAGE, "unknown key '%s' (did you mean '%s'?)", s,
			               hint);
		return err_set(e, ERR_USAGE, "unknown key '%s' (idxlab --help lists the keys)", s);
	}
	return 0;
}
