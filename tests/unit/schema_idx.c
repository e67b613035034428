/* schema_idx.c - the cases of src/schema_idx.c: an index's expression keys
 * and WHERE, parsed from a catalog's SQL and from the spec language,
 * written back as SQL by idxlab, and refused when they hold what idxlab
 * does not rebuild; a derived table's own index list (schema_from_derive);
 * MongoDB's partialFilterExpression of a WHERE (no server runs here: the
 * document is checked). */
#include <string.h>

#include "schema_from.h"
#include "schema_idx.h"
#include "unit.h"
#ifdef IDXLAB_HAVE_MONGO
#include "engines/mongo/doc.h"
#endif

/* id, email text, status text, qty int, ts timestamp */
static void small_table(struct schema *s)
{
	static const struct column cols[] = {
		{ .name = "id", .type = COL_BIGINT, .order = ORD_SEQ },
		{ .name = "email", .type = COL_TEXT, .len = 20, .order = ORD_RAND },
		{ .name = "status", .type = COL_TEXT, .len = 4, .order = ORD_FEW, .n = 3 },
		{ .name = "qty", .type = COL_INT, .order = ORD_FEW, .n = 5 },
		{ .name = "ts", .type = COL_TIMESTAMP, .order = ORD_SEQ },
	};

	memset(s, 0, sizeof *s);
	snprintf(s->name, sizeof s->name, "t");
	snprintf(s->hot, sizeof s->hot, "hot");
	memcpy(s->cols, cols, sizeof cols);
	s->ncols = (int)(sizeof cols / sizeof cols[0]);
}

static const char *plain(int col, const void *ctx)
{
	return ((const struct schema *)ctx)->cols[col].name;
}

static const char *where_of(const struct schema *s, const char *text)
{
	static char buf[512];
	struct index_spec x = { .name = "idxlab_x" };
	struct err e;

	if (schema_idx_parse_where(s, text, schema_idx_spec_col, (void *)s, &x, &e) < 0) {
		snprintf(buf, sizeof buf, "ERR %.400s", e.msg);
		return buf;
	}
	schema_idx_where_sql(&x, plain, s, buf, sizeof buf);
	return buf;
}

static void parse_and_write(void)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		/* PostgreSQL's pg_get_expr, casts and parentheses */
		{ "((deleted_at IS NULL) AND (qty > 0) AND ((status)::text <> 'void'::text))",
		  "ERR deleted_at is not a column of this table's spec" },
		{ "(ts IS NULL) AND (qty > 0) AND ((status)::text <> 'void'::text)",
		  "ts is null and qty > 0 and status <> 'void'" },
		{ "0 < qty AND QTY <= '7'::integer", "qty > 0 and qty <= 7" },
		{ "qty >= -5 and \"email\" is not null", "qty >= -5 and email is not null" },
		{ "status = 5", "status = '5'" },
		{ "status != 'a b'", "status <> 'a b'" },
		/* refused, each saying why */
		{ "qty > 0 OR qty < 0", "ERR an OR: idxlab rebuilds terms joined by AND only" },
		{ "status = 'a''b'", "ERR the text constant" },
		{ "status = 'x'; DROP TABLE t", "ERR ';' is not a character idxlab reads here" },
		{ "lower(status) = 'x'", "ERR a term compares one column (not a function of one)" },
		{ "qty = 1.5", "ERR 1.5 is not a whole number" },
		{ "qty = 'many'", "ERR qty is a number here, compared with the text 'many'" },
		{ "ts > 5", "ERR ts is a timestamp column here" },
		{ "id > 5", "ERR id is the primary key (id), which no index here takes" },
		{ "qty > 1 and qty > 2 and qty > 3 and qty > 4 and qty > 5",
		  "ERR more than 4 terms" },
		{ "qty", "ERR write COL op CONSTANT" },
		{ "(qty > 1", "ERR" },
		{ "", "ERR an empty WHERE" },
	};
	struct schema s;
	size_t i;

	small_table(&s);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *got = where_of(&s, cases[i].text);

		if (strncmp(cases[i].want, "ERR", 3) == 0
		        ? strncmp(got, cases[i].want, strlen(cases[i].want)) != 0
		        : strcmp(got, cases[i].want) != 0) {
			printf("  where '%s': got '%s', want '%s'\n", cases[i].text, got,
			       cases[i].want);
			failed_checks++;
		}
	}
}

