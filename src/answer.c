/* answer.c - the question's answer in words and numbers (answer.h).
 *
 * The steps are kept as they finish. At the end, the steps that differ
 * only in the indexes knob form a group (one per setting of the other
 * swept knobs); in a group, the step at the table's own list (indexes
 * table) is the baseline, and the step with the candidates (all) or
 * without what --drop-index names (without) is the change. Each figure's
 * difference is said in the figure's own terms: rows/s in per cent (and
 * both values), the per-row figures as a signed difference at the
 * precision the table shows them, the index size in bytes. A figure n/a
 * in either step is left out; so is a group missing either step. */
#include "answer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "mix.h"
#include "schema.h"
#include "units.h"
#include "whatif.h"

static const int fig_metric[AF_COUNT] = {
	[AF_ROWS_PER_S] = M_ROWS_PER_S,         [AF_WCHAR_PER_ROW] = M_WCHAR_PER_ROW,
	[AF_SPILLS_PER_ROW] = M_SPILLS_PER_ROW, [AF_WAL_BYTES_PER_ROW] = M_WAL_BYTES_PER_ROW,
	[AF_INDEX_BYTES] = M_INDEX_BYTES,       [AF_WRITE_MS] = M_WRITE_MS_PER_ROW,
	[AF_READS_PER_S] = M_READS_PER_S,       [AF_MIX_MS] = M_MIX_MS_PER_1000_OPS,
};

/* How a difference is said: its words before and after the number. */
static const char *const fig_word[AF_COUNT] = {
	[AF_ROWS_PER_S] = "rows/s",     [AF_WCHAR_PER_ROW] = "write()",
	[AF_SPILLS_PER_ROW] = "spills", [AF_WAL_BYTES_PER_ROW] = "WAL",
	[AF_INDEX_BYTES] = "index",     [AF_WRITE_MS] = "writes",
	[AF_READS_PER_S] = "queries",   [AF_MIX_MS] = "at the mix",
};
static const char *const fig_unit[AF_COUNT] = {
	[AF_ROWS_PER_S] = " %",       [AF_WCHAR_PER_ROW] = " B/row",
	[AF_SPILLS_PER_ROW] = "/row", [AF_WAL_BYTES_PER_ROW] = " B/row",
	[AF_INDEX_BYTES] = "",        [AF_WRITE_MS] = " %",
	[AF_READS_PER_S] = "x",       [AF_MIX_MS] = "",
};

struct answer {
	struct answer_step *steps;
	long n, cap;
};

struct answer *answer_new(void)
{
	struct answer *a = calloc(1, sizeof *a);

	if (!a)
		abort();
	return a;
}

void answer_free(struct answer *a)
{
	if (!a)
		return;
	free(a->steps);
	free(a);
}

void answer_add(struct answer *a, const struct answer_step *s)
{
	if (a->n == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 16;
		a->steps = realloc(a->steps, sizeof *a->steps * (size_t)a->cap);
		if (!a->steps)
			abort();
	}
	a->steps[a->n++] = *s;
}

void answer_note(struct answer *a, const struct record *r, const struct knobs *k)
{
	const struct field *kind = record_find(r, "record");
	const struct field *secs = record_find(r, "seconds"), *cut = record_find(r, "interrupted");
	struct answer_step st = { .k = *k,
		                  .interrupted = cut && cut->kind == FIELD_INT && cut->i,
		                  .seconds = secs && secs->kind == FIELD_NUM ? secs->d : 0 };
	int f;

	if (!kind || kind->kind != FIELD_STR || strcmp(kind->s, "step") != 0)
		return;
	for (f = 0; f < AF_COUNT; f++) {
		const char *name = answer_field((enum answer_fig)f);
		const struct field *x = record_find(r, name);
		const struct field *lo = record_find(r, record_spread_name(name, 0));
		const struct field *hi = record_find(r, record_spread_name(name, 1));

		st.f[f].ok = x && x->kind == FIELD_NUM;
		st.f[f].v = x ? x->d : NAN;
		st.f[f].min = lo && lo->kind == FIELD_NUM ? lo->d : NAN;
		st.f[f].max = hi && hi->kind == FIELD_NUM ? hi->d : NAN;
	}
	answer_add(a, &st);
}

const char *answer_field(enum answer_fig f)
{
	return metric_table[fig_metric[f]].field;
}

/* Same workload but for the indexes knob? */
static int same_but_indexes(const struct knobs *x, const struct knobs *y)
{
	struct knobs a = *x, b = *y;

	a.v[K_INDEXES] = b.v[K_INDEXES] = 0;
	return knobs_same_workload(&a, &b);
}

