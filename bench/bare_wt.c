/* bare_wt.c - the plain C insert loop idxlab's WiredTiger engine is judged against.
 *
 * It does the work `idxlab run --engine wiredtiger --op insert` measures, and
 * nothing else: a fresh home directory in a fresh temp dir, the connection
 * opened with the configuration idxlab's engine uses (wt_open_config() of
 * src/engines/wiredtiger/layout.h, shared with it) - cache_size, the log (journal) on with archive and 100MB files, a
 * checkpoint every --checkpoint seconds, 4 eviction threads, dirty target
 * 5 % / trigger 20 %, eviction target 80 % / trigger 95 %, fsync as the sync
 * method - but statistics=(none), as idxlab opens it with --probes off
 * (--stats on gives statistics=(fast), as with --probes on). Then the same
 * tables with the same configuration strings, created in the same order:
 *   table:collection-idxlab   key_format=q, value_format=u: the record id
 *                             (row + 1) -> id | k1..k8 | hot | payload,
 *                             all int64 in host order, payload bytes last
 *   table:index-idxlab-_id    key_format=q, value_format=q: id -> record id
 *   table:index-idxlab-kN     key_format=qq, value_format=u: (kN, record
 *                             id) -> empty, for N = 1..--indexes
 * one session and cursors opened with idxlab's options (cache_cursors=false,
 * overwrite=false), a checkpoint of the empty tables, then the timed part:
 * begin_transaction("isolation=snapshot") before the first row of each
 * transaction, per row one insert into the collection, _id and each kN (in
 * that order), commit_transaction("sync=off") - or "sync=on" for any other
 * --sync, as idxlab does - every --commit rows and after the last row. Row
 * values are src/keys.c's (keys_int, keys_payload), as idxlab writes them.
 * Only that loop and its last commit are timed (CLOCK_MONOTONIC), like
 * idxlab's measured `seconds` of the step. No statistics cursor, no event
 * handler, no rowset, no thread: the fastest honest loop, the ceiling.
 * --schema NAME writes another built-in table of int64 columns and
 * one-column indexes (fields: id, field1..field5, counter): its record id |
 * columns | hot | payload, its index-idxlab-NAME tables keyed (column,
 * record id), each value from schema_value() as idxlab's engine writes it.
 * Two setup differences that are not work: idxlab opens a second session
 * (for its statistics cursor; idle with --probes off), and its setup
 * reconfigures cache_size and checkpoint wait (0 while creating the tables,
 * then the knob's value) where this opens with the final values.
 *
 * "Honest" means the same durability and work: no log off, no bigger cache,
 * no bulk cursors, no overwrite=true (which skips the duplicate check), no
 * skipped index. The connection and table configuration strings come from
 * src/engines/wiredtiger/layout.h, which the engine uses too, so they cannot drift.
 *
 *   bare_wt [--rows N] [--indexes N] [--key-order seq|rand|few]
 *           [--commit row|N|all] [--sync off|normal|full|extra]
 *           [--cache SIZE] [--payload BYTES] [--seed N] [--checkpoint S]
 *           [--stats off|on] [--format text|csv] [--schema NAME]
 *
 * Values use idxlab's syntax and ranges (knob_parse), so the same strings
 * can be passed to both; the defaults are idxlab's for --engine wiredtiger
 * (cache 256MiB, commit all, sync full, checkpoint 60). The temp dir
 * ($TMPDIR/bare_wt.XXXXXX) is removed at exit, also after SIGINT/SIGTERM/
 * SIGHUP (a second signal exits at once). Output (text): "ROWS SECONDS".
 * Exit status: 0 ok, 1 runtime failure, 2 usage error. */
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wiredtiger.h>

#include "bare_args.h"
#include "err.h"
#include "engines/engine.h"
#include "engines/wiredtiger/layout.h"
#include "keys.h"
#include "knobs.h"
#include "schema.h"

