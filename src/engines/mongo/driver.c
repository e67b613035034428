/* driver.c - the MongoDB engine (libmongoc): the vtable, open, setup,
 * apply, rewrite, close, and the claim on database idxlab.
 *
 * Where: --dsn mongodb://... or else $MONGODB_URI; with neither, a throwaway
 * mongod from $PATH (server.c). Unless the URI sets them, server selection
 * and connecting give up after 3 s, so a wrong address fails fast.
 *
 * What: collection `t` in database `idxlab`, its documents and indexes as
 * the knobs' table spec says (doc.h). The database is idxlab's when
 * idxlab_meta holds { _id: "created_by", v: "idxlab" }; idxlab writes that
 * marker before it creates anything else, and refuses (touching nothing) a
 * database idxlab that has collections but no marker, or that holds
 * collections idxlab does not make. On a user's server both collections
 * are dropped again at close, and a WiredTiger cache idxlab changed is set
 * back.
 *
 * How: a commit is one acknowledged ordered bulk write (txn.c, rows.c), or
 * with --load copy one unordered insert_many; a read one find (reads.c);
 * counters come from serverStatus by key name (stats.c). libmongoc's log
 * goes to the event log, never to the terminal.
 *
 * Threads: one single-threaded mongoc_client_t, used by the worker only. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../clock.h"
#include "../../evlog.h"
#include "../../mix.h"
#include "../spawn.h"
#include "internal.h"

#define DSN_ENV "MONGODB_URI" /* the server, when there is no --dsn */
/* where() of a throwaway mongod: then its version and directory. */
#define THROWAWAY_WHERE "throwaway mongod "

/* ---- libmongoc, once per process ---------------------------------------- */

static void log_to_evlog(mongoc_log_level_t level, const char *domain, const char *message,
                         void *data)
{
	(void)data;
	if (level >= MONGOC_LOG_LEVEL_DEBUG)
		return;
	evlog_add(level <= MONGOC_LOG_LEVEL_CRITICAL  ? EV_ERROR
	          : level == MONGOC_LOG_LEVEL_WARNING ? EV_WARN
	                                              : EV_INFO,
	          "mongoc %s: %s", domain, message);
}

/* libmongoc (as Debian builds it) maps its counters from a file
 * /dev/shm/mongoc-PID as the program loads, whatever the engine, and removes
 * it only at a clean exit: each killed idxlab left one behind (and a later
 * run with that pid got "Falling back to malloc for counters" on stderr).
 * The mapping is all libmongoc uses, so the name goes as soon as idxlab
 * starts: only the file this process has mapped (/proc/self/maps), never
 * another process's. */
__attribute__((constructor)) static void forget_counters_file(void)
{
	char path[64], line[512];
	size_t n;
	FILE *f;

	snprintf(path, sizeof path, "/dev/shm/mongoc-%d", (int)getpid());
	n = strlen(path);
	f = fopen("/proc/self/maps", "re");
	while (f && fgets(line, sizeof line, f)) {
		size_t len = strcspn(line, "\n");

		if (len >= n && memcmp(line + len - n, path, n) == 0) {
			unlink(path);
			break;
		}
	}
	if (f)
		fclose(f);
}

static pthread_once_t lib_once = PTHREAD_ONCE_INIT;

static void lib_init(void)
{
	/* The handler first: mongoc_init may already have something to say. */
	mongoc_log_trace_disable();
	mongoc_log_set_handler(log_to_evlog, NULL);
	mongoc_init();
	/* At exit rather than at close: mongoc_init works once per process. */
	atexit(mongoc_cleanup);
}

/* ---- database idxlab: ours, or refused untouched ---------------------------- */

/* Names of the collections in database idxlab; bson_strfreev the result.
 * NULL with e filled on failure. */
static char **collections(struct engine *en, struct err *e)
{
	bson_error_t be;
	char **names = mongoc_database_get_collection_names_with_opts(en->db, NULL, &be);

	if (!names)
		mongo_fail(en, &be, e, "listing the collections of database idxlab");
	return names;
}

