/* stats.c - the engine's counters and sizes.
 *
 * Counters (man idxlab, OUTPUT FIELDS) come from a statistics cursor on a session of their
 * own, by WT_STAT_CONN_* key, as one table says: where each statistic comes
 * from and the counter it feeds. They are 64-bit and cumulative for the
 * life of the connection, so nothing is reset. Besides the table:
 *   fsyncs      the interposer (probes/sync_count.c): WiredTiger syncs
 *               through libc, so its log syncs (LOG_SYNC), its file syncs
 *               (FSYNC_IO) and directory syncs are all counted exactly; the
 *               engine's own LOG_SYNC/FSYNC_IO go to the event log per table.
 *   wchar, write_bytes from /proc/self/io less the main thread's, which
 *               writes idxlab's own output (proc_io_read_engine).
 * Sizes are file sizes of the .wt files (like mongod's storageStats). A
 * file grows only when eviction or a checkpoint writes pages: a btree that
 * fits the cache is a few KiB on disk until then, whatever it holds. So a
 * step's end checkpoints (wt_settle, after the closing sample: outside the
 * window) and the sizes are the files' after it, what they are after exit.
 * Not a statistic instead: none tells a btree's size on disk before its
 * pages are written ("block-manager: file size in bytes" is the file;
 * "cache: bytes currently in the cache" the in-memory pages: 2.9 to 11.5 MB
 * per index of configs/wt-size-growth.conf at 100,000 rows against 1.55 MB
 * written; a tree walk counts in-memory pages, and a checkpoint changes
 * them). The next step loses nothing: its setup drops the tables and
 * checkpoints anyway, and the close's checkpoint has that much less to
 * write. The dashboard's live sizes are the files as last written (a
 * checkpoint every `checkpoint` seconds, eviction). index_pages are 4 KiB
 * units, WiredTiger's allocation size. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "../../evlog.h"
#include "../../mix.h"
#include "../../probes/proc_io.h"
#include "../../probes/sync_count.h"
#include "internal.h"

#define PAGE_UNIT 4096 /* WiredTiger's default allocation size */

/* Each statistic: the counter it feeds (C_COUNT: none, it is read for the
 * event log's per-table totals), its source on the statistics cursor, and
 * a statistic subtracted from it first (clamped at 0). */
static const struct {
	enum ctr counter;
	int source; /* WT_STAT_CONN_* */
	enum wt_stat less;
} stat_table[S_COUNT] = {
	/* "pages written from cache": eviction and, in a window flagged
	 * checkpoint_in_window, checkpoints. Not CACHE_EVICTION_DIRTY: that
	 * also counts in-memory splits of the page a sequential insert
	 * appends to, which are not writes. */
	[S_CACHE_WRITE] = { .counter = C_SPILLS, .source = WT_STAT_CONN_CACHE_WRITE },
	/* "pages read into cache" */
	[S_CACHE_READ] = { .counter = C_MISSES, .source = WT_STAT_CONN_CACHE_READ },
	/* hits: pages requested less pages read */
	[S_PAGES_REQUESTED] = { .counter = C_HITS,
	                        .source = WT_STAT_CONN_CACHE_PAGES_REQUESTED,
	                        .less = S_CACHE_READ },
	[S_LOG_BYTES] = { .counter = C_WAL_BYTES, .source = WT_STAT_CONN_LOG_BYTES_WRITTEN },
	[S_BLOCK_WRITE] = { .counter = C_DB_WRITE_BYTES, .source = WT_STAT_CONN_BLOCK_BYTE_WRITE },
	[S_CHECKPOINTS] = { .counter = C_CHECKPOINTS, .source = WT_STAT_CONN_TXN_CHECKPOINT },
	[S_LOG_SYNC] = { .counter = C_COUNT, .source = WT_STAT_CONN_LOG_SYNC },
	[S_FSYNC_IO] = { .counter = C_COUNT, .source = WT_STAT_CONN_FSYNC_IO },
	/* gauges */
	[S_CACHE_INUSE] = { .counter = C_CACHE_USED, .source = WT_STAT_CONN_CACHE_BYTES_INUSE },
	[S_CACHE_DIRTY] = { .counter = C_CACHE_DIRTY, .source = WT_STAT_CONN_CACHE_BYTES_DIRTY },
	[S_CACHE_MAX] = { .counter = C_CACHE_MAX, .source = WT_STAT_CONN_CACHE_BYTES_MAX },
};

int wt_read_stats(struct engine *en, uint64_t out[S_COUNT], struct err *e)
{
	int i, rc;

	if (!en->stat) {
		rc = en->ss->open_cursor(en->ss, "statistics:", NULL, NULL, &en->stat);
		if (rc)
			return wt_fail(en, e, "open the statistics cursor", rc);
	} else if ((rc = en->stat->reset(en->stat)) != 0) {
		return wt_fail(en, e, "refresh the statistics cursor", rc);
	}
	out[S_NONE] = 0;
	for (i = S_NONE + 1; i < S_COUNT; i++) {
		const char *desc, *pvalue;
		int64_t v = 0;

		en->stat->set_key(en->stat, stat_table[i].source);
		rc = en->stat->search(en->stat);
		if (rc == 0)
			rc = en->stat->get_value(en->stat, &desc, &pvalue, &v);
		if (rc)
			return wt_fail(en, e, "read a statistic", rc);
		out[i] = v < 0 ? 0 : (uint64_t)v;
	}
	return 0;
}

/* What the table cost since it was built: WiredTiger's own sync counts next
 * to the exact fsync+fdatasync count. */
