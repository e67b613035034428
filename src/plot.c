/* plot.c - --plot: a chart of the records of a headless run (see plot.h).
 *
 * The records are kept compactly (the knobs, the window, each metric's
 * value as the CSV prints it), then turned into a model at the end: an x
 * axis (categories, numbers, a log scale, or seconds), series of (x, y)
 * with NaN for a gap, one y list per panel, markers. One function draws the
 * model on a cairo context of W x H units; the surface (image for PNG,
 * SVG, PDF) is the only thing that differs by format. Colours are the
 * Okabe-Ito palette (safe for colour-blind readers), each series also has
 * its own marker and dash so it reads in greyscale; everything that is not
 * a series is drawn in greys, so a series is the only coloured stroke.
 *
 * This file: the chart's options and their usage checks, taking the
 * records, writing the file; plot_model.c turns the records into the
 * model, plot_axis.c scales and ticks its axes, plot_draw.c draws it
 * (plot_int.h: what they share). */
#include "plot.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "metrics.h"
#include "plot_int.h"
#include "xalloc.h"

static const char *const format_ext[] = { ".svg", ".png", ".pdf" };

static int format_of(const char *path)
{
	const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
	int i;

	if (!dot || (slash && slash > dot))
		return -1;
	for (i = 0; i < 3; i++)
		if (strcasecmp(dot, format_ext[i]) == 0)
			return i;
	return -1;
}

static int metric_find(const char *name)
{
	int m;

	for (m = 0; m < M_COUNT; m++)
		if (strcmp(metric_table[m].field, name) == 0)
			return m;
	return -1;
}

static const char *nth_metric(int i, const void *ctx)
{
	(void)ctx;
	return i < M_COUNT ? metric_table[i].field : NULL;
}

/* LIST into out[]; the count, or -1. */
static int parse_metrics(const char *list, int *out, struct err *e)
{
	char *copy = xstrdup(list), *item, *next;
	int n = 0, rc = 0;

	for (next = copy; (item = strsep(&next, ","));) {
		int m = metric_find(item), j;

		if (m < 0) {
			const char *hint = config_closest(item, nth_metric, NULL);

			if (hint)
				rc = err_set(e, ERR_USAGE,
				             "--plot-metrics: '%s' is no metric field (did you "
				             "mean %s?)",
				             item, hint);
			else
				rc = err_set(e, ERR_USAGE,
				             "--plot-metrics: '%s' is no metric field (the CSV "
				             "header's names, e.g. rows_per_s,p99_ms; man idxlab "
				             "lists them)",
				             item);
			break;
		}
		for (j = 0; j < n && out[j] != m; j++)
			;
		if (j < n)
			continue; /* named twice: one panel */
		if (n == PLOT_MAX_PANELS) {
			rc =
			    err_set(e, ERR_USAGE,
			            "--plot-metrics: at most %d metrics (a panel each) fit a slide",
			            PLOT_MAX_PANELS);
			break;
		}
		out[n++] = m;
	}
	free(copy);
	return rc < 0 ? -1 : n;
}

/* ---- the chart's options ---- */

static const char *const kind_names[] = { "auto", "sweep", "time", NULL };
static const char *const theme_names[] = { "light", "dark", NULL };

static const char *nth_word(int i, const void *ctx)
{
	return ((const char *const *)ctx)[i];
}

/* word's index in words (NULL-terminated), or -1 with e filled. */
static int word_of(const char *opt, const char *word, const char *const *words, struct err *e)
{
	const char *hint;
	int i;

	for (i = 0; words[i]; i++)
		if (strcmp(word, words[i]) == 0)
			return i;
	hint = config_closest(word, nth_word, words);
	return err_set(e, ERR_USAGE, "%s %s: %s%s%s (valid: %s)", opt, word,
	               hint ? "did you mean " : "not a choice", hint ? hint : "", hint ? "?" : "",
	               words[1] == theme_names[1] ? "light, dark" : "auto, sweep, time");
}

/* A knob of the workload (what a chart's reader is shown), not a run
 * option, the dsn or the seed. */
int plot_workload_knob(int id)
{
	return !(knob_table[id].flags & KF_OPTION) && knob_table[id].kind != KNOB_STRING &&
	       id != K_SEED;
}

