/* schema_file.c - the spec language: parsing and checking it (schema_text.c
 * writes it back).
 *
 *   table NAME                      the spec's name (default: the file's)
 *   id TYPE ORDER | id knob         the primary key (default: id knob)
 *   column NAME TYPE ORDER          a value column, in table order
 *   column NAME TYPE ORDER in:LO..HI   ... its values within [LO, HI]
 *   column NAME TYPE ORDER null:P%  ... P percent of its rows NULL
 *   column NAME TYPE ORDER generated (EXPR) [stored]   computed by the
 *                                   engine where it can (schema_gen.h)
 *   hot NAME                        the column `op update` adds 1 to (its own);
 *                                   a value column's name: op update writes
 *                                   it; none: op update has no column
 *   payload none                    no payload column unless --payload N
 *   index KEY[,KEY...] [unique] [name NAME] [where PRED]   the next index
 *   partition by hash|range|list (COL[,COL]) N   a partitioned table
 *                                   (schema_part.c)
 *   without rowid                   the rows kept in the first index's key
 *                                   (schema_key.c)
 *
 * KEY is a column or lower(COL) / upper(COL); PRED is terms joined by and,
 * each `COL op CONSTANT` or `COL is [not] null` (schema_idx.c).
 *
 * TYPE is int, bigint, text(N), uuid, timestamp, timestamptz,
 * numeric(P,S), bool or date (or an SQL spelling of one: integer,
 * varchar(N), double precision, boolean, ...: schema_type.c); ORDER is knob,
 * seq[:R], desc[:R], late:P[:R], rand, few:N, zipf:S[:N], uuid7 or uuid4
 * (schema_order.c; man idxlab, TABLE SPECS). A
 * misspelt word gets a "did you mean"; every error names file:line. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf_line.h"
#include "schema_gen.h"
#include "schema_idx.h"
#include "schema_int.h"
#include "schema_part.h"

static const char *const line_words[] = { "table",   "id",        "column",  "hot",   "index",
	                                  "payload", "partition", "without", "query", NULL };

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
	if (c->type == COL_BOOL && (c->order == ORD_FEW || c->order == ORD_ZIPF) && c->n > 2)
		return err_set(e, ERR_USAGE, "%s: a bool holds 2 distinct values (few:2)", c->name);
	if (is_id && (c->type == COL_BOOL || c->type == COL_DATE || c->type == COL_NUMERIC))
		return err_set(e, ERR_USAGE,
		               "id %s: a primary key here is an integer, a uuid or a text(36) of "
		               "uuids",
		               t);
	if (c->type == COL_NUMERIC && (c->order == ORD_FEW || c->order == ORD_ZIPF)) {
		if (schema_numeric_room(c) < c->n)
			return err_set(e, ERR_USAGE, "%s: %s holds fewer than %llu distinct values",
			               c->name, t, (unsigned long long)c->n);
	}
	if (c->type == COL_INT && (c->order == ORD_FEW || c->order == ORD_ZIPF) &&
	    c->n > 0x7fffffffULL)
		return err_set(e, ERR_USAGE, "%s: an int holds at most 2147483647 distinct values",
		               c->name);
	return 0;
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
	if ((s->hot[0] && !name_ok(s->hot)) || strcmp(s->hot, "id") == 0 ||
	    strcmp(s->hot, "payload") == 0 || s->hot_col < 0 || s->hot_col >= s->ncols ||
	    (s->hot_col > 0 && strcmp(s->hot, s->cols[s->hot_col].name) != 0))
		return err_set(e, ERR_USAGE, "its hot column's name is not one idxlab may use");
	for (i = 0; s->hot_col > 0 && i < s->nindexes; i++)
		for (j = 0; j < s->idx[i].ncols && j < SCHEMA_IDX_COLS; j++)
			if (s->idx[i].cols[j] == s->hot_col)
				return err_set(e, ERR_USAGE,
				               "hot %s: an index covers it; op update changes a "
				               "column no index covers",
				               s->hot);
	for (i = 0; i < s->ncols; i++) {
		const struct column *c = &s->cols[i];

		if (!name_ok(c->name) || (i == 0) != (strcmp(c->name, "id") == 0) ||
		    strcmp(c->name, "payload") == 0 ||
		    (schema_has_hot(s) && strcmp(c->name, s->hot) == 0))
			return err_set(e, ERR_USAGE, "column %d's name is not one idxlab may use",
			               i);
		for (j = 1; j < i; j++)
			if (strcmp(s->cols[j].name, c->name) == 0)
				return err_set(e, ERR_USAGE, "two columns named %s", c->name);
		if (c->type < 0 || c->type >= COL_TYPE_COUNT || c->order < 0 ||
		    c->order >= ORD_COUNT ||
		    (c->type == COL_TEXT && (c->len < 1 || c->len > SCHEMA_TEXT_MAX)) ||
		    (c->type == COL_NUMERIC && (c->prec < 1 || c->prec > SCHEMA_NUMERIC_MAX ||
		                                c->scale < 0 || c->scale > c->prec)) ||
		    !(c->nulls >= 0 && c->nulls <= 1) || (i == 0 && c->nulls > 0))
			return err_set(e, ERR_USAGE, "column %s has no type idxlab writes",
			               c->name);
		if ((c->gen[0] && schema_gen_check(s, i, e) < 0) ||
		    schema_range_check(c, i == 0, e) < 0)
			return -1;
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
		if (schema_idx_check(s, x, e) < 0)
			return -1;
	}
	return schema_part_check(s, e) < 0 || schema_query_check(s, e) < 0 ? -1
	                                                                   : schema_key_check(s, e);
}

/* ---- lines --------------------------------------------------------------- */

