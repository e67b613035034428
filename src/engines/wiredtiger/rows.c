/* rows.c - one operation on one row, the way mongod does it.
 *
 * A record (table:collection-idxlab, keyed by record id = row + 1) is packed
 * raw: id | the spec's columns | hot | payload, each column at a fixed
 * offset (schema.c): int as an int32, bigint and timestamp as int64, uuid
 * 16 bytes, text(N) its N bytes; for the default table id | k1..k8 | hot |
 * payload, the id and keys int64 or 16-byte uuids as the pk and key order
 * knobs say. An index key holds its column(s) in the spec's order, then the
 * record id (a unique index: the column(s) alone, the record id its value).
 * An insert writes the collection and every index; an update of `hot` finds
 * the record through _id and modifies the record only (WT_CURSOR::modify: a
 * small log record, no index touched - MongoDB's 1.02x); update-indexed and
 * update-keys modify their columns and move the entries of the indexes on
 * the ones that changed; a delete removes the record and its index entries.
 * Transactions are txn.c's. */
#include <string.h>

#include "../../keys.h"
#include "internal.h"

/* Row n's id (8 bytes int64 or 16 bytes uuid) into out. */
static void make_id(const struct engine *en, uint64_t row, unsigned char *out)
{
	if (en->uuid_pk) {
		keys_uuid(en->pk_seed, en->k.v[K_PK] == PK_UUID7, 0, row, 0, out);
	} else {
		int64_t id = (int64_t)row + 1;

		memcpy(out, &id, sizeof id);
	}
}

static void make_key(const struct engine *en, int col, uint64_t row, uint64_t version,
                     unsigned char *out)
{
	if (en->keys.uuid) {
		schema_fast_uuid(&en->keys, col, row, version, out);
	} else {
		int64_t v = schema_fast_int(&en->keys, col, row, version);

		memcpy(out, &v, sizeof v);
	}
}

void wt_put_value(const struct engine *en, int col, struct value *v, unsigned char *out)
{
	switch (en->col_fmt[col]) {
	case 'i': {
		int32_t x = (int32_t)v->i;

		memcpy(out, &x, sizeof x);
		return;
	}
	case 'q':
		memcpy(out, &v->i, sizeof v->i);
		return;
	default:
		if (v->len < en->col_len[col])
			memset(v->b + v->len, 0, en->col_len[col] - v->len);
		memcpy(out, v->b, en->col_len[col]);
		return;
	}
}

/* Column col of row n at version through schema_value(), as the record
 * holds it (col_len bytes). Kept out of put_col() so that its fast path
 * inlines. */
static void __attribute__((noinline))
put_spec_col(const struct engine *en, int col, uint64_t row, uint64_t version, unsigned char *out)
{
	struct value v;

	schema_value(en->sc, &en->k, col, row, version, &v);
	wt_put_value(en, col, &v, out);
}

/* Column col of row n at version, as the record holds it: the default
 * table straight from keys.c (its values are schema_value's, without the
 * spec lookups: the per-row path stays as fast as before specs). */
static inline void put_col(const struct engine *en, int col, uint64_t row, uint64_t version,
                           unsigned char *out)
{
	if (!en->fast)
		put_spec_col(en, col, row, version, out);
	else if (col == 0)
		make_id(en, row, out);
	else
		make_key(en, col, row, version, out);
}

/* Column col, as the record holds it at p, onto the key packed in ps. */
static int pack_col(const struct engine *en, WT_PACK_STREAM *ps, int col, const unsigned char *p)
{
	if (en->col_fmt[col] == 'u') {
		WT_ITEM it = { .data = p, .size = en->col_len[col] };

		return wiredtiger_pack_item(ps, &it);
	} else if (en->col_fmt[col] == 'q') {
		int64_t v;

		memcpy(&v, p, sizeof v);
		return wiredtiger_pack_int(ps, v);
	} else {
		int32_t v;

		memcpy(&v, p, sizeof v);
		return wiredtiger_pack_int(ps, v);
	}
}

/* Index i's key for the record rec, packed into buf (cap bytes) column by
 * column: what a raw cursor takes; its size into *used. */
