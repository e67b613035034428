/* status.h - MongoDB's serverStatus and $collStats, read by key name.
 *
 * Pure: it never talks to a server. The engine (stats.c)
 * runs the commands and hands the reply documents here; the unit tests hand it
 * fixture documents with the real key names (tests/fixtures/serverstatus-*).
 * Every value is looked up by its exact name (WiredTiger has many near
 * twins: "modified pages evicted" vs "modified pages evicted by application
 * threads"); a value that is absent stays absent, so a server without a
 * wiredTiger section (another storage engine, a mongos, a restricted user)
 * shows n/a, never 0. */
#ifndef IDXLAB_MONGO_STATUS_H
#define IDXLAB_MONGO_STATUS_H

#include <bson/bson.h>
#include <stdint.h>

#include "../../metrics.h"

/* The serverStatus values idxlab reads, all cumulative except the gauges. */
enum mongo_stat {
	MS_OP_INSERT,     /* opcounters.insert */
	MS_OP_UPDATE,     /* opcounters.update */
	MS_OP_DELETE,     /* opcounters.delete */
	MS_OP_COMMAND,    /* opcounters.command */
	MS_DIRTY_EVICTED, /* wiredTiger.cache "modified pages evicted": spills */
	MS_PAGES_READ,    /* wiredTiger.cache "pages read into cache": misses */
	MS_CACHE_BYTES,   /* wiredTiger.cache "bytes currently in the cache" (gauge) */
	MS_CACHE_DIRTY,   /* wiredTiger.cache "tracked dirty bytes in the cache" (gauge) */
	MS_CACHE_MAX,     /* wiredTiger.cache "maximum bytes configured" (gauge) */
	MS_LOG_SYNCS,     /* wiredTiger.log "log sync operations": journal fsyncs */
	MS_LOG_BYTES,     /* wiredTiger.log "log bytes written" */
	MS_FSYNC_IOS,     /* wiredTiger.connection "total fsync I/Os" (log + data files) */
	MS_CHECKPOINTS,   /* wiredTiger.transaction "transaction checkpoints" (newer
	                   * WiredTiger: wiredTiger.checkpoint "total succeed number
	                   * of checkpoints") */
	MS_PID,           /* pid of the server process */
	MS_QE_SCANNED,    /* metrics.queryExecutor.scanned: index keys queries examined */
	MS_QE_OBJECTS,    /* metrics.queryExecutor.scannedObjects: documents they examined */
	MS_COUNT
};

struct mongo_status {
	uint32_t have; /* bit (1u << MS_*): the value was in the document */
	uint64_t v[MS_COUNT];
	char version[32]; /* "7.0.14", or "" */
	char process[16]; /* "mongod" / "mongos", or "" */
	char host[256];   /* "hostname:port", or "" */
	char engine[32];  /* storageEngine.name: "wiredTiger", or "" */
};

/* Where value id lives, for messages: "wiredTiger.cache.modified pages evicted". */
const char *mongo_status_name(int id);

/* Read a serverStatus reply into out (cleared first). Numbers may be int32,
 * int64 or double; a negative or non-numeric value counts as absent.
 * 0, or -1 when doc is not a serverStatus reply at all (no "ok": 1 and no
 * "uptime"), with out left empty. */
int mongo_status_parse(const bson_t *doc, struct mongo_status *out);

/* Set the counters a serverStatus gives (C_SPILLS, C_MISSES, C_FSYNCS,
 * C_WAL_BYTES, C_CHECKPOINTS and the gauges C_CACHE_USED, C_CACHE_DIRTY,
 * C_CACHE_MAX) and their valid bits, from what s has. */
void mongo_status_counters(const struct mongo_status *s, struct counters *c);

/* The table of the values serverStatus gives, each with the counter it
 * feeds: the MongoDB engine's first .stats (engine.h). */
struct engine_stats;
extern const struct engine_stats mongo_status_stats;

/* Sizes from a $collStats document ({ "storageStats": {...} } or the
 * storageStats document itself). db_bytes: totalSize (or storageSize +
 * totalIndexSize on servers before 4.4); index_bytes: the sum of the
 * secondary indexes k1_1..k<nindexes>_1 (the _id index is the table's own,
 * as PostgreSQL's primary key is left out there); index_pages: each of those
 * in 4 KiB units, WiredTiger's allocation size. Absent values stay -1 / 0.
 * 0, or -1 when doc has no storage statistics. */
int mongo_collstats_sizes(const bson_t *doc, int nindexes, struct sizes *s);
/* The same for indexes named names[0..nindexes-1] (borrowed; at most
 * SIZES_MAX_INDEXES are read): the table spec's. */
int mongo_collstats_index_sizes(const bson_t *doc, const char *const *names, int nindexes,
                                struct sizes *s);

/* What served a find, from its explain reply ({ queryPlanner: {
 * winningPlan: ... } }, the classic plan tree or 7.0's { queryPlan: ... },
 * a sharded one's shards too): the name of the index its winning plan
 * scans into out ("_id_" for IDHACK, the _id index), or "scan" for a
 * collection scan. 1 an index, 0 a scan, -1 neither found (out ""). */
int mongo_explain_served(const bson_t *reply, char *out, size_t len);

#endif
