/* rows.c - the SQLite engine's per-row statements.
 *
 * A prepared statement per write op the step runs (en->w[op]: the op's,
 * or each write op of its mix; prepared again when the op, the mix or the
 * seed changes), written from the table spec (en->s): the id
 * is ?1, the columns the op writes (schema_op_cols) ?2.., the INSERT's
 * payload the last. Each row binds its id and values (the same values on
 * every engine) and steps it. The payload is bound once: bindings survive
 * sqlite3_reset(). The default table keeps its own binding loop, the hot
 * path: the spec's fast road (schema_fast_keys) straight into the eight
 * parameters; any other spec binds what schema_value() gives. An update or a delete that does not change
 * exactly one row is an error: the table is not what idxlab built. */
#include <math.h>
#include <stdlib.h>

#include "../../keys.h"
#include "../../mix.h"
#include "../../schema_gen.h"
#include "sqlite_int.h"

static void bind_id(struct engine *en, sqlite3_stmt *st, int col, uint64_t row)
{
	long long pk = en->k.v[K_PK];

	if (pk == PK_INT) {
		sqlite3_bind_int64(st, col, (sqlite3_int64)row + 1);
	} else {
		unsigned char u[KEYS_UUID_LEN];

		keys_uuid((uint64_t)en->k.v[K_SEED], pk == PK_UUID7, 0, row, 0, u);
		sqlite3_bind_blob(st, col, u, KEYS_UUID_LEN, SQLITE_TRANSIENT);
	}
}

static void bind_key(struct engine *en, sqlite3_stmt *st, int param, int col, uint64_t row,
                     uint64_t version)
{
	if (en->keys.uuid) {
		unsigned char u[KEYS_UUID_LEN];

		schema_fast_uuid(&en->keys, col, row, version, u);
		sqlite3_bind_blob(st, param, u, KEYS_UUID_LEN, SQLITE_TRANSIENT);
	} else {
		sqlite3_bind_int64(st, param, schema_fast_int(&en->keys, col, row, version));
	}
}

/* op's statement on spec s into b; the columns it binds from ?2 into
 * w->cols, the payload's parameter into w->payload_param. For the default
 * table these are the statements idxlab always ran. */
static int op_sql(struct engine *en, long long op, struct sqlite_write *w, struct sql_buf *b,
                  struct err *e)
{
	const struct schema *s = en->s;
	int j;

	w->ncols = schema_op_cols(s, op, w->cols);
	w->ncols = schema_gen_skip(s, w->cols, w->ncols); /* SQLite computes those */
	w->payload_param = 0;
	switch (op) {
	case OP_INSERT:
		sqlite_sql_add(b, "INSERT INTO idxlab_t(id");
		for (j = 0; j < w->ncols; j++) {
			sqlite_sql_add(b, ",");
			sqlite_sql_name(b, s->cols[w->cols[j]].name);
		}
		if (schema_has_hot(s)) {
			sqlite_sql_add(b, ",");
			sqlite_sql_name(b, s->hot);
		}
		sqlite_sql_add(b, "%s) VALUES(?1", schema_has_payload(s, &en->k) ? ",payload" : "");
		for (j = 0; j < w->ncols; j++)
			sqlite_sql_add(b, ",?%d", j + 2);
		if (schema_has_hot(s))
			sqlite_sql_add(b, ",0");
		if (schema_has_payload(s, &en->k)) {
			w->payload_param = w->ncols + 2;
			sqlite_sql_add(b, ",?%d", w->payload_param);
		}
		sqlite_sql_add(b, ")");
		return 0;
	case OP_UPDATE:
		if (!schema_has_hot(s))
			goto set_cols; /* the spec's hot value column, or refused */
		sqlite_sql_add(b, "UPDATE idxlab_t SET ");
		sqlite_sql_name(b, s->hot);
		sqlite_sql_add(b, " = ");
		sqlite_sql_name(b, s->hot);
		sqlite_sql_add(b, " + 1 WHERE id = ?1");
		return 0;
	case OP_DELETE:
		sqlite_sql_add(b, "DELETE FROM idxlab_t WHERE id = ?1");
		return 0;
	default: /* OP_UPDATE_INDEXED, OP_UPDATE_KEYS */
	set_cols:
		if (!w->ncols && op == OP_UPDATE)
			return err_set(e, ERR_USAGE, "%s", schema_no_update_why(s));
		if (!w->ncols)
			return err_set(e, ERR_USAGE,
			               "op %s: the %s table has no %s column to write - use op "
			               "update, or give the spec %s",
			               knob_table[K_OP].choices[op], s->name,
			               op == OP_UPDATE_KEYS ? "value" : "indexed",
			               op == OP_UPDATE_KEYS ? "a column" : "an index");
		sqlite_sql_add(b, "UPDATE idxlab_t SET ");
		for (j = 0; j < w->ncols; j++) {
			if (j)
				sqlite_sql_add(b, ", ");
			sqlite_sql_name(b, s->cols[w->cols[j]].name);
			sqlite_sql_add(b, " = ?%d", j + 2);
		}
		sqlite_sql_add(b, " WHERE id = ?1");
		return 0;
	}
}

