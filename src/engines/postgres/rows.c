/* rows.c - the table's rows: the key and payload in text and binary, the
 * load by COPY, the indexes, the prepared statement of each operation, and
 * one operation on one row sent into the pipeline (pg_send_op). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../clock.h"
#include "../../evlog.h"
#include "../../keys.h"
#include "internal.h"

/* ---- the table ----------------------------------------------------------- */

int pg_is_uuid_key(long long ko)
{
	return ko == KO_UUID7 || ko == KO_UUID4;
}

/* Text form of a 16-byte uuid. */
static void uuid_text(const unsigned char u[KEYS_UUID_LEN], char *out)
{
	static const char hex[] = "0123456789abcdef";
	int i, n = 0;

	for (i = 0; i < KEYS_UUID_LEN; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			out[n++] = '-';
		out[n++] = hex[u[i] >> 4];
		out[n++] = hex[u[i] & 15];
	}
	out[n] = 0;
}

void pg_set_payload(struct engine *en, long long len)
{
	free(en->payload);
	en->payload = keys_payload_new((size_t)len);
}

/* One COPY text line for row n. */
static size_t copy_line(const struct engine *en, uint64_t n, char *out, size_t len)
{
	uint64_t seed = (uint64_t)en->k.v[K_SEED];
	long long ko = en->k.v[K_KEY_ORDER];
	size_t used;
	int c;

	if (en->k.v[K_PK] == PK_INT) {
		used = (size_t)snprintf(out, len, "%llu", (unsigned long long)n + 1);
	} else {
		unsigned char u[KEYS_UUID_LEN];

		keys_uuid(seed, en->k.v[K_PK] == PK_UUID7, 0, n, 0, u);
		uuid_text(u, out);
		used = strlen(out);
	}
	for (c = 1; c <= 8; c++) {
		if (pg_is_uuid_key(ko)) {
			unsigned char u[KEYS_UUID_LEN];

			keys_uuid(seed, ko == KO_UUID7, c, n, 0, u);
			out[used++] = '\t';
			uuid_text(u, out + used);
			used += strlen(out + used);
		} else {
			used += (size_t)snprintf(
			    out + used, len - used, "\t%lld",
			    (long long)keys_int(seed, (enum key_order)ko, c, n, 0));
		}
	}
	used += (size_t)snprintf(out + used, len - used, "\t0\t%s\n", en->payload);
	return used;
}

/* COPY rows 0..rows-1 in. */
int pg_load(struct engine *en, uint64_t rows, struct err *e)
{
	size_t cap = 1 << 16, used = 0, linecap = (size_t)en->k.v[K_PAYLOAD] + 1024;
	char *buf;
	PGresult *res;
	uint64_t n;
	int ok = 1;

	res = pg_run(
	    en, "COPY idxlab.idxlab_t(id, k1, k2, k3, k4, k5, k6, k7, k8, hot, payload) FROM STDIN",
	    0, NULL, e);
	if (!res)
		return -1;
	if (PQresultStatus(res) != PGRES_COPY_IN) {
		PQclear(res);
		return err_set(e, ERR_RUNTIME, "COPY: the server did not start copying");
	}
	PQclear(res);
	buf = malloc(cap + linecap);
	if (!buf)
		abort();
	for (n = 0; n < rows && ok; n++) {
		used += copy_line(en, n, buf + used, linecap);
		if (used >= cap || n + 1 == rows) {
			/* Queued, then sent as far as the server takes it (bounded). */
			ok = PQputCopyData(en->conn, buf, (int)used) == 1 &&
			     pg_await(en, "loading the table", 0, e) == 0;
			used = 0;
			if (en->stop && atomic_load(en->stop))
				break;
		}
	}
	free(buf);
	if (en->unanswered)
		return -1;
	if (PQputCopyEnd(en->conn, ok && n == rows ? NULL : "stopped") != 1)
		return pg_fail(en, NULL, e, "COPY");
	res = pg_collect(en, "loading the table", 0, e);
	PQclear(res);
	return res ? 0 : -1;
}

int pg_set_indexes(struct engine *en, long long from, long long to, int live, struct err *e)
{
	char sql[128];
	long long i;

	for (i = from + 1; i <= to; i++) {
		uint64_t t0 = clock_now_ns();

		snprintf(sql, sizeof sql, "CREATE INDEX idxlab_k%lld ON idxlab.idxlab_t (k%lld)", i,
		         i);
		if (pg_exec(en, sql, e) < 0)
			return -1;
		if (live)
			evlog_add(EV_INFO, "built idxlab_k%lld on %llu rows in %.2f s", i,
			          (unsigned long long)en->rs.live_rows,
			          (double)(clock_now_ns() - t0) / 1e9);
	}
	for (i = from; i > to; i--) {
		snprintf(sql, sizeof sql, "DROP INDEX idxlab.idxlab_k%lld", i);
		if (pg_exec(en, sql, e) < 0)
			return -1;
		if (live)
			evlog_add(EV_INFO, "dropped idxlab_k%lld", i);
	}
	return 0;
}

