/* postgres.c - the PostgreSQL engine (libpq).
 *
 * Without --dsn it starts a throwaway cluster (pg_cluster.c) and works in it;
 * with --dsn (a conninfo string or postgres:// URI; PG* variables and
 * .pgpass apply) it works on the user's server. Either way every object
 * lives in schema `idxlab`, which idxlab creates and marks with a comment;
 * a schema of that name that is not marked, or that holds anything idxlab
 * did not create, is refused and left alone.
 *
 * Operations are sent in libpq pipeline mode: BEGIN, the rows of a
 * transaction and COMMIT go out back to back and their results are read
 * after one sync, so a batch of N rows costs one round trip. Parameters are
 * sent in binary (int8, uuid, text).
 *
 * The connection is non-blocking and every wait for the server goes
 * through await(): after the user's stop a statement is cancelled (from a
 * thread: PQcancel itself waits for the server) and a server silent for
 * STOP_ANSWER_MS is given up on, so a stop ends idxlab in time even when
 * the server no longer answers.
 *
 * Counters (see man idxlab, OUTPUT FIELDS): WAL bytes from
 * pg_current_wal_insert_lsn() deltas (live, mid-transaction too);
 * full-page-image bytes from
 * pg_walinspect over the flushed WAL (superuser only; n/a otherwise);
 * fsyncs from pg_stat_wal.wal_sync; spills: the buffers idxlab's own
 * statements wrote out to make room (sample_spills); misses from
 * pg_statio blks_read; HOT from pg_stat_user_tables (these lag to the end of
 * a transaction; a step's end forces the flush); checkpoints from the
 * control file (pg_control_checkpoint()); write() and device bytes from /proc of the server's
 * processes when the server is local and readable. */
#include <errno.h>
#include <libpq-fe.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../clock.h"
#include "../evlog.h"
#include "../keys.h"
#include "../probes/proc.h"
#include "../probes/proc_tree.h"
#include "engine.h"
#include "pg_cluster.h"
#include "tmpdir.h"
#include "rowset.h"

#define SCHEMA_MARK          "created by idxlab"
#define PIPE_CHUNK           1000 /* queries in flight before a sync */
#define OID_INT8             20
#define OID_TEXT             25
#define BUFFERCACHE_EVERY_NS 1000000000ULL
#define ADVISORY_KEY         "115880238014818" /* "idxlab" in ASCII, as a number */
#define OID_UUID             2950
#define FPI_TAIL             262144 /* bytes of WAL read to find the last record's end */
#define SPILL_RELS           32     /* relfilenodes of the table, its indexes, TOAST */
#define STOP_GRACE_MS        300    /* a stop lets a short statement end before cancelling it */
#define STOP_ANSWER_MS       1000   /* ... and gives up on a server silent that long after it */
#define STATS_TIMEOUT        "10s"  /* statement_timeout of idxlab's own statistics queries */
#define WAIT_SLICE_MS        50

enum tag { T_BEGIN, T_OP, T_COMMIT, T_OTHER };

struct pending {
	enum tag tag;
	uint64_t t0; /* T_COMMIT: when its transaction began */
};

struct engine {
	PGconn *conn;
	struct pg_cluster *cluster; /* NULL with --dsn */
	char conninfo[1024];
	char where[300];
	int superuser;
	int claimed;             /* schema idxlab is ours: close may clean it up */
	int walinspect;          /* pg_get_wal_records_info() usable */
	int walinspect_ours;     /* in schema idxlab: dropped at close */
	char walinspect_fn[160]; /* schema-qualified pg_get_wal_records_info */
	int buffercache;         /* the pg_buffercache view usable */
	int buffercache_ours;    /* in schema idxlab: dropped at close */
	char buffercache_view[160];
	int statements;              /* pg_stat_statements usable: spills measured */
	int statements_ours;         /* in schema idxlab: dropped at close */
	char statements_fn[160];     /* schema-qualified pg_stat_statements */
	uint64_t spills, ss_written; /* spills so far; the last shared_blks_written */
	int ss_seen;                 /* ss_written and rels hold a reading */
	int nrels;
	struct {
		uint64_t node, blocks;
	} rels[SPILL_RELS]; /* idxlab's relations by relfilenode, at the last reading */
	uint64_t bc_t, bc_used, bc_dirty; /* its last reading: when (ns), buffers */
	const atomic_int *stop;           /* borrowed */
	struct knobs k;
	struct rowset rs;
	int pipeline;
	int in_txn;
	int prepared; /* idxlab_op exists (on this connection) */
	uint64_t txn_rows, txn_t0;
	struct pending *pend;
	size_t npend, cap_pend;
	uint64_t lsn0, lsn_now;
	uint64_t fpi_bytes, fpi_lsn;
	uint64_t fpi_gaps;                        /* times the WAL to read FPIs from was gone */
	uint64_t checkpoints, ckpt_lsn, redo_lsn; /* note_checkpoint() */
	/* Per-table counters restart with every new table: carry them over. */
	uint64_t upd_acc, hot_acc, read_acc, upd_last, hot_last, read_last;
	int has_server_io;
	struct proc_tree tree;
	char *payload;
	long long shared_buffers; /* bytes in force on the server */
	uint64_t t_started;       /* ns the throwaway server took to start */
	int cancelled;            /* the cancel request went out */
	int closing;              /* close's clean-up: not to be cancelled */
	int unanswered;           /* given up on the server: touch it no more */
	char unanswered_msg[400];
	char stmt_timeout[64]; /* statement_timeout of the session, as the server has it */
};

/* libpq messages end in a newline; trim it for our one-line messages. */
static const char *trim(const char *msg, char *buf, size_t len)
{
	size_t n;

	char *r, *w;

	snprintf(buf, len, "%s", msg ? msg : "");
	/* One line: libpq's hints come after a newline and a tab. */
	for (r = w = buf; *r; r++) {
		if (*r == '\n' || *r == '\t') {
			if (w > buf && w[-1] != ' ')
				*w++ = ' ';
		} else {
			*w++ = *r;
		}
	}
	*w = 0;
	n = strlen(buf);
	while (n && buf[n - 1] == ' ')
		buf[--n] = 0;
	return buf;
}

/* What to say of the errors a user can cause or fix, by SQLSTATE. */
static const struct {
	const char *state, *lead, *todo;
} advice[] = {
	{ "55P03", "",
	  "another session holds a lock on idxlab's table; end it (pg_stat_activity shows "
	  "which) or use another database" },
	{ "53100", "the server's disk is full: ", "free space there or lower --rows/--prefill" },
	{ "42501", "missing privilege: ",
	  "use a role that may create schemas and tables in this database, or grant it" },
};

/* A full disk can make any server process PANIC (the WAL writer as often
 * as our backend), and the server then restarts or stops with our
 * connection lost: the throwaway server's log says which. 1 with e filled. */
static int log_says_disk_full(struct engine *en, const char *what, struct err *e)
{
	static const char nospace[] = "No space left on device";
	char log[2000], *full, *from;

	tmpdir_log_tail(pg_cluster_dir(en->cluster), "server.log", 20, log, sizeof log);
	full = strstr(log, nospace);
	if (!full)
		return 0;
	for (from = full; from > log && from[-1] != '|'; from--)
		;
	while (*from == ' ')
		from++;
	err_set(e, ERR_RUNTIME,
	        "%s: the server's disk is full: %.*s - free space there or lower --rows/--prefill",
	        what, (int)(full - from + sizeof nospace - 1), from);
	return 1;
}

