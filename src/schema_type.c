/* schema_type.c - the spec language's types: their words, the SQL
 * spellings users copy from their DDL, and a type's arguments (text(N),
 * numeric(P,S)). schema_file.c reads the rest of a column line.
 *
 * The types of a user's table (issue 19) are their own: numeric(P,S) keeps
 * its precision and scale, boolean, date and timestamptz are types of
 * their own (an engine without one stores the nearest: the man page's
 * TABLE SPECS says which). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf_line.h"
#include "schema_int.h"

const char *const schema_type_words[COL_TYPE_COUNT] = {
	[COL_INT] = "int",   [COL_BIGINT] = "bigint",       [COL_TEXT] = "text",
	[COL_UUID] = "uuid", [COL_TIMESTAMP] = "timestamp", [COL_NUMERIC] = "numeric",
	[COL_BOOL] = "bool", [COL_DATE] = "date",           [COL_TIMESTAMPTZ] = "timestamptz",
};
/* The SQL spellings users copy from their DDL, lower or upper case, as
 * PostgreSQL reads them (integer is 32-bit), each written as idxlab's type;
 * idxlab writes whole numbers, so the floating types are bigint. The text
 * types say their length: varchar(20); numeric its precision and scale. */
static const struct {
	const char *words;
	enum col_type type;
} type_alias[] = {
	{ "int", COL_INT },
	{ "integer", COL_INT },
	{ "int4", COL_INT },
	{ "smallint", COL_INT },
	{ "int2", COL_INT },
	{ "serial", COL_INT },
	{ "bigint", COL_BIGINT },
	{ "int8", COL_BIGINT },
	{ "bigserial", COL_BIGINT },
	{ "double precision", COL_BIGINT },
	{ "float8", COL_BIGINT },
	{ "real", COL_BIGINT },
	{ "float4", COL_BIGINT },
	{ "float", COL_BIGINT },
	{ "text", COL_TEXT },
	{ "varchar", COL_TEXT },
	{ "character varying", COL_TEXT },
	{ "char", COL_TEXT },
	{ "character", COL_TEXT },
	{ "uuid", COL_UUID },
	{ "timestamp", COL_TIMESTAMP },
	{ "timestamp without time zone", COL_TIMESTAMP },
	{ "datetime", COL_TIMESTAMP },
	{ "timestamptz", COL_TIMESTAMPTZ },
	{ "timestamp with time zone", COL_TIMESTAMPTZ },
	{ "numeric", COL_NUMERIC },
	{ "decimal", COL_NUMERIC },
	{ "bool", COL_BOOL },
	{ "boolean", COL_BOOL },
	{ "date", COL_DATE },
};
#define NALIAS ((int)(sizeof type_alias / sizeof type_alias[0]))

static const char *nth_alias(int i, const void *ctx)
{
	(void)ctx;
	return i < NALIAS ? type_alias[i].words : NULL;
}

/* Does an alias of several words start with the words in have? */
static int alias_goes_on(const char *have)
{
	size_t n = strlen(have);
	int i;

	for (i = 0; i < NALIAS; i++)
		if (strncmp(type_alias[i].words, have, n) == 0 && type_alias[i].words[n] == ' ')
			return 1;
	return 0;
}

void schema_type_phrase(const char *first, char **rest, char *buf, size_t len)
{
	size_t i;

	snprintf(buf, len, "%s", first);
	for (;;) {
		const char *w = *rest;
		char full[64], more[64];
		size_t n;
		int k;

		for (i = 0; buf[i]; i++)
			buf[i] = (char)tolower((unsigned char)buf[i]);
		if (strchr(buf, '(') || !alias_goes_on(buf))
			return;
		while (isspace((unsigned char)*w))
			w++;
		for (n = 0; w[n] && !isspace((unsigned char)w[n]); n++)
			;
		if (!n || (size_t)snprintf(full, sizeof full, "%s %.*s", buf, (int)n, w) >=
		              (len < sizeof full ? len : sizeof full))
			return;
		for (i = 0; full[i] && full[i] != '('; i++)
			more[i] = (char)tolower((unsigned char)full[i]);
		more[i] = 0; /* "character varying" of "character varying(20)" */
		for (k = 0; k < NALIAS && strcmp(type_alias[k].words, more) != 0; k++)
			;
		if (k == NALIAS && !alias_goes_on(more))
			return;
		memcpy(buf, full, strlen(full) + 1);
		*rest = (char *)w + n;
	}
}

