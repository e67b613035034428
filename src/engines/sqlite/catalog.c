/* catalog.c - the shape of a user's SQLite table, for --schema-from.
 *
 * The file is opened so that nothing is created or written beside it
 * (source.c), with query_only on top. The columns come from PRAGMA
 * table_xinfo, the indexes from sqlite_schema in creation order with PRAGMA
 * index_list / index_xinfo; the value orders from sqlite_stat1 when ANALYZE
 * left one (distinct values of each index's leading column), and otherwise -
 * and for every column's order, length and NULLs - from a bounded sample of
 * its rows (sample.c). */
#include <ctype.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "../../schema_from.h"
#include "../../xalloc.h"
#include "sqlite_int.h"

int sqlite_reads_source(const char *source)
{
	char magic[16];
	int fd = open(source, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, magic, sizeof magic) : -1;

	if (fd >= 0)
		close(fd);
	return n == (ssize_t)sizeof magic && memcmp(magic, "SQLite format 3", 16) == 0;
}

static int fail(sqlite3 *db, const char *what, struct err *e)
{
	return err_set(e, ERR_USAGE, "sqlite: %s: %s", what, sqlite3_errmsg(db));
}

/* The nearest spec type of a declared type (SQLite's affinity rules, and
 * the names people use for uuids and times). */
static void map_type(struct shape_col *c)
{
	const char *d = c->decl, *paren = strchr(d, '(');
	char up[64];
	size_t i;

	for (i = 0; d[i] && i + 1 < sizeof up; i++)
		up[i] = (char)toupper((unsigned char)d[i]);
	up[i] = 0;
	c->len = paren ? atoi(paren + 1) : 0;
	if (strstr(up, "UUID"))
		c->type = COL_UUID;
	else if (strstr(up, "BIGINT") || strcmp(up, "INTEGER") == 0 || strcmp(up, "INT8") == 0)
		c->type = COL_BIGINT;
	else if (strstr(up, "BOOL"))
		c->type = COL_BOOL;
	else if (strstr(up, "INT"))
		c->type = COL_INT;
	else if (strcmp(up, "DATE") == 0)
		c->type = COL_DATE;
	else if (strstr(up, "DATE") || strstr(up, "TIME"))
		c->type = COL_TIMESTAMP; /* text values make it timestamptz (sample) */
	else if ((strstr(up, "NUM") || strstr(up, "DEC")) && paren) {
		char *end;

		c->type = COL_NUMERIC;
		c->prec = (int)strtol(paren + 1, &end, 10);
		c->scale = *end == ',' ? atoi(end + 1) : 0;
		c->len = 0;
		if (c->prec < 1 || c->prec > SCHEMA_NUMERIC_MAX || c->scale < 0 ||
		    c->scale > c->prec) {
			c->prec = SCHEMA_NUMERIC_MAX;
			c->scale = c->scale >= 0 && c->scale <= 6 ? c->scale : 2;
		}
	} else if (strstr(up, "CHAR") || strstr(up, "CLOB") || strstr(up, "TEXT"))
		c->type = COL_TEXT;
	else if (strstr(up, "REAL") || strstr(up, "FLOA") || strstr(up, "DOUB") ||
	         strstr(up, "NUM") || strstr(up, "DEC"))
		c->type = COL_BIGINT; /* a number: idxlab writes integers */
	else
		c->type = COL_TEXT; /* BLOB or none: decided by the sample's lengths */
}

static int find_table(sqlite3 *db, const char *table, int *rowid, struct err *e)
{
	sqlite3_stmt *st;
	char names[512] = "";
	int found = 0;

	if (sqlite3_prepare_v2(db,
	                       "SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND name "
	                       "NOT LIKE 'sqlite_%' ORDER BY name",
	                       -1, &st, NULL) != SQLITE_OK)
		return fail(db, "reading its tables", e);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		const char *sql = (const char *)sqlite3_column_text(st, 1);

		if (name && strcmp(name, table) == 0) {
			found = 1;
			*rowid = !sql || !strcasestr(sql, "WITHOUT ROWID");
		}
		if (name && strlen(names) + strlen(name) + 3 < sizeof names)
			snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
			         *names ? ", " : "", name);
	}
	sqlite3_finalize(st);
	if (!found)
		return err_set(e, ERR_USAGE, "no table %s in this file (its tables: %s)", table,
		               *names ? names : "none");
	return 0;
}

/* The text between the parentheses of column name's AS (...) in the
 * table's CREATE TABLE (SQLite keeps no other copy of a generated
 * column's expression), into out; "(not found)" when it cannot be told.
 * Outside text: schema_from.c parses it in idxlab's grammar. */
