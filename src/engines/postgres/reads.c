/* reads.c - the PostgreSQL engine's reads (op lookup, range; ../reads.h).
 *
 * One SELECT per query of en->rd, written from the query's fields (every
 * column: a read fetches its rows whole; the terms joined by AND, the
 * order, the limit; the names as the server quotes them), prepared as
 * idxlab_r0, idxlab_r1, ... whatever the protocol. --protocol prepared
 * runs them (a Bind and an Execute); extended sends the text and the
 * parameters every time, simple the text with the values written in as
 * literals (protocol.c). A query's rows are read back before the step goes
 * on - they are the read, and the query is timed to its last row. In the
 * pipeline (--pipeline on) the BEGIN before a query goes out with it and
 * a flush request asks the server for both results: a round trip per
 * query; a read step's COMMIT is waited for likewise. Off the pipeline
 * each statement is a round trip.
 *
 * A mix (--mix, --read-share) runs the write op's statement (idxlab_op)
 * and these on one connection. The reads take the statement state
 * (en->nparams, pcol, ptype, op_sql and its $N) for their own; the
 * write's is kept at its prepare (pg_write_keep) and put back before the
 * next write (pg_write_restore). Pipelined, a query's rows must be read
 * before anything after it, so the writes sent before it (BEGIN, rows,
 * COMMITs) are read first, to a sync (txn.c's drain: a row's count
 * checked, a COMMIT acknowledged then and held for the sync hook to
 * count); the time that takes is the writes' (txn carried_ns), not the
 * query's.
 *
 * What served a query is the server's own answer: EXPLAIN (FORMAT JSON)
 * EXECUTE of its prepared statement, with the values of a row present (the
 * middle one) written in as literals, when the statements are prepared (at
 * the op's start, and after the indexes changed): the index the first
 * index scan node names (Index Scan, Index Only Scan, Bitmap Index Scan; a
 * partition's index as the spec's index it belongs to; the key's as
 * "primary key"), else "scan" (a Seq Scan); and again at the step's end,
 * outside its window (pg_reads_settle), for the queries that ran: the
 * server plans each of the first five executions of a prepared statement
 * for its own values, then may keep a generic plan, which EXPLAIN EXECUTE
 * then shows.
 *
 * What the queries examined and read, the server counts for idxlab_t (and
 * its partitions, indexes, TOAST), read with every sample
 * (pg_reads_sample): rows examined, seq_tup_read + idx_tup_fetch (the rows
 * a sequential scan returned, the rows an index or bitmap scan fetched from
 * the heap); pages read, the blocks not found in shared_buffers
 * (pg_statio's heap_blks_read, idx_blks_read and TOAST's: the OS cache may
 * still have served them). Each with what this backend has not reported
 * yet (pg_stat_get_xact_*, flushed only between statements), so a sample
 * is exact mid-step too. The counts are the table's, not a statement's:
 * under a read op only the queries touch idxlab_t (idxlab's samples read
 * the catalogs; the set-up's scans, an index build's, fall before the
 * step's first sample), so the growth is theirs; it is counted only then.
 * In a mix the writes touch idxlab_t too: an insert fetches no row in
 * these counts (its unique checks are not counted), so rows examined stay
 * the queries'; an update or delete fetches its row by id (rows examined
 * n/a), and every write reads pages (pages read n/a in a mix). */
#include <stdio.h>
#include <string.h>

#include "../../clock.h"
#include "../../mix.h"
#include "internal.h"

/* The counts pg_reads_sample reads: rows examined, pages read. */
#define READS_SQL                                                                                  \
	"WITH t AS (SELECT r FROM " TABLE_TREE " t(r) WHERE r IS NOT NULL), "                      \
	"i AS (SELECT indexrelid AS r FROM pg_index WHERE indrelid IN (SELECT r FROM t)), "        \
	"x AS (SELECT reltoastrelid AS r FROM pg_class WHERE oid IN (SELECT r FROM t) AND "        \
	"reltoastrelid <> 0), "                                                                    \
	"a AS (SELECT r FROM t UNION ALL SELECT r FROM i UNION ALL SELECT r FROM x UNION ALL "     \
	"SELECT indexrelid FROM pg_index WHERE indrelid IN (SELECT r FROM x)) "                    \
	"SELECT (SELECT coalesce(sum(pg_stat_get_tuples_returned(r) + "                            \
	"pg_stat_get_xact_tuples_returned(r)), 0) FROM t) + "                                      \
	"(SELECT coalesce(sum(pg_stat_get_tuples_fetched(r) + "                                    \
	"pg_stat_get_xact_tuples_fetched(r)), 0) FROM (SELECT r FROM t UNION ALL SELECT r FROM "   \
	"i) f), "                                                                                  \
	"(SELECT coalesce(sum(pg_stat_get_blocks_fetched(r) + pg_stat_get_xact_blocks_fetched(r) " \
	"- pg_stat_get_blocks_hit(r) - pg_stat_get_xact_blocks_hit(r)), 0) FROM a)"

