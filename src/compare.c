/* compare.c - --compare FILE (compare.h): each step of this run matched to
 * the saved step with the same knobs, every figure's ratio and verdict.
 *
 * Both sides are compared as text records (struct rec): a saved line as
 * compare_read.c read it, this run's record as its CSV would print it
 * (record_csv_number's text), so a figure compared here is the figure a
 * reader of the two CSVs would compare. The figures are the record's own
 * (record.h: struct field.figure), in record order; their spreads, when
 * --repeat made them, are the FIELD_min and FIELD_max fields. */
#include "compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_int.h"
#include "knobs.h"
#include "metrics.h"
#include "xalloc.h"

/* Fields that tell where and with what a record was measured: named in
 * the note when they differ (the comparison still stands). */
static const char *const machine_fields[] = {
	"idxlab_version", "engine_version", "cpu", "kernel", "fs", "device"
};

struct fig {
	const char *field;   /* interned */
	const char *nw, *sv; /* the values as text, valid until the next step compared */
	double ratio;        /* new / saved; NaN: n/a */
	const char *verdict; /* NULL: n/a (a side has no number) */
	int spread;          /* judged by the runs' ranges, not the threshold */
};

/* What judged a verdict (vs_noise): the runs' ranges, or the threshold
 * (a short step's, wider). */
static const char *basis(int spread, int short_step)
{
	return spread ? "spread" : short_step ? "short step" : "threshold";
}

struct result {
	char step[32];    /* this run's step number */
	int saved;        /* the matched saved step's index, or -1 */
	char note[700];   /* what differs (knobs: why not compared), or "" */
	int nfig, spread; /* figures; a verdict came from a spread */
	int short_step;   /* a side took under SHORT_STEP_S */
	struct fig fig[RECORD_MAX_FIELDS];
	char text[RECORD_MAX_FIELDS][2][40]; /* the values of fig, kept for the table */
};

struct compare {
	struct saved s;
	struct result *noted; /* compare_note's, for compare_write */
	int nnoted;
};

int compare_open(struct compare **out, const char *path, struct err *e)
{
	struct compare *c = xcalloc(1, sizeof *c);

	*out = NULL;
	if (saved_read(&c->s, path, "--compare", e) < 0) {
		compare_free(c);
		return -1;
	}
	*out = c;
	return 0;
}

void compare_free(struct compare *c)
{
	if (!c)
		return;
	saved_free(&c->s);
	free(c->noted);
	free(c);
}

/* ---- this run's record as text ---- */

static char live_text[RECORD_MAX_FIELDS][160];
static const char *live_name[RECORD_MAX_FIELDS];
static char *live_val[RECORD_MAX_FIELDS];

/* r as a text record (valid until the next call). */
static struct rec rec_of(const struct record *r)
{
	struct rec out = { 0, r->n, live_name, live_val };
	int i;

	for (i = 0; i < r->n; i++) {
		const struct field *f = &r->f[i];
		char *t = live_text[i];

		live_name[i] = f->name;
		live_val[i] = t;
		switch (f->kind) {
		case FIELD_STR:
			snprintf(t, sizeof live_text[i], "%s", f->s);
			break;
		case FIELD_INT:
			snprintf(t, sizeof live_text[i], "%lld", f->i);
			break;
		case FIELD_NUM:
			snprintf(t, sizeof live_text[i], "%.*f", f->decimals, f->d);
			break;
		default:
			live_val[i] = NULL;
		}
	}
	return out;
}

/* ---- matching ---- */

static int same(const char *a, const char *b)
{
	return a && b ? strcmp(a, b) == 0 : !a && !b;
}

/* Did r's step end at its row count? (a saved run without ended_by: yes) */
static int by_rows(const struct rec *r)
{
	const char *how = rec_get(r, "ended_by");

	return !how || strcmp(how, "rows") == 0;
}

/* The knobs a and b differ in, "indexes 1 vs 0, key_order rand vs seq"
 * into buf: their count. The measured rows count as the rows knob when
 * both steps ran to their row count (--duration: they are what a time
 * gave, not a setting). */
static int knob_diff(const struct rec *a, const struct rec *b, char *buf, size_t len)
{
	int rows = by_rows(a) && by_rows(b), id, n = 0;
	size_t o = 0;

	buf[0] = 0;
	for (id = 0; id < K_COUNT; id++) {
		const char *name, *va, *vb;

		if (knob_table[id].column > 0)
			name = record_knob_field(id);
		else if (id == K_ROWS && rows)
			name = "rows";
		else
			continue;
		va = rec_get(a, name);
		vb = rec_get(b, name);
		if (same(va, vb))
			continue;
		if (o < len)
			o += (size_t)snprintf(buf + o, len - o, "%s%s %s vs %s", n ? "; " : "",
			                      name, va ? va : "n/a", vb ? vb : "n/a");
		n++;
	}
	return n;
}

