/* wiredtiger.c - the WiredTiger engine (embedded: mongod's storage engine,
 * no server).
 *
 * Layout, as mongod lays out a collection and its indexes:
 *   table:collection-idxlab   record id (q) -> the row, packed raw (u):
 *                             id | k1..k8 | hot | payload
 *   table:index-idxlab-_id    id -> record id (unique: the record id is the
 *                             value), int64 or 16 bytes as the pk knob says
 *   table:index-idxlab-kN     (kN, record id) -> empty, int64 or 16 bytes
 * with mongod's table settings (16k index pages with prefix compression,
 * split_pct=90 collection pages), the journal (WT log) on, a checkpoint
 * every `checkpoint` seconds, snapshot isolation, commit sync on or off per
 * transaction (sync off is mongod's j:false, anything else j:true).
 * An insert writes the collection and every index; an update of `hot`
 * finds the record through _id and modifies the record only (WT_CURSOR::
 * modify: a small log record, no index touched - MongoDB's 1.02x); an
 * update of k1 also moves k1's index entry; a delete removes the record
 * and its index entries.
 *
 * Where: by default a temp dir $TMPDIR/idxlab-wt.XXXXXX (tmpdir.h) that
 * close() removes (and that the next start removes if idxlab was killed);
 * --dsn DIR is a directory that is new, empty, or was made by idxlab (it
 * holds the marker file idxlab.marker); anything else is refused and left
 * untouched, and DIR itself is never removed. One
 * connection lives as long as the engine; each setup drops the tables and
 * makes them again, then loads the prefill with a big cache, checkpoints and
 * shrinks the cache to the knob, so the window sees only measured work.
 *
 * Rollbacks: when the cache fills with a transaction's own uncommitted
 * changes WiredTiger rolls the oldest transaction back (WT_ROLLBACK, or
 * WT_CACHE_FULL). The transaction is undone here too: the rowset goes back
 * to where it was at BEGIN, so it only ever reflects committed work, and the
 * same rows are replayed in transactions half as big (down to one row),
 * which then cap the commit size until the cache or commit knob changes. A
 * row is counted once, when it first succeeds; its replay is not counted
 * again.
 *
 * Counters (metrics.md) come from a statistics cursor on a session of their
 * own, by WT_STAT_CONN_* key; they are 64-bit and cumulative for the life of
 * the connection, so nothing is reset:
 *   spills      CACHE_WRITE "pages written from cache" (eviction and, in a
 *               window flagged checkpoint_in_window, checkpoints). Not
 *               CACHE_EVICTION_DIRTY: that also counts in-memory splits of
 *               the page a sequential insert appends to, which are not writes.
 *   misses      CACHE_READ "pages read into cache"; hits = pages requested -
 *               pages read
 *   WAL bytes   LOG_BYTES_WRITTEN; database bytes: BLOCK_BYTE_WRITE
 *   checkpoints TXN_CHECKPOINT
 *   fsyncs      the interposer (probes/sync_count.c): WiredTiger syncs
 *               through libc, so its log syncs (LOG_SYNC), its file syncs
 *               (FSYNC_IO) and directory syncs are all counted exactly; the
 *               engine's own LOG_SYNC/FSYNC_IO go to the event log per table.
 *   wchar, write_bytes from /proc/self/io less the main thread's, which
 *               writes idxlab's own output (proc_io_read_engine).
 * Sizes are file sizes of the .wt files (like mongod's storageStats): they
 * grow when eviction or a checkpoint writes pages. index_pages are 4 KiB
 * units, WiredTiger's allocation size. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <wiredtiger.h>

#include "../clock.h"
#include "../evlog.h"
#include "../keys.h"
#include "../probes/fs_kind.h"
#include "../probes/proc_io.h"
#include "../probes/sync_count.h"
#include "../redact.h"
#include "../units.h"
#include "engine.h"
#include "rowset.h"
#include "wt_layout.h"
#include "tmpdir.h"

#define MARKER         "idxlab.marker"
#define MARKER_TEXT    "created by idxlab (--engine wiredtiger)\n"
#define COLL_URI       WT_COLL_URI
#define NIDX           9 /* _id + k1..k8 */
#define MIN_CACHE      WT_MIN_CACHE
#define LOAD_CACHE     (256LL * 1024 * 1024)
#define LOAD_TXN_BYTES (8LL * 1024 * 1024)
#define LOAD_TXN_ROWS  10000
#define PAGE_UNIT      4096 /* WiredTiger's default allocation size */
#define BUSY_TRIES     200  /* x 25 ms: drops wait for a running checkpoint */
#define SQUEEZE_TRIES  250  /* x 20 ms: the cache empties after the load */

static const struct tmpdir_kind wt_tmpdir = {
	.name = "wt",
	.what = "WiredTiger",
	.alt = "pass --dsn DIR",
};

/* The counters read from the statistics cursor. */
enum wt_stat {
	S_CACHE_WRITE,
	S_CACHE_READ,
	S_PAGES_REQUESTED,
	S_LOG_BYTES,
	S_BLOCK_WRITE,
	S_CHECKPOINTS,
	S_LOG_SYNC,
	S_FSYNC_IO,
	S_CACHE_INUSE, /* gauges from here on */
	S_CACHE_DIRTY,
	S_CACHE_MAX,
	S_COUNT
};

static const int stat_key[S_COUNT] = {
	[S_CACHE_WRITE] = WT_STAT_CONN_CACHE_WRITE,
	[S_CACHE_READ] = WT_STAT_CONN_CACHE_READ,
	[S_PAGES_REQUESTED] = WT_STAT_CONN_CACHE_PAGES_REQUESTED,
	[S_LOG_BYTES] = WT_STAT_CONN_LOG_BYTES_WRITTEN,
	[S_BLOCK_WRITE] = WT_STAT_CONN_BLOCK_BYTE_WRITE,
	[S_CHECKPOINTS] = WT_STAT_CONN_TXN_CHECKPOINT,
	[S_LOG_SYNC] = WT_STAT_CONN_LOG_SYNC,
	[S_FSYNC_IO] = WT_STAT_CONN_FSYNC_IO,
	[S_CACHE_INUSE] = WT_STAT_CONN_CACHE_BYTES_INUSE,
	[S_CACHE_DIRTY] = WT_STAT_CONN_CACHE_BYTES_DIRTY,
	[S_CACHE_MAX] = WT_STAT_CONN_CACHE_BYTES_MAX,
};

