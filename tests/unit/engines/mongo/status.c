/* status.c - the cases of src/engines/mongo/status.c: serverStatus and
 * $collStats read into counters and sizes, from fixture documents (no
 * server runs here). Built only with the mongo engine (the Makefile's
 * -DIDXLAB_HAVE_MONGO); else its cases say SKIP. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "unit.h"

#ifdef IDXLAB_HAVE_MONGO
#include <bson/bson.h>

#include "engines/mongo/status.h"
#include "metrics.h"

/* A fixture file as BSON (relaxed or canonical extended JSON); NULL if bad. */
static bson_t *mongo_fixture(const char *name)
{
	static char buf[65536];
	bson_error_t be;
	bson_t *b;

	if (read_fixture(name, buf, sizeof buf) < 0)
		return NULL;
	b = bson_new_from_json((const uint8_t *)buf, -1, &be);
	if (!b)
		printf("  %s: %s\n", name, be.message);
	return b;
}

static void test_mongo(void)
{
	struct mongo_status st;
	struct counters a, c;
	struct window w;
	struct sizes sz;
	bson_t *doc, *bad;

	/* A full serverStatus: every value by its exact name, not its twins
	 * ("modified pages evicted by application threads", "pages read into
	 * cache after truncate", "log sync_dir operations"). */
	doc = mongo_fixture("serverstatus-full.json");
	CHECK(doc != NULL);
	if (!doc)
		return;
	CHECK(mongo_status_parse(doc, &st) == 0);
	CHECK(st.have == (1u << MS_COUNT) - 1);
	CHECK(st.v[MS_DIRTY_EVICTED] == 1234567);
	CHECK(st.v[MS_PAGES_READ] == 765432);
	CHECK(st.v[MS_LOG_SYNCS] == 5150);
	CHECK(st.v[MS_LOG_BYTES] == 4567890123ULL);
	CHECK(st.v[MS_FSYNC_IOS] == 7077);
	CHECK(st.v[MS_CHECKPOINTS] == 1441);
	CHECK(st.v[MS_CACHE_MAX] == 268435456);
	CHECK(st.v[MS_CACHE_BYTES] == 214748364);
	CHECK(st.v[MS_CACHE_DIRTY] == 42949672);
	CHECK(st.v[MS_OP_INSERT] == 2100000 && st.v[MS_OP_UPDATE] == 350000);
	CHECK(st.v[MS_OP_DELETE] == 25000 && st.v[MS_OP_COMMAND] == 90210);
	CHECK(st.v[MS_PID] == 48213);
	CHECK(strcmp(st.version, "6.0.19") == 0 && strcmp(st.process, "mongod") == 0);
	CHECK(strcmp(st.engine, "wiredTiger") == 0);
	CHECK(strcmp(st.host, "db1.example.net:27017") == 0);
	CHECK(strcmp(mongo_status_name(MS_DIRTY_EVICTED),
	             "wiredTiger.cache.modified pages evicted") == 0);
	memset(&c, 0, sizeof c);
	mongo_status_counters(&st, &c);
	CHECK(c.v[C_SPILLS] == 1234567 && c.v[C_MISSES] == 765432);
	CHECK(c.v[C_FSYNCS] == 5150 && c.v[C_WAL_BYTES] == 4567890123ULL);
	CHECK(c.v[C_CHECKPOINTS] == 1441);
	CHECK(c.valid ==
	      (1u << C_SPILLS | 1u << C_MISSES | 1u << C_FSYNCS | 1u << C_WAL_BYTES |
	       1u << C_CHECKPOINTS | 1u << C_CACHE_USED | 1u << C_CACHE_DIRTY | 1u << C_CACHE_MAX));
	/* The cache gauges: the values themselves, the dirty share of the size. */
	CHECK(c.v[C_CACHE_USED] == 214748364 && c.v[C_CACHE_MAX] == 268435456);
	memset(&w, 0, sizeof w);
	a = c;
	a.t = 0;
	c.t = 1;
	w.a = &a;
	w.b = &c;
	CHECK(metric_compute(M_CACHE_BYTES, &w).state == MV_OK &&
	      metric_compute(M_CACHE_BYTES, &w).v == 214748364);
	CHECK(fabs(metric_compute(M_CACHE_DIRTY_PCT, &w).v - 16.0) < 0.001);
	bson_destroy(doc);

	/* Newer WiredTiger: checkpoints in a section of their own; int64s in
	 * canonical extended JSON. */
	doc = mongo_fixture("serverstatus-ckpt-section.json");
	CHECK(doc != NULL);
	if (doc) {
		CHECK(mongo_status_parse(doc, &st) == 0);
		CHECK(st.have & 1u << MS_CHECKPOINTS && st.v[MS_CHECKPOINTS] == 60);
		CHECK(st.v[MS_LOG_SYNCS] == 1210 && st.v[MS_DIRTY_EVICTED] == 88012);
		CHECK(st.v[MS_PAGES_READ] == 4410 && st.v[MS_PID] == 1);
		CHECK(strcmp(st.version, "8.0.4") == 0);
		bson_destroy(doc);
	}

	/* No wiredTiger section (a mongos): the engine figures stay n/a. */
	doc = mongo_fixture("serverstatus-nowt.json");
	CHECK(doc != NULL);
	if (doc) {
		CHECK(mongo_status_parse(doc, &st) == 0);
		CHECK(st.have == (1u << MS_OP_INSERT | 1u << MS_OP_UPDATE | 1u << MS_OP_DELETE |
		                  1u << MS_OP_COMMAND | 1u << MS_PID));
		CHECK(strcmp(st.process, "mongos") == 0 && st.engine[0] == 0);
		memset(&a, 0, sizeof a);
		memset(&c, 0, sizeof c);
		mongo_status_counters(&st, &a);
		mongo_status_counters(&st, &c);
		CHECK(c.valid == 0);
		a.valid = c.valid |= 1u << C_ROWS | 1u << C_COMMITS;
		c.v[C_ROWS] = 100;
		c.v[C_COMMITS] = 10;
		c.t = 1;
		memset(&w, 0, sizeof w);
		w.a = &a;
		w.b = &c;
		CHECK(metric_compute(M_SPILLS_PER_ROW, &w).state == MV_NA);
		CHECK(metric_compute(M_FSYNCS_PER_COMMIT, &w).state == MV_NA);
		CHECK(metric_compute(M_WAL_BYTES_PER_ROW, &w).state == MV_NA);
		bson_destroy(doc);
	}

	/* Not a serverStatus reply; negative and non-numeric values are absent. */
	bad = BCON_NEW("x", BCON_INT32(1));
	CHECK(mongo_status_parse(bad, &st) < 0 && st.have == 0);
	bson_destroy(bad);
	bad = BCON_NEW("ok", BCON_DOUBLE(1), "wiredTiger", "{", "cache", "{",
	               "modified pages evicted", BCON_INT64(-5), "pages read into cache",
	               BCON_UTF8("12"), "}", "log", "{", "log sync operations", BCON_INT32(7), "}",
	               "}");
	CHECK(mongo_status_parse(bad, &st) == 0);
	CHECK(st.have == 1u << MS_LOG_SYNCS && st.v[MS_LOG_SYNCS] == 7);
	bson_destroy(bad);

	/* $collStats: totalSize; the secondary indexes k1_1.. in 4 KiB units. */
	doc = mongo_fixture("collstats-t.json");
	CHECK(doc != NULL);
	if (doc) {
		CHECK(mongo_collstats_sizes(doc, 3, &sz) == 0);
		CHECK(sz.db_bytes == 21405696);
		CHECK(sz.index_bytes == 2793472 + 2560000 + 2564096);
		CHECK(sz.nindex == 3 && sz.index_pages[0] == 682 && sz.index_pages[1] == 625 &&
		      sz.index_pages[2] == 626);
		CHECK(mongo_collstats_sizes(doc, 5, &sz) == 0 && sz.nindex == 3);
		CHECK(mongo_collstats_sizes(doc, 0, &sz) == 0 && sz.index_bytes == 0);
		bson_destroy(doc);
	}
	bad = BCON_NEW("storageStats", "{", "storageSize", BCON_INT32(10), "totalIndexSize",
	               BCON_INT32(5), "}");
	CHECK(mongo_collstats_sizes(bad, 1, &sz) == 0 && sz.db_bytes == 15 && sz.index_bytes == -1);
	bson_destroy(bad);
	bad = BCON_NEW("x", BCON_INT32(1));
	CHECK(mongo_collstats_sizes(bad, 1, &sz) < 0 && sz.db_bytes == -1);
	bson_destroy(bad);
	/* More indexes than index_pages holds (a table with candidates,
	 * --add-index): the pages of the first 8, the bytes of every one. */
	{
		const char *names[10] = { "a", "b", "c", "d", "e", "f", "g", "h", "i", "j" };

		bad = BCON_NEW("storageStats", "{", "totalSize", BCON_INT32(100000), "indexSizes",
		               "{", "a", BCON_INT32(4096), "b", BCON_INT32(4096), "c",
		               BCON_INT32(4096), "d", BCON_INT32(4096), "e", BCON_INT32(4096), "f",
		               BCON_INT32(4096), "g", BCON_INT32(4096), "h", BCON_INT32(4096), "i",
		               BCON_INT32(8192), "j", BCON_INT32(8192), "}", "}");
		CHECK(mongo_collstats_index_sizes(bad, names, 10, &sz) == 0);
		CHECK(sz.index_bytes == 8 * 4096 + 2 * 8192 && sz.nindex == SIZES_MAX_INDEXES);
		CHECK(mongo_collstats_sizes(bad, 10, &sz) == 0); /* k1_1..: none here */
		bson_destroy(bad);
	}
}

