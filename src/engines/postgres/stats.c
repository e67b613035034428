/* stats.c - the engine's counters (man idxlab, OUTPUT FIELDS) and sizes.
 *
 * One query reads the server's statistics, its columns as one table says
 * (stat_table: each column's source and the counter it feeds); besides it
 *   spills      pg_stat_statements' writes less the relations' growth
 *               (sample_spills)
 *   fpi_bytes   pg_walinspect over the flushed WAL (pg_sample_fpi)
 *   cache_*     pg_buffercache, at most once a second (sample_buffers)
 *   wchar, write_bytes  /proc io of the server's processes (proc_tree)
 * Per-table counters restart with every new table and are carried over
 * (pg_carry_table_counters). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../clock.h"
#include "../../evlog.h"
#include "../../probes/proc_tree.h"
#include "internal.h"

/* Per-table counters of the current table, carried over before a drop. */
void pg_carry_table_counters(struct engine *en)
{
	en->upd_acc += en->upd_last;
	en->hot_acc += en->hot_last;
	en->read_acc += en->read_last;
	en->upd_last = en->hot_last = en->read_last = 0;
}

/* Full-page-image bytes of the WAL flushed since the last look, from
 * pg_walinspect; 1 when the count is current. Only between transactions: a
 * failed look then costs nothing (the WAL may end inside a record that is
 * still being written: walinspect then finds no record; we look again
 * later). The next look starts where the last record seen ended, on a
 * record boundary. WAL not yet flushed (synchronous_commit off) is counted
 * in a later window; a commit with sync on flushes everything before it.
 * A checkpoint since the last look may have removed the WAL from there on
 * (one long transaction gives no chance to look): what it held is lost, so
 * the count goes on from the checkpoint's redo point and fpi_gaps makes
 * the windows around the loss n/a, with the reason in the event log. */
/* The look itself, from start. pg_get_wal_records_info materialises a row
 * per record, which the server spills to temp files (150 MB for a 200k-row
 * step at 4 indexes): writes of idxlab's own, in the server's write()
 * bytes. So the sum comes from pg_get_wal_stats (a row per resource
 * manager), and only the end of the last whole record (where the next look
 * starts: a record may straddle the flush point) from a short tail of
 * records; tail 0 reads all records instead (a record longer than the
 * tail, or an older pg_walinspect). */
static PGresult *fpi_look(struct engine *en, const char *start, int tail, struct err *e)
{
	const char *params[1] = { start };
	const char *fn = en->walinspect_fn, *dot = strrchr(fn, '.');
	int schema = dot ? (int)(dot - fn + 1) : 0;
	char sql[1024];

	if (tail)
		snprintf(sql, sizeof sql,
		         "WITH f AS (SELECT nullif(greatest(pg_current_wal_flush_lsn(), "
		         "$1::pg_lsn), $1::pg_lsn) AS e), " /* strict: NULL = nothing new */
		         "t AS (SELECT max(r.end_lsn) AS e FROM f, LATERAL %s(greatest($1::pg_lsn, "
		         "f.e - %d), f.e) r) "
		         "SELECT coalesce((SELECT sum(s.fpi_size) FROM t, LATERAL "
		         "%.*spg_get_wal_stats($1::pg_lsn, t.e, false) s), 0), "
		         "(SELECT t.e - '0/0'::pg_lsn FROM t)",
		         fn, tail, schema, fn);
	else
		snprintf(sql, sizeof sql,
		         "SELECT coalesce(sum(fpi_length), 0), max(end_lsn) - '0/0'::pg_lsn "
		         "FROM %s($1::pg_lsn, nullif(greatest(pg_current_wal_flush_lsn(), "
		         "$1::pg_lsn), $1::pg_lsn))",
		         fn);
	return pg_pipeline_query(en, sql, 1, params, e);
}

