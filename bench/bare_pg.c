/* bare_pg.c - the plain libpq loop idxlab's PostgreSQL steps are judged against.
 *
 * It does the work `idxlab run --engine postgres --dsn DSN` does for one step,
 * with the same knobs, and nothing else: on the server DSN names, a fresh
 * table bare.idxlab_t as idxlab builds the step's one (--schema: the default
 * table, or a built-in spec whose columns are all int/bigint: wal, wide16;
 * id bigint primary key, the spec's columns, its own hot column int NOT NULL
 * DEFAULT 0, payload text; --fillfactor, autovacuum off), then as idxlab's
 * set-up does: --prefill rows by one binary COPY and VACUUM (ANALYZE), the
 * first --indexes indexes of the spec, a CHECKPOINT. Then the timed part,
 * per transaction of --commit rows (all: one):
 *   --op insert --load copy      BEGIN, COPY ... FROM STDIN, the rows encoded
 *                                into a 64 KiB buffer handed to PQputCopyData
 *                                when full, PQputCopyEnd, COMMIT
 *   --op insert --load multirow  multi-row INSERTs of min(commit, 1000) rows
 *                                (prepared, binary parameters, pipelined)
 *   --op insert --load insert    one INSERT per row: --protocol prepared
 *                                --pipeline on (idxlab's default) a prepared
 *                                statement, binary parameters, pipelined; or
 *                                --protocol simple --pipeline off: SQL text
 *                                with the values in it, each statement's
 *                                answer read before the next is sent (psql)
 *   --op update                  UPDATE ... SET hot = hot + 1 WHERE id = $1
 *                                per row, in keys_shuffle()'s order of the
 *                                prefilled rows (idxlab's), prepared,
 *                                pipelined
 *   --op update-indexed          UPDATE ... SET col = $2 [, ...] WHERE id = $1:
 *   --op update-keys             the columns idxlab's op writes
 *                                (schema_op_cols), each row's values at its
 *                                visit (the version: 1 on the first pass),
 *                                the same way
 *   --op delete                  DELETE ... WHERE id = $1, the same way
 * --vacuum on runs a VACUUM of the table after the timed part (idxlab's
 * --vacuum: its own time, outside the step's); --sync off sets the
 * session's synchronous_commit off (idxlab's --sync off).
 * Pipelined statements are synced and their results read once 1000 rows'
 * statements are in flight (a multi-row INSERT counts its rows, BEGIN and
 * COMMIT one each), as idxlab does (PIPE_CHUNK). The rows
 * are idxlab's (schema_value(), the payload of keys_payload_new()). No sampling, no statistics, blocking
 * libpq: the floor the server's work sets. --copy-format binary (the
 * default, what idxlab sends) or text (each number printed) for --load copy.
 * synchronous_commit is the server's (on) unless --sync off.
 *
 *   bare_pg DSN [--rows N] [--indexes N] [--key-order seq|rand|few]
 *           [--commit row|N|all] [--payload BYTES] [--seed N]
 *           [--schema default|wal|wide16] [--fillfactor N] [--prefill N]
 *           [--op insert|update|delete] [--load copy|multirow|insert]
 *           [--sync full|off] [--vacuum on|off]
 *           [--protocol simple|prepared] [--pipeline on|off]
 *           [--copy-format binary|text] [--format text|csv]
 *
 * Output (text): "ROWS SECONDS" of the timed part; the schema bare is
 * dropped at the end. Exit status: 0 ok, 1 runtime failure, 2 usage error. */
#include <libpq-fe.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bare_args.h"
#include "keys.h"
#include "knobs.h"
#include "schema.h"

#define CHUNK      65536
#define PIPE_CHUNK 1000 /* statements in flight before a sync: idxlab's PIPE_CHUNK */
#define MR_ROWS    1000 /* idxlab's MULTIROW_MAX */
#define COLS_MAX   (SCHEMA_COLS_MAX + 2)
#define INT4OID    23
#define INT8OID    20
#define TEXTOID    25
#define PARAMS_MAX 65535

