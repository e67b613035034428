/* doc.c - the cases of src/engines/mongo/doc.c: the BSON documents of a row,
 * a filter and an update, the write concerns of --sync, and the URI (no
 * server runs here). Built only with the mongo engine (the Makefile's
 * -DIDXLAB_HAVE_MONGO); else its case says SKIP. */
#include <stdio.h>
#include <string.h>

#include "unit.h"

#ifdef IDXLAB_HAVE_MONGO
#include <bson/bson.h>

#include "engines/mongo/doc.h"
#include "keys.h"
#include "knobs.h"

static void test_mongo_doc(void)
{
	struct knobs k;
	struct err e;
	bson_t row, upd;
	bson_iter_t it, sub;
	mongoc_write_concern_t *wc;
	mongoc_uri_t *uri;
	unsigned char u[KEYS_UUID_LEN];
	const uint8_t *bin;
	uint32_t blen, slen;
	bson_subtype_t subtype;
	const char *keys[] = { "_id", "k1", "k2", "k3",  "k4",     "k5",
		               "k6",  "k7", "k8", "hot", "payload" };
	char hosts[128];
	int i;

	/* The insert document of a row: fields in order, with their types. */
	knobs_defaults(&k);
	k.v[K_SEED] = 7;
	bson_init(&row);
	mongo_doc_row(&row, &k, 41, "abcde", 5);
	CHECK(bson_count_keys(&row) == 11);
	i = 0;
	if (bson_iter_init(&it, &row))
		while (bson_iter_next(&it) && i < 11)
			CHECK(strcmp(bson_iter_key(&it), keys[i++]) == 0);
	CHECK(bson_iter_init_find(&it, &row, "_id") && BSON_ITER_HOLDS_INT64(&it) &&
	      bson_iter_int64(&it) == 42);
	CHECK(bson_iter_init_find(&it, &row, "k3") && BSON_ITER_HOLDS_INT64(&it) &&
	      bson_iter_int64(&it) == keys_int(7, KO_SEQ, 3, 41, 0));
	CHECK(bson_iter_init_find(&it, &row, "hot") && BSON_ITER_HOLDS_INT32(&it) &&
	      bson_iter_int32(&it) == 0);
	CHECK(bson_iter_init_find(&it, &row, "payload") && BSON_ITER_HOLDS_UTF8(&it) &&
	      strcmp(bson_iter_utf8(&it, &slen), "abcde") == 0 && slen == 5);
	bson_destroy(&row);

	/* uuid keys and ids: binary subtype 4, the bytes keys.h makes. */
	k.v[K_PK] = PK_UUID4;
	k.v[K_KEY_ORDER] = KO_UUID7;
	bson_init(&row);
	mongo_doc_row(&row, &k, 9, "", 0);
	CHECK(bson_iter_init_find(&it, &row, "_id") && BSON_ITER_HOLDS_BINARY(&it));
	bson_iter_binary(&it, &subtype, &blen, &bin);
	keys_uuid(7, 0, 0, 9, 0, u);
	CHECK(subtype == BSON_SUBTYPE_UUID && blen == 16 && memcmp(bin, u, 16) == 0);
	CHECK((bin[6] >> 4) == 4);
	CHECK(bson_iter_init_find(&it, &row, "k8") && BSON_ITER_HOLDS_BINARY(&it));
	bson_iter_binary(&it, &subtype, &blen, &bin);
	keys_uuid(7, 1, 8, 9, 0, u);
	CHECK(subtype == BSON_SUBTYPE_UUID && blen == 16 && memcmp(bin, u, 16) == 0);
	CHECK((bin[6] >> 4) == 7);
	bson_destroy(&row);
	k.v[K_PK] = PK_UUID7;
	bson_init(&row);
	mongo_doc_filter(&row, &k, 9);
	CHECK(bson_count_keys(&row) == 1 && bson_iter_init_find(&it, &row, "_id"));
	bson_iter_binary(&it, &subtype, &blen, &bin);
	CHECK(subtype == BSON_SUBTYPE_UUID && blen == 16 && (bin[6] >> 4) == 7);
	bson_destroy(&row);

	/* Updates: $inc of hot by 1; $set of k1 to the row's next version. */
	k.v[K_PK] = PK_INT;
	k.v[K_KEY_ORDER] = KO_RAND;
	bson_init(&upd);
	mongo_doc_update(&upd, &k, OP_UPDATE, 3, 1);
	CHECK(bson_count_keys(&upd) == 1 && bson_iter_init_find(&it, &upd, "$inc") &&
	      bson_iter_recurse(&it, &sub) && bson_iter_find(&sub, "hot") &&
	      BSON_ITER_HOLDS_INT32(&sub) && bson_iter_int32(&sub) == 1);
	bson_destroy(&upd);
	bson_init(&upd);
	mongo_doc_update(&upd, &k, OP_UPDATE_INDEXED, 3, 2);
	CHECK(bson_iter_init_find(&it, &upd, "$set") && bson_iter_recurse(&it, &sub) &&
	      bson_iter_find(&sub, "k1") && BSON_ITER_HOLDS_INT64(&sub) &&
	      bson_iter_int64(&sub) == keys_int(7, KO_RAND, 1, 3, 2) &&
	      bson_iter_int64(&sub) != keys_int(7, KO_RAND, 1, 3, 0));
	bson_destroy(&upd);
	/* update-keys: $set of k1..k8, in order, at the new version. */
	bson_init(&upd);
	mongo_doc_update(&upd, &k, OP_UPDATE_KEYS, 3, 2);
	{
		int col = 0, good = 1;

		if (bson_iter_init_find(&it, &upd, "$set") && bson_iter_recurse(&it, &sub))
			while (bson_iter_next(&sub) && col < 8) {
				char name[16];

				col++;
				snprintf(name, sizeof name, "k%d", col);
				good &= strcmp(bson_iter_key(&sub), name) == 0 &&
				        BSON_ITER_HOLDS_INT64(&sub) &&
				        bson_iter_int64(&sub) == keys_int(7, KO_RAND, col, 3, 2);
			}
		CHECK(col == 8 && good && !bson_iter_next(&sub));
	}
	bson_destroy(&upd);

	/* Write concerns: sync off/normal/full/extra. */
	wc = mongo_doc_write_concern(SYNC_OFF);
	CHECK(mongoc_write_concern_get_w(wc) == 1 && mongoc_write_concern_journal_is_set(wc) &&
	      !mongoc_write_concern_get_journal(wc));
	mongoc_write_concern_destroy(wc);
	wc = mongo_doc_write_concern(SYNC_NORMAL);
	CHECK(mongoc_write_concern_get_w(wc) == 1 && mongoc_write_concern_get_journal(wc));
	mongoc_write_concern_destroy(wc);
	wc = mongo_doc_write_concern(SYNC_FULL);
	CHECK(mongoc_write_concern_get_w(wc) == 1 && mongoc_write_concern_get_journal(wc));
	mongoc_write_concern_destroy(wc);
	wc = mongo_doc_write_concern(SYNC_EXTRA);
	CHECK(mongoc_write_concern_get_wmajority(wc));
	mongoc_write_concern_destroy(wc);
	CHECK(strcmp(mongo_doc_write_concern_text(SYNC_OFF), "w:1 j:false") == 0);

	/* The URI: short timeouts unless it sets its own; no password shown. */
	CHECK(mongo_doc_uri("mongodb://127.0.0.1:1/", &uri, &e) == 0);
	if (uri) {
		CHECK(mongoc_uri_get_option_as_int32(uri, MONGOC_URI_SERVERSELECTIONTIMEOUTMS, 0) ==
		      MONGO_DOC_TIMEOUT_MS);
		CHECK(mongoc_uri_get_option_as_int32(uri, MONGOC_URI_CONNECTTIMEOUTMS, 0) ==
		      MONGO_DOC_TIMEOUT_MS);
		CHECK(mongoc_uri_get_appname(uri) &&
		      strcmp(mongoc_uri_get_appname(uri), "idxlab") == 0);
		mongoc_uri_destroy(uri);
	}
	CHECK(mongo_doc_uri("mongodb://u:secret@a:1,b:2/?serverSelectionTimeoutMS=100&appname=x",
	                    &uri, &e) == 0);
	if (uri) {
		CHECK(mongoc_uri_get_option_as_int32(uri, MONGOC_URI_SERVERSELECTIONTIMEOUTMS, 0) ==
		      100);
		CHECK(mongoc_uri_get_option_as_int32(uri, MONGOC_URI_CONNECTTIMEOUTMS, 0) ==
		      MONGO_DOC_TIMEOUT_MS);
		CHECK(strcmp(mongoc_uri_get_appname(uri), "x") == 0);
		mongo_doc_hosts(uri, hosts, sizeof hosts);
		CHECK(strcmp(hosts, "a:1,b:2") == 0);
		mongoc_uri_destroy(uri);
	}
	CHECK(mongo_doc_uri("http://x", &uri, &e) < 0 && uri == NULL && e.cls == ERR_USAGE &&
	      strstr(e.msg, "mongodb://") != NULL);
}

