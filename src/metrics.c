/* metrics.c - the only place rates, ratios and percentiles are computed.
 *
 * A figure is n/a when a counter it needs is not measured by the engine, and
 * "unsettled" when its denominator is zero in the window (no rows, no
 * completed commit): neither is ever shown as a number. */
#include "metrics.h"

#include <math.h>
#include <string.h>

#define BIT(c) (1u << (c))

const enum ctr op_read_ctr[OP_READ_COUNTS] = { C_READ_ROWS, C_READ_EXAMINED, C_READ_PAGES };

const char *const ctr_names[C_COUNT] = {
	[C_ROWS] = "rows",
	[C_COMMITS] = "commits",
	[C_FSYNCS] = "fsyncs",
	[C_SPILLS] = "spills",
	[C_MISSES] = "misses",
	[C_HITS] = "hits",
	[C_WAL_BYTES] = "wal_bytes",
	[C_DB_WRITE_BYTES] = "db_write_bytes",
	[C_WCHAR] = "wchar",
	[C_WRITE_BYTES] = "write_bytes",
	[C_UPDATES] = "updates",
	[C_HOT_UPDATES] = "hot_updates",
	[C_FPI_BYTES] = "fpi_bytes",
	[C_CHECKPOINTS] = "checkpoints",
	[C_FPI_GAPS] = "fpi_gaps",
	[C_CACHE_USED] = "cache_used",
	[C_CACHE_DIRTY] = "cache_dirty",
	[C_CACHE_MAX] = "cache_max",
	[C_BG_SYNCS] = "bg_syncs",
	[C_FORCED_SYNCS] = "forced_syncs",
	[C_SERVER_SYNCS] = "server_syncs",
	[C_READS] = "reads",
	[C_READ_ROWS] = "read_rows",
	[C_READ_EXAMINED] = "read_examined",
	[C_READ_PAGES] = "read_pages",
	[C_READ_NS] = "read_ns",
	[C_WRITE_NS] = "write_ns",
	[C_WRITES] = "writes",
	[C_WRITES_TIMED] = "writes_timed",
};

