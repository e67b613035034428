/* whatif.c - the question as a verb (whatif.h).
 *
 * The texts of --add-index and --drop-index are kept in a small registry
 * (the knobs' values are its indexes, so struct knobs stays plain numbers
 * and --print-config writes them back as given). Once the plan is read,
 * whatif_extend() gives each table of the plan (plan_whatif_apply, in
 * plan_whatif.c) a spec of its own that extends it: its index list is the
 * table's own (what --drop-index names moved last, so "without" is a
 * prefix), then the candidates, each with a name the spec rules admit
 * (idxlab_add_...). The indexes knob's words table, all and without count
 * into that list; plan_step resolves them (whatif_indexes), so the engines
 * only ever see a count. This file never sees a plan. */
#include "whatif.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "conf_line.h"
#include "schema_from.h"
#include "schema_int.h"

#define WHATIF_TEXTS 32
#define WHATIF_TEXT  512

static char texts[WHATIF_TEXTS][WHATIF_TEXT] = { "none" };
static int ntexts = 1;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

const char *whatif_label(long long v)
{
	const char *t;

	pthread_mutex_lock(&lock);
	t = v >= 0 && v < ntexts ? texts[v] : NULL;
	pthread_mutex_unlock(&lock);
	return t;
}

/* A name as a user may write one: letters, digits, _ (what a config line
 * reads back as it is, and what a spec's names are made of). */
static int name_chars(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return 0;
	return n > 0;
}

/* One candidate's form: COL[+COL...][:unique]. */
static int add_item_ok(const char *item, struct err *e)
{
	const char *colon = strchr(item, ':'), *c, *end = colon ? colon : item + strlen(item);

	if (colon && strcmp(colon + 1, "unique") != 0)
		return err_set(e, ERR_USAGE,
		               "'%s': after the columns only ':unique' may follow (write "
		               "email:unique)",
		               item);
	for (c = item; c <= end; c++) {
		const char *plus = memchr(c, '+', (size_t)(end - c));
		size_t n = plus ? (size_t)(plus - c) : (size_t)(end - c);

		if (!name_chars(c, n))
			return err_set(e, ERR_USAGE,
			               "'%s' is no candidate index: write a column's name, or "
			               "columns joined by + (country+created_at), then :unique "
			               "if it is one",
			               item);
		c += n;
	}
	return 0;
}

static int drop_item_ok(const char *item, struct err *e)
{
	if (!name_chars(item, strlen(item)))
		return err_set(e, ERR_USAGE,
		               "'%s' is no index name: write the name --print-config shows in "
		               "the table's spec (idxlab_email)",
		               item);
	return 0;
}

/* text as a comma list of items checked by ok, into the registry (the
 * items trimmed, joined by ','; "none": 0). */
static int resolve(const char *text, int (*ok)(const char *, struct err *), long long *out,
                   struct err *e)
{
	char norm[WHATIF_TEXT] = "", item[WHATIF_TEXT];
	const char *c = text;
	size_t n = 0;
	int i;

	if (strcmp(text, "none") == 0) {
		*out = 0;
		return 0;
	}
	while (*c) {
		size_t len = strcspn(c, ","), a = 0, b = len;

		while (a < b && isspace((unsigned char)c[a]))
			a++;
		while (b > a && isspace((unsigned char)c[b - 1]))
			b--;
		if (a == b || b - a >= sizeof item)
			return err_set(e, ERR_USAGE,
			               a == b ? "an empty item in '%s': write one between every "
			                        "two commas"
			                      : "'%.40s...': too long",
			               text);
		snprintf(item, sizeof item, "%.*s", (int)(b - a), c + a);
		if (ok(item, e) < 0)
			return -1;
		if (n + strlen(item) + 2 >= sizeof norm)
			return err_set(e, ERR_USAGE, "'%.40s...': too long", text);
		n += (size_t)snprintf(norm + n, sizeof norm - n, "%s%s", n ? "," : "", item);
		c += len;
		if (*c == ',')
			c++;
	}
	if (!n)
		return err_set(e, ERR_USAGE, "a value is needed");
	pthread_mutex_lock(&lock);
	for (i = 0; i < ntexts && strcmp(texts[i], norm) != 0; i++)
		;
	if (i == ntexts && ntexts < WHATIF_TEXTS)
		snprintf(texts[ntexts++], WHATIF_TEXT, "%s", norm);
	pthread_mutex_unlock(&lock);
	if (i == WHATIF_TEXTS)
		return err_set(e, ERR_USAGE, "more than %d lists of indexes in one run",
		               WHATIF_TEXTS - 1);
	*out = i;
	return 0;
}

int whatif_resolve_add(const char *text, long long *out, struct err *e)
{
	return resolve(text, add_item_ok, out, e);
}

int whatif_resolve_drop(const char *text, long long *out, struct err *e)
{
	return resolve(text, drop_item_ok, out, e);
}

/* ---- a table with its candidates ---------------------------------------- */

static const char *nth_value_col(int i, const void *ctx)
{
	const struct schema *s = ctx;

	return i + 1 < s->ncols ? s->cols[i + 1].name : NULL;
}