/* serverStatus's table: every value's name (messages and the man page use
 * them) and the counter it feeds. Each value gets a value of its own, so a
 * row feeding the wrong counter, or one that should feed none, shows. */
static void test_mongo_status_table(void)
{
	static const struct {
		int id;
		const char *name;
		int feed; /* C_COUNT: none */
	} want[MS_COUNT] = {
		{ MS_OP_INSERT, "opcounters.insert", C_COUNT },
		{ MS_OP_UPDATE, "opcounters.update", C_COUNT },
		{ MS_OP_DELETE, "opcounters.delete", C_COUNT },
		{ MS_OP_COMMAND, "opcounters.command", C_COUNT },
		{ MS_DIRTY_EVICTED, "wiredTiger.cache.modified pages evicted", C_SPILLS },
		{ MS_PAGES_READ, "wiredTiger.cache.pages read into cache", C_MISSES },
		{ MS_CACHE_BYTES, "wiredTiger.cache.bytes currently in the cache", C_CACHE_USED },
		{ MS_CACHE_DIRTY, "wiredTiger.cache.tracked dirty bytes in the cache",
		  C_CACHE_DIRTY },
		{ MS_CACHE_MAX, "wiredTiger.cache.maximum bytes configured", C_CACHE_MAX },
		{ MS_LOG_SYNCS, "wiredTiger.log.log sync operations", C_FSYNCS },
		{ MS_LOG_BYTES, "wiredTiger.log.log bytes written", C_WAL_BYTES },
		{ MS_FSYNC_IOS, "wiredTiger.connection.total fsync I/Os", C_COUNT },
		{ MS_CHECKPOINTS, "wiredTiger.transaction.transaction checkpoints", C_CHECKPOINTS },
		{ MS_PID, "pid", C_COUNT },
		/* read by reads.c for the reads' counters, as deltas */
		{ MS_QE_SCANNED, "metrics.queryExecutor.scanned", C_COUNT },
		{ MS_QE_OBJECTS, "metrics.queryExecutor.scannedObjects", C_COUNT },
	};
	struct mongo_status st;
	struct counters c;
	unsigned valid = 0;
	bson_t *doc;
	int i;

	CHECK(strcmp(mongo_status_name(-1), "?") == 0 &&
	      strcmp(mongo_status_name(MS_COUNT), "?") == 0);
	memset(&st, 0, sizeof st);
	for (i = 0; i < MS_COUNT; i++) {
		CHECK(want[i].id == i && strcmp(mongo_status_name(i), want[i].name) == 0);
		st.have |= 1u << i;
		st.v[i] = 1000 + (uint64_t)i;
	}
	memset(&c, 0, sizeof c);
	mongo_status_counters(&st, &c);
	for (i = 0; i < MS_COUNT; i++)
		if (want[i].feed != C_COUNT) {
			CHECK(c.v[want[i].feed] == 1000 + (uint64_t)i);
			valid |= 1u << want[i].feed;
		}
	CHECK(c.valid == valid);
	/* The checkpoints' second place feeds the same counter. */
	doc = BCON_NEW("ok", BCON_INT32(1), "wiredTiger", "{", "checkpoint", "{",
	               "total succeed number of checkpoints", BCON_INT64(7), "}", "}");
	CHECK(mongo_status_parse(doc, &st) == 0 && st.have == 1u << MS_CHECKPOINTS);
	memset(&c, 0, sizeof c);
	mongo_status_counters(&st, &c);
	CHECK(c.valid == 1u << C_CHECKPOINTS && c.v[C_CHECKPOINTS] == 7);
	bson_destroy(doc);
}

