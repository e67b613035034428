/* schema_int.h - between the registry (schema.c) and the spec language
 * (schema_file.c reads it, schema_text.c writes it). */
#ifndef IDXLAB_SCHEMA_INT_H
#define IDXLAB_SCHEMA_INT_H

#include "schema.h"

/* Parse a spec from text (a built-in; errors say "where:line") or a file
 * (errors say "path:line"); s is filled and checked. */
int schema_parse_text(const char *text, const char *where, struct schema *s, struct err *e);
int schema_parse_file(const char *path, struct schema *s, struct err *e);

/* Can index x of s be unique: has it a column of distinct values? -1 and
 * why otherwise (schema_file.c; whatif.c's candidates too). */
int schema_unique_ok(const struct schema *s, const struct index_spec *x, struct err *e);

/* The words after `without` on a spec line: rowid, else -1 and what to
 * write (schema_key.c; spec_end checks the key once the list is read). */
int schema_key_line(struct schema *s, const char *rest, struct err *e);

/* A value order word (seq, few:50, late:2%:5) into c's order, n, s, per
 * and late; an error names the word and the range it takes
 * (schema_order.c). */
int schema_parse_order(const char *w, struct column *c, struct err *e);

/* in:LO..HI after a column's order (type and order read before it) into
 * c's ranged, lo and hi; an error names the word. schema_range_check: can
 * c hold that range (a value column of a number type, an order of its
 * own, LO <= HI within the type, few:N's N values in it); schema_check
 * runs it on every spec (schema_order.c). */
int schema_parse_range(const char *w, struct column *c, struct err *e);
int schema_range_check(const struct column *c, int is_id, struct err *e);

/* The spec language's words for each type (schema_type.c) and order
 * (schema_order.c). */
extern const char *const schema_type_words[COL_TYPE_COUNT];
extern const char *const schema_order_words[ORD_COUNT];

/* The type at first and, for a type of several words ("double precision",
 * "character varying(20)"), the words after it in *rest: lowered and joined
 * by one space into buf (len bytes). */
void schema_type_phrase(const char *first, char **rest, char *buf, size_t len);

/* The type the words w name into c (type, len, prec, scale); errors say
 * what a type is (schema_type.c). */
int schema_parse_type(const char *w, struct column *c, struct err *e);

/* A null share as the spec says it: a percentage to 0.1. */
double schema_null_percent(double share);

/* A `query` line's words after `query` into s->q[s->nqueries] (its columns
 * declared above); an error names the word and what to write. The check
 * of s->q[] schema_check runs on every spec (schema_query_file.c). */
int schema_query_line(struct schema *s, const char *rest, struct err *e);
int schema_query_check(const struct schema *s, struct err *e);

#endif
