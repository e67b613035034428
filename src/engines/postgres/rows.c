/* rows.c - the table's rows as the spec in force says them: its DDL, the
 * values in binary (the prepared statements and COPY, load.c), the
 * indexes by list position, the prepared statement of each
 * operation, and one operation on one row sent to the server
 * (pg_send_op, the --protocol way: protocol.c). Every text is built once per set-up or op change; a row
 * costs one schema_value() per parameter. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../clock.h"
#include "../../evlog.h"
#include "../../keys.h"
#include "../../mix.h"
#include "../../schema_gen.h"
#include "../../schema_idx.h"
#include "internal.h"

/* ---- the table ----------------------------------------------------------- */

static const char *qcol_of(int col, const void *ctx);

/* Append to buf (len bytes) at *n, never past its end (internal.h). */
void pg_buf_add(char *buf, size_t len, size_t *n, const char *fmt, ...)
{
	va_list ap;
	int w;

	if (*n >= len)
		return;
	va_start(ap, fmt);
	w = vsnprintf(buf + *n, len - *n, fmt, ap);
	va_end(ap);
	*n = w < 0 ? len : *n + (size_t)w;
}

/* The spec's names as the server would write them (quote_ident: a name
 * that is a keyword comes back quoted), in one query. */
int pg_quote_names(struct engine *en, struct err *e)
{
	const struct schema *s = en->s;
	char sql[4096], out[4096], *save = NULL, *w;
	size_t n = 0;
	int i, got = 0;

	/* Indexes share the table's namespace: an index on a column t would be
	 * named like the table itself. */
	for (i = 0; i < s->nindexes; i++)
		if (strcmp(s->idx[i].name, "idxlab_t") == 0 ||
		    strcmp(s->idx[i].name, "idxlab_t_pkey") == 0)
			return err_set(
			    e, ERR_USAGE,
			    "index %d of table %s is named %s, the name of idxlab's own "
			    "%s on PostgreSQL: give it another name in the spec (index ... "
			    "name NAME)",
			    i + 1, s->name, s->idx[i].name,
			    strcmp(s->idx[i].name, "idxlab_t") ? "primary key" : "table");
	pg_buf_add(sql, sizeof sql, &n,
	           "SELECT string_agg(quote_ident(w), ' ' ORDER BY o) FROM "
	           "unnest(string_to_array('");
	for (i = 0; i < s->ncols; i++)
		pg_buf_add(sql, sizeof sql, &n, "%s%s", i ? " " : "", s->cols[i].name);
	/* hot's place is there, a name or not: "hot" when the table has none */
	pg_buf_add(sql, sizeof sql, &n, " %s", schema_has_hot(s) ? s->hot : "hot");
	for (i = 0; i < s->nindexes; i++)
		pg_buf_add(sql, sizeof sql, &n, " %s", s->idx[i].name);
	pg_buf_add(sql, sizeof sql, &n, "', ' ')) WITH ORDINALITY AS u(w, o)");
	if (n >= sizeof sql)
		return err_set(e, ERR_RUNTIME, "the names of table %s do not fit (a bug in idxlab)",
		               s->name);
	if (pg_query_text(en, sql, out, sizeof out, e) < 0)
		return err_prefix(e, "quoting the names of table %s", s->name);
	for (w = strtok_r(out, " ", &save); w; w = strtok_r(NULL, " ", &save), got++) {
		char *to = got < s->ncols                     ? en->qcol[got]
		           : got == s->ncols                  ? en->qhot
		           : got - s->ncols - 1 < s->nindexes ? en->qidx[got - s->ncols - 1]
		                                              : NULL;

		if (to)
			snprintf(to, QNAME_MAX, "%s", w);
	}
	if (got != s->ncols + 1 + s->nindexes)
		return err_set(e, ERR_RUNTIME,
		               "the server quoted %d of the %d names of table %s (a bug in idxlab)",
		               got, s->ncols + 1 + s->nindexes, s->name);
	return 0;
}

