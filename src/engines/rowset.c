/* rowset.c - row bookkeeping shared by the engines. */
#include "rowset.h"

#include <stdlib.h>
#include <string.h>

#include "../keys.h"

void rowset_free(struct rowset *rs)
{
	free(rs->order);
	free(rs->deleted);
	free(rs->taken);
	memset(rs, 0, sizeof *rs);
}

void rowset_reset(struct rowset *rs, uint64_t n)
{
	rowset_free(rs);
	rs->next_row = rs->live_rows = n;
}

static int is_deleted(const struct rowset *rs, uint64_t row)
{
	return row < rs->ndeleted_bits && (rs->deleted[row / 8] >> (row % 8) & 1);
}

static void mark_deleted(struct rowset *rs, uint64_t row)
{
	if (row >= rs->ndeleted_bits) {
		uint64_t bits = (row + 1) * 2 > 1024 ? (row + 1) * 2 : 1024;
		size_t old = (size_t)(rs->ndeleted_bits + 7) / 8, now = (size_t)(bits + 7) / 8;
		unsigned char *d = realloc(rs->deleted, now);

		if (!d)
			abort();
		memset(d + old, 0, now - old);
		rs->deleted = d;
		rs->ndeleted_bits = bits;
	}
	rs->deleted[row / 8] |= (unsigned char)(1u << (row % 8));
}

void rowset_prepare(struct rowset *rs, unsigned ops, uint64_t seed)
{
	uint64_t i, n = 0;

	free(rs->order);
	rs->order = NULL;
	rs->norder = rs->visit = 0;
	rs->seed = seed;
	if (!(ops & ROWSET_VISITS))
		return;
	rs->order = keys_shuffle(seed + rs->passes, rs->next_row);
	if (!rs->order)
		abort();
	for (i = 0; i < rs->next_row; i++)
		if (!is_deleted(rs, rs->order[i]))
			rs->order[n++] = rs->order[i];
	rs->norder = n;
}

/* A row present, drawn at random: a few tries past deleted rows, then the
 * draw as it is (a deleted row's lookup finds nothing, as a user's would). */
static int draw_row(struct rowset *rs, uint64_t *row, uint64_t *version)
{
	int tries;

	if (!rs->live_rows || !rs->next_row)
		return 0;
	for (tries = 0; tries < 8; tries++) {
		*row = keys_hash(rs->seed, 0x726f77ULL /* "row" */, rs->draws) % rs->next_row;
		if (!is_deleted(rs, *row))
			break;
		rs->draws++;
	}
	*version = ++rs->draws;
	return 1;
}

int rowset_next(struct rowset *rs, long long op, uint64_t *row, uint64_t *version)
{
	uint64_t scanned;

	*version = 0;
	if (OP_READS(op))
		return draw_row(rs, row, version);
	if (op == OP_INSERT) {
		*row = rs->next_row;
		return 1;
	}
	/* updates wrap to a new pass, deletes do not; both pass the rows a
	 * delete of the same mix took (a whole order passed: all deleted) */
	for (scanned = 0;; scanned++) {
		if (!rs->norder || (op == OP_DELETE && rs->visit >= rs->norder) ||
		    scanned > rs->norder)
			return 0;
		if (rs->visit >= rs->norder) {
			rs->visit = 0;
			rs->passes++;
		}
		if (!is_deleted(rs, rs->order[rs->visit]))
			break;
		rs->visit++;
	}
	*row = rs->order[rs->visit];
	*version = rs->passes + 1;
	return 1;
}

void rowset_done(struct rowset *rs, long long op, uint64_t row)
{
	if (OP_READS(op))
		return;
	if (op == OP_INSERT) {
		rs->next_row++;
		rs->live_rows++;
		return;
	}
	rs->visit++;
	if (op == OP_DELETE) {
		if (rs->ntaken == rs->taken_cap) {
			size_t cap = rs->taken_cap ? 2 * rs->taken_cap : 256;
			uint64_t *t = realloc(rs->taken, cap * sizeof *t);

			if (!t)
				abort();
			rs->taken = t;
			rs->taken_cap = cap;
		}
		rs->taken[rs->ntaken++] = row;
		mark_deleted(rs, row);
		rs->live_rows--;
	}
}

void rowset_mark(struct rowset *rs, struct rowset_mark *m)
{
	rs->ntaken = 0;
	m->next_row = rs->next_row;
	m->live_rows = rs->live_rows;
	m->visit = rs->visit;
	m->passes = rs->passes;
}

void rowset_rewind(struct rowset *rs, const struct rowset_mark *m)
{
	size_t i;

	for (i = 0; i < rs->ntaken; i++) {
		uint64_t row = rs->taken[i];

		rs->deleted[row / 8] &= (unsigned char)~(1u << (row % 8));
	}
	rs->ntaken = 0;
	rs->next_row = m->next_row;
	rs->live_rows = m->live_rows;
	rs->visit = m->visit;
	rs->passes = m->passes;
}
