/* trade.c - a mix sweep's cheapest step, the indexes no query used (trade.h). */
#include "trade.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "xalloc.h"
#include "mix.h"

struct tstep {
	struct knobs k;
	double total, write_ms, read_ms; /* NAN: n/a */
	int built, unused;               /* indexes built, those no query used */
	int cut;                         /* stopped part way (interrupted): never the cheapest */
	char unused_names[256];          /* theirs, by ", " */
};

struct trade {
	const struct plan *p;
	struct tstep *s;
	long n, cap;
};

struct trade *trade_new(const struct plan *p)
{
	struct trade *t = xcalloc(1, sizeof *t);

	t->p = p;
	return t;
}

void trade_free(struct trade *t)
{
	if (!t)
		return;
	free(t->s);
	free(t);
}

static double num(const struct record *r, int m)
{
	const struct field *f = record_find(r, metric_table[m].field);

	return f && f->kind == FIELD_NUM ? f->d : NAN;
}

static int finished_step(const struct record *r)
{
	const struct field *kind = record_find(r, "record");

	return kind && kind->kind == FIELD_STR && strcmp(kind->s, "step") == 0;
}

/* Is r a mix's finished step (one run's, or the median of its runs)? */
static int mix_step(const struct record *r, const struct knobs *k)
{
	return mix_of(k, NULL) && finished_step(r);
}

static int interrupted(const struct record *r)
{
	const struct field *f = record_find(r, "interrupted");

	return f && f->kind == FIELD_INT && f->i;
}

/* The indexes of st's index_served ("idxlab_email:1.00 idxlab_name:0.00")
 * and those at 0.00, which no query used. */
static void note_unused(struct tstep *st, const struct record *r)
{
	const struct field *f = record_find(r, "index_served");
	char copy[sizeof f->s], *tok, *save = NULL, *colon;
	size_t n = 0;

	if (!f || f->kind != FIELD_STR)
		return;
	snprintf(copy, sizeof copy, "%s", f->s);
	for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		if (!(colon = strrchr(tok, ':')))
			continue;
		*colon = 0;
		st->built++;
		if (strtod(colon + 1, NULL) == 0 && n < sizeof st->unused_names) {
			n += (size_t)snprintf(st->unused_names + n, sizeof st->unused_names - n,
			                      "%s%s", st->unused++ ? ", " : "", tok);
		}
	}
}

void trade_note(struct trade *t, const struct record *r, const struct knobs *k)
{
	struct tstep st = { .k = *k };

	/* a mix's step, or a read step's (its indexes no query used) */
	if (!t || !finished_step(r) || !(mix_of(k, NULL) || OP_READS(k->v[K_OP])))
		return;
	note_unused(&st, r);
	st.cut = interrupted(r);
	st.total = num(r, M_MIX_MS_PER_1000_OPS); /* NAN too: a step that ran */
	st.write_ms = num(r, M_WRITE_MS_PER_ROW);
	st.read_ms = num(r, M_READ_MS_PER_QUERY);
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 8;
		struct tstep *more = xcalloc((size_t)t->cap, sizeof *more);

		if (t->n)
			memcpy(more, t->s, (size_t)t->n * sizeof *more);
		free(t->s);
		t->s = more;
	}
	t->s[t->n++] = st;
}

static int same_but_indexes(const struct knobs *x, const struct knobs *y)
{
	struct knobs a = *x, b = *y;

	a.v[K_INDEXES] = b.v[K_INDEXES] = 0;
	return knobs_same_workload(&a, &b);
}

/* The noted step of k's sweep (k's knobs but the indexes) with the least
 * total, of those that ran to their end; -1: none; *noted: how many of
 * the sweep's are noted. */
static long cheapest_of(const struct trade *t, const struct knobs *k, long *noted)
{
	long i, best = -1;

	for (*noted = 0, i = 0; i < t->n; i++)
		if (same_but_indexes(&t->s[i].k, k)) {
			++*noted;
			if (!isnan(t->s[i].total) && !t->s[i].cut &&
			    (best < 0 || t->s[i].total < t->s[best].total))
				best = i;
		}
	return best;
}

int trade_settle(void *ctx, struct record *r, const struct knobs *k, int final)
{
	const struct trade *t = ctx;
	struct field *f = (struct field *)record_find(r, "cheapest");
	struct knobs sk;
	long i, steps = 0, noted, best;

	if (!f || !mix_step(r, k))
		return 1;
	for (i = 0; i < t->p->steps; i++) {
		plan_step(t->p, i, &sk);
		steps += same_but_indexes(&sk, k);
	}
	if (steps < 2)
		return 1;
	best = cheapest_of(t, k, &noted);
	if (noted < steps && !final)
		return 0;
	if (best >= 0 && noted >= 2) {
		f->kind = FIELD_INT;
		f->i = t->s[best].k.v[K_INDEXES] == k->v[K_INDEXES];
	}
	return 1;
}

