/* schema_idx.h - what an index may hold beyond plain columns: keys that
 * are lower(col) or upper(col) (expression indexes) and a WHERE of terms
 * joined by AND (partial indexes), each term `COL op CONSTANT` (op one of
 * = <> != < <= > >=) or `COL is [not] null`.
 *
 * The text comes from outside (a spec file, or a user's catalog through
 * --schema-from): it is parsed into struct index_spec (schema.h) and every
 * SQL idxlab runs is written back from that parsed form by the functions
 * below (schema_idx_sql.c; the parser is schema_idx.c); the text itself
 * never reaches DDL. The parser reads the SQL a
 * catalog gives (PostgreSQL's pg_get_expr: casts, parentheses, quoted
 * names) as well as the spec language's own spelling; what it does not
 * accept fails with a message that says what it holds. */
#ifndef IDXLAB_SCHEMA_IDX_H
#define IDXLAB_SCHEMA_IDX_H

#include <stddef.h>

#include "err.h"
#include "schema.h"

/* The characters a text constant may hold: what idxlab writes between
 * single quotes, never a quote or a backslash. */
#define SCHEMA_PRED_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _.:@/+-"

/* The words: lower/upper by enum idx_fn, = <> ... is not null by enum
 * pred_op (schema_idx_sql.c). */
extern const char *const schema_idx_fn_words[IDX_FN_COUNT];
extern const char *const schema_idx_op_words[PRED_OP_COUNT];

/* The spec column called name (len bytes; quoted: name is the text
 * between the double quotes, "" already made "); < 1: none (-1) or one
 * that cannot be used (the id: 0). */
typedef int schema_idx_lookup(const char *name, size_t len, int quoted, void *ctx);

/* The lookup of a spec's own columns: ctx is the struct schema; a name
 * not quoted matches in either case, as SQL reads it. */
int schema_idx_spec_col(const char *name, size_t len, int quoted, void *ctx);

/* How an engine spells spec column col in SQL (quoted as it needs). */
typedef const char *schema_idx_name(int col, const void *ctx);

/* Parse text as the key list of x ("a, lower(b)"): x->ncols, cols, fn.
 * s gives the columns' types (lower() takes a text column). */
int schema_idx_parse_keys(const struct schema *s, const char *text, schema_idx_lookup *look,
                          void *ctx, struct index_spec *x, struct err *e);

/* Parse text as the WHERE of x: x->npred, pred. A constant is fitted to
 * its column's type (an integer column compares with integers, a text
 * column with text); other types take only `is [not] null`. */
int schema_idx_parse_where(const struct schema *s, const char *text, schema_idx_lookup *look,
                           void *ctx, struct index_spec *x, struct err *e);

/* Does x's parsed part hold only what the writers below may write (known
 * functions and operators, constants of SCHEMA_PRED_CHARS, columns of s
 * of the right type)? schema_check calls it for every index. */
int schema_idx_check(const struct schema *s, const struct index_spec *x, struct err *e);

/* Key j of x as SQL (`lower("email")`), and x's WHERE as SQL without the
 * word WHERE ("" for a full index): columns spelt by name(col, ctx). */
void schema_idx_key_sql(const struct index_spec *x, int j, schema_idx_name *name, const void *ctx,
                        char *buf, size_t len);
void schema_idx_where_sql(const struct index_spec *x, schema_idx_name *name, const void *ctx,
                          char *buf, size_t len);

/* The name an index line gives x when it says none: idxlab_ and its keys
 * (idxlab_country_created_at, idxlab_lower_email); "" when that does not
 * fit or is one of idxlab's own names. */
void schema_idx_default_name(const struct schema *s, const struct index_spec *x, char *out,
                             size_t len);

/* Does x hold more than plain columns (an expression key, a WHERE)? */
int schema_idx_special(const struct index_spec *x);

/* On an engine without expression indexes (and, where_built 0, without
 * x's WHERE): the words that say how x is built there instead, for the
 * event log ("" when nothing differs). An expression key is built on its
 * column: idxlab's text values are digits and lower-case letters, so
 * lower(c) is c and upper(c) keeps c's order and length - the same keys'
 * shape. A WHERE left out makes it a full index: every row enters it. */
void schema_idx_unbuilt(const struct schema *s, const struct index_spec *x, const char *engine,
                        int where_built, char *buf, size_t len);

/* Is term m one MongoDB's partialFilterExpression says (=, <, <=, >, >=,
 * is not null: $exists)? <> and is null it does not take. */
int schema_idx_mongo_term(const struct pred_term *m);

#endif
