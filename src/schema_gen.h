/* schema_gen.h - a generated column's expression (`column NAME TYPE ORDER
 * generated (EXPR) [stored]`).
 *
 * The expression comes from outside (a spec file, or a user's catalog
 * through --schema-from) and never reaches DDL as it came: it is parsed in
 * a small grammar idxlab owns and written back from its parse by idxlab,
 * for each engine's dialect. The grammar: the table's columns (not id,
 * not another generated column), whole and decimal numbers, single-quoted
 * text of SCHEMA_PRED_CHARS-like characters (a-z A-Z 0-9 space _ . : @ /
 * + -), the operators + - * / and || (|| mixed with arithmetic only inside
 * parentheses: the engines rank them differently), unary minus,
 * parentheses, the functions lower, upper, length, abs (one argument) and
 * coalesce (2 to 4), and a cast ::text, ::integer, ::bigint, ::numeric,
 * ::smallint or ::character varying (how PostgreSQL's catalog writes an
 * implicit one). Every binary operation is written in parentheses, so the
 * engines' precedence never matters; on PostgreSQL a division is by
 * NULLIF(divisor, 0) (a NULL, as SQLite gives, not an error). */
#ifndef IDXLAB_SCHEMA_GEN_H
#define IDXLAB_SCHEMA_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "schema.h"
#include "schema_idx.h"

enum gen_dialect { GEN_SPEC, GEN_PG, GEN_SQLITE };

/* The parse: a tree of at most GEN_NODES nodes, each argument a node's
 * index. */
#define GEN_NODES 48
#define GEN_ARGS  4
enum gen_kind { G_COL, G_NUM, G_STR, G_NEG, G_BIN, G_FN, G_CAST };
enum gen_fn { GF_LOWER, GF_UPPER, GF_LENGTH, GF_ABS, GF_COALESCE };
enum gen_cast { GC_TEXT, GC_VARCHAR, GC_INTEGER, GC_BIGINT, GC_SMALLINT, GC_NUMERIC };

struct gnode {
	enum gen_kind k;
	char op;   /* G_BIN: + - * / | (||) */
	int which; /* G_FN: enum gen_fn; G_CAST: enum gen_cast; G_COL: the column */
	int paren; /* written in parentheses in the text */
	int nargs; /* G_NEG, G_CAST: 1; G_BIN: 2; G_FN: its arguments */
	int arg[GEN_ARGS];
	char text[SCHEMA_PRED_TEXT]; /* G_NUM, G_STR */
};

struct gen_tree {
	struct gnode n[GEN_NODES];
	int nn, root;
};

/* Parse text as an expression over s's columns (look finds them, as
 * schema_idx.h's parsers do) and write its canonical spelling (the spec
 * language's: plain column names) into out (len bytes); -1 and why. */
int schema_gen_parse(const struct schema *s, const char *text, schema_idx_lookup *look, void *ctx,
                     char *out, size_t len, struct err *e);

/* Column col's expression as dialect d writes it (columns spelt by
 * name(col, nctx)) into buf; -1 and why when it does not parse (then
 * schema_check refuses the spec: nothing else builds DDL from it). */
int schema_gen_sql(const struct schema *s, int col, enum gen_dialect d, schema_idx_name *name,
                   const void *nctx, char *buf, size_t len, struct err *e);

/* After the word `generated` in a column line: (EXPR) and an optional
 * stored or virtual, read from *rest (moved past them) into c's gen and
 * gen_stored; the expression over the columns of s declared above. */
int schema_gen_words(const struct schema *s, struct column *c, char **rest, struct err *e);

/* Is column col of s's expression one idxlab writes (it parses, in its
 * array, not on id, not on the column op update changes)? schema_check. */
int schema_gen_check(const struct schema *s, int col, struct err *e);

/* Column col's expression parsed into t (-1 and why when it does not). */
int schema_gen_tree(const struct schema *s, int col, struct gen_tree *t, struct err *e);

/* Does every generated column of s stay within its types on PostgreSQL
 * under k, in a table of rows rows whose updates reach version vmax (0:
 * inserts only)? Interval arithmetic over the values idxlab writes in the
 * columns it reads (schema_value_span), each operation in the type
 * PostgreSQL gives it (int4, int8, numeric), and the result in the
 * column's type: -1 naming the column, how far it reaches and what to do,
 * where the server would stop the run with "out of range"
 * (schema_gen_fit.c). */
int schema_gen_fits(const struct schema *s, const struct knobs *k, uint64_t rows, uint64_t vmax,
                    struct err *e);

/* The engines that compute generated columns (SQLite, PostgreSQL) never
 * write one: cols (n of them, at most SCHEMA_COLS_MAX) without s's
 * generated columns, each replaced by the columns its expression reads
 * that cols lacks (an update of it updates those); the new count. */
int schema_gen_skip(const struct schema *s, int *cols, int n);

#endif