struct engine {
	WT_EVENT_HANDLER handler; /* first: the callbacks find the engine from it */
	atomic_int quiet;         /* expected errors (EBUSY while dropping): say nothing */
	atomic_int first_errno;   /* ENOSPC once WiredTiger reported one */
	WT_CONNECTION *conn;
	WT_SESSION *s;  /* the workload's session */
	WT_SESSION *ss; /* statistics: outside the workload's transactions */
	WT_CURSOR *stat;
	WT_CURSOR *coll, *idx[NIDX]; /* idx[0] is _id, idx[i] is ki */
	char home[PATH_MAX - 64];
	int tmp;  /* home is our temp dir: removed at close */
	int nidx; /* secondary index tables that exist (k1..knidx) */
	int probes;
	int live;               /* apply() has run: say what changes */
	int table;              /* the tables exist */
	const atomic_int *stop; /* borrowed: set when the user wants out */
	struct knobs k;
	struct rowset rs;
	/* row layout */
	int uuid_pk, uuid_keys;
	uint64_t pk_seed; /* the seed the ids were made with */
	size_t id_len, key_len, off_hot, off_payload, row_len;
	unsigned char *row;
	/* the open transaction */
	int in_txn;
	long long txn_op; /* the operation the open transaction runs */
	uint64_t txn_rows, txn_t0;
	struct rowset_mark mark; /* the rowset at BEGIN */
	uint64_t cap;            /* rows per transaction after a rollback; 0: no cap */
	long long cache;
	/* bookkeeping for the event log */
	uint64_t rollbacks, replayed, last_rb_log;
	uint64_t st_table[S_COUNT], syncs_table; /* at setup */
	uint64_t table_t0;
};

static const char *const idx_col[NIDX] = { "_id", "k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8" };

/* ---- messages --------------------------------------------------------- */

/* WiredTiger prefixes "[secs:usecs][pid:thread], " - drop it. */
static const char *strip_prefix(const char *m)
{
	const char *p = m;

	while (*p == '[') {
		const char *q = strchr(p, ']');

		if (!q)
			return m;
		p = q + 1;
	}
	if (p != m && p[0] == ',' && p[1] == ' ')
		p += 2;
	return p;
}

static int on_error(WT_EVENT_HANDLER *h, WT_SESSION *session, int error, const char *message)
{
	struct engine *en = (struct engine *)h;

	(void)session;
	if (atomic_load(&en->quiet) && error == EBUSY)
		return 0;
	/* The cause of a panic that follows (a log write that found no room). */
	if (error == ENOSPC)
		atomic_store(&en->first_errno, ENOSPC);
	/* Rollbacks are handled (retried smaller) and reported by the engine. */
	evlog_add(error == WT_ROLLBACK || error == WT_CACHE_FULL ? EV_INFO : EV_WARN,
	          "wiredtiger: %s", strip_prefix(message));
	return 0;
}

static int on_message(WT_EVENT_HANDLER *h, WT_SESSION *session, const char *message)
{
	(void)h;
	(void)session;
	evlog_add(EV_INFO, "wiredtiger: %s", strip_prefix(message));
	return 0;
}

static int on_progress(WT_EVENT_HANDLER *h, WT_SESSION *session, const char *operation,
                       uint64_t progress)
{
	(void)h;
	(void)session;
	(void)operation;
	(void)progress;
	return 0;
}

static int retryable(int rc)
{
	return rc == WT_ROLLBACK || rc == WT_CACHE_FULL;
}

static void cache_text(long long bytes, char *buf, size_t len)
{
	units_human((double)bytes, "B", buf, len);
}

/* An error from WiredTiger, with what to do about the common causes. */
static int wt_fail(struct engine *en, struct err *e, const char *what, int rc)
{
	char cache[32];

	cache_text(en->cache, cache, sizeof cache);
	switch (rc) {
	case ENOSPC:
		return err_set(e, ERR_RUNTIME,
		               "%s: disk full (ENOSPC) writing %s - free space there or lower "
		               "--rows/--prefill",
		               what, en->home);
	case EACCES:
	case EPERM:
	case EROFS:
		return err_set(e, ERR_RUNTIME,
		               "%s: cannot write %s: %s - choose a writable place with --dsn DIR "
		               "or TMPDIR",
		               what, en->home, wiredtiger_strerror(rc));
	case ENOMEM:
		return err_set(e, ERR_RUNTIME, "%s: out of memory - lower --cache", what);
	case WT_ROLLBACK:
	case WT_CACHE_FULL:
		return err_set(e, ERR_RUNTIME,
		               "%s: WiredTiger rolled back even a one-row transaction: the "
		               "cache (%s) cannot hold what one row changes - raise --cache",
		               what, cache);
	case WT_PANIC:
		if (atomic_load(&en->first_errno) == ENOSPC)
			return err_set(e, ERR_RUNTIME,
			               "%s: the disk holding %s is full, and WiredTiger stopped "
			               "(a panic: the database there is unusable) - free space "
			               "there or lower --rows/--prefill",
			               what, en->home);
		return err_set(e, ERR_RUNTIME,
		               "%s: WiredTiger panicked (see the event log) - the database in %s "
		               "is unusable; is the disk full or failing?",
		               what, en->home);
	default:
		return err_set(e, ERR_RUNTIME, "%s: %s (WiredTiger error %d)", what,
		               wiredtiger_strerror(rc), rc);
	}
}

/* ---- the directory ---------------------------------------------------- */

static int write_marker(const char *dir, struct err *e)
{
	char p[PATH_MAX];
	FILE *f;

	snprintf(p, sizeof p, "%s/%s", dir, MARKER);
	f = fopen(p, "w");
	if (!f || fputs(MARKER_TEXT, f) == EOF) {
		int saved = errno;

		if (f)
			fclose(f);
		return err_set(e, ERR_RUNTIME,
		               "cannot write %s: %s - choose a writable place with --dsn DIR "
		               "or TMPDIR",
		               p, strerror(saved));
	}
	if (fclose(f) != 0)
		return err_set(e, ERR_RUNTIME, "cannot write %s: %s", p, strerror(errno));
	return 0;
}

/* Is dir ours (marker), empty (claim it) or someone else's (refuse)? */
static int claim_dir(const char *dir, struct err *e)
{
	char p[PATH_MAX];
	struct stat st;
	struct dirent *de;
	int entries = 0;
	DIR *d;

	if (stat(dir, &st) < 0) {
		if (errno != ENOENT)
			return err_set(e, ERR_RUNTIME, "cannot use %s: %s", dir, strerror(errno));
		if (tmpdir_refuse_dangling(dir, e) < 0)
			return -1;
		if (mkdir(dir, 0755) < 0)
			return err_set(e, ERR_RUNTIME,
			               "cannot create the directory %s: %s - give --dsn a "
			               "directory whose parent exists and is writable",
			               dir, strerror(errno));
		return write_marker(dir, e);
	}
	if (!S_ISDIR(st.st_mode))
		return err_set(e, ERR_USAGE,
		               "%s exists and is not a directory; idxlab leaves it untouched - "
		               "give --dsn a new or empty directory for WiredTiger",
		               dir);
	snprintf(p, sizeof p, "%s/%s", dir, MARKER);
	if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
		return 0;
	d = opendir(dir);
	if (!d)
		return err_set(e, ERR_RUNTIME, "cannot read the directory %s: %s", dir,
		               strerror(errno));
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			entries++;
	closedir(d);
	if (entries)
		return err_set(e, ERR_USAGE,
		               "%s is a directory idxlab did not create (no %s in it) and it is "
		               "not empty; idxlab never touches it - give --dsn a new or empty "
		               "directory",
		               dir, MARKER);
	return write_marker(dir, e);
}

/* ---- statistics ------------------------------------------------------- */

