/* schema.c - the SQLite engine's table, its indexes and its pragmas.
 *
 * idxlab_t is built from the table spec (schema.h): int, bigint and
 * timestamp columns are INTEGERs, text TEXT, uuid BLOB; a numeric is
 * NUMERIC(P,S) (bound as a double: SQLite stores it as a table with that
 * affinity does), bool BOOLEAN (0/1), date and timestamptz their names
 * with text values (SQLite has no such type: date() and datetime()'s
 * text, UTC). hot and payload only when the spec has them. A bigint seq id is
 * the rowid (INTEGER PRIMARY KEY); any other id (a uuid, a random bigint)
 * makes a clustered WITHOUT ROWID table, the B-tree a random key enters;
 * with `unindexed` under op insert (schema_id_indexed) it is a plain column
 * of a rowid table instead, the table's key an index of the list; and
 * with `without rowid` too (schema_clustered) a plain column of a WITHOUT
 * ROWID table whose PRIMARY KEY is that index's key, as the source's.
 * For the default table that is the DDL idxlab always wrote: id INTEGER
 * PRIMARY KEY or, for uuid primary keys, BLOB in a WITHOUT ROWID table;
 * k1..k8 BLOBs for uuid key orders, else INTEGERs. Index i of the spec's
 * list is created by its name on its columns in the list's order (UNIQUE
 * when the spec says so). The pragmas say the journal mode (a refused one
 * is logged), synchronous and the cache. */
#include <stdio.h>
#include <strings.h>

#include "../../evlog.h"
#include "../../schema_gen.h"
#include "../../schema_idx.h"
#include "sqlite_int.h"

/* Column c's declared type: its affinity decides how a value is stored
 * (a numeric's 12.34 REAL, 12.00 INTEGER, as in the user's table). */
static void col_type_sql(struct sql_buf *b, const struct column *c, enum col_type t)
{
	static const char *const names[COL_TYPE_COUNT] = {
		[COL_INT] = "INTEGER",
		[COL_BIGINT] = "INTEGER",
		[COL_TEXT] = "TEXT",
		[COL_UUID] = "BLOB",
		[COL_TIMESTAMP] = "INTEGER",
		[COL_NUMERIC] = "NUMERIC",
		[COL_BOOL] = "BOOLEAN",
		[COL_DATE] = "DATE",
		[COL_TIMESTAMPTZ] = "TIMESTAMPTZ",
	};

	if (t == COL_NUMERIC)
		sqlite_sql_add(b, " NUMERIC(%d,%d)", c->prec, c->scale);
	else
		sqlite_sql_add(b, " %s", t >= 0 && t < COL_TYPE_COUNT && names[t] ? names[t] : "");
}

static const char *quoted(int col, const void *ctx);

/* The CREATE TABLE of idxlab_t's columns, named name, into b: kept in the
 * list's first index when clustered. */
static int table_sql(struct engine *en, const char *name, int clustered, struct sql_buf *b,
                     struct err *e)
{
	const struct schema *s = en->s;
	enum col_type id_t = schema_type(s, &en->k, 0);
	uint64_t n;
	int seq =
	    (id_t == COL_BIGINT || id_t == COL_INT) && schema_order(s, &en->k, 0, &n) == ORD_SEQ;
	int rowid = !clustered && (seq || !schema_id_indexed(s, &en->k));
	int c;

