/* sqlite_int.h - what the files of the SQLite engine share (private: only
 * src/engines/sqlite/ includes it). The engine's public face is
 * sqlite_engine, its engine_ops, in driver.c.
 *
 *   driver.c    the ops: open, close, setup (a fresh table per step),
 *               apply, rewrite, where, version
 *   sql.c       the handle: errors that say what to do, statements a stop
 *               may abort, one-value queries
 *   dsn_file.c  a --dsn FILE: one idxlab per file (its lock file), and the
 *               refusal of a database idxlab did not create
 *   schema.c    the table, its indexes and the pragmas (journal, sync, cache)
 *   rows.c      the per-row statements: bind, step, check
 *   txn.c       the step: its hooks (BEGIN, a row, COMMIT) into ../txn.c
 *   stats.c     the statistics table (counter <- source), sample, sizes
 *   vfs.[ch]    the counting VFS shim (writes and syncs by file kind)
 *   catalog.c   --schema-from: a user's table's shape, read-only
 *   source.c    --schema-from: the user's file opened so that nothing is
 *               created or written beside it
 *   multirow.c  --load multirow: INSERT ... VALUES (...), (...) */
#ifndef IDXLAB_ENGINES_SQLITE_INT_H
#define IDXLAB_ENGINES_SQLITE_INT_H

#include <limits.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

#include "../../clock.h"
#include "../../schema.h"
#include "../reads.h"
#include "../engine.h"
#include "../rowset.h"
#include "../txn.h"

struct engine {
	sqlite3 *db;
	char path[PATH_MAX];
	char dir[PATH_MAX - 64]; /* our temp dir, or "" when the user named the file */
	int lock_fd;             /* the flocked FILE-idxlab-lock of a --dsn file, or -1 */
	int probes;
	struct rowset *rs;        /* borrowed: the workload's, txn->rs */
	struct txn *txn;          /* borrowed (the workload's): the open transaction */
	int live;                 /* knobs have been applied live: log what changes */
	int fresh;                /* our temp file, just created: setup need not recreate it */
	const atomic_int *stop;   /* borrowed: set when the user wants out */
	int abortable;            /* a statement a stop may abort is running */
	uint64_t status[C_COUNT]; /* db_status counters summed in 64 bits (stats.c) */
	unsigned char *payload;
	struct knobs k;
	const struct schema *s; /* borrowed: k's table spec (specs live until exit) */
	/* The spec's fast road to k's values (schema_fast_keys), when fast. */
	struct schema_fast keys;
	int fast;
	int clustered; /* idxlab_t is kept in the spec's first index (schema_clustered) */
	/* Each write op's statement (rows.c; st NULL: not prepared): ?1 the
	 * id, ?2.. the value columns cols[] (a row's values in vals[], bound
	 * SQLITE_STATIC), ?payload_param the payload (0: none). A mix runs
	 * several side by side. */
	struct sqlite_write {
		sqlite3_stmt *st;
		int ncols, payload_param;
		int cols[SCHEMA_COLS_MAX];
	} w[OP_LOOKUP];
	struct value vals[SCHEMA_COLS_MAX];
	struct reads rd;             /* op lookup, range: the queries (reads.c) */
	sqlite3_stmt *rq[READS_MAX]; /* their SELECTs */
	struct {                     /* --load multirow (multirow.c); max 0: off */
		sqlite3_stmt *full;  /* the INSERT of max rows */
		int max, n;          /* rows per statement, rows kept */
		uint64_t *rows;      /* the kept rows' numbers */
	} mr;
};

/* A statement being written; a name that is an SQL keyword is quoted. */
struct sql_buf {
	char s[8192];
	size_t n;
};

/* sql.c */
/* Fill e from db's last error, saying what to do about the common causes
 * (what: the statement or action). -1. */
