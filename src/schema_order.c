/* schema_order.c - the value order words of the spec language, read
 * (schema_text.c writes them back):
 *
 *   knob | seq[:R] | desc[:R] | late:P[:R] | rand | few:N | zipf:S[:N] | uuid7 | uuid4
 *
 * R, the rows per value, is 1 to 1e9 (fractions say an average: seq:5.4);
 * P, the share of late rows, is more than 0 and at most 50 %, as 2% or
 * 0.02 (man idxlab, TABLE SPECS). */
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
