/* txn.c - the cases of src/engines/txn.c: the shared step loop, on a fake
 * engine. */
#include <string.h>

#include "engines/rowset.h"
#include "engines/txn.h"
#include "knobs.h"
#include "metrics.h"
#include "unit.h"

/* ---- the shared step loop (engines/txn.c), on a fake engine ------------- */
struct engine {
	struct txn txn;
	struct rowset rs;
	int begins, ops, commits, ends;
	int retry_op_at;  /* the op call (1, 2, ...) that answers TXN_RETRY; 0: none */
	int rewinds;      /* op rewinds t itself before TXN_RETRY (as WiredTiger's) */
	int retry_commit; /* the next commit answers TXN_RETRY */
	int defer;        /* commits answer TXN_SENT, acknowledged at the end's sync */
	uint64_t sent[8]; /* the t0s of commits sent, not yet acknowledged */
	int nsent;
	uint64_t group[16]; /* rows per commit, in order */
	int ngroup;
	uint64_t retried[4]; /* n of each retry call */
	int nretried;
	uint64_t replay_first; /* the first row a replay got */
	int carry;             /* a read says all its time was the writes' (carried_ns) */
};

static int fake_begin(struct engine *en, struct err *e)
{
	(void)e;
	en->begins++;
	return 0;
}

static int fake_op(struct engine *en, long long op, uint64_t row, uint64_t version, struct err *e)
{
	(void)row, (void)version, (void)e;
	if (en->carry && OP_READS(op))
		en->txn.carried_ns = UINT64_MAX; /* more than the op took: clamped */
	if (++en->ops != en->retry_op_at)
		return 0;
	if (en->rewinds)
		txn_rewind(&en->txn);
	return TXN_RETRY;
}

static int fake_commit(struct engine *en, struct txn *t, struct err *e)
{
	(void)e;
	en->commits++;
	if (en->retry_commit) {
		en->retry_commit = 0;
		return TXN_RETRY;
	}
	if (en->ngroup < 16)
		en->group[en->ngroup++] = t->rows;
	if (en->defer && en->nsent < 8) {
		en->sent[en->nsent++] = t->t0;
		return TXN_SENT;
	}
	return 0;
}

static int fake_sync(struct engine *en, int at_end, struct step_out *out, struct hist *lat,
                     struct err *e)
{
	(void)e;
	if (!at_end)
		return 0;
	en->ends++;
	while (en->nsent)
		txn_acked(out, lat, en->sent[--en->nsent]);
	return 0;
}

/* Replay the n rows in one transaction, through the loop's primitives. */
static int fake_retry(struct engine *en, uint64_t n, struct step_out *out, struct hist *lat,
                      struct err *e)
{
	uint64_t j, row, version;

	if (en->nretried < 4)
		en->retried[en->nretried++] = n;
	if (en->txn.open || txn_begin(&en->txn, en->txn.op, e) < 0)
		return -1;
	for (j = 0; j < n; j++) {
		if (!rowset_next(&en->rs, en->txn.op, &row, &version))
			return -1;
		if (j == 0)
			en->replay_first = row;
		rowset_done(&en->rs, en->txn.op, row);
		en->txn.rows++;
	}
	return txn_commit(&en->txn, out, lat, e);
}

static const struct txn_hooks fake_hooks = {
	.begin = fake_begin,
	.op = fake_op,
	.commit = fake_commit,
	.sync = fake_sync,
	.retry = fake_retry,
};

static void fake_reset(struct engine *en)
{
	rowset_free(&en->rs);
	memset(en, 0, sizeof *en);
	rowset_reset(&en->rs, 0);
	rowset_prepare(&en->rs, 1u << OP_INSERT, 1);
	txn_init(&en->txn, en, &en->rs, &fake_hooks);
}

/* One step of budget rows then finish, per_commit rows a commit. */
static void fake_run(struct engine *en, uint64_t per_commit, uint64_t budget, struct step_out *out,
                     struct lats *lat)
{
	struct err e;

	memset(out, 0, sizeof *out);
	CHECK(txn_step(&en->txn, OP_INSERT, per_commit, budget, out, lat, &e) == 0);
}

