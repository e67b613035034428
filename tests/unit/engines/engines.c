/* engines.c - the cases of src/engines/engines.c: which engine honours which
 * knob and measures which metric. */
#include <stdio.h>
#include <string.h>

#include "engines/engine.h"
#include "knobs.h"
#include "metrics.h"
#include "unit.h"

/* Which engines honour which knob: the answer knob_table[].engines gave
 * before the engine-specific knobs moved into the engines' ops
 * (engine_ops.own_knobs). One row per knob, one column per engine in
 * ENGINE_LIST order: sqlite, postgres, mongo, wiredtiger. An engine that is
 * not built honours none of the engine-specific knobs. */
static void test_knob_engines(void)
{
	static const signed char was[K_COUNT][4] = {
		[K_ENGINE] = { 1, 1, 1, 1 },
		[K_DSN] = { 1, 1, 1, 1 },
		[K_INDEXES] = { 1, 1, 1, 1 },
		[K_KEY_ORDER] = { 1, 1, 1, 1 },
		[K_PK] = { 1, 1, 1, 1 },
		[K_CACHE] = { 1, 1, 1, 1 },
		[K_FILLFACTOR] = { 0, 1, 0, 0 },
		[K_CHECKPOINT] = { 0, 0, 0, 1 },
		[K_COMMIT] = { 1, 1, 1, 1 },
		[K_SYNC] = { 1, 1, 1, 1 },
		[K_JOURNAL] = { 1, 0, 0, 0 },
		[K_OP] = { 1, 1, 1, 1 },
		[K_ROWS] = { 1, 1, 1, 1 },
		[K_PREFILL] = { 1, 1, 1, 1 },
		[K_PAYLOAD] = { 1, 1, 1, 1 },
		[K_SEED] = { 1, 1, 1, 1 },
		[K_FORMAT] = { 1, 1, 1, 1 },
		[K_INTERVAL] = { 1, 1, 1, 1 },
		[K_PROBES] = { 1, 1, 1, 1 },
		[K_WARMUP] = { 1, 1, 1, 1 },
		[K_REPEAT] = { 1, 1, 1, 1 },
		[K_PROGRESS] = { 1, 1, 1, 1 },
		[K_QUIET] = { 1, 1, 1, 1 },
		[K_VERBOSE] = { 1, 1, 1, 1 },
		[K_REFRESH] = { 1, 1, 1, 1 },
		[K_ASCII] = { 1, 1, 1, 1 },
		[K_NO_COLOR] = { 1, 1, 1, 1 },
		[K_NO_MOUSE] = { 1, 1, 1, 1 },
		/* the table model's knobs (issue 11): every engine */
		[K_SCHEMA] = { 1, 1, 1, 1 },
		[K_INDEX_BUILD] = { 1, 1, 1, 1 },
		[K_LOAD] = { 1, 1, 1, 1 },
		[K_VACUUM] = { 1, 1, 1, 1 },
		/* the client protocol (issue 21): PostgreSQL's */
		[K_PROTOCOL] = { 0, 1, 0, 0 },
		[K_PIPELINE] = { 0, 1, 0, 0 },
		[K_INTERVAL_ROWS] = { 1, 1, 1, 1 },
		[K_SCALE] = { 1, 1, 1, 1 },
		/* the presenter view and themes (issue 12): every engine */
		[K_PRESENTER] = { 1, 1, 1, 1 },
		[K_PRESENTER_METRICS] = { 1, 1, 1, 1 },
		[K_THEME] = { 1, 1, 1, 1 },
		/* the question as a verb (issue 19): every engine */
		[K_ADD_INDEX] = { 1, 1, 1, 1 },
		[K_DROP_INDEX] = { 1, 1, 1, 1 },
		/* a step's time bound (issue 21): every engine */
		[K_DURATION] = { 1, 1, 1, 1 },
		/* the reads (issue 22): every engine's knobs (an engine without
		 * reads refuses op lookup and range at the plan) */
		[K_MISS] = { 1, 1, 1, 1 },
		[K_RANGE_ROWS] = { 1, 1, 1, 1 },
		[K_MIX] = { 1, 1, 1, 1 },
		[K_READ_SHARE] = { 1, 1, 1, 1 },
		[K_QUERIES] = { 1, 1, 1, 1 },
		/* the dashboard's A/B (issue 21): every engine */
		[K_AB_PERIOD] = { 1, 1, 1, 1 },
	};
	static const int column[4] = { E_SQLITE, E_POSTGRES, E_MONGO, E_WIREDTIGER };
	int id, j;

	CHECK(E_COUNT == 4);
	for (id = 0; id < K_COUNT; id++)
		for (j = 0; j < 4; j++) {
			int kind = column[j], own = (knob_table[id].flags & KF_ENGINE_OWN) != 0;
			int want = engine_table[kind] || !own ? was[id][j] : 0;

			if (engine_has_knob(kind, id) != want) {
				printf("  %s on %s: %d, was %d\n", knob_table[id].name,
				       knob_table[K_ENGINE].choices[kind],
				       engine_has_knob(kind, id), want);
				failed_checks++;
			}
		}
	/* a knob only some engines honour is flagged so */
	for (id = 0; id < K_COUNT; id++)
		CHECK((knob_table[id].flags & KF_ENGINE_OWN) ||
		      was[id][0] + was[id][1] + was[id][2] + was[id][3] == 4);
	CHECK(!engine_has_knob(-1, K_CACHE) && !engine_has_knob(E_COUNT, K_CACHE));
	CHECK(!engine_has_knob(E_SQLITE, -1) && !engine_has_knob(E_SQLITE, K_COUNT));
}

