/* rows.c - one operation on one row, the way mongod does it.
 *
 * A record (table:collection-idxlab, keyed by record id = row + 1) is packed
 * raw: id | k1..k8 | hot | payload, the id and keys int64 or 16-byte uuids
 * as the pk and key order knobs say. An insert writes the collection and
 * every index; an update of `hot` finds the record through _id and modifies
 * the record only (WT_CURSOR::modify: a small log record, no index touched -
 * MongoDB's 1.02x); an update of k1 also moves k1's index entry; a delete
 * removes the record and its index entries. Transactions are txn.c's. */
#include <string.h>

#include "../../keys.h"
#include "internal.h"

size_t wt_off_key(const struct engine *en, int col)
{
	return en->id_len + (size_t)(col - 1) * en->key_len;
}

/* Row n's id (8 bytes int64 or 16 bytes uuid) into out; returns its length. */
static size_t make_id(const struct engine *en, uint64_t row, unsigned char *out)
{
	if (en->uuid_pk) {
		keys_uuid(en->pk_seed, en->k.v[K_PK] == PK_UUID7, 0, row, 0, out);
		return KEYS_UUID_LEN;
	}
	{
		int64_t id = (int64_t)row + 1;

		memcpy(out, &id, sizeof id);
	}
	return sizeof(int64_t);
}

static void make_key(const struct engine *en, int col, uint64_t row, uint64_t version,
                     unsigned char *out)
{
	long long ko = en->k.v[K_KEY_ORDER];
	uint64_t seed = (uint64_t)en->k.v[K_SEED];

	if (en->uuid_keys) {
		keys_uuid(seed, ko == KO_UUID7, col, row, version, out);
	} else {
		int64_t v = keys_int(seed, (enum key_order)ko, col, row, version);

		memcpy(out, &v, sizeof v);
	}
}

static void set_id_key(struct engine *en, const unsigned char *id)
{
	WT_CURSOR *c = en->idx[0];

	if (en->uuid_pk) {
		WT_ITEM it = { .data = id, .size = KEYS_UUID_LEN };

		c->set_key(c, &it);
	} else {
		int64_t v;

		memcpy(&v, id, sizeof v);
		c->set_key(c, v);
	}
}

static void set_index_key(struct engine *en, int i, const unsigned char *key, int64_t recid)
{
	WT_CURSOR *c = en->idx[i];

	if (en->uuid_keys) {
		WT_ITEM it = { .data = key, .size = KEYS_UUID_LEN };

		c->set_key(c, &it, recid);
	} else {
		int64_t v;

		memcpy(&v, key, sizeof v);
		c->set_key(c, v, recid);
	}
}

int wt_index_insert(struct engine *en, int i, const unsigned char *key, int64_t recid)
{
	static const WT_ITEM empty = { .data = "", .size = 0 };

	set_index_key(en, i, key, recid);
	en->idx[i]->set_value(en->idx[i], &empty);
	return en->idx[i]->insert(en->idx[i]);
}

static int index_remove(struct engine *en, int i, const unsigned char *key, int64_t recid)
{
	set_index_key(en, i, key, recid);
	return en->idx[i]->remove(en->idx[i]);
}

/* Find row n's record the way mongod does (through _id); its record id and
 * its value (valid until the next operation on the collection cursor).
 * E_MISSING when it is not there, or not a record idxlab wrote. */
