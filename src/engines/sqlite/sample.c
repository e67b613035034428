/* sample.c - a bounded sample of a user's SQLite table, for --schema-from:
 * SAMPLE_ROWS rows, each column selected by its name. A rowid table of more
 * rowids than that is read in SAMPLE_RUNS runs of up to SAMPLE_RUN
 * consecutive rows (rowid order), each starting at an evenly spaced rowid
 * (WHERE rowid >= ?: a seek, not a scan), so lengths, NULL shares and
 * distinct values are those of the whole table, not of its start; a
 * smaller one, or a WITHOUT ROWID table (a note says so), is read from its
 * start. The runs are read one after another as one sequence: the order
 * evidence (rises and falls, rows at or above every row before them) is
 * that of consecutive rows, and a run's first row is compared with the
 * last of the run before, so a column that grows over the table is seen
 * growing across the runs too.
 *
 * Of each sampled value only its length and a hash of it are kept, and of
 * the row before it (and of the largest and smallest so far) its first
 * SAMPLE_KEEP bytes: its order is judged as the rows come, so a table of
 * big values costs no more memory than one of small ones, one row's values
 * at a time. From it: each column's distinct values and most common share
 * (when sqlite_stat1 has none), how its values rise and fall in the
 * table's order, its NULL share, what SQLite stores in it and, when that
 * is numbers only, their least and greatest. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../../schema_from.h"
#include "../../xalloc.h"
#include "sqlite_int.h"

#define SAMPLE_ROWS 10000
#define SAMPLE_RUNS 10                          /* runs of consecutive rows in it */
#define SAMPLE_RUN  (SAMPLE_ROWS / SAMPLE_RUNS) /* rows in one run */
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
	struct sval *vals; /* room for the rows the sample can hold (cap) */
	/* what the rows hold, by SQLite's storage class (typeof), and the
	 * length of the values that are not NULL */
	int nnull, ntext, nint, nreal;
	double textlen;
	struct kept prev, max, min;
	double rise, fall, at_max, at_min;
	double lo, hi; /* the least and greatest number (nint + nreal of them) */
};

/* A value as keep() takes it. */
struct sample_value {
	const unsigned char *b; /* its bytes (a number's as text: for its hash) */
	uint32_t len;
	int class; /* as prev_class */
	double num;
};

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
	char decl[sizeof c->decl]; /* a copy: the notes below are written beside it */

	if (!n)
		return;
	memcpy(decl, c->decl, sizeof decl);
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
	/* numbers only: their range (the copy's in:LO..HI) */
	c->s_ranged = sc->nint + sc->nreal > 0 && sc->nint + sc->nreal == have;
	c->s_min = sc->lo;
	c->s_max = sc->hi;
	if (c->type == COL_TIMESTAMP && have && sc->ntext * 2 > have) {
		c->type = COL_TIMESTAMPTZ;
		snprintf(c->type_note, sizeof c->type_note,
		         "%.40s holding text: written as datetime()'s text", decl);
	}
	if (c->type == COL_NUMERIC && c->scale && have && sc->nint == have) {
		c->scale = 0;
		snprintf(c->type_note, sizeof c->type_note,
		         "%.40s holding integers only (typeof): numeric(%d,0)", decl, c->prec);
	}
}

/* The name the rowid reads by in table: rowid, _rowid_ or oid, the first
 * that no column of it is named (a column by that name hides it); NULL
 * when a WITHOUT ROWID table has none, or every one is a column's. */
static const char *rowid_name(const struct table_shape *t)
{
	static const char *const names[] = { "rowid", "_rowid_", "oid" };
	size_t k;
	int i, taken;

	if (t->clustered)
		return NULL;
	for (k = 0; k < sizeof names / sizeof names[0]; k++) {
		for (i = 0, taken = 0; i < t->ncols && !taken; i++)
			taken = strcasecmp(t->cols[i].name, names[k]) == 0;
		if (!taken)
			return names[k];
	}
	return NULL;
}

