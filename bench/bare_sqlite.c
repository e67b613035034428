/* bare_sqlite.c - the plain C insert loop idxlab's SQLite engine is judged against.
 *
 * It does the work `idxlab run --op insert --commit all` measures, and nothing
 * else: a fresh database file in a fresh temp dir, the same idxlab_meta marker,
 * pragmas (journal_mode=DELETE, synchronous=FULL, the same page size and cache
 * size) and schema, the same INSERT text, one prepared statement, the same row
 * values (src/keys.c) and payload bytes, one BEGIN ... COMMIT around all rows.
 * Only that BEGIN ... COMMIT is timed (CLOCK_MONOTONIC). No VFS shim, no
 * counters, no thread, no batching: the fastest honest loop, the ceiling.
 *
 * "Honest" means it does not cheat on durability or work: no synchronous=OFF,
 * no exclusive locking, no bigger pages, no multi-row INSERT, no skipped
 * values. The one liberty it takes is binding the payload once: bindings
 * survive sqlite3_reset(), and a plain loop would not rebind a constant.
 * The library runs with SQLite's defaults, as idxlab does; --memstatus off
 * turns off SQLite's memory statistics (SQLITE_CONFIG_MEMSTATUS), which take
 * a global mutex around every sqlite3_malloc/free: the same work, faster.
 *
 * --schema NAME writes another built-in table instead (idxlab --schema
 * users, textkey, events, ...): its DDL as idxlab's engine declares it (id
 * INTEGER PRIMARY KEY when it is a sequence, else its type as PRIMARY KEY
 * of a WITHOUT ROWID table; each column's type; hot INTEGER; payload BLOB),
 * its INSERT (hot 0) and its rows, each value from schema_value()
 * (src/schema_value.c) bound by its type as idxlab's engine binds it. A
 * spec whose table idxlab builds otherwise (generated columns, a table kept
 * in its first index, an unindexed id) is refused.
 *
 * --commit N (row: 1) commits every N rows instead of once, as idxlab's
 * step does; --journal delete|wal and --sync full|normal set those
 * pragmas. --prefill N before inserts loads N rows first, unmeasured, as
 * idxlab's set-up does: under a 256 MiB cache, in one transaction, the
 * indexes built after it (a WAL checkpointed), then the cache set and the
 * timed inserts go on from row N. --index-build after builds the indexes
 * after the inserts' COMMIT instead, each CREATE INDEX its own
 * transaction, timed with them (as idxlab's step measures its build).
 *
 * --op lookup (issue 22) times lookups by primary key instead: --prefill
 * rows are inserted first, unmeasured (the loop above, in its own
 * transaction), then --rows lookups `SELECT * FROM idxlab_t WHERE id = ?1`
 * in one BEGIN ... COMMIT, each row drawn as idxlab's rowset draws it
 * (keys_hash of the seed, "row", the draw) and fetched whole (every
 * column's bytes, as idxlab's engine fetches them): what `idxlab run --op
 * lookup` with a `query by_id: id = ?` line measures.
 *
 *   bare_sqlite [--rows N] [--payload BYTES] [--key-order seq|rand|few]
 *               [--cache SIZE] [--indexes N] [--seed N] [--format text|csv]
 *               [--memstatus on|off] [--schema NAME]
 *               [--op insert|lookup] [--prefill N] [--commit row|N|all]
 *               [--journal delete|wal] [--sync full|normal]
 *               [--index-build before|after] [--pk int|uuid7|uuid4]
 *
 * --key-order takes uuid7 and uuid4 too, and --pk uuid7|uuid4 makes the id
 * a uuid (BLOBs, the table WITHOUT ROWID), as idxlab's engine writes them.
 *
 * SIZE and the other values use idxlab's syntax and ranges (knob_parse), so
 * the same strings can be passed to both. Output (text): "ROWS SECONDS".
 * Exit status: 0 ok, 1 runtime failure, 2 usage error. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bare_args.h"
#include "err.h"
#include "keys.h"
#include "knobs.h"
#include "schema.h"

#define INSERT_SQL                                                                                 \
	"INSERT INTO idxlab_t(id,k1,k2,k3,k4,k5,k6,k7,k8,hot,payload) "                            \
	"VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,0,?10)"
/* The default table: id and keys INTEGERs, or BLOBs for uuids (a uuid id
 * in a WITHOUT ROWID table), as idxlab's engine writes it. */
