/* bulk.c - --load copy: the step's rows through WiredTiger's bulk cursors.
 *
 * A bulk cursor (open_cursor "bulk") is WiredTiger's fast, initial load
 * path: it loads a newly created, empty table once, keys in order, writing
 * full pages straight to the file (no cache, no log records) and the file
 * is checkpointed when the cursor closes. Nothing is transactional, so the
 * step is one bulk load of each table, begun at its first row and
 * completed at its commit (--commit all); a table with rows in it (a
 * prefill) cannot be bulk-loaded: both are refused at setup.
 *   the collection   the records go in as they come: record id = row + 1,
 *                    in order (inserts are)
 *   each index       _id too: its entries are packed as they come, kept in
 *                    memory, sorted at commit and bulk-loaded into its
 *                    empty table (mongod's index build: sort, then bulk)
 * The commit's latency is the begin to the last table's close: the sort,
 * the index loads and their files written. A failed bulk fails the step
 * (what is loaded stays: a bulk load cannot be rolled back; the next setup
 * drops the tables). These are the step's hooks (../txn.h) when --load is
 * copy; txn.c's are the others. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../evlog.h"
#include "internal.h"

#define BUSY_TRIES 200 /* x 25 ms: an exclusive open waits out a checkpoint */
/* An entry: the record id (a unique index's value), the key's length, the
 * packed key. */
#define ENT_RECID 0
#define ENT_LEN   sizeof(int64_t)
#define ENT_KEY   (ENT_LEN + sizeof(uint16_t))
#define FIELD_MAX 9 /* WiredTiger packs an integer (a length too) in at most 9 bytes */
/* The sort keeps every index entry of the step in memory: at most this. */
#define SORT_MAX (2LL * 1024 * 1024 * 1024)

/* The widest packed key of index i. */
static size_t key_max(const struct engine *en, int i)
{
	const struct wt_index *x = &en->ix[i];
	size_t n = x->unique ? 0 : FIELD_MAX;
	int j;

	for (j = 0; j < x->ncols; j++)
		n += en->col_fmt[x->cols[j]] == 'u' ? en->col_len[x->cols[j]] + FIELD_MAX
		                                    : FIELD_MAX;
	return n;
}

int wt_check_knobs(const struct knobs *k, struct err *e)
{
	if (k->v[K_LOAD] != LOAD_COPY)
		return 0;
	if (knobs_prefill(k) > 0)
		return err_set(e, ERR_USAGE,
		               "--load copy on wiredtiger: a bulk cursor loads only a new, empty "
		               "table, and the prefill (%lld rows) would be in it - use --prefill "
		               "0, or --load insert",
		               knobs_prefill(k));
	if (k->v[K_COMMIT] != COMMIT_ALL)
		return err_set(e, ERR_USAGE,
		               "--load copy on wiredtiger: a bulk cursor is not transactional and "
		               "loads a table once, so the step is one bulk load completed at its "
		               "end - use --commit all (or --load insert for commits of %lld rows)",
		               k->v[K_COMMIT]);
	return 0;
}

int wt_bulk_prepare(struct engine *en, const struct knobs *k, struct err *e)
{
	struct wt_bulk *b = &en->bulk;
	long long per_row = 0, nix = k->v[K_INDEXES];
	int i;

	b->done = 0;
	if (k->v[K_LOAD] != LOAD_COPY) {
		en->txn->h = &wt_txn_hooks;
		return 0;
	}
	if (wt_check_knobs(k, e) < 0)
		return -1;
	for (i = 0; i <= nix; i++) {
		b->slot[i] = ENT_KEY + key_max(en, i);
		per_row += (long long)b->slot[i];
	}
	if (k->v[K_ROWS] > SORT_MAX / per_row)
		return err_set(e, ERR_USAGE,
		               "--load copy on wiredtiger sorts each index's entries in memory "
		               "before it bulk-loads them: %lld rows x %lld B of entries is more "
		               "than the %lld MiB idxlab allows - use fewer --rows or --indexes, "
		               "or --index-build after",
		               k->v[K_ROWS], per_row, SORT_MAX >> 20);
	en->txn->h = &wt_bulk_hooks;
	evlog_add(EV_INFO,
	          "wiredtiger: --load copy: the step's rows go through bulk cursors into the new, "
	          "empty tables (written straight to the files, not logged); each index's "
	          "entries are sorted in memory and bulk-loaded at the commit");
	return 0;
}

