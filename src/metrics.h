/* metrics.h - cumulative counters, the latency histogram and all rate maths.
 *
 * Probes and engines only ever produce CUMULATIVE counters (struct counters)
 * and a cumulative histogram of commit latencies. Every figure a user sees -
 * per row, per commit, per second, percentiles - is computed here from the
 * difference of two samples, so headless output and the dashboard agree. */
#ifndef IDXLAB_METRICS_H
#define IDXLAB_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "vocab.h"

enum ctr {
	C_ROWS,           /* operations completed (rows inserted/updated/deleted) */
	C_COMMITS,        /* transactions committed */
	C_FSYNCS,         /* fsync + fdatasync calls, exact (PostgreSQL: its commits' WAL syncs) */
	C_SPILLS,         /* dirty pages written mid-transaction (cache overflow) */
	C_MISSES,         /* page cache misses */
	C_HITS,           /* page cache hits */
	C_WAL_BYTES,      /* bytes written to the journal / WAL */
	C_DB_WRITE_BYTES, /* bytes written to the database file itself */
	C_WCHAR,          /* bytes passed to write() and friends (/proc io wchar) */
	C_WRITE_BYTES,    /* bytes the process caused to be sent to the device */
	C_UPDATES,        /* rows updated, as the engine counts them */
	C_HOT_UPDATES,    /* of those, heap-only (no index entry written) */
	C_FPI_BYTES,      /* full-page-image bytes inside the WAL bytes */
	C_CHECKPOINTS,    /* checkpoints completed */
	C_FPI_GAPS,       /* times WAL went before its full-page images were counted */
	/* Gauges: the value at the sample, not a running total. */
	C_CACHE_USED,  /* bytes the engine's cache holds */
	C_CACHE_DIRTY, /* of those, modified and not yet written */
	C_CACHE_MAX,   /* the size the cache is configured to */
	/* Counters again (appended). A server's WAL syncs that are not a
	 * commit's (C_FSYNCS counts those on PostgreSQL): */
	C_BG_SYNCS,     /* the WAL writer's background flushes */
	C_FORCED_SYNCS, /* the rest: evictions, full WAL buffers, other processes */
	C_SERVER_SYNCS, /* the whole server's count (pg_stat_wal.wal_sync) */
	/* The reads (op lookup, range; issue 22): */
	C_READS,         /* queries run */
	C_READ_ROWS,     /* rows they returned */
	C_READ_EXAMINED, /* rows the engine examined to answer them */
	C_READ_PAGES,    /* pages they read into the engine's cache (its misses) */
	C_READ_NS,       /* nanoseconds the queries took (in a mix) */
	C_WRITE_NS,      /* a mix's write operations' nanoseconds, its commits' too */
	C_WRITES,        /* a mix's write operations */
	C_WRITES_TIMED,  /* those timed one by one (an engine that waits for each) */
	C_COUNT
};

/* Each counter's name in recordings ("rows", "wal_bytes", ...). */
extern const char *const ctr_names[C_COUNT];

/* The reads' counts kept by read kind too (counters.op_read). */
enum op_read { OP_READ_ROWS, OP_READ_EXAMINED, OP_READ_PAGES, OP_READ_COUNTS };
extern const enum ctr op_read_ctr[OP_READ_COUNTS]; /* C_READ_ROWS ... */

struct counters {
	double t; /* CLOCK_MONOTONIC seconds */
	uint64_t v[C_COUNT];
	uint32_t valid; /* bit (1u << ctr): the engine/probes measure it */
	/* Set before sample(): the counters the caller reads of this sample,
	 * bits as valid's (0: every one). An engine may leave out a source none
	 * of whose counters is wanted when reading it costs (PostgreSQL's WAL
	 * look, which catches up at the next sample that wants it). */
	uint32_t want;
	/* A mix's operations by op kind (enum op_kind), and the nanoseconds
	 * of those timed one by one (op_timed, bits 1u << op: a read always,
	 * a write where the engine waits for each); a commit's time is in
	 * none. Cumulative like v[]; all 0 outside a mix and in a recording. */
	uint64_t op_n[OP_COUNT], op_ns[OP_COUNT];
	unsigned op_timed;
	/* Of a mix's queries, by read kind: what C_READ_ROWS, C_READ_EXAMINED
	 * and C_READ_PAGES count (OP_READ_ROWS ...), as the engine's op hook
	 * counted them (one that reads a count from statistics at a sample
	 * adds none here). */
	uint64_t op_read[OP_READ_COUNTS][OP_COUNT];
};