static const char *op_name(const struct engine *en)
{
	return knob_table[K_OP].choices[en->k.v[K_OP]];
}

/* Query q's SELECT into out; -1 when it does not fit. */
static int query_sql(const struct engine *en, const struct query_spec *q, char *out, size_t len)
{
	size_t n = 0;
	int i;

	pg_buf_add(out, len, &n, "SELECT * FROM idxlab.idxlab_t WHERE ");
	for (i = 0; i < q->nterms; i++)
		pg_buf_add(out, len, &n, "%s%s %s $%d", i ? " AND " : "", en->qcol[q->term[i].col],
		           schema_query_cmp[q->term[i].cmp], i + 1);
	if (q->order_col >= 0)
		pg_buf_add(out, len, &n, " ORDER BY %s%s", en->qcol[q->order_col],
		           q->order_desc ? " DESC" : "");
	if (q->limit)
		pg_buf_add(out, len, &n, " LIMIT %lld", q->limit);
	return n < len ? 0 : -1;
}

/* q's parameters (en->nparams, pcol, ptype) and their values for row (a
 * value no row holds: miss), bound as the statements take them. */
static void bind_query(struct engine *en, const struct query_spec *q, uint64_t row, int miss,
                       char (*num)[8], const char **vals, int *lens)
{
	int j;

	en->w_op = -1;
	en->nparams = q->nterms;
	for (j = 0; j < q->nterms; j++) {
		en->pcol[j] = q->term[j].col;
		en->ptype[j] = schema_type(en->s, &en->k, q->term[j].col);
		schema_query_value(en->s, &en->k, &q->term[j], row, miss, &en->pv[j]);
		lens[j] = pg_bind_value(&en->pv[j], num[j], &vals[j]);
	}
}

/* The spec's name of index name (a partition's index: the one it is a
 * partition of), into out. */
static int spec_index(struct engine *en, const char *name, char *out, size_t len, struct err *e)
{
	const char *params[1] = { name };
	PGresult *res;
	int x;

	for (x = 0; x < en->s->nindexes; x++)
		if (strcmp(name, en->s->idx[x].name) == 0)
			break;
	if (x == en->s->nindexes && strcmp(name, "idxlab_t_pkey") != 0) {
		res = pg_run(en,
		             "SELECT coalesce((SELECT p.relname::text FROM pg_inherits h JOIN "
		             "pg_class p ON p.oid = h.inhparent WHERE h.inhrelid = "
		             "to_regclass('idxlab.' || quote_ident($1))), $1)",
		             1, params, e);
		if (!res)
			return -1;
		snprintf(out, len, "%s", PQgetvalue(res, 0, 0));
		PQclear(res);
	} else {
		snprintf(out, len, "%s", name);
	}
	if (strcmp(out, "idxlab_t_pkey") == 0)
		snprintf(out, len, "primary key");
	return 0;
}

/* What EXPLAIN says serves query i (its statement prepared), into
 * en->rd.served[i]. */
static int served_by(struct engine *en, int i, struct err *e)
{
	static const char key[] = "\"Index Name\": \"";
	char sql[128], num[SCHEMA_QUERY_TERMS][8], name[READS_SERVED_MAX];
	const char *vals[SCHEMA_QUERY_TERMS], *plan, *at;
	int lens[SCHEMA_QUERY_TERMS], j;
	size_t n = 0;
	PGresult *res;

	pg_buf_add(sql, sizeof sql, &n, "EXPLAIN (FORMAT JSON) EXECUTE idxlab_r%d(", i);
	for (j = 0; j < en->rd.q[i].nterms; j++)
		pg_buf_add(sql, sizeof sql, &n, "%s$%d", j ? ", " : "", j + 1);
	pg_buf_add(sql, sizeof sql, &n, ")");
	bind_query(en, &en->rd.q[i], en->rs->next_row / 2, 0, num, vals, lens);
	en->rq_set = -1;
	if (pg_proto_set(en, sql, e) < 0 || pg_proto_literal(en, vals, lens, e) < 0)
		return -1;
	res = pg_run(en, en->lit, 0, NULL, e);
	if (!res)
		return err_prefix(e, "EXPLAIN of query %s", en->rd.q[i].name);
	plan = PQntuples(res) ? PQgetvalue(res, 0, 0) : "";
	at = strstr(plan, key);
	snprintf(name, sizeof name, "%.*s", at ? (int)strcspn(at + sizeof key - 1, "\"") : 0,
	         at ? at + sizeof key - 1 : "");
	snprintf(en->rd.served[i], sizeof en->rd.served[i], "%s",
	         at || !strstr(plan, "\"Seq Scan\"") ? "" : "scan");
	PQclear(res);
	return at ? spec_index(en, name, en->rd.served[i], sizeof en->rd.served[i], e) : 0;
}

