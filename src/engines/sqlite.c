/* sqlite.c - the SQLite engine (embedded, the zero-setup default).
 *
 * By default the database lives in a fresh temp dir
 * $TMPDIR/idxlab-sqlite.XXXXXX (tmpdir.h) that close() removes (and that
 * the next start removes if idxlab was killed); with --dsn FILE it lives in
 * FILE, which must be new or a file idxlab made (it carries an idxlab_meta
 * table with created_by = idxlab). A foreign file is inspected through an
 * immutable read-only URI, so it is never modified, not even by a
 * hot-journal rollback. One idxlab at a time works on a --dsn file: it
 * holds an flock on FILE-idxlab-lock (holding its pid) from before it reads
 * FILE until it has closed it, and removes it then; a second idxlab is told
 * who has the file, and the kernel drops the lock of a killed one.
 *
 * Each step starts from a fresh idxlab_t: the temp file is deleted and
 * recreated; a --dsn file has its idxlab_t dropped and is vacuumed. Prefill
 * runs in one transaction with a large cache and the indexes are built after
 * it; then the step's cache size is set and its counters are absorbed, so
 * the measured window sees only the measured rows.
 *
 * Probes: sqlite3_db_status() cache spill/miss/hit counters are 31-bit, so
 * they are read with reset and accumulated in 64 bits; bytes written per
 * file kind come from the counting VFS shim (probes/sqlite_vfs.c); fsyncs
 * from the interposer (probes/sync_count.c); wchar/write_bytes from
 * /proc/self/io less the main thread's (proc_io_read_engine). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../clock.h"
#include "../evlog.h"
#include "../keys.h"
#include "../probes/fs_kind.h"
#include "../probes/proc_io.h"
#include "../probes/sqlite_vfs.h"
#include "../probes/sync_count.h"
#include "../redact.h"
#include "engine.h"
#include "rowset.h"
#include "tmpdir.h"

#define PREFILL_CACHE_KIB 262144 /* 256 MiB while loading: the load is not measured */

static const struct tmpdir_kind sqlite_tmpdir = {
	.name = "sqlite",
	.what = "the SQLite database",
	.alt = "pass --dsn FILE",
};

struct engine {
	sqlite3 *db;
	char path[PATH_MAX];
	char dir[PATH_MAX - 64]; /* our temp dir, or "" when the user named the file */
	int lock_fd;             /* the flocked FILE-idxlab-lock of a --dsn file, or -1 */
	int probes;
	sqlite3_stmt *op;
	int in_txn;
	uint64_t txn_rows, txn_t0;
	struct rowset rs;
	int live;               /* knobs have been applied live: log what changes */
	int fresh;              /* our temp file, just created: setup need not recreate it */
	const atomic_int *stop; /* borrowed: set when the user wants out */
	int abortable;          /* a statement a stop may abort is running */
	uint64_t spills, misses, hits;
	unsigned char *payload;
	struct knobs k;
};

static void log_cb(void *arg, int code, const char *msg)
{
	(void)arg;
	/* Schema changes and recovered journals are routine; say them quietly. */
	evlog_add((code & 0xff) == SQLITE_WARNING || (code & 0xff) == SQLITE_NOTICE ||
	                  (code & 0xff) == SQLITE_SCHEMA
	              ? EV_INFO
	              : EV_WARN,
	          "sqlite: %s (code %d)", msg, code);
}

