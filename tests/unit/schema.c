/* schema.c - the cases of src/schema.c: the table spec's built-ins, the
 * spec language, values. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "keys.h"
#include "knobs.h"
#include "schema.h"
#include "schema_from.h"
#include "unit.h"

static const struct schema *builtin(const char *name)
{
	long long v = -1;
	struct err e;

	if (schema_load(name, &v, &e) < 0)
		printf("  %s: %s\n", name, e.msg);
	return schema_get(v);
}

/* The default spec writes exactly what idxlab always wrote. */
static void default_is_the_old_table(void)
{
	const struct schema *s = builtin("default");
	struct knobs k;
	struct value v;
	int ko, pk, col;
	uint64_t row, ver;

	CHECK(s && s->ncols == 9 && s->nindexes == 8);
	if (!s)
		return;
	CHECK(strcmp(s->idx[0].name, "idxlab_k1") == 0 && strcmp(s->idx[7].name, "idxlab_k8") == 0);
	CHECK(strcmp(s->hot, "hot") == 0);
	knobs_defaults(&k);
	CHECK(schema_of(&k) == s);
	k.v[K_SEED] = 7;
	for (ko = KO_SEQ; ko <= KO_UUID4; ko++) {
		k.v[K_KEY_ORDER] = ko;
		for (col = 1; col <= 8; col++)
			for (row = 0; row < 300; row += 37)
				for (ver = 0; ver < 3; ver++) {
					schema_value(s, &k, col, row, ver, &v);
					if (ko >= KO_UUID7) {
						unsigned char u[KEYS_UUID_LEN];

						keys_uuid(7, ko == KO_UUID7, col, row, ver, u);
						CHECK(v.type == COL_UUID && v.len == 16 &&
						      memcmp(v.b, u, 16) == 0);
					} else {
						CHECK(v.type == COL_BIGINT &&
						      v.i == keys_int(7, (enum key_order)ko, col,
						                      row, ver));
					}
				}
	}
	for (pk = PK_INT; pk <= PK_UUID4; pk++) {
		k.v[K_PK] = pk;
		schema_value(s, &k, 0, 41, 0, &v);
		if (pk == PK_INT) {
			CHECK(v.type == COL_BIGINT && v.i == 42);
		} else {
			unsigned char u[KEYS_UUID_LEN];

			keys_uuid(7, pk == PK_UUID7, 0, 41, 0, u);
			CHECK(v.type == COL_UUID && memcmp(v.b, u, 16) == 0);
		}
	}
}

static void users_table(void)
{
	const struct schema *s = builtin("users");
	struct knobs k;
	struct value a, b;
	int cols[SCHEMA_COLS_MAX], seen[50] = { 0 }, distinct = 0, top;
	uint64_t row;

	CHECK(s && s->ncols == 5 && s->nindexes == 6);
	if (!s)
		return;
	CHECK(strcmp(s->idx[0].name, "idxlab_email") == 0);
	CHECK(s->idx[4].ncols == 2 && strcmp(s->idx[4].name, "idxlab_country_created_at") == 0);
	CHECK(s->cols[s->idx[5].cols[0]].order == ORD_FEW);
	knobs_defaults(&k);
	for (row = 0; row < 2000; row++) {
		schema_value(s, &k, 3, row, 0, &a); /* country: text(2) zipf:1:50 */
		CHECK(a.type == COL_TEXT && a.len == 2 && a.b[0] >= 'a' && a.b[1] <= 'z');
		if (a.len == 2) {
			int r = (a.b[0] - 'a') * 26 + (a.b[1] - 'a');

			CHECK(r < 50);
			if (r < 50 && !seen[r]++)
				distinct++;
		}
	}
	/* skewed, as the article's country codes: a few common ones, a tail */
	for (row = 0, top = 0; row < 50; row++)
		top = seen[row] > top ? seen[row] : top;
	CHECK(distinct >= 30 && top > 2000 / 50 * 4);
	schema_value(s, &k, 1, 5, 0, &a); /* email: 26 random characters */
	schema_value(s, &k, 1, 6, 0, &b);
	CHECK(a.len == 26 && b.len == 26 && memcmp(a.b, b.b, 26) != 0);
	schema_value(s, &k, 2, 5, 0, &a); /* created_at grows with the row */
	schema_value(s, &k, 2, 6, 0, &b);
	CHECK(a.type == COL_TIMESTAMPTZ && b.i > a.i);
	schema_value(s, &k, 2, 5, 1, &b); /* and an update moves it past every row */
	schema_value(s, &k, 2, 1000000, 0, &a);
	CHECK(b.i > a.i);
	CHECK(schema_op_cols(s, OP_UPDATE_INDEXED, cols) == 1 && cols[0] == 1);
	CHECK(schema_op_cols(s, OP_UPDATE_KEYS, cols) == 4);
	CHECK(schema_op_cols(s, OP_UPDATE, cols) == 0);
}