int pg_sample_fpi(struct engine *en)
{
	char start[32], why[300];
	PGresult *res;
	struct err ignore;
	int ok;

	if (en->in_txn)
		return 0;
	snprintf(start, sizeof start, "%X/%X", (unsigned)(en->fpi_lsn >> 32),
	         (unsigned)en->fpi_lsn);
	res = fpi_look(en, start, FPI_TAIL, &ignore);
	if (!res && en->fpi_lsn < en->redo_lsn) {
		char redo[32];

		snprintf(redo, sizeof redo, "%X/%X", (unsigned)(en->redo_lsn >> 32),
		         (unsigned)en->redo_lsn);
		const char *said = strstr(pg_trim(ignore.msg, why, sizeof why), "ERROR:");

		evlog_add(EV_WARN,
		          "full-page-image bytes are n/a in this window: a checkpoint removed the "
		          "WAL from %s on before idxlab read it (%s); counted again from its redo "
		          "point %s",
		          start, said ? said + 8 : why, redo);
		en->fpi_lsn = en->redo_lsn;
		en->fpi_gaps++;
		snprintf(start, sizeof start, "%s", redo);
		res = fpi_look(en, start, FPI_TAIL, &ignore);
	}
	if (!res && !en->unanswered && !(en->stop && atomic_load(en->stop)))
		res = fpi_look(en, start, 0, &ignore);
	ok = res != NULL;
	if (res && PQntuples(res) && !PQgetisnull(res, 0, 1)) {
		en->fpi_bytes += pg_to_u64(PQgetvalue(res, 0, 0));
		en->fpi_lsn = pg_to_u64(PQgetvalue(res, 0, 1));
	}
	PQclear(res);
	return ok;
}

/* The buffers in use and dirty, from pg_buffercache. It visits every
 * buffer header, a few ms per GiB of shared_buffers on the workload's own
 * connection: at most once a second, and at the end of a step (pg_finish
 * asks for it: a step shorter than a second would otherwise end with the
 * reading it began with). */
static int sample_buffers(struct engine *en, struct err *e)
{
	char sql[256];
	uint64_t t = clock_now_ns();
	PGresult *res;

	if (en->bc_t && t - en->bc_t < BUFFERCACHE_EVERY_NS)
		return 0;
	snprintf(sql, sizeof sql,
	         "SELECT count(relfilenode), count(*) FILTER (WHERE isdirty) FROM %s",
	         en->buffercache_view);
	res = pg_pipeline_query(en, sql, 0, NULL, e);
	if (!res)
		return -1;
	en->bc_used = pg_to_u64(PQgetvalue(res, 0, 0));
	en->bc_dirty = pg_to_u64(PQgetvalue(res, 0, 1));
	en->bc_t = t;
	PQclear(res);
	return 0;
}

/* The pages of relfilenode node at the last reading; 0 when not there. */
static int rel_blocks(const struct engine *en, uint64_t node, uint64_t *blocks)
{
	for (int i = 0; i < en->nrels; i++)
		if (en->rels[i].node == node) {
			*blocks = en->rels[i].blocks;
			return 1;
		}
	return 0;
}

/* Spills: the dirty buffers idxlab's own statements wrote out to make room
 * in shared_buffers. pg_stat_statements' shared_blks_written counts them,
 * and also every page those statements added to a relation (an extension
 * is counted as a write on every version), so the growth of the table's
 * and its indexes' files since the last reading is taken off. Growth is
 * compared by relfilenode: a relation made or rewritten since (an index
 * build, VACUUM FULL) is not the statements' doing. Unlike
 * pg_stat_bgwriter.buffers_backend it is current at every statement's end. */
