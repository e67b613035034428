/* schema.c - the spec registry, the built-in specs and the values.
 *
 * Built-in specs are written in the spec file language (schema_file.c
 * parses both), so a built-in is also an example a user can copy: `idxlab
 * --schema users --print-config` prints it. */
#include "schema.h"

#include <ctype.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "keys.h"
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
	{ "users", "# the users table of 'one random index costs far more than the next five'\n"
	           "id bigint seq\n"
	           "column email text(24) rand\n"
	           "column created_at timestamp seq\n"
	           "column country text(2) few:50\n"
	           "column status int few:4\n"
	           "index email\nindex created_at\nindex country\nindex status\n"
	           "index country,created_at\nindex status,created_at\n" },
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

int schema_has_hot(const struct schema *s)
{
	return s->hot[0] && s->hot_col <= 0;
}

int schema_has_payload(const struct schema *s, const struct knobs *k)
{
	return !s->no_payload || (k && k->v[K_PAYLOAD] > 0);
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

/* ---- values -------------------------------------------------------------- */

#define TS_BASE_US   1767225600000000LL             /* 2026-01-01 00:00:00 UTC */
#define TS_SPAN_US   (10LL * 365 * 86400 * 1000000) /* rand: the ten years before */
#define VERSION_STEP (1ULL << 40)  /* seq: an update moves a value past every row */
#define DAY_BASE     20454         /* 2026-01-01 in days since 1970-01-01 */
#define NULL_STREAM  0x6e756c6cULL /* "null": the stream NULLs are drawn from */

/* Is row's value of column c at version NULL (c->nulls of the rows)? Drawn
 * from a stream of its own, so the values are those without NULLs. */
static int value_null(const struct column *c, uint64_t seed, int col, uint64_t row,
                      uint64_t version)
{
	uint64_t h;

	if (!(c->nulls > 0))
		return 0;
	h = keys_hash(seed, (NULL_STREAM << 32) + (uint64_t)col * 65599 + version, row);
	return (double)(h >> 11) * 0x1p-53 < c->nulls;
}

static uint64_t pow10u(int n)
{
	uint64_t p = 1;

	while (n-- > 0 && p < 1000000000000000000ULL)
		p *= 10;
	return p;
}

uint64_t schema_numeric_room(const struct column *c)
{
	return pow10u(c->scale && c->prec > c->scale ? c->prec - c->scale : c->prec);
}

#define DESC_TOP (1LL << 62) /* desc: row 0's bigint; the rows go down from it */

/* The number behind a value of the seq family, before an update's step:
 * floor(m / per), m the row, or for a late row (a share c->late of them,
 * drawn from the row's hash) a row 1..SCHEMA_LATE_BACK before it. It never
 * falls but at a late row, and a value holds about per rows. */
static uint64_t seq_number(const struct column *c, enum col_order ord, uint64_t seed, int col,
                           uint64_t row, uint64_t version)
{
	uint64_t m = row;

	if (ord == ORD_LATE) {
		uint64_t h = keys_col_hash(seed, col, row, version);

		if ((double)(h >> 11) * 0x1p-53 < c->late) {
			uint64_t back = 1 + keys_hash(seed, (uint64_t)col * 1000003ULL + 2, row) %
			                        SCHEMA_LATE_BACK;

			m = row > back ? row - back : 0;
		}
	}
	return c->per > 1 ? (uint64_t)floor((double)m / c->per) : m;
}

/* Rank 0..n-1 of a Zipf-like draw with exponent s: the continuous inverse
 * CDF of 1/r^s over 1..n (rank 0 the hottest). */
static uint64_t zipf_rank(uint64_t h, uint64_t n, double s)
{
	double u = (double)(h >> 11) * 0x1p-53, r;

	if (fabs(s - 1) < 1e-9)
		r = pow((double)n, u);
	else
		r = pow((pow((double)n, 1 - s) - 1) * u + 1, 1 / (1 - s));
	return r < 1 ? 0 : (uint64_t)r - 1 >= n ? n - 1 : (uint64_t)r - 1;
}

/* x in len digits (the lowest ones when it needs more): decimal, or base
 * 26 written as letters (aa, ab, ...). */
static void text_of_number(uint64_t x, int letters, struct value *v, int len)
{
	uint64_t base = letters ? 26 : 10;
	int i;

	for (i = len - 1; i >= 0; i--) {
		v->b[i] = (unsigned char)((letters ? 'a' : '0') + x % base);
		x /= base;
	}
	v->len = (size_t)len;
}

static void uuid_text(const unsigned char u[KEYS_UUID_LEN], struct value *v)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, o = 0;

	for (i = 0; i < KEYS_UUID_LEN; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			v->b[o++] = '-';
		v->b[o++] = (unsigned char)hex[u[i] >> 4];
		v->b[o++] = (unsigned char)hex[u[i] & 15];
	}
	v->len = o;
}

void schema_time_text(struct value *v)
{
	int64_t secs = v->type == COL_DATE ? v->i * 86400 : v->i / 1000000 - (v->i % 1000000 < 0);
	time_t t = (time_t)secs;
	struct tm tm;
	int n;

	if (v->null || !gmtime_r(&t, &tm)) {
		v->len = 0;
		return;
	}
	n = v->type == COL_DATE
	        ? snprintf((char *)v->b, sizeof v->b, "%04d-%02d-%02d", tm.tm_year + 1900,
	                   tm.tm_mon + 1, tm.tm_mday)
	        : snprintf((char *)v->b, sizeof v->b, "%04d-%02d-%02d %02d:%02d:%02d",
	                   tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
	                   tm.tm_sec);
	v->len = n > 0 ? (size_t)n : 0;
}

