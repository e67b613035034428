/* internal.h - what the PostgreSQL engine's files share (private to
 * src/engines/postgres/; the engine's public face is postgres_engine, listed
 * in engine_list.h). The engine (libpq):
 *
 * Without --dsn it starts a throwaway cluster (cluster.c) and works in it;
 * with --dsn (a conninfo string or postgres:// URI; PG* variables and
 * .pgpass apply) it works on the user's server. Either way every object
 * lives in schema `idxlab`, which idxlab creates and marks with a comment,
 * as it marks each object it makes there (schema.c); a schema of that name
 * that is not marked, or that holds anything unmarked, is refused and left
 * alone. On the user's server idxlab creates nothing outside its schema
 * (no extension: it uses those the database has).
 *
 * Operations are sent in libpq pipeline mode: BEGIN, the rows of a
 * transaction and COMMIT go out back to back and their results are read
 * after one sync, so a batch of N rows costs one round trip. Parameters are
 * sent in binary (int4, int8, uuid, timestamptz, text). --protocol and
 * --pipeline send them otherwise (protocol.c).
 *
 * The table is the spec in force (schema.h): its DDL, COPY, index and
 * statement texts are built from it at set-up and at an op change, never
 * per row; the spec's names are quoted as the server quotes identifiers
 * (quote_ident), so a column named like a keyword works too.
 *
 * The connection is non-blocking and every wait for the server goes
 * through pg_await(): after the user's stop a statement is cancelled (from a
 * thread: PQcancel itself waits for the server) and a server silent for
 * STOP_ANSWER_MS is given up on, so a stop ends idxlab in time even when
 * the server no longer answers.
 *
 * Counters (see man idxlab, OUTPUT FIELDS): WAL bytes from
 * pg_current_wal_insert_lsn() deltas (live, mid-transaction too);
 * full-page-image bytes from
 * pg_walinspect over the flushed WAL (superuser only; n/a otherwise);
 * fsyncs from pg_stat_wal.wal_sync; spills: the buffers idxlab's own
 * statements wrote out to make room (stats.c); misses from
 * pg_statio blks_read (these lag to the end of a transaction; a step's end
 * forces the flush); HOT from pg_stat_user_tables plus the backend's
 * unreported counts (live); checkpoints from the
 * control file (pg_control_checkpoint()); write() and device bytes from /proc of the server's
 * processes when the server is local and readable.
 *
 *   driver.c   the vtable: open, setup, apply, rewrite, close; a restart
 *   conn.c     connecting, the bounded waits and the cancel, plain
 *              statements, the pipeline, idxlab's own queries in it
 *   schema.c   schema idxlab claimed or refused, the extensions, the
 *              server's settings and processes
 *   rows.c     the table, the load (COPY), the indexes, the prepared
 *              statements, one operation on one row
 *   part.c     a partitioned table (the spec's partition by): the
 *              parent's clauses, the partitions and their bounds
 *   load.c     --load multirow (multi-row INSERTs in the pipeline) and
 *              copy (binary COPY FROM STDIN per transaction)
 *   protocol.c --protocol and --pipeline: a row's statement prepared,
 *              as text and parameters, or as literal SQL; pipelined or
 *              a round trip each
 *   txn.c      BEGIN/COMMIT in the pipeline, the step, the results
 *   reads.c    op lookup and range: the queries, what served them, what
 *              they examined and read
 *   stats.c    the statistics table, the sample, the sizes
 *   catalog.c  --schema-from: a user's table's shape, read-only
 *   sample.c   --schema-from: its rows' order, from a bounded sample
 *   cluster.h  the throwaway server (cluster.c and its files)
 *
 * All calls come from the worker thread (the cancel runs in a thread of
 * its own, conn.c). */
#ifndef IDXLAB_PG_INTERNAL_H
#define IDXLAB_PG_INTERNAL_H

#include <libpq-fe.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "../../probes/proc_tree.h"
#include "../../schema.h"
#include "../engine.h"
#include "../reads.h"
#include "../rowset.h"
#include "../txn.h"
#include "cluster.h"

