/* schema.c - the tables and what is set on the connection.
 *
 * Layout, as mongod lays out a collection and its indexes, for the table
 * spec in force (schema.h):
 *   table:collection-idxlab   record id (q) -> the row, packed raw (u):
 *                             id | the spec's columns | hot | payload, each
 *                             column fixed-width: int, bool, date i (4
 *                             bytes), bigint, timestamp(tz), numeric q (8),
 *                             uuid u (16), text(N) u (N). WiredTiger has no
 *                             NULL: a NULL is written as 0 / N zero bytes.
 *                             hot only when the spec has its own; the
 *                             payload is the knob's bytes (0 for a
 *                             `payload none` table unless asked for)
 *   table:index-idxlab-_id    id -> record id (unique: the record id is the
 *                             value), int64 or 16 bytes as the pk knob says
 *   table:index-idxlab-NAME   (its column(s) in the spec's order, record id)
 *                             -> empty, NAME the spec's index name less
 *                             "idxlab_"; a unique index: column(s) ->
 *                             record id (mongod's unique index layout)
 * The default table is what it always was: id | k1..k8 | hot | payload and
 * index-idxlab-kN keyed (kN, record id), int64 or 16 bytes as the knobs say.
 * With mongod's table settings (layout.h: 16k index pages with prefix
 * compression, split_pct=90 collection pages). Here too: the cache size,
 * the checkpoint interval, the row buffer, and index builds from the
 * collection (in transactions that shrink when the cache rolls one back). */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../evlog.h"
#include "../../keys.h"
#include "../../schema_idx.h"
#include "internal.h"

#define BUSY_TRIES    200 /* x 25 ms: drops wait for a running checkpoint */
#define SQUEEZE_TRIES 250 /* x 20 ms: the cache empties after the load */

#define INDEX_PREFIX "table:index-idxlab-"

/* ---- the spec's tables -------------------------------------------------- */

/* Column col's width in a record and its WiredTiger format letter. */
static void col_layout(const struct engine *en, int col, size_t *len, char *fmt)
{
	switch (schema_type(en->sc, &en->k, col)) {
	case COL_INT:
	case COL_BOOL: /* 0/1 */
	case COL_DATE: /* days since 1970 */
		*len = sizeof(int32_t), *fmt = 'i';
		return;
	case COL_TEXT:
		*len = (size_t)en->sc->cols[col].len, *fmt = 'u';
		return;
	case COL_UUID:
		*len = KEYS_UUID_LEN, *fmt = 'u';
		return;
	default: /* bigint, timestamp(tz), numeric (its 10^-scale units) */
		*len = sizeof(int64_t), *fmt = 'q';
		return;
	}
}

/* Index x's table name: its spec name less "idxlab_" (idxlab_k1 is
 * index-idxlab-k1, as before specs); one that another table has already
 * gets its list position too ('-' is in no spec name). */
static void index_uri(struct engine *en, int i, const struct index_spec *x)
{
	const char *tag = strncmp(x->name, "idxlab_", 7) == 0 ? x->name + 7 : x->name;
	int j, taken = strcmp(tag, "_id") == 0;

	for (j = 1; j < i && !taken; j++)
		taken = strcmp(en->ix[j].uri + strlen(INDEX_PREFIX), tag) == 0;
	if (taken)
		snprintf(en->ix[i].uri, sizeof en->ix[i].uri, INDEX_PREFIX "%s-%d", tag, i);
	else
		snprintf(en->ix[i].uri, sizeof en->ix[i].uri, INDEX_PREFIX "%s", tag);
}

