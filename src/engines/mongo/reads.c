/* reads.c - the MongoDB engine's reads: a find per query, explain for what serves it.
 *
 * A query is a find on idxlab.t: its filter the query's terms ($eq, $lt,
 * $lte, $gt, $gte on the fields as the documents hold them, doc.h), its
 * sort and limit; no projection (a read fetches its documents whole, as a
 * user's find would), the cursor iterated to its end, getMores included,
 * every field of every document walked. What serves it is the server's
 * own answer: the explain (verbosity queryPlanner: planned, not run) of
 * the find, when the reads are prepared (again when the indexes change),
 * on the values of a row in the middle of the table; its winning plan's
 * index (status.c reads the plan), or "scan" for a COLLSCAN.
 *
 * What a query examined and read comes from serverStatus, not from the
 * query: explain's executionStats would run each query twice. On a read
 * step the sample (stats.c) asks for serverStatus's metrics section and
 * adds what moved since the last sample: metrics.queryExecutor.scanned
 * (index keys examined) plus scannedObjects (documents examined) into the
 * rows examined, WiredTiger's "pages read into cache" into the pages
 * read. They are the whole server's: on a read step all of it is taken
 * for the queries', another client's work included. In a mix (--mix) the
 * writes run beside them: inserts examine nothing (no query plan), so a
 * mix of inserts and reads counts the rows examined, not the pages (an
 * insert reads pages too); a mix with updates or deletes (each examines
 * its row by _id) counts neither. A server that gives neither
 * (serverStatus denied, another storage engine) leaves them n/a. */
#include <stdio.h>
#include <string.h>

#include "../../evlog.h"
#include "../../mix.h"
#include "internal.h"

/* What served query q, as reads.h names it: the spec's name of the index
 * the server's winning plan scans, "primary key" for the _id index, or
 * "scan"; "" when the explain says neither. */
static int explain_query(struct engine *en, const struct query_spec *q, char *out, size_t len,
                         struct err *e)
{
	const struct schema *s = schema_of(&en->k);
	bson_t cmd = BSON_INITIALIZER, find, filter = BSON_INITIALIZER, opts = BSON_INITIALIZER,
	       reply;
	char name[SCHEMA_NAME_MAX * SCHEMA_IDX_COLS], idx[SCHEMA_NAME_MAX * SCHEMA_IDX_COLS];
	bson_error_t be;
	int rc, i;

	mongo_doc_query(&filter, &opts, &en->k, q, en->rs->next_row / 2, 0);
	BSON_APPEND_DOCUMENT_BEGIN(&cmd, "explain", &find);
	BSON_APPEND_UTF8(&find, "find", COLL_NAME);
	BSON_APPEND_DOCUMENT(&find, "filter", &filter);
	bson_concat(&find, &opts);
	bson_append_document_end(&cmd, &find);
	BSON_APPEND_UTF8(&cmd, "verbosity", "queryPlanner");
	rc = mongo_command(en, DB_NAME, &cmd, &reply, &be);
	bson_destroy(&cmd);
	bson_destroy(&filter);
	bson_destroy(&opts);
	out[0] = 0;
	if (rc < 0) {
		if (mongo_is_connection(&be))
			return mongo_fail(en, &be, e, "explain of a query");
		evlog_add(EV_WARN, "plan of query %s is n/a: explain refused (%s)", q->name,
		          be.message);
		return 0;
	}
	rc = mongo_explain_served(&reply, name, sizeof name);
	bson_destroy(&reply);
	if (rc == 0)
		snprintf(out, len, "scan");
	else if (rc == 1 && strcmp(name, "_id_") == 0)
		snprintf(out, len, "primary key");
	for (i = 0; rc == 1 && !out[0] && i < s->nindexes; i++) {
		mongo_doc_index_name(s, i, idx, sizeof idx);
		if (strcmp(idx, name) == 0)
			snprintf(out, len, "%s", s->idx[i].name);
	}
	if (rc == 1 && !out[0]) /* not one idxlab built: say so, escaped */
		err_escape(name, out, len);
	return 0;
}

