/* unit_engines.c - the engine list's promise: every engine built into this
 * idxlab fills every member the workload and the dashboard call without a
 * NULL test, so a new engine missing one fails here, not on screen.
 *
 * And the spec's fast road (schema_fast_keys), which the SQLite and
 * WiredTiger engines take on the default table: the values schema_value()
 * gives, for every key order.
 *
 * Wiring (the lead lists them at merge; tests/unit.c is being split):
 * unit.h: void test_engines(void); void test_fast_keys(void);
 * unit.c: { "unit/engines", test_engines }, { "unit/fast-keys", test_fast_keys } */
#include <string.h>

#include "engines/engine.h"
#include "metrics.h"
#include "schema.h"
#include "unit.h"

void test_engines(void);
void test_fast_keys(void);

/* A where() text no engine makes for itself: a user's file, a conninfo. */
static const char *const foreign[] = {
	"/home/ann/orders.db", "socket:5432/shop (schema idxlab)",
	"MongoDB 7.0.2 at db1:27017 (idxlab.t)",
	"/srv/idxlab-data/x.db", /* idxlab- but not a dir tmpdir_make names */
};

void test_engines(void)
{
	int kind, built = 0;
	size_t i;

	for (kind = 0; kind < E_COUNT; kind++) {
		const struct engine_ops *o = engine_table[kind];
		const char *name = knob_table[K_ENGINE].choices[kind], *shown;
		int own;

		CHECK(name != NULL);
		CHECK(engine_package(kind) != NULL);
		if (!o)
			continue; /* not built here: its row alone is checked */
		built++;
		CHECK(engine_find(name) == o);
		/* what the worker calls */
		CHECK(o->version && o->open && o->setup && o->apply && o->rewrite);
		CHECK(o->sample && o->measures);
		CHECK(o->sizes && o->where && o->close);
		CHECK(o->version && o->version() && *o->version());
		/* what the dashboard and the presenter say about it */
		CHECK(o->figure > M_ROWS_PER_S && o->figure < M_COUNT);
		CHECK(engine_figure(kind) == o->figure);
		CHECK(engine_measures(kind) & 1u << metric_table[o->figure].num);
		CHECK(o->own_place && strncmp(o->own_place, "idxlab's own ", 13) == 0);
		CHECK(o->where_own != NULL);
		if (!o->where_own)
			continue;
		for (i = 0; i < sizeof foreign / sizeof foreign[0]; i++) {
			shown = engine_where_shown(kind, foreign[i], &own);
			CHECK(!o->where_own(foreign[i]) && !own && shown == foreign[i]);
		}
		CHECK(*engine_where_shown(kind, "", &own) == 0 && !own);
	}
	CHECK(built > 0);
	/* The places each engine makes for itself, as its where() says them. */
	{
		static const struct {
			const char *name, *where;
		} mine[] = {
			{ "sqlite", "/tmp/idxlab-sqlite.Ab3dE9/idxlab.db" },
			{ "wiredtiger", "/var/tmp/idxlab-wt.Q1w2E3" },
			{ "postgres", "throwaway server in /tmp/idxlab-pg.zz9Xy0" },
			{ "mongo", "throwaway mongod 7.0.2 in /tmp/idxlab-mongo.a1B2c3" },
		};

		for (i = 0; i < sizeof mine / sizeof mine[0]; i++) {
			const struct engine_ops *o = engine_find(mine[i].name);
			int own = 0;

			for (kind = 0; kind < E_COUNT && engine_table[kind] != o; kind++)
				;
			if (!o || kind == E_COUNT)
				continue; /* not built here */
			CHECK(engine_where_shown(kind, mine[i].where, &own) == o->own_place && own);
		}
	}
	/* Not built (a recording of it replayed here): a figure all engines
	 * measure, and where as recorded. */
	{
		int own = 1;

		CHECK(engine_figure(-1) == M_WCHAR_PER_ROW &&
		      engine_figure(E_COUNT) == M_WCHAR_PER_ROW);
		CHECK(strcmp(engine_where_shown(E_COUNT, "/tmp/idxlab-sqlite.x/y", &own),
		             "/tmp/idxlab-sqlite.x/y") == 0 &&
		      !own);
	}
}

void test_fast_keys(void)
{
	struct knobs k;
	struct schema_fast f;
	struct value v;
	int ko, col, bad = 0;
	uint64_t row, ver;

	knobs_defaults(&k);
	k.v[K_SEED] = 11;
	for (ko = KO_SEQ; ko <= KO_UUID4; ko++) {
		k.v[K_KEY_ORDER] = ko;
		CHECK(schema_fast_keys(schema_of(&k), &k, &f) == 1);
		CHECK(f.uuid == (schema_type(schema_of(&k), &k, 1) == COL_UUID));
		for (col = 1; col <= 8; col++)
			for (row = 0; row < 300; row += 7)
				for (ver = 0; ver < 3; ver++) {
					unsigned char u[KEYS_UUID_LEN];

					schema_value(schema_of(&k), &k, col, row, ver, &v);
					if (f.uuid) {
						schema_fast_uuid(&f, col, row, ver, u);
						bad += v.len != KEYS_UUID_LEN ||
						       memcmp(u, v.b, KEYS_UUID_LEN) != 0;
					} else {
						bad += schema_fast_int(&f, col, row, ver) != v.i;
					}
				}
	}
	CHECK(bad == 0);
	/* Any other spec binds what schema_value() gives. */
	{
		long long users = -1;
		struct err e;

		if (schema_load("users", &users, &e) == 0) {
			k.v[K_SCHEMA] = users;
			CHECK(schema_fast_keys(schema_of(&k), &k, &f) == 0);
		} else {
			CHECK(!"the users spec loads");
		}
	}
}
