/* schema_file.c - the spec language: parsing and checking it (schema_text.c
 * writes it back).
 *
 *   table NAME                      the spec's name (default: the file's)
 *   id TYPE ORDER | id knob         the primary key (default: id knob)
 *   column NAME TYPE ORDER          a value column, in table order
 *   hot NAME                        the column `op update` adds 1 to
 *   index COL[,COL...] [unique] [name NAME]   the next index of the list
 *
 * TYPE is int, bigint, text(N), uuid or timestamp (or an SQL spelling of
 * one: integer, varchar(N), double precision, ...); ORDER is knob,
 * seq[:R], desc[:R], late:P[:R], rand, few:N, zipf:S[:N], uuid7 or uuid4
 * (man idxlab, TABLE SPECS). A
 * misspelt word gets a "did you mean"; every error names file:line. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "schema_int.h"

const char *const schema_type_words[COL_TYPE_COUNT] = {
	[COL_INT] = "int",   [COL_BIGINT] = "bigint",       [COL_TEXT] = "text",
	[COL_UUID] = "uuid", [COL_TIMESTAMP] = "timestamp",
};
/* The SQL spellings users copy from their DDL, lower or upper case, as
 * PostgreSQL reads them (integer is 32-bit), each written as idxlab's type;
 * idxlab writes whole numbers, so the floating types are bigint. The text
 * types say their length: varchar(20). */
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
	{ "timestamptz", COL_TIMESTAMP },
	{ "timestamp with time zone", COL_TIMESTAMP },
	{ "timestamp without time zone", COL_TIMESTAMP },
	{ "datetime", COL_TIMESTAMP },
};
#define NALIAS ((int)(sizeof type_alias / sizeof type_alias[0]))

static const char *const line_words[] = { "table", "id", "column", "hot", "index", NULL };

static const char *nth_word(int i, const void *ctx)
{
	const char *const *words = ctx;
	int j;

	for (j = 0; j <= i; j++)
		if (!words[j])
			return NULL;
	return words[i];
}

static const char *nth_fixed(int i, const void *ctx)
{
	const char *const *words = ctx;

	return i < (words == schema_type_words ? COL_TYPE_COUNT : ORD_COUNT) ? words[i] : NULL;
}

static int unknown(const char *what, const char *word, const char *const *words, int fixed,
                   const char *valid, struct err *e)
{
	const char *hint = config_closest(word, fixed ? nth_fixed : nth_word, words);

	if (hint)
		return err_set(e, ERR_USAGE, "unknown %s '%s' (did you mean '%s'?)", what, word,
		               hint);
	return err_set(e, ERR_USAGE, "unknown %s '%s' (valid: %s)", what, word, valid);
}

/* ---- words --------------------------------------------------------------- */

/* A name the spec rules admit: [a-z_][a-z0-9_]*, shorter than
 * SCHEMA_NAME_MAX (the array holds it terminated). */
static int name_ok(const char *name)
{
	size_t n = strnlen(name, SCHEMA_NAME_MAX);

	if (!n || n == SCHEMA_NAME_MAX || !((*name >= 'a' && *name <= 'z') || *name == '_'))
		return 0;
	for (; *name; name++)
		if (!(*name >= 'a' && *name <= 'z') && !(*name >= '0' && *name <= '9') &&
		    *name != '_')
			return 0;
	return 1;
}

static int check_name(const char *name, struct err *e)
{
	if (name_ok(name)) /* ASCII whatever the locale (the dashboard sets one) */
		return 0;
	return err_set(e, ERR_USAGE,
	               "'%s' is not a column name: use a-z, 0-9 and _, starting with a letter, "
	               "at most %d characters",
	               name, SCHEMA_NAME_MAX - 1);
}

static int find_col(const struct schema *s, const char *name)
{
	int i;

	for (i = 0; i < s->ncols; i++)
		if (strcmp(s->cols[i].name, name) == 0)
			return i;
	return -1;
}

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

/* The type at first and, for a type of several words ("double precision",
 * "character varying(20)"), the words after it in *rest: lowered and joined
 * by one space into buf (len bytes). */
