/* schema.h - the table spec: typed columns, a value order per column, and
 * an ordered list of indexes (single or composite).
 *
 * Every engine builds the table a spec describes, named idxlab_t whatever
 * the spec calls it (idxlab only ever touches what it created):
 *
 *   id        the primary key: column 0 (bigint seq = row + 1, or a uuid)
 *   cols 1..  the value columns, each with a type and a value order
 *   hot       an int column no index ever covers: `op update` adds 1 to it
 *   payload   bytes of filler, the payload knob's length
 *
 * and the first N indexes of its list, N the indexes knob. Values are pure
 * functions of (seed, column, row, version) - schema_value() - so every
 * engine writes the same rows and an update can find row n again. The
 * built-in spec "default" is idxlab's original table (k1..k8 following the
 * key-order knob, index i on ki): its values are those keys_int() and
 * keys_uuid() always gave.
 *
 * Specs are immutable once registered; the schema knob's value is a
 * registry index (schema_get), so struct knobs stays a plain value and a
 * sweep over specs is a sweep over that knob. */
#ifndef IDXLAB_SCHEMA_H
#define IDXLAB_SCHEMA_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "keys.h"
#include "vocab.h"

#define SCHEMA_NAME_MAX    48  /* an identifier: [a-z_][a-z0-9_]*, < this */
#define SCHEMA_COLS_MAX    256 /* id + 255 value columns */
#define SCHEMA_IDX_MAX     16
#define SCHEMA_IDX_COLS    8 /* columns in one composite index */
#define SCHEMA_TEXT_MAX    256
#define SCHEMA_NUMERIC_MAX 18   /* numeric(P,S): P digits an int64 holds */
#define SCHEMA_FEW_KNOB    8    /* distinct values of key order "few" (KEYS_FEW) */
#define SCHEMA_ZIPF_N      1000 /* distinct values of zipf:S when no N is given */
#define SCHEMA_PER_MAX     1e9  /* seq:R, desc:R, late:P:R: R at most */
#define SCHEMA_LATE_MAX    0.5  /* late:P: at most half the rows late */
#define SCHEMA_LATE_BACK   1000 /* late:P: a late row's value is 1..this rows old */
#define SCHEMA_GEN_MAX     128  /* a generated column's expression, as idxlab writes it */
#define SCHEMA_PART_MAX    128  /* partitions of a partitioned table */
#define SCHEMA_PART_KEYS   4    /* columns in a partition key */
/* A derived spec's notes: about 120 bytes for each column's order, type and
 * NULLs; past that the last line counts what did not fit. */
#define SCHEMA_NOTES_SIZE 32768
/* schema_write()'s text of any spec: a column's line (with its in:LO..HI
 * and a generated expression), an index's, the partition line. */
#define SCHEMA_TEXT_SIZE                                                                           \
	((SCHEMA_COLS_MAX + 4) * (208 + SCHEMA_GEN_MAX) + SCHEMA_IDX_MAX * 1200 +                  \
	 SCHEMA_QUERY_MAX * (SCHEMA_QUERY_TEXT + 16) + 512)

enum col_type {
	COL_INT,       /* 32-bit integer */
	COL_BIGINT,    /* 64-bit integer */
	COL_TEXT,      /* exactly len bytes of printable ASCII */
	COL_UUID,      /* 16 bytes, RFC 9562 layout */
	COL_TIMESTAMP, /* microseconds since 1970-01-01 UTC, in an int64 */
	/* The types a user's table has besides (issue 19): */
	COL_NUMERIC,     /* numeric(prec,scale): an int64 of 10^-scale units, |i| < 10^prec */
	COL_BOOL,        /* 0 or 1 */
	COL_DATE,        /* days since 1970-01-01 */
	COL_TIMESTAMPTZ, /* as COL_TIMESTAMP, a time zone's type where the engine has one */
	COL_TYPE_COUNT
};

enum col_order {
	ORD_KNOB,  /* follows the key-order knob (id: the pk knob) */
	ORD_SEQ,   /* grows with the row; an update moves it past every row */
	ORD_RAND,  /* uniform over the type's range */
	ORD_FEW,   /* n distinct values, uniform */
	ORD_ZIPF,  /* n distinct values, rank r with weight 1/r^s: hot keys */
	ORD_UUID7, /* time-ordered uuid: a ms clock advancing every 64 rows */
	ORD_UUID4, /* random uuid */
	ORD_DESC,  /* falls with the row; an update moves it below every row */
	ORD_LATE,  /* seq, but a share of rows takes a value from up to
	            * SCHEMA_LATE_BACK rows before it (late arrivals) */
	ORD_COUNT
};

