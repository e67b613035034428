/* reads.c - what op lookup and range run, shared by the engines: the
 * queries, which one a draw runs, what served each (reads.h). */
#include "reads.h"

#include <stdio.h>
#include <string.h>

#include "../keys.h"
#include "../mix.h"

void reads_prepare(struct reads *r, const struct schema *s, const struct knobs *k, long long op)
{
	double miss = (double)k->v[K_MISS] / 1000.0;
	unsigned char w[OP_COUNT];
	int i;

	memset(r, 0, sizeof *r);
	r->s = s;
	r->seed = (uint64_t)k->v[K_SEED];
	r->miss_cut = miss >= 1 ? UINT64_MAX : (uint64_t)(miss * 18446744073709551616.0);
	r->nbuilt = k->v[K_INDEXES] < 0                        ? 0
	            : k->v[K_INDEXES] > (long long)s->nindexes ? s->nindexes
	                                                       : (int)k->v[K_INDEXES];
	if (mix_of(k, w)) /* a mix reads by its read ops, whatever op is */
		for (op = 0; op < OP_COUNT; op++) {
			if (!w[op] || !OP_READS(op))
				continue;
			for (i = r->n, r->n += schema_read_queries(s, k, op, r->q + r->n); i < r->n;
			     i++)
				r->op[i] = op;
		}
	else if (OP_READS(op))
		for (r->n = schema_read_queries(s, k, op, r->q), i = 0; i < r->n; i++)
			r->op[i] = op;
}

int reads_pick(struct reads *r, long long op, uint64_t draw, int *miss)
{
	uint64_t h = keys_hash(r->seed, 0x72656164ULL /* "read" */, draw);
	int i, of = 0, nth;

	for (i = 0; i < r->n; i++) /* op's queries: lookup's and range's each a run */
		of += r->op[i] == op;
	nth = of > 1 ? (int)(h % (uint64_t)of) : 0;
	for (i = 0; i < r->n - 1 && (r->op[i] != op || nth--); i++)
		;
	*miss = r->miss_cut && keys_hash(r->seed, 0x6d697373ULL /* "miss" */, draw) < r->miss_cut;
	r->count[i]++;
	return i;
}

void reads_plan_text(const struct reads *r, char *buf, size_t len)
{
	size_t n = 0;
	int i;

	buf[0] = 0;
	for (i = 0; i < r->n && n < len; i++)
		if (r->count[i])
			n += (size_t)snprintf(buf + n, len - n, "%s%s=%s", n ? " " : "",
			                      r->q[i].name, r->served[i][0] ? r->served[i] : "?");
}

void reads_query_text(const struct reads *r, char *buf, size_t len)
{
	char one[SCHEMA_QUERY_TEXT];
	size_t n = 0;
	int i;

	buf[0] = 0;
	for (i = 0; i < r->n && n < len; i++)
		if (r->count[i]) {
			schema_query_text(r->s, &r->q[i], one, sizeof one);
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "; " : "", one);
		}
}

void reads_served_text(const struct reads *r, char *buf, size_t len)
{
	uint64_t all = 0, by;
	size_t n = 0;
	int i, x;

	buf[0] = 0;
	for (i = 0; i < r->n; i++)
		all += r->count[i];
	if (!all)
		return;
	for (x = 0; x < r->nbuilt && n < len; x++) {
		for (by = 0, i = 0; i < r->n; i++)
			if (strcmp(r->served[i], r->s->idx[x].name) == 0)
				by += r->count[i];
		/* a share that would print 0.00 but is not: its own digits */
		n +=
		    (size_t)snprintf(buf + n, len - n, "%s%s:%.*f", n ? " " : "", r->s->idx[x].name,
		                     by && by * 200 < all ? 4 : 2, (double)by / (double)all);
	}
}
