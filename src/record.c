/* record.c - a record built from the knob and metric tables (record.h).
 *
 * The columns are placed by their rows: knob_def.column, metric_def.column
 * and, for the few fields that are neither a knob's value nor a metric's,
 * record_own_fields[] (record_own.c). The three are merged once into one
 * list by position (a position used twice is a bug: abort at the first
 * record); a gap is allowed. A knob column is written the way a user types the value (a
 * plain number stays a number), n/a on an engine that does not honour it;
 * a metric column is metric_compute's value, n/a or unsettled as it says. */
#include "record_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf_line.h"
#include "engines/engine.h"

enum src { SRC_NONE, SRC_KNOB, SRC_METRIC, SRC_OWN };

struct slot {
	enum src src;
	int id;
};

/* The columns by position (slots[0] unused), and the last position. */
static struct slot slots[RECORD_MAX_FIELDS + 1];
static int last;

static void place(int column, enum src src, int id)
{
	if (column <= 0)
		return;
	if (column > RECORD_MAX_FIELDS || slots[column].src != SRC_NONE)
		abort(); /* two rows claim one column, or too many: fix the tables */
	slots[column].src = src;
	slots[column].id = id;
	if (column > last)
		last = column;
}

static void order(void)
{
	int i;

	if (last)
		return;
	for (i = 0; i < K_COUNT; i++)
		place(knob_table[i].column, SRC_KNOB, i);
	for (i = 0; i < M_COUNT; i++)
		place(metric_table[i].column, SRC_METRIC, i);
	for (i = 0; i < record_nown; i++)
		place(record_own_fields[i].column, SRC_OWN, i);
}

/* Field names are knob names with '-' as '_'. */
static const char *knob_field(int id)
{
	static char names[K_COUNT][32];

	if (!names[id][0]) {
		char *c;

		snprintf(names[id], sizeof names[id], "%s", knob_table[id].name);
		for (c = names[id]; *c; c++)
			if (*c == '-')
				*c = '_';
	}
	return names[id];
}

const struct record_text_col *record_text_cols(int *n)
{
	static struct record_text_col cols[M_COUNT + RECORD_MAX_FIELDS];
	static int ncols = -1;
	int i, j;

	if (ncols < 0) {
		ncols = 0;
		for (i = 0; i < M_COUNT; i++)
			if (metric_table[i].text.order > 0)
				cols[ncols++] =
				    (struct record_text_col){ metric_table[i].field,
					                      metric_table[i].text.label
					                          ? metric_table[i].text.label
					                          : metric_table[i].label,
					                      metric_table[i].text, -1 };
		for (i = 0; i < record_nown; i++)
			if (record_own_fields[i].text.order > 0)
				cols[ncols++] =
				    (struct record_text_col){ record_own_fields[i].name,
					                      record_own_fields[i].text.label
					                          ? record_own_fields[i].text.label
					                          : record_own_fields[i].label,
					                      record_own_fields[i].text,
					                      record_own_fields[i].gate };
		for (i = 1; i < ncols; i++) /* by order: a handful, insertion sort */
			for (j = i; j > 0 && cols[j].text.order < cols[j - 1].text.order; j--) {
				struct record_text_col t = cols[j];

				cols[j] = cols[j - 1];
				cols[j - 1] = t;
			}
	}
	*n = ncols;
	return cols;
}

const char *record_knob_field(int id)
{
	int i;

	if (id < 0 || id >= K_COUNT)
		return NULL;
	if (knob_table[id].column > 0)
		return knob_field(id);
	for (i = 0; i < record_nown; i++)
		if (record_own_fields[i].knob == id)
			return record_own_fields[i].name;
	return NULL;
}

void record_knob_text(int id, const struct knobs *k, char *buf, size_t len)
{
	if (id == K_PREFILL)
		snprintf(buf, len, "%lld", knobs_prefill(k));
	else
		knob_format(id, k->v[id], buf, len);
}

static struct field *add(struct record *r, const char *name, const char *label)
{
	struct field *f;

	if (r->n == RECORD_MAX_FIELDS)
		abort(); /* a field too many: raise RECORD_MAX_FIELDS */
	f = &r->f[r->n++];
	memset(f, 0, sizeof *f);
	f->name = name;
	f->label = label;
	f->unit = "";
	return f;
}

static void add_knob(struct record *r, int id, const struct knobs *k)
{
	struct field *f = add(r, knob_field(id), knob_table[id].name);

	if (!engine_has_knob((int)k->v[K_ENGINE], id)) {
		f->kind = FIELD_NA; /* not a knob of this engine */
	} else if (id == K_PREFILL || knob_numeric(id)) {
		/* a plain number stays a number; words or units make it a string */
		record_set_int(f, id == K_PREFILL ? knobs_prefill(k) : k->v[id]);
	} else {
		char buf[600];

		knob_format(id, k->v[id], buf, sizeof buf);
		f->kind = FIELD_STR;
		snprintf(f->s, sizeof f->s, "%.*s", (int)sizeof f->s - 1, buf);
	}
}

static void add_metric(struct record *r, int m, const struct window *w, const struct knobs *k)
{
	const struct metric_def *d = &metric_table[m];
	struct mval v = metric_compute(m, w);
	struct field *f = add(r, d->field, record_metric_label(m, k));

	if (!record_metric_applies(m, k))
		v.state = MV_NA;

	f->unit = d->unit;
	f->decimals = d->decimals;
	f->kind = v.state == MV_OK ? FIELD_NUM : v.state == MV_NA ? FIELD_NA : FIELD_UNSETTLED;
	f->d = v.v;
	f->figure = 1;
}