/* Histogram of durations in nanoseconds: 16 linear sub-buckets per power of
 * two, so any percentile is within 1/16 (6.25 %) of the true value. */
#define HIST_SUB     16
#define HIST_BUCKETS (64 * HIST_SUB)
struct hist {
	uint64_t n;
	uint64_t max_ns;
	uint64_t b[HIST_BUCKETS];
};

void hist_add(struct hist *h, uint64_t ns);
/* d = a - b (a is the later cumulative histogram); d->max_ns is a's max. */
void hist_delta(const struct hist *a, const struct hist *b, struct hist *d);
/* The q-quantile (0..1) in ns: the midpoint of the bucket holding it. */
double hist_quantile(const struct hist *h, double q);

/* A step's latencies: its commits' (begin to commit returned), its
 * queries' (op lookup, range, a mix's reads: the statement sent to its
 * last row fetched) and a mix's write operations' (each statement, its
 * commit not in it), apart, so a mix has each. */
struct lats {
	struct hist commit, query, write;
};
/* d = a - b, each histogram (hist_delta). */
void lats_delta(const struct lats *a, const struct lats *b, struct lats *d);
/* The histogram of l metric m reads (a query latency's: those counted in
 * C_READS; a mix's write's: C_WRITES_TIMED; another's: the commits');
 * NULL: m is no latency. */
const struct hist *lats_for(const struct lats *l, int m);

/* Sizes measured at the end of a step (not cumulative). */
#define SIZES_MAX_INDEXES 8
struct sizes {
	int64_t db_bytes;    /* -1: unknown */
	int64_t index_bytes; /* -1: unknown */
	int nindex;
	int64_t index_pages[SIZES_MAX_INDEXES];
};

/* The state of a computed figure. */
enum mstate {
	MV_OK,
	MV_NA,        /* the engine cannot measure it: shown as n/a, never 0 */
	MV_UNSETTLED, /* the window has no rows / no completed commit yet */
};

struct mval {
	enum mstate state;
	double v;
};

/* What a metric is computed from. */
enum mkind {
	MK_SECONDS,    /* window length */
	MK_COUNT,      /* delta of num */
	MK_RATE,       /* delta num / seconds */
	MK_PER_ROW,    /* delta num / delta rows */
	MK_PER_COMMIT, /* delta num / delta commits */
	MK_QUANTILE,   /* latency quantile q, milliseconds */
	MK_MAX,        /* latency max, milliseconds */
	MK_TOTAL,      /* the cumulative counter itself at the window's end */
	MK_PCT,        /* 100 * delta num / delta den */
	MK_PER,        /* delta num / delta den (per query) */
	MK_PER_MS,     /* delta num (ns) / delta den, in milliseconds */
	MK_KOPS_MS,    /* milliseconds per 1,000 operations (rows) */
	MK_GAUGE,      /* gauge num at the window's end */
	MK_GAUGE_PCT,  /* 100 * gauge num / gauge den at the window's end */
	MK_FLAG,       /* 1 if num moved in the window, else 0 */
	MK_DB_BYTES,   /* sizes.db_bytes */
	MK_INDEX_BYTES /* sizes.index_bytes */
};