/* Does idxlab_meta hold idxlab's marker? 1, 0, or -1 with e filled. */
static int has_marker(struct engine *en, struct err *e)
{
	mongoc_collection_t *meta = mongoc_database_get_collection(en->db, META_NAME);
	bson_t filter = BSON_INITIALIZER, opts = BSON_INITIALIZER;
	mongoc_cursor_t *cur;
	const bson_t *doc;
	bson_iter_t it;
	bson_error_t be;
	int found = 0;

	BSON_APPEND_UTF8(&filter, "_id", "created_by");
	BSON_APPEND_INT64(&opts, "limit", 1);
	cur = mongoc_collection_find_with_opts(meta, &filter, &opts, NULL);
	while (mongoc_cursor_next(cur, &doc))
		if (bson_iter_init_find(&it, doc, "v") && BSON_ITER_HOLDS_UTF8(&it) &&
		    strcmp(bson_iter_utf8(&it, NULL), "idxlab") == 0)
			found = 1;
	if (mongoc_cursor_error(cur, &be))
		found = mongo_fail(en, &be, e, "reading idxlab.idxlab_meta");
	mongoc_cursor_destroy(cur);
	bson_destroy(&filter);
	bson_destroy(&opts);
	mongoc_collection_destroy(meta);
	return found;
}

/* Database idxlab is idxlab's, or we refuse it untouched. Marks it when
 * it is empty. */
static int claim(struct engine *en, struct err *e)
{
	char **names = collections(en, e), foreign[512] = "";
	int i, any = 0, meta = 0, mark;
	size_t n = 0;

	if (!names)
		return -1;
	for (i = 0; names[i]; i++) {
		any = 1;
		if (strcmp(names[i], META_NAME) == 0)
			meta = 1;
		else if (strcmp(names[i], COLL_NAME) != 0 && n < sizeof foreign)
			n += (size_t)snprintf(foreign + n, sizeof foreign - n, "%s%s",
			                      n ? ", " : "", names[i]);
	}
	bson_strfreev(names);
	mark = meta ? has_marker(en, e) : 0;
	if (mark < 0)
		return -1;
	if (any && !mark)
		return err_set(e, ERR_USAGE,
		               "this server has a database idxlab that idxlab did not create (no "
		               "idxlab_meta marker); idxlab leaves it untouched - use another "
		               "server, or drop database idxlab yourself if it is yours to drop");
	if (foreign[0])
		return err_set(
		    e, ERR_USAGE,
		    "database idxlab holds collections idxlab did not create (%s); idxlab "
		    "changes nothing there - remove them or use another server",
		    foreign);
	if (!mark) {
		mongoc_collection_t *m = mongoc_database_get_collection(en->db, META_NAME);
		bson_t doc = BSON_INITIALIZER;
		bson_error_t be;
		int ok;

		BSON_APPEND_UTF8(&doc, "_id", "created_by");
		BSON_APPEND_UTF8(&doc, "v", "idxlab");
		BSON_APPEND_UTF8(&doc, "note", "idxlab drops this database when it exits");
		ok = mongoc_collection_insert_one(m, &doc, NULL, NULL, &be);
		bson_destroy(&doc);
		mongoc_collection_destroy(m);
		if (!ok)
			return mongo_fail(en, &be, e, "marking database idxlab as idxlab's");
	}
	en->claimed = 1;
	return 0;
}

/* ---- the session ------------------------------------------------------------- */

/* After a lost connection: is the server back (a restart)? */
static int still_there(struct engine *en)
{
	bson_t ping = BSON_INITIALIZER;
	bson_error_t be;
	int ok;

	if (!en->lost)
		return 1;
	BSON_APPEND_INT32(&ping, "ping", 1);
	ok = mongo_command(en, "admin", &ping, NULL, &be) == 0;
	bson_destroy(&ping);
	if (!ok)
		evlog_add(EV_WARN,
		          "idxlab.t stays on the server at %s (the connection is gone): "
		          "drop database idxlab there by hand",
		          en->hosts);
	return ok;
}

