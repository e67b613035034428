/* compare_read.c - a saved run read back for --compare (compare_int.h):
 * the CSV (RFC 4180: a field in double quotes may hold commas, quotes
 * doubled and line breaks) or the JSON lines (jansson) an `idxlab run`
 * wrote, its step records kept as text.
 *
 * A file is taken only when it is this idxlab's: every column a field this
 * idxlab writes (the compare fields of a run that had --compare too), and
 * every column a match needs (record, step, every knob's). Another
 * version's CSV lacks a column or has one unknown here: refused with its
 * name, not half-compared. Errors name the file and the line. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_int.h"
#include "infile.h"
#include "knobs.h"
#include "record.h"
#include "xalloc.h"

#define LINE_MAX_BYTES (1u << 20)

const char *compare_intern(const char *name)
{
	static char *names[4 * RECORD_MAX_FIELDS];
	static int n;
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return names[i];
	if (n == (int)(sizeof names / sizeof names[0]))
		return "?"; /* more names than any record has: not looked up */
	names[n] = xstrdup(name);
	return names[n++];
}

const char *rec_get(const struct rec *r, const char *name)
{
	int i;

	for (i = 0; i < r->n; i++)
		if (strcmp(r->name[i], name) == 0)
			return r->val[i];
	return NULL;
}

/* Is name a field this idxlab writes (or a compare field of one)? */
static int known(const char *name)
{
	const struct record *all = record_all(NULL);
	size_t n = strlen(name);
	char base[64];

	if (record_find(all, name) || strcmp(name, "vs_step") == 0 ||
	    strcmp(name, "vs_note") == 0 || strcmp(name, "vs_noise") == 0)
		return 1;
	if (n > 3 && n - 3 < sizeof base && strcmp(name + n - 3, "_vs") == 0) {
		snprintf(base, sizeof base, "%.*s", (int)(n - 3), name);
		return record_find(all, base) != NULL;
	}
	if (n > 8 && n - 8 < sizeof base && strcmp(name + n - 8, "_verdict") == 0) {
		snprintf(base, sizeof base, "%.*s", (int)(n - 8), name);
		return record_find(all, base) != NULL;
	}
	return 0;
}

/* A file with nothing in it. */
static int empty_file(const struct saved *s, struct err *e)
{
	return err_set(e, ERR_USAGE, "%s %s: empty: save a run with --format csv or json into it",
	               s->flag, s->path);
}

/* Is name one of the n names? */
static int has(const char *const *names, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return 1;
	return 0;
}

/* The field a record of this idxlab writes that names lacks: one a match
 * needs (record, step, every knob's) or a figure compared; NULL: none. */
static const char *missing(const char *const *names, int n)
{
	static const char *const need[] = { "record", "step" };
	const struct record *all;
	int i, from;

	for (i = 0; i < (int)(sizeof need / sizeof need[0]); i++)
		if (!has(names, n, need[i]))
			return need[i];
	for (i = 0; i < K_COUNT; i++)
		if (knob_table[i].column > 0 && !has(names, n, record_knob_field(i)))
			return record_knob_field(i);
	for (all = record_all(&from), i = 0; i < from; i++)
		if (all->f[i].figure && !has(names, n, all->f[i].name))
			return all->f[i].name;
	return NULL;
}

/* The columns of a record (line line of path): each known, none missing. */
static int check_names(const struct saved *s, int line, const char *const *names, int n,
                       struct err *e)
{
	const char *want;
	int i;

	for (i = 0; i < n; i++)
		if (!known(names[i]))
			return err_set(e, ERR_USAGE,
			               "%s %s:%d: '%.60s' is not a field this idxlab (%s) "
			               "writes: a file cut short, not idxlab's output, or another "
			               "version's - compare with a run of this idxlab",
			               s->flag, s->path, line, names[i], IDXLAB_VERSION);
	if ((want = missing(names, n)) != NULL)
		return err_set(e, ERR_USAGE,
		               "%s %s:%d: no field '%s', which this idxlab (%s) "
		               "writes: a run cut by --fields, or another version's output - "
		               "compare with a whole run of this idxlab",
		               s->flag, s->path, line, want, IDXLAB_VERSION);
	return 0;
}

/* Keep r if it is a step's record. */
static void keep(struct saved *s, struct rec *r)
{
	const char *kind = rec_get(r, "record");
	int i;

	if (kind && strcmp(kind, "step") == 0) {
		s->step = realloc(s->step, (size_t)(s->nstep + 1) * sizeof *s->step);
		if (!s->step)
			abort();
		s->step[s->nstep++] = *r;
		return;
	}
	for (i = 0; i < r->n; i++)
		free(r->val[i]);
	free(r->val);
	free(r->name);
}

/* ---- CSV ---- */

