/* stats.c - the engine's counters and sizes.
 *
 * Counters (metrics.md) come from a statistics cursor on a session of their
 * own, by WT_STAT_CONN_* key; they are 64-bit and cumulative for the life of
 * the connection, so nothing is reset:
 *   spills      CACHE_WRITE "pages written from cache" (eviction and, in a
 *               window flagged checkpoint_in_window, checkpoints). Not
 *               CACHE_EVICTION_DIRTY: that also counts in-memory splits of
 *               the page a sequential insert appends to, which are not writes.
 *   misses      CACHE_READ "pages read into cache"; hits = pages requested -
 *               pages read
 *   WAL bytes   LOG_BYTES_WRITTEN; database bytes: BLOCK_BYTE_WRITE
 *   checkpoints TXN_CHECKPOINT
 *   fsyncs      the interposer (probes/sync_count.c): WiredTiger syncs
 *               through libc, so its log syncs (LOG_SYNC), its file syncs
 *               (FSYNC_IO) and directory syncs are all counted exactly; the
 *               engine's own LOG_SYNC/FSYNC_IO go to the event log per table.
 *   wchar, write_bytes from /proc/self/io less the main thread's, which
 *               writes idxlab's own output (proc_io_read_engine).
 * Sizes are file sizes of the .wt files (like mongod's storageStats): they
 * grow when eviction or a checkpoint writes pages. index_pages are 4 KiB
 * units, WiredTiger's allocation size. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "../../evlog.h"
#include "../../probes/proc_io.h"
#include "../../probes/sync_count.h"
#include "internal.h"

#define PAGE_UNIT 4096 /* WiredTiger's default allocation size */

static const int stat_key[S_COUNT] = {
	[S_CACHE_WRITE] = WT_STAT_CONN_CACHE_WRITE,
	[S_CACHE_READ] = WT_STAT_CONN_CACHE_READ,
	[S_PAGES_REQUESTED] = WT_STAT_CONN_CACHE_PAGES_REQUESTED,
	[S_LOG_BYTES] = WT_STAT_CONN_LOG_BYTES_WRITTEN,
	[S_BLOCK_WRITE] = WT_STAT_CONN_BLOCK_BYTE_WRITE,
	[S_CHECKPOINTS] = WT_STAT_CONN_TXN_CHECKPOINT,
	[S_LOG_SYNC] = WT_STAT_CONN_LOG_SYNC,
	[S_FSYNC_IO] = WT_STAT_CONN_FSYNC_IO,
	[S_CACHE_INUSE] = WT_STAT_CONN_CACHE_BYTES_INUSE,
	[S_CACHE_DIRTY] = WT_STAT_CONN_CACHE_BYTES_DIRTY,
	[S_CACHE_MAX] = WT_STAT_CONN_CACHE_BYTES_MAX,
};

/* Read every counter of stat_key[] into out. */
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
	for (i = 0; i < S_COUNT; i++) {
		const char *desc, *pvalue;
		int64_t v = 0;

		en->stat->set_key(en->stat, stat_key[i]);
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
	          (double)(now_ns() - en->table_t0) / 1e9);
}

int wt_sample(struct engine *en, struct counters *c, struct err *e)
{
	struct proc_io io;
	uint64_t v[S_COUNT];

	c->v[C_FSYNCS] = sync_count_total();
	c->valid |= 1u << C_FSYNCS;
	if (!en->probes)
		return 0;
	if (wt_read_stats(en, v, e) < 0)
		return -1;
	c->v[C_SPILLS] = v[S_CACHE_WRITE];
	c->v[C_MISSES] = v[S_CACHE_READ];
	c->v[C_HITS] =
	    v[S_PAGES_REQUESTED] > v[S_CACHE_READ] ? v[S_PAGES_REQUESTED] - v[S_CACHE_READ] : 0;
	c->v[C_WAL_BYTES] = v[S_LOG_BYTES];
	c->v[C_DB_WRITE_BYTES] = v[S_BLOCK_WRITE];
	c->v[C_CHECKPOINTS] = v[S_CHECKPOINTS];
	c->v[C_CACHE_USED] = v[S_CACHE_INUSE];
	c->v[C_CACHE_DIRTY] = v[S_CACHE_DIRTY];
	c->v[C_CACHE_MAX] = v[S_CACHE_MAX];
	c->valid |= 1u << C_SPILLS | 1u << C_MISSES | 1u << C_HITS | 1u << C_WAL_BYTES |
	            1u << C_DB_WRITE_BYTES | 1u << C_CHECKPOINTS | 1u << C_CACHE_USED |
	            1u << C_CACHE_DIRTY | 1u << C_CACHE_MAX;
	if (proc_io_read_engine(&io) == 0) {
		c->v[C_WCHAR] = io.wchar;
		c->v[C_WRITE_BYTES] = io.write_bytes;
		c->valid |= 1u << C_WCHAR | 1u << C_WRITE_BYTES;
	}
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
	s->db_bytes = file_size(en, COLL_URI);
	s->index_bytes = 0;
	for (i = 0; i <= en->nidx; i++) {
		char uri[64];
		int64_t b;

		wt_idx_uri(i, uri, sizeof uri);
		b = file_size(en, uri);
		s->db_bytes += b;
		if (i == 0)
			continue;
		s->index_bytes += b;
		s->index_pages[i - 1] = (b + PAGE_UNIT - 1) / PAGE_UNIT; /* nidx <= 8 */
		s->nindex = i;
	}
	return 0;
}
