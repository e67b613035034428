/* status.c - serverStatus and $collStats documents into counters.
 *
 * One table says where each value lives (a top-level section, an optional
 * sub-section and the exact key) and which counter it feeds; the names in
 * messages are made from it. Lookups walk the document level by level
 * with bson_iter_find_w_len (exact, case-sensitive), never by dotted path:
 * WiredTiger's key names hold spaces and could hold dots. */
#include "status.h"

#include <stdio.h>
#include <string.h>

#include "../engine.h"

#define ALLOC_UNIT 4096 /* WiredTiger's allocation_size: the "page" of a file */

/* One row per place a value lives, in the order to try, and the counter it
 * feeds (C_COUNT: none). A value WiredTiger moved between releases has one
 * row per place, all feeding the same counter; its first row names it. A
 * value sits at key in section's sub-document sub (IN_SUB), in section
 * itself (IN_SECTION) or at the top (AT_TOP); its name is that path with
 * dots, made by these macros. */
#define IN_SUB(section, sub, key) section, sub, key, section "." sub "." key
#define IN_SECTION(section, key)  section, NULL, key, section "." key
#define AT_TOP(key)               NULL, NULL, key, key
static const struct stat_row {
	enum mongo_stat id;
	enum ctr feed;
	const char *section, *sub, *key;
	const char *name;
} rows[] = {
	{ MS_OP_INSERT, C_COUNT, IN_SECTION("opcounters", "insert") },
	{ MS_OP_UPDATE, C_COUNT, IN_SECTION("opcounters", "update") },
	{ MS_OP_DELETE, C_COUNT, IN_SECTION("opcounters", "delete") },
	{ MS_OP_COMMAND, C_COUNT, IN_SECTION("opcounters", "command") },
	{ MS_DIRTY_EVICTED, C_SPILLS, IN_SUB("wiredTiger", "cache", "modified pages evicted") },
	{ MS_PAGES_READ, C_MISSES, IN_SUB("wiredTiger", "cache", "pages read into cache") },
	{ MS_CACHE_BYTES, C_CACHE_USED,
	  IN_SUB("wiredTiger", "cache", "bytes currently in the cache") },
	{ MS_CACHE_DIRTY, C_CACHE_DIRTY,
	  IN_SUB("wiredTiger", "cache", "tracked dirty bytes in the cache") },
	{ MS_CACHE_MAX, C_CACHE_MAX, IN_SUB("wiredTiger", "cache", "maximum bytes configured") },
	{ MS_LOG_SYNCS, C_FSYNCS, IN_SUB("wiredTiger", "log", "log sync operations") },
	{ MS_LOG_BYTES, C_WAL_BYTES, IN_SUB("wiredTiger", "log", "log bytes written") },
	{ MS_FSYNC_IOS, C_COUNT, IN_SUB("wiredTiger", "connection", "total fsync I/Os") },
	/* older WiredTiger */
	{ MS_CHECKPOINTS, C_CHECKPOINTS,
	  IN_SUB("wiredTiger", "transaction", "transaction checkpoints") },
	/* newer WiredTiger: checkpoints have a section of their own */
	{ MS_CHECKPOINTS, C_CHECKPOINTS,
	  IN_SUB("wiredTiger", "checkpoint", "total succeed number of checkpoints") },
	{ MS_PID, C_COUNT, AT_TOP("pid") },
	/* the reads' (reads.c: deltas over a read step; serverStatus has them
	 * only when asked for its metrics section) */
	{ MS_QE_SCANNED, C_COUNT, IN_SUB("metrics", "queryExecutor", "scanned") },
	{ MS_QE_OBJECTS, C_COUNT, IN_SUB("metrics", "queryExecutor", "scannedObjects") },
};
#undef IN_SUB
#undef IN_SECTION
#undef AT_TOP
#define NROWS (sizeof rows / sizeof rows[0])