#define TABLE_SQL                                                                                  \
	"CREATE TABLE idxlab_t(id %1$s PRIMARY KEY, k1 %2$s, k2 %2$s, k3 %2$s, k4 %2$s, "          \
	"k5 %2$s, k6 %2$s, k7 %2$s, k8 %2$s, hot INTEGER, payload BLOB)%3$s"
#define PAYLOAD_PARAM 10

#define PREFILL_CACHE_KIB 262144 /* idxlab's load cache (its sqlite driver.c) */

struct bare {
	uint64_t rows, seed, per_commit;
	long long journal, sync;
	long long payload_len, cache_bytes, indexes;
	enum key_order ko;
	int csv, memstatus, lookup, build_after;
	long long pk;
	int uuids; /* a uuid id or uuid keys: bind_uuids */
	uint64_t prefill;
	const struct schema *spec; /* --schema NAME; NULL for the default table */
	int payload_param;         /* the INSERT's payload parameter; 0: none */
	struct value *vals;        /* a spec's row, ncols values */
	struct knobs k;            /* the parsed knobs (schema_value reads the seed) */
	char dir[PATH_MAX - 64];
	char path[PATH_MAX];
	sqlite3 *db;
	sqlite3_stmt *ins;
	unsigned char *payload;
};

/* Room for a spec's CREATE TABLE or INSERT. */
#define SPEC_SQL (SCHEMA_COLS_MAX * (SCHEMA_NAME_MAX + 16) + 128)

/* The types bare binds (bare_load_spec), as idxlab's engine declares them. */
static const char *const spec_types[COL_TYPE_COUNT] = {
	[COL_INT] = "INTEGER", [COL_BIGINT] = "INTEGER",    [COL_TEXT] = "TEXT",
	[COL_UUID] = "BLOB",   [COL_TIMESTAMP] = "INTEGER", [COL_TIMESTAMPTZ] = "TIMESTAMPTZ",
};

/* Does idxlab build spec s's table as bare_sqlite does: every column a
 * type above, none generated, the rows kept by an indexed id, one table,
 * every index a plain list of columns (no lower(), no WHERE)? */
static int spec_plain(const struct schema *s, const struct knobs *k)
{
	int c;

	if (s->without_rowid || !schema_id_indexed(s, k) || s->part.kind != PART_NONE)
		return 0;
	for (c = 0; c < s->nindexes; c++) { /* plain column lists only */
		int j;

		for (j = 0; j < s->idx[c].ncols; j++)
			if (s->idx[c].fn[j] != IDX_FN_NONE)
				return 0;
		if (s->idx[c].npred)
			return 0;
	}
	for (c = 0; c < s->ncols; c++) {
		enum col_type t = schema_type(s, k, c);

		if (s->cols[c].gen[0] || t < 0 || t >= COL_TYPE_COUNT || !spec_types[t])
			return 0;
	}
	return 1;
}

/* b->spec's CREATE TABLE into table and INSERT into ins (SPEC_SQL bytes
 * each), as idxlab's engine writes them; returns the payload's parameter
 * (0: no payload column). */
