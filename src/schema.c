/* schema.c - the spec registry, the built-in specs and the values.
 *
 * Built-in specs are written in the spec file language (schema_file.c
 * parses both), so a built-in is also an example a user can copy: `idxlab
 * --schema users --print-config` prints it. */
#include "schema.h"

#include <ctype.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conf_line.h"
#include "schema_from.h"
#include "schema_int.h"

/* ---- the built-in specs -------------------------------------------------- */

static const struct {
	const char *name, *text;
} builtins[] = {
	{ "default", "# idxlab's own table: k1..k8 follow the key-order knob, index i on ki\n"
	             "id knob\n"
	             "column k1 bigint knob\ncolumn k2 bigint knob\ncolumn k3 bigint knob\n"
	             "column k4 bigint knob\ncolumn k5 bigint knob\ncolumn k6 bigint knob\n"
	             "column k7 bigint knob\ncolumn k8 bigint knob\n"
	             "index k1\nindex k2\nindex k3\nindex k4\n"
	             "index k5\nindex k6\nindex k7\nindex k8\n" },
	{ "users", "# the users table of 'one random index costs far more than the next five':\n"
	           "# the article's row (67 B on SQLite): created_at a text timestamp there,\n"
	           "# country a skewed two-letter code, status one of four words\n"
	           "id bigint seq\n"
	           "column email text(26) rand\n"
	           "column created_at timestamptz seq\n"
	           "column country text(2) zipf:1:50\n"
	           "column status text(6) few:4\n"
	           "index email\nindex created_at\nindex country\nindex status\n"
	           "index country,created_at\nindex status,created_at\n"
	           "# the reads those indexes are for (country alone and status alone are\n"
	           "# the composites' prefixes: what they serve, the composites serve too)\n"
	           "query by_email: email = ?\n"
	           "query recent: created_at > ? order by created_at desc limit 10\n"
	           "query recent_by_country: country = ? and created_at > ? "
	           "order by created_at desc limit 10\n"
	           "query recent_by_status: status = ? and created_at > ? "
	           "order by created_at desc limit 10\n" },
	{ "textkey", "# t(id INTEGER PRIMARY KEY, k TEXT): random 16-character keys\n"
	             "id bigint seq\n"
	             "column k text(16) rand\n"
	             "index k\n" },
	{ "wal", "# PostgreSQL's WAL table: k1..k8 int random in a million values\n"
	         "id bigint seq\n"
	         "column k1 int few:1000000\ncolumn k2 int few:1000000\n"
	         "column k3 int few:1000000\ncolumn k4 int few:1000000\n"
	         "column k5 int few:1000000\ncolumn k6 int few:1000000\n"
	         "column k7 int few:1000000\ncolumn k8 int few:1000000\n"
	         "hot hot_col\n"
	         "index k1\nindex k2\nindex k3\nindex k4\n"
	         "index k5\nindex k6\nindex k7\nindex k8\n" },
	{ "fields", "# MongoDB vs PostgreSQL: id, counter, field1..field5 random int64\n"
	            "id bigint seq\n"
	            "column field1 bigint rand\ncolumn field2 bigint rand\n"
	            "column field3 bigint rand\ncolumn field4 bigint rand\n"
	            "column field5 bigint rand\n"
	            "hot counter\n"
	            "index field1\nindex field2\nindex field3\nindex field4\nindex field5\n" },
	{ "wide16", "# pgsql-hackers 2000: 16 columns, indexes on the first four\n"
	            "id bigint seq\n"
	            "column c1 int rand\ncolumn c2 int rand\ncolumn c3 int rand\n"
	            "column c4 int rand\ncolumn c5 int rand\ncolumn c6 int rand\n"
	            "column c7 int rand\ncolumn c8 int rand\ncolumn c9 int rand\n"
	            "column c10 int rand\ncolumn c11 int rand\ncolumn c12 int rand\n"
	            "column c13 int rand\ncolumn c14 int rand\n"
	            "index c1\nindex c2\nindex c3\nindex c4\n" },
	{ "events", "# event(id, data): the id follows the pk knob; index 1 is a unique\n"
	            "# uuid4 column of a rowid table\n"
	            "id knob\n"
	            "column uid uuid uuid4\n"
	            "index uid unique\n" },
};

