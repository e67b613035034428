/* rowset.h - which rows of idxlab_t exist, and the order to visit them.
 *
 * Every engine numbers rows 0, 1, 2 ... in insertion order (keys.h turns a
 * row number into its id and values). A rowset remembers how many rows were
 * inserted, which were deleted, and - for updates and deletes - a shuffled
 * visit order over the rows that exist, so an update or delete always names
 * a row that is there. Engines share it; it never touches a database. */
#ifndef IDXLAB_ROWSET_H
#define IDXLAB_ROWSET_H

#include <stddef.h>
#include <stdint.h>

#include "../vocab.h"

struct rowset {
	uint64_t next_row;  /* row number of the next insert */
	uint64_t live_rows; /* rows in the table now */
	uint64_t *order;    /* visit order for updates/deletes */
	uint64_t norder, visit;
	uint64_t passes;        /* completed passes over the order */
	unsigned char *deleted; /* bitmap over row numbers */
	uint64_t ndeleted_bits;
	uint64_t seed, draws; /* reads: rows drawn at random, draws so far */
	uint64_t *taken;      /* the rows deleted since the last mark */
	size_t ntaken, taken_cap;
};

/* A table of n rows (0..n-1), nothing deleted. */
void rowset_reset(struct rowset *rs, uint64_t n);

/* Get ready to run ops (bits 1u << enum op_kind, mix.h's mix_ops): for
 * an update or delete among them, shuffle the rows that exist. */
void rowset_prepare(struct rowset *rs, unsigned ops, uint64_t seed);
#define ROWSET_VISITS (OPS_UPDATES | 1u << OP_DELETE) /* the ops that visit */

/* The next row op works on, and for updates its version (1, 2, ...): 1, or
 * 0 when there is none (nothing left to delete, an empty table). Updates
 * and deletes share one visit order: in a mix they take turns along it,
 * never a row deleted. A read
 * (lookup, range) gets a row present drawn at random (seeded: the same
 * seed draws the same rows) and, in *version, its draw number from 1
 * (reads_pick's). */
int rowset_next(struct rowset *rs, long long op, uint64_t *row, uint64_t *version);

/* op on the row rowset_next() returned is done. */
void rowset_done(struct rowset *rs, long long op, uint64_t row);

/* Where a rowset stands, to undo a transaction the engine rolled back;
 * taking a mark starts the log of deleted rows over (one mark at a time:
 * the open transaction's). */
struct rowset_mark {
	uint64_t next_row, live_rows, visit, passes;
};

void rowset_mark(struct rowset *rs, struct rowset_mark *m);

/* Put the rowset back where m was taken: the rows of a rolled-back
 * transaction (any ops) were never inserted, updated or deleted. */
void rowset_rewind(struct rowset *rs, const struct rowset_mark *m);

void rowset_free(struct rowset *rs);

#endif