static int sample_spills(struct engine *en, struct err *e)
{
	char sql[1400];
	PGresult *res;
	uint64_t written, grown = 0, was, w;
	int i, n;

	snprintf(sql, sizeof sql,
	         "WITH r AS (SELECT c.relfilenode::bigint AS node, (pg_relation_size(c.oid, "
	         "'main') + pg_relation_size(c.oid, 'fsm') + pg_relation_size(c.oid, 'vm')) / "
	         "8192 AS blocks FROM pg_class c WHERE c.relfilenode <> 0 AND (c.oid = "
	         "to_regclass('idxlab.idxlab_t') OR c.oid IN (SELECT indexrelid FROM pg_index "
	         "WHERE indrelid = to_regclass('idxlab.idxlab_t')) OR c.oid = (SELECT "
	         "reltoastrelid FROM pg_class WHERE oid = to_regclass('idxlab.idxlab_t')) OR "
	         "c.oid IN (SELECT indexrelid FROM pg_index WHERE indrelid = (SELECT "
	         "reltoastrelid FROM pg_class WHERE oid = to_regclass('idxlab.idxlab_t')))) "
	         "LIMIT %d) "
	         "SELECT (SELECT coalesce(sum(s.shared_blks_written), 0) FROM %s(true) s "
	         "WHERE s.dbid = (SELECT oid FROM pg_database WHERE datname = "
	         "current_database()) AND s.userid = (SELECT oid FROM pg_roles WHERE rolname "
	         "= current_user) AND s.query LIKE ANY (ARRAY['INSERT INTO idxlab.idxlab_t %%', "
	         "'UPDATE idxlab.idxlab_t %%', 'DELETE FROM idxlab.idxlab_t %%'])), "
	         "r.node, r.blocks FROM (SELECT 1) one LEFT JOIN r ON true",
	         SPILL_RELS, en->statements_fn);
	res = pg_pipeline_query(en, sql, 0, NULL, e);
	if (!res)
		return -1;
	n = PQgetisnull(res, 0, 1) ? 0 : PQntuples(res);
	written = pg_to_u64(PQgetvalue(res, 0, 0));
	for (i = 0; i < n; i++) {
		uint64_t node = pg_to_u64(PQgetvalue(res, i, 1)),
		         now = pg_to_u64(PQgetvalue(res, i, 2));

		if (en->ss_seen && rel_blocks(en, node, &was) && now > was)
			grown += now - was;
	}
	for (i = 0; i < n; i++) {
		en->rels[i].node = pg_to_u64(PQgetvalue(res, i, 1));
		en->rels[i].blocks = pg_to_u64(PQgetvalue(res, i, 2));
	}
	en->nrels = n;
	PQclear(res);
	/* The counters restart with the server (a restart for a new cache). */
	w = !en->ss_seen ? 0 : written >= en->ss_written ? written - en->ss_written : written;
	en->spills += w > grown ? w - grown : 0;
	en->ss_written = written;
	en->ss_seen = 1;
	return 0;
}

/* Checkpoints, decided exactly: the control file names the record of the
 * last completed checkpoint, and it changes the moment one completes. So
 * the count moves between two samples exactly when a checkpoint completed
 * between them (pg_stat_bgwriter's counts are published late, and after a
 * restart could land in the next window). Its redo point is kept for the
 * full-page-image count, whose WAL a checkpoint may recycle. */
static void note_checkpoint(struct engine *en, uint64_t lsn, uint64_t redo)
{
	if (en->ckpt_lsn && lsn != en->ckpt_lsn)
		en->checkpoints++;
	en->ckpt_lsn = lsn;
	en->redo_lsn = redo;
}