const struct metric_def metric_table[M_COUNT] = {
	[M_SECONDS] = { "seconds", "sec", "s", MK_SECONDS, C_ROWS, 0, 3,
	                "length of the measured window", .title = "step time", .column = 11,
	                .text = { .order = 3, .pri = 12 } },
	[M_ROWS_PER_S] = { "rows_per_s", "rows/s", "", MK_RATE, C_ROWS, 0, 1,
	                   "operations completed per second", .better = BETTER_HIGHER,
	                   .title = "throughput", .per_s = " rows/s", .column = 12,
	                   .text = { .order = 4, .pri = 0, .width = 9, .progress = 1 } },
	[M_COMMITS] = { "commits", "commits", "", MK_COUNT, C_COMMITS, 0, 0,
	                "transactions committed in the window", .better = BETTER_HIGHER,
	                .title = "commits", .column = 13 },
	[M_COMMITS_PER_S] = { "commits_per_s", "commit/s", "", MK_RATE, C_COMMITS, 0, 1,
	                      "transactions committed per second", .better = BETTER_HIGHER,
	                      .title = "commit rate", .per_s = " commits/s", .column = 24 },
	[M_FSYNCS_PER_COMMIT] = { "fsyncs_per_commit", "fsync/c", "", MK_PER_COMMIT, C_FSYNCS, 0, 3,
	                          "fsyncs per commit (embedded engines: this process's calls, "
	                          "exact; PostgreSQL: the WAL syncs its backends made running "
	                          "COMMIT; MongoDB: the server's count)",
	                          .better = BETTER_LOWER, .title = "fsyncs per commit",
	                          .column = 14, .text = { .order = 5, .pri = 4, .progress = 1 } },
	[M_SPILLS_PER_ROW] = { "spills_per_row", "spill/row", "", MK_PER_ROW, C_SPILLS, 0, 4,
	                       "dirty pages pushed out of a full cache mid-transaction, per row",
	                       .better = BETTER_LOWER, .title = "cache spills per row",
	                       .column = 15, .text = { .order = 6, .pri = 5, .progress = 1 } },
	[M_MISSES_PER_ROW] = { "misses_per_row", "miss/row", "", MK_PER_ROW, C_MISSES, 0, 4,
	                       "pages not found in the cache, per row", .better = BETTER_LOWER,
	                       .title = "cache misses per row", .column = 16,
	                       .text = { .order = 7, .pri = 9 } },
	[M_WAL_BYTES_PER_ROW] = { "wal_bytes_per_row", "wal B/row", "B", MK_PER_ROW, C_WAL_BYTES, 0,
	                          1, "bytes written to the journal or WAL per row",
	                          .better = BETTER_LOWER, .title = "WAL/journal written per row",
	                          .column = 17, .text = { .order = 8, .pri = 3, .progress = 1 } },
	[M_DB_WRITE_BYTES_PER_ROW] = { "db_write_bytes_per_row", "db B/row", "B", MK_PER_ROW,
	                               C_DB_WRITE_BYTES, 0, 1,
	                               "bytes written to the database file itself per row",
	                               .better = BETTER_LOWER,
	                               .title = "database file written per row", .column = 25 },
	[M_WCHAR_PER_ROW] = { "wchar_per_row", "write() B/row", "B", MK_PER_ROW, C_WCHAR, 0, 1,
	                      "bytes handed to write() per row: rewrites the kernel absorbs "
	                      "count",
	                      .better = BETTER_LOWER, .title = "write() per row", .column = 18,
	                      .text = { .order = 9,
	                                .pri = 10,
	                                .label = "wr() B/row",
	                                .progress = 1 } },
	[M_WRITE_BYTES_PER_ROW] = { "write_bytes_per_row", "dev B/row", "B", MK_PER_ROW,
	                            C_WRITE_BYTES, 0, 1,
	                            "bytes bound for the device per row (/proc io write_bytes)",
	                            .better = BETTER_LOWER, .title = "device writes per row",
	                            .column = 19, .text = { .order = 10, .pri = 13 } },
	[M_P50_MS] = { "p50_ms", "p50 ms", "s", MK_QUANTILE, C_COMMITS, 0.50, 4,
	               "median commit latency (begin to commit returned)", .better = BETTER_LOWER,
	               .title = "p50 commit latency", .column = 20,
	               .text = { .order = 13, .pri = 15, .progress = 1 } },
	[M_P99_MS] = { "p99_ms", "p99 ms", "s", MK_QUANTILE, C_COMMITS, 0.99, 4,
	               "99th percentile commit latency", .better = BETTER_LOWER,
	               .title = "p99 commit latency", .column = 21,
	               .text = { .order = 14, .pri = 2, .progress = 1 } },
	[M_MAX_MS] = { "max_ms", "max ms", "s", MK_MAX, C_COMMITS, 0, 4,
	               "slowest commit in the window", .better = BETTER_LOWER,
	               .title = "max commit latency", .column = 26 },
	[M_DB_BYTES] = { "db_bytes", "db size", "B", MK_DB_BYTES, C_ROWS, 0, 0,
	                 "database size at the end of the step", .title = "database size",
	                 .column = 22, .text = { .order = 15, .pri = 14, .width = 9 } },
	[M_INDEX_BYTES] = { "index_bytes", "idx size", "B", MK_INDEX_BYTES, C_ROWS, 0, 0,
	                    "bytes in the secondary indexes at the end of the step",
	                    .title = "index size", .column = 23,
	                    .text = { .order = 16, .pri = 6, .width = 9 } },
	[M_FSYNCS_TOTAL] = { "fsyncs_total", "fsyncs", "", MK_TOTAL, C_FSYNCS, 0, 0,
	                     "fsyncs counted so far: this process's fsync/fdatasync calls for "
	                     "embedded engines (equal to strace -f -c), PostgreSQL's commits' "
	                     "WAL syncs, MongoDB's count",
	                     .title = "fsyncs", .column = 27 },
	[M_HOT_PCT] = { .field = "hot_pct",
	                .label = "HOT %",
	                .unit = "",
	                .kind = MK_PCT,
	                .num = C_HOT_UPDATES,
	                .den = C_UPDATES,
	                .decimals = 1,
	                .why = "updates that stayed on their page and wrote no index entry",
	                .better = BETTER_HIGHER,
	                .title = "HOT updates",
	                .column = 28,
	                .text = { .order = 11, .pri = 7 } },
	[M_FPI_BYTES_PER_ROW] = { .field = "fpi_bytes_per_row",
	                          .label = "srv FPI B/row",
	                          .unit = "B",
	                          .kind = MK_PER_ROW,
	                          .num = C_FPI_BYTES,
	                          .decimals = 1,
	                          .why = "full-page images per row, the whole server's (every "
	                                 "session's, autovacuum's too): the first write to a "
	                                 "page after a checkpoint logs the whole page",
	                          .better = BETTER_LOWER,
	                          .title = "full-page images per row (whole server)",
	                          .column = 29,
	                          .text = { .order = 12, .pri = 8 } },
	[M_CHECKPOINT_IN_WINDOW] = { .field = "checkpoint_in_window",
	                             .label = "ckpt",
	                             .unit = "",
	                             .kind = MK_FLAG,
	                             .num = C_CHECKPOINTS,
	                             .decimals = 0,
	                             .why = "1 when a checkpoint completed inside the window "
	                                    "(its full-page images inflate WAL)",
	                             .title = "checkpoint in window",
	                             .column = 30 },
	[M_CACHE_BYTES] = { .field = "cache_bytes",
	                    .label = "cache used",
	                    .unit = "B",
	                    .kind = MK_GAUGE,
	                    .num = C_CACHE_USED,
	                    .decimals = 0,
	                    .why = "bytes the engine's cache holds at the end of the window",
	                    .title = "cache used",
	                    .column = 39 },
	[M_CACHE_DIRTY_PCT] = { .field = "cache_dirty_pct",
	                        .label = "dirty %",
	                        .unit = "",
	                        .kind = MK_GAUGE_PCT,
	                        .num = C_CACHE_DIRTY,
	                        .den = C_CACHE_MAX,
	                        .decimals = 1,
	                        .why = "modified bytes in the cache as a share of its size: "
	                               "WiredTiger evicts them past its dirty target, and "
	                               "makes the workload do it past the trigger",
	                        .title = "cache dirty",
	                        .column = 40 },
	[M_BG_SYNCS_PER_S] = { .field = "bg_wal_syncs_per_s",
	                       .label = "bg fsync/s",
	                       .unit = "",
	                       .kind = MK_RATE,
	                       .num = C_BG_SYNCS,
	                       .decimals = 1,
	                       .why = "the WAL writer's background flushes per second "
	                              "(PostgreSQL, every wal_writer_delay while WAL is "
	                              "written): not the commits', counted apart",
	                       .better = BETTER_LOWER,
	                       .title = "background WAL flushes",
	                       .per_s = " fsyncs/s",
	                       .column = 52,
	                       .text = { .order = 5, .pri = 5 } },
	[M_FORCED_SYNCS_PER_ROW] = { .field = "forced_wal_syncs_per_row",
	                             .label = "forced/row",
	                             .unit = "",
	                             .kind = MK_PER_ROW,
	                             .num = C_FORCED_SYNCS,
	                             .decimals = 4,
	                             .why = "WAL flushes forced outside commits, per row: a "
	                                    "dirty page evicted (its WAL must reach disk "
	                                    "first), full WAL buffers, the checkpointer, "
	                                    "autovacuum",
	                             .better = BETTER_LOWER,
	                             .title = "WAL flushes forced per row",
	                             .column = 53,
	                             .text = { .order = 5, .pri = 16 } },
	[M_SERVER_SYNCS_PER_S] = { .field = "server_wal_syncs_per_s",
	                           .label = "srv fsync/s",
	                           .unit = "",
	                           .kind = MK_RATE,
	                           .num = C_SERVER_SYNCS,
	                           .decimals = 1,
	                           .why = "the whole server's WAL syncs per second "
	                                  "(pg_stat_wal.wal_sync: commits, background, "
	                                  "forced, every session's)",
	                           .better = BETTER_LOWER,
	                           .title = "server WAL syncs",
	                           .per_s = " fsyncs/s",
	                           .column = 54 },
	/* The reads (issue 22): a read step's latencies are its queries'
	 * (each timed from its statement sent to its last row fetched), so
	 * p50_ms and the rest, a commit's, are n/a on it (record_own.c). */
	[M_READS_PER_S] = { .field = "reads_per_s",
	                    .label = "reads/s",
	                    .unit = "",
	                    .kind = MK_RATE,
	                    .num = C_READS,
	                    .decimals = 0,
	                    .why = "queries per second (op lookup, range), their rows fetched",
	                    .better = BETTER_HIGHER,
	                    .title = "throughput",
	                    .per_s = " queries/s",
	                    .column = 68,
	                    .text = { .order = 20, .pri = 3, .progress = 1 } },
	[M_READ_P50_MS] = { .field = "read_p50_ms",
	                    .label = "read p50 ms",
	                    .unit = "s",
	                    .kind = MK_QUANTILE,
	                    .num = C_READS,
	                    .q = 0.50,
	                    .decimals = 4,
	                    .why = "median query latency: the statement sent to its last row "
	                           "fetched",
	                    .better = BETTER_LOWER,
	                    .title = "median query latency",
	                    .column = 69,
	                    .text = { .order = 21, .pri = 4 } },
	[M_READ_P99_MS] = { .field = "read_p99_ms",
	                    .label = "read p99 ms",
	                    .unit = "s",
	                    .kind = MK_QUANTILE,
	                    .num = C_READS,
	                    .q = 0.99,
	                    .decimals = 4,
	                    .why = "99th percentile query latency",
	                    .better = BETTER_LOWER,
	                    .title = "p99 query latency",
	                    .column = 70,
	                    .text = { .order = 22, .pri = 5 } },
	[M_ROWS_RETURNED_PER_QUERY] = { .field = "rows_returned_per_query",
	                                .label = "rows/query",
	                                .unit = "",
	                                .kind = MK_PER,
	                                .num = C_READ_ROWS,
	                                .den = C_READS,
	                                .decimals = 2,
	                                .why = "rows a query returned",
	                                .title = "rows returned per query",
	                                .column = 71,
	                                .text = { .order = 23, .pri = 9 } },
	[M_ROWS_EXAMINED_PER_QUERY] = { .field = "rows_examined_per_query",
	                                .label = "examined/q",
	                                .unit = "",
	                                .kind = MK_PER,
	                                .num = C_READ_EXAMINED,
	                                .den = C_READS,
	                                .decimals = 1,
	                                .why = "rows the engine looked at to answer a query (a "
	                                       "full scan: every row)",
	                                .better = BETTER_LOWER,
	                                .title = "rows examined per query",
	                                .column = 72,
	                                .text = { .order = 24, .pri = 4 } },
	[M_PAGES_READ_PER_QUERY] = { .field = "pages_read_per_query",
	                             .label = "pages/q",
	                             .unit = "",
	                             .kind = MK_PER,
	                             .num = C_READ_PAGES,
	                             .den = C_READS,
	                             .decimals = 2,
	                             .why = "pages a query read into the engine's cache (its "
	                                    "cache misses)",
	                             .better = BETTER_LOWER,
	                             .title = "pages read per query",
	                             .column = 73,
	                             .text = { .order = 25, .pri = 8 } },
	[M_READ_MS_PER_QUERY] = { .field = "read_ms_per_query",
	                          .label = "read ms/q",
	                          .unit = "",
	                          .kind = MK_PER_MS,
	                          .num = C_READ_NS,
	                          .den = C_READS,
	                          .decimals = 4,
	                          .why = "a mix: the mean time of a query, its rows fetched",
	                          .better = BETTER_LOWER,
	                          .title = "time per query (ms)",
	                          .column = 77,
	                          .text = { .order = 26, .pri = 3 } },
	[M_WRITE_MS_PER_ROW] = { .field = "write_ms_per_row",
	                         .label = "write ms/row",
	                         .unit = "",
	                         .kind = MK_PER_MS,
	                         .num = C_WRITE_NS,
	                         .den = C_WRITES,
	                         .decimals = 4,
	                         .why = "a mix: the mean time of a write operation, its share "
	                                "of the commits included",
	                         .better = BETTER_LOWER,
	                         .title = "time per write (ms)",
	                         .column = 78,
	                         .text = { .order = 27, .pri = 3 } },
	[M_MIX_MS_PER_1000_OPS] = { .field = "mix_ms_per_1000_ops",
	                            .label = "ms/1k ops",
	                            .unit = "",
	                            .kind = MK_KOPS_MS,
	                            .num = C_ROWS,
	                            .decimals = 2,
	                            .why = "a mix: the time 1,000 of its operations take, "
	                                   "reads and writes as drawn (the step's seconds over "
	                                   "its operations)",
	                            .better = BETTER_LOWER,
	                            .title = "time per 1,000 operations",
	                            .column = 79,
	                            .text = { .order = 28, .pri = 2 } },
	[M_READ_MAX_MS] = { .field = "read_max_ms",
	                    .label = "read max ms",
	                    .unit = "s",
	                    .kind = MK_MAX,
	                    .num = C_READS,
	                    .decimals = 4,
	                    .why = "the slowest query",
	                    .better = BETTER_LOWER,
	                    .title = "max query latency",
	                    .column = 84 },
	[M_WRITES_PER_S] = { .field = "writes_per_s",
	                     .label = "writes/s",
	                     .unit = "",
	                     .kind = MK_RATE,
	                     .num = C_WRITES,
	                     .decimals = 0,
	                     .why = "a mix: its write operations per second (rows_per_s "
	                            "counts every operation)",
	                     .better = BETTER_HIGHER,
	                     .title = "write throughput",
	                     .per_s = " writes/s",
	                     .column = 85 },
	/* a mix's write operations, each timed alone (its commit apart) */
	[M_WRITE_P50_MS] = { .field = "write_p50_ms",
	                     .label = "write p50 ms",
	                     .unit = "s",
	                     .kind = MK_QUANTILE,
	                     .num = C_WRITES_TIMED,
	                     .q = 0.50,
	                     .decimals = 4,
	                     .why = "a mix: the median write operation, its statement alone",
	                     .better = BETTER_LOWER,
	                     .title = "median write latency",
	                     .column = 86 },
	[M_WRITE_P99_MS] = { .field = "write_p99_ms",
	                     .label = "write p99 ms",
	                     .unit = "s",
	                     .kind = MK_QUANTILE,
	                     .num = C_WRITES_TIMED,
	                     .q = 0.99,
	                     .decimals = 4,
	                     .why = "a mix: the 99th percentile write operation",
	                     .better = BETTER_LOWER,
	                     .title = "p99 write latency",
	                     .column = 87 },
	[M_WRITE_MAX_MS] = { .field = "write_max_ms",
	                     .label = "write max ms",
	                     .unit = "s",
	                     .kind = MK_MAX,
	                     .num = C_WRITES_TIMED,
	                     .decimals = 4,
	                     .why = "a mix: the slowest write operation",
	                     .better = BETTER_LOWER,
	                     .title = "max write latency",
	                     .column = 88 },
};