struct bare {
	uint64_t rows, seed, per_commit;
	long long payload_len, cache_bytes, indexes, checkpoint;
	enum key_order ko;
	int csv, stats, sync;
	const struct schema *spec; /* --schema NAME; NULL for the default table */
	struct knobs k;            /* the parsed knobs (schema_value reads them) */
	int nkeys;                 /* k1..k8, or the spec's columns */
	char dir[PATH_MAX - 64];
	WT_CONNECTION *conn;
	WT_SESSION *s;
	WT_CURSOR *coll, *idx[9]; /* idx[0] is _id, idx[i] is ki (the spec's index i) */
	size_t row_len;
	unsigned char *row;
};

static volatile sig_atomic_t stop_sig;

static void usage(FILE *f)
{
	fputs("usage: bare_wt [--rows N] [--indexes N] [--key-order seq|rand|few]\n"
	      "               [--commit row|N|all] [--sync off|normal|full|extra]\n"
	      "               [--cache SIZE] [--payload BYTES] [--seed N] [--checkpoint S]\n"
	      "               [--stats off|on] [--format text|csv] [--schema NAME]\n"
	      "Inserts N rows into fresh WiredTiger tables laid out as idxlab's\n"
	      "(collection, _id index, k1..kN indexes) and prints \"ROWS SECONDS\" for\n"
	      "the insert loop and its commits alone. Defaults are idxlab's for\n"
	      "--engine wiredtiger: 100000 rows, 0 indexes, seq, commit all, sync full,\n"
	      "256MiB, 100 bytes, seed 1, checkpoint 60; --stats off is\n"
	      "statistics=(none) (idxlab --probes off), on is statistics=(fast).\n",
	      f);
}

/* The first SIGINT/SIGTERM/SIGHUP asks the loop to stop, so the connection
 * closes and the directory goes; a second one exits at once. */
static void on_signal(int sig)
{
	if (stop_sig)
		_exit(128 + sig);
	stop_sig = sig;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if ((flag == FTW_DP ? rmdir(path) : unlink(path)) < 0)
		fprintf(stderr, "bare_wt: could not remove %s: %s\n", path, strerror(errno));
	return 0;
}

