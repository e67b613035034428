/* layout.h - how idxlab lays out and opens WiredTiger, the way mongod
 * does: shared by the engine (schema.c, driver.c) and the bare loop it is
 * benchmarked against (bench/bare_wt.c), so the two cannot drift apart. */
#ifndef IDXLAB_WT_LAYOUT_H
#define IDXLAB_WT_LAYOUT_H

#include <stdio.h>

/* The collection, keyed by record id; mongod's collection settings. */
#define WT_COLL_URI "table:collection-idxlab"
#define WT_COLL_CONFIG                                                                             \
	"key_format=q,value_format=u,memory_page_max=10m,split_pct=90,leaf_value_max=64MB,"        \
	"checksum=on"
/* Appended to an index table's key/value formats: mongod's index settings. */
#define WT_INDEX_CONFIG                                                                            \
	",internal_page_max=16k,leaf_page_max=16k,checksum=on,prefix_compression=true"

#define WT_MIN_CACHE (1024LL * 1024) /* WiredTiger refuses less */
/* A prefill's load (unmeasured): at least this cache, transactions of at
 * most these bytes and rows, the indexes filled from the collection after. */
#define WT_LOAD_CACHE        (256LL * 1024 * 1024)
#define WT_LOAD_TXN_BYTES    (8LL * 1024 * 1024)
#define WT_LOAD_TXN_ROWS     10000
#define WT_DIRTY_TARGET_PCT  5
#define WT_DIRTY_TRIGGER_PCT 20
#define WT_EVICT_TARGET_PCT  80
#define WT_EVICT_TRIGGER_PCT 95

/* The wiredtiger_open() configuration: mongod's settings where they matter
 * here (the journal, a checkpoint every `checkpoint` s, 4 eviction threads);
 * statistics "fast" or "none". Commit sync is chosen per commit. */
static inline void wt_open_config(char *buf, size_t len, long long cache, int stats,
                                  long long checkpoint)
{
	snprintf(buf, len,
	         "create,cache_size=%lld,config_base=false,use_environment=false,"
	         "statistics=(%s),log=(enabled=true,archive=true,file_max=100MB),"
	         "checkpoint=(wait=%lld),eviction=(threads_min=4,threads_max=4),"
	         "eviction_dirty_target=%d,eviction_dirty_trigger=%d,eviction_target=%d,"
	         "eviction_trigger=%d,transaction_sync=(enabled=true,method=fsync)",
	         cache, stats ? "fast" : "none", checkpoint, WT_DIRTY_TARGET_PCT,
	         WT_DIRTY_TRIGGER_PCT, WT_EVICT_TARGET_PCT, WT_EVICT_TRIGGER_PCT);
}

#endif
