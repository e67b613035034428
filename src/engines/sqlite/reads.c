/* reads.c - the SQLite engine's reads (op lookup, range; reads.h).
 *
 * One prepared SELECT per query of en->rd, written from the query's
 * fields: every column (a read fetches its rows whole, as a user's SELECT
 * * would), the terms joined by AND, the order, the limit. What serves it
 * is SQLite's own answer: EXPLAIN QUERY PLAN, read when the statement is
 * prepared (after the indexes changed, too). Each query counts, as SQLite
 * counts them: the rows it returned; the rows it examined - the rows a
 * full scan stepped over (SQLITE_STMTSTATUS_FULLSCAN_STEP) plus, when an
 * index or the key served it, the rows that search returned (the rows an
 * index visited and a second term then dropped are not counted: SQLite
 * does not count them); the pages it read into the cache
 * (SQLITE_DBSTATUS_CACHE_MISS over the query). */
#include <stdio.h>
#include <string.h>

#include "../reads.h"
#include "../txn.h"
#include "sqlite_int.h"

static void finalize_reads(struct engine *en)
{
	int i;

	for (i = 0; i < READS_MAX; i++) {
		sqlite3_finalize(en->rq[i]);
		en->rq[i] = NULL;
	}
}

static void query_sql(const struct schema *s, const struct query_spec *q, struct sql_buf *b)
{
	int i;

	sqlite_sql_add(b, "SELECT * FROM idxlab_t WHERE ");
	for (i = 0; i < q->nterms; i++) {
		if (i)
			sqlite_sql_add(b, " AND ");
		sqlite_sql_name(b, s->cols[q->term[i].col].name);
		sqlite_sql_add(b, " %s ?%d", schema_query_cmp[q->term[i].cmp], i + 1);
	}
	if (q->order_col >= 0) {
		sqlite_sql_add(b, " ORDER BY ");
		sqlite_sql_name(b, s->cols[q->order_col].name);
		sqlite_sql_add(b, "%s", q->order_desc ? " DESC" : "");
	}
	if (q->limit)
		sqlite_sql_add(b, " LIMIT %lld", q->limit);
}

/* What EXPLAIN QUERY PLAN says serves st's search of idxlab_t: an
 * index's name, "primary key", or "scan". */
static int served_by(struct engine *en, sqlite3_stmt *st, char *out, size_t len, struct err *e)
{
	char sql[9000];
	sqlite3_stmt *x;
	int rc;

	snprintf(sql, sizeof sql, "EXPLAIN QUERY PLAN %s", sqlite3_sql(st));
	if (sqlite3_prepare_v2(en->db, sql, -1, &x, NULL) != SQLITE_OK)
		return sqlite_fail(en, e, "explain query plan");
	snprintf(out, len, "scan");
	while ((rc = sqlite3_step(x)) == SQLITE_ROW) {
		const char *d = (const char *)sqlite3_column_text(x, 3), *at;

		if (!d || !strstr(d, "idxlab_t"))
			continue;
		if ((at = strstr(d, "USING INDEX ")) || (at = strstr(d, "USING COVERING INDEX "))) {
			at = strstr(at, "INDEX ") + 6;
			snprintf(out, len, "%.*s", (int)strcspn(at, " "), at);
		} else if (strstr(d, "PRIMARY KEY")) {
			snprintf(out, len, "primary key");
		}
	}
	sqlite3_finalize(x);
	return rc == SQLITE_DONE ? 0 : sqlite_fail(en, e, "explain query plan");
}

int sqlite_prepare_reads(struct engine *en, const struct knobs *k, struct err *e)
{
	int i;

	finalize_reads(en);
	reads_prepare(&en->rd, en->s, k, k->v[K_OP]);
	for (i = 0; i < en->rd.n; i++) {
		struct sql_buf b = { .n = 0 };

		query_sql(en->s, &en->rd.q[i], &b);
		if (sqlite3_prepare_v2(en->db, b.s, -1, &en->rq[i], NULL) != SQLITE_OK)
			return sqlite_fail(en, e, "prepare a query");
		if (served_by(en, en->rq[i], en->rd.served[i], sizeof en->rd.served[i], e) < 0)
			return -1;
	}
	return 0;
}

int sqlite_do_read(struct engine *en, long long op, uint64_t row, uint64_t draw, struct err *e)
{
	int miss, i = reads_pick(&en->rd, op, draw, &miss), j, rc, cols;
	const struct query_spec *q = &en->rd.q[i];
	sqlite3_stmt *st = en->rq[i];
	int cur, hi;
	uint64_t rows = 0;
	int before = 0;

	for (j = 0; j < q->nterms; j++) {
		schema_query_value(en->s, &en->k, &q->term[j], row, miss, &en->vals[j]);
		sqlite_bind_value(st, j + 1, &en->vals[j], SQLITE_STATIC);
	}
	sqlite3_db_status(en->db, SQLITE_DBSTATUS_CACHE_MISS, &before, &hi, 0);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		/* fetched whole: every column's bytes, overflow pages too */
		for (cols = sqlite3_data_count(st), j = 0; j < cols; j++)
			(void)sqlite3_column_bytes(st, j);
		rows++;
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return sqlite_fail(en, e, "a query");
	sqlite3_db_status(en->db, SQLITE_DBSTATUS_CACHE_MISS, &cur, &hi, 0);
	en->txn->read_rows += rows;
	en->txn->read_pages += (uint64_t)(cur - before > 0 ? cur - before : 0);
	en->txn->read_examined +=
	    (uint64_t)sqlite3_stmt_status(st, SQLITE_STMTSTATUS_FULLSCAN_STEP, 1) +
	    (strcmp(en->rd.served[i], "scan") != 0 ? rows : 0);
	return 0;
}

void sqlite_free_reads(struct engine *en)
{
	finalize_reads(en);
	en->rd.n = 0;
}

const struct reads *sqlite_reads(struct engine *en)
{
	return &en->rd;
}
