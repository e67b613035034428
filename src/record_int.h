/* record_int.h - what record.c and record_own.c share: the fields that
 * are neither a knob's value nor a metric's (record_own.c) and what they
 * are computed from. Not for the record's consumers: they read record.h. */
#ifndef IDXLAB_RECORD_INT_H
#define IDXLAB_RECORD_INT_H

#include "record.h"

/* What a field that is neither a knob nor a metric is computed from. */
struct ctx {
	const struct knobs *k;
	const struct window *w;
	const char *kind;
	long step;
	int interrupted;
	const struct step_result *s; /* NULL: a live window */
};

struct own_field {
	int column; /* position, as knob_def.column */
	const char *name, *label, *unit;
	int knob; /* the knob whose column this is (rows: the rows measured), or -1 */
	void (*fill)(struct field *f, const struct ctx *c);
	struct text_place text; /* as metric_def.text */
	int gate; /* a text column only when this knob is set in some step; -1: always */
};

/* The own fields, in no order (each says its column), and their count. */
extern const struct own_field record_own_fields[];
extern const int record_nown;

/* f holds the integer v. */
void record_set_int(struct field *f, long long v);

#endif