#define SCHEMA_MARK          "created by idxlab"
#define PIPE_CHUNK           1000 /* queries in flight before a sync */
#define OID_INT8             20
#define OID_TEXT             25
#define BUFFERCACHE_EVERY_NS 1000000000ULL
#define ADVISORY_KEY         "115880238014818" /* "idxlab" in ASCII, as a number */
#define OID_UUID             2950
#define OID_INT4             23
#define OID_TIMESTAMPTZ      1184
#define OID_NUMERIC          1700
#define OID_BOOL             16
#define OID_DATE             1082
#define PG_EPOCH_DAYS        10957                 /* 2000-01-01 in days since 1970-01-01 */
#define PCOL_PAYLOAD         (-1)                  /* a parameter that is the payload */
#define PCOL_HOT             (-2)                  /* a parameter that is hot's 0 */
#define PG_EPOCH_US          946684800000000LL     /* 2000-01-01 UTC in Unix microseconds */
#define QNAME_MAX            (SCHEMA_NAME_MAX + 2) /* a spec name, quoted */
#define SPEC_PARAMS          (SCHEMA_COLS_MAX + 2) /* id, the value columns, hot, payload */
#define FPI_TAIL             32768 /* bytes of WAL read to find the last record's end (x8 next) */
#define SPILL_RELS           1024  /* relfilenodes of the table, its partitions, indexes, TOAST */
#define STOP_GRACE_MS        300   /* a stop lets a short statement end before cancelling it */
#define STOP_ANSWER_MS       1000  /* ... and gives up on a server silent that long after it */
#define STATS_TIMEOUT        "10s" /* statement_timeout of idxlab's own statistics queries */
#define WAIT_SLICE_MS        50
#define RQ_SQL_MAX           512 /* a read's SELECT: SCHEMA_QUERY_TERMS terms, an order */

/* idxlab_t and its partitions (pg_partition_tree lists none for a table
 * that is not partitioned): the statistics are summed over them. */
#define TABLE_TREE                                                                                 \
	"(SELECT to_regclass('idxlab.idxlab_t') UNION SELECT relid FROM "                          \
	"pg_partition_tree(to_regclass('idxlab.idxlab_t')))"

enum tag { T_BEGIN, T_OP, T_COMMIT, T_OTHER };

struct pending {
	enum tag tag;
	int op;      /* T_OP: the write op sent (its count is checked) */
	uint64_t t0; /* T_COMMIT: when its transaction began */
};

