/* recording.c - dashboard sessions as JSON lines (jansson), and back. */
#include "recording.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "infile.h"
#include "knobs.h"
#include "redact.h"

#include "xalloc.h"
struct recorder {
	FILE *f;
	char *path;
	int failed; /* a write failed: nothing more is written */
	off_t good; /* the file's length up to its last whole line */
};

struct replay {
	FILE *f;
	char *path;
	int line;
	int objects; /* lines read as JSON objects so far */
	char *buf;
	size_t cap;
};

static const char *const level_names[] = { "info", "warn", "error" };

/* ---- writing ------------------------------------------------------------ */

/* Counters as {"t": ..., "name": value, ...}: the valid ones. */
static json_t *counters_json(const struct counters *x)
{
	json_t *c = json_object();
	int i;

	json_object_set_new(c, "t", json_real(x->t));
	for (i = 0; i < C_COUNT; i++)
		if (x->valid & (1u << i))
			json_object_set_new(c, ctr_names[i], json_integer((json_int_t)x->v[i]));
	return c;
}

/* A text of the session as a JSON string, with no password in it. */
static json_t *shown_string(const char *s)
{
	size_t n = redact_text(s, NULL, 0) + 1;
	char *buf = malloc(n);
	json_t *v;

	if (!buf)
		abort();
	redact_text(s, buf, n);
	v = json_string(buf);
	free(buf);
	return v;
}

/* A latency histogram: {"n", "max_ns", "b": [[bucket, count]...]}. */
static json_t *hist_json(const struct hist *h)
{
	json_t *o = json_object(), *b = json_array();
	int i;

	json_object_set_new(o, "n", json_integer((json_int_t)h->n));
	json_object_set_new(o, "max_ns", json_integer((json_int_t)h->max_ns));
	for (i = 0; i < HIST_BUCKETS; i++)
		if (h->b[i])
			json_array_append_new(b, json_pack("[iI]", i, (json_int_t)h->b[i]));
	json_object_set_new(o, "b", b);
	return o;
}

static json_t *sample_json(const struct live *l)
{
	json_t *o = json_object(), *knobs = json_object();
	json_t *sizes = json_object(), *pages = json_array();
	char buf[64];
	int i;

	json_object_set_new(o, "state", json_string(live_state_name(l->state)));
	json_object_set_new(o, "activity", shown_string(l->activity));
	json_object_set_new(o, "activity_t", json_real(l->activity_t0));
	json_object_set_new(o, "knobs_gen", json_integer((json_int_t)l->knobs_gen));
	for (i = 0; i < K_COUNT; i++) {
		if (knob_table[i].kind == KNOB_STRING)
			continue; /* the dsn: it may hold a password */
		knob_format(i, l->knobs.v[i], buf, sizeof buf);
		json_object_set_new(knobs, knob_table[i].name, json_string(buf));
	}
	json_object_set_new(o, "knobs", knobs);
	json_object_set_new(o, "table_rows", json_integer((json_int_t)l->table_rows));
	json_object_set_new(o, "c", counters_json(&l->c));
	/* a light sample (live.full): the engine's last reading too */
	if (l->full.t != l->c.t)
		json_object_set_new(o, "full", counters_json(&l->full));
	json_object_set_new(o, "lat", hist_json(&l->lat.commit));
	if (l->lat.query.n) /* queries' (a recording before them has none) */
		json_object_set_new(o, "qlat", hist_json(&l->lat.query));
	if (l->lat.write.n) /* a mix's writes' */
		json_object_set_new(o, "wlat", hist_json(&l->lat.write));
	json_object_set_new(sizes, "db_bytes", json_integer(l->sizes.db_bytes));
	json_object_set_new(sizes, "index_bytes", json_integer(l->sizes.index_bytes));
	for (i = 0; i < l->sizes.nindex && i < SIZES_MAX_INDEXES; i++)
		json_array_append_new(pages, json_integer(l->sizes.index_pages[i]));
	json_object_set_new(sizes, "index_pages", pages);
	json_object_set_new(o, "sizes", sizes);
	json_object_set_new(o, "where", shown_string(l->where));
	if (l->served[0]) /* what served the queries: index names and shares */
		json_object_set_new(o, "served", json_string(l->served));
	return o;
}

