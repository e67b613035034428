/* schema_part.h - a partitioned table in the spec language:
 *
 *   partition by hash (COL[,COL...]) N    N partitions, MODULUS N REMAINDER i
 *   partition by range (COL) N            N contiguous ranges over the values
 *                                         idxlab writes (a DEFAULT among the
 *                                         N when the column has NULLs)
 *   partition by list (COL) N             the column's values spread over
 *                                         N-1 lists and a DEFAULT
 *
 * PostgreSQL builds it so (engines/postgres/part.c); the engines without
 * partitioning build one table and say so in the event log. The bounds
 * are not in the spec: they follow from the column's type and order and
 * the rows the table starts with (its prefill; the run's rows when it
 * starts empty: schema_part_plan), the first range from MINVALUE and the
 * last to MAXVALUE, so whatever the rows, every one has a partition. */
#ifndef IDXLAB_SCHEMA_PART_H
#define IDXLAB_SCHEMA_PART_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "schema.h"

/* The words of each strategy ("hash", "range", "list"); [PART_NONE] "". */
extern const char *const schema_part_words[PART_KIND_COUNT];

/* The rest of a `partition` line (after the word) into s->part; the key's
 * columns must be declared above it. Errors say what the line takes. */
int schema_part_parse(struct schema *s, char *rest, struct err *e);

/* Does s->part hold what the engines may build: a known strategy, key
 * columns of s of a type the strategy takes, N in 1..SCHEMA_PART_MAX, a
 * key never NULL (idxlab's primary key holds it on PostgreSQL), and every
 * unique index holding the whole key (PostgreSQL's rule)? */
int schema_part_check(const struct schema *s, struct err *e);

/* The line as the spec writes it ("partition by hash (a,b) 4"), "" for
 * one table. */
void schema_part_text(const struct schema *s, char *buf, size_t len);

/* The bounds that split the values rows [0, rows) write in the key
 * (range and list; hash needs none): range: nvals = the ranges - 1 cut
 * points, ascending (the first range from MINVALUE, the last to MAXVALUE:
 * the rows past `rows` of a growing key land there); list: nvals >= the
 * lists, value j in list j % lists. Values read from the key's values of
 * rows spread over [0, rows). */
struct part_plan {
	int ranges;      /* range: the ranges; list: the lists */
	int has_default; /* a DEFAULT partition too (NULLs; list: the rest) */
	int nvals;
	struct value *vals; /* owned: schema_part_plan_free */
};
void schema_part_plan(const struct schema *s, const struct knobs *k, uint64_t rows,
                      struct part_plan *p);
void schema_part_plan_free(struct part_plan *p);

#endif