/* Column c's type (type t under the knobs) into sql. */
static void sql_type(char *sql, size_t len, size_t *n, const struct column *c, enum col_type t)
{
	static const char *const names[COL_TYPE_COUNT] = {
		[COL_INT] = "integer",
		[COL_BIGINT] = "bigint",
		[COL_TEXT] = "text",
		[COL_UUID] = "uuid",
		[COL_TIMESTAMP] = "timestamptz",
		[COL_NUMERIC] = "numeric",
		[COL_BOOL] = "boolean",
		[COL_DATE] = "date",
		[COL_TIMESTAMPTZ] = "timestamptz",
	};

	if (t == COL_NUMERIC)
		pg_buf_add(sql, len, n, " numeric(%d,%d)", c->prec, c->scale);
	else
		pg_buf_add(sql, len, n, " %s", names[t]);
}

const char *pg_col_qname(const struct engine *en, int col)
{
	return col >= 0 ? en->qcol[col] : col == PCOL_HOT ? en->qhot : "payload";
}

int pg_own_cols(const struct engine *en, int *cols, int n)
{
	if (schema_has_hot(en->s))
		cols[n++] = PCOL_HOT;
	if (schema_has_payload(en->s, &en->k))
		cols[n++] = PCOL_PAYLOAD;
	return n;
}

/* The relations of rel and its partitions (pg_partition_tree lists none
 * for a relation that is not partitioned). */
#define TREE(rel) "(SELECT " rel " UNION SELECT relid FROM pg_partition_tree(" rel "))"

/* pg_sizes' query: the table's and the secondary indexes' bytes, and
 * each one's pages in list order, summed over the partitions (a
 * partitioned relation has no storage of its own). */
static void build_sizes_sql(struct engine *en)
{
	const struct schema *s = en->s;
	size_t n = 0, len = sizeof en->sizes_sql;
	int i;

	pg_buf_add(en->sizes_sql, len, &n,
	           "SELECT (SELECT sum(pg_total_relation_size(r))::bigint FROM " TREE(
	               "'idxlab.idxlab_t'::regclass") " t(r)), "
	                                              "coalesce(sum(x.b) FILTER (WHERE NOT "
	                                              "i.indisprimary), 0), "
	                                              "coalesce(string_agg((x.b / 8192)::text, ';' "
	                                              "ORDER BY array_position(ARRAY[");
	for (i = 0; i < s->nindexes; i++)
		pg_buf_add(en->sizes_sql, len, &n, "%s'%s'", i ? ", " : "", s->idx[i].name);
	pg_buf_add(en->sizes_sql, len, &n,
	           "]::text[], c.relname::text)) FILTER (WHERE NOT i.indisprimary), '') "
	           "FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid CROSS JOIN LATERAL "
	           "(SELECT sum(pg_relation_size(r))::bigint AS b FROM " TREE(
	               "c.oid") " t(r)) x WHERE i.indrelid = 'idxlab.idxlab_t'::regclass");
}

/* A fresh idxlab_t as the spec says it (the names quoted first); a
 * partitioned one (part.c) with its partitions. */