void schema_value(const struct schema *s, const struct knobs *k, int col, uint64_t row,
                  uint64_t version, struct value *v)
{
	const struct column *c = &s->cols[col];
	uint64_t seed = (uint64_t)k->v[K_SEED], n, h, x;
	enum col_order ord = schema_order(s, k, col, &n);
	int i, seqish;

	v->type = schema_type(s, k, col);
	v->null = 0;
	v->scale = c->type == COL_NUMERIC ? c->scale : 0;
	if (col == 0)
		version = 0;
	else if (value_null(c, seed, col, row, version)) {
		v->null = 1;
		v->i = 0;
		v->len = 0;
		return;
	}
	if (v->type == COL_UUID || ord == ORD_UUID7 || ord == ORD_UUID4) {
		unsigned char u[KEYS_UUID_LEN];

		if (ord == ORD_FEW || ord == ORD_ZIPF) /* one of n uuids */
			keys_uuid(seed, 0, col,
			          ord == ORD_FEW
			              ? keys_col_hash(seed, col, row, version) % n
			              : zipf_rank(keys_col_hash(seed, col, row, version), n, c->s),
			          0, u);
		else if (ord == ORD_SEQ || ord == ORD_LATE) /* uuid7 of the value's number */
			keys_uuid(seed, 1, col, seq_number(c, ord, seed, col, row, version),
			          version, u);
		else
			keys_uuid(seed, ord == ORD_UUID7, col, row, version, u);
		if (v->type == COL_UUID) {
			memcpy(v->b, u, KEYS_UUID_LEN);
			v->len = KEYS_UUID_LEN;
		} else {
			uuid_text(u, v);
		}
		return;
	}
	if (col == 0 && ord == ORD_SEQ) {
		v->i = (int64_t)row + 1;
		return;
	}
	if (col == 0 && ord == ORD_DESC && v->type == COL_BIGINT) {
		v->i = DESC_TOP - (int64_t)row;
		return;
	}
	seqish = ord == ORD_SEQ || ord == ORD_DESC || ord == ORD_LATE;
	h = seqish ? 0 : keys_col_hash(seed, col, row, version);
	switch (ord) {
	case ORD_SEQ:
	case ORD_DESC:
	case ORD_LATE:
		x = seq_number(c, ord, seed, col, row, version) + version * VERSION_STEP;
		break;
	case ORD_FEW:
		x = h % n;
		break;
	case ORD_ZIPF:
		x = zipf_rank(h, n, c->s);
		break;
	default: /* ORD_RAND */
		x = h >> 1;
		break;
	}
	switch (v->type) {
	case COL_INT:
		v->i = ord == ORD_RAND   ? (int64_t)(h >> 33)
		       : ord == ORD_DESC ? 0x7fffffff - (int64_t)(x & 0x7fffffff)
		                         : (int64_t)(x & 0x7fffffff);
		return;
	case COL_BIGINT:
		v->i = ord == ORD_DESC ? DESC_TOP - (int64_t)x : (int64_t)x;
		return;
	case COL_NUMERIC: /* within its precision: seq wraps, rand is uniform */
		if ((ord == ORD_FEW || ord == ORD_ZIPF) && c->scale && c->prec > c->scale)
			/* a price list: 0.99, 1.99, ... (not a whole number, as
			 * a user's few values seldom are) */
			x = x * pow10u(c->scale) + pow10u(c->scale) - 1;
		v->i = (int64_t)((ord == ORD_RAND ? h >> 1 : x) % pow10u(c->prec));
		return;
	case COL_BOOL:
		v->i = (int64_t)((ord == ORD_RAND ? h >> 7 : x) & 1);
		return;
	case COL_DATE:
		v->i = ord == ORD_RAND
		           ? DAY_BASE - (int64_t)(h % 3650)     /* the ten years before */
		           : DAY_BASE + (int64_t)(x % 1000000); /* a day a row, or rank */
		return;
	case COL_TIMESTAMPTZ:
	case COL_TIMESTAMP:
		v->i = ord == ORD_DESC   ? TS_BASE_US - (int64_t)x * 1000
		       : seqish          ? TS_BASE_US + (int64_t)x * 1000
		       : ord == ORD_RAND ? TS_BASE_US - (int64_t)(h % (uint64_t)TS_SPAN_US)
		                         : TS_BASE_US + (int64_t)x * 86400000000LL;
		return;
	case COL_TEXT:
		if (seqish) {
			text_of_number(x, 0, v, c->len);
			for (i = 0; ord == ORD_DESC && i < c->len; i++) /* 99..9 - x */
				v->b[i] = (unsigned char)('9' - (v->b[i] - '0'));
		} else if (ord == ORD_RAND) {
			for (i = 0; i < c->len; i++) {
				if (i % 15 == 0 && i)
					h = keys_hash(seed, (uint64_t)col * 1000003ULL + 1, h);
				v->b[i] =
				    (unsigned char)"0123456789abcdef"[(h >> (4 * (i % 15))) & 15];
			}
			v->len = (size_t)c->len;
		} else {
			text_of_number(x, 1, v, c->len);
		}
		return;
	default:
		return;
	}
}

void schema_pick_hot(struct schema *s)
{
	int c, i, j, covered;

	s->hot[0] = 0;
	s->hot_col = 0;
	for (c = s->ncols - 1; c >= 1 && !s->hot_col; c--) {
		for (covered = 0, i = 0; i < s->nindexes && !covered; i++)
			for (j = 0; j < s->idx[i].ncols && j < SCHEMA_IDX_COLS; j++)
				covered |= s->idx[i].cols[j] == c;
		if (!covered) {
			s->hot_col = c;
			snprintf(s->hot, sizeof s->hot, "%s", s->cols[c].name);
		}
	}
}
