/* catalog.c - the shape of a user's SQLite table, for --schema-from.
 *
 * The file is opened so that nothing is created or written beside it
 * (source.c), with query_only on top. The columns come from PRAGMA
 * table_xinfo, the indexes from sqlite_schema in creation order with PRAGMA
 * index_list / index_xinfo; the value orders from sqlite_stat1 when ANALYZE
 * left one (distinct values of each index's leading column), and otherwise -
 * and for every column's order and length - from a bounded sample: the first
 * SAMPLE_ROWS rows in the table's order, each column selected by its name.
 * Of each sampled value only its length and a hash of it are kept, and of
 * the row before it its first SAMPLE_KEEP bytes (its order is judged as
 * the rows come), so a table of big values costs no more memory than one
 * of small ones: one row's values at a time. */
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

#define SAMPLE_ROWS 10000
#define SAMPLE_KEEP 4096 /* bytes of the previous row's value kept, for its order */

/* One sampled value: all the derivation needs of it (equal values have the
 * same length and hash; a 64-bit hash makes a false match in 10000 values
 * vanishingly rare). */
struct sval {
	uint64_t hash; /* FNV-1a of all of it */
	uint32_t len;  /* its length in bytes */
};

/* A value kept for comparing later ones with: its first SAMPLE_KEEP bytes
 * (or its number), its length and hash. */
struct kept {
	unsigned char b[SAMPLE_KEEP];
	uint32_t len, kept;
	int class; /* 0 NULL, 1 a number, 2 text or a blob */
	double num;
	uint64_t hash;
};

/* A column while it is sampled: the previous row's value, the largest and
 * the smallest so far, how often a value was above or below the one before
 * it (rise, fall), and how often it was at or above every value before it
 * (at_max: a new right-hand entry of an index) or at or below every one
 * (at_min), in the table's order (SQLite's own order: NULL, then numbers by
 * value, then text and blobs by their bytes). */
struct scol {
	struct sval *vals; /* SAMPLE_ROWS */
	/* what the rows hold, by SQLite's storage class (typeof), and the
	 * length of the values that are not NULL */
	int nnull, ntext, nint, nreal;
	double textlen;
	struct kept prev, max, min;
	double rise, fall, at_max, at_min;
};

/* A value as keep() takes it. */
struct sample_value {
	const unsigned char *b; /* its bytes (a number's as text: for its hash) */
	uint32_t len;
	int class; /* as prev_class */
	double num;
};

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
		if (hidden == 2 || hidden == 3) /* GENERATED ALWAYS AS (...) */
			shape_note(t->notes, sizeof t->notes,
			           "%s is a generated column (%s) there: here an ordinary one, "
			           "its values sampled as they read",
			           c->name, hidden == 2 ? "VIRTUAL" : "STORED");
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

static int cmp_sval(const void *a, const void *b)
{
	const struct sval *x = a, *y = b;

	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return (x->hash > y->hash) - (x->hash < y->hash);
}

/* Keep row n's value b (len bytes) of column c: its length and hash, and
 * whether it is not smaller than the row before. That is exact unless the
 * previous value was longer than SAMPLE_KEEP and agrees with this one over
 * all of it: then it counts half. */
/* How k compares with x (hash h): -1 below it, 0 equal, 1 above, 2 not
 * known (k was cut at SAMPLE_KEEP bytes and agrees with x over all of it). */
static int compare(const struct kept *k, const struct sample_value *x, uint64_t h)
{
	uint32_t m = x->len < k->kept ? x->len : k->kept;
	int cmp;

	if (k->class != x->class)
		return k->class < x->class ? -1 : 1;
	if (x->class == 1)
		return (k->num > x->num) - (k->num < x->num);
	if ((cmp = m ? memcmp(k->b, x->b, m) : 0) != 0)
		return cmp < 0 ? -1 : 1;
	if (k->kept == k->len || x->len <= k->kept) /* one is a prefix of the other */
		return (k->len > x->len) - (k->len < x->len);
	return k->len == x->len && k->hash == h ? 0 : 2;
}

static void remember(struct kept *k, const struct sample_value *x, uint64_t h)
{
	k->class = x->class;
	k->num = x->num;
	k->len = x->len;
	k->hash = h;
	k->kept = x->len < SAMPLE_KEEP ? x->len : SAMPLE_KEEP;
	if (k->kept)
		memcpy(k->b, x->b, k->kept);
}

