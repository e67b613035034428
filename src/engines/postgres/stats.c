/* stats.c - the engine's counters (man idxlab, OUTPUT FIELDS) and sizes.
 *
 * One query reads the server's statistics, its columns as one table says
 * (stat_table: each column's source and the counter it feeds); besides it
 *   spills      pg_stat_statements' writes less the relations' growth
 *               (sample_spills)
 *   fpi_bytes   pg_walinspect over the flushed WAL (pg_sample_fpi)
 *   cache_*     pg_buffercache, at most once a second (sample_buffers)
 *   wchar, write_bytes  /proc io of the server's processes (proc_tree)
 *   fsyncs, bg_syncs, forced_syncs  the throwaway server's WAL syncs by
 *               who made them (walsync.c; server_syncs is pg_stat_wal's)
 * Per-table counters restart with every new table and are carried over
 * (pg_carry_table_counters). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../clock.h"
#include "../../evlog.h"
#include "../../probes/proc_tree.h"
#include "internal.h"

/* The statistics idxlab reads, each from one source (below). */
enum pg_stat {
	S_WAL_LSN,
	S_WAL_SYNC,
	S_CHECKPOINT_LSN,
	S_FLUSH_LSN,
	S_REDO_LSN,
	S_TUP_UPD,
	S_TUP_HOT_UPD,
	S_BLKS_READ,
	S_SPILLS,
	S_FPI_BYTES,
	S_FPI_GAPS,
	S_CACHE_USED,
	S_CACHE_DIRTY,
	S_CACHE_MAX,
	S_WCHAR,
	S_WRITE_BYTES,
	S_SYNC_COMMIT,
	S_SYNC_BG,
	S_SYNC_OTHER,
	S_COUNT
};

/* Where a statistic comes from: each source is read once a sample, by its
 * reader (readers[] below), in this order; one that is not usable (no
 * extension, no access) or not current leaves its counters n/a. */
enum pg_source {
	SRC_SERVER,      /* one query: pg_stat_wal, pg_control_checkpoint(), pg_stat*_user_tables */
	SRC_STATEMENTS,  /* pg_stat_statements and the relations' sizes (sample_spills) */
	SRC_WALINSPECT,  /* pg_walinspect over the flushed WAL (pg_sample_fpi) */
	SRC_BUFFERCACHE, /* pg_buffercache (sample_buffers) */
	SRC_PROC_IO,     /* /proc io of the server's processes (proc_tree) */
	SRC_WALSYNC,     /* the throwaway server's WAL sync counter (walsync.c) */
	SRC_COUNT
};

/* What the counter is of a column's value. */
enum pg_how {
	HOW_VALUE,       /* the value itself */
	HOW_SINCE_START, /* less its value at the first session's start (en->lsn0) */
	HOW_PER_TABLE,   /* restarts with every new table: carried over */
	HOW_CHANGES,     /* the times it changed (note_checkpoint) */
};

/* The FROM of SRC_SERVER's query, whose columns are the table's. */
#define SERVER_FROM                                                                                \
	"FROM pg_stat_wal w, pg_control_checkpoint() k "                                           \
	"LEFT JOIN (SELECT sum(n_tup_upd + pg_stat_get_xact_tuples_updated(relid)) AS upd, "       \
	"sum(n_tup_hot_upd + pg_stat_get_xact_tuples_hot_updated(relid)) AS hot FROM "             \
	"pg_stat_user_tables WHERE relid IN " TABLE_TREE ") t ON true "                            \
	"LEFT JOIN (SELECT sum(heap_blks_read) AS heap, sum(idx_blks_read) AS idx FROM "           \
	"pg_statio_user_tables WHERE relid IN " TABLE_TREE ") s ON true"

/* Each statistic: the counter it feeds (C_COUNT: none, it is read for
 * another's sake), its source, and for SRC_SERVER its column. */