static const char *nth_own_index(int i, const void *ctx)
{
	const struct schema *s = ctx;

	return i < s->ntable ? s->idx[i].name : NULL;
}

/* "a, b, c" of nth's names, into buf. */
static void list_names(const char *(*nth)(int, const void *), const void *ctx, char *buf,
                       size_t len)
{
	const char *name;
	size_t n = 0;
	int i;

	buf[0] = 0;
	for (i = 0; (name = nth(i, ctx)) != NULL && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "", name);
	if (!i)
		snprintf(buf, len, "none");
}

/* The value column called name (case aside: SQL folds it); -1 with why. */
static int find_col(const struct schema *s, const char *name, struct err *e)
{
	char names[1024];
	const char *hint;
	int i;

	for (i = 1; i < s->ncols; i++)
		if (strcmp(s->cols[i].name, name) == 0)
			return i;
	for (i = 1; i < s->ncols; i++)
		if (strcasecmp(s->cols[i].name, name) == 0)
			return i;
	if (strcasecmp(name, s->cols[0].name) == 0)
		return err_set(e, ERR_USAGE, "%s is the primary key: it has its index already",
		               name);
	if (strcasecmp(name, s->hot) == 0 || strcasecmp(name, "payload") == 0)
		return err_set(e, ERR_USAGE,
		               "%s is idxlab's own %s column, which no index covers: name a "
		               "column of the table",
		               name, strcasecmp(name, s->hot) == 0 ? "hot" : "payload");
	hint = config_closest(name, nth_value_col, s);
	list_names(nth_value_col, s, names, sizeof names);
	if (hint)
		return err_set(e, ERR_USAGE, "the %s table has no column %s (did you mean %s?)",
		               s->name, name, hint);
	return err_set(e, ERR_USAGE, "the %s table has no column %s (its columns: %s)", s->name,
	               name, names);
}

/* The candidate's name: idxlab_add_ and its columns, else idxlab_addN. */
static void candidate_name(const struct schema *s, struct index_spec *x)
{
	char name[SCHEMA_NAME_MAX];
	size_t n = (size_t)snprintf(name, sizeof name, "idxlab_add");
	int j, taken;

	for (j = 0; j < x->ncols && n < sizeof name; j++)
		n += (size_t)snprintf(name + n, sizeof name - n, "_%s", s->cols[x->cols[j]].name);
	memcpy(x->name, name, sizeof name);
	for (j = 0, taken = n >= sizeof name || schema_reserved(name); j < s->nindexes && !taken;
	     j++)
		taken = strcmp(s->idx[j].name, x->name) == 0;
	for (j = 1; taken; j++) {
		int k;

		snprintf(x->name, sizeof x->name, "idxlab_add%d", j);
		for (k = 0, taken = 0; k < s->nindexes && !taken; k++)
			taken = strcmp(s->idx[k].name, x->name) == 0;
	}
}

/* One candidate into c's list. */
static int add_one(struct schema *c, const char *item, struct err *e)
{
	struct index_spec *x = &c->idx[c->nindexes];
	char cols[WHATIF_TEXT], *tok, *save = NULL, *colon;
	int i, j;

	if (c->nindexes == SCHEMA_IDX_MAX)
		return err_set(e, ERR_USAGE,
		               "%s: the %s table has %d indexes with the candidates before it, "
		               "the most a table spec holds",
		               item, c->name, SCHEMA_IDX_MAX);
	memset(x, 0, sizeof *x);
	snprintf(cols, sizeof cols, "%s", item);
	if ((colon = strchr(cols, ':')) != NULL) {
		*colon = 0;
		x->unique = 1;
	}
	for (tok = strtok_r(cols, "+", &save); tok; tok = strtok_r(NULL, "+", &save)) {
		int col = find_col(c, tok, e);

		if (col < 0)
			return err_prefix(e, "%s", item);
		if (x->ncols == SCHEMA_IDX_COLS)
			return err_set(e, ERR_USAGE, "%s: more than %d columns in one index", item,
			               SCHEMA_IDX_COLS);
		for (j = 0; j < x->ncols; j++)
			if (x->cols[j] == col)
				return err_set(e, ERR_USAGE, "%s: the column %s twice in one index",
				               item, c->cols[col].name);
		x->cols[x->ncols++] = col;
	}
	for (i = 0; i < c->nindexes; i++) {
		const struct index_spec *o = &c->idx[i];

		if (o->ncols != x->ncols ||
		    memcmp(o->cols, x->cols, sizeof x->cols[0] * (size_t)x->ncols) != 0)
			continue;
		if (i < c->ntable)
			return err_set(e, ERR_USAGE,
			               "%s: the %s table has this index already (%s); to ask what "
			               "it costs, --drop-index %s and --indexes without,table",
			               item, c->name, o->name, o->name);
		return err_set(e, ERR_USAGE, "%s: a duplicate candidate (the same columns as %s)",
		               item, o->name);
	}
	candidate_name(c, x);
	if (x->unique && schema_unique_ok(c, x, e) < 0)
		return err_prefix(e, "%s", item);
	c->nindexes++;
	return 0;
}