#define NBUILTIN ((int)(sizeof builtins / sizeof builtins[0]))

const char *const schema_builtin_names[] = { "default", "users",  "textkey", "wal",
	                                     "fields",  "wide16", "events",  NULL };

/* ---- the registry -------------------------------------------------------- */

#define REGISTRY_MAX 64

static struct schema *registry[REGISTRY_MAX];
static atomic_int registered;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static int add(struct schema *s, long long *out, struct err *e)
{
	int n = atomic_load(&registered);

	if (n == REGISTRY_MAX) {
		free(s);
		return err_set(e, ERR_USAGE, "more than %d table specs in one run", REGISTRY_MAX);
	}
	if (schema_check(s, e) < 0) { /* no DDL from a name the spec rules did not admit */
		err_prefix(e, "table spec %s (a bug in idxlab, please report it)", s->name);
		free(s);
		return -1;
	}
	registry[n] = s;
	atomic_store(&registered, n + 1); /* publish after the entry is whole */
	*out = n;
	return 0;
}

int schema_text_ok(const char *text, struct err *e)
{
	const char *c;

	for (c = text; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			return err_set(e, ERR_USAGE,
			               "'%s' holds a control character (byte %d): a table spec is "
			               "named by one line of text",
			               text, (int)(c - text) + 1);
	/* as a config file reads a value: a comma separates a sweep's values,
	 * '#' after a space starts a comment, spaces at either end are cut */
	if (strchr(text, ',') || strstr(text, " #") || strstr(text, "\t#") ||
	    isspace((unsigned char)text[0]) ||
	    (*text && isspace((unsigned char)text[strlen(text) - 1])))
		return err_set(e, ERR_USAGE,
		               "'%s': a table spec is named by text a config file reads back "
		               "as it is: no ',' (it separates a sweep's values), no '#' after "
		               "a space, no space at either end",
		               text);
	if (strlen(text) >= sizeof registry[0]->source)
		return err_set(e, ERR_USAGE, "'%.40s...': longer than %zu bytes", text,
		               sizeof registry[0]->source - 1);
	return 0;
}

/* The built-ins take the first indexes, in their order: "default" is 0. */
static int load_builtins(struct err *e)
{
	long long idx;
	int i;

	if (atomic_load(&registered))
		return 0;
	for (i = 0; i < NBUILTIN; i++) {
		struct schema *s = calloc(1, sizeof *s);

		if (!s)
			abort();
		if (schema_parse_text(builtins[i].text, builtins[i].name, s, e) < 0) {
			free(s);
			return err_prefix(e, "built-in spec %s (a bug in idxlab)",
			                  builtins[i].name);
		}
		snprintf(s->name, sizeof s->name, "%s", builtins[i].name);
		snprintf(s->source, sizeof s->source, "built-in");
		if (add(s, &idx, e) < 0)
			return -1;
	}
	return 0;
}

const struct schema *schema_get(long long i)
{
	if (i < 0 || i >= atomic_load(&registered)) {
		struct err e;

		pthread_mutex_lock(&lock);
		(void)load_builtins(&e);
		pthread_mutex_unlock(&lock);
	}
	return i >= 0 && i < atomic_load(&registered) ? registry[i] : NULL;
}

const struct schema *schema_of(const struct knobs *k)
{
	const struct schema *s = k ? schema_get(k->v[K_SCHEMA]) : NULL;

	return s ? s : schema_get(0);
}

static const char *nth_builtin(int i, const void *ctx)
{
	(void)ctx;
	return i < NBUILTIN ? builtins[i].name : NULL;
}

int schema_load(const char *text, long long *out, struct err *e)
{
	struct schema *s;
	int i, rc = 0;

	if (schema_text_ok(text, e) < 0)
		return -1;
	pthread_mutex_lock(&lock);
	if (load_builtins(e) < 0) {
		pthread_mutex_unlock(&lock);
		return -1;
	}
	for (i = 0; i < atomic_load(&registered); i++) {
		int builtin = i < NBUILTIN;

		if (registry[i]->extends) /* a table with candidates: named as its own */
			continue;
		if (strcmp(builtin ? registry[i]->name : registry[i]->source, text) == 0) {
			*out = i;
			pthread_mutex_unlock(&lock);
			return 0;
		}
	}
	if (strchr(text, ':') && access(text, F_OK) != 0) {
		/* SOURCE:TABLE - a user's table (--schema-from) */
		pthread_mutex_unlock(&lock);
		return schema_from_load(text, out, e);
	}
	if (!strchr(text, '/') && !strchr(text, '.')) {
		const char *hint = config_closest(text, nth_builtin, NULL);

		pthread_mutex_unlock(&lock);
		if (hint)
			return err_set(e, ERR_USAGE,
			               "no built-in table spec '%s' (did you mean '%s'?); a spec "
			               "file is named by its path (./%s)",
			               text, hint, text);
		return err_set(e, ERR_USAGE,
		               "no built-in table spec '%s' (built in: default, users, textkey, "
		               "wal, fields, wide16, events); a spec file is named by its path "
		               "(./%s)",
		               text, text);
	}
	s = calloc(1, sizeof *s);
	if (!s)
		abort();
	if (schema_parse_file(text, s, e) < 0) {
		free(s);
		rc = -1;
	} else {
		snprintf(s->source, sizeof s->source, "%s", text);
		rc = add(s, out, e);
	}
	pthread_mutex_unlock(&lock);
	return rc;
}

int schema_register(const struct schema *s, long long *out, struct err *e)
{
	struct schema *copy = malloc(sizeof *copy);
	int rc;

	if (!copy)
		abort();
	*copy = *s;
	pthread_mutex_lock(&lock);
	rc = load_builtins(e) < 0 ? -1 : add(copy, out, e);
	pthread_mutex_unlock(&lock);
	return rc;
}

const char *schema_label(long long v)
{
	const struct schema *s = v >= 0 ? schema_get(v) : NULL;

	if (!s)
		return NULL;
	if (s->extends) /* --add-index/--drop-index (whatif.h) say the rest */
		return schema_label(s->extends - 1);
	return v < NBUILTIN ? s->name : s->source;
}

long long schema_index_max(const struct knobs *k)
{
	return schema_of(k)->nindexes;
}

const char *schema_max_why(const struct knobs *k)
{
	static _Thread_local char buf[128];
	const struct schema *s = schema_of(k);

	int own = s->extends ? s->ntable : s->nindexes;

	snprintf(buf, sizeof buf, "the %s table has %d index%s", s->name, own,
	         own == 1 ? "" : "es");
	if (s->nindexes > own)
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf),
		         " and %d candidate%s (--add-index)", s->nindexes - own,
		         s->nindexes - own == 1 ? "" : "s");
	return buf;
}

