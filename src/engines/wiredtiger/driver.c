/* driver.c - the WiredTiger engine (embedded: mongod's storage engine, no
 * server): its vtable - open, setup, apply, rewrite, close - and the
 * directory it lives in.
 *
 * The layout is mongod's (schema.c, layout.h): a collection keyed by record
 * id and one table per index of the table spec (--schema), the journal (WT log) on, a checkpoint every
 * `checkpoint` seconds, snapshot isolation, commit sync on or off per
 * transaction (txn.c).
 *
 * Where: by default a temp dir $TMPDIR/idxlab-wt.XXXXXX (tmpdir.h) that
 * close() removes (and that the next start removes if idxlab was killed);
 * --dsn DIR is a directory that is new, empty, or was made by idxlab (it
 * holds the marker file idxlab.marker); anything else is refused and left
 * untouched, and DIR itself is never removed. One
 * connection lives as long as the engine; each setup drops the tables and
 * makes them again, then loads the prefill with a big cache, checkpoints and
 * shrinks the cache to the knob, so the window sees only measured work. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../evlog.h"
#include "../../mix.h"
#include "../../probes/fs_kind.h"
#include "../../probes/sync_count.h"
#include "../../redact.h"
#include "../tmpdir.h"
#include "internal.h"

#define MARKER         "idxlab.marker"
#define MARKER_TEXT    "created by idxlab (--engine wiredtiger)\n"
#define LOAD_CACHE     WT_LOAD_CACHE
#define LOAD_TXN_BYTES WT_LOAD_TXN_BYTES

static const struct tmpdir_kind wt_tmpdir = {
	.name = "wt",
	.what = "WiredTiger",
	.alt = "pass --dsn DIR",
};

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

/* ---- the vtable ------------------------------------------------------- */

static void wt_close(struct engine *en)
{
	if (!en)
		return;
	if (en->conn) {
		uint64_t before;
		int rc;

		wt_abort_txn(en);
		wt_log_table_totals(en, "last table");
		wt_free_reads(en);
		wt_close_cursors(en);
		en->stat = NULL; /* closed with the connection */
		before = sync_count_total();
		rc = en->conn->close(en->conn, NULL);
		if (rc)
			evlog_add(EV_WARN, "wiredtiger: close: %s", wiredtiger_strerror(rc));
		evlog_detail(
		    "wiredtiger: closed: %llu fsync+fdatasync calls while closing (the final "
		    "checkpoint), %llu in all since idxlab started",
		    (unsigned long long)(sync_count_total() - before),
		    (unsigned long long)sync_count_total());
		en->conn = NULL;
	}
	if (en->tmp)
		tmpdir_remove(en->home);
	free(en->row);
	free(en->old);
	free(en->rd.heap);
	free(en);
}

static int wt_open(struct engine **out, const struct knobs *k, struct txn *t,
                   const atomic_int *stop, struct err *e)
{
	struct engine *en;
	char cfg[768];
	int rc;

	*out = NULL;
	en = calloc(1, sizeof *en);
	if (!en)
		abort();
	wt_events_init(&en->handler);
	atomic_init(&en->quiet, 0);
	en->txn = t;
	en->rs = t->rs;
	txn_init(t, en, t->rs, &wt_txn_hooks);
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
	int i, rc;

	wt_abort_txn(en);
	wt_log_table_totals(en, "previous table");
	en->k = *k;
	en->txn->cap = 0;
	en->rollbacks = en->replayed = 0;
	en->uuid_pk = k->v[K_PK] != PK_INT;
	en->pk_seed = (uint64_t)k->v[K_SEED];
	/* Fresh tables, opened while the cache is the measured one: WiredTiger
	 * sizes a table's in-memory pages from the cache when it opens it. */
	wt_free_reads(en);
	wt_close_cursors(en);
	en->table = 0;
	en->nidx = 0;
	wt_set_tables(en);
	wt_set_row_layout(en, k->v[K_PAYLOAD]);
	{
		int c, first = 0, n = 0;

		for (c = 1; c < en->sc->ncols; c++)
			if (en->sc->cols[c].nulls > 0 && !n++)
				first = c;
		if (n) /* WiredTiger's records have no NULL */
			evlog_add(EV_INFO,
			          "wiredtiger: its records have no NULL: the NULLs of %s%s are "
			          "written as 0 or zero bytes",
			          en->sc->cols[first].name,
			          n > 1 ? " and the other nullable columns" : "");
	}
	if (wt_bulk_prepare(en, k, e) < 0) /* the step's hooks: copy has no prefill */
		return -1;
	if (wt_drop_all(en, e) < 0)
		return -1;
	if (wt_set_cache(en, k->v[K_CACHE], 1, e) < 0 || wt_set_checkpoint(en, 0, e) < 0)
		return -1;
	rc = en->s->create(en->s, COLL_URI, WT_COLL_CONFIG);
	if (rc)
		return wt_fail(en, e, "create " COLL_URI, rc);
	if (wt_open_cursor(en, COLL_URI, &en->coll, e) < 0 || wt_create_index(en, 0, e) < 0)
		return -1;
	for (i = 1; i <= k->v[K_INDEXES]; i++)
		if (wt_create_index(en, i, e) < 0)
			return -1;
	return 0;
}