static void generated_expr(sqlite3 *db, const char *table, const char *name, char *out, size_t len)
{
	sqlite3_stmt *st = NULL;
	const char *sql = NULL, *p, *start;
	int depth = 0;
	char q = 0;

	snprintf(out, len, "(not found)");
	if (sqlite3_prepare_v2(db,
	                       "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?1",
	                       -1, &st, NULL) != SQLITE_OK)
		return;
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		sql = (const char *)sqlite3_column_text(st, 0);
	p = sql ? strchr(sql, '(') : NULL;
	/* each column definition: from after a top-level ( or , to the next */
	for (start = p ? p + 1 : NULL; p && *p; p++) {
		if (q) {
			q = *p == q ? 0 : q;
			continue;
		}
		if (*p == '\'' || *p == '"' || *p == '`' || *p == '[')
			q = *p == '[' ? ']' : *p;
		else if (*p == '(')
			depth++;
		else if (*p == ')' && --depth == 0)
			break;
		else if (*p == ',' && depth == 1)
			start = p + 1;
		else if (depth == 1 && (p[0] == 'A' || p[0] == 'a') &&
		         (p[1] == 'S' || p[1] == 's') && isspace((unsigned char)p[-1])) {
			const char *n = start, *a = p + 2, *e;
			size_t nl;

			while (isspace((unsigned char)*n))
				n++;
			nl = strlen(name);
			if (*n == '"' || *n == '`' || *n == '[')
				n++;
			while (isspace((unsigned char)*a))
				a++;
			if (*a != '(' || strncasecmp(n, name, nl) != 0 ||
			    (isalnum((unsigned char)n[nl]) || n[nl] == '_'))
				continue;
			for (e = a, depth = 0; *e; e++) /* its balanced (...) */
				if (*e == '(')
					depth++;
				else if (*e == ')' && --depth == 0)
					break;
			if (*e && (size_t)(e - a - 1) < len)
				snprintf(out, len, "%.*s", (int)(e - a - 1), a + 1);
			break;
		}
	}
	sqlite3_finalize(st);
}

static int read_columns(sqlite3 *db, const char *table, struct table_shape *t, struct err *e)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(db,
	                       "SELECT name, type, pk, hidden, dflt_value FROM "
	                       "pragma_table_xinfo(?1)",
	                       -1, &st, NULL) != SQLITE_OK)
		return fail(db, "reading its columns", e);
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct shape_col *c = &t->cols[t->ncols];
		int hidden = sqlite3_column_int(st, 3); /* 2, 3: generated */

		if (hidden == 1)
			continue; /* a virtual table's hidden column */
		if (t->ncols == SHAPE_COLS_MAX) {
			shape_note(t->notes, sizeof t->notes, "columns past the %dth are left out",
			           SHAPE_COLS_MAX);
			break;
		}
		memset(c, 0, sizeof *c);
		snprintf(c->name, sizeof c->name, "%s", (const char *)sqlite3_column_text(st, 0));
		snprintf(c->decl, sizeof c->decl, "%s",
		         sqlite3_column_text(st, 1) ? (const char *)sqlite3_column_text(st, 1)
		                                    : "");
		c->pk = sqlite3_column_int(st, 2);
		if (sqlite3_column_text(st, 4))
			snprintf(c->dflt, sizeof c->dflt, "%s",
			         (const char *)sqlite3_column_text(st, 4));
		if (hidden == 2 || hidden == 3) { /* GENERATED ALWAYS AS (...) */
			generated_expr(db, table, c->name, c->gen, sizeof c->gen);
			c->gen_stored = hidden == 3;
		}
		c->ndistinct = -1;
		c->correlation = NAN;
		c->top_freq = NAN;
		map_type(c);
		t->ncols++;
	}
	sqlite3_finalize(st);
	return 0;
}

/* The rowid's alias (a lone INTEGER PRIMARY KEY of a rowid table) counts
 * up: SQLite gives a new row the largest rowid + 1 (AUTOINCREMENT: never
 * one used before). */