const char *schema_indexes_why(const struct knobs *k)
{
	static _Thread_local char buf[1024];
	const struct schema *s = schema_of(k);
	size_t n;
	int i, c, own;

	if (s == schema_get(0))
		return NULL;
	own = s->extends ? s->ntable : s->nindexes;
	n = (size_t)snprintf(buf, sizeof buf,
	                     "secondary indexes, the first N of the %s table's %d:", s->name, own);
	for (i = 0; i < s->nindexes && n < sizeof buf; i++) {
		/* where a part of the list starts: --drop-index's last of the
		 * table's own (indexes without stops before them), then the
		 * candidates (--add-index), the slider's positions past its own */
		if (s->extends && s->ndrop && i == own - s->ndrop)
			n += (size_t)snprintf(buf + n, sizeof buf - n,
			                      "%s --drop-index's, %d on:", i ? ";" : "", i + 1);
		else if (i == own)
			n += (size_t)snprintf(buf + n, sizeof buf - n,
			                      "%s then the candidates (--add-index), %d on:",
			                      i ? ";" : " none;", i + 1);
		else if (i)
			n += (size_t)snprintf(buf + n, sizeof buf - n, ",");
		for (c = 0; c < s->idx[i].ncols && n < sizeof buf; c++)
			n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s%s%s", c ? ", " : " (",
			                      s->idx[i].unique && !c ? "unique " : "",
			                      s->cols[s->idx[i].cols[c]].name,
			                      c == s->idx[i].ncols - 1 ? ")" : "");
	}
	if (n < sizeof buf)
		snprintf(buf + n, sizeof buf - n,
		         "%s; every one is another btree each row must enter",
		         s->nindexes ? "" : " none");
	return buf;
}