static void keys(void)
{
	struct schema s;
	struct index_spec x = { .name = "idxlab_x" };
	struct err e;
	char buf[64];

	small_table(&s);
	CHECK(schema_idx_parse_keys(&s, "lower((email)::text), qty DESC", schema_idx_spec_col, &s,
	                            &x, &e) == 0);
	CHECK(x.ncols == 2 && x.cols[0] == 1 && x.fn[0] == IDX_FN_LOWER && x.cols[1] == 3 &&
	      x.fn[1] == IDX_FN_NONE);
	schema_idx_key_sql(&x, 0, plain, &s, buf, sizeof buf);
	CHECK(strcmp(buf, "lower(email)") == 0);
	schema_idx_default_name(&s, &x, buf, sizeof buf);
	CHECK(strcmp(buf, "idxlab_lower_email_qty") == 0);
	CHECK(schema_idx_parse_keys(&s, "lower(qty)", schema_idx_spec_col, &s, &x, &e) < 0 &&
	      strstr(e.msg, "qty is not a text column"));
	CHECK(schema_idx_parse_keys(&s, "md5(email)", schema_idx_spec_col, &s, &x, &e) < 0 &&
	      strstr(e.msg, "md5(...) is an expression idxlab does not rebuild"));
	CHECK(schema_idx_parse_keys(&s, "email COLLATE NOCASE", schema_idx_spec_col, &s, &x, &e) <
	          0 &&
	      strstr(e.msg, "COLLATE"));
	CHECK(schema_idx_parse_keys(&s, "(qty + 1)", schema_idx_spec_col, &s, &x, &e) < 0);
}

/* schema_check refuses a parsed form no parser made: a quote in a text
 * constant, an operator or function out of range, lower() of a number. */
static void check_refuses(void)
{
	struct schema s;
	struct err e;

	small_table(&s);
	s.nindexes = 1;
	s.idx[0] = (struct index_spec){ .name = "idxlab_x", .ncols = 1, .cols = { 2 }, .npred = 1 };
	s.idx[0].pred[0] = (struct pred_term){ .col = 2, .op = PRED_EQ, .is_text = 1, .s = "ok" };
	CHECK(schema_check(&s, &e) == 0);
	snprintf(s.idx[0].pred[0].s, sizeof s.idx[0].pred[0].s, "a'; DROP TABLE t; --");
	CHECK(schema_check(&s, &e) < 0);
	snprintf(s.idx[0].pred[0].s, sizeof s.idx[0].pred[0].s, "ok");
	s.idx[0].pred[0].op = PRED_OP_COUNT;
	CHECK(schema_check(&s, &e) < 0);
	s.idx[0].pred[0].op = PRED_EQ;
	s.idx[0].pred[0].is_text = 0; /* a number on a text column */
	CHECK(schema_check(&s, &e) < 0);
	s.idx[0].pred[0].is_text = 1;
	s.idx[0].fn[0] = IDX_FN_COUNT;
	CHECK(schema_check(&s, &e) < 0);
	s.idx[0].fn[0] = IDX_FN_LOWER;
	s.idx[0].cols[0] = 3; /* lower(qty) */
	CHECK(schema_check(&s, &e) < 0);
	s.idx[0].cols[0] = 2;
	CHECK(schema_check(&s, &e) == 0);
}

/* A composite key first (not unique: its few values repeat), a unique
 * constraint, a partial and an expression index with the source's names,
 * one WHERE left out with why. */