struct column {
	char name[SCHEMA_NAME_MAX];
	enum col_type type;
	int len;         /* COL_TEXT: its length in bytes (1..SCHEMA_TEXT_MAX) */
	int prec, scale; /* COL_NUMERIC: digits in all, digits after the point */
	double nulls;    /* the share of rows whose value is NULL, 0..1 (`null:28%`) */
	enum col_order order;
	uint64_t n;  /* ORD_FEW, ORD_ZIPF: distinct values */
	double s;    /* ORD_ZIPF: the exponent */
	double per;  /* ORD_SEQ, ORD_DESC, ORD_LATE: rows per value, 1..SCHEMA_PER_MAX
	             * (0: 1, a value per row): value = f(floor(row / per)) */
	double late; /* ORD_LATE: the share of late rows, (0, SCHEMA_LATE_MAX] */
	/* A generated column (`generated (EXPR) [stored]`, schema_gen.h): its
	 * expression as idxlab re-wrote it from its parse (spec names, one
	 * canonical spelling); "" for an ordinary column. */
	char gen[SCHEMA_GEN_MAX];
	int gen_stored; /* STORED, else VIRTUAL where the engine has both */
	/* `in:LO..HI` (int, bigint, numeric; not knob, not id): the order's
	 * values placed in [lo, hi] (numeric: in units of 10^-scale), as a
	 * source's sample saw them: rand uniform over it, few:N and zipf spread
	 * over it, seq and late up from lo, desc down from hi (a growing column
	 * leaves it as the table grows, within its type). ranged 0: the type's
	 * own values, from 0. */
	int ranged;
	int64_t lo, hi;
};

/* An index key may be a function of its column (an expression index),
 * from a small allow-list whose SQL idxlab writes itself. */
enum idx_fn { IDX_FN_NONE, IDX_FN_LOWER, IDX_FN_UPPER, IDX_FN_COUNT };

/* One term of a partial index's WHERE (terms are joined by AND): a column
 * compared with a constant, or tested for NULL. The constant is kept
 * parsed (an integer, or text of SCHEMA_PRED_CHARS only) and written back
 * by idxlab: no text from outside reaches DDL (schema_idx.h). */
enum pred_op {
	PRED_EQ,
	PRED_NE,
	PRED_LT,
	PRED_LE,
	PRED_GT,
	PRED_GE,
	PRED_NULL,
	PRED_NOT_NULL,
	PRED_OP_COUNT
};
#define SCHEMA_PRED_MAX  4
#define SCHEMA_PRED_TEXT 48

struct pred_term {
	int col; /* into schema.cols; never 0 (id) */
	enum pred_op op;
	int is_text;              /* the constant is s (text), else i */
	int is_bool;              /* a boolean column: i is 1 (true) or 0 (false), = or <> */
	long long i;              /* PRED_EQ .. PRED_GE, not is_text */
	char s[SCHEMA_PRED_TEXT]; /* PRED_EQ .. PRED_GE, is_text */
};

struct index_spec {
	char name[SCHEMA_NAME_MAX]; /* the index's name in the engine: idxlab_k1, ... */
	int ncols;
	int cols[SCHEMA_IDX_COLS]; /* into schema.cols; never 0 (id) */
	int unique;
	unsigned char fn[SCHEMA_IDX_COLS]; /* enum idx_fn of each key: lower(col) */
	int npred;                         /* terms of its WHERE; 0: a full index */
	struct pred_term pred[SCHEMA_PRED_MAX];
};

/* A partitioned table (`partition by hash|range|list (COLS) N`): built so
 * on PostgreSQL (N partitions whose bounds cover the values idxlab writes,
 * schema_part.h); one table on the engines without partitioning. */
enum part_kind { PART_NONE, PART_HASH, PART_RANGE, PART_LIST, PART_KIND_COUNT };

struct part_spec {
	enum part_kind kind;
	int nkeys;                  /* range and list: 1 */
	int cols[SCHEMA_PART_KEYS]; /* into schema.cols */
	int n;                      /* partitions, 1..SCHEMA_PART_MAX */
};

/* A query the table is read with (issue 22): a `query NAME: COL = ? [and
 * COL2 > ?] [order by COL [desc]] [limit N]` line of a spec, or one idxlab
 * makes for op lookup/range when the spec has none (schema_read_queries).
 * Every ? is bound, per query, to a value of a row present (or of none,
 * --miss); idxlab writes the SQL itself from these fields. */