static void type_text(const char *first, char **rest, char *buf, size_t len)
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

static int parse_type(const char *w, struct column *c, struct err *e)
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
		               "or an SQL spelling of one: integer, smallint, varchar(N), double "
		               "precision, timestamptz, ...)",
		               w);
	}
	c->type = type_alias[i].type;
	c->len = c->type == COL_UUID ? 16 : 0;
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

/* Can a column of this type hold values in this order? */
static int check_column(const struct column *c, int is_id, struct err *e)
{
	char t[32], o[32];
	uint64_t room = 1;
	int i;

	schema_type_text(c, t, sizeof t);
	schema_order_text(c, o, sizeof o);
	if (c->order == ORD_KNOB && !is_id && c->type != COL_BIGINT)
		return err_set(e, ERR_USAGE,
		               "%s: a column that follows the key-order knob is a bigint (it "
		               "becomes a uuid when key-order is uuid7 or uuid4)",
		               c->name);
	if ((c->order == ORD_UUID7 || c->order == ORD_UUID4) && c->type != COL_UUID &&
	    !(c->type == COL_TEXT && c->len == 36))
		return err_set(e, ERR_USAGE, "%s: %s values go in a uuid or a text(36) column",
		               c->name, o);
	if (c->order == ORD_DESC && c->type == COL_UUID)
		return err_set(e, ERR_USAGE,
		               "%s: desc values go in an int, bigint, timestamp or text column (a "
		               "uuid grows: uuid7, seq:R, late:P)",
		               c->name);
	if (is_id &&
	    (c->order == ORD_FEW || c->order == ORD_ZIPF || c->order == ORD_LATE || c->per > 1))
		return err_set(e, ERR_USAGE,
		               "id %s %s: a primary key needs a value per row (seq, desc, rand, "
		               "uuid7, uuid4)",
		               t, o);
	if (is_id && c->type == COL_TEXT && c->order != ORD_UUID7 && c->order != ORD_UUID4)
		return err_set(e, ERR_USAGE,
		               "id %s: a text primary key holds uuids (text(36) uuid7|uuid4); for "
		               "random text keys index a text column",
		               t);
	if (c->type == COL_TEXT && (c->order == ORD_FEW || c->order == ORD_ZIPF)) {
		for (i = 0; i < c->len && room < c->n; i++)
			room *= 26;
		if (room < c->n)
			return err_set(e, ERR_USAGE, "%s: %s holds fewer than %llu distinct values",
			               c->name, t, (unsigned long long)c->n);
	}
	if (c->type == COL_INT && (c->order == ORD_FEW || c->order == ORD_ZIPF) &&
	    c->n > 0x7fffffffULL)
		return err_set(e, ERR_USAGE, "%s: an int holds at most 2147483647 distinct values",
		               c->name);
	return 0;
}

/* Can this index be unique, whatever the row count? */
static int unique_ok(const struct schema *s, const struct index_spec *x, struct err *e)
{
	int i;

	for (i = 0; i < x->ncols; i++) {
		const struct column *c = &s->cols[x->cols[i]];

		int seq1 = (c->order == ORD_SEQ || c->order == ORD_DESC) && c->per <= 1;

		if (c->order == ORD_UUID7 || c->order == ORD_UUID4 ||
		    (seq1 && c->type != COL_TEXT && c->type != COL_INT) ||
		    (c->order == ORD_RAND && c->type == COL_BIGINT) ||
		    (c->type == COL_UUID && (seq1 || c->order == ORD_RAND)) ||
		    (c->type == COL_TEXT && c->len >= 14 && (seq1 || c->order == ORD_RAND)))
			return 0;
	}
	return err_set(e, ERR_USAGE,
	               "index %s: unique, but its values repeat or may collide; a unique "
	               "index needs a column of distinct values (bigint seq, desc or rand, a "
	               "uuid, text(14) or longer seq, desc or rand; not seq:R or late:P)",
	               x->name);
}

