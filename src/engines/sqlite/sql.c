/* sql.c - the SQLite engine's handle: talking to en->db.
 *
 * Every failure becomes a message that says what to do about its common
 * causes (disk full, a place that cannot be written, out of memory). The
 * long statements (CREATE INDEX on a big table, VACUUM, a load) give up
 * when the user asks to stop, through the progress handler; the per-row
 * statements and the COMMIT that keeps a stopped step's rows never do. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sqlite_int.h"

/* An error from db, with what to do about the common causes. */
int sqlite_fail(struct engine *en, struct err *e, const char *what)
{
	int code = en->db ? sqlite3_errcode(en->db) : SQLITE_ERROR;
	int sys = en->db ? sqlite3_system_errno(en->db) : 0;
	const char *msg = en->db ? sqlite3_errmsg(en->db) : "cannot open";
	char os[128] = "";

	if (sys)
		snprintf(os, sizeof os, " (%s)", strerror(sys));
	switch (code & 0xff) {
	case SQLITE_FULL:
		return err_set(
		    e, ERR_RUNTIME,
		    "%s: disk full%s writing %s - free space there or lower --rows/--prefill", what,
		    sys ? os : "", en->path);
	case SQLITE_CANTOPEN:
	case SQLITE_READONLY:
	case SQLITE_PERM:
		return err_set(
		    e, ERR_RUNTIME,
		    "%s: cannot write %s: %s%s - choose a writable place with --dsn FILE "
		    "or TMPDIR",
		    what, en->path, msg, os);
	case SQLITE_IOERR:
		if (sys == ENOSPC)
			return err_set(
			    e, ERR_RUNTIME,
			    "%s: disk full (ENOSPC) writing %s - free space there or lower "
			    "--rows/--prefill",
			    what, en->path);
		return err_set(e, ERR_RUNTIME, "%s: I/O error on %s: %s%s - check the disk", what,
		               en->path, msg, os);
	case SQLITE_INTERRUPT:
		return err_set(e, ERR_RUNTIME, "%s: stopped", what);
	case SQLITE_NOMEM:
		return err_set(e, ERR_RUNTIME, "%s: out of memory - lower --cache", what);
	default:
		return err_set(e, ERR_RUNTIME, "%s: %s (sqlite code %d)", what, msg, code);
	}
}

/* Run sql. A stop aborts it (CREATE INDEX on a big table, VACUUM, a load
 * may take long) - unless it is the COMMIT that keeps a stopped step's
 * rows: the worker stops between rows, and the step's partial result
 * needs its transaction committed, not rolled back. */
int sqlite_run(struct engine *en, const char *sql, struct err *e)
{
	int rc;

	en->abortable = strcmp(sql, "COMMIT") != 0;
	rc = sqlite3_exec(en->db, sql, NULL, NULL, NULL);
	en->abortable = 0;
	if (rc != SQLITE_OK)
		return sqlite_fail(en, e, sql);
	return 0;
}

/* Read an integer pragma or one-value query. */
int sqlite_query_int(struct engine *en, const char *sql, int64_t *out, struct err *e)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(en->db, sql, -1, &st, NULL) != SQLITE_OK)
		return sqlite_fail(en, e, sql);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return sqlite_fail(en, e, sql);
	return 0;
}

/* Long statements (CREATE INDEX on a big table) give up when asked to
 * stop; the per-row statements are never cut (see sqlite_run()). */
int sqlite_progress_cb(void *arg)
{
	const struct engine *en = arg;

	return en->abortable && en->stop && atomic_load(en->stop);
}

/* The statements are built once per setup or op change, never per row; a
 * spec's names are [a-z_][a-z0-9_]* (schema.h), so only a keyword (a column
 * called "order") needs quotes. A statement longer than the buffer cannot
 * come from a spec (33 columns of 47 characters): it is cut, and fails. */
void sqlite_sql_add(struct sql_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->n >= sizeof b->s - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->s + b->n, sizeof b->s - b->n, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->n = b->n + (size_t)n < sizeof b->s ? b->n + (size_t)n : sizeof b->s - 1;
}

void sqlite_sql_name(struct sql_buf *b, const char *name)
{
	if (sqlite3_keyword_check(name, (int)strlen(name)))
		sqlite_sql_add(b, "\"%s\"", name);
	else
		sqlite_sql_add(b, "%s", name);
}
