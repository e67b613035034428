/* mongo.c - the MongoDB engine (libmongoc).
 *
 * Where: --dsn mongodb://... or else $MONGODB_URI; with neither, a throwaway
 * mongod from $PATH (a free 127.0.0.1 port, no auth) in a temp dir
 * $TMPDIR/idxlab-mongo.XXXXXX (tmpdir.h: data/, mongod.log, mongod.pid)
 * that is killed and removed when the engine closes, and dies with idxlab
 * even on kill -9 (PR_SET_PDEATHSIG); the dir a killed idxlab leaves is
 * removed by the next start, which also kills its mongod should it still
 * run. Unless the URI sets them, server selection and connecting give up
 * after 3 s, so a wrong address fails fast.
 *
 * What: collection `t` in database `idxlab`. The database is idxlab's when
 * idxlab_meta holds { _id: "created_by", v: "idxlab" }; idxlab writes that
 * marker before it creates anything else, and refuses (touching nothing) a
 * database idxlab that has collections but no marker, or that holds
 * collections idxlab does not make. On a user's server both collections
 * are dropped again at close, and a WiredTiger cache idxlab changed is set
 * back.
 *
 * How: each commit is one acknowledged ordered bulk write of `commit` rows
 * (insert documents, `$inc` of hot or `$set` of k1 by _id, deletes by _id)
 * under the write concern `sync` stands for (mongo_doc.h); a batch may span
 * several step() calls, like a transaction on the other engines, and commit
 * = all sends one bulk per step() call. MongoDB has no multi-document
 * transaction on a standalone server, so a "commit" here is an acknowledged
 * batch, and its latency is that round trip. Documents are built by
 * mongo_doc.c.
 *
 * Counters: serverStatus (trimmed to the sections idxlab reads) parsed by
 * probes/mongo_status.c, every value by key name and n/a when absent;
 * sizes from $collStats storageStats; write() and device bytes from /proc
 * of a mongod running on this machine. libmongoc's log goes to the event
 * log, never to the terminal.
 *
 * Threads: one single-threaded mongoc_client_t, used by the worker only. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <mongoc/mongoc.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../clock.h"
#include "../evlog.h"
#include "../keys.h"
#include "../probes/mongo_status.h"
#include "../probes/proc.h"
#include "../probes/proc_tree.h"
#include "../units.h"
#include "engine.h"
#include "mongo_doc.h"
#include "mongo_stream.h"
#include "rowset.h"
#include "spawn.h"
#include "tmpdir.h"

#define DB_NAME        "idxlab"
#define COLL_NAME      "t"
#define META_NAME      "idxlab_meta"
#define LOAD_BATCH     10000
#define WT_MIN_CACHE   (1024LL * 1024) /* WiredTiger refuses a smaller cache_size */
#define START_TIMEOUT  30              /* seconds for a throwaway mongod to listen */
#define CODE_NOT_FOUND 26              /* NamespaceNotFound */
#define CODE_DENIED    13              /* Unauthorized */
#define CODE_ATLAS     8000            /* AtlasError: a command a shared tier forbids */
#define CODE_DUP_KEY   11000
#define CODE_DISK_FULL 14031 /* OutOfDiskSpace */
#define MONGOD_PID     "mongod.pid"

struct engine {
	mongoc_uri_t *uri;
	mongoc_client_t *client;
	mongoc_database_t *db;
	mongoc_collection_t *coll;
	mongoc_write_concern_t *wc;
	mongoc_bulk_operation_t *bulk; /* the open batch, or NULL */
	uint64_t bulk_ops;
	const atomic_int *stop;       /* borrowed */
	struct mongo_stream_ctx sctx; /* the client's streams: a stop bounds their reads */
	struct knobs k;
	struct rowset rs;
	char *payload;
	char hosts[256];
	char where[PATH_MAX + 320];
	/* the throwaway mongod, when idxlab started one */
	pid_t mongod;
	int mongod_died;
	char mongod_dir[PATH_MAX];
	int claimed; /* database idxlab is ours: clean up at close */
	int lost;    /* the connection failed: close cleans up only if it is back */
	struct mongo_status st;
	long long cache_orig, cache_now; /* WiredTiger cache bytes, -1: unknown */
	int cache_readonly, status_denied, sizes_denied, fsync_denied;
	int has_server_io;
	struct proc_tree tree;
};

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

/* ---- the throwaway mongod ------------------------------------------------ */

/* A TCP port nobody listens on now. */
static int free_port(void)
{
	struct sockaddr_in a;
	socklen_t len = sizeof a;
	int fd = socket(AF_INET, SOCK_STREAM, 0), port = -1;

	if (fd < 0)
		return -1;
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)&a, sizeof a) == 0 &&
	    getsockname(fd, (struct sockaddr *)&a, &len) == 0)
		port = ntohs(a.sin_port);
	close(fd);
	return port;
}