int schema_check(const struct schema *s, struct err *e)
{
	int i, j;

	if (!name_ok(s->name))
		return err_set(e, ERR_USAGE, "its name is not a-z 0-9 _");
	if (s->ncols < 1 || s->ncols > SCHEMA_COLS_MAX || s->nindexes < 0 ||
	    s->nindexes > SCHEMA_IDX_MAX)
		return err_set(e, ERR_USAGE, "%d columns and %d indexes (at most %d and %d)",
		               s->ncols, s->nindexes, SCHEMA_COLS_MAX, SCHEMA_IDX_MAX);
	if (!name_ok(s->hot) || strcmp(s->hot, "id") == 0 || strcmp(s->hot, "payload") == 0)
		return err_set(e, ERR_USAGE, "its hot column's name is not one idxlab may use");
	for (i = 0; i < s->ncols; i++) {
		const struct column *c = &s->cols[i];

		if (!name_ok(c->name) || (i == 0) != (strcmp(c->name, "id") == 0) ||
		    strcmp(c->name, "payload") == 0 || strcmp(c->name, s->hot) == 0)
			return err_set(e, ERR_USAGE, "column %d's name is not one idxlab may use",
			               i);
		for (j = 1; j < i; j++)
			if (strcmp(s->cols[j].name, c->name) == 0)
				return err_set(e, ERR_USAGE, "two columns named %s", c->name);
		if (c->type < 0 || c->type >= COL_TYPE_COUNT || c->order < 0 ||
		    c->order >= ORD_COUNT ||
		    (c->type == COL_TEXT && (c->len < 1 || c->len > SCHEMA_TEXT_MAX)))
			return err_set(e, ERR_USAGE, "column %s has no type idxlab writes",
			               c->name);
		if (!(c->per == 0 || (c->per >= 1 && c->per <= SCHEMA_PER_MAX)) ||
		    !(c->late == 0 ||
		      (c->order == ORD_LATE && c->late > 0 && c->late <= SCHEMA_LATE_MAX)) ||
		    (c->order == ORD_LATE && c->late == 0) ||
		    (c->order == ORD_DESC && c->type == COL_UUID) ||
		    (i == 0 && (c->order == ORD_LATE || c->per > 1)))
			return err_set(e, ERR_USAGE, "column %s has no order idxlab writes",
			               c->name);
	}
	for (i = 0; i < s->nindexes; i++) {
		const struct index_spec *x = &s->idx[i];

		if (!name_ok(x->name) || strncmp(x->name, "idxlab_", 7) != 0 ||
		    schema_reserved(x->name))
			return err_set(e, ERR_USAGE, "index %d's name is not one idxlab may use",
			               i + 1);
		for (j = 0; j < i; j++)
			if (strcmp(s->idx[j].name, x->name) == 0)
				return err_set(e, ERR_USAGE, "two indexes named %s", x->name);
		if (x->ncols < 1 || x->ncols > SCHEMA_IDX_COLS)
			return err_set(e, ERR_USAGE, "index %s has %d columns", x->name, x->ncols);
		for (j = 0; j < x->ncols; j++)
			if (x->cols[j] < 1 || x->cols[j] >= s->ncols)
				return err_set(e, ERR_USAGE, "index %s covers no value column",
				               x->name);
	}
	return 0;
}

/* ---- lines --------------------------------------------------------------- */

struct parse {
	struct schema *s;
	int have_id;
};

static int next_word(char **p, char **word)
{
	char *s = *p;

	while (isspace((unsigned char)*s))
		s++;
	if (!*s)
		return 0;
	*word = s;
	while (*s && !isspace((unsigned char)*s))
		s++;
	if (*s)
		*s++ = 0;
	*p = s;
	return 1;
}