#define SCHEMA_QUERY_MAX   8
#define SCHEMA_QUERY_TERMS 2
#define SCHEMA_LIMIT_MAX   100000
/* schema_query_text()'s room for any query: its name, 3 column names, the
 * words between them */
#define SCHEMA_QUERY_TEXT (4 * SCHEMA_NAME_MAX + 96)
enum query_cmp { QC_EQ, QC_LT, QC_LE, QC_GT, QC_GE, QC_COUNT };
extern const char *const schema_query_cmp[QC_COUNT]; /* "=", "<", ... */

struct query_term {
	int col; /* into schema.cols (0: id) */
	enum query_cmp cmp;
};

struct query_spec {
	char name[SCHEMA_NAME_MAX]; /* the line's NAME ("by_email"); idxlab's: "lookup_COL" */
	int nterms;                 /* 1..SCHEMA_QUERY_TERMS, joined by AND */
	struct query_term term[SCHEMA_QUERY_TERMS];
	int order_col;   /* into schema.cols; -1: no order by */
	int order_desc;  /* order by ... desc */
	long long limit; /* 1..SCHEMA_LIMIT_MAX; 0: none */
	int guessed;     /* --schema-from proposed it (one per index's leading column) */
};

struct schema {
	char name[SCHEMA_NAME_MAX]; /* "default", "users", a file's base name */
	char source[512];           /* where it came from: "built-in", a path, SOURCE:TABLE */
	char hot[SCHEMA_NAME_MAX];  /* the never-indexed column `op update` changes; "": none */
	int hot_col;                /* > 0: hot is that value column (no column of its own) */
	int no_payload;             /* `payload none`: a payload column only if asked for */
	int id_unindexed;           /* `id ... unindexed`: id only locates a row; the table's
	                             * key is an index of the list (no btree on id where an
	                             * engine can do without one: schema_id_indexed) */
	int without_rowid;          /* `without rowid`: the rows are kept in the first index's
	                             * key, the table's primary key (schema_clustered) */
	int ncols;                  /* cols[0] is id */
	struct column cols[SCHEMA_COLS_MAX];
	int nindexes;
	struct index_spec idx[SCHEMA_IDX_MAX];
	char notes[SCHEMA_NOTES_SIZE]; /* how a derived spec was guessed (--schema-from),
	                                * a note a line (shape_note); "" */
	/* A spec with --add-index / --drop-index (whatif.h): extends is the
	 * registry index + 1 of the table it adds to (0: none; its label is
	 * that table's); idx[0, ntable) is the table's own list, the ndrop that
	 * --drop-index names last in it, the candidates after it. */
	long long extends;
	int ntable, ndrop;
	/* --schema-from: the source's rows (the catalog's count or estimate)
	 * and the engine that read it + 1 (0: not read from a source). */
	double source_rows;
	int source_engine;
	struct part_spec part; /* kind PART_NONE: one table */
	int nqueries;          /* its `query` lines, in order */
	struct query_spec q[SCHEMA_QUERY_MAX];
};

/* One value, as schema_value() makes it. */
struct value {
	enum col_type type;
	int null;   /* NULL (the column's null share): i 0, len 0 */
	int scale;  /* COL_NUMERIC: i is in units of 10^-scale */
	int64_t i;  /* the integer types, numeric's units, bool, date, timestamps */
	size_t len; /* COL_TEXT, COL_UUID: bytes in b */
	unsigned char b[SCHEMA_TEXT_MAX];
};

/* Does the table under k keep an index on its id? Always, but for an
 * `unindexed` id under op insert (the other ops find rows by id). */
int schema_id_indexed(const struct schema *s, const struct knobs *k);

/* Does the table under k keep its rows in its first index's key? A
 * `without rowid` spec whose id is unindexed under k and whose key is
 * built (indexes >= 1). SQLite builds it so (a WITHOUT ROWID table, the
 * first index no btree of its own); the other engines an ordinary table
 * and the key's index, and say so (schema_say_unbuilt). */
int schema_clustered(const struct schema *s, const struct knobs *k);

/* Can s keep its rows in its first index (`without rowid`): an unindexed
 * id, and a first index that is unique, on plain columns (no lower(), no
 * WHERE), none NULL or generated? -1 and what to write otherwise
 * (schema_key.c; schema_check, and a spec file's `without rowid` line). */
int schema_key_check(const struct schema *s, struct err *e);

