/* rows.c - the open batch: one operation on one row, and the load.
 *
 * An operation is an insert of a document, a `$inc` of hot or a `$set` of
 * k1 by _id, or a delete by _id, queued into one ordered bulk write
 * (documents from doc.c); txn.c sends it. */
#include <stdatomic.h>

#include "internal.h"

/* A fresh ordered batch under the current write concern. */
void mongo_open_bulk(struct engine *en)
{
	bson_t opts = BSON_INITIALIZER;

	BSON_APPEND_BOOL(&opts, "ordered", true);
	en->bulk = mongoc_collection_create_bulk_operation_with_opts(en->coll, &opts);
	mongoc_bulk_operation_set_write_concern(en->bulk, en->wc);
	en->bulk_ops = en->bulk_bytes = 0;
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