static int spec_sql(struct bare *b, char *table, char *ins)
{
	const struct schema *s = b->spec;
	enum col_type id_t = schema_type(s, &b->k, 0);
	uint64_t n;
	int seq =
	    (id_t == COL_BIGINT || id_t == COL_INT) && schema_order(s, &b->k, 0, &n) == ORD_SEQ;
	int payload = schema_has_payload(s, &b->k);
	size_t t, i;
	int c;

	b->vals = calloc((size_t)s->ncols, sizeof *b->vals);
	if (!b->vals) {
		fprintf(stderr, "bare_sqlite: out of memory\n");
		exit(1);
	}
	t = (size_t)snprintf(table, SPEC_SQL, "CREATE TABLE idxlab_t(id %s PRIMARY KEY",
	                     spec_types[id_t]);
	i = (size_t)snprintf(ins, SPEC_SQL, "INSERT INTO idxlab_t(id");
	for (c = 1; c < s->ncols; c++) {
		t += (size_t)snprintf(table + t, SPEC_SQL - t, ", \"%s\" %s", s->cols[c].name,
		                      spec_types[schema_type(s, &b->k, c)]);
		i += (size_t)snprintf(ins + i, SPEC_SQL - i, ",\"%s\"", s->cols[c].name);
	}
	if (schema_has_hot(s)) {
		t += (size_t)snprintf(table + t, SPEC_SQL - t, ", \"%s\" INTEGER", s->hot);
		i += (size_t)snprintf(ins + i, SPEC_SQL - i, ",\"%s\"", s->hot);
	}
	if (payload) {
		t += (size_t)snprintf(table + t, SPEC_SQL - t, ", payload BLOB");
		i += (size_t)snprintf(ins + i, SPEC_SQL - i, ",payload");
	}
	snprintf(table + t, SPEC_SQL - t, ")%s", seq ? "" : " WITHOUT ROWID");
	i += (size_t)snprintf(ins + i, SPEC_SQL - i, ") VALUES(?1");
	for (c = 1; c < s->ncols; c++)
		i += (size_t)snprintf(ins + i, SPEC_SQL - i, ",?%d", c + 1);
	if (schema_has_hot(s))
		i += (size_t)snprintf(ins + i, SPEC_SQL - i, ",0");
	snprintf(ins + i, SPEC_SQL - i, payload ? ",?%d)" : ")", s->ncols + 1);
	return payload ? s->ncols + 1 : 0;
}

static void usage(FILE *f)
{
	fputs("usage: bare_sqlite [--rows N] [--payload BYTES] [--key-order seq|rand|few]\n"
	      "                   [--cache SIZE] [--indexes N] [--seed N] [--format text|csv]\n"
	      "                   [--memstatus on|off] [--schema NAME]\n"
	      "                   [--op insert|lookup] [--prefill N] [--commit row|N|all]\n"
	      "                   [--journal delete|wal] [--sync full|normal]\n"
	      "                   [--index-build before|after] [--pk int|uuid7|uuid4]\n"
	      "Inserts N rows into a fresh SQLite file the way idxlab does, in one\n"
	      "transaction, and prints \"ROWS SECONDS\" for the BEGIN..COMMIT alone.\n"
	      "Defaults are idxlab's: 100000 rows, 100 bytes, seq, 2000KiB, 0 indexes,\n"
	      "seed 1.\n",
	      f);
}

/* For the signal handler: what to remove when interrupted. */
static char sig_db[PATH_MAX], sig_journal[PATH_MAX + 16], sig_dir[PATH_MAX];

/* Ctrl-C / SIGTERM: remove the files (unlink and rmdir are async-signal-safe)
 * so an interrupted benchmark leaves no 100 MB file behind. */
static void on_signal(int sig)
{
	if (sig_dir[0]) {
		(void)unlink(sig_db);
		(void)unlink(sig_journal);
		(void)rmdir(sig_dir);
	}
	_exit(128 + sig);
}

/* Remove the database, its journal and the temp dir (safe to call twice). */
static void cleanup(struct bare *b)
{
	static const char *const suffixes[] = { "", "-journal", "-wal", "-shm" };
	char p[PATH_MAX + 16];
	size_t i;

	sqlite3_finalize(b->ins);
	b->ins = NULL;
	if (b->db)
		sqlite3_close(b->db);
	b->db = NULL;
	if (!b->dir[0])
		return;
	sig_dir[0] = 0;
	for (i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
		snprintf(p, sizeof p, "%s%s", b->path, suffixes[i]);
		(void)unlink(p);
	}
	if (rmdir(b->dir) < 0)
		fprintf(stderr, "bare_sqlite: could not remove %s: %s\n", b->dir, strerror(errno));
	b->dir[0] = 0;
}

static int fail(struct bare *b, const char *what)
{
	fprintf(stderr, "bare_sqlite: %s: %s\n", what, b->db ? sqlite3_errmsg(b->db) : "no db");
	cleanup(b);
	return 1;
}