static int put_line(struct recorder *r, json_t *o, struct err *e)
{
	char *text = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(10));
	int bad;

	json_decref(o);
	if (!text)
		abort();
	bad = fputs(text, r->f) == EOF || fputc('\n', r->f) == EOF || fflush(r->f) == EOF;
	free(text);
	if (bad) {
		int saved = errno;

		/* A part of the line may be out: cut it, the lines before stay
		 * whole; and drop what stdio still holds. */
		r->failed = 1;
		if (ftruncate(fileno(r->f), r->good) < 0) {
			/* then the last line stays cut short: a replay stops there */
		}
		__fpurge(r->f);
		return err_set(e, ERR_RUNTIME, "writing %s: %s", r->path, strerror(saved));
	}
	r->good = ftello(r->f);
	return 0;
}

struct recorder *rec_create(const char *path, const char *engine, const char *idxlab_version,
                            struct err *e)
{
	struct recorder *r;
	char started[40];
	time_t now = time(NULL);
	struct tm tm;
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

	if (fd < 0) {
		/* a full disk is no usage error: exit 1, as for a write */
		err_set(
		    e, errno == ENOSPC || errno == EDQUOT || errno == EIO ? ERR_RUNTIME : ERR_USAGE,
		    "cannot create the recording %s: %s%s", path, strerror(errno),
		    errno == EEXIST ? " (idxlab overwrites nothing: remove it or choose another "
		                      "name)"
		                    : "");
		return NULL;
	}
	r = calloc(1, sizeof *r);
	if (!r)
		abort();
	r->f = fdopen(fd, "w");
	if (!r->f)
		abort();
	r->path = xstrdup(path);
	gmtime_r(&now, &tm);
	strftime(started, sizeof started, "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (put_line(r,
	             json_pack("{sissssss}", "idxlab_recording", REC_VERSION, "idxlab",
	                       idxlab_version, "engine", engine, "started", started),
	             e) < 0) {
		/* Nothing is left: an empty file would refuse the next try. */
		(void)rec_finish(r, NULL);
		unlink(path);
		err_prefix(e, "the recording is not made (no file left)");
		return NULL;
	}
	return r;
}

int rec_write(struct recorder *r, const struct rec_item *it, struct err *e)
{
	json_t *o;

	if (r->failed)
		return err_set(e, ERR_RUNTIME, "writing %s failed before", r->path);
	switch (it->kind) {
	case REC_SAMPLE:
		o = sample_json(&it->live);
		break;
	case REC_EVENT:
		o = json_pack("{soss}", "ev", shown_string(it->text), "level",
		              level_names[it->level]);
		break;
	case REC_CAPTION:
		o = json_pack("{so}", "caption", shown_string(it->text));
		break;
	case REC_VIEW: {
		char figs[128];

		knob_format(K_PRESENTER_METRICS, it->figures, figs, sizeof figs);
		o = json_pack("{ssss}", "view", it->presenter ? "presenter" : "normal", "figures",
		              figs);
		break;
	}
	case REC_PIN:
	case REC_UNPIN:
	default:
		o = json_pack("{sb}", it->kind == REC_PIN ? "pin" : "unpin", 1);
		break;
	}
	if (!o)
		abort(); /* a bad json_pack format: a bug */
	json_object_set_new(o, "t", json_real(it->t));
	return put_line(r, o, e);
}

int rec_finish(struct recorder *r, struct err *e)
{
	int rc = r->failed ? -1 : 0;

	if (r->failed) { /* said already; the file ends at its last whole line */
		fclose(r->f);
		free(r->path);
		free(r);
		return -1;
	}
	if (fflush(r->f) == EOF || fsync(fileno(r->f)) < 0) {
		if (!rc)
			err_set(e, ERR_RUNTIME, "writing %s: %s", r->path, strerror(errno));
		rc = -1;
	}
	if (fclose(r->f) == EOF && !rc) {
		err_set(e, ERR_RUNTIME, "writing %s: %s", r->path, strerror(errno));
		rc = -1;
	}
	free(r->path);
	free(r);
	return rc;
}

/* ---- reading ------------------------------------------------------------ */

/* A recording's lines are a few kB; a longer one is no recording's. */
#define REC_LINE_MAX (1 << 20)

static int bad_line(struct replay *p, struct err *e, const char *what)
{
	return err_set(e, ERR_USAGE, "%s:%d: %s", p->path, p->line, what);
}