static int index_line(struct schema *s, char *rest, struct err *e)
{
	struct index_spec *x = &s->idx[s->nindexes];
	char *cols, *w, *c;
	size_t n;

	if (s->nindexes == SCHEMA_IDX_MAX)
		return err_set(e, ERR_USAGE, "more than %d indexes", SCHEMA_IDX_MAX);
	if (!next_word(&rest, &cols))
		return err_set(e, ERR_USAGE,
		               "index names its column(s): index email, or index "
		               "country,created_at");
	memset(x, 0, sizeof *x);
	n = (size_t)snprintf(x->name, sizeof x->name, "idxlab");
	for (c = strtok(cols, ","); c; c = strtok(NULL, ",")) {
		int col = find_col(s, c);

		if (col < 0 && strcmp(c, s->hot) == 0)
			return err_set(
			    e, ERR_USAGE,
			    "index %s: %s is the column `op update` changes, never indexed", c, c);
		if (col <= 0) {
			const char *names[SCHEMA_COLS_MAX + 1];
			int i;

			for (i = 1; i < s->ncols; i++)
				names[i - 1] = s->cols[i].name;
			names[s->ncols - 1] = NULL;
			if (col == 0)
				return err_set(e, ERR_USAGE,
				               "index id: the primary key is indexed already");
			return unknown("column", c, names, 0, "a column declared above", e);
		}
		if (x->ncols == SCHEMA_IDX_COLS)
			return err_set(e, ERR_USAGE, "an index of more than %d columns",
			               SCHEMA_IDX_COLS);
		x->cols[x->ncols++] = col;
		n += (size_t)snprintf(x->name + (n < sizeof x->name ? n : sizeof x->name - 1),
		                      n < sizeof x->name ? sizeof x->name - n : 1, "_%s", c);
	}
	if (n >= sizeof x->name || schema_reserved(x->name))
		snprintf(x->name, sizeof x->name, "idxlab_i%d", s->nindexes + 1);
	if (!x->ncols)
		return err_set(e, ERR_USAGE, "index names its column(s)");
	while (next_word(&rest, &w)) {
		static const char *const words[] = { "unique", "name", NULL };

		if (strcmp(w, "unique") == 0) {
			x->unique = 1;
		} else if (strcmp(w, "name") == 0) {
			if (!next_word(&rest, &w) || check_name(w, e) < 0 ||
			    strncmp(w, "idxlab_", 7) != 0 || schema_reserved(w))
				return err_set(
				    e, ERR_USAGE,
				    "name NAME: the index's name, idxlab_ then a-z 0-9 _ "
				    "(not idxlab_t, idxlab_t_pkey or idxlab_meta: idxlab's "
				    "own)");
			snprintf(x->name, sizeof x->name, "%s", w);
		} else {
			return unknown("word", w, words, 0, "unique, name NAME", e);
		}
	}
	for (int i = 0; i < s->nindexes; i++)
		if (strcmp(s->idx[i].name, x->name) == 0)
			return err_set(e, ERR_USAGE,
			               "two indexes named %s: give one another name (name "
			               "NAME)",
			               x->name);
	if (x->unique && unique_ok(s, x, e) < 0)
		return -1;
	s->nindexes++;
	return 0;
}

static int column_line(struct schema *s, char *rest, int is_id, struct err *e)
{
	struct column c = { .name = "id" };
	char *name = NULL, *type, *order, *extra, words[64];

	if (!is_id) {
		if (!next_word(&rest, &name))
			return err_set(e, ERR_USAGE,
			               "column NAME TYPE ORDER, e.g. column email "
			               "text(24) rand");
		if (check_name(name, e) < 0)
			return -1;
		if (find_col(s, name) >= 0 || strcmp(name, "payload") == 0 ||
		    strcmp(name, s->hot) == 0)
			return err_set(e, ERR_USAGE, "%s: a column of that name exists already",
			               name);
		if (s->ncols == SCHEMA_COLS_MAX)
			return err_set(e, ERR_USAGE, "more than %d columns", SCHEMA_COLS_MAX - 1);
		snprintf(c.name, sizeof c.name, "%s", name);
	}
	if (!next_word(&rest, &type))
		return err_set(e, ERR_USAGE, "%s TYPE ORDER: the type is missing", c.name);
	if (is_id && strcmp(type, "knob") == 0) {
		c.type = COL_BIGINT;
		c.order = ORD_KNOB;
	} else {
		type_text(type, &rest, words, sizeof words);
		if (parse_type(words, &c, e) < 0)
			return -1;
		if (!next_word(&rest, &order))
			return err_set(e, ERR_USAGE,
			               "%s %s ORDER: the value order is missing (seq, "
			               "rand, few:N, ...)",
			               c.name, words);
		if (schema_parse_order(order, &c, e) < 0 || check_column(&c, is_id, e) < 0)
			return -1;
	}
	if (next_word(&rest, &extra))
		return err_set(e, ERR_USAGE, "'%s' after the order: one column per line", extra);
	if (is_id)
		s->cols[0] = c;
	else
		s->cols[s->ncols++] = c;
	return 0;
}

