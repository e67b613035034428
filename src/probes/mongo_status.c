/* mongo_status.c - serverStatus and $collStats documents into counters.
 *
 * One table says where each value lives: a top-level section, an optional
 * sub-section and the exact key. Lookups walk the document level by level
 * with bson_iter_find_w_len (exact, case-sensitive), never by dotted path:
 * WiredTiger's key names hold spaces and could hold dots. */
#include "mongo_status.h"

#include <stdio.h>
#include <string.h>

#define ALLOC_UNIT 4096 /* WiredTiger's allocation_size: the "page" of a file */

/* Where each value lives, in the order to try: a value WiredTiger moved
 * between releases has one row per place. */
static const struct {
	enum mongo_stat id;
	const char *section, *sub, *key;
} where[] = {
	{ MS_OP_INSERT, "opcounters", NULL, "insert" },
	{ MS_OP_UPDATE, "opcounters", NULL, "update" },
	{ MS_OP_DELETE, "opcounters", NULL, "delete" },
	{ MS_OP_COMMAND, "opcounters", NULL, "command" },
	{ MS_DIRTY_EVICTED, "wiredTiger", "cache", "modified pages evicted" },
	{ MS_PAGES_READ, "wiredTiger", "cache", "pages read into cache" },
	{ MS_CACHE_BYTES, "wiredTiger", "cache", "bytes currently in the cache" },
	{ MS_CACHE_DIRTY, "wiredTiger", "cache", "tracked dirty bytes in the cache" },
	{ MS_CACHE_MAX, "wiredTiger", "cache", "maximum bytes configured" },
	{ MS_LOG_SYNCS, "wiredTiger", "log", "log sync operations" },
	{ MS_LOG_BYTES, "wiredTiger", "log", "log bytes written" },
	{ MS_FSYNC_IOS, "wiredTiger", "connection", "total fsync I/Os" },
	/* older WiredTiger */
	{ MS_CHECKPOINTS, "wiredTiger", "transaction", "transaction checkpoints" },
	/* newer WiredTiger: checkpoints have a section of their own */
	{ MS_CHECKPOINTS, "wiredTiger", "checkpoint", "total succeed number of checkpoints" },
	{ MS_PID, "pid", NULL, NULL },
};

static const char *const names[MS_COUNT] = {
	[MS_OP_INSERT] = "opcounters.insert",
	[MS_OP_UPDATE] = "opcounters.update",
	[MS_OP_DELETE] = "opcounters.delete",
	[MS_OP_COMMAND] = "opcounters.command",
	[MS_DIRTY_EVICTED] = "wiredTiger.cache.modified pages evicted",
	[MS_PAGES_READ] = "wiredTiger.cache.pages read into cache",
	[MS_CACHE_BYTES] = "wiredTiger.cache.bytes currently in the cache",
	[MS_CACHE_DIRTY] = "wiredTiger.cache.tracked dirty bytes in the cache",
	[MS_CACHE_MAX] = "wiredTiger.cache.maximum bytes configured",
	[MS_LOG_SYNCS] = "wiredTiger.log.log sync operations",
	[MS_LOG_BYTES] = "wiredTiger.log.log bytes written",
	[MS_FSYNC_IOS] = "wiredTiger.connection.total fsync I/Os",
	[MS_CHECKPOINTS] = "wiredTiger.transaction.transaction checkpoints",
	[MS_PID] = "pid",
};

/* Which counter each value feeds (C_COUNT: none). */
static const enum ctr feeds[MS_COUNT] = {
	[MS_OP_INSERT] = C_COUNT,         [MS_OP_UPDATE] = C_COUNT,
	[MS_OP_DELETE] = C_COUNT,         [MS_OP_COMMAND] = C_COUNT,
	[MS_DIRTY_EVICTED] = C_SPILLS,    [MS_PAGES_READ] = C_MISSES,
	[MS_CACHE_BYTES] = C_CACHE_USED,  [MS_CACHE_DIRTY] = C_CACHE_DIRTY,
	[MS_CACHE_MAX] = C_CACHE_MAX,     [MS_LOG_SYNCS] = C_FSYNCS,
	[MS_LOG_BYTES] = C_WAL_BYTES,     [MS_FSYNC_IOS] = C_COUNT,
	[MS_CHECKPOINTS] = C_CHECKPOINTS, [MS_PID] = C_COUNT,
};

const char *mongo_status_name(int id)
{
	return id >= 0 && id < MS_COUNT ? names[id] : "?";
}