/* Read every counter of stat_key[] into out. */
static int read_stats(struct engine *en, uint64_t out[S_COUNT], struct err *e)
{
	int i, rc;

	if (!en->stat) {
		rc = en->ss->open_cursor(en->ss, "statistics:", NULL, NULL, &en->stat);
		if (rc)
			return wt_fail(en, e, "open the statistics cursor", rc);
	} else if ((rc = en->stat->reset(en->stat)) != 0) {
		return wt_fail(en, e, "refresh the statistics cursor", rc);
	}
	for (i = 0; i < S_COUNT; i++) {
		const char *desc, *pvalue;
		int64_t v = 0;

		en->stat->set_key(en->stat, stat_key[i]);
		rc = en->stat->search(en->stat);
		if (rc == 0)
			rc = en->stat->get_value(en->stat, &desc, &pvalue, &v);
		if (rc)
			return wt_fail(en, e, "read a statistic", rc);
		out[i] = v < 0 ? 0 : (uint64_t)v;
	}
	return 0;
}

/* What the table cost since it was built: WiredTiger's own sync counts next
 * to the exact fsync+fdatasync count. */
static void log_table_totals(struct engine *en, const char *when)
{
	uint64_t now[S_COUNT];
	struct err e;

	if (!en->table || !en->probes || read_stats(en, now, &e) < 0)
		return;
	evlog_add(EV_INFO,
	          "wiredtiger: %s: %llu log syncs, %llu fsync I/Os (WiredTiger's LOG_SYNC, "
	          "FSYNC_IO); %llu fsync+fdatasync calls; %llu checkpoints; %llu rollbacks "
	          "(%llu rows replayed); %.1f s",
	          when, (unsigned long long)(now[S_LOG_SYNC] - en->st_table[S_LOG_SYNC]),
	          (unsigned long long)(now[S_FSYNC_IO] - en->st_table[S_FSYNC_IO]),
	          (unsigned long long)(sync_count_total() - en->syncs_table),
	          (unsigned long long)(now[S_CHECKPOINTS] - en->st_table[S_CHECKPOINTS]),
	          (unsigned long long)en->rollbacks, (unsigned long long)en->replayed,
	          (double)(clock_now_ns() - en->table_t0) / 1e9);
}

/* ---- cursors and tables ----------------------------------------------- */

static void idx_uri(int i, char *buf, size_t len)
{
	snprintf(buf, len, "table:index-idxlab-%s", idx_col[i]);
}

static void close_cursors(struct engine *en)
{
	int i;

	if (en->coll)
		en->coll->close(en->coll);
	en->coll = NULL;
	for (i = 0; i < NIDX; i++) {
		if (en->idx[i])
			en->idx[i]->close(en->idx[i]);
		en->idx[i] = NULL;
	}
}

/* Drop uri if it exists; waits out a checkpoint holding it. */
static int drop_table(struct engine *en, const char *uri, struct err *e)
{
	int rc, tries = 0;

	atomic_store(&en->quiet, 1);
	while ((rc = en->s->drop(en->s, uri, "force=true")) == EBUSY && tries++ < BUSY_TRIES)
		clock_sleep_ms(25);
	atomic_store(&en->quiet, 0);
	if (rc) {
		char what[128];

		snprintf(what, sizeof what, "drop %s", uri);
		return wt_fail(en, e, what, rc);
	}
	return 0;
}

static int open_cursor(struct engine *en, const char *uri, WT_CURSOR **out, struct err *e)
{
	/* overwrite=false: a duplicate insert or a missing remove is an error,
	 * so a table that is not what idxlab built is noticed. */
	int rc = en->s->open_cursor(en->s, uri, NULL, "overwrite=false", out);

	if (rc) {
		char what[128];

		snprintf(what, sizeof what, "open %s", uri);
		return wt_fail(en, e, what, rc);
	}
	return 0;
}

/* Create index table i (0: _id) with mongod's index settings. */
static int create_index(struct engine *en, int i, struct err *e)
{
	char uri[64], cfg[256];
	int rc;

	idx_uri(i, uri, sizeof uri);
	if (i == 0)
		snprintf(cfg, sizeof cfg, "key_format=%s,value_format=q", en->uuid_pk ? "u" : "q");
	else
		snprintf(cfg, sizeof cfg, "key_format=%s,value_format=u",
		         en->uuid_keys ? "uq" : "qq");
	strcat(cfg, WT_INDEX_CONFIG);
	rc = en->s->create(en->s, uri, cfg);
	if (rc) {
		char what[128];

		snprintf(what, sizeof what, "create %s", uri);
		return wt_fail(en, e, what, rc);
	}
	return open_cursor(en, uri, &en->idx[i], e);
}

static int drop_index(struct engine *en, int i, struct err *e)
{
	char uri[64];

	if (en->idx[i])
		en->idx[i]->close(en->idx[i]);
	en->idx[i] = NULL;
	idx_uri(i, uri, sizeof uri);
	return drop_table(en, uri, e);
}

/* ---- rows ------------------------------------------------------------- */

static size_t off_key(const struct engine *en, int col)
{
	return en->id_len + (size_t)(col - 1) * en->key_len;
}

/* Row n's id (8 bytes int64 or 16 bytes uuid) into out; returns its length. */
static size_t make_id(const struct engine *en, uint64_t row, unsigned char *out)
{
	if (en->uuid_pk) {
		keys_uuid(en->pk_seed, en->k.v[K_PK] == PK_UUID7, 0, row, 0, out);
		return KEYS_UUID_LEN;
	}
	{
		int64_t id = (int64_t)row + 1;

		memcpy(out, &id, sizeof id);
	}
	return sizeof(int64_t);
}

static void make_key(const struct engine *en, int col, uint64_t row, uint64_t version,
                     unsigned char *out)
{
	long long ko = en->k.v[K_KEY_ORDER];
	uint64_t seed = (uint64_t)en->k.v[K_SEED];

	if (en->uuid_keys) {
		keys_uuid(seed, ko == KO_UUID7, col, row, version, out);
	} else {
		int64_t v = keys_int(seed, (enum key_order)ko, col, row, version);

		memcpy(out, &v, sizeof v);
	}
}

static void set_id_key(struct engine *en, const unsigned char *id)
{
	WT_CURSOR *c = en->idx[0];

	if (en->uuid_pk) {
		WT_ITEM it = { .data = id, .size = KEYS_UUID_LEN };

		c->set_key(c, &it);
	} else {
		int64_t v;

		memcpy(&v, id, sizeof v);
		c->set_key(c, v);
	}
}

static void set_index_key(struct engine *en, int i, const unsigned char *key, int64_t recid)
{
	WT_CURSOR *c = en->idx[i];

	if (en->uuid_keys) {
		WT_ITEM it = { .data = key, .size = KEYS_UUID_LEN };

		c->set_key(c, &it, recid);
	} else {
		int64_t v;

		memcpy(&v, key, sizeof v);
		c->set_key(c, v, recid);
	}
}

static int index_insert(struct engine *en, int i, const unsigned char *key, int64_t recid)
{
	static const WT_ITEM empty = { .data = "", .size = 0 };

	set_index_key(en, i, key, recid);
	en->idx[i]->set_value(en->idx[i], &empty);
	return en->idx[i]->insert(en->idx[i]);
}

