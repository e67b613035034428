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
 * --op update|update-indexed|update-keys --prefill N: N rows loaded first,
 * unmeasured, as idxlab's set-up loads them (cache at least 256MiB, no
 * sync, the collection and _id in transactions of 8 MB or 10,000 rows, then
 * each index filled from a scan of the collection, a checkpoint, the cache
 * shrunk to 1MiB for 200 ms and set to --cache), then --rows updates timed,
 * each row in keys_shuffle()'s order of the N (idxlab's rowset) found
 * through _id as mongod finds it: update adds 1 to hot with one modify of
 * its 8 bytes; update-indexed and update-keys set the columns idxlab's op
 * writes (schema_op_cols) to their values at the row's visit with one
 * modify, and move the entries of the indexes on those that changed.
 * --prefill with --op insert loads the same way and inserts from row N.
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
 *           [--op insert|update|update-indexed|update-keys] [--prefill N]
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
	long long op;              /* OP_INSERT, OP_UPDATE, ... */
	uint64_t prefill;
	int ucols[SCHEMA_COLS_MAX]; /* update-indexed, update-keys: the columns set */
	int nucols;
	unsigned char *old; /* an update's record before it */
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
	      "               [--op insert|update|update-indexed|update-keys] [--prefill N]\n"
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
	free(b->old);
	b->row = b->old = NULL;
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

/* Row row's value of column c (1..nkeys) at version (0: as inserted), as
 * idxlab's engine writes it. */
static int64_t key_of(const struct bare *b, int c, uint64_t row, uint64_t version)
{
	struct value v;

	if (!b->spec)
		return keys_int(b->seed, b->ko, c, row, version);
	schema_value(b->spec, &b->k, c, row, version, &v);
	return v.i;
}