/* The spec a knob setting runs: k's schema knob resolved (never NULL; k
 * NULL: the default table's). */
const struct schema *schema_of(const struct knobs *k);

/* The spec registered as index i (the schema knob's value); NULL if none. */
const struct schema *schema_get(long long i);

/* Resolve text - a built-in name or a spec file's path - to its registry
 * index, loading and checking the file the first time (errors name
 * file:line and, for a misspelt word, what was meant). */
int schema_load(const char *text, long long *out, struct err *e);

/* Can text name a spec (--schema, --schema-from, schema =)? One line of
 * text that fits where it is kept and that a config file reads back as it
 * is (no ',', no '#' after a space, no space at either end), so
 * --print-config writes it back as it was given; else -1 and why. */
int schema_text_ok(const char *text, struct err *e);

/* Register a spec made elsewhere (--schema-from); its index into *out. */
int schema_register(const struct schema *s, long long *out, struct err *e);

/* The text that names spec v (a built-in's name, a file's path, SOURCE:TABLE);
 * NULL past the last one registered. */
const char *schema_label(long long v);

/* The indexes knob's largest value under k: its table's index count; and
 * the words that say so ("the default table has 8 indexes"). */
long long schema_index_max(const struct knobs *k);
const char *schema_max_why(const struct knobs *k);

/* The indexes knob's why under k for a table other than the default one:
 * "... the first N of the orders table's 3: (customer_id), (created_at,
 * id), ..."; NULL for the default table (the knob's own why says it). */
const char *schema_indexes_why(const struct knobs *k);

/* The names of the built-in specs, NULL-terminated (--help, the man page). */
extern const char *const schema_builtin_names[];

/* Column col's type under k: a knob-ordered value column is a uuid when the
 * key-order knob is uuid7/uuid4; a knob-ordered id is one when pk is. */
enum col_type schema_type(const struct schema *s, const struct knobs *k, int col);

/* Column col's order under k (ORD_KNOB resolved; never ORD_KNOB). */
enum col_order schema_order(const struct schema *s, const struct knobs *k, int col, uint64_t *n);

/* Row `row`'s value of column col; version > 0: the value the version-th
 * update writes. Column 0 is the id (version ignored). */
void schema_value(const struct schema *s, const struct knobs *k, int col, uint64_t row,
                  uint64_t version, struct value *v);

/* The fast road to schema_value() for the engines' per-row path: on the
 * default table (k1..k8 under the key-order knob, no NULLs) a column's
 * value is keys.c's own, read here without the spec lookups. The one other
 * reading of key_order besides schema_type()/schema_order(); an engine
 * fills it when its knobs change (setup, apply), never reads key_order. */
struct schema_fast {
	uint64_t seed;
	enum key_order order;
	int uuid; /* the values are 16 bytes (uuid7, uuid4): schema_fast_uuid */
};

/* 1 with f filled when spec s under k takes the fast road (the default
 * table), else 0 (bind what schema_value() gives). */
int schema_fast_keys(const struct schema *s, const struct knobs *k, struct schema_fast *f);

/* Column col's (1..8) value for row at version, as schema_value() gives it,
 * when !f->uuid: an integer. */
static inline int64_t schema_fast_int(const struct schema_fast *f, int col, uint64_t row,
                                      uint64_t version)
{
	return keys_int(f->seed, f->order, col, row, version);
}

/* The same when f->uuid: 16 bytes into out. */
static inline void schema_fast_uuid(const struct schema_fast *f, int col, uint64_t row,
                                    uint64_t version, unsigned char out[KEYS_UUID_LEN])
{
	keys_uuid(f->seed, f->order == KO_UUID7, col, row, version, out);
}

/* The least and greatest values column col of s takes under k in a table
 * of rows rows whose updates reach version vmax (0: none), as numbers
 * (a numeric's units divided out) into *lo and *hi; -1 when its type under
 * k is not a number (text, uuid, bool, date, timestamps). What a check of a
 * generated column's arithmetic reads (schema_gen.h). */
int schema_value_span(const struct schema *s, const struct knobs *k, int col, uint64_t rows,
                      uint64_t vmax, long double *lo, long double *hi);

/* A date or time value as text, for an engine without the type (SQLite):
 * a date 'YYYY-MM-DD' as date() writes it, a timestamp 'YYYY-MM-DD
 * HH:MM:SS' (UTC) as datetime() does; written into v->b (v->len). */
void schema_time_text(struct value *v);

/* How many distinct values few:N and zipf:S:N may have in numeric column
 * c (their values are N.99-like: whole units and the largest fraction). */
