/* plan_whatif.c - the plan's side of the question as a verb (config.h).
 *
 * --add-index and --drop-index applied to every table of a plan, the
 * table read from a source (--schema-from) given its engine and rows, and
 * what the plan's steps say about them.
 *
 * whatif.c knows the candidates, the drops and the spec they make; this
 * file knows the plan: which tables it sweeps, which knobs the user set,
 * and what each step measures. So the plan calls down into whatif, and
 * whatif never sees a plan. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "schema.h"
#include "whatif.h"

/* A table read from a source: its engine and its rows, unless set. */
static void source_defaults(struct plan *p)
{
	const struct schema *s = p->n[K_SCHEMA] == 1 ? schema_get(p->vals[K_SCHEMA][0]) : NULL;

	if (!s || !s->source_engine)
		return;
	if (!p->set[K_ENGINE] && s->source_engine - 1 < E_COUNT)
		p->vals[K_ENGINE][0] = s->source_engine - 1;
	if (!p->set[K_PREFILL] && s->source_rows >= 1) {
		p->vals[K_PREFILL][0] = llround(s->source_rows);
		p->n[K_PREFILL] = 1;
		p->set[K_PREFILL] = 1; /* --print-config writes it as it is, unscaled */
		snprintf(p->where[K_PREFILL], sizeof p->where[K_PREFILL],
		         "prefill (the source's rows)");
	}
}

int plan_whatif_apply(struct plan *p, struct err *e)
{
	long long out;
	int j;

	if (p->vals[K_ADD_INDEX][0] || p->vals[K_DROP_INDEX][0])
		for (j = 0; j < p->n[K_SCHEMA]; j++) {
			const struct schema *s = schema_get(p->vals[K_SCHEMA][j]);

			if (!s || s->extends)
				continue;
			if (whatif_extend(p->vals[K_SCHEMA][j], p->vals[K_DROP_INDEX][0],
			                  p->where[K_DROP_INDEX], p->vals[K_ADD_INDEX][0],
			                  p->where[K_ADD_INDEX], &out, e) < 0)
				return -1;
			p->vals[K_SCHEMA][j] = out;
		}
	source_defaults(p);
	return 0;
}

void plan_whatif_warn_unused(const struct plan *p, FILE *f)
{
	int past = 0, before = 0;
	struct knobs k;
	long i;

	for (i = 0; i < p->steps; i++) {
		const struct schema *s;

		plan_step(p, i, &k);
		s = schema_of(&k);
		past |= k.v[K_INDEXES] > whatif_own(s);
		before |= s->extends && s->ndrop && k.v[K_INDEXES] < whatif_own(s);
	}
	if (p->vals[K_ADD_INDEX][0] && !past)
		fprintf(f, "idxlab: warning: --add-index: no step measures the candidates (they "
		           "come after the table's own indexes): --indexes table,all asks what "
		           "they cost\n");
	if (p->vals[K_DROP_INDEX][0] && !before)
		fprintf(f, "idxlab: warning: --drop-index: no step measures the table without "
		           "it: --indexes without,table asks what it costs\n");
}

void plan_resolve_indexes(struct knobs *k)
{
	k->v[K_INDEXES] = whatif_indexes(schema_of(k), k->v[K_INDEXES]);
}

void plan_whatif_source_text(const struct plan *p, char *buf, size_t len)
{
	const struct schema *s = p->n[K_SCHEMA] == 1 ? schema_get(p->vals[K_SCHEMA][0]) : NULL;
	char source[4 * sizeof s->source];
	struct knobs k;
	int from_src;

	buf[0] = 0;
	if (!s || !s->source_engine)
		return;
	plan_step(p, 0, &k);
	from_src = strncmp(p->where[K_PREFILL], "prefill (the source", 19) == 0;
	err_escape(schema_label(p->vals[K_SCHEMA][0]), source, sizeof source);
	snprintf(buf, len, "table %s: %.0f rows at the source; prefill %lld (%s); engine %s (%s)",
	         source, s->source_rows, knobs_prefill(&k),
	         from_src ? (k.v[K_SCALE] != 1000 ? "the source's, times --scale" : "the source's")
	         : p->set[K_PREFILL] ? "as set"
	                             : "auto",
	         knob_table[K_ENGINE].choices[k.v[K_ENGINE]],
	         p->set[K_ENGINE]                        ? "as set"
	         : k.v[K_ENGINE] == s->source_engine - 1 ? "the source's"
	                                                 : "the default");
}

long long plan_dash_rows(const struct knobs *k)
{
	const struct schema *s = schema_of(k);
	long long rows;

	if (!s->source_engine || s->source_rows < 1)
		return -1;
	rows = llround(s->source_rows);
	return rows + (rows > PLAN_DASH_ROWS_MORE ? rows : PLAN_DASH_ROWS_MORE);
}