int pg_create_table(struct engine *en, struct err *e)
{
	const struct schema *s = en->s;
	char sql[4096], pkey[512] = "", by[512] = "";
	size_t n = 0;
	int c, parted = s->part.kind != PART_NONE, pk = schema_id_indexed(s, &en->k);

	if (!en->pv) {
		en->pv = calloc(SPEC_PARAMS, sizeof *en->pv);
		if (!en->pv)
			abort();
	}
	if (parted)
		pg_part_clauses(en, pkey, by, sizeof pkey);
	pg_buf_add(sql, sizeof sql, &n,
	           "DROP TABLE IF EXISTS idxlab.idxlab_t; CREATE TABLE idxlab.idxlab_t (%s",
	           en->qcol[0]);
	sql_type(sql, sizeof sql, &n, &s->cols[0], schema_type(s, &en->k, 0));
	pg_buf_add(sql, sizeof sql, &n, "%s", parted || !pk ? "" : " PRIMARY KEY");
	for (c = 1; c < s->ncols; c++) {
		pg_buf_add(sql, sizeof sql, &n, ", %s", en->qcol[c]);
		sql_type(sql, sizeof sql, &n, &s->cols[c], schema_type(s, &en->k, c));
		if (s->cols[c].gen[0]) { /* written from its parse (schema_gen.h) */
			char expr[SCHEMA_GEN_MAX * 3];

			if (schema_gen_sql(s, c, GEN_PG, qcol_of, en, expr, sizeof expr, e) < 0)
				return -1;
			pg_buf_add(sql, sizeof sql, &n, " GENERATED ALWAYS AS (%s) STORED", expr);
			if (!s->cols[c].gen_stored)
				evlog_add(EV_INFO,
				          "table %s: %s is generated STORED (PostgreSQL computes a "
				          "generated column only so)",
				          s->name, s->cols[c].name);
		}
	}
	if (schema_has_hot(s))
		pg_buf_add(sql, sizeof sql, &n, ", %s int NOT NULL DEFAULT 0", en->qhot);
	if (schema_has_payload(s, &en->k))
		pg_buf_add(sql, sizeof sql, &n, ", payload text");
	/* Marked as idxlab's in the same transaction (claim_schema in
	 * schema.c knows its own leftovers by the mark, whatever the spec). */
	if (parted)
		pg_buf_add(sql, sizeof sql, &n, "%s)%s", pkey, by);
	else
		pg_buf_add(sql, sizeof sql, &n,
		           ") WITH (fillfactor = %lld, autovacuum_enabled = false)",
		           en->k.v[K_FILLFACTOR]);
	pg_buf_add(sql, sizeof sql, &n, "; COMMENT ON TABLE idxlab.idxlab_t IS '" SCHEMA_MARK "'");
	if (pk)
		pg_buf_add(sql, sizeof sql, &n,
		           "; COMMENT ON INDEX idxlab.idxlab_t_pkey IS '" SCHEMA_MARK "'");
	if (pk && s->id_unindexed)
		evlog_add(EV_INFO,
		          "table %s: op %s finds rows by idxlab's id: its btree is kept, one more "
		          "than the source's",
		          s->name, knob_table[K_OP].choices[en->k.v[K_OP]]);
	if (n >= sizeof sql)
		return err_set(e, ERR_RUNTIME, "the DDL of table %s does not fit (a bug in idxlab)",
		               s->name);
	build_sizes_sql(en);
	if (pg_exec(en, sql, e) < 0)
		return -1;
	return parted ? pg_part_create(en, e) : 0;
}

void pg_set_payload(struct engine *en, long long len)
{
	free(en->payload);
	en->payload = keys_payload_new((size_t)len);
}

/* From the first `from` indexes of the list to the first `to`: create
 * idx[from..to-1] in order, or drop idx[to..from-1] from the last. */
/* A column as the server quoted it (schema_idx_name). */
static const char *qcol_of(int col, const void *ctx)
{
	const struct engine *en = ctx;

	return en->qcol[col];
}

