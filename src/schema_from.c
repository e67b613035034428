/* schema_from.c - a spec from the shape of a user's table.
 *
 * The shape (columns, their statistics, indexes) comes from the engine that
 * reads SOURCE; here each column gets the nearest type and a value order:
 *   - nearly one value per row: seq when the values follow the physical
 *     order (correlation > 0.9), else rand (uuid columns: uuid7 / uuid4);
 *   - fewer: few:N, or zipf:S:N when the most common value is far more
 *     common than 1/N (S solved from its share);
 *   - no statistics: rand, and a note says so.
 * Every guess that loses something is a note, printed with the spec. */
#include "schema_from.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "engines/engine.h"
#include "redact.h"

void shape_note(char *notes, size_t len, const char *fmt, ...)
{
	size_t n = strlen(notes);
	va_list ap;

	if (n && n + 2 < len) {
		memcpy(notes + n, "; ", 3);
		n += 2;
	}
	va_start(ap, fmt);
	if (n < len)
		vsnprintf(notes + n, len - n, fmt, ap);
	va_end(ap);
}

/* The share of the most common of n values under zipf exponent s. */
static double zipf_top(double n, double s)
{
	double h = 0;
	long i;

	for (i = 1; i <= (long)n && i <= 100000; i++)
		h += pow((double)i, -s);
	return 1 / h;
}

void schema_from_order(const struct shape_col *c, double rows, struct column *out)
{
	double nd = c->ndistinct;
	int ordered = !isnan(c->correlation) && c->correlation > 0.9;

	out->n = 0;
	out->s = 0;
	if (nd < 0 || rows <= 0 || nd >= 0.9 * rows) {
		if (out->type == COL_UUID ||
		    (out->type == COL_TEXT && out->len == 36 && strstr(c->decl, "uuid")))
			out->order = ordered ? ORD_UUID7 : ORD_UUID4;
		else
			out->order = ordered ? ORD_SEQ : ORD_RAND;
		return;
	}
	out->n = nd < 1 ? 1 : (uint64_t)llround(nd);
	out->order = ORD_FEW;
	/* Skewed: the top value holds 3 times its fair share or more. */
	if (!isnan(c->top_freq) && out->n > 2 && c->top_freq * (double)out->n > 3) {
		double lo = 0.05, hi = 10;
		int i;

		for (i = 0; i < 50; i++) { /* zipf_top grows with s */
			double mid = (lo + hi) / 2;

			if (zipf_top((double)out->n, mid) < c->top_freq)
				lo = mid;
			else
				hi = mid;
		}
		out->order = ORD_ZIPF;
		out->s = round(lo * 100) / 100;
	}
}

/* A catalog name as a spec name: lower case, a-z 0-9 _, unlike the names
 * idxlab's table has of its own. */
static void spec_name(const char *name, char *out, size_t len, const struct schema *s, char *notes,
                      size_t nlen)
{
	size_t i, o = 0;
	int clash, k;

	if (!isalpha((unsigned char)name[0]) && name[0] != '_')
		o = (size_t)snprintf(out, len, "c_");
	for (i = 0; name[i] && o + 1 < len && o < SCHEMA_NAME_MAX - 4; i++) {
		unsigned char ch = (unsigned char)tolower((unsigned char)name[i]);

		out[o++] = (char)(isalnum(ch) || ch == '_' ? ch : '_');
	}
	out[o] = 0;
	for (k = 1;; k++) {
		clash = strcmp(out, "id") == 0 || strcmp(out, "payload") == 0 ||
		        strcmp(out, s->hot) == 0;
		for (i = 0; !clash && i < (size_t)s->ncols; i++)
			clash = strcmp(out, s->cols[i].name) == 0;
		if (!clash)
			break;
		snprintf(out + o, len - o, "_%d", k);
	}
	if (strcmp(out, name) != 0)
		shape_note(notes, nlen, "column \"%s\" is %s here", name, out);
}