static int spec_line(char *line, int lineno, void *ctx, struct err *e)
{
	struct parse *p = ctx;
	struct schema *s = p->s;
	char *rest = line, *w, *name;
	int i;

	(void)lineno;
	(void)next_word(&rest, &w);
	for (i = 0; line_words[i]; i++)
		if (strcmp(w, line_words[i]) == 0)
			break;
	switch (i) {
	case 0: /* table */
		if (!next_word(&rest, &name) || check_name(name, e) < 0)
			return err_set(e, ERR_USAGE, "table NAME: the spec's name, a-z 0-9 _");
		snprintf(s->name, sizeof s->name, "%s", name);
		return 0;
	case 1: /* id */
		if (p->have_id || s->ncols > 1)
			return err_set(e, ERR_USAGE, "id comes once, before the columns");
		p->have_id = 1;
		return column_line(s, rest, 1, e);
	case 2:
		return column_line(s, rest, 0, e);
	case 3: /* hot */
		if (!next_word(&rest, &name) || check_name(name, e) < 0)
			return err_set(e, ERR_USAGE, "hot NAME: the column op update changes");
		if (strcmp(name, "payload") == 0 || strcmp(name, "id") == 0)
			return err_set(e, ERR_USAGE,
			               "hot %s: %s is a column of idxlab's own (the %s); name the "
			               "column op update changes otherwise",
			               name, name, *name == 'p' ? "filler" : "primary key");
		if (find_col(s, name) >= 0 || s->nindexes)
			return err_set(e, ERR_USAGE,
			               "hot %s: name it before the indexes, unlike any "
			               "column",
			               name);
		snprintf(s->hot, sizeof s->hot, "%s", name);
		return 0;
	case 4:
		return index_line(s, rest, e);
	default:
		return unknown("line", w, line_words, 0, "table, id, column, hot, index", e);
	}
}

static void spec_start(struct schema *s, const char *name)
{
	const char *base = strrchr(name, '/');
	char file[SCHEMA_NAME_MAX], *dot;

	memset(s, 0, sizeof *s);
	/* the file's name, as a name the spec rules admit (it is printed) */
	snprintf(file, sizeof file, "%s", base ? base + 1 : name);
	if ((dot = strchr(file, '.')) != NULL)
		*dot = 0;
	schema_name_from(file, "t_", s->name, sizeof s->name);
	snprintf(s->hot, sizeof s->hot, "hot");
	snprintf(s->cols[0].name, sizeof s->cols[0].name, "id");
	s->cols[0].type = COL_BIGINT;
	s->cols[0].order = ORD_KNOB;
	s->ncols = 1;
}

int schema_parse_text(const char *text, const char *where, struct schema *s, struct err *e)
{
	struct parse p = { s, 0 };
	char line[1024];
	int lineno = 0;

	spec_start(s, where);
	while (*text) {
		size_t n = strcspn(text, "\n");
		char *c, *b = line, *end;

		lineno++;
		snprintf(line, sizeof line, "%.*s", (int)n, text);
		text += n + (text[n] == '\n');
		if ((c = strchr(line, '#')) != NULL)
			*c = 0;
		while (isspace((unsigned char)*b))
			b++;
		end = b + strlen(b);
		while (end > b && isspace((unsigned char)end[-1]))
			*--end = 0;
		if (*b && spec_line(b, lineno, &p, e) < 0)
			return err_prefix(e, "%s:%d", where, lineno);
	}
	return 0;
}

int schema_parse_file(const char *path, struct schema *s, struct err *e)
{
	struct parse p = { s, 0 };

	spec_start(s, path);
	return config_read(path, spec_line, &p, e);
}