/* ---- types and orders under the knobs ------------------------------------ */

enum col_type schema_type(const struct schema *s, const struct knobs *k, int col)
{
	const struct column *c = &s->cols[col];

	if (c->order != ORD_KNOB)
		return c->type;
	if (col == 0)
		return k->v[K_PK] == PK_INT ? COL_BIGINT : COL_UUID;
	return k->v[K_KEY_ORDER] >= KO_UUID7 ? COL_UUID : c->type;
}

enum col_order schema_order(const struct schema *s, const struct knobs *k, int col, uint64_t *n)
{
	static const enum col_order from_key_order[] = {
		[KO_SEQ] = ORD_SEQ,     [KO_RAND] = ORD_RAND,   [KO_FEW] = ORD_FEW,
		[KO_UUID7] = ORD_UUID7, [KO_UUID4] = ORD_UUID4,
	};
	static const enum col_order from_pk[] = {
		[PK_INT] = ORD_SEQ,
		[PK_UUID7] = ORD_UUID7,
		[PK_UUID4] = ORD_UUID4,
	};
	const struct column *c = &s->cols[col];

	*n = c->n;
	if (c->order != ORD_KNOB)
		return c->order;
	if (col == 0)
		return from_pk[k->v[K_PK]];
	*n = SCHEMA_FEW_KNOB;
	return from_key_order[k->v[K_KEY_ORDER]];
}

int schema_fast_keys(const struct schema *s, const struct knobs *k, struct schema_fast *f)
{
	*f = (struct schema_fast){ .seed = (uint64_t)k->v[K_SEED],
		                   .order = (enum key_order)k->v[K_KEY_ORDER],
		                   .uuid = k->v[K_KEY_ORDER] >= KO_UUID7 }; /* as schema_type */
	(void)s;
	return k->v[K_SCHEMA] == 0;
}

int schema_has_hot(const struct schema *s)
{
	return s->hot[0] && s->hot_col <= 0;
}

int schema_has_payload(const struct schema *s, const struct knobs *k)
{
	return !s->no_payload || (k && k->v[K_PAYLOAD] > 0);
}

int schema_id_indexed(const struct schema *s, const struct knobs *k)
{
	return !s->id_unindexed || !k || k->v[K_OP] != OP_INSERT;
}

const char *schema_no_update_why(const struct schema *s)
{
	static _Thread_local char buf[256];

	snprintf(buf, sizeof buf,
	         "op update changes a column no index covers, and every column of the %s "
	         "table is indexed (its spec says hot none): use op update-indexed or "
	         "update-keys, or name a column in a spec file (hot COLUMN)",
	         s->name);
	return buf;
}

int schema_op_cols(const struct schema *s, long long op, int *cols)
{
	int i, n = 0;

	if (op == OP_UPDATE) {
		if (s->hot_col > 0 && s->hot_col < s->ncols)
			cols[n++] = s->hot_col;
		return n;
	}
	if (op == OP_UPDATE_INDEXED) {
		if (s->nindexes)
			cols[n++] = s->idx[0].cols[0];
		return n;
	}
	if (op == OP_INSERT || op == OP_UPDATE_KEYS)
		for (i = 1; i < s->ncols; i++)
			cols[n++] = i;
	return n;
}

void schema_pick_hot(struct schema *s)
{
	int c, i, j, covered;

	s->hot[0] = 0;
	s->hot_col = 0;
	for (c = s->ncols - 1; c >= 1 && !s->hot_col; c--) {
		/* a partition key moves its row (part.c); a generated column
		 * is the engine's to write */
		covered = s->cols[c].gen[0] != 0;
		for (i = 0; i < s->part.nkeys && i < SCHEMA_PART_KEYS && s->part.kind; i++)
			covered |= s->part.cols[i] == c;
		for (i = 0; i < s->nindexes && !covered; i++)
			for (j = 0; j < s->idx[i].ncols && j < SCHEMA_IDX_COLS; j++)
				covered |= s->idx[i].cols[j] == c;
		if (!covered) {
			s->hot_col = c;
			snprintf(s->hot, sizeof s->hot, "%s", s->cols[c].name);
		}
	}
}
