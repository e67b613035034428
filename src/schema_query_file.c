/* schema_query_file.c - the spec's `query` lines (issue 22): read into
 * s->q[] (schema_file.c hands each line here), checked with the rest of a
 * spec (schema_check), and the lookups --schema-from proposes from a
 * table's indexes. schema_query.c says which queries op lookup and range
 * run and writes a query's text back.
 *
 *   query NAME: COL OP ? [and COL OP ?] [order by COL [asc|desc]] [limit N] [guessed]
 *
 * NAME is a spec identifier, unique among the spec's queries; COL a column
 * declared above (id included); OP one of = < <= > >=; at most
 * SCHEMA_QUERY_TERMS terms, joined by and; limit 1 .. SCHEMA_LIMIT_MAX.
 * Every ? is a value idxlab binds (a row present's, or with --miss one no
 * row holds); $1, $2 (as pg_stat_statements writes them) mean the same.
 * The SQL words may be in either case (SQL's own); a `where` after the
 * colon is taken as it reads. `guessed` ends a line idxlab proposed
 * (--schema-from), so that mark survives a spec saved and read back.
 *
 * This is the subset every engine runs as one statement, an index able to
 * serve it: what is outside it (like, in, between, <>, is null, or, a
 * function of a column, a constant) is an error that names the word and
 * says what to write. idxlab writes each engine's statement itself from
 * the parsed fields: no text of the line reaches an engine. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "conf_line.h"
#include "schema_from.h"
#include "schema_int.h"

#define TOKS_MAX 64

struct toks {
	int n, i;
	char w[TOKS_MAX][SCHEMA_NAME_MAX + 16];
};

/* A word: a run of letters, digits, _ $ . (a name, a number, $1, t.col),
 * of < > = ! (an operator), a quoted constant, or one other character. */
static int split(const char *p, struct toks *t, struct err *e)
{
	t->n = t->i = 0;
	for (;;) {
		const char *s;
		size_t len;

		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			return 0;
		s = p;
		if (isalnum((unsigned char)*p) || strchr("_$.", *p))
			while (*p && (isalnum((unsigned char)*p) || strchr("_$.", *p)))
				p++;
		else if (strchr("<>=!", *p))
			while (*p && strchr("<>=!", *p))
				p++;
		else if (*p == '\'' || *p == '"') {
			char q = *p++;

			while (*p && *p != q)
				p++;
			p += *p == q;
		} else
			p++;
		if (t->n == TOKS_MAX)
			return err_set(e, ERR_USAGE,
			               "more than %d words: a query line is NAME: COL = ? [and "
			               "COL > ?] [order by COL [desc]] [limit N]",
			               TOKS_MAX);
		len = (size_t)(p - s);
		if (len >= sizeof t->w[0])
			len = sizeof t->w[0] - 1; /* long: named cut, never matched */
		memcpy(t->w[t->n], s, len);
		t->w[t->n++][len] = 0;
	}
}

static const char *peek(const struct toks *t)
{
	return t->i < t->n ? t->w[t->i] : "";
}

static int is(const struct toks *t, const char *word)
{
	return t->i < t->n && strcasecmp(t->w[t->i], word) == 0;
}

/* A name the spec rules admit ([a-z_][a-z0-9_]*, < SCHEMA_NAME_MAX):
 * exactly what schema_name_from leaves as it is. */
static int ident_ok(const char *name)
{
	char out[SCHEMA_NAME_MAX];

	if (!*name || strlen(name) >= SCHEMA_NAME_MAX)
		return 0;
	schema_name_from(name, "_", out, sizeof out);
	return strcmp(out, name) == 0;
}

static const char *nth_col(int i, const void *ctx)
{
	const struct schema *s = ctx;

	return i < s->ncols ? s->cols[i].name : NULL;
}

