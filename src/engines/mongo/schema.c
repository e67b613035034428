/* schema.c - the collection and what is set on it: the WiredTiger cache,
 * the write concern, the payload, the first N indexes of the table spec's
 * list (built by one createIndexes) and the checkpoint (fsync) before measuring. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../clock.h"
#include "../../evlog.h"
#include "../../keys.h"
#include "../../schema.h"
#include "../../schema_idx.h"
#include "../../units.h"
#include "internal.h"

void mongo_set_payload(struct engine *en, long long len)
{
	free(en->payload);
	en->payload = keys_payload_new((size_t)len);
}

void mongo_set_write_concern(struct engine *en, long long sync)
{
	mongoc_write_concern_destroy(en->wc);
	en->wc = mongo_doc_write_concern(sync);
}

/* cache = WiredTiger's cache_size, where the server lets us change it. */
int mongo_set_cache(struct engine *en, const struct knobs *k, struct err *e)
{
	long long want = k->v[K_CACHE] < WT_MIN_CACHE ? WT_MIN_CACHE : k->v[K_CACHE];
	char cfg[64], have[32], to[32];
	bson_t cmd = BSON_INITIALIZER;
	bson_error_t be;
	int rc;

	if (en->cache_readonly || want == en->cache_now)
		return 0;
	if (en->cache_orig <= 0 && !en->mongod_dir[0]) {
		/* Never change what we could not set back. */
		en->cache_readonly = 1;
		evlog_add(EV_WARN, "cache is read-only on this server: idxlab cannot read its "
		                   "WiredTiger cache size (serverStatus) to set it back later");
		return 0;
	}
	units_format_size(want, to, sizeof to);
	units_format_size(en->cache_now, have, sizeof have);
	snprintf(cfg, sizeof cfg, "cache_size=%lld", want);
	BSON_APPEND_INT32(&cmd, "setParameter", 1);
	BSON_APPEND_UTF8(&cmd, "wiredTigerEngineRuntimeConfig", cfg);
	rc = mongo_command(en, "admin", &cmd, NULL, &be);
	bson_destroy(&cmd);
	if (rc < 0) {
		if (mongo_is_connection(&be))
			return mongo_fail(en, &be, e, "setting the WiredTiger cache");
		en->cache_readonly = 1;
		evlog_add(EV_WARN,
		          "cache is read-only on this server (setParameter "
		          "wiredTigerEngineRuntimeConfig: %s): the WiredTiger cache stays %s",
		          be.message, en->cache_now > 0 ? have : "as it is");
		return 0;
	}
	if (k->v[K_CACHE] < WT_MIN_CACHE)
		evlog_add(EV_INFO, "WiredTiger's smallest cache is 1MiB: using that");
	evlog_add(EV_INFO, "WiredTiger cache_size set to %s (was %s%s)", to,
	          en->cache_now > 0 ? have : "unknown",
	          en->mongod_dir[0] ? "" : "; set back when idxlab exits");
	en->cache_now = want;
	return 0;
}

int mongo_drop_collection(struct engine *en, struct err *e)
{
	bson_t cmd = BSON_INITIALIZER;
	bson_error_t be;
	int rc;

	BSON_APPEND_UTF8(&cmd, "drop", COLL_NAME);
	rc = mongo_command(en, DB_NAME, &cmd, NULL, &be);
	bson_destroy(&cmd);
	if (rc < 0 && be.code != CODE_NOT_FOUND && !strstr(be.message, "ns not found"))
		return mongo_fail(en, &be, e, "dropping idxlab.t");
	return 0;
}

/* What MongoDB builds of index x otherwise (an expression key on its
 * column, a WHERE it cannot filter left out), said in the event log. */
static void say_unbuilt(const struct schema *s, const struct index_spec *x, int filtered)
{
	char why[768];

	schema_idx_unbuilt(s, x, "MongoDB", filtered, why, sizeof why);
	if (why[0])
		evlog_add(EV_WARN, "mongo: %s", why);
}