static int port_open(int port)
{
	struct sockaddr_in a;
	int fd = socket(AF_INET, SOCK_STREAM, 0), ok;

	if (fd < 0)
		return 0;
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	a.sin_port = htons((uint16_t)port);
	ok = connect(fd, (struct sockaddr *)&a, sizeof a) == 0;
	close(fd);
	return ok;
}

/* A killed idxlab's mongod, should it have outlived it (it normally dies
 * with idxlab): only if that pid still runs a mongod in dir. */
static void clean_leftover(const char *dir, int fd)
{
	pid_t pid = tmpdir_read_pid_at(fd, MONGOD_PID);

	if (tmpdir_runs_in(pid, "mongod", dir) && kill(pid, SIGKILL) == 0)
		evlog_add(EV_INFO, "killed mongod (pid %d), left running by a killed idxlab in %s",
		          (int)pid, dir);
}

static const struct tmpdir_kind mongo_tmpdir = {
	.name = "mongo",
	.what = "a throwaway mongod",
	.alt = "point idxlab at a server with --dsn",
	.clean = clean_leftover,
};

/* 1 while the throwaway mongod runs; reaps it when it has exited. */
static int mongod_alive(struct engine *en)
{
	int st;

	if (en->mongod <= 0)
		return 0;
	if (spawn_reap(en->mongod, &st, 0)) {
		en->mongod = 0;
		en->mongod_died = 1;
		return 0;
	}
	return 1;
}

/* Kill it (its data is thrown away anyway), reap it, remove its dir. */
static void mongod_stop(struct engine *en)
{
	int st;

	if (en->mongod > 0) {
		kill(-en->mongod, SIGKILL); /* its session and process group */
		kill(en->mongod, SIGKILL);
		spawn_reap(en->mongod, &st, -1);
		en->mongod = 0;
	}
	tmpdir_remove(en->mongod_dir);
}

/* Start mongod (bin) on a free port; *port gets it. */
static int mongod_start(struct engine *en, const char *bin, int *port, struct err *e)
{
	char data[PATH_MAX + 8], logp[PATH_MAX + 16], pidf[PATH_MAX + 16], portbuf[16];
	char tail[512], pidtext[32], what[PATH_MAX + 32];
	const char *argv[20];
	/* Our environment: a mongod may be configured through it. */
	struct spawn s = { .argv = argv, .out = -1, .inherit_env = 1 };
	int i, n = 0;

	if (tmpdir_make(en->mongod_dir, sizeof en->mongod_dir, &mongo_tmpdir, (uid_t)-1, e) < 0)
		return -1;
	snprintf(data, sizeof data, "%s/data", en->mongod_dir);
	snprintf(pidf, sizeof pidf, "%s/" MONGOD_PID, en->mongod_dir);
	snprintf(logp, sizeof logp, "%s/mongod.log", en->mongod_dir);
	if (mkdir(data, 0700) < 0)
		return err_set(e, ERR_RUNTIME, "cannot make %s: %s", data, strerror(errno));
	*port = free_port();
	if (*port <= 0)
		return err_set(e, ERR_RUNTIME, "no free TCP port on 127.0.0.1 for a mongod");
	snprintf(portbuf, sizeof portbuf, "%d", *port);
	argv[n++] = bin;
	argv[n++] = "--dbpath";
	argv[n++] = data;
	argv[n++] = "--port";
	argv[n++] = portbuf;
	argv[n++] = "--bind_ip";
	argv[n++] = "127.0.0.1";
	argv[n++] = "--nounixsocket";
	argv[n++] = "--logpath";
	argv[n++] = logp;
	argv[n++] = "--wiredTigerCacheSizeGB";
	argv[n++] = "0.25"; /* the least it takes; setup sets the cache knob */
	argv[n++] = "--setParameter";
	argv[n++] = "diagnosticDataCollectionEnabled=false";
	argv[n] = NULL;
	/* Its own session keeps a Ctrl-C meant for idxlab away; the death
	 * signal takes it down with idxlab (spawn.h). */
	snprintf(what, sizeof what, "the throwaway mongod (%s)", bin);
	en->mongod = spawn_start(&s, what, e);
	if (en->mongod < 0) {
		en->mongod = 0;
		return -1;
	}
	/* For the sweep, should idxlab be killed and this mongod outlive it. */
	snprintf(pidtext, sizeof pidtext, "%d\n", (int)en->mongod);
	(void)tmpdir_write_file(pidf, pidtext);
	for (i = 0; i < START_TIMEOUT * 20; i++) {
		if (!mongod_alive(en)) {
			tmpdir_log_tail(en->mongod_dir, "mongod.log", 2, tail, sizeof tail);
			return err_set(e, ERR_RUNTIME,
			               "the throwaway mongod (%s) exited while starting%s%s - try "
			               "running it by hand, or use --dsn",
			               bin, tail[0] ? "; its log ends: " : "", tail);
		}
		if (port_open(*port))
			return 0;
		if (en->stop && atomic_load(en->stop))
			return err_set(e, ERR_RUNTIME, "stopped while mongod was starting");
		usleep(50000);
	}
	tmpdir_log_tail(en->mongod_dir, "mongod.log", 2, tail, sizeof tail);
	return err_set(e, ERR_RUNTIME,
	               "the throwaway mongod (%s) did not listen on 127.0.0.1:%d within %d s; "
	               "its log ends: %s",
	               bin, *port, START_TIMEOUT, tail[0] ? tail : "(empty)");
}

