/* schema_part.c - the `partition by` line: parsed, checked, written back,
 * and the bounds that cover the values a run writes (schema_part.h).
 *
 * A range's cut points are quantiles of the key's values over the rows
 * the caller names (PART_SAMPLE rows spread evenly; PostgreSQL's: the
 * prefill's, the table as big as its source), so seq values split into
 * ranges of equal row counts, like a month per partition, and the rows a
 * run appends past them go to the last, open one, as a real table's go to
 * its newest; rand and zipf values split where their rows do. A list takes the distinct values the sample
 * holds; a value the sample missed, and an update's new value, go to the
 * DEFAULT. When the values hold fewer distinct points than the bounds
 * need, bounds past the largest value are added: those partitions stay
 * empty, as a source's future months do, and the count stays N. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evlog.h"
#include "schema_part.h"
#include "xalloc.h"

#define PART_SAMPLE 4096

const char *const schema_part_words[PART_KIND_COUNT] = {
	[PART_NONE] = "",
	[PART_HASH] = "hash",
	[PART_RANGE] = "range",
	[PART_LIST] = "list",
};

static int ordered_type(enum col_type t)
{
	return t == COL_INT || t == COL_BIGINT || t == COL_TIMESTAMP || t == COL_TIMESTAMPTZ ||
	       t == COL_DATE || t == COL_NUMERIC;
}

static int find_col(const struct schema *s, const char *name)
{
	int i;

	for (i = 0; i < s->ncols; i++)
		if (strcmp(s->cols[i].name, name) == 0)
			return i;
	return -1;
}

int schema_part_parse(struct schema *s, char *rest, struct err *e)
{
	static const char usage[] = "partition by hash|range|list (COL[,COL]) N, e.g. partition "
	                            "by range (created_at) 12";
	struct part_spec p = { .kind = PART_NONE };
	char word[16], *open, *close, *c, *end;
	long n;
	int k;

	if (s->part.kind != PART_NONE)
		return err_set(e, ERR_USAGE, "partition comes once");
	if (sscanf(rest, " by %15[a-z]", word) != 1)
		return err_set(e, ERR_USAGE, "%s", usage);
	for (k = PART_HASH; k < PART_KIND_COUNT; k++)
		if (strcmp(word, schema_part_words[k]) == 0)
			p.kind = (enum part_kind)k;
	if (p.kind == PART_NONE)
		return err_set(e, ERR_USAGE, "partition by %s: the strategy is hash, range or list",
		               word);
	open = strchr(rest, '(');
	close = open ? strchr(open, ')') : NULL;
	if (!close)
		return err_set(e, ERR_USAGE, "partition by %s: the key's columns go in (): %s",
		               word, usage);
	*close = 0;
	for (c = strtok(open + 1, ", "); c; c = strtok(NULL, ", ")) {
		int col = find_col(s, c);

		if (col < 0)
			return err_set(e, ERR_USAGE,
			               "partition by %s (%s): no column %s declared above", word, c,
			               c);
		if (p.nkeys == SCHEMA_PART_KEYS)
			return err_set(e, ERR_USAGE, "a partition key of more than %d columns",
			               SCHEMA_PART_KEYS);
		p.cols[p.nkeys++] = col;
	}
	n = strtol(close + 1, &end, 10);
	while (isspace((unsigned char)*end))
		end++;
	if (end == close + 1 || *end || n < 1 || n > SCHEMA_PART_MAX)
		return err_set(e, ERR_USAGE,
		               "partition by %s (...) N: N is the number of partitions, 1 .. %d",
		               word, SCHEMA_PART_MAX);
	p.n = (int)n;
	if (!p.nkeys)
		return err_set(e, ERR_USAGE, "%s", usage);
	s->part = p;
	return schema_part_check(s, e);
}

int schema_part_check(const struct schema *s, struct err *e)
{
	const struct part_spec *p = &s->part;
	const char *w;
	int i, j, k;

	if (p->kind == PART_NONE)
		return 0;
	if (p->kind < 0 || p->kind >= PART_KIND_COUNT || p->n < 1 || p->n > SCHEMA_PART_MAX ||
	    p->nkeys < 1 || p->nkeys > SCHEMA_PART_KEYS)
		return err_set(e, ERR_USAGE, "its partitioning is not one idxlab builds");
	w = schema_part_words[p->kind];
	if (p->kind != PART_HASH && p->nkeys != 1)
		return err_set(e, ERR_USAGE,
		               "partition by %s takes one column (hash takes several)", w);
	for (i = 0; i < p->nkeys; i++) {
		const struct column *c;

		if (p->cols[i] < 0 || p->cols[i] >= s->ncols)
			return err_set(e, ERR_USAGE, "its partition key is not one of its columns");
		c = &s->cols[p->cols[i]];
		if (c->nulls > 0)
			return err_set(
			    e, ERR_USAGE,
			    "partition by %s (%s): %s has NULLs, and idxlab's primary key "
			    "on a partitioned table holds the key: drop its null:P%%",
			    w, c->name, c->name);
		if (c->gen[0])
			return err_set(e, ERR_USAGE,
			               "partition by %s (%s): a generated column cannot be a "
			               "partition key",
			               w, c->name);
		if (p->kind == PART_RANGE && (!ordered_type(c->type) || c->order == ORD_KNOB))
			return err_set(
			    e, ERR_USAGE,
			    "partition by range (%s): a range key here is an int, bigint, "
			    "numeric, date or timestamp column with an order of its own",
			    c->name);
		if (p->kind == PART_LIST &&
		    ((!ordered_type(c->type) && c->type != COL_TEXT) || c->order == ORD_KNOB))
			return err_set(
			    e, ERR_USAGE,
			    "partition by list (%s): a list key here is an int, bigint, "
			    "numeric, date, timestamp or text column with an order of its "
			    "own",
			    c->name);
		for (j = 0; j < i; j++)
			if (p->cols[j] == p->cols[i])
				return err_set(e, ERR_USAGE, "partition key names %s twice",
				               c->name);
	}
	for (i = 0; i < s->nindexes; i++) {
		const struct index_spec *x = &s->idx[i];

		if (!x->unique)
			continue;
		for (k = 0; k < p->nkeys; k++) {
			for (j = 0; j < x->ncols; j++)
				if (x->cols[j] == p->cols[k] && !x->fn[j])
					break;
			if (p->cols[k] && j == x->ncols)
				return err_set(
				    e, ERR_USAGE,
				    "index %s: unique, but it does not hold the partition "
				    "key's %s: on a partitioned table a unique index holds "
				    "the whole key (drop unique, or add %s to it)",
				    x->name, s->cols[p->cols[k]].name, s->cols[p->cols[k]].name);
		}
	}
	return 0;
}

void schema_part_text(const struct schema *s, char *buf, size_t len)
{
	size_t n;
	int i;

	if (!len)
		return;
	buf[0] = 0;
	if (s->part.kind <= PART_NONE || s->part.kind >= PART_KIND_COUNT)
		return;
	n = (size_t)snprintf(buf, len, "partition by %s (", schema_part_words[s->part.kind]);
	for (i = 0; i < s->part.nkeys && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? "," : "",
		                      s->cols[s->part.cols[i]].name);
	if (n < len)
		snprintf(buf + n, len - n, ") %d", s->part.n);
}

/* ---- bounds -------------------------------------------------------------- */

