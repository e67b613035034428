/* load.c - the --load paths of an insert step besides one statement per
 * row (rows.c's pg_send_op, the pipeline of txn.c). Each is a set of the
 * step loop's hooks, picked with the statements (pg_load_prepare) at set-up
 * and at an op or load change:
 *
 *   multirow  INSERT ... VALUES (...), (...) in the pipeline: the rows of a
 *             transaction go in statements of mr_full rows (MULTIROW_MAX,
 *             or the commit size when smaller), prepared as idxlab_mr; a
 *             statement is sent when full and at commit. The remainder a
 *             commit leaves (commit % mr_full, or rows % mr_full with commit
 *             all) is prepared too, as idxlab_mr_rest; any other (a stop)
 *             goes as the unnamed statement.
 *   copy      BEGIN; COPY idxlab.idxlab_t (...) FROM STDIN (FORMAT binary)
 *             per transaction, outside the pipeline (which cannot carry a
 *             COPY); the rows are encoded as they come and handed to libpq
 *             COPY_CHUNK bytes at a time; COPY's end and COMMIT at commit.
 *             Binary: the parameters' own binary form (pg_bind_row), so
 *             the values are the INSERT path's byte for byte, and no number
 *             or time is printed (text costs more, bench/pg.sh measures).
 *             A query of idxlab's own (a sample) needs the connection: it
 *             ends the COPY and the next row starts another in the same
 *             transaction. That costs 10-20 ms, so a headless step samples
 *             about once a second (SAMPLE_SHARE, workload_impl.h).
 *
 * The prefill (pg_load, at set-up) is a COPY of the same binary rows, every
 * column: one encoder (copy_encode) for both, so a prefilled row is the row
 * an insert writes.
 *
 * Every wait goes through pg_await: a stop mid-COPY is bounded like any
 * statement (cancelled after STOP_GRACE_MS, given up on after
 * STOP_ANSWER_MS). A failed COPY or statement fails the step with the
 * server's message, and the transaction is rolled back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../evlog.h"
#include "../../schema_gen.h"
#include "internal.h"

static const char copy_header[19] = "PGCOPY\n\377\r\n\0\0\0\0\0\0\0\0\0";

static void need(char **buf, size_t *cap, size_t want)
{
	if (want <= *cap)
		return;
	*cap = want > *cap * 2 ? want : *cap * 2;
	*buf = realloc(*buf, *cap);
	if (!*buf)
		abort();
}

/* Append to the text at *n of *buf, growing it. */
static void add_text(char **buf, size_t *cap, size_t *n, const char *s)
{
	size_t len = strlen(s);

	need(buf, cap, *n + len + 1);
	memcpy(*buf + *n, s, len + 1);
	*n += len;
}

/* "INSERT INTO idxlab.idxlab_t (id, ..., hot, payload) VALUES " and rows
 * rows of parameters: the single INSERT's columns (en->pcol: hot's 0 and
 * the payload among them when the table has them). */
static char *multirow_sql(const struct engine *en, int rows)
{
	size_t cap = 0, n = 0;
	char *sql = NULL, one[32];
	int r, i, p = 1;

	add_text(&sql, &cap, &n, "INSERT INTO idxlab.idxlab_t (");
	for (i = 0; i < en->nparams; i++) {
		add_text(&sql, &cap, &n, i ? ", " : "");
		add_text(&sql, &cap, &n, pg_col_qname(en, en->pcol[i]));
	}
	add_text(&sql, &cap, &n, ") VALUES ");
	for (r = 0; r < rows; r++) {
		add_text(&sql, &cap, &n, r ? ", (" : "(");
		for (i = 0; i < en->nparams; i++) {
			snprintf(one, sizeof one, "%s$%d", i ? ", " : "", p++);
			add_text(&sql, &cap, &n, one);
		}
		add_text(&sql, &cap, &n, ")");
	}
	return sql;
}

