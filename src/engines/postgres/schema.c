/* schema.c - the session's start: schema idxlab claimed (created and marked,
 * or refused when it holds anything idxlab did not make), the extensions
 * (pg_walinspect, pg_buffercache, pg_stat_statements: found; created in
 * schema idxlab on the throwaway server only), shared_buffers as the server
 * has it, and the server's processes whose /proc io idxlab reads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../evlog.h"
#include "../../probes/proc.h"
#include "internal.h"

/* What idxlab makes in schema idxlab carries its mark, the comment
 * SCHEMA_MARK, set in the transaction that creates it: the schema, the
 * table, its primary key and each index (rows.c). So a leftover is known
 * as idxlab's whatever spec made it (a built-in, a file, a derived one),
 * a partition's own index by its parent's mark (part.c), and anything
 * unmarked is not idxlab's to drop: a user's index on the
 * table, a table of theirs, an old idxlab's unmarked leftovers. Extensions
 * (their members) are not idxlab's either unless it created them in this
 * run, which it does only on its throwaway server (find_extension). */

/* SQL: schema idxlab's objects that idxlab cannot prove it made, each as
 * "name" (functions "name()") with "sql", the statement that drops it: the
 * unmarked relations, functions and types that no extension owns. */
#define FOREIGN_OBJECTS                                                                            \
	"SELECT c.relname::text AS name, 1 AS k, format('DROP %s idxlab.%I;', CASE c.relkind "     \
	"WHEN 'i' THEN 'INDEX' WHEN 'I' THEN 'INDEX' WHEN 'S' THEN 'SEQUENCE' WHEN 'v' THEN "      \
	"'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'f' THEN 'FOREIGN TABLE' WHEN 'c' "         \
	"THEN 'TYPE' ELSE 'TABLE' END, c.relname) AS sql FROM pg_class c"                          \
	" WHERE c.relnamespace = 'idxlab'::regnamespace"                                           \
	" AND obj_description(c.oid, 'pg_class') IS DISTINCT FROM '" SCHEMA_MARK "'"               \
	" AND NOT EXISTS (SELECT 1 FROM pg_inherits h WHERE h.inhrelid = c.oid"                    \
	" AND obj_description(h.inhparent, 'pg_class') = '" SCHEMA_MARK "')"                       \
	" AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass"        \
	" AND d.objid = c.oid AND d.deptype = 'e')"                                                \
	" UNION ALL SELECT p.proname || '()', 2, format('DROP ROUTINE idxlab.%I(%s);',"            \
	" p.proname, pg_get_function_identity_arguments(p.oid)) FROM pg_proc p"                    \
	" WHERE p.pronamespace = 'idxlab'::regnamespace AND NOT EXISTS"                            \
	" (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass"                        \
	" AND d.objid = p.oid AND d.deptype = 'e')"                                                \
	" UNION ALL SELECT t.typname::text, 3, format('DROP %s idxlab.%I;', CASE t.typtype"        \
	" WHEN 'd' THEN 'DOMAIN' ELSE 'TYPE' END, t.typname) FROM pg_type t"                       \
	" WHERE t.typnamespace = 'idxlab'::regnamespace AND t.typrelid = 0"                        \
	" AND t.typcategory <> 'A' AND t.typtype <> 'm' AND NOT EXISTS"                            \
	" (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_type'::regclass"                        \
	" AND d.objid = t.oid AND d.deptype = 'e')"

/* The FROM and WHERE of idxlab's marked relations in schema idxlab. */
#define MARKED                                                                                     \
	"pg_class WHERE relnamespace = 'idxlab'::regnamespace AND obj_description(oid, "           \
	"'pg_class') = '" SCHEMA_MARK "'"

/* What an earlier idxlab left in schema idxlab (killed, or its server
 * given up on): its marked table and indexes, said in the event log (the
 * count first: a long list is cut at the line's end). The table goes at
 * set-up, with its indexes. */
