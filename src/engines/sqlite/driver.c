/* driver.c - the SQLite engine (embedded, the zero-setup default): its ops.
 *
 * By default the database lives in a fresh temp dir
 * $TMPDIR/idxlab-sqlite.XXXXXX (tmpdir.h) that close() removes (and that
 * the next start removes if idxlab was killed); with --dsn FILE it lives in
 * FILE, which must be new or a file idxlab made, one idxlab at a time
 * (dsn_file.c).
 *
 * idxlab_t is the table spec's (schema.h; schema.c builds it). Each step
 * starts from a fresh idxlab_t: the temp file is deleted and
 * recreated; a --dsn file has its idxlab_t dropped and is vacuumed. Prefill
 * runs in one transaction with a large cache and the indexes are built after
 * it; then the step's cache size is set and its counters are absorbed, so
 * the measured window sees only the measured rows. The other files of the
 * engine are listed in sqlite_int.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../evlog.h"
#include "../../probes/fs_kind.h"
#include "../../probes/sync_count.h"
#include "../../redact.h"
#include "../tmpdir.h"
#include "sqlite_int.h"
#include "vfs.h"
#include "../../mix.h"

#define PREFILL_CACHE_KIB 262144 /* 256 MiB while loading: the load is not measured */

static const struct tmpdir_kind sqlite_tmpdir = {
	.name = "sqlite",
	.what = "the SQLite database",
	.alt = "pass --dsn FILE",
};

static void log_cb(void *arg, int code, const char *msg)
{
	(void)arg;
	/* An index created or dropped under a prepared statement: SQLite logs
	 * "statement aborts at N: [...] database schema has changed", then
	 * prepares it again and runs it; nothing failed. */
	if ((code & 0xff) == SQLITE_SCHEMA) {
		evlog_add(EV_INFO, "sqlite: SQLITE_SCHEMA, routine: an index was built or dropped, "
		                   "the statement was prepared again and ran");
		return;
	}
	/* Recovered journals are routine too; say them quietly. */
	evlog_add((code & 0xff) == SQLITE_WARNING || (code & 0xff) == SQLITE_NOTICE ? EV_INFO
	                                                                            : EV_WARN,
	          "sqlite: %s (code %d)", msg, code);
}

static int open_db(struct engine *en, struct err *e)
{
	int rc = sqlite3_open_v2(en->path, &en->db,
	                         SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
	                         en->probes ? SQLITE_VFS_NAME : NULL);

	if (rc != SQLITE_OK)
		return sqlite_fail(en, e, "open");
	sqlite3_extended_result_codes(en->db, 1);
	sqlite3_progress_handler(en->db, 1 << 16, sqlite_progress_cb, en);
	/* The marker first: from now on the file is recognisably idxlab's. One
	 * transaction: one set of journal syncs, not two. */
	if (sqlite_run(en,
	               "BEGIN;"
	               "CREATE TABLE IF NOT EXISTS idxlab_meta(key TEXT PRIMARY KEY, value TEXT);"
	               "INSERT OR REPLACE INTO idxlab_meta VALUES('created_by', 'idxlab');"
	               "COMMIT;",
	               e) < 0)
		return -1;
	return 0;
}

static void remove_files(struct engine *en)
{
	static const char *const suffixes[] = { "", "-journal", "-wal", "-shm" };
	char p[PATH_MAX + 16];
	size_t i;

	for (i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
		snprintf(p, sizeof p, "%s%s", en->path, suffixes[i]);
		(void)unlink(p);
	}
}

/* 1 when the connection's journal mode is WAL (the dashboard may have
 * changed it since the open), else 0. */
static int sqlite_in_wal(sqlite3 *db)
{
	sqlite3_stmt *st = NULL;
	int wal = 0;

	if (sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW) {
		const unsigned char *mode = sqlite3_column_text(st, 0);

		wal = mode && strcmp((const char *)mode, "wal") == 0;
	}
	sqlite3_finalize(st);
	return wal;
}

static void sqlite_close(struct engine *en)
{
	if (!en)
		return;
	sqlite_free_writes(en);
	sqlite_free_reads(en);
	sqlite_multirow_free(en);
	/* A failed or stopped step may leave a transaction open: end it so the
	 * file is left consistent and its journal removed. */
	if (en->db && !sqlite3_get_autocommit(en->db))
		(void)sqlite3_exec(en->db, "ROLLBACK", NULL, NULL, NULL);
	if (en->db) {
		/* After the last record: in WAL mode the last connection to close
		 * checkpoints the WAL into the database and syncs both. */
		uint64_t before;
		int wal = sqlite_in_wal(en->db);

		before = sync_count_total();
		if (sqlite3_close(en->db) != SQLITE_OK)
			evlog_add(EV_WARN, "sqlite: close: %s", sqlite3_errmsg(en->db));
		evlog_detail(
		    "sqlite: closed: %llu fsync+fdatasync calls while closing%s, %llu in all "
		    "since idxlab started",
		    (unsigned long long)(sync_count_total() - before),
		    wal ? " (the checkpoint of the WAL into the database)" : "",
		    (unsigned long long)sync_count_total());
	}
	tmpdir_remove(en->dir);
	sqlite_dsn_unlock(en);
	free(en->payload);
	free(en);
}