enum metric_id {
	M_SECONDS,
	M_ROWS_PER_S,
	M_COMMITS,
	M_COMMITS_PER_S,
	M_FSYNCS_PER_COMMIT,
	M_SPILLS_PER_ROW,
	M_MISSES_PER_ROW,
	M_WAL_BYTES_PER_ROW,
	M_DB_WRITE_BYTES_PER_ROW,
	M_WCHAR_PER_ROW,
	M_WRITE_BYTES_PER_ROW,
	M_P50_MS,
	M_P99_MS,
	M_MAX_MS,
	M_DB_BYTES,
	M_INDEX_BYTES,
	M_FSYNCS_TOTAL,
	M_HOT_PCT,
	M_FPI_BYTES_PER_ROW,
	M_CHECKPOINT_IN_WINDOW,
	M_CACHE_BYTES,
	M_CACHE_DIRTY_PCT,
	M_BG_SYNCS_PER_S,
	M_FORCED_SYNCS_PER_ROW,
	M_SERVER_SYNCS_PER_S,
	/* the reads (issue 22) */
	M_READS_PER_S,
	M_READ_P50_MS,
	M_READ_P99_MS,
	M_ROWS_RETURNED_PER_QUERY,
	M_ROWS_EXAMINED_PER_QUERY,
	M_PAGES_READ_PER_QUERY,
	/* a mix (issue 22): the time each kind of operation took */
	M_READ_MS_PER_QUERY,
	M_WRITE_MS_PER_ROW,
	M_MIX_MS_PER_1000_OPS,
	M_READ_MAX_MS,
	M_WRITES_PER_S,
	M_WRITE_P50_MS,
	M_WRITE_P99_MS,
	M_WRITE_MAX_MS,
	M_COUNT
};

/* Which way a metric gets better: the dashboard colours and marks a ratio
 * now/baseline by it (rows/s 0.26x is worse, p99 0.26x better). */
enum better {
	BETTER_NONE,   /* neither: a size, a gauge, a flag */
	BETTER_HIGHER, /* more is better (throughput, HOT %) */
	BETTER_LOWER,  /* less is better (latency, I/O per row) */
};

/* How a figure shows in the headless text table (report_text.c) when no
 * --fields picks the columns: its place among the table's default columns
 * (order from 1, left to right; 0: not one of them), which stay when they
 * do not all fit (pri: 0 stays first), its header (NULL: the label), its
 * least width (0: 7), and whether a run's progress line names it. */
struct text_place {
	int order, pri, width;
	const char *label;
	int progress;
};

struct metric_def {
	const char *field; /* CSV/JSON field name: a contract */
	const char *label; /* short column label */
	const char *unit;  /* "", "B", "s" for units_human */
	enum mkind kind;
	enum ctr num;
	double q;     /* MK_QUANTILE */
	int decimals; /* in CSV/JSON/text */
	const char *why;
	enum ctr den; /* MK_PCT, MK_GAUGE_PCT */
	enum better better;
	/* A --plot panel's title: what the metric is, never its unit (the
	 * ticks carry the unit, scaled to the axis: "2 s", "8 KiB", "400k
	 * rows/s", "40 %"); counts per row or commit have no unit, so their
	 * title names what is counted. */
	const char *title;
	const char *per_s; /* a rate's ticks: what they count per second (" rows/s"), or NULL */
	int column;        /* its column in every output record (knob_def.column) */
	struct text_place text;
};

extern const struct metric_def metric_table[M_COUNT];

/* A window: two cumulative samples and the histogram between them. */
struct window {
	const struct counters *a, *b; /* borrowed: b is the later sample */
	const struct lats *lat;       /* borrowed: latencies inside the window */
	const struct sizes *sizes;    /* borrowed, may be NULL */
};

/* The counters metric m is computed from (bits 1u << enum ctr; 0: only
 * the window's length, the latencies or the sizes). */
unsigned metric_needs(int m);

/* Compute metric m over window w. */
struct mval metric_compute(int m, const struct window *w);

/* ratio helpers: state MV_UNSETTLED when den == 0. */
struct mval metrics_ratio(double num, double den);

#endif