void wt_set_tables(struct engine *en)
{
	const struct schema *sc = schema_of(&en->k);
	size_t off = 0;
	int c, i, j;

	en->sc = sc;
	en->fast = schema_fast_keys(sc, &en->k, &en->keys);
	en->ncols = sc->ncols;
	for (c = 0; c < sc->ncols; c++) {
		col_layout(en, c, &en->col_len[c], &en->col_fmt[c]);
		en->col_off[c] = off;
		off += en->col_len[c];
	}
	en->off_hot = off; /* hot's 8 bytes when the spec has its own hot */
	en->off_payload = off + (schema_has_hot(sc) ? sizeof(int64_t) : 0);
	memset(en->ix, 0, sizeof en->ix);
	snprintf(en->ix[0].uri, sizeof en->ix[0].uri, INDEX_PREFIX "_id");
	snprintf(en->ix[0].name, sizeof en->ix[0].name, "_id");
	en->ix[0].ncols = 1;
	en->ix[0].unique = 1;
	for (i = 1; i <= sc->nindexes; i++) {
		const struct index_spec *x = &sc->idx[i - 1];
		struct wt_index *w = &en->ix[i];

		index_uri(en, i, x);
		snprintf(w->name, sizeof w->name, "%s", x->name);
		w->ncols = x->ncols;
		w->unique = x->unique;
		w->raw = x->ncols > 1;
		memcpy(w->cols, x->cols, sizeof w->cols);
	}
	for (i = 0; i <= sc->nindexes; i++) {
		struct wt_index *w = &en->ix[i];

		for (j = 0; j < w->ncols; j++)
			w->key_format[j] = en->col_fmt[w->cols[j]];
		/* mongod's KeyString: a plain index's key ends with the record id */
		if (!w->unique)
			w->key_format[j++] = 'q';
		w->key_format[j] = 0;
	}
	for (c = 0; c < 2; c++)
		en->nopc[c] =
		    schema_op_cols(sc, c ? OP_UPDATE_KEYS : OP_UPDATE_INDEXED, en->opc[c]);
}

/* ---- cursors and tables ----------------------------------------------- */

void wt_close_cursors(struct engine *en)
{
	int i;

	if (en->coll)
		en->coll->close(en->coll);
	en->coll = NULL;
	for (i = 0; i < NIDX; i++) {
		if (en->idx[i])
			en->idx[i]->close(en->idx[i]);
		en->idx[i] = NULL;
	}
}

/* Drop uri if it exists; waits out a checkpoint holding it. */
int wt_drop_table(struct engine *en, const char *uri, struct err *e)
{
	int rc, tries = 0;

	atomic_store(&en->quiet, 1);
	while ((rc = en->s->drop(en->s, uri, "force=true")) == EBUSY && tries++ < BUSY_TRIES)
		clock_sleep_ms(25);
	atomic_store(&en->quiet, 0);
	if (rc) {
		char what[128];

		snprintf(what, sizeof what, "drop %s", uri);
		return wt_fail(en, e, what, rc);
	}
	return 0;
}

/* Drop every table a setup made, whatever spec made it: the collection and
 * each index-idxlab-* table in WiredTiger's metadata. The directory is
 * idxlab's (driver.c's marker), so everything named so is too. */
int wt_drop_all(struct engine *en, struct err *e)
{
	enum { ROUND = 32 };
	char uris[ROUND][SCHEMA_NAME_MAX + 48];

	for (;;) {
		WT_CURSOR *md;
		int n = 0, i, rc = en->s->open_cursor(en->s, "metadata:", NULL, NULL, &md);

		if (rc)
			return wt_fail(en, e, "read WiredTiger's metadata", rc);
		while (n < ROUND && (rc = md->next(md)) == 0) {
			const char *key;

			if ((rc = md->get_key(md, &key)) != 0)
				break;
			if ((strncmp(key, INDEX_PREFIX, strlen(INDEX_PREFIX)) == 0 ||
			     strcmp(key, COLL_URI) == 0) &&
			    strlen(key) < sizeof uris[0])
				snprintf(uris[n++], sizeof uris[0], "%s", key);
		}
		md->close(md);
		if (rc && rc != WT_NOTFOUND)
			return wt_fail(en, e, "read WiredTiger's metadata", rc);
		if (!n)
			return 0;
		for (i = 0; i < n; i++)
			if (wt_drop_table(en, uris[i], e) < 0)
				return -1;
	}
}

static int open_cursor_cfg(struct engine *en, const char *uri, const char *cfg, WT_CURSOR **out,
                           struct err *e)
{
	int rc = en->s->open_cursor(en->s, uri, NULL, cfg, out);

	if (rc) {
		char what[128];

		snprintf(what, sizeof what, "open %s", uri);
		return wt_fail(en, e, what, rc);
	}
	return 0;
}

int wt_open_cursor(struct engine *en, const char *uri, WT_CURSOR **out, struct err *e)
{
	/* overwrite=false: a duplicate insert or a missing remove is an error,
	 * so a table that is not what idxlab built is noticed. */
	return open_cursor_cfg(en, uri, "overwrite=false", out, e);
}

/* Create index table i (0: _id) with mongod's index settings: a unique
 * one (_id too) is keyed by its column(s) and holds the record id, any
 * other is keyed by its column(s) and the record id and holds nothing. */
