/* txn.c - transactions in the pipeline: the hooks into the shared step
 * loop (../txn.c). BEGIN, the rows and COMMIT are sent back to back, the
 * results read after one sync (drain: the commits' acknowledgements, so
 * commit answers TXN_SENT), and the step's end. With --pipeline off
 * (protocol.c) each result is read as its statement is sent. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../clock.h"
#include "internal.h"

/* ---- the workload -------------------------------------------------------- */

/* The write op whose statement went last: the one in place, else (a
 * multirow batch, no statement kept) the step's. */
static int pg_sent_op(const struct engine *en)
{
	return en->w_op >= 0 ? en->w_op : (int)en->k.v[K_OP];
}

/* What the pending result i was sent for ("commit", "begin", the op). */
static const char *pend_what(const struct engine *en, size_t i)
{
	if (i >= en->npend)
		return knob_table[K_OP].choices[en->k.v[K_OP]];
	return en->pend[i].tag == T_COMMIT  ? "commit"
	       : en->pend[i].tag == T_BEGIN ? "begin"
	                                    : knob_table[K_OP].choices[en->pend[i].op];
}

void pg_expect(struct engine *en, enum tag tag, uint64_t t0)
{
	if (en->npend == en->cap_pend) {
		en->cap_pend = en->cap_pend ? en->cap_pend * 2 : 4096;
		en->pend = realloc(en->pend, sizeof *en->pend * en->cap_pend);
		if (!en->pend)
			abort();
	}
	en->pend[en->npend].tag = tag;
	en->pend[en->npend].op = pg_sent_op(en);
	en->pend[en->npend].t0 = t0;
	en->npend++;
}

void pg_lost(struct engine *en)
{
	en->txn->open = 0;
	if (PQstatus(en->conn) == CONNECTION_OK && !en->unanswered) {
		struct err ignore;
		int was = en->pipeline;

		(void)pg_leave_pipeline(en, &ignore);
		(void)pg_exec(en, "ROLLBACK", &ignore);
		if (was)
			(void)pg_enter_pipeline(en, &ignore);
	}
}

/* Its result, read now (outside the pipeline): an op's count checked. */
static int take_now(struct engine *en, enum tag tag, struct err *e)
{
	int op = pg_sent_op(en);
	const char *what = tag == T_COMMIT  ? "commit"
	                   : tag == T_BEGIN ? "begin"
	                                    : knob_table[K_OP].choices[op];
	PGresult *res = pg_collect(en, what, STOP_GRACE_MS, e);

	if (!res) {
		pg_lost(en);
		return -1;
	}
	if (tag == T_OP && op != OP_INSERT && strcmp(PQcmdTuples(res), "1") != 0) {
		err_set(e, ERR_RUNTIME,
		        "%s changed %s rows instead of 1: the table is not what idxlab built", what,
		        PQcmdTuples(res));
		PQclear(res);
		pg_lost(en);
		return -1;
	}
	PQclear(res);
	return 0;
}

int pg_sent(struct engine *en, enum tag tag, uint64_t t0, struct err *e)
{
	if (!en->pipeline)
		return take_now(en, tag, e);
	pg_expect(en, tag, t0);
	return 0;
}

/* BEGIN or COMMIT: in the pipeline, the extended protocol without
 * parameters; else the simple protocol's Query, as psql sends it. */
static int send_simple(struct engine *en, const char *sql, enum tag tag, uint64_t t0, struct err *e)
{
	if (pg_proto_mode(en, e) < 0)
		return -1;
	if (!(en->pipeline ? PQsendQueryParams(en->conn, sql, 0, NULL, NULL, NULL, NULL, 0)
	                   : PQsendQuery(en->conn, sql)))
		return pg_fail(en, NULL, e, sql);
	return pg_sent(en, tag, t0, e);
}

/* A COMMIT acknowledged at t0's transaction: into out and lat, or with
 * out NULL (a read's drain in a mix, reads.c) held for the sync hook. */
