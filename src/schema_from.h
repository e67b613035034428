/* schema_from.h - a table spec read from a table that is not idxlab's:
 * `--schema-from SOURCE:TABLE`, SOURCE an SQLite file or a PostgreSQL
 * conninfo/URI (the text after the last colon names the table).
 *
 * Read-only: an engine that can read its catalog (engine_ops.read_shape)
 * opens SOURCE read-only, fills a struct table_shape from the catalog and
 * its statistics, and closes it; nothing is ever written there. This file
 * turns the shape into a spec idxlab runs on a table of its own. The
 * reader names in the shape's notes what the copy does not reproduce
 * (foreign keys, triggers, partitioning), each with why. */
#ifndef IDXLAB_SCHEMA_FROM_H
#define IDXLAB_SCHEMA_FROM_H

#include <stddef.h>

#include "err.h"
#include "schema.h"

#define SHAPE_COLS_MAX (SCHEMA_COLS_MAX + 32) /* a few past a spec: named as left out */
#define SHAPE_IDX_MAX  32

struct shape_col {
	char name[128];     /* as the catalog spells it */
	char decl[64];      /* its declared type, for notes */
	enum col_type type; /* the nearest spec type */
	int len;            /* text: its length (declared, else the average) */
	double ndistinct;   /* distinct values; < 0: unknown */
	double correlation; /* value order vs physical order, -1..1; NAN: unknown */
	double top_freq;    /* share of rows holding the most common value; NAN */
	int pk;             /* position in the primary key (1, 2, ...); 0: none */
	int prec, scale;    /* numeric: its declared precision and scale */
	double nulls;       /* the share of its rows that are NULL; 0 when unknown */
	char type_note[96]; /* how its type was read, when that changes the answer
	                       ("a domain over integer"); "" */
	/* The evidence of its value order besides the statistics above: */
	char dflt[64];       /* its default's text as the catalog says it; "" */
	const char *counter; /* why it counts up ("INTEGER PRIMARY KEY (the rowid)",
	                      * "identity"), a static string; NULL */
	double sampled;      /* rows of a sample read in the table's order; 0: none */
	double s_up, s_down; /* of consecutive sampled rows: how often it rose, fell */
	double s_distinct;   /* distinct values in the sample (PostgreSQL: counted
	                      * only where schema_from_sample_moves(); else 0) */
	double s_atmax;      /* sampled rows (past the first) at or above every row
	                      * before them: where a growing column's index appends */
	double s_atmin;      /* ... at or below every row before them */
	int s_ranged;        /* s_min, s_max hold a number column's least and
	                      * greatest sampled values (the copy's in:LO..HI) */
	double s_min, s_max;
	char gen[256];  /* a generated column's expression as the catalog writes
	                      * it (outside text: schema_gen.h parses it); "" */
	int gen_stored; /* it is STORED there (else VIRTUAL) */
	int paged;      /* the sample is in PostgreSQL's heap order (the insertion
	                      * order page by page) and correlation is pg_stats' own,
	                      * not read from the sample (grows_page_by_page) */
};

struct shape_index {
	char name[128];
	int ncols;
	int cols[SCHEMA_IDX_COLS]; /* into table_shape.cols; unused when keys[0] */
	int unique;
	int pk;           /* the primary key's own index */
	char keys[256];   /* its keys as the catalog writes them, when one is an
	                    expression ("lower(email)"); "" */
	char where[256];  /* a partial index's predicate as the catalog writes it; "" */
	const char *skip; /* why it cannot be built ("not a btree"), or NULL */
};

struct table_shape {
	double rows; /* the catalog's estimate, or the count read */
	int ncols;
	struct shape_col cols[SHAPE_COLS_MAX];
	int nindexes;  /* in creation order, the primary key's own index among them */
	int clustered; /* the rows are kept in primary key order (WITHOUT ROWID) */
	struct shape_index idx[SHAPE_IDX_MAX];
	char stats_from[96]; /* "pg_stats", "sqlite_stat1", "a sample of 10000 rows" */
	/* A partitioned table idxlab can build so (kind PART_NONE: one table;
	 * cols into table_shape.cols; n its partitions, the DEFAULT among them). */
	struct part_spec part;
	char notes[8192]; /* what the reader guessed or left out, a note a line */
};