/* An error a person can act on, from a result (may be NULL) or the conn. */
static int pg_fail(struct engine *en, const PGresult *res, struct err *e, const char *what)
{
	const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
	char msg[600];

	trim(res && *PQresultErrorMessage(res) ? PQresultErrorMessage(res)
	                                       : PQerrorMessage(en->conn),
	     msg, sizeof msg);
	/* A lost connection on a throwaway server: was it the server? Give a
	 * dying postmaster a moment to become reapable before deciding. */
	for (int i = 0; en->cluster &&
	                (!en->conn || PQstatus(en->conn) == CONNECTION_BAD ||
	                 (state && strncmp(state, "57P", 3) == 0)) &&
	                pg_cluster_alive(en->cluster) && i < 20;
	     i++)
		usleep(10000);
	if (en->cluster &&
	    (!en->conn || PQstatus(en->conn) == CONNECTION_BAD || !pg_cluster_alive(en->cluster)) &&
	    log_says_disk_full(en, what, e))
		return -1;
	if (en->cluster && !pg_cluster_alive(en->cluster)) {
		char tail[400];

		/* The log goes with the temp dir at exit: quote its end now. */
		tmpdir_log_tail(pg_cluster_dir(en->cluster), "server.log", 3, tail, sizeof tail);
		return err_set(e, ERR_RUNTIME,
		               "%s: the throwaway PostgreSQL server died: %s - it was killed or "
		               "crashed; its log ends: %s",
		               what, msg, *tail ? tail : "(empty)");
	}
	if (!en->conn || PQstatus(en->conn) == CONNECTION_BAD ||
	    (state && strncmp(state, "57P", 3) == 0)) {
		return err_set(e, ERR_RUNTIME,
		               "%s: lost the connection to PostgreSQL: %s - was the server "
		               "stopped or restarted?",
		               what, msg);
	}
	for (size_t i = 0; state && i < sizeof advice / sizeof advice[0]; i++)
		if (strcmp(state, advice[i].state) == 0)
			return err_set(e, ERR_RUNTIME, "%s: %s%s - %s", what, advice[i].lead, msg,
			               advice[i].todo);
	if (state && strcmp(state, "57014") == 0)
		return err_set(e, ERR_RUNTIME, "%s: stopped", what);
	return err_set(e, ERR_RUNTIME, "%s: %s", what, msg);
}

static void notice_cb(void *arg, const char *msg)
{
	char buf[600];

	(void)arg;
	evlog_add(EV_INFO, "postgres: %s", trim(msg, buf, sizeof buf));
}

/* ---- plain statements (outside pipeline mode) ------------------------- */

static int leave_pipeline(struct engine *en, struct err *e)
{
	if (!en->pipeline)
		return 0;
	if (PQexitPipelineMode(en->conn) != 1)
		return pg_fail(en, NULL, e, "leaving pipeline mode");
	en->pipeline = 0;
	return 0;
}

static int enter_pipeline(struct engine *en, struct err *e)
{
	if (en->pipeline)
		return 0;
	if (PQenterPipelineMode(en->conn) != 1)
		return pg_fail(en, NULL, e, "entering pipeline mode");
	en->pipeline = 1;
	return 0;
}

/* PQcancel waits for the server to close the cancel connection, for ever
 * when the server is stopped: it runs on a detached thread of its own, so
 * no wait of idxlab's depends on it (process exit ends a stuck one). */
static void *cancel_main(void *arg)
{
	char buf[256];

	PQcancel(arg, buf, sizeof buf);
	PQfreeCancel(arg);
	return NULL;
}

static void send_cancel(struct engine *en)
{
	PGcancel *c = PQgetCancel(en->conn);
	pthread_attr_t attr;
	pthread_t t;

	en->cancelled = 1;
	if (!c)
		return;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&t, &attr, cancel_main, c) != 0)
		PQfreeCancel(c);
	pthread_attr_destroy(&attr);
}

/* Wait until PQgetResult will not block: sends what is queued, reads what
 * came (the connection is non-blocking). Every wait is bounded once the user
 * stops idxlab: a statement still running grace_ms later is cancelled, and a
 * server silent for STOP_ANSWER_MS is given up on (en->unanswered: no
 * statement is sent to it again). 0, or -1 with e filled. */
static int await(struct engine *en, const char *what, long grace_ms, struct err *e)
{
	uint64_t t0 = 0;

	if (en->unanswered)
		return err_set(e, ERR_RUNTIME, "%s: %s", what, en->unanswered_msg);
	for (;;) {
		int flush = PQflush(en->conn);
		struct pollfd pfd;

		/* A lost connection: PQgetResult returns what came before it (the
		 * server's last error says more than the loss), then the loss. */
		if (flush < 0 || PQconsumeInput(en->conn) != 1 ||
		    PQstatus(en->conn) == CONNECTION_BAD)
			return 0;
		if (!flush && !PQisBusy(en->conn))
			return 0;
		if (en->stop && atomic_load(en->stop)) {
			uint64_t t = clock_now_ns(), waited;

			if (!t0)
				t0 = t;
			waited = (t - t0) / 1000000;
			if (!en->cancelled && grace_ms < STOP_ANSWER_MS &&
			    waited >= (uint64_t)grace_ms)
				send_cancel(en);
			if (waited >= STOP_ANSWER_MS) {
				en->unanswered = 1;
				snprintf(
				    en->unanswered_msg, sizeof en->unanswered_msg,
				    "the server did not answer within %.1f s of the stop%s; idxlab "
				    "gave up on it%s",
				    STOP_ANSWER_MS / 1000.0,
				    en->cancelled ? ", even after a cancel request" : "",
				    en->cluster ? ""
				                : " (schema idxlab stays on the server: the next "
				                  "run takes it over)");
				return err_set(e, ERR_RUNTIME, "%s: %s", what, en->unanswered_msg);
			}
		}
		pfd.fd = PQsocket(en->conn);
		pfd.events = (short)(POLLIN | (flush ? POLLOUT : 0));
		pfd.revents = 0;
		if (pfd.fd < 0)
			return 0;
		(void)poll(&pfd, 1, WAIT_SLICE_MS);
	}
}

/* The results of what was sent (outside pipeline mode): the last one
 * (caller clears it), or NULL with e filled. grace_ms: see await. */
static PGresult *collect(struct engine *en, const char *what, long grace_ms, struct err *e)
{
	PGresult *res, *last = NULL;

	for (;;) {
		if (await(en, what, grace_ms, e) < 0) {
			PQclear(last);
			return NULL;
		}
		res = PQgetResult(en->conn);
		if (!res)
			break;
		PQclear(last);
		last = res;
		if (PQresultStatus(res) == PGRES_COPY_IN)
			break; /* the caller sends the rows */
	}
	if (!last) {
		pg_fail(en, NULL, e, what);
		return NULL;
	}
	if (PQresultStatus(last) != PGRES_COMMAND_OK && PQresultStatus(last) != PGRES_TUPLES_OK &&
	    PQresultStatus(last) != PGRES_COPY_IN) {
		pg_fail(en, last, e, what);
		PQclear(last);
		return NULL;
	}
	return last;
}

