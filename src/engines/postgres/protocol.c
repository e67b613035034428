/* protocol.c - --protocol and --pipeline: how the step loop's statements
 * (BEGIN, one row's operation, COMMIT) reach the server, in pgbench's
 * words (-M, \startpipeline):
 *
 *   prepared  idxlab_op0.. (one per write op: pg_op_name), prepared at
 *             set-up (rows.c): a row is a Bind and
 *             an Execute with binary parameters; no parse, no plan
 *   extended  the statement's text and binary parameters, every row
 *             (PQsendQueryParams, the unnamed statement): parsed and
 *             planned each time
 *   simple    the statement's text with the row's values written into it
 *             as literals (numbers as numbers, the rest quoted by
 *             PQescapeLiteral or as 'text'::type), as psql sends a file of
 *             INSERTs: the server parses and plans each one
 *
 * Pipelined (--pipeline on, the default) the statements go back to back
 * and their results are read at a sync (txn.c's drain): one round trip per
 * PIPE_CHUNK statements. Not pipelined each statement waits for its
 * result: one round trip per row, and one each for BEGIN and COMMIT.
 * libpq's pipeline carries only the extended protocol, so a pipelined
 * simple statement is its literal text sent as an extended query without
 * parameters (what libpq itself does with PQsendQuery in pipeline mode);
 * not pipelined it is the simple protocol's Query message.
 *
 * --load multirow is always pipelined and copy never (load.c keeps their
 * own paths); the protocol is the statement per row's (--load insert, and
 * the updates and deletes). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

int pg_pipelined(const struct engine *en)
{
	return en->k.v[K_LOAD] == LOAD_MULTIROW ||
	       (en->k.v[K_LOAD] == LOAD_INSERT && en->k.v[K_PIPELINE]);
}

const char *pg_op_name(int op, char name[32])
{
	snprintf(name, 32, "idxlab_op%d", op);
	return name;
}

int pg_proto_mode(struct engine *en, struct err *e)
{
	return pg_pipelined(en) ? pg_enter_pipeline(en, e) : pg_leave_pipeline(en, e);
}

/* ---- the statement's text, cut at its parameters ----------------------- */

int pg_proto_set(struct engine *en, const char *sql, struct err *e)
{
	size_t n = strlen(sql), i;
	int quote = 0;

	if (n >= sizeof en->op_sql)
		return err_set(e, ERR_RUNTIME,
		               "the statement %.40s... does not fit (a bug in idxlab)", sql);
	memcpy(en->op_sql, sql, n + 1);
	en->nph = 0;
	/* $N outside quotes: a quoted name may hold a '$' (quote_ident quotes
	 * every name with one), idxlab's own text holds none else. */
	for (i = 0; i < n; i++) {
		char c = sql[i];

		if (quote) {
			quote = c == quote ? 0 : quote; /* "" and '' reopen at once */
			continue;
		}
		if (c == '"' || c == '\'') {
			quote = c;
			continue;
		}
		if (c != '$' || sql[i + 1] < '0' || sql[i + 1] > '9')
			continue;
		if (en->nph == SPEC_PARAMS)
			return err_set(e, ERR_RUNTIME,
			               "too many parameters in '%s' (a bug in idxlab)", sql);
		en->ph_at[en->nph] = i;
		en->ph_param[en->nph] = (int)strtol(sql + i + 1, NULL, 10) - 1;
		for (i++; sql[i] >= '0' && sql[i] <= '9'; i++)
			;
		en->ph_end[en->nph] = i--;
		if (en->ph_param[en->nph] < 0 || en->ph_param[en->nph] >= en->nparams)
			return err_set(e, ERR_RUNTIME,
			               "parameter out of range in '%s' (a bug in idxlab)", sql);
		en->nph++;
	}
	return 0;
}

/* ---- literals -------------------------------------------------------- */

/* Append len bytes to the literal statement being built. */
static void lit_add(struct engine *en, const char *p, size_t len)
{
	if (en->lit_used + len + 1 > en->lit_cap) {
		en->lit_cap = (en->lit_used + len + 1) * 2;
		en->lit = realloc(en->lit, en->lit_cap);
		if (!en->lit)
			abort();
	}
	memcpy(en->lit + en->lit_used, p, len);
	en->lit_used += len;
	en->lit[en->lit_used] = 0;
}

static int64_t get_be(const char *p, int bytes)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < bytes; i++)
		v = v << 8 | (unsigned char)p[i];
	if (bytes < 8 && v >> (8 * bytes - 1)) /* sign-extend */
		v |= ~0ULL << (8 * bytes);
	return (int64_t)v;
}

/* Unix microseconds (or days, date) as PostgreSQL's text of the type. */
static int time_text(int64_t us, int date, char *buf, size_t len)
{
	int64_t secs = us / 1000000 - (us % 1000000 < 0);
	long frac = (long)(us - secs * 1000000);
	time_t t = (time_t)(date ? us * 86400 : secs);
	struct tm tm;

	if (!gmtime_r(&t, &tm))
		return -1;
	return date ? snprintf(buf, len, "'%04d-%02d-%02d'::date", tm.tm_year + 1900, tm.tm_mon + 1,
	                       tm.tm_mday)
	            : snprintf(buf, len, "'%04d-%02d-%02d %02d:%02d:%02d.%06ld+00'::timestamptz",
	                       tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
	                       tm.tm_sec, frac);
}