static int index_remove(struct engine *en, int i, const unsigned char *key, int64_t recid)
{
	set_index_key(en, i, key, recid);
	return en->idx[i]->remove(en->idx[i]);
}

/* Operation failures that are not WiredTiger's: the table changed under us. */
#define E_MISSING (-1)

/* Find row n's record the way mongod does (through _id); its record id and
 * its value (valid until the next operation on the collection cursor).
 * E_MISSING when it is not there, or not a record idxlab wrote. */
static int find_row(struct engine *en, uint64_t row, int64_t *recid, WT_ITEM *val)
{
	unsigned char id[KEYS_UUID_LEN];
	WT_CURSOR *c = en->idx[0];
	int rc;

	make_id(en, row, id);
	set_id_key(en, id);
	rc = c->search(c);
	if (rc == WT_NOTFOUND)
		return E_MISSING;
	if (rc == 0)
		rc = c->get_value(c, recid);
	c->reset(c);
	if (rc)
		return rc;
	if (*recid != (int64_t)row + 1)
		return E_MISSING;
	en->coll->set_key(en->coll, *recid);
	rc = en->coll->search(en->coll);
	if (rc == WT_NOTFOUND)
		return E_MISSING;
	if (rc == 0)
		rc = en->coll->get_value(en->coll, val);
	if (rc == 0 && val->size < en->off_payload)
		return E_MISSING; /* not a record idxlab wrote */
	return rc;
}

static int op_insert(struct engine *en, uint64_t row)
{
	int64_t recid = (int64_t)row + 1, zero = 0;
	WT_ITEM it = { .data = en->row, .size = en->row_len };
	int c, rc;

	make_id(en, row, en->row);
	for (c = 1; c <= 8; c++)
		make_key(en, c, row, 0, en->row + off_key(en, c));
	memcpy(en->row + en->off_hot, &zero, sizeof zero);
	en->coll->set_key(en->coll, recid);
	en->coll->set_value(en->coll, &it);
	if ((rc = en->coll->insert(en->coll)) != 0)
		return rc;
	set_id_key(en, en->row);
	en->idx[0]->set_value(en->idx[0], recid);
	if ((rc = en->idx[0]->insert(en->idx[0])) != 0)
		return rc;
	for (c = 1; c <= en->nidx; c++)
		if ((rc = index_insert(en, c, en->row + off_key(en, c), recid)) != 0)
			return rc;
	return 0;
}

static int op_update(struct engine *en, uint64_t row)
{
	WT_MODIFY m;
	WT_ITEM val;
	int64_t recid, hot;
	int rc = find_row(en, row, &recid, &val);

	if (rc)
		return rc;
	memcpy(&hot, (const unsigned char *)val.data + en->off_hot, sizeof hot);
	hot++;
	m.data.data = &hot;
	m.data.size = sizeof hot;
	m.offset = en->off_hot;
	m.size = sizeof hot;
	rc = en->coll->modify(en->coll, &m, 1);
	en->coll->reset(en->coll);
	return rc;
}

/* Set key columns k1..k<ncols> of row to their values at version; the
 * indexes on the ones that changed move their entry, like mongod's $set. */
static int op_update_keys(struct engine *en, uint64_t row, uint64_t version, int ncols)
{
	unsigned char old[8 * KEYS_UUID_LEN], now[8 * KEYS_UUID_LEN];
	size_t klen = en->key_len, len = (size_t)ncols * klen;
	WT_MODIFY m;
	WT_ITEM val;
	int64_t recid;
	int c, rc = find_row(en, row, &recid, &val);

	if (rc)
		return rc;
	/* k1..k8 lie side by side in the record. */
	memcpy(old, (const unsigned char *)val.data + off_key(en, 1), len);
	for (c = 1; c <= ncols; c++)
		make_key(en, c, row, version, now + (size_t)(c - 1) * klen);
	m.data.data = now;
	m.data.size = len;
	m.offset = off_key(en, 1);
	m.size = len;
	rc = en->coll->modify(en->coll, &m, 1);
	en->coll->reset(en->coll);
	for (c = 1; !rc && c <= ncols && c <= en->nidx; c++) {
		const unsigned char *o = old + (size_t)(c - 1) * klen,
		                    *n = now + (size_t)(c - 1) * klen;

		if (memcmp(o, n, klen) == 0)
			continue;
		if ((rc = index_remove(en, c, o, recid)) != 0)
			return rc == WT_NOTFOUND ? E_MISSING : rc;
		rc = index_insert(en, c, n, recid);
	}
	return rc;
}

static int op_delete(struct engine *en, uint64_t row)
{
	unsigned char keys[8][KEYS_UUID_LEN], id[KEYS_UUID_LEN];
	WT_ITEM val;
	int64_t recid;
	int c, rc = find_row(en, row, &recid, &val);

	if (rc)
		return rc;
	memcpy(id, val.data, en->id_len);
	for (c = 1; c <= en->nidx; c++)
		memcpy(keys[c - 1], (const unsigned char *)val.data + off_key(en, c), en->key_len);
	if ((rc = en->coll->remove(en->coll)) != 0)
		return rc;
	set_id_key(en, id);
	if ((rc = en->idx[0]->remove(en->idx[0])) != 0)
		return rc == WT_NOTFOUND ? E_MISSING : rc;
	for (c = 1; c <= en->nidx; c++)
		if ((rc = index_remove(en, c, keys[c - 1], recid)) != 0)
			return rc == WT_NOTFOUND ? E_MISSING : rc;
	return 0;
}

/* One operation on row n: 0, E_MISSING or a WiredTiger error. */
static int do_op(struct engine *en, long long op, uint64_t row, uint64_t version)
{
	switch (op) {
	case OP_INSERT:
		return op_insert(en, row);
	case OP_UPDATE:
		return op_update(en, row);
	case OP_UPDATE_INDEXED:
		return op_update_keys(en, row, version, 1);
	case OP_UPDATE_KEYS:
		return op_update_keys(en, row, version, 8);
	default:
		return op_delete(en, row);
	}
}

static int op_fail(struct engine *en, struct err *e, long long op, uint64_t row, int rc)
{
	char what[96];

	if (rc == E_MISSING || rc == WT_NOTFOUND || rc == WT_DUPLICATE_KEY)
		return err_set(e, ERR_RUNTIME,
		               "%s of row %llu: %s: the tables are not what idxlab built",
		               knob_table[K_OP].choices[op], (unsigned long long)row,
		               rc == WT_DUPLICATE_KEY ? "it is there already" : "it is missing");
	snprintf(what, sizeof what, "%s of row %llu", knob_table[K_OP].choices[op],
	         (unsigned long long)row);
	return wt_fail(en, e, what, rc);
}

/* ---- transactions ----------------------------------------------------- */

static int begin(struct engine *en, long long op, struct err *e)
{
	int rc = en->s->begin_transaction(en->s, "isolation=snapshot");

	if (rc)
		return wt_fail(en, e, "begin a transaction", rc);
	en->in_txn = 1;
	en->txn_op = op;
	en->txn_rows = 0;
	en->txn_t0 = clock_now_ns();
	rowset_mark(&en->rs, &en->mark);
	return 0;
}