int plot_swept(const struct plan *p, int id)
{
	return p->n[id] > 1 && plot_workload_knob(id);
}

/* The swept knobs' names, for "did you mean". */
static const char *nth_swept(int i, const void *ctx)
{
	const struct plan *p = ctx;
	int id;

	for (id = 0; id < K_COUNT; id++)
		if (plot_swept(p, id) && i-- == 0)
			return knob_table[id].name;
	return NULL;
}

/* "indexes, key-order" into buf: the swept knobs. */
static void swept_list(const struct plan *p, char *buf, size_t len)
{
	size_t n = 0;
	int id;

	buf[0] = 0;
	for (id = 0; id < K_COUNT && n < len; id++)
		if (plot_swept(p, id))
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "",
			                      knob_table[id].name);
}

/* The x axis of a sweep chart of p: --plot-x (checked), or the first swept
 * knob in the knob table's order whose values are numbers (--engine
 * sqlite,postgres --indexes 0,1,2 draws indexes along x, a line per
 * engine), or the first swept; -1: nothing is swept. */
static int x_knob(const struct plan *p)
{
	int id, first = -1;

	if (p->plot_x && (id = knob_find(p->plot_x)) >= 0 && plot_swept(p, id))
		return id;
	for (id = 0; id < K_COUNT; id++) {
		if (!plot_swept(p, id))
			continue;
		if (plot_numeric_knob(id))
			return id;
		if (first < 0)
			first = id;
	}
	return first;
}

/* The number of series of a sweep chart with x axis x. */
static long series_count(const struct plan *p, int x)
{
	long n = 1;
	int id;

	for (id = 0; id < K_COUNT; id++)
		if (id != x && plot_swept(p, id))
			n *= p->n[id];
	return n;
}

/* --plot-x, and a sweep chart's series within PLOT_MAX_SERIES. */
static int check_sweep(const struct plan *p, struct err *e)
{
	char list[400];
	long n, best_n;
	int id, x, best = -1;

	swept_list(p, list, sizeof list);
	if (p->plot_x) {
		const char *hint;

		id = knob_find(p->plot_x);
		if (id >= 0 && plot_swept(p, id)) {
			/* fine */
		} else if (!*list) {
			return err_set(e, ERR_USAGE,
			               "--plot-x %s: nothing is swept: --plot-x picks which swept "
			               "knob is the x axis (give a knob two values or more, e.g. "
			               "--indexes 0,1,2)",
			               p->plot_x);
		} else if ((hint = config_closest(p->plot_x, nth_swept, p)) &&
		           strcmp(hint, p->plot_x) != 0) {
			return err_set(
			    e, ERR_USAGE, "--plot-x %s: %s (did you mean %s?); the swept knobs: %s",
			    p->plot_x, id >= 0 ? "not swept" : "no such knob", hint, list);
		} else {
			return err_set(
			    e, ERR_USAGE,
			    "--plot-x %s: %s: the x axis is one of the swept knobs: %s", p->plot_x,
			    id >= 0 ? "not swept (it has one value)" : "no such knob", list);
		}
	}
	x = x_knob(p);
	n = series_count(p, x);
	if (n <= PLOT_MAX_SERIES)
		return 0;
	best_n = n;
	for (id = 0; id < K_COUNT; id++)
		if (plot_swept(p, id) && series_count(p, id) < best_n) {
			best = id;
			best_n = series_count(p, id);
		}
	if (best >= 0 && best_n <= PLOT_MAX_SERIES)
		return err_set(e, ERR_USAGE,
		               "--plot: %ld series (one per combination of the swept knobs but "
		               "the x axis, %s) are more than a legend can tell apart (at most "
		               "%d): put the knob with the most values on x, --plot-x %s (%ld "
		               "series), or sweep fewer knobs",
		               n, knob_table[x].name, PLOT_MAX_SERIES, knob_table[best].name,
		               best_n);
	return err_set(e, ERR_USAGE,
	               "--plot: %ld series (one per combination of the swept knobs but the x "
	               "axis, %s) are more than a legend can tell apart (at most %d): sweep "
	               "fewer knobs at once (swept: %s), a chart each",
	               n, knob_table[x].name, PLOT_MAX_SERIES, list);
}