static int exec(struct bare *b, const char *sql)
{
	return sqlite3_exec(b->db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

/* Parse argv with idxlab's own knob parser; 0, or 2 for a usage error. */
static int parse_args(struct bare *b, int argc, char **argv)
{
	static const struct bare_opt opts[] = {
		{ "--rows", K_ROWS },
		{ "--payload", K_PAYLOAD },
		{ "--key-order", K_KEY_ORDER },
		{ "--cache", K_CACHE },
		{ "--indexes", K_INDEXES },
		{ "--seed", K_SEED },
		{ "--format", K_FORMAT },
		{ "--memstatus", K_PROBES },
		{ "--schema", K_SCHEMA },
		{ "--op", K_OP },
		{ "--prefill", K_PREFILL },
		{ "--commit", K_COMMIT },
		{ "--journal", K_JOURNAL },
		{ "--sync", K_SYNC },
		{ "--index-build", K_INDEX_BUILD },
		{ "--pk", K_PK },
	};
	struct knobs k;
	const struct schema *s;

	knobs_defaults(&k); /* --memstatus borrows K_PROBES: on|off, default on */
	if (bare_parse_args("bare_sqlite", argc, argv, opts, sizeof opts / sizeof opts[0], &k,
	                    usage))
		return 2;
	b->rows = (uint64_t)k.v[K_ROWS];
	b->seed = (uint64_t)k.v[K_SEED];
	b->payload_len = k.v[K_PAYLOAD];
	b->cache_bytes = k.v[K_CACHE];
	b->indexes = k.v[K_INDEXES];
	b->ko = (enum key_order)k.v[K_KEY_ORDER];
	b->csv = k.v[K_FORMAT] == FMT_CSV;
	b->memstatus = (int)k.v[K_PROBES];
	s = schema_of(&k);
	if (strcmp(s->name, "default") != 0 && !spec_plain(s, &k)) {
		fprintf(stderr,
		        "bare_sqlite: --schema %s: a table idxlab builds otherwise "
		        "(generated columns, kept in an index, an unindexed id, a type "
		        "bare_sqlite does not bind)\n",
		        s->name);
		return 2;
	}
	if (b->indexes > s->nindexes) {
		fprintf(stderr, "bare_sqlite: --indexes: at most %d on the %s table\n", s->nindexes,
		        s->name);
		return 2;
	}
	b->spec = strcmp(s->name, "default") != 0 ? s : NULL;
	b->lookup = k.v[K_OP] == OP_LOOKUP;
	b->prefill = k.v[K_PREFILL] > 0 ? (uint64_t)k.v[K_PREFILL] : b->lookup ? b->rows : 0;
	b->per_commit = k.v[K_COMMIT] == COMMIT_ALL ? UINT64_MAX : (uint64_t)k.v[K_COMMIT];
	b->journal = k.v[K_JOURNAL];
	b->build_after = k.v[K_INDEX_BUILD] == BUILD_AFTER;
	b->pk = k.v[K_PK];
	/* the default table's uuids (a spec's come from schema_value) */
	b->uuids = !b->spec && (b->pk != PK_INT || b->ko == KO_UUID7 || b->ko == KO_UUID4);
	b->sync = k.v[K_SYNC];
	if ((k.v[K_OP] != OP_INSERT && !b->lookup) || (b->lookup && b->spec)) {
		fprintf(stderr, "bare_sqlite: --op: insert, or lookup on the default table\n");
		return 2;
	}
	if (b->uuids && b->lookup) {
		fprintf(stderr, "bare_sqlite: --pk and --key-order uuid7|uuid4: inserts into the "
		                "default table\n");
		return 2;
	}
	if ((b->journal != J_DELETE && b->journal != J_WAL) ||
	    (b->sync != SYNC_FULL && b->sync != SYNC_NORMAL)) {
		fprintf(stderr, "bare_sqlite: --journal delete|wal, --sync full|normal\n");
		return 2;
	}
	b->k = k;
	return 0;
}

/* The spec's index i (0-based, the spec's list) into sql. */
static void spec_index_sql(const struct schema *s, int i, char *sql, size_t len)
{
	const struct index_spec *x = &s->idx[i];
	size_t n;
	int c;

	n = (size_t)snprintf(sql, len, "CREATE %sINDEX \"%s\" ON idxlab_t(",
	                     x->unique ? "UNIQUE " : "", x->name);
	for (c = 0; c < x->ncols && n < len; c++)
		n += (size_t)snprintf(sql + n, len - n, "%s\"%s\"", c ? "," : "",
		                      s->cols[x->cols[c]].name);
	if (n < len)
		snprintf(sql + n, len - n, ")");
}

/* The first --indexes indexes of the table. */
static int create_indexes(struct bare *b)
{
	char sql[256];
	long long i;

	for (i = 1; i <= b->indexes; i++) {
		if (b->spec)
			spec_index_sql(b->spec, (int)i - 1, sql, sizeof sql);
		else
			snprintf(sql, sizeof sql, "CREATE INDEX idxlab_k%lld ON idxlab_t(k%lld)", i,
			         i);
		if (exec(b, sql) < 0)
			return -1;
	}
	return 0;
}

/* A fresh file, idxlab's marker, pragmas and schema, and the prepared INSERT. */
static int setup(struct bare *b)
{
	const char *tmp = getenv("TMPDIR");
	char sql[256], table[SPEC_SQL], ins[SPEC_SQL];

	if (!tmp || !*tmp)
		tmp = "/tmp";
	snprintf(b->dir, sizeof b->dir, "%s/bare_sqlite.XXXXXX", tmp);
	if (!mkdtemp(b->dir)) {
		fprintf(stderr, "bare_sqlite: cannot create a temp dir in %s: %s\n", tmp,
		        strerror(errno));
		b->dir[0] = 0;
		return -1;
	}
	snprintf(b->path, sizeof b->path, "%s/bare.db", b->dir);
	snprintf(sig_db, sizeof sig_db, "%s", b->path);
	snprintf(sig_journal, sizeof sig_journal, "%s-journal", b->path);
	snprintf(sig_dir, sizeof sig_dir, "%s", b->dir); /* last: arms the handler */
	if (sqlite3_open_v2(b->path, &b->db,
	                    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
	                    NULL) != SQLITE_OK)
		return -1;
	if (b->spec) {
		b->payload_param = spec_sql(b, table, ins);
	} else {
		snprintf(table, sizeof table, TABLE_SQL, b->pk == PK_INT ? "INTEGER" : "BLOB",
		         b->ko == KO_UUID7 || b->ko == KO_UUID4 ? "BLOB" : "INTEGER",
		         b->pk == PK_INT ? "" : " WITHOUT ROWID");
		snprintf(ins, sizeof ins, "%s", INSERT_SQL);
		b->payload_param = PAYLOAD_PARAM;
	}
	/* an insert step's prefill loads under idxlab's load cache */
	snprintf(sql, sizeof sql,
	         "PRAGMA journal_mode=%s; PRAGMA synchronous=%s; PRAGMA cache_size=-%lld",
	         b->journal == J_WAL ? "WAL" : "DELETE", b->sync == SYNC_FULL ? "FULL" : "NORMAL",
	         b->prefill && !b->lookup ? PREFILL_CACHE_KIB : b->cache_bytes / 1024);
	if (exec(b, "CREATE TABLE idxlab_meta(key TEXT PRIMARY KEY, value TEXT);"
	            "INSERT INTO idxlab_meta VALUES('created_by', 'idxlab');") < 0 ||
	    exec(b, sql) < 0 || exec(b, table) < 0 ||
	    (!(b->prefill && !b->lookup) && !b->build_after && create_indexes(b) < 0))
		return -1;
	b->payload = (unsigned char *)keys_payload_new((size_t)b->payload_len);
	if (sqlite3_prepare_v2(b->db, ins, -1, &b->ins, NULL) != SQLITE_OK)
		return -1;
	/* A zero-length blob, not NULL, when the payload is 0 bytes (as idxlab). */
	if (b->payload_param && sqlite3_bind_blob(b->ins, b->payload_param, b->payload,
	                                          (int)b->payload_len, SQLITE_STATIC) != SQLITE_OK)
		return -1;
	return 0;
}

/* Row row's id and keys where a uuid is among them (--pk, --key-order
 * uuid7|uuid4): each uuid as idxlab's engine binds it (keys_uuid). */
static void bind_uuids(struct bare *b, sqlite3_stmt *st, uint64_t row)
{
	unsigned char u[KEYS_UUID_LEN];
	int c;

	if (b->pk == PK_INT) {
		sqlite3_bind_int64(st, 1, (sqlite3_int64)row + 1);
	} else {
		keys_uuid(b->seed, b->pk == PK_UUID7, 0, row, 0, u);
		sqlite3_bind_blob(st, 1, u, KEYS_UUID_LEN, SQLITE_TRANSIENT);
	}
	for (c = 1; c <= 8; c++) {
		if (b->ko == KO_UUID7 || b->ko == KO_UUID4) {
			keys_uuid(b->seed, b->ko == KO_UUID7, c, row, 0, u);
			sqlite3_bind_blob(st, c + 1, u, KEYS_UUID_LEN, SQLITE_TRANSIENT);
		} else {
			sqlite3_bind_int64(st, c + 1, keys_int(b->seed, b->ko, c, row, 0));
		}
	}
}

/* A COMMIT every per rows of n (not after the last: the loop's own). */
static int next_txn(struct bare *b, uint64_t *in_txn, uint64_t per, int more)
{
	if (++*in_txn < per || !more)
		return 0;
	*in_txn = 0;
	return exec(b, "COMMIT") < 0 || exec(b, "BEGIN") < 0 ? -1 : 0;
}

/* The measured part: BEGIN, one row per step (rows from..from+n-1), a
 * COMMIT every per rows and at the end. Never inlined, so a profile
 * (callgrind_annotate, perf report) can show its cost by name. */
static __attribute__((noinline)) int bare_load(struct bare *b, uint64_t from, uint64_t n,
                                               uint64_t per, double *seconds)
{
	sqlite3_stmt *st = b->ins;
	uint64_t t0, row, in_txn = 0;
	int c;

	t0 = bare_now_ns();
	if (exec(b, "BEGIN") < 0)
		return -1;
	for (row = from; row < from + n; row++) {
		if (b->uuids) {
			bind_uuids(b, st, row);
		} else {
			sqlite3_bind_int64(st, 1, (sqlite3_int64)row + 1);
			for (c = 1; c <= 8; c++)
				sqlite3_bind_int64(st, c + 1, keys_int(b->seed, b->ko, c, row, 0));
		}
		if (sqlite3_step(st) != SQLITE_DONE) {
			sqlite3_reset(st);
			return -1;
		}
		sqlite3_reset(st);
		if (next_txn(b, &in_txn, per, row + 1 < from + n) < 0)
			return -1;
	}
	if (exec(b, "COMMIT") < 0)
		return -1;
	*seconds = (double)(bare_now_ns() - t0) / 1e9;
	return 0;
}

/* The same for a spec's table: each column's value from schema_value(),
 * bound by its type (the id too: a sequence is row + 1). */
static __attribute__((noinline)) int bare_load_spec(struct bare *b, uint64_t from, uint64_t n,
                                                    uint64_t per, double *seconds)
{
	sqlite3_stmt *st = b->ins;
	const struct schema *s = b->spec;
	uint64_t t0, row, in_txn = 0;
	int c;

	t0 = bare_now_ns();
	if (exec(b, "BEGIN") < 0)
		return -1;
	for (row = from; row < from + n; row++) {
		for (c = 0; c < s->ncols; c++) {
			struct value *v = &b->vals[c];

			schema_value(s, &b->k, c, row, 0, v);
			if (v->null)
				sqlite3_bind_null(st, c + 1);
			else if (v->type == COL_TEXT)
				sqlite3_bind_text(st, c + 1, (const char *)v->b, (int)v->len,
				                  SQLITE_STATIC);
			else if (v->type == COL_UUID)
				sqlite3_bind_blob(st, c + 1, v->b, (int)v->len, SQLITE_STATIC);
			else if (v->type == COL_TIMESTAMPTZ && (schema_time_text(v), 1))
				sqlite3_bind_text(st, c + 1, (const char *)v->b, (int)v->len,
				                  SQLITE_STATIC);
			else
				sqlite3_bind_int64(st, c + 1, v->i);
		}
		if (sqlite3_step(st) != SQLITE_DONE) {
			sqlite3_reset(st);
			return -1;
		}
		sqlite3_reset(st);
		if (next_txn(b, &in_txn, per, row + 1 < from + n) < 0)
			return -1;
	}
	if (exec(b, "COMMIT") < 0)
		return -1;
	*seconds = (double)(bare_now_ns() - t0) / 1e9;
	return 0;
}

/* --op lookup: the prefill inserted (unmeasured), then the lookups by
 * primary key, timed. */
static __attribute__((noinline)) int bare_lookups(struct bare *b, double *seconds)
{
	uint64_t lookups = b->rows, t0, i, found = 0;
	sqlite3_stmt *st = NULL;
	int c, rc;

	if (bare_load(b, 0, b->prefill, UINT64_MAX, seconds) < 0)
		return -1;
	if (sqlite3_prepare_v2(b->db, "SELECT * FROM idxlab_t WHERE id = ?1", -1, &st, NULL) !=
	    SQLITE_OK)
		return -1;
	t0 = bare_now_ns();
	if (exec(b, "BEGIN") < 0)
		goto fail;
	for (i = 0; i < lookups; i++) {
		uint64_t row = keys_hash(b->seed, 0x726f77ULL /* "row" */, i) % b->prefill;

		sqlite3_bind_int64(st, 1, (sqlite3_int64)row + 1);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			for (c = 0; c < sqlite3_data_count(st); c++)
				(void)sqlite3_column_bytes(st, c);
			found++;
		}
		sqlite3_reset(st);
		if (rc != SQLITE_DONE)
			goto fail;
	}
	if (exec(b, "COMMIT") < 0)
		goto fail;
	*seconds = (double)(bare_now_ns() - t0) / 1e9;
	sqlite3_finalize(st);
	return found == lookups ? 0 : -1;
fail:
	sqlite3_finalize(st);
	return -1;
}

static int inserts(struct bare *b, uint64_t from, uint64_t n, uint64_t per, double *seconds)
{
	return b->spec ? bare_load_spec(b, from, n, per, seconds)
	               : bare_load(b, from, n, per, seconds);
}

/* After an insert step's prefill, as idxlab's ready(): the indexes, a
 * WAL checkpointed, the step's cache. */
static int after_prefill(struct bare *b)
{
	char sql[64];

	snprintf(sql, sizeof sql, "PRAGMA cache_size=-%lld", b->cache_bytes / 1024);
	return create_indexes(b) < 0 ||
	               (b->journal == J_WAL && exec(b, "PRAGMA wal_checkpoint(TRUNCATE)") < 0) ||
	               exec(b, sql) < 0
	           ? -1
	           : 0;
}

int main(int argc, char **argv)
{
	struct bare b;
	double seconds = 0;
	int rc;

	memset(&b, 0, sizeof b);
	bare_on_signals(on_signal);
	rc = parse_args(&b, argc, argv);
	if (rc)
		return rc;
	/* Before the library initialises (the first sqlite3_open_v2). */
	if (!b.memstatus && sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0) != SQLITE_OK) {
		fprintf(stderr, "bare_sqlite: cannot turn memory statistics off\n");
		return 1;
	}
	if (setup(&b) < 0)
		return fail(&b, "setup");
	if (b.lookup) {
		if (bare_lookups(&b, &seconds) < 0)
			return fail(&b, "lookup");
	} else {
		if (b.prefill &&
		    (inserts(&b, 0, b.prefill, UINT64_MAX, &seconds) < 0 || after_prefill(&b) < 0))
			return fail(&b, "prefill");
		if (inserts(&b, b.prefill, b.rows, b.per_commit, &seconds) < 0)
			return fail(&b, "insert");
		if (b.build_after) { /* timed with the inserts */
			uint64_t t0 = bare_now_ns();

			if (create_indexes(&b) < 0)
				return fail(&b, "index build");
			seconds += (double)(bare_now_ns() - t0) / 1e9;
		}
	}
	cleanup(&b);
	free(b.payload);
	free(b.vals);
	bare_print(b.csv, b.rows, seconds);
	return 0;
}