/* The next non-empty line as JSON; NULL at the end (*eof) or on an error. */
static json_t *next_json(struct replay *p, int *eof, struct err *e)
{
	json_error_t je;
	json_t *o;
	size_t n;
	enum infile_rc got;

	*eof = 0;
	do {
		got = infile_getline(p->f, &p->buf, &p->cap, REC_LINE_MAX, &n);
		if (got == INFILE_LONG) {
			p->line++;
			bad_line(p, e, "a line longer than 1 MiB: not an idxlab recording");
			return NULL;
		}
		if (got != INFILE_LINE) {
			if (got == INFILE_ERROR)
				err_set(e, ERR_RUNTIME, "reading %s: %s", p->path, strerror(errno));
			else
				*eof = 1;
			return NULL;
		}
		p->line++;
	} while (strspn(p->buf, " \t\r\n") == n);
	o = json_loads(p->buf, 0, &je);
	if (!o) {
		char msg[256];

		/* The first line: a file that is no recording, not one cut short. */
		snprintf(msg, sizeof msg, "not JSON (%s): %s", je.text,
		         p->objects ? "was the file cut short?"
		                    : "not an idxlab recording (made with idxlab --record FILE)");
		bad_line(p, e, msg);
		return NULL;
	}
	if (!json_is_object(o)) {
		json_decref(o);
		bad_line(p, e, "not a JSON object");
		return NULL;
	}
	p->objects++;
	return o;
}

static uint64_t u64_of(json_t *v)
{
	json_int_t i = json_is_integer(v) ? json_integer_value(v) : 0;

	return i > 0 ? (uint64_t)i : 0;
}

/* A recorded text as shown: a recording by an older idxlab, or edited by
 * hand, may hold a password. "" for what is not a string. */
static void shown_text(const json_t *v, char *out, size_t n)
{
	redact_text(json_string_value(v) ? json_string_value(v) : "", out, n);
}

static void counters_from(json_t *c, struct counters *x)
{
	int k;

	x->t = json_number_value(json_object_get(c, "t"));
	for (k = 0; k < C_COUNT; k++) {
		json_t *v = json_object_get(c, ctr_names[k]);

		if (v) {
			x->v[k] = u64_of(v);
			x->valid |= 1u << k;
		}
	}
}

/* A histogram of hist_json (absent: none) into h; -1: a bucket out of range. */
static int hist_from(json_t *o, struct hist *h)
{
	size_t i;
	json_t *v;

	h->n = u64_of(json_object_get(o, "n"));
	h->max_ns = u64_of(json_object_get(o, "max_ns"));
	json_array_foreach(json_object_get(o, "b"), i, v)
	{
		json_int_t at = json_integer_value(json_array_get(v, 0));

		if (at < 0 || at >= HIST_BUCKETS)
			return -1;
		h->b[at] = u64_of(json_array_get(v, 1));
	}
	return 0;
}

static int sample_from(struct replay *p, json_t *o, struct live *l, struct err *e)
{
	json_t *knobs = json_object_get(o, "knobs"), *c = json_object_get(o, "c");
	json_t *full = json_object_get(o, "full");
	json_t *sizes = json_object_get(o, "sizes"), *v;
	const char *key, *state = json_string_value(json_object_get(o, "state"));
	size_t i;
	int k;

	memset(l, 0, sizeof *l);
	knobs_defaults(&l->knobs);
	l->state = LS_RUNNING;
	for (k = 0; state && k <= LS_DONE; k++)
		if (strcmp(state, live_state_name((enum live_state)k)) == 0)
			l->state = (enum live_state)k;
	shown_text(json_object_get(o, "activity"), l->activity, sizeof l->activity);
	l->activity_t0 = json_number_value(json_object_get(o, "activity_t"));
	l->knobs_gen = (unsigned long)u64_of(json_object_get(o, "knobs_gen"));
	json_object_foreach(knobs, key, v)
	{
		int id = knob_find(key);
		if (id < 0 || !json_is_string(v))
			continue; /* a knob of another version of idxlab */
		if (knob_parse(id, json_string_value(v), &l->knobs.v[id], e) < 0)
			return err_prefix(e, "%s:%d: knob %s", p->path, p->line, key);
	}
	l->table_rows = u64_of(json_object_get(o, "table_rows"));
	if (!json_is_object(c) || !json_is_number(json_object_get(c, "t")))
		return bad_line(p, e, "a sample without its counters (\"c\" with \"t\")");
	counters_from(c, &l->c);
	l->full = l->c;
	if (json_is_object(full) && json_is_number(json_object_get(full, "t"))) {
		memset(&l->full, 0, sizeof l->full);
		counters_from(full, &l->full);
	}
	if (hist_from(json_object_get(o, "lat"), &l->lat.commit) < 0 ||
	    hist_from(json_object_get(o, "qlat"), &l->lat.query) < 0 ||
	    hist_from(json_object_get(o, "wlat"), &l->lat.write) < 0)
		return bad_line(p, e, "a latency bucket out of range");
	l->sizes.db_bytes = json_is_integer(json_object_get(sizes, "db_bytes"))
	                        ? json_integer_value(json_object_get(sizes, "db_bytes"))
	                        : -1;
	l->sizes.index_bytes = json_is_integer(json_object_get(sizes, "index_bytes"))
	                           ? json_integer_value(json_object_get(sizes, "index_bytes"))
	                           : -1;
	json_array_foreach(json_object_get(sizes, "index_pages"), i, v)
	{
		if (i >= SIZES_MAX_INDEXES)
			break;
		l->sizes.index_pages[i] = json_integer_value(v);
		l->sizes.nindex = (int)i + 1;
	}
	shown_text(json_object_get(o, "where"), l->where, sizeof l->where);
	snprintf(l->served, sizeof l->served, "%s",
	         json_is_string(json_object_get(o, "served"))
	             ? json_string_value(json_object_get(o, "served"))
	             : "");
	return 0;
}