static int pack_key(struct engine *en, int i, const unsigned char *rec, int64_t recid,
                    unsigned char *buf, size_t cap, size_t *used)
{
	const struct wt_index *x = &en->ix[i];
	WT_PACK_STREAM *ps;
	int j, rc, rc2;

	*used = 0;
	if ((rc = wiredtiger_pack_start(en->s, x->key_format, buf, cap, &ps)) != 0)
		return rc;
	for (j = 0; rc == 0 && j < x->ncols; j++)
		rc = pack_col(en, ps, x->cols[j], rec + en->col_off[x->cols[j]]);
	if (rc == 0 && !x->unique)
		rc = wiredtiger_pack_int(ps, recid);
	rc2 = wiredtiger_pack_close(ps, used);
	return rc ? rc : rc2;
}

int wt_index_pack(struct engine *en, int i, const unsigned char *rec, int64_t recid,
                  unsigned char *buf, size_t cap, size_t *used)
{
	return pack_key(en, i, rec, recid, buf, cap, used);
}

int wt_index_prefix(struct engine *en, int i, const unsigned char *first,
                    const unsigned char *second, unsigned char *buf, size_t cap, size_t *used)
{
	WT_PACK_STREAM *ps;
	int rc, rc2;

	*used = 0;
	if ((rc = wiredtiger_pack_start(en->s, en->ix[i].key_format, buf, cap, &ps)) != 0)
		return rc;
	rc = pack_col(en, ps, en->ix[i].cols[0], first);
	if (rc == 0 && second && en->ix[i].ncols > 1)
		rc = pack_col(en, ps, en->ix[i].cols[1], second);
	rc2 = wiredtiger_pack_close(ps, used);
	return rc ? rc : rc2;
}

/* A composite key, packed here column by column for a raw cursor. */
static int __attribute__((noinline))
set_packed_key(struct engine *en, int i, const unsigned char *rec, int64_t recid)
{
	WT_CURSOR *c = en->idx[i];
	WT_ITEM key;
	size_t used = 0;
	int rc = pack_key(en, i, rec, recid, en->kbuf, sizeof en->kbuf, &used);

	if (rc)
		return rc;
	key.data = en->kbuf;
	key.size = used;
	c->set_key(c, &key);
	return 0;
}

/* Index i's key for the record rec: its column(s), then the record id
 * unless the index is unique. One column: set_key's own packing. */
static inline int set_index_key(struct engine *en, int i, const unsigned char *rec, int64_t recid)
{
	const struct wt_index *x = &en->ix[i];
	WT_CURSOR *c = en->idx[i];

	if (!x->raw) {
		int col = x->cols[0];
		const unsigned char *p = rec + en->col_off[col];

		if (en->col_fmt[col] == 'u') {
			WT_ITEM it = { .data = p, .size = en->col_len[col] };

			if (x->unique)
				c->set_key(c, &it);
			else
				c->set_key(c, &it, recid);
		} else if (en->col_fmt[col] == 'q') {
			int64_t v;

			memcpy(&v, p, sizeof v);
			if (x->unique)
				c->set_key(c, v);
			else
				c->set_key(c, v, recid);
		} else {
			int32_t v;

			memcpy(&v, p, sizeof v);
			if (x->unique)
				c->set_key(c, v);
			else
				c->set_key(c, v, recid);
		}
		return 0;
	}
	return set_packed_key(en, i, rec, recid);
}

static inline int index_insert(struct engine *en, int i, const unsigned char *rec, int64_t recid)
{
	static const WT_ITEM empty = { .data = "", .size = 0 };
	const struct wt_index *x = &en->ix[i];
	WT_CURSOR *c = en->idx[i];
	int rc;

	en->fail_idx = i;
	if ((rc = set_index_key(en, i, rec, recid)) != 0)
		return rc;
	if (!x->unique) {
		c->set_value(c, &empty);
	} else if (!x->raw) {
		c->set_value(c, recid);
	} else {
		unsigned char v[16];
		WT_ITEM it = { .data = v };

		if ((rc = wiredtiger_struct_pack(en->s, v, sizeof v, "q", recid)) != 0 ||
		    (rc = wiredtiger_struct_size(en->s, &it.size, "q", recid)) != 0)
			return rc;
		c->set_value(c, &it);
	}
	return c->insert(c);
}