int sqlite_fail(struct engine *en, struct err *e, const char *what);
/* Run sql; a stop aborts it unless it is "COMMIT". 0 or -1. */
int sqlite_run(struct engine *en, const char *sql, struct err *e);
/* The first column of sql's first row. 0 or -1. */
int sqlite_query_int(struct engine *en, const char *sql, int64_t *out, struct err *e);
/* sqlite3_progress_handler's callback, arg the engine: nonzero to abort. */
int sqlite_progress_cb(void *arg);
/* Append printf text / an identifier (quoted when it is a keyword) to b. */
void sqlite_sql_add(struct sql_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sqlite_sql_name(struct sql_buf *b, const char *name);

/* dsn_file.c */
/* Is the existing file at path a database idxlab created? Never writes. */
int sqlite_dsn_check(const char *path, struct err *e);
/* Take en->path's lock (en->lock_fd): -1 when another idxlab has it. */
int sqlite_dsn_lock(struct engine *en, struct err *e);
/* Remove the lock file and let go; nothing when none is held. */
void sqlite_dsn_unlock(struct engine *en);

/* schema.c */
/* Create idxlab_t as en->s says under en->k (the default spec: the same
 * DDL as always); a WITHOUT ROWID table on the first index's key when
 * schema_clustered (en->clustered). */
int sqlite_create_schema(struct engine *en, struct err *e);
/* Journal mode, synchronous and cache size as k says. No open transaction. */
int sqlite_set_pragmas(struct engine *en, const struct knobs *k, struct err *e);
/* Create or drop indexes so that exactly the first `to` of en->s's list
 * exist (the first `from` exist now); drops go in reverse order. The key
 * of a table kept in it (schema_clustered) is the table: building it or
 * dropping it copies the rows into a table kept so, or not. */
int sqlite_set_indexes(struct engine *en, long long from, long long to, struct err *e);

/* reads.c */
/* The SELECTs of k's read op (none for a write), and what serves each. */
int sqlite_prepare_reads(struct engine *en, const struct knobs *k, struct err *e);
/* One query, its values from row, draw its number (reads_pick). */
int sqlite_do_read(struct engine *en, long long op, uint64_t row, uint64_t draw, struct err *e);
void sqlite_free_reads(struct engine *en);
const struct reads *sqlite_reads(struct engine *en);

/* rows.c */
/* Prepare write op's statement as en->w[op] (built from en->s), its
 * payload bound. */
int sqlite_prepare_stmt(struct engine *en, long long op, struct err *e);
/* Finalize every write op's statement. */
void sqlite_free_writes(struct engine *en);
/* Bind the payload to the INSERT, if it is prepared. */
void sqlite_bind_payload(struct engine *en);
/* One operation on row number row; version is the update generation. */
int sqlite_do_op(struct engine *en, long long op, uint64_t row, uint64_t version, struct err *e);
/* Prepare the write ops k runs (its op, or its mix's), and the rows'
 * visit order. */
int sqlite_prepare_op(struct engine *en, const struct knobs *k, struct err *e);
/* A new payload of len bytes, bound. */
int sqlite_set_payload(struct engine *en, long long len);
/* Bind v to parameter param as the table holds it: NULL, text, a blob, a
 * date's or time's text, a numeric's double, an integer (d: SQLite's
 * destructor for the bytes, v->b). */
void sqlite_bind_value(sqlite3_stmt *st, int param, struct value *v, sqlite3_destructor_type d);

/* txn.c */
extern const struct txn_hooks sqlite_txn_hooks;

/* stats.c */
/* Add the 31-bit db_status counters into en->status and reset them. */
void sqlite_status_absorb(struct engine *en);
int sqlite_sample(struct engine *en, struct counters *c, struct err *e);
extern const struct engine_stats sqlite_stats; /* .stats: stats.c's table */
int sqlite_sizes(struct engine *en, struct sizes *s, struct err *e);

/* catalog.c */
struct table_shape;
int sqlite_reads_source(const char *source);
int sqlite_read_shape(const char *source, const char *table, struct table_shape *t, struct err *e);

/* sample.c: each column's order, distinct values, length and NULLs from a
 * bounded sample of table's rows in db (opened read-only); t's columns
 * named, rows and stats_from as the catalog said. */
int sqlite_sample_shape(sqlite3 *db, const char *table, struct table_shape *t, struct err *e);

/* source.c */
/* Open the user's file source for reading (source.c says how) so that
 * nothing is created or written beside it; what the reader could not see
 * goes into notes ("; "-separated). The handle into *out (sqlite3_close
 * it), or -1 and a message. */
int sqlite_source_open(const char *source, sqlite3 **out, char *notes, size_t nlen, struct err *e);

/* multirow.c: --load multirow. prepare: for k (nothing unless multirow
 * inserts), after the single-row INSERT is prepared; add: keep a row (a
 * statement goes when full); flush: the rest, before COMMIT. */
int sqlite_multirow_prepare(struct engine *en, const struct knobs *k, struct err *e);
int sqlite_multirow_add(struct engine *en, uint64_t row, struct err *e);
int sqlite_multirow_flush(struct engine *en, struct err *e);
void sqlite_multirow_free(struct engine *en);

#endif
