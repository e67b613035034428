/* baseline.c - a saved run's step, or a recording's stretch, as the
 * dashboard's baseline (see baseline.h).
 *
 * The saved run is read as --compare reads it (compare_read.c: a real CSV
 * reader, jansson for JSON lines, errors naming the file and line). The
 * dashboard's starting knobs are written as a record writes them
 * (record_knob_text; n/a for a knob the engine has not) and matched
 * column by column with each saved step's. The chosen step's metric
 * fields are numbers as the file has them; its knob columns are parsed
 * back (knob_parse) into the knobs the title's "what changed" compares
 * with the knobs in force. A recording is read as --replay reads it
 * (recording.c), sample by sample, keeping the best stretch's two ends. */
#include "baseline.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_int.h"
#include "engines/engine.h"
#include "record.h"
#include "recording.h"

#define SETTLE_S 1.0 /* a recording's stretch: left out after a knob change */

/* Knob id of k as its record column says it; NULL: n/a. */
static const char *knob_text(int id, const struct knobs *k, char *buf, size_t len)
{
	if (!engine_has_knob((int)k->v[K_ENGINE], id))
		return NULL;
	if (id == K_PREFILL || knob_numeric(id))
		snprintf(buf, len, "%lld", id == K_PREFILL ? knobs_prefill(k) : k->v[id]);
	else
		record_knob_text(id, k, buf, len);
	return buf;
}

/* The field knob id is matched by in step r, or NULL: its column, or
 * for the rows knob the measured rows when the step ran to its row count
 * (not cut short by --duration; as --compare matches). */
static const char *knob_name(int id, const struct rec *r)
{
	const char *how = rec_get(r, "ended_by");

	if (knob_table[id].column > 0)
		return record_knob_field(id);
	if (id == K_ROWS && (!how || strcmp(how, "rows") == 0))
		return "rows";
	return NULL;
}

/* The knobs step r differs from k in, their names into buf: their count. */
static int differ(const struct rec *r, const struct knobs *k, char *buf, size_t len)
{
	char text[600];
	size_t o = 0;
	int id, n = 0;

	buf[0] = 0;
	for (id = 0; id < K_COUNT; id++) {
		const char *name = knob_name(id, r), *mine, *saved;

		if (!name)
			continue;
		mine = knob_text(id, k, text, sizeof text);
		saved = rec_get(r, name);
		if (mine && saved ? strcmp(mine, saved) == 0 : !mine && !saved)
			continue;
		if (o < len)
			o += (size_t)snprintf(buf + o, len - o, "%s%s %.40s (now %.40s)",
			                      n ? ", " : "", name, saved ? saved : "n/a",
			                      mine ? mine : "n/a");
		n++;
	}
	return n;
}

/* A metric the saved step's figure stands for in a second's window: a
 * rate, a per-row or per-commit figure, a latency, a size, a gauge; not
 * the step's length, a count or total over it, or a flag. */
static int comparable(int m)
{
	enum mkind k = metric_table[m].kind;

	return k != MK_SECONDS && k != MK_COUNT && k != MK_TOTAL && k != MK_FLAG;
}

static void take(struct baseline *b, const struct rec *r, const struct knobs *start)
{
	int m, id;

	for (m = 0; m < M_COUNT; m++) {
		const char *t = rec_get(r, metric_table[m].field);
		char *end = NULL;
		double v = t ? strtod(t, &end) : NAN;

		b->na[m] = !t; /* the saved run's n/a */
		b->v[m] = t && end != t && !*end && comparable(m) ? v : NAN;
	}
	b->knobs = *start;
	for (id = 0; id < K_COUNT; id++) {
		const char *name = knob_name(id, r), *t, *mine;
		struct err ignore = { ERR_NONE, "" };
		char text[600];
		long long v;

		if (!name || !(t = rec_get(r, name)))
			continue;
		mine = knob_text(id, start, text, sizeof text);
		if (mine && strcmp(mine, t) == 0)
			continue; /* the same (a prefill "auto" stays auto) */
		if (knob_parse(id, t, &v, &ignore) == 0)
			b->knobs.v[id] = v;
	}
}

/* A recording's header on path's first line? (the replay's file, not a
 * run's records) */
static int is_recording(const char *path)
{
	char line[256] = "";
	FILE *f = fopen(path, "r");

	if (!f)
		return 0; /* saved_read says why */
	if (!fgets(line, sizeof line, f))
		line[0] = 0;
	fclose(f);
	return strstr(line, "\"idxlab_recording\"") != NULL;
}

/* ---- a recording's stretches ---- */

/* The workload knobs k differs from start in (their names and values into
 * buf, as a saved step's are said): their count. */
static int knobs_differ(const struct knobs *k, const struct knobs *start, char *buf, size_t len)
{
	char was[64], now[64];
	size_t o = 0;
	int id, n = 0;

	buf[0] = 0;
	for (id = 0; id < K_COUNT; id++) {
		if ((knob_table[id].flags & KF_OPTION) || knob_table[id].kind == KNOB_STRING ||
		    k->v[id] == start->v[id])
			continue;
		knob_format(id, k->v[id], was, sizeof was);
		knob_format(id, start->v[id], now, sizeof now);
		if (o < len)
			o += (size_t)snprintf(buf + o, len - o, "%s%s %s (now %s)", n ? ", " : "",
			                      knob_table[id].name, was, now);
		n++;
	}
	return n;
}

struct stretch {
	struct live first, last; /* its settled first sample, and its last */
	int have, line, n;       /* n: stretches before it */
};

/* Is stretch c better than best for start (fewer knobs differ, then
 * longer)? Too short: never. */
