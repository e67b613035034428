/* txn.c - transactions: the hooks into the shared step loop (../txn.c),
 * and the WT_ROLLBACK replay as its retry hook.
 *
 * Commit latency is BEGIN to the commit's return. Commit sync is chosen per
 * transaction (sync off is mongod's j:false, anything else j:true).
 *
 * Rollbacks: when the cache fills with a transaction's own uncommitted
 * changes WiredTiger rolls the oldest transaction back (WT_ROLLBACK, or
 * WT_CACHE_FULL). The transaction is undone here too: the rowset goes back
 * to where it was at BEGIN, so it only ever reflects committed work, and the
 * same rows are replayed in transactions half as big (down to one row),
 * which then cap the commit size (en->txn->cap) until the cache or commit
 * knob changes. A row is counted once, when it first succeeds; its replay
 * is not counted again. */
#include <stdatomic.h>

#include "../../evlog.h"
#include "internal.h"

static int begin(struct engine *en, struct err *e)
{
	int rc = en->s->begin_transaction(en->s, "isolation=snapshot");

	return rc ? wt_fail(en, e, "begin a transaction", rc) : 0;
}

/* Roll the open transaction back, and the rowset with it. */
void wt_abort_txn(struct engine *en)
{
	if (!en->txn->open)
		return;
	if (en->bulk.open) /* --load copy: no transaction to roll back */
		wt_bulk_discard(en);
	else
		(void)en->s->rollback_transaction(en->s, NULL);
	txn_rewind(en->txn);
}

/* A failed operation rolls the transaction back; the cache's rollbacks are
 * replayed (TXN_RETRY). */
static int run_op(struct engine *en, long long op, uint64_t row, uint64_t version, struct err *e)
{
	int rc = wt_do_op(en, op, row, version);

	if (rc == 0)
		return 0;
	wt_abort_txn(en);
	return wt_retryable(rc) ? TXN_RETRY : wt_op_fail(en, e, op, row, rc);
}

/* A failed commit has been rolled back by WiredTiger: the rowset too. What
 * rolled it back stays in en->rolled_rc, for the replay's last message. */
static int commit(struct engine *en, struct txn *t, struct err *e)
{
	int rc =
	    en->s->commit_transaction(en->s, en->k.v[K_SYNC] == SYNC_OFF ? "sync=off" : "sync=on");

	if (rc == 0)
		return 0;
	txn_rewind(t);
	en->rolled_rc = rc;
	return wt_retryable(rc) ? TXN_RETRY : wt_fail(en, e, "commit", rc);
}

/* A transaction of n rows (its last operation may have failed: it is then
 * one of the n) was rolled back for the cache, and the rowset with it:
 * replay the same rows (a mix's same draws) in transactions half as big,
 * down to one row. A stop
 * waits for the replay (n is at most what fills the cache: seconds), so the
 * rows counted as done are done and the step's partial result is right. */
static int replay(struct engine *en, uint64_t n, struct step_out *out, struct hist *lat,
                  struct err *e)
{
	struct txn *t = en->txn;
	long long op = t->op, opx = op;
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
		if (txn_begin(t, op, e) < 0)
			return -1;
		for (j = 0; j < c; j++) {
			if ((opx = txn_next(t, op, &row, &version)) < 0) {
				wt_abort_txn(en);
				return err_set(e, ERR_RUNTIME,
				               "replaying a rolled-back transaction: "
				               "its rows are gone (a bug in idxlab)");
			}
			/* a mix's query ran and was counted: its writes are
			 * what the transaction replays */
			if (!OP_READS(opx) && (rc = wt_do_op(en, opx, row, version)) != 0)
				break;
			rowset_done(en->rs, opx, row);
			t->rows++;
		}
		in_commit = rc == 0;
		if (rc != 0)
			wt_abort_txn(en);
		else if ((rc = txn_commit(t, out, lat, e)) == TXN_RETRY)
			rc = en->rolled_rc;
		else if (rc < 0)
			return -1; /* not a rollback: commit said what */
		if (rc == 0) {
			done += c;
			ntx++;
			en->replayed += c;
			continue;
		}
		if (!in_commit && !wt_retryable(rc))
			return wt_op_fail(en, e, opx, row, rc);
		en->rollbacks++;
		if (chunk > 1) {
			chunk /= 2;
		} else if (++ones > 5) {
			return wt_fail(en, e, "retry a rolled-back transaction", rc);
		} else {
			clock_sleep_ms(10L << ones); /* let eviction catch up */
		}
	}
	if (!t->cap || chunk < t->cap)
		t->cap = chunk;
	/* Say it, but not hundreds of times a second. */
	if (t0 - en->last_rb_log > 1000000000ULL || !en->last_rb_log) {
		wt_cache_text(en->cache, cache, sizeof cache);
		evlog_add(EV_WARN,
		          "wiredtiger: WT_ROLLBACK: a %llu-row transaction overflowed the %s "
		          "cache; retried smaller (%llu transactions of <= %llu rows); now <= "
		          "%llu rows per transaction until --cache or --commit changes",
		          (unsigned long long)n, cache, (unsigned long long)ntx,
		          (unsigned long long)chunk, (unsigned long long)t->cap);
		en->last_rb_log = t0;
	}
	return 0;
}

const struct txn_hooks wt_txn_hooks = {
	.begin = begin,
	.op = run_op,
	.commit = commit,
	.retry = replay,
};

int wt_finish_start(struct engine *en, struct err *e)
{
	/* Stopping with a transaction that has filled the cache: its commit
	 * waits for eviction, which cannot free its own pages - seen to spin
	 * for minutes. The user wants out: let the commit's wait for cache
	 * space give up after a second (WiredTiger then lets the cache run
	 * over), so the rows done are committed and reported. */
	if (en->txn->open && en->stop && atomic_load(en->stop))
		(void)en->conn->reconfigure(en->conn, "cache_max_wait_ms=1000");
	(void)e;
	return 0;
}