/* COL, a column declared above (SQL's case folded), into *col. */
static int column(const struct schema *s, struct toks *t, const char *what, int *col, struct err *e)
{
	char low[sizeof t->w[0]];
	const char *hint;
	size_t i;

	if (t->i == t->n)
		return err_set(e, ERR_USAGE, "%s: a column is missing at the end of the line",
		               what);
	for (i = 0; i + 1 < sizeof low && t->w[t->i][i]; i++)
		low[i] = (char)tolower((unsigned char)t->w[t->i][i]);
	low[i] = 0;
	for (*col = 0; *col < s->ncols; (*col)++)
		if (strcmp(s->cols[*col].name, low) == 0) {
			t->i++;
			if (is(t, "("))
				return err_set(e, ERR_USAGE,
				               "'%s(': a query compares a column itself (COL = ?), "
				               "no function of one",
				               low);
			return 0;
		}
	if (is(t, "?") || (t->w[t->i][0] == '$' && isdigit((unsigned char)t->w[t->i][1])))
		return err_set(e, ERR_USAGE, "%s: '%s' where a column goes: write COL = ?", what,
		               peek(t));
	if (strchr(low, '.'))
		return err_set(e, ERR_USAGE, "'%s': write the column's name alone (%s)", low,
		               strrchr(low, '.') + 1);
	if (t->i + 1 < t->n && strcmp(t->w[t->i + 1], "(") == 0)
		return err_set(e, ERR_USAGE,
		               "'%s(': a query compares a column itself (COL = ?), no function "
		               "of one",
		               low);
	if (strcmp(low, "payload") == 0 || (s->hot_col == 0 && strcmp(low, s->hot) == 0))
		return err_set(e, ERR_USAGE,
		               "%s: '%s' is a column of idxlab's own, not the table's; a query "
		               "reads the table's columns",
		               what, low);
	hint = config_closest(low, nth_col, s);
	if (hint)
		return err_set(e, ERR_USAGE, "%s: unknown column '%s' (did you mean '%s'?)", what,
		               low, hint);
	return err_set(e, ERR_USAGE, "%s: unknown column '%s' (a column declared above, or id)",
	               what, low);
}

static const char unsupported[] =
    "a query compares a column with = < <= > >= and ?, terms joined by and (like, in, "
    "between, <>, is null, or and functions are outside the subset every engine runs; "
    "write a query line for each)";

/* COL OP ? into q->term[q->nterms]. */
static int term(const struct schema *s, struct toks *t, struct query_spec *q, struct err *e)
{
	struct query_term *x = &q->term[q->nterms];
	const char *w;
	int c;

	if (t->i == t->n || is(t, "order") || is(t, "limit"))
		return err_set(e, ERR_USAGE,
		               "the condition is missing: COL = ? (a column compared with ?), "
		               "e.g. query by_email: email = ?");
	if (column(s, t, "the condition", &x->col, e) < 0)
		return -1;
	w = peek(t);
	for (c = 0; c < QC_COUNT; c++)
		if (strcmp(w, schema_query_cmp[c]) == 0)
			break;
	if (c == QC_COUNT)
		return *w ? err_set(e, ERR_USAGE, "%s %s: %s", s->cols[x->col].name, w, unsupported)
		          : err_set(e, ERR_USAGE, "%s: the comparison is missing: %s = ?",
		                    s->cols[x->col].name, s->cols[x->col].name);
	x->cmp = (enum query_cmp)c;
	t->i++;
	w = peek(t);
	if (strcmp(w, "?") != 0 &&
	    !(w[0] == '$' && w[1] && strspn(w + 1, "0123456789") == strlen(w + 1)))
		return err_set(e, ERR_USAGE,
		               "%s %s %s: %s; write ? (idxlab binds each ? to a value of a row "
		               "present, or with --miss to one no row holds)",
		               s->cols[x->col].name, schema_query_cmp[c], *w ? w : "(nothing)",
		               *w ? "a constant" : "the value is missing");
	t->i++;
	q->nterms++;
	return 0;
}

static const char *const after_words[] = { "and", "order", "limit", "guessed", NULL };

static const char *nth_after(int i, const void *ctx)
{
	(void)ctx;
	return i < 4 ? after_words[i] : NULL;
}