/* Step into the sub-document called key of the document it points into. */
static int enter(const bson_iter_t *parent, const char *key, bson_iter_t *child)
{
	bson_iter_t it = *parent;

	return bson_iter_find_w_len(&it, key, (int)strlen(key)) && BSON_ITER_HOLDS_DOCUMENT(&it) &&
	       bson_iter_recurse(&it, child);
}

/* A non-negative number at key, or -1. */
static int number_at(const bson_iter_t *doc, const char *key, uint64_t *out)
{
	bson_iter_t it = *doc;
	double d;

	if (!bson_iter_find_w_len(&it, key, (int)strlen(key)))
		return -1;
	switch (bson_iter_type(&it)) {
	case BSON_TYPE_INT32:
	case BSON_TYPE_INT64:
		if (bson_iter_as_int64(&it) < 0)
			return -1;
		*out = (uint64_t)bson_iter_as_int64(&it);
		return 0;
	case BSON_TYPE_DOUBLE:
		d = bson_iter_double(&it);
		if (!(d >= 0) || d >= 18446744073709551616.0)
			return -1;
		*out = (uint64_t)d;
		return 0;
	default:
		return -1;
	}
}

static void string_at(const bson_iter_t *doc, const char *key, char *out, size_t len)
{
	bson_iter_t it = *doc;

	out[0] = 0;
	if (bson_iter_find_w_len(&it, key, (int)strlen(key)) && BSON_ITER_HOLDS_UTF8(&it))
		snprintf(out, len, "%s", bson_iter_utf8(&it, NULL));
}

int mongo_status_parse(const bson_t *doc, struct mongo_status *out)
{
	bson_iter_t top, sec, sub;
	uint64_t ok = 0, uptime;
	size_t i;

	memset(out, 0, sizeof *out);
	if (!doc || !bson_iter_init(&top, doc))
		return -1;
	if ((number_at(&top, "ok", &ok) < 0 || ok != 1) && number_at(&top, "uptime", &uptime) < 0)
		return -1;
	for (i = 0; i < sizeof where / sizeof where[0]; i++) {
		const bson_iter_t *at = &top;
		enum mongo_stat id = where[i].id;

		if (out->have & 1u << id)
			continue; /* found in an earlier place */
		if (where[i].key) {
			if (!enter(&top, where[i].section, &sec))
				continue;
			at = &sec;
			if (where[i].sub) {
				if (!enter(&sec, where[i].sub, &sub))
					continue;
				at = &sub;
			}
		}
		if (number_at(at, where[i].key ? where[i].key : where[i].section, &out->v[id]) == 0)
			out->have |= 1u << id;
	}
	string_at(&top, "version", out->version, sizeof out->version);
	string_at(&top, "process", out->process, sizeof out->process);
	string_at(&top, "host", out->host, sizeof out->host);
	if (enter(&top, "storageEngine", &sec))
		string_at(&sec, "name", out->engine, sizeof out->engine);
	return 0;
}

void mongo_status_counters(const struct mongo_status *s, struct counters *c)
{
	int i;

	for (i = 0; i < MS_COUNT; i++) {
		if (feeds[i] == C_COUNT || !(s->have & 1u << i))
			continue;
		c->v[feeds[i]] = s->v[i];
		c->valid |= 1u << feeds[i];
	}
}

int mongo_collstats_sizes(const bson_t *doc, int nindexes, struct sizes *s)
{
	bson_iter_t top, st, idx;
	uint64_t total, storage, indexes, v;
	int i;

	memset(s, 0, sizeof *s);
	s->db_bytes = s->index_bytes = -1;
	if (!doc || !bson_iter_init(&top, doc))
		return -1;
	if (!enter(&top, "storageStats", &st))
		st = top;
	if (number_at(&st, "totalSize", &total) == 0)
		s->db_bytes = (int64_t)total;
	else if (number_at(&st, "storageSize", &storage) == 0 &&
	         number_at(&st, "totalIndexSize", &indexes) == 0)
		s->db_bytes = (int64_t)(storage + indexes);
	if (!enter(&st, "indexSizes", &idx))
		return s->db_bytes < 0 ? -1 : 0;
	s->index_bytes = 0;
	for (i = 1; i <= nindexes && i <= SIZES_MAX_INDEXES; i++) {
		char name[16];

		snprintf(name, sizeof name, "k%d_1", i);
		if (number_at(&idx, name, &v) < 0)
			break;
		s->index_bytes += (int64_t)v;
		s->index_pages[i - 1] = (int64_t)((v + ALLOC_UNIT - 1) / ALLOC_UNIT);
		s->nindex = i;
	}
	return 0;
}
