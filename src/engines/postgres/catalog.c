/* catalog.c - the shape of a user's PostgreSQL table, for --schema-from.
 *
 * One short connection of its own, its session READ ONLY, that only runs
 * SELECTs on the catalog: pg_attribute for the columns, pg_index for the
 * primary key and the indexes (in creation order, oid order), and pg_stats
 * for each column's value order (n_distinct, correlation, avg_width and the
 * share of its most common value) and its NULLs (null_frac), with each
 * column's default (pg_attrdef) and identity, which say an order of their
 * own (schema_from_order.c). A domain is read as its base type
 * (pg_type.typbasetype, one level), a numeric with its precision and
 * scale; a text's length is avg_width's (the values that are not NULL),
 * not the declared maximum. It never runs ANALYZE: a table without
 * statistics is read as "rand" with a note that says how to get better.
 * A generated column is read as an ordinary one; a table with inheritance
 * children or partitions is read with them, as one table (a note says so). */
#include <libpq-fe.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../schema_from.h"
#include "internal.h"

int pg_reads_source(const char *source)
{
	return strncmp(source, "postgres://", 11) == 0 ||
	       strncmp(source, "postgresql://", 13) == 0 || strchr(source, '=') != NULL;
}

static int fail(PGconn *c, PGresult *r, const char *what, struct err *e)
{
	int rc = err_set(e, ERR_USAGE, "postgres: %s: %s", what, PQerrorMessage(c));

	PQclear(r);
	return rc;
}

static PGresult *query(PGconn *c, const char *sql, int n, const char *const *params)
{
	return PQexecParams(c, sql, n, NULL, params, NULL, NULL, 0);
}

/* The nearest spec type of a PostgreSQL type (a domain's base type: the
 * caller passes that). */
static void map_type(struct shape_col *col, const char *typname, int typmod, int avg_width,
                     char *notes, size_t nlen)
{
	static const struct {
		const char *name;
		enum col_type type;
	} types[] = {
		{ "int2", COL_INT },
		{ "int4", COL_INT },
		{ "bool", COL_BOOL },
		{ "int8", COL_BIGINT },
		{ "numeric", COL_NUMERIC },
		{ "float4", COL_BIGINT },
		{ "float8", COL_BIGINT },
		{ "uuid", COL_UUID },
		{ "timestamp", COL_TIMESTAMP },
		{ "timestamptz", COL_TIMESTAMPTZ },
		{ "date", COL_DATE },
		{ "text", COL_TEXT },
		{ "varchar", COL_TEXT },
		{ "bpchar", COL_TEXT },
	};
	size_t i;

	col->type = COL_TEXT;
	for (i = 0; i < sizeof types / sizeof types[0]; i++)
		if (strcmp(typname, types[i].name) == 0)
			break;
	if (i < sizeof types / sizeof types[0])
		col->type = types[i].type;
	else
		shape_note(notes, nlen, "%s (%s) is written as text", col->name, col->decl);
	if (col->type == COL_BIGINT && strncmp(typname, "int", 3) != 0)
		shape_note(notes, nlen, "%s (%s) is written as bigint", col->name, col->decl);
	if (col->type == COL_NUMERIC && typmod >= 4) {
		col->prec = ((typmod - 4) >> 16) & 0xffff;
		col->scale = (typmod - 4) & 0xffff;
	}
	if (col->type == COL_NUMERIC &&
	    (typmod < 4 || col->prec < 1 || col->prec > SCHEMA_NUMERIC_MAX ||
	     col->scale > col->prec)) {
		col->prec = SCHEMA_NUMERIC_MAX;
		col->scale = col->scale > 0 && col->scale <= 6 ? col->scale : 2;
		shape_note(notes, nlen, "%s (%s): written as numeric(%d,%d)", col->name, col->decl,
		           col->prec, col->scale);
	}
	if (col->type == COL_TEXT)
		/* avg_width: the mean of the values that are not NULL, with a
		 * short value's 1-byte varlena header */
		col->len = avg_width > 1 ? avg_width - 1 : typmod > 4 ? typmod - 4 : 16;
	if (col->type == COL_UUID)
		col->len = 16;
}