/* Run sql and wait for it, cancelling it (PQcancel) when the user stops
 * idxlab. Returns the last result (caller clears it), or NULL with e filled. */
static PGresult *run(struct engine *en, const char *sql, int nparams, const char *const *params,
                     struct err *e)
{
	if (leave_pipeline(en, e) < 0)
		return NULL;
	if (en->unanswered) {
		err_set(e, ERR_RUNTIME, "%s: %s", sql, en->unanswered_msg);
		return NULL;
	}
	/* The simple protocol takes several statements; parameters need the other. */
	if (!(nparams ? PQsendQueryParams(en->conn, sql, nparams, NULL, params, NULL, NULL, 0)
	              : PQsendQuery(en->conn, sql))) {
		pg_fail(en, NULL, e, sql);
		return NULL;
	}
	return collect(en, sql, en->closing ? STOP_ANSWER_MS : 0, e);
}

static int exec(struct engine *en, const char *sql, struct err *e)
{
	PGresult *res = run(en, sql, 0, NULL, e);

	PQclear(res);
	return res ? 0 : -1;
}

/* One text value of a one-row query, into buf; -1 with e filled. */
static int query_text(struct engine *en, const char *sql, char *buf, size_t len, struct err *e)
{
	PGresult *res = run(en, sql, 0, NULL, e);

	if (!res)
		return -1;
	snprintf(buf, len, "%s", PQntuples(res) ? PQgetvalue(res, 0, 0) : "");
	PQclear(res);
	return 0;
}

static uint64_t to_u64(const char *s)
{
	return s && *s ? strtoull(s, NULL, 10) : 0;
}

/* ---- connecting -------------------------------------------------------- */

static int connect_to(struct engine *en, const char *conninfo, struct err *e)
{
	/* connect_timeout and the TCP keepalives first, so the user's conninfo
	 * wins. Keepalives find a peer that is gone (a network cut) in about
	 * 25 s where the kernel alone would take hours. */
	const char *keys[] = { "connect_timeout",  "keepalives",
		               "keepalives_idle",  "keepalives_interval",
		               "keepalives_count", "dbname",
		               "application_name", NULL };
	const char *vals[] = { "5", "1", "10", "5", "3", conninfo, "idxlab", NULL };
	char msg[600];

	PQfinish(en->conn);
	en->pipeline = 0;
	en->conn = PQconnectdbParams(keys, vals, 1);
	if (!en->conn)
		abort();
	if (PQstatus(en->conn) != CONNECTION_OK)
		return err_set(e, ERR_RUNTIME,
		               "cannot connect to PostgreSQL: %s - check --dsn (a conninfo string "
		               "or postgres:// URI), the PG* variables and ~/.pgpass",
		               trim(PQerrorMessage(en->conn), msg, sizeof msg));
	PQsetNoticeProcessor(en->conn, notice_cb, NULL);
	/* Non-blocking: no send waits for a server that stopped reading (await). */
	if (PQsetnonblocking(en->conn, 1) != 0)
		return pg_fail(en, NULL, e, "connecting");
	if (exec(en,
	         "SET client_min_messages = warning; SET stats_fetch_consistency = none; "
	         "SET search_path = idxlab, pg_catalog; SET lock_timeout = '10s'",
	         e) < 0)
		return -1;
	/* idxlab's statistics queries run under STATS_TIMEOUT and then put this back. */
	return query_text(en, "SELECT current_setting('statement_timeout')", en->stmt_timeout,
	                  sizeof en->stmt_timeout, e);
}

/* The schema is idxlab's, or we refuse. Creates it when absent. */
static int claim_schema(struct engine *en, struct err *e)
{
	char mark[256], foreign[512];

	if (query_text(en,
	               "SELECT coalesce(obj_description(oid, 'pg_namespace'), '<none>') "
	               "FROM pg_namespace WHERE nspname = 'idxlab'",
	               mark, sizeof mark, e) < 0)
		return -1;
	if (!*mark) {
		if (exec(en, "CREATE SCHEMA idxlab; COMMENT ON SCHEMA idxlab IS '" SCHEMA_MARK "'",
		         e) < 0)
			return err_prefix(e, "creating schema idxlab");
		return 0;
	}
	if (strcmp(mark, SCHEMA_MARK) != 0)
		return err_set(e, ERR_USAGE,
		               "this server has a schema named idxlab that idxlab did not create "
		               "(its comment is not '" SCHEMA_MARK
		               "'); idxlab leaves it untouched - use another database");
	/* Only our own relations and functions may be in it. */
	if (query_text(en,
	               "SELECT coalesce(string_agg(name, ', '), '') FROM ("
	               " SELECT c.relname AS name FROM pg_class c"
	               " WHERE c.relnamespace = 'idxlab'::regnamespace AND c.relname NOT IN"
	               " ('idxlab_t', 'idxlab_t_pkey', 'idxlab_k1', 'idxlab_k2', 'idxlab_k3',"
	               " 'idxlab_k4', 'idxlab_k5', 'idxlab_k6', 'idxlab_k7', 'idxlab_k8')"
	               " AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid ="
	               " 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e')"
	               " UNION ALL SELECT p.proname || '()' FROM pg_proc p"
	               " WHERE p.pronamespace = 'idxlab'::regnamespace AND NOT EXISTS"
	               " (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass"
	               " AND d.objid = p.oid AND d.deptype = 'e')) x",
	               foreign, sizeof foreign, e) < 0)
		return -1;
	if (*foreign)
		return err_set(e, ERR_USAGE,
		               "schema idxlab holds objects idxlab did not create (%s); idxlab "
		               "changes nothing there - remove them or use another database",
		               foreign);
	return 0;
}

/* Find extension name, for its object obj (function fn must be callable):
 * "schema.obj" into qual. Creates it in schema idxlab when it is missing
 * and we are superuser; *ours says it lives in idxlab's schema (so close
 * drops it). why: what is n/a without it, for the event log. 1: usable. */
static int find_extension(struct engine *en, const char *name, const char *obj, const char *fn,
                          char *qual, size_t len, int *ours, const char *why)
{
	char schema[128], sql[256], buf[16];
	struct err e = { ERR_NONE, "" };

	snprintf(sql, sizeof sql,
	         "SELECT coalesce(max(quote_ident(n.nspname)), '') FROM pg_extension x "
	         "JOIN pg_namespace n ON n.oid = x.extnamespace WHERE x.extname = '%s'",
	         name);
	*ours = 0;
	if (query_text(en, sql, schema, sizeof schema, &e) < 0)
		return 0;
	if (!*schema && en->superuser) {
		char create[128];

		snprintf(create, sizeof create, "CREATE EXTENSION %s SCHEMA idxlab", name);
		if (exec(en, create, &e) < 0 || query_text(en, sql, schema, sizeof schema, &e) < 0)
			schema[0] = 0;
	}
	if (!*schema) {
		evlog_add(EV_INFO, "%s are n/a: %s is %s", why, name,
		          en->superuser ? "not available (the contrib package)"
		                        : "not installed, and installing it needs a superuser");
		return 0;
	}
	*ours = strcmp(schema, "idxlab") == 0;
	snprintf(qual, len, "%s.%s", schema, obj);
	/* Installed is not usable: its functions may be granted to others only. */
	snprintf(sql, sizeof sql, "SELECT has_function_privilege('%s.%s', 'EXECUTE')", schema, fn);
	if (query_text(en, sql, buf, sizeof buf, &e) < 0 || strcmp(buf, "t") != 0) {
		evlog_add(EV_INFO, "%s are n/a: this user may not use %s (grant pg_monitor)", why,
		          name);
		return 0;
	}
	return 1;
}