/* The field of name in b as text ("" when it is not a string). */
static const char *text_at(const bson_t *b, const char *path)
{
	bson_iter_t it, f;

	return bson_iter_init(&it, b) && bson_iter_find_descendant(&it, path, &f) &&
	               BSON_ITER_HOLDS_UTF8(&f)
	           ? bson_iter_utf8(&f, NULL)
	           : "";
}

/* A read's find: the filter of the query's terms in the documents' field
 * names and types, with the row's values (or a miss's), the sort and
 * limit of a range; several terms on one field in one document. */
static void test_mongo_doc_query(void)
{
	struct query_spec q[SCHEMA_QUERY_MAX], two;
	long long users = -1;
	struct knobs k;
	struct err e;
	bson_t doc, filter, opts;
	bson_iter_t it, f;
	char email[256];
	const struct schema *s;
	int n, email_col;

	knobs_defaults(&k);
	if (schema_load("users", &users, &e) < 0) {
		CHECK(!"the users spec loads");
		return;
	}
	k.v[K_SCHEMA] = users;
	s = schema_of(&k);
	n = schema_read_queries(s, &k, OP_LOOKUP, q);
	CHECK(n >= 1 && q[0].nterms == 1 && strcmp(s->cols[q[0].term[0].col].name, "email") == 0);
	email_col = q[0].term[0].col;
	/* row 12's document holds the email the lookup asks for */
	bson_init(&doc);
	mongo_doc_row(&doc, &k, 12, "", 0);
	snprintf(email, sizeof email, "%s", text_at(&doc, "email"));
	bson_destroy(&doc);
	bson_init(&filter);
	bson_init(&opts);
	mongo_doc_query(&filter, &opts, &k, &q[0], 12, 0);
	CHECK(email[0] && strcmp(text_at(&filter, "email.$eq"), email) == 0);
	CHECK(bson_count_keys(&filter) == 1 && bson_count_keys(&opts) == 0);
	bson_destroy(&filter);
	bson_destroy(&opts);
	/* a miss: a value of the same type that no row holds */
	bson_init(&filter);
	bson_init(&opts);
	mongo_doc_query(&filter, &opts, &k, &q[0], 12, 1);
	CHECK(text_at(&filter, "email.$eq")[0] == '~');
	bson_destroy(&filter);
	bson_destroy(&opts);
	/* a range: $gte, sorted up the same field, limit range-rows (int64) */
	k.v[K_RANGE_ROWS] = 25;
	n = schema_read_queries(s, &k, OP_RANGE, q);
	bson_init(&filter);
	bson_init(&opts);
	mongo_doc_query(&filter, &opts, &k, &q[0], 12, 0);
	CHECK(strcmp(text_at(&filter, "email.$gte"), email) == 0);
	CHECK(bson_iter_init(&it, &opts) && bson_iter_find_descendant(&it, "sort.email", &f) &&
	      bson_iter_as_int64(&f) == 1);
	CHECK(bson_iter_init(&it, &opts) && bson_iter_find(&it, "limit") &&
	      BSON_ITER_HOLDS_INT64(&it) && bson_iter_int64(&it) == 25);
	bson_destroy(&filter);
	bson_destroy(&opts);
	/* two terms on one field: one document; descending */
	memset(&two, 0, sizeof two);
	two.nterms = 2;
	two.term[0] = (struct query_term){ .col = email_col, .cmp = QC_GT };
	two.term[1] = (struct query_term){ .col = email_col, .cmp = QC_LE };
	two.order_col = email_col;
	two.order_desc = 1;
	bson_init(&filter);
	bson_init(&opts);
	mongo_doc_query(&filter, &opts, &k, &two, 12, 0);
	CHECK(bson_count_keys(&filter) == 1 && strcmp(text_at(&filter, "email.$gt"), email) == 0 &&
	      strcmp(text_at(&filter, "email.$lte"), email) == 0);
	CHECK(bson_iter_init(&it, &opts) && bson_iter_find_descendant(&it, "sort.email", &f) &&
	      bson_iter_as_int64(&f) == -1 && bson_iter_init(&it, &opts) &&
	      !bson_iter_find(&it, "limit"));
	bson_destroy(&filter);
	bson_destroy(&opts);
	/* the id is _id, in the documents' type */
	two.nterms = 1;
	two.term[0] = (struct query_term){ .col = 0, .cmp = QC_EQ };
	two.order_col = -1;
	bson_init(&filter);
	bson_init(&opts);
	mongo_doc_query(&filter, &opts, &k, &two, 12, 0);
	CHECK(bson_iter_init(&it, &filter) && bson_iter_find_descendant(&it, "_id.$eq", &f) &&
	      BSON_ITER_HOLDS_INT64(&f) && bson_count_keys(&opts) == 0);
	bson_destroy(&filter);
	bson_destroy(&opts);
}
#else
static void test_mongo_doc(void)
{
	unit_skip("built without the mongo engine (install libmongoc-dev, then make)");
}

static void test_mongo_doc_query(void)
{
	unit_skip("built without the mongo engine (install libmongoc-dev, then make)");
}
#endif

const struct unit_case unit_engines_mongo_doc[] = {
	{ "unit/mongo-doc", test_mongo_doc },
	{ "unit/mongo-doc-query", test_mongo_doc_query },
	{ NULL, NULL },
};