int pg_prepare_reads(struct engine *en, struct err *e)
{
	Oid types[SCHEMA_QUERY_TERMS];
	char name[32];
	PGresult *res;
	int i, j;

	reads_prepare(&en->rd, en->s, &en->k, en->k.v[K_OP]);
	en->rq_set = -1;
	for (i = 0; i < en->rd.n; i++) {
		const struct query_spec *q = &en->rd.q[i];

		if (query_sql(en, q, en->rq_sql[i], sizeof en->rq_sql[i]) < 0)
			return err_set(e, ERR_RUNTIME,
			               "the SELECT of query %s does not fit (a bug in idxlab)",
			               q->name);
		for (j = 0; j < q->nterms; j++)
			types[j] = pg_type_oid(schema_type(en->s, &en->k, q->term[j].col));
		snprintf(name, sizeof name, "idxlab_r%d", i);
		if (!PQsendPrepare(en->conn, name, en->rq_sql[i], q->nterms, types))
			return pg_fail(en, NULL, e, "prepare a query");
		res = pg_collect(en, "prepare a query", 0, e);
		if (!res)
			return -1;
		PQclear(res);
		if (served_by(en, i, e) < 0)
			return -1;
	}
	return 0;
}

/* The next result in the pipeline, and the end of its statement's
 * results after it; NULL (e says) when it is no success. */
static PGresult *next_result(struct engine *en, ExecStatusType want, struct err *e)
{
	PGresult *res, *end;

	if (pg_await(en, op_name(en), STOP_GRACE_MS, e) < 0)
		return NULL;
	res = PQgetResult(en->conn);
	if (!res || PQresultStatus(res) != want) {
		pg_fail(en, res, e, op_name(en));
		PQclear(res);
		return NULL;
	}
	if (pg_await(en, op_name(en), STOP_GRACE_MS, e) < 0) {
		PQclear(res);
		return NULL;
	}
	end = PQgetResult(en->conn);
	if (end) { /* one result per statement: a bug */
		PQclear(end);
		PQclear(res);
		err_set(e, ERR_RUNTIME, "%s: a second result (a bug in idxlab)", op_name(en));
		return NULL;
	}
	return res;
}

/* The step goes no further: the pipeline is read to a sync, nothing left
 * aborted on the server. -1. */
static int fail(struct engine *en)
{
	struct step_out none = { 0, 0 };
	struct err ignore;

	en->npend = 0;
	if (en->pipeline && PQstatus(en->conn) == CONNECTION_OK && !en->unanswered &&
	    pg_drain(en, &none, NULL, &ignore) < 0)
		return -1; /* drain rolled back */
	pg_lost(en);
	return -1;
}

/* In the pipeline: the results of the statements pending (BEGIN, COMMIT),
 * asked for now. */
static int take_pending(struct engine *en, struct err *e)
{
	size_t i;

	if (PQsendFlushRequest(en->conn) != 1)
		return pg_fail(en, NULL, e, op_name(en));
	for (i = 0; i < en->npend; i++) {
		PGresult *res = next_result(en, PGRES_COMMAND_OK, e);

		if (!res)
			return -1;
		PQclear(res);
	}
	en->npend = 0;
	return 0;
}

/* The write statement's state and its saved copy, field by field: keep
 * copies the engine's into wsave, restore back (one list, both ways). */
_Static_assert(sizeof((struct engine *)0)->op_sql == sizeof((struct pg_wstate *)0)->sql,
               "the statement and its saved copy are one size");

static void write_state(struct engine *en, int op, int keep)
{
	struct pg_wstate *w = &en->wsave[op];
	const struct {
		void *live, *saved;
		size_t n;
	} f[] = {
		{ &en->nparams, &w->nparams, sizeof w->nparams },
		{ &en->nph, &w->nph, sizeof w->nph },
		{ en->pcol, w->pcol, sizeof w->pcol },
		{ en->ptype, w->ptype, sizeof w->ptype },
		{ en->ph_param, w->ph_param, sizeof w->ph_param },
		{ en->ph_at, w->ph_at, sizeof w->ph_at },
		{ en->ph_end, w->ph_end, sizeof w->ph_end },
		{ en->op_sql, w->sql, sizeof w->sql },
	};
	size_t i;

	for (i = 0; i < sizeof f / sizeof f[0]; i++)
		memcpy(keep ? f[i].saved : f[i].live, keep ? f[i].live : f[i].saved, f[i].n);
	en->w_op = op;
	en->rq_set = -1;
}

