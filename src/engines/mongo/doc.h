/* doc.h - what the MongoDB engine sends, as pure functions.
 *
 * The documents of the workload in BSON, the indexes' names and keys, the
 * write concern a sync level means and the connection string with idxlab's
 * defaults. Nothing here talks to a server, so the unit tests check every
 * field and type. A document holds the fields of the knobs' table spec
 * (schema.h, schema_of(k)) by name and in its order: _id, the value
 * columns, the spec's hot column, payload; values come from schema_value(),
 * so row n has the same values as on every other engine.
 *
 * Types: int is int32, bigint int64, text a UTF-8 string, uuid BSON binary
 * subtype 4, timestamp a BSON date: milliseconds, the microseconds floored
 * (a value finer than a millisecond - a rand timestamp - loses its last
 * three digits). _id is the id: int64 (row + 1 for seq) or a uuid. The hot
 * field is int32 0; payload a UTF-8 string. The default table is
 * { _id, k1..k8, hot, payload } as it always was. numeric is Decimal128,
 * bool a BSON bool, date a BSON date at midnight UTC, timestamptz a date
 * like timestamp. A NULL is a field left out of the document (as an
 * unset field in a collection is), null in an update's $set. A table
 * without its own hot (hot none, hot COLUMN) has no hot field; op update
 * then $sets the hot column. No payload field on a `payload none` table
 * unless the payload knob asks for one. */
#ifndef IDXLAB_MONGO_DOC_H
#define IDXLAB_MONGO_DOC_H

#include <mongoc/mongoc.h>
#include <stdint.h>

#include "../../err.h"
#include "../../knobs.h"
#include "../../schema.h"

#define MONGO_DOC_TIMEOUT_MS 3000 /* server selection and connect, unless the URI says */

/* Append `key: <row n's id>` to b. */
void mongo_doc_append_id(bson_t *b, const char *key, const struct knobs *k, uint64_t row);

/* The insert document of row n into doc (initialised by the caller, e.g.
 * bson_init). payload (borrowed) holds payload_len bytes, no NUL inside. */
void mongo_doc_row(bson_t *doc, const struct knobs *k, uint64_t row, const char *payload,
                   size_t payload_len);

/* The filter that names row n: { _id: <id> }. */
void mongo_doc_filter(bson_t *doc, const struct knobs *k, uint64_t row);

/* The update of op (OP_UPDATE: { $inc: { <hot>: 1 } }; OP_UPDATE_INDEXED
 * and OP_UPDATE_KEYS: { $set: { <the columns schema_op_cols names>: <row
 * n's values at this version> } }) into doc. */
void mongo_doc_update(bson_t *doc, const struct knobs *k, long long op, uint64_t row,
                      uint64_t version);

/* The field column col of s is in a document: "_id" for the id, else
 * the column's name (borrowed from s). */
const char *mongo_doc_field(const struct schema *s, int col);

/* Query q (op lookup, range) of k's table on the values of row n (miss:
 * values no row holds, schema_query_value): its find filter into filter,
 * { <field>: { $eq|$lt|$lte|$gt|$gte: <value>, ... }, ... } (the terms on
 * one field in one document, values in the documents' types), and its
 * find options into opts: sort { <field>: 1|-1 } and limit, when q has
 * them. Both initialised by the caller. */
void mongo_doc_query(bson_t *filter, bson_t *opts, const struct knobs *k,
                     const struct query_spec *q, uint64_t row, int miss);

/* Can MongoDB hold spec s? -1 (ERR_USAGE) for a column named _id. */
int mongo_doc_check(const struct schema *s, struct err *e);

/* Index i of s (0-based, its list position): its name into buf (the
 * spec's name; the default table keeps MongoDB's own, k1_1 ... k8_1) and
 * its key document { col: 1, ... } in the spec's column order into key. */
void mongo_doc_index_name(const struct schema *s, int i, char *buf, size_t len);
void mongo_doc_index_key(bson_t *key, const struct schema *s, int i);

/* Index i's WHERE as its partialFilterExpression, appended to its index
 * document one, when MongoDB takes every term (=, <, <=, >, >=: $eq ...;
 * is not null: $exists; terms on one column in one document); 1 if it
 * was, 0 (nothing appended) when x has no WHERE or a term it does not
 * take (<>, is null). */
int mongo_doc_index_filter(bson_t *one, const struct schema *s, int i);

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