/* The knobs in which the saved steps differ, as "indexes=2, sync=off" of
 * saved step r: what tells the table's steps apart. */
static void step_knobs(const struct saved *s, const struct rec *r, char *buf, size_t len)
{
	size_t o = 0;
	int id, i;

	buf[0] = 0;
	for (id = 0; id < K_COUNT; id++) {
		const char *name = record_knob_field(id), *v;

		if (knob_table[id].column <= 0)
			continue;
		for (i = 1;
		     i < s->nstep && same(rec_get(&s->step[0], name), rec_get(&s->step[i], name));
		     i++)
			;
		if (i == s->nstep || o >= len)
			continue;
		v = rec_get(r, name);
		o += (size_t)snprintf(buf + o, len - o, "%s%s=%s", o ? ", " : "", name,
		                      v ? v : "n/a");
	}
}

/* Which way figure name gets better. */
static enum better better_of(const char *name)
{
	int m;

	for (m = 0; m < M_COUNT; m++)
		if (strcmp(metric_table[m].field, name) == 0)
			return metric_table[m].better;
	/* record.c's own figures: the index build's and the vacuum's time and WAL */
	return BETTER_LOWER;
}

/* A number from a value's text; NaN: none. */
static double num(const char *t)
{
	char *end;
	double v;

	if (!t || !*t)
		return NAN;
	v = strtod(t, &end);
	return *end ? NAN : v;
}

static void judge(struct fig *g, const struct rec *nw, const struct rec *sv, int short_step)
{
	double a = num(rec_get(nw, g->field)), b = num(rec_get(sv, g->field));
	double amin = num(rec_get(nw, record_spread_name(g->field, 0)));
	double amax = num(rec_get(nw, record_spread_name(g->field, 1)));
	double bmin = num(rec_get(sv, record_spread_name(g->field, 0)));
	double bmax = num(rec_get(sv, record_spread_name(g->field, 1)));
	int ra = !isnan(amin) && !isnan(amax), rb = !isnan(bmin) && !isnan(bmax), noise;
	enum better dir = better_of(g->field);

	g->ratio = NAN;
	g->verdict = NULL;
	g->spread = 0;
	if (isnan(a) || isnan(b))
		return;
	g->ratio = b != 0 ? a / b : a == 0 ? 1 : NAN;
	g->spread = ra || rb;
	if (ra && rb)
		noise = !(amax < bmin || bmax < amin); /* the runs' ranges overlap */
	else if (ra)
		noise = b >= amin && b <= amax;
	else if (rb)
		noise = a >= bmin && a <= bmax;
	else
		noise = !isnan(g->ratio) &&
		        fabs(g->ratio - 1) * 100 <=
		            (short_step ? COMPARE_SHORT_NOISE_PCT : COMPARE_NOISE_PCT);
	if (a == b || noise)
		g->verdict = "within noise";
	else if (dir == BETTER_HIGHER)
		g->verdict = a > b ? "better" : "worse";
	else if (dir == BETTER_LOWER)
		g->verdict = a < b ? "better" : "worse";
	else
		g->verdict = a > b ? "higher" : "lower";
}

/* The figures of every record, in record order (their count). */
static const char *const *figures(int *n)
{
	static const char *names[RECORD_MAX_FIELDS];
	static int count = -1;
	int from, i;

	if (count < 0) {
		const struct record *all = record_all(&from);

		count = 0;
		for (i = 0; i < from; i++)
			if (all->f[i].figure)
				names[count++] = all->f[i].name;
	}
	*n = count;
	return names;
}

/* The note as one line: the saved values in it are outside text. */
static void escape_note(struct result *res)
{
	char buf[sizeof res->note];

	err_escape(res->note, buf, sizeof buf);
	memcpy(res->note, buf, sizeof buf);
}

