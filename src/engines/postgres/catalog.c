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
 * A generated column's expression is read (pg_attrdef) for schema_from.c
 * to parse in idxlab's grammar or leave out; a table with inheritance
 * children is read with them, as one table (a note says so); a
 * partitioned one is read so too, and its partitioning (strategy, key
 * columns, how many partitions) is kept for the copy when idxlab can
 * build it (part.c), else named in a note. */
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
	char msg[512];
	int rc = err_set(e, ERR_USAGE, "postgres: %s: %s", what,
	                 pg_trim(PQerrorMessage(c), msg, sizeof msg));

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

void pg_sample_read(int kind, const char **pre, const char **post)
{
	*pre = sampled[kind - 1].pre;
	*post = sampled[kind - 1].post;
}

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
	    "63), a.attidentity, (SELECT pg_get_expr(g.adbin, g.adrelid) FROM pg_attrdef g WHERE "
	    "g.adrelid = a.attrelid AND g.adnum = a.attnum AND a.attgenerated <> '') FROM "
	    "pg_attribute a JOIN pg_type t ON t.oid = a.atttypid LEFT "
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
		if (strcmp(PQgetvalue(r, i, 10), "t") == 0) { /* schema_from.c reads it */
			snprintf(col->gen, sizeof col->gen, "%s",
			         strlen(PQgetvalue(r, i, 15)) < sizeof col->gen
			             ? PQgetvalue(r, i, 15)
			             : "(too long)");
			col->gen_stored = 1;
		}
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

/* The partitioning, when idxlab builds it so (part.c): one level, a key
 * of columns (not expressions), at most SCHEMA_PART_MAX partitions; else
 * why not, into why. The partitions' rows are read as one table's either
 * way. */
static void read_partitioning(const PGresult *r, const int *attnums, struct table_shape *t,
                              char *why, size_t wlen)
{
	static const struct {
		char strat;
		enum part_kind kind;
	} kinds[] = { { 'h', PART_HASH }, { 'r', PART_RANGE }, { 'l', PART_LIST } };
	struct part_spec p = { .kind = PART_NONE };
	const char *keys = PQgetvalue(r, 0, 4);
	char *end;
	size_t i;

	for (i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (PQgetvalue(r, 0, 3)[0] == kinds[i].strat)
			p.kind = kinds[i].kind;
	p.n = atoi(PQgetvalue(r, 0, 5));
	while (*keys) {
		long attnum = strtol(keys, &end, 10);
		int col;

		if (end == keys)
			break;
		keys = end;
		for (col = 0; col < t->ncols && attnums[col] != attnum; col++)
			;
		if (attnum == 0 || col == t->ncols) {
			snprintf(why, wlen, "its key holds an expression");
			return;
		}
		if (p.nkeys == SCHEMA_PART_KEYS) {
			snprintf(why, wlen, "its key has more than %d columns", SCHEMA_PART_KEYS);
			return;
		}
		p.cols[p.nkeys++] = col;
	}
	if (p.kind == PART_NONE || !p.nkeys)
		snprintf(why, wlen, "a strategy idxlab does not know");
	else if (strcmp(PQgetvalue(r, 0, 6), "0") != 0)
		snprintf(why, wlen, "its partitions are partitioned in turn (%s of them)",
		         PQgetvalue(r, 0, 6));
	else if (p.n < 1 || p.n > SCHEMA_PART_MAX)
		snprintf(why, wlen, "it has %d partitions, idxlab builds 1 .. %d", p.n,
		         SCHEMA_PART_MAX);
	else
		t->part = p;
}

/* What the copy does not reproduce, by name: foreign keys, triggers, and
 * a partitioning idxlab cannot build (the partitions' rows are read as
 * one table's). */
static int note_not_built(PGconn *c, const char *oid, const int *attnums, struct table_shape *t,
                          struct err *e)
{
	const char *p[1] = { oid };
	PGresult *r = query(
	    c,
	    "SELECT (SELECT string_agg(quote_ident(conname) || ' -> ' || "
	    "confrelid::regclass::text, "
	    "', ' ORDER BY conname) FROM pg_constraint WHERE conrelid = $1::oid AND contype = "
	    "'f'), (SELECT string_agg(quote_ident(tgname), ', ' ORDER BY tgname) FROM pg_trigger "
	    "WHERE tgrelid = $1::oid AND NOT tgisinternal), pg_get_partkeydef($1::oid), "
	    "pt.partstrat, pt.partattrs::text, (SELECT count(*) FROM pg_inherits WHERE inhparent "
	    "= $1::oid), (SELECT count(*) FROM pg_inherits h JOIN pg_class k ON k.oid = "
	    "h.inhrelid WHERE h.inhparent = $1::oid AND k.relkind = 'p') FROM (SELECT 1) one "
	    "LEFT JOIN pg_partitioned_table pt ON pt.partrelid = $1::oid",
	    1, p);
	char why[128] = "";

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
		read_partitioning(r, attnums, t, why, sizeof why);
	if (!PQgetisnull(r, 0, 2) && why[0])
		shape_note(t->notes, sizeof t->notes,
		           "it is partitioned by %s into %d partitions: not reproduced (%s), "
		           "idxlab's copy is one table (each index one btree, not one per "
		           "partition)",
		           PQgetvalue(r, 0, 2), atoi(PQgetvalue(r, 0, 5)), why);
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
		char msg[512];

		rc = err_set(e, ERR_USAGE, "postgres: cannot connect: %s",
		             c ? pg_trim(PQerrorMessage(c), msg, sizeof msg) : "out of memory");
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
	             note_not_built(c, oid, attnums, t, e) < 0
	         ? -1
	         : 0;
	if (rc == 0 && t->rows < 0) /* never vacuumed or analysed (PostgreSQL 14+) */
		t->rows = 0;
	if (rc == 0)
		pg_sample_order(c, nsp, rel, t, kinds);
	if (rc == 0) /* after the sample: its SELECTs are left out by their AS v0 */
		pg_top_statements(c, rel, t);
	if (rc == 0 && kids > 0)
		shape_note(t->notes, sizeof t->notes,
		           "%d table%s inherit%s from it: read with %s as one table (their rows, "
		           "pg_stats' inherited statistics)",
		           kids, kids == 1 ? "" : "s", kids == 1 ? "s" : "",
		           kids == 1 ? "it" : "them");
	PQfinish(c);
	return rc;
}