/* Load with a big cache and no sync: the load is not measured. Indexes
 * are built after the load, from the collection (wt_ready). */
static int wt_load(struct engine *en, uint64_t rows, struct err *e)
{
	struct step_out scratch = { 0, 0 };
	long long sync = en->k.v[K_SYNC];
	uint64_t per_txn;

	if (en->cache < LOAD_CACHE && wt_set_cache(en, LOAD_CACHE, 0, e) < 0)
		return -1;
	per_txn = (uint64_t)(LOAD_TXN_BYTES / (long long)en->row_len);
	per_txn = per_txn < 1 ? 1 : per_txn > LOAD_TXN_ROWS ? LOAD_TXN_ROWS : per_txn;
	en->k.v[K_SYNC] = SYNC_OFF;
	en->txn->mixed = 0; /* the load inserts: a mix's draws are its step's (wl_batch) */
	while (en->rs->next_row < rows) {
		uint64_t n = rows - en->rs->next_row;

		if (en->stop && atomic_load(en->stop))
			return err_set(e, ERR_RUNTIME, "stopped while loading the table");
		if (txn_step(en->txn, OP_INSERT, per_txn, n < 65536 ? n : 65536, &scratch, NULL,
		             e) < 0 ||
		    txn_finish(en->txn, &scratch, NULL, e) < 0)
			return err_prefix(e, "prefill");
	}
	en->k.v[K_SYNC] = sync;
	return 0;
}

static int wt_ready(struct engine *en, const struct knobs *k, uint64_t prefill, struct err *e)
{
	int i, rc;

	for (i = 1; i <= k->v[K_INDEXES]; i++) {
		if (prefill && wt_fill_index(en, i, e) < 0)
			return err_prefix(e, "%s", en->ix[i].uri + strlen("table:"));
		en->nidx = i;
	}
	if ((rc = en->s->checkpoint(en->s, NULL)) != 0)
		return wt_fail(en, e, "checkpoint after loading", rc);
	if ((prefill &&
	     (wt_squeeze_cache(en, e) < 0 || wt_set_cache(en, k->v[K_CACHE], 0, e) < 0)) ||
	    wt_set_checkpoint(en, k->v[K_CHECKPOINT], e) < 0)
		return -1;
	en->txn->cap = 0;
	en->rollbacks = en->replayed = 0;
	en->last_rb_log = 0;
	rowset_prepare(en->rs, mix_ops(k), (uint64_t)k->v[K_SEED]);
	if (wt_prepare_reads(en, k, e) < 0)
		return -1;
	en->table = 1;
	en->table_t0 = clock_now_ns();
	en->syncs_table = sync_count_total();
	if (en->probes && wt_read_stats(en, en->st_table, e) < 0)
		return -1;
	wt_reads_pages(en, en->st_table[S_CACHE_READ], 1); /* the queries' from here */
	return 0;
}

/* From now on the pages read into the cache are the queries' (when they
 * are counted: statistics on). */
static int mark_pages(struct engine *en, struct err *e)
{
	uint64_t v[S_COUNT];

	if (!en->probes || !OP_READS(en->k.v[K_OP]))
		return 0;
	if (wt_read_stats(en, v, e) < 0)
		return -1;
	wt_reads_pages(en, v[S_CACHE_READ], 1);
	return 0;
}