/* Roll the open transaction back, and the rowset with it. */
static void abort_txn(struct engine *en)
{
	if (!en->in_txn)
		return;
	(void)en->s->rollback_transaction(en->s, NULL);
	rowset_rewind(&en->rs, &en->mark, en->txn_op);
	en->in_txn = 0;
	en->txn_rows = 0;
}

/* Commit; WT_ROLLBACK and friends are returned as they are (the transaction
 * is then rolled back, by WiredTiger and here). */
static int commit_raw(struct engine *en, struct step_out *out, struct hist *lat)
{
	int rc =
	    en->s->commit_transaction(en->s, en->k.v[K_SYNC] == SYNC_OFF ? "sync=off" : "sync=on");

	if (rc) {
		rowset_rewind(&en->rs, &en->mark, en->txn_op);
		en->in_txn = 0;
		en->txn_rows = 0;
		return rc;
	}
	en->in_txn = 0;
	if (lat)
		hist_add(lat, clock_now_ns() - en->txn_t0);
	out->commits++;
	return 0;
}

/* A transaction of n rows (its last operation may have failed: it is then
 * one of the n) was rolled back for the cache, and the rowset with it:
 * replay the same rows in transactions half as big, down to one row. A stop
 * waits for the replay (n is at most what fills the cache: seconds), so the
 * rows counted as done are done and the step's partial result is right. */
static int replay(struct engine *en, uint64_t n, struct step_out *out, struct hist *lat,
                  struct err *e)
{
	long long op = en->txn_op;
	uint64_t chunk = n / 2 ? n / 2 : 1, done = 0, ntx = 0, t0 = clock_now_ns(), row = 0;
	int ones = 0, rc = 0, in_commit, said = 0;
	char cache[32];

	en->rollbacks++;
	while (done < n) {
		uint64_t c = n - done < chunk ? n - done : chunk, j, version;

		if (!said && en->stop && atomic_load(en->stop)) {
			evlog_add(
			    EV_INFO,
			    "wiredtiger: stopping after the replay of a rolled-back "
			    "transaction (%llu of %llu rows to go; a second Ctrl-C quits now)",
			    (unsigned long long)(n - done), (unsigned long long)n);
			said = 1;
		}
		if (begin(en, op, e) < 0)
			return -1;
		for (j = 0; j < c; j++) {
			if (!rowset_next(&en->rs, op, &row, &version)) {
				abort_txn(en);
				return err_set(e, ERR_RUNTIME,
				               "replaying a rolled-back transaction: "
				               "its rows are gone (a bug in idxlab)");
			}
			if ((rc = do_op(en, op, row, version)) != 0)
				break;
			rowset_done(&en->rs, op, row);
		}
		in_commit = rc == 0;
		if (rc == 0)
			rc = commit_raw(en, out, lat);
		else
			abort_txn(en);
		if (rc == 0) {
			done += c;
			ntx++;
			en->replayed += c;
			continue;
		}
		if (!retryable(rc))
			return in_commit ? wt_fail(en, e, "commit", rc)
			                 : op_fail(en, e, op, row, rc);
		en->rollbacks++;
		if (chunk > 1) {
			chunk /= 2;
		} else if (++ones > 5) {
			return wt_fail(en, e, "retry a rolled-back transaction", rc);
		} else {
			clock_sleep_ms(10L << ones); /* let eviction catch up */
		}
	}
	if (!en->cap || chunk < en->cap)
		en->cap = chunk;
	/* Say it, but not hundreds of times a second. */
	if (t0 - en->last_rb_log > 1000000000ULL || !en->last_rb_log) {
		cache_text(en->cache, cache, sizeof cache);
		evlog_add(EV_WARN,
		          "wiredtiger: WT_ROLLBACK: a %llu-row transaction overflowed the %s "
		          "cache; retried smaller (%llu transactions of <= %llu rows); now <= "
		          "%llu rows per transaction until --cache or --commit changes",
		          (unsigned long long)n, cache, (unsigned long long)ntx,
		          (unsigned long long)chunk, (unsigned long long)en->cap);
		en->last_rb_log = t0;
	}
	return 0;
}

/* Commit the open transaction; a rollback replays it smaller. */
static int commit(struct engine *en, struct step_out *out, struct hist *lat, struct err *e)
{
	uint64_t n = en->txn_rows;
	int rc;

	if (!en->in_txn)
		return 0;
	rc = commit_raw(en, out, lat);
	if (rc == 0)
		return 0;
	if (retryable(rc)) /* the transaction and the rowset are rolled back */
		return replay(en, n, out, lat, e);
	return wt_fail(en, e, "commit", rc);
}

static int wt_finish(struct engine *en, struct step_out *out, struct hist *lat, struct err *e)
{
	/* Stopping with a transaction that has filled the cache: its commit
	 * waits for eviction, which cannot free its own pages - seen to spin
	 * for minutes. The user wants out: let the commit's wait for cache
	 * space give up after a second (WiredTiger then lets the cache run
	 * over), so the rows done are committed and reported. */
	if (en->in_txn && en->stop && atomic_load(en->stop))
		(void)en->conn->reconfigure(en->conn, "cache_max_wait_ms=1000");
	return commit(en, out, lat, e);
}

/* Run up to budget operations; commit every per_commit rows (0: never). */
static int run_ops(struct engine *en, long long op, uint64_t per_commit, uint64_t budget,
                   struct step_out *out, struct hist *lat, struct err *e)
{
	uint64_t limit = per_commit == (uint64_t)COMMIT_ALL ? UINT64_MAX : per_commit, i;

	if (en->cap && en->cap < limit)
		limit = en->cap;
	for (i = 0; i < budget; i++) {
		uint64_t row, version;
		int rc;

		if (!rowset_next(&en->rs, op, &row, &version))
			break; /* nothing left to work on */
		if (!en->in_txn && begin(en, op, e) < 0)
			return -1;
		rc = do_op(en, op, row, version);
		if (rc) {
			uint64_t n = en->txn_rows + 1;

			abort_txn(en);
			if (!retryable(rc))
				return op_fail(en, e, op, row, rc);
			/* The failed operation is replayed with the rest. */
			if (replay(en, n, out, lat, e) < 0)
				return -1;
			out->rows++;
			if (en->cap && en->cap < limit)
				limit = en->cap;
			continue;
		}
		rowset_done(&en->rs, op, row);
		out->rows++;
		if (++en->txn_rows >= limit && commit(en, out, lat, e) < 0)
			return -1;
		if (en->cap && en->cap < limit)
			limit = en->cap;
	}
	return 0;
}

static int wt_step(struct engine *en, const struct knobs *k, uint64_t budget, struct step_out *out,
                   struct hist *lat, struct err *e)
{
	return run_ops(en, en->k.v[K_OP], (uint64_t)k->v[K_COMMIT], budget, out, lat, e);
}

/* ---- configuration ---------------------------------------------------- */

/* Set the cache to bytes (at least WiredTiger's 1 MB) and say where
 * eviction starts. */