struct bare {
	PGconn *conn;
	struct knobs k;
	const struct schema *s;
	uint64_t rows, per_commit, prefill;
	int text, csv, ncols, hot_own, payload_on, simple, npend;
	int width[COLS_MAX]; /* 4 or 8 bytes: int, bigint; 0: the payload */
	int ucols[COLS_MAX]; /* update-indexed, update-keys: the columns set */
	int nucols;
	char names[2048]; /* "id, k1, ..., hot, payload" */
	char *payload, *buf;
	size_t used;
	long long payload_len;
};

static void usage(FILE *f)
{
	fprintf(f, "usage: bare_pg DSN [--rows N] [--indexes N] [--key-order seq|rand|few]\n"
	           "               [--commit row|N|all] [--payload BYTES] [--seed N]\n"
	           "               [--schema default|wal|wide16] [--fillfactor N] [--prefill N]\n"
	           "               [--op insert|update|update-indexed|update-keys|delete]\n"
	           "               [--load copy|multirow|insert]\n"
	           "               [--protocol simple|prepared] [--pipeline on|off]\n"
	           "               [--sync full|off] [--vacuum on|off]\n"
	           "               [--copy-format binary|text] [--format text|csv]\n");
}

static int exec(struct bare *b, const char *sql)
{
	PGresult *res = PQexec(b->conn, sql);
	int ok = PQresultStatus(res) == PGRES_COMMAND_OK || PQresultStatus(res) == PGRES_COPY_IN;

	if (!ok)
		fprintf(stderr, "bare_pg: %.200s: %s", sql, PQerrorMessage(b->conn));
	PQclear(res);
	return ok ? 0 : -1;
}

static void put_be(char *p, uint64_t v, int bytes)
{
	int i;

	for (i = 0; i < bytes; i++)
		p[i] = (char)(v >> (8 * (bytes - 1 - i)));
}

/* Column c's value (c < ncols: the spec's; then hot's 0) of row row at
 * version (0: as inserted). */
static int64_t val_at(const struct bare *b, int c, uint64_t row, uint64_t version)
{
	struct value v;

	if (c >= b->s->ncols)
		return 0;
	schema_value(b->s, &b->k, c, row, version, &v);
	return v.i;
}

static int64_t val(const struct bare *b, int c, uint64_t row)
{
	return val_at(b, c, row, 0);
}

/* Row row in COPY's binary or text form at b->buf + b->used. */
static void encode(struct bare *b, uint64_t row)
{
	char *p = b->buf + b->used;
	int c;

	if (b->text) {
		for (c = 0; c < b->ncols; c++)
			p += b->width[c]
			         ? sprintf(p, "%s%lld", c ? "\t" : "", (long long)val(b, c, row))
			         : sprintf(p, "\t%s", b->payload);
		*p++ = '\n';
	} else {
		put_be(p, (uint64_t)b->ncols, 2);
		p += 2;
		for (c = 0; c < b->ncols; c++) {
			int w = b->width[c];

			put_be(p, w ? (uint64_t)w : (uint64_t)b->payload_len, 4);
			if (w)
				put_be(p + 4, (uint64_t)val(b, c, row), w);
			else
				memcpy(p + 4, b->payload, (size_t)b->payload_len);
			p += 4 + (w ? w : b->payload_len);
		}
	}
	b->used = (size_t)(p - b->buf);
}

static int put(struct bare *b)
{
	int ok = PQputCopyData(b->conn, b->buf, (int)b->used) == 1;

	b->used = 0;
	return ok ? 0 : -1;
}