static void derive_id(const struct table_shape *t, struct schema *s, int *id_col)
{
	int i, npk = 0;

	*id_col = -1;
	for (i = 0; i < t->ncols; i++)
		if (t->cols[i].pk) {
			npk++;
			*id_col = i;
		}
	s->cols[0].type = COL_BIGINT;
	s->cols[0].order = ORD_SEQ;
	if (npk != 1) {
		shape_note(s->notes, sizeof s->notes,
		           npk ? "its primary key has %d columns: idxlab's id is a bigint seq, "
		                 "and the key's columns are columns"
		               : "it has no primary key%.0d: idxlab's id is a bigint seq (a rowid)",
		           npk);
		*id_col = -1;
		return;
	}
	{
		const struct shape_col *c = &t->cols[*id_col];
		struct column col = { .type = c->type, .len = c->len };

		if (c->type == COL_TEXT && c->len != 36) {
			shape_note(s->notes, sizeof s->notes,
			           "its primary key %s is %s: idxlab's id is a bigint seq and %s a "
			           "column with a unique index first in the list",
			           c->name, c->decl, c->name);
			*id_col = -2 - *id_col; /* a column, and a unique index on it */
			return;
		}
		schema_from_order(c, t->rows, &col);
		if (col.order == ORD_FEW || col.order == ORD_ZIPF)
			col.order = ORD_RAND;
		if (c->ndistinct < 0 && c->type != COL_UUID) /* no statistics: a counter */
			col.order = ORD_SEQ;
		s->cols[0].type =
		    c->type == COL_INT || c->type == COL_TIMESTAMP ? COL_BIGINT : c->type;
		s->cols[0].len = c->len;
		s->cols[0].order =
		    s->cols[0].type == COL_BIGINT && col.order != ORD_SEQ ? ORD_RAND : col.order;
		if (s->cols[0].type == COL_UUID && s->cols[0].order == ORD_SEQ)
			s->cols[0].order = ORD_UUID7;
		if (s->cols[0].type == COL_UUID && s->cols[0].order == ORD_RAND)
			s->cols[0].order = ORD_UUID4;
	}
}

/* An index is named after its columns, as a spec file names it. */
static void index_name(const struct schema *s, struct index_spec *o)
{
	char name[SCHEMA_NAME_MAX];
	size_t n = (size_t)snprintf(name, sizeof name, "idxlab");
	int j;

	for (j = 0; j < o->ncols && n < sizeof name; j++)
		n += (size_t)snprintf(name + n, sizeof name - n, "_%s", s->cols[o->cols[j]].name);
	if (n >= sizeof name || schema_reserved(name))
		snprintf(name, sizeof name, "idxlab_i%d", s->nindexes + 1);
	memcpy(o->name, name, sizeof name);
}

/* The shape as a spec: columns in table order (the primary key as id),
 * the indexes in creation order. */