/* The metrics each engine can measure, from its statistics table
 * (engine_measures, metric_needs): the dashboard's rows. Columns: sqlite,
 * postgres, mongo, wiredtiger; 0 where the engine has no such counter. */
static void test_metric_engines(void)
{
	static const struct {
		int m;
		signed char on[4];
	} only[] = {
		{ M_FPI_BYTES_PER_ROW, { 0, 1, 0, 0 } },      /* pg_walinspect */
		{ M_HOT_PCT, { 0, 1, 0, 0 } },                /* pg_stat_user_tables */
		{ M_DB_WRITE_BYTES_PER_ROW, { 1, 0, 0, 1 } }, /* their own file writes */
		{ M_CACHE_DIRTY_PCT, { 0, 1, 1, 1 } },        /* SQLite keeps no count */
		{ M_CHECKPOINT_IN_WINDOW, { 0, 1, 1, 1 } },   /* not a dashboard row */
		/* PostgreSQL's WAL syncs by who made them (pg_stat_wal, walsync.c) */
		{ M_BG_SYNCS_PER_S, { 0, 1, 0, 0 } },
		{ M_FORCED_SYNCS_PER_ROW, { 0, 1, 0, 0 } },
		{ M_SERVER_SYNCS_PER_S, { 0, 1, 0, 0 } },
		/* what a query examined and read: the engines that count it so far */
		{ M_ROWS_EXAMINED_PER_QUERY, { 1, 1, 1, 1 } },
		{ M_PAGES_READ_PER_QUERY, { 1, 1, 1, 1 } },
	};
	static const int column[4] = { E_SQLITE, E_POSTGRES, E_MONGO, E_WIREDTIGER };
	int m, j;
	size_t i;

	for (m = 0; m < M_COUNT; m++)
		for (j = 0; j < 4; j++) {
			int want = 1, got;

			if (!engine_table[column[j]])
				continue; /* not built: every row (a replay's) */
			for (i = 0; i < sizeof only / sizeof only[0]; i++)
				if (only[i].m == m)
					want = only[i].on[j];
			got = (metric_needs(m) & ~engine_measures(column[j])) == 0;
			if (got != want) {
				printf("  %s on %s: %d, want %d\n", metric_table[m].field,
				       knob_table[K_ENGINE].choices[column[j]], got, want);
				failed_checks++;
			}
		}
	CHECK(engine_measures(-1) == ~0u && engine_measures(E_COUNT) == ~0u);
	CHECK(metric_needs(M_P99_MS) == 0 && metric_needs(M_DB_BYTES) == 0);
	CHECK(metric_needs(M_HOT_PCT) == (1u << C_HOT_UPDATES | 1u << C_UPDATES));
	/* every metric titles its --plot panel; a rate's ticks say what per second */
	for (m = 0; m < M_COUNT; m++)
		if (!metric_table[m].title || !*metric_table[m].title ||
		    (metric_table[m].kind == MK_RATE) != (metric_table[m].per_s != NULL)) {
			printf("  %s: no --plot title, or per_s not on exactly the rates\n",
			       metric_table[m].field);
			failed_checks++;
		}
}