/* order by COL [asc|desc], limit N, guessed: what may follow the terms. */
static int tail(const struct schema *s, struct toks *t, struct query_spec *q, struct err *e)
{
	if (is(t, "order")) {
		t->i++;
		if (!is(t, "by"))
			return err_set(e, ERR_USAGE, "order %s: write order by COL [desc]",
			               peek(t));
		t->i++;
		if (column(s, t, "order by", &q->order_col, e) < 0)
			return -1;
		if (is(t, "desc") || is(t, "asc")) {
			q->order_desc = is(t, "desc");
			t->i++;
		}
		if (is(t, ","))
			return err_set(e, ERR_USAGE,
			               "order by %s, ...: a query orders by one column",
			               s->cols[q->order_col].name);
	}
	if (is(t, "limit")) {
		char *end;

		t->i++;
		q->limit = strtoll(peek(t), &end, 10);
		if (!isdigit((unsigned char)peek(t)[0]) || *end || q->limit < 1 ||
		    q->limit > SCHEMA_LIMIT_MAX)
			return err_set(e, ERR_USAGE,
			               "limit %s: the rows a query returns at most, a whole number "
			               "1 .. %d",
			               *peek(t) ? peek(t) : "(nothing)", SCHEMA_LIMIT_MAX);
		t->i++;
	}
	if (is(t, "guessed")) {
		q->guessed = 1;
		t->i++;
	}
	if (t->i == t->n)
		return 0;
	if (is(t, "or") || is(t, "and") || is(t, "(") || is(t, "in") || is(t, "like"))
		return err_set(e, ERR_USAGE, "'%s': %s", peek(t), unsupported);
	if (is(t, "order") || is(t, "limit"))
		return err_set(e, ERR_USAGE,
		               "'%s' here: the words come in this order: terms, order by COL, "
		               "limit N",
		               peek(t));
	{
		const char *hint = config_closest(peek(t), nth_after, NULL);

		if (hint)
			return err_set(e, ERR_USAGE, "unknown word '%s' (did you mean '%s'?)",
			               peek(t), hint);
	}
	return err_set(e, ERR_USAGE,
	               "'%s' after the query: only and COL OP ?, order by COL [desc] and limit "
	               "N follow the first term",
	               peek(t));
}

int schema_query_line(struct schema *s, const char *rest, struct err *e)
{
	struct toks t; /* 4 KiB */
	struct query_spec q = { .order_col = -1 };
	int i;

	if (split(rest, &t, e) < 0)
		return -1;
	if (!t.n)
		return err_set(e, ERR_USAGE,
		               "query NAME: COL = ? [and COL2 > ?] [order by COL [desc]] [limit "
		               "N], e.g. query by_email: email = ?");
	if (!ident_ok(t.w[0]))
		return err_set(e, ERR_USAGE,
		               "'%s' is not a query name: use a-z, 0-9 and _, starting with a "
		               "letter, at most %d characters (query by_email: email = ?)",
		               t.w[0], SCHEMA_NAME_MAX - 1);
	snprintf(q.name, sizeof q.name, "%.*s", SCHEMA_NAME_MAX - 1, t.w[0]);
	if (s->nqueries == SCHEMA_QUERY_MAX)
		return err_set(e, ERR_USAGE, "query %s: more than %d queries in one spec", q.name,
		               SCHEMA_QUERY_MAX);
	for (i = 0; i < s->nqueries; i++)
		if (strcmp(s->q[i].name, q.name) == 0)
			return err_set(e, ERR_USAGE,
			               "query %s: a query of that name exists already; give each "
			               "its own",
			               q.name);
	t.i = 1;
	if (!is(&t, ":"))
		return err_set(e, ERR_USAGE,
		               "query %s %s: a ':' after the name, then the condition (query "
		               "%s: COL = ?)",
		               q.name, peek(&t), q.name);
	t.i++;
	if (is(&t, "where"))
		t.i++;
	for (;;) {
		if (term(s, &t, &q, e) < 0)
			return err_prefix(e, "query %s", q.name);
		if (!is(&t, "and"))
			break;
		if (q.nterms == SCHEMA_QUERY_TERMS)
			return err_set(
			    e, ERR_USAGE,
			    "query %s: 'and %s': more than %d terms: a query compares at "
			    "most %d columns (order by reads the rest of an index's key)",
			    q.name, t.i + 1 < t.n ? t.w[t.i + 1] : "", SCHEMA_QUERY_TERMS,
			    SCHEMA_QUERY_TERMS);
		t.i++;
	}
	if (tail(s, &t, &q, e) < 0)
		return err_prefix(e, "query %s", q.name);
	s->q[s->nqueries++] = q;
	return 0;
}