struct replay *rec_open(const char *path, struct rec_head *h, struct err *e)
{
	struct replay *p = calloc(1, sizeof *p);
	json_t *o;
	int eof;

	if (!p)
		abort();
	p->path = xstrdup(path);
	p->f = infile_open(path, "the recording", e);
	if (!p->f) {
		rec_close(p);
		return NULL;
	}
	o = next_json(p, &eof, e);
	if (!o || !json_is_integer(json_object_get(o, "idxlab_recording"))) {
		if (o || eof)
			bad_line(p, e, "not an idxlab recording (made with idxlab --record FILE)");
		json_decref(o);
		rec_close(p);
		return NULL;
	}
	memset(h, 0, sizeof *h);
	h->version = (int)json_integer_value(json_object_get(o, "idxlab_recording"));
	snprintf(h->engine, sizeof h->engine, "%s",
	         json_string_value(json_object_get(o, "engine"))
	             ? json_string_value(json_object_get(o, "engine"))
	             : "?");
	snprintf(h->idxlab, sizeof h->idxlab, "%s",
	         json_string_value(json_object_get(o, "idxlab"))
	             ? json_string_value(json_object_get(o, "idxlab"))
	             : "?");
	snprintf(h->started, sizeof h->started, "%s",
	         json_string_value(json_object_get(o, "started"))
	             ? json_string_value(json_object_get(o, "started"))
	             : "?");
	json_decref(o);
	if (h->version > REC_VERSION) {
		err_set(e, ERR_USAGE,
		        "%s is a version %d recording (by idxlab %s); this idxlab reads version "
		        "%d: update idxlab",
		        path, h->version, h->idxlab, REC_VERSION);
		rec_close(p);
		return NULL;
	}
	return p;
}

/* rec_read; a sample's figures only when `figures` is set (else its t,
 * its kind and its knobs_gen). */
static int read_item(struct replay *p, struct rec_item *it, int figures, struct err *e)
{
	json_t *o, *v;
	int eof, rc = 1;

	o = next_json(p, &eof, e);
	if (!o)
		return eof ? 0 : -1;
	memset(it, 0, sizeof *it);
	if (!json_is_number(json_object_get(o, "t"))) {
		json_decref(o);
		return bad_line(p, e, "a line without its time (\"t\")");
	}
	it->t = json_number_value(json_object_get(o, "t"));
	if ((v = json_object_get(o, "ev")) != NULL) {
		const char *level = json_string_value(json_object_get(o, "level"));
		int i;

		it->kind = REC_EVENT;
		shown_text(v, it->text, sizeof it->text);
		for (i = 0; level && i < 3; i++)
			if (strcmp(level, level_names[i]) == 0)
				it->level = (enum ev_level)i;
	} else if ((v = json_object_get(o, "caption")) != NULL) {
		it->kind = REC_CAPTION;
		shown_text(v, it->text, sizeof it->text);
	} else if ((v = json_object_get(o, "view")) != NULL) {
		const char *figs = json_string_value(json_object_get(o, "figures"));

		it->kind = REC_VIEW;
		it->presenter =
		    json_string_value(v) && strcmp(json_string_value(v), "presenter") == 0;
		/* (figures a later idxlab names and this one does not: auto) */
		if (!figs || knob_parse(K_PRESENTER_METRICS, figs, &it->figures, NULL) < 0)
			it->figures = 0;
	} else if (json_object_get(o, "pin")) {
		it->kind = REC_PIN;
	} else if (json_object_get(o, "unpin")) {
		it->kind = REC_UNPIN;
	} else {
		it->kind = REC_SAMPLE;
		if (!figures)
			it->live.knobs_gen = (unsigned long)u64_of(json_object_get(o, "knobs_gen"));
		else if (sample_from(p, o, &it->live, e) < 0)
			rc = -1;
	}
	json_decref(o);
	return rc;
}