/* Bucket of a duration: exact below HIST_SUB ns, then 16 per power of two. */
static int bucket_of(uint64_t ns)
{
	int e, sub;

	if (ns < HIST_SUB)
		return (int)ns;
	e = 63 - __builtin_clzll(ns); /* ns in [2^e, 2^(e+1)) with e >= 4 */
	sub = (int)((ns >> (e - 4)) & (HIST_SUB - 1));
	return (e - 3) * HIST_SUB + sub;
}

/* The [lo, hi) range of bucket i, in ns. */
static void bucket_range(int i, double *lo, double *hi)
{
	int e, sub;

	if (i < HIST_SUB) {
		*lo = i;
		*hi = i + 1;
		return;
	}
	e = i / HIST_SUB + 3;
	sub = i % HIST_SUB;
	*lo = ldexp(HIST_SUB + sub, e - 4);
	*hi = ldexp(HIST_SUB + sub + 1, e - 4);
}

void hist_add(struct hist *h, uint64_t ns)
{
	int b = bucket_of(ns);

	if (b >= HIST_BUCKETS)
		b = HIST_BUCKETS - 1;
	h->b[b]++;
	h->n++;
	if (ns > h->max_ns)
		h->max_ns = ns;
}

void hist_delta(const struct hist *a, const struct hist *b, struct hist *d)
{
	int i;

	for (i = 0; i < HIST_BUCKETS; i++)
		d->b[i] = a->b[i] - b->b[i];
	d->n = a->n - b->n;
	d->max_ns = a->max_ns;
	/* The window's own max: the top non-empty bucket bounds it. */
	if (d->n) {
		for (i = HIST_BUCKETS - 1; i >= 0 && !d->b[i]; i--)
			;
		if (i >= 0) {
			double lo, hi;

			bucket_range(i, &lo, &hi);
			if ((double)d->max_ns >= hi)
				d->max_ns = (uint64_t)hi - 1;
		}
	} else {
		d->max_ns = 0;
	}
}