static void mark_counter(sqlite3 *db, const char *table, int rowid, struct table_shape *t)
{
	sqlite3_stmt *st;
	int i, pk = -1, npk = 0, autoinc = 0;

	for (i = 0; i < t->ncols; i++)
		if (t->cols[i].pk) {
			npk++;
			pk = i;
		}
	if (!rowid || npk != 1 || strcasecmp(t->cols[pk].decl, "INTEGER") != 0)
		return;
	if (sqlite3_prepare_v2(db,
	                       "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?1 "
	                       "AND sql LIKE '%AUTOINCREMENT%'",
	                       -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
		autoinc = sqlite3_step(st) == SQLITE_ROW;
		sqlite3_finalize(st);
	}
	t->cols[pk].counter =
	    autoinc ? "INTEGER PRIMARY KEY AUTOINCREMENT" : "INTEGER PRIMARY KEY (the rowid)";
}

static int col_of(const struct table_shape *t, const char *name)
{
	int i;

	for (i = 0; i < t->ncols; i++)
		if (strcmp(t->cols[i].name, name) == 0)
			return i;
	return -1;
}

/* Past a quoted name or string at s (", ', ` or [...]); s itself when it
 * is none. */
static const char *skip_quoted(const char *s)
{
	char end = *s == '[' ? ']' : *s;

	if (*s != '"' && *s != '\'' && *s != '`' && *s != '[')
		return s;
	for (s++; *s; s++)
		if (*s == end && s[1] == end && end != ']')
			s++;
		else if (*s == end)
			return s + 1;
	return s;
}

/* The key list and the WHERE of a CREATE INDEX statement, as written:
 * "CREATE INDEX n ON t(lower(email)) WHERE x IS NULL". 0, or -1 when the
 * statement is not read so or a part is longer than the shape keeps. */
static int index_sql_parts(const char *sql, struct shape_index *x)
{
	const char *c = sql, *open = NULL, *close = NULL;
	int depth = 0;
	size_t n;

	for (; *c && !close; c = *c ? c + 1 : c) {
		const char *q = skip_quoted(c);

		if (q != c) {
			c = q - 1;
			continue;
		}
		if (!open && (c == sql || !isalnum((unsigned char)c[-1])) &&
		    strncasecmp(c, "on", 2) == 0 && isspace((unsigned char)c[2])) {
			for (c += 2; isspace((unsigned char)*c); c++)
				;
			c = skip_quoted(c); /* the table's name */
			while (*c && *c != '(')
				c++;
			if (!*c)
				return -1;
			open = c;
			depth = 1;
			continue;
		}
		if (open && *c == '(')
			depth++;
		else if (open && *c == ')' && --depth == 0)
			close = c;
	}
	if (!close || (size_t)(close - open - 1) >= sizeof x->keys)
		return -1;
	snprintf(x->keys, sizeof x->keys, "%.*s", (int)(close - open - 1), open + 1);
	for (c = close + 1; isspace((unsigned char)*c); c++)
		;
	if (strncasecmp(c, "where", 5) != 0 || isalnum((unsigned char)c[5]))
		return *c && *c != ';' ? -1 : 0;
	for (c += 5; isspace((unsigned char)*c); c++)
		;
	n = strlen(c);
	while (n && (isspace((unsigned char)c[n - 1]) || c[n - 1] == ';'))
		n--;
	if (n >= sizeof x->where)
		return -1;
	snprintf(x->where, sizeof x->where, "%.*s", (int)n, c);
	return 0;
}

/* The indexes in creation order, the primary key's own among them (a
 * rowid table's INTEGER PRIMARY KEY has none: it is the rowid; a WITHOUT
 * ROWID table's is the table, in no sqlite_schema row: first). */
static int read_indexes(sqlite3 *db, const char *table, struct table_shape *t, struct err *e)
{
	sqlite3_stmt *st, *info, *cols;

	if (sqlite3_prepare_v2(
	        db,
	        "SELECT l.name, l.\"unique\", l.origin, l.partial, s.sql FROM "
	        "pragma_index_list(?1) l LEFT JOIN sqlite_schema s ON s.name = l.name AND "
	        "s.type = 'index' ORDER BY s.rowid IS NOT NULL, s.rowid",
	        -1, &st, NULL) != SQLITE_OK)
		return fail(db, "reading its indexes", e);
	if (sqlite3_prepare_v2(db, "SELECT cid, name FROM pragma_index_xinfo(?1) WHERE key = 1", -1,
	                       &info, NULL) != SQLITE_OK) {
		sqlite3_finalize(st);
		return fail(db, "reading its indexes", e);
	}
	cols = info;
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW && t->nindexes < SHAPE_IDX_MAX) {
		struct shape_index *x = &t->idx[t->nindexes];
		const char *origin = (const char *)sqlite3_column_text(st, 2);
		const char *sql = (const char *)sqlite3_column_text(st, 4);
		int expr = 0;

		memset(x, 0, sizeof *x);
		snprintf(x->name, sizeof x->name, "%s", (const char *)sqlite3_column_text(st, 0));
		x->unique = sqlite3_column_int(st, 1);
		x->pk = origin && strcmp(origin, "pk") == 0;
		if (sqlite3_column_int(st, 3) &&
		    (!sql || index_sql_parts(sql, x) < 0 || !x->where[0]))
			x->skip = "a partial index whose WHERE idxlab could not read";
		sqlite3_reset(cols);
		sqlite3_bind_text(cols, 1, x->name, -1, SQLITE_TRANSIENT);
		while (sqlite3_step(cols) == SQLITE_ROW) {
			const char *name = (const char *)sqlite3_column_text(cols, 1);
			int c = name ? col_of(t, name) : -1;

			if (sqlite3_column_int(cols, 0) < 0 || c < 0) {
				expr = 1;
				continue;
			}
			if (x->ncols < SCHEMA_IDX_COLS)
				x->cols[x->ncols++] = c;
			else
				x->skip = "more than 8 columns";
		}
		if (!expr)
			x->keys[0] = 0; /* its columns, as read */
		else if (!x->skip && (!sql || index_sql_parts(sql, x) < 0))
			x->skip = "an expression index whose keys idxlab could not read";
		t->nindexes++;
	}
	sqlite3_finalize(info);
	sqlite3_finalize(st);
	return 0;
}