/* Every built-in writes itself as text that parses back to the same. */
static void builtins_round_trip(void)
{
	int i;

	for (i = 0; schema_builtin_names[i]; i++) {
		const struct schema *s = builtin(schema_builtin_names[i]);
		char path[4096], a[8192], b[8192];
		long long v = -1;
		struct err e;
		FILE *f;
		int fd = mkstemp(tmp_path(path, sizeof path, "idxlab-unit-specXXXXXX"));

		CHECK(s && fd >= 0);
		if (!s || fd < 0)
			continue;
		schema_write(s, a, sizeof a);
		f = fdopen(fd, "w");
		fputs(a, f);
		fclose(f);
		CHECK(schema_load(path, &v, &e) == 0);
		if (schema_get(v)) {
			schema_write(schema_get(v), b, sizeof b);
			CHECK(strcmp(a, b) == 0);
		}
		unlink(path);
	}
}

/* A column named t would give an index idxlab_t: the table's own name. */
static void reserved_names(void)
{
	char path[4096];
	int fd = mkstemp(tmp_path(path, sizeof path, "idxlab-unit-specXXXXXX"));
	long long v = -1;
	struct err e;

	CHECK(write(fd, "column t int seq\nindex t\n", 25) == 25);
	close(fd);
	CHECK(schema_load(path, &v, &e) == 0);
	unlink(path);
	CHECK(schema_get(v) && strcmp(schema_get(v)->idx[0].name, "idxlab_i1") == 0);
	/* a partitioned copy's partitions are idxlab's own too */
	CHECK(schema_reserved("idxlab_t_p0") && schema_reserved("idxlab_t_p127"));
	CHECK(!schema_reserved("idxlab_t_p") && !schema_reserved("idxlab_t_px") &&
	      !schema_reserved("idxlab_t_p1x") && !schema_reserved("idxlab_p0"));
}

static void zipf_is_skewed(void)
{
	char path[4096];
	int fd = mkstemp(tmp_path(path, sizeof path, "idxlab-unit-specXXXXXX")), hits[4] = { 0 }, i;
	long long v = -1;
	struct knobs k;
	struct value x;
	struct err e;

	CHECK(write(fd, "column hot_key bigint zipf:1.2:100\n", 35) == 35);
	close(fd);
	CHECK(schema_load(path, &v, &e) == 0);
	unlink(path);
	if (!schema_get(v))
		return;
	knobs_defaults(&k);
	for (i = 0; i < 10000; i++) {
		schema_value(schema_get(v), &k, 1, (uint64_t)i, 0, &x);
		CHECK(x.i >= 0 && x.i < 100);
		if (x.i < 4)
			hits[x.i]++;
	}
	CHECK(hits[0] > hits[1] && hits[1] > hits[2] && hits[0] > 1500);
}

/* The derivation stays inside the spec's arrays whatever the shape says:
 * a text key after 63 other columns keeps its slot, and counts and column
 * numbers past the shape's arrays are not followed. */