static int set_cache(struct engine *en, long long bytes, int say, struct err *e)
{
	char cfg[128], c[32], dt[32], dg[32];
	int rc;

	if (bytes < MIN_CACHE) {
		if (say)
			evlog_add(EV_WARN, "wiredtiger: the smallest cache WiredTiger accepts is "
			                   "1MiB: using that");
		bytes = MIN_CACHE;
	}
	snprintf(cfg, sizeof cfg, "cache_size=%lld", bytes);
	if ((rc = en->conn->reconfigure(en->conn, cfg)) != 0)
		return wt_fail(en, e, "set cache_size", rc);
	en->cache = bytes;
	if (say) {
		cache_text(bytes, c, sizeof c);
		cache_text(bytes * WT_DIRTY_TARGET_PCT / 100, dt, sizeof dt);
		cache_text(bytes * WT_DIRTY_TRIGGER_PCT / 100, dg, sizeof dg);
		evlog_add(EV_INFO,
		          "wiredtiger: cache %s: eviction threads write dirty pages beyond %s "
		          "(dirty target %d%%), the workload itself beyond %s (dirty trigger "
		          "%d%%)",
		          c, dt, WT_DIRTY_TARGET_PCT, dg, WT_DIRTY_TRIGGER_PCT);
	}
	return 0;
}

/* After the load and its checkpoint, empty the cache: pages WiredTiger
 * evicted while loading come back from disk in their compact form, those it
 * kept are still in-memory insert lists, slower to search. How many it
 * evicted depends on the load's size, so without this the 0-index table of
 * a sweep (small: nothing evicted) is slower to update than the 5-index one.
 * Now every step starts from a table on disk. */
static int squeeze_cache(struct engine *en, struct err *e)
{
	uint64_t v[S_COUNT];
	int i;

	if (set_cache(en, MIN_CACHE, 0, e) < 0)
		return -1;
	for (i = 0; i < SQUEEZE_TRIES && en->probes; i++) {
		if (read_stats(en, v, e) < 0)
			return -1;
		if (v[S_CACHE_INUSE] <= 2 * MIN_CACHE)
			break;
		if (en->stop && atomic_load(en->stop))
			break;
		usleep(20000);
	}
	if (!en->probes)
		usleep(200000); /* no statistics to watch: give eviction a moment */
	return 0;
}

static int set_checkpoint(struct engine *en, long long secs, struct err *e)
{
	char cfg[64];
	int rc;

	snprintf(cfg, sizeof cfg, "checkpoint=(wait=%lld)", secs);
	if ((rc = en->conn->reconfigure(en->conn, cfg)) != 0)
		return wt_fail(en, e, "set the checkpoint interval", rc);
	return 0;
}

static void set_row_layout(struct engine *en, long long payload)
{

	en->id_len = en->uuid_pk ? KEYS_UUID_LEN : sizeof(int64_t);
	en->key_len = en->uuid_keys ? KEYS_UUID_LEN : sizeof(int64_t);
	en->off_hot = en->id_len + 8 * en->key_len;
	en->off_payload = en->off_hot + sizeof(int64_t);
	en->row_len = en->off_payload + (size_t)payload;
	free(en->row);
	en->row = malloc(en->row_len);
	if (!en->row)
		abort();
	memset(en->row, 0, en->off_payload);
	keys_payload((char *)en->row + en->off_payload, (size_t)payload);
}

/* ---- index builds ----------------------------------------------------- */

/* Fill index table i (k1..k8) from the collection, in transactions that
 * shrink when the cache rolls one back. */
static int fill_index(struct engine *en, int i, struct err *e)
{
	WT_CURSOR *scan = NULL;
	int64_t next = 1; /* first record id not yet indexed */
	uint64_t batch = LOAD_TXN_ROWS;
	int rc = 0, ones = 0;
	char what[64];

	snprintf(what, sizeof what, "build the %s index", idx_col[i]);
	if ((rc = en->s->open_cursor(en->s, COLL_URI, NULL, NULL, &scan)) != 0)
		return wt_fail(en, e, what, rc);
	for (;;) {
		int64_t recid = 0, last = next - 1;
		uint64_t n = 0;
		int exact = 0;

		if (en->stop && atomic_load(en->stop)) {
			scan->close(scan);
			return err_set(e, ERR_RUNTIME, "stopped while building the %s index",
			               idx_col[i]);
		}
		if ((rc = en->s->begin_transaction(en->s, "isolation=snapshot")) != 0)
			break;
		scan->set_key(scan, next);
		rc = scan->search_near(scan, &exact);
		if (rc == 0 && exact < 0)
			rc = scan->next(scan);
		while (rc == 0 && n < batch) {
			WT_ITEM val;

			if ((rc = scan->get_key(scan, &recid)) != 0 ||
			    (rc = scan->get_value(scan, &val)) != 0)
				break;
			if (val.size < en->off_payload) {
				rc = E_MISSING;
				break;
			}
			rc = index_insert(en, i, (const unsigned char *)val.data + off_key(en, i),
			                  recid);
			if (rc)
				break;
			last = recid;
			n++;
			rc = scan->next(scan);
		}
		if (rc == 0 || rc == WT_NOTFOUND) {
			int end = rc == WT_NOTFOUND;

			scan->reset(scan);
			rc = en->s->commit_transaction(en->s, "sync=off");
			if (rc == 0) {
				next = last + 1;
				if (end)
					break;
				continue;
			}
		} else {
			scan->reset(scan);
			(void)en->s->rollback_transaction(en->s, NULL);
		}
		if (!retryable(rc))
			break;
		en->rollbacks++;
		if (batch > 1)
			batch /= 2;
		else if (++ones > 5)
			break;
		else
			clock_sleep_ms(10L << ones);
	}
	scan->close(scan);
	if (rc == E_MISSING || rc == WT_DUPLICATE_KEY)
		return err_set(e, ERR_RUNTIME, "%s: the collection is not what idxlab built", what);
	return rc ? wt_fail(en, e, what, rc) : 0;
}

/* Create or drop index tables so that exactly k1..kto exist. */
static int set_indexes(struct engine *en, int to, struct err *e)
{
	while (en->nidx < to) {
		uint64_t t0 = clock_now_ns();
		int i = en->nidx + 1;

		if (create_index(en, i, e) < 0 || fill_index(en, i, e) < 0) {
			char what[80];

			snprintf(what, sizeof what, "building index-idxlab-k%d", i);
			(void)drop_index(en, i, NULL);
			return err_prefix(e, "%s", what);
		}
		en->nidx = i;
		if (en->live)
			evlog_add(EV_INFO, "built table:index-idxlab-k%d on %llu rows in %.2f s", i,
			          (unsigned long long)en->rs.live_rows,
			          (double)(clock_now_ns() - t0) / 1e9);
	}
	while (en->nidx > to) {
		int i = en->nidx;

		if (drop_index(en, i, e) < 0)
			return -1;
		en->nidx = i - 1;
		if (en->live)
			evlog_add(EV_INFO, "dropped index-idxlab-k%d", i);
	}
	return 0;
}

