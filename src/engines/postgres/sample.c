/* sample.c - --schema-from on PostgreSQL: the order of a user's table's
 * rows, from a bounded sample of them in the heap's order (catalog.c reads
 * the rest of its shape, then calls pg_sample_order).
 *
 * Of each column: how often a row's value rose or fell against the row
 * before, how many rows stood at or above (at or below) every row before
 * them, a number's least and greatest value, and - for the columns whose
 * moves say an order - how many distinct values the sample holds. Two SELECTs over the same rows in one snapshot,
 * bounded by their LIMIT, the values never leaving the server. A table the
 * catalog counts more than twice the sample's rows in is read from pages
 * spread over its heap: TABLESAMPLE SYSTEM keeps whole pages, chosen at
 * random, and reads them in the heap's order, so each page's rows are
 * consecutive rows and a growing column grows from page to page too; a
 * smaller one from its first page (synchronize_seqscans off). Never in
 * parallel (a Gather would mix the heap's order). No sample (an error, a
 * timeout): the statistics alone, and a note. */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../schema_from.h"
#include "internal.h"

#define SAMPLE_ROWS 10000
/* A wide table's sample holds fewer rows: at most SAMPLE_CELLS values (the
 * work of its windows and counts grows with rows x columns: 10000 rows of
 * 32 columns), never fewer than SAMPLE_MIN rows. */
#define SAMPLE_CELLS (SAMPLE_ROWS * 32)
#define SAMPLE_MIN   1000
/* The kinds up to this one are numbers (catalog.c's sampled[]: int2, int4,
 * int8, numeric, float4, float8): their least and greatest are read too,
 * while the moves query keeps within PostgreSQL's 1664 result columns (4
 * a column, 2 more for a number's range: the widest shape's first 200 or
 * so numbers get theirs). */
#define SAMPLE_NUMBERS    6
#define SAMPLE_FIELDS_MAX 1600

/* The sample's rows, each sampled column k as v<k>: SELECT ... FROM the
 * table [TABLESAMPLE SYSTEM] LIMIT ...; the SQL into f. */
struct sample_q {
	PGconn *c;
	const struct table_shape *t;
	const int *kinds, *col; /* col[k]: the k-th sampled column */
	const int *ranged;      /* ranged[k]: its least and greatest are read too */
	int n, spread, rows;    /* rows: the sample's size, at most */
	const char *qn, *qr;    /* the schema and table, quoted */
};

static void sample_rows(FILE *f, const struct sample_q *q)
{
	int k;

	fprintf(f, "SELECT ");
	for (k = 0; k < q->n; k++) {
		const char *name = q->t->cols[q->col[k]].name;
		char *qc = PQescapeIdentifier(q->c, name, strlen(name));

		const char *pre, *post;

		pg_sample_read(q->kinds[q->col[k]], &pre, &post);
		fprintf(f, "%s%s%s%s AS v%d", k ? ", " : "", pre, qc ? qc : "NULL", post, k);
		PQfreemem(qc);
	}
	fprintf(f, " FROM %s.%s", q->qn, q->qr);
	if (q->spread) /* a share of its pages that holds about q->rows rows */
		fprintf(f, " TABLESAMPLE SYSTEM (%.6f) REPEATABLE (1)",
		        100.0 * q->rows / q->t->rows);
	fprintf(f, " LIMIT %d", q->spread ? 2 * q->rows : q->rows);
}

/* One query of the sample: moves (distinct NULL): its row count, then of
 * each column how often it rose and fell from the row before, and how
 * many rows were at or above / at or below every row before them; else
 * the distinct values of the columns whose distinct[k] is set. */
static PGresult *sample_query(const struct sample_q *q, const int *distinct)
{
	char *sql = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&sql, &len);
	PGresult *r;
	int k, any = 0;

	if (!f)
		return NULL;
	if (distinct) {
		for (k = 0; k < q->n; k++)
			if (distinct[k])
				fprintf(f, "%scount(DISTINCT v%d)", any++ ? ", " : "SELECT ", k);
		fprintf(f, " FROM (");
		sample_rows(f, q);
		fprintf(f, ") s");
	} else {
		/* v<k>: a column's value; l<k>: the row before's, in the scan's
		 * order; x<k>, m<k>: the largest and smallest up to this row (at or
		 * above every row before it: v >= x; the first row is one, taken
		 * off by the caller) */
		fprintf(f, "SELECT count(*)");
		for (k = 0; k < q->n; k++) {
			fprintf(
			    f,
			    ", count(*) FILTER (WHERE v%d > l%d), count(*) FILTER (WHERE v%d < "
			    "l%d), count(*) FILTER (WHERE v%d >= x%d), count(*) FILTER (WHERE v%d "
			    "<= m%d)",
			    k, k, k, k, k, k, k, k);
			/* a number's least and greatest, as text (a bigint's every digit) */
			if (q->ranged[k])
				fprintf(f, ", min(v%d)::text, max(v%d)::text", k, k);
		}
		fprintf(f, " FROM (SELECT *");
		for (k = 0; k < q->n; k++)
			fprintf(f,
			        ", lag(v%d) OVER w AS l%d, max(v%d) OVER w AS x%d, min(v%d) OVER w "
			        "AS m%d",
			        k, k, k, k, k, k);
		fprintf(f, " FROM (");
		sample_rows(f, q);
		fprintf(f, ") s WINDOW w AS (ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)) w");
	}
	if (fclose(f) != 0) {
		free(sql);
		return NULL;
	}
	r = PQexec(q->c, sql);
	free(sql);
	return r;
}