static void test_txn(void)
{
	static struct engine en; /* zero: fake_reset frees its rowset */
	struct step_out out, fin;
	static struct lats lat;
	struct err e;

	/* A commit per row. */
	fake_reset(&en);
	memset(&lat, 0, sizeof lat);
	fake_run(&en, 1, 5, &out, &lat);
	CHECK(out.rows == 5 && out.commits == 5 && en.begins == 5 && en.ops == 5);
	CHECK(en.commits == 5 && lat.commit.n == 5 && !en.txn.open && en.ends == 1);

	/* Every 3 rows; finish commits the rest. */
	fake_reset(&en);
	memset(&lat, 0, sizeof lat);
	fake_run(&en, 3, 7, &out, &lat);
	CHECK(out.rows == 7 && out.commits == 2 && en.begins == 3 && en.txn.open);
	CHECK(en.txn.rows == 1);
	memset(&fin, 0, sizeof fin);
	CHECK(txn_finish(&en.txn, &fin, &lat, &e) == 0);
	CHECK(fin.commits == 1 && !en.txn.open && lat.commit.n == 3 && en.ngroup == 3);
	CHECK(en.group[0] == 3 && en.group[1] == 3 && en.group[2] == 1);
	memset(&fin, 0, sizeof fin);
	CHECK(txn_finish(&en.txn, &fin, &lat, &e) == 0 && fin.commits == 0 && en.commits == 3);

	/* commit = all: one transaction over every step, committed at finish. */
	fake_reset(&en);
	memset(&lat, 0, sizeof lat);
	fake_run(&en, COMMIT_ALL, 4, &out, &lat);
	fake_run(&en, COMMIT_ALL, 4, &out, &lat);
	CHECK(out.rows == 4 && out.commits == 0 && en.begins == 1 && en.commits == 0);
	CHECK(en.txn.open && en.txn.rows == 8 && en.ends == 2);
	memset(&fin, 0, sizeof fin);
	CHECK(txn_finish(&en.txn, &fin, &lat, &e) == 0);
	CHECK(fin.commits == 1 && en.group[0] == 8 && lat.commit.n == 1 && en.rs.next_row == 8);

	/* A cap below commit = all. */
	fake_reset(&en);
	en.txn.cap = 2;
	fake_run(&en, COMMIT_ALL, 5, &out, NULL);
	CHECK(out.commits == 2 && en.group[0] == 2 && en.group[1] == 2 && en.txn.rows == 1);
	/* ... and below a bigger per_commit; a bigger cap does not raise it. */
	fake_reset(&en);
	en.txn.cap = 2;
	fake_run(&en, 3, 6, &out, NULL);
	CHECK(out.commits == 3);
	fake_reset(&en);
	en.txn.cap = 5;
	fake_run(&en, 3, 6, &out, NULL);
	CHECK(out.commits == 2 && en.group[0] == 3);

	/* A deferred acknowledgement counts when the engine acknowledges it. */
	fake_reset(&en);
	en.defer = 1;
	memset(&lat, 0, sizeof lat);
	fake_run(&en, 2, 5, &out, &lat);
	CHECK(en.commits == 2 && out.commits == 2 && lat.commit.n == 2 && !en.nsent && en.txn.open);
	memset(&fin, 0, sizeof fin);
	CHECK(txn_finish(&en.txn, &fin, &lat, &e) == 0);
	CHECK(fin.commits == 1 && lat.commit.n == 3 && !en.txn.open);

	/* An op rolled back: its transaction of 4 (the failed row included)
	 * replayed from its first row; each row counted once. */
	fake_reset(&en);
	en.retry_op_at = 4;
	fake_run(&en, 10, 6, &out, NULL);
	CHECK(en.nretried == 1 && en.retried[0] == 4 && en.replay_first == 0);
	CHECK(out.rows == 6 && out.commits == 1 && en.rs.next_row == 6);
	CHECK(en.txn.open && en.txn.rows == 2);
	/* The same when the engine rewinds before it answers. */
	fake_reset(&en);
	en.retry_op_at = 4;
	en.rewinds = 1;
	fake_run(&en, 10, 6, &out, NULL);
	CHECK(en.nretried == 1 && en.retried[0] == 4 && en.replay_first == 0);
	CHECK(out.rows == 6 && out.commits == 1 && en.rs.next_row == 6);

	/* A commit rolled back: its 3 rows replayed. */
	fake_reset(&en);
	en.retry_commit = 1;
	fake_run(&en, 3, 3, &out, NULL);
	CHECK(en.nretried == 1 && en.retried[0] == 3 && en.replay_first == 0);
	CHECK(out.rows == 3 && out.commits == 1 && en.rs.next_row == 3 && !en.txn.open);
	/* ... and at finish. */
	fake_reset(&en);
	fake_run(&en, COMMIT_ALL, 2, &out, NULL);
	en.retry_commit = 1;
	memset(&fin, 0, sizeof fin);
	CHECK(txn_finish(&en.txn, &fin, NULL, &e) == 0);
	CHECK(en.nretried == 1 && en.retried[0] == 2 && fin.commits == 1 && !en.txn.open);

	/* A mix: a read's time the engine spent on earlier writes
	 * (carried_ns) is booked to the writes, at most the read's own. */
	fake_reset(&en);
	fake_run(&en, COMMIT_ALL, 3, &out, NULL);
	en.txn.mixed = 1;
	en.txn.mix[OP_LOOKUP] = 100;
	en.carry = 1;
	en.txn.read_ns = en.txn.write_ns = 0;
	fake_run(&en, COMMIT_ALL, 4, &out, NULL);
	CHECK(en.txn.reads == 4 && en.txn.read_ns == 0 && en.txn.writes == 0);
	CHECK(en.txn.write_ns > 0 && en.txn.write_ns < 1000000000ULL);
	en.carry = 0;
	fake_run(&en, COMMIT_ALL, 4, &out, NULL);
	CHECK(en.txn.reads == 8 && en.txn.read_ns > 0);

	/* Nothing left to delete: no transaction at all. */
	fake_reset(&en);
	rowset_prepare(&en.rs, 1u << OP_DELETE, 1);
	memset(&out, 0, sizeof out);
	CHECK(txn_step(&en.txn, OP_DELETE, 1, 5, &out, NULL, &e) == 0);
	CHECK(out.rows == 0 && en.begins == 0 && en.ends == 1);
	rowset_free(&en.rs);
}

const struct unit_case unit_engines_txn[] = {
	{ "unit/txn-loop", test_txn },
	{ NULL, NULL },
};
