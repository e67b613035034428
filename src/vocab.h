/* vocab.h - the words the knobs' values stand for, below the knob table:
 * the engines, key orders, primary-key kinds, sync and journal modes, the
 * operations and load paths, COMMIT_ALL, PREFILL_AUTO and the indexes
 * words; the knobs' ids and struct knobs, a setting as plain numbers.
 * Code that only needs a word (the key generator, the rowset, the
 * terminal, the table spec) includes this, not knobs.h; the knob table
 * (knobs.h) maps each to its name and range. */
#ifndef IDXLAB_VOCAB_H
#define IDXLAB_VOCAB_H

#include "engines/engine_list.h"

/* Values of the engine knob (engine_table[] is indexed by them), from the
 * one list of engines. */
#define KNOBS_ENGINE_KIND(id, name, package) E_##id,
enum engine_kind { ENGINE_LIST(KNOBS_ENGINE_KIND) E_COUNT };
#undef KNOBS_ENGINE_KIND

/* Choice values (indexes into the choices lists). */
enum key_order { KO_SEQ, KO_RAND, KO_FEW, KO_UUID7, KO_UUID4 };
enum pk_kind { PK_INT, PK_UUID7, PK_UUID4 };
enum sync_mode { SYNC_OFF, SYNC_NORMAL, SYNC_FULL, SYNC_EXTRA };
enum journal_mode { J_DELETE, J_TRUNCATE, J_WAL, J_MEMORY, J_OFF };
enum index_build { BUILD_BEFORE, BUILD_AFTER };
enum load_kind { LOAD_INSERT, LOAD_MULTIROW, LOAD_COPY, LOAD_COUNT };
/* --protocol: how a statement per row reaches the server (pgbench's -M) */
enum protocol_kind { PROTO_SIMPLE, PROTO_EXTENDED, PROTO_PREPARED };
/* the writes, then the reads (issue 22): a lookup runs the table's queries,
 * a range an ordered run of range-rows rows (schema_read_queries) */
enum op_kind {
	OP_INSERT,
	OP_UPDATE,
	OP_UPDATE_INDEXED,
	OP_UPDATE_KEYS,
	OP_DELETE,
	OP_LOOKUP,
	OP_RANGE,
	OP_COUNT
};
#define OP_READS(op) ((op) == OP_LOOKUP || (op) == OP_RANGE)
/* Sets of ops, bits 1u << op (a mix's, mix.h's mix_ops): the writes, the
 * updates among them. */
#define OPS_WRITES  ((1u << OP_LOOKUP) - 1)
#define OPS_UPDATES (1u << OP_UPDATE | 1u << OP_UPDATE_INDEXED | 1u << OP_UPDATE_KEYS)
enum format_kind { FMT_TEXT, FMT_CSV, FMT_JSON };
enum theme_kind { THEME_AUTO, THEME_DARK, THEME_LIGHT, THEME_HIGH_CONTRAST };
#define COMMIT_ALL   0LL  /* commit = all: one transaction for the step */
#define PREFILL_AUTO -1LL /* prefill = auto: rows for update/delete, else 0 */
/* indexes = table | all | without: the table's own list, with the
 * candidates (--add-index), without what --drop-index names; a step's
 * knobs hold the count (plan_step resolves them, whatif_indexes) */
#define INDEXES_TABLE   -1LL
#define INDEXES_ALL     -2LL
#define INDEXES_WITHOUT -3LL

/* The knobs by name (knob_table[] in knobs.h has a row for each, in this
 * order) and a setting as plain numbers: the words of a setting, so the
 * table spec (schema.h) and the engines read a value without the table. */
enum knob_id {
	K_ENGINE,
	K_DSN,
	K_INDEXES,
	K_KEY_ORDER,
	K_PK,
	K_CACHE,
	K_FILLFACTOR,
	K_CHECKPOINT,
	K_COMMIT,
	K_SYNC,
	K_JOURNAL,
	K_OP,
	K_ROWS,
	K_PREFILL,
	K_PAYLOAD,
	K_SEED,
	/* the table model: after the others, so the dashboard's slider rows and a
	 * sweep's order stay as they were */
	K_SCHEMA,
	K_INDEX_BUILD,
	K_LOAD,
	K_VACUUM,
	/* the client protocol (PostgreSQL's): after the table model's */
	K_PROTOCOL,
	K_PIPELINE,
	K_DURATION, /* a step's time bound (pgbench -T) */
	/* the reads (issue 22) */
	K_MISS,       /* the share of lookups that find nothing */
	K_RANGE_ROWS, /* rows an op range reads */
	K_MIX,        /* ops drawn by weight (mix.h) */
	K_READ_SHARE, /* the dashboard's slider: % of lookups beside the op */
	K_QUERIES,    /* which of the table's query lines a read runs */
	/* the question as a verb (whatif.h): candidates for the index list */
	K_ADD_INDEX,
	K_DROP_INDEX,
	/* run options: not part of the workload, never swept */
	K_FORMAT,
	K_INTERVAL,
	K_INTERVAL_ROWS,
	K_SCALE,
	K_PROBES,
	K_WARMUP,
	K_REPEAT,
	K_PROGRESS,
	K_QUIET,
	K_VERBOSE,
	K_REFRESH,
	K_ASCII,
	K_NO_COLOR,
	K_NO_MOUSE,
	K_PRESENTER,
	K_PRESENTER_METRICS,
	K_THEME,
	K_AB_PERIOD,
	K_COUNT
};

/* One value per knob: a complete setting. */
struct knobs {
	long long v[K_COUNT];
	const char *dsn; /* borrowed: owned by the plan that made this */
};

#endif