static const struct {
	enum ctr counter;
	enum pg_source source;
	const char *column;
	enum pg_how how;
} stat_table[S_COUNT] = {
	/* WAL bytes: insert LSN deltas, live, mid-transaction too */
	[S_WAL_LSN] = { .counter = C_WAL_BYTES,
	                .source = SRC_SERVER,
	                .column = "pg_current_wal_insert_lsn() - '0/0'::pg_lsn",
	                .how = HOW_SINCE_START },
	/* every WAL sync of the server's, of every process and session */
	[S_WAL_SYNC] = { .counter = C_SERVER_SYNCS, .source = SRC_SERVER, .column = "w.wal_sync" },
	[S_CHECKPOINT_LSN] = { .counter = C_CHECKPOINTS,
	                       .source = SRC_SERVER,
	                       .column = "k.checkpoint_lsn - '0/0'::pg_lsn",
	                       .how = HOW_CHANGES },
	/* the WAL flushed: no full-page-image look while it stands still */
	[S_FLUSH_LSN] = { .counter = C_COUNT,
	                  .source = SRC_SERVER,
	                  .column = "pg_current_wal_flush_lsn() - '0/0'::pg_lsn" },
	/* the last checkpoint's redo point, for the full-page-image count */
	[S_REDO_LSN] = { .counter = C_COUNT,
	                 .source = SRC_SERVER,
	                 .column = "k.redo_lsn - '0/0'::pg_lsn" },
	/* Updates, live: the shared counts (which a backend's own updates
	 * reach in lumps, at most once a second after a transaction ends) plus
	 * what this backend holds back (pg_stat_get_xact_*: the updates of
	 * its ended transactions not yet flushed and of the open one). It
	 * flushes only between statements, so the sum is exact. */
	[S_TUP_UPD] = { .counter = C_UPDATES,
	                .source = SRC_SERVER,
	                .column = "coalesce(t.upd, 0)",
	                .how = HOW_PER_TABLE },
	[S_TUP_HOT_UPD] = { .counter = C_HOT_UPDATES,
	                    .source = SRC_SERVER,
	                    .column = "coalesce(t.hot, 0)",
	                    .how = HOW_PER_TABLE },
	[S_BLKS_READ] = { .counter = C_MISSES,
	                  .source = SRC_SERVER,
	                  .column = "coalesce(s.heap, 0) + coalesce(s.idx, 0)",
	                  .how = HOW_PER_TABLE },
	[S_SPILLS] = { .counter = C_SPILLS, .source = SRC_STATEMENTS },
	[S_FPI_BYTES] = { .counter = C_FPI_BYTES, .source = SRC_WALINSPECT },
	[S_FPI_GAPS] = { .counter = C_FPI_GAPS, .source = SRC_WALINSPECT },
	/* gauges */
	[S_CACHE_USED] = { .counter = C_CACHE_USED, .source = SRC_BUFFERCACHE },
	[S_CACHE_DIRTY] = { .counter = C_CACHE_DIRTY, .source = SRC_BUFFERCACHE },
	[S_CACHE_MAX] = { .counter = C_CACHE_MAX, .source = SRC_BUFFERCACHE },
	[S_WCHAR] = { .counter = C_WCHAR, .source = SRC_PROC_IO },
	[S_WRITE_BYTES] = { .counter = C_WRITE_BYTES, .source = SRC_PROC_IO },
	/* the same syncs by who made them: fsync/c is the commits' alone */
	[S_SYNC_COMMIT] = { .counter = C_FSYNCS, .source = SRC_WALSYNC },
	[S_SYNC_BG] = { .counter = C_BG_SYNCS, .source = SRC_WALSYNC },
	[S_SYNC_OTHER] = { .counter = C_FORCED_SYNCS, .source = SRC_WALSYNC },
};

/* Per-table counters of the current table, carried over before a drop. */
void pg_carry_table_counters(struct engine *en)
{
	for (int i = 0; i < S_COUNT; i++) {
		enum ctr c = stat_table[i].counter;

		if (stat_table[i].how != HOW_PER_TABLE)
			continue;
		en->table_acc[c] += en->table_last[c];
		en->table_last[c] = 0;
	}
}