/* ---- the vtable ------------------------------------------------------- */

static void wt_close(struct engine *en)
{
	if (!en)
		return;
	if (en->conn) {
		uint64_t before;
		int rc;

		abort_txn(en);
		log_table_totals(en, "last table");
		close_cursors(en);
		en->stat = NULL; /* closed with the connection */
		before = sync_count_total();
		rc = en->conn->close(en->conn, NULL);
		if (rc)
			evlog_add(EV_WARN, "wiredtiger: close: %s", wiredtiger_strerror(rc));
		evlog_add(EV_INFO,
		          "wiredtiger: closed: %llu fsync+fdatasync calls while closing (the final "
		          "checkpoint), %llu in all since idxlab started",
		          (unsigned long long)(sync_count_total() - before),
		          (unsigned long long)sync_count_total());
		en->conn = NULL;
	}
	if (en->tmp)
		tmpdir_remove(en->home);
	rowset_free(&en->rs);
	free(en->row);
	free(en);
}

static int wt_open(struct engine **out, const struct knobs *k, const atomic_int *stop,
                   struct err *e)
{
	struct engine *en;
	char cfg[768];
	int rc;

	*out = NULL;
	en = calloc(1, sizeof *en);
	if (!en)
		abort();
	en->handler.handle_error = on_error;
	en->handler.handle_message = on_message;
	en->handler.handle_progress = on_progress;
	atomic_init(&en->quiet, 0);
	en->stop = stop;
	en->probes = (int)k->v[K_PROBES];
	en->k = *k;
	if (!k->dsn || !*k->dsn) {
		if (tmpdir_make(en->home, sizeof en->home, &wt_tmpdir, (uid_t)-1, e) < 0) {
			free(en);
			return -1;
		}
		en->tmp = 1;
		if (write_marker(en->home, e) < 0) {
			wt_close(en);
			return -1;
		}
	} else if (redact_has_secret(k->dsn)) {
		/* A connection string: as a directory it would put the password on disk. */
		free(en);
		return err_set(
		    e, ERR_USAGE,
		    "--dsn '%s' holds a password: WiredTiger takes a directory, not a "
		    "connection string - give a directory, or --engine postgres or mongo",
		    k->dsn);
	} else {
		snprintf(en->home, sizeof en->home, "%s", k->dsn);
		if (claim_dir(en->home, e) < 0) {
			free(en);
			return -1;
		}
	}
	en->cache = k->v[K_CACHE] < MIN_CACHE ? MIN_CACHE : k->v[K_CACHE];
	wt_open_config(cfg, sizeof cfg, en->cache, en->probes, k->v[K_CHECKPOINT]);
	rc = wiredtiger_open(en->home, &en->handler, cfg, &en->conn);
	if (rc) {
		en->conn = NULL;
		if (rc == EBUSY)
			err_set(e, ERR_RUNTIME,
			        "%s is in use by another process (another idxlab or a mongod?) - "
			        "give --dsn another directory",
			        en->home);
		else
			wt_fail(en, e, "open the WiredTiger database", rc);
		err_prefix(e, "%s", en->home);
		wt_close(en);
		return -1;
	}
	if ((rc = en->conn->open_session(en->conn, NULL, "cache_cursors=false", &en->s)) != 0 ||
	    (rc = en->conn->open_session(en->conn, NULL, "cache_cursors=false", &en->ss)) != 0) {
		wt_fail(en, e, "open a session", rc);
		wt_close(en);
		return -1;
	}
	fs_warn_if_memory(en->home);
	*out = en;
	return 0;
}

static int wt_setup(struct engine *en, const struct knobs *k, struct err *e)
{
	uint64_t prefill = (uint64_t)knobs_prefill(k), per_txn;
	struct step_out scratch = { 0, 0 };
	int i, rc;

	abort_txn(en);
	log_table_totals(en, "previous table");
	en->k = *k;
	en->cap = 0;
	en->rollbacks = en->replayed = 0;
	en->uuid_pk = k->v[K_PK] != PK_INT;
	en->uuid_keys = k->v[K_KEY_ORDER] >= KO_UUID7;
	en->pk_seed = (uint64_t)k->v[K_SEED];
	set_row_layout(en, k->v[K_PAYLOAD]);
	rowset_reset(&en->rs, 0);

	/* Fresh tables, opened while the cache is the measured one: WiredTiger
	 * sizes a table's in-memory pages from the cache when it opens it. */
	close_cursors(en);
	en->table = 0;
	en->nidx = 0;
	if (drop_table(en, COLL_URI, e) < 0)
		return -1;
	for (i = 0; i < NIDX; i++) {
		char uri[64];

		idx_uri(i, uri, sizeof uri);
		if (drop_table(en, uri, e) < 0)
			return -1;
	}
	if (set_cache(en, k->v[K_CACHE], 1, e) < 0 || set_checkpoint(en, 0, e) < 0)
		return -1;
	rc = en->s->create(en->s, COLL_URI, WT_COLL_CONFIG);
	if (rc)
		return wt_fail(en, e, "create " COLL_URI, rc);
	if (open_cursor(en, COLL_URI, &en->coll, e) < 0 || create_index(en, 0, e) < 0)
		return -1;
	for (i = 1; i <= k->v[K_INDEXES]; i++)
		if (create_index(en, i, e) < 0)
			return -1;

	/* Load with a big cache and no sync: the load is not measured. Indexes
	 * are built after the load, from the collection. */
	if (prefill) {
		if (en->cache < LOAD_CACHE && set_cache(en, LOAD_CACHE, 0, e) < 0)
			return -1;
		per_txn = (uint64_t)(LOAD_TXN_BYTES / (long long)en->row_len);
		per_txn = per_txn < 1 ? 1 : per_txn > LOAD_TXN_ROWS ? LOAD_TXN_ROWS : per_txn;
		en->k.v[K_SYNC] = SYNC_OFF;
		while (en->rs.next_row < prefill) {
			uint64_t n = prefill - en->rs.next_row;

			if (en->stop && atomic_load(en->stop))
				return err_set(e, ERR_RUNTIME, "stopped while loading the table");
			if (run_ops(en, OP_INSERT, per_txn, n < 65536 ? n : 65536, &scratch, NULL,
			            e) < 0 ||
			    commit(en, &scratch, NULL, e) < 0)
				return err_prefix(e, "prefill");
		}
		en->k.v[K_SYNC] = k->v[K_SYNC];
	}
	for (i = 1; i <= k->v[K_INDEXES]; i++) {
		if (prefill && fill_index(en, i, e) < 0)
			return err_prefix(e, "index-idxlab-k%d", i);
		en->nidx = i;
	}
	if ((rc = en->s->checkpoint(en->s, NULL)) != 0)
		return wt_fail(en, e, "checkpoint after loading", rc);
	if ((prefill && (squeeze_cache(en, e) < 0 || set_cache(en, k->v[K_CACHE], 0, e) < 0)) ||
	    set_checkpoint(en, k->v[K_CHECKPOINT], e) < 0)
		return -1;
	en->cap = 0;
	en->rollbacks = en->replayed = 0;
	en->last_rb_log = 0;
	rowset_prepare(&en->rs, k->v[K_OP], (uint64_t)k->v[K_SEED]);
	en->table = 1;
	en->table_t0 = clock_now_ns();
	en->syncs_table = sync_count_total();
	if (en->probes && read_stats(en, en->st_table, e) < 0)
		return -1;
	return 0;
}