struct engine {
	PGconn *conn;
	struct pg_cluster *cluster; /* NULL with --dsn */
	char conninfo[1024];
	char where[300];
	int superuser;
	int claimed;             /* schema idxlab is ours: close may clean it up */
	int walinspect;          /* pg_get_wal_records_info() usable */
	char walinspect_fn[160]; /* schema-qualified pg_get_wal_records_info */
	int buffercache;         /* the pg_buffercache view usable */
	char buffercache_view[160];
	int statements;              /* pg_stat_statements usable: spills measured */
	char statements_fn[160];     /* schema-qualified pg_stat_statements */
	uint64_t spills, ss_written; /* spills so far; the last shared_blks_written */
	int ss_seen;                 /* ss_written and rels hold a reading */
	int nrels;
	struct {
		uint64_t node, blocks;
	} rels[SPILL_RELS]; /* idxlab's relations by relfilenode, at the last reading */
	uint64_t bc_t, bc_used, bc_dirty; /* its last reading: when (ns), buffers */
	const atomic_int *stop;           /* borrowed */
	struct knobs k;
	const struct schema *s; /* borrowed (the registry keeps it): the spec in force */
	/* Its names as SQL says them (set-up): columns (0 is id), hot, indexes. */
	char qcol[SCHEMA_COLS_MAX][QNAME_MAX], qhot[QNAME_MAX], qidx[SCHEMA_IDX_MAX][QNAME_MAX];
	char sizes_sql[2400]; /* pg_sizes' query: the indexes in list order */
	/* The prepared statement's parameters: each one's column (PCOL_HOT,
	 * PCOL_PAYLOAD: idxlab's own, when the table has them) and type; pv: scratch for their values (SPEC_PARAMS). */
	int nparams;
	int pcol[SPEC_PARAMS];
	enum col_type ptype[SPEC_PARAMS];
	struct value *pv;
	struct rowset *rs; /* borrowed: the workload's, txn->rs */
	int pipeline;
	struct txn *txn; /* borrowed (the workload's): the open transaction (../txn.h) */
	int prepared;    /* the ops' statements exist (on this connection) */
	struct pending *pend;
	size_t npend, cap_pend;
	uint64_t lsn0, lsn_now, flush_now; /* insert and flush points at the last sample */
	uint64_t fpi_bytes, fpi_lsn;
	uint64_t fpi_flush; /* flush point before the last look (0: look next time) */
	char fpi_slot[64];  /* the slot holding the WAL from fpi_lsn ("": none) */
	uint32_t want;      /* the sample's counters.want */
	uint64_t fpi_gaps;  /* times the WAL to read FPIs from was gone */
	uint64_t checkpoints, ckpt_lsn, redo_lsn; /* note_checkpoint() */
	/* Per-table counters restart with every new table: carry them over. */
	uint64_t table_acc[C_COUNT], table_last[C_COUNT]; /* by counter (stats.c) */
	int has_server_io;
	struct proc_tree tree;
	char *payload;
	long long shared_buffers; /* bytes in force on the server */
	uint64_t t_started;       /* ns the throwaway server took to start */
	uint64_t stop_ns;         /* ns the stop was first seen (0: not yet): waits end from it */
	int cancelled;            /* the cancel request went out */
	int closing;              /* close's clean-up: not to be cancelled */
	int unanswered;           /* given up on the server: touch it no more */
	char unanswered_msg[400];
	char stmt_timeout[64]; /* statement_timeout of the session, as the server has it */
	/* --load (load.c). copy: the COPY statement; the binary data not yet
	 * handed to libpq; a COPY open on the connection and its rows. */
	char copy_sql[4096];
	char *cbuf;
	size_t cused, ccap;
	int copying;
	uint64_t crows;
	/* multirow: rows per full statement (idxlab_mr), rows of the prepared
	 * remainder (idxlab_mr_rest; 0: none), the rows buffered and their
	 * parameters (bytes in mr_arena at mr_off, lengths, formats). */
	int mr_full, mr_rest, mr_rows;
	char *mr_arena;
	size_t mr_used, mr_cap, *mr_off;
	int *mr_len, *mr_fmt;
	const char **mr_val;
	char *mr_sql; /* the unnamed remainder's text, for mr_sql_rows rows */
	int mr_sql_rows;
	/* --protocol (protocol.c): the op's statement text, its placeholders
	 * ($N at ph_at up to ph_end stands for parameter ph_param), and the
	 * literal statement of the last row (simple). */
	char op_sql[4096];
	int nph;
	size_t ph_at[SPEC_PARAMS], ph_end[SPEC_PARAMS];
	int ph_param[SPEC_PARAMS];
	char *lit;
	size_t lit_used, lit_cap;
	/* op lookup, range (reads.c): the queries and their SELECTs (prepared
	 * as idxlab_r0, idxlab_r1, ...); the query op_sql holds (-1: none);
	 * the last reading of the statistics the reads' counts come from
	 * (rd_seen: of this table, under a read op). */
	struct reads rd;
	char rq_sql[READS_MAX][RQ_SQL_MAX];
	int rq_set, rd_seen;
	uint64_t rd_examined, rd_pages;
	/* A mix (reads.c): each write op's statement, its parameters and
	 * text, kept (wsave[op]) while another's take their place (w_op: the
	 * write op whose state is in place, -1: a read's); the
	 * COMMITs a read's drain acknowledged, their latencies (ns), held for
	 * the next sync hook to count. */
	struct pg_wstate {
		int nparams, nph;
		int pcol[SPEC_PARAMS], ph_param[SPEC_PARAMS];
		enum col_type ptype[SPEC_PARAMS];
		size_t ph_at[SPEC_PARAMS], ph_end[SPEC_PARAMS];
		char sql[4096];
	} wsave[OP_LOOKUP];
	int w_op, mixed;
	uint64_t *held;
	size_t nheld, cap_held;
};

/* conn.c */
const char *pg_trim(const char *msg, char *buf, size_t len);
int pg_fail(struct engine *en, const PGresult *res, struct err *e, const char *what);
int pg_leave_pipeline(struct engine *en, struct err *e);
int pg_enter_pipeline(struct engine *en, struct err *e);
int pg_await(struct engine *en, const char *what, long grace_ms, struct err *e);
PGresult *pg_collect(struct engine *en, const char *what, long grace_ms, struct err *e);
PGresult *pg_run(struct engine *en, const char *sql, int nparams, const char *const *params,
                 struct err *e);
int pg_exec(struct engine *en, const char *sql, struct err *e);
int pg_query_text(struct engine *en, const char *sql, char *buf, size_t len, struct err *e);
uint64_t pg_to_u64(const char *s);
int pg_connect_to(struct engine *en, const char *conninfo, struct err *e);
PGresult *pg_pipeline_query(struct engine *en, const char *sql, int nparams,
                            const char *const *params, struct err *e);
/* pg_pipeline_query for a query that may fail: in an open transaction it
 * runs under a savepoint, so its failure leaves the transaction usable. */
PGresult *pg_pipeline_try(struct engine *en, const char *sql, int nparams,
                          const char *const *params, struct err *e);