/* Parameter i's value (its binary form, as rows.c bound it) as a literal
 * of its type, appended. */
static int add_literal(struct engine *en, int i, const char *val, int len, struct err *e)
{
	char buf[128];
	const struct value *v = &en->pv[i];
	char *q;
	int n = -1;

	if (!val) {
		lit_add(en, "NULL", 4);
		return 0;
	}
	switch (en->ptype[i]) {
	case COL_INT:
		n = snprintf(buf, sizeof buf, "%lld", (long long)get_be(val, 4));
		break;
	case COL_BIGINT:
		n = snprintf(buf, sizeof buf, "%lld", (long long)get_be(val, 8));
		break;
	case COL_BOOL:
		n = snprintf(buf, sizeof buf, "%s", val[0] ? "true" : "false");
		break;
	case COL_DATE:
		n = time_text(get_be(val, 4) + PG_EPOCH_DAYS, 1, buf, sizeof buf);
		break;
	case COL_TIMESTAMP:
	case COL_TIMESTAMPTZ:
		n = time_text(get_be(val, 8) + PG_EPOCH_US, 0, buf, sizeof buf);
		break;
	case COL_NUMERIC: { /* v->i in units of 10^-scale (the binary form's source) */
		uint64_t u = v->i < 0 ? 0 - (uint64_t)v->i : (uint64_t)v->i, p = 1;
		int k;

		for (k = 0; k < v->scale; k++)
			p *= 10;
		n = v->scale ? snprintf(buf, sizeof buf, "%s%llu.%0*llu", v->i < 0 ? "-" : "",
		                        (unsigned long long)(u / p), v->scale,
		                        (unsigned long long)(u % p))
		             : snprintf(buf, sizeof buf, "%s%llu", v->i < 0 ? "-" : "",
		                        (unsigned long long)u);
		break;
	}
	case COL_UUID: {
		const unsigned char *b = (const unsigned char *)val;
		int k, w = 1;

		buf[0] = '\'';
		for (k = 0; k < 16 && len == 16; k++)
			w += snprintf(buf + w, sizeof buf - (size_t)w, "%s%02x",
			              k == 4 || k == 6 || k == 8 || k == 10 ? "-" : "", b[k]);
		n = len == 16 ? w + snprintf(buf + w, sizeof buf - (size_t)w, "'::uuid") : -1;
		break;
	}
	default: /* text: quoted by libpq, as the server's encoding wants */
		q = PQescapeLiteral(en->conn, val, (size_t)len);
		if (!q)
			return pg_fail(en, NULL, e, "quoting a value");
		lit_add(en, q, strlen(q));
		PQfreemem(q);
		return 0;
	}
	if (n < 0 || (size_t)n >= sizeof buf)
		return err_set(e, ERR_RUNTIME,
		               "parameter %d's value has no literal (a bug in idxlab)", i + 1);
	lit_add(en, buf, (size_t)n);
	return 0;
}

int pg_proto_literal(struct engine *en, const char *const *vals, const int *lens, struct err *e)
{
	size_t from = 0;
	int i;

	en->lit_used = 0;
	for (i = 0; i < en->nph; i++) {
		lit_add(en, en->op_sql + from, en->ph_at[i] - from);
		if (add_literal(en, en->ph_param[i], vals[en->ph_param[i]], lens[en->ph_param[i]],
		                e) < 0)
			return -1;
		from = en->ph_end[i];
	}
	lit_add(en, en->op_sql + from, strlen(en->op_sql + from));
	return 0;
}

/* ---- sending ----------------------------------------------------------- */

int pg_proto_issue(struct engine *en, const char *name, const char *const *vals, const int *lens,
                   struct err *e)
{
	Oid types[SPEC_PARAMS];
	int fmts[SPEC_PARAMS], i, sent;

	for (i = 0; i < en->nparams; i++) {
		fmts[i] = 1;
		types[i] = pg_type_oid(en->ptype[i]);
	}
	switch (en->k.v[K_PROTOCOL]) {
	case PROTO_SIMPLE:
		if (pg_proto_literal(en, vals, lens, e) < 0)
			return -1;
		sent = en->pipeline
		           ? PQsendQueryParams(en->conn, en->lit, 0, NULL, NULL, NULL, NULL, 0)
		           : PQsendQuery(en->conn, en->lit);
		break;
	case PROTO_EXTENDED:
		sent = PQsendQueryParams(en->conn, en->op_sql, en->nparams, types, vals, lens, fmts,
		                         0);
		break;
	default:
		sent = PQsendQueryPrepared(en->conn, name, en->nparams, vals, lens, fmts, 0);
		break;
	}
	return sent ? 0 : pg_fail(en, NULL, e, "send");
}

int pg_proto_send(struct engine *en, const char *const *vals, const int *lens, struct err *e)
{
	char name[32];

	if (pg_proto_mode(en, e) < 0 ||
	    pg_proto_issue(en, pg_op_name(en->w_op, name), vals, lens, e) < 0)
		return -1;
	return pg_sent(en, T_OP, 0, e);
}

void pg_proto_free(struct engine *en)
{
	free(en->lit);
	en->lit = NULL;
	en->lit_cap = en->lit_used = 0;
}
