/* doc.c - BSON documents, write concerns and the URI for MongoDB. */
#include "doc.h"

#include <stdio.h>
#include <string.h>

#include "../../keys.h"

static int is_uuid_key(long long ko)
{
	return ko == KO_UUID7 || ko == KO_UUID4;
}

void mongo_doc_append_id(bson_t *b, const char *key, const struct knobs *k, uint64_t row)
{
	unsigned char u[KEYS_UUID_LEN];

	if (k->v[K_PK] == PK_INT) {
		BSON_APPEND_INT64(b, key, (int64_t)(row + 1));
		return;
	}
	keys_uuid((uint64_t)k->v[K_SEED], k->v[K_PK] == PK_UUID7, 0, row, 0, u);
	BSON_APPEND_BINARY(b, key, BSON_SUBTYPE_UUID, u, KEYS_UUID_LEN);
}

static const char *const key_names[] = { "k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8" };

/* Column col (1..8) of row n at version (0: as inserted). */
static void append_key(bson_t *b, const char *key, const struct knobs *k, int col, uint64_t row,
                       uint64_t version)
{
	uint64_t seed = (uint64_t)k->v[K_SEED];
	long long ko = k->v[K_KEY_ORDER];
	unsigned char u[KEYS_UUID_LEN];

	if (is_uuid_key(ko)) {
		keys_uuid(seed, ko == KO_UUID7, col, row, version, u);
		BSON_APPEND_BINARY(b, key, BSON_SUBTYPE_UUID, u, KEYS_UUID_LEN);
	} else {
		BSON_APPEND_INT64(b, key, keys_int(seed, (enum key_order)ko, col, row, version));
	}
}

void mongo_doc_row(bson_t *doc, const struct knobs *k, uint64_t row, const char *payload,
                   size_t payload_len)
{
	int c;

	mongo_doc_append_id(doc, "_id", k, row);
	for (c = 1; c <= 8; c++)
		append_key(doc, key_names[c - 1], k, c, row, 0);
	BSON_APPEND_INT32(doc, "hot", 0);
	bson_append_utf8(doc, "payload", 7, payload, (int)payload_len);
}

void mongo_doc_filter(bson_t *doc, const struct knobs *k, uint64_t row)
{
	mongo_doc_append_id(doc, "_id", k, row);
}

void mongo_doc_update(bson_t *doc, const struct knobs *k, long long op, uint64_t row,
                      uint64_t version)
{
	bson_t child;

	if (op == OP_UPDATE_INDEXED || op == OP_UPDATE_KEYS) {
		int c;

		BSON_APPEND_DOCUMENT_BEGIN(doc, "$set", &child);
		for (c = 1; c <= (op == OP_UPDATE_KEYS ? 8 : 1); c++)
			append_key(&child, key_names[c - 1], k, c, row, version);
	} else {
		BSON_APPEND_DOCUMENT_BEGIN(doc, "$inc", &child);
		BSON_APPEND_INT32(&child, "hot", 1);
	}
	bson_append_document_end(doc, &child);
}

mongoc_write_concern_t *mongo_doc_write_concern(long long sync)
{
	mongoc_write_concern_t *wc = mongoc_write_concern_new();

	if (sync == SYNC_EXTRA) {
		mongoc_write_concern_set_wmajority(wc, 0);
	} else {
		mongoc_write_concern_set_w(wc, 1);
		mongoc_write_concern_set_journal(wc, sync != SYNC_OFF);
	}
	return wc;
}

const char *mongo_doc_write_concern_text(long long sync)
{
	return sync == SYNC_EXTRA ? "w:majority" : sync == SYNC_OFF ? "w:1 j:false" : "w:1 j:true";
}

int mongo_doc_uri(const char *text, mongoc_uri_t **out, struct err *e)
{
	bson_error_t be;
	mongoc_uri_t *uri;

	*out = NULL;
	uri = mongoc_uri_new_with_error(text, &be);
	if (!uri)
		return err_set(e, ERR_USAGE,
		               "'%s' is not a MongoDB connection string: %s - write "
		               "mongodb://[user:password@]host[:port][/?options]",
		               text, be.message);
	if (!mongoc_uri_has_option(uri, MONGOC_URI_SERVERSELECTIONTIMEOUTMS))
		mongoc_uri_set_option_as_int32(uri, MONGOC_URI_SERVERSELECTIONTIMEOUTMS,
		                               MONGO_DOC_TIMEOUT_MS);
	if (!mongoc_uri_has_option(uri, MONGOC_URI_CONNECTTIMEOUTMS))
		mongoc_uri_set_option_as_int32(uri, MONGOC_URI_CONNECTTIMEOUTMS,
		                               MONGO_DOC_TIMEOUT_MS);
	if (!mongoc_uri_get_appname(uri))
		mongoc_uri_set_appname(uri, "idxlab");
	*out = uri;
	return 0;
}

void mongo_doc_hosts(const mongoc_uri_t *uri, char *buf, size_t len)
{
	const mongoc_host_list_t *h;
	size_t n = 0;

	buf[0] = 0;
	for (h = mongoc_uri_get_hosts(uri); h && n < len; h = h->next)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "," : "", h->host_and_port);
	if (!buf[0] && mongoc_uri_get_srv_hostname(uri))
		snprintf(buf, len, "%s (SRV)", mongoc_uri_get_srv_hostname(uri));
}