void pg_write_keep(struct engine *en, int op)
{
	write_state(en, op, 1);
}

void pg_write_restore(struct engine *en, int op)
{
	write_state(en, op, 0);
}

/* In a mix's pipeline: the writes sent before this read (BEGIN, rows,
 * COMMITs), their results read to a sync (txn.c's drain, its COMMITs
 * held for the sync hook), the time it took the writes' (carried_ns). */
static int finish_writes(struct engine *en, struct err *e)
{
	uint64_t t0 = clock_now_ns();
	int rc;

	if (!en->npend)
		return 0;
	rc = pg_drain(en, NULL, NULL, e);
	en->txn->carried_ns += clock_now_ns() - t0;
	return rc;
}

int pg_reads_take(struct engine *en, struct err *e)
{
	return take_pending(en, e) < 0 ? fail(en) : 0;
}

int pg_do_read(struct engine *en, long long op, uint64_t row, uint64_t draw, struct err *e)
{
	int miss, i = reads_pick(&en->rd, op, draw, &miss), lens[SCHEMA_QUERY_TERMS];
	char num[SCHEMA_QUERY_TERMS][8], name[32];
	const char *vals[SCHEMA_QUERY_TERMS];
	PGresult *res;

	if (pg_proto_mode(en, e) < 0)
		return -1;
	if (en->mixed && en->pipeline && finish_writes(en, e) < 0)
		return -1; /* drain rolled back */
	bind_query(en, &en->rd.q[i], row, miss, num, vals, lens);
	if (en->rq_set != i && pg_proto_set(en, en->rq_sql[i], e) < 0)
		return -1;
	en->rq_set = i;
	snprintf(name, sizeof name, "idxlab_r%d", i);
	if (pg_proto_issue(en, name, vals, lens, e) < 0)
		return fail(en);
	if (en->pipeline)
		res = take_pending(en, e) < 0 ? NULL : next_result(en, PGRES_TUPLES_OK, e);
	else
		res = pg_collect(en, op_name(en), STOP_GRACE_MS, e);
	if (!res)
		return fail(en);
	en->txn->read_rows += (uint64_t)PQntuples(res);
	PQclear(res);
	return 0;
}

int pg_reads_sample(struct engine *en, struct counters *c, struct err *e)
{
	uint64_t examined, pages;
	PGresult *res;
	int mixed = mix_of(&en->k, NULL);

	/* In a mix the writes count too: an update's or delete's search by id
	 * fetches its row (rows examined n/a then; an insert's unique checks
	 * fetch none in these statistics), and every write reads the pages it
	 * changes (pages read n/a). */
	if (!mixed || (mix_ops(&en->k) & OPS_WRITES) == 1u << OP_INSERT)
		c->valid |= 1u << C_READ_EXAMINED;
	if (!mixed)
		c->valid |= 1u << C_READ_PAGES;
	if ((!OP_READS(en->k.v[K_OP]) && !mixed) || !*en->sizes_sql) {
		en->rd_seen = 0;
		return 0;
	}
	res = pg_pipeline_query(en, READS_SQL, 0, NULL, e);
	if (!res)
		return -1;
	examined = pg_to_u64(PQgetvalue(res, 0, 0));
	pages = pg_to_u64(PQgetvalue(res, 0, 1));
	PQclear(res);
	/* a server restarted without its statistics counts from 0 again */
	if (en->rd_seen && examined >= en->rd_examined && pages >= en->rd_pages) {
		en->txn->read_examined += examined - en->rd_examined;
		en->txn->read_pages += pages - en->rd_pages;
	}
	en->rd_examined = examined;
	en->rd_pages = pages;
	en->rd_seen = 1;
	return 0;
}

int pg_reads_settle(struct engine *en, struct err *e)
{
	int i;

	if ((!OP_READS(en->k.v[K_OP]) && !mix_of(&en->k, NULL)) ||
	    (en->stop && atomic_load(en->stop)))
		return 0;
	for (i = 0; i < en->rd.n; i++)
		if (en->rd.count[i] && served_by(en, i, e) < 0)
			return -1;
	return 0;
}

const struct reads *pg_reads(struct engine *en)
{
	return &en->rd;
}