/* The step of group g (steps like a->steps[g]) at count n, or -1. */
static long find(const struct answer *a, long g, long long n)
{
	long i;

	for (i = 0; i < a->n; i++)
		if (same_but_indexes(&a->steps[g].k, &a->steps[i].k) &&
		    a->steps[i].k.v[K_INDEXES] == n)
			return i;
	return -1;
}

/* "index idxlab_add_email on email" / "unique index ... on (a, b)". */
static size_t index_text(const struct schema *s, int i, char *buf, size_t len)
{
	const struct index_spec *x = &s->idx[i];
	size_t n =
	    (size_t)snprintf(buf, len, "%sindex %s on ", x->unique ? "unique " : "", x->name);
	int c;

	for (c = 0; c < x->ncols && n < len; c++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s%s",
		                      c              ? ", "
		                      : x->ncols > 1 ? "("
		                                     : "",
		                      s->cols[x->cols[c]].name, c == x->ncols - 1 && c ? ")" : "");
	return n < len ? n : len;
}

/* The indexes [from, to) of s in words: "+ index idxlab_add_email on
 * email and ..." (sign '+' for what the change adds, '-' for drops). */
static void change_text(const struct schema *s, int from, int to, char sign, char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "%c ", sign);
	int i;

	for (i = from; i < to && n < len; i++) {
		if (i > from)
			n += (size_t)snprintf(buf + n, len - n, " and ");
		if (n < len)
			n += index_text(s, i, buf + n, len - n);
	}
}

/* The other knobs that vary between the groups, as "key-order=rand". */
static void group_text(const struct answer *a, long g, char *buf, size_t len)
{
	size_t n = 0;
	long i;
	int id;

	buf[0] = 0;
	for (id = 0; id < K_COUNT; id++) {
		int varies = 0;

		if (id == K_INDEXES || knob_table[id].flags & KF_OPTION ||
		    knob_table[id].kind == KNOB_STRING)
			continue;
		for (i = 0; i < a->n && !varies; i++)
			varies = a->steps[i].k.v[id] != a->steps[0].k.v[id];
		if (varies && n < len) {
			char v[64];

			knob_format(id, a->steps[g].k.v[id], v, sizeof v);
			n += (size_t)snprintf(buf + n, len - n, "%s%s=%s", n ? " " : " (",
			                      knob_table[id].name, v);
		}
	}
	if (n && n < len)
		snprintf(buf + n, len - n, ")");
}

static int has_spread(const struct answer_value *v)
{
	return !isnan(v->min) && !isnan(v->max);
}

/* One figure's difference from step x (the table as it is) to y, after
 * ", " into buf: 1; 0 when it is n/a in either; 2 (buf: the figure's word)
 * when a per-row figure moved by less than ANSWER_SAME_PCT of itself, a
 * change one run cannot back. */
static int fig_text(enum answer_fig f, const char *word, const struct answer_value *x,
                    const struct answer_value *y, int short_step, const struct knobs *k, char *buf,
                    size_t len)
{
	const struct metric_def *m = &metric_table[fig_metric[f]];
	double d = y->v - x->v;
	char a[32], b[32], num[48], mixed[96];
	int dec = m->decimals > 2 ? (fabs(d) >= 100 ? 1 : m->decimals) : m->decimals;

	if (!x->ok || !y->ok)
		return 0;
	if (has_spread(x) && has_spread(y) && x->min <= y->max && y->min <= x->max) {
		snprintf(buf, len, "%s within noise (their ranges overlap)", word);
		return 1;
	}
	switch (f) {
	case AF_ROWS_PER_S:
		if (x->v <= 0)
			return 0;
		units_human(x->v, "", a, sizeof a);
		units_human(y->v, "", b, sizeof b);
		snprintf(num, sizeof num, "%+.0f", 100 * d / x->v);
		snprintf(buf, len, "%s %s%s (%s -> %s)%s", word, num, fig_unit[f], a, b,
		         has_spread(x)                             ? ""
		         : short_step                              ? ", noise: a step under 1 s"
		         : fabs(100 * d / x->v) < ANSWER_NOISE_PCT ? ", within one run's noise"
		                                                   : "");
		return 1;
	case AF_WRITE_MS: /* a mix's writes: in per cent, as rows/s */
		if (x->v <= 0)
			return 0;
		snprintf(buf, len, "%s %+.0f%s (%.3g -> %.3g ms/row)", word, 100 * d / x->v,
		         fig_unit[f], x->v, y->v);
		return 1;
	case AF_READS_PER_S: /* what the index buys: a factor */
		if (x->v <= 0 || y->v <= 0)
			return 0;
		units_human(x->v, "", a, sizeof a);
		units_human(y->v, "", b, sizeof b);
		d = y->v >= x->v ? y->v / x->v : x->v / y->v; /* the factor */
		snprintf(buf, len, "%s %.*f%s %s (%s -> %s queries/s)", word, d >= 100 ? 0 : 2, d,
		         fig_unit[f], y->v >= x->v ? "faster" : "slower", a, b);
		return 1;
	case AF_MIX_MS: /* the trade: does the change pay at the mix? */
		mix_text(k, mixed, sizeof mixed);
		if (!*mixed)
			return 0;
		snprintf(buf, len, "%s %s it %s (%.4g -> %.4g ms per 1,000 operations)", word,
		         mixed, d < 0 ? "pays" : "costs", x->v, y->v);
		return 1;
	case AF_INDEX_BYTES:
		units_human(fabs(d), "B", a, sizeof a);
		snprintf(buf, len, "%s %c%s", word, d < 0 ? '-' : '+', a);
		return 1;
	default:
		if (!has_spread(x) &&
		    fabs(d) <= ANSWER_SAME_PCT / 100 * fmax(fabs(x->v), fabs(y->v))) {
			snprintf(buf, len, "%s", word);
			return 2;
		}
		snprintf(buf, len, "%s %+.*f%s", word, dec, d, fig_unit[f]);
		return 1;
	}
}

