/* record.h - a record: the named fields of one step (or one run of it, one
 * --interval window, one --interval-rows batch), built from its knobs and
 * its metrics. Every headless output consumes records and nothing else:
 * the CSV/JSON lines and the text table (report.h), the chart (plot.h),
 * the answer (answer.h); so they show the same numbers, and this module
 * imports none of them.
 *
 * The field order is the CSV column order, a contract (man idxlab, OUTPUT
 * FIELDS; tests/t_output.sh). It comes from the tables: every knob row
 * (knob_def.column) and metric row (metric_def.column) says where its
 * column stands, and record.c's own short table places the fields that
 * are neither (the measured rows, the step number, the index pages ...).
 * Positions are append-only: a new knob or metric takes the next free
 * number, so the columns of existing CSV scripts stay put. The spread
 * fields of --repeat (run, runs, FIELD_min, FIELD_max) come after them
 * all. A knob the step's engine does not honour is n/a in its column.
 *
 * A new output field: give its knob or metric row the next free column
 * (a field that is neither: a row of record.c's own_fields[]), and say
 * what it means in man idxlab, OUTPUT FIELDS; a figure the text table
 * should show by default also gets a text place (metric_def.text). Every
 * knob a sweep can vary must have a column: tests/t_record.sh sweeps each
 * one that --help lists. */
#ifndef IDXLAB_RECORD_H
#define IDXLAB_RECORD_H

#include "err.h"
#include "knobs.h"
#include "metrics.h"
#include "workload.h"

/* a record's fields at most: the knobs, metrics and own fields, each
 * figure's --repeat min and max, --compare's appended ones */
#define RECORD_MAX_FIELDS 384

/* A step under this many seconds is short: its rows/s moves by a fifth from
 * run to run on a busy machine (the text table marks it, --compare judges
 * it at COMPARE_SHORT_NOISE_PCT). */
#define SHORT_STEP_S 1.0

enum field_kind { FIELD_STR, FIELD_INT, FIELD_NUM, FIELD_NA, FIELD_UNSETTLED };

struct field {
	const char *name;  /* the CSV/JSON name (static) */
	const char *label; /* the text table's header (static) */
	const char *unit;  /* for human formatting in text */
	enum field_kind kind;
	char s[512]; /* a string's: a plan of both read ops' queries fits */
	long long i;
	double d;
	int decimals;
	int figure; /* a measured figure (a metric, a step-end time): --repeat's median */
};

struct record {
	int n;
	struct field f[RECORD_MAX_FIELDS];
};

/* The record of knobs k over window w: kind is "step", "run", "rows" or
 * "interval", step the plan's step (from 0), s the step's result (its
 * table rows, index build and vacuum times; NULL for a live window: those
 * are n/a). Every record of every run has the same fields in the same
 * order (the spread fields aside). */
void record_build(struct record *r, const struct knobs *k, const struct window *w, const char *kind,
                  long step, int interrupted, const struct step_result *s);

/* Metric m's label under knobs k: WAL bytes under SQLite's rollback
 * journal are "journal B/row" (k NULL: the label of any knobs,
 * "wal|jrnl B/row"). The records' and the dashboard's. */
const char *record_metric_label(int m, const struct knobs *k);

/* 0 when metric m means nothing under k, so it is n/a however its
 * counters moved: HOT % in a step that updates no row (op insert or
 * delete), not "..." waiting for an update. */
int record_metric_applies(int m, const struct knobs *k);

/* The spread fields (run, runs, FIELD_min and FIELD_max of every figure
 * of r, in r's order) appended to r: run from 1 (0: none, the median
 * record), runs the number of runs r stands for; min and max n/a. */
void record_add_spread(struct record *r, int run, int runs);

/* "rows_per_s_min" (max 0) or "rows_per_s_max" (max 1) for field name:
 * interned, valid for the process' life. */
const char *record_spread_name(const char *field, int max);

/* The field called name in r, or NULL. */
const struct field *record_find(const struct record *r, const char *name);

/* f's number exactly as the CSV prints it (its decimals); NaN: no field
 * (f NULL), n/a, unsettled, a string. */
double record_csv_number(const struct field *f);

/* Every field a record has, in record order (the spread fields last, from
 * *spread_from on; spread_from may be NULL). Valid for the process' life. */
const struct record *record_all(int *spread_from);

/* --fields: split list (modified in place, owned by the caller) into
 * names (at most RECORD_MAX_FIELDS, pointing into list); -1 (ERR_USAGE,
 * with a "did you mean") on an unknown, empty or repeated name. */
int record_split_fields(char *list, const char **names, int *n, struct err *e);

/* Is every name of the comma list a field, none twice? (list unchanged) */
int record_check_fields(const char *list, struct err *e);

/* A default column of the headless text table: a figure, its header, its
 * place (metrics.h: struct text_place; from the metric rows and record.c's
 * own fields), and the knob that must be set (non-zero) in some step for
 * it to be a column (-1: always). */
struct record_text_col {
	const char *field, *label;
	struct text_place text;
	int gate;
};

/* The text table's default columns, in their order (text.order): *n of
 * them. Valid for the process' life. */
const struct record_text_col *record_text_cols(int *n);

/* Knob id's value in k as its record column and the chart write it
 * ("auto" prefill resolved to its rows). */
void record_knob_text(int id, const struct knobs *k, char *buf, size_t len);

/* The field name of knob id ("key_order"), or NULL when it has no column;
 * the field of the measured rows is the rows knob's. */
const char *record_knob_field(int id);

#endif