static int sqlite_open(struct engine **out, const struct knobs *k, struct txn *t,
                       const atomic_int *stop, struct err *e)
{
	static int configured;
	struct engine *en;
	struct stat st;

	*out = NULL;
	if (!configured) {
		/* Must precede sqlite3_initialize(), which vfs_find triggers. */
		sqlite3_config(SQLITE_CONFIG_LOG, log_cb, NULL);
		/* No malloc statistics (idxlab never reads them): they take a global
		 * mutex around every sqlite3_malloc/free, and in a process with a
		 * second thread each one is a pair of locked instructions. */
		sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
		configured = 1;
	}
	en = calloc(1, sizeof *en);
	if (!en)
		abort();
	en->probes = (int)k->v[K_PROBES];
	en->stop = stop;
	en->lock_fd = -1;
	en->txn = t;
	en->rs = t->rs;
	txn_init(t, en, t->rs, &sqlite_txn_hooks);
	if (en->probes && sqlite_vfs_register() != SQLITE_OK) {
		free(en);
		return err_set(e, ERR_RUNTIME, "cannot register the counting VFS shim");
	}
	if (!k->dsn || !*k->dsn) {
		if (tmpdir_make(en->dir, sizeof en->dir, &sqlite_tmpdir, (uid_t)-1, e) < 0) {
			sqlite_close(en);
			return -1;
		}
		snprintf(en->path, sizeof en->path, "%s/idxlab.db", en->dir);
	} else if (redact_has_secret(k->dsn)) {
		/* A connection string: as a file name it would put the password on disk. */
		sqlite_close(en);
		return err_set(
		    e, ERR_USAGE,
		    "--dsn '%s' holds a password: SQLite takes a file name, not a "
		    "connection string - give a file name, or --engine postgres or mongo",
		    k->dsn);
	} else {
		snprintf(en->path, sizeof en->path, "%s", k->dsn);
		if (stat(en->path, &st) == 0) {
			if (!S_ISREG(st.st_mode)) {
				sqlite_close(en);
				return err_set(
				    e, ERR_USAGE,
				    "%s is not a regular file - give --dsn a new file name",
				    k->dsn);
			}
		} else if (errno != ENOENT) {
			int saved = errno;

			sqlite_close(en);
			return err_set(e, ERR_RUNTIME, "cannot use %s: %s", k->dsn,
			               strerror(saved));
		} else if (tmpdir_refuse_dangling(en->path, e) < 0) {
			sqlite_close(en);
			return -1;
		}
		/* The lock before the first read: a file another idxlab is
		 * writing looks foreign to an immutable read. */
		if (sqlite_dsn_lock(en, e) < 0 ||
		    (stat(en->path, &st) == 0 && sqlite_dsn_check(en->path, e) < 0)) {
			sqlite_close(en);
			return -1;
		}
	}
	if (open_db(en, e) < 0) {
		sqlite_close(en);
		return -1;
	}
	en->fresh = en->dir[0] != 0;
	{
		char dir[PATH_MAX];
		char *slash;

		snprintf(dir, sizeof dir, "%s", en->path);
		slash = strrchr(dir, '/');
		if (slash)
			*slash = 0;
		else
			snprintf(dir, sizeof dir, ".");
		fs_warn_if_memory(dir);
	}
	*out = en;
	return 0;
}

static int sqlite_setup(struct engine *en, const struct knobs *k, struct err *e)
{
	struct knobs load = *k;

	sqlite_free_writes(en);
	sqlite_free_reads(en);
	sqlite_multirow_free(en);
	en->txn->open = 0;
	en->k = *k;
	en->s = schema_of(k);
	en->fast = schema_fast_keys(en->s, k, &en->keys);
	sqlite_set_payload(en, k->v[K_PAYLOAD]);

	/* A fresh table: a fresh file in our temp dir (unless open() just made
	 * one), else drop + vacuum. */
	if (en->dir[0] && en->fresh) {
		en->fresh = 0;
	} else if (en->dir[0]) {
		sqlite_status_absorb(en);
		if (sqlite3_close(en->db) != SQLITE_OK)
			return sqlite_fail(en, e, "close");
		en->db = NULL;
		remove_files(en);
		if (open_db(en, e) < 0)
			return -1;
	} else if (sqlite_run(en,
	                      "DROP TABLE IF EXISTS idxlab_t; PRAGMA journal_mode=DELETE; VACUUM",
	                      e) < 0) {
		return -1;
	}
	/* Load with a big cache: the load is not measured. */
	load.v[K_CACHE] = PREFILL_CACHE_KIB * 1024LL;
	if (sqlite_set_pragmas(en, &load, e) < 0 || sqlite_create_schema(en, e) < 0)
		return -1;
	return sqlite_prepare_stmt(en, OP_INSERT, e);
}