/* The table's own index name moved last among the own ones not dropped. */
static int drop_one(struct schema *c, const char *name, struct err *e)
{
	char names[1024], with_prefix[SCHEMA_NAME_MAX + 8];
	const char *hint;
	int keep = c->ntable - c->ndrop, i;

	snprintf(with_prefix, sizeof with_prefix, "idxlab_%s", name);
	for (i = 0; i < c->ntable; i++)
		if (strcmp(c->idx[i].name, name) == 0 || strcmp(c->idx[i].name, with_prefix) == 0)
			break;
	if (i >= keep && i < c->ntable)
		return err_set(e, ERR_USAGE, "%s: the index %s is named twice", name,
		               c->idx[i].name);
	if (i == c->ntable) {
		hint = config_closest(name, nth_own_index, c);
		list_names(nth_own_index, c, names, sizeof names);
		return err_set(e, ERR_USAGE, "the %s table has no index %s (%s%s%sits indexes: %s)",
		               c->name, name, hint ? "did you mean " : "", hint ? hint : "",
		               hint ? "? " : "", names);
	}
	{
		struct index_spec x = c->idx[i];

		memmove(&c->idx[i], &c->idx[i + 1], sizeof x * (size_t)(keep - 1 - i));
		c->idx[keep - 1] = x;
	}
	c->ndrop++;
	return 0;
}

/* For each item of text (a registry label), fn(c, item). */
static int each_item(struct schema *c, long long v,
                     int (*fn)(struct schema *, const char *, struct err *), struct err *e)
{
	char list[WHATIF_TEXT], *tok, *save = NULL;
	const char *label = whatif_label(v);

	if (v == 0 || !label)
		return 0;
	snprintf(list, sizeof list, "%s", label);
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (fn(c, tok, e) < 0)
			return -1;
	return 0;
}

/* Are all of c's query lines guessed ones? */
static int all_guessed(const struct schema *c)
{
	int i;

	for (i = 0; i < c->nqueries; i++)
		if (!c->q[i].guessed)
			return 0;
	return 1;
}

/* Does an index of c's list cover the value column op update changes? */
static int hot_covered(const struct schema *c)
{
	int i, j;

	for (i = 0; c->hot_col > 0 && i < c->nindexes; i++)
		for (j = 0; j < c->idx[i].ncols && j < SCHEMA_IDX_COLS; j++)
			if (c->idx[i].cols[j] == c->hot_col)
				return 1;
	return 0;
}

int whatif_extend(long long base, long long drop, const char *drop_where, long long add,
                  const char *add_where, long long *out, struct err *e)
{
	const struct schema *s = schema_get(base);
	struct schema *c = malloc(sizeof *c);
	int rc;

	if (!c)
		abort();
	*c = *s;
	c->extends = base + 1;
	c->ntable = s->nindexes;
	c->ndrop = 0;
	if (each_item(c, drop, drop_one, e) < 0)
		rc = *drop_where ? err_prefix(e, "%s", drop_where) : err_prefix(e, "drop-index");
	else if (each_item(c, add, add_one, e) < 0)
		rc = *add_where ? err_prefix(e, "%s", add_where) : err_prefix(e, "add-index");
	else
		rc = 0;
	/* The key a `without rowid` table is kept in, dropped: the copy is
	 * an ordinary table (the key built last of the table's own, or not). */
	if (rc == 0 && c->without_rowid && strcmp(c->idx[0].name, s->idx[0].name) != 0) {
		c->without_rowid = 0;
		shape_note(c->notes, sizeof c->notes,
		           "--drop-index %s: the key the table is kept in (without rowid): the "
		           "copy is a rowid table, %s an index of it when built",
		           s->idx[0].name, s->idx[0].name);
	}
	/* A table read by guessed lookups (--schema-from's, one per index's
	 * leading column) is read by its candidates' too: what an index buys
	 * a lookup is half the answer. Query lines the user wrote stay as
	 * they are. */
	if (rc == 0 && add && c->nqueries && all_guessed(c))
		schema_from_queries(c);
	/* A candidate on the value column op update changes: it changes
	 * another one no index covers, or none (the notes say which). */
	if (rc == 0 && hot_covered(c)) {
		char was[SCHEMA_NAME_MAX];

		snprintf(was, sizeof was, "%s", c->hot);
		schema_pick_hot(c);
		shape_note(c->notes, sizeof c->notes, "--add-index covers %s: op update changes %s",
		           was, c->hot[0] ? c->hot : "no column (every column is indexed)");
	}
	if (rc == 0)
		rc = schema_register(c, out, e);
	free(c);
	return rc;
}

int whatif_own(const struct schema *s)
{
	return s->extends ? s->ntable : s->nindexes;
}

long long whatif_indexes(const struct schema *s, long long v)
{
	switch (v) {
	case INDEXES_TABLE:
		return whatif_own(s);
	case INDEXES_ALL:
		return s->nindexes;
	case INDEXES_WITHOUT:
		return whatif_own(s) - (s->extends ? s->ndrop : 0);
	default:
		return v;
	}
}
