/* schema.c - the tables and what is set on the connection.
 *
 * Layout, as mongod lays out a collection and its indexes:
 *   table:collection-idxlab   record id (q) -> the row, packed raw (u):
 *                             id | k1..k8 | hot | payload
 *   table:index-idxlab-_id    id -> record id (unique: the record id is the
 *                             value), int64 or 16 bytes as the pk knob says
 *   table:index-idxlab-kN     (kN, record id) -> empty, int64 or 16 bytes
 * with mongod's table settings (layout.h: 16k index pages with prefix
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
#include "internal.h"

#define BUSY_TRIES    200 /* x 25 ms: drops wait for a running checkpoint */
#define SQUEEZE_TRIES 250 /* x 20 ms: the cache empties after the load */

static const char *const idx_col[NIDX] = { "_id", "k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8" };

/* ---- cursors and tables ----------------------------------------------- */

void wt_idx_uri(int i, char *buf, size_t len)
{
	snprintf(buf, len, "table:index-idxlab-%s", idx_col[i]);
}

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

int wt_open_cursor(struct engine *en, const char *uri, WT_CURSOR **out, struct err *e)
{
	/* overwrite=false: a duplicate insert or a missing remove is an error,
	 * so a table that is not what idxlab built is noticed. */
	int rc = en->s->open_cursor(en->s, uri, NULL, "overwrite=false", out);

	if (rc) {
		char what[128];

		snprintf(what, sizeof what, "open %s", uri);
		return wt_fail(en, e, what, rc);
	}
	return 0;
}

/* Create index table i (0: _id) with mongod's index settings. */
int wt_create_index(struct engine *en, int i, struct err *e)
{
	char uri[64], cfg[256];
	int rc;

	wt_idx_uri(i, uri, sizeof uri);
	if (i == 0)
		snprintf(cfg, sizeof cfg, "key_format=%s,value_format=q", en->uuid_pk ? "u" : "q");
	else
		snprintf(cfg, sizeof cfg, "key_format=%s,value_format=u",
		         en->uuid_keys ? "uq" : "qq");
	strcat(cfg, WT_INDEX_CONFIG);
	rc = en->s->create(en->s, uri, cfg);
	if (rc) {
		char what[128];

		snprintf(what, sizeof what, "create %s", uri);
		return wt_fail(en, e, what, rc);
	}
	return wt_open_cursor(en, uri, &en->idx[i], e);
}

static int drop_index(struct engine *en, int i, struct err *e)
{
	char uri[64];

	if (en->idx[i])
		en->idx[i]->close(en->idx[i]);
	en->idx[i] = NULL;
	wt_idx_uri(i, uri, sizeof uri);
	return wt_drop_table(en, uri, e);
}

/* ---- configuration ---------------------------------------------------- */

/* Set the cache to bytes (at least WiredTiger's 1 MB) and say where
 * eviction starts. */
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
	if (say) {
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

void wt_set_row_layout(struct engine *en, long long payload)
{

	en->id_len = en->uuid_pk ? KEYS_UUID_LEN : sizeof(int64_t);
	en->key_len = en->uuid_keys ? KEYS_UUID_LEN : sizeof(int64_t);
	en->off_hot = en->id_len + 8 * en->key_len;
	en->off_payload = en->off_hot + sizeof(int64_t);
	en->row_len = en->off_payload + (size_t)payload;
	free(en->row);
	en->row = malloc(en->row_len);
	if (!en->row)
		abort();
	memset(en->row, 0, en->off_payload);
	keys_payload((char *)en->row + en->off_payload, (size_t)payload);
}

/* ---- index builds ----------------------------------------------------- */

/* Fill index table i (k1..k8) from the collection, in transactions that
 * shrink when the cache rolls one back. */
int wt_fill_index(struct engine *en, int i, struct err *e)
{
	WT_CURSOR *scan = NULL;
	int64_t next = 1; /* first record id not yet indexed */
	uint64_t batch = LOAD_TXN_ROWS;
	int rc = 0, ones = 0;
	char what[64];

	snprintf(what, sizeof what, "build the %s index", idx_col[i]);
	if ((rc = en->s->open_cursor(en->s, COLL_URI, NULL, NULL, &scan)) != 0)
		return wt_fail(en, e, what, rc);
	for (;;) {
		int64_t recid = 0, last = next - 1;
		uint64_t n = 0;
		int exact = 0;

		if (en->stop && atomic_load(en->stop)) {
			scan->close(scan);
			return err_set(e, ERR_RUNTIME, "stopped while building the %s index",
			               idx_col[i]);
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
			rc = wt_index_insert(
			    en, i, (const unsigned char *)val.data + wt_off_key(en, i), recid);
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
	if (rc == E_MISSING || rc == WT_DUPLICATE_KEY)
		return err_set(e, ERR_RUNTIME, "%s: the collection is not what idxlab built", what);
	return rc ? wt_fail(en, e, what, rc) : 0;
}

/* Create or drop index tables so that exactly k1..kto exist. */
int wt_set_indexes(struct engine *en, int to, struct err *e)
{
	while (en->nidx < to) {
		uint64_t t0 = clock_now_ns();
		int i = en->nidx + 1;

		if (wt_create_index(en, i, e) < 0 || wt_fill_index(en, i, e) < 0) {
			char what[80];

			snprintf(what, sizeof what, "building index-idxlab-k%d", i);
			(void)drop_index(en, i, NULL);
			return err_prefix(e, "%s", what);
		}
		en->nidx = i;
		if (en->live)
			evlog_add(EV_INFO, "built table:index-idxlab-k%d on %llu rows in %.2f s", i,
			          (unsigned long long)en->rs.live_rows,
			          (double)(clock_now_ns() - t0) / 1e9);
	}
	while (en->nidx > to) {
		int i = en->nidx;

		if (drop_index(en, i, e) < 0)
			return -1;
		en->nidx = i - 1;
		if (en->live)
			evlog_add(EV_INFO, "dropped index-idxlab-k%d", i);
	}
	return 0;
}
