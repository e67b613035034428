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

#include "redact.h"
#include "schema_gen.h"
#include "schema_idx.h"
#include "schema_int.h"
#include "schema_part.h"

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
		if (!npk)
			shape_note(s->notes, sizeof s->notes,
			           "it has no primary key: idxlab's id is a bigint seq (a rowid)");
		*id_col = -1;
		return;
	}
	{
		const struct shape_col *c = &t->cols[*id_col];
		struct column col = { .type = c->type, .len = c->len };

		if (c->type == COL_TEXT && c->len != 36) {
			shape_note(
			    s->notes, sizeof s->notes,
			    "its primary key %s is %s: idxlab's id is a bigint seq, unindexed "
			    "(no index of its own on PostgreSQL under op insert), and %s a "
			    "column with a unique index first in the list",
			    c->name, c->decl, c->name);
			s->id_unindexed = 1;
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

/* An index keeps the source's name, behind idxlab's prefix (idxlab only
 * touches what it created): users_email_key is idxlab_users_email_key. */
static void index_name(const struct schema *s, const char *source, struct index_spec *o)
{
	size_t n = (size_t)snprintf(o->name, sizeof o->name, "idxlab_");

	schema_name_from(strncmp(source, "idxlab_", 7) == 0 ? source + 7 : source, "i_",
	                 o->name + n, sizeof o->name - n);
	if (schema_reserved(o->name))
		snprintf(o->name, sizeof o->name, "idxlab_i%d", s->nindexes + 1);
}

/* A source column by the name an index's SQL gives it: its spec column
 * (> 0), the id (0) or none (-1). */
struct col_lookup {
	const struct table_shape *t;
	const int *map;
	int ncols;
};

static int shape_lookup(const char *name, size_t len, int quoted, void *ctx)
{
	const struct col_lookup *l = ctx;
	int i;

	for (i = 0; i < l->ncols; i++)
		if (strlen(l->t->cols[i].name) == len &&
		    (quoted ? strncmp : strncasecmp)(l->t->cols[i].name, name, len) == 0)
			return l->map[i];
	return -1;
}

/* Index x of the source as o, or why it cannot be (into why). */
static int derive_index(const struct table_shape *t, const struct shape_index *x,
                        const struct col_lookup *l, const struct schema *s, struct index_spec *o,
                        char *why, size_t wlen)
{
	struct err e;
	int j;

	memset(o, 0, sizeof *o);
	if (x->skip) {
		snprintf(why, wlen, "%s", x->skip);
		return -1;
	}
	if (x->keys[0]) {
		if (schema_idx_parse_keys(s, x->keys, shape_lookup, (void *)l, o, &e) < 0) {
			snprintf(why, wlen, "its keys (%.100s): %.250s", x->keys, e.msg);
			return -1;
		}
	} else {
		if (x->ncols < 1 || x->ncols > SCHEMA_IDX_COLS) {
			snprintf(why, wlen, "%s",
			         x->ncols < 1 ? "no column" : "more than 8 columns");
			return -1;
		}
		for (j = 0; j < x->ncols; j++) {
			if (x->cols[j] < 0 || x->cols[j] >= l->ncols || l->map[x->cols[j]] <= 0) {
				snprintf(why, wlen, "it covers a column left out");
				return -1;
			}
			o->cols[o->ncols++] = l->map[x->cols[j]];
		}
	}
	if (x->where[0] &&
	    schema_idx_parse_where(s, x->where, shape_lookup, (void *)l, o, &e) < 0) {
		snprintf(why, wlen, "its WHERE %.100s: %.250s", x->where, e.msg);
		return -1;
	}
	(void)t;
	o->unique = x->unique;
	return 0;
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

/* The column's own row: numeric's precision and scale, its NULL share
 * (to 0.1 %, as the spec writes it), and the notes that change the answer:
 * a type read otherwise than declared, a numeric kept, NULLs. */
static void own_row(const struct shape_col *c, struct column *out, char *notes, size_t len)
{
	double nulls = !(c->nulls > 0) ? 0 : c->nulls > 1 ? 1 : c->nulls;
	char t[32];

	if (out->type == COL_NUMERIC) {
		out->prec =
		    c->prec >= 1 && c->prec <= SCHEMA_NUMERIC_MAX ? c->prec : SCHEMA_NUMERIC_MAX;
		out->scale = c->scale >= 0 && c->scale <= out->prec ? c->scale : 0;
	}
	out->nulls = schema_null_percent(nulls) / 100;
	schema_type_text(out, t, sizeof t);
	if (c->type_note[0])
		shape_note(notes, len, "%s: %s: %s", out->name, c->type_note, t);
	else if (out->type == COL_NUMERIC)
		shape_note(notes, len, "%s: %s kept", out->name, t);
	if (out->nulls >= 0.01)
		shape_note(notes, len, "%s: %g %% NULL", out->name, schema_null_percent(nulls));
}

/* Does a unique index of t (of its nidx) cover column col? */
static int in_unique(const struct table_shape *t, int nidx, int col)
{
	int i, j;

	for (i = 0; i < nidx; i++)
		for (j = 0; t->idx[i].unique && j < t->idx[i].ncols && j < SCHEMA_IDX_COLS; j++)
			if (t->idx[i].cols[j] == col)
				return 1;
	return 0;
}

/* An order the column's type can hold: few:N within a numeric's digits, a
 * bool's two values. */
static void fit_order(struct column *out)
{
	if (out->type == COL_BOOL && (out->order == ORD_FEW || out->order == ORD_ZIPF) &&
	    out->n > 2)
		out->n = 2;
	if (out->type == COL_BOOL && out->order == ORD_ZIPF) {
		out->order = ORD_FEW;
		out->s = 0;
	}
	if (out->type == COL_NUMERIC && (out->order == ORD_FEW || out->order == ORD_ZIPF) &&
	    schema_numeric_room(out) < out->n)
		out->n = schema_numeric_room(out);
}

static void note_hot(struct schema *s)
{
	if (s->hot_col)
		shape_note(s->notes, sizeof s->notes,
		           "its own row: no payload, no hot column (--payload N adds a payload); "
		           "op update changes %s, a column no index covers",
		           s->hot);
	else
		shape_note(s->notes, sizeof s->notes,
		           "its own row: no payload, no hot column (--payload N adds a payload); "
		           "every column is indexed: op update has none to change");
}

/* A primary key of several columns (or one idxlab's id cannot be) is a
 * unique index first in the list, and idxlab's id is `unindexed` (only
 * the row's locator): say what the copy builds against the source. */
static void note_key(const struct table_shape *t, const struct shape_index *x, char *notes,
                     size_t len)
{
	char cols[256] = "";
	size_t n = 0;
	int j;

	for (j = 0; j < x->ncols && j < SCHEMA_IDX_COLS && n < sizeof cols; j++)
		if (x->cols[j] >= 0 && x->cols[j] < t->ncols)
			n += (size_t)snprintf(cols + n, sizeof cols - n, "%s%s", j ? ", " : "",
			                      t->cols[x->cols[j]].name);
	shape_note(notes, len,
	           t->clustered
	               ? "its primary key (%s) keeps its rows in key order there (WITHOUT ROWID): "
	                 "here it is the first index and idxlab's id is unindexed"
	               : "its primary key (%s) is the first index here and idxlab's id is "
	                 "unindexed: it has no index of its own on PostgreSQL (op insert; an op "
	                 "that finds rows by id keeps one), the source's key the table's only "
	                 "key btree, as in the source; on SQLite it is the rowid (no btree); on "
	                 "MongoDB and WiredTiger the row store's key (one btree more per insert "
	                 "than the source pays)",
	           cols);
}

/* The source's generated columns: an expression idxlab's grammar admits
 * is the copy's (schema_gen.h), written back by idxlab; another leaves the
 * column an ordinary one, and the note says why. */
static void derive_generated(const struct table_shape *t, const struct col_lookup *l,
                             struct schema *s)
{
	struct err e;
	int i;

	for (i = 0; i < l->ncols; i++) {
		const struct shape_col *c = &t->cols[i];
		struct column *out;

		if (!c->gen[0])
			continue;
		if (l->map[i] <= 0) {
			if (l->map[i] == 0)
				shape_note(s->notes, sizeof s->notes,
				           "%s is a generated column there: here idxlab's id",
				           c->name);
			continue;
		}
		out = &s->cols[l->map[i]];
		if (schema_gen_parse(s, c->gen, shape_lookup, (void *)l, out->gen, sizeof out->gen,
		                     &e) < 0) {
			out->gen[0] = 0;
			shape_note(s->notes, sizeof s->notes,
			           "%s is a generated column (%s) there: here an ordinary one, its "
			           "values in the order its statistics say (its expression: %s)",
			           c->name, c->gen_stored ? "STORED" : "VIRTUAL", e.msg);
			continue;
		}
		out->gen_stored = c->gen_stored;
		shape_note(
		    s->notes, sizeof s->notes,
		    "%s: generated (%s)%s, computed by SQLite and PostgreSQL (STORED there), "
		    "an ordinary column on WiredTiger and MongoDB",
		    c->name, out->gen, c->gen_stored ? " stored" : "");
	}
}

/* The source's partitioning on the copy's columns (schema_part.h); a key
 * column left out, or a copy PostgreSQL would refuse, is said in a note. */
static void derive_part(const struct table_shape *t, const int *map, int ncols, struct schema *s)
{
	struct part_spec p = t->part;
	char what[SCHEMA_PART_KEYS * SCHEMA_NAME_MAX + 48];
	struct err e;
	int i;

	if (p.kind <= PART_NONE || p.kind >= PART_KIND_COUNT || p.nkeys < 1 ||
	    p.nkeys > SCHEMA_PART_KEYS)
		return;
	for (i = 0; i < p.nkeys; i++) {
		if (p.cols[i] < 0 || p.cols[i] >= ncols || map[p.cols[i]] < 0) {
			shape_note(s->notes, sizeof s->notes,
			           "it is partitioned by %s: not reproduced (its key's column is "
			           "left out), idxlab's copy is one table",
			           schema_part_words[p.kind]);
			return;
		}
		p.cols[i] = map[p.cols[i]];
	}
	s->part = p;
	schema_part_text(s, what, sizeof what);
	if (schema_part_check(s, &e) < 0) {
		s->part.kind = PART_NONE;
		shape_note(
		    s->notes, sizeof s->notes,
		    "it is partitioned (%s): not reproduced (%s), idxlab's copy is one table", what,
		    e.msg);
		return;
	}
	shape_note(s->notes, sizeof s->notes,
	           "%s: built so on PostgreSQL, the bounds covering the values idxlab writes "
	           "(not the source's); one table on the other engines",
	           what);
}

void schema_from_derive(const struct table_shape *t, const char *table, struct schema *s)
{
	int map[SHAPE_COLS_MAX], id_col, key_col = -1, ncols, nidx, i, j, pass;
	struct col_lookup look = { t, map, 0 };
	struct err e;
	struct left_out cols_out = { .n = 0 }, idx_out = { .n = 0 };
	char why[256], orders[sizeof s->notes]; /* noted after what was left out */

	/* What a reader filled is trusted no further than the arrays hold. */
	ncols = t->ncols < 0 ? 0 : t->ncols > SHAPE_COLS_MAX ? SHAPE_COLS_MAX : t->ncols;
	nidx = t->nindexes < 0 ? 0 : t->nindexes > SHAPE_IDX_MAX ? SHAPE_IDX_MAX : t->nindexes;
	memset(s, 0, sizeof *s);
	orders[0] = 0;
	for (i = 0; i < SHAPE_COLS_MAX; i++)
		map[i] = -1; /* a column left out */
	s->hot[0] = 0;       /* no hot column of idxlab's own (schema_pick_hot) */
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
			s->without_rowid = t->clustered;
			continue;
		}
		memset(out, 0, sizeof *out);
		spec_name(c->name, out->name, sizeof out->name, s);
		out->type = c->type >= 0 && c->type < COL_TYPE_COUNT ? c->type : COL_TEXT;
		own_row(c, out, s->notes, sizeof s->notes);
		out->len = out->type == COL_TEXT   ? (c->len < 1                 ? 1
		                                      : c->len > SCHEMA_TEXT_MAX ? SCHEMA_TEXT_MAX
		                                                                 : c->len)
		           : out->type == COL_UUID ? 16
		                                   : 0;
		/* NULLs are no values: one per row means one per row that has one */
		schema_from_order(c, t->rows * (1 - out->nulls), out, why, sizeof why);
		if (out->type == COL_TEXT && (out->order == ORD_FEW || out->order == ORD_ZIPF)) {
			uint64_t room = 1;

			for (j = 0; j < out->len && room < out->n; j++)
				room *= 26;
			if (room < out->n)
				out->len = j + 1 > SCHEMA_TEXT_MAX ? SCHEMA_TEXT_MAX : j + 1;
		}
		fit_order(out);
		schema_from_range(c, out, in_unique(t, nidx, i), why, sizeof why);
		shape_note(orders, sizeof orders, "%s: %s", c->name, why);
		s->ncols++;
	}
	look.ncols = ncols;
	derive_generated(t, &look, s);
	snprintf(why, sizeof why, "a spec holds %d columns besides its id", SCHEMA_COLS_MAX - 1);
	note_left_out(s->notes, sizeof s->notes, &cols_out, "column", "columns", why);
	for (pass = 0; pass < 2; pass++) /* the primary key's index first */
		for (i = 0; i < nidx; i++) {
			const struct shape_index *x = &t->idx[i];
			struct index_spec o; /* into s->idx only when there is room */
			char skip[400];

			if ((x->pk ? 0 : 1) != pass)
				continue;
			if (x->pk && id_col >= 0)
				continue;            /* idxlab's id is that key */
			if (x->pk && key_col >= 0) { /* the text key's index is idx[0] */
				index_name(s, x->name, &s->idx[0]);
				continue;
			}
			if (derive_index(t, x, &look, s, &o, skip, sizeof skip) < 0) {
				shape_note(s->notes, sizeof s->notes, "%s %s left out: %s",
				           x->pk ? "its primary key's index" : "index", x->name,
				           skip);
				continue;
			}
			if (s->nindexes == SCHEMA_IDX_MAX) {
				leave_out(&idx_out, x->name);
				continue;
			}
			index_name(s, x->name, &o);
			unique_index_name(s, &o);
			if (o.unique && schema_unique_ok(s, &o, &e) < 0) {
				o.unique = 0;
				shape_note(s->notes, sizeof s->notes,
				           "index %s is unique there, not here: the values idxlab "
				           "writes in it may repeat (the same btree, without the "
				           "check)",
				           x->name);
			}
			if (x->pk) {
				note_key(t, x, s->notes, sizeof s->notes);
				s->id_unindexed = 1;
				s->without_rowid = t->clustered && s->nindexes == 0;
			}
			s->idx[s->nindexes++] = o;
		}
	snprintf(why, sizeof why, "a spec holds %d indexes", SCHEMA_IDX_MAX);
	note_left_out(s->notes, sizeof s->notes, &idx_out, "index", "indexes", why);
	schema_from_key(s);
	derive_part(t, map, ncols, s);
	s->no_payload = 1;  /* the table's row is the source's */
	schema_pick_hot(s); /* the indexes are known now */
	note_hot(s);
	schema_from_queries(s);
	shape_note(s->notes, sizeof s->notes, "value orders from %s over %.0f rows",
	           t->stats_from[0] ? t->stats_from : "nothing", t->rows);
	shape_notes_add(s->notes, sizeof s->notes, t->notes);
	shape_notes_add(s->notes, sizeof s->notes, orders);
}

static schema_source_reader *reader_fn;

void schema_from_reader(schema_source_reader *fn)
{
	reader_fn = fn;
}

int schema_from_load(const char *text, long long *out, struct err *e)
{
	static struct table_shape t; /* big; derivation runs in the main thread */
	struct schema s;
	char source[512], shown[600];
	const char *colon = strrchr(text, ':');
	int reader;

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
	memset(&t, 0, sizeof t);
	reader = reader_fn ? reader_fn(source, colon + 1, &t, e) : -2;
	if (reader == -1)
		return err_prefix(e, "%s", shown);
	if (reader == -2 && !strchr(source, '=') && !strstr(source, "://")) {
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
	if (reader < 0)
		return err_set(e, ERR_USAGE,
		               "'%s': no engine reads this source (an existing SQLite file, or a "
		               "PostgreSQL conninfo 'host=... dbname=...' or postgresql:// URI)",
		               shown);
	schema_from_derive(&t, colon + 1, &s);
	snprintf(s.source, sizeof s.source, "%.*s", (int)sizeof s.source - 1, shown);
	s.source_rows = t.rows; /* its size and engine are the run's defaults (whatif.h) */
	s.source_engine = reader + 1;
	return schema_register(&s, out, e);
}
