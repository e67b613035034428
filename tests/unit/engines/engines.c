/* engines.c - the cases of src/engines/engines.c: which engine honours which
 * knob and measures which metric. */
#include <stdio.h>

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
		[K_INTERVAL_ROWS] = { 1, 1, 1, 1 },
		[K_SCALE] = { 1, 1, 1, 1 },
		/* the presenter view and themes (issue 12): every engine */
		[K_PRESENTER] = { 1, 1, 1, 1 },
		[K_PRESENTER_METRICS] = { 1, 1, 1, 1 },
		[K_THEME] = { 1, 1, 1, 1 },
		/* the question as a verb (issue 19): every engine */
		[K_ADD_INDEX] = { 1, 1, 1, 1 },
		[K_DROP_INDEX] = { 1, 1, 1, 1 },
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

const struct unit_case unit_engines_engines[] = {
	{ "unit/knob-engines", test_knob_engines },
	{ "unit/metric-engines", test_metric_engines },
	{ NULL, NULL },
};
