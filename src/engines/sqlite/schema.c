/* schema.c - the SQLite engine's table, its indexes and its pragmas.
 *
 * idxlab_t has an INTEGER PRIMARY KEY (the rowid) or, for uuid primary
 * keys, a BLOB one in a WITHOUT ROWID table; k1..k8 are BLOBs for uuid key
 * orders, else INTEGERs. Index i is idxlab_ki on ki. The pragmas say the
 * journal mode (a refused one is logged), synchronous and the cache. */
#include <stdio.h>
#include <strings.h>

#include "../../evlog.h"
#include "sqlite_int.h"

int sqlite_create_schema(struct engine *en, struct err *e)
{
	const char *key_t = sqlite_is_uuid_key(en->k.v[K_KEY_ORDER]) ? "BLOB" : "INTEGER";
	char sql[1024];

	if (en->k.v[K_PK] == PK_INT)
		snprintf(
		    sql, sizeof sql,
		    "CREATE TABLE idxlab_t(id INTEGER PRIMARY KEY, k1 %s, k2 %s, k3 %s, k4 %s, "
		    "k5 %s, k6 %s, k7 %s, k8 %s, hot INTEGER, payload BLOB)",
		    key_t, key_t, key_t, key_t, key_t, key_t, key_t, key_t);
	else
		snprintf(sql, sizeof sql,
		         "CREATE TABLE idxlab_t(id BLOB PRIMARY KEY, k1 %s, k2 %s, k3 %s, k4 %s, "
		         "k5 %s, k6 %s, k7 %s, k8 %s, hot INTEGER, payload BLOB) WITHOUT ROWID",
		         key_t, key_t, key_t, key_t, key_t, key_t, key_t, key_t);
	return sqlite_run(en, sql, e);
}

int sqlite_set_pragmas(struct engine *en, const struct knobs *k, struct err *e)
{
	static const char *const syncs[] = { "OFF", "NORMAL", "FULL", "EXTRA" };
	static const char *const journals[] = { "DELETE", "TRUNCATE", "WAL", "MEMORY", "OFF" };
	const char *want = journals[k->v[K_JOURNAL]];
	const unsigned char *mode = NULL;
	sqlite3_stmt *st;
	char sql[256];

	snprintf(sql, sizeof sql, "PRAGMA journal_mode=%s", want);
	if (sqlite3_prepare_v2(en->db, sql, -1, &st, NULL) != SQLITE_OK)
		return sqlite_fail(en, e, sql);
	if (sqlite3_step(st) == SQLITE_ROW)
		mode = sqlite3_column_text(st, 0);
	if (!mode || strcasecmp((const char *)mode, want) != 0)
		evlog_add(EV_WARN, "sqlite: journal_mode %s was refused (got %s)", want,
		          mode ? (const char *)mode : "nothing");
	sqlite3_finalize(st);
	snprintf(sql, sizeof sql, "PRAGMA synchronous=%s; PRAGMA cache_size=-%lld",
	         syncs[k->v[K_SYNC]], k->v[K_CACHE] / 1024);
	return sqlite_run(en, sql, e);
}

/* Create or drop indexes so that exactly k1..kN exist. */
int sqlite_set_indexes(struct engine *en, long long from, long long to, struct err *e)
{
	char sql[128];
	long long i;

	for (i = from + 1; i <= to; i++) {
		double t0 = (double)clock_now_ns();

		snprintf(sql, sizeof sql, "CREATE INDEX idxlab_k%lld ON idxlab_t(k%lld)", i, i);
		if (sqlite_run(en, sql, e) < 0)
			return -1;
		if (en->live)
			evlog_add(EV_INFO, "built idxlab_k%lld on %llu rows in %.2f s", i,
			          (unsigned long long)en->rs.live_rows,
			          ((double)clock_now_ns() - t0) / 1e9);
	}
	for (i = from; i > to; i--) {
		snprintf(sql, sizeof sql, "DROP INDEX idxlab_k%lld", i);
		if (sqlite_run(en, sql, e) < 0)
			return -1;
		if (en->live)
			evlog_add(EV_INFO, "dropped idxlab_k%lld", i);
	}
	return 0;
}