static void acked(struct engine *en, struct step_out *out, struct hist *lat, uint64_t t0)
{
	if (out) {
		txn_acked(out, lat, t0);
		return;
	}
	if (en->nheld == en->cap_held) {
		en->cap_held = en->cap_held ? en->cap_held * 2 : 64;
		en->held = realloc(en->held, sizeof *en->held * en->cap_held);
		if (!en->held)
			abort();
	}
	en->held[en->nheld++] = clock_now_ns() - t0;
}

void pg_held_count(struct engine *en, struct step_out *out, struct hist *lat)
{
	size_t i;

	for (i = 0; i < en->nheld; i++) {
		if (lat)
			hist_add(lat, en->held[i]);
		out->commits++;
	}
	en->nheld = 0;
}

/* Sync and read every pending result; commits go into lat and out (out
 * NULL: held, acked()). */
int pg_drain(struct engine *en, struct step_out *out, struct hist *lat, struct err *e)
{
	size_t i = 0;
	PGresult *res;
	int failed = 0;

	if (PQpipelineSync(en->conn) != 1)
		return pg_fail(en, NULL, e, "sync");
	for (;;) {
		ExecStatusType st;

		if (pg_await(en, knob_table[K_OP].choices[en->k.v[K_OP]], STOP_GRACE_MS, e) < 0) {
			en->npend = 0;
			en->txn->open = 0;
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
				pg_fail(en, res, e, pend_what(en, i));
				failed = 1;
			}
		} else if (st == PGRES_PIPELINE_ABORTED) {
			/* an earlier error: already reported */
		} else if (i < en->npend) {
			if (en->pend[i].tag == T_COMMIT) {
				acked(en, out, lat, en->pend[i].t0);
			} else if (en->pend[i].tag == T_OP && en->pend[i].op != OP_INSERT &&
			           strcmp(PQcmdTuples(res), "1") != 0 && !failed) {
				err_set(
				    e, ERR_RUNTIME,
				    "%s changed %s rows instead of 1: the table is not what idxlab "
				    "built",
				    knob_table[K_OP].choices[en->pend[i].op], PQcmdTuples(res));
				failed = 1;
			}
		}
		PQclear(res);
		i++;
	}
	en->npend = 0;
	if (failed) {
		pg_lost(en);
		return -1;
	}
	return 0;
}

int pg_begin(struct engine *en, struct err *e)
{
	return send_simple(en, "BEGIN", T_BEGIN, 0, e);
}

/* In the pipeline queued: drain() reads its result and acknowledges it
 * (txn_acked); else acknowledged now. */
int pg_commit(struct engine *en, struct txn *t, struct err *e)
{
	if (send_simple(en, "COMMIT", T_COMMIT, t->t0, e) < 0)
		return -1;
	if (en->pipeline && OP_READS(t->op)) /* reads take their results at once */
		return pg_reads_take(en, e);
	return en->pipeline ? TXN_SENT : 0;
}

/* Read the results when PIPE_CHUNK are pending, and at the end. */
int pg_drain_due(struct engine *en, int at_end, struct step_out *out, struct hist *lat,
                 struct err *e)
{
	pg_held_count(en, out, lat);
	if (en->npend >= PIPE_CHUNK || (at_end && en->npend))
		return pg_drain(en, out, lat, e);
	return 0;
}

const struct txn_hooks pg_txn_hooks = {
	.begin = pg_begin,
	.op = pg_send_op,
	.commit = pg_commit,
	.sync = pg_drain_due,
};

int pg_step_start(struct engine *en, struct err *e)
{
	/* COPY cannot go through the pipeline (load.c leaves it). */
	return en->k.v[K_LOAD] != LOAD_COPY ? pg_proto_mode(en, e) : 0;
}

int pg_finish_start(struct engine *en, struct err *e)
{
	return en->txn->open ? pg_step_start(en, e) : 0;
}

/* After the commit, let the lagging statistics land, so the sample that
 * follows sees everything the step did. */
int pg_finish_end(struct engine *en, struct err *e)
{
	en->bc_t = 0; /* the next sample ends the step: a fresh buffer reading */
	return pg_settle(en, e);
}
