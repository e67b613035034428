/* internal.h - what the WiredTiger engine's files share (private to
 * src/engines/wiredtiger/; the engine's public face is wiredtiger_engine,
 * listed in engines.c).
 *
 *   driver.c    the vtable: open, setup, apply, rewrite, close; the directory
 *   messages.c  WiredTiger's event handler, and its errors in words
 *   schema.c    tables, cursors, the cache and checkpoint settings, index builds
 *   rows.c      the row layout and one operation on one row
 *   txn.c       transactions: the step's hooks (../txn.c), the WT_ROLLBACK replay
 *   bulk.c      --load copy: the step's hooks through bulk cursors
 *   reads.c     op lookup and range: the queries, through the index cursors
 *   stats.c     the statistics table, the sample, the file sizes (settled)
 *   layout.h    the tables' and the connection's settings (bench/bare_wt.c too)
 *
 * All calls come from the worker thread, except the event handler's
 * callbacks (any WiredTiger thread: they touch only the atomics). */
#ifndef IDXLAB_WT_INTERNAL_H
#define IDXLAB_WT_INTERNAL_H

#include <limits.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <wiredtiger.h>

#include "../../clock.h"
#include "../../schema.h"
#include "../engine.h"
#include "../reads.h"
#include "../rowset.h"
#include "../txn.h"
#include "layout.h"

#define COLL_URI      WT_COLL_URI
#define NIDX          (SCHEMA_IDX_MAX + 1) /* _id + the spec's index list */
#define KEY_MAX       (SCHEMA_IDX_COLS * (SCHEMA_TEXT_MAX + 8) + 16) /* a packed key */
#define MIN_CACHE     WT_MIN_CACHE
#define LOAD_TXN_ROWS WT_LOAD_TXN_ROWS

/* The statistics idxlab reads (stats.c's table says from where, and which
 * counter each feeds). */
enum wt_stat {
	S_NONE, /* not a statistic: "nothing to subtract" in the table */
	S_CACHE_WRITE,
	S_CACHE_READ,
	S_PAGES_REQUESTED,
	S_LOG_BYTES,
	S_BLOCK_WRITE,
	S_CHECKPOINTS,
	S_LOG_SYNC,
	S_FSYNC_IO,
	S_CACHE_INUSE, /* gauges from here on */
	S_CACHE_DIRTY,
	S_CACHE_MAX,
	S_COUNT
};

/* One index table: idx[0] is _id, idx[i] the spec's index i - 1. */
struct wt_index {
	char uri[SCHEMA_NAME_MAX + 32]; /* table:index-idxlab-NAME */
	char name[SCHEMA_NAME_MAX];     /* the spec's name: idxlab_k1, idxlab_email */
	char key_format[SCHEMA_IDX_COLS + 2];
	int ncols, cols[SCHEMA_IDX_COLS]; /* into the spec's columns (0: id) */
	int unique; /* keyed by the column(s) alone: the value is the record id */
	int raw;    /* composite: the cursor takes keys packed here (WT_PACK_STREAM) */
};

/* --load copy (bulk.c): the step's bulk load. */
struct wt_bulk {
	WT_CURSOR *coll, *idx[NIDX]; /* bulk cursors, while open */
	unsigned char *ent[NIDX];    /* index i's entries so far, slot[i] bytes each */
	size_t slot[NIDX];
	uint64_t n, cap; /* entries in each list, and room for */
	int open;        /* the load is under way */
	int done;        /* the tables have been bulk-loaded (a table is, once) */
};

/* op lookup, range (reads.c): the queries and the cursors that run them. */
struct wt_reads {
	struct reads rd;
	int ix[READS_MAX];    /* the index table that serves query i; -1: a scan */
	int desc[READS_MAX];  /* that index walked backwards (its order, desc) */
	int sort[READS_MAX];  /* an order the walk does not give: kept in the heap */
	WT_CURSOR *cur[NIDX]; /* raw read cursors on the index tables that serve one */
	unsigned char val[SCHEMA_QUERY_TERMS][SCHEMA_TEXT_MAX]; /* the terms' values, as
	                                                         * a record holds them */
	unsigned char *heap; /* an order with a limit: the best rows' order column */
	size_t hn, hcap;     /* values in the heap, its bytes */
	uint64_t pages_mark; /* "pages read into cache" at the last sample */
};