/* SELECT "c1", "c2", ... FROM "table": by name, so a column the shape
 * leaves out (or a generated one SELECT * would place elsewhere) cannot
 * shift the values onto another column. With rowid (the sample's runs):
 * the rowid last, WHERE rowid >= ?1 ORDER BY rowid LIMIT ?2; else the
 * first SAMPLE_ROWS rows in the table's order. */
static char *sample_sql(const char *table, const struct table_shape *t, const char *rowid)
{
	sqlite3_str *q = sqlite3_str_new(NULL);
	int i;

	sqlite3_str_appendall(q, "SELECT ");
	for (i = 0; i < t->ncols; i++)
		sqlite3_str_appendf(q, "%s\"%w\"", i ? ", " : "", t->cols[i].name);
	if (rowid)
		sqlite3_str_appendf(q, ", %s FROM \"%w\" WHERE %s >= ?1 ORDER BY %s LIMIT ?2",
		                    rowid, table, rowid, rowid);
	else
		sqlite3_str_appendf(q, " FROM \"%w\" LIMIT %d", table, SAMPLE_ROWS);
	return sqlite3_str_finish(q);
}

/* The smallest and largest rowid (two seeks in the table's btree); 0 when
 * the table is empty or they cannot be read. */
static int rowid_range(sqlite3 *db, const char *table, const char *rowid, sqlite3_int64 *lo,
                       sqlite3_int64 *hi)
{
	/* each in its own SELECT: min() and max() together would scan the table */
	char *sql = sqlite3_mprintf("SELECT (SELECT min(%s) FROM \"%w\"), (SELECT max(%s) FROM "
	                            "\"%w\")",
	                            rowid, table, rowid, table);
	sqlite3_stmt *st = NULL;
	int ok = 0;

	if (sql && sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) == SQLITE_INTEGER) {
		*lo = sqlite3_column_int64(st, 0);
		*hi = sqlite3_column_int64(st, 1);
		ok = 1;
	}
	sqlite3_finalize(st);
	sqlite3_free(sql);
	return ok;
}

/* Row n of the sample: each column's value as keep() takes it, its storage
 * class and length. */
static void take_row(sqlite3_stmt *st, struct scol *cols, int ncols, int n)
{
	int i;

	for (i = 0; i < ncols; i++) {
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
		if (x.class == 1 && (!(cols[i].nint + cols[i].nreal) || x.num < cols[i].lo))
			cols[i].lo = x.num;
		if (x.class == 1 && (!(cols[i].nint + cols[i].nreal) || x.num > cols[i].hi))
			cols[i].hi = x.num;
		cols[i].ntext += type == SQLITE_TEXT;
		cols[i].nint += type == SQLITE_INTEGER;
		cols[i].nreal += type == SQLITE_FLOAT;
		cols[i].textlen += x.len;
	}
}

/* SAMPLE_RUNS runs of consecutive rows (rowid order) starting at evenly
 * spaced rowids from lo to hi, each after the one before: read one after
 * another, a run's first row compared with the last of the run before (a
 * growing column grows across them too). How many rows were read. */
static int read_runs(sqlite3_stmt *st, struct scol *cols, int ncols, sqlite3_int64 lo,
                     sqlite3_int64 hi, int *runs)
{
	uint64_t step = ((uint64_t)hi - (uint64_t)lo) / SAMPLE_RUNS;
	sqlite3_int64 next = lo, last = lo;
	int n = 0, k, got = 1;

	*runs = 0;
	for (k = 0; k < SAMPLE_RUNS && got && !(n && last == hi); k++) {
		sqlite3_int64 at = (sqlite3_int64)((uint64_t)lo + step * (uint64_t)k);

		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, at < next ? next : at);
		sqlite3_bind_int(st, 2, SAMPLE_RUN);
		for (got = 0; sqlite3_step(st) == SQLITE_ROW; got++) {
			take_row(st, cols, ncols, n++);
			last = sqlite3_column_int64(st, ncols);
		}
		next = last + (last < hi); /* the next run starts past this one */
		*runs += got > 0;
	}
	return n;
}

