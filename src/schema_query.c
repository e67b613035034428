/* schema_query.c - the reads a table is queried with (issue 22): which
 * queries op lookup and op range run, the values their ? take, and a
 * query's text.
 *
 * A lookup runs the spec's `query` lines; a spec without any is read by
 * equality on its first index's leading column (the column that index is
 * for, built or not: the read then shows what the index buys), else by
 * its id. A range is an ordered run of about range-rows rows from a value
 * present, on the column each lookup's first term names. The values come
 * from rows present (the caller draws the row): the query finds what a
 * user's would, and with --miss a value no row holds, of the same type and
 * width, so a miss costs the search it costs a user. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "schema.h"

const char *const schema_query_cmp[QC_COUNT] = { "=", "<", "<=", ">", ">=" };

/* Equality on col, as idxlab names it. */
static void lookup_on(const struct schema *s, int col, struct query_spec *q)
{
	memset(q, 0, sizeof *q);
	snprintf(q->name, sizeof q->name, "lookup_%.38s", s->cols[col].name);
	q->nterms = 1;
	q->term[0] = (struct query_term){ .col = col, .cmp = QC_EQ };
	q->order_col = -1;
}

/* --queries: "all", or a list of query names a registry keeps (the
 * knob's value its index, 0: all): the spec's queries a read runs. */
#define PICKS_MAX 64
static char picks[PICKS_MAX][256] = { "all" };
static int npicks = 1;
static pthread_mutex_t picks_lock = PTHREAD_MUTEX_INITIALIZER;

int schema_queries_resolve(const char *text, long long *out, struct err *e)
{
	int i;

	if (strcmp(text, "all") == 0) {
		*out = 0;
		return 0;
	}
	if (strlen(text) >= sizeof picks[0] ||
	    strspn(text, "abcdefghijklmnopqrstuvwxyz0123456789_,") != strlen(text) || !text[0])
		return err_set(
		    e, ERR_USAGE,
		    "'%.60s': give all, or the names of the table's query lines, by commas "
		    "(by_email,recent)",
		    text);
	pthread_mutex_lock(&picks_lock);
	for (i = 1; i < npicks && strcmp(picks[i], text) != 0; i++)
		;
	if (i == npicks && npicks < PICKS_MAX)
		snprintf(picks[npicks++], sizeof picks[0], "%s", text);
	pthread_mutex_unlock(&picks_lock);
	if (i == PICKS_MAX)
		return err_set(e, ERR_USAGE, "more than %d query lists in one run", PICKS_MAX - 1);
	*out = i;
	return 0;
}

const char *schema_queries_label(long long v)
{
	const char *t;

	pthread_mutex_lock(&picks_lock);
	t = v >= 0 && v < npicks ? picks[v] : NULL;
	pthread_mutex_unlock(&picks_lock);
	return t;
}

/* Is name in the comma list of picks v (0: all)? */
static int picked(long long v, const char *name)
{
	const char *list = schema_queries_label(v), *p;
	size_t n = strlen(name);

	if (!v || !list)
		return 1;
	for (p = list; (p = strstr(p, name)) != NULL; p += n)
		if ((p == list || p[-1] == ',') && (p[n] == ',' || !p[n]))
			return 1;
	return 0;
}

int schema_queries_check(const struct schema *s, long long v, struct err *e)
{
	char list[256], *tok, *save = NULL;
	int i;

	if (!v)
		return 0;
	snprintf(list, sizeof list, "%s", schema_queries_label(v) ? schema_queries_label(v) : "");
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < s->nqueries && strcmp(s->q[i].name, tok) != 0; i++)
			;
		if (i == s->nqueries)
			return err_set(e, ERR_USAGE,
			               "the %s table has no query '%s' (its query lines: %s%s)",
			               s->name, tok, s->nqueries ? s->q[0].name : "none",
			               s->nqueries > 1 ? ", ..." : "");
	}
	return 0;
}

int schema_read_queries(const struct schema *s, const struct knobs *k, long long op,
                        struct query_spec *out)
{
	int i, n = 0;

