/* driver.c - the PostgreSQL engine's vtable (postgres_engine): open (the
 * throwaway server or the user's, the session), setup (the table, its load,
 * its indexes, the measurement's start at a checkpoint), apply (the knobs
 * that change between steps: cache, sync, fillfactor, indexes, the
 * operation), rewrite, close (the clean-up of what idxlab made), and the
 * session again after a restart (reconnect). The rest is in the files
 * internal.h lists. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../clock.h"
#include "../../evlog.h"
#include "../../mix.h"
#include "../../units.h"
#include "cluster.h"
#include "internal.h"

/* where() of a throwaway server: then its directory. */
#define THROWAWAY_WHERE "throwaway server in "

/* DROP SCHEMA idxlab failed (e): what stays, and the SQL that removes it.
 * Extensions there were there before this run (an older idxlab created
 * them in its schema): idxlab drops only what it created in this run. */
static void say_schema_stays(struct engine *en, const struct err *e)
{
	char drop[512], why[300];
	struct err q = { ERR_NONE, "" };

	if (pg_query_text(en,
	                  "SELECT coalesce(string_agg(format('DROP EXTENSION %I;', extname), ' ' "
	                  "ORDER BY extname), '') FROM pg_extension WHERE extnamespace = "
	                  "(SELECT oid FROM pg_namespace WHERE nspname = 'idxlab')",
	                  drop, sizeof drop, &q) < 0)
		drop[0] = 0;
	if (*drop)
		evlog_add(EV_WARN,
		          "schema idxlab stays on the server: it holds extensions that were there "
		          "before this run, which idxlab leaves as they were: %s DROP SCHEMA "
		          "idxlab; removes it",
		          drop);
	else
		evlog_add(EV_WARN, "schema idxlab stays on the server (%s)",
		          pg_trim(e->msg, why, sizeof why));
}

static void pg_close(struct engine *en)
{
	if (!en)
		return;
	if (en->conn && PQstatus(en->conn) == CONNECTION_OK && !en->cluster && en->claimed &&
	    !en->unanswered) {
		struct err e = { ERR_NONE, "" };

		/* Leave the user's server as we found it - only ever after the
		 * schema was found to be idxlab's own (claimed). After a stop
		 * these are bounded too (await), but never cancelled. */
		en->closing = 1;
		if (en->pipeline)
			(void)pg_leave_pipeline(en, &e);
		if (PQtransactionStatus(en->conn) != PQTRANS_IDLE)
			(void)pg_exec(en, "ROLLBACK", &e);
		(void)pg_exec(en, "DROP TABLE IF EXISTS idxlab.idxlab_t", &e);
		if (pg_exec(en, "DROP SCHEMA IF EXISTS idxlab", &e) < 0)
			say_schema_stays(en, &e);
	}
	PQfinish(en->conn);
	if (en->cluster) {
		uint64_t t0 = clock_now_ns();
		double rm;
		int left = pg_cluster_stop(en->cluster, &rm) < 0;

		evlog_add(
		    EV_INFO,
		    "postgres: throwaway server stopped%s in %.2f s (%.2f s of it deleting its "
		    "directory)%s",
		    left ? "" : " and removed", (double)(clock_now_ns() - t0) / 1e9, rm,
		    left ? "; some of its directory stays (said above)" : "");
	}
	free(en->pend);
	free(en->held);
	free(en->payload);
	free(en->pv);
	pg_load_free(en);
	pg_proto_free(en);
	free(en);
}

static int pg_open(struct engine **out, const struct knobs *k, struct txn *t,
                   const atomic_int *stop, struct err *e)
{
	struct engine *en = calloc(1, sizeof *en);

	*out = NULL;
	if (!en)
		abort();
	en->stop = stop;
	en->k = *k;
	en->txn = t;
	en->rs = t->rs;
	txn_init(t, en, t->rs, &pg_txn_hooks);
	if (!k->dsn || !*k->dsn) {
		uint64_t t0 = clock_now_ns();

		if (pg_cluster_start(&en->cluster, k->v[K_CACHE], e) < 0) {
			pg_close(en);
			return -1;
		}
		en->t_started = clock_now_ns() - t0;
		snprintf(en->conninfo, sizeof en->conninfo, "%s", pg_cluster_conninfo(en->cluster));
		snprintf(en->where, sizeof en->where, THROWAWAY_WHERE "%s",
		         pg_cluster_dir(en->cluster));
	} else {
		snprintf(en->conninfo, sizeof en->conninfo, "%s", k->dsn);
	}
	{
		uint64_t t0 = clock_now_ns();

		if (pg_connect_to(en, en->conninfo, e) < 0 || pg_start_session(en, e) < 0) {
			pg_close(en);
			return -1;
		}
		if (en->cluster)
			evlog_add(
			    EV_INFO,
			    "postgres: throwaway server (%s) up in %.2f s, first query %.2f s "
			    "later",
			    pg_cluster_bindir(en->cluster), (double)en->t_started / 1e9,
			    (double)(clock_now_ns() - t0) / 1e9);
	}
	if (!en->cluster)
		snprintf(en->where, sizeof en->where, "%s:%s/%s (schema idxlab)",
		         *PQhost(en->conn) == '/' ? "socket" : PQhost(en->conn), PQport(en->conn),
		         PQdb(en->conn));
	*out = en;
	return 0;
}