/* The throwaway server is gone: say so with the end of its log, quoted now
 * since its directory goes at exit. */
static int mongod_died(struct engine *en, struct err *e, const char *what, const char *why)
{
	char tail[512];

	tmpdir_log_tail(en->mongod_dir, "mongod.log", 2, tail, sizeof tail);
	return err_set(e, ERR_RUNTIME,
	               "%s%sthe throwaway mongod died%s%s - it was killed or crashed; its log "
	               "ends: %s",
	               what, *what ? ": " : "", why ? ": " : "", why ? why : "",
	               tail[0] ? tail : "(empty)");
}

/* ---- errors ---------------------------------------------------------------- */

static int is_denied(const bson_error_t *be)
{
	return be->code == CODE_DENIED || be->code == CODE_ATLAS;
}

/* A connection problem, as opposed to the server refusing one command. */
static int is_connection(const bson_error_t *be)
{
	return be->domain == MONGOC_ERROR_STREAM || be->domain == MONGOC_ERROR_SERVER_SELECTION;
}

/* An error a person can act on, from a libmongoc error; what (NULL: none)
 * says what idxlab was doing. */
static int mongo_fail(struct engine *en, const bson_error_t *be, struct err *e, const char *what)
{
	const char *sep = what ? ": " : "";

	if (!what)
		what = "";
	if (en->sctx.unanswered) {
		en->lost = 1;
		return err_set(e, ERR_RUNTIME,
		               "%s%sthe MongoDB server at %s did not answer within %.1f s of the "
		               "stop; idxlab gave up on it",
		               what, sep, en->hosts, MONGO_STREAM_STOP_MS / 1000.0);
	}
	if (en->mongod_dir[0] && is_connection(be)) {
		int i;

		/* Its socket closes while it dies: give the exit a moment to show. */
		for (i = 0; i < 10 && mongod_alive(en); i++)
			usleep(50000);
	}
	if (en->mongod_dir[0] && !mongod_alive(en) && en->mongod_died) {
		en->lost = 1;
		return mongod_died(en, e, what, be->message);
	}
	switch (be->domain) {
	case MONGOC_ERROR_SERVER_SELECTION:
		en->lost = 1;
		return err_set(e, ERR_RUNTIME,
		               "%s%scannot reach MongoDB at %s: %s - is mongod running there and "
		               "reachable from here? Check --dsn or MONGODB_URI "
		               "(mongodb://host:port/)",
		               what, sep, en->hosts, be->message);
	case MONGOC_ERROR_STREAM:
		en->lost = 1;
		return err_set(e, ERR_RUNTIME,
		               "%s%slost the connection to MongoDB at %s: %s - was the server "
		               "stopped or restarted?",
		               what, sep, en->hosts, be->message);
	case MONGOC_ERROR_CLIENT:
		if (be->code == MONGOC_ERROR_CLIENT_AUTHENTICATE)
			return err_set(e, ERR_RUNTIME,
			               "%s%sMongoDB at %s refused the login: %s - check the user, "
			               "password and authSource in the URI",
			               what, sep, en->hosts, be->message);
		break;
	default:
		break;
	}
	switch (be->code) {
	case CODE_DENIED:
	case CODE_ATLAS:
		return err_set(e, ERR_RUNTIME,
		               "%s%snot allowed: %s - connect as a user with readWrite on database "
		               "idxlab (and clusterMonitor for the server's statistics)",
		               what, sep, be->message);
	case CODE_DUP_KEY:
		return err_set(e, ERR_RUNTIME,
		               "%s%s%s - idxlab.t holds documents idxlab did not write there", what,
		               sep, be->message);
	case CODE_DISK_FULL:
		return err_set(e, ERR_RUNTIME,
		               "%s%sthe server's disk is full: %s - free space there or lower "
		               "--rows/--prefill",
		               what, sep, be->message);
	default:
		break;
	}
	return err_set(e, ERR_RUNTIME, "%s%sMongoDB said: %s (code %u)", what, sep, be->message,
	               be->code);
}

/* Run a command on database dbname; the reply goes into reply (the
 * caller's, destroy it) when not NULL. -1 with be filled on failure. */
static int command(struct engine *en, const char *dbname, const bson_t *cmd, bson_t *reply,
                   bson_error_t *be)
{
	bson_t r;
	int ok = mongoc_client_command_simple(en->client, dbname, cmd, NULL, &r, be);

	if (ok && reply)
		bson_steal(reply, &r);
	else
		bson_destroy(&r);
	return ok ? 0 : -1;
}