/* Open uri's bulk cursor, waiting out a checkpoint that holds the table. */
static int open_bulk(struct engine *en, const char *uri, const char *cfg, WT_CURSOR **out,
                     struct err *e)
{
	int rc, tries = 0;
	char what[128];

	while ((rc = en->s->open_cursor(en->s, uri, NULL, cfg, out)) == EBUSY &&
	       tries++ < BUSY_TRIES)
		clock_sleep_ms(25);
	if (rc == 0)
		return 0;
	*out = NULL;
	if (rc == EINVAL)
		return err_set(e, ERR_RUNTIME,
		               "open a bulk cursor on %s: WiredTiger bulk-loads only a newly "
		               "created, empty table and this one is not (a bug in idxlab)",
		               uri);
	snprintf(what, sizeof what, "open a bulk cursor on %s", uri);
	return wt_fail(en, e, what, rc);
}

/* Close every bulk cursor (each completes its load: there is no undo),
 * free the entries, and open the workload's cursors again. */
static int close_bulk(struct engine *en, struct err *e)
{
	struct wt_bulk *b = &en->bulk;
	int i, rc = 0;

	if (b->coll && (rc = b->coll->close(b->coll)) != 0 && e)
		wt_fail(en, e, "complete the bulk load of " COLL_URI, rc);
	b->coll = NULL;
	for (i = 0; i < NIDX; i++) {
		if (b->idx[i])
			(void)b->idx[i]->close(b->idx[i]);
		b->idx[i] = NULL;
		free(b->ent[i]);
		b->ent[i] = NULL;
	}
	b->n = b->cap = 0;
	b->open = 0;
	b->done = 1;
	if (rc)
		return e ? -1 : 0;
	if (wt_open_cursor(en, COLL_URI, &en->coll, e) < 0)
		return -1;
	for (i = 0; i <= en->nidx; i++)
		if (wt_open_index(en, i, e) < 0)
			return -1;
	return 0;
}

void wt_bulk_discard(struct engine *en)
{
	if (en->bulk.open)
		(void)close_bulk(en, NULL);
}

static int bulk_begin(struct engine *en, struct err *e)
{
	struct wt_bulk *b = &en->bulk;
	int i;

	if (b->done)
		return err_set(e, ERR_RUNTIME,
		               "--load copy: the tables have been bulk-loaded already, and a bulk "
		               "cursor loads a new table once (a bug in idxlab: --commit all "
		               "makes the step one load)");
	wt_close_cursors(en);
	b->open = 1;
	if (open_bulk(en, COLL_URI, "bulk", &b->coll, e) < 0)
		goto fail;
	for (i = 0; i <= en->nidx; i++)
		if (open_bulk(en, en->ix[i].uri, "bulk,raw", &b->idx[i], e) < 0)
			goto fail;
	return 0;
fail:
	(void)close_bulk(en, NULL);
	return -1;
}

/* Room for one more entry in each index's list. */
static int grow(struct engine *en, struct err *e)
{
	struct wt_bulk *b = &en->bulk;
	uint64_t cap = b->cap ? b->cap * 2 : 65536;
	int i;

	for (i = 0; i <= en->nidx; i++) {
		unsigned char *p = realloc(b->ent[i], cap * b->slot[i]);

		if (!p)
			return err_set(
			    e, ERR_RUNTIME,
			    "--load copy: out of memory for %llu entries of the %s index "
			    "(sorted before its bulk load) - use fewer --rows",
			    (unsigned long long)cap, en->ix[i].name);
		b->ent[i] = p;
	}
	b->cap = cap;
	return 0;
}

/* Row n: its record into the collection's bulk cursor, its entries into
 * the lists. */