/* Prepare name as the statement of rows rows. */
static int prepare_rows(struct engine *en, const char *name, int rows, struct err *e)
{
	Oid *types = malloc(sizeof *types * (size_t)(rows * en->nparams));
	char *sql = multirow_sql(en, rows);
	PGresult *res;
	int i, ok;

	if (!types)
		abort();
	for (i = 0; i < rows * en->nparams; i++)
		types[i] = pg_type_oid(en->ptype[i % en->nparams]);
	ok = PQsendPrepare(en->conn, name, sql, rows * en->nparams, types);
	free(sql);
	free(types);
	if (!ok)
		return pg_fail(en, NULL, e, "preparing the multi-row INSERT");
	res = pg_collect(en, "preparing the multi-row INSERT", 0, e);
	PQclear(res);
	return res ? 0 : -1;
}

/* ---- multirow ------------------------------------------------------------ */

static int multirow_begin(struct engine *en, struct err *e)
{
	en->mr_rows = 0;
	en->mr_used = 0;
	return pg_begin(en, e);
}

/* The buffered rows as one statement into the pipeline. */
static int multirow_send(struct engine *en, struct err *e)
{
	int n = en->mr_rows * en->nparams, i, ok;

	for (i = 0; i < n; i++) /* a NULL: no bytes */
		en->mr_val[i] = en->mr_len[i] < 0 ? NULL : en->mr_arena + en->mr_off[i];
	if (en->mr_rows == en->mr_full || en->mr_rows == en->mr_rest) {
		ok = PQsendQueryPrepared(
		    en->conn, en->mr_rows == en->mr_full ? "idxlab_mr" : "idxlab_mr_rest", n,
		    en->mr_val, en->mr_len, en->mr_fmt, 0);
	} else {
		/* A remainder no commit size predicts (a stop): the unnamed statement. */
		Oid *types = malloc(sizeof *types * (size_t)n);

		if (!types)
			abort();
		for (i = 0; i < n; i++)
			types[i] = pg_type_oid(en->ptype[i % en->nparams]);
		if (en->mr_sql_rows != en->mr_rows) {
			free(en->mr_sql);
			en->mr_sql = multirow_sql(en, en->mr_rows);
			en->mr_sql_rows = en->mr_rows;
		}
		ok = PQsendQueryParams(en->conn, en->mr_sql, n, types, en->mr_val, en->mr_len,
		                       en->mr_fmt, 0);
		free(types);
	}
	if (!ok)
		return pg_fail(en, NULL, e, "send");
	pg_expect(en, T_OP, 0);
	en->mr_rows = 0;
	en->mr_used = 0;
	return 0;
}

static int multirow_op(struct engine *en, long long op, uint64_t row, uint64_t version,
                       struct err *e)
{
	char num[SPEC_PARAMS][8];
	const char *vals[SPEC_PARAMS];
	int lens[SPEC_PARAMS], i, at = en->mr_rows * en->nparams;

	(void)op;
	(void)version;
	pg_bind_row(en, row, 0, num, vals, lens);
	for (i = 0; i < en->nparams; i++) {
		size_t len = lens[i] < 0 ? 0 : (size_t)lens[i];

		need(&en->mr_arena, &en->mr_cap, en->mr_used + len);
		if (len)
			memcpy(en->mr_arena + en->mr_used, vals[i], len);
		en->mr_off[at + i] = en->mr_used;
		en->mr_len[at + i] = lens[i];
		en->mr_used += len;
	}
	return ++en->mr_rows == en->mr_full ? multirow_send(en, e) : 0;
}

static int multirow_commit(struct engine *en, struct txn *t, struct err *e)
{
	if (en->mr_rows && multirow_send(en, e) < 0)
		return -1;
	return pg_commit(en, t, e);
}

/* The results are read once PIPE_CHUNK rows' statements are out (as
 * one per row, pg_drain_due), so the pipeline holds as many bytes. */
static int multirow_sync(struct engine *en, int at_end, struct step_out *out, struct hist *lat,
                         struct err *e)
{
	if ((uint64_t)en->npend * (uint64_t)en->mr_full >= PIPE_CHUNK || (at_end && en->npend))
		return pg_drain(en, out, lat, e);
	return 0;
}

static const struct txn_hooks multirow_hooks = {
	.begin = multirow_begin,
	.op = multirow_op,
	.commit = multirow_commit,
	.sync = multirow_sync,
};

