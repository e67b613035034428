/* report_runs.c - --repeat: a step's runs made into its median record, and
 * the closing lines that name the neighbouring steps within noise.
 *
 * The worker interleaves the runs (workload_plan.c), so a step's runs
 * arrive apart: each is kept (the first whole, the others as one number
 * per field) until the step has all of them. The median record is the
 * first run's with every figure replaced by the median of the runs'
 * figures - each run's figure is computed from its own window, so
 * cumulative counters are per-run deltas before they come here - and
 * FIELD_min / FIELD_max beside it. The values are taken as the CSV prints
 * them, so a reader who takes the median of the record=run rows gets the
 * median row's value exactly. A run a signal cut short covers part of a
 * step: it counts only when no run of its step is whole. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_int.h"
#include "spread.h"

/* Fields whose step value is the largest of its runs: a mark that one run
 * carried holds for the step. */
static const char *const any_fields[] = { "interrupted", "checkpoint_in_window" };

/* The fields of NAME:FIGURE pairs (a mix's ms by op kind): each name's
 * median over the runs, as a figure's. */
static const char *const list_fields[] = { "op_ms", "op_p50_ms", "op_p99_ms", "op_max_ms" };
#define NLISTS (int)(sizeof list_fields / sizeof list_fields[0])

struct pending {
	struct record first;            /* the first run's record */
	struct knobs k;                 /* its knobs */
	double (*v)[RECORD_MAX_FIELDS]; /* [repeat]: each run's value of each field (NaN: none) */
	char *cut;                      /* [repeat]: the run was stopped part way */
	char (*list)[NLISTS][sizeof((struct field *)0)->s]; /* [repeat]: each run's list_fields */
	int got, whole;                                     /* runs in, and of those not stopped */
};

/* What the closing lines compare: a finished step's spread in each text
 * column (n 0 where the column is not a figure). */
struct done {
	struct spread s[RECORD_MAX_FIELDS + K_COUNT];
};

struct runs {
	struct pending **pending; /* [steps] */
	struct done **done;       /* [steps]; text only */
	int shown;                /* a median record of more than one run went to the table */
};

static int is_any(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof any_fields / sizeof any_fields[0]; i++)
		if (strcmp(name, any_fields[i]) == 0)
			return 1;
	return 0;
}

static struct runs *runs_of(struct report *rp)
{
	if (!rp->runs) {
		size_t n = (size_t)rp->plan->steps;

		rp->runs = calloc(1, sizeof *rp->runs);
		if (!rp->runs || !(rp->runs->pending = calloc(n, sizeof *rp->runs->pending)) ||
		    !(rp->runs->done = calloc(n, sizeof *rp->runs->done)))
			abort();
	}
	return rp->runs;
}

static void set_field(struct record *m, const char *name, enum field_kind kind, double v)
{
	struct field *f = (struct field *)record_find(m, name);

	if (!f)
		return;
	f->kind = kind;
	f->d = v;
	f->i = (long long)v;
}

/* Run j of pd counts: a run a signal cut short only when no run of the
 * step is whole (its figures cover part of a step). */
static int counts(const struct pending *pd, int j)
{
	return !pd->cut[j] || !pd->whole;
}

/* Field i of the runs of pd that count: its median, min and max. */
static struct spread column(const struct pending *pd, int i)
{
	double *col = malloc((size_t)pd->got * sizeof *col);
	struct spread sp;
	size_t n = 0;
	int j;

	if (!col)
		abort();
	for (j = 0; j < pd->got; j++)
		if (counts(pd, j))
			col[n++] = pd->v[j][i];
	sp = spread_of(col, n);
	free(col);
	return sp;
}

/* The text columns' spreads of the median record m, for the closing lines. */
static void keep_done(struct report *rp, long step, const struct record *m,
                      const struct pending *pd)
{
	struct done *d = calloc(1, sizeof *d);
	int c;

	if (!d)
		abort();
	for (c = 0; c < rp->ncols; c++) {
		const struct field *f =
		    rp->cols[c].knob < 0 ? record_find(m, rp->cols[c].field) : NULL;

		if (f && f->figure)
			d->s[c] = column(pd, (int)(f - m->f));
	}
	rp->runs->done[step] = d;
}

