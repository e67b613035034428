/* plan_out.c - a plan checked and shown: the checks that need every step
 * (a table's index count, --load, an op with nothing to write, deletes past
 * the prefill), the warning for a knob no engine of the plan has, the
 * tables read from a user's database, and --print-config. */
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "engines/engine.h"
#include "mix.h"
#include "redact.h"
#include "schema.h"
#include "schema_gen.h"

/* update-indexed and update-keys (the op's, a mix's) need a column of the
 * table to write. */
static int check_op_cols(const struct knobs *k, struct err *e)
{
	const struct schema *s = schema_of(k);
	int cols[SCHEMA_COLS_MAX], op;

	for (op = OP_UPDATE_INDEXED; op <= OP_UPDATE_KEYS; op++)
		if (mix_ops(k) & 1u << op && schema_op_cols(s, op, cols) == 0)
			return err_set(e, ERR_USAGE,
			               "op %s: the %s table has %s to update (use op update, "
			               "which changes %s)",
			               knob_table[K_OP].choices[op], s->name,
			               op == OP_UPDATE_INDEXED ? "no index, so no indexed column"
			                                       : "no value column",
			               s->hot);
	return 0;
}

/* The rows the step's deletes take (its op's, a mix's share of its rows)
 * and the rows the updates and deletes visit: the prefill. */
static int check_visits(const struct knobs *k, struct err *e)
{
	unsigned char w[OP_COUNT];
	long long pre = knobs_prefill(k), rows = k->v[K_ROWS], deletes;
	unsigned ops = mix_ops(k);
	int op;

	deletes = mix_of(k, w) ? rows * w[OP_DELETE] / 100 : k->v[K_OP] == OP_DELETE ? rows : 0;
	if (deletes > pre && !mix_of(k, NULL))
		return err_set(e, ERR_USAGE,
		               "op delete: rows (%lld) exceeds prefill (%lld): a delete needs a "
		               "row to delete; raise --prefill or lower --rows",
		               rows, pre);
	if (deletes > pre)
		return err_set(
		    e, ERR_USAGE,
		    "the mix's deletes (about %lld of its %lld operations) exceed prefill "
		    "(%lld): a delete needs a row to delete; raise --prefill, or lower "
		    "--rows or delete's weight",
		    deletes, rows, pre);
	/* (a mix's read with no row yet inserts instead: a read op alone, or
	 * a mix of reads, has nothing to read) */
	for (op = OP_UPDATE; op < OP_COUNT && !pre; op++)
		if (ops & 1u << op && (!OP_READS(op) || op == k->v[K_OP]))
			return err_set(e, ERR_USAGE,
			               "op %s needs rows to work on: --prefill must be above 0 (it "
			               "visits the rows there are when the step begins)",
			               knob_table[K_OP].choices[op]);
	return 0;
}

/* A generated column whose arithmetic would leave its type on PostgreSQL
 * (the server stops the run mid-step): refused before any table exists.
 * The table of the step: its prefill and, under op insert, its rows; an
 * update's versions pass over the prefilled rows once per prefill rows. */
static int check_generated(const struct knobs *k, struct err *e)
{
	long long pre = knobs_prefill(k), rows = k->v[K_ROWS];
	unsigned ops = mix_ops(k);
	uint64_t vmax = 0;

	if (k->v[K_ENGINE] != E_POSTGRES)
		return 0; /* SQLite turns an integer overflow into a real, no error */
	if (ops & OPS_UPDATES)
		vmax = 1 + (uint64_t)rows / (uint64_t)(pre > 0 ? pre : 1);
	return schema_gen_fits(schema_of(k), k,
	                       (uint64_t)(pre + (ops & 1u << OP_INSERT ? rows : 0)), vmax, e);
}