/* The table (oid, schema and name), its rows and its inheritance children
 * (*kids: how many tables inherit from it, at any depth, negative when
 * they are the partitions of a partitioned table; 0: none). With children
 * the rows are the whole tree's, as pg_stats' inherited rows. */
static int find_table(PGconn *c, const char *table, char *oid, double *rows, char *nsp, char *rel,
                      int *kids, struct err *e)
{
	const char *p[1] = { table };
	PGresult *r = query(c,
	                    "SELECT c.oid, c.reltuples, n.nspname, c.relname FROM pg_class c JOIN "
	                    "pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = "
	                    "to_regclass($1) AND c.relkind IN ('r', 'p')",
	                    1, p);

	if (PQresultStatus(r) != PGRES_TUPLES_OK)
		return fail(c, r, "finding the table", e);
	if (PQntuples(r) == 0) {
		PGresult *l =
		    query(c,
		          "SELECT coalesce(string_agg(quote_ident(schemaname) || '.' || "
		          "quote_ident(tablename), ', ' ORDER BY 1), 'none') FROM (SELECT "
		          "schemaname, tablename FROM pg_tables WHERE schemaname NOT IN "
		          "('pg_catalog', 'information_schema') ORDER BY 1, 2 LIMIT 20) t",
		          0, NULL);
		int rc =
		    err_set(e, ERR_USAGE, "no table %s in this database (its tables: %s)", table,
		            PQresultStatus(l) == PGRES_TUPLES_OK ? PQgetvalue(l, 0, 0) : "?");

		PQclear(l);
		PQclear(r);
		return rc;
	}
	snprintf(oid, 16, "%s", PQgetvalue(r, 0, 0));
	*rows = atof(PQgetvalue(r, 0, 1));
	snprintf(nsp, 128, "%s", PQgetvalue(r, 0, 2));
	snprintf(rel, 128, "%s", PQgetvalue(r, 0, 3));
	PQclear(r);
	r = query(c,
	          "WITH RECURSIVE tree(oid) AS (SELECT inhrelid FROM pg_inherits WHERE "
	          "inhparent = $1::oid UNION SELECT i.inhrelid FROM pg_inherits i JOIN tree ON "
	          "i.inhparent = tree.oid) SELECT count(*), coalesce(sum(greatest(c.reltuples, "
	          "0)) FILTER (WHERE c.relkind = 'r'), 0), (SELECT relkind = 'p' FROM pg_class "
	          "WHERE oid = $1::oid) FROM tree JOIN pg_class c ON c.oid = tree.oid",
	          1, (const char *const[]){ oid });
	if (PQresultStatus(r) != PGRES_TUPLES_OK)
		return fail(c, r, "finding its inheritance children", e);
	*kids = atoi(PQgetvalue(r, 0, 0));
	if (*kids && strcmp(PQgetvalue(r, 0, 2), "t") == 0) {
		*kids = -*kids; /* partitions: the rows are theirs alone */
		*rows = atof(PQgetvalue(r, 0, 1));
	} else if (*kids)
		*rows = (*rows > 0 ? *rows : 0) + atof(PQgetvalue(r, 0, 1));
	PQclear(r);
	/* pg_stats shows a column's statistics only to who may read it. */
	r = query(c, "SELECT has_table_privilege($1::oid, 'SELECT'), current_user", 1,
	          (const char *const[]){ oid });
	if (PQresultStatus(r) != PGRES_TUPLES_OK)
		return fail(c, r, "checking its privileges", e);
	if (strcmp(PQgetvalue(r, 0, 0), "t") != 0) {
		int rc =
		    err_set(e, ERR_USAGE,
		            "%s may not read %s.%s, and its statistics are hidden from who may "
		            "not: GRANT SELECT ON %s.%s TO %s, or connect as a user who may",
		            PQgetvalue(r, 0, 1), nsp, rel, nsp, rel, PQgetvalue(r, 0, 1));

		PQclear(r);
		return rc;
	}
	PQclear(r);
	return 0;
}

