/* bare_pg.c - the plain libpq COPY loop idxlab's --load copy is judged against.
 *
 * It does the work `idxlab run --engine postgres --load copy --dsn DSN`
 * measures, and nothing else: on the server DSN names, a fresh table
 * bare.idxlab_t as idxlab builds the default one (id bigint primary key,
 * k1..k8 bigint, hot int NOT NULL DEFAULT 0, payload text; fillfactor 100,
 * autovacuum off) and its first --indexes indexes on k1.., a CHECKPOINT, then
 * the timed part: per transaction of --commit rows (all: one) BEGIN, COPY
 * bare.idxlab_t (id, k1..k8, hot, payload) FROM STDIN, the rows encoded into
 * a 64 KiB buffer handed to PQputCopyData when full, PQputCopyEnd, COMMIT.
 * The rows are idxlab's (id = row + 1, keys_int() for k1..k8, hot 0,
 * keys_payload_new()). No pipeline, no sampling, no statistics, blocking
 * libpq: the fastest honest loop, the ceiling. --copy-format binary (the
 * default, what idxlab sends) or text (each number printed) to measure
 * which costs less. synchronous_commit is the server's (on).
 *
 *   bare_pg DSN [--rows N] [--indexes N] [--key-order seq|rand|few]
 *           [--commit row|N|all] [--payload BYTES] [--seed N]
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

#define CHUNK 65536

struct bare {
	PGconn *conn;
	uint64_t rows, per_commit, seed;
	long long indexes, payload_len;
	enum key_order ko;
	int text, csv;
	char *payload, *buf;
	size_t used;
};

static void usage(FILE *f)
{
	fprintf(f, "usage: bare_pg DSN [--rows N] [--indexes N] [--key-order seq|rand|few]\n"
	           "               [--commit row|N|all] [--payload BYTES] [--seed N]\n"
	           "               [--copy-format binary|text] [--format text|csv]\n");
}

static int exec(struct bare *b, const char *sql)
{
	PGresult *res = PQexec(b->conn, sql);
	int ok = PQresultStatus(res) == PGRES_COMMAND_OK || PQresultStatus(res) == PGRES_COPY_IN;

	if (!ok)
		fprintf(stderr, "bare_pg: %s: %s", sql, PQerrorMessage(b->conn));
	PQclear(res);
	return ok ? 0 : -1;
}

static void put_be(char *p, uint64_t v, int bytes)
{
	int i;

	for (i = 0; i < bytes; i++)
		p[i] = (char)(v >> (8 * (bytes - 1 - i)));
}

/* Row row in COPY's binary or text form at b->buf + b->used. */
static void encode(struct bare *b, uint64_t row)
{
	char *p = b->buf + b->used;
	int c;

	if (b->text) {
		p += sprintf(p, "%llu", (unsigned long long)row + 1);
		for (c = 1; c <= 8; c++)
			p += sprintf(p, "\t%lld", (long long)keys_int(b->seed, b->ko, c, row, 0));
		p += sprintf(p, "\t0\t%s\n", b->payload);
	} else {
		put_be(p, 11, 2);
		p += 2;
		put_be(p, 8, 4);
		put_be(p + 4, row + 1, 8);
		p += 12;
		for (c = 1; c <= 8; c++) {
			put_be(p, 8, 4);
			put_be(p + 4, (uint64_t)keys_int(b->seed, b->ko, c, row, 0), 8);
			p += 12;
		}
		put_be(p, 4, 4);
		put_be(p + 4, 0, 4);
		p += 8;
		put_be(p, (uint64_t)b->payload_len, 4);
		memcpy(p + 4, b->payload, (size_t)b->payload_len);
		p += 4 + b->payload_len;
	}
	b->used = (size_t)(p - b->buf);
}

static int put(struct bare *b)
{
	int ok = PQputCopyData(b->conn, b->buf, (int)b->used) == 1;

	b->used = 0;
	return ok ? 0 : -1;
}

static int copy_end(struct bare *b)
{
	PGresult *res;
	int ok;

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
	return ok ? exec(b, "COMMIT") : -1;
}