/* Full-page-image bytes of the WAL flushed since the last look, from
 * pg_walinspect; 1 when the count is current. Every sample looks, inside
 * the workload's transaction too: under a savepoint (pg_pipeline_try), so
 * a failed look costs nothing (the WAL may end inside a record that is
 * still being written: walinspect then finds no record; we look again
 * later). The next look starts where the last record seen ended, on a
 * record boundary. WAL not yet flushed (synchronous_commit off, or the
 * open transaction's last records, which the WAL writer flushes in whole
 * pages every wal_writer_delay) is counted in a later window: PostgreSQL
 * 15's pg_walinspect reads no further, and no read-only statement makes
 * the server flush. A commit with sync on flushes everything before it,
 * so a step's total is exact. A checkpoint
 * since the last look may have removed the WAL from there on (a look that
 * kept failing): what it held is lost, so the count goes on from the
 * checkpoint's redo point and fpi_gaps makes the windows around the loss
 * n/a, with the reason in the event log. */
/* The look itself, from start. pg_get_wal_records_info materialises a row
 * per record, which the server spills to temp files (150 MB for a 200k-row
 * step at 4 indexes): writes of idxlab's own, in the server's write()
 * bytes. So the sum comes from pg_get_wal_stats (a row per resource
 * manager), and only the end of the last whole record (where the next look
 * starts: a record may straddle the flush point) from a short tail of
 * records; with a tail, a third column is the flush point (NULL: nothing
 * new), so a tail in which no record ends (a longer record) can be told
 * from nothing new. Tail 0 reads all records instead (no record end in the
 * longest tail, or an older pg_walinspect). */
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
		         "(SELECT t.e - '0/0'::pg_lsn FROM t), (SELECT f.e - '0/0'::pg_lsn FROM f)",
		         fn, tail, schema, fn);
	else
		snprintf(sql, sizeof sql,
		         "SELECT coalesce(sum(fpi_length), 0), max(end_lsn) - '0/0'::pg_lsn "
		         "FROM %s($1::pg_lsn, nullif(greatest(pg_current_wal_flush_lsn(), "
		         "$1::pg_lsn), $1::pg_lsn))",
		         fn);
	return pg_pipeline_try(en, sql, 1, params, e);
}

/* A look from start with the shortest tail in which a whole record ends
 * (each longer one only when the last found new WAL but no record end in
 * it). NULL when a look failed. */
static PGresult *fpi_read(struct engine *en, const char *start, struct err *e)
{
	static const int tails[] = { FPI_TAIL, FPI_TAIL * 8, 0 };
	PGresult *res = NULL;

	for (size_t i = 0; i < sizeof tails / sizeof *tails; i++) {
		PQclear(res);
		res = fpi_look(en, start, tails[i], e);
		if (!res || !tails[i] || !PQgetisnull(res, 0, 1) || PQgetisnull(res, 0, 2))
			break;
	}
	return res;
}

/* The slot holds the WAL from fpi_lsn on: what was read may go. Should
 * that fail, the slot is given up (every sample looks again). */
static void hold_from(struct engine *en)
{
	char lsn[32];
	const char *params[2] = { en->fpi_slot, lsn };
	struct err ignore;
	PGresult *res;

	if (!en->fpi_slot[0])
		return;
	snprintf(lsn, sizeof lsn, "%X/%X", (unsigned)(en->fpi_lsn >> 32), (unsigned)en->fpi_lsn);
	res = pg_pipeline_try(en, "SELECT pg_replication_slot_advance($1, $2::pg_lsn)", 2, params,
	                      &ignore);
	if (!res)
		en->fpi_slot[0] = 0;
	PQclear(res);
}