uint64_t schema_numeric_room(const struct column *c);

/* The columns `op` writes besides id, hot and payload, into cols (at most
 * SCHEMA_COLS_MAX); how many. update-indexed: the first column of the first
 * index (none without one); update-keys: every value column; insert: all;
 * update: the hot value column (hot_col) when the spec names one, else
 * none (idxlab's own hot column, or none at all). */
int schema_op_cols(const struct schema *s, long long op, int *cols);

/* Does the table have idxlab's own int column `hot` (op update adds 1 to
 * it)? Not when the spec says `hot none` or names a value column. */
int schema_has_hot(const struct schema *s);

/* Does the table under k have a payload column? Always, unless the spec
 * says `payload none` (a derived table): then only when the payload knob
 * is above 0 (--payload N; the knob defaults to 0 for such a spec). */
int schema_has_payload(const struct schema *s, const struct knobs *k);

/* Why `op update` has nothing to write on s (no hot column and every
 * value column indexed): a message naming the table. */
const char *schema_no_update_why(const struct schema *s);

/* Is name one of idxlab's own objects (idxlab_t, its primary key, the
 * marker table, a partitioned copy's partitions idxlab_t_pN), never an
 * index's? */
int schema_reserved(const char *name);

/* text as a name the spec rules admit ([a-z_][a-z0-9_]*): ASCII letters
 * lowered, any other byte but a digit or _ written _, prefix in front when
 * it would not start with a letter or _; cut to fit len. */
void schema_name_from(const char *text, const char *prefix, char *out, size_t len);

/* The column `op update` changes when the table has none of idxlab's own:
 * the last value column no index of s's list covers, not a partition key
 * nor a generated column, or none (hot ""). */
void schema_pick_hot(struct schema *s);

/* Does s hold only what the engines may build DDL from: names the spec
 * rules admit (idxlab_ for an index, none twice, none of idxlab's own),
 * counts and column numbers within the arrays, known types and orders?
 * Every spec is checked so when it is registered, whoever made it. */
int schema_check(const struct schema *s, struct err *e);

/* Say in the event log what engine (its --engine word) builds of s
 * otherwise than s says: a partitioned table as one table, a generated
 * column as an ordinary one (schema_part.c). Nothing when it builds all. */
void schema_say_unbuilt(const struct schema *s, const char *engine);

/* Its part for a `without rowid` spec (schema_key.c): an engine but
 * SQLite builds an ordinary table beside the key's index. */
void schema_key_unbuilt(const struct schema *s, const char *engine);

/* The queries op (OP_LOOKUP, OP_RANGE) runs on s under k, into out (at
 * most SCHEMA_QUERY_MAX); how many (>= 1). lookup: the spec's query lines,
 * else equality on the first index's leading column, else on the id;
 * range: the first term's column of each (else that column) as COL >= ?
 * order by COL limit the range-rows knob. */
int schema_read_queries(const struct schema *s, const struct knobs *k, long long op,
                        struct query_spec *out);

/* --queries: all, or names of s's query lines by commas, to the knob's
 * value (a registry index, 0: all) and back; schema_queries_check: does s
 * have every query v names? (-1 and which it lacks). */
int schema_queries_resolve(const char *text, long long *out, struct err *e);
const char *schema_queries_label(long long v);
int schema_queries_check(const struct schema *s, long long v, struct err *e);

/* The value term t binds for row (a row present), or, miss set, a value
 * no row holds on the side the term looks away from (below for =, <, <=;
 * above for >, >=), so it finds nothing (schema_value's type and layout). */
void schema_query_value(const struct schema *s, const struct knobs *k, const struct query_term *t,
                        uint64_t row, int miss, struct value *v);

/* q as a spec line says it after `query ` ("by_email: email = ? limit
 * 10"), for events, records and schema_write. */
void schema_query_text(const struct schema *s, const struct query_spec *q, char *buf, size_t len);

/* The spec as a spec file would say it (--print-config, --schema-from). */
void schema_write(const struct schema *s, char *buf, size_t len);

/* The words of the type and the order ("text(32)", "few:50", "zipf:1.1"). */
void schema_type_text(const struct column *c, char *buf, size_t len);
void schema_order_text(const struct column *c, char *buf, size_t len);
/* A column's `in:LO..HI` as the spec writes it ("in:0.50..99.99"); "" for
 * none (schema_order.c). */
void schema_range_text(const struct column *c, char *buf, size_t len);

#endif
