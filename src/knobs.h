/* knobs.h - the one table of knobs.
 *
 * Every setting idxlab has is a row of knob_table[] (designated fields): its
 * name (the CLI flag --name and the config key), its kind and range, its
 * default (and the dashboard's own, where it differs), its unit, whether only
 * some engines honour it (KF_ENGINE_OWN) and a one-line "why". The CLI parser, the config parser,
 * validation, --help, --print-config and the dashboard's slider panel and
 * help are all generated from it, so a knob is added in one place (and
 * described in the man page, which a test checks). */
#ifndef IDXLAB_KNOBS_H
#define IDXLAB_KNOBS_H

#include <stddef.h>

#include "err.h"
#include "vocab.h"

enum knob_kind {
	KNOB_INT,    /* integer in [min, max], or one of words[] */
	KNOB_SIZE,   /* bytes, with units: 512KiB, 2MiB, 1GiB (also KB, MB, GB) */
	KNOB_CHOICE, /* index into choices[] */
	KNOB_STRING, /* free text, kept in struct knobs.dsn */
	KNOB_MILLIS, /* a number with a fraction (seconds), stored in thousandths */
	KNOB_BOOL,   /* on|off; on the command line the bare flag means on */
	KNOB_NAMED,  /* a name a registry resolves to a number (resolve, label) */
};

enum knob_flag {
	KF_OPTION = 1u << 0,   /* a run option, not a workload knob */
	KF_NOSWEEP = 1u << 1,  /* a comma list is not a sweep (dsn may hold commas) */
	KF_REBUILD = 1u << 2,  /* changing it live means rebuilding the table */
	KF_FIXED = 1u << 3,    /* cannot change while running: restart idxlab */
	KF_HEADLESS = 1u << 4, /* only means something in headless runs */
	KF_LOG = 1u << 5,      /* a slider moves it on a log scale */
	/* only the engines whose ops list it (engine_ops.own_knobs) honour it;
	 * without it, every engine does (engine_has_knob) */
	KF_ENGINE_OWN = 1u << 6,
	KF_LIST = 1u << 7, /* the value is a comma list itself (with KF_NOSWEEP) */
	/* given again in the same place (the command line, one config file),
	 * the values add up into one list (with KF_LIST) */
	KF_REPEAT = 1u << 8,
};

/* A word that stands for a number, e.g. commit "row" = 1. */
struct knob_word {
	const char *word;
	long long value;
};

struct knob_def {
	const char *name;
	enum knob_kind kind;
	long long min, max;
	const char *const *choices;    /* KNOB_CHOICE: NULL-terminated */
	const struct knob_word *words; /* KNOB_INT: {NULL} -terminated, may be NULL */
	const char *def;               /* the default, as a user would type it */
	const char *dash_def;          /* the dashboard's default, or NULL: def */
	const char *unit;
	unsigned flags; /* KF_* bits */
	const char *why;
	/* KNOB_NAMED: text to its number, and a number back to its text (NULL
	 * past the last: the slider's range). */
	int (*resolve)(const char *text, long long *out, struct err *e);
	const char *(*label)(long long v);
	/* The largest value under the other knobs of k (k NULL: the defaults),
	 * where it depends on them (indexes: the table's index count); NULL:
	 * max. It must not parse knobs (knob_parse calls it for its message). */
	long long (*max_of)(const struct knobs *k);
	const char *(*max_why)(const struct knobs *k); /* with max_of: why */
	/* The why under the other knobs of k, where it depends on them
	 * (indexes: the index list of the table in force); NULL: why. */
	const char *(*why_of)(const struct knobs *k);
	const char *range; /* KNOB_NAMED: the valid values in words; NULL: labels|FILE */
	/* Where its column stands in every output record (record.h): a
	 * position, append-only (a new column takes the next free number
	 * after the last in record.c's, knobs.c's and metrics.c's rows); 0:
	 * no column of its own. Every knob a sweep can vary has one. */
	int column;
	/* Its place in a --plot chart's caption of the knobs every record of
	 * the chart shares (plot_model.c), from 1; 0: not named there. */
	int caption;
};

extern const struct knob_def knob_table[K_COUNT];