void lats_delta(const struct lats *a, const struct lats *b, struct lats *d)
{
	hist_delta(&a->commit, &b->commit, &d->commit);
	hist_delta(&a->query, &b->query, &d->query);
	hist_delta(&a->write, &b->write, &d->write);
}

const struct hist *lats_for(const struct lats *l, int m)
{
	const struct metric_def *d = &metric_table[m];

	if (d->kind != MK_QUANTILE && d->kind != MK_MAX)
		return NULL;
	return d->num == C_READS ? &l->query : d->num == C_WRITES_TIMED ? &l->write : &l->commit;
}

double hist_quantile(const struct hist *h, double q)
{
	uint64_t rank, seen = 0;
	int i;

	if (!h->n)
		return NAN;
	rank = (uint64_t)ceil(q * (double)h->n);
	if (rank < 1)
		rank = 1;
	for (i = 0; i < HIST_BUCKETS; i++) {
		seen += h->b[i];
		if (seen >= rank) {
			double lo, hi, mid;

			bucket_range(i, &lo, &hi);
			mid = i < HIST_SUB ? lo : (lo + hi) / 2;
			return mid > (double)h->max_ns ? (double)h->max_ns : mid;
		}
	}
	return (double)h->max_ns;
}

struct mval metrics_ratio(double num, double den)
{
	struct mval r = { MV_UNSETTLED, 0 };