/* What served a find, from explain replies as servers write them: the
 * winning plan's index (never a rejected plan's), IDHACK as the _id
 * index, a COLLSCAN as "scan". */
static void test_mongo_explain(void)
{
	static const struct {
		const char *json;
		int rc;
		const char *out;
	} cases[] = {
		/* 6.0 / classic engine: FETCH over IXSCAN; a rejected plan's index */
		{ "{\"queryPlanner\": {\"winningPlan\": {\"stage\": \"FETCH\", \"inputStage\": "
		  "{\"stage\": \"IXSCAN\", \"keyPattern\": {\"email\": 1}, \"indexName\": "
		  "\"idxlab_email\"}}, \"rejectedPlans\": [{\"stage\": \"IXSCAN\", "
		  "\"indexName\": \"other\"}]}, \"ok\": 1}",
		  1, "idxlab_email" },
		/* 7.0 with SBE: the plan under queryPlan, beside slotBasedPlan */
		{ "{\"queryPlanner\": {\"winningPlan\": {\"queryPlan\": {\"stage\": \"LIMIT\", "
		  "\"inputStage\": {\"stage\": \"FETCH\", \"inputStage\": {\"stage\": "
		  "\"IXSCAN\", \"indexName\": \"k1_1\"}}}, \"slotBasedPlan\": {\"stages\": "
		  "\"[2] cfilter\"}}}}",
		  1, "k1_1" },
		/* 8.0's express path */
		{ "{\"queryPlanner\": {\"winningPlan\": {\"isCached\": false, \"stage\": "
		  "\"EXPRESS_IXSCAN\", \"keyPattern\": \"{ email: 1 }\", \"indexName\": "
		  "\"idxlab_email\"}}}",
		  1, "idxlab_email" },
		{ "{\"queryPlanner\": {\"winningPlan\": {\"stage\": \"IDHACK\"}}}", 1, "_id_" },
		/* a sort over a collection scan */
		{ "{\"queryPlanner\": {\"winningPlan\": {\"stage\": \"SORT\", \"inputStage\": "
		  "{\"stage\": \"COLLSCAN\", \"direction\": \"forward\"}}, \"rejectedPlans\": "
		  "[]}}",
		  0, "scan" },
		/* an OR: its first branch's index */
		{ "{\"queryPlanner\": {\"winningPlan\": {\"stage\": \"OR\", \"inputStages\": "
		  "[{\"stage\": \"COLLSCAN\"}, {\"stage\": \"IXSCAN\", \"indexName\": "
		  "\"b_1\"}]}}}",
		  1, "b_1" },
		/* a sharded cluster's: each shard's winning plan */
		{ "{\"queryPlanner\": {\"winningPlan\": {\"stage\": \"SINGLE_SHARD\", "
		  "\"shards\": [{\"shardName\": \"s0\", \"winningPlan\": {\"stage\": "
		  "\"FETCH\", \"inputStage\": {\"stage\": \"IXSCAN\", \"indexName\": "
		  "\"x_1\"}}}]}}}",
		  1, "x_1" },
		{ "{\"queryPlanner\": {\"winningPlan\": {\"stage\": \"EOF\"}}}", -1, "" },
		{ "{\"ok\": 0, \"errmsg\": \"no\"}", -1, "" },
	};
	char out[64];
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		bson_error_t be;
		bson_t *doc = bson_new_from_json((const uint8_t *)cases[i].json, -1, &be);
		int rc;

		CHECK(doc != NULL);
		if (!doc)
			continue;
		rc = mongo_explain_served(doc, out, sizeof out);
		if (rc != cases[i].rc || strcmp(out, cases[i].out) != 0)
			printf("  case %zu: %d '%s'\n", i, rc, out);
		CHECK(rc == cases[i].rc && strcmp(out, cases[i].out) == 0);
		bson_destroy(doc);
	}
	CHECK(mongo_explain_served(NULL, out, sizeof out) < 0 && out[0] == 0);
}
#else
static void test_mongo(void)
{
	unit_skip("built without the mongo engine (install libmongoc-dev, then make)");
}

static void test_mongo_status_table(void)
{
	unit_skip("built without the mongo engine (install libmongoc-dev, then make)");
}

static void test_mongo_explain(void)
{
	unit_skip("built without the mongo engine (install libmongoc-dev, then make)");
}
#endif

const struct unit_case unit_engines_mongo_status[] = {
	{ "unit/mongo", test_mongo },
	{ "unit/mongo-status-table", test_mongo_status_table },
	{ "unit/mongo-explain", test_mongo_explain },
	{ NULL, NULL },
};
