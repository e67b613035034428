/* rows.c - the open batch: one operation on one row, and the load.
 *
 * An operation is an insert of a document, a `$inc` of the hot field or a
 * `$set` of the op's columns by _id, or a delete by _id, queued into one
 * ordered bulk write (documents from doc.c); txn.c sends it.
 *
 * --load copy: the inserts of a transaction go by libmongoc's
 * mongoc_collection_insert_many, unordered (ordered: false), the driver's
 * bulk-load call. It takes its documents all at once, so they are kept
 * back to back in one buffer (struct mongo_docs) until the batch is sent:
 * the same insert command on the wire as the ordered bulk's, but the
 * server is free to go on past a failing document, and the client hands
 * the whole batch over at its send instead of appending each document as
 * it comes. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static void *grow(void *p, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 64;

	if (need <= *cap)
		return p;
	while (n < need)
		n *= 2;
	p = realloc(p, n * size);
	if (!p)
		abort();
	*cap = n;
	return p;
}

/* Append doc to the open insert_many batch. */
static void docs_add(struct mongo_docs *d, const bson_t *doc)
{
	size_t old = d->ncap;

	d->buf = grow(d->buf, &d->cap, d->len + doc->len, 1);
	memcpy(d->buf + d->len, bson_get_data(doc), doc->len);
	d->off = grow(d->off, &d->ncap, d->n + 1, sizeof *d->off);
	if (d->ncap != old) {
		d->views = realloc(d->views, d->ncap * sizeof *d->views);
		d->ptrs = realloc(d->ptrs, d->ncap * sizeof *d->ptrs);
		if (!d->views || !d->ptrs)
			abort();
	}
	d->off[d->n++] = d->len;
	d->len += doc->len;
}

void mongo_docs_free(struct mongo_docs *d)
{
	free(d->buf);
	free(d->off);
	free(d->views);
	free(d->ptrs);
	memset(d, 0, sizeof *d);
}

int mongo_flush_docs(struct engine *en, struct err *e)
{
	struct mongo_docs *d = &en->docs;
	bson_t opts = BSON_INITIALIZER, reply;
	uint64_t n = d->n, got = 0;
	bson_error_t be;
	bson_iter_t it;
	size_t i;
	bool ok = true;

	if (!n)
		return 0;
	for (i = 0; i < d->n && ok; i++) {
		size_t end = i + 1 < d->n ? d->off[i + 1] : d->len;

		ok = bson_init_static(&d->views[i], d->buf + d->off[i], end - d->off[i]);
		d->ptrs[i] = &d->views[i];
	}
	BSON_APPEND_BOOL(&opts, "ordered", false);
	mongoc_write_concern_append(en->wc, &opts);
	if (ok)
		ok = mongoc_collection_insert_many(en->coll, d->ptrs, d->n, &opts, &reply, &be);
	else
		bson_init(&reply);
	bson_destroy(&opts);
	d->n = d->len = 0;
	mongo_bulk_zero(en);
	if (!ok) {
		char what[64];

		snprintf(what, sizeof what, "insert_many of %llu documents", (unsigned long long)n);
		bson_destroy(&reply);
		return mongo_fail(en, &be, e, what);
	}
	if (bson_iter_init_find(&it, &reply, "insertedCount") && BSON_ITER_HOLDS_NUMBER(&it))
		got = (uint64_t)bson_iter_as_int64(&it);
	bson_destroy(&reply);
	if (got != n)
		return err_set(e, ERR_RUNTIME,
		               "insert_many: the server reports insertedCount %llu for %llu "
		               "documents - idxlab.t is not what idxlab built (was it changed "
		               "meanwhile?)",
		               (unsigned long long)got, (unsigned long long)n);
	return 0;
}

void mongo_drop_batch(struct engine *en)
{
	if (en->bulk) {
		mongoc_bulk_operation_destroy(en->bulk);
		en->bulk = NULL;
	}
	en->docs.n = en->docs.len = 0;
	mongo_bulk_zero(en);
}

/* A fresh ordered batch under the current write concern. */
void mongo_open_bulk(struct engine *en)
{
	bson_t opts = BSON_INITIALIZER;

	if (en->copy) {
		mongo_drop_batch(en);
		return;
	}

	BSON_APPEND_BOOL(&opts, "ordered", true);
	en->bulk = mongoc_collection_create_bulk_operation_with_opts(en->coll, &opts);
	mongoc_bulk_operation_set_write_concern(en->bulk, en->wc);
	mongo_bulk_zero(en);
	bson_destroy(&opts);
}

/* Queue op on row n into the open batch. */
int mongo_add_op(struct engine *en, long long op, uint64_t row, uint64_t version, struct err *e)
{
	bson_t a, b;
	bson_error_t be;
	int ok;

	bson_init(&a);
	if (op == OP_INSERT) {
		mongo_doc_row(&a, &en->k, row, en->payload, (size_t)en->k.v[K_PAYLOAD]);
		ok = 1;
		if (en->copy)
			docs_add(&en->docs, &a);
		else
			ok = mongoc_bulk_operation_insert_with_opts(en->bulk, &a, NULL, &be);
		en->bulk_last = a.len;
	} else {
		mongo_doc_filter(&a, &en->k, row);
		en->bulk_last = a.len;
		if (op == OP_DELETE) {
			ok = mongoc_bulk_operation_remove_one_with_opts(en->bulk, &a, NULL, &be);
		} else {
			bson_init(&b);
			mongo_doc_update(&b, &en->k, op, row, version);
			ok =
			    mongoc_bulk_operation_update_one_with_opts(en->bulk, &a, &b, NULL, &be);
			en->bulk_last += b.len;
			bson_destroy(&b);
		}
	}
	bson_destroy(&a);
	if (!ok)
		return err_set(e, ERR_RUNTIME, "cannot queue a %s: %s",
		               knob_table[K_OP].choices[op], be.message);
	en->bulk_ops++;
	en->bulk_n[op]++;
	en->bulk_bytes += en->bulk_last;
	return 0;
}

/* Insert rows 0..rows-1 (w:1 j:false: the load is not measured). */
int mongo_load(struct engine *en, uint64_t rows, struct err *e)
{
	mongoc_write_concern_t *wc = en->wc;
	uint64_t n;
	int rc = 0;

	en->wc = mongo_doc_write_concern(SYNC_OFF);
	for (n = 0; n < rows && rc == 0; n++) {
		if (!en->bulk)
			mongo_open_bulk(en);
		rc = mongo_add_op(en, OP_INSERT, n, 0, e);
		if (rc == 0 && (en->bulk_ops == LOAD_BATCH || n + 1 == rows)) {
			rc = mongo_flush(en, OP_INSERT, e);
			if (rc == 0 && en->stop && atomic_load(en->stop))
				rc = err_set(e, ERR_RUNTIME, "loading idxlab.t: stopped");
		}
	}
	if (en->bulk) {
		mongoc_bulk_operation_destroy(en->bulk);
		en->bulk = NULL;
	}
	mongoc_write_concern_destroy(en->wc);
	en->wc = wc;
	return rc < 0 ? err_prefix(e, "loading %llu rows", (unsigned long long)rows) : 0;
}