/* Split one CSV record of text (its line break(s) inside) into fields:
 * their count, or -1 when a quoted field is still open at the end (the
 * record goes on on the next line). vals get owned copies. */
static int csv_split(const char *text, char ***vals)
{
	size_t len = strlen(text), i = 0;
	char *cell = xcalloc(1, len + 1);
	int n = 0, cap = 0;

	*vals = NULL;
	for (;;) {
		size_t o = 0;
		if (text[i] == '"') {
			i++;
			for (;;) {
				if (!text[i]) {
					free(cell);
					while (n)
						free((*vals)[--n]);
					free(*vals);
					*vals = NULL;
					return -1;
				}
				if (text[i] == '"' && text[i + 1] == '"') {
					cell[o++] = '"';
					i += 2;
				} else if (text[i] == '"') {
					i++;
					break;
				} else {
					cell[o++] = text[i++];
				}
			}
		}
		while (text[i] && text[i] != ',' && text[i] != '\n' && text[i] != '\r')
			cell[o++] = text[i++];
		cell[o] = 0;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			*vals = realloc(*vals, (size_t)cap * sizeof **vals);
			if (!*vals)
				abort();
		}
		/* an empty field is n/a, quoted or not: idxlab writes no empty text */
		(*vals)[n++] = o ? xstrdup(cell) : NULL;
		if (text[i] != ',')
			break;
		i++;
	}
	free(cell);
	return n;
}

/* The next CSV record of f: its fields, or 0 at the end; -1 with e
 * filled. *line counts the lines read; *first: the record's first. */
static int csv_next(FILE *f, const struct saved *s, int *line, int *first, char ***vals,
                    struct err *e)
{
	char *buf = NULL, *text = NULL;
	size_t cap = 0, len, have = 0;
	int n = -1;
	enum infile_rc rc = INFILE_EOF;

	while (n < 0 && (rc = infile_getline(f, &buf, &cap, LINE_MAX_BYTES, &len)) == INFILE_LINE) {
		++*line;
		if (memchr(buf, 0, len)) {
			free(buf);
			free(text);
			return err_set(e, ERR_USAGE, "%s %s:%d: a NUL byte: not a CSV idxlab wrote",
			               s->flag, s->path, *line);
		}
		if (!have)
			*first = *line;
		text = realloc(text, have + len + 1);
		if (!text)
			abort();
		memcpy(text + have, buf, len + 1);
		have += len;
		if (have == len && strspn(text, " \t\r\n") == len)
			have = 0; /* a blank line */
		else
			n = csv_split(text, vals);
	}
	free(buf);
	if (n < 0 && rc == INFILE_LONG)
		n = err_set(e, ERR_USAGE, "%s %s:%d: a line longer than %u bytes", s->flag, s->path,
		            *line + 1, LINE_MAX_BYTES);
	else if (n < 0 && rc == INFILE_ERROR)
		n = err_set(e, ERR_USAGE, "%s %s:%d: cannot read on: %s", s->flag, s->path,
		            *line + 1, strerror(errno));
	else if (n < 0 && have)
		n = err_set(e, ERR_USAGE,
		            "%s %s:%d: a quoted field is never closed (the record begins "
		            "here)",
		            s->flag, s->path, *first);
	else if (n < 0)
		n = 0;
	free(text);
	return n;
}

static int read_csv(struct saved *s, FILE *f, struct err *e)
{
	char **head = NULL, **vals;
	const char **names = NULL;
	int line = 0, first = 1, nh, n, i, rc = 0;

	nh = csv_next(f, s, &line, &first, &head, e);
	if (nh <= 0)
		return nh < 0 ? -1 : empty_file(s, e);
	names = xcalloc((size_t)nh, sizeof *names);
	for (i = 0; i < nh; i++)
		names[i] = compare_intern(head[i] ? head[i] : "");
	if (check_names(s, first, names, nh, e) < 0)
		rc = -1;
	while (rc == 0 && (n = csv_next(f, s, &line, &first, &vals, e)) != 0) {
		struct rec r = { first, n, NULL, vals };

		if (n < 0) {
			rc = -1;
			break;
		}
		if (n != nh) {
			rc = err_set(e, ERR_USAGE,
			             "%s %s:%d: %d fields where the header (line 1) names "
			             "%d: a file cut short, or edited - save the run again",
			             s->flag, s->path, first, n, nh);
			for (i = 0; i < n; i++)
				free(vals[i]);
			free(vals);
			break;
		}
		r.name = xcalloc((size_t)nh, sizeof *r.name);
		memcpy(r.name, names, (size_t)nh * sizeof *names);
		keep(s, &r);
	}
	for (i = 0; i < nh; i++)
		free(head[i]);
	free(head);
	free(names);
	return rc;
}

/* ---- JSON lines ---- */

