/* part.c - a partitioned idxlab_t (the spec's `partition by`, schema_part.h).
 *
 * The parent is created PARTITION BY the spec's strategy on its key; its
 * primary key holds the key too (PostgreSQL's rule for a unique index on
 * a partitioned table): (id, key...), and none when the spec's id is
 * `unindexed` under op insert (schema_id_indexed). Then N partitions, idxlab_t_p0 ..,
 * each with the table's storage options (a partitioned parent takes none)
 * and idxlab's mark, in the same transaction: hash MODULUS N REMAINDER i;
 * range from MINVALUE to MAXVALUE cut at the points schema_part_plan()
 * reads from the values the prefill writes (the table as big as its
 * source: its rows spread over the partitions as the source's do), or
 * those of the run's rows when it starts empty; the last range, open to
 * MAXVALUE, takes what the run appends past them, as a real range-
 * partitioned table appends into its newest partition (a DEFAULT for
 * NULLs); list the values it reads over N-1 lists and a DEFAULT for the
 * rest. A bound is written from the parsed value by idxlab (a number,
 * to_timestamp(secs), DATE '1970-01-01' + days, an escaped literal), never
 * from outside text.
 * An index on the parent is one partitioned index, one btree per
 * partition; the partitions' own (their names PostgreSQL's) are known as
 * idxlab's by their parent's mark (schema.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../evlog.h"
#include "../../schema_part.h"
#include "internal.h"

/* The partition key's columns as the server quoted them, comma-separated;
 * with_id: id first, then the key's columns that are not id. */
static void key_list(const struct engine *en, int with_id, FILE *f)
{
	const struct part_spec *p = &en->s->part;
	int i, n = 0;

	if (with_id)
		fprintf(f, "%s", en->qcol[n++]);
	for (i = 0; i < p->nkeys; i++)
		if (!with_id || p->cols[i] != 0)
			fprintf(f, "%s%s", n++ ? ", " : "", en->qcol[p->cols[i]]);
}

void pg_part_clauses(const struct engine *en, char *pkey, char *by, size_t len)
{
	static const char *const how[PART_KIND_COUNT] = {
		[PART_HASH] = "HASH",
		[PART_RANGE] = "RANGE",
		[PART_LIST] = "LIST",
	};
	FILE *f = fmemopen(pkey, len, "w");

	if (!f)
		abort();
	if (schema_id_indexed(en->s, &en->k)) { /* else no key but the spec's indexes */
		fprintf(f, ", PRIMARY KEY (");
		key_list(en, 1, f);
		fprintf(f, ")");
	}
	fclose(f);
	f = fmemopen(by, len, "w");
	if (!f)
		abort();
	fprintf(f, " PARTITION BY %s (", how[en->s->part.kind]);
	key_list(en, 0, f);
	fprintf(f, ")");
	fclose(f);
}

/* A bound's value as SQL. */
static void literal(const struct engine *en, const struct value *v, FILE *f)
{
	long long i = (long long)v->i;

	switch (v->type) {
	case COL_TIMESTAMP:
	case COL_TIMESTAMPTZ: /* whole seconds (schema_part_plan) */
		fprintf(f, "to_timestamp(%lld)", i / 1000000);
		break;
	case COL_DATE:
		fprintf(f, "DATE '1970-01-01' + %lld", i);
		break;
	case COL_NUMERIC: {
		unsigned long long a = i < 0 ? 0ULL - (unsigned long long)i : (unsigned long long)i,
		                   p = 1;
		int k;

		for (k = 0; k < v->scale; k++)
			p *= 10;
		if (v->scale > 0)
			fprintf(f, "%s%llu.%0*llu", i < 0 ? "-" : "", a / p, v->scale, a % p);
		else
			fprintf(f, "%lld", i);
		break;
	}
	case COL_TEXT: {
		char *q = PQescapeLiteral(en->conn, (const char *)v->b, v->len);

		fprintf(f, "%s", q ? q : "NULL");
		PQfreemem(q);
		break;
	}
	default:
		fprintf(f, "%lld", i);
	}
}

static void partition(FILE *f, int i)
{
	fprintf(f, "; CREATE TABLE idxlab.idxlab_t_p%d PARTITION OF idxlab.idxlab_t ", i);
}

static void storage(const struct engine *en, FILE *f, int i)
{
	fprintf(f,
	        " WITH (fillfactor = %lld, autovacuum_enabled = false); COMMENT ON TABLE "
	        "idxlab.idxlab_t_p%d IS '" SCHEMA_MARK "'",
	        en->k.v[K_FILLFACTOR], i);
}

int pg_part_create(struct engine *en, struct err *e)
{
	const struct part_spec *p = &en->s->part;
	struct part_plan plan;
	long long pre = knobs_prefill(&en->k);
	/* the prefill's rows (the table as big as its source), else the run's */
	uint64_t rows = (uint64_t)(pre > 0 ? pre : en->k.v[K_ROWS]);
	char *sql = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&sql, &len);
	int i, j, rc;

	if (!f)
		abort();
	schema_part_plan(en->s, &en->k, rows, &plan);
	fprintf(f, "SELECT 1");
	for (i = 0; i < p->n - plan.has_default; i++) {
		partition(f, i);
		if (p->kind == PART_HASH) {
			fprintf(f, "FOR VALUES WITH (MODULUS %d, REMAINDER %d)", p->n, i);
		} else if (p->kind == PART_RANGE) {
			fprintf(f, "FOR VALUES FROM (");
			if (i == 0)
				fprintf(f, "MINVALUE");
			else
				literal(en, &plan.vals[i - 1], f);
			fprintf(f, ") TO (");
			if (i == plan.ranges - 1)
				fprintf(f, "MAXVALUE");
			else
				literal(en, &plan.vals[i], f);
			fprintf(f, ")");
		} else {
			fprintf(f, "FOR VALUES IN (");
			for (j = i; j < plan.nvals; j += plan.ranges) {
				fprintf(f, "%s", j > i ? ", " : "");
				literal(en, &plan.vals[j], f);
			}
			fprintf(f, ")");
		}
		storage(en, f, i);
	}
	if (plan.has_default) {
		partition(f, i);
		fprintf(f, "DEFAULT");
		storage(en, f, i);
	}
	schema_part_plan_free(&plan);
	if (fclose(f) != 0)
		abort();
	rc = pg_exec(en, sql, e);
	free(sql);
	if (rc < 0)
		return err_prefix(e, "creating the %d partitions of table %s", p->n, en->s->name);
	evlog_add(EV_INFO, "table %s: partitioned by %s into %d partitions", en->s->name,
	          schema_part_words[p->kind], p->n);
	return 0;
}
