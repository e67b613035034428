/* reads.h - what op lookup and op range run, shared by the engines.
 *
 * An engine keeps a struct reads (reads_prepare when its op or knobs
 * change) and, per query of it, a statement it writes from the query's
 * fields (schema.h's struct query_spec: terms, order, limit; idxlab writes
 * the SQL, no text from outside). The step loop (txn.h) hands a read op
 * the row whose values it binds and its draw number; reads_pick says which
 * query that draw runs and whether it misses (--miss). The engine counts
 * what each query found into the transaction (struct txn's read_*), and
 * names what served each query - an index, its primary key, or a scan -
 * from the engine itself (EXPLAIN, the cursor it opened): served[] and
 * count[] are what the plan and index_served fields report. */
#ifndef IDXLAB_ENGINES_READS_H
#define IDXLAB_ENGINES_READS_H

#include <stddef.h>
#include <stdint.h>

#include "../schema.h"

#define READS_SERVED_MAX 64 /* "idxlab_users_email", "scan", "primary key" */
/* the queries of both read ops at most (a mix of lookup and range) */
#define READS_MAX (2 * SCHEMA_QUERY_MAX)

struct reads {
	int n; /* queries; 0: the op is not a read */
	struct query_spec q[READS_MAX];
	long long op[READS_MAX];                  /* the read op query i is of */
	char served[READS_MAX][READS_SERVED_MAX]; /* what served query i ("" unknown) */
	uint64_t count[READS_MAX];                /* draws of query i since prepare */
	uint64_t seed;
	uint64_t miss_cut; /* a draw misses when its hash is below this */
	const struct schema *s;
	int nbuilt; /* the spec's first nbuilt indexes exist (the indexes knob) */
};

/* The queries op runs on s under k - under a mix, those of each of its
 * read ops (lookup's, then range's), whatever op is; else op's if it
 * reads, none if not; counts reset. */
void reads_prepare(struct reads *r, const struct schema *s, const struct knobs *k, long long op);

/* Which query of read op op draw number draw runs (0..n-1), and in *miss
 * whether its values are ones no row holds; its count goes up. */
int reads_pick(struct reads *r, long long op, uint64_t draw, int *miss);

/* What served the queries, as the plan field says it: "by_email=idxlab_email
 * recent=scan" (query=what, by space); "" when no query ran. */
void reads_plan_text(const struct reads *r, char *buf, size_t len);

/* The queries that ran, as the table spec says them ("by_email: email =
 * ?; recent: created_at > ? order by created_at desc limit 10"), by "; ";
 * "" when none ran. Each engine writes its statement from these fields
 * alone (SQL, a find's filter, a cursor's walk). */
void reads_query_text(const struct reads *r, char *buf, size_t len);

/* Each index's share of the queries run ("idxlab_email:0.50
 * idxlab_country:0.25"), over the indexes built: one that served none
 * reads :0.00 (used by no query), one that served a few, under 0.005,
 * its four decimals (:0.0030). "" when no query ran. */
void reads_served_text(const struct reads *r, char *buf, size_t len);

#endif