static void say_leftovers(struct engine *en)
{
	char left[512], why[300];
	struct err e = { ERR_NONE, "" };

	if (pg_query_text(en,
	                  "SELECT concat_ws('; ', (SELECT 'table ' || string_agg(relname, ', ')"
	                  " FROM " MARKED " AND relkind <> 'i'), (SELECT count(*) || CASE count(*)"
	                  " WHEN 1 THEN ' index (' ELSE ' indexes (' END || string_agg(relname,"
	                  " ', ' ORDER BY relname) || ')' FROM " MARKED " AND relkind = 'i'"
	                  " HAVING count(*) > 0))",
	                  left, sizeof left, &e) < 0) {
		evlog_add(EV_WARN, "could not list what schema idxlab holds: %s",
		          pg_trim(e.msg, why, sizeof why));
		return;
	}
	if (*left)
		evlog_add(EV_INFO,
		          "schema idxlab: taking over what an earlier idxlab left (it was killed, "
		          "or gave up on the server): %s",
		          left);
}

/* The schema is idxlab's, or we refuse. Creates it when absent. */
static int claim_schema(struct engine *en, struct err *e)
{
	char mark[256], foreign[512], drop[1024];

	if (pg_query_text(en,
	                  "SELECT coalesce(obj_description(oid, 'pg_namespace'), '<none>') "
	                  "FROM pg_namespace WHERE nspname = 'idxlab'",
	                  mark, sizeof mark, e) < 0)
		return -1;
	if (!*mark) {
		if (pg_exec(en,
		            "CREATE SCHEMA idxlab; COMMENT ON SCHEMA idxlab IS '" SCHEMA_MARK "'",
		            e) < 0)
			return err_prefix(e, "creating schema idxlab");
		return 0;
	}
	if (strcmp(mark, SCHEMA_MARK) != 0)
		return err_set(e, ERR_USAGE,
		               "this server has a schema named idxlab that idxlab did not create "
		               "(its comment is not '" SCHEMA_MARK
		               "'); idxlab leaves it untouched - use another database");
	/* Only what carries idxlab's mark (or an extension's) may be in it. */
	if (pg_query_text(en,
	                  "SELECT coalesce(string_agg(name, ', ' ORDER BY k, name), '') "
	                  "FROM (" FOREIGN_OBJECTS ") x",
	                  foreign, sizeof foreign, e) < 0 ||
	    pg_query_text(en,
	                  "SELECT coalesce(string_agg(sql, ' ' ORDER BY k, name), '') "
	                  "FROM (" FOREIGN_OBJECTS ") x",
	                  drop, sizeof drop, e) < 0)
		return -1;
	if (*foreign)
		return err_set(e, ERR_USAGE,
		               "schema idxlab holds objects idxlab did not create (%s); idxlab "
		               "changes nothing there - if they are not yours to keep, remove them "
		               "(%s) or the whole schema (DROP SCHEMA idxlab CASCADE;), or use "
		               "another database",
		               foreign, drop);
	say_leftovers(en);
	return 0;
}

/* Find extension name, for its object obj (function fn must be callable):
 * "schema.obj" into qual. On the throwaway server a missing one is created
 * in schema idxlab; on a server of the user's (--dsn) idxlab creates
 * nothing outside its schema, and an extension is a database's, so a
 * missing one stays missing and the event log says how to add it. why:
 * what is n/a without it. 1: usable. */
