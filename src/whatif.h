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
 * as the schema knob does); whatif_apply() turns each table of the plan
 * into a spec of its own: the table's own list, what --drop-index names
 * moved last in it, then the candidates (schema.h: extends, ntable,
 * ndrop). */
#ifndef IDXLAB_WHATIF_H
#define IDXLAB_WHATIF_H

#include "config.h"
#include "err.h"
#include "knobs.h"
#include "schema.h"

/* The add-index and drop-index knobs' resolve and label (knob_def): the
 * text checked for its form (the columns are judged by whatif_apply, once
 * the table is known); "none" is 0. */
int whatif_resolve_add(const char *text, long long *out, struct err *e);
int whatif_resolve_drop(const char *text, long long *out, struct err *e);
const char *whatif_label(long long v);

/* Every table of p with p's candidates and drops: each schema value
 * becomes the registry index of a spec that extends it. An error names
 * the bad candidate or name (a missing column with a "did you mean", an
 * index the table lacks with the names it has, a duplicate) and where it
 * was given. Then, for a table read from a source (--schema-from), the
 * engine and the prefill the user left unset are the source's. */
int whatif_apply(struct plan *p, struct err *e);

/* Warn on f when p has candidates (or drops) that no step measures: no
 * step's indexes reaches past the table's own (or stops before the drops),
 * and say the words that would. */
void whatif_warn_unused(const struct plan *p, FILE *f);

/* The indexes knob's value v under spec s as a count: the words table,
 * all and without resolved; a number as it is. */
long long whatif_indexes(const struct schema *s, long long v);

/* The count of the table's own indexes in s (without candidates). */
int whatif_own(const struct schema *s);

/* The indexes knob's words in k resolved (plan_step, the dashboard). */
void whatif_resolve_knobs(struct knobs *k);

/* The table's size and engine as the source gave them, for a run's
 * header: "app.db:users: 3000 rows at the source (prefill), engine sqlite
 * (the source's)"; "" when no table of p was read from a source. */
void whatif_source_text(const struct plan *p, char *buf, size_t len);

/* The dashboard's rows (where an insert run starts over) for a table read
 * from a source, when the user left rows unset: twice the source's rows,
 * and at least WHATIF_DASH_ROWS_MORE more than them (a small table would
 * start over every moment, and the screen say little else); -1 for any
 * other table. */
#define WHATIF_DASH_ROWS_MORE 50000
long long whatif_dash_rows(const struct knobs *k);

#endif