/* The prefill: one transaction, under the big cache setup set. */
static int sqlite_load(struct engine *en, uint64_t rows, struct err *e)
{
	uint64_t n;

	if (sqlite_run(en, "BEGIN", e) < 0)
		return -1;
	for (n = 0; n < rows; n++) {
		if (sqlite_do_op(en, OP_INSERT, n, 0, e) < 0)
			return err_prefix(e, "prefill");
		if ((n & 0xffff) == 0 && en->stop && atomic_load(en->stop))
			return err_set(e, ERR_RUNTIME, "stopped while loading the table");
	}
	return sqlite_run(en, "COMMIT", e);
}

static int sqlite_ready(struct engine *en, const struct knobs *k, uint64_t rows, struct err *e)
{
	char sql[64];

	(void)rows;
	if (sqlite_set_indexes(en, 0, k->v[K_INDEXES], e) < 0)
		return -1;
	if (k->v[K_JOURNAL] == J_WAL && sqlite_run(en, "PRAGMA wal_checkpoint(TRUNCATE)", e) < 0)
		return -1;
	snprintf(sql, sizeof sql, "PRAGMA cache_size=-%lld", k->v[K_CACHE] / 1024);
	if (sqlite_run(en, sql, e) < 0 || sqlite_prepare_op(en, k, e) < 0)
		return -1;
	sqlite_status_absorb(en);
	return 0;
}

static int sqlite_apply(struct engine *en, const struct knobs *k, struct err *e)
{
	const struct knobs old = en->k;

	if (en->txn->open)
		return err_set(e, ERR_RUNTIME, "apply inside a transaction (a bug in idxlab)");
	en->live = 1;
	en->k = *k;
	en->s = schema_of(k);
	en->fast = schema_fast_keys(en->s, k, &en->keys);
	if (old.v[K_JOURNAL] != k->v[K_JOURNAL] || old.v[K_SYNC] != k->v[K_SYNC] ||
	    old.v[K_CACHE] != k->v[K_CACHE]) {
		if (sqlite_set_pragmas(en, k, e) < 0)
			return -1;
	}
	if (old.v[K_INDEXES] != k->v[K_INDEXES] &&
	    sqlite_set_indexes(en, old.v[K_INDEXES], k->v[K_INDEXES], e) < 0)
		return -1;
	if (old.v[K_PAYLOAD] != k->v[K_PAYLOAD])
		sqlite_set_payload(en, k->v[K_PAYLOAD]);
	/* a read's plan changes with the indexes: its queries are planned again */
	if (old.v[K_OP] != k->v[K_OP] || old.v[K_SEED] != k->v[K_SEED] ||
	    old.v[K_MIX] != k->v[K_MIX] || old.v[K_READ_SHARE] != k->v[K_READ_SHARE] ||
	    ((OP_READS(k->v[K_OP]) || mix_of(k, NULL)) &&
	     (old.v[K_INDEXES] != k->v[K_INDEXES] || old.v[K_MISS] != k->v[K_MISS] ||
	      old.v[K_RANGE_ROWS] != k->v[K_RANGE_ROWS])))
		return sqlite_prepare_op(en, k, e);
	return 0;
}

static int sqlite_rewrite(struct engine *en, struct err *e)
{
	uint64_t t0 = clock_now_ns();

	if (en->txn->open)
		return err_set(e, ERR_RUNTIME, "rewrite inside a transaction (a bug in idxlab)");
	sqlite_free_writes(en);
	sqlite_multirow_free(en);
	if (sqlite_run(en, "VACUUM", e) < 0 || sqlite_prepare_op(en, &en->k, e) < 0)
		return -1;
	evlog_add(EV_INFO, "rewrote the database (VACUUM) in %.2f s",
	          (double)(clock_now_ns() - t0) / 1e9);
	return 0;
}

static const char *sqlite_where(struct engine *en)
{
	return en->path;
}

static const char *sqlite_version(void)
{
	static char buf[64];

	snprintf(buf, sizeof buf, "SQLite %s", sqlite3_libversion());
	return buf;
}

/* The engine-specific knobs (KF_ENGINE_OWN) this engine honours. */
static const int sqlite_own_knobs[] = { K_JOURNAL, -1 };

const struct engine_ops sqlite_engine = {
	.table_specs = 1,
	.loads = 1u << LOAD_MULTIROW,
	.why_no_load = "SQLite has no bulk path like COPY (use --load multirow)",
	.reads_source = sqlite_reads_source,
	.read_shape = sqlite_read_shape,
	.own_knobs = sqlite_own_knobs,
	.version = sqlite_version,
	.open = sqlite_open,
	.setup = sqlite_setup,
	.load = sqlite_load,
	.ready = sqlite_ready,
	.apply = sqlite_apply,
	.rewrite = sqlite_rewrite,
	.sample = sqlite_sample,
	.stats = { &sqlite_stats },
	.measures_more = 1u << C_READ_EXAMINED | 1u << C_READ_PAGES,
	.sizes = sqlite_sizes,
	.reads = sqlite_reads,
	.where = sqlite_where,
	.figure = M_SPILLS_PER_ROW, /* what a small cache costs each row */
	.own_place = "idxlab's own temp db",
	.where_own = tmpdir_holds,
	.close = sqlite_close,
};