static void mongo_close(struct engine *en)
{
	if (!en)
		return;
	mongo_drop_batch(en);
	mongo_docs_free(&en->docs);
	if (en->client && en->claimed && !en->mongod_dir[0] && still_there(en)) {
		struct err ignore;
		bson_t cmd = BSON_INITIALIZER;
		bson_error_t be;

		/* Leave the user's server as we found it. */
		if (en->cache_orig > 0 && en->cache_now != en->cache_orig) {
			char cfg[64];

			snprintf(cfg, sizeof cfg, "cache_size=%lld", en->cache_orig);
			BSON_APPEND_INT32(&cmd, "setParameter", 1);
			BSON_APPEND_UTF8(&cmd, "wiredTigerEngineRuntimeConfig", cfg);
			(void)mongo_command_or_fail(en, "admin", &cmd, &ignore,
			                            "restoring the cache");
			bson_reinit(&cmd);
		}
		/* Only what idxlab made: the database goes with its last collection. */
		BSON_APPEND_UTF8(&cmd, "drop", COLL_NAME);
		if (mongo_command(en, DB_NAME, &cmd, NULL, &be) == 0 || be.code == CODE_NOT_FOUND) {
			bson_reinit(&cmd);
			BSON_APPEND_UTF8(&cmd, "drop", META_NAME);
			(void)mongo_command(en, DB_NAME, &cmd, NULL, &be);
		} else {
			evlog_add(EV_WARN,
			          "could not drop idxlab.t: %s - drop database idxlab by hand",
			          be.message);
		}
		bson_destroy(&cmd);
	}
	mongoc_collection_destroy(en->coll);
	mongoc_database_destroy(en->db);
	mongoc_client_destroy(en->client);
	mongoc_uri_destroy(en->uri);
	mongoc_write_concern_destroy(en->wc);
	mongod_stop(en);
	free(en->payload);
	free(en);
}

static int mongo_open(struct engine **out, const struct knobs *k, struct txn *t,
                      const atomic_int *stop, struct err *e)
{
	struct engine *en = calloc(1, sizeof *en);
	const char *text = k->dsn && *k->dsn ? k->dsn : getenv(DSN_ENV);
	char local[64], bin[PATH_MAX];
	bson_t ping = BSON_INITIALIZER;
	bson_error_t be;
	int rc;

	*out = NULL;
	if (!en)
		abort();
	pthread_once(&lib_once, lib_init);
	en->stop = stop;
	en->txn = t;
	en->rs = t->rs;
	txn_init(t, en, t->rs, &mongo_txn_hooks);
	t->deferred = 1; /* writes go in bulk batches: acknowledged together */
	en->k = *k;
	en->cache_orig = en->cache_now = -1;
	if (!text || !*text) {
		int port = 0;

		if (spawn_find_in_path("mongod", bin, sizeof bin) < 0) {
			free(en);
			return err_set(
			    e, ERR_RUNTIME,
			    "no MongoDB server to use: no --dsn, MONGODB_URI is not set and "
			    "there is no mongod on PATH - point idxlab at a server with "
			    "--dsn mongodb://host:27017/ (or MONGODB_URI=...), e.g. one "
			    "started by `docker run -p 27017:27017 mongo`, or put mongod on "
			    "PATH for a throwaway one");
		}
		if (mongod_start(en, bin, &port, e) < 0) {
			mongo_close(en);
			return -1;
		}
		snprintf(local, sizeof local, "mongodb://127.0.0.1:%d/?directConnection=true",
		         port);
		text = local;
	}
	if (mongo_doc_uri(text, &en->uri, e) < 0) {
		mongo_close(en);
		return -1;
	}
	mongo_doc_hosts(en->uri, en->hosts, sizeof en->hosts);
	en->client = mongoc_client_new_from_uri_with_error(en->uri, &be);
	if (!en->client) {
		err_set(e, ERR_RUNTIME,
		        "cannot connect to MongoDB at %s: %s - check --dsn or MONGODB_URI",
		        en->hosts, be.message);
		mongo_close(en);
		return -1;
	}
	mongoc_client_set_error_api(en->client, MONGOC_ERROR_API_VERSION_2);
	en->sctx.stop = stop;
	if (!mongo_stream_install(en->client, en->uri, &en->sctx))
		evlog_add(EV_INFO, "a TLS connection: a stop waits for the server's answer up to "
		                   "socketTimeoutMS");
	en->db = mongoc_client_get_database(en->client, DB_NAME);
	en->coll = mongoc_database_get_collection(en->db, COLL_NAME);
	en->wc = mongo_doc_write_concern(k->v[K_SYNC]);
	BSON_APPEND_INT32(&ping, "ping", 1);
	rc = mongo_command(en, "admin", &ping, NULL, &be);
	bson_destroy(&ping);
	if (rc < 0 || mongo_server_status(en, &be) < 0) {
		if (rc == 0 && mongo_is_denied(&be)) {
			/* Connected, but serverStatus is not ours to read: run without it. */
			en->status_denied = 1;
			evlog_add(EV_WARN, "the server's statistics are n/a: serverStatus is not "
			                   "allowed for this user (grant clusterMonitor)");
		} else {
			mongo_fail(en, &be, e, NULL);
			mongo_close(en);
			return -1;
		}
	}
	if (en->st.have & 1u << MS_CACHE_MAX)
		en->cache_orig = en->cache_now = (long long)en->st.v[MS_CACHE_MAX];
	if (!en->status_denied && strcmp(en->st.engine, "wiredTiger") != 0)
		evlog_add(EV_WARN,
		          "the server's storage engine is %s, not wiredTiger: cache, journal "
		          "and spill figures are n/a",
		          en->st.engine[0] ? en->st.engine : "not reported");
	if (claim(en, e) < 0) {
		mongo_close(en);
		return -1;
	}
	if (en->mongod_dir[0])
		snprintf(en->where, sizeof en->where, THROWAWAY_WHERE "%s in %s", en->st.version,
		         en->mongod_dir);
	else
		snprintf(en->where, sizeof en->where, "MongoDB %s at %s (idxlab.t)", en->st.version,
		         en->hosts);
	evlog_add(EV_INFO, "connected to %s", en->where);
	mongo_find_server_processes(en);
	*out = en;
	return 0;
}