/* The same, failing with a message. */
static int command_or_fail(struct engine *en, const char *dbname, const bson_t *cmd, struct err *e,
                           const char *what)
{
	bson_error_t be;

	return command(en, dbname, cmd, NULL, &be) < 0 ? mongo_fail(en, &be, e, what) : 0;
}

/* ---- the session ------------------------------------------------------------- */

/* serverStatus without the sections idxlab never reads (replication,
 * metrics, locks, ... can be large). */
static int server_status(struct engine *en, bson_error_t *be)
{
	static const char *const skip[] = {
		"asserts",     "connections",   "electionMetrics", "extra_info",
		"flowControl", "globalLock",    "locks",           "logicalSessionRecordCache",
		"metrics",     "mirroredReads", "network",         "repl",
		"security",    "tcmalloc",      "transactions",    "twoPhaseCommitCoordinator"
	};
	bson_t cmd = BSON_INITIALIZER, reply;
	size_t i;
	int rc;

	BSON_APPEND_INT32(&cmd, "serverStatus", 1);
	for (i = 0; i < sizeof skip / sizeof skip[0]; i++)
		BSON_APPEND_INT32(&cmd, skip[i], 0);
	rc = command(en, "admin", &cmd, &reply, be);
	bson_destroy(&cmd);
	if (rc < 0)
		return -1;
	mongo_status_parse(&reply, &en->st);
	bson_destroy(&reply);
	return 0;
}

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

/* Is the server this URI names on this machine? */
static int is_local(const struct engine *en)
{
	const mongoc_host_list_t *h = mongoc_uri_get_hosts(en->uri);
	char me[256] = "";
	size_t len;

	if (h && h->family != AF_UNIX && strcmp(h->host, "localhost") != 0 &&
	    strncmp(h->host, "127.", 4) != 0 && strcmp(h->host, "::1") != 0) {
		/* serverStatus says "host": "<hostname>:<port>" */
		if (gethostname(me, sizeof me - 1) < 0)
			return 0;
		len = strlen(me);
		return len && strncmp(en->st.host, me, len) == 0 &&
		       (en->st.host[len] == ':' || en->st.host[len] == 0);
	}
	return h != NULL;
}

/* Where the server runs here and its /proc is readable, sample its io. */
static void find_server_processes(struct engine *en)
{
	char comm[64] = "";
	struct proc_io io;
	pid_t pid = en->mongod;

	en->has_server_io = 0;
	if (pid <= 0 && is_local(en) && en->st.have & 1u << MS_PID) {
		pid = (pid_t)en->st.v[MS_PID];
		if (proc_comm(pid, comm, sizeof comm) < 0 || strncmp(comm, "mongod", 6) != 0)
			pid = 0;
	}
	if (pid > 0) {
		proc_tree_init(&en->tree, pid);
		if (proc_tree_sample(&en->tree, &io) == 0)
			en->has_server_io = 1;
	}
	if (!en->has_server_io)
		evlog_add(EV_INFO, "write() and device bytes are n/a: the MongoDB server is not a "
		                   "process on this machine that idxlab may read");
}

/* After a lost connection: is the server back (a restart)? */
static int still_there(struct engine *en)
{
	bson_t ping = BSON_INITIALIZER;
	bson_error_t be;
	int ok;

	if (!en->lost)
		return 1;
	BSON_APPEND_INT32(&ping, "ping", 1);
	ok = command(en, "admin", &ping, NULL, &be) == 0;
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
	if (en->bulk)
		mongoc_bulk_operation_destroy(en->bulk);
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
			(void)command_or_fail(en, "admin", &cmd, &ignore, "restoring the cache");
			bson_reinit(&cmd);
		}
		/* Only what idxlab made: the database goes with its last collection. */
		BSON_APPEND_UTF8(&cmd, "drop", COLL_NAME);
		if (command(en, DB_NAME, &cmd, NULL, &be) == 0 || be.code == CODE_NOT_FOUND) {
			bson_reinit(&cmd);
			BSON_APPEND_UTF8(&cmd, "drop", META_NAME);
			(void)command(en, DB_NAME, &cmd, NULL, &be);
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
	rowset_free(&en->rs);
	free(en->payload);
	free(en);
}

static int mongo_open(struct engine **out, const struct knobs *k, const atomic_int *stop,
                      struct err *e)
{
	struct engine *en = calloc(1, sizeof *en);
	const char *text = k->dsn && *k->dsn ? k->dsn : getenv("MONGODB_URI");
	char local[64], bin[PATH_MAX];
	bson_t ping = BSON_INITIALIZER;
	bson_error_t be;
	int rc;