/* idxlab_mr and idxlab_mr_rest for the knobs in force. */
static int multirow_prepare(struct engine *en, struct err *e)
{
	long long commit = en->k.v[K_COMMIT];
	int full = commit != COMMIT_ALL && commit < MULTIROW_MAX ? (int)commit : MULTIROW_MAX;
	long long per_txn = commit == COMMIT_ALL ? en->k.v[K_ROWS] : commit;
	size_t slots;
	int i;

	if (full > PG_PARAMS_MAX / en->nparams)
		full = PG_PARAMS_MAX / en->nparams;
	en->mr_full = full;
	en->mr_rest = (int)(per_txn % full);
	en->mr_rows = 0;
	en->mr_used = 0;
	slots = (size_t)full * (size_t)en->nparams;
	free(en->mr_off);
	free(en->mr_len);
	free(en->mr_fmt);
	free(en->mr_val);
	en->mr_off = calloc(slots, sizeof *en->mr_off);
	en->mr_len = calloc(slots, sizeof *en->mr_len);
	en->mr_fmt = calloc(slots, sizeof *en->mr_fmt);
	en->mr_val = calloc(slots, sizeof *en->mr_val);
	if (!en->mr_off || !en->mr_len || !en->mr_fmt || !en->mr_val)
		abort();
	for (i = 0; i < (int)slots; i++)
		en->mr_fmt[i] = 1;
	return prepare_rows(en, "idxlab_mr", full, e) < 0 ||
	               (en->mr_rest && prepare_rows(en, "idxlab_mr_rest", en->mr_rest, e) < 0)
	           ? -1
	           : 0;
}

/* ---- copy ------------------------------------------------------------------ */

/* Hand the encoded rows to libpq and send what the server takes (bounded). */
static int copy_flush(struct engine *en, struct err *e)
{
	if (en->cused) {
		if (PQputCopyData(en->conn, en->cbuf, (int)en->cused) != 1)
			return pg_fail(en, NULL, e, "COPY");
		en->cused = 0;
	}
	return pg_await(en, "COPY", STOP_GRACE_MS, e);
}

/* The transaction failed: no COPY, no transaction (rolled back). */
static int copy_failed(struct engine *en)
{
	struct err ignore;

	en->txn->open = 0;
	if (en->copying) {
		en->copying = 0;
		if (!en->unanswered && PQstatus(en->conn) == CONNECTION_OK &&
		    PQputCopyEnd(en->conn, "idxlab: the transaction failed") == 1)
			PQclear(pg_collect(en, "COPY", STOP_GRACE_MS, &ignore));
	}
	if (!en->unanswered && PQstatus(en->conn) == CONNECTION_OK &&
	    PQtransactionStatus(en->conn) != PQTRANS_IDLE)
		(void)pg_exec(en, "ROLLBACK", &ignore);
	return -1;
}

/* Send sql, a COPY ... FROM STDIN (BINARY): the server waits for rows, and
 * the buffer starts with the binary format's header. */
static int copy_start(struct engine *en, const char *sql, struct err *e)
{
	PGresult *res = pg_run(en, sql, 0, NULL, e);

	if (!res)
		return -1;
	if (PQresultStatus(res) != PGRES_COPY_IN) {
		PQclear(res);
		return err_set(e, ERR_RUNTIME, "COPY: the server did not start copying");
	}
	PQclear(res);
	need(&en->cbuf, &en->ccap, COPY_CHUNK);
	memcpy(en->cbuf, copy_header, sizeof copy_header);
	en->cused = sizeof copy_header;
	return 0;
}

/* Start the COPY (after BEGIN when begin is set): the server waits for rows. */
static int copy_open(struct engine *en, int begin, struct err *e)
{
	char sql[sizeof en->copy_sql + 8];

	snprintf(sql, sizeof sql, "%s%s", begin ? "BEGIN; " : "", en->copy_sql);
	if (copy_start(en, sql, e) < 0)
		return -1;
	en->copying = 1;
	en->crows = 0;
	return 0;
}