/* schema.c */
int pg_read_shared_buffers(struct engine *en, struct err *e);
void pg_find_server_processes(struct engine *en);
int pg_start_session(struct engine *en, struct err *e);

/* rows.c */
int pg_quote_names(struct engine *en, struct err *e);
int pg_create_table(struct engine *en, struct err *e);

/* A partitioned idxlab_t (part.c): the table's primary key clause (id and
 * the partition key) and its PARTITION BY clause, each into len bytes;
 * then the partitions themselves, once the parent exists. */
void pg_part_clauses(const struct engine *en, char *pkey, char *by, size_t len);
int pg_part_create(struct engine *en, struct err *e);
void pg_set_payload(struct engine *en, long long len);
int pg_set_indexes(struct engine *en, long long from, long long to, int live, struct err *e);
int pg_prepare_statement(struct engine *en, struct err *e);
int pg_prepare_op(struct engine *en, struct err *e);
int pg_send_op(struct engine *en, long long op, uint64_t row, uint64_t version, struct err *e);
Oid pg_type_oid(enum col_type t);
/* Column col's name as SQL says it (PCOL_*: hot's, "payload"). */
const char *pg_col_qname(const struct engine *en, int col);
/* Append idxlab's own columns the table has (hot, payload) to cols at n;
 * the new count. */
int pg_own_cols(const struct engine *en, int *cols, int n);
/* The parameters of the prepared statement for row (num: scratch for the
 * numbers, SPEC_PARAMS of them); vals point into num, en->pv or the
 * payload, valid until the next call. */
void pg_bind_row(struct engine *en, uint64_t row, uint64_t version, char (*num)[8],
                 const char **vals, int *lens);
/* The same for the columns cols (n of them; PCOL_*: idxlab's own). A NULL
 * is vals[i] NULL, lens[i] -1. */
void pg_bind_cols(struct engine *en, const int *cols, int n, uint64_t row, uint64_t version,
                  char (*num)[8], const char **vals, int *lens);
/* v in its type's binary form, as the statements take it: numbers into
 * num (8 bytes), bytes where they are (a numeric's into v->b); *out points
 * at them. Its length; -1: NULL (*out NULL). */
int pg_bind_value(struct value *v, char *num, const char **out);

/* load.c: --load multirow and copy */
#define MULTIROW_MAX  1000  /* rows per multi-row statement (the --load meaning) */
#define PG_PARAMS_MAX 65535 /* parameters the protocol carries in one statement */
#define COPY_CHUNK    65536 /* COPY bytes handed to libpq at once */
/* The op's and load's statements (after pg_prepare_statement's) and the
 * step loop's hooks for them. */
int pg_load_prepare(struct engine *en, struct err *e);
/* End the open COPY, if any: completed (fail NULL) or abandoned with the
 * message fail. The connection is free again. 0, or -1 naming the COPY. */
int pg_copy_end(struct engine *en, const char *fail, struct err *e);
void pg_load_free(struct engine *en);
/* COPY rows 0..rows-1 in (the prefill, at set-up): every column, hot 0, the
 * payload, in the binary form --load copy sends. A stop ends it (-1). */
int pg_load(struct engine *en, uint64_t rows, struct err *e);

/* protocol.c: --protocol and --pipeline */
/* Do the step's statements go through the pipeline (--pipeline on, or
 * --load multirow)? */
int pg_pipelined(const struct engine *en);
/* Into the pipeline or out of it, as pg_pipelined says. */
int pg_proto_mode(struct engine *en, struct err *e);
/* The prepared statement of write op op ("idxlab_op0"), in name. */
const char *pg_op_name(int op, char name[32]);
/* Keep sql, the op's statement (en->nparams set), and where its $N are. */
int pg_proto_set(struct engine *en, const char *sql, struct err *e);
/* Send the op's statement for one row, vals/lens its parameters as
 * pg_bind_row gives them, the --protocol way; then pg_sent. */
int pg_proto_send(struct engine *en, const char *const *vals, const int *lens, struct err *e);
/* Send the statement en->op_sql holds (pg_proto_set; prepared as name),
 * vals/lens its en->nparams parameters, the --protocol way, in the mode
 * the connection is in; its result is the caller's to read. */
int pg_proto_issue(struct engine *en, const char *name, const char *const *vals, const int *lens,
                   struct err *e);
/* en->op_sql with vals written into it as literals, into en->lit. */
int pg_proto_literal(struct engine *en, const char *const *vals, const int *lens, struct err *e);
void pg_proto_free(struct engine *en);