/* Close the connection and remove the directory (safe to call twice). */
static void cleanup(struct bare *b)
{
	if (b->conn)
		b->conn->close(b->conn, NULL); /* closes the session and cursors */
	b->conn = NULL;
	b->s = NULL;
	if (b->dir[0])
		(void)nftw(b->dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	b->dir[0] = 0;
	free(b->row);
	b->row = NULL;
}

static int fail(struct bare *b, const char *what, int rc)
{
	if (rc)
		fprintf(stderr, "bare_wt: %s: %s (WiredTiger error %d)\n", what,
		        wiredtiger_strerror(rc), rc);
	else
		fprintf(stderr, "bare_wt: %s\n", what);
	cleanup(b);
	return stop_sig ? 128 + stop_sig : 1;
}

/* Does spec s lay out as the default table does in idxlab's engine: a
 * sequence id, every column an int64 ('q'), at most 8 of them, a hot
 * column of its own, every index
 * on one column, not unique (keyed (column, record id))? */
static int spec_int64(const struct schema *s, const struct knobs *k)
{
	uint64_t n;
	int c;

	if (s->ncols - 1 > 8 || !schema_has_hot(s) || schema_type(s, k, 0) != COL_BIGINT ||
	    schema_order(s, k, 0, &n) != ORD_SEQ)
		return 0;
	for (c = 1; c < s->ncols; c++)
		if (schema_type(s, k, c) != COL_BIGINT || s->cols[c].gen[0])
			return 0;
	for (c = 0; c < s->nindexes; c++)
		if (s->idx[c].ncols != 1 || s->idx[c].unique)
			return 0;
	return 1;
}

/* Row row's value of column c (1..nkeys) as idxlab's engine writes it. */
static int64_t key_of(const struct bare *b, int c, uint64_t row)
{
	struct value v;

	if (!b->spec)
		return keys_int(b->seed, b->ko, c, row, 0);
	schema_value(b->spec, &b->k, c, row, 0, &v);
	return v.i;
}

/* Parse argv with idxlab's own knob parser; 0, or 2 for a usage error. */
static int parse_args(struct bare *b, int argc, char **argv)
{
	static const struct bare_opt opts[] = {
		{ "--rows", K_ROWS },
		{ "--indexes", K_INDEXES },
		{ "--key-order", K_KEY_ORDER },
		{ "--commit", K_COMMIT },
		{ "--sync", K_SYNC },
		{ "--cache", K_CACHE },
		{ "--payload", K_PAYLOAD },
		{ "--seed", K_SEED },
		{ "--checkpoint", K_CHECKPOINT },
		{ "--stats", K_PROBES },
		{ "--format", K_FORMAT },
		{ "--schema", K_SCHEMA },
	};
	struct knobs k;
	const struct schema *s;

	knobs_defaults(&k);
	k.v[K_ENGINE] = E_WIREDTIGER;
	engine_defaults(&k, NULL); /* cache 256MiB */
	k.v[K_PROBES] = 0;         /* --stats borrows K_PROBES: on|off, default off */
	if (bare_parse_args("bare_wt", argc, argv, opts, sizeof opts / sizeof opts[0], &k, usage) ||
	    bare_integer_keys("bare_wt", &k))
		return 2;
	b->rows = (uint64_t)k.v[K_ROWS];
	b->seed = (uint64_t)k.v[K_SEED];
	b->per_commit = k.v[K_COMMIT] == COMMIT_ALL ? UINT64_MAX : (uint64_t)k.v[K_COMMIT];
	b->payload_len = k.v[K_PAYLOAD];
	b->cache_bytes = k.v[K_CACHE] < WT_MIN_CACHE ? WT_MIN_CACHE : k.v[K_CACHE];
	b->indexes = k.v[K_INDEXES];
	b->checkpoint = k.v[K_CHECKPOINT];
	b->ko = (enum key_order)k.v[K_KEY_ORDER];
	b->csv = k.v[K_FORMAT] == FMT_CSV;
	b->stats = (int)k.v[K_PROBES];
	b->sync = k.v[K_SYNC] != SYNC_OFF;
	b->k = k;
	b->nkeys = 8;
	s = schema_of(&k);
	if (strcmp(s->name, "default") != 0) {
		if (!spec_int64(s, &k)) {
			fprintf(stderr,
			        "bare_wt: --schema %s: a table of int64 columns with a sequence "
			        "id and one-column indexes, such as fields\n",
			        s->name);
			return 2;
		}
		b->spec = s;
		b->nkeys = s->ncols - 1;
	}
	if (b->indexes > (b->spec ? b->spec->nindexes : 8)) {
		fprintf(stderr, "bare_wt: --indexes: at most %d on the %s table\n",
		        b->spec ? b->spec->nindexes : 8, s->name);
		return 2;
	}
	return 0;
}

/* Create uri with cfg and open a cursor on it the way idxlab does. */
static int create_open(struct bare *b, const char *uri, const char *cfg, WT_CURSOR **c)
{
	int rc = b->s->create(b->s, uri, cfg);

	if (rc == 0)
		rc = b->s->open_cursor(b->s, uri, NULL, "overwrite=false", c);
	return rc;
}

/* A fresh home, idxlab's connection, tables and cursors, and the row buffer.
 * 0, a WiredTiger error, or -1 (no temp dir: said already). */
static int setup(struct bare *b)
{
	const char *tmp = getenv("TMPDIR");
	char cfg[768], uri[64];
	long long i;
	int rc;

	if (!tmp || !*tmp)
		tmp = "/tmp";
	snprintf(b->dir, sizeof b->dir, "%s/bare_wt.XXXXXX", tmp);
	if (!mkdtemp(b->dir)) {
		fprintf(stderr, "bare_wt: cannot create a temp dir in %s: %s\n", tmp,
		        strerror(errno));
		b->dir[0] = 0;
		return -1;
	}
	/* idxlab's connection (engines/wiredtiger/layout.h), statistics as --stats says. */
	wt_open_config(cfg, sizeof cfg, b->cache_bytes, b->stats, b->checkpoint);
	if ((rc = wiredtiger_open(b->dir, NULL, cfg, &b->conn)) != 0) {
		b->conn = NULL;
		return rc;
	}
	if ((rc = b->conn->open_session(b->conn, NULL, "cache_cursors=false", &b->s)) != 0 ||
	    (rc = create_open(b, WT_COLL_URI, WT_COLL_CONFIG, &b->coll)) != 0 ||
	    (rc = create_open(b, "table:index-idxlab-_id",
	                      "key_format=q,value_format=q" WT_INDEX_CONFIG, &b->idx[0])) != 0)
		return rc;
	for (i = 1; i <= b->indexes; i++) {
		if (b->spec) /* the spec's index names (idxlab_ less, as idxlab's) */
			snprintf(uri, sizeof uri, "table:index-idxlab-%s",
			         b->spec->idx[i - 1].name +
			             (strncmp(b->spec->idx[i - 1].name, "idxlab_", 7) ? 0 : 7));
		else
			snprintf(uri, sizeof uri, "table:index-idxlab-k%lld", i);
		if ((rc = create_open(b, uri, "key_format=qq,value_format=u" WT_INDEX_CONFIG,
		                      &b->idx[i])) != 0)
			return rc;
	}
	/* idxlab checkpoints the new tables before its window opens. */
	if ((rc = b->s->checkpoint(b->s, NULL)) != 0)
		return rc;
	/* id | k1..k8 (the spec's columns) | hot | payload; hot stays 0, the
	 * payload never changes. */
	b->row_len = ((size_t)b->nkeys + 2) * sizeof(int64_t) + (size_t)b->payload_len;
	b->row = calloc(1, b->row_len);
	if (!b->row)
		abort();
	keys_payload((char *)b->row + ((size_t)b->nkeys + 2) * sizeof(int64_t),
	             (size_t)b->payload_len);
	return 0;
}

/* The measured part: the rows, a transaction every per_commit of them, and
 * the last commit. Never inlined, so a profile (perf report, callgrind)
 * can show its cost by name. 0 (also when a signal stopped it: stop_sig is
 * set, *seconds is not) or a WiredTiger error. */
static __attribute__((noinline)) int bare_load(struct bare *b, double *seconds)
{
	static const WT_ITEM empty = { .data = "", .size = 0 };
	const char *commit_cfg = b->sync ? "sync=on" : "sync=off";
	WT_SESSION *s = b->s;
	WT_CURSOR *coll = b->coll, *id_c = b->idx[0];
	WT_ITEM val = { .data = b->row, .size = b->row_len };
	int64_t keys[9];
	uint64_t t0, row, in_txn = 0;
	int c, rc;

	t0 = bare_now_ns();
	for (row = 0; row < b->rows; row++) {
		int64_t recid = (int64_t)row + 1;

		if (stop_sig)
			return 0; /* the transaction is rolled back at close */
		if (!in_txn && (rc = s->begin_transaction(s, "isolation=snapshot")) != 0)
			return rc;
		keys[0] = recid; /* id: the record id, as idxlab's integer pk */
		for (c = 1; c <= b->nkeys; c++)
			keys[c] = key_of(b, c, row);
		memcpy(b->row, keys, ((size_t)b->nkeys + 1) * sizeof keys[0]);
		coll->set_key(coll, recid);
		coll->set_value(coll, &val);
		if ((rc = coll->insert(coll)) != 0)
			return rc;
		id_c->set_key(id_c, keys[0]);
		id_c->set_value(id_c, recid);
		if ((rc = id_c->insert(id_c)) != 0)
			return rc;
		for (c = 1; c <= b->indexes; c++) {
			WT_CURSOR *ic = b->idx[c];

			ic->set_key(ic, keys[b->spec ? b->spec->idx[c - 1].cols[0] : c], recid);
			ic->set_value(ic, &empty);
			if ((rc = ic->insert(ic)) != 0)
				return rc;
		}
		if (++in_txn >= b->per_commit) {
			if ((rc = s->commit_transaction(s, commit_cfg)) != 0)
				return rc;
			in_txn = 0;
		}
	}
	if (in_txn && (rc = s->commit_transaction(s, commit_cfg)) != 0)
		return rc;
	*seconds = (double)(bare_now_ns() - t0) / 1e9;
	return 0;
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
	if ((rc = setup(&b)) != 0)
		return fail(&b, "setup", rc == -1 ? 0 : rc);
	if (!stop_sig && (rc = bare_load(&b, &seconds)) != 0)
		return fail(&b, "insert", rc);
	if (stop_sig)
		return fail(&b, "interrupted", 0);
	cleanup(&b);
	bare_print(b.csv, b.rows, seconds);
	return 0;
}