/* An error from db, with what to do about the common causes. */
static int sql_fail(struct engine *en, struct err *e, const char *what)
{
	int code = en->db ? sqlite3_errcode(en->db) : SQLITE_ERROR;
	int sys = en->db ? sqlite3_system_errno(en->db) : 0;
	const char *msg = en->db ? sqlite3_errmsg(en->db) : "cannot open";
	char os[128] = "";

	if (sys)
		snprintf(os, sizeof os, " (%s)", strerror(sys));
	switch (code & 0xff) {
	case SQLITE_FULL:
		return err_set(
		    e, ERR_RUNTIME,
		    "%s: disk full%s writing %s - free space there or lower --rows/--prefill", what,
		    sys ? os : "", en->path);
	case SQLITE_CANTOPEN:
	case SQLITE_READONLY:
	case SQLITE_PERM:
		return err_set(
		    e, ERR_RUNTIME,
		    "%s: cannot write %s: %s%s - choose a writable place with --dsn FILE "
		    "or TMPDIR",
		    what, en->path, msg, os);
	case SQLITE_IOERR:
		if (sys == ENOSPC)
			return err_set(
			    e, ERR_RUNTIME,
			    "%s: disk full (ENOSPC) writing %s - free space there or lower "
			    "--rows/--prefill",
			    what, en->path);
		return err_set(e, ERR_RUNTIME, "%s: I/O error on %s: %s%s - check the disk", what,
		               en->path, msg, os);
	case SQLITE_INTERRUPT:
		return err_set(e, ERR_RUNTIME, "%s: stopped", what);
	case SQLITE_NOMEM:
		return err_set(e, ERR_RUNTIME, "%s: out of memory - lower --cache", what);
	default:
		return err_set(e, ERR_RUNTIME, "%s: %s (sqlite code %d)", what, msg, code);
	}
}

/* Run sql. A stop aborts it (CREATE INDEX on a big table, VACUUM, a load
 * may take long) - unless it is the COMMIT that keeps a stopped step's
 * rows: the worker stops between rows, and the step's partial result
 * needs its transaction committed, not rolled back. */
static int exec(struct engine *en, const char *sql, struct err *e)
{
	int rc;

	en->abortable = strcmp(sql, "COMMIT") != 0;
	rc = sqlite3_exec(en->db, sql, NULL, NULL, NULL);
	en->abortable = 0;
	if (rc != SQLITE_OK)
		return sql_fail(en, e, sql);
	return 0;
}

/* Read an integer pragma or one-value query. */
static int query_int(struct engine *en, const char *sql, int64_t *out, struct err *e)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(en->db, sql, -1, &st, NULL) != SQLITE_OK)
		return sql_fail(en, e, sql);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return sql_fail(en, e, sql);
	return 0;
}

/* Percent-encode the characters a file: URI gives meaning to. */
static void uri_path(const char *path, char *out, size_t len)
{
	size_t n = 0;

	for (; *path && n + 4 < len; path++) {
		if (*path == '?' || *path == '#' || *path == '%')
			n += (size_t)snprintf(out + n, len - n, "%%%02X", (unsigned char)*path);
		else
			out[n++] = *path;
	}
	out[n] = 0;
}