static void derive_own_list(void)
{
	static struct table_shape t;
	static const char *const names[] = { "order_id", "line_no", "Email", "status" };
	struct schema s;
	struct err e;
	int i;

	memset(&t, 0, sizeof t);
	t.rows = 1000;
	t.ncols = 4;
	for (i = 0; i < 4; i++) {
		snprintf(t.cols[i].name, sizeof t.cols[i].name, "%s", names[i]);
		t.cols[i].type = i < 2 ? COL_BIGINT : COL_TEXT;
		t.cols[i].len = i == 2 ? 24 : 4;
		t.cols[i].ndistinct = i == 2 ? 1000 : 10;
		t.cols[i].correlation = 0;
		t.cols[i].top_freq = 0.1;
		t.cols[i].pk = i < 2 ? i + 1 : 0;
	}
	t.nindexes = 5;
	t.idx[0] =
	    (struct shape_index){ .name = "line_email_uq", .ncols = 1, .cols = { 2 }, .unique = 1 };
	t.idx[1] = (struct shape_index){ .name = "Line Open",
		                         .ncols = 1,
		                         .cols = { 3 },
		                         .where = "\"status\" <> 'void'::text" };
	t.idx[2] = (struct shape_index){ .name = "line_lower", .keys = "lower(\"Email\")" };
	t.idx[3] = (struct shape_index){
		.name = "line_like", .ncols = 1, .cols = { 3 }, .where = "status ~~ 'a%'"
	};
	t.idx[4] = (struct shape_index){
		.name = "line_pkey", .ncols = 2, .cols = { 0, 1 }, .unique = 1, .pk = 1
	};
	schema_from_derive(&t, "line", &s);
	CHECK(schema_check(&s, &e) == 0);
	CHECK(s.nindexes == 4);
	CHECK(strcmp(s.idx[0].name, "idxlab_line_pkey") == 0 && s.idx[0].ncols == 2 &&
	      !s.idx[0].unique);
	CHECK(strcmp(s.idx[1].name, "idxlab_line_email_uq") == 0 && s.idx[1].unique);
	CHECK(strcmp(s.idx[2].name, "idxlab_line_open") == 0 && s.idx[2].npred == 1 &&
	      s.idx[2].pred[0].op == PRED_NE && strcmp(s.idx[2].pred[0].s, "void") == 0);
	CHECK(strcmp(s.idx[3].name, "idxlab_line_lower") == 0 && s.idx[3].fn[0] == IDX_FN_LOWER);
	CHECK(strstr(s.notes, "index line_pkey is unique there, not here"));
	CHECK(strstr(s.notes, "its primary key (order_id, line_no) is the first index here"));
	CHECK(strstr(s.notes, "index line_like left out: its WHERE status ~~ 'a%': '~' is not"));
	CHECK(!strstr(s.notes, "idxlab_line"));
}

static void mongo_filter(void)
{
#ifdef IDXLAB_HAVE_MONGO
	struct schema s;
	struct err e;
	bson_t one = BSON_INITIALIZER;
	char *json;

	small_table(&s);
	s.nindexes = 2;
	s.idx[0] = (struct index_spec){ .name = "idxlab_a", .ncols = 1, .cols = { 3 } };
	CHECK(schema_idx_parse_where(&s,
	                             "qty > 1 and status = 'a' and qty < 9 and email is not null",
	                             schema_idx_spec_col, &s, &s.idx[0], &e) == 0);
	s.idx[1] = (struct index_spec){ .name = "idxlab_b", .ncols = 1, .cols = { 3 } };
	CHECK(schema_idx_parse_where(&s, "qty > 1 and ts is null", schema_idx_spec_col, &s,
	                             &s.idx[1], &e) == 0);
	CHECK(mongo_doc_index_filter(&one, &s, 0) == 1);
	json = bson_as_relaxed_extended_json(&one, NULL);
	CHECK(json && strcmp(json, "{ \"partialFilterExpression\" : { \"qty\" : { \"$gt\" : 1, "
	                           "\"$lt\" : 9 }, \"status\" : { \"$eq\" : \"a\" }, \"email\" : "
	                           "{ \"$exists\" : true } } }") == 0);
	if (json && !strstr(json, "$exists"))
		printf("  mongo filter: %s\n", json);
	bson_free(json);
	bson_reinit(&one);
	CHECK(mongo_doc_index_filter(&one, &s, 1) == 0 && bson_count_keys(&one) == 0);
	bson_destroy(&one);
#endif
}

static void test_own_index(void)
{
	parse_and_write();
	keys();
	check_refuses();
	derive_own_list();
	mongo_filter();
}

const struct unit_case unit_schema_idx[] = {
	{ "unit/own-index", test_own_index },
	{ NULL, NULL },
};