/* ---- the collection ------------------------------------------------------- */

static int mongo_setup(struct engine *en, const struct knobs *k, struct err *e)
{
	bson_t cmd = BSON_INITIALIZER;
	int rc;

	mongo_drop_batch(en);
	en->copy = 0; /* the prefill is an ordered bulk whatever --load says */
	en->txn->open = 0;
	en->k = *k;
	en->rd.n = 0;
	if (mongo_doc_check(schema_of(k), e) < 0)
		return -1;
	mongo_set_payload(en, k->v[K_PAYLOAD]);
	mongo_set_write_concern(en, k->v[K_SYNC]);
	if (mongod_check(en, e) < 0 || mongo_set_cache(en, k, e) < 0 ||
	    mongo_drop_collection(en, e) < 0)
		return -1;
	BSON_APPEND_UTF8(&cmd, "create", COLL_NAME);
	rc = mongo_command_or_fail(en, DB_NAME, &cmd, e, "creating idxlab.t");
	bson_destroy(&cmd);
	return rc < 0 ? -1 : 0;
}

static int mongo_ready(struct engine *en, const struct knobs *k, uint64_t rows, struct err *e)
{
	(void)rows;
	if (mongo_set_indexes(en, 0, k->v[K_INDEXES], 0, e) < 0 || mongo_checkpoint(en, e) < 0)
		return -1;
	en->copy = (mix_ops(k) & OPS_WRITES) == 1u << OP_INSERT && k->v[K_LOAD] == LOAD_COPY;
	rowset_prepare(en->rs, mix_ops(k), (uint64_t)k->v[K_SEED]);
	return mongo_prepare_reads(en, k, e);
}