/* Is the existing file at path a database idxlab created? Never writes. */
static int check_existing(const char *path, struct err *e)
{
	static const char magic[16] = "SQLite format 3";
	char head[16], uri[PATH_MAX * 3 + 64], enc[PATH_MAX * 3];
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	int ours = 0;
	FILE *f;
	size_t n;

	f = fopen(path, "rb");
	if (!f)
		return err_set(e, ERR_RUNTIME, "cannot read %s: %s", path, strerror(errno));
	n = fread(head, 1, sizeof head, f);
	fclose(f);
	if (n != sizeof head || memcmp(head, magic, sizeof magic) != 0)
		return err_set(e, ERR_USAGE,
		               "%s exists and is not an SQLite database idxlab created; idxlab "
		               "leaves it untouched - give --dsn a new file name",
		               path);
	uri_path(path, enc, sizeof enc);
	snprintf(uri, sizeof uri, "file:%s?mode=ro&immutable=1", enc);
	/* Look for the marker table before asking it, so a foreign file gives
	 * no SQL error in the log. */
	if (sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(db,
	                       "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = "
	                       "'idxlab_meta'",
	                       -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW) {
		sqlite3_finalize(st);
		st = NULL;
		if (sqlite3_prepare_v2(db, "SELECT value FROM idxlab_meta WHERE key = 'created_by'",
		                       -1, &st, NULL) == SQLITE_OK &&
		    sqlite3_step(st) == SQLITE_ROW) {
			const unsigned char *v = sqlite3_column_text(st, 0);

			ours = v && strcmp((const char *)v, "idxlab") == 0;
		}
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	if (!ours)
		return err_set(e, ERR_USAGE,
		               "%s is an SQLite database idxlab did not create (no idxlab_meta "
		               "marker); idxlab never touches it - give --dsn a new file name",
		               path);
	return 0;
}

/* The lock file beside a --dsn FILE: FILE-idxlab-lock. */
static void lock_path(const struct engine *en, char *out, size_t len)
{
	snprintf(out, len, "%s-idxlab-lock", en->path);
}

/* Take the --dsn file's lock: 0, or -1 when another idxlab has it (or the
 * lock file cannot be made). Retries when the holder removed the file
 * between our open and our flock (we would hold a lock on nothing). */
static int lock_dsn(struct engine *en, struct err *e)
{
	char lp[PATH_MAX + 16];
	struct stat a, b;
	int tries;

	lock_path(en, lp, sizeof lp);
	for (tries = 0; tries < 10; tries++) {
		int fd = open(lp, O_RDWR | O_CREAT | O_CLOEXEC, 0644);

		if (fd < 0)
			return err_set(
			    e, ERR_RUNTIME,
			    "cannot write %s: cannot create its lock file %s: %s - choose "
			    "a writable place with --dsn FILE",
			    en->path, lp, strerror(errno));
		if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
			char buf[32] = "", who[48] = "";
			long pid;

			if (errno != EWOULDBLOCK) {
				evlog_add(
				    EV_WARN,
				    "sqlite: cannot lock %s (%s): a second idxlab on %s would "
				    "not be stopped",
				    lp, strerror(errno), en->path);
				en->lock_fd = fd; /* removed at close all the same */
				return 0;
			}
			pid = read(fd, buf, sizeof buf - 1) > 0 ? strtol(buf, NULL, 10) : 0;
			close(fd);
			if (pid > 0)
				snprintf(who, sizeof who, " (pid %ld)", pid);
			return err_set(
			    e, ERR_RUNTIME,
			    "%s is in use by another idxlab%s: wait for it to end, or give "
			    "--dsn another file name",
			    en->path, who);
		}
		if (fstat(fd, &a) == 0 && stat(lp, &b) == 0 && a.st_dev == b.st_dev &&
		    a.st_ino == b.st_ino) {
			char pid[32];
			int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());

			if (ftruncate(fd, 0) < 0 || write(fd, pid, (size_t)n) != n)
				evlog_add(EV_WARN, "sqlite: cannot write idxlab's pid into %s", lp);
			en->lock_fd = fd;
			return 0;
		}
		close(fd);
	}
	return err_set(e, ERR_RUNTIME, "cannot lock %s: its lock file %s keeps changing", en->path,
	               lp);
}

/* Remove the lock file while still holding the lock, then let go. */
static void unlock_dsn(struct engine *en)
{
	char lp[PATH_MAX + 16];

	if (en->lock_fd < 0)
		return;
	lock_path(en, lp, sizeof lp);
	(void)unlink(lp);
	close(en->lock_fd);
	en->lock_fd = -1;
}

/* Long statements (CREATE INDEX on a big table) give up when asked to
 * stop; the per-row statements are never cut (see exec()). */
static int progress_cb(void *arg)
{
	const struct engine *en = arg;

	return en->abortable && en->stop && atomic_load(en->stop);
}