static int set_session(struct engine *en, const struct knobs *k, struct err *e)
{
	return pg_exec(en,
	               k->v[K_SYNC] == SYNC_OFF ? "SET synchronous_commit = off"
	                                        : "SET synchronous_commit = on",
	               e);
}

/* A new connection to the throwaway server, after a restart: the session's
 * state as the old one had it (settings, sync, the prepared statement,
 * the figures read from the server). The one place that sets it up again. */
static int reconnect(struct engine *en, struct err *e)
{
	if (pg_connect_to(en, en->conninfo, e) < 0 || pg_read_shared_buffers(en, e) < 0 ||
	    set_session(en, &en->k, e) < 0 || (en->prepared && pg_prepare_statement(en, e) < 0))
		return -1;
	pg_find_server_processes(en);
	en->bc_t = 0; /* a new buffer pool */
	return 0;
}

/* shared_buffers = cache: restart a throwaway server; a user's is read-only. */
static int set_cache(struct engine *en, const struct knobs *k, struct err *e)
{
	long long want = k->v[K_CACHE];
	char size[32]; /* in idxlab's units, as --cache reads: KiB, MiB */

	if (want / 8192 == en->shared_buffers / 8192)
		return 0;
	if (!en->cluster) {
		units_format_size(en->shared_buffers, size, sizeof size);
		evlog_add(EV_WARN, "cache is read-only on your server: shared_buffers stays %s",
		          size);
		return 0;
	}
	units_format_size(want, size, sizeof size);
	evlog_add(EV_INFO, "restarting the throwaway server with shared_buffers = %s", size);
	PQfinish(en->conn);
	en->conn = NULL;
	en->pipeline = 0;
	return pg_cluster_restart(en->cluster, want, e) < 0 ? -1 : reconnect(en, e);
}

static int pg_setup(struct engine *en, const struct knobs *k, struct err *e)
{
	en->k = *k;
	en->txn->deferred = pg_pipelined(en); /* a write's result comes later */
	en->s = schema_of(k);
	en->txn->open = 0;
	en->npend = 0;
	en->rd_seen = 0; /* a new table: its statistics start afresh */
	/* The statement is made again for this table below: a restart on the
	 * way (the cache) must not prepare the old one on the new spec. */
	en->prepared = 0;
	pg_set_payload(en, k->v[K_PAYLOAD]);
	if (en->cluster && !pg_cluster_alive(en->cluster)) {
		evlog_add(EV_WARN, "the throwaway server had died: starting it again");
		PQfinish(en->conn);
		en->conn = NULL;
		if (pg_cluster_restart(en->cluster, k->v[K_CACHE], e) < 0 || reconnect(en, e) < 0)
			return -1;
	}
	if (pg_leave_pipeline(en, e) < 0)
		return -1;
	if (PQtransactionStatus(en->conn) != PQTRANS_IDLE && pg_exec(en, "ROLLBACK", e) < 0)
		return -1;
	if (set_cache(en, k, e) < 0 || set_session(en, k, e) < 0)
		return -1;
	pg_carry_table_counters(en);
	if (pg_quote_names(en, e) < 0 || pg_create_table(en, e) < 0)
		return -1;
	return 0;
}

/* The prefill: one COPY, then its statistics and visibility map. */
static int pg_prefill(struct engine *en, uint64_t rows, struct err *e)
{
	if (pg_load(en, rows, e) < 0)
		return -1;
	return pg_exec(en, "VACUUM (ANALYZE) idxlab.idxlab_t", e) < 0 ? -1 : 0;
}

