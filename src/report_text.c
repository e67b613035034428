/* report_text.c - the headless text table: a header of the knobs held
 * fixed, a column per knob that varies and per figure, footnotes for the
 * marks a row carried; and the pgbench -P style progress lines. */
#include <stdio.h>
#include <string.h>

#include "engines/engine.h"
#include "metrics.h"
#include "redact.h"
#include "report_int.h"
#include "units.h"

/* ---- text ---- */

/* Columns of the text table: knobs that vary in the sweep, then these; the
 * last ones only in a run that has them (their knob set, by a plan value). */
static const struct {
	const char *field, *label; /* label NULL: the metric's */
	int knob;                  /* -1: always; else shown when the plan sets it */
} text_cols[] = {
	{ "rows", NULL, -1 },
	{ "table_rows", "table rows", K_INTERVAL_ROWS },
	{ "seconds", NULL, -1 },
	{ "rows_per_s", NULL, -1 },
	{ "fsyncs_per_commit", NULL, -1 },
	{ "spills_per_row", NULL, -1 },
	{ "misses_per_row", NULL, -1 },
	{ "wal_bytes_per_row", NULL, -1 },
	{ "wchar_per_row", NULL, -1 },
	{ "write_bytes_per_row", NULL, -1 },
	{ "p50_ms", NULL, -1 },
	{ "p99_ms", NULL, -1 },
	{ "db_bytes", NULL, -1 },
	{ "index_bytes", NULL, -1 },
	{ "build_seconds", "build s", K_INDEX_BUILD },
	{ "vacuum_seconds", "vacuum s", K_VACUUM },
	{ "vacuum_wal_bytes_per_row", "vac wal B/r", K_VACUUM },
};

/* table: 1 when the value goes into the stdout table (for the footnote). */
static void text_value(struct report *rp, const struct field *f, char *buf, size_t len, int table)
{
	switch (f->kind) {
	case F_STR:
		snprintf(buf, len, "%s", f->s);
		break;
	case F_INT:
		snprintf(buf, len, "%lld", f->i);
		break;
	case F_NUM:
		if (strcmp(f->unit, "B") == 0 && f->decimals == 0)
			units_human(f->d, "B", buf, len);
		else
			snprintf(buf, len, "%.*f",
			         f->decimals > 2 ? (f->d >= 100 ? 1 : f->decimals) : f->decimals,
			         f->d);
		break;
	case F_NA:
		snprintf(buf, len, "n/a");
		break;
	case F_UNSETTLED:
		snprintf(buf, len, "...");
		if (table)
			rp->saw_unsettled = 1;
		break;
	}
}

/* The value of knob id as the table shows it (prefill resolved). */
static void knob_text(int id, const struct knobs *k, char *buf, size_t len)
{
	if (id == K_PREFILL)
		snprintf(buf, len, "%lld", knobs_prefill(k));
	else
		knob_format(id, k->v[id], buf, len);
}

/* Does knob id take more than one value across the sweep? */
/* The knobs whose value differs between steps: the swept ones, the prefill
 * (auto follows the op and the rows), and those whose default differs by
 * engine in a sweep over engines (the cache; not the run options, such as
 * warmup). Once, before the header. */
static void find_varying(struct report *rp)
{
	struct knobs a, b;
	long i;
	int id;

	for (id = 0; id < K_COUNT; id++)
		rp->varying[id] = rp->plan->n[id] > 1;
	plan_step(rp->plan, 0, &a);
	for (i = 1; i < rp->plan->steps; i++) {
		plan_step(rp->plan, i, &b);
		for (id = 0; id < K_COUNT; id++)
			if (!(knob_table[id].flags & KF_OPTION) &&
			    (id == K_PREFILL ? knobs_prefill(&a) != knobs_prefill(&b)
			                     : a.v[id] != b.v[id]))
				rp->varying[id] = 1;
	}
}

static int is_varying(const struct report *rp, int id)
{
	return rp->varying[id];
}

/* A swept rows knob is its own column: the measured rows are not printed
 * twice (the column shows them, "(interrupted)" says when they fall short). */
static int skip_text_col(const struct report *rp, size_t i)
{
	int id = text_cols[i].knob, j;

	if (id < 0)
		return strcmp(text_cols[i].field, "rows") == 0 && is_varying(rp, K_ROWS);
	for (j = 0; j < rp->plan->n[id]; j++)
		if (rp->plan->vals[id][j] != 0)
			return 0;
	return 1;
}

/* Column width for a varying knob: its name or its longest value. */
static int knob_width(const struct report *rp, int id)
{
	int w = 12, j;
	char buf[64];

	for (j = 0; j < rp->plan->n[id]; j++) {
		knob_format(id, rp->plan->vals[id][j], buf, sizeof buf);
		if ((int)strlen(buf) > w)
			w = (int)strlen(buf);
	}
	return w;
}

