/* schema_order.c - the value order words of the spec language, read
 * (schema_text.c writes them back):
 *
 *   knob | seq[:R] | desc[:R] | late:P[:R] | rand | few:N | zipf:S[:N] | uuid7 | uuid4
 *
 * R, the rows per value, is 1 to 1e9 (fractions say an average: seq:5.4);
 * P, the share of late rows, is more than 0 and at most 50 %, as 2% or
 * 0.02 (man idxlab, TABLE SPECS). After the order, the values' range:
 *
 *   in:LO..HI      an int, bigint or numeric column's values placed in
 *                  [LO, HI] (a numeric's with at most its scale's
 *                  decimals): what a source's sample saw, so a generated
 *                  column's arithmetic over them stays in its type. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf_line.h"
#include "schema_int.h"

const char *const schema_order_words[ORD_COUNT] = {
	[ORD_KNOB] = "knob",   [ORD_SEQ] = "seq",   [ORD_RAND] = "rand",
	[ORD_FEW] = "few",     [ORD_ZIPF] = "zipf", [ORD_UUID7] = "uuid7",
	[ORD_UUID4] = "uuid4", [ORD_DESC] = "desc", [ORD_LATE] = "late",
};

static const char *nth_order(int i, const void *ctx)
{
	(void)ctx;
	return i < ORD_COUNT ? schema_order_words[i] : NULL;
}

static int unknown_order(const char *word, struct err *e)
{
	const char *hint = config_closest(word, nth_order, NULL);

	if (hint)
		return err_set(e, ERR_USAGE, "unknown value order '%s' (did you mean '%s'?)", word,
		               hint);
	return err_set(e, ERR_USAGE,
	               "unknown value order '%s' (valid: knob, seq[:R], desc[:R], late:P[:R], "
	               "rand, few:N, zipf:S[:N], uuid7, uuid4)",
	               word);
}

static int parse_count(const char *w, const char *num, uint64_t *n, struct err *e)
{
	char *end;
	unsigned long long v = strtoull(num, &end, 10);

	if (end == num || *end || v < 1 || v > (1ULL << 62))
		return err_set(e, ERR_USAGE, "'%s': the number of distinct values is 1 or more", w);
	*n = v;
	return 0;
}

/* R of seq:R, desc:R, late:P:R: about R rows per value (1 is a value per
 * row; fractions say an average, 5.4). */
static int parse_per(const char *w, const char *num, struct column *c, struct err *e)
{
	char *end;
	double r = strtod(num, &end);

	if (end == num || *end || !(r >= 1) || !(r <= SCHEMA_PER_MAX))
		return err_set(e, ERR_USAGE,
		               "'%s': R, the rows per value, is a number from 1 to 1e9 (seq:5, "
		               "seq:5.4)",
		               w);
	c->per = r == 1 ? 0 : r;
	return 0;
}

int schema_parse_order(const char *w, struct column *c, struct err *e)
{
	char word[32];
	const char *arg = strchr(w, ':');
	size_t len = arg ? (size_t)(arg - w) : strlen(w);
	int i;

	if (len >= sizeof word)
		len = sizeof word - 1;
	memcpy(word, w, len);
	word[len] = 0;
	for (i = 0; i < ORD_COUNT; i++)
		if (strcmp(word, schema_order_words[i]) == 0)
			break;
	if (i == ORD_COUNT)
		return unknown_order(word, e);
	c->order = (enum col_order)i;
	c->n = 0;
	c->s = 0;
	c->per = 0;
	c->late = 0;
	if (i == ORD_SEQ || i == ORD_DESC)
		return arg ? parse_per(w, arg + 1, c, e) : 0;
	if (i == ORD_LATE) {
		char *end;
		const char *more;

		if (!arg)
			return err_set(e, ERR_USAGE,
			               "late says its share of late rows, and optionally the rows "
			               "per value: late:2%% or late:0.02 or late:2%%:5");
		c->late = strtod(arg + 1, &end);
		if (end != arg + 1 && *end == '%') {
			c->late /= 100;
			end++;
		}
		if (end == arg + 1 || (*end && *end != ':') || !(c->late > 0) ||
		    !(c->late <= SCHEMA_LATE_MAX))
			return err_set(e, ERR_USAGE,
			               "'%s': late's share of late rows is more than 0 and at most "
			               "50%%, written 2%% or 0.02",
			               w);
		more = *end == ':' ? end + 1 : NULL;
		return more ? parse_per(w, more, c, e) : 0;
	}
	if (i == ORD_FEW) {
		if (!arg)
			return err_set(e, ERR_USAGE, "few says how many distinct values: few:50");
		return parse_count(w, arg + 1, &c->n, e);
	}
	if (i == ORD_ZIPF) {
		char *end;
		const char *more;

		if (!arg)
			return err_set(e, ERR_USAGE,
			               "zipf says its exponent, and optionally how many values: "
			               "zipf:1.1 or zipf:1.1:10000");
		c->s = strtod(arg + 1, &end);
		if (end == arg + 1 || (*end && *end != ':') || !(c->s > 0 && c->s <= 10))
			return err_set(e, ERR_USAGE, "'%s': zipf's exponent is a number in (0, 10]",
			               w);
		more = *end == ':' ? end + 1 : NULL;
		c->n = SCHEMA_ZIPF_N;
		return more ? parse_count(w, more, &c->n, e) : 0;
	}
	if (arg)
		return err_set(e, ERR_USAGE, "'%s': %s takes no ':'", w, word);
	return 0;
}