/* --load: only inserts, and only the ways the engine has. */
static int check_load(const struct knobs *k, struct err *e)
{
	const struct engine_ops *ops = engine_table[k->v[K_ENGINE]];

	if (!ops)
		return 0; /* not built: said when it opens */
	if (k->v[K_LOAD] != LOAD_INSERT && k->v[K_OP] != OP_INSERT)
		return err_set(e, ERR_USAGE,
		               "--load %s: how inserted rows arrive; op %s inserts none (use "
		               "--load insert, or --op insert)",
		               knob_table[K_LOAD].choices[k->v[K_LOAD]],
		               knob_table[K_OP].choices[k->v[K_OP]]);
	/* multirow and copy hold a transaction's rows back until its end: a
	 * mix's reads would miss them, its other writes pass them */
	if (k->v[K_LOAD] != LOAD_INSERT && mix_of(k, NULL)) {
		char mixed[96];

		mix_text(k, mixed, sizeof mixed);
		return err_set(e, ERR_USAGE,
		               "the mix %s (--mix, --read-share) with --load %s: a mix's inserts "
		               "go one statement a row (use --load insert, or drop the mix)",
		               mixed, knob_table[K_LOAD].choices[k->v[K_LOAD]]);
	}
	if (k->v[K_LOAD] != LOAD_INSERT && !(ops->loads & (1u << k->v[K_LOAD])))
		return err_set(e, ERR_USAGE, "--load %s: the %s engine has no such path%s%s",
		               knob_table[K_LOAD].choices[k->v[K_LOAD]],
		               knob_table[K_ENGINE].choices[k->v[K_ENGINE]],
		               ops->why_no_load ? ": " : "",
		               ops->why_no_load ? ops->why_no_load : "");
	if ((OP_READS(k->v[K_OP]) || mix_read_op(k) >= 0) && !ops->reads)
		return err_set(e, ERR_USAGE,
		               "op %s: the %s engine runs no reads yet (use --engine sqlite, "
		               "postgres or mongo, or a write op)",
		               knob_table[K_OP].choices[k->v[K_OP]],
		               knob_table[K_ENGINE].choices[k->v[K_ENGINE]]);
	return ops->check ? ops->check(k, e) : 0;
}

int plan_validate(struct plan *p, struct err *e)
{
	long steps = 1, i;
	int id;

	for (id = 0; id < K_COUNT; id++) {
		steps *= p->n[id];
		if (steps > PLAN_MAX_STEPS)
			return err_set(e, ERR_USAGE,
			               "the sweep has more than %d steps: shorten the comma lists",
			               PLAN_MAX_STEPS);
	}
	p->steps = steps;
	if (p->n[K_ENGINE] > 1 && p->dsn && *p->dsn)
		return err_set(e, ERR_USAGE,
		               "--dsn names one database, but the sweep has %d engines: run one "
		               "engine per --dsn, or leave --dsn out to compare throwaway ones",
		               p->n[K_ENGINE]);
	for (i = 0; i < steps; i++) {
		struct knobs k;

		plan_step(p, i, &k);
		if (knobs_check(&k, e) < 0 || check_load(&k, e) < 0 || check_op_cols(&k, e) < 0 ||
		    check_generated(&k, e) < 0 || check_visits(&k, e) < 0)
			return -1;
	}
	return 0;
}

/* Does knob id mean something on one of the plan's engines? An engine that
 * is not built is not judged: opening it says so, and what to install. */
static int on_some_engine(const struct plan *p, int id)
{
	int j, kind;

	for (j = 0; j < p->n[K_ENGINE]; j++) {
		kind = (int)p->vals[K_ENGINE][j];
		if (!engine_table[kind] || engine_has_knob(kind, id))
			return 1;
	}
	return 0;
}

/* Does a built index of k's table lead with col (or is col the id)? */
static int col_indexed(const struct schema *s, const struct knobs *k, int col)
{
	int i;

	for (i = 0; i < k->v[K_INDEXES] && i < s->nindexes; i++)
		if (s->idx[i].cols[0] == col)
			return 1;
	return col == 0;
}

