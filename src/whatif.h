/* whatif.h - the question as a verb: "my table as it is, and with one more
 * index on email" (--add-index email --indexes table,all), or without one
 * of its own (--drop-index NAME --indexes without,table); and a table read
 * from a source (--schema-from) measured at its own size, on its own
 * engine.
 *
 * A candidate is COL[+COL...][:unique]: a column, or a composite of
 * several joined by '+' (a ',' separates candidates, so a config line
 * `add-index = email, country+created_at:unique` reads back as given).
 * The add-index and drop-index knobs keep their text (a registry index,
 * as the schema knob does); whatif_extend() turns a table into a spec of
 * its own: the table's own list, what --drop-index names moved last in it,
 * then the candidates (schema.h: extends, ntable, ndrop). The plan's side
 * (every table of a plan, a source's defaults, the warnings and the header
 * text) is plan_whatif.c's (config.h). */
#ifndef IDXLAB_WHATIF_H
#define IDXLAB_WHATIF_H

#include "err.h"
#include "schema.h"

/* The add-index and drop-index knobs' resolve and label (knob_def): the
 * text checked for its form (the columns are judged by whatif_extend, once
 * the table is known); "none" is 0. */
int whatif_resolve_add(const char *text, long long *out, struct err *e);
int whatif_resolve_drop(const char *text, long long *out, struct err *e);
const char *whatif_label(long long v);

/* The spec base (a registry index) with the drops (drop, a registry index
 * of --drop-index's text; 0 none) and the candidates (add, of
 * --add-index's) as a spec of its own, registered in *out. An error names
 * the bad candidate or name (a missing column with a "did you mean", an
 * index the table lacks with the names it has, a duplicate) and where it
 * was given (drop_where, add_where; "" for the knob's name). */
int whatif_extend(long long base, long long drop, const char *drop_where, long long add,
                  const char *add_where, long long *out, struct err *e);

/* The indexes knob's value v under spec s as a count: the words table,
 * all and without resolved; a number as it is. */
long long whatif_indexes(const struct schema *s, long long v);

/* The count of the table's own indexes in s (without candidates). */
int whatif_own(const struct schema *s);

#endif