static int open_db(struct engine *en, struct err *e)
{
	int rc = sqlite3_open_v2(en->path, &en->db,
	                         SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
	                         en->probes ? SQLITE_VFS_NAME : NULL);

	if (rc != SQLITE_OK)
		return sql_fail(en, e, "open");
	sqlite3_extended_result_codes(en->db, 1);
	sqlite3_progress_handler(en->db, 1 << 16, progress_cb, en);
	/* The marker first: from now on the file is recognisably idxlab's. One
	 * transaction: one set of journal syncs, not two. */
	if (exec(en,
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

static void sqlite_close(struct engine *en)
{
	if (!en)
		return;
	sqlite3_finalize(en->op);
	en->op = NULL;
	/* A failed or stopped step may leave a transaction open: end it so the
	 * file is left consistent and its journal removed. */
	if (en->db && !sqlite3_get_autocommit(en->db))
		(void)sqlite3_exec(en->db, "ROLLBACK", NULL, NULL, NULL);
	if (en->db) {
		/* After the last record: in WAL mode the last connection to close
		 * checkpoints the WAL into the database and syncs both. */
		uint64_t before = sync_count_total();

		if (sqlite3_close(en->db) != SQLITE_OK)
			evlog_add(EV_WARN, "sqlite: close: %s", sqlite3_errmsg(en->db));
		evlog_add(EV_INFO,
		          "sqlite: closed: %llu fsync+fdatasync calls while closing (in WAL mode "
		          "the checkpoint of the WAL into the database), %llu in all since idxlab "
		          "started",
		          (unsigned long long)(sync_count_total() - before),
		          (unsigned long long)sync_count_total());
	}
	tmpdir_remove(en->dir);
	unlock_dsn(en);
	rowset_free(&en->rs);
	free(en->payload);
	free(en);
}

static int sqlite_open(struct engine **out, const struct knobs *k, const atomic_int *stop,
                       struct err *e)
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
		if (lock_dsn(en, e) < 0 ||
		    (stat(en->path, &st) == 0 && check_existing(en->path, e) < 0)) {
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

/* Move the 31-bit db_status counters into our 64-bit ones. */
static void absorb_status(struct engine *en)
{
	int cur = 0, hi = 0;

	if (!en->probes || !en->db)
		return;
	sqlite3_db_status(en->db, SQLITE_DBSTATUS_CACHE_SPILL, &cur, &hi, 1);
	en->spills += (uint64_t)cur;
	sqlite3_db_status(en->db, SQLITE_DBSTATUS_CACHE_MISS, &cur, &hi, 1);
	en->misses += (uint64_t)cur;
	sqlite3_db_status(en->db, SQLITE_DBSTATUS_CACHE_HIT, &cur, &hi, 1);
	en->hits += (uint64_t)cur;
}

/* Throw away the db_status counts of idxlab's own queries (dbstat). */
static void discard_status(struct engine *en)
{
	int cur = 0, hi = 0;

	if (!en->probes || !en->db)
		return;
	sqlite3_db_status(en->db, SQLITE_DBSTATUS_CACHE_SPILL, &cur, &hi, 1);
	sqlite3_db_status(en->db, SQLITE_DBSTATUS_CACHE_MISS, &cur, &hi, 1);
	sqlite3_db_status(en->db, SQLITE_DBSTATUS_CACHE_HIT, &cur, &hi, 1);
}

static int is_uuid_key(long long ko)
{
	return ko == KO_UUID7 || ko == KO_UUID4;
}

static void bind_id(struct engine *en, int col, uint64_t row)
{
	long long pk = en->k.v[K_PK];

	if (pk == PK_INT) {
		sqlite3_bind_int64(en->op, col, (sqlite3_int64)row + 1);
	} else {
		unsigned char u[KEYS_UUID_LEN];

		keys_uuid((uint64_t)en->k.v[K_SEED], pk == PK_UUID7, 0, row, 0, u);
		sqlite3_bind_blob(en->op, col, u, KEYS_UUID_LEN, SQLITE_TRANSIENT);
	}
}

static void bind_key(struct engine *en, int param, int col, uint64_t row, uint64_t version)
{
	long long ko = en->k.v[K_KEY_ORDER];
	uint64_t seed = (uint64_t)en->k.v[K_SEED];

	if (is_uuid_key(ko)) {
		unsigned char u[KEYS_UUID_LEN];

		keys_uuid(seed, ko == KO_UUID7, col, row, version, u);
		sqlite3_bind_blob(en->op, param, u, KEYS_UUID_LEN, SQLITE_TRANSIENT);
	} else {
		sqlite3_bind_int64(en->op, param,
		                   keys_int(seed, (enum key_order)ko, col, row, version));
	}
}

static const char *const op_sql[] = {
	[OP_INSERT] = "INSERT INTO idxlab_t(id,k1,k2,k3,k4,k5,k6,k7,k8,hot,payload) "
	              "VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,0,?10)",
	[OP_UPDATE] = "UPDATE idxlab_t SET hot = hot + 1 WHERE id = ?1",
	[OP_UPDATE_INDEXED] = "UPDATE idxlab_t SET k1 = ?2 WHERE id = ?1",
	[OP_UPDATE_KEYS] = "UPDATE idxlab_t SET k1 = ?2, k2 = ?3, k3 = ?4, k4 = ?5, k5 = ?6, "
	                   "k6 = ?7, k7 = ?8, k8 = ?9 WHERE id = ?1",
	[OP_DELETE] = "DELETE FROM idxlab_t WHERE id = ?1",
};

/* Bind the constant payload to the INSERT (parameter 10) once: bindings
 * survive sqlite3_reset(). Again whenever the statement or payload changes. */
static void bind_payload(struct engine *en)
{
	if (en->op && en->payload && sqlite3_bind_parameter_count(en->op) == 10)
		sqlite3_bind_blob(en->op, 10, en->payload, (int)en->k.v[K_PAYLOAD], SQLITE_STATIC);
}

/* One operation on row number row; version is the update generation. */
static int do_op(struct engine *en, long long op, uint64_t row, uint64_t version, struct err *e)
{
	int c, rc;

	bind_id(en, 1, row);
	if (op == OP_INSERT && !is_uuid_key(en->k.v[K_KEY_ORDER])) {
		/* The hot path: integer keys, the payload already bound. */
		uint64_t seed = (uint64_t)en->k.v[K_SEED];
		enum key_order ko = (enum key_order)en->k.v[K_KEY_ORDER];

		for (c = 1; c <= 8; c++)
			sqlite3_bind_int64(en->op, c + 1, keys_int(seed, ko, c, row, 0));
	} else if (op == OP_INSERT) {
		for (c = 1; c <= 8; c++)
			bind_key(en, c + 1, c, row, 0);
	} else if (op == OP_UPDATE_INDEXED || op == OP_UPDATE_KEYS) {
		for (c = 1; c <= (op == OP_UPDATE_KEYS ? 8 : 1); c++)
			bind_key(en, c + 1, c, row, version);
	}
	rc = sqlite3_step(en->op);
	sqlite3_reset(en->op);
	if (rc != SQLITE_DONE)
		return sql_fail(en, e,
		                op == OP_INSERT   ? "insert"
		                : op == OP_DELETE ? "delete"
		                                  : "update");
	if (op != OP_INSERT && sqlite3_changes(en->db) != 1)
		return err_set(e, ERR_RUNTIME,
		               "%s of row %llu changed %d rows: the table is not "
		               "what idxlab built",
		               knob_table[K_OP].choices[op], (unsigned long long)row,
		               sqlite3_changes(en->db));
	return 0;
}

static int commit(struct engine *en, struct step_out *out, struct hist *lat, struct err *e)
{
	if (!en->in_txn)
		return 0;
	if (exec(en, "COMMIT", e) < 0)
		return -1;
	en->in_txn = 0;
	hist_add(lat, clock_now_ns() - en->txn_t0);
	out->commits++;
	return 0;
}

static int sqlite_finish(struct engine *en, struct step_out *out, struct hist *lat, struct err *e)
{
	return commit(en, out, lat, e);
}

static int create_schema(struct engine *en, struct err *e)
{
	const char *key_t = is_uuid_key(en->k.v[K_KEY_ORDER]) ? "BLOB" : "INTEGER";
	char sql[1024];

	if (en->k.v[K_PK] == PK_INT)
		snprintf(
		    sql, sizeof sql,
		    "CREATE TABLE idxlab_t(id INTEGER PRIMARY KEY, k1 %s, k2 %s, k3 %s, k4 %s, "
		    "k5 %s, k6 %s, k7 %s, k8 %s, hot INTEGER, payload BLOB)",
		    key_t, key_t, key_t, key_t, key_t, key_t, key_t, key_t);
	else
		snprintf(sql, sizeof sql,
		         "CREATE TABLE idxlab_t(id BLOB PRIMARY KEY, k1 %s, k2 %s, k3 %s, k4 %s, "
		         "k5 %s, k6 %s, k7 %s, k8 %s, hot INTEGER, payload BLOB) WITHOUT ROWID",
		         key_t, key_t, key_t, key_t, key_t, key_t, key_t, key_t);
	return exec(en, sql, e);
}

/* Journal mode, synchronous and cache size as k says. No open transaction. */
static int set_pragmas(struct engine *en, const struct knobs *k, struct err *e)
{
	static const char *const syncs[] = { "OFF", "NORMAL", "FULL", "EXTRA" };
	static const char *const journals[] = { "DELETE", "TRUNCATE", "WAL", "MEMORY", "OFF" };
	const char *want = journals[k->v[K_JOURNAL]];
	const unsigned char *mode = NULL;
	sqlite3_stmt *st;
	char sql[256];

	snprintf(sql, sizeof sql, "PRAGMA journal_mode=%s", want);
	if (sqlite3_prepare_v2(en->db, sql, -1, &st, NULL) != SQLITE_OK)
		return sql_fail(en, e, sql);
	if (sqlite3_step(st) == SQLITE_ROW)
		mode = sqlite3_column_text(st, 0);
	if (!mode || strcasecmp((const char *)mode, want) != 0)
		evlog_add(EV_WARN, "sqlite: journal_mode %s was refused (got %s)", want,
		          mode ? (const char *)mode : "nothing");
	sqlite3_finalize(st);
	snprintf(sql, sizeof sql, "PRAGMA synchronous=%s; PRAGMA cache_size=-%lld",
	         syncs[k->v[K_SYNC]], k->v[K_CACHE] / 1024);
	return exec(en, sql, e);
}

/* Create or drop indexes so that exactly k1..kN exist. */
static int set_indexes(struct engine *en, long long from, long long to, struct err *e)
{
	char sql[128];
	long long i;

	for (i = from + 1; i <= to; i++) {
		double t0 = (double)clock_now_ns();

		snprintf(sql, sizeof sql, "CREATE INDEX idxlab_k%lld ON idxlab_t(k%lld)", i, i);
		if (exec(en, sql, e) < 0)
			return -1;
		if (en->live)
			evlog_add(EV_INFO, "built idxlab_k%lld on %llu rows in %.2f s", i,
			          (unsigned long long)en->rs.live_rows,
			          ((double)clock_now_ns() - t0) / 1e9);
	}
	for (i = from; i > to; i--) {
		snprintf(sql, sizeof sql, "DROP INDEX idxlab_k%lld", i);
		if (exec(en, sql, e) < 0)
			return -1;
		if (en->live)
			evlog_add(EV_INFO, "dropped idxlab_k%lld", i);
	}
	return 0;
}

/* Prepare k's operation and, for updates and deletes, a shuffled visit order
 * over the rows that exist now. */
static int prepare_op(struct engine *en, const struct knobs *k, struct err *e)
{
	sqlite3_finalize(en->op);
	en->op = NULL;
	if (sqlite3_prepare_v2(en->db, op_sql[k->v[K_OP]], -1, &en->op, NULL) != SQLITE_OK)
		return sql_fail(en, e, "prepare");
	bind_payload(en);
	rowset_prepare(&en->rs, k->v[K_OP], (uint64_t)k->v[K_SEED]);
	return 0;
}

static int set_payload(struct engine *en, long long len)
{
	free(en->payload);
	en->payload = (unsigned char *)keys_payload_new((size_t)len);
	bind_payload(en);
	return 0;
}

static int sqlite_setup(struct engine *en, const struct knobs *k, struct err *e)
{
	uint64_t prefill = (uint64_t)knobs_prefill(k), n;
	struct knobs load = *k;
	char sql[64];

	sqlite3_finalize(en->op);
	en->op = NULL;
	en->in_txn = 0;
	en->k = *k;
	rowset_reset(&en->rs, 0);
	set_payload(en, k->v[K_PAYLOAD]);

	/* A fresh table: a fresh file in our temp dir (unless open() just made
	 * one), else drop + vacuum. */
	if (en->dir[0] && en->fresh) {
		en->fresh = 0;
	} else if (en->dir[0]) {
		absorb_status(en);
		if (sqlite3_close(en->db) != SQLITE_OK)
			return sql_fail(en, e, "close");
		en->db = NULL;
		remove_files(en);
		if (open_db(en, e) < 0)
			return -1;
	} else if (exec(en, "DROP TABLE IF EXISTS idxlab_t; PRAGMA journal_mode=DELETE; VACUUM",
	                e) < 0) {
		return -1;
	}
	/* Load with a big cache: the load is not measured. */
	load.v[K_CACHE] = PREFILL_CACHE_KIB * 1024LL;
	if (set_pragmas(en, &load, e) < 0 || create_schema(en, e) < 0)
		return -1;
	if (sqlite3_prepare_v2(en->db, op_sql[OP_INSERT], -1, &en->op, NULL) != SQLITE_OK)
		return sql_fail(en, e, "prepare insert");
	bind_payload(en);
	if (prefill) {
		if (exec(en, "BEGIN", e) < 0)
			return -1;
		for (n = 0; n < prefill; n++) {
			if (do_op(en, OP_INSERT, n, 0, e) < 0)
				return err_prefix(e, "prefill");
			if ((n & 0xffff) == 0 && en->stop && atomic_load(en->stop))
				return err_set(e, ERR_RUNTIME, "stopped while loading the table");
		}
		if (exec(en, "COMMIT", e) < 0)
			return -1;
		rowset_reset(&en->rs, prefill);
	}
	if (set_indexes(en, 0, k->v[K_INDEXES], e) < 0)
		return -1;
	if (k->v[K_JOURNAL] == J_WAL && exec(en, "PRAGMA wal_checkpoint(TRUNCATE)", e) < 0)
		return -1;
	snprintf(sql, sizeof sql, "PRAGMA cache_size=-%lld", k->v[K_CACHE] / 1024);
	if (exec(en, sql, e) < 0 || prepare_op(en, k, e) < 0)
		return -1;
	absorb_status(en);
	return 0;
}

static int sqlite_apply(struct engine *en, const struct knobs *k, struct err *e)
{
	const struct knobs old = en->k;

	if (en->in_txn)
		return err_set(e, ERR_RUNTIME, "apply inside a transaction (a bug in idxlab)");
	en->live = 1;
	en->k = *k;
	if (old.v[K_JOURNAL] != k->v[K_JOURNAL] || old.v[K_SYNC] != k->v[K_SYNC] ||
	    old.v[K_CACHE] != k->v[K_CACHE]) {
		if (set_pragmas(en, k, e) < 0)
			return -1;
	}
	if (old.v[K_INDEXES] != k->v[K_INDEXES] &&
	    set_indexes(en, old.v[K_INDEXES], k->v[K_INDEXES], e) < 0)
		return -1;
	if (old.v[K_PAYLOAD] != k->v[K_PAYLOAD])
		set_payload(en, k->v[K_PAYLOAD]);
	if (old.v[K_OP] != k->v[K_OP] || old.v[K_SEED] != k->v[K_SEED])
		return prepare_op(en, k, e);
	return 0;
}

static int sqlite_rewrite(struct engine *en, struct err *e)
{
	uint64_t t0 = clock_now_ns();

	if (en->in_txn)
		return err_set(e, ERR_RUNTIME, "rewrite inside a transaction (a bug in idxlab)");
	sqlite3_finalize(en->op);
	en->op = NULL;
	if (exec(en, "VACUUM", e) < 0 || prepare_op(en, &en->k, e) < 0)
		return -1;
	evlog_add(EV_INFO, "rewrote the database (VACUUM) in %.2f s",
	          (double)(clock_now_ns() - t0) / 1e9);
	return 0;
}

static uint64_t sqlite_table_rows(struct engine *en)
{
	return en->rs.live_rows;
}

static int sqlite_step(struct engine *en, const struct knobs *k, uint64_t budget,
                       struct step_out *out, struct hist *lat, struct err *e)
{
	long long op = en->k.v[K_OP];
	uint64_t per_commit = (uint64_t)k->v[K_COMMIT], i;

	for (i = 0; i < budget; i++) {
		uint64_t row, version;

		if (!rowset_next(&en->rs, op, &row, &version))
			break; /* nothing left to work on */
		if (!en->in_txn) {
			en->txn_t0 = clock_now_ns();
			if (exec(en, "BEGIN", e) < 0)
				return -1;
			en->in_txn = 1;
			en->txn_rows = 0;
		}
		if (do_op(en, op, row, version, e) < 0)
			return -1;
		rowset_done(&en->rs, op, row);
		out->rows++;
		if (per_commit != COMMIT_ALL && ++en->txn_rows >= per_commit &&
		    commit(en, out, lat, e) < 0)
			return -1;
	}
	return 0;
}

static int sqlite_sample(struct engine *en, struct counters *c, struct err *e)
{
	(void)e;
	c->v[C_FSYNCS] = sync_count_total();
	c->valid |= 1u << C_FSYNCS;
	if (en->probes) {
		struct vfs_counts vc;
		struct proc_io io;

		absorb_status(en);
		c->v[C_SPILLS] = en->spills;
		c->v[C_MISSES] = en->misses;
		c->v[C_HITS] = en->hits;
		sqlite_vfs_sample(&vc);
		c->v[C_WAL_BYTES] = vc.write_bytes[VFS_JOURNAL] + vc.write_bytes[VFS_WAL];
		c->v[C_DB_WRITE_BYTES] = vc.write_bytes[VFS_DB];
		c->valid |= 1u << C_SPILLS | 1u << C_MISSES | 1u << C_HITS | 1u << C_WAL_BYTES |
		            1u << C_DB_WRITE_BYTES;
		if (en->db) {
			int cur = 0, hi = 0;

			/* The pager cache's heap; SQLite has no count of its dirty pages. */
			sqlite3_db_status(en->db, SQLITE_DBSTATUS_CACHE_USED, &cur, &hi, 0);
			c->v[C_CACHE_USED] = (uint64_t)cur;
			c->valid |= 1u << C_CACHE_USED;
		}
		if (proc_io_read_engine(&io) == 0) {
			c->v[C_WCHAR] = io.wchar;
			c->v[C_WRITE_BYTES] = io.write_bytes;
			c->valid |= 1u << C_WCHAR | 1u << C_WRITE_BYTES;
		}
	}
	return 0;
}

static int sqlite_sizes(struct engine *en, struct sizes *s, struct err *e)
{
	sqlite3_stmt *st;
	int64_t pages = 0, psize = 0;
	int rc, i;

	memset(s, 0, sizeof *s);
	s->db_bytes = s->index_bytes = -1;
	if (query_int(en, "PRAGMA page_count", &pages, e) < 0 ||
	    query_int(en, "PRAGMA page_size", &psize, e) < 0)
		return -1;
	s->db_bytes = pages * psize;
	/* One index at a time: dbstat then walks only that btree (name =). It
	 * reads through our page cache: absorb the workload's cache counts
	 * before, and throw away the walk's own misses and hits after. */
	absorb_status(en);
	if (sqlite3_prepare_v2(
	        en->db, "SELECT count(*), coalesce(sum(pgsize), 0) FROM dbstat WHERE name = ?1", -1,
	        &st, NULL) != SQLITE_OK) {
		evlog_add(EV_WARN, "sqlite: dbstat is not available: index sizes are n/a");
		return 0;
	}
	s->index_bytes = 0;
	for (i = 1; i <= en->k.v[K_INDEXES] && i <= SIZES_MAX_INDEXES; i++) {
		char name[32];

		snprintf(name, sizeof name, "idxlab_k%d", i);
		sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
		rc = sqlite3_step(st);
		if (rc != SQLITE_ROW) {
			sqlite3_finalize(st);
			return sql_fail(en, e, "dbstat");
		}
		s->index_pages[i - 1] = sqlite3_column_int64(st, 0);
		s->index_bytes += sqlite3_column_int64(st, 1);
		s->nindex = i;
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	discard_status(en);
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

const struct engine_ops sqlite_engine = {
	.version = sqlite_version,
	.open = sqlite_open,
	.setup = sqlite_setup,
	.apply = sqlite_apply,
	.rewrite = sqlite_rewrite,
	.table_rows = sqlite_table_rows,
	.step = sqlite_step,
	.finish = sqlite_finish,
	.sample = sqlite_sample,
	.sizes = sqlite_sizes,
	.where = sqlite_where,
	.close = sqlite_close,
};