int plot_check(const struct plan *p, struct err *e)
{
	const char *path = p->plot_path, *metrics = p->plot_metrics;
	int ms[PLOT_MAX_PANELS], kind = PK_AUTO, over_time, rc = 0;
	struct stat st;
	char *dir, *slash;

	if (!*path)
		return err_set(e, ERR_USAGE, "--plot needs a file name (FILE.svg, .png or .pdf)");
	if (format_of(path) < 0) {
		const char *dot = strrchr(path, '.');

		return err_set(e, ERR_USAGE,
		               "--plot %s: %s%s%s: name the file .svg, .png or .pdf (the "
		               "extension picks the format)",
		               path, dot && !strchr(dot, '/') ? "unknown format '" : "no extension",
		               dot && !strchr(dot, '/') ? dot : "",
		               dot && !strchr(dot, '/') ? "'" : "");
	}
	/* lstat: a link, even a dangling one, is a file that exists (the
	 * O_EXCL create at the end would fail on it, after the whole run). */
	if (lstat(path, &st) == 0)
		return err_set(e, ERR_USAGE,
		               "--plot %s: %s exists (idxlab overwrites nothing: remove "
		               "it or choose another name)",
		               path,
		               S_ISLNK(st.st_mode) ? "a symbolic link of that name" : "the file");
	dir = xstrdup(path);
	slash = strrchr(dir, '/');
	if (slash)
		slash[slash == dir ? 1 : 0] = 0;
	if (access(slash ? dir : ".", W_OK) < 0) {
		rc = err_set(e, ERR_USAGE, "--plot %s: cannot write in %s: %s", path,
		             slash ? dir : "the current directory", strerror(errno));
	} else {
		/* A name the file system cannot hold fails only at the create. */
		const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
		long max = pathconf(slash ? dir : ".", _PC_NAME_MAX);

		if (max <= 0)
			max = NAME_MAX;
		if (strlen(base) > (size_t)max || strlen(path) >= PATH_MAX)
			rc = err_set(e, ERR_USAGE,
			             "--plot %s: the name is too long (%zu bytes; at most %ld for "
			             "a file name there, %d for a path): choose a shorter one",
			             path, strlen(base), max, PATH_MAX - 1);
	}
	free(dir);
	if (rc < 0 || (metrics && parse_metrics(metrics, ms, e) < 0))
		return -1;
	if (p->plot_theme && word_of("--plot-theme", p->plot_theme, theme_names, e) < 0)
		return -1;
	if (p->plot_kind && (kind = word_of("--plot-kind", p->plot_kind, kind_names, e)) < 0)
		return -1;
	if (kind == PK_TIME && p->vals[K_INTERVAL][0] <= 0 && !p->replay_path)
		return err_set(e, ERR_USAGE,
		               "--plot-kind time draws the records over time: give --interval S "
		               "too (or --replay FILE)");
	if (kind == PK_SWEEP && p->replay_path)
		return err_set(e, ERR_USAGE,
		               "--plot-kind sweep: a recording's records are windows over time, "
		               "with no steps to draw side by side: leave --plot-kind out");
	over_time =
	    kind == PK_TIME || (kind == PK_AUTO && (p->vals[K_INTERVAL][0] > 0 || p->replay_path));
	if (over_time && p->plot_x)
		return err_set(e, ERR_USAGE,
		               "--plot-x picks the x axis of a sweep chart; this one is over time "
		               "(x in seconds)%s",
		               p->replay_path ? "" : ": add --plot-kind sweep to draw the steps");
	return over_time ? 0 : check_sweep(p, e);
}

struct plot *plot_new(const struct plan *p, const char *path, const char *metrics)
{
	struct plot *pl = xcalloc(1, sizeof *pl);
	struct err e;

	pl->plan = p;
	pl->path = xstrdup(path);
	pl->fmt = (enum plot_format)format_of(path);
	pl->xknob = x_knob(p);
	pl->kind =
	    p->plot_kind ? (enum plot_kind)word_of("", p->plot_kind, kind_names, &e) : PK_AUTO;
	pl->dark = p->plot_theme && strcmp(p->plot_theme, "dark") == 0;
	if (metrics) {
		int n = parse_metrics(metrics, pl->metrics, &e);

		pl->nmetrics = n > 0 ? n : 0;
	}
	return pl;
}