/* The answer line for steps x (before) and y (after): the change is the
 * indexes [from, to) of the table's list, added (sign '+') or dropped. */
static void say(const struct answer *a, long g, long x, long y, int from, int to, char sign,
                FILE *out)
{
	const struct answer_step *sx = &a->steps[x], *sy = &a->steps[y];
	const struct schema *s = schema_of(&sx->k);
	char what[512], group[256], fig[200], same[2 * sizeof fig] = "";
	int f, any = 0, got;

	change_text(s, from, to, sign, what, sizeof what);
	group_text(a, g, group, sizeof group);
	fprintf(out, "answer%s: %s:", group, what);
	if (sx->interrupted || sy->interrupted) {
		fprintf(out, " no answer, a step was interrupted\n");
		return;
	}
	for (f = 0; f < AF_COUNT; f++) {
		/* SQLite's rollback journal is no WAL (record_metric_label) */
		const char *word = f == AF_WAL_BYTES_PER_ROW &&
		                           strcmp(record_metric_label(M_WAL_BYTES_PER_ROW, &sx->k),
		                                  metric_table[M_WAL_BYTES_PER_ROW].label) != 0
		                       ? "journal"
		                       : fig_word[f];

		got = fig_text((enum answer_fig)f, word, &sx->f[f], &sy->f[f],
		               sx->seconds < ANSWER_SHORT_S || sy->seconds < ANSWER_SHORT_S, &sx->k,
		               fig, sizeof fig);
		if (got == 1)
			fprintf(out, "%s %s", any++ ? "," : "", fig);
		else if (got == 2)
			snprintf(same + strlen(same), sizeof same - strlen(same), "%s%.40s",
			         *same ? ", " : "", fig);
	}
	if (*same)
		fprintf(out, "%s no clear change in %s", any++ ? ";" : "", same);
	fprintf(out, "%s\n", any ? "" : " no figure measured in both steps");
}

int answer_write(const struct answer *a, FILE *out)
{
	char *done;
	int lines = 0;
	long g;

	/* No table with a candidate or a drop: no question (and no pass over
	 * the pairs of a long sweep's steps). */
	for (g = 0; g < a->n && !schema_of(&a->steps[g].k)->extends; g++)
		;
	if (g == a->n)
		return 0;
	done = calloc((size_t)a->n + 1, 1);
	if (!done)
		abort();
	for (g = 0; g < a->n; g++) {
		const struct schema *s = schema_of(&a->steps[g].k);
		int own = whatif_own(s), drop = s->extends ? s->ndrop : 0;
		long t, x, y;

		if (done[g])
			continue;
		for (x = 0; x < a->n; x++)
			if (same_but_indexes(&a->steps[g].k, &a->steps[x].k))
				done[x] = 1;
		t = find(a, g, own);
		x = s->nindexes > own ? find(a, g, s->nindexes) : -1;
		y = drop ? find(a, g, own - drop) : -1;
		if (t < 0 || (x < 0 && y < 0))
			continue;
		if (!lines)
			fprintf(
			    out,
			    "# the answer, per row: from the table as it is (indexes table) to "
			    "the change; %s\n",
			    has_spread(&a->steps[t].f[AF_ROWS_PER_S])
			        ? "medians of the runs (--repeat), a figure whose runs' ranges "
			          "overlap is within noise"
			        : "one run per step (--repeat N gives medians and their ranges)");
		if (x >= 0) {
			say(a, g, t, x, own, s->nindexes, '+', out);
			lines++;
		}
		if (y >= 0) {
			say(a, g, t, y, own - drop, own, '-', out);
			lines++;
		}
	}
	free(done);
	return lines;
}