int pg_sample_fpi(struct engine *en)
{
	char start[32], why[300];
	PGresult *res;
	struct err ignore;
	int ok;

	snprintf(start, sizeof start, "%X/%X", (unsigned)(en->fpi_lsn >> 32),
	         (unsigned)en->fpi_lsn);
	res = fpi_read(en, start, &ignore);
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
		res = fpi_read(en, start, &ignore);
	}
	if (!res && !en->unanswered && !(en->stop && atomic_load(en->stop)))
		res = fpi_look(en, start, 0, &ignore);
	ok = res != NULL;
	if (res && PQntuples(res) && !PQgetisnull(res, 0, 1)) {
		en->fpi_bytes += pg_to_u64(PQgetvalue(res, 0, 0));
		en->fpi_lsn = pg_to_u64(PQgetvalue(res, 0, 1));
		hold_from(en);
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
	char sql[2400];
	PGresult *res;
	uint64_t written, grown = 0, was, w;
	int i, n;

	snprintf(sql, sizeof sql,
	         "WITH r AS (SELECT c.relfilenode::bigint AS node, (pg_relation_size(c.oid, "
	         "'main') + pg_relation_size(c.oid, 'fsm') + pg_relation_size(c.oid, 'vm')) / "
	         "8192 AS blocks FROM pg_class c WHERE c.relfilenode <> 0 AND (c.oid IN " TABLE_TREE
	         " OR c.oid IN (SELECT indexrelid FROM pg_index WHERE indrelid IN " TABLE_TREE
	         ") OR c.oid IN (SELECT reltoastrelid FROM pg_class WHERE oid IN " TABLE_TREE
	         ") OR c.oid IN (SELECT indexrelid FROM pg_index WHERE indrelid IN "
	         "(SELECT reltoastrelid FROM pg_class WHERE oid IN " TABLE_TREE "))) "
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

/* SRC_SERVER: one query, its columns as stat_table says. */
static int read_server(struct engine *en, uint64_t v[S_COUNT], struct err *e)
{
	uint64_t raw[S_COUNT] = { 0 };
	char sql[1024];
	size_t n = 0;
	PGresult *res;
	int i, col;

	for (i = 0; i < S_COUNT; i++)
		if (stat_table[i].source == SRC_SERVER)
			n += (size_t)snprintf(sql + n, sizeof sql - n, "%s%s", n ? ", " : "SELECT ",
			                      stat_table[i].column);
	snprintf(sql + n, sizeof sql - n, " " SERVER_FROM);
	res = pg_pipeline_query(en, sql, 0, NULL, e);
	if (!res)
		return -1;
	for (i = col = 0; i < S_COUNT; i++)
		if (stat_table[i].source == SRC_SERVER)
			raw[i] = pg_to_u64(PQgetvalue(res, 0, col++));
	PQclear(res);
	en->lsn_now = raw[S_WAL_LSN];
	en->flush_now = raw[S_FLUSH_LSN];
	note_checkpoint(en, raw[S_CHECKPOINT_LSN], raw[S_REDO_LSN]);
	for (i = 0; i < S_COUNT; i++) {
		enum ctr c = stat_table[i].counter;

		if (stat_table[i].source != SRC_SERVER)
			continue;
		switch (stat_table[i].how) {
		case HOW_VALUE:
			v[i] = raw[i];
			break;
		case HOW_SINCE_START:
			v[i] = raw[i] - en->lsn0;
			break;
		case HOW_PER_TABLE:
			en->table_last[c] = raw[i];
			v[i] = en->table_acc[c] + raw[i];
			break;
		case HOW_CHANGES:
			v[i] = en->checkpoints;
			break;
		}
	}
	return 1;
}

static int read_statements(struct engine *en, uint64_t v[S_COUNT], struct err *e)
{
	if (!en->statements)
		return 0;
	if (sample_spills(en, e) < 0)
		return -1;
	v[S_SPILLS] = en->spills;
	return 1;
}

/* No look when no WAL was flushed since the last one began (read_server
 * read the flush point just before): the count is current as it stands. */
/* A sample that does not want the full-page-image count (a headless
 * step's mid-step samples: counters.want) skips the look, which reads all
 * the WAL since the last one (~0.35 s of the server's per 1M COPY rows,
 * with the COPY ended), while a slot holds that WAL (fpi_hold_wal): the
 * next look counts it, the closing sample's at the latest, outside the
 * step's window. */
static int read_walinspect(struct engine *en, uint64_t v[S_COUNT], struct err *e)
{
	(void)e; /* a failed look is not an error (pg_sample_fpi) */
	if (!en->walinspect)
		return 0;
	if (en->want && !(en->want & (1u << C_FPI_BYTES)) && en->fpi_slot[0])
		return 0;
	if (!en->fpi_flush || en->flush_now != en->fpi_flush) {
		if (!pg_sample_fpi(en))
			return 0;
		en->fpi_flush = en->flush_now;
	}
	v[S_FPI_BYTES] = en->fpi_bytes;
	v[S_FPI_GAPS] = en->fpi_gaps;
	return 1;
}

/* The last reading stands between readings (at most one a second). */
static int read_buffercache(struct engine *en, uint64_t v[S_COUNT], struct err *e)
{
	if (en->buffercache && sample_buffers(en, e) < 0)
		return -1;
	if (!en->bc_t)
		return 0;
	v[S_CACHE_USED] = en->bc_used * 8192;
	v[S_CACHE_DIRTY] = en->bc_dirty * 8192;
	v[S_CACHE_MAX] = (uint64_t)en->shared_buffers;
	return 1;
}

static int read_proc_io(struct engine *en, uint64_t v[S_COUNT], struct err *e)
{
	struct proc_io io;

	(void)e;
	if (!en->has_server_io || proc_tree_sample(&en->tree, &io) != 0)
		return 0;
	v[S_WCHAR] = io.wchar;
	v[S_WRITE_BYTES] = io.write_bytes;
	return 1;
}

/* The WAL syncs by who made them, counted inside the throwaway server (a
 * server of the user's, --dsn, has no counter: n/a). Read after the
 * server's query, which waited for the statements before it: their
 * syncs are in. */
static int read_walsync(struct engine *en, uint64_t v[S_COUNT], struct err *e)
{
	uint64_t ws[PG_WALSYNC_COUNT];

	(void)e;
	if (!pg_cluster_walsync(en->cluster, ws))
		return 0;
	v[S_SYNC_COMMIT] = ws[PG_WALSYNC_COMMIT];
	v[S_SYNC_BG] = ws[PG_WALSYNC_WALWRITER];
	v[S_SYNC_OTHER] = ws[PG_WALSYNC_OTHER];
	return 1;
}

/* Each source's reader: 1 when its statistics are current, 0 when n/a,
 * -1 on an error (e says). */
static int (*const readers[SRC_COUNT])(struct engine *, uint64_t[S_COUNT], struct err *) = {
	[SRC_SERVER] = read_server,         [SRC_STATEMENTS] = read_statements,
	[SRC_WALINSPECT] = read_walinspect, [SRC_BUFFERCACHE] = read_buffercache,
	[SRC_PROC_IO] = read_proc_io,       [SRC_WALSYNC] = read_walsync,
};

int pg_sample(struct engine *en, struct counters *c, struct err *e)
{
	uint64_t v[S_COUNT] = { 0 };
	int got[SRC_COUNT], i;

	en->want = c->want;
	if (pg_reads_sample(en, c, e) < 0)
		return -1;
	for (i = 0; i < SRC_COUNT; i++)
		if ((got[i] = readers[i](en, v, e)) < 0)
			return -1;
	for (i = 0; i < S_COUNT; i++) {
		enum ctr ctr = stat_table[i].counter;

		if (ctr == C_COUNT || !got[stat_table[i].source])
			continue;
		c->v[ctr] = v[i];
		c->valid |= 1u << ctr;
	}
	return 0;
}

const struct engine_stats pg_stats = ENGINE_STATS(stat_table, counter);

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
	if (!*en->sizes_sql)
		return 0; /* no table yet */
	res = pg_pipeline_query(en, en->sizes_sql, 0, NULL, e);
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