void sqlite_free_writes(struct engine *en)
{
	size_t i;

	for (i = 0; i < sizeof en->w / sizeof en->w[0]; i++) {
		sqlite3_finalize(en->w[i].st);
		en->w[i].st = NULL;
	}
}

int sqlite_prepare_stmt(struct engine *en, long long op, struct err *e)
{
	struct sqlite_write *w = &en->w[op];
	struct sql_buf b = { .n = 0 };

	sqlite3_finalize(w->st);
	w->st = NULL;
	if (op_sql(en, op, w, &b, e) < 0)
		return -1;
	if (sqlite3_prepare_v2(en->db, b.s, -1, &w->st, NULL) != SQLITE_OK)
		return sqlite_fail(en, e, op == OP_INSERT ? "prepare insert" : "prepare");
	sqlite_bind_payload(en);
	return 0;
}

/* One value into parameter param: v stays put until the next row binds
 * over it, so SQLite need not copy it. */
void sqlite_bind_value(sqlite3_stmt *st, int param, struct value *v, sqlite3_destructor_type d)
{
	if (v->null) {
		sqlite3_bind_null(st, param);
	} else if (v->type == COL_TEXT) {
		sqlite3_bind_text(st, param, (const char *)v->b, (int)v->len, d);
	} else if (v->type == COL_UUID) {
		sqlite3_bind_blob(st, param, v->b, (int)v->len, d);
	} else if (v->type == COL_DATE || v->type == COL_TIMESTAMPTZ) {
		schema_time_text(v);
		sqlite3_bind_text(st, param, (const char *)v->b, (int)v->len, d);
	} else if (v->type == COL_NUMERIC && v->scale) {
		sqlite3_bind_double(st, param, (double)v->i / pow(10, v->scale));
	} else {
		sqlite3_bind_int64(st, param, v->i);
	}
}

static void bind_value(sqlite3_stmt *st, int param, struct value *v)
{
	sqlite_bind_value(st, param, v, SQLITE_STATIC);
}

/* A spec's row: the id and w's columns, as schema_value() makes them.
 * A seq integer id is row + 1 (schema_value's own rule), bound directly. */
static void bind_row(struct engine *en, const struct sqlite_write *w, uint64_t row,
                     uint64_t version)
{
	const struct column *id = &en->s->cols[0];
	int j;

	if (id->order == ORD_SEQ && (id->type == COL_BIGINT || id->type == COL_INT)) {
		sqlite3_bind_int64(w->st, 1, (sqlite3_int64)row + 1);
	} else {
		schema_value(en->s, &en->k, 0, row, 0, &en->vals[0]);
		bind_value(w->st, 1, &en->vals[0]);
	}
	for (j = 0; j < w->ncols; j++) {
		schema_value(en->s, &en->k, w->cols[j], row, version, &en->vals[j + 1]);
		bind_value(w->st, j + 2, &en->vals[j + 1]);
	}
}