/* The knobs k's sweep is one of several by (those the plan sweeps, but
 * the indexes), as " (cache=1024KiB seed=2)"; "" when the indexes are all
 * the plan sweeps. */
static void sweep_label(const struct trade *t, const struct knobs *k, char *buf, size_t len)
{
	char v[64];
	size_t n = 0;
	int id;

	buf[0] = 0;
	for (id = 0; id < K_COUNT && n < len; id++)
		if (id != K_INDEXES && t->p->n[id] > 1) {
			knob_format(id, k->v[id], v, sizeof v);
			n += (size_t)snprintf(buf + n, len - n, "%s%s=%s", n ? " " : " (",
			                      knob_table[id].name, v);
		}
	if (n && n < len)
		snprintf(buf + n, len - n, ")");
}

/* The step of s's sweep with the fewest indexes, each of them used by a
 * query, and a write cost, that ran to its end; -1: none. */
static long all_used(const struct trade *t, const struct tstep *s)
{
	long i, best = -1;

	for (i = 0; i < t->n; i++)
		if (same_but_indexes(&t->s[i].k, &s->k) && t->s[i].built && !t->s[i].unused &&
		    !isnan(t->s[i].write_ms) && !t->s[i].cut &&
		    (best < 0 || t->s[i].k.v[K_INDEXES] < t->s[best].k.v[K_INDEXES]))
			best = i;
	return best;
}

/* A line for each step with an index no query used: which, and under a
 * mix what a write took there beside the fewest indexes all used (the
 * two figures, no more: what else differs between the steps - the
 * queries' scans through a shared cache, an update that writes no
 * indexed column - is in them too). */
static int unused_lines(const struct trade *t, FILE *out)
{
	char label[160];
	long i, c;
	int lines = 0;

	for (i = 0; i < t->n; i++) {
		const struct tstep *s = &t->s[i];

		if (!s->unused)
			continue;
		sweep_label(t, &s->k, label, sizeof label);
		fprintf(out, "used by no query at indexes %lld%s: %s (%d of %d)", s->k.v[K_INDEXES],
		        label, s->unused_names, s->unused, s->built);
		if (!isnan(s->write_ms) && (c = all_used(t, s)) >= 0 && c != i)
			fprintf(
			    out,
			    "; writes %.4g ms/row there, %.4g at indexes %lld (every index used)",
			    s->write_ms, t->s[c].write_ms, t->s[c].k.v[K_INDEXES]);
		fputs(s->cut ? " (stopped part way)\n" : "\n", out);
		lines++;
	}
	return lines;
}

int trade_write(const struct trade *t, FILE *out)
{
	long g, i, best, members, lines = 0;
	unsigned char *done;

	if (!t)
		return 0;
	done = xcalloc((size_t)t->n, 1);
	for (g = 0; g < t->n; g++) {
		if (done[g])
			continue;
		best = cheapest_of(t, &t->s[g].k, &members);
		if (members < 2 || best < 0) {
			done[g] = 1;
			continue;
		}
		char mixed[96], label[160];

		mix_text(&t->s[best].k, mixed, sizeof mixed);
		sweep_label(t, &t->s[best].k, label, sizeof label);
		fprintf(out,
		        "cheapest%s: indexes %lld - %.4g ms per 1,000 operations of the mix %s "
		        "(writes %.4g ms/row, queries %.4g ms)",
		        label, t->s[best].k.v[K_INDEXES], t->s[best].total, mixed,
		        t->s[best].write_ms, t->s[best].read_ms);
		for (i = g; i < t->n; i++)
			if (!done[i] && same_but_indexes(&t->s[g].k, &t->s[i].k)) {
				done[i] = 1;
				if (i == best)
					continue;
				fprintf(out, "; indexes %lld: ", t->s[i].k.v[K_INDEXES]);
				fprintf(out, isnan(t->s[i].total) ? "n/a" : "%.4g ms",
				        t->s[i].total);
				if (t->s[i].cut)
					fputs(" (stopped part way)", out);
			}
		fputc('\n', out);
		lines++;
	}
	free(done);
	return (int)lines + unused_lines(t, out);
}
