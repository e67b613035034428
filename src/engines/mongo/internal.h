/* internal.h - what the MongoDB engine's files share (private to
 * src/engines/mongo/; the engine's public face is mongo_engine, listed in
 * engines.c).
 *
 *   driver.c    the vtable: open, setup, apply, rewrite, close; libmongoc's
 *               set-up and log; the claim on database idxlab (or the refusal)
 *   server.c    the throwaway mongod (through spawn.h), a killed run's leftovers
 *   errors.c    running a command, and libmongoc's errors in words
 *   schema.c    the collection: cache, write concern, payload, indexes, fsync
 *   rows.c      the open batch: one operation on one row, the load; the
 *               insert_many batch of --load copy
 *   txn.c       the step's hooks (../txn.c): a commit is one acknowledged batch
 *   reads.c     op lookup and range: a find per query, its plan from explain,
 *               what it examined from serverStatus
 *   stats.c     serverStatus (status.c's table), /proc io of the
 *               server, $collStats sizes
 *   doc.[ch]    the documents, write concerns and URI, as pure functions
 *   status.[ch] serverStatus and $collStats documents read by key name, pure
 *   stream.[ch] idxlab's own connection streams, which a stop can end
 *
 * Every call comes from the worker thread: the mongoc_client_t is
 * single-threaded. */
#ifndef IDXLAB_MONGO_INTERNAL_H
#define IDXLAB_MONGO_INTERNAL_H

#include <limits.h>
#include <mongoc/mongoc.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/types.h>

#include "../../probes/proc_tree.h"
#include "../engine.h"
#include "../reads.h"
#include "../rowset.h"
#include "../txn.h"
#include "doc.h"
#include "status.h"
#include "stream.h"

#define DB_NAME        "idxlab"
#define COLL_NAME      "t"
#define META_NAME      "idxlab_meta"
#define LOAD_BATCH     10000
#define WT_MIN_CACHE   (1024LL * 1024) /* WiredTiger refuses a smaller cache_size */
#define START_TIMEOUT  30              /* seconds for a throwaway mongod to listen */
#define CODE_NOT_FOUND 26              /* NamespaceNotFound */
#define CODE_DENIED    13              /* Unauthorized */
#define CODE_ATLAS     8000            /* AtlasError: a command a shared tier forbids */
#define CODE_DUP_KEY   11000
#define CODE_DISK_FULL 14031 /* OutOfDiskSpace */
#define MONGOD_PID     "mongod.pid"

/* The documents of an insert_many batch (--load copy), back to back in
 * buf; views and ptrs are made from them when the batch is sent. */
struct mongo_docs {
	uint8_t *buf;
	size_t len, cap;
	size_t *off; /* where each document starts in buf */
	size_t n, ncap;
	bson_t *views; /* ncap of them, each over its document */
	const bson_t **ptrs;
};

/* A cumulative server count at the last sample (ok: base holds one). */
struct mongo_delta {
	uint64_t base;
	int ok;
};

struct engine {
	mongoc_uri_t *uri;
	mongoc_client_t *client;
	mongoc_database_t *db;
	mongoc_collection_t *coll;
	mongoc_write_concern_t *wc;
	mongoc_bulk_operation_t *bulk; /* the open batch, or NULL */
	uint64_t bulk_ops;
	uint64_t bulk_n[OP_LOOKUP];     /* its operations by write op (a mix queues several) */
	uint64_t bulk_bytes, bulk_last; /* BSON bytes queued in it; of its last operation */
	int copy;                       /* the step's inserts go by insert_many (--load copy) */
	struct mongo_docs docs;         /* their open batch */
	struct txn *txn; /* borrowed (the workload's): the open batch as a transaction (../txn.h) */
	const atomic_int *stop;       /* borrowed */
	struct mongo_stream_ctx sctx; /* the client's streams: a stop bounds their reads */
	struct knobs k;
	struct rowset *rs; /* borrowed: the workload's, txn->rs */
	char *payload;
	char hosts[256];
	char where[PATH_MAX + 320];
	/* the throwaway mongod, when idxlab started one */
	pid_t mongod;
	int mongod_died;
	char mongod_dir[PATH_MAX];
	int claimed; /* database idxlab is ours: clean up at close */
	int lost;    /* the connection failed: close cleans up only if it is back */
	struct mongo_status st;
	long long cache_orig, cache_now; /* WiredTiger cache bytes, -1: unknown */
	int cache_readonly, status_denied, sizes_denied, fsync_denied;
	int has_server_io;
	struct proc_tree tree;
	struct reads rd; /* op lookup, range: the queries and what served each (reads.c) */
	struct {         /* serverStatus at the read step's last sample (reads.c) */
		struct mongo_delta examined, pages;
	} rbase;
};

/* ---- server.c ------------------------------------------------------------- */