static int value_cmp(const void *a, const void *b)
{
	const struct value *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c;

	if (x->type == COL_TEXT) {
		c = memcmp(x->b, y->b, n);
		return c ? c : (x->len > y->len) - (x->len < y->len);
	}
	return (x->i > y->i) - (x->i < y->i);
}

/* A value past every one in vals[0, n) (n >= 1): bounds no row reaches. */
static void value_past(const struct value *last, int k, struct value *out)
{
	*out = *last;
	if (out->type == COL_TEXT) { /* idxlab's text is letters and digits: ~ sorts after */
		out->len = (size_t)snprintf((char *)out->b, sizeof out->b, "~idxlab%03d", k);
		return;
	}
	out->i +=
	    (int64_t)k * (out->type == COL_TIMESTAMP || out->type == COL_TIMESTAMPTZ ? 1000000 : 1);
}

void schema_part_plan(const struct schema *s, const struct knobs *k, uint64_t rows,
                      struct part_plan *p)
{
	const struct part_spec *ps = &s->part;
	int col = ps->cols[0], n = 0, i, d, need;
	struct value *all;

	memset(p, 0, sizeof *p);
	if (ps->kind != PART_RANGE && ps->kind != PART_LIST)
		return;
	p->has_default = ps->kind == PART_LIST || s->cols[col].nulls > 0;
	p->ranges = ps->n - p->has_default;
	all = xcalloc(PART_SAMPLE, sizeof *all);
	if (rows < 1)
		rows = 1;
	for (i = 0; i < PART_SAMPLE; i++) {
		struct value v;
		uint64_t row = (uint64_t)((double)rows * i / PART_SAMPLE);

		schema_value(s, k, col, row, 0, &v);
		if (v.null)
			continue;
		if (v.type == COL_TIMESTAMP || v.type == COL_TIMESTAMPTZ)
			v.i -= ((v.i % 1000000) + 1000000) % 1000000; /* whole seconds */
		all[n++] = v;
	}
	qsort(all, (size_t)n, sizeof *all, value_cmp);
	for (i = d = 0; i < n; i++) /* distinct */
		if (!d || value_cmp(&all[d - 1], &all[i]) != 0)
			all[d++] = all[i];
	if (ps->kind == PART_RANGE) {
		/* ranges - 1 cut points, each the first value of a quantile */
		need = p->ranges > 0 ? p->ranges - 1 : 0;
		p->vals = xcalloc((size_t)need + 1, sizeof *p->vals);
		for (i = 1; i <= need && d; i++) {
			const struct value *v = &all[(size_t)d * (size_t)i / (size_t)p->ranges];

			if (!p->nvals || value_cmp(&p->vals[p->nvals - 1], v) < 0)
				p->vals[p->nvals++] = *v;
		}
	} else {
		need = p->ranges;
		p->vals = xcalloc((size_t)(d > need ? d : need) + 1, sizeof *p->vals);
		memcpy(p->vals, all, (size_t)d * sizeof *all);
		p->nvals = d;
	}
	for (i = 1; p->nvals < need; i++) { /* too few distinct values */
		struct value base = { .type = schema_type(s, k, col), .scale = s->cols[col].scale };

		value_past(p->nvals ? &p->vals[p->nvals - 1] : &base, i, &p->vals[p->nvals]);
		if (!p->nvals || value_cmp(&p->vals[p->nvals - 1], &p->vals[p->nvals]) < 0)
			p->nvals++;
	}
	free(all);
}

void schema_part_plan_free(struct part_plan *p)
{
	free(p->vals);
	p->vals = NULL;
	p->nvals = 0;
}

void schema_say_unbuilt(const struct schema *s, const char *engine)
{
	char what[SCHEMA_PART_KEYS * SCHEMA_NAME_MAX + 48];
	int i, pg = strcmp(engine, "postgres") == 0, lite = strcmp(engine, "sqlite") == 0;

	schema_part_text(s, what, sizeof what);
	if (what[0] && !pg)
		evlog_add(EV_INFO,
		          "table %s: %s has no partitioning: the copy is one table (%s: on "
		          "PostgreSQL)",
		          s->name, engine, what);
	for (i = 1; i < s->ncols && !pg && !lite; i++)
		if (s->cols[i].gen[0])
			evlog_add(EV_INFO,
			          "table %s: %s has no generated columns: %s is written as an "
			          "ordinary column, its values in its own order (the row keeps its "
			          "size; generated (%s) on PostgreSQL and SQLite)",
			          s->name, engine, s->cols[i].name, s->cols[i].gen);
	schema_key_unbuilt(s, engine);
}