static double num_or_nan(const PGresult *r, int row, int col)
{
	return PQgetisnull(r, row, col) ? NAN : atof(PQgetvalue(r, row, col));
}

/* Each column once, with one pg_stats row: a table with inheritance
 * children has two per column (inherited = true: the table with its
 * children, false: its own rows); the one that matches the rows read
 * (find_table) is taken, the other only when it is all there is. */
/* How a sample reads a column of each type so that max() and < order it
 * as its btree does: by its value, a uuid as its text (the same order), a
 * boolean as 0/1, text by its first 256 characters (max() has no uuid or
 * boolean form); a type not here is not sampled (no btree order, or not
 * one idxlab writes). A column's kind is its row here + 1 (0: none). */
static const struct {
	const char *typname, *pre, *post; /* the column read as pre "column" post */
} sampled[] = {
	{ "int2", "", "" },
	{ "int4", "", "" },
	{ "int8", "", "" },
	{ "numeric", "", "" },
	{ "float4", "", "" },
	{ "float8", "", "" },
	{ "timestamp", "", "" },
	{ "timestamptz", "", "" },
	{ "date", "", "" },
	{ "uuid", "", "::text" },
	{ "bool", "", "::int" },
	{ "text", "left(", ", 256)" },
	{ "varchar", "left(", "::text, 256)" },
	{ "bpchar", "left(", "::text, 256)" },
};

static int order_kind(const char *typname)
{
	size_t i;

	for (i = 0; i < sizeof sampled / sizeof sampled[0]; i++)
		if (strcmp(typname, sampled[i].typname) == 0)
			return (int)i + 1;
	return 0;
}

static int read_columns(PGconn *c, const char *oid, const char *nsp, const char *rel, int kids,
                        struct table_shape *t, int *attnums, int *kinds, struct err *e)
{
	const char *p[4] = { oid, nsp, rel, kids ? "true" : "false" };
	PGresult *r = query(
	    c,
	    "SELECT a.attnum, a.attname, format_type(a.atttypid, a.atttypmod), "
	    "coalesce(b.typname, t.typname), CASE WHEN t.typtype = 'd' THEN t.typtypmod ELSE "
	    "a.atttypmod END, s.n_distinct, s.correlation, coalesce(s.avg_width, -1), "
	    "(s.most_common_freqs)[1], coalesce((SELECT true FROM pg_index i WHERE i.indrelid = "
	    "a.attrelid AND i.indisprimary AND a.attnum = ANY (i.indkey)), false), "
	    "a.attgenerated <> '', coalesce(s.null_frac, 0), CASE WHEN t.typtype = 'd' THEN "
	    "format_type(t.typbasetype, t.typtypmod) END, left(pg_get_expr(d.adbin, d.adrelid), "
	    "63), a.attidentity FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid LEFT "
	    "JOIN pg_type b ON t.typtype = 'd' AND b.oid = t.typbasetype LEFT JOIN pg_attrdef d "
	    "ON d.adrelid = a.attrelid AND d.adnum = a.attnum AND a.attgenerated = '' LEFT "
	    "JOIN LATERAL (SELECT "
	    "* FROM pg_stats s WHERE s.schemaname = $2 AND s.tablename = $3 AND s.attname = "
	    "a.attname ORDER BY s.inherited = $4::bool DESC LIMIT 1) s ON true "
	    "WHERE a.attrelid = $1::oid AND a.attnum > 0 AND NOT a.attisdropped "
	    "ORDER BY a.attnum",
	    4, p);
	int i, stats = 0;