struct parse {
	struct schema *s;
	int have_id;
	int hot_set;   /* a hot line came: a column may no longer take hot's name */
	int hot_taken; /* the line of a column that took hot's name before that */
	int key_line;  /* the `without rowid` line, checked once the indexes are read */
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

	if (s->nindexes == SCHEMA_IDX_MAX)
		return err_set(e, ERR_USAGE, "more than %d indexes", SCHEMA_IDX_MAX);
	if (!next_word(&rest, &cols))
		return err_set(e, ERR_USAGE,
		               "index names its column(s): index email, or index "
		               "country,created_at");
	memset(x, 0, sizeof *x);
	for (c = strtok(cols, ","); c; c = strtok(NULL, ",")) {
		int col = find_col(s, c);
		struct index_spec key = { .ncols = 0 };

		if (strchr(c, '(')) { /* lower(email) */
			if (schema_idx_parse_keys(s, c, schema_idx_spec_col, s, &key, e) < 0)
				return err_prefix(e, "index %s", c);
			col = key.cols[0];
		}
		if ((col < 0 || col == s->hot_col) && s->hot[0] && strcmp(c, s->hot) == 0)
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
		x->fn[x->ncols] = key.fn[0];
		x->cols[x->ncols++] = col;
	}
	if (!x->ncols)
		return err_set(e, ERR_USAGE, "index names its column(s)");
	schema_idx_default_name(s, x, x->name, sizeof x->name);
	if (!x->name[0])
		snprintf(x->name, sizeof x->name, "idxlab_i%d", s->nindexes + 1);
	while (next_word(&rest, &w)) {
		static const char *const words[] = { "unique", "name", "where", NULL };

		if (strcmp(w, "where") == 0) {
			if (schema_idx_parse_where(s, rest, schema_idx_spec_col, s, x, e) < 0)
				return err_prefix(e, "index %s: where %s", x->name, rest);
			break;
		} else if (strcmp(w, "unique") == 0) {
			x->unique = 1;
		} else if (strcmp(w, "name") == 0) {
			if (!next_word(&rest, &w) || check_name(w, e) < 0 ||
			    strncmp(w, "idxlab_", 7) != 0 || schema_reserved(w))
				return err_set(
				    e, ERR_USAGE,
				    "name NAME: the index's name, idxlab_ then a-z 0-9 _ "
				    "(not idxlab_t, idxlab_t_pkey, idxlab_t_pN or idxlab_meta: "
				    "idxlab's own)");
			snprintf(x->name, sizeof x->name, "%s", w);
		} else {
			return unknown("word", w, words, 0, "unique, name NAME, where PRED", e);
		}
	}
	for (int i = 0; i < s->nindexes; i++)
		if (strcmp(s->idx[i].name, x->name) == 0)
			return err_set(e, ERR_USAGE,
			               "two indexes named %s: give one another name (name "
			               "NAME)",
			               x->name);
	if (x->unique && schema_unique_ok(s, x, e) < 0)
		return -1;
	s->nindexes++;
	return 0;
}

