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
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

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
	if (n < len) {
		char raw[1024];

		/* names from the source are one line of text, whatever they hold */
		vsnprintf(raw, sizeof raw, fmt, ap);
		err_escape(raw, notes + n, len - n);
	}
	va_end(ap);
}

/* A catalog name as a spec name: lower case, a-z 0-9 _, unlike the names
 * idxlab's table has of its own. */
static void spec_name(const char *name, char *out, size_t len, const struct schema *s)
{
	char base[SCHEMA_NAME_MAX];
	size_t i;
	int clash, k;

	/* room for a "_N" after it: at most SHAPE_COLS_MAX names can clash */
	schema_name_from(name, "c_", base, len < SCHEMA_NAME_MAX - 4 ? len : SCHEMA_NAME_MAX - 4);
	snprintf(out, len, "%s", base);
	for (k = 1; k <= SHAPE_COLS_MAX + 2; k++) {
		clash = strcmp(out, "id") == 0 || strcmp(out, "payload") == 0 ||
		        strcmp(out, s->hot) == 0;
		for (i = 0; !clash && i < (size_t)s->ncols; i++)
			clash = strcmp(out, s->cols[i].name) == 0;
		if (!clash)
			break;
		if ((size_t)snprintf(out, len, "%s_%d", base, k) >= len)
			break; /* cannot happen (base leaves room); schema_check refuses it */
	}
}