	if (PQresultStatus(r) != PGRES_TUPLES_OK)
		return fail(c, r, "reading its columns", e);
	for (i = 0; i < PQntuples(r) && t->ncols < SHAPE_COLS_MAX; i++) {
		struct shape_col *col = &t->cols[t->ncols];
		double nd = num_or_nan(r, i, 5);

		memset(col, 0, sizeof *col);
		attnums[t->ncols] = atoi(PQgetvalue(r, i, 0));
		kinds[t->ncols] = order_kind(PQgetvalue(r, i, 3));
		snprintf(col->name, sizeof col->name, "%s", PQgetvalue(r, i, 1));
		snprintf(col->decl, sizeof col->decl, "%s", PQgetvalue(r, i, 2));
		map_type(col, PQgetvalue(r, i, 3), atoi(PQgetvalue(r, i, 4)),
		         atoi(PQgetvalue(r, i, 7)), t->notes, sizeof t->notes);
		/* n_distinct < 0: a share of the rows (-1: all different) */
		col->ndistinct = isnan(nd) ? -1 : nd < 0 ? -nd * (t->rows > 0 ? t->rows : 0) : nd;
		col->correlation = num_or_nan(r, i, 6);
		col->top_freq = num_or_nan(r, i, 8);
		col->pk = strcmp(PQgetvalue(r, i, 9), "t") == 0;
		col->nulls = atof(PQgetvalue(r, i, 11));
		if (!PQgetisnull(r, i, 12)) /* a domain: its base type (pg_type.typbasetype) */
			snprintf(col->type_note, sizeof col->type_note, "a domain over %s",
			         PQgetvalue(r, i, 12));
		if (strcmp(PQgetvalue(r, i, 10), "t") == 0)
			shape_note(t->notes, sizeof t->notes,
			           "%s is a generated column (STORED) there: here an ordinary one, "
			           "with its statistics",
			           col->name);
		snprintf(col->dflt, sizeof col->dflt, "%s", PQgetvalue(r, i, 13));
		if (strcmp(PQgetvalue(r, i, 14), "a") == 0)
			col->counter = "GENERATED ALWAYS AS IDENTITY";
		else if (strcmp(PQgetvalue(r, i, 14), "d") == 0)
			col->counter = "GENERATED BY DEFAULT AS IDENTITY";
		stats += !isnan(nd);
		t->ncols++;
	}
	if (PQntuples(r) > SHAPE_COLS_MAX)
		shape_note(t->notes, sizeof t->notes, "columns past the %dth are left out",
		           SHAPE_COLS_MAX);
	PQclear(r);
	if (stats)
		snprintf(t->stats_from, sizeof t->stats_from, "pg_stats");
	else
		shape_note(t->notes, sizeof t->notes,
		           "it has no statistics: run ANALYZE on it (idxlab writes nothing to "
		           "your database) for its value orders");
	return 0;
}

/* A sample of the rows in the heap's order, and of each column how often
 * a row's value rose or fell against the row before and how many distinct
 * values the sample holds - two SELECTs over the same rows, bounded by
 * their LIMIT, the values never leaving the server. A table of more than SAMPLE_ROWS * 2 rows (the
 * catalog's estimate) is read from pages spread over its heap: TABLESAMPLE
 * SYSTEM keeps whole pages, chosen at random, and reads them in the heap's
 * order, so each page's rows are consecutive rows and a growing column
 * grows from page to page too; a smaller one from its first page
 * (synchronize_seqscans off). Never in parallel (a Gather would mix the
 * heap's order). No sample (an error, a timeout): the statistics alone,
 * and a note. */
#define SAMPLE_ROWS 10000
/* A wide table's sample holds fewer rows: at most SAMPLE_CELLS values (the
 * work of its windows and counts grows with rows x columns: 10000 rows of
 * 32 columns), never fewer than SAMPLE_MIN rows. */
#define SAMPLE_CELLS (SAMPLE_ROWS * 32)
#define SAMPLE_MIN   1000

/* The sample's rows, each sampled column k as v<k>: SELECT ... FROM the
 * table [TABLESAMPLE SYSTEM] LIMIT ...; the SQL into f. */
struct sample_q {
	PGconn *c;
	const struct table_shape *t;
	const int *kinds, *col; /* col[k]: the k-th sampled column */
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

