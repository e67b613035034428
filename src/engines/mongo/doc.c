/* doc.c - BSON documents, write concerns and the URI for MongoDB. */
#include "doc.h"

#include <stdio.h>
#include <string.h>

#include "../../schema.h"
#include "../../schema_idx.h"

/* units 10^-scale as decimal text: "1234.56". */
static void numeric_text(int64_t units, int scale, char *buf, size_t len)
{
	uint64_t u = units < 0 ? 0 - (uint64_t)units : (uint64_t)units, p = 1;
	int i;

	for (i = 0; i < scale; i++)
		p *= 10;
	if (scale)
		snprintf(buf, len, "%s%llu.%0*llu", units < 0 ? "-" : "",
		         (unsigned long long)(u / p), scale, (unsigned long long)(u % p));
	else
		snprintf(buf, len, "%s%llu", units < 0 ? "-" : "", (unsigned long long)u);
}

/* Append `name: v` in the BSON type of v's column type (doc.h); a NULL
 * is no field, or null in a $set (set). */
static void append_value(bson_t *b, const char *name, const struct value *vp, int set)
{
	const struct value v = *vp;
	int64_t ms;

	if (v.null) { /* as documents leave an unset field out; a $set sets null */
		if (set)
			bson_append_null(b, name, -1);
		return;
	}
	switch (v.type) {
	case COL_INT:
		bson_append_int32(b, name, -1, (int32_t)v.i);
		break;
	case COL_BOOL:
		bson_append_bool(b, name, -1, v.i != 0);
		break;
	case COL_NUMERIC: { /* Decimal128, as drivers store a decimal */
		bson_decimal128_t d;
		char text[48];

		numeric_text(v.i, v.scale, text, sizeof text);
		if (bson_decimal128_from_string(text, &d))
			bson_append_decimal128(b, name, -1, &d);
		break;
	}
	case COL_DATE: /* a BSON date at midnight UTC: BSON has no date of its own */
		bson_append_date_time(b, name, -1, v.i * 86400000LL);
		break;
	case COL_TIMESTAMPTZ:
	case COL_TIMESTAMP:
		/* BSON dates are milliseconds: floor, also before 1970 */
		ms = v.i / 1000 - (v.i % 1000 < 0);
		bson_append_date_time(b, name, -1, ms);
		break;
	case COL_TEXT:
		bson_append_utf8(b, name, -1, (const char *)v.b, (int)v.len);
		break;
	case COL_UUID:
		bson_append_binary(b, name, -1, BSON_SUBTYPE_UUID, v.b, (uint32_t)v.len);
		break;
	default: /* COL_BIGINT */
		bson_append_int64(b, name, -1, v.i);
		break;
	}
}

/* Append `name: <value of column col of row n at version>` (append_value). */
static void append_col(bson_t *b, const char *name, const struct schema *s, const struct knobs *k,
                       int col, uint64_t row, uint64_t version, int set)
{
	struct value v;

	schema_value(s, k, col, row, version, &v);
	append_value(b, name, &v, set);
}

const char *mongo_doc_field(const struct schema *s, int col)
{
	return col == 0 ? "_id" : s->cols[col].name;
}

void mongo_doc_query(bson_t *filter, bson_t *opts, const struct knobs *k,
                     const struct query_spec *q, uint64_t row, int miss)
{
	static const char *const cmp[QC_COUNT] = {
		[QC_EQ] = "$eq", [QC_LT] = "$lt",  [QC_LE] = "$lte",
		[QC_GT] = "$gt", [QC_GE] = "$gte",
	};
	const struct schema *s = schema_of(k);
	bson_t term, sort;
	int i, j;

	for (i = 0; i < q->nterms; i++) {
		int seen = 0;

		for (j = 0; j < i; j++)
			seen = seen || q->term[j].col == q->term[i].col;
		if (seen)
			continue;
		/* terms on one field are one document: {n: {$gte: 1, $lt: 9}} */
		BSON_APPEND_DOCUMENT_BEGIN(filter, mongo_doc_field(s, q->term[i].col), &term);
		for (j = i; j < q->nterms; j++) {
			struct value v;

			if (q->term[j].col != q->term[i].col)
				continue;
			schema_query_value(s, k, &q->term[j], row, miss, &v);
			append_value(&term, cmp[q->term[j].cmp], &v, 1);
		}
		bson_append_document_end(filter, &term);
	}
	if (q->order_col >= 0) {
		BSON_APPEND_DOCUMENT_BEGIN(opts, "sort", &sort);
		bson_append_int32(&sort, mongo_doc_field(s, q->order_col), -1,
		                  q->order_desc ? -1 : 1);
		bson_append_document_end(opts, &sort);
	}
	if (q->limit)
		BSON_APPEND_INT64(opts, "limit", q->limit);
}