/* A read step whose queries scan the table, with as many of them as the
 * table has rows: rows x rows row visits, hours at a few million rows. */
static void warn_scans(const struct plan *p, FILE *f)
{
	struct query_spec q[SCHEMA_QUERY_MAX];
	struct knobs k;
	long i;
	int j, n;

	for (i = 0; i < p->steps; i++) {
		plan_step(p, i, &k);
		if (!OP_READS(k.v[K_OP]) || k.v[K_DURATION] || knobs_prefill(&k) < 100000 ||
		    k.v[K_ROWS] < 1000)
			continue;
		n = schema_read_queries(schema_of(&k), &k, k.v[K_OP], q);
		for (j = 0; j < n && col_indexed(schema_of(&k), &k, q[j].term[0].col); j++)
			;
		if (j < n) {
			fprintf(
			    f,
			    "idxlab: warning: step %ld: query %s has no index at --indexes %lld: "
			    "each of its %lld lookups scans the table's %lld rows (for a quick "
			    "look, --rows 100 or --duration 10)\n",
			    i + 1, q[j].name, k.v[K_INDEXES], k.v[K_ROWS], knobs_prefill(&k));
			return;
		}
	}
}

void plan_warn_unused(const struct plan *p, FILE *f)
{
	int id;

	warn_scans(p, f);
	for (id = 0; id < K_COUNT; id++)
		if (p->set[id] && !on_some_engine(p, id))
			fprintf(f, "idxlab: warning: --%s does nothing on %s: %s\n",
			        knob_table[id].name,
			        knob_table[K_ENGINE].choices[p->vals[K_ENGINE][0]],
			        knob_table[id].why);
	plan_whatif_warn_unused(p, f);
}

/* A `payload none` table given a payload all the same (--payload N): said,
 * after prefix, as it is not the table's own. */
static void say_payload(const struct plan *p, const struct schema *s, const char *prefix, FILE *f)
{
	int i;

	if (!s || !s->no_payload || !p->set[K_PAYLOAD])
		return;
	for (i = 0; i < p->n[K_PAYLOAD]; i++)
		if (p->vals[K_PAYLOAD][i] > 0) {
			fprintf(f,
			        "%spayload: --payload adds a payload column of %lld bytes to each "
			        "row of %s (not a column of the table's own)\n",
			        prefix, p->vals[K_PAYLOAD][i], s->name);
			return;
		}
}

/* A derived spec's notes, one a line, each behind prefix (escaped again:
 * every line stays one line, whoever filled the notes). */
static void print_notes(const char *notes, const char *prefix, FILE *f)
{
	char line[4096], shown[4 * sizeof line];
	const char *p, *nl;

	for (p = notes; *p; p = nl ? nl + 1 : p + strlen(p)) {
		size_t l;

		nl = strchr(p, '\n');
		l = nl ? (size_t)(nl - p) : strlen(p);
		snprintf(line, sizeof line, "%.*s", (int)(l < sizeof line ? l : sizeof line - 1),
		         p);
		err_escape(line, shown, sizeof shown);
		fprintf(f, "%s%s\n", prefix, shown);
	}
}

void plan_print_derived(const struct plan *p, FILE *f)
{
	static char buf[SCHEMA_TEXT_SIZE];
	int j;

	for (j = 0; j < p->n[K_SCHEMA]; j++) {
		const struct schema *s = schema_get(p->vals[K_SCHEMA][j]);
		char source[4 * sizeof s->source];

		if (!s || !s->notes[0])
			continue;
		schema_write(s, buf, sizeof buf);
		err_escape(s->source, source, sizeof source);
		fprintf(f,
		        "idxlab: the table %s read from %s, as idxlab builds it (save it as a "
		        "spec file to edit it, then --schema FILE):\n%s",
		        s->name, source, buf);
		print_notes(s->notes, "idxlab: how: ", f);
		say_payload(p, s, "idxlab: ", f);
	}
	{
		char src[1024];

		plan_whatif_source_text(p, src, sizeof src);
		if (*src)
			fprintf(f, "idxlab: %s\n", src);
	}
}

