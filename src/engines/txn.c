/* txn.c - the one step loop (txn.h), shared by the engines.
 *
 * A transaction begins before the first row of a commit group, so t0 is
 * when its begin is sent (or, where nothing is sent, when its first row is
 * queued), and it commits after per_commit rows, or after cap rows when the
 * engine has capped them (WiredTiger after a rollback), or in txn_finish
 * with COMMIT_ALL. Its latency runs to the commit's acknowledgement: now,
 * or later for an engine that defers it (PostgreSQL's pipeline reads the
 * COMMIT's result at a sync), which then calls txn_acked itself.
 *
 * A rolled-back transaction (TXN_RETRY) is undone here too: the rowset goes
 * back to its mark, so it only ever reflects committed work, and the
 * engine's retry hook replays its rows. A row is counted in out->rows once,
 * when it first succeeds; a replay counts commits only. */
#include "txn.h"

#include "../clock.h"
#include "../mix.h"

void txn_init(struct txn *t, struct engine *en, struct rowset *rs, const struct txn_hooks *h)
{
	*t = (struct txn){ .en = en, .rs = rs, .h = h };
}

void txn_acked(struct step_out *out, struct hist *lat, uint64_t t0)
{
	if (lat)
		hist_add(lat, clock_now_ns() - t0);
	out->commits++;
}

void txn_rewind(struct txn *t)
{
	if (!t->open)
		return;
	rowset_rewind(t->rs, &t->mark);
	t->nops = t->nops_mark; /* a replay draws the same ops */
	t->open = 0;
	t->rows = 0;
}

int txn_begin(struct txn *t, long long op, struct err *e)
{
	t->t0 = clock_now_ns();
	if (t->h->begin && t->h->begin(t->en, e) < 0)
		return -1;
	t->open = 1;
	t->op = op;
	t->rows = 0;
	rowset_mark(t->rs, &t->mark);
	t->nops_mark = t->nops;
	return 0;
}

long long txn_next(struct txn *t, long long op, uint64_t *row, uint64_t *version)
{
	long long opx = t->mixed ? mix_draw(t->mix, t->seed, t->nops++) : op;

	if (!rowset_next(t->rs, opx, row, version) &&
	    (opx == op || !rowset_next(t->rs, opx = op, row, version)))
		return -1; /* nothing left to work on (a mix's op with nothing to
		            * work on runs the step's: a lookup before the first
		            * row, a delete past the last) */
	return opx;
}

int txn_commit(struct txn *t, struct step_out *out, struct hist *lat, struct err *e)
{
	int rc;

	if (!t->open)
		return 0;
	rc = t->h->commit(t->en, t, e);
	if (rc == TXN_RETRY) {
		txn_rewind(t);
		return TXN_RETRY;
	}
	if (rc < 0)
		return -1;
	t->open = 0;
	if (rc == 0)
		txn_acked(out, lat, t->t0);
	return 0;
}

/* The n rows of a rolled-back transaction: rewound, then replayed. */
static int replay(struct txn *t, uint64_t n, struct step_out *out, struct hist *lat, struct err *e)
{
	txn_rewind(t);
	if (!t->h->retry)
		return err_set(e, ERR_RUNTIME,
		               "a transaction was rolled back and this engine cannot replay it "
		               "(a bug in idxlab)");
	return t->h->retry(t->en, n, out, lat, e);
}

static int commit_or_replay(struct txn *t, struct step_out *out, struct hist *lat, struct err *e)
{
	uint64_t n = t->rows;
	int rc = txn_commit(t, out, lat, e);

	return rc == TXN_RETRY ? replay(t, n, out, lat, e) : rc;
}

/* The sync hook; in a mix timed as the writes' (what it waits for is
 * their results). */
static int run_sync(struct txn *t, int at_end, struct step_out *out, struct hist *lat,
                    struct err *e)
{
	uint64_t t0;
	int rc;

	if (!t->h->sync)
		return 0;
	if (!t->mixed)
		return t->h->sync(t->en, at_end, out, lat, e);
	t0 = clock_now_ns();
	rc = t->h->sync(t->en, at_end, out, lat, e);
	t->write_ns += clock_now_ns() - t0;
	return rc;
}

