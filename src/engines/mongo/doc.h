/* doc.h - what the MongoDB engine sends, as pure functions.
 *
 * The documents of the workload (engine.h: id, k1..k8, hot, payload) in
 * BSON, the write concern a sync level means and the connection string with
 * idxlab's defaults. Nothing here talks to a server, so the unit tests check
 * every field and type. Row values come from keys.h: row n has the same
 * _id and k1..k8 as on every other engine.
 *
 * Types: _id is int64 n+1 (pk int) or a 16-byte uuid (pk uuid7/uuid4);
 * k1..k8 are int64 (key order seq/rand/few) or uuids (uuid7/uuid4); uuids are
 * BSON binary subtype 4. hot is int32 0; payload a UTF-8 string. */
#ifndef IDXLAB_MONGO_DOC_H
#define IDXLAB_MONGO_DOC_H

#include <mongoc/mongoc.h>
#include <stdint.h>

#include "../../err.h"
#include "../../knobs.h"

#define MONGO_DOC_TIMEOUT_MS 3000 /* server selection and connect, unless the URI says */

/* Append `key: <row n's id>` to b. */
void mongo_doc_append_id(bson_t *b, const char *key, const struct knobs *k, uint64_t row);

/* The insert document of row n into doc (initialised by the caller, e.g.
 * bson_init). payload (borrowed) holds payload_len bytes, no NUL inside. */
void mongo_doc_row(bson_t *doc, const struct knobs *k, uint64_t row, const char *payload,
                   size_t payload_len);

/* The filter that names row n: { _id: <id> }. */
void mongo_doc_filter(bson_t *doc, const struct knobs *k, uint64_t row);

/* The update of op (OP_UPDATE: { $inc: { hot: 1 } }; OP_UPDATE_INDEXED:
 * { $set: { k1: <row n's k1 at this version> } }) into doc. */
void mongo_doc_update(bson_t *doc, const struct knobs *k, long long op, uint64_t row,
                      uint64_t version);

/* The write concern a sync level stands for: off w:1 j:false; normal and
 * full w:1 j:true; extra w:"majority". The caller destroys it. */
mongoc_write_concern_t *mongo_doc_write_concern(long long sync);

/* "w:1 j:false" for messages. */
const char *mongo_doc_write_concern_text(long long sync);

/* Parse a mongodb:// or mongodb+srv:// URI and add idxlab's defaults where
 * the URI is silent: serverSelectionTimeoutMS and connectTimeoutMS
 * MONGO_DOC_TIMEOUT_MS (an unreachable server fails fast), appname idxlab.
 * *out is the caller's (mongoc_uri_destroy). -1 (ERR_USAGE) with a message
 * that shows the expected form when it does not parse. */
int mongo_doc_uri(const char *text, mongoc_uri_t **out, struct err *e);

/* "host:port[,host:port...]" of uri, without user or password. */
void mongo_doc_hosts(const mongoc_uri_t *uri, char *buf, size_t len);

#endif