static int find_extension(struct engine *en, const char *name, const char *obj, const char *fn,
                          char *qual, size_t len, const char *why)
{
	char schema[128], sql[256], buf[16];
	struct err e = { ERR_NONE, "" };

	snprintf(sql, sizeof sql,
	         "SELECT coalesce(max(quote_ident(n.nspname)), '') FROM pg_extension x "
	         "JOIN pg_namespace n ON n.oid = x.extnamespace WHERE x.extname = '%s'",
	         name);
	if (pg_query_text(en, sql, schema, sizeof schema, &e) < 0)
		return 0;
	if (!*schema && en->cluster) {
		char create[128];

		snprintf(create, sizeof create, "CREATE EXTENSION %s SCHEMA idxlab", name);
		if (pg_exec(en, create, &e) < 0 ||
		    pg_query_text(en, sql, schema, sizeof schema, &e) < 0)
			schema[0] = 0;
	}
	if (!*schema) {
		snprintf(sql, sizeof sql,
		         "SELECT count(*) FROM pg_available_extensions WHERE name = '%s'", name);
		if (en->cluster)
			evlog_add(EV_INFO, "%s are n/a: %s is not available (the contrib package)",
			          why, name);
		else if (pg_query_text(en, sql, buf, sizeof buf, &e) < 0 || strcmp(buf, "0") == 0)
			evlog_add(EV_INFO,
			          "%s are n/a: %s is not available on this server: install its "
			          "package (contrib), then CREATE EXTENSION %s;",
			          why, name, name);
		else
			evlog_add(
			    EV_INFO,
			    "%s are n/a: %s is not in this database, and idxlab adds nothing "
			    "outside its schema on your server: CREATE EXTENSION %s; enables them",
			    why, name, name);
		return 0;
	}
	snprintf(qual, len, "%s.%s", schema, obj);
	/* Installed is not usable: its functions may be granted to others only. */
	snprintf(sql, sizeof sql, "SELECT has_function_privilege('%s.%s', 'EXECUTE')", schema, fn);
	if (pg_query_text(en, sql, buf, sizeof buf, &e) < 0 || strcmp(buf, "t") != 0) {
		evlog_add(EV_INFO, "%s are n/a: this user may not use %s (grant pg_monitor)", why,
		          name);
		return 0;
	}
	return 1;
}

/* pg_stat_statements, for spills: its library must be preloaded (the
 * throwaway server is started so), and it must track statements. */
static void find_statements(struct engine *en)
{
	static const char why[] = "cache spills (the buffers idxlab's statements wrote out)";
	char track[64];
	struct err e = { ERR_NONE, "" };

	en->statements = 0;
	if (pg_query_text(en,
	                  "SELECT coalesce((SELECT setting FROM pg_settings WHERE name = "
	                  "'pg_stat_statements.track'), '')",
	                  track, sizeof track, &e) < 0)
		return;
	if (!*track || strcmp(track, "none") == 0) {
		/* (pg_stat_bgwriter.buffers_backend is no substitute: it counts
		 * relation extensions too.) */
		evlog_add(EV_INFO, "%s are n/a: pg_stat_statements is %s on this server (%s)", why,
		          *track ? "set to track nothing" : "not loaded",
		          *track ? "set pg_stat_statements.track = top"
		                 : "add it to shared_preload_libraries, restart the server, then "
		                   "CREATE EXTENSION pg_stat_statements;");
		return;
	}
	en->statements = find_extension(en, "pg_stat_statements", "pg_stat_statements",
	                                "pg_stat_statements(boolean)", en->statements_fn,
	                                sizeof en->statements_fn, why);
}

/* A temporary physical replication slot holds the WAL from the last look
 * on, so no checkpoint recycles WAL whose full-page images are not yet
 * counted; a sample that does not want the count may then leave the look
 * to a later one (stats.c, read_walinspect). The slot is the session's:
 * it goes with the connection, also when idxlab is killed. Without one (no
 * slot free, wal_level minimal) every sample looks, as before. */
static void fpi_hold_wal(struct engine *en)
{
	struct err e = { ERR_NONE, "" };
	char why[300];

	en->fpi_slot[0] = 0;
	if (!en->walinspect)
		return;
	if (pg_query_text(en,
	                  "SELECT slot_name FROM pg_create_physical_replication_slot("
	                  "'idxlab_fpi_' || pg_backend_pid(), true, true)",
	                  en->fpi_slot, sizeof en->fpi_slot, &e) < 0) {
		en->fpi_slot[0] = 0;
		evlog_add(EV_INFO,
		          "full-page images: no replication slot to hold the WAL until idxlab has "
		          "read it (%s): every sample reads it",
		          pg_trim(e.msg, why, sizeof why));
	}
}