int rec_read(struct replay *p, struct rec_item *it, struct err *e)
{
	return read_item(p, it, 1, e);
}

void rec_close(struct replay *p)
{
	if (!p)
		return;
	if (p->f)
		fclose(p->f);
	free(p->buf);
	free(p->path);
	free(p);
}

/* ---- the outline, for seeking ------------------------------------------- */

int rec_outline(const char *path, struct rec_outline *o, struct err *e)
{
	struct rec_head h;
	struct replay *p;
	struct rec_item *it;
	struct err ignored = { ERR_NONE, "" };
	unsigned long gen = 0;
	int samples = 0, cap = 0, lines_cap = 0;

	memset(o, 0, sizeof *o);
	p = rec_open(path, &h, e);
	if (!p)
		return -1;
	it = malloc(sizeof *it); /* a struct live is big: not on the stack */
	if (!it)
		abort();
	for (;;) {
		struct rec_entry *en;
		long long at = (long long)ftello(p->f);
		int line = p->line;

		if (read_item(p, it, 0, &ignored) <= 0)
			break;
		if (o->nlines == lines_cap) {
			lines_cap = lines_cap ? 2 * lines_cap : 256;
			o->lines = realloc(o->lines, sizeof *o->lines * (size_t)lines_cap);
			if (!o->lines)
				abort();
		}
		en = &o->lines[o->nlines++];
		memset(en, 0, sizeof *en);
		en->t = it->t;
		en->kind = it->kind;
		en->offset = at;
		en->line = line;
		en->level = it->level;
		if (it->kind == REC_EVENT || it->kind == REC_CAPTION)
			en->text = xstrdup(it->text);
		en->presenter = it->presenter;
		en->figures = it->figures;
		if (it->t > o->end)
			o->end = it->t; /* (a line added by hand may come late) */
		if (it->kind != REC_SAMPLE)
			continue;
		if (!samples++)
			o->first = it->t;
		else if (it->live.knobs_gen != gen) {
			if (o->nchanges == cap) {
				cap = cap ? 2 * cap : 16;
				o->changes = realloc(o->changes, sizeof *o->changes * (size_t)cap);
				if (!o->changes)
					abort();
			}
			o->changes[o->nchanges++] = it->t;
		}
		gen = it->live.knobs_gen;
	}
	free(it);
	rec_close(p);
	return 0;
}

void rec_outline_free(struct rec_outline *o)
{
	int i;

	if (!o)
		return;
	for (i = 0; i < o->nlines; i++)
		free(o->lines[i].text);
	free(o->lines);
	free(o->changes);
	memset(o, 0, sizeof *o);
}

int rec_seek(struct replay *p, const struct rec_entry *at, struct err *e)
{
	if (fseeko(p->f, (off_t)at->offset, SEEK_SET) < 0)
		return err_set(e, ERR_RUNTIME, "seeking in %s: %s", p->path, strerror(errno));
	clearerr(p->f);
	p->line = at->line;
	p->objects = at->line; /* past the header: a bad line is one cut short */
	return 0;
}

int rec_change_near(const struct rec_outline *o, double t, int dir, double grace)
{
	int i;

	if (dir > 0) {
		for (i = 0; i < o->nchanges; i++)
			if (o->changes[i] > t)
				return i;
		return -1;
	}
	for (i = o->nchanges - 1; i >= 0; i--)
		if (o->changes[i] < t - grace)
			return i;
	return -1;
}