/* Index i's (1..) column. */
static int index_col(const struct bare *b, int i)
{
	return b->spec ? b->spec->idx[i - 1].cols[0] : i;
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
		{ "--op", K_OP },
		{ "--prefill", K_PREFILL },
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
	b->op = k.v[K_OP];
	b->prefill = k.v[K_PREFILL] > 0 ? (uint64_t)k.v[K_PREFILL] : 0;
	if (b->op == OP_UPDATE_INDEXED || b->op == OP_UPDATE_KEYS) {
		b->nucols = schema_op_cols(s, b->op, b->ucols); /* of the nkeys columns */
	}
	if (b->op != OP_INSERT && b->op != OP_UPDATE && !b->nucols) {
		fprintf(stderr, "bare_wt: --op: insert, update, update-indexed or update-keys (the "
		                "last two: a table with columns to set)\n");
		return 2;
	}
	if (b->op != OP_INSERT && !b->prefill) {
		fprintf(stderr, "bare_wt: --op %s: --prefill N, the rows it visits\n",
		        knob_table[K_OP].choices[b->op]);
		return 2;
	}
	if (b->indexes > (b->spec && b->spec->nindexes < 8 ? b->spec->nindexes : 8)) {
		fprintf(stderr, "bare_wt: --indexes: at most %d on the %s table\n",
		        b->spec && b->spec->nindexes < 8 ? b->spec->nindexes : 8, s->name);
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
	b->old = calloc(1, b->row_len);
	if (!b->row || !b->old)
		abort();
	keys_payload((char *)b->row + ((size_t)b->nkeys + 2) * sizeof(int64_t),
	             (size_t)b->payload_len);
	return 0;
}

/* Rows from..from+n-1 into the collection, _id and the first nidx indexes,
 * a transaction every per rows and after the last, committed with sync or
 * not: the measured inserts, or a prefill's load. Never inlined, so a
 * profile (perf report, callgrind) can show its cost by name. 0 (also
 * when a signal stopped it: stop_sig is set, *seconds is not) or a
 * WiredTiger error. */
static __attribute__((noinline)) int bare_load(struct bare *b, uint64_t from, uint64_t n,
                                               long long nidx, uint64_t per, int sync,
                                               double *seconds)
{
	static const WT_ITEM empty = { .data = "", .size = 0 };
	const char *commit_cfg = sync ? "sync=on" : "sync=off";
	WT_SESSION *s = b->s;
	WT_CURSOR *coll = b->coll, *id_c = b->idx[0];
	WT_ITEM val = { .data = b->row, .size = b->row_len };
	int64_t keys[9];
	uint64_t t0, row, in_txn = 0;
	int c, rc;

	t0 = bare_now_ns();
	for (row = from; row < from + n; row++) {
		int64_t recid = (int64_t)row + 1;

		if (stop_sig)
			return 0; /* the transaction is rolled back at close */
		if (!in_txn && (rc = s->begin_transaction(s, "isolation=snapshot")) != 0)
			return rc;
		keys[0] = recid; /* id: the record id, as idxlab's integer pk */
		for (c = 1; c <= b->nkeys; c++)
			keys[c] = key_of(b, c, row, 0);
		memcpy(b->row, keys, ((size_t)b->nkeys + 1) * sizeof keys[0]);
		coll->set_key(coll, recid);
		coll->set_value(coll, &val);
		if ((rc = coll->insert(coll)) != 0)
			return rc;
		id_c->set_key(id_c, keys[0]);
		id_c->set_value(id_c, recid);
		if ((rc = id_c->insert(id_c)) != 0)
			return rc;
		for (c = 1; c <= nidx; c++) {
			WT_CURSOR *ic = b->idx[c];

			ic->set_key(ic, keys[index_col(b, c)], recid);
			ic->set_value(ic, &empty);
			if ((rc = ic->insert(ic)) != 0)
				return rc;
		}
		if (++in_txn >= per) {
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

static int set_cache(struct bare *b, long long bytes)
{
	char cfg[48];

	snprintf(cfg, sizeof cfg, "cache_size=%lld", bytes);
	return b->conn->reconfigure(b->conn, cfg);
}

static int set_checkpoint(struct bare *b, long long secs)
{
	char cfg[48];

	snprintf(cfg, sizeof cfg, "checkpoint=(wait=%lld)", secs);
	return b->conn->reconfigure(b->conn, cfg);
}

/* Index i filled from a scan of the collection, WT_LOAD_TXN_ROWS records a
 * transaction (a commit resets the scan: it goes on from the next record
 * id), as idxlab builds an index over a prefill. */
static int fill_index(struct bare *b, long long i)
{
	static const WT_ITEM empty = { .data = "", .size = 0 };
	WT_CURSOR *scan = NULL, *ic = b->idx[i];
	size_t off = (size_t)index_col(b, (int)i) * sizeof(int64_t);
	int64_t next = 1, recid = 0, v;
	int rc, exact, end = 0;

	if ((rc = b->s->open_cursor(b->s, WT_COLL_URI, NULL, NULL, &scan)) != 0)
		return rc;
	while (!end && !stop_sig) {
		uint64_t n = 0;

		if ((rc = b->s->begin_transaction(b->s, "isolation=snapshot")) != 0)
			break;
		scan->set_key(scan, next);
		rc = scan->search_near(scan, &exact);
		if (rc == 0 && exact < 0)
			rc = scan->next(scan);
		while (rc == 0 && n++ < WT_LOAD_TXN_ROWS) {
			WT_ITEM val;

			if ((rc = scan->get_key(scan, &recid)) != 0 ||
			    (rc = scan->get_value(scan, &val)) != 0)
				break;
			memcpy(&v, (const unsigned char *)val.data + off, sizeof v);
			ic->set_key(ic, v, recid);
			ic->set_value(ic, &empty);
			if ((rc = ic->insert(ic)) != 0)
				break;
			next = recid + 1;
			rc = scan->next(scan);
		}
		end = rc == WT_NOTFOUND;
		if (rc != 0 && !end) {
			b->s->rollback_transaction(b->s, NULL);
			break;
		}
		if ((rc = b->s->commit_transaction(b->s, "sync=off")) != 0)
			break;
	}
	scan->close(scan);
	return rc;
}

/* The prefill, unmeasured, as idxlab's set-up loads it. */
static int prefill(struct bare *b)
{
	uint64_t per = (uint64_t)(WT_LOAD_TXN_BYTES / (long long)b->row_len);
	double unused;
	long long i;
	int rc;

	per = per < 1 ? 1 : per > WT_LOAD_TXN_ROWS ? WT_LOAD_TXN_ROWS : per;
	if ((rc = set_checkpoint(b, 0)) != 0 ||
	    (b->cache_bytes < WT_LOAD_CACHE && (rc = set_cache(b, WT_LOAD_CACHE)) != 0) ||
	    (rc = bare_load(b, 0, b->prefill, 0, per, 0, &unused)) != 0)
		return rc;
	for (i = 1; i <= b->indexes && !stop_sig; i++)
		if ((rc = fill_index(b, i)) != 0)
			return rc;
	if ((rc = b->s->checkpoint(b->s, NULL)) != 0 || (rc = set_cache(b, WT_MIN_CACHE)) != 0)
		return rc;
	usleep(200000); /* idxlab without statistics: eviction's moment */
	if ((rc = set_cache(b, b->cache_bytes)) != 0)
		return rc;
	return set_checkpoint(b, b->checkpoint);
}

/* One update of row at version: the record found through _id, changed with
 * one modify; the entries of the indexes on changed columns moved. */
static int update_row(struct bare *b, uint64_t row, uint64_t version)
{
	static const WT_ITEM empty = { .data = "", .size = 0 };
	WT_CURSOR *id_c = b->idx[0], *coll = b->coll;
	size_t cols = ((size_t)b->nkeys + 1) * sizeof(int64_t), lo = cols, hi = 0;
	int64_t recid = 0, hot, ov, nv;
	WT_MODIFY m;
	WT_ITEM val;
	int j, rc;

	id_c->set_key(id_c, (int64_t)row + 1);
	if ((rc = id_c->search(id_c)) == 0)
		rc = id_c->get_value(id_c, &recid);
	id_c->reset(id_c);
	coll->set_key(coll, recid);
	if (rc || (rc = coll->search(coll)) != 0 || (rc = coll->get_value(coll, &val)) != 0)
		return rc;
	if (b->op == OP_UPDATE) { /* hot + 1: its 8 bytes after the columns */
		memcpy(&hot, (const unsigned char *)val.data + cols, sizeof hot);
		hot++;
		m.data.data = &hot;
		m.data.size = m.size = sizeof hot;
		m.offset = cols;
		rc = coll->modify(coll, &m, 1);
		coll->reset(coll);
		return rc;
	}
	memcpy(b->old, val.data, cols);
	memcpy(b->row, b->old, cols);
	for (j = 0; j < b->nucols; j++) {
		size_t o = (size_t)b->ucols[j] * sizeof(int64_t);

		nv = key_of(b, b->ucols[j], row, version);
		memcpy(b->row + o, &nv, sizeof nv);
		lo = o < lo ? o : lo;
		hi = o + sizeof nv > hi ? o + sizeof nv : hi;
	}
	m.data.data = b->row + lo;
	m.data.size = m.size = hi - lo;
	m.offset = lo;
	rc = coll->modify(coll, &m, 1);
	coll->reset(coll);
	for (j = 1; !rc && j <= b->indexes; j++) {
		WT_CURSOR *ic = b->idx[j];
		size_t o = (size_t)index_col(b, j) * sizeof(int64_t);

		memcpy(&ov, b->old + o, sizeof ov);
		memcpy(&nv, b->row + o, sizeof nv);
		if (ov == nv)
			continue;
		ic->set_key(ic, ov, recid);
		if ((rc = ic->remove(ic)) != 0)
			break;
		ic->set_key(ic, nv, recid);
		ic->set_value(ic, &empty);
		rc = ic->insert(ic);
	}
	return rc;
}

/* The measured updates: --rows of them in keys_shuffle()'s order of the
 * prefill (a new pass, a new version, after the last), a transaction
 * every per_commit. */
static __attribute__((noinline)) int bare_updates(struct bare *b, double *seconds)
{
	const char *commit_cfg = b->sync ? "sync=on" : "sync=off";
	uint64_t *order = keys_shuffle(b->seed, b->prefill), t0, i, in_txn = 0;
	int rc = 0;

	if (!order)
		abort();
	t0 = bare_now_ns();
	for (i = 0; i < b->rows && !stop_sig; i++) {
		if (!in_txn && (rc = b->s->begin_transaction(b->s, "isolation=snapshot")) != 0)
			break;
		if ((rc = update_row(b, order[i % b->prefill], i / b->prefill + 1)) != 0)
			break;
		if (++in_txn >= b->per_commit) {
			if ((rc = b->s->commit_transaction(b->s, commit_cfg)) != 0)
				break;
			in_txn = 0;
		}
	}
	if (!rc && !stop_sig && in_txn)
		rc = b->s->commit_transaction(b->s, commit_cfg);
	*seconds = (double)(bare_now_ns() - t0) / 1e9;
	free(order);
	return rc;
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
	if (!stop_sig && b.prefill && (rc = prefill(&b)) != 0)
		return fail(&b, "prefill", rc);
	if (!stop_sig && b.op == OP_INSERT &&
	    (rc = bare_load(&b, b.prefill, b.rows, b.indexes, b.per_commit, b.sync, &seconds)) != 0)
		return fail(&b, "insert", rc);
	if (!stop_sig && b.op != OP_INSERT && (rc = bare_updates(&b, &seconds)) != 0)
		return fail(&b, knob_table[K_OP].choices[b.op], rc);
	if (stop_sig)
		return fail(&b, "interrupted", 0);
	cleanup(&b);
	bare_print(b.csv, b.rows, seconds);
	return 0;
}