static void keep(struct scol *c, int n, const struct sample_value *x)
{
	struct sval *v = &c->vals[n];
	uint64_t h = 14695981039346656037ULL;
	uint32_t i;
	int cmp;

	for (i = 0; i < x->len; i++)
		h = (h ^ x->b[i]) * 1099511628211ULL;
	v->hash = h;
	v->len = x->len;
	if (!n) {
		remember(&c->max, x, h);
		remember(&c->min, x, h);
	} else {
		cmp = compare(&c->prev, x, h);
		c->rise += cmp == 2 ? 0.5 : cmp < 0;
		c->fall += cmp == 2 ? 0.5 : cmp > 0;
		cmp = compare(&c->max, x, h);
		c->at_max += cmp == 2 ? 0.5 : cmp <= 0;
		if (cmp < 0)
			remember(&c->max, x, h);
		cmp = compare(&c->min, x, h);
		c->at_min += cmp == 2 ? 0.5 : cmp >= 0;
		if (cmp == 1)
			remember(&c->min, x, h);
	}
	remember(&c->prev, x, h);
}

/* One column of the sample: its distinct values, the share of the most
 * common one, its order (keep), its mean length. */
static void judge(struct shape_col *c, struct scol *sc, int n, double rows, int stat1)
{
	struct sval *vals = sc->vals;
	int i, distinct = n ? 1 : 0, run = 1, top = n ? 1 : 0;
	double len = 0;

	for (i = 0; i < n; i++)
		len += vals[i].len;
	if (n > 1) /* the rows that did not fall, as a correlation would say */
		c->correlation = 2.0 * (n - 1 - sc->fall) / (n - 1) - 1;
	c->sampled = n;
	c->s_up = sc->rise;
	c->s_down = sc->fall;
	c->s_atmax = sc->at_max;
	c->s_atmin = sc->at_min;
	if (c->type == COL_TEXT && n) /* the mean length: what the index holds */
		c->len = (int)lround(len / n < 1 ? 1 : len / n);
	else if (c->type == COL_TEXT && !c->len)
		c->len = 16;
	if (c->type == COL_TEXT && c->len == 16 && strstr(c->decl, "BLOB"))
		c->type = COL_UUID;
	qsort(vals, (size_t)n, sizeof *vals, cmp_sval);
	for (i = 1; i < n; i++) {
		if (cmp_sval(&vals[i - 1], &vals[i]) == 0) {
			if (++run > top)
				top = run;
		} else {
			distinct++;
			run = 1;
		}
	}
	if (n)
		c->top_freq = (double)top / n;
	c->s_distinct = distinct;
	if (stat1 && c->ndistinct >= 0)
		return;
	if (!n)
		return;
	/* All different: one per row. Few: the sample saw them all. */
	c->ndistinct = distinct == n ? rows : distinct * 2 < n ? distinct : rows * distinct / n;
}

/* What the sampled rows hold, beside their order: the NULL share, a text
 * column's mean length over the values that are not NULL, and the type
 * as SQLite stored it (typeof): a time of text values is timestamptz here
 * (written as datetime()'s text), a numeric of integers only has scale 0. */
static void storage(struct shape_col *c, const struct scol *sc, int n, double rows, int stat1)
{
	int have = n - sc->nnull, i, distinct = 0, run = 0, top = 0, skipped = 0;

	if (!n)
		return;
	c->nulls = (double)sc->nnull / n;
	/* NULLs are no value: the distinct values and the commonest one's share
	 * among the rest (judge sorted them; a NULL is kept as an empty value) */
	for (i = 0; sc->nnull && have && i < n; i++) {
		const struct sval *v = &sc->vals[i];

		if (!v->len && skipped < sc->nnull) {
			skipped++;
			continue;
		}
		if (run && cmp_sval(&sc->vals[i - 1], v) == 0 && sc->vals[i - 1].len) {
			run++;
		} else {
			distinct++;
			run = 1;
		}
		top = run > top ? run : top;
	}
	if (sc->nnull && have) {
		c->top_freq = (double)top / have;
		if (!(stat1 && c->ndistinct >= 0))
			c->ndistinct = distinct == have      ? rows
			               : distinct * 2 < have ? distinct
			                                     : rows * distinct / have;
	}
	if (c->type == COL_TEXT && have)
		c->len = (int)lround(sc->textlen / have < 1 ? 1 : sc->textlen / have);
	if (c->type == COL_TIMESTAMP && have && sc->ntext * 2 > have) {
		c->type = COL_TIMESTAMPTZ;
		snprintf(c->type_note, sizeof c->type_note,
		         "%s holding text: written as datetime()'s text", c->decl);
	}
	if (c->type == COL_NUMERIC && c->scale && have && sc->nint == have) {
		c->scale = 0;
		snprintf(c->type_note, sizeof c->type_note,
		         "%s holding integers only (typeof): numeric(%d,0)", c->decl, c->prec);
	}
}

