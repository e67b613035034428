/* txn.h - the one step loop: rows, the budget, the commit cadence.
 *
 * The worker runs every engine's step through txn_step() and its finish
 * through txn_finish() (workload.c); the engine gives only hooks (begin,
 * op, commit, and where it needs them sync and retry). The loop owns what a step means everywhere: walk
 * the rowset (a row is counted once, when it first succeeds), stop at the
 * budget, commit every per_commit rows (COMMIT_ALL: one transaction that
 * stays open until txn_finish), and the commit latency, begin sent to
 * commit acknowledged, which only txn_acked() records. */
#ifndef IDXLAB_ENGINES_TXN_H
#define IDXLAB_ENGINES_TXN_H

#include <stdint.h>

#include "engine.h"
#include "rowset.h"

/* A hook's answers besides 0 and -1. */
#define TXN_RETRY 1 /* the transaction was rolled back: replay it (hooks.retry) */
#define TXN_SENT  2 /* commit: sent, acknowledged later (the engine calls txn_acked) */

struct txn;

/* The engine's part. en is the txn's en; e is filled on -1. */
struct txn_hooks {
	/* Start a transaction (the loop has set t0 and will mark the rowset).
	 * NULL: nothing to send. */
	int (*begin)(struct engine *en, struct err *e);
	/* One operation on row (version: the update generation), inside the
	 * open transaction. 0; -1; or TXN_RETRY when the engine rolled the
	 * transaction back (its part done, txn_rewind too if it likes: the
	 * loop rewinds the rowset and calls retry with the rows the
	 * transaction had, this one included). */
	int (*op)(struct engine *en, long long op, uint64_t row, uint64_t version, struct err *e);
	/* Commit t. 0: acknowledged now (the loop calls txn_acked with t->t0);
	 * TXN_SENT: acknowledged later, when the engine calls txn_acked with
	 * t->t0, kept until then; TXN_RETRY: rolled back as for op; -1: failed
	 * (t stays as the hook leaves it). */
	int (*commit)(struct engine *en, struct txn *t, struct err *e);
	/* NULL, or called after each row (at_end 0) and at the end of every
	 * txn_step and txn_finish (at_end 1): a deferred acknowledgement is
	 * read here (txn_acked into out and lat). 0 or -1. */
	int (*sync)(struct engine *en, int at_end, struct step_out *out, struct hist *lat,
	            struct err *e);
	/* NULL (TXN_RETRY is then a bug), or replay the n rows of a
	 * transaction that was rolled back; the rowset is back where it was at
	 * its begin and no transaction is open. Counts commits, not rows. */
	int (*retry)(struct engine *en, uint64_t n, struct step_out *out, struct hist *lat,
	             struct err *e);
};

/* The worker's (workload_impl.h), with the rowset it points to; each
 * engine keeps a borrowed pointer from open() on, reads open (never apply
 * or rewrite inside a transaction), sets cap, and may swap h. */
struct txn {
	struct engine *en;         /* borrowed: passed back to the hooks */
	struct rowset *rs;         /* borrowed: the engine's */
	const struct txn_hooks *h; /* borrowed: static */
	int open;                  /* a transaction is open */
	long long op;              /* the operation it runs */
	uint64_t rows;             /* rows in it so far */
	uint64_t t0;               /* when its begin was sent (clock_now_ns) */
	uint64_t cap;              /* at most this many rows per transaction; 0: no cap */
	struct rowset_mark mark;   /* the rowset at its begin */
	/* The reads (op lookup, range), cumulative: queries run (the loop
	 * counts them), and what they found, which the engine's op hook adds:
	 * rows returned, rows examined (as the engine counts them), pages read
	 * into its cache. The workload samples them (C_READS ...). */
	uint64_t reads, read_rows, read_examined, read_pages;
	/* A mix (mix.h; the workload sets it before each txn_step): its
	 * weights, and the seed and operation count its draws hash; each
	 * operation of a mix is timed into read_ns or write_ns (a commit's
	 * time is the writes', and the sync hook's), writes counting the
	 * write operations. carried_ns: the part of a read's op hook spent
	 * finishing the writes sent before it (PostgreSQL's pipeline reads
	 * their results first), which the hook adds and the loop books to the
	 * writes. */
	int mixed;
	unsigned char mix[OP_COUNT];
	uint64_t seed, nops, read_ns, write_ns, writes, carried_ns;
	uint64_t nops_mark; /* nops at the open transaction's begin */
	/* The engine's write ops return before their results (PostgreSQL's
	 * pipeline, MongoDB's bulk batches; the engine sets it): a mix's
	 * writes are then not timed one by one. writes_timed: those that
	 * were, into the write latencies. */
	int deferred;
	uint64_t writes_timed;
	/* A mix's operations by op kind, and their nanoseconds as above
	 * (counters.op_n, op_ns); op_lat (NULL: none; the workload's, set
	 * before each txn_step) each kind's latencies, of the ops timed one
	 * by one (a write where the engine waits for each). */
	uint64_t op_n[OP_COUNT], op_ns[OP_COUNT];
	uint64_t op_read[OP_READ_COUNTS][OP_COUNT]; /* counters.op_read */
	struct hist *op_lat;
};

void txn_init(struct txn *t, struct engine *en, struct rowset *rs, const struct txn_hooks *h);

/* Run up to budget operations of op, committing every per_commit rows
 * (COMMIT_ALL: never; txn_finish commits). out counts rows and commits,
 * lat (NULL: not kept) the commit latencies and each query's (a read op,
 * a mix's reads: its rows fetched). 0 or -1. */
int txn_step(struct txn *t, long long op, uint64_t per_commit, uint64_t budget,
             struct step_out *out, struct lats *lat, struct err *e);

/* Commit the open transaction, if any (a rollback is replayed), then the
 * sync hook's end. 0 or -1. */
int txn_finish(struct txn *t, struct step_out *out, struct lats *lat, struct err *e);

/* The primitives the loop is made of, for an engine's retry hook. */
/* The op of the next operation (op itself, or a mix's draw: the same as
 * before a rewind) and its row and version; -1: nothing left to work on. */
long long txn_next(struct txn *t, long long op, uint64_t *row, uint64_t *version);
/* Begin a transaction of op: t0, the begin hook, the rowset's mark. */
int txn_begin(struct txn *t, long long op, struct err *e);
/* Commit the open transaction (nothing when none is): 0, TXN_RETRY (the
 * rowset rewound, no replay), or -1. */
int txn_commit(struct txn *t, struct step_out *out, struct hist *lat, struct err *e);
/* A commit whose begin was sent at t0 is acknowledged: its latency into
 * lat (NULL: not kept), one commit into out. */
void txn_acked(struct step_out *out, struct hist *lat, uint64_t t0);
/* The engine rolled the open transaction back: the rowset back to its
 * mark, no transaction open. Nothing when none is open. */
void txn_rewind(struct txn *t);

#endif