/* Step nw (a step's record as text) against the saved steps, into res. */
static void compare_rec(struct compare *c, const struct rec *nw, struct result *res)
{
	const char *const *fig = figures(&res->nfig);
	char diff[600], best_diff[600] = "";
	int i, best = -1, best_n = K_COUNT + 1;
	size_t o;

	err_escape(rec_get(nw, "step") ? rec_get(nw, "step") : "?", res->step, sizeof res->step);
	res->saved = -1;
	res->note[0] = 0;
	res->spread = 0;
	for (i = 0; i < c->s.nstep; i++) {
		int n = knob_diff(nw, &c->s.step[i], diff, sizeof diff);

		if (n < best_n) {
			best_n = n;
			best = i;
			snprintf(best_diff, sizeof best_diff, "%s", diff);
		}
		if (!n)
			break;
	}
	for (i = 0; i < res->nfig; i++) {
		res->fig[i].field = fig[i];
		res->fig[i].nw = res->fig[i].sv = NULL;
		res->fig[i].ratio = NAN;
		res->fig[i].verdict = NULL;
		res->fig[i].spread = 0;
	}
	if (best_n) {
		const char *step = best >= 0 ? rec_get(&c->s.step[best], "step") : NULL;

		snprintf(res->note, sizeof res->note,
		         "not compared: no saved step has its knobs (the nearest, saved step %s: "
		         "%s)",
		         step ? step : "?", best_diff);
		escape_note(res);
		return;
	}
	res->saved = best;
	res->short_step = num(rec_get(nw, "seconds")) < SHORT_STEP_S ||
	                  num(rec_get(&c->s.step[best], "seconds")) < SHORT_STEP_S;
	for (i = 0, o = 0; i < (int)(sizeof machine_fields / sizeof machine_fields[0]); i++) {
		const char *a = rec_get(nw, machine_fields[i]);
		const char *b = rec_get(&c->s.step[best], machine_fields[i]);

		if (!same(a, b) && o < sizeof res->note)
			o += (size_t)snprintf(res->note + o, sizeof res->note - o,
			                      "%s%s '%s' vs '%s'",
			                      o ? "; " : "measured apart: ", machine_fields[i],
			                      a ? a : "n/a", b ? b : "n/a");
	}
	escape_note(res);
	for (i = 0; i < res->nfig; i++) {
		struct fig *g = &res->fig[i];

		snprintf(res->text[i][0], sizeof res->text[i][0], "%s",
		         rec_get(nw, g->field) ? rec_get(nw, g->field) : "");
		snprintf(res->text[i][1], sizeof res->text[i][1], "%s",
		         rec_get(&c->s.step[best], g->field) ? rec_get(&c->s.step[best], g->field)
		                                             : "");
		g->nw = res->text[i][0];
		g->sv = res->text[i][1];
		judge(g, nw, &c->s.step[best], res->short_step);
		res->spread |= g->spread;
	}
}

/* ---- the appended fields ---- */

static struct field *append(struct record *out, const char *name)
{
	struct field *f;

	if (out->n == RECORD_MAX_FIELDS)
		abort(); /* raise RECORD_MAX_FIELDS */
	f = &out->f[out->n++];
	memset(f, 0, sizeof *f);
	f->name = f->label = name;
	f->unit = "";
	f->kind = FIELD_NA;
	return f;
}

static void append_str(struct record *out, const char *name, const char *text)
{
	struct field *f = append(out, name);

	if (text && *text) {
		f->kind = FIELD_STR;
		snprintf(f->s, sizeof f->s, "%s", text);
	}
}

static int is_step(const struct record *r)
{
	const struct field *f = record_find(r, "record");

	return f && f->kind == FIELD_STR && strcmp(f->s, "step") == 0;
}

void compare_fields(struct compare *c, const struct record *full, struct record *out)
{
	static struct result res;
	char name[80];
	int i, step = is_step(full);
	struct field *f;

	if (step) {
		struct rec r = rec_of(full);

		compare_rec(c, &r, &res);
	} else {
		figures(&res.nfig);
		res.saved = -1;
		res.note[0] = 0;
	}
	f = append(out, "vs_step");
	if (res.saved >= 0 && step && !isnan(num(rec_get(&c->s.step[res.saved], "step")))) {
		f->kind = FIELD_INT;
		f->i = (long long)num(rec_get(&c->s.step[res.saved], "step"));
	}
	append_str(out, "vs_note", step ? res.note : NULL);
	append_str(out, "vs_noise",
	           step && res.saved >= 0 ? basis(res.spread, res.short_step) : NULL);
	for (i = 0; i < res.nfig; i++) {
		const char *field = figures(&res.nfig)[i];
		int ok = step && res.saved >= 0 && res.fig[i].verdict;

		if (!record_find(out, field))
			continue; /* not written (--fields): no ratio either */
		snprintf(name, sizeof name, "%s_vs", field);
		f = append(out, compare_intern(name));
		if (ok && !isnan(res.fig[i].ratio)) {
			f->kind = FIELD_NUM;
			f->decimals = 3;
			f->d = res.fig[i].ratio;
		}
		snprintf(name, sizeof name, "%s_verdict", field);
		append_str(out, compare_intern(name), ok ? res.fig[i].verdict : NULL);
	}
}

/* ---- the table ---- */