	*out = NULL;
	if (!en)
		abort();
	pthread_once(&lib_once, lib_init);
	en->stop = stop;
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
	rc = command(en, "admin", &ping, NULL, &be);
	bson_destroy(&ping);
	if (rc < 0 || server_status(en, &be) < 0) {
		if (rc == 0 && is_denied(&be)) {
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
		snprintf(en->where, sizeof en->where, "throwaway mongod %s in %s", en->st.version,
		         en->mongod_dir);
	else
		snprintf(en->where, sizeof en->where, "MongoDB %s at %s (idxlab.t)", en->st.version,
		         en->hosts);
	evlog_add(EV_INFO, "connected to %s", en->where);
	find_server_processes(en);
	*out = en;
	return 0;
}

/* ---- the collection ------------------------------------------------------- */

static void set_payload(struct engine *en, long long len)
{
	free(en->payload);
	en->payload = keys_payload_new((size_t)len);
}

static void set_write_concern(struct engine *en, long long sync)
{
	mongoc_write_concern_destroy(en->wc);
	en->wc = mongo_doc_write_concern(sync);
}

/* cache = WiredTiger's cache_size, where the server lets us change it. */
static int set_cache(struct engine *en, const struct knobs *k, struct err *e)
{
	long long want = k->v[K_CACHE] < WT_MIN_CACHE ? WT_MIN_CACHE : k->v[K_CACHE];
	char cfg[64], have[32], to[32];
	bson_t cmd = BSON_INITIALIZER;
	bson_error_t be;
	int rc;

	if (en->cache_readonly || want == en->cache_now)
		return 0;
	if (en->cache_orig <= 0 && !en->mongod_dir[0]) {
		/* Never change what we could not set back. */
		en->cache_readonly = 1;
		evlog_add(EV_WARN, "cache is read-only on this server: idxlab cannot read its "
		                   "WiredTiger cache size (serverStatus) to set it back later");
		return 0;
	}
	units_format_size(want, to, sizeof to);
	units_format_size(en->cache_now, have, sizeof have);
	snprintf(cfg, sizeof cfg, "cache_size=%lld", want);
	BSON_APPEND_INT32(&cmd, "setParameter", 1);
	BSON_APPEND_UTF8(&cmd, "wiredTigerEngineRuntimeConfig", cfg);
	rc = command(en, "admin", &cmd, NULL, &be);
	bson_destroy(&cmd);
	if (rc < 0) {
		if (is_connection(&be))
			return mongo_fail(en, &be, e, "setting the WiredTiger cache");
		en->cache_readonly = 1;
		evlog_add(EV_WARN,
		          "cache is read-only on this server (setParameter "
		          "wiredTigerEngineRuntimeConfig: %s): the WiredTiger cache stays %s",
		          be.message, en->cache_now > 0 ? have : "as it is");
		return 0;
	}
	if (k->v[K_CACHE] < WT_MIN_CACHE)
		evlog_add(EV_INFO, "WiredTiger's smallest cache is 1MiB: using that");
	evlog_add(EV_INFO, "WiredTiger cache_size set to %s (was %s%s)", to,
	          en->cache_now > 0 ? have : "unknown",
	          en->mongod_dir[0] ? "" : "; set back when idxlab exits");
	en->cache_now = want;
	return 0;
}

static int drop_collection(struct engine *en, struct err *e)
{
	bson_t cmd = BSON_INITIALIZER;
	bson_error_t be;
	int rc;

	BSON_APPEND_UTF8(&cmd, "drop", COLL_NAME);
	rc = command(en, DB_NAME, &cmd, NULL, &be);
	bson_destroy(&cmd);
	if (rc < 0 && be.code != CODE_NOT_FOUND && !strstr(be.message, "ns not found"))
		return mongo_fail(en, &be, e, "dropping idxlab.t");
	return 0;
}

/* A fresh ordered batch under the current write concern. */
static void open_bulk(struct engine *en)
{
	bson_t opts = BSON_INITIALIZER;

	BSON_APPEND_BOOL(&opts, "ordered", true);
	en->bulk = mongoc_collection_create_bulk_operation_with_opts(en->coll, &opts);
	mongoc_bulk_operation_set_write_concern(en->bulk, en->wc);
	en->bulk_ops = 0;
	bson_destroy(&opts);
}

/* Queue op on row n into the open batch. */
static int add_op(struct engine *en, long long op, uint64_t row, uint64_t version, struct err *e)
{
	bson_t a, b;
	bson_error_t be;
	int ok;

	bson_init(&a);
	if (op == OP_INSERT) {
		mongo_doc_row(&a, &en->k, row, en->payload, (size_t)en->k.v[K_PAYLOAD]);
		ok = mongoc_bulk_operation_insert_with_opts(en->bulk, &a, NULL, &be);
	} else {
		mongo_doc_filter(&a, &en->k, row);
		if (op == OP_DELETE) {
			ok = mongoc_bulk_operation_remove_one_with_opts(en->bulk, &a, NULL, &be);
		} else {
			bson_init(&b);
			mongo_doc_update(&b, &en->k, op, row, version);
			ok =
			    mongoc_bulk_operation_update_one_with_opts(en->bulk, &a, &b, NULL, &be);
			bson_destroy(&b);
		}
	}
	bson_destroy(&a);
	if (!ok)
		return err_set(e, ERR_RUNTIME, "cannot queue a %s: %s",
		               knob_table[K_OP].choices[op], be.message);
	en->bulk_ops++;
	return 0;
}

/* Send the open batch and wait for the server's acknowledgement. A batch
 * that did not change every row it named is an error: the collection is not
 * what idxlab built. */
static int flush(struct engine *en, long long op, struct step_out *out, struct hist *lat,
                 struct err *e)
{
	static const char *const counted[] = {
		[OP_INSERT] = "nInserted",        [OP_UPDATE] = "nMatched",
		[OP_UPDATE_INDEXED] = "nMatched", [OP_UPDATE_KEYS] = "nMatched",
		[OP_DELETE] = "nRemoved",
	};
	uint64_t t0, n = en->bulk_ops, got = 0;
	bson_error_t be;
	bson_iter_t it;
	bson_t reply;
	uint32_t ok;

	if (!en->bulk)
		return 0;
	t0 = clock_now_ns();
	ok = mongoc_bulk_operation_execute(en->bulk, &reply, &be);
	mongoc_bulk_operation_destroy(en->bulk);
	en->bulk = NULL;
	en->bulk_ops = 0;
	if (!ok) {
		char what[64];

		snprintf(what, sizeof what, "%s of a batch of %llu", knob_table[K_OP].choices[op],
		         (unsigned long long)n);
		bson_destroy(&reply);
		return mongo_fail(en, &be, e, what);
	}
	if (bson_iter_init_find(&it, &reply, counted[op]) && BSON_ITER_HOLDS_NUMBER(&it))
		got = (uint64_t)bson_iter_as_int64(&it);
	bson_destroy(&reply);
	if (got != n)
		return err_set(e, ERR_RUNTIME,
		               "%s: the server reports %s %llu for a batch of %llu - idxlab.t is "
		               "not what idxlab built (was it changed meanwhile?)",
		               knob_table[K_OP].choices[op], counted[op], (unsigned long long)got,
		               (unsigned long long)n);
	if (lat)
		hist_add(lat, clock_now_ns() - t0);
	if (out)
		out->commits++;
	return 0;
}

/* Insert rows 0..rows-1 (w:1 j:false: the load is not measured). */
static int load(struct engine *en, uint64_t rows, struct err *e)
{
	mongoc_write_concern_t *wc = en->wc;
	uint64_t n;
	int rc = 0;

	en->wc = mongo_doc_write_concern(SYNC_OFF);
	for (n = 0; n < rows && rc == 0; n++) {
		if (!en->bulk)
			open_bulk(en);
		rc = add_op(en, OP_INSERT, n, 0, e);
		if (rc == 0 && (en->bulk_ops == LOAD_BATCH || n + 1 == rows)) {
			rc = flush(en, OP_INSERT, NULL, NULL, e);
			if (rc == 0 && en->stop && atomic_load(en->stop))
				rc = err_set(e, ERR_RUNTIME, "loading idxlab.t: stopped");
		}
	}
	if (en->bulk) {
		mongoc_bulk_operation_destroy(en->bulk);
		en->bulk = NULL;
	}
	mongoc_write_concern_destroy(en->wc);
	en->wc = wc;
	return rc < 0 ? err_prefix(e, "loading %llu rows", (unsigned long long)rows) : 0;
}

/* Indexes k1..k<from> exist; make it k1..k<to>. New indexes are built by
 * one createIndexes (one scan of the collection for all of them). */
static int set_indexes(struct engine *en, long long from, long long to, int live, struct err *e)
{
	bson_t cmd = BSON_INITIALIZER, list, one, key;
	char field[24], name[24], num[16], names[160] = "";
	const char *pos;
	uint64_t t0 = clock_now_ns();
	size_t used = 0;
	long long i;
	int rc = 0;

	if (to > from) {
		BSON_APPEND_UTF8(&cmd, "createIndexes", COLL_NAME);
		BSON_APPEND_ARRAY_BEGIN(&cmd, "indexes", &list);
		for (i = from + 1; i <= to; i++) {
			snprintf(field, sizeof field, "k%lld", i);
			snprintf(name, sizeof name, "k%lld_1", i);
			used += (size_t)snprintf(names + used, sizeof names - used, "%s%s",
			                         used ? ", " : "", name);
			bson_uint32_to_string((uint32_t)(i - from - 1), &pos, num, sizeof num);
			BSON_APPEND_DOCUMENT_BEGIN(&list, pos, &one);
			BSON_APPEND_DOCUMENT_BEGIN(&one, "key", &key);
			BSON_APPEND_INT32(&key, field, 1);
			bson_append_document_end(&one, &key);
			BSON_APPEND_UTF8(&one, "name", name);
			bson_append_document_end(&list, &one);
		}
		bson_append_array_end(&cmd, &list);
		rc = command_or_fail(en, DB_NAME, &cmd, e, "createIndexes");
		if (rc == 0 && live)
			evlog_add(EV_INFO, "built %s on %llu rows in %.2f s", names,
			          (unsigned long long)en->rs.live_rows,
			          (double)(clock_now_ns() - t0) / 1e9);
		else if (rc < 0)
			err_prefix(e, "building %s", names);
	}
	for (i = from; i > to && rc == 0; i--) {
		snprintf(name, sizeof name, "k%lld_1", i);
		bson_reinit(&cmd);
		BSON_APPEND_UTF8(&cmd, "dropIndexes", COLL_NAME);
		BSON_APPEND_UTF8(&cmd, "index", name);
		rc = command_or_fail(en, DB_NAME, &cmd, e, "dropIndexes");
		if (rc == 0 && live)
			evlog_add(EV_INFO, "dropped %s", name);
		else if (rc < 0)
			err_prefix(e, "dropping %s", name);
	}
	bson_destroy(&cmd);
	return rc;
}

/* Start the measurement from a checkpoint (fsync forces one), like the
 * published runs; a user who may not run fsync just gets none. */
static int checkpoint(struct engine *en, struct err *e)
{
	bson_t cmd = BSON_INITIALIZER;
	bson_error_t be;
	int rc;

	if (en->fsync_denied)
		return 0;
	BSON_APPEND_INT32(&cmd, "fsync", 1);
	rc = command(en, "admin", &cmd, NULL, &be);
	bson_destroy(&cmd);
	if (rc < 0) {
		if (is_connection(&be))
			return mongo_fail(en, &be, e, "fsync (checkpoint)");
		en->fsync_denied = 1;
		evlog_add(EV_INFO, "no checkpoint before measuring: fsync is not allowed here (%s)",
		          be.message);
	}
	return 0;
}

static int check_server(struct engine *en, struct err *e)
{
	if (en->mongod_dir[0] && !mongod_alive(en))
		return mongod_died(en, e, "", NULL);
	return 0;
}

static int mongo_setup(struct engine *en, const struct knobs *k, struct err *e)
{
	uint64_t rows = (uint64_t)knobs_prefill(k);
	bson_t cmd = BSON_INITIALIZER;
	int rc;

	if (en->bulk) {
		mongoc_bulk_operation_destroy(en->bulk);
		en->bulk = NULL;
	}
	en->k = *k;
	set_payload(en, k->v[K_PAYLOAD]);
	set_write_concern(en, k->v[K_SYNC]);
	if (check_server(en, e) < 0 || set_cache(en, k, e) < 0 || drop_collection(en, e) < 0)
		return -1;
	BSON_APPEND_UTF8(&cmd, "create", COLL_NAME);
	rc = command_or_fail(en, DB_NAME, &cmd, e, "creating idxlab.t");
	bson_destroy(&cmd);
	if (rc < 0)
		return -1;
	rowset_reset(&en->rs, 0);
	if (rows) {
		if (load(en, rows, e) < 0)
			return -1;
		rowset_reset(&en->rs, rows);
	}
	if (set_indexes(en, 0, k->v[K_INDEXES], 0, e) < 0 || checkpoint(en, e) < 0)
		return -1;
	rowset_prepare(&en->rs, k->v[K_OP], (uint64_t)k->v[K_SEED]);
	return 0;
}

static int mongo_apply(struct engine *en, const struct knobs *k, struct err *e)
{
	const struct knobs old = en->k;

	if (en->bulk)
		return err_set(e, ERR_RUNTIME, "apply inside a batch (a bug in idxlab)");
	en->k = *k;
	if (old.v[K_CACHE] != k->v[K_CACHE] && set_cache(en, k, e) < 0)
		return -1;
	if (old.v[K_SYNC] != k->v[K_SYNC])
		set_write_concern(en, k->v[K_SYNC]);
	if (old.v[K_INDEXES] != k->v[K_INDEXES] &&
	    set_indexes(en, old.v[K_INDEXES], k->v[K_INDEXES], 1, e) < 0)
		return -1;
	if (old.v[K_PAYLOAD] != k->v[K_PAYLOAD])
		set_payload(en, k->v[K_PAYLOAD]);
	if (old.v[K_OP] != k->v[K_OP] || old.v[K_SEED] != k->v[K_SEED] ||
	    old.v[K_KEY_ORDER] != k->v[K_KEY_ORDER])
		rowset_prepare(&en->rs, k->v[K_OP], (uint64_t)k->v[K_SEED]);
	return 0;
}

/* compact rewrites the collection and its indexes, returning free space. */
static int mongo_rewrite(struct engine *en, struct err *e)
{
	bson_t cmd = BSON_INITIALIZER;
	uint64_t t0 = clock_now_ns();
	int rc;

	if (en->bulk)
		return err_set(e, ERR_RUNTIME, "rewrite inside a batch (a bug in idxlab)");
	BSON_APPEND_UTF8(&cmd, "compact", COLL_NAME);
	rc = command_or_fail(en, DB_NAME, &cmd, e, "compact idxlab.t");
	bson_destroy(&cmd);
	if (rc < 0)
		return -1;
	evlog_add(EV_INFO, "rewrote idxlab.t (compact) in %.2f s",
	          (double)(clock_now_ns() - t0) / 1e9);
	return 0;
}

static uint64_t mongo_table_rows(struct engine *en)
{
	return en->rs.live_rows;
}

/* ---- the workload ------------------------------------------------------------ */

static int mongo_step(struct engine *en, const struct knobs *k, uint64_t budget,
                      struct step_out *out, struct hist *lat, struct err *e)
{
	long long op = en->k.v[K_OP];
	uint64_t per_commit = (uint64_t)k->v[K_COMMIT], i;

	for (i = 0; i < budget; i++) {
		uint64_t row, version;

		if (!rowset_next(&en->rs, op, &row, &version))
			break;
		if (!en->bulk)
			open_bulk(en);
		if (add_op(en, op, row, version, e) < 0)
			return -1;
		rowset_done(&en->rs, op, row);
		out->rows++;
		if (per_commit != (uint64_t)COMMIT_ALL && en->bulk_ops >= per_commit &&
		    flush(en, op, out, lat, e) < 0)
			return -1;
	}
	if (per_commit == (uint64_t)COMMIT_ALL)
		return flush(en, op, out, lat, e);
	return 0;
}

static int mongo_finish(struct engine *en, struct step_out *out, struct hist *lat, struct err *e)
{
	return flush(en, en->k.v[K_OP], out, lat, e);
}

/* ---- counters ----------------------------------------------------------------- */

static int mongo_sample(struct engine *en, struct counters *c, struct err *e)
{
	struct proc_io io;
	bson_error_t be;

	if (!en->status_denied) {
		if (server_status(en, &be) < 0) {
			if (!is_denied(&be))
				return mongo_fail(en, &be, e, "serverStatus");
			en->status_denied = 1;
			memset(&en->st, 0, sizeof en->st);
			evlog_add(EV_WARN, "the server's statistics are n/a: serverStatus is not "
			                   "allowed for this user (grant clusterMonitor)");
		}
		mongo_status_counters(&en->st, c);
	}
	if (en->has_server_io && proc_tree_sample(&en->tree, &io) == 0) {
		c->v[C_WCHAR] = io.wchar;
		c->v[C_WRITE_BYTES] = io.write_bytes;
		c->valid |= 1u << C_WCHAR | 1u << C_WRITE_BYTES;
	}
	return 0;
}

static int mongo_sizes(struct engine *en, struct sizes *s, struct err *e)
{
	bson_t pipeline = BSON_INITIALIZER, stage, spec, cs, ss;
	mongoc_cursor_t *cur;
	const bson_t *doc;
	bson_error_t be;
	int rc = 0;

	memset(s, 0, sizeof *s);
	s->db_bytes = s->index_bytes = -1;
	if (en->sizes_denied)
		return 0;
	/* [ { $collStats: { storageStats: {} } } ] */
	BSON_APPEND_ARRAY_BEGIN(&pipeline, "pipeline", &stage);
	BSON_APPEND_DOCUMENT_BEGIN(&stage, "0", &spec);
	BSON_APPEND_DOCUMENT_BEGIN(&spec, "$collStats", &cs);
	BSON_APPEND_DOCUMENT_BEGIN(&cs, "storageStats", &ss);
	bson_append_document_end(&cs, &ss);
	bson_append_document_end(&spec, &cs);
	bson_append_document_end(&stage, &spec);
	bson_append_array_end(&pipeline, &stage);
	cur = mongoc_collection_aggregate(en->coll, MONGOC_QUERY_NONE, &pipeline, NULL, NULL);
	if (mongoc_cursor_next(cur, &doc))
		mongo_collstats_sizes(doc, (int)en->k.v[K_INDEXES], s);
	if (mongoc_cursor_error(cur, &be)) {
		if (is_denied(&be)) {
			en->sizes_denied = 1;
			evlog_add(EV_WARN, "sizes are n/a: $collStats is not allowed here (%s)",
			          be.message);
		} else if (be.code != CODE_NOT_FOUND) {
			rc = mongo_fail(en, &be, e, "$collStats");
		}
	}
	mongoc_cursor_destroy(cur);
	bson_destroy(&pipeline);
	return rc;
}

static const char *mongo_where(struct engine *en)
{
	return en->where;
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
	.version = mongo_version,
	.open = mongo_open,
	.setup = mongo_setup,
	.apply = mongo_apply,
	.rewrite = mongo_rewrite,
	.table_rows = mongo_table_rows,
	.step = mongo_step,
	.finish = mongo_finish,
	.sample = mongo_sample,
	.sizes = mongo_sizes,
	.in_force = mongo_in_force,
	.where = mongo_where,
	.close = mongo_close,
};