static int mongo_apply(struct engine *en, const struct knobs *k, struct err *e)
{
	const struct knobs old = en->k;

	if (en->txn->open)
		return err_set(e, ERR_RUNTIME, "apply inside a batch (a bug in idxlab)");
	en->k = *k;
	if (old.v[K_CACHE] != k->v[K_CACHE] && mongo_set_cache(en, k, e) < 0)
		return -1;
	if (old.v[K_SYNC] != k->v[K_SYNC])
		mongo_set_write_concern(en, k->v[K_SYNC]);
	if (old.v[K_INDEXES] != k->v[K_INDEXES] &&
	    mongo_set_indexes(en, old.v[K_INDEXES], k->v[K_INDEXES], 1, e) < 0)
		return -1;
	if (old.v[K_PAYLOAD] != k->v[K_PAYLOAD])
		mongo_set_payload(en, k->v[K_PAYLOAD]);
	en->copy = (mix_ops(k) & OPS_WRITES) == 1u << OP_INSERT && k->v[K_LOAD] == LOAD_COPY;
	if (mix_ops(&old) != mix_ops(k) || old.v[K_SEED] != k->v[K_SEED] ||
	    old.v[K_KEY_ORDER] != k->v[K_KEY_ORDER])
		rowset_prepare(en->rs, mix_ops(k), (uint64_t)k->v[K_SEED]);
	/* a read's plan changes with the indexes: its finds are explained again */
	if (old.v[K_OP] != k->v[K_OP] || old.v[K_SEED] != k->v[K_SEED] ||
	    old.v[K_MIX] != k->v[K_MIX] ||
	    ((OP_READS(k->v[K_OP]) || k->v[K_MIX]) &&
	     (old.v[K_INDEXES] != k->v[K_INDEXES] || old.v[K_MISS] != k->v[K_MISS] ||
	      old.v[K_RANGE_ROWS] != k->v[K_RANGE_ROWS])))
		return mongo_prepare_reads(en, k, e);
	return 0;
}

/* compact rewrites the collection and its indexes, returning free space. */
static int mongo_rewrite(struct engine *en, struct err *e)
{
	bson_t cmd = BSON_INITIALIZER;
	uint64_t t0 = clock_now_ns();
	int rc;

	if (en->txn->open)
		return err_set(e, ERR_RUNTIME, "rewrite inside a batch (a bug in idxlab)");
	BSON_APPEND_UTF8(&cmd, "compact", COLL_NAME);
	rc = mongo_command_or_fail(en, DB_NAME, &cmd, e, "compact idxlab.t");
	bson_destroy(&cmd);
	if (rc < 0)
		return -1;
	evlog_add(EV_INFO, "rewrote idxlab.t (compact) in %.2f s",
	          (double)(clock_now_ns() - t0) / 1e9);
	return 0;
}

static const char *mongo_where(struct engine *en)
{
	return en->where;
}

static int mongo_where_own(const char *where)
{
	return strncmp(where, THROWAWAY_WHERE, strlen(THROWAWAY_WHERE)) == 0;
}

static const char *mongo_version(void)
{
	static char buf[64];

	snprintf(buf, sizeof buf, "libmongoc %s", mongoc_get_version());
	return buf;
}

/* The WiredTiger cache the server has: it may not let idxlab change it. */
static void mongo_in_force(struct engine *en, struct knobs *k)
{
	if (en->cache_now > 0)
		k->v[K_CACHE] = en->cache_now;
}

/* What differs from knob_table[]'s defaults on this engine. */
static const struct knob_default mongo_defaults[] = {
	{ K_CACHE, "256MiB" },
	{ 0, NULL },
};

const struct engine_ops mongo_engine = {
	.defaults = mongo_defaults,
	.table_specs = 1,
	.loads = 1u << LOAD_COPY,
	.why_no_load = "--load insert already sends the rows of a commit as one insert "
	               "command (up to 100000 documents: a multi-row statement); --load copy "
	               "sends them with insert_many, unordered",
	.dsn_env = DSN_ENV,
	.version = mongo_version,
	.open = mongo_open,
	.setup = mongo_setup,
	.load = mongo_load,
	.ready = mongo_ready,
	.apply = mongo_apply,
	.rewrite = mongo_rewrite,
	.sample = mongo_sample,
	.stats = { &mongo_status_stats, &mongo_io_stats, &mongo_read_stats },
	.sizes = mongo_sizes,
	.reads = mongo_reads,
	.in_force = mongo_in_force,
	.where = mongo_where,
	.figure = M_WAL_BYTES_PER_ROW, /* the journal each index adds */
	.own_place = "idxlab's own throwaway mongod",
	.where_own = mongo_where_own,
	.close = mongo_close,
};