/* pg_stat_statements, for spills: its library must be preloaded (the
 * throwaway server is started so), and it must track statements. */
static void find_statements(struct engine *en)
{
	static const char why[] = "cache spills (the buffers idxlab's statements wrote out)";
	char track[64];
	struct err e = { ERR_NONE, "" };

	en->statements = 0;
	if (query_text(en,
	               "SELECT coalesce((SELECT setting FROM pg_settings WHERE name = "
	               "'pg_stat_statements.track'), '')",
	               track, sizeof track, &e) < 0)
		return;
	if (!*track || strcmp(track, "none") == 0) {
		evlog_add(EV_INFO,
		          "%s are n/a: pg_stat_statements is %s on this server (%s); "
		          "pg_stat_bgwriter.buffers_backend is no substitute: it counts relation "
		          "extensions too",
		          why, *track ? "set to track nothing" : "not loaded",
		          *track ? "set pg_stat_statements.track = top"
		                 : "add it to shared_preload_libraries and restart the server");
		return;
	}
	en->statements = find_extension(en, "pg_stat_statements", "pg_stat_statements",
	                                "pg_stat_statements(boolean)", en->statements_fn,
	                                sizeof en->statements_fn, &en->statements_ours, why);
}

/* pg_walinspect for exact full-page-image bytes; pg_buffercache for the
 * cache gauges; pg_stat_statements for spills. */
static void find_extensions(struct engine *en)
{
	en->walinspect =
	    en->superuser &&
	    find_extension(en, "pg_walinspect", "pg_get_wal_records_info",
	                   "pg_get_wal_records_info(pg_lsn, pg_lsn)", en->walinspect_fn,
	                   sizeof en->walinspect_fn, &en->walinspect_ours, "full-page-image bytes");
	if (!en->superuser)
		evlog_add(EV_INFO,
		          "full-page-image bytes are n/a: pg_walinspect needs a superuser");
	en->buffercache = find_extension(
	    en, "pg_buffercache", "pg_buffercache", "pg_buffercache_pages()", en->buffercache_view,
	    sizeof en->buffercache_view, &en->buffercache_ours, "the cache gauges");
	en->bc_t = 0;
	find_statements(en);
}

static int read_shared_buffers(struct engine *en, struct err *e)
{
	char buf[64];

	if (query_text(
	        en, "SELECT setting::bigint * 8192 FROM pg_settings WHERE name = 'shared_buffers'",
	        buf, sizeof buf, e) < 0)
		return -1;
	en->shared_buffers = (long long)to_u64(buf);
	return 0;
}

/* Where the server is local and its /proc readable, sample its processes. */
static void find_server_processes(struct engine *en)
{
	char buf[64];
	struct err e = { ERR_NONE, "" };
	struct proc_io io;
	pid_t backend, postmaster;
	char comm[64] = "";

	en->has_server_io = 0;
	if (en->cluster) {
		postmaster = pg_cluster_pid(en->cluster);
	} else {
		if (query_text(en, "SELECT pg_backend_pid()", buf, sizeof buf, &e) < 0)
			return;
		backend = (pid_t)atoi(buf);
		if (proc_comm(backend, comm, sizeof comm) < 0)
			return; /* not on this machine */
		if (!strstr(comm, "postgres"))
			return;
		postmaster = proc_ppid(backend);
		if (postmaster < 0)
			return;
	}
	proc_tree_init(&en->tree, postmaster);
	if (postmaster > 0 && proc_tree_sample(&en->tree, &io) == 0)
		en->has_server_io = 1;
	else
		evlog_add(EV_INFO, "write() and device bytes are n/a: the server's processes are "
		                   "not readable here");
}

static int start_session(struct engine *en, struct err *e)
{
	char buf[64];

	if (query_text(en, "SELECT rolsuper FROM pg_roles WHERE rolname = current_user", buf,
	               sizeof buf, e) < 0)
		return -1;
	en->superuser = strcmp(buf, "t") == 0;
	/* One idxlab per database: a second would drop the first one's table.
	 * The lock is the session's: it goes when the connection does, even
	 * when idxlab is killed. */
	if (query_text(en, "SELECT pg_try_advisory_lock(" ADVISORY_KEY ")", buf, sizeof buf, e) < 0)
		return -1;
	if (strcmp(buf, "t") != 0)
		return err_set(e, ERR_RUNTIME,
		               "another idxlab is working in schema idxlab of this database (it "
		               "holds advisory lock " ADVISORY_KEY "): wait for it to finish, or "
		               "point --dsn at another database");
	if (claim_schema(en, e) < 0)
		return -1;
	en->claimed = 1;
	find_extensions(en);
	find_server_processes(en);
	if (read_shared_buffers(en, e) < 0)
		return -1;
	if (query_text(en, "SELECT pg_current_wal_insert_lsn() - '0/0'::pg_lsn", buf, sizeof buf,
	               e) < 0)
		return -1;
	if (!en->lsn0)
		en->lsn0 = en->fpi_lsn = to_u64(buf);
	return 0;
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
			(void)leave_pipeline(en, &e);
		if (PQtransactionStatus(en->conn) != PQTRANS_IDLE)
			(void)exec(en, "ROLLBACK", &e);
		(void)exec(en, "DROP TABLE IF EXISTS idxlab.idxlab_t", &e);
		if (en->walinspect_ours)
			(void)exec(en, "DROP EXTENSION IF EXISTS pg_walinspect", &e);
		if (en->buffercache_ours)
			(void)exec(en, "DROP EXTENSION IF EXISTS pg_buffercache", &e);
		if (en->statements_ours)
			(void)exec(en, "DROP EXTENSION IF EXISTS pg_stat_statements", &e);
		(void)exec(en, "DROP SCHEMA IF EXISTS idxlab", &e);
	}
	PQfinish(en->conn);
	if (en->cluster) {
		uint64_t t0 = clock_now_ns();

		pg_cluster_stop(en->cluster);
		evlog_add(EV_INFO, "postgres: throwaway server stopped and removed in %.2f s",
		          (double)(clock_now_ns() - t0) / 1e9);
	}
	rowset_free(&en->rs);
	free(en->pend);
	free(en->payload);
	free(en);
}

static int pg_open(struct engine **out, const struct knobs *k, const atomic_int *stop,
                   struct err *e)
{
	struct engine *en = calloc(1, sizeof *en);