/* COPY rows [from, to) in transactions of per rows. */
static int copy_rows(struct bare *b, uint64_t from, uint64_t to, uint64_t per)
{
	char sql[2300];
	uint64_t row, in_txn = 0;
	PGresult *res;
	int ok;

	snprintf(sql, sizeof sql, "BEGIN; COPY bare.idxlab_t (%s) FROM STDIN%s", b->names,
	         b->text ? "" : " (FORMAT binary)");
	for (row = from; row < to; row++) {
		if (!in_txn) {
			if (exec(b, sql) < 0)
				return -1;
			if (!b->text) {
				memcpy(b->buf, "PGCOPY\n\377\r\n\0\0\0\0\0\0\0\0\0", 19);
				b->used = 19;
			}
		}
		encode(b, row);
		if (b->used >= CHUNK && put(b) < 0)
			return -1;
		if (++in_txn < per && row + 1 < to)
			continue;
		if (!b->text) {
			put_be(b->buf + b->used, 0xffff, 2);
			b->used += 2;
		}
		if (put(b) < 0 || PQputCopyEnd(b->conn, NULL) != 1)
			return -1;
		res = PQgetResult(b->conn);
		ok = PQresultStatus(res) == PGRES_COMMAND_OK;
		if (!ok)
			fprintf(stderr, "bare_pg: COPY: %s", PQerrorMessage(b->conn));
		PQclear(res);
		while ((res = PQgetResult(b->conn)))
			PQclear(res);
		if (!ok || exec(b, "COMMIT") < 0)
			return -1;
		in_txn = 0;
	}
	return 0;
}

/* ---- statements per row (pipelined, or one at a time) ---------------- */

/* Sync the pipeline and read every result up to the sync. */
static int drain(struct bare *b)
{
	PGresult *res;
	int failed = 0;

	if (!b->npend)
		return 0;
	if (PQpipelineSync(b->conn) != 1)
		return -1;
	for (;;) {
		ExecStatusType st;

		res = PQgetResult(b->conn);
		if (!res) {
			if (PQstatus(b->conn) == CONNECTION_BAD)
				return -1;
			continue;
		}
		st = PQresultStatus(res);
		if (st == PGRES_PIPELINE_SYNC) {
			PQclear(res);
			break;
		}
		if (st == PGRES_FATAL_ERROR && !failed) {
			fprintf(stderr, "bare_pg: %s", PQresultErrorMessage(res));
			failed = 1;
		}
		PQclear(res);
	}
	b->npend = 0;
	return failed ? -1 : 0;
}

/* BEGIN or COMMIT: in the pipeline the extended protocol without
 * parameters (idxlab's way), else a simple Query. */
static int txn_word(struct bare *b, const char *sql)
{
	if (b->simple)
		return exec(b, sql);
	if (!PQsendQueryParams(b->conn, sql, 0, NULL, NULL, NULL, NULL, 0))
		return -1;
	b->npend++;
	return 0;
}

/* The binary parameters of row row (nrow-th of a statement) into vals. */
static void bind(struct bare *b, uint64_t row, int ncols, char *num, const char **vals, int *lens)
{
	int c;

	for (c = 0; c < ncols; c++) {
		int w = b->width[c];

		if (w) {
			put_be(num + 8 * c, (uint64_t)val(b, c, row), w);
			vals[c] = num + 8 * c;
			lens[c] = w;
		} else {
			vals[c] = b->payload;
			lens[c] = (int)b->payload_len;
		}
	}
}

/* "INSERT INTO bare.idxlab_t (cols) VALUES ($1, ...), ..." of rows rows,
 * or (simple) row first's values as text. */
static char *insert_sql(struct bare *b, int rows, int simple, uint64_t first)
{
	size_t cap = 2400 + (size_t)rows * (size_t)b->ncols * 24 + (size_t)b->payload_len + 8;
	char *sql = malloc(cap), *p = sql;
	int r, c, n = 1;

	if (!sql)
		abort();
	p += sprintf(p, "INSERT INTO bare.idxlab_t (%s) VALUES ", b->names);
	for (r = 0; r < rows; r++) {
		*p++ = r ? ',' : ' ';
		*p++ = '(';
		for (c = 0; c < b->ncols; c++) {
			if (simple)
				p += b->width[c] ? sprintf(p, "%s%lld", c ? ", " : "",
				                           (long long)val(b, c, first))
				                 : sprintf(p, ", '%s'", b->payload);
			else
				p += sprintf(p, "%s$%d", c ? ", " : "", n++);
		}
		*p++ = ')';
	}
	*p = 0;
	return sql;
}