const char *mongo_status_name(int id)
{
	size_t i;

	for (i = 0; i < NROWS; i++)
		if ((int)rows[i].id == id)
			return rows[i].name;
	return "?";
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
	for (i = 0; i < NROWS; i++) {
		const struct stat_row *r = &rows[i];
		const bson_iter_t *at = &top;

		if (out->have & 1u << r->id)
			continue; /* found in an earlier place */
		if (r->section) {
			if (!enter(&top, r->section, &sec))
				continue;
			at = &sec;
			if (r->sub) {
				if (!enter(&sec, r->sub, &sub))
					continue;
				at = &sub;
			}
		}
		if (number_at(at, r->key, &out->v[r->id]) == 0)
			out->have |= 1u << r->id;
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
	size_t i;

	for (i = 0; i < NROWS; i++) {
		const struct stat_row *r = &rows[i];

		if (r->feed == C_COUNT || !(s->have & 1u << r->id))
			continue;
		c->v[r->feed] = s->v[r->id];
		c->valid |= 1u << r->feed;
	}
}

const struct engine_stats mongo_status_stats = ENGINE_STATS(rows, feed);

int mongo_collstats_sizes(const bson_t *doc, int nindexes, struct sizes *s)
{
	char buf[SIZES_MAX_INDEXES][16];
	const char *names[SIZES_MAX_INDEXES];
	int i;

	for (i = 0; i < SIZES_MAX_INDEXES; i++) {
		snprintf(buf[i], sizeof buf[i], "k%d_1", i + 1);
		names[i] = buf[i];
	}
	return mongo_collstats_index_sizes(
	    doc, names, nindexes < SIZES_MAX_INDEXES ? nindexes : SIZES_MAX_INDEXES, s);
}

int mongo_collstats_index_sizes(const bson_t *doc, const char *const *names, int nindexes,
                                struct sizes *s)
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
	for (i = 1; i <= nindexes; i++) {
		if (number_at(&idx, names[i - 1], &v) < 0)
			break;
		s->index_bytes += (int64_t)v; /* all; pages of the first 8 */
		if (i > SIZES_MAX_INDEXES)
			continue;
		s->index_pages[i - 1] = (int64_t)((v + ALLOC_UNIT - 1) / ALLOC_UNIT);
		s->nindex = i;
	}
	return 0;
}

/* The plan below stage document it (depth levels at most): an index's
 * name, "_id_" for IDHACK (the _id index, as explain names it elsewhere),
 * "scan" for a COLLSCAN with no index under the same plan. 1 when an
 * index was found, 0 a scan, -1 neither. */
static int plan_in(const bson_iter_t *doc, int depth, char *out, size_t len)
{
	static const char *const below[] = { "inputStage", "inputStages", "queryPlan",
		                             "winningPlan", "shards" };
	bson_iter_t it = *doc, child;
	char stage[32];
	size_t i;
	int found = -1, r;

	if (depth > 32)
		return -1;
	string_at(doc, "stage", stage, sizeof stage);
	if (stage[0]) {
		string_at(doc, "indexName", out, len);
		if (out[0])
			return 1;
		if (strcmp(stage, "IDHACK") == 0) {
			snprintf(out, len, "_id_");
			return 1;
		}
		if (strcmp(stage, "COLLSCAN") == 0)
			found = 0;
	}
	while (bson_iter_next(&it)) {
		const char *key = bson_iter_key(&it);

		for (i = 0; i < sizeof below / sizeof below[0]; i++)
			if (strcmp(key, below[i]) == 0)
				break;
		if (i == sizeof below / sizeof below[0] ||
		    !(BSON_ITER_HOLDS_DOCUMENT(&it) || BSON_ITER_HOLDS_ARRAY(&it)) ||
		    !bson_iter_recurse(&it, &child))
			continue;
		if (BSON_ITER_HOLDS_ARRAY(&it)) { /* inputStages, shards: each element */
			bson_iter_t el = child, sub;

			while (bson_iter_next(&el))
				if (BSON_ITER_HOLDS_DOCUMENT(&el) && bson_iter_recurse(&el, &sub) &&
				    (r = plan_in(&sub, depth + 1, out, len)) >= found)
					if ((found = r) == 1)
						return 1;
			continue;
		}
		if ((r = plan_in(&child, depth + 1, out, len)) >= found && (found = r) == 1)
			return 1;
	}
	out[0] = 0;
	if (found == 0)
		snprintf(out, len, "scan");
	return found;
}

int mongo_explain_served(const bson_t *reply, char *out, size_t len)
{
	bson_iter_t top, qp;

	out[0] = 0;
	if (!reply || !bson_iter_init(&top, reply) || !enter(&top, "queryPlanner", &qp))
		return -1;
	return plan_in(&qp, 0, out, len);
}