/* Name's figure in run j's list (NaN: not there). */
static double list_value(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = list; (p = strstr(p, name)); p += n)
		if ((p == list || p[-1] == ' ') && p[n] == ':')
			return strtod(p + n + 1, NULL);
	return NAN;
}

/* Which of list_fields name is; -1: none. */
static int list_of(const char *name)
{
	int i;

	for (i = 0; i < NLISTS; i++)
		if (strcmp(name, list_fields[i]) == 0)
			return i;
	return -1;
}

/* f (list_fields[l], the first run's) as each of its names' median over the
 * runs of pd that count. */
static void list_median(struct field *f, int l, const struct pending *pd)
{
	char first[sizeof f->s], *name, *save = NULL;
	double *col = malloc((size_t)pd->got * sizeof *col);
	size_t n = 0;

	if (!col)
		abort();
	snprintf(first, sizeof first, "%s", f->s);
	f->s[0] = 0;
	for (name = strtok_r(first, " ", &save); name; name = strtok_r(NULL, " ", &save)) {
		struct spread sp;
		size_t m = 0;
		int j;

		*strchr(name, ':') = 0;
		for (j = 0; j < pd->got; j++)
			if (counts(pd, j))
				col[m++] = list_value(pd->list[j][l], name);
		sp = spread_of(col, m);
		if (sp.n && n < sizeof f->s)
			n += (size_t)snprintf(f->s + n, sizeof f->s - n, "%s%s:%.4g", n ? " " : "",
			                      name, sp.med);
	}
	free(col);
}

/* Step step's median record, written (and charted); its runs freed. */
static void finish(struct report *rp, long step)
{
	struct pending *pd = rp->runs->pending[step];
	struct record *m = malloc(sizeof *m);
	int i;

	if (!m)
		abort();
	*m = pd->first;
	for (i = 0; i < m->n; i++) {
		struct field *f = &m->f[i];
		struct spread sp;

		if (f->kind == FIELD_STR && list_of(f->name) >= 0)
			list_median(f, list_of(f->name), pd);
		if (f->kind != FIELD_INT && !f->figure)
			continue;
		sp = column(pd, i);
		if (!sp.n)
			continue; /* n/a or unsettled in every run: as the first run said */
		if (f->kind == FIELD_INT) {
			f->i = llround(is_any(f->name) ? sp.max : sp.med);
			continue;
		}
		f->kind = FIELD_NUM;
		f->d = is_any(f->name) ? sp.max : sp.med;
		set_field(m, record_spread_name(f->name, 0), FIELD_NUM, sp.min);
		set_field(m, record_spread_name(f->name, 1), FIELD_NUM, sp.max);
	}
	snprintf(((struct field *)record_find(m, "record"))->s, sizeof m->f[0].s, "step");
	set_field(m, "run", FIELD_NA, 0);
	set_field(m, "runs", FIELD_INT, pd->whole ? pd->whole : pd->got);
	set_field(m, "interrupted", FIELD_INT, pd->whole < rp->repeat);
	report_emit(rp, m, &pd->k);
	report_hand_on(rp, m, &pd->k, 0, 0);
	if (rp->format == FMT_TEXT && pd->got > 1)
		rp->runs->shown = 1;
	if (rp->format == FMT_TEXT)
		keep_done(rp, step, m, pd);
	free(m);
	free(pd->v);
	free(pd->cut);
	free(pd->list);
	free(pd);
	rp->runs->pending[step] = NULL;
}

void report_runs_step(struct report *rp, const struct record *r, const struct step_result *s)
{
	struct runs *ru = runs_of(rp);
	struct pending *pd;
	int i;

	if (s->index < 0 || s->index >= rp->plan->steps)
		return;
	pd = ru->pending[s->index];
	if (!pd) {
		pd = calloc(1, sizeof *pd);
		if (!pd || !(pd->v = calloc((size_t)rp->repeat, sizeof *pd->v)) ||
		    !(pd->cut = calloc((size_t)rp->repeat, 1)) ||
		    !(pd->list = calloc((size_t)rp->repeat, sizeof *pd->list)))
			abort();
		pd->first = *r;
		pd->k = s->knobs;
		ru->pending[s->index] = pd;
	}
	if (pd->got == rp->repeat)
		return; /* not asked for */
	for (i = 0; i < r->n; i++)
		pd->v[pd->got][i] = record_csv_number(&r->f[i]);
	for (i = 0; i < NLISTS; i++)
		if (record_find(r, list_fields[i]))
			snprintf(pd->list[pd->got][i], sizeof pd->list[0][0], "%s",
			         record_find(r, list_fields[i])->s);
	pd->cut[pd->got++] = (char)(s->interrupted != 0);
	pd->whole += !s->interrupted;
	if (pd->got == rp->repeat)
		finish(rp, s->index);
}

