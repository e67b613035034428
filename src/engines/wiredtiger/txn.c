/* txn.c - transactions: begin, commit, the step, and the WT_ROLLBACK replay.
 *
 * Commit latency is BEGIN to the commit's return. Commit sync is chosen per
 * transaction (sync off is mongod's j:false, anything else j:true).
 *
 * Rollbacks: when the cache fills with a transaction's own uncommitted
 * changes WiredTiger rolls the oldest transaction back (WT_ROLLBACK, or
 * WT_CACHE_FULL). The transaction is undone here too: the rowset goes back
 * to where it was at BEGIN, so it only ever reflects committed work, and the
 * same rows are replayed in transactions half as big (down to one row),
 * which then cap the commit size until the cache or commit knob changes. A
 * row is counted once, when it first succeeds; its replay is not counted
 * again. */
#include <stdatomic.h>

#include "../../evlog.h"
#include "internal.h"

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
void wt_abort_txn(struct engine *en)
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
				wt_abort_txn(en);
				return err_set(e, ERR_RUNTIME,
				               "replaying a rolled-back transaction: "
				               "its rows are gone (a bug in idxlab)");
			}
			if ((rc = wt_do_op(en, op, row, version)) != 0)
				break;
			rowset_done(&en->rs, op, row);
		}
		in_commit = rc == 0;
		if (rc == 0)
			rc = commit_raw(en, out, lat);
		else
			wt_abort_txn(en);
		if (rc == 0) {
			done += c;
			ntx++;
			en->replayed += c;
			continue;
		}
		if (!wt_retryable(rc))
			return in_commit ? wt_fail(en, e, "commit", rc)
			                 : wt_op_fail(en, e, op, row, rc);
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
		wt_cache_text(en->cache, cache, sizeof cache);
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
int wt_commit(struct engine *en, struct step_out *out, struct hist *lat, struct err *e)
{
	uint64_t n = en->txn_rows;
	int rc;

	if (!en->in_txn)
		return 0;
	rc = commit_raw(en, out, lat);
	if (rc == 0)
		return 0;
	if (wt_retryable(rc)) /* the transaction and the rowset are rolled back */
		return replay(en, n, out, lat, e);
	return wt_fail(en, e, "commit", rc);
}

int wt_finish(struct engine *en, struct step_out *out, struct hist *lat, struct err *e)
{
	/* Stopping with a transaction that has filled the cache: its commit
	 * waits for eviction, which cannot free its own pages - seen to spin
	 * for minutes. The user wants out: let the commit's wait for cache
	 * space give up after a second (WiredTiger then lets the cache run
	 * over), so the rows done are committed and reported. */
	if (en->in_txn && en->stop && atomic_load(en->stop))
		(void)en->conn->reconfigure(en->conn, "cache_max_wait_ms=1000");
	return wt_commit(en, out, lat, e);
}

/* Run up to budget operations; commit every per_commit rows (0: never). */
int wt_run_ops(struct engine *en, long long op, uint64_t per_commit, uint64_t budget,
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
		rc = wt_do_op(en, op, row, version);
		if (rc) {
			uint64_t n = en->txn_rows + 1;

			wt_abort_txn(en);
			if (!wt_retryable(rc))
				return wt_op_fail(en, e, op, row, rc);
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
		if (++en->txn_rows >= limit && wt_commit(en, out, lat, e) < 0)
			return -1;
		if (en->cap && en->cap < limit)
			limit = en->cap;
	}
	return 0;
}

int wt_step(struct engine *en, const struct knobs *k, uint64_t budget, struct step_out *out,
            struct hist *lat, struct err *e)
{
	return wt_run_ops(en, en->k.v[K_OP], (uint64_t)k->v[K_COMMIT], budget, out, lat, e);
}