static int better(const struct stretch *c, const struct stretch *best, const struct knobs *start)
{
	char ignore[8];
	double span = c->last.full.t - c->first.full.t;
	int dc, db;

	if (!c->have || span < 1.0)
		return 0;
	if (!best->have)
		return 1;
	dc = knobs_differ(&c->last.knobs, start, ignore, sizeof ignore);
	db = knobs_differ(&best->last.knobs, start, ignore, sizeof ignore);
	return dc < db || (dc == db && span > best->last.full.t - best->first.full.t);
}

static void take_stretch(struct baseline *b, const struct stretch *s, const struct knobs *start)
{
	struct lats *d = malloc(sizeof *d);
	struct window w = { &s->first.full, &s->last.full, d, &s->last.sizes };
	int m;

	if (!d)
		abort();
	lats_delta(&s->last.lat, &s->first.lat, d);
	for (m = 0; m < M_COUNT; m++) {
		struct mval v = metric_compute(m, &w);

		b->na[m] = v.state == MV_NA;
		b->v[m] = v.state == MV_OK && comparable(m) ? v.v : NAN;
	}
	free(d);
	b->knobs = s->last.knobs;
	b->knobs.dsn = start->dsn;
	b->line = s->line;
}

static int from_recording(const char *path, const struct knobs *start, struct baseline *b,
                          struct err *e)
{
	struct stretch *cur = calloc(1, sizeof *cur), *best = calloc(1, sizeof *best);
	struct rec_item *it = malloc(sizeof *it);
	struct rec_head h;
	struct replay *p;
	unsigned long gen = 0;
	int rc = 0, line = 1, n = 0, in = 0;
	char diff[400], name[160], sane[400];
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;

	if (!cur || !best || !it)
		abort();
	if (!(p = rec_open(path, &h, e))) {
		rc = err_prefix(e, "--baseline");
		goto out;
	}
	while ((rc = rec_read(p, it, e)) > 0) {
		line++;
		if (it->kind != REC_SAMPLE)
			continue;
		if (in && (it->live.state != LS_RUNNING || it->live.knobs_gen != gen)) {
			if (better(cur, best, start))
				*best = *cur;
			in = 0;
		}
		if (it->live.state != LS_RUNNING)
			continue;
		if (!in) { /* a stretch begins: settled a second after its knobs came in */
			memset(cur, 0, sizeof *cur);
			cur->n = n++;
			gen = it->live.knobs_gen;
			in = 1;
		}
		if (!cur->have && it->live.full.t >= it->live.knobs_t + SETTLE_S) {
			cur->first = it->live;
			cur->have = 1;
		}
		cur->last = it->live;
		cur->line = line;
	}
	rec_close(p);
	if (rc < 0) {
		rc = err_prefix(e, "--baseline");
		goto out;
	}
	if (in && better(cur, best, start))
		*best = *cur;
	if (!best->have) {
		rc = err_set(e, ERR_USAGE,
		             "--baseline %s: a recording with no second of running under one "
		             "setting of the knobs: record a longer session (or give a run's "
		             "records: `idxlab run --format csv > FILE`)",
		             path);
		goto out;
	}
	take_stretch(b, best, start);
	b->differ = knobs_differ(&best->last.knobs, start, diff, sizeof diff);
	err_escape(base, name, sizeof name);
	err_escape(diff, sane, sizeof sane);
	snprintf(b->from, sizeof b->from, "vs %.100s %.0f-%.0f s", name, best->first.full.t,
	         best->last.full.t);
	if (!b->differ)
		snprintf(b->says, sizeof b->says,
		         "baseline: %.150s from %.1f to %.1f s, its knobs the dashboard's (a "
		         "recording; B unpins)",
		         name, best->first.full.t, best->last.full.t);
	else
		snprintf(
		    b->says, sizeof b->says,
		    "baseline: %.150s from %.1f to %.1f s, the nearest of %d stretches: %.300s",
		    name, best->first.full.t, best->last.full.t, n, sane);
	rc = 0;
out:
	free(cur);
	free(best);
	free(it);
	return rc;
}

int baseline_load(const char *path, const struct knobs *start, struct baseline *b, struct err *e)
{
	struct saved s;
	char diff[400], best_diff[400] = "", name[160];
	const char *base;
	int i, best = -1, most = 0;

	memset(b, 0, sizeof *b);
	if (is_recording(path))
		return from_recording(path, start, b, e);
	if (saved_read(&s, path, "--baseline", e) < 0) {
		saved_free(&s);
		return -1;
	}
	for (i = 0; i < s.nstep; i++) {
		int n = differ(&s.step[i], start, diff, sizeof diff);

		if (best < 0 || n < most) {
			best = i;
			most = n;
			snprintf(best_diff, sizeof best_diff, "%s", diff);
		}
	}
	take(b, &s.step[best], start);
	{
		const char *t = rec_get(&s.step[best], "step");

		b->step = t ? strtol(t, NULL, 10) : best + 1;
	}
	b->line = s.step[best].line;
	b->differ = most;
	base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	err_escape(base, name, sizeof name);
	err_escape(best_diff, diff, sizeof diff);
	snprintf(b->from, sizeof b->from, "vs %.100s step %ld", name, b->step);
	/* (what matters first: an events line is cut at the panel's edge) */
	if (!most)
		snprintf(b->says, sizeof b->says,
		         "baseline: saved step %ld of %.150s, its knobs the dashboard's (line %d; "
		         "B unpins)",
		         b->step, name, b->line);
	else
		snprintf(b->says, sizeof b->says,
		         "baseline: saved step %ld of %.150s, the nearest of %d: %.380s (line %d)",
		         b->step, name, s.nstep, diff, b->line);
	saved_free(&s);
	return 0;
}