static int bulk_op(struct engine *en, long long op, uint64_t row, uint64_t version, struct err *e)
{
	struct wt_bulk *b = &en->bulk;
	int64_t recid = (int64_t)row + 1;
	WT_ITEM it = { .data = en->row, .size = en->row_len };
	int i, rc;

	(void)version;
	if (op != OP_INSERT)
		return err_set(e, ERR_RUNTIME, "--load copy runs inserts only (a bug in idxlab)");
	wt_make_row(en, row);
	b->coll->set_key(b->coll, recid);
	b->coll->set_value(b->coll, &it);
	if ((rc = b->coll->insert(b->coll)) != 0) {
		char what[96];

		snprintf(what, sizeof what, "bulk-load row %llu into %s", (unsigned long long)row,
		         COLL_URI);
		return wt_fail(en, e, what, rc);
	}
	if (b->n == b->cap && grow(en, e) < 0)
		return -1;
	for (i = 0; i <= en->nidx; i++) {
		unsigned char *s = b->ent[i] + b->n * b->slot[i];
		size_t used = 0;
		uint16_t len;

		memcpy(s + ENT_RECID, &recid, sizeof recid);
		rc = wt_index_pack(en, i, en->row, recid, s + ENT_KEY, b->slot[i] - ENT_KEY, &used);
		if (rc)
			return wt_fail(en, e, "pack an index key for the bulk load", rc);
		len = (uint16_t)used;
		memcpy(s + ENT_LEN, &len, sizeof len);
	}
	b->n++;
	return 0;
}

/* WiredTiger's order of packed keys: the bytes, then the length. */
static int cmp_entry(const void *pa, const void *pb)
{
	const unsigned char *a = pa, *b = pb;
	uint16_t la, lb;
	int c;

	memcpy(&la, a + ENT_LEN, sizeof la);
	memcpy(&lb, b + ENT_LEN, sizeof lb);
	c = memcmp(a + ENT_KEY, b + ENT_KEY, la < lb ? la : lb);
	return c ? c : (la > lb) - (la < lb);
}

/* Sort index i's entries and bulk-load them, in order, into its table. */
static int load_index(struct engine *en, int i, struct err *e)
{
	static const WT_ITEM empty = { .data = "", .size = 0 };
	struct wt_bulk *b = &en->bulk;
	const struct wt_index *x = &en->ix[i];
	WT_CURSOR *c = b->idx[i];
	uint64_t j;
	int rc = 0;
	char what[SCHEMA_NAME_MAX + 64];

	qsort(b->ent[i], b->n, b->slot[i], cmp_entry);
	for (j = 0; j < b->n && rc == 0; j++) {
		const unsigned char *s = b->ent[i] + j * b->slot[i];
		unsigned char v[16];
		WT_ITEM key = { .data = s + ENT_KEY }, val = { .data = v };
		uint16_t len;
		int64_t recid;

		memcpy(&len, s + ENT_LEN, sizeof len);
		memcpy(&recid, s + ENT_RECID, sizeof recid);
		key.size = len;
		if (x->unique && j > 0 && cmp_entry(s - b->slot[i], s) == 0)
			return err_set(
			    e, ERR_RUNTIME,
			    "--load copy: two records have one key of the unique index %s "
			    "- give its column distinct values (uuid, bigint seq or rand)",
			    x->name);
		c->set_key(c, &key);
		if (!x->unique) {
			c->set_value(c, &empty);
		} else if ((rc = wiredtiger_struct_pack(en->s, v, sizeof v, "q", recid)) != 0 ||
		           (rc = wiredtiger_struct_size(en->s, &val.size, "q", recid)) != 0) {
			break;
		} else {
			c->set_value(c, &val);
		}
		rc = c->insert(c);
	}
	if (rc == 0 && (rc = c->close(c)) == 0) {
		b->idx[i] = NULL;
		free(b->ent[i]);
		b->ent[i] = NULL;
		return 0;
	}
	snprintf(what, sizeof what, "bulk-load the %s index (%s)", x->name, x->uri);
	return wt_fail(en, e, what, rc);
}

/* The indexes' loads, then the collection's close: the step's one bulk
 * load is complete. */
static int bulk_commit(struct engine *en, struct txn *t, struct err *e)
{
	int i;

	for (i = 0; i <= en->nidx; i++)
		if (load_index(en, i, e) < 0)
			goto fail;
	if (close_bulk(en, e) < 0)
		goto fail;
	return 0;
fail:
	wt_bulk_discard(en);
	txn_rewind(t);
	return -1;
}

const struct txn_hooks wt_bulk_hooks = {
	.begin = bulk_begin,
	.op = bulk_op,
	.commit = bulk_commit,
};