int wt_index_insert(struct engine *en, int i, const unsigned char *rec, int64_t recid)
{
	return index_insert(en, i, rec, recid);
}

static int index_remove(struct engine *en, int i, const unsigned char *rec, int64_t recid)
{
	int rc;

	en->fail_idx = i;
	if ((rc = set_index_key(en, i, rec, recid)) != 0)
		return rc;
	return en->idx[i]->remove(en->idx[i]);
}

/* Find row n's record the way mongod does (through _id); its record id and
 * its value (valid until the next operation on the collection cursor).
 * E_MISSING when it is not there, or not a record idxlab wrote. */
static int find_row(struct engine *en, uint64_t row, int64_t *recid, WT_ITEM *val)
{
	unsigned char id[SCHEMA_TEXT_MAX]; /* column 0 lies at 0: a record's first bytes */
	WT_CURSOR *c = en->idx[0];
	int rc;

	en->fail_idx = -1;
	put_col(en, 0, row, 0, id);
	set_index_key(en, 0, id, 0);
	rc = c->search(c);
	if (rc == WT_NOTFOUND)
		return E_MISSING;
	if (rc == 0)
		rc = c->get_value(c, recid);
	c->reset(c);
	if (rc)
		return rc;
	if (*recid != (int64_t)row + 1)
		return E_MISSING;
	en->coll->set_key(en->coll, *recid);
	rc = en->coll->search(en->coll);
	if (rc == WT_NOTFOUND)
		return E_MISSING;
	if (rc == 0)
		rc = en->coll->get_value(en->coll, val);
	if (rc == 0 && val->size < en->off_payload)
		return E_MISSING; /* not a record idxlab wrote */
	return rc;
}

/* Row n's record into en->row (its payload is there already). */
static inline void fill_row(struct engine *en, uint64_t row)
{
	int64_t zero = 0;
	int c;

	for (c = 0; c < en->ncols; c++)
		put_col(en, c, row, 0, en->row + en->col_off[c]);
	if (en->off_payload > en->off_hot) /* the spec's own hot */
		memcpy(en->row + en->off_hot, &zero, sizeof zero);
}

void wt_make_row(struct engine *en, uint64_t row)
{
	fill_row(en, row);
}

static int op_insert(struct engine *en, uint64_t row)
{
	int64_t recid = (int64_t)row + 1;
	WT_ITEM it = { .data = en->row, .size = en->row_len };
	int c, rc;

	en->fail_idx = -1;
	fill_row(en, row);
	en->coll->set_key(en->coll, recid);
	en->coll->set_value(en->coll, &it);
	if ((rc = en->coll->insert(en->coll)) != 0)
		return rc;
	for (c = 0; c <= en->nidx; c++) /* _id, then the indexes */
		if ((rc = index_insert(en, c, en->row, recid)) != 0)
			return rc;
	return 0;
}

static int op_update(struct engine *en, uint64_t row)
{
	WT_MODIFY m;
	WT_ITEM val;
	int64_t recid, hot;
	int rc = find_row(en, row, &recid, &val);

	if (rc)
		return rc;
	memcpy(&hot, (const unsigned char *)val.data + en->off_hot, sizeof hot);
	hot++;
	m.data.data = &hot;
	m.data.size = sizeof hot;
	m.offset = en->off_hot;
	m.size = sizeof hot;
	rc = en->coll->modify(en->coll, &m, 1);
	en->coll->reset(en->coll);
	return rc;
}

/* Does index i cover a column that differs between en->old and en->row? */
static int index_moves(const struct engine *en, int i)
{
	const struct wt_index *x = &en->ix[i];
	int j;

	for (j = 0; j < x->ncols; j++) {
		size_t o = en->col_off[x->cols[j]];

		if (memcmp(en->old + o, en->row + o, en->col_len[x->cols[j]]) != 0)
			return 1;
	}
	return 0;
}

/* Set columns cols[0..n-1] of row to their values at version, in one
 * modify of the bytes from the first to the last (one column, or every
 * value column: side by side); the indexes on the ones that changed move
 * their entry, like mongod's $set. */