static int find_row(struct engine *en, uint64_t row, int64_t *recid, WT_ITEM *val)
{
	unsigned char id[KEYS_UUID_LEN];
	WT_CURSOR *c = en->idx[0];
	int rc;

	make_id(en, row, id);
	set_id_key(en, id);
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

static int op_insert(struct engine *en, uint64_t row)
{
	int64_t recid = (int64_t)row + 1, zero = 0;
	WT_ITEM it = { .data = en->row, .size = en->row_len };
	int c, rc;

	make_id(en, row, en->row);
	for (c = 1; c <= 8; c++)
		make_key(en, c, row, 0, en->row + wt_off_key(en, c));
	memcpy(en->row + en->off_hot, &zero, sizeof zero);
	en->coll->set_key(en->coll, recid);
	en->coll->set_value(en->coll, &it);
	if ((rc = en->coll->insert(en->coll)) != 0)
		return rc;
	set_id_key(en, en->row);
	en->idx[0]->set_value(en->idx[0], recid);
	if ((rc = en->idx[0]->insert(en->idx[0])) != 0)
		return rc;
	for (c = 1; c <= en->nidx; c++)
		if ((rc = wt_index_insert(en, c, en->row + wt_off_key(en, c), recid)) != 0)
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

/* Set key columns k1..k<ncols> of row to their values at version; the
 * indexes on the ones that changed move their entry, like mongod's $set. */
static int op_update_keys(struct engine *en, uint64_t row, uint64_t version, int ncols)
{
	unsigned char old[8 * KEYS_UUID_LEN], now[8 * KEYS_UUID_LEN];
	size_t klen = en->key_len, len = (size_t)ncols * klen;
	WT_MODIFY m;
	WT_ITEM val;
	int64_t recid;
	int c, rc = find_row(en, row, &recid, &val);

	if (rc)
		return rc;
	/* k1..k8 lie side by side in the record. */
	memcpy(old, (const unsigned char *)val.data + wt_off_key(en, 1), len);
	for (c = 1; c <= ncols; c++)
		make_key(en, c, row, version, now + (size_t)(c - 1) * klen);
	m.data.data = now;
	m.data.size = len;
	m.offset = wt_off_key(en, 1);
	m.size = len;
	rc = en->coll->modify(en->coll, &m, 1);
	en->coll->reset(en->coll);
	for (c = 1; !rc && c <= ncols && c <= en->nidx; c++) {
		const unsigned char *o = old + (size_t)(c - 1) * klen,
		                    *n = now + (size_t)(c - 1) * klen;

		if (memcmp(o, n, klen) == 0)
			continue;
		if ((rc = index_remove(en, c, o, recid)) != 0)
			return rc == WT_NOTFOUND ? E_MISSING : rc;
		rc = wt_index_insert(en, c, n, recid);
	}
	return rc;
}

static int op_delete(struct engine *en, uint64_t row)
{
	unsigned char keys[8][KEYS_UUID_LEN], id[KEYS_UUID_LEN];
	WT_ITEM val;
	int64_t recid;
	int c, rc = find_row(en, row, &recid, &val);

	if (rc)
		return rc;
	memcpy(id, val.data, en->id_len);
	for (c = 1; c <= en->nidx; c++)
		memcpy(keys[c - 1], (const unsigned char *)val.data + wt_off_key(en, c),
		       en->key_len);
	if ((rc = en->coll->remove(en->coll)) != 0)
		return rc;
	set_id_key(en, id);
	if ((rc = en->idx[0]->remove(en->idx[0])) != 0)
		return rc == WT_NOTFOUND ? E_MISSING : rc;
	for (c = 1; c <= en->nidx; c++)
		if ((rc = index_remove(en, c, keys[c - 1], recid)) != 0)
			return rc == WT_NOTFOUND ? E_MISSING : rc;
	return 0;
}

/* One operation on row n: 0, E_MISSING or a WiredTiger error. */
int wt_do_op(struct engine *en, long long op, uint64_t row, uint64_t version)
{
	switch (op) {
	case OP_INSERT:
		return op_insert(en, row);
	case OP_UPDATE:
		return op_update(en, row);
	case OP_UPDATE_INDEXED:
		return op_update_keys(en, row, version, 1);
	case OP_UPDATE_KEYS:
		return op_update_keys(en, row, version, 8);
	default:
		return op_delete(en, row);
	}
}

int wt_op_fail(struct engine *en, struct err *e, long long op, uint64_t row, int rc)
{
	char what[96];

	if (rc == E_MISSING || rc == WT_NOTFOUND || rc == WT_DUPLICATE_KEY)
		return err_set(e, ERR_RUNTIME,
		               "%s of row %llu: %s: the tables are not what idxlab built",
		               knob_table[K_OP].choices[op], (unsigned long long)row,
		               rc == WT_DUPLICATE_KEY ? "it is there already" : "it is missing");
	snprintf(what, sizeof what, "%s of row %llu", knob_table[K_OP].choices[op],
	         (unsigned long long)row);
	return wt_fail(en, e, what, rc);
}
