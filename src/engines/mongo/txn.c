/* txn.c - the step: a commit is one acknowledged batch, through the shared
 * step loop (../txn.c).
 *
 * Each commit is one acknowledged ordered bulk write of `commit` rows under
 * the write concern `sync` stands for (doc.h); a batch may span several
 * step() calls, like a transaction on the other engines, and commit = all
 * is one batch that stays open until finish(). MongoDB has no
 * multi-document transaction on a standalone server, so a "commit" here is
 * an acknowledged batch. Nothing is sent at its begin: its latency runs from
 * queueing its first row to the server's acknowledgement.
 *
 * A batch is sent early, without counting a commit, once it holds
 * MONGO_SEND_MAX operations or nearly MONGO_SEND_BYTES (mongod's
 * maxWriteBatchSize and maxMessageSizeBytes: libmongoc splits a bigger bulk
 * there anyway), so a commit within both is one round trip as before, and a
 * bigger one (commit = all) about the round trips libmongoc made of it,
 * without holding the whole step in memory. Every send checks the server
 * changed each row it names. With --load copy a batch is one insert_many
 * (rows.c), under the same bounds. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

#define MONGO_SEND_MAX 100000
/* mongod's maxMessageSizeBytes (48000000), less room for the command */
#define MONGO_SEND_BYTES (48000000 - 65536)

void mongo_bulk_zero(struct engine *en)
{
	en->bulk_ops = en->bulk_bytes = 0;
	memset(en->bulk_n, 0, sizeof en->bulk_n);
}

/* What the server's reply counts of a batch's operations: the field, the
 * write ops it counts. */
static const struct {
	const char *field;
	unsigned ops;
} counted[] = {
	{ "nInserted", 1u << OP_INSERT },
	{ "nMatched", OPS_UPDATES },
	{ "nRemoved", 1u << OP_DELETE },
};

/* Each count of reply against the batch's operations (en->bulk_n, taken
 * into sent before the batch was cleared): 0, or -1 naming the first that
 * differs. */
static int check_counts(const bson_t *reply, const uint64_t *sent, long long op, struct err *e)
{
	size_t i;
	int w;

	for (i = 0; i < sizeof counted / sizeof counted[0]; i++) {
		uint64_t want = 0, got = 0;
		bson_iter_t it;

		for (w = 0; w < OP_LOOKUP; w++)
			if (counted[i].ops & 1u << w)
				want += sent[w];
		if (bson_iter_init_find(&it, reply, counted[i].field) &&
		    BSON_ITER_HOLDS_NUMBER(&it))
			got = (uint64_t)bson_iter_as_int64(&it);
		if (got != want)
			return err_set(e, ERR_RUNTIME,
			               "%s: the server reports %s %llu for a batch of %llu - "
			               "idxlab.t is not what idxlab built (was it changed "
			               "meanwhile?)",
			               knob_table[K_OP].choices[op], counted[i].field,
			               (unsigned long long)got, (unsigned long long)want);
	}
	return 0;
}

/* Send the open batch and wait for the server's acknowledgement. A batch
 * that did not change every row it named is an error: the collection is not
 * what idxlab built. */
int mongo_flush(struct engine *en, long long op, struct err *e)
{
	uint64_t n = en->bulk_ops, sent[OP_LOOKUP];
	int rc;
	bson_error_t be;
	bson_t reply;
	uint32_t ok;

	if (en->copy)
		return mongo_flush_docs(en, e);
	if (!en->bulk)
		return 0;
	if (!n) { /* a mix's commit of reads only: nothing to send */
		mongoc_bulk_operation_destroy(en->bulk);
		en->bulk = NULL;
		return 0;
	}
	memcpy(sent, en->bulk_n, sizeof sent);
	ok = mongoc_bulk_operation_execute(en->bulk, &reply, &be);
	mongoc_bulk_operation_destroy(en->bulk);
	en->bulk = NULL;
	mongo_bulk_zero(en);
	if (!ok) {
		char what[64];

		snprintf(what, sizeof what, "%s of a batch of %llu", knob_table[K_OP].choices[op],
		         (unsigned long long)n);
		bson_destroy(&reply);
		return mongo_fail(en, &be, e, what);
	}
	rc = check_counts(&reply, sent, op, e);
	bson_destroy(&reply);
	return rc;
}

static int begin(struct engine *en, struct err *e)
{
	(void)e;
	if (OP_READS(en->k.v[K_OP]))
		return 0; /* a read step's finds go one by one: no batch */
	mongo_open_bulk(en);
	return 0;
}

static int add_op(struct engine *en, long long op, uint64_t row, uint64_t version, struct err *e)
{
	if (OP_READS(op))
		return mongo_do_read(en, op, row, version, e);
	if (!en->bulk && !en->copy) /* sent early (send_full) */
		mongo_open_bulk(en);
	return mongo_add_op(en, op, row, version, e);
}

/* Send the open batch; when that fails it is gone, and so is the
 * transaction (no commit to count later). */
static int send_batch(struct engine *en, struct err *e)
{
	if (mongo_flush(en, en->txn->op, e) < 0) {
		en->txn->open = 0;
		return -1;
	}
	return 0;
}

/* The batch is acknowledged when its execute returns (nothing to send when
 * send_full sent the last of it). */
static int commit(struct engine *en, struct txn *t, struct err *e)
{
	(void)t;
	return send_batch(en, e);
}

/* A batch that holds MONGO_SEND_MAX operations, or that one more like the
 * last would take past MONGO_SEND_BYTES, goes out; the commit is later. */
static int send_full(struct engine *en, int at_end, struct step_out *out, struct hist *lat,
                     struct err *e)
{
	(void)at_end, (void)out, (void)lat;
	if (en->bulk_ops >= MONGO_SEND_MAX || en->bulk_bytes + en->bulk_last > MONGO_SEND_BYTES)
		return send_batch(en, e);
	return 0;
}

const struct txn_hooks mongo_txn_hooks = {
	.begin = begin,
	.op = add_op,
	.commit = commit,
	.sync = send_full,
};