	sqlite_sql_add(b, "CREATE TABLE %s(id", name);
	col_type_sql(b, &s->cols[0], id_t);
	if (!clustered && (seq || !rowid)) /* an unindexed uuid: a plain column */
		sqlite_sql_add(b, " PRIMARY KEY");
	for (c = 1; c < s->ncols; c++) {
		sqlite_sql_add(b, ", ");
		sqlite_sql_name(b, s->cols[c].name);
		col_type_sql(b, &s->cols[c], schema_type(s, &en->k, c));
		if (s->cols[c].gen[0]) { /* written from its parse (schema_gen.h) */
			char expr[SCHEMA_GEN_MAX * 3];

			if (schema_gen_sql(s, c, GEN_SQLITE, quoted, s, expr, sizeof expr, e) < 0)
				return -1;
			sqlite_sql_add(b, " GENERATED ALWAYS AS (%s) %s", expr,
			               s->cols[c].gen_stored ? "STORED" : "VIRTUAL");
		}
	}
	if (schema_has_hot(s)) {
		sqlite_sql_add(b, ", ");
		sqlite_sql_name(b, s->hot);
		sqlite_sql_add(b, " INTEGER");
	}
	if (schema_has_payload(s, &en->k))
		sqlite_sql_add(b, ", payload BLOB");
	for (c = 0; clustered && c < s->idx[0].ncols; c++) /* plain columns: schema_key_check */
		sqlite_sql_add(b, "%s%s", c ? "," : ", PRIMARY KEY(", quoted(s->idx[0].cols[c], s));
	sqlite_sql_add(b, "%s)%s", clustered ? ")" : "", rowid ? "" : " WITHOUT ROWID");
	return 0;
}

int sqlite_create_schema(struct engine *en, struct err *e)
{
	struct sql_buf b = { .n = 0 };

	en->clustered = schema_clustered(en->s, &en->k);
	if (table_sql(en, "idxlab_t", en->clustered, &b, e) < 0)
		return -1;
	if (en->s->without_rowid && schema_id_indexed(en->s, &en->k))
		evlog_add(EV_INFO,
		          "table %s: op %s finds rows by idxlab's id: the rows are kept by id, the "
		          "key %s an index, one btree more than the source's",
		          en->s->name, knob_table[K_OP].choices[en->k.v[K_OP]], en->s->idx[0].name);
	return sqlite_run(en, b.s, e);
}

/* The rows into a table kept in the first index's key (clustered), or out
 * of it into a rowid table: a copy, as SQLite cannot change a table's key.
 * No other index exists then (the key is the list's first). */
static int rekey(struct engine *en, int clustered, struct err *e)
{
	static const char *const tmp = "\"idxlab-rekey\"";
	const struct schema *s = en->s;
	struct sql_buf b = { .n = 0 }, cols = { .n = 0 };
	struct err ignored;
	int c;

	sqlite_sql_add(&cols, "id");
	for (c = 1; c < s->ncols; c++)
		if (!s->cols[c].gen[0]) /* SQLite computes those */
			sqlite_sql_add(&cols, ",%s", quoted(c, s));
	if (schema_has_hot(s)) {
		sqlite_sql_add(&cols, ",");
		sqlite_sql_name(&cols, s->hot);
	}
	if (schema_has_payload(s, &en->k))
		sqlite_sql_add(&cols, ",payload");
	if (sqlite_run(en, "BEGIN", e) < 0)
		return -1;
	if (table_sql(en, tmp, clustered, &b, e) < 0 || sqlite_run(en, b.s, e) < 0)
		goto fail;
	b.n = 0;
	sqlite_sql_add(&b, "INSERT INTO %s(%s) SELECT %s FROM idxlab_t", tmp, cols.s, cols.s);
	if (sqlite_run(en, b.s, e) < 0)
		goto fail;
	b.n = 0;
	sqlite_sql_add(&b, "DROP TABLE idxlab_t; ALTER TABLE %s RENAME TO idxlab_t", tmp);
	if (sqlite_run(en, b.s, e) < 0 || sqlite_run(en, "COMMIT", e) < 0)
		goto fail;
	en->clustered = clustered;
	return 0;
fail:
	(void)sqlite_run(en, "ROLLBACK", &ignored);
	return -1;
}