/* A table spec as comment lines: strip the "# " to have a spec file. */
static void print_spec(const struct schema *s, FILE *f)
{
	static char buf[SCHEMA_TEXT_SIZE];
	char *line, *next, source[4 * sizeof s->source];

	if (!s)
		return;
	/* Every line stays a comment: what came from outside is escaped. */
	schema_write(s, buf, sizeof buf);
	err_escape(s->source, source, sizeof source);
	fprintf(f, "# table %s (%s), as a spec file says it (man idxlab, TABLE SPECS):\n", s->name,
	        source);
	for (line = buf; (next = strchr(line, '\n')) != NULL; line = next + 1)
		fprintf(f, "#   %.*s\n", (int)(next - line), line);
	print_notes(s->notes, "# how it was read: ", f);
}

/* Under --scale, what the first step runs: the counts and the time it
 * changed (a comment: the lines above are what is read back). */
static void print_scaled(const struct plan *p, FILE *f)
{
	struct knobs given, run;
	char buf[64];
	int id, n = 0;

	plan_step_as_given(p, 0, &given);
	plan_step(p, 0, &run);
	for (id = 0; id < K_COUNT; id++) {
		if (given.v[id] == run.v[id])
			continue;
		knob_format(id, run.v[id], buf, sizeof buf);
		fprintf(f, "%s%s = %s", n++ ? ", " : "# at this --scale the first step runs ",
		        knob_table[id].name, buf);
	}
	if (n)
		fprintf(f, "\n");
}

void plan_print(const struct plan *p, FILE *f)
{
	struct knobs first;
	char path[1024]; /* the comments stay one line each */
	int id, j;

	/* engine defaults for what the user left unset, as given: --scale
	 * applies when this is read back */
	plan_step_as_given(p, 0, &first);
	err_escape(p->config_path ? p->config_path : "", path, sizeof path);
	if (p->config_path)
		fprintf(f, "# idxlab effective settings (config file: %s)\n", path);
	else
		fprintf(f, "# idxlab effective settings (no config file)\n");
	if (p->demo) {
		err_escape(p->demo->path, path, sizeof path);
		fprintf(f, "# demo %s: %d cues after the %d lines of its starting setting\n", path,
		        p->demo->n - p->demo->header, p->demo->header);
	}
	for (id = 0; id < K_COUNT; id++) {
		/* Left unset, a knob the dashboard gives a default of its own stays
		 * unset when this is read back: a comment line. */
		int per_mode = !p->set[id] && p->n[id] == 1 && knob_table[id].dash_def;

		fprintf(f, "%s%s = ", per_mode ? "# " : "", knob_table[id].name);
		if (knob_table[id].kind == KNOB_STRING) {
			char buf[1024];

			redact_dsn(p->dsn, buf, sizeof buf);
			fprintf(f, "%s", buf);
		} else if (!p->set[id] && p->n[id] == 1) {
			char buf[600];

			knob_format(id, first.v[id], buf, sizeof buf);
			fprintf(f, "%s", buf);
			if (per_mode)
				fprintf(f, "  (left unset: the dashboard uses %s)",
				        knob_table[id].dash_def);
		} else {
			for (j = 0; j < p->n[id]; j++) {
				char buf[600];

				knob_format(id, p->vals[id][j], buf, sizeof buf);
				fprintf(f, "%s%s", j ? "," : "", buf);
			}
		}
		fprintf(f, "\n");
	}
	print_scaled(p, f);
	for (j = 0; j < p->n[K_SCHEMA]; j++) {
		if (p->vals[K_SCHEMA][j] == 0) /* the default table is man idxlab's */
			continue;
		print_spec(schema_get(p->vals[K_SCHEMA][j]), f);
		say_payload(p, schema_get(p->vals[K_SCHEMA][j]), "# ", f);
	}
}