/* Append a note to a shape's (or a spec's) notes, escaped as err_escape
 * does (notes hold names read from the source): one note per line ('\n'
 * between them), no control character in one. A note that does not fit is
 * never cut: the last line counts the ones left out ("... and 12 more
 * notes left out (the notes hold 32768 bytes)"). */
void shape_note(char *notes, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Append notes made by shape_note elsewhere (lines, escaped already), one
 * by one as shape_note does. */
void shape_notes_add(char *notes, size_t len, const char *lines);

/* Who reads a source's shape: the engine layer (engine_read_source in
 * engines.c), handed in once at start by main, so that this module, below
 * the engines, reaches none of them. Reads TABLE of SOURCE into *t with
 * the first engine that reads such a source; returns that engine's index
 * (0 ..), -1 when the reading failed (e says why), -2 when no engine reads
 * such a source (e untouched). */
typedef int schema_source_reader(const char *source, const char *table, struct table_shape *t,
                                 struct err *e);
void schema_from_reader(schema_source_reader *fn);

/* Derive the spec of SOURCE:TABLE and register it; its registry index into
 * *out. Errors say what to do (a missing table, no engine reads SOURCE). */
int schema_from_load(const char *text, long long *out, struct err *e);

/* A derived spec whose source keeps its rows in its primary key
 * (without_rowid set, the key first in the list): kept so where the spec
 * admits it (schema_key_check), with a note on what each engine builds;
 * else without_rowid cleared and a note why (schema_key.c). */
void schema_from_key(struct schema *s);

/* The spec of shape t (a table named table), with notes on every guess
 * and on what did not fit; what it holds is bounded by the spec's arrays
 * whatever t says (exposed for the tests). */
void schema_from_derive(const struct table_shape *t, const char *table, struct schema *s);

/* The lookups a derived spec is read with until the user writes its own:
 * one `COL = ?` per index's distinct leading column (a plain column, not
 * lower(COL)), named by_COL, guessed set, at most SCHEMA_QUERY_MAX; a note
 * says they are guesses (schema_query_file.c). */
void schema_from_queries(struct schema *s);

/* The value order a column's evidence suggests (exposed for the tests):
 * its default or counter, the order of a sample (rises and falls between
 * consecutive rows), the correlation, the distinct values. What was seen
 * and what was chosen goes into why ("never decreases in 2240 sampled
 * rows, ~5.4 rows per value -> seq:5.4"); why may be NULL. */
void schema_from_order(const struct shape_col *c, double rows, struct column *out, char *why,
                       size_t wlen);

/* The range of the values a sample of c saw (s_min, s_max) as out's
 * in:LO..HI (out's type and order set): a number column's, from a sample
 * of 2 rows or more, widened to hold few:N's values; not for a generated
 * column (the engine computes it from its operands' values), a rand
 * column of one value, nor one a unique index covers (its draws would
 * collide), nor where they are the order's own values (an integer's few:N
 * over 0..N-1, seq from 0); appended to why (wlen bytes) when not NULL. */
void schema_from_range(const struct shape_col *c, struct column *out, int unique, char *why,
                       size_t wlen);

/* Does the sample of c (read in the table's order) say its order: 1 it
 * grows (its rows nearly all at or above every row before them), -1 it
 * falls, 0 it does not (random, a cycle, too few moves)? Only then does
 * the order need the sample's distinct values (s_distinct: its rows per
 * value), so a reader may count them for these columns alone. */
int schema_from_sample_moves(const struct shape_col *c);

/* The order a column's default gives its values: ORD_SEQ (a clock, a
 * sequence), ORD_UUID7 (a time-ordered uuid), ORD_UUID4 (a random one);
 * ORD_KNOB when it says nothing of the order. */
enum col_order schema_from_default(const char *dflt);

#endif
