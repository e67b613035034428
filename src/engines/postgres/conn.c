/* conn.c - the connection to the server: connecting, the non-blocking
 * waits (pg_await: bounded after the user's stop, the cancel from a thread,
 * a silent server given up on), plain statements outside pipeline mode,
 * the pipeline's entry and exit, one of idxlab's own queries inside it
 * (pg_pipeline_query), and the server's errors in words (pg_fail). */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../clock.h"
#include "../../evlog.h"
#include "../tmpdir.h"
#include "internal.h"

/* libpq messages end in a newline; trim it for our one-line messages. */
const char *pg_trim(const char *msg, char *buf, size_t len)
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
int pg_fail(struct engine *en, const PGresult *res, struct err *e, const char *what)
{
	const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
	char msg[600];

	pg_trim(res && *PQresultErrorMessage(res) ? PQresultErrorMessage(res)
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
	evlog_add(EV_INFO, "postgres: %s", pg_trim(msg, buf, sizeof buf));
}

/* ---- plain statements (outside pipeline mode) ------------------------- */

int pg_leave_pipeline(struct engine *en, struct err *e)
{
	if (!en->pipeline)
		return 0;
	if (PQexitPipelineMode(en->conn) != 1)
		return pg_fail(en, NULL, e, "leaving pipeline mode");
	en->pipeline = 0;
	return 0;
}

int pg_enter_pipeline(struct engine *en, struct err *e)
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
 * stops idxlab, counted from the stop (the first wait that saw it), not
 * from each wait, so the waits of a stop never add up: a statement still
 * running grace_ms after it is cancelled, and a server silent until
 * STOP_ANSWER_MS after it is given up on (en->unanswered: no statement is
 * sent to it again). 0, or -1 with e filled. */
int pg_await(struct engine *en, const char *what, long grace_ms, struct err *e)
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

			/* From the stop (as first seen): every wait after it shares
			 * one deadline; close's clean-up counts from each statement. */
			if (!en->stop_ns)
				en->stop_ns = t;
			if (!t0)
				t0 = en->closing ? t : en->stop_ns;
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
				    en->cluster
				        ? ""
				        : " (schema idxlab stays on the server: the next "
				          "run takes it over, or DROP SCHEMA idxlab CASCADE; "
				          "removes it)");
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
PGresult *pg_collect(struct engine *en, const char *what, long grace_ms, struct err *e)
{
	PGresult *res, *last = NULL;

	for (;;) {
		if (pg_await(en, what, grace_ms, e) < 0) {
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
PGresult *pg_run(struct engine *en, const char *sql, int nparams, const char *const *params,
                 struct err *e)
{
	if (pg_copy_end(en, NULL, e) < 0 || pg_leave_pipeline(en, e) < 0)
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
	return pg_collect(en, sql, en->closing ? STOP_ANSWER_MS : 0, e);
}

int pg_exec(struct engine *en, const char *sql, struct err *e)
{
	PGresult *res = pg_run(en, sql, 0, NULL, e);

	PQclear(res);
	return res ? 0 : -1;
}

/* One text value of a one-row query, into buf; -1 with e filled. */
int pg_query_text(struct engine *en, const char *sql, char *buf, size_t len, struct err *e)
{
	PGresult *res = pg_run(en, sql, 0, NULL, e);

	if (!res)
		return -1;
	snprintf(buf, len, "%s", PQntuples(res) ? PQgetvalue(res, 0, 0) : "");
	PQclear(res);
	return 0;
}

uint64_t pg_to_u64(const char *s)
{
	return s && *s ? strtoull(s, NULL, 10) : 0;
}

/* ---- connecting -------------------------------------------------------- */

int pg_connect_to(struct engine *en, const char *conninfo, struct err *e)
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
		               pg_trim(PQerrorMessage(en->conn), msg, sizeof msg));
	PQsetNoticeProcessor(en->conn, notice_cb, NULL);
	/* Non-blocking: no send waits for a server that stopped reading (await). */
	if (PQsetnonblocking(en->conn, 1) != 0)
		return pg_fail(en, NULL, e, "connecting");
	if (pg_exec(en,
	            "SET client_min_messages = warning; SET stats_fetch_consistency = none; "
	            "SET search_path = idxlab, pg_catalog; SET lock_timeout = '10s'",
	            e) < 0)
		return -1;
	/* idxlab's statistics queries run under STATS_TIMEOUT and then put this back. */
	return pg_query_text(en, "SELECT current_setting('statement_timeout')", en->stmt_timeout,
	                     sizeof en->stmt_timeout, e);
}

/* Send the statements sql[0..n) and a sync; read every result up to the
 * sync, keeping the one of statement kept or the first error (the rest is
 * aborted then). NULL when the batch could not be sent or read (e says). */
static PGresult *pipeline_batch(struct engine *en, const char *const *sql, const int *nparams,
                                const char *const *const *params, int n, int kept, struct err *e)
{
	PGresult *res, *keep = NULL;
	int i;

	for (i = 0; i < n; i++)
		if (!PQsendQueryParams(en->conn, sql[i], nparams[i], NULL, params[i], NULL, NULL,
		                       0))
			break;
	if (i < n || PQpipelineSync(en->conn) != 1) {
		pg_fail(en, NULL, e, "sampling");
		return NULL;
	}
	for (i = 0;;) {
		if (pg_await(en, "sampling the server's statistics", STOP_GRACE_MS, e) < 0) {
			PQclear(keep);
			return NULL;
		}
		res = PQgetResult(en->conn);
		if (!res) {
			if (PQstatus(en->conn) == CONNECTION_BAD)
				break;
			i++; /* the end of one query's results */
			continue;
		}
		if (PQresultStatus(res) == PGRES_PIPELINE_SYNC) {
			PQclear(res);
			break;
		}
		/* The query's result, or the first error (the rest is aborted). */
		if (!keep && (i == kept || PQresultStatus(res) == PGRES_FATAL_ERROR))
			keep = res;
		else
			PQclear(res);
	}
	if (!keep) {
		pg_fail(en, NULL, e, "sampling the server's statistics");
		return NULL;
	}
	return keep;
}

/* Run one of idxlab's own read-only queries inside the pipeline, under
 * statement_timeout STATS_TIMEOUT, which it then sets back (set_config
 * local: to the end of the transaction). guard, in an open transaction:
 * under a savepoint, rolled back to when the query fails, so the failure
 * leaves the workload's transaction as it was. A savepoint in which
 * nothing is written takes no transaction id and writes no WAL. */
static PGresult *pipeline_query(struct engine *en, const char *sql, int nparams,
                                const char *const *params, int guard, struct err *e)
{
	const char *const set = "SELECT set_config('statement_timeout', $1, true)";
	const char *const limit[1] = { STATS_TIMEOUT }, *const back[1] = { en->stmt_timeout };
	const char *const undo[2] = { "ROLLBACK TO SAVEPOINT idxlab_look",
		                      "RELEASE SAVEPOINT idxlab_look" };
	const char *sqls[5] = { "SAVEPOINT idxlab_look", set, sql, set,
		                "RELEASE SAVEPOINT idxlab_look" };
	const int np[5] = { 0, 1, nparams, 1, 0 }, none[2] = { 0, 0 };
	const char *const *const ps[5] = { NULL, limit, params, back, NULL };
	const char *const *const nop[2] = { NULL, NULL };
	PGresult *keep, *res;

	guard = guard && en->txn->open;
	/* A COPY holds the connection: the sample ends it (the next row starts
	 * another in the same transaction). */
	if (pg_copy_end(en, NULL, e) < 0 || pg_enter_pipeline(en, e) < 0)
		return NULL;
	keep = pipeline_batch(en, sqls + !guard, np + !guard, ps + !guard, guard ? 5 : 3, 1 + guard,
	                      e);
	if (keep && PQresultStatus(keep) == PGRES_TUPLES_OK)
		return keep;
	if (keep)
		pg_fail(en, keep, e, "sampling the server's statistics");
	PQclear(keep);
	if (guard && PQstatus(en->conn) == CONNECTION_OK && !en->unanswered) {
		struct err ignore;

		/* Should this fail, the transaction stays aborted: its commit says so. */
		res = pipeline_batch(en, undo, none, nop, 2, 1, &ignore);
		PQclear(res);
	}
	return NULL;
}

PGresult *pg_pipeline_query(struct engine *en, const char *sql, int nparams,
                            const char *const *params, struct err *e)
{
	return pipeline_query(en, sql, nparams, params, 0, e);
}

PGresult *pg_pipeline_try(struct engine *en, const char *sql, int nparams,
                          const char *const *params, struct err *e)
{
	return pipeline_query(en, sql, nparams, params, 1, e);
}