int pg_set_indexes(struct engine *en, long long from, long long to, int live, struct err *e)
{
	const struct schema *s = en->s;
	char sql[2048], key[QNAME_MAX + 16], where[1024];
	long long i;
	int c;

	if (from < 0 || to < 0 || from > s->nindexes || to > s->nindexes)
		return err_set(e, ERR_RUNTIME,
		               "indexes %lld -> %lld: the %s table has %d (a bug in idxlab)", from,
		               to, s->name, s->nindexes);
	for (i = from; i < to; i++) {
		const struct index_spec *x = &s->idx[i];
		uint64_t t0 = clock_now_ns();
		size_t n = 0;

		pg_buf_add(sql, sizeof sql, &n, "CREATE %sINDEX %s ON idxlab.idxlab_t (",
		           x->unique ? "UNIQUE " : "", en->qidx[i]);
		for (c = 0; c < x->ncols; c++) {
			schema_idx_key_sql(x, c, qcol_of, en, key, sizeof key);
			pg_buf_add(sql, sizeof sql, &n, "%s%s", c ? ", " : "", key);
		}
		/* a partial index's WHERE, written from its parsed form */
		schema_idx_where_sql(x, qcol_of, en, where, sizeof where);
		pg_buf_add(sql, sizeof sql, &n, ")%s%s", where[0] ? " WHERE " : "", where);
		/* the mark, in the same transaction: see pg_create_table */
		pg_buf_add(sql, sizeof sql, &n, "; COMMENT ON INDEX idxlab.%s IS '" SCHEMA_MARK "'",
		           en->qidx[i]);
		if (n >= sizeof sql)
			return err_set(e, ERR_RUNTIME,
			               "the DDL of index %s does not fit (a bug in idxlab)",
			               x->name);
		if (pg_exec(en, sql, e) < 0)
			return -1;
		if (live)
			evlog_add(EV_INFO, "built %s on %llu rows in %.2f s", x->name,
			          (unsigned long long)en->rs->live_rows,
			          (double)(clock_now_ns() - t0) / 1e9);
	}
	for (i = from - 1; i >= to; i--) {
		snprintf(sql, sizeof sql, "DROP INDEX idxlab.%s", en->qidx[i]);
		if (pg_exec(en, sql, e) < 0)
			return -1;
		if (live)
			evlog_add(EV_INFO, "dropped %s", s->idx[i].name);
	}
	return 0;
}

/* The SQL of the op on the spec's table into sql, and its parameters
 * (en->nparams, pcol, ptype): $1 is the id; an insert's values in column
 * order, then the payload; an update's new values of the columns it writes. */
static int build_statement(struct engine *en, long long op, char *sql, size_t len, struct err *e)
{
	const struct schema *s = en->s;
	int cols[SPEC_PARAMS], ncols = schema_op_cols(s, op, cols), i;

	ncols = schema_gen_skip(s, cols, ncols); /* the server computes those */
	size_t n = 0;

	en->nparams = 1;
	en->pcol[0] = 0;
	switch (op) {
	case OP_INSERT: /* hot's 0 and the payload are parameters too */
		ncols = pg_own_cols(en, cols, ncols);
		pg_buf_add(sql, len, &n, "INSERT INTO idxlab.idxlab_t (%s", en->qcol[0]);
		for (i = 0; i < ncols; i++)
			pg_buf_add(sql, len, &n, ", %s", pg_col_qname(en, cols[i]));
		pg_buf_add(sql, len, &n, ") VALUES ($1");
		for (i = 0; i < ncols; i++)
			pg_buf_add(sql, len, &n, ", $%d", i + 2);
		pg_buf_add(sql, len, &n, ")");
		break;
	case OP_UPDATE:
		if (!schema_has_hot(s) && !ncols)
			return err_set(e, ERR_USAGE, "%s", schema_no_update_why(s));
		if (!schema_has_hot(s))
			goto set_cols; /* the spec's hot value column */
		pg_buf_add(sql, len, &n, "UPDATE idxlab.idxlab_t SET %s = %s + 1 WHERE %s = $1",
		           en->qhot, en->qhot, en->qcol[0]);
		ncols = 0;
		break;
	case OP_UPDATE_INDEXED:
	case OP_UPDATE_KEYS:
		if (!ncols)
			return err_set(
			    e, ERR_USAGE,
			    "--op %s: the %s table has no %s to write; give its spec one, "
			    "or use --op update",
			    knob_table[K_OP].choices[op], s->name,
			    op == OP_UPDATE_KEYS ? "value column" : "index");
	set_cols:
		pg_buf_add(sql, len, &n, "UPDATE idxlab.idxlab_t SET ");
		for (i = 0; i < ncols; i++)
			pg_buf_add(sql, len, &n, "%s%s = $%d", i ? ", " : "", en->qcol[cols[i]],
			           i + 2);
		pg_buf_add(sql, len, &n, " WHERE %s = $1", en->qcol[0]);
		break;
	default: /* OP_DELETE */
		pg_buf_add(sql, len, &n, "DELETE FROM idxlab.idxlab_t WHERE %s = $1", en->qcol[0]);
		ncols = 0;
		break;
	}
	if (n >= len)
		return err_set(e, ERR_RUNTIME,
		               "the %s statement of table %s does not fit (a bug "
		               "in idxlab)",
		               knob_table[K_OP].choices[op], s->name);
	for (i = 0; i < ncols; i++)
		en->pcol[en->nparams++] = cols[i];
	for (i = 0; i < en->nparams; i++)
		en->ptype[i] = en->pcol[i] == PCOL_HOT       ? COL_INT
		               : en->pcol[i] == PCOL_PAYLOAD ? COL_TEXT
		                                             : schema_type(s, &en->k, en->pcol[i]);
	return 0;
}