/* SELECT "c1", "c2", ... FROM "table" LIMIT SAMPLE_ROWS: by name, so a
 * column the shape leaves out (or a generated one SELECT * would place
 * elsewhere) cannot shift the values onto another column. */
static char *sample_sql(const char *table, const struct table_shape *t)
{
	sqlite3_str *q = sqlite3_str_new(NULL);
	int i;

	sqlite3_str_appendall(q, "SELECT ");
	for (i = 0; i < t->ncols; i++)
		sqlite3_str_appendf(q, "%s\"%w\"", i ? ", " : "", t->cols[i].name);
	sqlite3_str_appendf(q, " FROM \"%w\" LIMIT %d", table, SAMPLE_ROWS);
	return sqlite3_str_finish(q);
}

static int sample(sqlite3 *db, const char *table, struct table_shape *t, struct err *e)
{
	struct scol *cols;
	char *sql;
	sqlite3_stmt *st = NULL;
	int n = 0, i, stat1 = t->stats_from[0] != 0, rc;

	if (!t->ncols)
		return 0;
	sql = sample_sql(table, t);
	rc = sql ? sqlite3_prepare_v2(db, sql, -1, &st, NULL) : SQLITE_NOMEM;
	sqlite3_free(sql);
	if (rc != SQLITE_OK)
		return fail(db, "reading a sample of its rows", e);
	cols = xcalloc((size_t)t->ncols, sizeof *cols);
	for (i = 0; i < t->ncols; i++)
		cols[i].vals = xcalloc(SAMPLE_ROWS, sizeof *cols[i].vals);
	while (n < SAMPLE_ROWS && sqlite3_step(st) == SQLITE_ROW) {
		for (i = 0; i < t->ncols; i++) {
			int type = sqlite3_column_type(st, i);
			struct sample_value x = { .class = 2 };

			/* the type before any conversion, the number before the bytes */
			if (type == SQLITE_NULL)
				x.class = 0;
			if (type == SQLITE_INTEGER || type == SQLITE_FLOAT) {
				x.class = 1;
				x.num = sqlite3_column_double(st, i);
			}
			x.b = sqlite3_column_blob(st, i);
			x.len = x.b ? (uint32_t)sqlite3_column_bytes(st, i) : 0;
			keep(&cols[i], n, &x);
			cols[i].nnull += type == SQLITE_NULL;
			cols[i].ntext += type == SQLITE_TEXT;
			cols[i].nint += type == SQLITE_INTEGER;
			cols[i].nreal += type == SQLITE_FLOAT;
			cols[i].textlen += x.len;
		}
		n++;
	}
	sqlite3_finalize(st);
	if (!stat1 || t->rows <= 0)
		t->rows = n < SAMPLE_ROWS ? n : t->rows > 0 ? t->rows : n;
	for (i = 0; i < t->ncols; i++) {
		judge(&t->cols[i], &cols[i], n, t->rows, stat1);
		storage(&t->cols[i], &cols[i], n, t->rows, stat1);
		free(cols[i].vals);
	}
	free(cols);
	if (!stat1)
		snprintf(t->stats_from, sizeof t->stats_from, "a sample of its first %d rows", n);
	else
		shape_note(t->notes, sizeof t->notes,
		           "orders and lengths from a sample of its first %d rows", n);
	return 0;
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
	if (rc < 0 && t->notes[0]) /* what was not seen may be why (a WAL's frames) */
		err_prefix(e, "%s", t->notes);
	if (rc == 0) {
		t->clustered = !rowid;
		note_not_built(db, table, t);
		mark_counter(db, table, rowid, t);
		count_rows(db, table, rowid, t);
		read_stat1(db, table, t);
		rc = sample(db, table, t, e);
	}
	sqlite3_close(db);
	return rc;
}
