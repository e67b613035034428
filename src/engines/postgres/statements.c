/* statements.c - the reads a user's table gets, for --schema-from (issue
 * 22): when the source database has pg_stat_statements, the table's
 * most-called statements go into the shape's notes, so the user can write
 * them as query lines (man idxlab, TABLE SPECS). idxlab never runs them.
 *
 * On catalog.c's connection (its session READ ONLY): one SELECT on the
 * view, in the schema the extension was created in, of this database's
 * SELECT/WITH/INSERT/UPDATE/DELETE statements by calls; a statement is the
 * table's when its text names the table as a word (pg_stat_statements
 * keeps no table list). idxlab's own sample of the table (sample.c: its
 * columns read AS v0, v1, ...) is not the user's and is skipped. A text is
 * outside text: cut to one line here and escaped by shape_note. Nothing
 * here fails a --schema-from: without the extension, or where it cannot
 * be read (not preloaded, no privilege), a note says so. */
#include <ctype.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../../schema_from.h"
#include "internal.h"

#define TOP_N    5   /* statements listed */
#define SCAN_N   500 /* most-called statements searched for the table's */
#define TEXT_CUT 300 /* a statement's bytes shown */

/* Does text name table as a word (case folded, as an unquoted name is)? */
static int names_table(const char *text, const char *table)
{
	size_t n = strlen(table);
	const char *p;

	if (!n)
		return 0;
	for (p = text; (p = strcasestr(p, table)) != NULL; p++) {
		int before =
		    p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '$');
		int after = isalnum((unsigned char)p[n]) || p[n] == '_' || p[n] == '$';

		if (!before && !after)
			return 1;
	}
	return 0;
}

/* text on one line (each run of white space one space), at most TEXT_CUT
 * bytes then "...", into out. */
static void one_line(const char *text, char *out, size_t len)
{
	size_t o = 0;
	int space = 0;

	for (; *text && o + 4 < len && o < TEXT_CUT; text++) {
		if (isspace((unsigned char)*text)) {
			space = o > 0;
			continue;
		}
		if (space)
			out[o++] = ' ';
		space = 0;
		out[o++] = *text;
	}
	if (*text && o + 4 <= len) {
		memcpy(out + o, "...", 3);
		o += 3;
	}
	out[o] = 0;
}

void pg_top_statements(PGconn *c, const char *rel, struct table_shape *t)
{
	static const char ext_sql[] =
	    "SELECT n.nspname FROM pg_extension x JOIN pg_namespace n ON n.oid = "
	    "x.extnamespace WHERE x.extname = 'pg_stat_statements'";
	PGresult *r = PQexec(c, ext_sql);
	char sql[512], msg[512], line[TEXT_CUT + 8];
	char *qn;
	int i, shown = 0;

	if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1) {
		PQclear(r);
		shape_note(t->notes, sizeof t->notes,
		           "the table's most-called statements: pg_stat_statements is not in that "
		           "database (with it, CREATE EXTENSION pg_stat_statements and the library "
		           "in shared_preload_libraries, idxlab lists them here to write query "
		           "lines from)");
		return;
	}
	qn = PQescapeIdentifier(c, PQgetvalue(r, 0, 0), strlen(PQgetvalue(r, 0, 0)));
	PQclear(r);
	if (!qn)
		return;
	snprintf(sql, sizeof sql,
	         "SELECT calls, query FROM %s.pg_stat_statements WHERE dbid = (SELECT oid FROM "
	         "pg_database WHERE datname = current_database()) AND query ~* "
	         "'^\\s*(select|with|insert|update|delete)\\M' ORDER BY calls DESC LIMIT %d",
	         qn, SCAN_N);
	PQfreemem(qn);
	r = PQexec(c, sql);
	if (PQresultStatus(r) != PGRES_TUPLES_OK) {
		shape_note(t->notes, sizeof t->notes,
		           "the table's most-called statements: pg_stat_statements could not be "
		           "read: %s",
		           pg_trim(PQerrorMessage(c), msg, sizeof msg));
		PQclear(r);
		return;
	}
	for (i = 0; i < PQntuples(r) && shown < TOP_N; i++) {
		const char *q = PQgetvalue(r, i, 1);

		if (!names_table(q, rel) || strstr(q, " AS v0"))
			continue;
		if (!shown++)
			shape_note(
			    t->notes, sizeof t->notes,
			    "the table's most-called statements (pg_stat_statements, by calls; "
			    "idxlab never runs them): write the reads as query lines, a ? for "
			    "each $N (man idxlab, TABLE SPECS)");
		one_line(q, line, sizeof line);
		shape_note(t->notes, sizeof t->notes, "  %d. %s calls: %s", shown,
		           PQgetvalue(r, i, 0), line);
	}
	if (!shown)
		shape_note(t->notes, sizeof t->notes,
		           "the table's most-called statements: none of pg_stat_statements' %d "
		           "most-called names it",
		           PQntuples(r));
	PQclear(r);
}