int pg_copy_end(struct engine *en, const char *fail, struct err *e)
{
	PGresult *res;
	uint64_t rows = en->crows;
	char want[24];

	if (!en->copying)
		return 0;
	en->copying = 0;
	if (!fail) {
		need(&en->cbuf, &en->ccap, en->cused + 2);
		en->cbuf[en->cused++] = (char)0xff; /* the trailer: a field count of -1 */
		en->cbuf[en->cused++] = (char)0xff;
		if (copy_flush(en, e) < 0)
			return -1;
	}
	en->cused = 0;
	if (PQputCopyEnd(en->conn, fail) != 1)
		return pg_fail(en, NULL, e, "COPY");
	res = pg_collect(en, "COPY", STOP_GRACE_MS, e);
	if (!res)
		return -1;
	snprintf(want, sizeof want, "%llu", (unsigned long long)rows);
	if (!fail && strcmp(PQcmdTuples(res), want) != 0) {
		err_set(e, ERR_RUNTIME, "COPY took %s rows of the %s sent (a bug in idxlab)",
		        PQcmdTuples(res), want);
		PQclear(res);
		return -1;
	}
	PQclear(res);
	return 0;
}

static int copy_begin(struct engine *en, struct err *e)
{
	return copy_open(en, 1, e) < 0 ? copy_failed(en) : 0;
}

static void put32(char *p, uint32_t v)
{
	p[0] = (char)(v >> 24);
	p[1] = (char)(v >> 16);
	p[2] = (char)(v >> 8);
	p[3] = (char)v;
}

/* Row row in COPY's binary form at the end of en->cbuf: the field count,
 * then each field's length (-1: NULL) and bytes, for the columns cols (n
 * of them, hot and the payload among them as PCOL_*). The --load copy rows
 * (the INSERT's columns) and the prefill's (every column) alike. */
static void copy_encode(struct engine *en, const int *cols, int n, uint64_t row)
{
	char num[SPEC_PARAMS][8], *p;
	const char *vals[SPEC_PARAMS];
	int lens[SPEC_PARAMS], i;
	size_t len = 2 + 8;

	pg_bind_cols(en, cols, n, row, 0, num, vals, lens);
	for (i = 0; i < n; i++)
		len += 4 + (size_t)(lens[i] < 0 ? 0 : lens[i]);
	need(&en->cbuf, &en->ccap, en->cused + len + 2); /* + 2: room for the trailer */
	p = en->cbuf + en->cused;
	*p++ = (char)(n >> 8);
	*p++ = (char)n;
	for (i = 0; i < n; i++) {
		put32(p, (uint32_t)lens[i]); /* -1: NULL, no bytes */
		if (lens[i] > 0)
			memcpy(p + 4, vals[i], (size_t)lens[i]);
		p += 4 + (lens[i] > 0 ? lens[i] : 0);
	}
	en->cused = (size_t)(p - en->cbuf);
}

static int copy_op(struct engine *en, long long op, uint64_t row, uint64_t version, struct err *e)
{
	(void)op;
	(void)version;
	if (!en->copying && copy_open(en, 0, e) < 0)
		return copy_failed(en);
	copy_encode(en, en->pcol, en->nparams, row);
	en->crows++;
	if (en->cused >= COPY_CHUNK && copy_flush(en, e) < 0)
		return copy_failed(en);
	return 0;
}

static int copy_commit(struct engine *en, struct txn *t, struct err *e)
{
	PGresult *res;

	(void)t;
	/* A sample may have ended the COPY and entered the pipeline. */
	if (pg_copy_end(en, NULL, e) < 0 || pg_leave_pipeline(en, e) < 0)
		return copy_failed(en);
	if (!PQsendQuery(en->conn, "COMMIT")) {
		pg_fail(en, NULL, e, "commit");
		return copy_failed(en);
	}
	res = pg_collect(en, "commit", STOP_GRACE_MS, e);
	if (!res)
		return copy_failed(en);
	PQclear(res);
	return 0;
}

/* A step's end: the rows encoded so far go out, so the server works on
 * them while idxlab samples. */
static int copy_sync(struct engine *en, int at_end, struct step_out *out, struct hist *lat,
                     struct err *e)
{
	(void)out;
	(void)lat;
	if (!at_end || !en->copying)
		return 0;
	return copy_flush(en, e) < 0 ? copy_failed(en) : 0;
}