static int pg_ready(struct engine *en, const struct knobs *k, uint64_t rows, struct err *e)
{
	char lsn[32];
	int i;

	(void)rows;
	if (pg_set_indexes(en, 0, k->v[K_INDEXES], 0, e) < 0)
		return -1;
	/* Touch the catalogs our sampling reads, so their pruning after the DDL
	 * above is logged now, not inside the measurement. */
	{
		struct counters c;
		struct sizes sz;

		memset(&c, 0, sizeof c);
		if (pg_sample(en, &c, e) < 0 || pg_sizes(en, &sz, e) < 0)
			return -1;
	}
	/* Start the measurement from a checkpoint, like the published runs. */
	if (en->superuser && pg_exec(en, "CHECKPOINT", e) < 0)
		return -1;
	if (pg_prepare_op(en, e) < 0)
		return -1;
	/* The set-up's own statistics must land before the measurement starts,
	 * and full-page images are counted from here on: the checkpoint above
	 * may have recycled the WAL of the set-up. */
	if (pg_settle(en, e) < 0 ||
	    pg_query_text(en, "SELECT pg_current_wal_insert_lsn() - '0/0'::pg_lsn", lsn, sizeof lsn,
	                  e) < 0)
		return -1;
	en->fpi_lsn = pg_to_u64(lsn);
	en->fpi_flush = 0;
	/* Background records (a checkpoint's running-transactions note) may
	 * follow: let the full-page-image count catch up before the
	 * measurement starts (set-up time, not measured; at most 1 s). */
	for (i = 0; en->walinspect && i < 50; i++) {
		if (pg_query_text(en, "SELECT pg_current_wal_insert_lsn() - '0/0'::pg_lsn", lsn,
		                  sizeof lsn, e) < 0)
			return -1;
		en->lsn_now = pg_to_u64(lsn);
		if (pg_sample_fpi(en))
			break;
		usleep(20000);
	}
	return pg_enter_pipeline(en, e);
}

static int pg_apply(struct engine *en, const struct knobs *k, struct err *e)
{
	const struct knobs old = en->k;
	char sql[320];

	if (en->txn->open)
		return err_set(e, ERR_RUNTIME, "apply inside a transaction (a bug in idxlab)");
	en->k = *k;
	en->txn->deferred = pg_pipelined(en);
	en->s = schema_of(k); /* the same spec: another is a rebuild (setup) */
	if (pg_leave_pipeline(en, e) < 0)
		return -1;
	if (old.v[K_CACHE] != k->v[K_CACHE] && set_cache(en, k, e) < 0)
		return -1;
	if (old.v[K_SYNC] != k->v[K_SYNC] && set_session(en, k, e) < 0)
		return -1;
	if (old.v[K_FILLFACTOR] != k->v[K_FILLFACTOR]) {
		/* a partitioned table's storage is its partitions' (part.c) */
		snprintf(sql, sizeof sql,
		         en->s->part.kind == PART_NONE
		             ? "ALTER TABLE idxlab.idxlab_t SET (fillfactor = %lld)"
		             : "DO $$DECLARE r regclass; BEGIN FOR r IN SELECT relid FROM "
		               "pg_partition_tree('idxlab.idxlab_t') WHERE isleaf LOOP EXECUTE "
		               "format('ALTER TABLE %%s SET (fillfactor = %lld)', r); END LOOP; "
		               "END$$",
		         k->v[K_FILLFACTOR]);
		if (pg_exec(en, sql, e) < 0)
			return -1;
		evlog_add(EV_INFO,
		          "fillfactor %lld applies to new pages only: rewrite the table "
		          "(key W) to repack the pages that exist",
		          k->v[K_FILLFACTOR]);
	}
	if (old.v[K_INDEXES] != k->v[K_INDEXES] &&
	    pg_set_indexes(en, old.v[K_INDEXES], k->v[K_INDEXES], 1, e) < 0)
		return -1;
	if (old.v[K_PAYLOAD] != k->v[K_PAYLOAD])
		pg_set_payload(en, k->v[K_PAYLOAD]);
	/* a read's plan changes with the indexes: its queries are planned again */
	if (old.v[K_OP] != k->v[K_OP] || old.v[K_SEED] != k->v[K_SEED] ||
	    old.v[K_KEY_ORDER] != k->v[K_KEY_ORDER] || old.v[K_MIX] != k->v[K_MIX] ||
	    old.v[K_READ_SHARE] != k->v[K_READ_SHARE] ||
	    ((OP_READS(k->v[K_OP]) || mix_of(k, NULL)) &&
	     (old.v[K_INDEXES] != k->v[K_INDEXES] || old.v[K_MISS] != k->v[K_MISS] ||
	      old.v[K_RANGE_ROWS] != k->v[K_RANGE_ROWS]))) {
		if (pg_prepare_op(en, e) < 0)
			return -1;
	} else if ((old.v[K_LOAD] != k->v[K_LOAD] ||
	            (k->v[K_LOAD] == LOAD_MULTIROW &&
	             (old.v[K_COMMIT] != k->v[K_COMMIT] || old.v[K_ROWS] != k->v[K_ROWS]))) &&
	           pg_prepare_statement(en, e) < 0) {
		return -1; /* the load's statements and hooks (load.c) */
	}
	return pg_enter_pipeline(en, e);
}