struct engine {
	WT_EVENT_HANDLER handler; /* first: the callbacks find the engine from it */
	atomic_int quiet;         /* expected errors (EBUSY while dropping): say nothing */
	atomic_int first_errno;   /* ENOSPC once WiredTiger reported one */
	WT_CONNECTION *conn;
	WT_SESSION *s;  /* the workload's session */
	WT_SESSION *ss; /* statistics: outside the workload's transactions */
	WT_CURSOR *stat;
	WT_CURSOR *coll, *idx[NIDX]; /* idx[0] is _id, idx[i] is ix[i]'s */
	char home[PATH_MAX - 64];
	int tmp;  /* home is our temp dir: removed at close */
	int nidx; /* secondary index tables that exist (the spec's first nidx) */
	int probes;
	int live;               /* apply() has run: say what changes */
	int table;              /* the tables exist */
	const atomic_int *stop; /* borrowed: set when the user wants out */
	struct knobs k;
	struct rowset *rs; /* borrowed: the workload's, txn->rs */
	/* row layout: id | the spec's columns | hot | payload, each column
	 * fixed-width (int 4 bytes, bigint and timestamp 8, uuid 16, text(N) N) */
	const struct schema *sc; /* borrowed: registered specs live as long as idxlab */
	int fast;                /* the default table: keys.c's values, as before specs */
	int uuid_pk;
	struct schema_fast keys; /* the spec's fast road to k's values, when fast */
	uint64_t pk_seed;        /* the seed the ids were made with */
	int ncols;               /* sc->ncols: id and the value columns */
	size_t col_off[SCHEMA_COLS_MAX], col_len[SCHEMA_COLS_MAX];
	char col_fmt[SCHEMA_COLS_MAX]; /* WiredTiger's format letter: i, q or u */
	size_t off_hot, off_payload, row_len;
	unsigned char *row, *old; /* the record written; a copy of the one found */
	struct wt_index ix[NIDX];
	int opc[2][SCHEMA_COLS_MAX], nopc[2]; /* what update-indexed, update-keys write */
	int fail_idx; /* the index table the last failed operation was on (-1: the collection) */
	unsigned char kbuf[KEY_MAX];
	/* the open transaction (../txn.h); its cap: rows per transaction after
	 * a rollback, 0: no cap */
	struct txn *txn; /* borrowed: the workload's */
	struct wt_bulk bulk;
	struct wt_reads rd;
	int rolled_rc; /* what rolled the last failed commit back */
	long long cache;
	long long cache_said; /* the cache the events last explained (wt_set_cache) */
	/* bookkeeping for the event log */
	uint64_t rollbacks, replayed, last_rb_log;
	uint64_t st_table[S_COUNT], syncs_table; /* at setup */
	uint64_t table_t0;
	/* stats.c: a step's end checkpointed for the sizes (wt_settle); the
	 * events said that sizes read without one are the files as last written */
	int settled, said_unsettled;
};

/* ---- messages.c ----------------------------------------------------------- */

/* Route WiredTiger's messages into the event log. */
void wt_events_init(WT_EVENT_HANDLER *h);
/* The cache filled with a transaction's own changes: retry it smaller. */
int wt_retryable(int rc);
void wt_cache_text(long long bytes, char *buf, size_t len);
/* An error from WiredTiger, with what to do about the common causes;
 * returns -1. */
int wt_fail(struct engine *en, struct err *e, const char *what, int rc);

/* ---- schema.c ------------------------------------------------------------- */

/* The row layout, the tables' names, formats and columns, and the update
 * ops' columns for the spec in en->k (ix[0] is _id). */
void wt_set_tables(struct engine *en);
/* Drop every table idxlab's layout names (whatever spec made them). */
int wt_drop_all(struct engine *en, struct err *e);
void wt_close_cursors(struct engine *en);
/* Drop uri if it exists; waits out a checkpoint holding it. */
int wt_drop_table(struct engine *en, const char *uri, struct err *e);
int wt_open_cursor(struct engine *en, const char *uri, WT_CURSOR **out, struct err *e);
/* Create index table i (0: _id) and open its cursor (raw when composite). */
int wt_create_index(struct engine *en, int i, struct err *e);
/* Open index table i's workload cursor (raw when composite). */
int wt_open_index(struct engine *en, int i, struct err *e);
/* Fill index table i (1..) from the collection. */
int wt_fill_index(struct engine *en, int i, struct err *e);
/* Create or drop index tables so that exactly the first `to` exist. */
int wt_set_indexes(struct engine *en, int to, struct err *e);
/* The cache (at least 1 MiB); say: tell the event log where eviction starts. */
int wt_set_cache(struct engine *en, long long bytes, int say, struct err *e);
/* Empty the cache after the load (see schema.c). */
int wt_squeeze_cache(struct engine *en, struct err *e);
int wt_set_checkpoint(struct engine *en, long long secs, struct err *e);
/* The row layout and buffers for the spec and payload size set in en. */
void wt_set_row_layout(struct engine *en, long long payload);