/* Indexes 0..from-1 of the spec's list exist; make it 0..to-1. New indexes
 * are built by one createIndexes (one scan of the collection for all of
 * them), each { key: {col: 1, ...}, name[, unique: true] }; drops go in
 * reverse list order. */
int mongo_set_indexes(struct engine *en, long long from, long long to, int live, struct err *e)
{
	const struct schema *s = schema_of(&en->k);
	bson_t cmd = BSON_INITIALIZER, list, one, key;
	char name[SCHEMA_NAME_MAX * SCHEMA_IDX_COLS], num[16];
	char names[SCHEMA_IDX_MAX * (SCHEMA_NAME_MAX + 2)] = "";
	const char *pos;
	uint64_t t0 = clock_now_ns();
	size_t used = 0;
	long long i;
	int rc = 0;

	if (to > from) {
		BSON_APPEND_UTF8(&cmd, "createIndexes", COLL_NAME);
		BSON_APPEND_ARRAY_BEGIN(&cmd, "indexes", &list);
		for (i = from; i < to; i++) {
			mongo_doc_index_name(s, (int)i, name, sizeof name);
			if (used < sizeof names)
				used += (size_t)snprintf(names + used, sizeof names - used, "%s%s",
				                         used ? ", " : "", name);
			bson_uint32_to_string((uint32_t)(i - from), &pos, num, sizeof num);
			BSON_APPEND_DOCUMENT_BEGIN(&list, pos, &one);
			BSON_APPEND_DOCUMENT_BEGIN(&one, "key", &key);
			mongo_doc_index_key(&key, s, (int)i);
			bson_append_document_end(&one, &key);
			BSON_APPEND_UTF8(&one, "name", name);
			if (s->idx[i].unique)
				BSON_APPEND_BOOL(&one, "unique", true);
			say_unbuilt(s, &s->idx[i], mongo_doc_index_filter(&one, s, (int)i));
			bson_append_document_end(&list, &one);
		}
		bson_append_array_end(&cmd, &list);
		rc = mongo_command_or_fail(en, DB_NAME, &cmd, e, "createIndexes");
		if (rc == 0 && live)
			evlog_add(EV_INFO, "built %s on %llu rows in %.2f s", names,
			          (unsigned long long)en->rs->live_rows,
			          (double)(clock_now_ns() - t0) / 1e9);
		else if (rc < 0)
			err_prefix(e, "building %s", names);
	}
	for (i = from - 1; i >= to && rc == 0; i--) {
		mongo_doc_index_name(s, (int)i, name, sizeof name);
		bson_reinit(&cmd);
		BSON_APPEND_UTF8(&cmd, "dropIndexes", COLL_NAME);
		BSON_APPEND_UTF8(&cmd, "index", name);
		rc = mongo_command_or_fail(en, DB_NAME, &cmd, e, "dropIndexes");
		if (rc == 0 && live)
			evlog_add(EV_INFO, "dropped %s", name);
		else if (rc < 0)
			err_prefix(e, "dropping %s", name);
	}
	bson_destroy(&cmd);
	return rc;
}

/* Start the measurement from a checkpoint (fsync forces one), like the
 * published runs; a user who may not run fsync just gets none. */
int mongo_checkpoint(struct engine *en, struct err *e)
{
	bson_t cmd = BSON_INITIALIZER;
	bson_error_t be;
	int rc;

	if (en->fsync_denied)
		return 0;
	BSON_APPEND_INT32(&cmd, "fsync", 1);
	rc = mongo_command(en, "admin", &cmd, NULL, &be);
	bson_destroy(&cmd);
	if (rc < 0) {
		if (mongo_is_connection(&be))
			return mongo_fail(en, &be, e, "fsync (checkpoint)");
		en->fsync_denied = 1;
		evlog_add(EV_INFO, "no checkpoint before measuring: fsync is not allowed here (%s)",
		          be.message);
	}
	return 0;
}
