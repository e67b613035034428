/* replay_export.c - a recording as interval records (see replay_export.h).
 *
 * A recording holds a sample per dashboard frame (cumulative counters and
 * latencies, the knobs in force). A window runs from one sample to the
 * first at least --interval seconds later; the report computes its figures
 * from the two samples exactly as report_interval does live. A knob change
 * ends a window early: the one before has the old knobs only, the next
 * starts at the last sample before the change and has the new knobs (each
 * setting is a "step", counted from 1). Counters that go back (an engine
 * that started over) begin a new window, never a negative one. */
#include "replay_export.h"

#include <stdlib.h>
#include <string.h>

#include "engines/engine.h"
#include "recording.h"
#include "xalloc.h"

/* The presenter's figures a recording showed: each view's (its first
 * sample's presenter-metrics knob when it has no view line, an older
 * idxlab's). */
struct shown {
	long long packed[16];
	int n, engine;
};

static void shown_add(struct shown *s, long long packed)
{
	int i;

	for (i = 0; i < s->n && s->packed[i] != packed; i++)
		;
	if (i == s->n && s->n < 16)
		s->packed[s->n++] = packed;
}

/* Pass one: each workload knob's values, in the order they came, into p;
 * *origin the first sample's time; the figures the talk showed. */
static int collect(struct plan *p, struct rec_item *it, double *origin, struct shown *sh,
                   struct err *e)
{
	struct rec_head h;
	struct replay *rp = rec_open(p->replay_path, &h, e);
	int rc, id, samples = 0, views = 0;

	if (!rp)
		return -1;
	while ((rc = rec_read(rp, it, e)) > 0) {
		if (it->kind == REC_VIEW) {
			shown_add(sh, it->figures);
			views++;
		}
		if (it->kind != REC_SAMPLE)
			continue;
		if (samples++ == 0) {
			*origin = it->live.c.t;
			sh->engine = (int)it->live.knobs.v[K_ENGINE];
			if (!views)
				shown_add(sh, it->live.knobs.v[K_PRESENTER_METRICS]);
		}
		for (id = 0; id < K_COUNT; id++) {
			int j, n = samples == 1 ? 0 : p->n[id];

			if (knob_table[id].flags & KF_OPTION || knob_table[id].kind == KNOB_STRING)
				continue;
			for (j = 0; j < n && p->vals[id][j] != it->live.knobs.v[id]; j++)
				;
			if (j == n && n < PLAN_MAX_VALUES) {
				p->vals[id][n] = it->live.knobs.v[id];
				p->n[id] = n + 1;
			}
		}
	}
	rec_close(rp);
	if (rc < 0)
		return -1;
	if (samples == 0)
		return err_set(e, ERR_USAGE,
		               "%s has no sample to export (a recording of a dashboard that "
		               "never ran)",
		               p->replay_path);
	p->steps = 1; /* what the text table's columns need: no sweep to walk */
	return 0;
}

/* Did a counter (or the latency count) of b go below a's? (Not a gauge:
 * those go down and up.) */
static int went_back(const struct live *a, const struct live *b)
{
	int i;

	for (i = 0; i < C_CACHE_USED; i++)
		if (a->c.valid & b->c.valid & (1u << i) && b->c.v[i] < a->c.v[i])
			return 1;
	return b->lat.commit.n < a->lat.commit.n || b->lat.query.n < a->lat.query.n ||
	       b->lat.write.n < a->lat.write.n;
}

int replay_export(struct plan *p, struct report *rep, struct plot *pl, struct err *e)
{
	double win = p->vals[K_INTERVAL][0] > 0 ? (double)p->vals[K_INTERVAL][0] / 1000.0 : 1.0;
	struct rec_item *it = xcalloc(1, sizeof *it);
	struct live *start = xcalloc(1, sizeof *start), *last = xcalloc(1, sizeof *last);
	struct replay *rp = NULL;
	struct rec_head h;
	double origin = 0;
	int rc = -1, have = 0, i, j, ids[PRESENTER_MAX];
	long step = 0;
	struct shown sh = { .n = 0 };

	if (collect(p, it, &origin, &sh, e) < 0 || !(rp = rec_open(p->replay_path, &h, e)))
		goto out;
	for (i = 0; i < sh.n; i++) { /* what the talk was about: drawn too */
		int n = knobs_presenter_figures(sh.packed[i], engine_figure(sh.engine), ids);

		for (j = 0; j < n; j++)
			plot_feature(pl, ids[j]);
	}
	while ((rc = rec_read(rp, it, e)) > 0) {
		struct live *cur = &it->live;

		if (it->kind == REC_CAPTION)
			plot_note(pl, it->t - origin, it->text);
		if (it->kind != REC_SAMPLE)
			continue;
		cur->knobs.dsn = ""; /* never recorded */
		/* a light sample's figures are its engine's last reading's
		 * (live.full; the same sample when it is one) */
		cur->c = cur->full;
		cur->step = step;
		if (!have) {
			*start = *last = *cur;
			have = 1;
			continue;
		}
		if (went_back(last, cur)) {
			if (last->c.t - start->c.t > 0.001)
				report_window(rep, start, last);
			*start = *last = *cur;
			continue;
		}
		if (!knobs_same_workload(&last->knobs, &cur->knobs)) {
			if (last->c.t - start->c.t > 0.001)
				report_window(rep, start, last);
			cur->step = ++step;
			*start = *last;
		}
		*last = *cur;
		if (last->c.t - start->c.t >= win - 1e-9) {
			report_window(rep, start, last);
			*start = *last;
		}
	}
	if (rc == 0 && have && last->c.t - start->c.t > 0.001)
		report_window(rep, start, last);
out:
	rec_close(rp);
	free(it);
	free(start);
	free(last);
	return rc < 0 ? -1 : 0;
}