void plot_add(struct plot *pl, const struct record *r, const struct knobs *k, double t0, double t1)
{
	const struct field *kind = record_find(r, "record"), *step = record_find(r, "step");
	struct point *pt;
	int m;

	if (!pl || !kind || strcmp(kind->s, "rows") == 0 || strcmp(kind->s, "run") == 0)
		return; /* an --interval-rows batch, a run of a --repeat step: the step's
		           median record comes */
	if (pl->n == pl->cap) {
		pl->cap = pl->cap ? pl->cap * 2 : 64;
		pl->pts = realloc(pl->pts, pl->cap * sizeof *pl->pts);
		if (!pl->pts)
			abort();
	}
	pt = &pl->pts[pl->n++];
	memset(pt, 0, sizeof *pt);
	pt->interval = strcmp(kind->s, "interval") == 0;
	pt->step = step ? step->i : 0;
	pt->k = *k;
	pt->t0 = t0;
	pt->t1 = t1;
	for (m = 0; m < M_COUNT; m++) {
		pt->v[m] = record_csv_number(record_find(r, metric_table[m].field));
		/* --repeat: the runs' range (NaN: one run, or none) */
		pt->lo[m] =
		    record_csv_number(record_find(r, record_spread_name(metric_table[m].field, 0)));
		pt->hi[m] =
		    record_csv_number(record_find(r, record_spread_name(metric_table[m].field, 1)));
		if (!isnan(pt->lo[m]))
			pl->ranges = 1;
	}
	if (record_find(r, "runs") && record_find(r, "runs")->kind == FIELD_INT &&
	    record_find(r, "runs")->i > pl->runs)
		pl->runs = (int)record_find(r, "runs")->i;
}

void plot_note(struct plot *pl, double t, const char *text)
{
	if (!pl)
		return;
	if (pl->nnotes == pl->notes_cap) {
		pl->notes_cap = pl->notes_cap ? pl->notes_cap * 2 : 16;
		pl->notes = realloc(pl->notes, pl->notes_cap * sizeof *pl->notes);
		if (!pl->notes)
			abort();
	}
	pl->notes[pl->nnotes].t = t;
	snprintf(pl->notes[pl->nnotes].text, sizeof pl->notes[pl->nnotes].text, "%s", text);
	pl->nnotes++;
}

/* Why writing the chart at path failed: cairo's status, or the system's
 * error (err, when known: a stream's error flag keeps none); a full disk
 * named as such, with what to do. */
static const char *write_failure(const char *path, cairo_status_t st, int err)
{
	static char buf[160];
	struct statvfs vfs;
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');

	if (slash)
		slash[slash == dir ? 1 : 0] = 0;
	if (st == CAIRO_STATUS_WRITE_ERROR && err != ENOSPC &&
	    statvfs(slash ? dir : ".", &vfs) == 0 && vfs.f_bavail == 0)
		err = ENOSPC; /* what a write error on a full file system is */
	free(dir);
	if (err == ENOSPC)
		snprintf(buf, sizeof buf,
		         "disk full (ENOSPC): free space there or choose another "
		         "place");
	else if (err)
		snprintf(buf, sizeof buf, "cannot write it: %s", strerror(err));
	else
		snprintf(buf, sizeof buf, "%s", cairo_status_to_string(st));
	return buf;
}