/* null:P% after a column's order: P percent of its rows are NULL. */
static int parse_nulls(const char *w, int is_id, struct column *c, struct err *e)
{
	char *end;
	double p;

	if (strncmp(w, "null:", 5) != 0)
		return err_set(e, ERR_USAGE,
		               "'%s' after the order: only null:P%% (the share of rows that are "
		               "NULL, e.g. null:28%%), in:LO..HI first%s; one column per line",
		               w, is_id ? " or unindexed (the id)" : "");
	p = strtod(w + 5, &end);
	if (end == w + 5 || strcmp(end, "%") != 0 || !(p >= 0 && p <= 100))
		return err_set(e, ERR_USAGE, "'%s': null:P%% with P a percentage, 0 .. 100", w);
	if (is_id && p > 0)
		return err_set(e, ERR_USAGE, "%s: a primary key is never NULL", w);
	c->nulls = p / 100;
	return 0;
}

/* `unindexed` ends the id line: idxlab's id only locates a row. */
static int unindexed_word(int is_id, char **rest, struct err *e)
{
	char *w;

	if (!is_id)
		return err_set(e, ERR_USAGE,
		               "unindexed: only the id line takes it (id TYPE ORDER unindexed: "
		               "idxlab's id has no index of its own); a column has an index only "
		               "if an index line names it");
	if (next_word(rest, &w))
		return err_set(e, ERR_USAGE, "'%s' after unindexed: it ends the id line", w);
	return 0;
}

