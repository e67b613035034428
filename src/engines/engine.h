/* engine.h - the engine vtable.
 *
 * An engine runs the workload on one database, in a table of its own built
 * as the knobs' table spec says (schema.h: id, the spec's typed columns,
 * hot, payload; the first N indexes of its list; the default spec is
 * idxlab_t with k1..k8 and index i on ki). One const struct engine_ops per engine,
 * called name_engine after its row in ENGINE_LIST (engine_list.h) and
 * listed in engine_table[] by the engine knob's value; an engine missing at
 * build time is NULL there. All calls come from one thread (the worker): a
 * connection belongs to one thread. The worker owns the rowset and runs
 * the step loop (txn.h) with the hooks the engine gives at open: an engine
 * gives only what differs.
 *
 * Every call returns 0 or -1 and fills struct err with a message a person
 * can act on. close() is safe on a half-open engine and on NULL. */
#ifndef IDXLAB_ENGINE_H
#define IDXLAB_ENGINE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "../err.h"
#include "../knobs.h"
#include "../metrics.h"

struct engine;      /* private to each engine */
struct table_shape; /* schema_from.h */
struct txn;         /* txn.h */
struct reads;       /* reads.h */

/* One of an engine's statistics tables, as engine_measures reads it: n
 * rows of size bytes from rows, each holding at offset at the enum ctr it
 * feeds (C_COUNT: none, a row read for another's sake). ENGINE_STATS(t, f)
 * describes the static array t, whose rows name their counter in field f. */
struct engine_stats {
	const void *rows;
	size_t n, size, at;
};
#define ENGINE_STATS(t, f)                                                                         \
	{                                                                                          \
		(t), sizeof(t) / sizeof((t)[0]), sizeof((t)[0]), offsetof(__typeof__((t)[0]), f)   \
	}
#define ENGINE_STATS_MAX 4 /* tables per engine */

struct step_out {
	uint64_t rows;    /* operations done by this call */
	uint64_t commits; /* transactions committed by this call */
};

struct engine_ops {
	/* The knobs whose defaults differ on this engine (engine_defaults,
	 * --help); ends with a NULL def. NULL: none differ. */
	const struct knob_default *defaults;

	/* It builds every table spec (schema.h); 0: only the default table. */
	int table_specs;

	/* The --load ways rows can arrive, bit (1u << enum load_kind); 0: insert
	 * only. why_no_load: what the engine has instead, for the refusal. */
	unsigned loads;
	const char *why_no_load;

	/* Refuse a setting this engine cannot run, before any engine opens (the
	 * whole sweep is checked first). NULL: every setting runs. */
	int (*check)(const struct knobs *k, struct err *e);

	/* The engine-specific knobs (KF_ENGINE_OWN) this engine honours, ending
	 * with -1 (engine_has_knob). NULL: none. */
	const int *own_knobs;

	/* The environment variable open() reads the database from when k->dsn
	 * is empty ("MONGODB_URI"): main learns its value as a secret before
	 * anything may quote it. NULL: none. */
	const char *dsn_env;

	/* --schema-from: is source one this engine reads (an SQLite file, a
	 * conninfo)? Then read table's columns, indexes and statistics from it,
	 * READ-ONLY. NULL: this engine reads no other database. */
	int (*reads_source)(const char *source);
	int (*read_shape)(const char *source, const char *table, struct table_shape *out,
	                  struct err *e);

	/* The library or server version this engine is built against. */
	const char *(*version)(void);

	/* Connect / create the database named by k->dsn (engine-specific; empty:
	 * a throwaway one). Refuses a target idxlab did not create (ERR_USAGE).
	 * t (borrowed, outlives the engine) is the workload's transaction, its
	 * rowset t->rs set: open gives it the engine's hooks (txn_init(t, en,
	 * t->rs, hooks)); the workload resets the rowset for a fresh table
	 * (wl_setup), the engine prepares it for the op (ready, apply) and may
	 * swap t->h, the workload runs the loop (txn_step,
	 * txn_finish) and frees the rowset after close. stop (borrowed,
	 * outlives the engine) is set when the user wants out: long work
	 * (loading, index builds) checks it and fails early. */
	int (*open)(struct engine **out, const struct knobs *k, struct txn *t,
	            const atomic_int *stop, struct err *e);

	/* A fresh table for a step is built in three calls (wl_setup): setup,
	 * then load when k's prefill (knobs_prefill) is more than 0 rows, then
	 * ready; the workload resets the rowset to 0 rows after setup and to
	 * the prefill after load. Counters keep accumulating. */
	/* A fresh, empty idxlab_t as k describes it, set up for the load. */
	int (*setup)(struct engine *en, const struct knobs *k, struct err *e);
	/* Insert rows 0..rows-1 (rows > 0) into it the engine's fastest way,
	 * unmeasured; the rowset stands at 0 rows. */
	int (*load)(struct engine *en, uint64_t rows, struct err *e);
	/* After the load of rows (0: none): its indexes, the measured cache,
	 * journal and sync, and what the step runs, set as k says. */
	int (*ready)(struct engine *en, const struct knobs *k, uint64_t rows, struct err *e);

	/* Change the live table to k without rebuilding it: cache, sync,
	 * journal, op, payload, seed, key order within its type, and the index
	 * count (CREATE/DROP INDEX). Never called inside a transaction (finish
	 * first) nor for a change knobs_need_rebuild() reports. */
	int (*apply)(struct engine *en, const struct knobs *k, struct err *e);

	/* Rewrite the table in place (VACUUM FULL, VACUUM): repack its pages
	 * with the current fillfactor. Never inside a transaction. */
	int (*rewrite)(struct engine *en, struct err *e);