/* reads.c: op lookup and range */
/* The queries of the read op in force (none for a write), prepared, and
 * what serves each (EXPLAIN); outside the pipeline. */
int pg_prepare_reads(struct engine *en, struct err *e);
/* One query (the txn loop's op hook): its values from row, draw its
 * number (reads_pick); its rows read back and counted. */
int pg_do_read(struct engine *en, long long op, uint64_t row, uint64_t draw, struct err *e);
/* In the pipeline, read the results of the statements sent (BEGIN,
 * COMMIT) now: a read step waits for them. */
int pg_reads_take(struct engine *en, struct err *e);
/* The statistics of idxlab_t the reads' rows examined and pages read
 * come from: under a read op or a mix, their growth since the last
 * reading is added to the txn's read counters, and c says which of the
 * two are valid (a mix's writes count too: reads.c). Part of every
 * sample. */
int pg_reads_sample(struct engine *en, struct counters *c, struct err *e);
/* .settle: at a read step's end, what served each query that ran, asked
 * again (the plan the statement has after its executions). */
int pg_reads_settle(struct engine *en, struct err *e);
/* .reads: the queries and what served each (../reads.h). */
const struct reads *pg_reads(struct engine *en);
/* A mix: keep the write statement's state (after pg_proto_set of it), and
 * put it back before a write when a read took its place. */
void pg_write_keep(struct engine *en, int op);
void pg_write_restore(struct engine *en, int op);

/* txn.c */
extern const struct txn_hooks pg_txn_hooks;
/* A statement failed: the transaction is gone; none is left aborted on
 * the server. */
void pg_lost(struct engine *en);
/* A statement of the step (tag; t0: a COMMIT's begin) was sent: in the
 * pipeline, its result is read at the next drain; else now (a COMMIT is
 * then acknowledged). 0, or -1 (the transaction rolled back). */
int pg_sent(struct engine *en, enum tag tag, uint64_t t0, struct err *e);
int pg_drain(struct engine *en, struct step_out *out, struct hist *lat, struct err *e);
int pg_begin(struct engine *en, struct err *e);
int pg_commit(struct engine *en, struct txn *t, struct err *e);
int pg_drain_due(struct engine *en, int at_end, struct step_out *out, struct hist *lat,
                 struct err *e);
void pg_expect(struct engine *en, enum tag tag, uint64_t t0);
/* The COMMITs a drain without out acknowledged (held): counted into out
 * and lat now. */
void pg_held_count(struct engine *en, struct step_out *out, struct hist *lat);
/* The step's edges (engine.h): into the pipeline; after a finish, the
 * lagging statistics land. */
int pg_step_start(struct engine *en, struct err *e);
int pg_finish_start(struct engine *en, struct err *e);
int pg_finish_end(struct engine *en, struct err *e);

/* stats.c */
void pg_carry_table_counters(struct engine *en);
int pg_sample_fpi(struct engine *en);
int pg_sample(struct engine *en, struct counters *c, struct err *e);
extern const struct engine_stats pg_stats; /* .stats: stats.c's table */
int pg_settle(struct engine *en, struct err *e);
int pg_sizes(struct engine *en, struct sizes *s, struct err *e);

/* catalog.c: --schema-from, a user's table's shape, read-only */
struct table_shape;
int pg_reads_source(const char *source);
int pg_read_shape(const char *source, const char *table, struct table_shape *t, struct err *e);
/* How a sample reads a column of order kind (catalog.c's table, kind >= 1):
 * the column is read as pre "column" post, so that max() and < order it as
 * its btree does. */
void pg_sample_read(int kind, const char **pre, const char **post);

/* sample.c: each sampled column's moves (shape_col s_up, s_down, s_atmax,
 * s_atmin, sampled, s_distinct) from a bounded sample of nsp.rel's rows in
 * the heap's order, kinds[i] the order kind of column i (0: not sampled);
 * t->stats_from says it, a note when there is none. */
void pg_sample_order(PGconn *c, const char *nsp, const char *rel, struct table_shape *t,
                     const int *kinds);

/* statements.c: the statements pg_stat_statements has most calls of that
 * name table rel, as notes of t to write query lines from (never run);
 * a note when the source has no such view to read. */
void pg_top_statements(PGconn *c, const char *rel, struct table_shape *t);

/* rows.c: append printf text to buf (len bytes) at *n, never past its end. */
__attribute__((format(printf, 4, 5))) void pg_buf_add(char *buf, size_t len, size_t *n,
                                                      const char *fmt, ...);

#endif