int plot_write(struct plot *pl, char *summary, size_t len, struct err *e)
{
	struct model *md = xcalloc(1, sizeof *md);
	cairo_status_t st;
	int interval = 0, fd, rc = 0;
	size_t i;
	FILE *f;

	for (i = 0; i < pl->n; i++)
		interval |= pl->pts[i].interval;
	if (pl->kind != PK_AUTO)
		interval = pl->kind == PK_TIME;
	plot_pick_metrics(pl, interval, md);
	if (interval)
		plot_model_time(pl, md);
	else
		plot_model_sweep(pl, md);
	if (md->points == 0) {
		plot_model_free(md);
		free(md);
		return err_set(e, ERR_RUNTIME, "--plot %s: no record to draw (no step finished)",
		               pl->path);
	}
	fd = open(pl->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		rc = err_set(e, ERR_RUNTIME, "--plot %s: cannot create it: %s%s", pl->path,
		             strerror(errno),
		             errno == EEXIST ? " (it appeared during the run; idxlab overwrites "
		                               "nothing)"
		                             : "");
		if (fd >= 0)
			close(fd);
	} else {
		int saved = 0, failed;

		st = plot_render(pl->fmt, pl->dark, md, f);
		/* cairo may not say that a write failed (a PDF cut short on a full
		 * disk was "success"): the stream's own error flag, the flush,
		 * the sync and the close do. */
		failed = ferror(f); /* no errno kept: write_failure looks */
		if (!failed && (fflush(f) != 0 || fsync(fileno(f)) != 0))
			failed = saved = errno;
		if (fclose(f) != 0 && !failed)
			failed = saved = errno;
		if (failed && st == CAIRO_STATUS_SUCCESS)
			st = CAIRO_STATUS_WRITE_ERROR;
		if (st != CAIRO_STATUS_SUCCESS) {
			rc = err_set(e, ERR_RUNTIME, "--plot %s: %s (the file is removed)",
			             pl->path, write_failure(pl->path, st, saved));
			unlink(pl->path);
		}
	}
	if (rc == 0 && summary) {
		size_t changes = 0, captions = 0, n;
		char names[200] = "";

		for (i = 0; i < md->nmarks; i++) {
			changes += !md->marks[i].caption;
			captions += md->marks[i].caption;
		}
		/* A recording's chart names its panels: what the talk showed is
		 * among them (plot_feature). */
		for (i = 0, n = 0; pl->plan->replay_path && i < (size_t)md->npanels; i++)
			n += (size_t)snprintf(names + n, n < sizeof names ? sizeof names - n : 0,
			                      "%s%s", i ? ", " : " (",
			                      metric_table[md->metric[i]].label);
		if (*names && strlen(names) + 1 < sizeof names)
			strcat(names, ")");
		if (md->over_time)
			n = (size_t)snprintf(
			    summary, len, "an over-time chart (%s): ",
			    pl->plan->replay_path ? "the recording's windows"
			    : pl->plan->steps > 1
			        ? "the --interval records; --plot-kind sweep draws "
			          "the steps"
			        : "the --interval records");
		else if (md->xknob >= 0)
			n = (size_t)snprintf(summary, len,
			                     "a sweep chart (x %s): ", knob_table[md->xknob].name);
		else
			n = (size_t)snprintf(summary, len, "a one-step chart: ");
		if (n < len)
			snprintf(summary + n, len - n, "%d panel%s%s, %d series, %zu record%s",
			         md->npanels, md->npanels == 1 ? "" : "s", names, md->nseries,
			         md->points, md->points == 1 ? "" : "s");
		if (captions)
			snprintf(
			    summary + strlen(summary), len - strlen(summary),
			    ", %zu caption%s (numbered at their lines, listed whole above them)",
			    captions, captions == 1 ? "" : "s");
		if (md->over_time)
			snprintf(summary + strlen(summary), len - strlen(summary),
			         ", %zu knob change%s", changes, changes == 1 ? "" : "s");
		/* the optimum marked (a mix's sweep over indexes), per series */
		for (i = 0, n = 0; i < (size_t)md->nseries; i++)
			if (md->cheapest[i] && md->cheapest[i] <= (size_t)md->ncat)
				snprintf(
				    summary + strlen(summary), len - strlen(summary),
				    "%s%s%s%.60s%s", n++ ? ", " : ", the cheapest marked: indexes ",
				    md->cat_label[md->cheapest[i] - 1], md->nseries > 1 ? " (" : "",
				    md->nseries > 1 ? md->label[i] : "",
				    md->nseries > 1 ? ")" : "");
	}
	plot_model_free(md);
	free(md);
	return rc;
}

void plot_feature(struct plot *pl, int m)
{
	int i;

	if (!pl || m < 0 || m >= M_COUNT)
		return;
	for (i = 0; i < pl->nfeatured; i++)
		if (pl->featured[i] == m)
			return;
	if (pl->nfeatured < PLOT_MAX_PANELS)
		pl->featured[pl->nfeatured++] = m;
}

void plot_free(struct plot *pl)
{
	if (!pl)
		return;
	free(pl->path);
	free(pl->pts);
	free(pl->notes);
	free(pl);
}