/* The parameter types of n parameters (whole rows, or an update's or a
 * delete's id and the columns it sets). */
static const Oid *types_of(const struct bare *b, int n)
{
	static Oid types[PARAMS_MAX];
	int i;

	for (i = 0; i < n; i++) {
		/* an insert's columns, row after row; else the id, then the columns set */
		int w = b->k.v[K_OP] == OP_INSERT ? b->width[i % b->ncols]
		        : i == 0                  ? 8
		                                  : b->width[b->ucols[i - 1]];

		types[i] = w == 4 ? INT4OID : w == 8 ? INT8OID : TEXTOID;
	}
	return types;
}

static int prepare(struct bare *b, const char *name, const char *sql, int nparams)
{
	PGresult *res = PQprepare(b->conn, name, sql, nparams, types_of(b, nparams));
	int ok = PQresultStatus(res) == PGRES_COMMAND_OK;

	if (!ok)
		fprintf(stderr, "bare_pg: prepare %s: %s", name, PQerrorMessage(b->conn));
	PQclear(res);
	return ok ? 0 : -1;
}

/* The rows of the step as statements: per row (insert, update) or
 * multi-row INSERTs (per > 1 rows each), in transactions of per_commit. */
static int statements(struct bare *b, int per)
{
	int nparams = b->k.v[K_OP] != OP_INSERT ? 1 + b->nucols : per * b->ncols, fmt[PARAMS_MAX],
	    lens[PARAMS_MAX];
	const char *vals[PARAMS_MAX];
	char *num = malloc((size_t)nparams * 8);
	uint64_t *order = NULL, i, in_txn = 0;
	int r, rc = -1;

	if (!num)
		abort();
	for (r = 0; r < nparams; r++)
		fmt[r] = 1;
	if (b->k.v[K_OP] != OP_INSERT) {
		/* room for every column's name: update-keys sets them all */
		char sql[SCHEMA_COLS_MAX * (SCHEMA_NAME_MAX + 16) + 128];
		int n = 0;

		if (b->k.v[K_OP] == OP_DELETE)
			snprintf(sql, sizeof sql, "DELETE FROM bare.idxlab_t WHERE id = $1");
		else if (b->k.v[K_OP] == OP_UPDATE)
			snprintf(sql, sizeof sql,
			         "UPDATE bare.idxlab_t SET %s = %s + 1 WHERE id = $1", b->s->hot,
			         b->s->hot);
		else {
			n = snprintf(sql, sizeof sql, "UPDATE bare.idxlab_t SET ");
			for (r = 0; r < b->nucols; r++)
				n += snprintf(sql + n, sizeof sql - (size_t)n, "%s%s = $%d",
				              r ? ", " : "", b->s->cols[b->ucols[r]].name, r + 2);
			snprintf(sql + n, sizeof sql - (size_t)n, " WHERE id = $1");
		}
		order = keys_shuffle((uint64_t)b->k.v[K_SEED], b->prefill);
		if (!order || prepare(b, "bare_op", sql, nparams) < 0)
			goto out;
	} else if (!b->simple) {
		char *sql = insert_sql(b, per, 0, 0);

		r = prepare(b, "bare_op", sql, nparams);
		free(sql);
		if (r < 0)
			goto out;
	}
	if (!b->simple && PQenterPipelineMode(b->conn) != 1)
		goto out;
	for (i = 0; i < b->rows;) {
		int n = per;

		if (!in_txn && txn_word(b, "BEGIN") < 0)
			goto out;
		if ((uint64_t)n > b->per_commit - in_txn)
			n = (int)(b->per_commit - in_txn);
		if ((uint64_t)n > b->rows - i)
			n = (int)(b->rows - i);
		if (b->simple) {
			char *sql = insert_sql(b, 1, 1, i);

			r = exec(b, sql);
			free(sql);
			if (r < 0)
				goto out;
		} else if (order) {
			uint64_t row = order[i % b->prefill];

			put_be(num, (uint64_t)val(b, 0, row), 8);
			vals[0] = num;
			lens[0] = 8;
			for (r = 0; r < b->nucols; r++) { /* the row's values at its visit */
				int w = b->width[b->ucols[r]];

				put_be(num + 8 * (r + 1),
				       (uint64_t)val_at(b, b->ucols[r], row, i / b->prefill + 1),
				       w);
				vals[r + 1] = num + 8 * (r + 1);
				lens[r + 1] = w;
			}
			if (!PQsendQueryPrepared(b->conn, "bare_op", nparams, vals, lens, fmt, 0))
				goto out;
			b->npend++;
		} else {
			for (r = 0; r < n; r++)
				bind(b, i + (uint64_t)r, b->ncols, num + (size_t)r * b->ncols * 8,
				     vals + r * b->ncols, lens + r * b->ncols);
			if (n == per) {
				r = PQsendQueryPrepared(b->conn, "bare_op", n * b->ncols, vals,
				                        lens, fmt, 0);
			} else { /* a commit's remainder: the unnamed statement */
				char *sql = insert_sql(b, n, 0, 0);

				r = PQsendQueryParams(b->conn, sql, n * b->ncols,
				                      types_of(b, n * b->ncols), vals, lens, fmt,
				                      0);
				free(sql);
			}
			if (!r)
				goto out;
			b->npend++;
		}
		i += (uint64_t)n;
		in_txn += (uint64_t)n;
		if (in_txn == b->per_commit || i == b->rows) {
			if (txn_word(b, "COMMIT") < 0)
				goto out;
			in_txn = 0;
		}
		/* as idxlab: once PIPE_CHUNK rows' statements are out (a multi-row
		 * INSERT counts its rows; BEGIN and COMMIT count one each) */
		if (!b->simple &&
		    ((uint64_t)b->npend * (uint64_t)per >= PIPE_CHUNK || i == b->rows)) {
			if (drain(b) < 0)
				goto out;
		}
	}
	rc = !b->simple && PQexitPipelineMode(b->conn) != 1 ? -1 : 0;
out:
	if (rc < 0 && PQerrorMessage(b->conn)[0])
		fprintf(stderr, "bare_pg: %s", PQerrorMessage(b->conn));
	free(num);
	free(order);
	return rc;
}

