/* txn.c - the step: a commit is one acknowledged batch.
 *
 * Each commit is one acknowledged ordered bulk write of `commit` rows under
 * the write concern `sync` stands for (doc.h); a batch may span several
 * step() calls, like a transaction on the other engines, and commit = all
 * sends one bulk per step() call. MongoDB has no multi-document
 * transaction on a standalone server, so a "commit" here is an
 * acknowledged batch, and its latency is that round trip. */
#include <stdio.h>

#include "../../clock.h"
#include "internal.h"

/* Send the open batch and wait for the server's acknowledgement. A batch
 * that did not change every row it named is an error: the collection is not
 * what idxlab built. */
int mongo_flush(struct engine *en, long long op, struct step_out *out, struct hist *lat,
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

int mongo_step(struct engine *en, const struct knobs *k, uint64_t budget, struct step_out *out,
               struct hist *lat, struct err *e)
{
	long long op = en->k.v[K_OP];
	uint64_t per_commit = (uint64_t)k->v[K_COMMIT], i;

	for (i = 0; i < budget; i++) {
		uint64_t row, version;

		if (!rowset_next(&en->rs, op, &row, &version))
			break;
		if (!en->bulk)
			mongo_open_bulk(en);
		if (mongo_add_op(en, op, row, version, e) < 0)
			return -1;
		rowset_done(&en->rs, op, row);
		out->rows++;
		if (per_commit != (uint64_t)COMMIT_ALL && en->bulk_ops >= per_commit &&
		    mongo_flush(en, op, out, lat, e) < 0)
			return -1;
	}
	if (per_commit == (uint64_t)COMMIT_ALL)
		return mongo_flush(en, op, out, lat, e);
	return 0;
}

int mongo_finish(struct engine *en, struct step_out *out, struct hist *lat, struct err *e)
{
	return mongo_flush(en, en->k.v[K_OP], out, lat, e);
}