/* Bind the constant payload to the INSERT (its last parameter) once:
 * bindings survive sqlite3_reset(). Again whenever the statement or payload
 * changes. */
void sqlite_bind_payload(struct engine *en)
{
	const struct sqlite_write *w = &en->w[OP_INSERT];

	if (w->st && en->payload && w->payload_param)
		sqlite3_bind_blob(w->st, w->payload_param, en->payload, (int)en->k.v[K_PAYLOAD],
		                  SQLITE_STATIC);
}

/* The default table's keys, the spec's fast road (schema_fast_int) straight
 * into ?2..?9 (the hot path: integer keys, the payload already bound). */
static void bind_default_keys(struct engine *en, sqlite3_stmt *st, long long op, uint64_t row,
                              uint64_t version)
{
	int c;

	if (op == OP_INSERT && !en->keys.uuid) {
		for (c = 1; c <= 8; c++)
			sqlite3_bind_int64(st, c + 1, schema_fast_int(&en->keys, c, row, 0));
	} else if (op == OP_INSERT) {
		for (c = 1; c <= 8; c++)
			bind_key(en, st, c + 1, c, row, 0);
	} else if (op == OP_UPDATE_INDEXED || op == OP_UPDATE_KEYS) {
		for (c = 1; c <= (op == OP_UPDATE_KEYS ? 8 : 1); c++)
			bind_key(en, st, c + 1, c, row, version);
	}
}

int sqlite_do_op(struct engine *en, long long op, uint64_t row, uint64_t version, struct err *e)
{
	const struct sqlite_write *w;
	int rc;

	if (OP_READS(op))
		return sqlite_do_read(en, op, row, version, e);
	if (en->mr.max && op == OP_INSERT)
		return sqlite_multirow_add(en, row, e);
	w = &en->w[op];
	if (!w->st)
		return err_set(e, ERR_RUNTIME, "op %s was not prepared (a bug in idxlab)",
		               knob_table[K_OP].choices[op]);
	if (!en->fast) {
		bind_row(en, w, row, version);
	} else {
		bind_id(en, w->st, 1, row);
		bind_default_keys(en, w->st, op, row, version);
	}
	rc = sqlite3_step(w->st);
	sqlite3_reset(w->st);
	if (rc != SQLITE_DONE)
		return sqlite_fail(en, e,
		                   op == OP_INSERT   ? "insert"
		                   : op == OP_DELETE ? "delete"
		                                     : "update");
	if (op != OP_INSERT && sqlite3_changes(en->db) != 1)
		return err_set(e, ERR_RUNTIME,
		               "%s of row %llu changed %d rows: the table is not "
		               "what idxlab built",
		               knob_table[K_OP].choices[op], (unsigned long long)row,
		               sqlite3_changes(en->db));
	return 0;
}

/* Prepare k's write ops (its op's, or each of its mix's) and, for updates
 * and deletes, a shuffled visit order over the rows that exist now. */
int sqlite_prepare_op(struct engine *en, const struct knobs *k, struct err *e)
{
	unsigned writes = mix_ops(k) & OPS_WRITES;
	int op;

	if (sqlite_prepare_reads(en, k, e) < 0)
		return -1;
	sqlite_free_writes(en);
	for (op = 0; op < OP_LOOKUP; op++)
		if (writes & 1u << op && sqlite_prepare_stmt(en, op, e) < 0)
			return -1;
	if (sqlite_multirow_prepare(en, k, e) < 0)
		return -1;
	rowset_prepare(en->rs, mix_ops(k), (uint64_t)k->v[K_SEED]);
	return 0;
}

int sqlite_set_payload(struct engine *en, long long len)
{
	free(en->payload);
	en->payload = (unsigned char *)keys_payload_new((size_t)len);
	sqlite_bind_payload(en);
	return 0;
}