		fprintf(f, "%s%s%s%s AS v%d", k ? ", " : "", sampled[q->kinds[q->col[k]] - 1].pre,
		        qc ? qc : "NULL", sampled[q->kinds[q->col[k]] - 1].post, k);
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
		for (k = 0; k < q->n; k++)
			fprintf(
			    f,
			    ", count(*) FILTER (WHERE v%d > l%d), count(*) FILTER (WHERE v%d < "
			    "l%d), count(*) FILTER (WHERE v%d >= x%d), count(*) FILTER (WHERE v%d "
			    "<= m%d)",
			    k, k, k, k, k, k, k, k);
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
static void sample_order(PGconn *c, const char *nsp, const char *rel, struct table_shape *t,
                         const int *kinds)
{
	char *qn = PQescapeIdentifier(c, nsp, strlen(nsp)),
	     *qr = PQescapeIdentifier(c, rel, strlen(rel));
	int i, k, n = 0, col[SHAPE_COLS_MAX], distinct[SHAPE_COLS_MAX], ndistinct = 0;
	struct sample_q q = { c, t, kinds, col, 0, 0, SAMPLE_ROWS, qn, qr };
	PGresult *r = NULL, *d = NULL;
	double rows = 0;

	for (i = 0; i < t->ncols; i++)
		if (kinds[i])
			col[n++] = i;
	q.n = n;
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
	if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 && PQnfields(r) == 1 + 4 * n)
		rows = atof(PQgetvalue(r, 0, 0));
	for (k = 0; k < n && rows > 1; k++) {
		struct shape_col *sc = &t->cols[col[k]];

		sc->sampled = rows;
		sc->s_up = atof(PQgetvalue(r, 0, 1 + 4 * k));
		sc->s_down = atof(PQgetvalue(r, 0, 2 + 4 * k));
		sc->s_atmax = atof(PQgetvalue(r, 0, 3 + 4 * k));
		sc->s_atmin = atof(PQgetvalue(r, 0, 4 + 4 * k));
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

static int read_indexes(PGconn *c, const char *oid, struct table_shape *t, const int *attnums,
                        struct err *e)
{
	const char *p[1] = { oid };
	PGresult *r =
	    query(c,
	          "SELECT c.relname, i.indisunique, i.indkey::text, i.indnkeyatts, "
	          "i.indexprs IS NOT NULL, coalesce(pg_get_expr(i.indpred, i.indrelid, true), "
	          "''), am.amname, i.indisprimary, CASE WHEN i.indexprs IS NOT NULL THEN "
	          "(SELECT string_agg(pg_get_indexdef(i.indexrelid, k, true), ', ' ORDER BY k) "
	          "FROM generate_series(1, i.indnkeyatts) k) END FROM pg_index i JOIN pg_class "
	          "c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam WHERE "
	          "i.indrelid = $1::oid ORDER BY i.indisprimary DESC, i.indexrelid",
	          1, p);
	int i;

	if (PQresultStatus(r) != PGRES_TUPLES_OK)
		return fail(c, r, "reading its indexes", e);
	for (i = 0; i < PQntuples(r) && t->nindexes < SHAPE_IDX_MAX; i++) {
		struct shape_index *x = &t->idx[t->nindexes++];
		int nkeys = atoi(PQgetvalue(r, i, 3)), k;
		char *keys = PQgetvalue(r, i, 2), *end;

		memset(x, 0, sizeof *x);
		snprintf(x->name, sizeof x->name, "%s", PQgetvalue(r, i, 0));
		x->unique = strcmp(PQgetvalue(r, i, 1), "t") == 0;
		x->pk = strcmp(PQgetvalue(r, i, 7), "t") == 0;
		if (strlen(PQgetvalue(r, i, 5)) >= sizeof x->where ||
		    strlen(PQgetvalue(r, i, 8)) >= sizeof x->keys)
			x->skip = "its WHERE or keys are longer than idxlab reads";
		snprintf(x->where, sizeof x->where, "%s", PQgetvalue(r, i, 5));
		snprintf(x->keys, sizeof x->keys, "%s", PQgetvalue(r, i, 8));
		if (strcmp(PQgetvalue(r, i, 6), "btree") != 0)
			x->skip = "not a btree (idxlab builds btrees)";
		for (k = 0; k < nkeys && !x->skip && !x->keys[0]; k++) {
			long attnum = strtol(keys, &end, 10);
			int col;

			keys = end;
			for (col = 0; col < t->ncols && attnums[col] != attnum; col++)
				;
			if (attnum == 0 || col == t->ncols)
				x->skip = "an expression index";
			else if (x->ncols == SCHEMA_IDX_COLS)
				x->skip = "more than 8 columns";
			else
				x->cols[x->ncols++] = col;
		}
	}
	PQclear(r);
	return 0;
}

/* What the copy does not reproduce, by name: foreign keys, triggers and
 * the partitioning (the partitions' rows are read as one table's). */
static int note_not_built(PGconn *c, const char *oid, int kids, struct table_shape *t,
                          struct err *e)
{
	const char *p[1] = { oid };
	PGresult *r = query(
	    c,
	    "SELECT (SELECT string_agg(quote_ident(conname) || ' -> ' || "
	    "confrelid::regclass::text, "
	    "', ' ORDER BY conname) FROM pg_constraint WHERE conrelid = $1::oid AND contype = "
	    "'f'), (SELECT string_agg(quote_ident(tgname), ', ' ORDER BY tgname) FROM pg_trigger "
	    "WHERE tgrelid = $1::oid AND NOT tgisinternal), pg_get_partkeydef($1::oid)",
	    1, p);

	if (PQresultStatus(r) != PGRES_TUPLES_OK)
		return fail(c, r, "reading its constraints and triggers", e);
	if (!PQgetisnull(r, 0, 0))
		shape_note(t->notes, sizeof t->notes,
		           "foreign keys %s are not reproduced (each insert there looks its key up "
		           "in the table it references: a lookup per row the copy does not pay)",
		           PQgetvalue(r, 0, 0));
	if (!PQgetisnull(r, 0, 1))
		shape_note(t->notes, sizeof t->notes,
		           "triggers %s are not reproduced (the work they do per row is not "
		           "measured)",
		           PQgetvalue(r, 0, 1));
	if (!PQgetisnull(r, 0, 2))
		shape_note(t->notes, sizeof t->notes,
		           "it is partitioned by %s into %d partitions: not reproduced, idxlab's "
		           "copy is one table (each index one btree, not one per partition)",
		           PQgetvalue(r, 0, 2), kids < 0 ? -kids : 0);
	PQclear(r);
	return 0;
}

int pg_read_shape(const char *source, const char *table, struct table_shape *t, struct err *e)
{
	static const char *const keys[] = { "dbname", "connect_timeout", "application_name", NULL };
	const char *vals[] = { source, "10", "idxlab --schema-from", NULL };
	PGconn *c = PQconnectdbParams(keys, vals, 1);
	char oid[16], nsp[128], rel[128];
	int attnums[SHAPE_COLS_MAX], kinds[SHAPE_COLS_MAX], rc, kids = 0;
	PGresult *r;

	if (!c || PQstatus(c) != CONNECTION_OK) {
		rc = err_set(e, ERR_USAGE, "postgres: cannot connect: %s",
		             c ? PQerrorMessage(c) : "out of memory");
		PQfinish(c);
		return rc;
	}
	r = PQexec(c, "SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY");
	if (PQresultStatus(r) != PGRES_COMMAND_OK) {
		rc = fail(c, r, "making the session read-only", e);
		PQfinish(c);
		return rc;
	}
	PQclear(r);
	rc = find_table(c, table, oid, &t->rows, nsp, rel, &kids, e) < 0 ||
	             read_columns(c, oid, nsp, rel, kids, t, attnums, kinds, e) < 0 ||
	             read_indexes(c, oid, t, attnums, e) < 0 ||
	             note_not_built(c, oid, kids, t, e) < 0
	         ? -1
	         : 0;
	if (rc == 0 && t->rows < 0) /* never vacuumed or analysed (PostgreSQL 14+) */
		t->rows = 0;
	if (rc == 0)
		sample_order(c, nsp, rel, t, kinds);
	if (rc == 0 && kids > 0)
		shape_note(t->notes, sizeof t->notes,
		           "%d table%s inherit%s from it: read with %s as one table (their rows, "
		           "pg_stats' inherited statistics)",
		           kids, kids == 1 ? "" : "s", kids == 1 ? "s" : "",
		           kids == 1 ? "it" : "them");
	PQfinish(c);
	return rc;
}