	if (den > 0) {
		r.state = MV_OK;
		r.v = num / den;
	}
	return r;
}

/* A counter whose source can be lost (the WAL it is read from recycled
 * before it was read), and the count of such losses: a window with a loss
 * in it has no figure (0 means none: C_ROWS is never lost). */
static const enum ctr lost_in[C_COUNT] = { [C_FPI_BYTES] = C_FPI_GAPS };

static struct mval na(void)
{
	struct mval r = { MV_NA, 0 };

	return r;
}

unsigned metric_needs(int m)
{
	const struct metric_def *d = &metric_table[m];

	switch (d->kind) {
	case MK_SECONDS:
	case MK_QUANTILE:
	case MK_MAX:
	case MK_DB_BYTES:
	case MK_INDEX_BYTES:
		return 0;
	case MK_PER_ROW:
		return 1u << d->num | 1u << C_ROWS;
	case MK_PER_COMMIT:
		return 1u << d->num | 1u << C_COMMITS;
	case MK_PCT:
	case MK_PER:
	case MK_PER_MS:
	case MK_GAUGE_PCT:
		return 1u << d->num | 1u << d->den;
	default:
		return 1u << d->num;
	}
}

struct mval metric_compute(int m, const struct window *w)
{
	const struct metric_def *d = &metric_table[m];
	const struct counters *a = w->a, *b = w->b;
	double secs = b->t - a->t;
	double num = (double)(b->v[d->num] - a->v[d->num]);
	double rows = (double)(b->v[C_ROWS] - a->v[C_ROWS]);
	double commits = (double)(b->v[C_COMMITS] - a->v[C_COMMITS]);
	uint32_t valid = a->valid & b->valid;
	struct mval r = { MV_OK, 0 };
	const struct hist *h = w->lat ? lats_for(w->lat, m) : NULL;