static void derive_id(const struct table_shape *t, int ncols, struct schema *s, int *id_col)
{
	int i, npk = 0;

	*id_col = -1;
	for (i = 0; i < ncols; i++)
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
		char why[256], as_id[32];

		schema_from_order(c, t->rows, &col, why, sizeof why);
		if (col.order == ORD_FEW || col.order == ORD_ZIPF)
			col.order = ORD_RAND;
		/* no statistics: a counter */
		if (c->ndistinct < 0 && c->type != COL_UUID && !c->sampled && !c->counter)
			col.order = ORD_SEQ;
		if (col.order == ORD_LATE) /* an id is one value per row */
			col.order = ORD_SEQ;
		col.per = 0;
		col.late = 0;
		s->cols[0].type =
		    c->type == COL_INT || c->type == COL_TIMESTAMP ? COL_BIGINT : c->type;
		s->cols[0].len = c->len;
		s->cols[0].order =
		    s->cols[0].type == COL_BIGINT && col.order != ORD_SEQ && col.order != ORD_DESC
		        ? ORD_RAND
		        : col.order;
		if (s->cols[0].type == COL_UUID && s->cols[0].order == ORD_SEQ)
			s->cols[0].order = ORD_UUID7;
		if (s->cols[0].type == COL_UUID &&
		    (s->cols[0].order == ORD_RAND || s->cols[0].order == ORD_DESC))
			s->cols[0].order = ORD_UUID4;
		schema_order_text(&s->cols[0], as_id, sizeof as_id);
		shape_note(s->notes, sizeof s->notes, "id (%s): %s%s%s", c->name, why,
		           strcmp(strrchr(why, '>') + 2, as_id) ? ", as an id " : "",
		           strcmp(strrchr(why, '>') + 2, as_id) ? as_id : "");
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

/* What did not fit, by name: "a, b, c" and then "and N more". */
struct left_out {
	char names[320];
	int n, more;
};

static void leave_out(struct left_out *l, const char *name)
{
	size_t have = strlen(l->names), need = strlen(name) + (have ? 2 : 0);

	l->n++;
	if (have + need + 1 < sizeof l->names)
		snprintf(l->names + have, sizeof l->names - have, "%s%s", have ? ", " : "", name);
	else
		l->more++;
}

static void note_left_out(char *notes, size_t len, const struct left_out *l, const char *one,
                          const char *many, const char *why)
{
	char more[32] = "";

	if (!l->n)
		return;
	if (l->more)
		snprintf(more, sizeof more, " and %d more", l->more);
	shape_note(notes, len, "%s %s%s %s left out (%s)", l->n == 1 ? one : many, l->names, more,
	           l->n == 1 ? "is" : "are", why);
}

/* An index name no other index of s has: o's own, else idxlab_iN. */
static void unique_index_name(const struct schema *s, struct index_spec *o)
{
	int j, k = s->nindexes + 1;

	for (j = 0; j < s->nindexes; j++)
		if (strcmp(s->idx[j].name, o->name) == 0) {
			snprintf(o->name, sizeof o->name, "idxlab_i%d", k++);
			j = -1; /* again, against every one */
		}
}

/* The text primary key as a value column, with a unique index that is the
 * first of the list. */
static void key_column(const struct shape_col *c, struct schema *s)
{
	struct column *out = &s->cols[s->ncols];
	struct index_spec *x = &s->idx[0];

	memset(out, 0, sizeof *out);
	spec_name(c->name, out->name, sizeof out->name, s);
	out->type = COL_TEXT;
	out->len = c->len < 14 ? 14 : c->len > SCHEMA_TEXT_MAX ? SCHEMA_TEXT_MAX : c->len;
	out->order = ORD_RAND;
	memset(x, 0, sizeof *x);
	x->ncols = 1;
	x->cols[0] = s->ncols;
	x->unique = 1;
	if ((size_t)snprintf(x->name, sizeof x->name, "idxlab_%s_key", out->name) >= sizeof x->name)
		snprintf(x->name, sizeof x->name, "idxlab_i1");
	s->nindexes = 1;
	s->ncols++;
}

void schema_from_derive(const struct table_shape *t, const char *table, struct schema *s)
{
	int map[SHAPE_COLS_MAX], id_col, key_col = -1, ncols, nidx, i, j;
	struct left_out cols_out = { .n = 0 }, idx_out = { .n = 0 };
	char why[256], orders[sizeof s->notes] = ""; /* noted after what was left out */

	/* What a reader filled is trusted no further than the arrays hold. */
	ncols = t->ncols < 0 ? 0 : t->ncols > SHAPE_COLS_MAX ? SHAPE_COLS_MAX : t->ncols;
	nidx = t->nindexes < 0 ? 0 : t->nindexes > SHAPE_IDX_MAX ? SHAPE_IDX_MAX : t->nindexes;
	memset(s, 0, sizeof *s);
	for (i = 0; i < SHAPE_COLS_MAX; i++)
		map[i] = -1; /* a column left out */
	snprintf(s->hot, sizeof s->hot, "hot");
	snprintf(s->cols[0].name, sizeof s->cols[0].name, "id");
	s->ncols = 1;
	schema_name_from(table, "t_", s->name, sizeof s->name);
	derive_id(t, ncols, s, &id_col);
	if (id_col <= -2) {
		key_col = -2 - id_col;
		id_col = -1;
	}
	for (i = 0; i < ncols; i++) {
		const struct shape_col *c = &t->cols[i];
		struct column *out = &s->cols[s->ncols];

		if (i == id_col) {
			map[i] = 0;
			continue;
		}
		/* A text key still to come keeps its slot. */
		if (s->ncols >= SCHEMA_COLS_MAX - (key_col > i)) {
			leave_out(&cols_out, c->name);
			continue;
		}
		map[i] = s->ncols;
		if (i == key_col) {
			key_column(c, s);
			continue;
		}
		memset(out, 0, sizeof *out);
		spec_name(c->name, out->name, sizeof out->name, s);
		out->type = c->type >= 0 && c->type < COL_TYPE_COUNT ? c->type : COL_TEXT;
		out->len = out->type == COL_TEXT   ? (c->len < 1                 ? 1
		                                      : c->len > SCHEMA_TEXT_MAX ? SCHEMA_TEXT_MAX
		                                                                 : c->len)
		           : out->type == COL_UUID ? 16
		                                   : 0;
		schema_from_order(c, t->rows, out, why, sizeof why);
		shape_note(orders, sizeof orders, "%s: %s", c->name, why);
		if (out->type == COL_TEXT && (out->order == ORD_FEW || out->order == ORD_ZIPF)) {
			uint64_t room = 1;

			for (j = 0; j < out->len && room < out->n; j++)
				room *= 26;
			if (room < out->n)
				out->len = j + 1 > SCHEMA_TEXT_MAX ? SCHEMA_TEXT_MAX : j + 1;
		}
		s->ncols++;
	}
	snprintf(why, sizeof why, "a spec holds %d columns besides its id", SCHEMA_COLS_MAX - 1);
	note_left_out(s->notes, sizeof s->notes, &cols_out, "column", "columns", why);
	for (i = 0; i < nidx; i++) {
		const struct shape_index *x = &t->idx[i];
		struct index_spec *o = &s->idx[s->nindexes];
		const char *skip = x->skip;

		if (!skip && (x->ncols < 1 || x->ncols > SCHEMA_IDX_COLS))
			skip = x->ncols < 1 ? "no column" : "more than 8 columns";
		for (j = 0; !skip && j < x->ncols; j++)
			if (x->cols[j] < 0 || x->cols[j] >= ncols || map[x->cols[j]] <= 0)
				skip = "it covers a column left out";
		if (skip) {
			shape_note(s->notes, sizeof s->notes, "index %s left out: %s", x->name,
			           skip);
			continue;
		}
		if (s->nindexes == SCHEMA_IDX_MAX) {
			leave_out(&idx_out, x->name);
			continue;
		}
		memset(o, 0, sizeof *o);
		for (j = 0; j < x->ncols; j++)
			o->cols[o->ncols++] = map[x->cols[j]];
		index_name(s, o);
		unique_index_name(s, o);
		o->unique = x->unique;
		s->nindexes++;
	}
	snprintf(why, sizeof why, "a spec holds %d indexes", SCHEMA_IDX_MAX);
	note_left_out(s->notes, sizeof s->notes, &idx_out, "index", "indexes", why);
	shape_note(s->notes, sizeof s->notes, "value orders from %s over %.0f rows",
	           t->stats_from[0] ? t->stats_from : "nothing", t->rows);
	if (t->notes[0])
		shape_note(s->notes, sizeof s->notes, "%s", t->notes);
	if (orders[0])
		shape_note(s->notes, sizeof s->notes, "%s", orders);
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
	if (schema_text_ok(text, e) < 0 || schema_text_ok(shown, e) < 0)
		return -1;
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
	if (!reader && !strchr(source, '=') && !strstr(source, "://")) {
		struct stat st;
		char path[600];

		redact_dsn(source, path, sizeof path);
		if (stat(source, &st) < 0)
			return err_set(e, ERR_USAGE,
			               "%s: %s (SOURCE is an existing SQLite file, or a PostgreSQL "
			               "conninfo 'host=... dbname=...' or postgresql:// URI)",
			               path, errno == ENOENT ? "no such file" : strerror(errno));
		if (access(source, R_OK) < 0)
			return err_set(e, ERR_USAGE, "%s: cannot read it: %s", path,
			               strerror(errno));
	}
	if (!reader)
		return err_set(e, ERR_USAGE,
		               "'%s': no engine reads this source (an existing SQLite file, or a "
		               "PostgreSQL conninfo 'host=... dbname=...' or postgresql:// URI)",
		               shown);
	memset(&t, 0, sizeof t);
	if (reader->read_shape(source, colon + 1, &t, e) < 0)
		return err_prefix(e, "%s", shown);
	schema_from_derive(&t, colon + 1, &s);
	snprintf(s.source, sizeof s.source, "%.*s", (int)sizeof s.source - 1, shown);
	return schema_register(&s, out, e);
}