/* The measured part. Never inlined, so a profile can show it by name. */
static __attribute__((noinline)) int bare_run(struct bare *b, double *seconds)
{
	uint64_t t0 = bare_now_ns();
	int rc, per = 1;

	if (b->k.v[K_OP] == OP_INSERT && b->k.v[K_LOAD] == LOAD_COPY) {
		rc = copy_rows(b, 0, b->rows, b->per_commit);
	} else {
		if (b->k.v[K_OP] == OP_INSERT && b->k.v[K_LOAD] == LOAD_MULTIROW) {
			per = b->per_commit < MR_ROWS ? (int)b->per_commit : MR_ROWS;
			if (per > PARAMS_MAX / b->ncols)
				per = PARAMS_MAX / b->ncols;
		}
		rc = statements(b, per);
	}
	*seconds = (double)(bare_now_ns() - t0) / 1e9;
	return rc;
}

/* The table, its prefill and indexes, the checkpoint: idxlab's set-up. */
static int setup(struct bare *b)
{
	char sql[4096], *p = sql;
	long long i;
	int c;

	p += sprintf(p, "SET client_min_messages = warning; DROP SCHEMA IF EXISTS bare CASCADE; "
	                "CREATE SCHEMA bare; CREATE TABLE bare.idxlab_t (id bigint PRIMARY KEY");
	for (c = 1; c < b->s->ncols; c++)
		p += sprintf(p, ", %s %s", b->s->cols[c].name,
		             b->width[c] == 4 ? "integer" : "bigint");
	if (b->hot_own)
		p += sprintf(p, ", %s int NOT NULL DEFAULT 0", b->s->hot);
	if (b->payload_on)
		p += sprintf(p, ", payload text");
	sprintf(p, ") WITH (fillfactor = %lld, autovacuum_enabled = false)", b->k.v[K_FILLFACTOR]);
	if (exec(b, sql) < 0)
		return -1;
	if (b->prefill && (copy_rows(b, 0, b->prefill, UINT64_MAX) < 0 ||
	                   exec(b, "VACUUM (ANALYZE) bare.idxlab_t") < 0))
		return -1;
	for (i = 0; i < b->k.v[K_INDEXES]; i++) {
		const struct index_spec *x = &b->s->idx[i];

		p = sql + sprintf(sql, "CREATE INDEX %s ON bare.idxlab_t (", x->name);
		for (c = 0; c < x->ncols; c++)
			p += sprintf(p, "%s%s", c ? ", " : "", b->s->cols[x->cols[c]].name);
		sprintf(p, ")");
		if (exec(b, sql) < 0)
			return -1;
	}
	return exec(b, "CHECKPOINT");
}