/* The sample: first the moves of every column, then the distinct values
 * of those whose moves say an order (schema_from_sample_moves: the rows
 * per value of a growing or falling column); a count(DISTINCT) sorts the
 * sample once per column, the most of the time on a wide table, and the
 * others do not need it. Both in one snapshot, over the same rows. */
void pg_sample_order(PGconn *c, const char *nsp, const char *rel, struct table_shape *t,
                     const int *kinds)
{
	char *qn = PQescapeIdentifier(c, nsp, strlen(nsp)),
	     *qr = PQescapeIdentifier(c, rel, strlen(rel));
	int i, k, at, n = 0, col[SHAPE_COLS_MAX], distinct[SHAPE_COLS_MAX], ndistinct = 0;
	int ranged[SHAPE_COLS_MAX], fields = 1;
	struct sample_q q = { c, t, kinds, col, ranged, 0, 0, SAMPLE_ROWS, qn, qr };
	PGresult *r = NULL, *d = NULL;
	double rows = 0;

	for (i = 0; i < t->ncols; i++)
		if (kinds[i])
			col[n++] = i;
	q.n = n;
	fields += 4 * n;
	for (k = 0; k < n; k++) {
		ranged[k] = kinds[col[k]] <= SAMPLE_NUMBERS && fields + 2 <= SAMPLE_FIELDS_MAX;
		fields += 2 * ranged[k];
	}
	if (n && (long)n * SAMPLE_ROWS > SAMPLE_CELLS)
		q.rows = SAMPLE_CELLS / n < SAMPLE_MIN ? SAMPLE_MIN : SAMPLE_CELLS / n;
	q.spread = t->rows > 2 * q.rows;
	if (!qn || !qr || !n) {
		PQfreemem(qn);
		PQfreemem(qr);
		return;
	}
	PQclear(PQexec(c, "SET synchronize_seqscans = off"));
	PQclear(PQexec(c, "SET max_parallel_workers_per_gather = 0"));
	PQclear(PQexec(c, "SET statement_timeout = '10s'"));
	PQclear(PQexec(c, "BEGIN ISOLATION LEVEL REPEATABLE READ"));
	r = sample_query(&q, NULL);
	if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 && PQnfields(r) == fields)
		rows = atof(PQgetvalue(r, 0, 0));
	for (k = 0, at = 1; k < n && rows > 1; at += 4 + 2 * ranged[k++]) {
		struct shape_col *sc = &t->cols[col[k]];

		sc->sampled = rows;
		sc->paged = 1; /* in the heap's order: page by page (schema_from.h) */
		sc->s_up = atof(PQgetvalue(r, 0, at));
		sc->s_down = atof(PQgetvalue(r, 0, at + 1));
		sc->s_atmax = atof(PQgetvalue(r, 0, at + 2));
		sc->s_atmin = atof(PQgetvalue(r, 0, at + 3));
		sc->s_ranged =
		    ranged[k] && !PQgetisnull(r, 0, at + 4) && !PQgetisnull(r, 0, at + 5);
		if (sc->s_ranged) {
			sc->s_min = strtod(PQgetvalue(r, 0, at + 4), NULL);
			sc->s_max = strtod(PQgetvalue(r, 0, at + 5), NULL);
		}
		sc->s_atmax -= sc->s_atmax > 0; /* the first row */
		sc->s_atmin -= sc->s_atmin > 0;
		distinct[k] = schema_from_sample_moves(sc) != 0;
		ndistinct += distinct[k];
	}
	if (rows > 1 && ndistinct) {
		d = sample_query(&q, distinct);
		if (PQresultStatus(d) == PGRES_TUPLES_OK && PQntuples(d) == 1 &&
		    PQnfields(d) == ndistinct)
			for (k = 0, i = 0; k < n; k++)
				if (distinct[k])
					t->cols[col[k]].s_distinct = atof(PQgetvalue(d, 0, i++));
	}
	PQclear(PQexec(c, "COMMIT"));
	if (rows > 1)
		snprintf(t->stats_from, sizeof t->stats_from,
		         q.spread ? "pg_stats and %.0f rows of pages spread over its heap, in "
		                    "its order"
		                  : "pg_stats and its first %.0f rows in the heap's order",
		         rows);
	else if (PQresultStatus(r) != PGRES_TUPLES_OK)
		shape_note(t->notes, sizeof t->notes,
		           "no sample of its rows (%s): orders from pg_stats alone",
		           r ? PQresultErrorMessage(r) : "out of memory");
	if (rows > 1 && q.rows < SAMPLE_ROWS)
		shape_note(t->notes, sizeof t->notes,
		           "its order sample is %.0f rows, not %d: %d columns, at most %d values "
		           "in one sample",
		           rows, SAMPLE_ROWS, n, SAMPLE_CELLS);
	if (ndistinct && PQresultStatus(d) != PGRES_TUPLES_OK)
		shape_note(t->notes, sizeof t->notes,
		           "no distinct values in its sample (%s): the order of its growing "
		           "columns from pg_stats",
		           d ? PQresultErrorMessage(d) : "out of memory");
	PQclear(r);
	PQclear(d);
	PQfreemem(qn);
	PQfreemem(qr);
}