int pg_sample(struct engine *en, struct counters *c, struct err *e)
{
	PGresult *res;
	struct proc_io io;

	res = pg_pipeline_query(en,
	                        "SELECT pg_current_wal_insert_lsn() - '0/0'::pg_lsn, w.wal_sync, "
	                        "k.checkpoint_lsn - '0/0'::pg_lsn, k.redo_lsn - '0/0'::pg_lsn, "
	                        "coalesce(t.n_tup_upd, 0), coalesce(t.n_tup_hot_upd, 0), "
	                        "coalesce(s.heap_blks_read, 0) + coalesce(s.idx_blks_read, 0) "
	                        "FROM pg_stat_wal w, pg_control_checkpoint() k "
	                        "LEFT JOIN pg_stat_user_tables t ON t.relid = "
	                        "to_regclass('idxlab.idxlab_t') "
	                        "LEFT JOIN pg_statio_user_tables s ON s.relid = "
	                        "to_regclass('idxlab.idxlab_t')",
	                        0, NULL, e);
	if (!res)
		return -1;
	en->lsn_now = pg_to_u64(PQgetvalue(res, 0, 0));
	c->v[C_WAL_BYTES] = en->lsn_now - en->lsn0;
	c->v[C_FSYNCS] = pg_to_u64(PQgetvalue(res, 0, 1));
	note_checkpoint(en, pg_to_u64(PQgetvalue(res, 0, 2)), pg_to_u64(PQgetvalue(res, 0, 3)));
	c->v[C_CHECKPOINTS] = en->checkpoints;
	en->upd_last = pg_to_u64(PQgetvalue(res, 0, 4));
	en->hot_last = pg_to_u64(PQgetvalue(res, 0, 5));
	en->read_last = pg_to_u64(PQgetvalue(res, 0, 6));
	PQclear(res);
	c->v[C_UPDATES] = en->upd_acc + en->upd_last;
	c->v[C_HOT_UPDATES] = en->hot_acc + en->hot_last;
	c->v[C_MISSES] = en->read_acc + en->read_last;
	c->valid |= 1u << C_WAL_BYTES | 1u << C_FSYNCS | 1u << C_CHECKPOINTS | 1u << C_UPDATES |
	            1u << C_HOT_UPDATES | 1u << C_MISSES;
	if (en->statements) {
		if (sample_spills(en, e) < 0)
			return -1;
		c->v[C_SPILLS] = en->spills;
		c->valid |= 1u << C_SPILLS;
	}
	if (en->walinspect && pg_sample_fpi(en)) {
		c->v[C_FPI_BYTES] = en->fpi_bytes;
		c->v[C_FPI_GAPS] = en->fpi_gaps;
		c->valid |= 1u << C_FPI_BYTES | 1u << C_FPI_GAPS;
	}
	if (en->buffercache && sample_buffers(en, e) < 0)
		return -1;
	if (en->bc_t) {
		c->v[C_CACHE_USED] = en->bc_used * 8192;
		c->v[C_CACHE_DIRTY] = en->bc_dirty * 8192;
		c->v[C_CACHE_MAX] = (uint64_t)en->shared_buffers;
		c->valid |= 1u << C_CACHE_USED | 1u << C_CACHE_DIRTY | 1u << C_CACHE_MAX;
	}
	if (en->has_server_io && proc_tree_sample(&en->tree, &io) == 0) {
		c->v[C_WCHAR] = io.wchar;
		c->v[C_WRITE_BYTES] = io.write_bytes;
		c->valid |= 1u << C_WCHAR | 1u << C_WRITE_BYTES;
	}
	return 0;
}

/* End of a step: make the lagging statistics and the WAL settle. */
int pg_settle(struct engine *en, struct err *e)
{
	PGresult *res;

	res = pg_pipeline_query(en, "SELECT pg_stat_force_next_flush()", 0, NULL, e);
	if (!res)
		return -1;
	PQclear(res);
	return 0;
}

int pg_sizes(struct engine *en, struct sizes *s, struct err *e)
{
	PGresult *res;
	int i;

	memset(s, 0, sizeof *s);
	s->db_bytes = s->index_bytes = -1;
	res = pg_pipeline_query(
	    en,
	    "SELECT pg_total_relation_size('idxlab.idxlab_t'), "
	    "coalesce(sum(pg_relation_size(c.oid)) FILTER (WHERE c.relname "
	    "LIKE 'idxlab\\_k_'), 0), "
	    "coalesce(string_agg((pg_relation_size(c.oid) / 8192)::text, ';' "
	    "ORDER BY c.relname) FILTER (WHERE c.relname LIKE 'idxlab\\_k_'), '') "
	    "FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
	    "WHERE i.indrelid = 'idxlab.idxlab_t'::regclass",
	    0, NULL, e);
	if (!res)
		return -1;
	s->db_bytes = (int64_t)pg_to_u64(PQgetvalue(res, 0, 0));
	s->index_bytes = (int64_t)pg_to_u64(PQgetvalue(res, 0, 1));
	{
		const char *p = PQgetvalue(res, 0, 2);

		for (i = 0; *p && i < SIZES_MAX_INDEXES; i++) {
			s->index_pages[i] = strtoll(p, (char **)&p, 10);
			if (*p == ';')
				p++;
			s->nindex = i + 1;
		}
	}
	PQclear(res);
	return 0;
}