/* The spec's columns as bare_pg writes them: all int or bigint, plain
 * indexes; 0, or 2 after saying why. */
static int columns(struct bare *b)
{
	const struct schema *s = b->s;
	char *p = b->names;
	long long i;
	int c;

	for (c = 0; c < s->ncols; c++) {
		enum col_type t = schema_type(s, &b->k, c);

		if ((t != COL_INT && t != COL_BIGINT) || s->cols[c].gen[0] ||
		    s->cols[c].nulls > 0) {
			fprintf(stderr,
			        "bare_pg: --schema %s: column %s is not a plain int or bigint\n",
			        s->name, s->cols[c].name);
			return 2;
		}
		b->width[c] = c == 0 || t == COL_BIGINT ? 8 : 4;
		p += sprintf(p, "%s%s", c ? ", " : "", c ? s->cols[c].name : "id");
	}
	b->ncols = s->ncols;
	b->hot_own = s->hot[0] && !s->hot_col;
	b->payload_on = !s->no_payload;
	if (b->hot_own) {
		b->width[b->ncols++] = 4;
		p += sprintf(p, ", %s", s->hot);
	}
	if (b->payload_on) {
		b->width[b->ncols++] = 0;
		sprintf(p, ", payload");
	}
	for (i = 0; i < b->k.v[K_INDEXES]; i++)
		if (i >= s->nindexes || s->idx[i].npred || s->idx[i].fn[0] != IDX_FN_NONE) {
			fprintf(stderr, "bare_pg: --indexes %lld: index %lld is not a plain one\n",
			        b->k.v[K_INDEXES], i + 1);
			return 2;
		}
	if (b->k.v[K_OP] == OP_UPDATE && (!b->hot_own || !b->prefill)) {
		fprintf(stderr,
		        "bare_pg: --op update: a table with its own hot column and --prefill\n");
		return 2;
	}
	if (b->k.v[K_OP] == OP_UPDATE_INDEXED || b->k.v[K_OP] == OP_UPDATE_KEYS) {
		b->nucols = schema_op_cols(s, b->k.v[K_OP], b->ucols);
		if (!b->nucols || !b->prefill) {
			fprintf(stderr,
			        "bare_pg: --op %s: a table with columns it sets, and --prefill\n",
			        knob_table[K_OP].choices[b->k.v[K_OP]]);
			return 2;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct bare_opt opts[] = {
		{ "--rows", K_ROWS },
		{ "--indexes", K_INDEXES },
		{ "--key-order", K_KEY_ORDER },
		{ "--commit", K_COMMIT },
		{ "--payload", K_PAYLOAD },
		{ "--seed", K_SEED },
		{ "--format", K_FORMAT },
		{ "--schema", K_SCHEMA },
		{ "--fillfactor", K_FILLFACTOR },
		{ "--prefill", K_PREFILL },
		{ "--op", K_OP },
		{ "--load", K_LOAD },
		{ "--protocol", K_PROTOCOL },
		{ "--pipeline", K_PIPELINE },
		{ "--sync", K_SYNC },
		{ "--vacuum", K_VACUUM },
	};
	struct bare b;
	double seconds = 0;
	int rc, i, n = 1;
	char **args = calloc((size_t)argc + 1, sizeof *args);

	memset(&b, 0, sizeof b);
	if (!args)
		abort();
	if (argc < 2 || argv[1][0] == '-') {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	args[0] = argv[0];
	for (i = 2; i < argc; i++) {
		if (strcmp(argv[i], "--copy-format") == 0 && i + 1 < argc) {
			b.text = strcmp(argv[++i], "text") == 0;
			continue;
		}
		args[n++] = argv[i];
	}
	knobs_defaults(&b.k);
	b.k.v[K_COMMIT] = COMMIT_ALL;
	b.k.v[K_LOAD] = LOAD_COPY;
	b.k.v[K_PROTOCOL] = PROTO_PREPARED;
	b.k.v[K_PIPELINE] = 1;
	rc = bare_parse_args("bare_pg", n, args, opts, sizeof opts / sizeof opts[0], &b.k, usage);
	free(args);
	if (!rc)
		rc = bare_integer_keys("bare_pg", &b.k);
	if (rc)
		return rc;
	b.s = schema_of(&b.k);
	b.rows = (uint64_t)b.k.v[K_ROWS];
	b.per_commit = b.k.v[K_COMMIT] == COMMIT_ALL ? UINT64_MAX : (uint64_t)b.k.v[K_COMMIT];
	b.prefill = (uint64_t)knobs_prefill(&b.k);
	b.payload_len = b.k.v[K_PAYLOAD];
	b.csv = b.k.v[K_FORMAT] == FMT_CSV;
	/* COPY has a protocol of its own: the two knobs are moot there */
	if (b.k.v[K_OP] == OP_INSERT && b.k.v[K_LOAD] == LOAD_COPY) {
		b.k.v[K_PROTOCOL] = PROTO_PREPARED;
		b.k.v[K_PIPELINE] = 1;
	}
	b.simple = b.k.v[K_PROTOCOL] == PROTO_SIMPLE;
	if ((b.simple != !b.k.v[K_PIPELINE]) || b.k.v[K_PROTOCOL] == PROTO_EXTENDED ||
	    (b.simple && (b.k.v[K_OP] != OP_INSERT || b.k.v[K_LOAD] != LOAD_INSERT))) {
		fprintf(stderr, "bare_pg: --protocol prepared --pipeline on, or --protocol simple "
		                "--pipeline off with --op insert --load insert\n");
		return 2;
	}
	if (OP_READS(b.k.v[K_OP])) {
		fprintf(stderr,
		        "bare_pg: --op: insert, update, update-indexed, update-keys or delete\n");
		return 2;
	}
	if (b.k.v[K_OP] == OP_DELETE && (!b.prefill || b.rows > b.prefill)) {
		fprintf(stderr, "bare_pg: --op delete: at most --prefill rows\n");
		return 2;
	}
	if (b.k.v[K_SYNC] != SYNC_FULL && b.k.v[K_SYNC] != SYNC_OFF) {
		fprintf(stderr, "bare_pg: --sync: full or off\n");
		return 2;
	}
	if ((rc = columns(&b)))
		return rc;
	b.payload = keys_payload_new((size_t)b.payload_len);
	b.buf = malloc(CHUNK + 1024 + (size_t)COLS_MAX * 32 + (size_t)b.payload_len);
	if (!b.buf)
		abort();
	b.conn = PQconnectdb(argv[1]);
	if (PQstatus(b.conn) != CONNECTION_OK) {
		fprintf(stderr, "bare_pg: cannot connect: %s", PQerrorMessage(b.conn));
		return 1;
	}
	rc = (b.k.v[K_SYNC] == SYNC_OFF && exec(&b, "SET synchronous_commit = off") < 0) ||
	     setup(&b) < 0 || bare_run(&b, &seconds) < 0 ||
	     (b.k.v[K_VACUUM] && exec(&b, "VACUUM bare.idxlab_t") < 0);
	(void)exec(&b, "DROP SCHEMA IF EXISTS bare CASCADE");
	PQfinish(b.conn);
	free(b.payload);
	free(b.buf);
	if (rc)
		return 1;
	bare_print(b.csv, b.rows, seconds);
	return 0;
}