/* Run a VACUUM (cmd) on idxlab_t, outside the pipeline; said as done. */
static int vacuum(struct engine *en, const char *cmd, const char *done, struct err *e)
{
	uint64_t t0 = clock_now_ns();
	char sql[64];

	if (en->txn->open)
		return err_set(e, ERR_RUNTIME, "%s inside a transaction (a bug in idxlab)", cmd);
	snprintf(sql, sizeof sql, "%s idxlab.idxlab_t", cmd);
	if (pg_exec(en, sql, e) < 0 || pg_enter_pipeline(en, e) < 0)
		return -1;
	evlog_add(EV_INFO, "%s idxlab_t (%s) in %.2f s", done, cmd,
	          (double)(clock_now_ns() - t0) / 1e9);
	return 0;
}

/* Rewrite: repack the table with its fillfactor. */
static int pg_rewrite(struct engine *en, struct err *e)
{
	return vacuum(en, "VACUUM FULL", "rewrote", e);
}

/* --vacuum: a plain VACUUM, what autovacuum would run: the dead rows'
 * index entries go, each index scanned once (its WAL is the bill). */
static int pg_reclaim(struct engine *en, struct err *e)
{
	return vacuum(en, "VACUUM", "vacuumed", e);
}

/* shared_buffers as the server has it: a server of the user's keeps its own. */
static void pg_in_force(struct engine *en, struct knobs *k)
{
	if (en->shared_buffers > 0)
		k->v[K_CACHE] = en->shared_buffers;
}

static const char *pg_where(struct engine *en)
{
	return en->where;
}

static int pg_where_own(const char *where)
{
	return strncmp(where, THROWAWAY_WHERE, strlen(THROWAWAY_WHERE)) == 0;
}

static const char *pg_version(void)
{
	static char buf[64];

	snprintf(buf, sizeof buf, "libpq %d.%d", PQlibVersion() / 10000, PQlibVersion() % 100);
	return buf;
}

/* What differs from knob_table[]'s defaults on this engine. */
static const struct knob_default pg_defaults[] = {
	{ K_CACHE, "128MiB" },
	{ 0, NULL },
};

/* The engine-specific knobs (KF_ENGINE_OWN) this engine honours. */
static const int pg_own_knobs[] = { K_FILLFACTOR, K_PROTOCOL, K_PIPELINE, -1 };

const struct engine_ops postgres_engine = {
	.reads_source = pg_reads_source,
	.read_shape = pg_read_shape,
	.defaults = pg_defaults,
	.own_knobs = pg_own_knobs,
	.table_specs = 1,
	.loads = 1u << LOAD_MULTIROW | 1u << LOAD_COPY,
	.version = pg_version,
	.open = pg_open,
	.setup = pg_setup,
	.load = pg_prefill,
	.ready = pg_ready,
	.apply = pg_apply,
	.rewrite = pg_rewrite,
	.reclaim = pg_reclaim,
	.step_start = pg_step_start,
	.finish_start = pg_finish_start,
	.finish_end = pg_finish_end,
	.sample = pg_sample,
	.stats = { &pg_stats },
	/* the reads' rows examined and pages read: idxlab_t's statistics (reads.c) */
	.measures_more = 1u << C_READ_EXAMINED | 1u << C_READ_PAGES,
	.sample_sets = 1u << C_READ_EXAMINED | 1u << C_READ_PAGES, /* n/a in some mixes */
	.sizes = pg_sizes,
	.settle = pg_reads_settle, /* the plan after the step (reads.c) */
	.reads = pg_reads,
	.in_force = pg_in_force,
	.where = pg_where,
	.figure = M_WAL_BYTES_PER_ROW, /* what each index adds to the WAL */
	.own_place = "idxlab's own throwaway server",
	.where_own = pg_where_own,
	.close = pg_close,
};