int sqlite_set_pragmas(struct engine *en, const struct knobs *k, struct err *e)
{
	static const char *const syncs[] = { "OFF", "NORMAL", "FULL", "EXTRA" };
	static const char *const journals[] = { "DELETE", "TRUNCATE", "WAL", "MEMORY", "OFF" };
	const char *want = journals[k->v[K_JOURNAL]];
	const unsigned char *mode = NULL;
	sqlite3_stmt *st;
	char sql[256];

	snprintf(sql, sizeof sql, "PRAGMA journal_mode=%s", want);
	if (sqlite3_prepare_v2(en->db, sql, -1, &st, NULL) != SQLITE_OK)
		return sqlite_fail(en, e, sql);
	if (sqlite3_step(st) == SQLITE_ROW)
		mode = sqlite3_column_text(st, 0);
	if (!mode || strcasecmp((const char *)mode, want) != 0)
		evlog_add(EV_WARN, "sqlite: journal_mode %s was refused (got %s)", want,
		          mode ? (const char *)mode : "nothing");
	sqlite3_finalize(st);
	snprintf(sql, sizeof sql, "PRAGMA synchronous=%s; PRAGMA cache_size=-%lld",
	         syncs[k->v[K_SYNC]], k->v[K_CACHE] / 1024);
	return sqlite_run(en, sql, e);
}

/* A column in an index's SQL, always quoted: a spec name ([a-z0-9_]) in
 * double quotes (schema_idx_name). */
static const char *quoted(int col, const void *ctx)
{
	static _Thread_local char buf[SCHEMA_IDX_COLS][SCHEMA_NAME_MAX + 2];
	static _Thread_local int next;
	const struct schema *s = ctx;
	char *out = buf[next++ % SCHEMA_IDX_COLS];

	snprintf(out, SCHEMA_NAME_MAX + 2, "\"%s\"", s->cols[col].name);
	return out;
}

/* Create or drop indexes so that exactly the first `to` of the list exist;
 * an index's expression keys and WHERE are written from their parsed form
 * (schema_idx.h). */
int sqlite_set_indexes(struct engine *en, long long from, long long to, struct err *e)
{
	const struct schema *s = en->s;
	long long i;
	int c;

	for (i = from; i < to; i++) {
		const struct index_spec *x = &s->idx[i];
		double t0 = (double)clock_now_ns();
		struct sql_buf b = { .n = 0 };
		char where[512];

		if (i == 0 && schema_clustered(s, &en->k)) { /* the table is the key */
			if (en->clustered)
				continue;
			if (rekey(en, 1, e) < 0)
				return err_prefix(e, "keeping the rows in %s", x->name);
			if (en->live)
				evlog_add(EV_INFO,
				          "built %s: the table is kept in it (WITHOUT ROWID), %llu "
				          "rows copied in %.2f s",
				          x->name, (unsigned long long)en->rs->live_rows,
				          ((double)clock_now_ns() - t0) / 1e9);
			continue;
		}
		sqlite_sql_add(&b, "CREATE %sINDEX ", x->unique ? "UNIQUE " : "");
		sqlite_sql_name(&b, x->name);
		sqlite_sql_add(&b, " ON idxlab_t(");
		for (c = 0; c < x->ncols; c++) {
			char key[SCHEMA_NAME_MAX + 16];

			schema_idx_key_sql(x, c, quoted, s, key, sizeof key);
			sqlite_sql_add(&b, "%s%s", c ? "," : "", key);
		}
		schema_idx_where_sql(x, quoted, s, where, sizeof where);
		sqlite_sql_add(&b, ")%s%s", where[0] ? " WHERE " : "", where);
		if (sqlite_run(en, b.s, e) < 0)
			return -1;
		if (en->live)
			evlog_add(EV_INFO, "built %s on %llu rows in %.2f s", x->name,
			          (unsigned long long)en->rs->live_rows,
			          ((double)clock_now_ns() - t0) / 1e9);
	}
	for (i = from - 1; i >= to; i--) {
		struct sql_buf b = { .n = 0 };

		if (i == 0 && en->clustered) {
			if (rekey(en, 0, e) < 0)
				return err_prefix(e, "dropping %s, the key the table is kept in",
				                  s->idx[0].name);
			if (en->live)
				evlog_add(EV_INFO, "dropped %s: the table is a rowid table again",
				          s->idx[0].name);
			continue;
		}
		sqlite_sql_add(&b, "DROP INDEX ");
		sqlite_sql_name(&b, s->idx[i].name);
		if (sqlite_run(en, b.s, e) < 0)
			return -1;
		if (en->live)
			evlog_add(EV_INFO, "dropped %s", s->idx[i].name);
	}
	return 0;
}