/* ---- in:LO..HI ------------------------------------------------------------ */

/* A number of the range at *p in units of 10^-scale: [-]digits[.digits],
 * at most scale decimals; *p moved past it. -1 when it is none, or past
 * an int64. */
static int range_units(const char **p, int scale, int64_t *out)
{
	const char *q = *p;
	int neg = *q == '-', digits = 0, decimals = 0, frac = 0;
	uint64_t v = 0, lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;

	q += neg;
	for (; (*q >= '0' && *q <= '9') || (*q == '.' && !frac && q[1] >= '0' && q[1] <= '9');
	     q++) {
		if (*q == '.') {
			frac = 1;
			continue;
		}
		if (frac && ++decimals > scale)
			return -1;
		if (v > (lim - (uint64_t)(*q - '0')) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*q - '0');
		digits++;
	}
	for (; decimals < scale; decimals++) {
		if (v > lim / 10)
			return -1;
		v *= 10;
	}
	if (!digits)
		return -1;
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	*p = q;
	return 0;
}

void schema_range_text(const struct column *c, char *buf, size_t len)
{
	uint64_t p = 1;
	int i, n = 0;
	const int64_t ends[2] = { c->lo, c->hi };

	if (!len)
		return;
	buf[0] = 0;
	if (!c->ranged)
		return;
	for (i = 0; i < (c->type == COL_NUMERIC ? c->scale : 0); i++)
		p *= 10;
	n = snprintf(buf, len, "in:");
	for (i = 0; i < 2 && n >= 0 && (size_t)n < len; i++) {
		uint64_t a = ends[i] < 0 ? 0 - (uint64_t)ends[i] : (uint64_t)ends[i];

		if (p > 1)
			n += snprintf(buf + n, len - (size_t)n, "%s%s%llu.%0*llu", i ? ".." : "",
			              ends[i] < 0 ? "-" : "", (unsigned long long)(a / p), c->scale,
			              (unsigned long long)(a % p));
		else
			n += snprintf(buf + n, len - (size_t)n, "%s%lld", i ? ".." : "",
			              (long long)ends[i]);
	}
}

int schema_range_check(const struct column *c, int is_id, struct err *e)
{
	char t[32], o[32], r[96];
	uint64_t n = c->order == ORD_FEW || c->order == ORD_ZIPF ? c->n : 1;
	int64_t tmax = c->type == COL_INT ? INT32_MAX : INT64_MAX,
	        tmin = c->type == COL_INT ? INT32_MIN : INT64_MIN;

	if (!c->ranged)
		return 0;
	schema_type_text(c, t, sizeof t);
	schema_order_text(c, o, sizeof o);
	schema_range_text(c, r, sizeof r);
	if (c->type == COL_NUMERIC) {
		uint64_t p = 1;
		int i;

		for (i = 0; i < c->prec && i < SCHEMA_NUMERIC_MAX; i++)
			p *= 10;
		tmax = (int64_t)p - 1;
		tmin = -tmax;
	}
	if (is_id)
		return err_set(e, ERR_USAGE,
		               "%s: the id's values are idxlab's (in:LO..HI is for "
		               "a value column)",
		               r);
	if (c->type != COL_INT && c->type != COL_BIGINT && c->type != COL_NUMERIC)
		return err_set(e, ERR_USAGE,
		               "%s %s %s: in:LO..HI is for an int, bigint or numeric "
		               "column",
		               c->name, t, r);
	if (c->order == ORD_KNOB || c->order == ORD_UUID7 || c->order == ORD_UUID4)
		return err_set(e, ERR_USAGE,
		               "%s %s %s: in:LO..HI takes seq, desc, late, rand, few "
		               "or zipf (a knob column follows --key-order)",
		               c->name, o, r);
	if (c->lo > c->hi || c->lo < tmin || c->hi > tmax)
		return err_set(e, ERR_USAGE, "%s %s %s: LO is at most HI, both within %s", c->name,
		               t, r, t);
	if (n > 1 && n - 1 > (uint64_t)c->hi - (uint64_t)c->lo)
		return err_set(e, ERR_USAGE, "%s %s %s: fewer than the %llu distinct values of %s",
		               c->name, t, r, (unsigned long long)n, o);
	return 0;
}

int schema_parse_range(const char *w, struct column *c, struct err *e)
{
	const char *p = w + 3;
	int scale = c->type == COL_NUMERIC ? c->scale : 0;

	if (strncmp(w, "in:", 3) != 0 || range_units(&p, scale, &c->lo) < 0 ||
	    strncmp(p, "..", 2) != 0 || (p += 2, range_units(&p, scale, &c->hi) < 0) || *p)
		return err_set(e, ERR_USAGE,
		               "'%s': in:LO..HI, two numbers of the column's type (%s), e.g. "
		               "in:1..500%s",
		               w, scale ? "at most its scale's decimals" : "whole",
		               scale ? " or in:0.50..99.99" : "");
	c->ranged = 1;
	return 0;
}