void report_runs_flush(struct report *rp)
{
	long i;

	for (i = 0; rp->runs && i < rp->plan->steps; i++)
		if (rp->runs->pending[i])
			finish(rp, i);
}

/* Step b is step a's neighbour: one knob apart, at the next of its values
 * (*which: that knob). Steps are numbered like plan_step's mixed radix. */
static int neighbours(const struct plan *p, long a, long b, int *which)
{
	int id;

	*which = -1;
	for (id = K_COUNT - 1; id >= 0; id--) {
		long pa = a % p->n[id], pb = b % p->n[id];

		a /= p->n[id];
		b /= p->n[id];
		if (pa == pb)
			continue;
		if (*which >= 0 || pb != pa + 1)
			return 0;
		*which = id;
	}
	return *which >= 0;
}

/* "indexes 2 and 3", and the other varying knobs of the pair in brackets. */
static void pair_text(const struct report *rp, long a, long b, int which, char *buf, size_t len)
{
	struct knobs ka, kb;
	char va[64], vb[64];
	size_t n;
	int id, first = 1;

	plan_step(rp->plan, a, &ka);
	plan_step(rp->plan, b, &kb);
	record_knob_text(which, &ka, va, sizeof va);
	record_knob_text(which, &kb, vb, sizeof vb);
	n = (size_t)snprintf(buf, len, "%s %s and %s", knob_table[which].name, va, vb);
	for (id = 0; id < K_COUNT && n < len; id++) {
		if (id == which || !rp->varying[id])
			continue;
		record_knob_text(id, &ka, va, sizeof va);
		n += (size_t)snprintf(buf + n, len - n, "%s%s=%s", first ? " (" : ", ",
		                      knob_table[id].name, va);
		first = 0;
	}
	if (!first && n < len)
		snprintf(buf + n, len - n, ")");
}

void report_runs_footer(struct report *rp)
{
	struct runs *ru = rp->runs;
	char line[600], pair[300];
	long a, b, stride;
	int id, c, which;
	size_t n;

	if (!ru || !ru->shown)
		return;
	snprintf(line, sizeof line,
	         "%s: each figure is the median of its step's %d runs%s; %s%% is the larger "
	         "distance from the median to the runs' min or max, in %% of the median (each "
	         "run's figures: --format csv, the record=run rows)",
	         report_pm(), rp->repeat, rp->repeat % 2 ? "" : " (the mean of the middle two)",
	         report_pm());
	report_footnote(rp, line);
	/* each step and its next along every swept knob */
	for (a = 0; a < rp->plan->steps; a++)
		for (id = K_COUNT - 1, stride = 1; id >= 0; stride *= rp->plan->n[id--]) {
			b = a + stride;
			if (rp->plan->n[id] < 2 || b >= rp->plan->steps || !ru->done[a] ||
			    !ru->done[b] || !neighbours(rp->plan, a, b, &which))
				continue;
			pair_text(rp, a, b, which, pair, sizeof pair);
			n = (size_t)snprintf(line, sizeof line,
			                     "%s: within noise (ranges overlap):", pair);
			for (c = 0, which = 0; c < rp->ncols && n < sizeof line; c++)
				if (spread_overlap(&ru->done[a]->s[c], &ru->done[b]->s[c])) {
					n +=
					    (size_t)snprintf(line + n, sizeof line - n, "%s %s",
					                     which++ ? "," : "", rp->cols[c].label);
				}
			if (which)
				report_footnote(rp, line);
		}
}

void report_runs_free(struct report *rp)
{
	long i;

	if (!rp->runs)
		return;
	for (i = 0; i < rp->plan->steps; i++) {
		if (rp->runs->pending[i]) {
			free(rp->runs->pending[i]->v);
			free(rp->runs->pending[i]->cut);
		}
		free(rp->runs->pending[i]);
		free(rp->runs->done[i]);
	}
	free(rp->runs->pending);
	free(rp->runs->done);
	free(rp->runs);
	rp->runs = NULL;
}