int wt_create_index(struct engine *en, int i, struct err *e)
{
	const struct wt_index *x = &en->ix[i];
	char cfg[256];
	int rc;

	if (i > 0 && i <= schema_of(&en->k)->nindexes) { /* what WiredTiger builds otherwise */
		const struct schema *sc = schema_of(&en->k);
		char why[768];

		schema_idx_unbuilt(sc, &sc->idx[i - 1], "WiredTiger", 0, why, sizeof why);
		if (why[0])
			evlog_add(EV_WARN, "wiredtiger: %s", why);
	}
	snprintf(cfg, sizeof cfg, "key_format=%s,value_format=%s" WT_INDEX_CONFIG, x->key_format,
	         x->unique ? "q" : "u");
	rc = en->s->create(en->s, x->uri, cfg);
	if (rc) {
		char what[128];

		snprintf(what, sizeof what, "create %s", x->uri);
		return wt_fail(en, e, what, rc);
	}
	return wt_open_index(en, i, e);
}

int wt_open_index(struct engine *en, int i, struct err *e)
{
	const struct wt_index *x = &en->ix[i];

	/* raw: a composite key is packed in rows.c, column by column */
	return open_cursor_cfg(en, x->uri, x->raw ? "overwrite=false,raw" : "overwrite=false",
	                       &en->idx[i], e);
}

static int drop_index(struct engine *en, int i, struct err *e)
{
	if (en->idx[i])
		en->idx[i]->close(en->idx[i]);
	en->idx[i] = NULL;
	return wt_drop_table(en, en->ix[i].uri, e);
}

/* ---- configuration ---------------------------------------------------- */

/* Set the cache to bytes (at least WiredTiger's 1 MB) and say (say: when
 * it differs from the cache said last) where eviction starts. */
int wt_set_cache(struct engine *en, long long bytes, int say, struct err *e)
{
	char cfg[128], c[32], dt[32], dg[32];
	int rc;

	if (bytes < MIN_CACHE) {
		if (say)
			evlog_add(EV_WARN, "wiredtiger: the smallest cache WiredTiger accepts is "
			                   "1MiB: using that");
		bytes = MIN_CACHE;
	}
	snprintf(cfg, sizeof cfg, "cache_size=%lld", bytes);
	if ((rc = en->conn->reconfigure(en->conn, cfg)) != 0)
		return wt_fail(en, e, "set cache_size", rc);
	en->cache = bytes;
	if (say && bytes != en->cache_said) { /* not again at every fresh table */
		en->cache_said = bytes;
		wt_cache_text(bytes, c, sizeof c);
		wt_cache_text(bytes * WT_DIRTY_TARGET_PCT / 100, dt, sizeof dt);
		wt_cache_text(bytes * WT_DIRTY_TRIGGER_PCT / 100, dg, sizeof dg);
		evlog_add(EV_INFO,
		          "wiredtiger: cache %s: eviction threads write dirty pages beyond %s "
		          "(dirty target %d%%), the workload itself beyond %s (dirty trigger "
		          "%d%%)",
		          c, dt, WT_DIRTY_TARGET_PCT, dg, WT_DIRTY_TRIGGER_PCT);
	}
	return 0;
}

/* After the load and its checkpoint, empty the cache: pages WiredTiger
 * evicted while loading come back from disk in their compact form, those it
 * kept are still in-memory insert lists, slower to search. How many it
 * evicted depends on the load's size, so without this the 0-index table of
 * a sweep (small: nothing evicted) is slower to update than the 5-index one.
 * Now every step starts from a table on disk. */
int wt_squeeze_cache(struct engine *en, struct err *e)
{
	uint64_t v[S_COUNT];
	int i;

	if (wt_set_cache(en, MIN_CACHE, 0, e) < 0)
		return -1;
	for (i = 0; i < SQUEEZE_TRIES && en->probes; i++) {
		if (wt_read_stats(en, v, e) < 0)
			return -1;
		if (v[S_CACHE_INUSE] <= 2 * MIN_CACHE)
			break;
		if (en->stop && atomic_load(en->stop))
			break;
		usleep(20000);
	}
	if (!en->probes)
		usleep(200000); /* no statistics to watch: give eviction a moment */
	return 0;
}

int wt_set_checkpoint(struct engine *en, long long secs, struct err *e)
{
	char cfg[64];
	int rc;

	snprintf(cfg, sizeof cfg, "checkpoint=(wait=%lld)", secs);
	if ((rc = en->conn->reconfigure(en->conn, cfg)) != 0)
		return wt_fail(en, e, "set the checkpoint interval", rc);
	return 0;
}