	/* Reclaim the space of deleted and updated rows the way the engine's own
	 * maintenance would (PostgreSQL VACUUM; --vacuum). NULL: rewrite() is
	 * the engine's reclaim (SQLite VACUUM, compact). Never in a transaction. */
	int (*reclaim)(struct engine *en, struct err *e);

	/* The step itself is the workload's: txn_step over the rowset with the
	 * hooks open() gave t (up to a budget of k's op, a commit every k's
	 * commit rows), txn_finish to commit the open transaction (end of a
	 * step, Ctrl-C). An engine that needs more gives these; NULL: nothing. */
	/* Before each txn_step (PostgreSQL: back into its pipeline). */
	int (*step_start)(struct engine *en, struct err *e);
	/* Before each txn_finish, a transaction open or not (WiredTiger: a
	 * stopped commit gives up waiting for cache space). */
	int (*finish_start)(struct engine *en, struct err *e);
	/* After a txn_finish that succeeded (PostgreSQL: let the lagging
	 * statistics land before the sample that ends the step). */
	int (*finish_end)(struct engine *en, struct err *e);

	/* Add the engine's cumulative counters into c (sets c->valid bits). */
	int (*sample)(struct engine *en, struct counters *c, struct err *e);
	/* What sample() can ever fill (engine_measures, which adds rows and
	 * commits): the counters fed by the statistics tables it walks (at
	 * least one, the rest NULL), and the bits 1u << enum ctr it fills
	 * outside any table (0: none). */
	const struct engine_stats *stats[ENGINE_STATS_MAX];
	unsigned measures_more;
	/* Of the reads' counts in measures_more (C_READ_EXAMINED,
	 * C_READ_PAGES), those sample() makes valid itself, n/a where it does
	 * not (the rest are valid on every sample). */
	unsigned sample_sets;

	/* Database and index sizes now. */
	int (*sizes)(struct engine *en, struct sizes *s, struct err *e);
	/* At a step's end, after its closing sample and before its sizes():
	 * bring the sizes up to date, outside the window (WiredTiger: a
	 * checkpoint, so its files hold the step's btrees). NULL: the sizes
	 * are current as they are. Never inside a transaction. */
	int (*settle)(struct engine *en, struct err *e);

	/* Overwrite in k the knobs the engine runs with other values than k's
	 * (a server's cache it may not change, a cache below the engine's
	 * least): what reports show is what ran. NULL: k is what runs. */
	void (*in_force)(struct engine *en, struct knobs *k);

	/* The reads (op lookup, range): the engine's struct reads (reads.h),
	 * its queries and what served each, as of the step's end. NULL: this
	 * engine runs no reads (check refuses them). */
	const struct reads *(*reads)(struct engine *en);

	/* Where the data lives, for messages ("/tmp/idxlab-sqlite.X/idxlab.db"). */
	const char *(*where)(struct engine *en);

	/* What the dashboard and the presenter say about this engine (required:
	 * a unit test checks every engine fills them). */
	/* The per-row figure its story turns on (enum metric, not rows/s),
	 * shown beside rows/s when --presenter-metrics is auto. */
	int figure;
	/* The title's words for a database idxlab made for itself ("idxlab's
	 * own temp db"): its temp path says nothing to an audience. */
	const char *own_place;
	/* Is where (where()'s text as shown: redacted, live or read back from
	 * a recording) a database idxlab made for itself? 1 or 0. */
	int (*where_own)(const char *where);

	void (*close)(struct engine *en);
};

/* Indexed by enum engine_kind; NULL where an engine was not built. */
extern const struct engine_ops *const engine_table[E_COUNT];

/* The engine called name (its --engine word), or NULL if it is not built. */
const struct engine_ops *engine_find(const char *name);

/* Does knob id mean something on engine kind? Every knob without
 * KF_ENGINE_OWN does; one with it only where the engine's own_knobs list it,
 * so an engine that is not built honours none of those. The one answer for
 * the dashboard's sliders, reports, warnings and demos. */
int engine_has_knob(int kind, int id);

/* The counters engine kind can ever measure (bits 1u << enum ctr): what
 * its sample() fills (the counters its .stats tables feed, and its
 * .measures_more), and the rows and commits every step counts. All of them
 * when the engine is not built here (a replay of its recording). */
unsigned engine_measures(int kind);

/* The per-row figure engine kind's story turns on (its ops' figure);
 * write() bytes per row when the engine is not built here. */
int engine_figure(int kind);

/* Where engine kind's data lives, as the title says it: its own_place when
 * where (where()'s text, live or recorded) is a database idxlab made for
 * itself (*own set to 1), else where itself (*own 0; also when the engine
 * is not built here). Never NULL: "" when where is. */
const char *engine_where_shown(int kind, const char *where, int *own);

/* Defaults that differ by engine (cache: SQLite's 2000KiB page cache vs
 * PostgreSQL's 128MiB shared_buffers): k's engine's .defaults, applied to
 * the knobs in k that the user did not set (set[id] == 0; set may be NULL:
 * none set). Nothing when k's engine is not built. */
void engine_defaults(struct knobs *k, const int *set);

/* The engines' own defaults of knob id for --help, "; postgres: 128MiB;
 * wiredtiger: 256MiB" ("" when none differs), in buf (knob_default_text's
 * more). */
void engine_defaults_text(int id, char *buf, size_t len);

/* TABLE of SOURCE read into *t by the first built engine that reads such
 * a source (reads_source, read_shape): its kind, -1 when the reading
 * failed (e says why), -2 when no engine reads it. The schema module's
 * reader (schema_from_reader), handed to it by main. */
int engine_read_source(const char *source, const char *table, struct table_shape *t, struct err *e);

/* The Debian package engine kind's library comes in ("libwiredtiger-dev"),
 * for the message of a build without it. */
const char *engine_package(int kind);

#endif