/* A where() text no engine makes for itself: a user's file, a conninfo. */
static const char *const foreign[] = {
	"/home/ann/orders.db", "socket:5432/shop (schema idxlab)",
	"MongoDB 7.0.2 at db1:27017 (idxlab.t)",
	"/srv/idxlab-data/x.db", /* idxlab- but not a dir tmpdir_make names */
};

/* The engine list's promise: every engine built into this idxlab fills
 * every member the workload and the dashboard call without a NULL test,
 * so a new engine missing one fails here, not on screen. */
static void test_engines(void)
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
		CHECK(o->version && o->open && o->setup && o->load && o->ready && o->apply &&
		      o->rewrite);
		CHECK(o->sample && o->stats[0]);
		/* each statistics table as engine_measures reads it: rows whose
		 * counter lies inside the row */
		for (i = 0; i < ENGINE_STATS_MAX && o->stats[i]; i++)
			CHECK(o->stats[i]->rows && o->stats[i]->n > 0 &&
			      o->stats[i]->at + sizeof(enum ctr) <= o->stats[i]->size);
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

/* Defaults that differ by engine are the engines' (.defaults), applied by
 * the plan (engine_defaults) and named by --help (engine_defaults_text into
 * knob_default_text): the knob table itself reads no engine. */
static void test_engine_defaults(void)
{
	int set[K_COUNT] = { 0 }, kind, seen = 0;
	char more[160], text[320], want[160];
	struct knobs k;

	for (kind = 0; kind < E_COUNT; kind++) {
		const struct knob_default *d;

		for (d = engine_table[kind] ? engine_table[kind]->defaults : NULL; d && d->def;
		     d++) {
			long long v = -1, before;

			seen++;
			CHECK(knob_parse(d->knob, d->def, &v, NULL) == 0);
			knobs_defaults(&k);
			k.v[K_ENGINE] = kind;
			before = k.v[d->knob];
			engine_defaults(&k, NULL);
			CHECK(k.v[d->knob] == v);
			/* a knob the user set keeps its value */
			knobs_defaults(&k);
			k.v[K_ENGINE] = kind;
			set[d->knob] = 1;
			engine_defaults(&k, set);
			CHECK(k.v[d->knob] == before);
			set[d->knob] = 0;
			/* --help: "[default X; ...; postgres: 128MiB...]" */
			snprintf(want, sizeof want, "; %s: %s", knob_table[K_ENGINE].choices[kind],
			         d->def);
			engine_defaults_text(d->knob, more, sizeof more);
			knob_default_text(d->knob, more, text, sizeof text);
			CHECK(strstr(more, want) && strstr(text, want));
			CHECK(strncmp(text, "[default ", 9) == 0 && text[strlen(text) - 1] == ']');
		}
	}
	CHECK(seen > 0 || !engine_table[E_POSTGRES]);
	/* a knob no engine changes: the table's default alone */
	engine_defaults_text(K_SEED, more, sizeof more);
	knob_default_text(K_SEED, more, text, sizeof text);
	snprintf(want, sizeof want, "[default %s]", knob_table[K_SEED].def);
	CHECK(more[0] == 0 && strcmp(text, want) == 0);
	knob_default_text(K_SEED, NULL, text, sizeof text);
	CHECK(strcmp(text, want) == 0);
	/* an engine not built here changes nothing */
	knobs_defaults(&k);
	k.v[K_ENGINE] = E_COUNT;
	{
		struct knobs d = k;

		engine_defaults(&k, NULL);
		CHECK(memcmp(k.v, d.v, sizeof k.v) == 0);
	}
}

const struct unit_case unit_engines_engines[] = {
	{ "unit/knob-engines", test_knob_engines },
	{ "unit/metric-engines", test_metric_engines },
	{ "unit/engines", test_engines },
	{ "unit/engine-defaults", test_engine_defaults },
	{ NULL, NULL },
};