void record_build(struct record *r, const struct knobs *k, const struct window *w, const char *kind,
                  long step, int interrupted, const struct step_result *s)
{
	struct ctx c = { k, w, kind, step, interrupted, s };
	/* index-build after: per commit over the load alone (build_fsyncs) */
	struct window load = { w->a, s && s->pb.t > 0 ? &s->pb : w->b, w->lat, w->sizes };
	int i;

	order();
	r->n = 0;
	for (i = 1; i <= last; i++) {
		const struct own_field *o;
		struct field *f;

		switch (slots[i].src) {
		case SRC_KNOB:
			add_knob(r, slots[i].id, k);
			break;
		case SRC_METRIC:
			add_metric(r, slots[i].id,
			           metric_table[slots[i].id].kind == MK_PER_COMMIT ? &load : w, k);
			break;
		case SRC_OWN:
			o = &record_own_fields[slots[i].id];
			f = add(r, o->name, o->label);
			f->unit = o->unit;
			o->fill(f, &c);
			break;
		case SRC_NONE:
			break;
		}
	}
}

const char *record_spread_name(const char *field, int max)
{
	static char names[2 * RECORD_MAX_FIELDS][64];
	static int n;
	char want[64];
	int i;

	snprintf(want, sizeof want, "%s_%s", field, max ? "max" : "min");
	for (i = 0; i < n; i++)
		if (strcmp(names[i], want) == 0)
			return names[i];
	if (n == 2 * RECORD_MAX_FIELDS)
		abort(); /* more figures than fields */
	memcpy(names[n], want, sizeof want);
	return names[n++];
}

void record_add_spread(struct record *r, int run, int runs)
{
	int n = r->n, i, max;

	if (run > 0)
		record_set_int(add(r, "run", "run"), run);
	else
		add(r, "run", "run")->kind = FIELD_NA;
	record_set_int(add(r, "runs", "runs"), runs);
	for (i = 0; i < n; i++)
		for (max = 0; max < 2 && r->f[i].figure; max++) {
			const char *name = record_spread_name(r->f[i].name, max);
			struct field *f = add(r, name, name);

			f->unit = r->f[i].unit;
			f->decimals = r->f[i].decimals;
			f->kind = FIELD_NA;
		}
}

const struct field *record_find(const struct record *r, const char *name)
{
	int i;

	for (i = 0; i < r->n; i++)
		if (strcmp(r->f[i].name, name) == 0)
			return &r->f[i];
	return NULL;
}

double record_csv_number(const struct field *f)
{
	char buf[64];

	if (!f)
		return NAN;
	if (f->kind == FIELD_INT)
		return (double)f->i;
	if (f->kind != FIELD_NUM)
		return NAN;
	snprintf(buf, sizeof buf, "%.*f", f->decimals, f->d);
	return strtod(buf, NULL);
}

/* ---- the field list, --fields ---- */

const struct record *record_all(int *spread_from)
{
	static struct record r;
	static int from;

	if (!r.n) {
		/* one record of default knobs and empty counters: every record
		 * of every run has these fields */
		static struct counters c;
		static struct lats h;
		struct window w = { &c, &c, &h, NULL };
		struct knobs k;

		knobs_defaults(&k);
		k.dsn = "";
		record_build(&r, &k, &w, "step", 0, 0, NULL);
		from = r.n;
		record_add_spread(&r, 1, 1);
	}
	if (spread_from)
		*spread_from = from;
	return &r;
}

static const char *nth_field(int i, const void *ctx)
{
	const struct record *r = ctx;

	return i < r->n ? r->f[i].name : NULL;
}

/* The field name closest to word, for "did you mean" ("p99" means p99_ms
 * more likely than pk: a name it begins first). */
static const char *closest(const struct record *all, const char *word)
{
	int i;

	for (i = 0; i < all->n; i++)
		if (strncmp(all->f[i].name, word, strlen(word)) == 0)
			return all->f[i].name;
	return config_closest(word, nth_field, all);
}

int record_split_fields(char *list, const char **names, int *n, struct err *e)
{
	const struct record *all = record_all(NULL);
	char *item, *next = list;
	int i;

	*n = 0;
	while ((item = strsep(&next, ","))) {
		const char *hint;

		if (!*item)
			return err_set(e, ERR_USAGE,
			               "an empty name in the list: write field names between the "
			               "commas (rows_per_s,p99_ms)");
		if (record_find(all, item)) {
			for (i = 0; i < *n; i++)
				if (strcmp(names[i], item) == 0)
					return err_set(e, ERR_USAGE, "'%s' is in the list twice",
					               item);
			if (*n == RECORD_MAX_FIELDS)
				return err_set(e, ERR_USAGE, "at most %d fields",
				               RECORD_MAX_FIELDS);
			names[(*n)++] = item;
			continue;
		}
		hint = closest(all, item);
		if (hint)
			return err_set(e, ERR_USAGE, "no field '%s' (did you mean %s?)", item,
			               hint);
		return err_set(e, ERR_USAGE,
		               "no field '%s' (the CSV header names them all; man idxlab, OUTPUT)",
		               item);
	}
	return 0;
}

int record_check_fields(const char *list, struct err *e)
{
	const char *names[RECORD_MAX_FIELDS];
	char *copy = strdup(list);
	int n, rc;

	if (!copy)
		abort();
	rc = record_split_fields(copy, names, &n, e);
	free(copy);
	return rc;
}