/* The statement of the op, on the server (a new connection has none). */
Oid pg_type_oid(enum col_type t)
{
	static const Oid oids[COL_TYPE_COUNT] = {
		[COL_INT] = OID_INT4,
		[COL_BIGINT] = OID_INT8,
		[COL_TEXT] = OID_TEXT,
		[COL_UUID] = OID_UUID,
		[COL_TIMESTAMP] = OID_TIMESTAMPTZ,
		[COL_NUMERIC] = OID_NUMERIC,
		[COL_BOOL] = OID_BOOL,
		[COL_DATE] = OID_DATE,
		[COL_TIMESTAMPTZ] = OID_TIMESTAMPTZ,
	};

	return oids[t];
}

/* Write op's statement, prepared as pg_op_name's and kept (wsave[op]). */
static int prepare_write(struct engine *en, int op, struct err *e)
{
	Oid types[SPEC_PARAMS];
	char sql[4096], name[32];
	PGresult *res;
	int i;

	if (build_statement(en, op, sql, sizeof sql, e) < 0 || pg_proto_set(en, sql, e) < 0)
		return -1;
	pg_write_keep(en, op);
	for (i = 0; i < en->nparams; i++)
		types[i] = pg_type_oid(en->ptype[i]);
	if (!PQsendPrepare(en->conn, pg_op_name(op, name), sql, en->nparams, types))
		return pg_fail(en, NULL, e, "prepare");
	res = pg_collect(en, "prepare", 0, e);
	if (!res)
		return -1;
	PQclear(res);
	return 0;
}

int pg_prepare_statement(struct engine *en, struct err *e)
{
	unsigned writes = mix_ops(&en->k) & OPS_WRITES;
	int op;

	if (OP_READS(en->k.v[K_OP])) { /* the queries' statements (reads.c) */
		en->mixed = 0;
		if (pg_exec(en, "DEALLOCATE ALL", e) < 0 || pg_prepare_reads(en, e) < 0)
			return -1;
		en->prepared = 1;
		return pg_load_prepare(en, e); /* the plain hooks: reads load nothing */
	}
	en->rd.n = 0;
	en->mixed = mix_of(&en->k, NULL);
	/* a mix's queries first: preparing them takes the statement's state;
	 * the step's op last, so its state is the one in place */
	if (pg_exec(en, "DEALLOCATE ALL", e) < 0 || (en->mixed && pg_prepare_reads(en, e) < 0))
		return -1;
	for (op = OP_LOOKUP - 1; op >= 0; op--)
		if (writes & 1u << op && prepare_write(en, op, e) < 0)
			return -1;
	en->prepared = 1;
	return pg_load_prepare(en, e);
}

/* The op's statement and the order of the rows it visits. */
int pg_prepare_op(struct engine *en, struct err *e)
{
	if (pg_prepare_statement(en, e) < 0)
		return -1;
	rowset_prepare(en->rs, mix_ops(&en->k), (uint64_t)en->k.v[K_SEED]);
	return 0;
}

static void put_be(char *p, uint64_t v, int bytes)
{
	int i;

	for (i = 0; i < bytes; i++)
		p[i] = (char)(v >> (8 * (bytes - 1 - i)));
}

/* A numeric's binary form (ndigits, weight, sign, dscale, then base-10000
 * digits, big-endian int16s) of units 10^-scale into out; its length. */
