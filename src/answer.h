/* answer.h - the answer to the question a run asked (whatif.h): when its
 * steps hold the table's own index list and the list with the candidates
 * (--indexes table,all), or without what --drop-index names
 * (--indexes without,table), the text output's last lines say per row
 * what the difference costs, in words and numbers:
 *
 *   answer: + index idxlab_add_email (email): rows/s -31 %, write() +412
 *   B/row, spills +0.90/row, WAL n/a, index +2.1 MiB
 *
 * and where the steps read (op lookup, range, a --mix that reads):
 *
 *   ..., writes +38 % (0.012 -> 0.017 ms/row), queries 2400x faster (10 ->
 *   24k queries/s), at the mix insert:80+lookup:20 it pays (1.9k -> 9.1
 *   ms per 1,000 operations)
 *
 * Each figure of a step is a struct answer_value: today one run's value;
 * a spread (min, max over repeated runs) is said when it is there, and a
 * difference inside it is "within noise". Without a spread, a rows/s
 * difference under ANSWER_NOISE_PCT is said to be within one run's noise,
 * and a per-row figure that moved by less than ANSWER_SAME_PCT of itself is
 * named as one with no clear change, without a number. */
#ifndef IDXLAB_ANSWER_H
#define IDXLAB_ANSWER_H

#include <stdio.h>

#include "knobs.h"
#include "record.h"

#define ANSWER_NOISE_PCT 5.0
#define ANSWER_SHORT_S   1.0 /* a step shorter: its rows/s moves by a fifth */
#define ANSWER_SAME_PCT  2.0 /* a per-row figure moved less: "no clear change" */

/* The figures an answer compares (the CSV/JSON field names: answer.c). */
enum answer_fig {
	AF_ROWS_PER_S,
	AF_WCHAR_PER_ROW,
	AF_SPILLS_PER_ROW,
	AF_WAL_BYTES_PER_ROW,
	AF_INDEX_BYTES,
	/* the reads (issue 22): what the change does to a query, to a mix's
	 * writes, and to the mix as a whole - does it pay? */
	AF_WRITE_MS,
	AF_READS_PER_S,
	AF_MIX_MS,
	AF_COUNT
};

/* One figure of one step. ok 0: n/a or not settled (left out of the
 * answer). min, max: the spread over repeated runs, NAN when one run. */
struct answer_value {
	int ok;
	double v, min, max;
};

struct answer_step {
	struct knobs k;
	int interrupted;
	double seconds; /* the step's; a short one's rows/s is noise */
	struct answer_value f[AF_COUNT];
};

struct answer;

struct answer *answer_new(void);
void answer_free(struct answer *a); /* safe on NULL */

/* A finished step: its knobs and its figures (copied). */
void answer_add(struct answer *a, const struct answer_step *s);

/* A record (record.h) on knobs k: a finished step's ("record" is "step":
 * one run's, or the median of its runs with FIELD_min / FIELD_max its
 * range) is added; any other (a run, a batch, a window) is not. */
void answer_note(struct answer *a, const struct record *r, const struct knobs *k);

/* The figure f's field name in a record ("rows_per_s"). */
const char *answer_field(enum answer_fig f);

/* The answer lines for the steps added, on out; nothing when the steps
 * ask no question. Returns how many lines. */
int answer_write(const struct answer *a, FILE *out);

#endif