static void derive(const struct table_shape *t, const char *table, struct schema *s)
{
	int map[SHAPE_COLS_MAX], id_col, i, j;

	memset(s, 0, sizeof *s);
	for (i = 0; i < SHAPE_COLS_MAX; i++)
		map[i] = -1; /* a column left out */
	snprintf(s->hot, sizeof s->hot, "hot");
	snprintf(s->cols[0].name, sizeof s->cols[0].name, "id");
	s->ncols = 1;
	spec_name(table, s->name, sizeof s->name, s, s->notes, 0);
	derive_id(t, s, &id_col);
	for (i = 0; i < t->ncols; i++) {
		const struct shape_col *c = &t->cols[i];
		struct column *out = &s->cols[s->ncols];

		map[i] = i == id_col ? 0 : -1;
		if (i == id_col)
			continue;
		if (s->ncols == SCHEMA_COLS_MAX) {
			shape_note(s->notes, sizeof s->notes,
			           "column %s and the ones after it are left "
			           "out (a spec holds %d columns)",
			           c->name, SCHEMA_COLS_MAX - 1);
			break;
		}
		memset(out, 0, sizeof *out);
		spec_name(c->name, out->name, sizeof out->name, s, s->notes, sizeof s->notes);
		out->type = c->type;
		out->len = c->type == COL_TEXT   ? (c->len < 1                 ? 1
		                                    : c->len > SCHEMA_TEXT_MAX ? SCHEMA_TEXT_MAX
		                                                               : c->len)
		           : c->type == COL_UUID ? 16
		                                 : 0;
		schema_from_order(c, t->rows, out);
		if (out->type == COL_TEXT && (out->order == ORD_FEW || out->order == ORD_ZIPF)) {
			uint64_t room = 1;

			for (j = 0; j < out->len && room < out->n; j++)
				room *= 26;
			if (room < out->n)
				out->len = j + 1; /* fits n distinct values */
		}
		if (c->ndistinct < 0)
			shape_note(s->notes, sizeof s->notes, "%s: no statistics, taken as %s",
			           out->name, out->type == COL_UUID ? "uuid4" : "rand");
		map[i] = s->ncols++;
	}
	if (id_col <= -2) { /* a text primary key: a column with a unique index */
		const struct shape_col *c = &t->cols[-2 - id_col];
		struct column *out = &s->cols[s->ncols];

		memset(out, 0, sizeof *out);
		spec_name(c->name, out->name, sizeof out->name, s, s->notes, sizeof s->notes);
		out->type = COL_TEXT;
		out->len = c->len < 14 ? 14 : c->len > SCHEMA_TEXT_MAX ? SCHEMA_TEXT_MAX : c->len;
		out->order = ORD_RAND;
		s->idx[0].ncols = 1;
		s->idx[0].cols[0] = s->ncols;
		s->idx[0].unique = 1;
		snprintf(s->idx[0].name, sizeof s->idx[0].name, "idxlab_%s_key", out->name);
		s->nindexes = 1;
		s->ncols++;
	}
	for (i = 0; i < t->nindexes && s->nindexes < SCHEMA_IDX_MAX; i++) {
		const struct shape_index *x = &t->idx[i];
		struct index_spec *o = &s->idx[s->nindexes];
		int ok = !x->skip;

		memset(o, 0, sizeof *o);
		for (j = 0; ok && j < x->ncols; j++) {
			ok = map[x->cols[j]] > 0;
			o->cols[o->ncols++] = map[x->cols[j]];
		}
		if (!ok) {
			shape_note(s->notes, sizeof s->notes, "index %s left out: %s", x->name,
			           x->skip ? x->skip : "it covers a column left out");
			continue;
		}
		index_name(s, o);
		o->unique = x->unique;
		for (j = 0; j < s->nindexes; j++)
			if (strcmp(s->idx[j].name, o->name) == 0)
				snprintf(o->name, sizeof o->name, "idxlab_i%d", s->nindexes + 1);
		s->nindexes++;
	}
	if (t->nindexes > SCHEMA_IDX_MAX)
		shape_note(s->notes, sizeof s->notes, "only its first %d indexes are kept",
		           SCHEMA_IDX_MAX);
	shape_note(s->notes, sizeof s->notes, "value orders from %s over %.0f rows",
	           t->stats_from[0] ? t->stats_from : "nothing", t->rows);
	if (t->notes[0])
		shape_note(s->notes, sizeof s->notes, "%s", t->notes);
}

int schema_from_load(const char *text, long long *out, struct err *e)
{
	static struct table_shape t; /* big; derivation runs in the main thread */
	struct schema s;
	char source[512], shown[600];
	const char *colon = strrchr(text, ':');
	const struct engine_ops *reader = NULL;
	int i;

	redact_learn(text);
	redact_dsn(text, shown, sizeof shown);
	if (!colon || colon == text || !colon[1] || (size_t)(colon - text) >= sizeof source)
		return err_set(e, ERR_USAGE,
		               "'%s': write SOURCE:TABLE, e.g. ./app.db:users or "
		               "'host=db dbname=app:users'",
		               shown);
	snprintf(source, sizeof source, "%.*s", (int)(colon - text), text);
	for (i = 0; i < E_COUNT && !reader; i++)
		if (engine_table[i] && engine_table[i]->reads_source &&
		    engine_table[i]->reads_source(source))
			reader = engine_table[i];
	if (!reader)
		return err_set(e, ERR_USAGE,
		               "'%s': no engine reads this source (an existing SQLite file, or a "
		               "PostgreSQL conninfo 'host=... dbname=...' or postgresql:// URI)",
		               shown);
	memset(&t, 0, sizeof t);
	if (reader->read_shape(source, colon + 1, &t, e) < 0)
		return err_prefix(e, "%s", shown);
	derive(&t, colon + 1, &s);
	snprintf(s.source, sizeof s.source, "%.*s", (int)sizeof s.source - 1, shown);
	return schema_register(&s, out, e);
}