static int numeric_bin(int64_t units, int scale, unsigned char *out)
{
	uint64_t u = units < 0 ? 0 - (uint64_t)units : (uint64_t)units;
	char dig[48];
	int n = snprintf(dig, sizeof dig, "%0*llu", scale + 1, (unsigned long long)u);
	int ilen = n - scale, ig = (ilen + 3) / 4, fg = (scale + 3) / 4, pad = ig * 4 - ilen;
	int g[24] = { 0 }, ng = 0, first = 0, last, weight = ig - 1, i, k;

	for (i = 0; i < ig + fg && ng < 24; i++) {
		int v = 0;

		for (k = 0; k < 4; k++) {
			int pos = i < ig ? i * 4 + k - pad : ilen + (i - ig) * 4 + k;

			v = v * 10 + (pos >= 0 && pos < n ? dig[pos] - '0' : 0);
		}
		g[ng++] = v;
	}
	while (first < ng && g[first] == 0) {
		first++;
		weight--;
	}
	last = ng;
	while (last > first && g[last - 1] == 0)
		last--;
	if (last == first)
		weight = 0;
	put_be((char *)out, (uint64_t)(last - first), 2);
	put_be((char *)out + 2, (uint64_t)(uint16_t)(int16_t)weight, 2);
	put_be((char *)out + 4, units < 0 ? 0x4000 : 0, 2);
	put_be((char *)out + 6, (uint64_t)scale, 2);
	for (i = first; i < last; i++)
		put_be((char *)out + 8 + 2 * (i - first), (uint64_t)g[i], 2);
	return 8 + 2 * (last - first);
}

int pg_bind_value(struct value *v, char *num, const char **out)
{
	*out = num;
	if (v->null) {
		*out = NULL;
		return -1;
	}
	switch (v->type) {
	case COL_INT:
		put_be(num, (uint32_t)v->i, 4);
		return 4;
	case COL_BIGINT:
		put_be(num, (uint64_t)v->i, 8);
		return 8;
	case COL_TIMESTAMP: /* microseconds since 2000-01-01 */
	case COL_TIMESTAMPTZ:
		put_be(num, (uint64_t)(v->i - PG_EPOCH_US), 8);
		return 8;
	case COL_BOOL:
		num[0] = (char)(v->i != 0);
		return 1;
	case COL_DATE: /* days since 2000-01-01 */
		put_be(num, (uint32_t)(v->i - PG_EPOCH_DAYS), 4);
		return 4;
	case COL_NUMERIC:
		*out = (const char *)v->b;
		return numeric_bin(v->i, v->scale, v->b);
	default:
		*out = (const char *)v->b;
		return (int)v->len;
	}
}

void pg_bind_cols(struct engine *en, const int *cols, int n, uint64_t row, uint64_t version,
                  char (*num)[8], const char **vals, int *lens)
{
	int i;

	for (i = 0; i < n; i++) {
		if (cols[i] == PCOL_PAYLOAD) {
			vals[i] = en->payload;
			lens[i] = (int)en->k.v[K_PAYLOAD];
			continue;
		}
		if (cols[i] == PCOL_HOT) {
			put_be(num[i], 0, 4);
			vals[i] = num[i];
			lens[i] = 4;
			continue;
		}
		schema_value(en->s, &en->k, cols[i], row, version, &en->pv[i]);
		lens[i] = pg_bind_value(&en->pv[i], num[i], &vals[i]);
	}
}

void pg_bind_row(struct engine *en, uint64_t row, uint64_t version, char (*num)[8],
                 const char **vals, int *lens)
{
	pg_bind_cols(en, en->pcol, en->nparams, row, version, num, vals, lens);
}

int pg_send_op(struct engine *en, long long op, uint64_t row, uint64_t version, struct err *e)
{
	char num[SPEC_PARAMS][8];
	const char *vals[SPEC_PARAMS];
	int lens[SPEC_PARAMS];

	if (OP_READS(op))
		return pg_do_read(en, op, row, version, e);
	if (en->w_op != op)
		pg_write_restore(en, (int)op); /* a mix's read or other write had it */
	/* insert: the row's values; updates: the new values of their version */
	pg_bind_row(en, row, op == OP_INSERT ? 0 : version, num, vals, lens);
	return pg_proto_send(en, vals, lens, e);
}