/* The columns' offsets come from wt_set_tables(). */
void wt_set_row_layout(struct engine *en, long long payload)
{
	en->row_len = en->off_payload + (size_t)payload;
	free(en->row);
	free(en->old);
	en->row = malloc(en->row_len);
	en->old = malloc(en->off_payload);
	if (!en->row || !en->old)
		abort();
	memset(en->row, 0, en->off_payload);
	keys_payload((char *)en->row + en->off_payload, (size_t)payload);
}

/* ---- index builds ----------------------------------------------------- */

/* Fill index table i (1..) from the collection, in transactions that
 * shrink when the cache rolls one back. */
int wt_fill_index(struct engine *en, int i, struct err *e)
{
	WT_CURSOR *scan = NULL;
	int64_t next = 1; /* first record id not yet indexed */
	uint64_t batch = LOAD_TXN_ROWS;
	int rc = 0, ones = 0;
	char what[64];

	snprintf(what, sizeof what, "build the %s index", en->ix[i].uri + strlen(INDEX_PREFIX));
	if ((rc = en->s->open_cursor(en->s, COLL_URI, NULL, NULL, &scan)) != 0)
		return wt_fail(en, e, what, rc);
	for (;;) {
		int64_t recid = 0, last = next - 1;
		uint64_t n = 0;
		int exact = 0;

		if (en->stop && atomic_load(en->stop)) {
			scan->close(scan);
			return err_set(e, ERR_RUNTIME, "stopped while building the %s index",
			               en->ix[i].uri + strlen(INDEX_PREFIX));
		}
		if ((rc = en->s->begin_transaction(en->s, "isolation=snapshot")) != 0)
			break;
		scan->set_key(scan, next);
		rc = scan->search_near(scan, &exact);
		if (rc == 0 && exact < 0)
			rc = scan->next(scan);
		while (rc == 0 && n < batch) {
			WT_ITEM val;

			if ((rc = scan->get_key(scan, &recid)) != 0 ||
			    (rc = scan->get_value(scan, &val)) != 0)
				break;
			if (val.size < en->off_payload) {
				rc = E_MISSING;
				break;
			}
			rc = wt_index_insert(en, i, val.data, recid);
			if (rc)
				break;
			last = recid;
			n++;
			rc = scan->next(scan);
		}
		if (rc == 0 || rc == WT_NOTFOUND) {
			int end = rc == WT_NOTFOUND;

			scan->reset(scan);
			rc = en->s->commit_transaction(en->s, "sync=off");
			if (rc == 0) {
				next = last + 1;
				if (end)
					break;
				continue;
			}
		} else {
			scan->reset(scan);
			(void)en->s->rollback_transaction(en->s, NULL);
		}
		if (!wt_retryable(rc))
			break;
		en->rollbacks++;
		if (batch > 1)
			batch /= 2;
		else if (++ones > 5)
			break;
		else
			clock_sleep_ms(10L << ones);
	}
	scan->close(scan);
	if (rc == WT_DUPLICATE_KEY && en->ix[i].unique)
		return err_set(e, ERR_RUNTIME,
		               "%s: two records have one key of the unique index %s - give its "
		               "column distinct values (uuid, bigint seq or rand)",
		               what, en->ix[i].name);
	if (rc == E_MISSING || rc == WT_DUPLICATE_KEY)
		return err_set(e, ERR_RUNTIME, "%s: the collection is not what idxlab built", what);
	return rc ? wt_fail(en, e, what, rc) : 0;
}

/* Create or drop index tables so that exactly the first `to` exist. */
int wt_set_indexes(struct engine *en, int to, struct err *e)
{
	while (en->nidx < to) {
		uint64_t t0 = clock_now_ns();
		int i = en->nidx + 1;

		if (wt_create_index(en, i, e) < 0 || wt_fill_index(en, i, e) < 0) {
			(void)drop_index(en, i, NULL);
			return err_prefix(e, "building %s", en->ix[i].uri + strlen("table:"));
		}
		en->nidx = i;
		if (en->live)
			evlog_add(EV_INFO, "built %s on %llu rows in %.2f s", en->ix[i].uri,
			          (unsigned long long)en->rs->live_rows,
			          (double)(clock_now_ns() - t0) / 1e9);
	}
	while (en->nidx > to) {
		int i = en->nidx;

		if (drop_index(en, i, e) < 0)
			return -1;
		en->nidx = i - 1;
		if (en->live)
			evlog_add(EV_INFO, "dropped %s", en->ix[i].uri + strlen("table:"));
	}
	return 0;
}
