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

/* The spec language's words for each type and order (schema_file.c). */
extern const char *const schema_type_words[COL_TYPE_COUNT];
extern const char *const schema_order_words[ORD_COUNT];

#endif