	if (!(valid & BIT(d->num)))
		return na();
	if (lost_in[d->num] && b->v[lost_in[d->num]] != a->v[lost_in[d->num]])
		return na();
	switch (d->kind) {
	case MK_SECONDS:
		r.v = secs;
		return r;
	case MK_COUNT:
		r.v = num;
		return r;
	case MK_RATE:
		return metrics_ratio(num, secs);
	case MK_PER_ROW:
		return metrics_ratio(num, rows);
	case MK_PER_COMMIT:
		return metrics_ratio(num, commits);
	case MK_QUANTILE:
		if (!h || !h->n)
			return metrics_ratio(0, 0);
		r.v = hist_quantile(h, d->q) / 1e6;
		return r;
	case MK_KOPS_MS:
		return metrics_ratio(secs * 1e6, rows);
	case MK_PER_MS:
		if (!(valid & BIT(d->den)))
			return na();
		return metrics_ratio(num / 1e6, (double)(b->v[d->den] - a->v[d->den]));
	case MK_PCT:
	case MK_PER:
		if (!(valid & BIT(d->den)))
			return na();
		r = metrics_ratio(num * (d->kind == MK_PCT ? 100.0 : 1.0),
		                  (double)(b->v[d->den] - a->v[d->den]));
		return r;
	case MK_GAUGE:
		r.v = (double)b->v[d->num];
		return r;
	case MK_GAUGE_PCT:
		if (!(valid & BIT(d->den)))
			return na();
		return metrics_ratio(100.0 * (double)b->v[d->num], (double)b->v[d->den]);
	case MK_FLAG:
		r.v = num > 0;
		return r;
	case MK_TOTAL:
		r.v = (double)b->v[d->num];
		return r;
	case MK_MAX:
		if (!h || !h->n)
			return metrics_ratio(0, 0);
		r.v = (double)h->max_ns / 1e6;
		return r;
	case MK_DB_BYTES:
		if (!w->sizes || w->sizes->db_bytes < 0)
			return na();
		r.v = (double)w->sizes->db_bytes;
		return r;
	case MK_INDEX_BYTES:
		if (!w->sizes || w->sizes->index_bytes < 0)
			return na();
		r.v = (double)w->sizes->index_bytes;
		return r;
	}
	return na();
}