static void derive_bounded(void)
{
	static struct table_shape t;
	struct schema s;
	struct err e;
	long long v = -1;
	int i, k = SHAPE_COLS_MAX - 1;
	char want[64], last[64];

	memset(&t, 0, sizeof t);
	t.rows = 100;
	t.ncols = SHAPE_COLS_MAX;
	for (i = 0; i < SHAPE_COLS_MAX; i++) {
		snprintf(t.cols[i].name, sizeof t.cols[i].name, "C%d", i);
		t.cols[i].type = COL_INT;
		t.cols[i].ndistinct = 100;
		t.cols[i].correlation = 0;
		t.cols[i].top_freq = 0.01;
	}
	t.cols[k].type = COL_TEXT;
	t.cols[k].len = 20;
	t.cols[k].pk = 1;
	t.nindexes = SHAPE_IDX_MAX;
	for (i = 0; i < SHAPE_IDX_MAX; i++) {
		snprintf(t.idx[i].name, sizeof t.idx[i].name, "ix%d", i);
		t.idx[i].ncols = 1;
		t.idx[i].cols[0] = i;
	}
	t.idx[3].ncols = 99;     /* more than an index holds */
	t.idx[4].cols[0] = 5000; /* no such column */
	t.idx[5].cols[0] = -7;
	schema_from_derive(&t, "Wide Table", &s);
	CHECK(s.ncols == SCHEMA_COLS_MAX && s.nindexes == SCHEMA_IDX_MAX);
	CHECK(strcmp(s.name, "wide_table") == 0);
	snprintf(want, sizeof want, "c%d", SHAPE_COLS_MAX - 1); /* the text key keeps its slot */
	CHECK(strcmp(s.cols[SCHEMA_COLS_MAX - 1].name, want) == 0 &&
	      s.cols[SCHEMA_COLS_MAX - 1].type == COL_TEXT);
	CHECK(s.idx[0].unique && s.idx[0].cols[0] == SCHEMA_COLS_MAX - 1);
	snprintf(want, sizeof want, "columns C%d, C%d, ", SCHEMA_COLS_MAX - 2, SCHEMA_COLS_MAX - 1);
	snprintf(last, sizeof last, "C%d are left out", SHAPE_COLS_MAX - 2);
	CHECK(strstr(s.notes, want) && strstr(s.notes, last));
	CHECK(strstr(s.notes, "indexes ix18, ix19, ") && strstr(s.notes, "ix31 are left out"));
	CHECK(strstr(s.notes, "index ix3 left out: more than 8 columns") &&
	      strstr(s.notes, "index ix4 left out: it covers a column left out") &&
	      strstr(s.notes, "index ix5 left out"));
	CHECK(schema_check(&s, &e) == 0);
	CHECK(schema_register(&s, &v, &e) == 0 && schema_get(v));
	t.ncols = 100000; /* a reader's count past its array: held to it */
	t.nindexes = -3;
	schema_from_derive(&t, "7up", &s);
	CHECK(s.ncols == SCHEMA_COLS_MAX && s.nindexes == 1 && strcmp(s.name, "t_7up") == 0);
	CHECK(schema_check(&s, &e) == 0);
	/* the second line of defence: a name the rules do not admit */
	s.cols[2].name[0] = 1;
	CHECK(schema_check(&s, &e) < 0 && schema_register(&s, &v, &e) < 0 &&
	      strstr(e.msg, "a bug in idxlab"));
	snprintf(s.cols[2].name, sizeof s.cols[2].name, "c2");
	s.idx[0].cols[0] = SCHEMA_COLS_MAX;
	CHECK(schema_check(&s, &e) < 0);
}

/* Text from outside is printed as one line without a control character:
 * C0, DEL, C1 (U+0080..U+009F) and bytes that are not UTF-8 are escaped,
 * other UTF-8 is kept whole, and escaping twice changes nothing. */
static void escape_one_line(void)
{
	const char *in = "a\nb\r\t\x1b]0;T\x07|\x7f|\xc2\x9bq|\xff|\xc3\xa9|\xe2\x80\x94|\xc3";
	const char *want =
	    "a\\nb\\r\\t\\x1b]0;T\\x07|\\x7f|\\xc2\\x9bq|\\xff|\xc3\xa9|\xe2\x80\x94|\\xc3";
	char out[256], again[256], cut[6];

	err_escape(in, out, sizeof out);
	CHECK(strcmp(out, want) == 0);
	err_escape(out, again, sizeof again);
	CHECK(strcmp(out, again) == 0);
	err_escape("ab\xe2\x80\x94", cut, 5); /* no room for the whole dash: cut before it */
	CHECK(strcmp(cut, "ab") == 0);
}