	for (i = 0; i < s->nqueries && n < SCHEMA_QUERY_MAX; i++)
		if (picked(k->v[K_QUERIES], s->q[i].name))
			out[n++] = s->q[i];
	if (!n)
		lookup_on(s, s->nindexes ? s->idx[0].cols[0] : 0, &out[n++]);
	if (op != OP_RANGE)
		return n;
	for (i = 0; i < n; i++) {
		int col = out[i].term[0].col;

		lookup_on(s, col, &out[i]);
		snprintf(out[i].name, sizeof out[i].name, "range_%.39s", s->cols[col].name);
		out[i].term[0].cmp = QC_GE;
		out[i].order_col = col;
		out[i].limit = k->v[K_RANGE_ROWS];
	}
	return n;
}

/* A value no row holds, on the side of every value a term with cmp looks
 * away from, so the term finds nothing: equality's and < / <='s below
 * every value the column's order writes, > / >='s above. Text: = gets a
 * '~' first (no order writes one), < an empty string, > z's (no order
 * writes a run of them); a binary uuid version 0 (neither uuid7 nor uuid4
 * has it), all 0 bits below, all 1 above; a number below 0 (or the
 * column's in:LO), or above its in:HI or near its type's greatest; a date
 * or time in 1969 or in 9999. A boolean column, and a numeric whose
 * precision every value fills, have no such value: the row's is kept (the
 * man page says a miss on one can find rows). */
static void miss_of(const struct column *c, uint64_t row, enum query_cmp cmp, struct value *v)
{
	int64_t off = (int64_t)(row % 1000) + 1;
	int above = cmp == QC_GT || cmp == QC_GE;

	switch (v->type) {
	case COL_BOOL:
		return;
	case COL_TEXT:
		if (cmp == QC_EQ && v->len)
			v->b[0] = '~';
		else if (above)
			memset(v->b, 'z', v->len);
		else
			v->len = 0;
		return;
	case COL_UUID:
		if (cmp == QC_EQ)
			v->b[6] &= 0x0f;
		else
			memset(v->b, above ? 0xff : 0, v->len);
		v->b[6] &= 0x0f;
		return;
	case COL_DATE:
		v->i = above ? 2932896 - off : -off; /* 9999-12-31, 1969 */
		return;
	case COL_TIMESTAMP:
	case COL_TIMESTAMPTZ:
		v->i = above ? 253402214400000000LL - off : -off;
		return;
	default:
		break;
	}
	if (!above && !(c->ranged && c->lo <= INT32_MIN + 1000000LL))
		v->i = (c->ranged ? c->lo : 0) - off;
	else if (c->ranged && c->hi < (v->type == COL_INT ? INT32_MAX : INT64_MAX) - 1000000LL)
		v->i = c->hi + off;
	else if (v->type == COL_INT)
		v->i = INT32_MAX - off;
	else if (v->type == COL_BIGINT)
		v->i = INT64_MAX - off;
}

void schema_query_value(const struct schema *s, const struct knobs *k, const struct query_term *t,
                        uint64_t row, int miss, struct value *v)
{
	uint64_t back;

	/* A NULL finds nothing by = : the value of a row before it that has
	 * one (a few rows back at most, the null share permitting). */
	for (back = 0;; back++) {
		schema_value(s, k, t->col, row - (back < row ? back : row), 0, v);
		if (!v->null || back >= 64 || back >= row)
			break;
	}
	if (miss) {
		v->null = 0;
		miss_of(&s->cols[t->col], row, t->cmp, v);
	}
}

void schema_query_text(const struct schema *s, const struct query_spec *q, char *buf, size_t len)
{
	size_t n;
	int i;

	n = (size_t)snprintf(buf, len, "%s:", q->name);
	for (i = 0; i < q->nterms && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s %s %s ?", i ? " and" : "",
		                      s->cols[q->term[i].col].name,
		                      schema_query_cmp[q->term[i].cmp]);
	if (q->order_col >= 0 && n < len)
		n += (size_t)snprintf(buf + n, len - n, " order by %s%s",
		                      s->cols[q->order_col].name, q->order_desc ? " desc" : "");
	if (q->limit && n < len)
		snprintf(buf + n, len - n, " limit %lld", q->limit);
}