/* ---- rows.c --------------------------------------------------------------- */

/* Operation failures that are not WiredTiger's: the table changed under us. */
#define E_MISSING (-1)

/* Row n's record into en->row, as an insert writes it. */
void wt_make_row(struct engine *en, uint64_t row);
/* Index i's key for the record rec packed into buf (cap bytes), as a raw
 * cursor takes it; its size into *used. 0 or a WiredTiger error. */
int wt_index_pack(struct engine *en, int i, const unsigned char *rec, int64_t recid,
                  unsigned char *buf, size_t cap, size_t *used);
/* The start of index i's keys for the value first of its first column (as
 * a record holds it; second: and of its second, NULL: none), packed as its
 * keys are: a raw cursor's search key, which every key with that value
 * begins with (packed fields are self-delimiting) and which sorts as the
 * value does. */
int wt_index_prefix(struct engine *en, int i, const unsigned char *first,
                    const unsigned char *second, unsigned char *buf, size_t cap, size_t *used);
/* Value v of column col as a record holds it, col_len bytes into out (a
 * text shorter than its width is padded with zero bytes, in v too). */
void wt_put_value(const struct engine *en, int col, struct value *v, unsigned char *out);
/* Insert index i's entry for the record rec (laid out as en says). */
int wt_index_insert(struct engine *en, int i, const unsigned char *rec, int64_t recid);
/* One operation on row n: 0, E_MISSING or a WiredTiger error. */
int wt_do_op(struct engine *en, long long op, uint64_t row, uint64_t version);
/* The failure rc of op on row, in words; returns -1. */
int wt_op_fail(struct engine *en, struct err *e, long long op, uint64_t row, int rc);

/* ---- txn.c ---------------------------------------------------------------- */

/* begin, op, commit, and the WT_ROLLBACK replay as retry. */
extern const struct txn_hooks wt_txn_hooks;
/* Roll the open transaction back, and the rowset with it. */
void wt_abort_txn(struct engine *en);
/* Before a finish (engine.h): a stopped commit stops waiting for cache space. */
int wt_finish_start(struct engine *en, struct err *e);

/* ---- reads.c -------------------------------------------------------------- */

/* The queries of k's op (none for a write op), what serves each, and the
 * cursors they run through; after the indexes changed too. */
int wt_prepare_reads(struct engine *en, const struct knobs *k, struct err *e);
/* Close the read cursors (before an index table is dropped, at setup, close). */
void wt_free_reads(struct engine *en);
/* One query (wt_do_op's for op lookup, range): its values from row, draw its
 * number (reads_pick). 0, E_MISSING or a WiredTiger error. */
int wt_do_read(struct engine *en, long long op, uint64_t row, uint64_t draw);
const struct reads *wt_reads_of(struct engine *en);
/* The sample (stats.c): the pages read into the cache since the last, the
 * queries' on a read step; mark: from now on. */
void wt_reads_pages(struct engine *en, uint64_t cache_read, int mark_only);

/* ---- bulk.c --------------------------------------------------------------- */

/* The step's hooks for --load copy. */
extern const struct txn_hooks wt_bulk_hooks;
/* At setup, after wt_set_tables: the step's hooks for k's load (copy:
 * refused unless the table starts empty and the step is one commit). */
int wt_bulk_prepare(struct engine *en, const struct knobs *k, struct err *e);
/* A bulk load under way ends here (what is loaded stays: no undo). */
void wt_bulk_discard(struct engine *en);

/* ---- stats.c -------------------------------------------------------------- */

/* Read every statistic of the table into out (out[S_NONE] is 0). */
int wt_read_stats(struct engine *en, uint64_t out[S_COUNT], struct err *e);
/* Tell the event log what the table cost since it was built. */
void wt_log_table_totals(struct engine *en, const char *when);
int wt_sample(struct engine *en, struct counters *c, struct err *e);
/* .stats: stats.c's tables (wt_query_stats: the reads' counters, which
 * wt_sample makes valid itself); .measures_more: what wt_sample fills itself. */
extern const struct engine_stats wt_stats, wt_query_stats;
#define WT_SAMPLE_OWN (1u << C_FSYNCS | 1u << C_WCHAR | 1u << C_WRITE_BYTES)
int wt_sizes(struct engine *en, struct sizes *s, struct err *e);
/* A step's end (engine.h settle): a checkpoint, so the files hold the
 * step's btrees when wt_sizes reads them. */
int wt_settle(struct engine *en, struct err *e);

/* bulk.c: a setting the bulk path cannot run (a prefill, a commit size),
 * refused before the engine opens (engine_ops.check). */
int wt_check_knobs(const struct knobs *k, struct err *e);

#endif