/* SQL's spellings of the types, in either case and over several words,
 * are idxlab's types. */
static void sql_type_aliases(void)
{
	static const struct {
		const char *type;
		enum col_type want;
		int len;
	} t[] = {
		{ "integer", COL_INT, 0 },
		{ "INT4", COL_INT, 0 },
		{ "smallint", COL_INT, 0 },
		{ "int8", COL_BIGINT, 0 },
		{ "BIGINT", COL_BIGINT, 0 },
		{ "double precision", COL_BIGINT, 0 },
		{ "real", COL_BIGINT, 0 },
		{ "varchar(20)", COL_TEXT, 20 },
		{ "Character  Varying(30)", COL_TEXT, 30 },
		{ "char(2)", COL_TEXT, 2 },
		{ "timestamptz", COL_TIMESTAMPTZ, 0 },
		{ "timestamp with time zone", COL_TIMESTAMPTZ, 0 },
		{ "timestamp without time zone", COL_TIMESTAMP, 0 },
		{ "UUID", COL_UUID, 16 },
	};
	size_t i;

	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		char path[4096], text[128];
		int fd = mkstemp(tmp_path(path, sizeof path, "idxlab-unit-specXXXXXX")), n;
		long long v = -1;
		struct err e = { ERR_NONE, "" };
		const struct schema *s;

		n = snprintf(text, sizeof text, "column a %s rand\n", t[i].type);
		CHECK(fd >= 0 && write(fd, text, (size_t)n) == n);
		close(fd);
		CHECK(schema_load(path, &v, &e) == 0);
		unlink(path);
		s = schema_get(v);
		if (!s || s->ncols != 2 || s->cols[1].type != t[i].want ||
		    s->cols[1].len != t[i].len || s->cols[1].order != ORD_RAND) {
			printf("  type '%s': %s\n", t[i].type, e.msg);
			failed_checks++;
		}
	}
}

static void test_schema(void)
{
	default_is_the_old_table();
	users_table();
	builtins_round_trip();
	zipf_is_skewed();
	reserved_names();
	derive_bounded();
	escape_one_line();
	sql_type_aliases();
}

/* The spec's fast road (schema_fast_keys), which the SQLite and
 * WiredTiger engines take on the default table: the values schema_value()
 * gives, for every key order. */
static void test_fast_keys(void)
{
	struct knobs k;
	struct schema_fast f;
	struct value v;
	int ko, col, bad = 0;
	uint64_t row, ver;

	knobs_defaults(&k);
	k.v[K_SEED] = 11;
	for (ko = KO_SEQ; ko <= KO_UUID4; ko++) {
		k.v[K_KEY_ORDER] = ko;
		CHECK(schema_fast_keys(schema_of(&k), &k, &f) == 1);
		CHECK(f.uuid == (schema_type(schema_of(&k), &k, 1) == COL_UUID));
		for (col = 1; col <= 8; col++)
			for (row = 0; row < 300; row += 7)
				for (ver = 0; ver < 3; ver++) {
					unsigned char u[KEYS_UUID_LEN];

					schema_value(schema_of(&k), &k, col, row, ver, &v);
					if (f.uuid) {
						schema_fast_uuid(&f, col, row, ver, u);
						bad += v.len != KEYS_UUID_LEN ||
						       memcmp(u, v.b, KEYS_UUID_LEN) != 0;
					} else {
						bad += schema_fast_int(&f, col, row, ver) != v.i;
					}
				}
	}
	CHECK(bad == 0);
	/* Any other spec binds what schema_value() gives. */
	{
		long long users = -1;
		struct err e;

		if (schema_load("users", &users, &e) == 0) {
			k.v[K_SCHEMA] = users;
			CHECK(schema_fast_keys(schema_of(&k), &k, &f) == 0);
		} else {
			CHECK(!"the users spec loads");
		}
	}
}

const struct unit_case unit_schema[] = {
	{ "unit/schema", test_schema },
	{ "unit/fast-keys", test_fast_keys },
	{ NULL, NULL },
};