int sqlite_sample_shape(sqlite3 *db, const char *table, struct table_shape *t, struct err *e)
{
	struct scol *cols;
	struct sval *all;
	char *sql;
	sqlite3_stmt *st = NULL;
	const char *rowid = rowid_name(t);
	sqlite3_int64 lo = 0, hi = 0;
	int n = 0, i, stat1 = t->stats_from[0] != 0, rc, runs = 0, spread, have_range, cap;

	if (!t->ncols)
		return 0;
	/* A table of more rowids than the sample holds is read in runs spread
	 * over them; a smaller one (or one without a rowid) from its start. */
	have_range = rowid && rowid_range(db, table, rowid, &lo, &hi);
	spread = have_range && (uint64_t)hi - (uint64_t)lo >= SAMPLE_ROWS;
	sql = sample_sql(table, t, spread ? rowid : NULL);
	rc = sql ? sqlite3_prepare_v2(db, sql, -1, &st, NULL) : SQLITE_NOMEM;
	sqlite3_free(sql);
	if (rc != SQLITE_OK)
		return err_set(e, ERR_USAGE, "sqlite: reading a sample of its rows: %s",
		               sqlite3_errmsg(db));
	/* one block for every column's values, as many as the table can hold
	 * (a small table of a wide row costs what it holds, not 10000 slots a
	 * column); a WITHOUT ROWID table: SAMPLE_ROWS */
	cap = spread || !have_range ? SAMPLE_ROWS : (int)(hi - lo + 1);
	cols = xcalloc((size_t)t->ncols, sizeof *cols);
	all = xcalloc((size_t)t->ncols * (size_t)cap, sizeof *all);
	for (i = 0; i < t->ncols; i++)
		cols[i].vals = all + (size_t)i * (size_t)cap;
	if (spread)
		n = read_runs(st, cols, t->ncols, lo, hi, &runs);
	else
		while (n < cap && sqlite3_step(st) == SQLITE_ROW)
			take_row(st, cols, t->ncols, n++);
	sqlite3_finalize(st);
	/* read from its start: fewer rows than the sample holds are all of them */
	if (!stat1 || t->rows <= 0)
		t->rows = !spread && n < SAMPLE_ROWS ? n : t->rows > 0 ? t->rows : n;
	for (i = 0; i < t->ncols; i++) {
		judge(&t->cols[i], &cols[i], n, t->rows, stat1);
		storage(&t->cols[i], &cols[i], n, t->rows, stat1);
	}
	free(all);
	free(cols);
	if (spread) {
		if (!stat1)
			snprintf(t->stats_from, sizeof t->stats_from,
			         "a sample of %d rows in %d runs at spaced rowids", n, runs);
		shape_note(t->notes, sizeof t->notes,
		           "the sample: %d runs of up to %d consecutive rows at evenly spaced "
		           "rowids from %lld to %lld, %d rows in all: orders, lengths, NULLs and "
		           "distinct values from all of them",
		           runs, SAMPLE_RUN, (long long)lo, (long long)hi, n);
	} else if (!stat1) {
		snprintf(t->stats_from, sizeof t->stats_from, "a sample of its first %d rows", n);
	} else {
		shape_note(t->notes, sizeof t->notes,
		           "orders and lengths from a sample of its first %d rows", n);
	}
	if (!rowid && n == SAMPLE_ROWS)
		shape_note(t->notes, sizeof t->notes,
		           "%s: its first %d rows in primary key order are the sample (lengths, "
		           "NULLs and distinct values of its start only)",
		           t->clustered ? "WITHOUT ROWID" : "its rowid is hidden by columns", n);
	return 0;
}