int schema_query_check(const struct schema *s, struct err *e)
{
	int i, j;

	if (s->nqueries < 0 || s->nqueries > SCHEMA_QUERY_MAX)
		return err_set(e, ERR_USAGE, "%d queries (at most %d)", s->nqueries,
		               SCHEMA_QUERY_MAX);
	for (i = 0; i < s->nqueries; i++) {
		const struct query_spec *q = &s->q[i];

		if (!ident_ok(q->name))
			return err_set(e, ERR_USAGE, "query %d's name is not a-z 0-9 _", i + 1);
		for (j = 0; j < i; j++)
			if (strcmp(s->q[j].name, q->name) == 0)
				return err_set(e, ERR_USAGE, "two queries named %s", q->name);
		if (q->nterms < 1 || q->nterms > SCHEMA_QUERY_TERMS)
			return err_set(e, ERR_USAGE, "query %s has %d terms (1 .. %d)", q->name,
			               q->nterms, SCHEMA_QUERY_TERMS);
		for (j = 0; j < q->nterms; j++)
			if (q->term[j].col < 0 || q->term[j].col >= s->ncols ||
			    q->term[j].cmp < 0 || q->term[j].cmp >= QC_COUNT)
				return err_set(e, ERR_USAGE,
				               "query %s: term %d is no column compared with ?",
				               q->name, j + 1);
		if (q->order_col < -1 || q->order_col >= s->ncols || q->order_desc < 0 ||
		    q->order_desc > 1 || (q->order_col < 0 && q->order_desc))
			return err_set(e, ERR_USAGE, "query %s orders by no column of the table",
			               q->name);
		if (q->limit < 0 || q->limit > SCHEMA_LIMIT_MAX || q->guessed < 0 || q->guessed > 1)
			return err_set(e, ERR_USAGE, "query %s: limit %lld (0: none, at most %d)",
			               q->name, q->limit, SCHEMA_LIMIT_MAX);
	}
	return 0;
}

/* ---- the lookups --schema-from guesses ------------------------------------ */

void schema_from_queries(struct schema *s)
{
	char names[600] = "", left[600] = "";
	size_t nn = 0, nl = 0;
	int i, j, nleft = 0;

	for (i = 0; i < s->nindexes; i++) {
		const struct index_spec *x = &s->idx[i];
		int col = x->cols[0], dup = 0, k;
		struct query_spec one, *q = &one;

		for (j = 0; j < s->nqueries; j++)
			dup |= s->q[j].term[0].col == col;
		if (dup || col < 1 || col >= s->ncols)
			continue;
		if (x->fn[0] != IDX_FN_NONE) { /* lower(email): no query line says it */
			shape_note(s->notes, sizeof s->notes,
			           "index %s is on an expression of %s: no query line uses it (a "
			           "query compares a column itself)",
			           x->name, s->cols[col].name);
			continue;
		}
		if (s->nqueries == SCHEMA_QUERY_MAX) {
			nleft++;
			if (nl < sizeof left)
				nl += (size_t)snprintf(left + nl, sizeof left - nl, "%s%s",
				                       nl ? ", " : "", s->cols[col].name);
			continue;
		}
		memset(q, 0, sizeof *q);
		q->nterms = 1;
		q->term[0] = (struct query_term){ .col = col, .cmp = QC_EQ };
		q->order_col = -1;
		q->guessed = 1;
		snprintf(q->name, sizeof q->name, "by_%.44s", s->cols[col].name);
		/* long names cut alike: at most SCHEMA_QUERY_MAX - 1 clash */
		for (k = 2; k <= SCHEMA_QUERY_MAX; k++) {
			for (j = 0; j < s->nqueries && strcmp(s->q[j].name, q->name) != 0; j++)
				;
			if (j == s->nqueries)
				break;
			snprintf(q->name, sizeof q->name, "by_%.40s_%u", s->cols[col].name,
			         (unsigned)k % 10u);
		}
		if (nn < sizeof names)
			nn += (size_t)snprintf(names + nn, sizeof names - nn, "%s%s",
			                       nn ? ", " : "", q->name);
		s->q[s->nqueries++] = one;
	}
	if (s->nqueries)
		shape_note(s->notes, sizeof s->notes,
		           "queries %s: guessed from the indexes, one lookup (= ?) per index's "
		           "leading column; write the table's own as query lines (man idxlab, "
		           "TABLE SPECS) and drop the word guessed",
		           names);
	if (nleft)
		shape_note(s->notes, sizeof s->notes,
		           "no lookup guessed on %s: a spec holds %d queries", left,
		           SCHEMA_QUERY_MAX);
}