void compare_note(struct compare *c, const struct record *r)
{
	struct rec t;

	if (!is_step(r))
		return;
	t = rec_of(r);
	c->noted = realloc(c->noted, (size_t)(c->nnoted + 1) * sizeof *c->noted);
	if (!c->noted)
		abort();
	compare_rec(c, &t, &c->noted[c->nnoted]);
	/* the values' text moved with the result: point into its own copy */
	for (int i = 0; i < c->noted[c->nnoted].nfig; i++) {
		c->noted[c->nnoted].fig[i].nw = c->noted[c->nnoted].text[i][0];
		c->noted[c->nnoted].fig[i].sv = c->noted[c->nnoted].text[i][1];
	}
	c->nnoted++;
}

static void write_table(const struct compare *c, const struct result *res, int n, FILE *f)
{
	const struct rec *first = &c->s.step[0];
	char path[300], v[64], d[64], step[32], knobs[200], text[200];
	int i, j, better = 0, worse = 0, noise = 0, other = 0;

	err_escape(c->s.path, path, sizeof path);
	err_escape(rec_get(first, "idxlab_version") ? rec_get(first, "idxlab_version") : "?", v,
	           sizeof v);
	err_escape(rec_get(first, "date") ? rec_get(first, "date") : "date n/a", d, sizeof d);
	fprintf(f,
	        "\ncompared with %s (idxlab %s, %s): each step beside the saved step with the "
	        "same knobs; ratio = new / saved; within noise: the runs' ranges overlap when "
	        "--repeat gave either side a spread, else the ratio is within %g %% of 1 (%g %% "
	        "where a step took under %g s: a short step)\n",
	        path, v, d, COMPARE_NOISE_PCT, COMPARE_SHORT_NOISE_PCT, SHORT_STEP_S);
	for (i = 0; i < n; i++) {
		const struct result *r = &res[i];

		if (r->saved < 0) {
			fprintf(f, "step %s: %s\n", r->step, r->note);
			continue;
		}
		err_escape(rec_get(&c->s.step[r->saved], "step")
		               ? rec_get(&c->s.step[r->saved], "step")
		               : "?",
		           step, sizeof step);
		step_knobs(&c->s, &c->s.step[r->saved], text, sizeof text);
		err_escape(text, knobs, sizeof knobs);
		fprintf(f, "step %s vs saved step %s%s%s%s%s%s\n", r->step, step,
		        *knobs ? " (" : "", knobs, *knobs ? ")" : "", r->note[0] ? ": " : "",
		        r->note);
		fprintf(f, "  %-28s %14s %14s %8s  %s\n", "figure", "new", "saved", "ratio",
		        "verdict");
		for (j = 0; j < r->nfig; j++) {
			const struct fig *g = &r->fig[j];
			char ratio[32];

			if (!g->verdict)
				continue;
			if (isnan(g->ratio))
				snprintf(ratio, sizeof ratio, "n/a");
			else
				snprintf(ratio, sizeof ratio, "%.3f", g->ratio);
			fprintf(f, "  %-28s %14s %14s %8s  %s (%s)\n", g->field, g->nw, g->sv,
			        ratio, g->verdict, basis(g->spread, r->short_step));
			if (strcmp(g->verdict, "within noise") == 0)
				noise++;
			else if (strcmp(g->verdict, "better") == 0)
				better++;
			else if (strcmp(g->verdict, "worse") == 0)
				worse++;
			else
				other++;
		}
	}
	fprintf(f, "compared: %d better, %d worse, %d within noise, %d neither (sizes, gauges)\n",
	        better, worse, noise, other);
}

void compare_write(struct compare *c, FILE *f)
{
	if (!c || !f)
		return;
	if (!c->nnoted) {
		char path[300];

		err_escape(c->s.path, path, sizeof path);
		fprintf(f, "\ncompared with %s: no step of this run finished\n", path);
		return;
	}
	write_table(c, c->noted, c->nnoted, f);
}

int compare_files(struct compare *c, const char *new_path, FILE *out, compare_emit_fn *emit,
                  void *ctx, struct err *e)
{
	struct saved nw;
	struct result *res;
	int i;

	if (saved_read(&nw, new_path, "--compare-new", e) < 0) {
		saved_free(&nw);
		return -1;
	}
	res = xcalloc((size_t)nw.nstep, sizeof *res);
	for (i = 0; i < nw.nstep; i++) {
		compare_rec(c, &nw.step[i], &res[i]);
		for (int j = 0; j < res[i].nfig; j++) {
			res[i].fig[j].nw = res[i].text[j][0];
			res[i].fig[j].sv = res[i].text[j][1];
		}
		if (emit) {
			static struct record r; /* big: not on the stack */

			rec_to_record(&nw.step[i], &r);
			emit(ctx, &r);
		}
	}
	if (out) {
		char path[300];

		err_escape(new_path, path, sizeof path);
		fprintf(out, "%s (new), against the saved run:", path);
		write_table(c, res, nw.nstep, out);
	}
	free(res);
	saved_free(&nw);
	return 0;
}