static const struct txn_hooks copy_hooks = {
	.begin = copy_begin,
	.op = copy_op,
	.commit = copy_commit,
	.sync = copy_sync,
};

/* "COPY idxlab.idxlab_t (the columns cols) FROM STDIN (FORMAT binary)"
 * into sql (len bytes); cols as copy_encode takes them. */
static void copy_sql_of(const struct engine *en, const int *cols, int n, char *sql, size_t len)
{
	size_t at = 0;
	int i;

	at += (size_t)snprintf(sql, len, "COPY idxlab.idxlab_t (");
	for (i = 0; i < n && at < len; i++)
		at += (size_t)snprintf(sql + at, len - at, "%s%s", i ? ", " : "",
		                       pg_col_qname(en, cols[i]));
	if (at < len)
		snprintf(sql + at, len - at, ") FROM STDIN (FORMAT binary)");
}

/* COPY's column list: the INSERT's (en->pcol). */
static void copy_prepare(struct engine *en)
{
	copy_sql_of(en, en->pcol, en->nparams, en->copy_sql, sizeof en->copy_sql);
}

/* ---- the prefill ------------------------------------------------------------ */

int pg_load(struct engine *en, uint64_t rows, struct err *e)
{
	int cols[SPEC_PARAMS], n = 0, ok = 1;
	char sql[sizeof en->copy_sql];
	PGresult *res;
	uint64_t r;

	for (n = 0; n < en->s->ncols; n++)
		cols[n] = n;
	n = schema_gen_skip(en->s, cols, n); /* the server computes those */
	n = pg_own_cols(en, cols, n);
	copy_sql_of(en, cols, n, sql, sizeof sql);
	if (copy_start(en, sql, e) < 0)
		return -1;
	for (r = 0; r < rows && ok; r++) {
		copy_encode(en, cols, n, r);
		if (r + 1 == rows) { /* the trailer: a field count of -1 */
			en->cbuf[en->cused++] = (char)0xff;
			en->cbuf[en->cused++] = (char)0xff;
		}
		if (en->cused >= COPY_CHUNK || r + 1 == rows) {
			/* Queued, then sent as far as the server takes it (bounded). */
			ok = PQputCopyData(en->conn, en->cbuf, (int)en->cused) == 1 &&
			     pg_await(en, "loading the table", 0, e) == 0;
			en->cused = 0;
			if (en->stop && atomic_load(en->stop))
				break;
		}
	}
	if (en->unanswered)
		return -1;
	if (PQputCopyEnd(en->conn, ok && r == rows ? NULL : "stopped") != 1)
		return pg_fail(en, NULL, e, "COPY");
	res = pg_collect(en, "loading the table", 0, e);
	PQclear(res);
	return res ? 0 : -1;
}

/* ---- the choice ------------------------------------------------------------ */

/* A mix's inserts go one statement a row (the plan's check refuses --load
 * multirow and copy with a mix on the command line; the dashboard's read-share
 * slider moved under them is said so once). */
int pg_load_prepare(struct engine *en, struct err *e)
{
	long long load = en->k.v[K_OP] == OP_INSERT ? en->k.v[K_LOAD] : LOAD_INSERT;

	if (en->mixed && load != LOAD_INSERT) {
		evlog_add(EV_WARN,
		          "--load %s: a mix's inserts go one statement a row (the reads run "
		          "between them)",
		          knob_table[K_LOAD].choices[load]);
		load = LOAD_INSERT;
	}

	en->txn->h = load == LOAD_MULTIROW ? &multirow_hooks
	             : load == LOAD_COPY   ? &copy_hooks
	                                   : &pg_txn_hooks;
	if (load == LOAD_COPY)
		copy_prepare(en);
	return load == LOAD_MULTIROW ? multirow_prepare(en, e) : 0;
}

void pg_load_free(struct engine *en)
{
	free(en->cbuf);
	free(en->mr_arena);
	free(en->mr_off);
	free(en->mr_len);
	free(en->mr_fmt);
	free(en->mr_val);
	free(en->mr_sql);
}