/* One operation of opx (op itself, or a mix's draw), timed where its time
 * is reported: a read's into lat->query and read_ns; in a mix, a write's
 * into lat->write and write_ns. */
static int run_op(struct txn *t, long long opx, uint64_t row, uint64_t version, struct lats *lat,
                  struct err *e)
{
	int rc, reads = OP_READS(opx);
	uint64_t *const counted[OP_READ_COUNTS] = { &t->read_rows, &t->read_examined,
		                                    &t->read_pages };
	uint64_t t0, dt, before[OP_READ_COUNTS];
	int i;

	if (!reads && !t->mixed)
		return t->h->op(t->en, opx, row, version, e);
	t->carried_ns = 0;
	for (i = 0; i < OP_READ_COUNTS; i++)
		before[i] = *counted[i];
	t0 = clock_now_ns();
	rc = t->h->op(t->en, opx, row, version, e);
	dt = clock_now_ns() - t0;
	if (rc != 0)
		return rc;
	if (reads) {
		uint64_t carried = t->carried_ns < dt ? t->carried_ns : dt;

		dt -= carried; /* the query's own time */
		if (lat)
			hist_add(&lat->query, dt);
		t->reads++;
		t->read_ns += dt;
		t->write_ns += carried;
	} else {
		if (lat && !t->deferred) {
			hist_add(&lat->write, dt);
			t->writes_timed++;
		}
		t->write_ns += dt;
		t->writes++;
	}
	if (t->mixed) { /* by op kind: the time above, a read's own */
		t->op_n[opx]++;
		t->op_ns[opx] += dt;
		if (t->op_lat && (reads || !t->deferred))
			hist_add(&t->op_lat[opx], dt);
		for (i = 0; i < OP_READ_COUNTS; i++)
			t->op_read[i][opx] += *counted[i] - before[i];
	}
	return 0;
}

/* Commit, a mix's commit timed as its writes'. */
static int commit_timed(struct txn *t, struct step_out *out, struct hist *lat, struct err *e)
{
	uint64_t t0 = t->mixed ? clock_now_ns() : 0;
	int rc = commit_or_replay(t, out, lat, e);

	if (t->mixed)
		t->write_ns += clock_now_ns() - t0;
	return rc;
}

int txn_step(struct txn *t, long long op, uint64_t per_commit, uint64_t budget,
             struct step_out *out, struct lats *lat, struct err *e)
{
	uint64_t i;
	struct hist *clat = lat ? &lat->commit : NULL;

	for (i = 0; i < budget; i++) {
		uint64_t row, version, limit = per_commit == COMMIT_ALL ? UINT64_MAX : per_commit,
		                       n;
		uint64_t drawn = t->nops; /* the draw of this op, drawn before its begin */
		long long opx = txn_next(t, op, &row, &version);
		int rc;

		if (opx < 0)
			break;
		if (!t->open) {
			if (txn_begin(t, op, e) < 0)
				return -1;
			t->nops_mark = drawn;
		}
		n = t->rows + 1; /* before the hook: it may have rewound t */
		rc = run_op(t, opx, row, version, lat, e);
		if (rc == TXN_RETRY) {
			/* The failed operation is replayed with the rest. */
			if (replay(t, n, out, clat, e) < 0)
				return -1;
			out->rows++;
			if (t->mixed) /* it ran in the replay: counted as the rows are */
				t->op_n[opx]++;
		} else if (rc < 0) {
			return -1;
		} else {
			rowset_done(t->rs, opx, row);
			out->rows++;
			if (t->cap && t->cap < limit)
				limit = t->cap;
			if (++t->rows >= limit && commit_timed(t, out, clat, e) < 0)
				return -1;
		}
		if (run_sync(t, 0, out, clat, e) < 0)
			return -1;
	}
	return run_sync(t, 1, out, clat, e);
}

int txn_finish(struct txn *t, struct step_out *out, struct lats *lat, struct err *e)
{
	struct hist *clat = lat ? &lat->commit : NULL;

	if (commit_timed(t, out, clat, e) < 0)
		return -1;
	return run_sync(t, 1, out, clat, e);
}