static int wt_apply(struct engine *en, const struct knobs *k, struct err *e)
{
	const struct knobs old = en->k;

	if (en->in_txn)
		return err_set(e, ERR_RUNTIME, "apply inside a transaction (a bug in idxlab)");
	en->live = 1;
	en->k = *k;
	if (old.v[K_CACHE] != k->v[K_CACHE] && set_cache(en, k->v[K_CACHE], 1, e) < 0)
		return -1;
	if (old.v[K_CACHE] != k->v[K_CACHE] || old.v[K_COMMIT] != k->v[K_COMMIT])
		en->cap = 0; /* try the asked-for transaction size again */
	if (old.v[K_CHECKPOINT] != k->v[K_CHECKPOINT]) {
		if (set_checkpoint(en, k->v[K_CHECKPOINT], e) < 0)
			return -1;
		if (k->v[K_CHECKPOINT])
			evlog_add(EV_INFO, "wiredtiger: a checkpoint every %lld s",
			          k->v[K_CHECKPOINT]);
		else
			evlog_add(EV_INFO, "wiredtiger: no periodic checkpoints (one at the end)");
	}
	if (old.v[K_INDEXES] != k->v[K_INDEXES] && set_indexes(en, (int)k->v[K_INDEXES], e) < 0)
		return -1;
	if (old.v[K_PAYLOAD] != k->v[K_PAYLOAD])
		set_row_layout(en, k->v[K_PAYLOAD]);
	if (old.v[K_OP] != k->v[K_OP] || old.v[K_SEED] != k->v[K_SEED])
		rowset_prepare(&en->rs, k->v[K_OP], (uint64_t)k->v[K_SEED]);
	return 0;
}

/* mongod's compact: give the free space in each file back. */
static int wt_rewrite(struct engine *en, struct err *e)
{
	uint64_t t0 = clock_now_ns();
	int i, rc;

	if (en->in_txn)
		return err_set(e, ERR_RUNTIME, "rewrite inside a transaction (a bug in idxlab)");
	if ((rc = en->s->compact(en->s, COLL_URI, NULL)) != 0)
		return wt_fail(en, e, "compact " COLL_URI, rc);
	for (i = 0; i <= en->nidx; i++) {
		char uri[64], what[96];

		idx_uri(i, uri, sizeof uri);
		if ((rc = en->s->compact(en->s, uri, NULL)) != 0) {
			snprintf(what, sizeof what, "compact %s", uri);
			return wt_fail(en, e, what, rc);
		}
	}
	evlog_add(EV_INFO, "rewrote the tables (WT_SESSION::compact, mongod's compact) in %.2f s",
	          (double)(clock_now_ns() - t0) / 1e9);
	return 0;
}

static uint64_t wt_table_rows(struct engine *en)
{
	return en->rs.live_rows;
}

static int wt_sample(struct engine *en, struct counters *c, struct err *e)
{
	struct proc_io io;
	uint64_t v[S_COUNT];

	c->v[C_FSYNCS] = sync_count_total();
	c->valid |= 1u << C_FSYNCS;
	if (!en->probes)
		return 0;
	if (read_stats(en, v, e) < 0)
		return -1;
	c->v[C_SPILLS] = v[S_CACHE_WRITE];
	c->v[C_MISSES] = v[S_CACHE_READ];
	c->v[C_HITS] =
	    v[S_PAGES_REQUESTED] > v[S_CACHE_READ] ? v[S_PAGES_REQUESTED] - v[S_CACHE_READ] : 0;
	c->v[C_WAL_BYTES] = v[S_LOG_BYTES];
	c->v[C_DB_WRITE_BYTES] = v[S_BLOCK_WRITE];
	c->v[C_CHECKPOINTS] = v[S_CHECKPOINTS];
	c->v[C_CACHE_USED] = v[S_CACHE_INUSE];
	c->v[C_CACHE_DIRTY] = v[S_CACHE_DIRTY];
	c->v[C_CACHE_MAX] = v[S_CACHE_MAX];
	c->valid |= 1u << C_SPILLS | 1u << C_MISSES | 1u << C_HITS | 1u << C_WAL_BYTES |
	            1u << C_DB_WRITE_BYTES | 1u << C_CHECKPOINTS | 1u << C_CACHE_USED |
	            1u << C_CACHE_DIRTY | 1u << C_CACHE_MAX;
	if (proc_io_read_engine(&io) == 0) {
		c->v[C_WCHAR] = io.wchar;
		c->v[C_WRITE_BYTES] = io.write_bytes;
		c->valid |= 1u << C_WCHAR | 1u << C_WRITE_BYTES;
	}
	return 0;
}

static int64_t file_size(const struct engine *en, const char *uri)
{
	char p[PATH_MAX + 64];
	struct stat st;

	/* table:NAME lives in NAME.wt */
	snprintf(p, sizeof p, "%s/%s.wt", en->home, strchr(uri, ':') + 1);
	return stat(p, &st) == 0 ? (int64_t)st.st_size : 0;
}

static int wt_sizes(struct engine *en, struct sizes *s, struct err *e)
{
	int i;

	(void)e;
	memset(s, 0, sizeof *s);
	s->db_bytes = s->index_bytes = -1;
	if (!en->table)
		return 0;
	s->db_bytes = file_size(en, COLL_URI);
	s->index_bytes = 0;
	for (i = 0; i <= en->nidx; i++) {
		char uri[64];
		int64_t b;

		idx_uri(i, uri, sizeof uri);
		b = file_size(en, uri);
		s->db_bytes += b;
		if (i == 0)
			continue;
		s->index_bytes += b;
		s->index_pages[i - 1] = (b + PAGE_UNIT - 1) / PAGE_UNIT; /* nidx <= 8 */
		s->nindex = i;
	}
	return 0;
}

static const char *wt_where(struct engine *en)
{
	return en->home;
}

static const char *wt_version(void)
{
	static char buf[64];
	int major, minor, patch;

	(void)wiredtiger_version(&major, &minor, &patch);
	snprintf(buf, sizeof buf, "WiredTiger %d.%d.%d", major, minor, patch);
	return buf;
}

/* cache_size as set: WiredTiger takes no less than 1 MiB. */
static void wt_in_force(struct engine *en, struct knobs *k)
{
	k->v[K_CACHE] = en->cache;
}

const struct engine_ops wiredtiger_engine = {
	.name = "wiredtiger",
	.bit = ENG_WIREDTIGER,
	.version = wt_version,
	.open = wt_open,
	.setup = wt_setup,
	.apply = wt_apply,
	.rewrite = wt_rewrite,
	.table_rows = wt_table_rows,
	.step = wt_step,
	.finish = wt_finish,
	.sample = wt_sample,
	.sizes = wt_sizes,
	.in_force = wt_in_force,
	.where = wt_where,
	.close = wt_close,
};