static int op_update_cols(struct engine *en, uint64_t row, uint64_t version, const int *cols, int n)
{
	WT_MODIFY m;
	WT_ITEM val;
	int64_t recid;
	size_t lo, hi;
	int i, rc = find_row(en, row, &recid, &val);

	if (rc || n == 0) {
		en->coll->reset(en->coll);
		return rc;
	}
	/* the record's columns, old and new (en->row's payload is left alone) */
	memcpy(en->old, val.data, en->off_payload);
	memcpy(en->row, en->old, en->off_payload);
	lo = en->off_hot;
	hi = 0;
	for (i = 0; i < n; i++) {
		size_t o = en->col_off[cols[i]];

		put_col(en, cols[i], row, version, en->row + o);
		lo = o < lo ? o : lo;
		hi = o + en->col_len[cols[i]] > hi ? o + en->col_len[cols[i]] : hi;
	}
	m.data.data = en->row + lo;
	m.data.size = hi - lo;
	m.offset = lo;
	m.size = hi - lo;
	rc = en->coll->modify(en->coll, &m, 1);
	en->coll->reset(en->coll);
	for (i = 1; !rc && i <= en->nidx; i++) {
		if (!index_moves(en, i))
			continue;
		if ((rc = index_remove(en, i, en->old, recid)) != 0)
			return rc == WT_NOTFOUND ? E_MISSING : rc;
		rc = index_insert(en, i, en->row, recid);
	}
	return rc;
}

static int op_delete(struct engine *en, uint64_t row)
{
	WT_ITEM val;
	int64_t recid;
	int i, rc = find_row(en, row, &recid, &val);

	if (rc)
		return rc;
	memcpy(en->old, val.data, en->off_payload);
	if ((rc = en->coll->remove(en->coll)) != 0)
		return rc;
	for (i = 0; i <= en->nidx; i++) /* _id, then the indexes */
		if ((rc = index_remove(en, i, en->old, recid)) != 0)
			return rc == WT_NOTFOUND ? E_MISSING : rc;
	return 0;
}

/* One operation on row n: 0, E_MISSING or a WiredTiger error. */
int wt_do_op(struct engine *en, long long op, uint64_t row, uint64_t version)
{
	switch (op) {
	case OP_INSERT:
		return op_insert(en, row);
	case OP_UPDATE: /* hot, or the spec's hot value column */
		if (en->sc->hot_col > 0)
			return op_update_cols(en, row, version, &en->sc->hot_col, 1);
		return op_update(en, row);
	case OP_UPDATE_INDEXED:
		return op_update_cols(en, row, version, en->opc[0], en->nopc[0]);
	case OP_UPDATE_KEYS:
		return op_update_cols(en, row, version, en->opc[1], en->nopc[1]);
	case OP_LOOKUP:
	case OP_RANGE: /* reads.c: the draw number comes as the version */
		return wt_do_read(en, op, row, version);
	default:
		return op_delete(en, row);
	}
}

int wt_op_fail(struct engine *en, struct err *e, long long op, uint64_t row, int rc)
{
	char what[96];

	/* Cannot happen with a spec's unique rules (schema_file.c), but say it. */
	if (rc == WT_DUPLICATE_KEY && en->fail_idx > 0 && en->ix[en->fail_idx].unique)
		return err_set(e, ERR_RUNTIME,
		               "%s of row %llu: its key is in the unique index %s (%s) already - "
		               "give the indexed column distinct values (uuid, bigint seq or rand)",
		               knob_table[K_OP].choices[op], (unsigned long long)row,
		               en->ix[en->fail_idx].name, en->ix[en->fail_idx].uri);

	if (rc == E_MISSING || rc == WT_NOTFOUND || rc == WT_DUPLICATE_KEY)
		return err_set(e, ERR_RUNTIME,
		               "%s of row %llu: %s: the tables are not what idxlab built",
		               knob_table[K_OP].choices[op], (unsigned long long)row,
		               rc == WT_DUPLICATE_KEY ? "it is there already" : "it is missing");
	snprintf(what, sizeof what, "%s of row %llu", knob_table[K_OP].choices[op],
	         (unsigned long long)row);
	return wt_fail(en, e, what, rc);
}