static void text_header(struct report *rp, const struct knobs *k)
{
	char buf[160];
	size_t i;
	int id;

	find_varying(rp);
	fprintf(rp->out, "#");
	for (id = 0; id < K_COUNT; id++) {
		if (knob_table[id].flags & KF_OPTION || is_varying(rp, id) ||
		    !engine_has_knob((int)k->v[K_ENGINE], id))
			continue; /* run options, columns, and knobs this engine lacks */
		if (knob_table[id].kind == KNOB_STRING) {
			if (*k->dsn) {
				redact_dsn(k->dsn, buf, sizeof buf);
				fprintf(rp->out, " %s=%s", knob_table[id].name, buf);
			}
			continue;
		}
		knob_text(id, k, buf, sizeof buf);
		fprintf(rp->out, " %s=%s", knob_table[id].name, buf);
	}
	fputc('\n', rp->out);
	for (id = 0; id < K_COUNT; id++)
		if (is_varying(rp, id))
			fprintf(rp->out, "%*s ", knob_width(rp, id), knob_table[id].name);
	for (i = 0; i < sizeof text_cols / sizeof text_cols[0]; i++) {
		int m;

		if (skip_text_col(rp, i))
			continue;
		for (m = 0; m < M_COUNT && strcmp(metric_table[m].field, text_cols[i].field); m++)
			;
		fprintf(rp->out, "%12s ",
		        text_cols[i].label ? text_cols[i].label
		        : m < M_COUNT      ? metric_table[m].label
		                           : text_cols[i].field);
	}
	fputc('\n', rp->out);
}

/* A checkpoint completed in the record's window (checkpoint_in_window). */
static int had_checkpoint(const struct record *r)
{
	const struct field *f = report_find(r, "checkpoint_in_window");

	return f->kind == F_NUM && f->d > 0;
}

void report_write_text(struct report *rp, const struct record *r, const struct knobs *k)
{
	char buf[160];
	size_t i;
	int id;

	if (!rp->header_done) {
		text_header(rp, k);
		rp->header_done = 1;
	}
	for (id = 0; id < K_COUNT; id++) {
		if (!is_varying(rp, id))
			continue;
		if (id == K_ROWS)
			text_value(rp, report_find(r, "rows"), buf, sizeof buf, 1);
		else
			knob_text(id, k, buf, sizeof buf);
		fprintf(rp->out, "%*s ", knob_width(rp, id), buf);
	}
	for (i = 0; i < sizeof text_cols / sizeof text_cols[0]; i++) {
		const struct field *f = report_find(r, text_cols[i].field);

		if (skip_text_col(rp, i))
			continue;
		text_value(rp, f, buf, sizeof buf, 1);
		fprintf(rp->out, "%12s ", buf);
	}
	if (report_find(r, "interrupted")->i) {
		fprintf(rp->out, " (interrupted)");
		rp->saw_interrupted = 1;
	} else if (report_find(r, "seconds")->kind == F_NUM &&
	           report_find(r, "seconds")->d < SHORT_STEP_S) {
		fprintf(rp->out, " (short)");
		rp->saw_short = 1;
	}
	if (had_checkpoint(r)) {
		fprintf(rp->out, " (checkpoint)");
		rp->saw_checkpoint = 1;
	}
	fputc('\n', rp->out);
}

/* A pgbench -P style progress line on diag. */
void report_write_progress(struct report *rp, const struct record *r, double elapsed)
{
	static const char *const cols[] = { "rows_per_s",     "fsyncs_per_commit",
		                            "spills_per_row", "wal_bytes_per_row",
		                            "wchar_per_row",  "p50_ms",
		                            "p99_ms" };
	char buf[160];
	size_t i;

	fprintf(rp->diag, "progress: step %lld, %.1f s", report_find(r, "step")->i, elapsed);
	for (i = 0; i < sizeof cols / sizeof cols[0]; i++) {
		const struct field *f = report_find(r, cols[i]);

		text_value(rp, f, buf, sizeof buf, 0);
		fprintf(rp->diag, ", %s %s", f->label, buf);
	}
	if (had_checkpoint(r))
		fprintf(rp->diag, ", a checkpoint completed");
	fputc('\n', rp->diag);
	fflush(rp->diag);
}

void report_text_footer(struct report *rp)
{
	if (rp->format == FMT_TEXT && rp->saw_unsettled)
		fprintf(rp->out, "# ... = not settled: no completed row or commit in the window\n");
	if (rp->format == FMT_TEXT && rp->saw_interrupted)
		fprintf(rp->out, "# interrupted: a partial step, stopped by a signal\n");
	if (rp->format == FMT_TEXT && rp->saw_short)
		fprintf(
		    rp->out,
		    "# short: under %.0f s, a step's rows/s moves by a fifth from run to run on a "
		    "busy machine; raise --rows for steadier ratios\n",
		    SHORT_STEP_S);
	if (rp->format == FMT_TEXT && rp->saw_checkpoint)
		fprintf(
		    rp->out,
		    "# checkpoint: a checkpoint completed during the step (checkpoint_in_window): "
		    "the first change to each page after it logs the whole page again, so WAL "
		    "B/row is higher, and its own writes and syncs are in the figures\n");
}