/* sqlite_stat1: "N a b ...": N rows, a rows per distinct leading value. */
static void read_stat1(sqlite3 *db, const char *table, struct table_shape *t)
{
	sqlite3_stmt *st;
	int i, used = 0;

	if (sqlite3_prepare_v2(db, "SELECT idx, stat FROM sqlite_stat1 WHERE tbl = ?1", -1, &st,
	                       NULL) != SQLITE_OK)
		return; /* never analysed */
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *idx = (const char *)sqlite3_column_text(st, 0);
		const char *stat = (const char *)sqlite3_column_text(st, 1);
		double n, per;

		if (!idx || !stat || sscanf(stat, "%lf %lf", &n, &per) != 2 || per <= 0)
			continue;
		t->rows = n;
		for (i = 0; i < t->nindexes; i++)
			if (strcmp(t->idx[i].name, idx) == 0 && t->idx[i].ncols) {
				t->cols[t->idx[i].cols[0]].ndistinct = n / per;
				used = 1;
			}
	}
	sqlite3_finalize(st);
	if (used)
		snprintf(t->stats_from, sizeof t->stats_from, "sqlite_stat1");
}

/* Rows: sqlite_stat1's, else the largest rowid (no scan of a big table). */
static void count_rows(sqlite3 *db, const char *table, int rowid, struct table_shape *t)
{
	char sql[512], *q = sqlite3_mprintf("%w", table);
	sqlite3_stmt *st;

	snprintf(sql, sizeof sql,
	         rowid ? "SELECT max(rowid) FROM \"%s\"" : "SELECT count(*) FROM \"%s\"", q);
	sqlite3_free(q);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		t->rows = sqlite3_column_double(st, 0);
	sqlite3_finalize(st);
}

/* What the copy does not reproduce, by name: foreign keys, triggers. */
static void note_not_built(sqlite3 *db, const char *table, struct table_shape *t)
{
	static const char *const sql[] = {
		"SELECT group_concat(f, ', ') FROM (SELECT '(' || group_concat(\"from\", ', ') || "
		"') -> ' || \"table\" AS f FROM pragma_foreign_key_list(?1) GROUP BY id)",
		"SELECT group_concat(name, ', ') FROM sqlite_schema WHERE type = 'trigger' AND "
		"tbl_name = ?1",
	};
	static const char *const what[] = { "foreign keys", "triggers" };
	static const char *const why[] = {
		"with PRAGMA foreign_keys on, each insert there looks its key up in the table it "
		"references: a lookup per row the copy does not pay",
		"the work they do per row is not measured",
	};
	size_t i;

	for (i = 0; i < sizeof sql / sizeof sql[0]; i++) {
		sqlite3_stmt *st;

		if (sqlite3_prepare_v2(db, sql[i], -1, &st, NULL) != SQLITE_OK)
			continue;
		sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
			shape_note(t->notes, sizeof t->notes, "%s %s are not reproduced (%s)",
			           what[i], (const char *)sqlite3_column_text(st, 0), why[i]);
		sqlite3_finalize(st);
	}
}

int sqlite_read_shape(const char *source, const char *table, struct table_shape *t, struct err *e)
{
	sqlite3 *db = NULL;
	int rowid = 1, rc;

	if (sqlite_source_open(source, &db, t->notes, sizeof t->notes, e) < 0)
		return -1;
	rc = find_table(db, table, &rowid, e) < 0 || read_columns(db, table, t, e) < 0 ||
	             read_indexes(db, table, t, e) < 0
	         ? -1
	         : 0;
	if (rc < 0 && t->notes[0]) /* what was not seen may be why (a WAL's frames): */
		err_prefix(e, "%.*s", (int)strcspn(t->notes, "\n"), t->notes); /* its first note */
	if (rc == 0) {
		t->clustered = !rowid;
		note_not_built(db, table, t);
		mark_counter(db, table, rowid, t);
		count_rows(db, table, rowid, t);
		read_stat1(db, table, t);
		rc = sqlite_sample_shape(db, table, t, e);
	}
	sqlite3_close(db);
	return rc;
}