static const char *const op_sql[] = {
	[OP_INSERT] = "INSERT INTO idxlab.idxlab_t (id, k1, k2, k3, k4, k5, k6, k7, k8, hot, "
	              "payload) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 0, $10)",
	[OP_UPDATE] = "UPDATE idxlab.idxlab_t SET hot = hot + 1 WHERE id = $1",
	[OP_UPDATE_INDEXED] = "UPDATE idxlab.idxlab_t SET k1 = $2 WHERE id = $1",
	[OP_UPDATE_KEYS] = "UPDATE idxlab.idxlab_t SET k1 = $2, k2 = $3, k3 = $4, k4 = $5, "
	                   "k5 = $6, k6 = $7, k7 = $8, k8 = $9 WHERE id = $1",
	[OP_DELETE] = "DELETE FROM idxlab.idxlab_t WHERE id = $1",
};
static const int op_nparams[] = {
	[OP_INSERT] = 10,     [OP_UPDATE] = 1, [OP_UPDATE_INDEXED] = 2,
	[OP_UPDATE_KEYS] = 9, [OP_DELETE] = 1,
};

/* The statement of the op, on the server (a new connection has none). */
int pg_prepare_statement(struct engine *en, struct err *e)
{
	Oid id_t = en->k.v[K_PK] == PK_INT ? OID_INT8 : OID_UUID;
	Oid key_t = pg_is_uuid_key(en->k.v[K_KEY_ORDER]) ? OID_UUID : OID_INT8;
	Oid types[10];
	long long op = en->k.v[K_OP];
	PGresult *res;
	int i;

	if (pg_exec(en, "DEALLOCATE ALL", e) < 0)
		return -1;
	types[0] = id_t;
	for (i = 1; i < 9; i++)
		types[i] = key_t;
	types[9] = OID_TEXT;
	if (!PQsendPrepare(en->conn, "idxlab_op", op_sql[op], op_nparams[op], types))
		return pg_fail(en, NULL, e, "prepare");
	res = pg_collect(en, "prepare", 0, e);
	if (!res)
		return -1;
	PQclear(res);
	en->prepared = 1;
	return 0;
}

/* The op's statement and the order of the rows it visits. */
int pg_prepare_op(struct engine *en, struct err *e)
{
	if (pg_prepare_statement(en, e) < 0)
		return -1;
	rowset_prepare(&en->rs, en->k.v[K_OP], (uint64_t)en->k.v[K_SEED]);
	return 0;
}

static void put_be64(char *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		p[i] = (char)(v >> (56 - 8 * i));
}

int pg_send_op(struct engine *en, long long op, uint64_t row, uint64_t version, struct err *e)
{
	uint64_t seed = (uint64_t)en->k.v[K_SEED];
	long long ko = en->k.v[K_KEY_ORDER];
	char buf[10][KEYS_UUID_LEN];
	const char *vals[10];
	int lens[10], fmts[10], n = op_nparams[op], c;

	for (c = 0; c < 10; c++)
		fmts[c] = 1;
	if (en->k.v[K_PK] == PK_INT) {
		put_be64(buf[0], row + 1);
		lens[0] = 8;
	} else {
		keys_uuid(seed, en->k.v[K_PK] == PK_UUID7, 0, row, 0, (unsigned char *)buf[0]);
		lens[0] = KEYS_UUID_LEN;
	}
	vals[0] = buf[0];
	for (c = 1; c < 9 && c < n; c++) {
		/* insert: k1..k8 of the row; updates: their new keys */
		uint64_t v = op == OP_INSERT ? 0 : version;

		if (pg_is_uuid_key(ko)) {
			keys_uuid(seed, ko == KO_UUID7, c, row, v, (unsigned char *)buf[c]);
			lens[c] = KEYS_UUID_LEN;
		} else {
			put_be64(buf[c], (uint64_t)keys_int(seed, (enum key_order)ko, c, row, v));
			lens[c] = 8;
		}
		vals[c] = buf[c];
	}
	if (op == OP_INSERT) {
		vals[9] = en->payload;
		lens[9] = (int)en->k.v[K_PAYLOAD];
	}
	if (!PQsendQueryPrepared(en->conn, "idxlab_op", n, vals, lens, fmts, 0))
		return pg_fail(en, NULL, e, "send");
	pg_expect(en, T_OP, 0);
	return 0;
}
