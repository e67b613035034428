/* txn.c - the SQLite engine's step: transactions around the rows.
 *
 * A transaction begins before the first row of a commit group and commits
 * after k's commit rows (commit=all: at the step's end, in finish()). Its
 * latency, BEGIN sent to COMMIT done, goes into the step's histogram. */
#include "sqlite_int.h"

static int commit(struct engine *en, struct step_out *out, struct hist *lat, struct err *e)
{
	if (!en->in_txn)
		return 0;
	if (sqlite_run(en, "COMMIT", e) < 0)
		return -1;
	en->in_txn = 0;
	hist_add(lat, clock_now_ns() - en->txn_t0);
	out->commits++;
	return 0;
}

int sqlite_finish(struct engine *en, struct step_out *out, struct hist *lat, struct err *e)
{
	return commit(en, out, lat, e);
}

int sqlite_step(struct engine *en, const struct knobs *k, uint64_t budget, struct step_out *out,
                struct hist *lat, struct err *e)
{
	long long op = en->k.v[K_OP];
	uint64_t per_commit = (uint64_t)k->v[K_COMMIT], i;

	for (i = 0; i < budget; i++) {
		uint64_t row, version;

		if (!rowset_next(&en->rs, op, &row, &version))
			break; /* nothing left to work on */
		if (!en->in_txn) {
			en->txn_t0 = clock_now_ns();
			if (sqlite_run(en, "BEGIN", e) < 0)
				return -1;
			en->in_txn = 1;
			en->txn_rows = 0;
		}
		if (sqlite_do_op(en, op, row, version, e) < 0)
			return -1;
		rowset_done(&en->rs, op, row);
		out->rows++;
		if (per_commit != COMMIT_ALL && ++en->txn_rows >= per_commit &&
		    commit(en, out, lat, e) < 0)
			return -1;
	}
	return 0;
}