void wt_log_table_totals(struct engine *en, const char *when)
{
	uint64_t now[S_COUNT];
	struct err e;

	if (!en->table || !en->probes || wt_read_stats(en, now, &e) < 0)
		return;
	evlog_add(EV_INFO,
	          "wiredtiger: %s: %llu log syncs, %llu fsync I/Os (WiredTiger's LOG_SYNC, "
	          "FSYNC_IO); %llu fsync+fdatasync calls; %llu checkpoints; %llu rollbacks "
	          "(%llu rows replayed); %.1f s",
	          when, (unsigned long long)(now[S_LOG_SYNC] - en->st_table[S_LOG_SYNC]),
	          (unsigned long long)(now[S_FSYNC_IO] - en->st_table[S_FSYNC_IO]),
	          (unsigned long long)(sync_count_total() - en->syncs_table),
	          (unsigned long long)(now[S_CHECKPOINTS] - en->st_table[S_CHECKPOINTS]),
	          (unsigned long long)en->rollbacks, (unsigned long long)en->replayed,
	          (double)(clock_now_ns() - en->table_t0) / 1e9);
}

int wt_sample(struct engine *en, struct counters *c, struct err *e)
{
	struct proc_io io;
	uint64_t v[S_COUNT];
	int i;

	c->v[C_FSYNCS] = sync_count_total();
	c->valid |= 1u << C_FSYNCS;
	/* rows examined: reads.c counts them; pages read per query: from the
	 * statistics, on a step of reads alone (a mix's writes read pages too) */
	c->valid |= 1u << C_READ_EXAMINED;
	if (en->probes && !mix_of(&en->k, NULL))
		c->valid |= 1u << C_READ_PAGES;
	if (!en->probes)
		return 0;
	if (wt_read_stats(en, v, e) < 0)
		return -1;
	wt_reads_pages(en, v[S_CACHE_READ], 0); /* a read step's: its queries' */
	for (i = S_NONE + 1; i < S_COUNT; i++) {
		enum ctr to = stat_table[i].counter;
		uint64_t less = v[stat_table[i].less];

		if (to == C_COUNT)
			continue;
		c->v[to] = v[i] > less ? v[i] - less : 0;
		c->valid |= 1u << to;
	}
	if (proc_io_read_engine(&io) == 0) {
		c->v[C_WCHAR] = io.wchar;
		c->v[C_WRITE_BYTES] = io.write_bytes;
		c->valid |= 1u << C_WCHAR | 1u << C_WRITE_BYTES;
	}
	return 0;
}

/* Its rows past S_NONE (not a statistic). */
const struct engine_stats wt_stats = { &stat_table[S_NONE + 1], S_COUNT - S_NONE - 1,
	                               sizeof stat_table[0],
	                               offsetof(__typeof__(stat_table[0]), counter) };

/* The reads' counters wt_sample makes valid (engine_measures reads this
 * table): rows examined always, pages read on a step of reads alone with
 * statistics on. */
static const struct {
	enum ctr counter;
} read_table[] = {
	{ .counter = C_READ_EXAMINED },
	{ .counter = C_READ_PAGES },
};

const struct engine_stats wt_query_stats = ENGINE_STATS(read_table, counter);

int wt_settle(struct engine *en, struct err *e)
{
	uint64_t t0 = clock_now_ns(), syncs = sync_count_total();
	int rc;

	if (!en->table)
		return 0;
	if ((rc = en->s->checkpoint(en->s, NULL)) != 0)
		return wt_fail(en, e, "checkpoint at the step's end (for its sizes)", rc);
	en->settled = 1;
	/* Outside every window, as the close's are: said apart. */
	evlog_detail("wiredtiger: a checkpoint at the step's end, outside its window, wrote its "
	             "btrees for the sizes: %llu fsync+fdatasync calls, %.2f s",
	             (unsigned long long)(sync_count_total() - syncs),
	             (double)(clock_now_ns() - t0) / 1e9);
	return 0;
}

static int64_t file_size(const struct engine *en, const char *uri)
{
	char p[PATH_MAX + 64];
	struct stat st;

	/* table:NAME lives in NAME.wt */
	snprintf(p, sizeof p, "%s/%s.wt", en->home, strchr(uri, ':') + 1);
	return stat(p, &st) == 0 ? (int64_t)st.st_size : 0;
}

int wt_sizes(struct engine *en, struct sizes *s, struct err *e)
{
	int i;

	(void)e;
	memset(s, 0, sizeof *s);
	s->db_bytes = s->index_bytes = -1;
	if (!en->table)
		return 0;
	if (!en->settled && !en->said_unsettled) { /* the dashboard's: no step ends */
		en->said_unsettled = 1;
		evlog_add(EV_INFO,
		          "wiredtiger: idx size and db size are the files as last written: a "
		          "btree in the cache reaches its file only at a checkpoint (every "
		          "`checkpoint` s) or by eviction");
	}
	s->db_bytes = file_size(en, COLL_URI);
	s->index_bytes = 0;
	for (i = 0; i <= en->nidx; i++) {
		int64_t b = file_size(en, en->ix[i].uri);

		s->db_bytes += b;
		if (i == 0)
			continue;
		s->index_bytes += b;
		if (i > SIZES_MAX_INDEXES) /* pages of the first 8; the bytes of all */
			continue;
		s->index_pages[i - 1] = (b + PAGE_UNIT - 1) / PAGE_UNIT;
		s->nindex = i;
	}
	return 0;
}
