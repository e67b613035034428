/* multirow.c - --load multirow on SQLite: INSERT ... VALUES (...), (...)
 *
 * The rows of a transaction are kept (their numbers) until a statement's
 * worth is there - MULTIROW_MAX rows, fewer when the commit size is
 * smaller, fewer when SQLite's parameter limit says so - then bound and
 * stepped at once; the rest goes at commit, in a statement of its size. The
 * values are schema_value()'s, the same as a statement per row writes. */
#include <stdlib.h>
#include <string.h>

#include "../../xalloc.h"
#include "sqlite_int.h"

#define MULTIROW_MAX 1000

void sqlite_multirow_free(struct engine *en)
{
	sqlite3_finalize(en->mr.full);
	free(en->mr.rows);
	memset(&en->mr, 0, sizeof en->mr);
}

/* The INSERT of n rows: the single-row INSERT's head, n value tuples. */
static int prepare(struct engine *en, int n, sqlite3_stmt **out, struct err *e)
{
	const struct sqlite_write *w = &en->w[OP_INSERT];
	const char *one = sqlite3_sql(w->st), *values = one ? strstr(one, " VALUES(") : NULL;
	size_t head = values ? (size_t)(values - one) : 0, tuple = 2 * (size_t)w->ncols + 7;
	char *sql, *p;
	int i, j, rc;

	if (!values)
		return err_set(e, ERR_RUNTIME, "multirow: no INSERT to extend (a bug in idxlab)");
	sql = xcalloc(1, head + 8 + (size_t)n * (tuple + 1) + 1);
	memcpy(sql, one, head);
	p = sql + head;
	p += strlen(strcpy(p, " VALUES"));
	for (i = 0; i < n; i++) {
		*p++ = i ? ',' : ' ';
		*p++ = '(';
		*p++ = '?';
		for (j = 0; j < w->ncols; j++)
			p += strlen(strcpy(p, ",?"));
		p += strlen(strcpy(p, schema_has_hot(en->s) ? ",0" : ""));
		p += strlen(strcpy(p, w->payload_param ? ",?)" : ")"));
	}
	rc = sqlite3_prepare_v2(en->db, sql, -1, out, NULL);
	free(sql);
	return rc == SQLITE_OK ? 0 : sqlite_fail(en, e, "prepare a multi-row insert");
}

int sqlite_multirow_prepare(struct engine *en, const struct knobs *k, struct err *e)
{
	const struct sqlite_write *w = &en->w[OP_INSERT];
	int per_row = w->ncols + 1 + (w->payload_param != 0),
	    limit = sqlite3_limit(en->db, SQLITE_LIMIT_VARIABLE_NUMBER, -1);
	long long commit = k->v[K_COMMIT];

	sqlite_multirow_free(en);
	if (k->v[K_LOAD] != LOAD_MULTIROW || k->v[K_OP] != OP_INSERT)
		return 0;
	en->mr.max = MULTIROW_MAX;
	if (commit != COMMIT_ALL && commit < en->mr.max)
		en->mr.max = (int)commit;
	if (en->mr.max * per_row > limit)
		en->mr.max = limit / per_row;
	en->mr.rows = xcalloc((size_t)en->mr.max, sizeof *en->mr.rows);
	return prepare(en, en->mr.max, &en->mr.full, e);
}

/* Step the kept rows, in st (a statement of exactly that many rows). */
static int run(struct engine *en, sqlite3_stmt *st, struct err *e)
{
	const struct sqlite_write *w = &en->w[OP_INSERT];
	int per_row = w->ncols + 1 + (w->payload_param != 0), i, j, rc;

	for (i = 0; i < en->mr.n; i++) {
		int base = i * per_row;
		struct value v;

		for (j = 0; j <= w->ncols; j++) {
			schema_value(en->s, &en->k, j ? w->cols[j - 1] : 0, en->mr.rows[i], 0, &v);
			sqlite_bind_value(st, base + j + 1, &v, SQLITE_TRANSIENT);
		}
		if (w->payload_param)
			sqlite3_bind_blob(st, base + per_row, en->payload, (int)en->k.v[K_PAYLOAD],
			                  SQLITE_STATIC);
	}
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	en->mr.n = 0;
	return rc == SQLITE_DONE ? 0 : sqlite_fail(en, e, "multi-row insert");
}

int sqlite_multirow_add(struct engine *en, uint64_t row, struct err *e)
{
	en->mr.rows[en->mr.n++] = row;
	return en->mr.n == en->mr.max ? run(en, en->mr.full, e) : 0;
}

int sqlite_multirow_flush(struct engine *en, struct err *e)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (!en->mr.n)
		return 0;
	if (prepare(en, en->mr.n, &st, e) < 0)
		return -1;
	rc = run(en, st, e);
	sqlite3_finalize(st);
	return rc;
}