	*out = NULL;
	if (!en)
		abort();
	en->stop = stop;
	en->k = *k;
	if (!k->dsn || !*k->dsn) {
		uint64_t t0 = clock_now_ns();

		if (pg_cluster_start(&en->cluster, k->v[K_CACHE], e) < 0) {
			pg_close(en);
			return -1;
		}
		en->t_started = clock_now_ns() - t0;
		snprintf(en->conninfo, sizeof en->conninfo, "%s", pg_cluster_conninfo(en->cluster));
		snprintf(en->where, sizeof en->where, "throwaway server in %s",
		         pg_cluster_dir(en->cluster));
	} else {
		snprintf(en->conninfo, sizeof en->conninfo, "%s", k->dsn);
	}
	{
		uint64_t t0 = clock_now_ns();

		if (connect_to(en, en->conninfo, e) < 0 || start_session(en, e) < 0) {
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

/* ---- the table ----------------------------------------------------------- */

static int is_uuid_key(long long ko)
{
	return ko == KO_UUID7 || ko == KO_UUID4;
}

/* Text form of a 16-byte uuid. */
static void uuid_text(const unsigned char u[KEYS_UUID_LEN], char *out)
{
	static const char hex[] = "0123456789abcdef";
	int i, n = 0;

	for (i = 0; i < KEYS_UUID_LEN; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			out[n++] = '-';
		out[n++] = hex[u[i] >> 4];
		out[n++] = hex[u[i] & 15];
	}
	out[n] = 0;
}

static void set_payload(struct engine *en, long long len)
{
	free(en->payload);
	en->payload = keys_payload_new((size_t)len);
}

/* One COPY text line for row n. */
static size_t copy_line(const struct engine *en, uint64_t n, char *out, size_t len)
{
	uint64_t seed = (uint64_t)en->k.v[K_SEED];
	long long ko = en->k.v[K_KEY_ORDER];
	size_t used;
	int c;

	if (en->k.v[K_PK] == PK_INT) {
		used = (size_t)snprintf(out, len, "%llu", (unsigned long long)n + 1);
	} else {
		unsigned char u[KEYS_UUID_LEN];

		keys_uuid(seed, en->k.v[K_PK] == PK_UUID7, 0, n, 0, u);
		uuid_text(u, out);
		used = strlen(out);
	}
	for (c = 1; c <= 8; c++) {
		if (is_uuid_key(ko)) {
			unsigned char u[KEYS_UUID_LEN];

			keys_uuid(seed, ko == KO_UUID7, c, n, 0, u);
			out[used++] = '\t';
			uuid_text(u, out + used);
			used += strlen(out + used);
		} else {
			used += (size_t)snprintf(
			    out + used, len - used, "\t%lld",
			    (long long)keys_int(seed, (enum key_order)ko, c, n, 0));
		}
	}
	used += (size_t)snprintf(out + used, len - used, "\t0\t%s\n", en->payload);
	return used;
}

/* COPY rows 0..rows-1 in. */
static int load(struct engine *en, uint64_t rows, struct err *e)
{
	size_t cap = 1 << 16, used = 0, linecap = (size_t)en->k.v[K_PAYLOAD] + 1024;
	char *buf;
	PGresult *res;
	uint64_t n;
	int ok = 1;

	res = run(
	    en, "COPY idxlab.idxlab_t(id, k1, k2, k3, k4, k5, k6, k7, k8, hot, payload) FROM STDIN",
	    0, NULL, e);
	if (!res)
		return -1;
	if (PQresultStatus(res) != PGRES_COPY_IN) {
		PQclear(res);
		return err_set(e, ERR_RUNTIME, "COPY: the server did not start copying");
	}
	PQclear(res);
	buf = malloc(cap + linecap);
	if (!buf)
		abort();
	for (n = 0; n < rows && ok; n++) {
		used += copy_line(en, n, buf + used, linecap);
		if (used >= cap || n + 1 == rows) {
			/* Queued, then sent as far as the server takes it (bounded). */
			ok = PQputCopyData(en->conn, buf, (int)used) == 1 &&
			     await(en, "loading the table", 0, e) == 0;
			used = 0;
			if (en->stop && atomic_load(en->stop))
				break;
		}
	}
	free(buf);
	if (en->unanswered)
		return -1;
	if (PQputCopyEnd(en->conn, ok && n == rows ? NULL : "stopped") != 1)
		return pg_fail(en, NULL, e, "COPY");
	res = collect(en, "loading the table", 0, e);
	PQclear(res);
	return res ? 0 : -1;
}

static int set_indexes(struct engine *en, long long from, long long to, int live, struct err *e)
{
	char sql[128];
	long long i;

	for (i = from + 1; i <= to; i++) {
		uint64_t t0 = clock_now_ns();

		snprintf(sql, sizeof sql, "CREATE INDEX idxlab_k%lld ON idxlab.idxlab_t (k%lld)", i,
		         i);
		if (exec(en, sql, e) < 0)
			return -1;
		if (live)
			evlog_add(EV_INFO, "built idxlab_k%lld on %llu rows in %.2f s", i,
			          (unsigned long long)en->rs.live_rows,
			          (double)(clock_now_ns() - t0) / 1e9);
	}
	for (i = from; i > to; i--) {
		snprintf(sql, sizeof sql, "DROP INDEX idxlab.idxlab_k%lld", i);
		if (exec(en, sql, e) < 0)
			return -1;
		if (live)
			evlog_add(EV_INFO, "dropped idxlab_k%lld", i);
	}
	return 0;
}

static const char *const op_sql[] = {
	[OP_INSERT] = "INSERT INTO idxlab.idxlab_t (id, k1, k2, k3, k4, k5, k6, k7, k8, hot, "
	              "payload) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 0, $10)",
	[OP_UPDATE] = "UPDATE idxlab.idxlab_t SET hot = hot + 1 WHERE id = $1",
	[OP_UPDATE_INDEXED] = "UPDATE idxlab.idxlab_t SET k1 = $2 WHERE id = $1",
	[OP_UPDATE_KEYS] = "UPDATE idxlab.idxlab_t SET k1 = $2, k2 = $3, k3 = $4, k4 = $5, "
	                   "k5 = $6, k6 = $7, k7 = $8, k8 = $9 WHERE id = $1",
	[OP_DELETE] = "DELETE FROM idxlab.idxlab_t WHERE id = $1",
};
static const int op_nparams[] = {
	[OP_INSERT] = 10,     [OP_UPDATE] = 1, [OP_UPDATE_INDEXED] = 2,
	[OP_UPDATE_KEYS] = 9, [OP_DELETE] = 1,
};

/* The statement of the op, on the server (a new connection has none). */
static int prepare_statement(struct engine *en, struct err *e)
{
	Oid id_t = en->k.v[K_PK] == PK_INT ? OID_INT8 : OID_UUID;
	Oid key_t = is_uuid_key(en->k.v[K_KEY_ORDER]) ? OID_UUID : OID_INT8;
	Oid types[10];
	long long op = en->k.v[K_OP];
	PGresult *res;
	int i;

	if (exec(en, "DEALLOCATE ALL", e) < 0)
		return -1;
	types[0] = id_t;
	for (i = 1; i < 9; i++)
		types[i] = key_t;
	types[9] = OID_TEXT;
	if (!PQsendPrepare(en->conn, "idxlab_op", op_sql[op], op_nparams[op], types))
		return pg_fail(en, NULL, e, "prepare");
	res = collect(en, "prepare", 0, e);
	if (!res)
		return -1;
	PQclear(res);
	en->prepared = 1;
	return 0;
}

/* The op's statement and the order of the rows it visits. */
static int prepare_op(struct engine *en, struct err *e)
{
	if (prepare_statement(en, e) < 0)
		return -1;
	rowset_prepare(&en->rs, en->k.v[K_OP], (uint64_t)en->k.v[K_SEED]);
	return 0;
}

/* Per-table counters of the current table, carried over before a drop. */
static void carry_table_counters(struct engine *en)
{
	en->upd_acc += en->upd_last;
	en->hot_acc += en->hot_last;
	en->read_acc += en->read_last;
	en->upd_last = en->hot_last = en->read_last = 0;
}

static int set_session(struct engine *en, const struct knobs *k, struct err *e)
{
	return exec(en,
	            k->v[K_SYNC] == SYNC_OFF ? "SET synchronous_commit = off"
	                                     : "SET synchronous_commit = on",
	            e);
}

/* A new connection to the throwaway server, after a restart: the session's
 * state as the old one had it (settings, sync, the prepared statement,
 * the figures read from the server). The one place that sets it up again. */
static int reconnect(struct engine *en, struct err *e)
{
	if (connect_to(en, en->conninfo, e) < 0 || read_shared_buffers(en, e) < 0 ||
	    set_session(en, &en->k, e) < 0 || (en->prepared && prepare_statement(en, e) < 0))
		return -1;
	find_server_processes(en);
	en->bc_t = 0; /* a new buffer pool */
	return 0;
}

/* shared_buffers = cache: restart a throwaway server; a user's is read-only. */
static int set_cache(struct engine *en, const struct knobs *k, struct err *e)
{
	long long want = k->v[K_CACHE];

	if (want / 8192 == en->shared_buffers / 8192)
		return 0;
	if (!en->cluster) {
		char have[32];

		snprintf(have, sizeof have, "%lldkB", en->shared_buffers / 1024);
		evlog_add(EV_WARN, "cache is read-only on your server: shared_buffers stays %s",
		          have);
		return 0;
	}
	evlog_add(EV_INFO, "restarting the throwaway server with shared_buffers = %lldkB",
	          want / 1024);
	PQfinish(en->conn);
	en->conn = NULL;
	en->pipeline = 0;
	return pg_cluster_restart(en->cluster, want, e) < 0 ? -1 : reconnect(en, e);
}

static int settle(struct engine *en, struct err *e);
static int sample_fpi(struct engine *en);
static int pg_sample(struct engine *en, struct counters *c, struct err *e);
static int pg_sizes(struct engine *en, struct sizes *s, struct err *e);

static int pg_setup(struct engine *en, const struct knobs *k, struct err *e)
{
	const char *key_t = is_uuid_key(k->v[K_KEY_ORDER]) ? "uuid" : "bigint";
	uint64_t rows = (uint64_t)knobs_prefill(k);
	char sql[1024], lsn[32];
	int i;

	en->k = *k;
	en->in_txn = 0;
	en->npend = 0;
	set_payload(en, k->v[K_PAYLOAD]);
	if (en->cluster && !pg_cluster_alive(en->cluster)) {
		evlog_add(EV_WARN, "the throwaway server had died: starting it again");
		PQfinish(en->conn);
		en->conn = NULL;
		en->prepared = 0; /* its table is made again below, then the statement */
		if (pg_cluster_restart(en->cluster, k->v[K_CACHE], e) < 0 || reconnect(en, e) < 0)
			return -1;
	}
	if (leave_pipeline(en, e) < 0)
		return -1;
	if (PQtransactionStatus(en->conn) != PQTRANS_IDLE && exec(en, "ROLLBACK", e) < 0)
		return -1;
	if (set_cache(en, k, e) < 0 || set_session(en, k, e) < 0)
		return -1;
	carry_table_counters(en);
	snprintf(sql, sizeof sql,
	         "DROP TABLE IF EXISTS idxlab.idxlab_t; "
	         "CREATE TABLE idxlab.idxlab_t (id %s PRIMARY KEY, k1 %s, k2 %s, k3 %s, k4 %s, "
	         "k5 %s, k6 %s, k7 %s, k8 %s, hot int NOT NULL DEFAULT 0, payload text) "
	         "WITH (fillfactor = %lld, autovacuum_enabled = false)",
	         k->v[K_PK] == PK_INT ? "bigint" : "uuid", key_t, key_t, key_t, key_t, key_t, key_t,
	         key_t, key_t, k->v[K_FILLFACTOR]);
	if (exec(en, sql, e) < 0)
		return -1;
	rowset_reset(&en->rs, 0);
	if (rows) {
		if (load(en, rows, e) < 0)
			return -1;
		rowset_reset(&en->rs, rows);
		if (exec(en, "VACUUM (ANALYZE) idxlab.idxlab_t", e) < 0)
			return -1;
	}
	if (set_indexes(en, 0, k->v[K_INDEXES], 0, e) < 0)
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
	if (en->superuser && exec(en, "CHECKPOINT", e) < 0)
		return -1;
	if (prepare_op(en, e) < 0)
		return -1;
	/* The set-up's own statistics must land before the measurement starts,
	 * and full-page images are counted from here on: the checkpoint above
	 * may have recycled the WAL of the set-up. */
	if (settle(en, e) < 0 ||
	    query_text(en, "SELECT pg_current_wal_insert_lsn() - '0/0'::pg_lsn", lsn, sizeof lsn,
	               e) < 0)
		return -1;
	en->fpi_lsn = to_u64(lsn);
	/* Background records (a checkpoint's running-transactions note) may
	 * follow: let the full-page-image count catch up before the
	 * measurement starts (set-up time, not measured; at most 1 s). */
	for (i = 0; en->walinspect && i < 50; i++) {
		if (query_text(en, "SELECT pg_current_wal_insert_lsn() - '0/0'::pg_lsn", lsn,
		               sizeof lsn, e) < 0)
			return -1;
		en->lsn_now = to_u64(lsn);
		if (sample_fpi(en))
			break;
		usleep(20000);
	}
	return enter_pipeline(en, e);
}

static int pg_apply(struct engine *en, const struct knobs *k, struct err *e)
{
	const struct knobs old = en->k;
	char sql[128];

	if (en->in_txn)
		return err_set(e, ERR_RUNTIME, "apply inside a transaction (a bug in idxlab)");
	en->k = *k;
	if (leave_pipeline(en, e) < 0)
		return -1;
	if (old.v[K_CACHE] != k->v[K_CACHE] && set_cache(en, k, e) < 0)
		return -1;
	if (old.v[K_SYNC] != k->v[K_SYNC] && set_session(en, k, e) < 0)
		return -1;
	if (old.v[K_FILLFACTOR] != k->v[K_FILLFACTOR]) {
		snprintf(sql, sizeof sql, "ALTER TABLE idxlab.idxlab_t SET (fillfactor = %lld)",
		         k->v[K_FILLFACTOR]);
		if (exec(en, sql, e) < 0)
			return -1;
		evlog_add(EV_INFO,
		          "fillfactor %lld applies to new pages only: rewrite the table "
		          "(key W) to repack the pages that exist",
		          k->v[K_FILLFACTOR]);
	}
	if (old.v[K_INDEXES] != k->v[K_INDEXES] &&
	    set_indexes(en, old.v[K_INDEXES], k->v[K_INDEXES], 1, e) < 0)
		return -1;
	if (old.v[K_PAYLOAD] != k->v[K_PAYLOAD])
		set_payload(en, k->v[K_PAYLOAD]);
	if ((old.v[K_OP] != k->v[K_OP] || old.v[K_SEED] != k->v[K_SEED] ||
	     old.v[K_KEY_ORDER] != k->v[K_KEY_ORDER]) &&
	    prepare_op(en, e) < 0)
		return -1;
	return enter_pipeline(en, e);
}

static int pg_rewrite(struct engine *en, struct err *e)
{
	uint64_t t0 = clock_now_ns();

	if (en->in_txn)
		return err_set(e, ERR_RUNTIME, "rewrite inside a transaction (a bug in idxlab)");
	if (exec(en, "VACUUM FULL idxlab.idxlab_t", e) < 0 || enter_pipeline(en, e) < 0)
		return -1;
	evlog_add(EV_INFO, "rewrote idxlab_t (VACUUM FULL) in %.2f s",
	          (double)(clock_now_ns() - t0) / 1e9);
	return 0;
}

static uint64_t pg_table_rows(struct engine *en)
{
	return en->rs.live_rows;
}

/* ---- the workload -------------------------------------------------------- */

static void expect(struct engine *en, enum tag tag, uint64_t t0)
{
	if (en->npend == en->cap_pend) {
		en->cap_pend = en->cap_pend ? en->cap_pend * 2 : 4096;
		en->pend = realloc(en->pend, sizeof *en->pend * en->cap_pend);
		if (!en->pend)
			abort();
	}
	en->pend[en->npend].tag = tag;
	en->pend[en->npend].t0 = t0;
	en->npend++;
}

static int send_simple(struct engine *en, const char *sql, enum tag tag, uint64_t t0, struct err *e)
{
	if (!PQsendQueryParams(en->conn, sql, 0, NULL, NULL, NULL, NULL, 0))
		return pg_fail(en, NULL, e, sql);
	expect(en, tag, t0);
	return 0;
}

static void put_be64(char *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		p[i] = (char)(v >> (56 - 8 * i));
}

static int send_op(struct engine *en, long long op, uint64_t row, uint64_t version, struct err *e)
{
	uint64_t seed = (uint64_t)en->k.v[K_SEED];
	long long ko = en->k.v[K_KEY_ORDER];
	char buf[10][KEYS_UUID_LEN];
	const char *vals[10];
	int lens[10], fmts[10], n = op_nparams[op], c;

	for (c = 0; c < 10; c++)
		fmts[c] = 1;
	if (en->k.v[K_PK] == PK_INT) {
		put_be64(buf[0], row + 1);
		lens[0] = 8;
	} else {
		keys_uuid(seed, en->k.v[K_PK] == PK_UUID7, 0, row, 0, (unsigned char *)buf[0]);
		lens[0] = KEYS_UUID_LEN;
	}
	vals[0] = buf[0];
	for (c = 1; c < 9 && c < n; c++) {
		/* insert: k1..k8 of the row; updates: their new keys */
		uint64_t v = op == OP_INSERT ? 0 : version;

		if (is_uuid_key(ko)) {
			keys_uuid(seed, ko == KO_UUID7, c, row, v, (unsigned char *)buf[c]);
			lens[c] = KEYS_UUID_LEN;
		} else {
			put_be64(buf[c], (uint64_t)keys_int(seed, (enum key_order)ko, c, row, v));
			lens[c] = 8;
		}
		vals[c] = buf[c];
	}
	if (op == OP_INSERT) {
		vals[9] = en->payload;
		lens[9] = (int)en->k.v[K_PAYLOAD];
	}
	if (!PQsendQueryPrepared(en->conn, "idxlab_op", n, vals, lens, fmts, 0))
		return pg_fail(en, NULL, e, "send");
	expect(en, T_OP, 0);
	return 0;
}

/* Sync and read every pending result; commits go into lat and out. */
static int drain(struct engine *en, struct step_out *out, struct hist *lat, struct err *e)
{
	size_t i = 0;
	PGresult *res;
	int failed = 0;

	if (PQpipelineSync(en->conn) != 1)
		return pg_fail(en, NULL, e, "sync");
	for (;;) {
		ExecStatusType st;

		if (await(en, knob_table[K_OP].choices[en->k.v[K_OP]], STOP_GRACE_MS, e) < 0) {
			en->npend = 0;
			en->in_txn = 0;
			return -1;
		}
		res = PQgetResult(en->conn);
		if (!res) {
			if (PQstatus(en->conn) == CONNECTION_BAD) {
				failed = failed ? failed : (pg_fail(en, NULL, e, "write"), 1);
				break;
			}
			continue; /* the end of one query's results */
		}
		st = PQresultStatus(res);
		if (st == PGRES_PIPELINE_SYNC) {
			PQclear(res);
			break;
		}
		if (st == PGRES_FATAL_ERROR || st == PGRES_NONFATAL_ERROR) {
			if (!failed) {
				pg_fail(en, res, e,
				        i < en->npend && en->pend[i].tag == T_COMMIT
				            ? "commit"
				            : knob_table[K_OP].choices[en->k.v[K_OP]]);
				failed = 1;
			}
		} else if (st == PGRES_PIPELINE_ABORTED) {
			/* an earlier error: already reported */
		} else if (i < en->npend) {
			if (en->pend[i].tag == T_COMMIT) {
				hist_add(lat, clock_now_ns() - en->pend[i].t0);
				out->commits++;
			} else if (en->pend[i].tag == T_OP && en->k.v[K_OP] != OP_INSERT &&
			           strcmp(PQcmdTuples(res), "1") != 0 && !failed) {
				err_set(
				    e, ERR_RUNTIME,
				    "%s changed %s rows instead of 1: the table is not what idxlab "
				    "built",
				    knob_table[K_OP].choices[en->k.v[K_OP]], PQcmdTuples(res));
				failed = 1;
			}
		}
		PQclear(res);
		i++;
	}
	en->npend = 0;
	if (failed) {
		en->in_txn = 0;
		if (PQstatus(en->conn) == CONNECTION_OK && !en->unanswered) {
			/* Leave no aborted transaction behind. */
			struct err ignore;

			(void)leave_pipeline(en, &ignore);
			(void)exec(en, "ROLLBACK", &ignore);
			(void)enter_pipeline(en, &ignore);
		}
		return -1;
	}
	return 0;
}

static int pg_step(struct engine *en, const struct knobs *k, uint64_t budget, struct step_out *out,
                   struct hist *lat, struct err *e)
{
	long long op = en->k.v[K_OP];
	uint64_t per_commit = (uint64_t)k->v[K_COMMIT], i;

	if (enter_pipeline(en, e) < 0)
		return -1;
	for (i = 0; i < budget; i++) {
		uint64_t row, version;

		if (!rowset_next(&en->rs, op, &row, &version))
			break;
		if (!en->in_txn) {
			en->txn_t0 = clock_now_ns();
			if (send_simple(en, "BEGIN", T_BEGIN, 0, e) < 0)
				return -1;
			en->in_txn = 1;
			en->txn_rows = 0;
		}
		if (send_op(en, op, row, version, e) < 0)
			return -1;
		rowset_done(&en->rs, op, row);
		out->rows++;
		if (per_commit != COMMIT_ALL && ++en->txn_rows >= per_commit) {
			if (send_simple(en, "COMMIT", T_COMMIT, en->txn_t0, e) < 0)
				return -1;
			en->in_txn = 0;
		}
		if (en->npend >= PIPE_CHUNK && drain(en, out, lat, e) < 0)
			return -1;
	}
	return en->npend ? drain(en, out, lat, e) : 0;
}

/* Commit, then let the lagging statistics land, so the sample that follows
 * sees everything the step did. */
static int pg_finish(struct engine *en, struct step_out *out, struct hist *lat, struct err *e)
{
	if (en->in_txn) {
		if (enter_pipeline(en, e) < 0 ||
		    send_simple(en, "COMMIT", T_COMMIT, en->txn_t0, e) < 0)
			return -1;
		en->in_txn = 0;
		if (drain(en, out, lat, e) < 0)
			return -1;
	}
	en->bc_t = 0; /* the next sample ends the step: a fresh buffer reading */
	return settle(en, e);
}

/* ---- counters ------------------------------------------------------------ */

/* Run one of idxlab's own read-only queries inside the pipeline
 * (mid-transaction is fine), under statement_timeout STATS_TIMEOUT, which
 * it then sets back (set_config local: to the end of the transaction). */
static PGresult *pipeline_query(struct engine *en, const char *sql, int nparams,
                                const char *const *params, struct err *e)
{
	const char *const set = "SELECT set_config('statement_timeout', $1, true)";
	const char *const limit[1] = { STATS_TIMEOUT }, *const back[1] = { en->stmt_timeout };
	PGresult *res, *keep = NULL;
	int n = 0;

	if (enter_pipeline(en, e) < 0)
		return NULL;
	if (!PQsendQueryParams(en->conn, set, 1, NULL, limit, NULL, NULL, 0) ||
	    !PQsendQueryParams(en->conn, sql, nparams, NULL, params, NULL, NULL, 0) ||
	    !PQsendQueryParams(en->conn, set, 1, NULL, back, NULL, NULL, 0) ||
	    PQpipelineSync(en->conn) != 1) {
		pg_fail(en, NULL, e, "sampling");
		return NULL;
	}
	for (;;) {
		if (await(en, "sampling the server's statistics", STOP_GRACE_MS, e) < 0) {
			PQclear(keep);
			return NULL;
		}
		res = PQgetResult(en->conn);
		if (!res) {
			if (PQstatus(en->conn) == CONNECTION_BAD)
				break;
			n++; /* the end of one query's results */
			continue;
		}
		if (PQresultStatus(res) == PGRES_PIPELINE_SYNC) {
			PQclear(res);
			break;
		}
		/* The query's result, or the first error (the rest is aborted). */
		if (!keep && (n == 1 || PQresultStatus(res) == PGRES_FATAL_ERROR))
			keep = res;
		else
			PQclear(res);
	}
	if (!keep || PQresultStatus(keep) != PGRES_TUPLES_OK) {
		pg_fail(en, keep, e, "sampling the server's statistics");
		PQclear(keep);
		return NULL;
	}
	return keep;
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
	return pipeline_query(en, sql, 1, params, e);
}

static int sample_fpi(struct engine *en)
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
		const char *said = strstr(trim(ignore.msg, why, sizeof why), "ERROR:");

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
		en->fpi_bytes += to_u64(PQgetvalue(res, 0, 0));
		en->fpi_lsn = to_u64(PQgetvalue(res, 0, 1));
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
	res = pipeline_query(en, sql, 0, NULL, e);
	if (!res)
		return -1;
	en->bc_used = to_u64(PQgetvalue(res, 0, 0));
	en->bc_dirty = to_u64(PQgetvalue(res, 0, 1));
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
	res = pipeline_query(en, sql, 0, NULL, e);
	if (!res)
		return -1;
	n = PQgetisnull(res, 0, 1) ? 0 : PQntuples(res);
	written = to_u64(PQgetvalue(res, 0, 0));
	for (i = 0; i < n; i++) {
		uint64_t node = to_u64(PQgetvalue(res, i, 1)), now = to_u64(PQgetvalue(res, i, 2));

		if (en->ss_seen && rel_blocks(en, node, &was) && now > was)
			grown += now - was;
	}
	for (i = 0; i < n; i++) {
		en->rels[i].node = to_u64(PQgetvalue(res, i, 1));
		en->rels[i].blocks = to_u64(PQgetvalue(res, i, 2));
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

static int pg_sample(struct engine *en, struct counters *c, struct err *e)
{
	PGresult *res;
	struct proc_io io;

	res = pipeline_query(en,
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
	en->lsn_now = to_u64(PQgetvalue(res, 0, 0));
	c->v[C_WAL_BYTES] = en->lsn_now - en->lsn0;
	c->v[C_FSYNCS] = to_u64(PQgetvalue(res, 0, 1));
	note_checkpoint(en, to_u64(PQgetvalue(res, 0, 2)), to_u64(PQgetvalue(res, 0, 3)));
	c->v[C_CHECKPOINTS] = en->checkpoints;
	en->upd_last = to_u64(PQgetvalue(res, 0, 4));
	en->hot_last = to_u64(PQgetvalue(res, 0, 5));
	en->read_last = to_u64(PQgetvalue(res, 0, 6));
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
	if (en->walinspect && sample_fpi(en)) {
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
static int settle(struct engine *en, struct err *e)
{
	PGresult *res;

	res = pipeline_query(en, "SELECT pg_stat_force_next_flush()", 0, NULL, e);
	if (!res)
		return -1;
	PQclear(res);
	return 0;
}

/* shared_buffers as the server has it: a server of the user's keeps its own. */
static void pg_in_force(struct engine *en, struct knobs *k)
{
	if (en->shared_buffers > 0)
		k->v[K_CACHE] = en->shared_buffers;
}

static int pg_sizes(struct engine *en, struct sizes *s, struct err *e)
{
	PGresult *res;
	int i;

	memset(s, 0, sizeof *s);
	s->db_bytes = s->index_bytes = -1;
	res = pipeline_query(en,
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
	s->db_bytes = (int64_t)to_u64(PQgetvalue(res, 0, 0));
	s->index_bytes = (int64_t)to_u64(PQgetvalue(res, 0, 1));
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

static const char *pg_where(struct engine *en)
{
	return en->where;
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

const struct engine_ops postgres_engine = {
	.defaults = pg_defaults,
	.version = pg_version,
	.open = pg_open,
	.setup = pg_setup,
	.apply = pg_apply,
	.rewrite = pg_rewrite,
	.table_rows = pg_table_rows,
	.step = pg_step,
	.finish = pg_finish,
	.sample = pg_sample,
	.sizes = pg_sizes,
	.in_force = pg_in_force,
	.where = pg_where,
	.close = pg_close,
};
