/* schema_key.c - the table's keys: which index may be unique, and a table
 * kept in its first index's key (`without rowid`).
 *
 * A source that keeps its rows in its primary key (SQLite's WITHOUT ROWID)
 * pays one btree per insert for the key and the row together. Its copy
 * says so with the `without rowid` line: the id is `unindexed` (only the
 * row's locator) and the first index of the list is the key. SQLite builds
 * that table so (engines/sqlite/schema.c) whenever the key is built and no
 * op finds rows by id (schema_clustered); the other engines have no such
 * table: they build an ordinary one beside the key's index and say so in
 * the event log (schema_key_unbuilt). */
#include <stdio.h>
#include <string.h>

#include "evlog.h"
#include "schema_from.h"
#include "schema_idx.h"
#include "schema_int.h"

/* Can this index be unique, whatever the row count? */
int schema_unique_ok(const struct schema *s, const struct index_spec *x, struct err *e)
{
	int i;

	for (i = 0; i < x->ncols; i++) {
		const struct column *c = &s->cols[x->cols[i]];
		int seq1 = (c->order == ORD_SEQ || c->order == ORD_DESC) && c->per <= 1;

		if (c->type == COL_BOOL || c->type == COL_DATE || c->nulls > 0)
			continue; /* two values; a day per row wraps; NULLs are no values */
		if (c->ranged && c->order == ORD_RAND &&
		    (uint64_t)c->hi - (uint64_t)c->lo < (1ULL << 62))
			continue; /* a draw from a span a run fills */
		if (c->type == COL_NUMERIC) {
			if (c->prec >= 14 && (seq1 || c->order == ORD_RAND))
				return 0;
			continue;
		}
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

int schema_key_check(const struct schema *s, struct err *e)
{
	const struct index_spec *x = &s->idx[0];
	int j;

	if (!s->without_rowid)
		return 0;
	if (!s->id_unindexed)
		return err_set(e, ERR_USAGE,
		               "without rowid: the rows are kept in the first index's key, and "
		               "idxlab's id only locates a row then: write unindexed last on the "
		               "id line (id bigint seq unindexed)");
	if (s->nindexes < 1)
		return err_set(e, ERR_USAGE,
		               "without rowid: no index to keep the rows in; the first index line "
		               "is the table's key (index COL[,COL...] unique)");
	if (!x->unique)
		return err_set(e, ERR_USAGE,
		               "without rowid: the first index (%s) is the table's primary key: "
		               "say unique on its line",
		               x->name);
	if (schema_idx_special(x))
		return err_set(e, ERR_USAGE,
		               "without rowid: the first index (%s) is the table's primary key: "
		               "plain columns, no lower()/upper() and no where",
		               x->name);
	for (j = 0; j < x->ncols && j < SCHEMA_IDX_COLS; j++) {
		const struct column *c = &s->cols[x->cols[j]];

		if (c->nulls > 0)
			return err_set(e, ERR_USAGE,
			               "without rowid: %s is a column of the key (%s) and has "
			               "NULLs (null:%g%%): a primary key's columns are never NULL",
			               c->name, x->name, schema_null_percent(c->nulls));
		if (c->gen[0])
			return err_set(e, ERR_USAGE,
			               "without rowid: %s is a column of the key (%s) and a "
			               "generated column: SQLite keeps no table in one",
			               c->name, x->name);
	}
	return 0;
}

int schema_clustered(const struct schema *s, const struct knobs *k)
{
	return s->without_rowid && !schema_id_indexed(s, k) && k && k->v[K_INDEXES] >= 1;
}

int schema_key_line(struct schema *s, const char *rest, struct err *e)
{
	while (*rest == ' ' || *rest == '\t')
		rest++;
	if (strcmp(rest, "rowid") != 0)
		return err_set(e, ERR_USAGE,
		               "'without %s': write without rowid (the rows kept in the first "
		               "index's key, as SQLite's WITHOUT ROWID)",
		               rest);
	s->without_rowid = 1;
	return 0;
}

void schema_key_unbuilt(const struct schema *s, const char *engine)
{
	if (!s->without_rowid || strcmp(engine, "sqlite") == 0 || s->nindexes < 1)
		return;
	evlog_add(EV_INFO,
	          "table %s: %s keeps no table in a key's order: the copy is an ordinary table "
	          "and its key %s an index (WITHOUT ROWID on SQLite)",
	          s->name, engine, s->idx[0].name);
}

void schema_from_key(struct schema *s)
{
	struct err e;

	if (!s->without_rowid)
		return;
	if (schema_key_check(s, &e) < 0) {
		s->without_rowid = 0;
		shape_note(
		    s->notes, sizeof s->notes,
		    "not kept in its key here (%s): a rowid table on SQLite, the key an index "
		    "beside it, one btree more per insert than the source pays",
		    !s->idx[0].unique ? "the key's values as idxlab writes them may repeat"
		                      : e.msg);
		return;
	}
	shape_note(s->notes, sizeof s->notes,
	           "without rowid: on SQLite the copy is kept in its key %s too (op insert; an op "
	           "that finds rows by id keeps a rowid table and the key an index, one btree "
	           "more); PostgreSQL, MongoDB and WiredTiger build an ordinary table and the "
	           "key's index",
	           s->idx[0].name);
}