static int column_line(struct schema *s, char *rest, int is_id, int hot_set, struct err *e)
{
	struct column c = { .name = "id" };
	char *name = NULL, *type, *order, *extra = NULL, words[64];

	if (!is_id) {
		if (!next_word(&rest, &name))
			return err_set(e, ERR_USAGE,
			               "column NAME TYPE ORDER, e.g. column email "
			               "text(24) rand");
		if (check_name(name, e) < 0)
			return -1;
		if (find_col(s, name) >= 0 || strcmp(name, "payload") == 0 ||
		    (hot_set && schema_has_hot(s) && strcmp(name, s->hot) == 0))
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
		schema_type_phrase(type, &rest, words, sizeof words);
		if (schema_parse_type(words, &c, e) < 0)
			return -1;
		if (!next_word(&rest, &order))
			return err_set(e, ERR_USAGE,
			               "%s %s ORDER: the value order is missing (seq, "
			               "rand, few:N, ...)",
			               c.name, words);
		if (schema_parse_order(order, &c, e) < 0 || check_column(&c, is_id, e) < 0)
			return -1;
	}
	if (next_word(&rest, &extra) && strncmp(extra, "in:", 3) == 0 &&
	    (schema_parse_range(extra, &c, e) < 0 || schema_range_check(&c, is_id, e) < 0))
		return -1;
	if (c.ranged && !next_word(&rest, &extra))
		extra = NULL;
	if (extra && strcmp(extra, "generated") != 0 && strcmp(extra, "unindexed") != 0 &&
	    parse_nulls(extra, is_id, &c, e) < 0)
		return -1;
	if (extra && strcmp(extra, "generated") != 0 && strcmp(extra, "unindexed") != 0 &&
	    !next_word(&rest, &extra))
		extra = NULL;
	if (extra && strcmp(extra, "generated") == 0) {
		if (is_id)
			return err_set(e, ERR_USAGE,
			               "id: the primary key is not a generated column");
		if (schema_gen_words(s, &c, &rest, e) < 0)
			return -1;
		extra = next_word(&rest, &extra) ? extra : NULL;
	}
	if (extra && strcmp(extra, "unindexed") == 0 && unindexed_word(is_id, &rest, e) < 0)
		return -1;
	if (extra && strcmp(extra, "unindexed") != 0)
		return err_set(
		    e, ERR_USAGE,
		    "'%s' after the order: only in:LO..HI, null:P%% and generated (EXPR) "
		    "[stored]%s; one column per line",
		    extra, is_id ? " (a column), unindexed (the id)" : "");
	s->id_unindexed |= extra != NULL;
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
		return column_line(s, rest, 1, p->hot_set, e);
	case 2:
		if (column_line(s, rest, 0, p->hot_set, e) < 0)
			return -1;
		if (!p->hot_set && strcmp(s->cols[s->ncols - 1].name, s->hot) == 0)
			p->hot_taken = lineno;
		return 0;
	case 3: /* hot */
		if (!next_word(&rest, &name) || check_name(name, e) < 0)
			return err_set(e, ERR_USAGE, "hot NAME: the column op update changes");
		if (strcmp(name, "payload") == 0 || strcmp(name, "id") == 0)
			return err_set(e, ERR_USAGE,
			               "hot %s: %s is a column of idxlab's own (the %s); name the "
			               "column op update changes otherwise",
			               name, name, *name == 'p' ? "filler" : "primary key");
		if (s->nindexes)
			return err_set(e, ERR_USAGE, "hot %s: name it before the indexes", name);
		p->hot_set = 1;
		s->hot_col = strcmp(name, "none") == 0 ? 0 : find_col(s, name);
		if (s->hot_col < 0)
			s->hot_col = 0; /* a column of its own */
		snprintf(s->hot, sizeof s->hot, "%s", strcmp(name, "none") == 0 ? "" : name);
		return 0;
	case 4: /* a unique index holds the partition key (schema_part.h) */
		return index_line(s, rest, e) < 0 ? -1 : schema_part_check(s, e);
	case 5: /* payload none */
		if (!next_word(&rest, &name) || strcmp(name, "none") != 0 ||
		    next_word(&rest, &name))
			return err_set(e, ERR_USAGE,
			               "payload none: the table has no payload column unless "
			               "--payload N asks for one");
		s->no_payload = 1;
		return 0;
	case 6:
		return schema_part_parse(s, rest, e);
	case 7:
		p->key_line = lineno;
		return schema_key_line(s, rest, e);
	case 8: /* schema_query_file.c */
		return schema_query_line(s, rest, e);
	default:
		return unknown("line", w, line_words, 0,
		               "table, id, column, hot, index, payload, partition, without, query",
		               e);
	}
}

/* After the last line: a `without rowid` key that the list does not hold
 * (the error names its line); a column that took the name of idxlab's own hot
 * column (hot by default) needs a hot line that says otherwise (the error
 * names where, path:line, the column's line). */
static int spec_end(const struct parse *p, const char *where, struct err *e)
{
	const struct schema *s = p->s;

	if (p->key_line && schema_key_check(s, e) < 0)
		return err_prefix(e, "%s:%d", where, p->key_line);
	if (!schema_has_hot(s) || find_col(s, s->hot) <= 0)
		return 0;
	err_set(e, ERR_USAGE,
	        "column %s: %s is the name of idxlab's own column op update adds 1 to; say "
	        "`hot %s` after it (op update changes that column), `hot none`, or hot "
	        "OTHERNAME",
	        s->hot, s->hot, s->hot);
	return err_prefix(e, "%s:%d", where, p->hot_taken);
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
	struct parse p = { s, 0, 0, 0, 0 };
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
	return spec_end(&p, where, e);
}

int schema_parse_file(const char *path, struct schema *s, struct err *e)
{
	struct parse p = { s, 0, 0, 0, 0 };

	spec_start(s, path);
	if (config_read(path, spec_line, &p, e) < 0)
		return -1;
	return spec_end(&p, path, e);
}