/* pg_walinspect for exact full-page-image bytes; pg_buffercache for the
 * cache gauges; pg_stat_statements for spills. */
static void find_extensions(struct engine *en)
{
	en->walinspect =
	    en->superuser &&
	    find_extension(en, "pg_walinspect", "pg_get_wal_records_info",
	                   "pg_get_wal_records_info(pg_lsn, pg_lsn)", en->walinspect_fn,
	                   sizeof en->walinspect_fn, "full-page-image bytes");
	if (!en->superuser)
		evlog_add(EV_INFO,
		          "full-page-image bytes are n/a: pg_walinspect needs a superuser");
	fpi_hold_wal(en);
	en->buffercache =
	    find_extension(en, "pg_buffercache", "pg_buffercache", "pg_buffercache_pages()",
	                   en->buffercache_view, sizeof en->buffercache_view, "the cache gauges");
	en->bc_t = 0;
	find_statements(en);
}

int pg_read_shared_buffers(struct engine *en, struct err *e)
{
	char buf[64];

	if (pg_query_text(
	        en, "SELECT setting::bigint * 8192 FROM pg_settings WHERE name = 'shared_buffers'",
	        buf, sizeof buf, e) < 0)
		return -1;
	en->shared_buffers = (long long)pg_to_u64(buf);
	return 0;
}

/* Where the server is local and its /proc readable, sample its processes. */
void pg_find_server_processes(struct engine *en)
{
	char buf[64];
	struct err e = { ERR_NONE, "" };
	struct proc_io io;
	pid_t backend, postmaster;
	char comm[64] = "";

	en->has_server_io = 0;
	if (en->cluster) {
		postmaster = pg_cluster_pid(en->cluster);
	} else {
		if (pg_query_text(en, "SELECT pg_backend_pid()", buf, sizeof buf, &e) < 0)
			return;
		backend = (pid_t)atoi(buf);
		if (proc_comm(backend, comm, sizeof comm) < 0)
			return; /* not on this machine */
		if (!strstr(comm, "postgres"))
			return;
		postmaster = proc_ppid(backend);
		if (postmaster < 0)
			return;
	}
	proc_tree_init(&en->tree, postmaster);
	if (postmaster > 0 && proc_tree_sample(&en->tree, &io) == 0)
		en->has_server_io = 1;
	else
		evlog_add(EV_INFO, "write() and device bytes are n/a: the server's processes are "
		                   "not readable here");
}

int pg_start_session(struct engine *en, struct err *e)
{
	char buf[64];

	if (pg_query_text(en, "SELECT rolsuper FROM pg_roles WHERE rolname = current_user", buf,
	                  sizeof buf, e) < 0)
		return -1;
	en->superuser = strcmp(buf, "t") == 0;
	/* One idxlab per database: a second would drop the first one's table.
	 * The lock is the session's: it goes when the connection does, even
	 * when idxlab is killed. */
	if (pg_query_text(en, "SELECT pg_try_advisory_lock(" ADVISORY_KEY ")", buf, sizeof buf, e) <
	    0)
		return -1;
	if (strcmp(buf, "t") != 0)
		return err_set(e, ERR_RUNTIME,
		               "another idxlab is working in schema idxlab of this database (it "
		               "holds advisory lock " ADVISORY_KEY "): wait for it to finish, or "
		               "point --dsn at another database");
	if (claim_schema(en, e) < 0)
		return -1;
	en->claimed = 1;
	find_extensions(en);
	pg_find_server_processes(en);
	if (pg_read_shared_buffers(en, e) < 0)
		return -1;
	if (pg_query_text(en, "SELECT pg_current_wal_insert_lsn() - '0/0'::pg_lsn", buf, sizeof buf,
	                  e) < 0)
		return -1;
	if (!en->lsn0)
		en->lsn0 = en->fpi_lsn = pg_to_u64(buf);
	return 0;
}