/* Start mongod (bin) on a free port in a fresh temp dir; *port gets it. */
int mongod_start(struct engine *en, const char *bin, int *port, struct err *e);
/* 1 while the throwaway mongod runs; reaps it when it has exited. */
int mongod_alive(struct engine *en);
/* Kill it, reap it, remove its dir (safe when none was started). */
void mongod_stop(struct engine *en);
/* The throwaway server is gone: say so with the end of its log; returns -1. */
int mongod_died(struct engine *en, struct err *e, const char *what, const char *why);
/* -1 with e filled when the throwaway mongod has died. */
int mongod_check(struct engine *en, struct err *e);

/* ---- errors.c ------------------------------------------------------------- */

int mongo_is_denied(const bson_error_t *be);
/* A connection problem, as opposed to the server refusing one command. */
int mongo_is_connection(const bson_error_t *be);
/* An error a person can act on from be; what (NULL: none) says what idxlab
 * was doing. Sets en->lost when the connection is gone. Returns -1. */
int mongo_fail(struct engine *en, const bson_error_t *be, struct err *e, const char *what);
/* Run cmd on database dbname; the reply goes into reply (the caller's,
 * destroy it) when not NULL. -1 with be filled on failure. */
int mongo_command(struct engine *en, const char *dbname, const bson_t *cmd, bson_t *reply,
                  bson_error_t *be);
/* The same, failing with a message. */
int mongo_command_or_fail(struct engine *en, const char *dbname, const bson_t *cmd, struct err *e,
                          const char *what);

/* ---- schema.c ------------------------------------------------------------- */

void mongo_set_payload(struct engine *en, long long len);
void mongo_set_write_concern(struct engine *en, long long sync);
/* cache = WiredTiger's cache_size, where the server lets us change it. */
int mongo_set_cache(struct engine *en, const struct knobs *k, struct err *e);
int mongo_drop_collection(struct engine *en, struct err *e);
/* Indexes 0..from-1 of the spec's list exist; make it 0..to-1 (live: tell
 * the event log). */
int mongo_set_indexes(struct engine *en, long long from, long long to, int live, struct err *e);
/* A checkpoint (fsync) before measuring, where the user may run one. */
int mongo_checkpoint(struct engine *en, struct err *e);

/* ---- rows.c --------------------------------------------------------------- */

/* A fresh ordered batch under the current write concern (--load copy: an
 * empty insert_many batch, nothing allocated). */
void mongo_open_bulk(struct engine *en);
/* Send the open insert_many batch (unordered) and wait for its
 * acknowledgement; every document must be inserted. 0 when it is empty. */
int mongo_flush_docs(struct engine *en, struct err *e);
/* Forget the open batch, sent or not (setup, close). */
void mongo_drop_batch(struct engine *en);
void mongo_docs_free(struct mongo_docs *d);
/* Queue op on row n into the open batch. */
int mongo_add_op(struct engine *en, long long op, uint64_t row, uint64_t version, struct err *e);
/* Insert rows 0..rows-1 (w:1 j:false: the load is not measured). */
int mongo_load(struct engine *en, uint64_t rows, struct err *e);

/* ---- txn.c ---------------------------------------------------------------- */

extern const struct txn_hooks mongo_txn_hooks;
/* Send the open batch of op (if any) and wait for its acknowledgement; the
 * server must report every row it names changed. Counts nothing. */
int mongo_flush(struct engine *en, long long op, struct err *e);
/* The open batch is empty: its counts to 0. */
void mongo_bulk_zero(struct engine *en);

/* ---- reads.c -------------------------------------------------------------- */

/* The finds of k's read op (none for a write), and what serves each (explain). */
int mongo_prepare_reads(struct engine *en, const struct knobs *k, struct err *e);
/* One query, its values from row, draw its number (reads_pick). */
int mongo_do_read(struct engine *en, long long op, uint64_t row, uint64_t draw, struct err *e);
/* The reads' counters serverStatus gives this step's reads alone (bits
 * 1u << C_READ_EXAMINED, C_READ_PAGES): both on a read step, fewer or
 * none in a mix (what its writes examine and read would count too). */
unsigned mongo_reads_counted(const struct engine *en);
/* What the server examined and read since the last sample (en->st, just
 * read) into the txn's read counters, where counted, their bits into c. */
void mongo_reads_sample(struct engine *en, struct counters *c);
const struct reads *mongo_reads(struct engine *en);
/* .stats: the counters mongo_reads_sample fills. */
extern const struct engine_stats mongo_read_stats;

/* ---- stats.c -------------------------------------------------------------- */

/* serverStatus into en->st. -1 with be filled on failure. */
int mongo_server_status(struct engine *en, bson_error_t *be);
/* Where the server runs here and its /proc is readable, sample its io. */
void mongo_find_server_processes(struct engine *en);
int mongo_sample(struct engine *en, struct counters *c, struct err *e);
/* .stats: the server's /proc io table (status.c has serverStatus's). */
extern const struct engine_stats mongo_io_stats;
int mongo_sizes(struct engine *en, struct sizes *s, struct err *e);

#endif