/* A default that differs by engine: "cache" is "128MiB" on PostgreSQL. Each
 * engine's ops list its own, ending with a NULL def; engine_defaults
 * (engines/engine.h) applies them, the table itself reads no engine. */
struct knob_default {
	int knob;
	const char *def; /* as a user would type it */
};

/* Find a knob by name ("key-order" and "key_order" both match); -1 if none. */
int knob_find(const char *name);

/* text[0, len) as an on/off word: 1 for on|yes|true|1, 0 for
 * off|no|false|0, -1 for anything else. */
int knob_bool_word(const char *text, size_t len);

/* Parse one value of knob id from text; -1 with a message naming the valid
 * range or choices. A knob whose max depends on the others (max_of:
 * indexes) is parsed up to any value: knob_check judges it under them. */
int knob_parse(int id, const char *text, long long *out, struct err *e);

/* Knob id's one-line why under k (k NULL: the defaults'). The text
 * stays valid until the next call from the same thread. */
const char *knob_why(int id, const struct knobs *k);

/* Format value v of knob id the way a user would type it. */
void knob_format(int id, long long v, char *buf, size_t len);

/* Fill k with every default. */
void knobs_defaults(struct knobs *k);

/* The dashboard's defaults (knob_def.dash_def: commits a person can watch,
 * a table that starts over before it fills the disk) for the knobs in k
 * that the user did not set (set as above). */
void knobs_dash_defaults(struct knobs *k, const int *set);

/* "[default X; dashboard: Z; postgres: Y]" for --help: more (NULL: none)
 * is put before the closing bracket ("; postgres: Y", engine_defaults_text). */
void knob_default_text(int id, const char *more, char *buf, size_t len);

/* The prefill a step really uses (resolves "auto"). */
long long knobs_prefill(const struct knobs *k);

/* Knob id's largest value under the other knobs of k (k NULL: the
 * defaults): the indexes knob's is the table's index count. */
long long knob_max(int id, const struct knobs *k);

/* Is v a value of knob id under the other knobs of k? (knob_parse checks
 * the knob's own range; this, what the others allow.) */
int knob_check(int id, long long v, const struct knobs *k, struct err *e);

/* Every knob of k within what the others allow. */
int knobs_check(const struct knobs *k, struct err *e);

/* The value one slider step from v (dir -1 or +1; big: a page step),
 * clamped to the knob's range under k (NULL: the defaults). */
long long knob_step(int id, const struct knobs *k, long long v, int dir, int big);

/* Where v sits on knob id's slider under k, 0..1 (log scale for KF_LOG). */
double knob_position(int id, const struct knobs *k, long long v);

/* The value at slider position pos (0..1): the inverse of knob_position. */
long long knob_at_position(int id, const struct knobs *k, double pos);

/* Does going from a to b need the table rebuilt? (pk, prefill, key order
 * between integer and uuid values) */
int knobs_need_rebuild(const struct knobs *a, const struct knobs *b);

/* Do a and b set the workload alike (every knob but the run options and
 * the dsn)? */
int knobs_same_workload(const struct knobs *a, const struct knobs *b);

/* --presenter-metrics packs up to PRESENTER_MAX metric ids (metrics.h),
 * each plus one, a byte each, the first in the lowest; 0 is "auto". */
#define PRESENTER_MAX 3
int knobs_presenter_metric(long long packed, int i); /* the i-th, or -1 */

/* The presenter's figures for packed into ids (PRESENTER_MAX): its
 * metrics, or for auto rows/s and figure, the per-row figure the engine's
 * story turns on (engine_figure). Returns how many. */
int knobs_presenter_figures(long long packed, int figure, int *ids);

/* Are knob id's values in a step plain numbers (a KNOB_INT without words;
 * indexes, whose words plan_step resolves to a count)? */
int knob_numeric(int id);

/* Describe the valid values of knob id ("0..8", "seq|rand|few"). */
void knob_range_text(int id, char *buf, size_t len);

/* The knob name closest to name, or NULL. */
const char *knob_closest(const char *name);

/* Split a `key = value` line in place: *id the knob (unknown keys get a
 * "did you mean"), *val the trimmed value. */
int knob_read_line(char *s, int *id, char **val, struct err *e);

#endif
