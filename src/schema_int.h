/* schema_int.h - between the registry (schema.c) and the spec language
 * (schema_file.c reads it, schema_text.c writes it). */
#ifndef IDXLAB_SCHEMA_INT_H
#define IDXLAB_SCHEMA_INT_H

#include "schema.h"

/* Parse a spec from text (a built-in; errors say "where:line") or a file
 * (errors say "path:line"); s is filled and checked. */
int schema_parse_text(const char *text, const char *where, struct schema *s, struct err *e);
int schema_parse_file(const char *path, struct schema *s, struct err *e);

/* A value order word (seq, few:50, late:2%:5) into c's order, n, s, per
 * and late; an error names the word and the range it takes
 * (schema_order.c). */
int schema_parse_order(const char *w, struct column *c, struct err *e);

/* The spec language's words for each type (schema_file.c) and order
 * (schema_order.c). */
extern const char *const schema_type_words[COL_TYPE_COUNT];
extern const char *const schema_order_words[ORD_COUNT];

#endif