/* The measured part. Never inlined, so a profile can show it by name. */
static __attribute__((noinline)) int bare_load(struct bare *b, double *seconds)
{
	const char *copy =
	    b->text ? "BEGIN; COPY bare.idxlab_t (id, k1, k2, k3, k4, k5, k6, k7, k8, hot, "
	              "payload) FROM STDIN"
	            : "BEGIN; COPY bare.idxlab_t (id, k1, k2, k3, k4, k5, k6, k7, k8, hot, "
	              "payload) FROM STDIN (FORMAT binary)";
	uint64_t t0 = bare_now_ns(), row, in_txn = 0;

	for (row = 0; row < b->rows; row++) {
		if (!in_txn) {
			if (exec(b, copy) < 0)
				return -1;
			if (!b->text) {
				memcpy(b->buf, "PGCOPY\n\377\r\n\0\0\0\0\0\0\0\0\0", 19);
				b->used = 19;
			}
		}
		encode(b, row);
		if (b->used >= CHUNK && put(b) < 0)
			return -1;
		if (++in_txn == b->per_commit) {
			if (copy_end(b) < 0)
				return -1;
			in_txn = 0;
		}
	}
	if (in_txn && copy_end(b) < 0)
		return -1;
	*seconds = (double)(bare_now_ns() - t0) / 1e9;
	return 0;
}

static int setup(struct bare *b)
{
	char sql[256];
	long long i;

	if (exec(b, "SET client_min_messages = warning; DROP SCHEMA IF EXISTS bare CASCADE; "
	            "CREATE SCHEMA bare; CREATE TABLE bare.idxlab_t (id bigint PRIMARY KEY, "
	            "k1 bigint, k2 bigint, k3 bigint, k4 bigint, k5 bigint, k6 bigint, "
	            "k7 bigint, k8 bigint, hot int NOT NULL DEFAULT 0, payload text) "
	            "WITH (fillfactor = 100, autovacuum_enabled = false)") < 0)
		return -1;
	for (i = 1; i <= b->indexes; i++) {
		snprintf(sql, sizeof sql, "CREATE INDEX idxlab_k%lld ON bare.idxlab_t (k%lld)", i,
		         i);
		if (exec(b, sql) < 0)
			return -1;
	}
	return exec(b, "CHECKPOINT");
}

int main(int argc, char **argv)
{
	static const struct bare_opt opts[] = {
		{ "--rows", K_ROWS },           { "--indexes", K_INDEXES },
		{ "--key-order", K_KEY_ORDER }, { "--commit", K_COMMIT },
		{ "--payload", K_PAYLOAD },     { "--seed", K_SEED },
		{ "--format", K_FORMAT },
	};
	struct bare b;
	struct knobs k;
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
	knobs_defaults(&k);
	k.v[K_COMMIT] = COMMIT_ALL;
	rc = bare_parse_args("bare_pg", n, args, opts, sizeof opts / sizeof opts[0], &k, usage);
	free(args);
	if (rc)
		return rc;
	b.rows = (uint64_t)k.v[K_ROWS];
	b.per_commit = k.v[K_COMMIT] == COMMIT_ALL ? UINT64_MAX : (uint64_t)k.v[K_COMMIT];
	b.indexes = k.v[K_INDEXES];
	b.ko = (enum key_order)k.v[K_KEY_ORDER];
	b.seed = (uint64_t)k.v[K_SEED];
	b.payload_len = k.v[K_PAYLOAD];
	b.csv = k.v[K_FORMAT] == FMT_CSV;
	b.payload = keys_payload_new((size_t)b.payload_len);
	b.buf = malloc(CHUNK + 1024 + (size_t)b.payload_len);
	if (!b.buf)
		abort();
	b.conn = PQconnectdb(argv[1]);
	if (PQstatus(b.conn) != CONNECTION_OK) {
		fprintf(stderr, "bare_pg: cannot connect: %s", PQerrorMessage(b.conn));
		return 1;
	}
	rc = setup(&b) < 0 || bare_load(&b, &seconds) < 0;
	(void)exec(&b, "DROP SCHEMA IF EXISTS bare CASCADE");
	PQfinish(b.conn);
	free(b.payload);
	free(b.buf);
	if (rc)
		return 1;
	bare_print(b.csv, b.rows, seconds);
	return 0;
}
