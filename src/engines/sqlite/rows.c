/* rows.c - the SQLite engine's per-row statements.
 *
 * One prepared statement, the running op's (en->op, prepared again when
 * the op or the seed changes); each row binds its id and keys (keys.h: the
 * same values on every engine) and steps it. The payload is bound once:
 * bindings survive sqlite3_reset(). An update or a delete that does not
 * change exactly one row is an error: the table is not what idxlab built. */
#include <stdlib.h>

#include "../../keys.h"
#include "sqlite_int.h"

int sqlite_is_uuid_key(long long ko)
{
	return ko == KO_UUID7 || ko == KO_UUID4;
}

static void bind_id(struct engine *en, int col, uint64_t row)
{
	long long pk = en->k.v[K_PK];

	if (pk == PK_INT) {
		sqlite3_bind_int64(en->op, col, (sqlite3_int64)row + 1);
	} else {
		unsigned char u[KEYS_UUID_LEN];

		keys_uuid((uint64_t)en->k.v[K_SEED], pk == PK_UUID7, 0, row, 0, u);
		sqlite3_bind_blob(en->op, col, u, KEYS_UUID_LEN, SQLITE_TRANSIENT);
	}
}

static void bind_key(struct engine *en, int param, int col, uint64_t row, uint64_t version)
{
	long long ko = en->k.v[K_KEY_ORDER];
	uint64_t seed = (uint64_t)en->k.v[K_SEED];

	if (sqlite_is_uuid_key(ko)) {
		unsigned char u[KEYS_UUID_LEN];

		keys_uuid(seed, ko == KO_UUID7, col, row, version, u);
		sqlite3_bind_blob(en->op, param, u, KEYS_UUID_LEN, SQLITE_TRANSIENT);
	} else {
		sqlite3_bind_int64(en->op, param,
		                   keys_int(seed, (enum key_order)ko, col, row, version));
	}
}

const char *const sqlite_op_sql[] = {
	[OP_INSERT] = "INSERT INTO idxlab_t(id,k1,k2,k3,k4,k5,k6,k7,k8,hot,payload) "
	              "VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,0,?10)",
	[OP_UPDATE] = "UPDATE idxlab_t SET hot = hot + 1 WHERE id = ?1",
	[OP_UPDATE_INDEXED] = "UPDATE idxlab_t SET k1 = ?2 WHERE id = ?1",
	[OP_UPDATE_KEYS] = "UPDATE idxlab_t SET k1 = ?2, k2 = ?3, k3 = ?4, k4 = ?5, k5 = ?6, "
	                   "k6 = ?7, k7 = ?8, k8 = ?9 WHERE id = ?1",
	[OP_DELETE] = "DELETE FROM idxlab_t WHERE id = ?1",
};

/* Bind the constant payload to the INSERT (parameter 10) once: bindings
 * survive sqlite3_reset(). Again whenever the statement or payload changes. */
void sqlite_bind_payload(struct engine *en)
{
	if (en->op && en->payload && sqlite3_bind_parameter_count(en->op) == 10)
		sqlite3_bind_blob(en->op, 10, en->payload, (int)en->k.v[K_PAYLOAD], SQLITE_STATIC);
}

int sqlite_do_op(struct engine *en, long long op, uint64_t row, uint64_t version, struct err *e)
{
	int c, rc;

	bind_id(en, 1, row);
	if (op == OP_INSERT && !sqlite_is_uuid_key(en->k.v[K_KEY_ORDER])) {
		/* The hot path: integer keys, the payload already bound. */
		uint64_t seed = (uint64_t)en->k.v[K_SEED];
		enum key_order ko = (enum key_order)en->k.v[K_KEY_ORDER];

		for (c = 1; c <= 8; c++)
			sqlite3_bind_int64(en->op, c + 1, keys_int(seed, ko, c, row, 0));
	} else if (op == OP_INSERT) {
		for (c = 1; c <= 8; c++)
			bind_key(en, c + 1, c, row, 0);
	} else if (op == OP_UPDATE_INDEXED || op == OP_UPDATE_KEYS) {
		for (c = 1; c <= (op == OP_UPDATE_KEYS ? 8 : 1); c++)
			bind_key(en, c + 1, c, row, version);
	}
	rc = sqlite3_step(en->op);
	sqlite3_reset(en->op);
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

/* Prepare k's operation and, for updates and deletes, a shuffled visit order
 * over the rows that exist now. */
int sqlite_prepare_op(struct engine *en, const struct knobs *k, struct err *e)
{
	sqlite3_finalize(en->op);
	en->op = NULL;
	if (sqlite3_prepare_v2(en->db, sqlite_op_sql[k->v[K_OP]], -1, &en->op, NULL) != SQLITE_OK)
		return sqlite_fail(en, e, "prepare");
	sqlite_bind_payload(en);
	rowset_prepare(&en->rs, k->v[K_OP], (uint64_t)k->v[K_SEED]);
	return 0;
}

int sqlite_set_payload(struct engine *en, long long len)
{
	free(en->payload);
	en->payload = (unsigned char *)keys_payload_new((size_t)len);
	sqlite_bind_payload(en);
	return 0;
}