void mongo_doc_append_id(bson_t *b, const char *key, const struct knobs *k, uint64_t row)
{
	append_col(b, key, schema_of(k), k, 0, row, 0, 0);
}

void mongo_doc_row(bson_t *doc, const struct knobs *k, uint64_t row, const char *payload,
                   size_t payload_len)
{
	const struct schema *s = schema_of(k);
	int c;

	append_col(doc, "_id", s, k, 0, row, 0, 0);
	for (c = 1; c < s->ncols; c++)
		append_col(doc, s->cols[c].name, s, k, c, row, 0, 0);
	if (schema_has_hot(s))
		bson_append_int32(doc, s->hot, -1, 0);
	if (schema_has_payload(s, k))
		bson_append_utf8(doc, "payload", 7, payload, (int)payload_len);
}

void mongo_doc_filter(bson_t *doc, const struct knobs *k, uint64_t row)
{
	mongo_doc_append_id(doc, "_id", k, row);
}

void mongo_doc_update(bson_t *doc, const struct knobs *k, long long op, uint64_t row,
                      uint64_t version)
{
	const struct schema *s = schema_of(k);
	int cols[SCHEMA_COLS_MAX], n, i;
	bson_t child;

	if (op == OP_UPDATE_INDEXED || op == OP_UPDATE_KEYS || !schema_has_hot(s)) {
		n = schema_op_cols(s, op, cols);
		BSON_APPEND_DOCUMENT_BEGIN(doc, "$set", &child);
		for (i = 0; i < n; i++)
			append_col(&child, s->cols[cols[i]].name, s, k, cols[i], row, version, 1);
	} else {
		BSON_APPEND_DOCUMENT_BEGIN(doc, "$inc", &child);
		bson_append_int32(&child, s->hot, -1, 1);
	}
	bson_append_document_end(doc, &child);
}

int mongo_doc_check(const struct schema *s, struct err *e)
{
	int c;

	for (c = 1; c < s->ncols; c++)
		if (strcmp(s->cols[c].name, "_id") == 0)
			break;
	if (c < s->ncols || strcmp(s->hot, "_id") == 0)
		return err_set(e, ERR_USAGE,
		               "table spec %s: a column named _id - MongoDB's _id is the spec's "
		               "id; rename the column",
		               s->name);
	return 0;
}

void mongo_doc_index_name(const struct schema *s, int i, char *buf, size_t len)
{
	const struct index_spec *x = &s->idx[i];
	size_t n = 0;
	int c;

	if (s != schema_get(0)) {
		snprintf(buf, len, "%s", x->name);
		return;
	}
	/* MongoDB's own naming, as idxlab's table always had it: k1_1 */
	buf[0] = 0;
	for (c = 0; c < x->ncols && n < len; c++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s_1", c ? "_" : "",
		                      s->cols[x->cols[c]].name);
}

void mongo_doc_index_key(bson_t *key, const struct schema *s, int i)
{
	const struct index_spec *x = &s->idx[i];
	int c;

	for (c = 0; c < x->ncols; c++)
		bson_append_int32(key, s->cols[x->cols[c]].name, -1, 1);
}

int mongo_doc_index_filter(bson_t *one, const struct schema *s, int i)
{
	static const char *const ops[PRED_OP_COUNT] = {
		[PRED_EQ] = "$eq", [PRED_LT] = "$lt",  [PRED_LE] = "$lte",
		[PRED_GT] = "$gt", [PRED_GE] = "$gte",
	};
	const struct index_spec *x = &s->idx[i];
	bson_t filter, term;
	int j, k, all = x->npred > 0;

	for (j = 0; j < x->npred; j++)
		all = all && schema_idx_mongo_term(&x->pred[j]);
	if (!all)
		return 0;
	BSON_APPEND_DOCUMENT_BEGIN(one, "partialFilterExpression", &filter);
	for (j = 0; j < x->npred; j++) {
		int seen = 0;

		for (k = 0; k < j; k++)
			seen = seen || x->pred[k].col == x->pred[j].col;
		if (seen)
			continue;
		/* terms on one column are one document: {n: {$gt: 1, $lt: 9}} */
		BSON_APPEND_DOCUMENT_BEGIN(&filter, s->cols[x->pred[j].col].name, &term);
		for (k = j; k < x->npred; k++) {
			const struct pred_term *m = &x->pred[k];

			if (m->col != x->pred[j].col)
				continue;
			if (m->op == PRED_NOT_NULL)
				BSON_APPEND_BOOL(&term, "$exists", true);
			else if (m->is_bool)
				BSON_APPEND_BOOL(&term, ops[m->op], m->i != 0);
			else if (m->is_text)
				BSON_APPEND_UTF8(&term, ops[m->op], m->s);
			else
				BSON_APPEND_INT64(&term, ops[m->op], m->i);
		}
		bson_append_document_end(&filter, &term);
	}
	bson_append_document_end(one, &filter);
	return 1;
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