static char *json_text(json_t *v)
{
	char buf[64];

	switch (json_typeof(v)) {
	case JSON_STRING:
		return xstrdup(json_string_value(v));
	case JSON_INTEGER:
		snprintf(buf, sizeof buf, "%lld", (long long)json_integer_value(v));
		return xstrdup(buf);
	case JSON_REAL:
		snprintf(buf, sizeof buf, "%.17g", json_real_value(v));
		return xstrdup(buf);
	case JSON_TRUE:
		return xstrdup("1");
	case JSON_FALSE:
		return xstrdup("0");
	default:
		return NULL; /* null: n/a */
	}
}

static int read_json(struct saved *s, FILE *f, struct err *e)
{
	char *buf = NULL;
	size_t cap = 0, len;
	enum infile_rc got = INFILE_EOF;
	int line = 0, rc = 0;

	while (rc == 0 &&
	       (got = infile_getline(f, &buf, &cap, LINE_MAX_BYTES, &len)) == INFILE_LINE) {
		json_error_t je;
		json_t *o, *v;
		const char *key;
		struct rec r = { ++line, 0, NULL, NULL };
		int i = 0;

		if (strspn(buf, " \t\r\n") == len)
			continue;
		o = json_loadb(buf, len, 0, &je);
		if (!o || !json_is_object(o)) {
			rc = err_set(e, ERR_USAGE,
			             "%s %s:%d: not a JSON object (%s): not JSON lines idxlab "
			             "wrote, or a file cut short - save the run again with "
			             "--format json",
			             s->flag, s->path, line, o ? "another kind of value" : je.text);
			json_decref(o);
			break;
		}
		r.n = (int)json_object_size(o);
		r.name = xcalloc((size_t)r.n + 1, sizeof *r.name);
		r.val = xcalloc((size_t)r.n + 1, sizeof *r.val);
		json_object_foreach(o, key, v)
		{
			if (json_is_array(v) || json_is_object(v))
				rc = err_set(e, ERR_USAGE,
				             "%s %s:%d: field '%.60s' holds a list or an object: "
				             "not a record idxlab wrote",
				             s->flag, s->path, line, key);
			r.name[i] = compare_intern(key);
			r.val[i++] = json_text(v);
		}
		json_decref(o);
		if (rc == 0)
			rc = check_names(s, line, r.name, r.n, e);
		keep(s, &r);
		if (rc < 0)
			break;
	}
	if (rc == 0 && got == INFILE_LONG)
		rc = err_set(e, ERR_USAGE, "%s %s:%d: a line longer than %u bytes", s->flag,
		             s->path, line + 1, LINE_MAX_BYTES);
	free(buf);
	if (rc == 0 && !line)
		rc = empty_file(s, e);
	return rc;
}

int saved_read(struct saved *s, const char *path, const char *flag, struct err *e)
{
	FILE *f;
	int c, rc;

	memset(s, 0, sizeof *s);
	s->path = xstrdup(path);
	s->flag = flag;
	f = infile_open(path, "the saved run", e);
	if (!f)
		return err_prefix(e, "%s", flag);
	while ((c = getc(f)) != EOF && strchr(" \t\r\n", c))
		;
	if (c != EOF)
		ungetc(c, f);
	rewind(f);
	rc = c == '{' ? read_json(s, f, e) : read_csv(s, f, e);
	fclose(f);
	if (rc == 0 && !s->nstep)
		rc = err_set(e, ERR_USAGE,
		             "%s %s: no step record (record=step) in it: save a run's "
		             "records with --format csv or json",
		             flag, path);
	return rc;
}

void rec_to_record(const struct rec *r, struct record *out)
{
	int i;

	out->n = 0;
	for (i = 0; i < r->n && out->n < RECORD_MAX_FIELDS; i++) {
		struct field *f = &out->f[out->n++];
		const char *v = r->val[i], *dot;
		char *end = NULL;
		double d = v && *v ? strtod(v, &end) : 0;

		memset(f, 0, sizeof *f);
		f->name = f->label = r->name[i];
		f->unit = "";
		if (!v) {
			f->kind = FIELD_NA;
		} else if (end && end != v && !*end && !strpbrk(v, "eEnNiI")) {
			dot = strchr(v, '.');
			f->kind = dot ? FIELD_NUM : FIELD_INT;
			f->d = d;
			f->i = (long long)d;
			f->decimals = dot ? (int)strlen(dot + 1) : 0;
		} else {
			f->kind = FIELD_STR;
			snprintf(f->s, sizeof f->s, "%s", v);
		}
	}
}

void saved_free(struct saved *s)
{
	int i, j;

	for (i = 0; i < s->nstep; i++) {
		for (j = 0; j < s->step[i].n; j++)
			free(s->step[i].val[j]);
		free(s->step[i].val);
		free(s->step[i].name);
	}
	free(s->step);
	free(s->path);
	memset(s, 0, sizeof *s);
}