/* numeric(P,S) or numeric(P): precision 1..18 (an int64 holds it), scale
 * 0..P. */
static int parse_numeric(const char *w, const char *args, const char *word, struct column *c,
                         struct err *e)
{
	char *end;
	long p, s = 0;

	if (!*args)
		return err_set(e, ERR_USAGE,
		               "a numeric column says its precision and scale: %s(10,2)", word);
	p = strtol(args + 1, &end, 10);
	if (end != args + 1 && *end == ',') {
		const char *at = end + 1;

		s = strtol(at, &end, 10);
		if (end == at)
			end = (char *)"?";
	}
	if (end == args + 1 || strcmp(end, ")") != 0 || p < 1 || p > SCHEMA_NUMERIC_MAX || s < 0 ||
	    s > p)
		return err_set(e, ERR_USAGE,
		               "'%s': numeric(P,S) with a precision P of 1 .. %d digits and a "
		               "scale S of 0 .. P, e.g. numeric(10,2)",
		               w, SCHEMA_NUMERIC_MAX);
	c->prec = (int)p;
	c->scale = (int)s;
	return 0;
}

int schema_parse_type(const char *w, struct column *c, struct err *e)
{
	size_t base = strcspn(w, "(");
	const char *hint;
	int i;

	for (i = 0; i < NALIAS; i++)
		if (strlen(type_alias[i].words) == base &&
		    strncmp(w, type_alias[i].words, base) == 0)
			break;
	if (i == NALIAS) {
		char word[64];

		snprintf(word, sizeof word, "%.*s", (int)base, w);
		hint = config_closest(word, nth_alias, NULL);
		if (hint)
			return err_set(e, ERR_USAGE, "unknown type '%s' (did you mean '%s'?)", w,
			               hint);
		return err_set(e, ERR_USAGE,
		               "unknown type '%s' (valid: int, bigint, text(N), uuid, timestamp, "
		               "timestamptz, numeric(P,S), bool, date, or an SQL spelling of one: "
		               "integer, smallint, varchar(N), double precision, boolean, ...)",
		               w);
	}
	c->type = type_alias[i].type;
	c->len = c->type == COL_UUID ? 16 : 0;
	c->prec = c->scale = 0;
	if (c->type == COL_NUMERIC)
		return parse_numeric(w, w + base, type_alias[i].words, c, e);
	if (c->type == COL_TEXT) {
		char *end;
		long n;

		if (!w[base])
			return err_set(e, ERR_USAGE,
			               "a text column says its length: %s(16), text(32)",
			               type_alias[i].words);
		n = strtol(w + base + 1, &end, 10);
		if (end == w + base + 1 || strcmp(end, ")") != 0 || n < 1 || n > SCHEMA_TEXT_MAX)
			return err_set(e, ERR_USAGE,
			               "'%s': a text column says its length, text(1) .. text(%d)",
			               w, SCHEMA_TEXT_MAX);
		c->len = (int)n;
	} else if (w[base]) {
		return err_set(e, ERR_USAGE, "'%s': %s takes no length", w, type_alias[i].words);
	}
	return 0;
}

void schema_type_text(const struct column *c, char *buf, size_t len)
{
	if (c->type == COL_TEXT)
		snprintf(buf, len, "text(%d)", c->len);
	else if (c->type == COL_NUMERIC)
		snprintf(buf, len, "numeric(%d,%d)", c->prec, c->scale);
	else
		snprintf(buf, len, "%s",
		         c->type >= 0 && c->type < COL_TYPE_COUNT ? schema_type_words[c->type]
		                                                  : "?");
}