static int wt_apply(struct engine *en, const struct knobs *k, struct err *e)
{
	const struct knobs old = en->k;

	if (en->txn->open)
		return err_set(e, ERR_RUNTIME, "apply inside a transaction (a bug in idxlab)");
	en->live = 1;
	en->k = *k;
	en->fast = schema_fast_keys(en->sc, k, &en->keys);
	if (old.v[K_CACHE] != k->v[K_CACHE] && wt_set_cache(en, k->v[K_CACHE], 1, e) < 0)
		return -1;
	if (old.v[K_CACHE] != k->v[K_CACHE] || old.v[K_COMMIT] != k->v[K_COMMIT])
		en->txn->cap = 0; /* try the asked-for transaction size again */
	if (old.v[K_CHECKPOINT] != k->v[K_CHECKPOINT]) {
		if (wt_set_checkpoint(en, k->v[K_CHECKPOINT], e) < 0)
			return -1;
		if (k->v[K_CHECKPOINT])
			evlog_add(EV_INFO, "wiredtiger: a checkpoint every %lld s",
			          k->v[K_CHECKPOINT]);
		else
			evlog_add(EV_INFO, "wiredtiger: no periodic checkpoints (one at the end)");
	}
	if (old.v[K_INDEXES] != k->v[K_INDEXES]) {
		wt_free_reads(en); /* its cursors: a table with one open is not dropped */
		if (wt_set_indexes(en, (int)k->v[K_INDEXES], e) < 0)
			return -1;
	}
	if (old.v[K_PAYLOAD] != k->v[K_PAYLOAD])
		wt_set_row_layout(en, k->v[K_PAYLOAD]);
	if (mix_ops(&old) != mix_ops(k) || old.v[K_SEED] != k->v[K_SEED])
		rowset_prepare(en->rs, mix_ops(k), (uint64_t)k->v[K_SEED]);
	/* a read's queries are served by the indexes built: chosen again */
	if (old.v[K_OP] != k->v[K_OP] || old.v[K_SEED] != k->v[K_SEED] ||
	    old.v[K_MIX] != k->v[K_MIX] || old.v[K_INDEXES] != k->v[K_INDEXES] ||
	    ((OP_READS(k->v[K_OP]) || k->v[K_MIX]) &&
	     (old.v[K_MISS] != k->v[K_MISS] || old.v[K_RANGE_ROWS] != k->v[K_RANGE_ROWS]))) {
		if (wt_prepare_reads(en, k, e) < 0)
			return -1;
	}
	return mark_pages(en, e); /* an index build's reads are not the queries' */
}

/* mongod's compact: give the free space in each file back. */
static int wt_rewrite(struct engine *en, struct err *e)
{
	uint64_t t0 = clock_now_ns();
	int i, rc;

	if (en->txn->open)
		return err_set(e, ERR_RUNTIME, "rewrite inside a transaction (a bug in idxlab)");
	if ((rc = en->s->compact(en->s, COLL_URI, NULL)) != 0)
		return wt_fail(en, e, "compact " COLL_URI, rc);
	for (i = 0; i <= en->nidx; i++) {
		const char *uri = en->ix[i].uri;
		char what[128];

		if ((rc = en->s->compact(en->s, uri, NULL)) != 0) {
			snprintf(what, sizeof what, "compact %s", uri);
			return wt_fail(en, e, what, rc);
		}
	}
	evlog_add(EV_INFO, "rewrote the tables (WT_SESSION::compact, mongod's compact) in %.2f s",
	          (double)(clock_now_ns() - t0) / 1e9);
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

/* What differs from knob_table[]'s defaults on this engine. */
static const struct knob_default wt_defaults[] = {
	{ K_CACHE, "256MiB" },
	{ 0, NULL },
};

/* The engine-specific knobs (KF_ENGINE_OWN) this engine honours. */
static const int wt_own_knobs[] = { K_CHECKPOINT, -1 };

const struct engine_ops wiredtiger_engine = {
	.defaults = wt_defaults,
	.own_knobs = wt_own_knobs,
	.table_specs = 1,
	.loads = 1u << LOAD_COPY,
	.check = wt_check_knobs,
	.why_no_load = "WiredTiger has no statements to batch rows in (a row is a cursor "
	               "insert per table, whatever the batch); its bulk path is --load copy",
	.version = wt_version,
	.open = wt_open,
	.setup = wt_setup,
	.load = wt_load,
	.ready = wt_ready,
	.apply = wt_apply,
	.rewrite = wt_rewrite,
	.finish_start = wt_finish_start,
	.sample = wt_sample,
	.stats = { &wt_stats, &wt_query_stats },
	.measures_more = WT_SAMPLE_OWN,
	.sizes = wt_sizes,
	.settle = wt_settle,
	.in_force = wt_in_force,
	.reads = wt_reads_of,
	.where = wt_where,
	.figure = M_WRITE_BYTES_PER_ROW, /* the log and the checkpoints, per row */
	.own_place = "idxlab's own temp home",
	.where_own = tmpdir_holds,
	.close = wt_close,
};