int mongo_prepare_reads(struct engine *en, const struct knobs *k, struct err *e)
{
	int i;

	reads_prepare(&en->rd, schema_of(k), k, k->v[K_OP]);
	for (i = 0; i < en->rd.n; i++)
		if (explain_query(en, &en->rd.q[i], en->rd.served[i], sizeof en->rd.served[i], e) <
		    0)
			return -1;
	return 0;
}

int mongo_do_read(struct engine *en, long long op, uint64_t row, uint64_t draw, struct err *e)
{
	int miss, i = reads_pick(&en->rd, op, draw, &miss);
	bson_t filter = BSON_INITIALIZER, opts = BSON_INITIALIZER;
	mongoc_cursor_t *cur;
	const bson_t *doc;
	bson_error_t be;
	bson_iter_t it;
	uint64_t rows = 0;
	int rc = 0;

	mongo_doc_query(&filter, &opts, &en->k, &en->rd.q[i], row, miss);
	cur = mongoc_collection_find_with_opts(en->coll, &filter, &opts, NULL);
	while (mongoc_cursor_next(cur, &doc)) {
		/* fetched whole: every field of it read */
		if (bson_iter_init(&it, doc))
			while (bson_iter_next(&it))
				continue;
		rows++;
	}
	if (mongoc_cursor_error(cur, &be))
		rc = mongo_fail(en, &be, e, "a find");
	mongoc_cursor_destroy(cur);
	bson_destroy(&filter);
	bson_destroy(&opts);
	en->txn->read_rows += rows;
	return rc;
}

/* Counter id of the reads from a cumulative server count now (have: the
 * server gave it; counted: it is the reads' this step): what moved since
 * the last sample of the step (d) into *into, valid in c. Otherwise d is
 * forgotten: the next step starts from its own first sample. */
static void take(int counted, int have, uint64_t now, struct mongo_delta *d, uint64_t *into,
                 enum ctr id, struct counters *c)
{
	if (!counted || !have) {
		d->ok = 0;
		return;
	}
	if (d->ok && now >= d->base)
		*into += now - d->base;
	d->base = now;
	d->ok = 1;
	c->valid |= 1u << id;
}

unsigned mongo_reads_counted(const struct engine *en)
{
	const unsigned both = 1u << C_READ_EXAMINED | 1u << C_READ_PAGES;
	unsigned writes = mix_ops(&en->k) & OPS_WRITES;

	if (OP_READS(en->k.v[K_OP]) && !en->k.v[K_MIX])
		return both;
	if (mix_op(en->k.v[K_MIX], 1) < 0)
		return 0; /* no reads */
	/* a mix: its inserts examine nothing (no query plan), but read pages;
	 * its updates and deletes examine the rows they find */
	return !writes ? both : writes == 1u << OP_INSERT ? 1u << C_READ_EXAMINED : 0;
}

void mongo_reads_sample(struct engine *en, struct counters *c)
{
	const struct mongo_status *st = &en->st;
	const uint32_t qe = 1u << MS_QE_SCANNED | 1u << MS_QE_OBJECTS;
	unsigned counted = en->status_denied ? 0 : mongo_reads_counted(en);

	take(counted & 1u << C_READ_EXAMINED, (st->have & qe) == qe,
	     st->v[MS_QE_SCANNED] + st->v[MS_QE_OBJECTS], &en->rbase.examined,
	     &en->txn->read_examined, C_READ_EXAMINED, c);
	take(counted & 1u << C_READ_PAGES, (st->have & 1u << MS_PAGES_READ) != 0,
	     st->v[MS_PAGES_READ], &en->rbase.pages, &en->txn->read_pages, C_READ_PAGES, c);
}

const struct reads *mongo_reads(struct engine *en)
{
	return &en->rd;
}

/* The counters the reads take from serverStatus (mongo_reads_sample
 * fills them, only on a read step and only when the server gives them):
 * engine_measures reads this table, as status.c's. */
static const struct {
	enum ctr counter;
} read_table[] = {
	{ .counter = C_READ_EXAMINED },
	{ .counter = C_READ_PAGES },
};

const struct engine_stats mongo_read_stats = ENGINE_STATS(read_table, counter);
