/* schema_idx_sql.c - an index's expression keys and WHERE written back
 * as SQL (and as a MongoDB filter term) from the parsed form (schema_idx.h),
 * its checks, its default name, and the note when an engine cannot build
 * it. The text a user gave never reaches here: only struct index_spec. */
#include "schema_idx.h"

#include <stdio.h>
#include <string.h>

const char *const schema_idx_fn_words[IDX_FN_COUNT] = {
	[IDX_FN_LOWER] = "lower", [IDX_FN_UPPER] = "upper"
};
const char *const schema_idx_op_words[PRED_OP_COUNT] = {
	[PRED_EQ] = "=", [PRED_NE] = "<>", [PRED_LT] = "<",         [PRED_LE] = "<=",
	[PRED_GT] = ">", [PRED_GE] = ">=", [PRED_NULL] = "is null", [PRED_NOT_NULL] = "is not null",
};

int schema_idx_check(const struct schema *s, const struct index_spec *x, struct err *e)
{
	int j;

	for (j = 0; j < x->ncols && j < SCHEMA_IDX_COLS; j++)
		if (x->fn[j] >= IDX_FN_COUNT ||
		    (x->fn[j] && (x->cols[j] < 1 || x->cols[j] >= s->ncols ||
		                  s->cols[x->cols[j]].type != COL_TEXT)))
			return err_set(e, ERR_USAGE,
			               "index %s: key %d is no expression idxlab writes", x->name,
			               j + 1);
	if (x->npred < 0 || x->npred > SCHEMA_PRED_MAX)
		return err_set(e, ERR_USAGE, "index %s: %d terms in its WHERE", x->name, x->npred);
	for (j = 0; j < x->npred; j++) {
		const struct pred_term *m = &x->pred[j];
		size_t n = strnlen(m->s, sizeof m->s);
		enum col_type t;

		if (m->col < 1 || m->col >= s->ncols || m->op < 0 || m->op >= PRED_OP_COUNT ||
		    n == sizeof m->s || strspn(m->s, SCHEMA_PRED_CHARS) != n)
			return err_set(e, ERR_USAGE,
			               "index %s: term %d of its WHERE is not one idxlab writes",
			               x->name, j + 1);
		t = s->cols[m->col].type;
		if (m->op < PRED_NULL && (m->is_bool ? t != COL_BOOL || m->is_text ||
		                                           (m->op != PRED_EQ && m->op != PRED_NE)
		                          : m->is_text ? t != COL_TEXT
		                                       : t != COL_INT && t != COL_BIGINT))
			return err_set(
			    e, ERR_USAGE,
			    "index %s: term %d compares %s with a constant of another type",
			    x->name, j + 1, s->cols[m->col].name);
	}
	return 0;
}

void schema_idx_key_sql(const struct index_spec *x, int j, schema_idx_name *name, const void *ctx,
                        char *buf, size_t len)
{
	const char *col = name(x->cols[j], ctx);

	if (x->fn[j] > IDX_FN_NONE && x->fn[j] < IDX_FN_COUNT)
		snprintf(buf, len, "%s(%s)", schema_idx_fn_words[x->fn[j]], col);
	else
		snprintf(buf, len, "%s", col);
}

void schema_idx_where_sql(const struct index_spec *x, schema_idx_name *name, const void *ctx,
                          char *buf, size_t len)
{
	size_t n = 0;
	int j;

	if (len)
		buf[0] = 0;
	for (j = 0; j < x->npred && n < len; j++) {
		const struct pred_term *m = &x->pred[j];

		n += (size_t)snprintf(buf + n, len - n, "%s%s %s", j ? " and " : "",
		                      name(m->col, ctx), schema_idx_op_words[m->op]);
		if (n >= len || m->op >= PRED_NULL)
			continue;
		if (m->is_bool)
			n += (size_t)snprintf(buf + n, len - n, " %s", m->i ? "true" : "false");
		else if (m->is_text)
			n += (size_t)snprintf(buf + n, len - n, " '%s'", m->s);
		else
			n += (size_t)snprintf(buf + n, len - n, " %lld", m->i);
	}
}

void schema_idx_default_name(const struct schema *s, const struct index_spec *x, char *out,
                             size_t len)
{
	size_t n = (size_t)snprintf(out, len, "idxlab");
	int j;

	for (j = 0; j < x->ncols && n < len; j++)
		n += (size_t)snprintf(
		    out + n, len - n, "%s%s_%s", x->fn[j] ? "_" : "",
		    x->fn[j] && x->fn[j] < IDX_FN_COUNT ? schema_idx_fn_words[x->fn[j]] : "",
		    s->cols[x->cols[j]].name);
	if (n >= len || schema_reserved(out))
		out[0] = 0;
}

int schema_idx_special(const struct index_spec *x)
{
	int j;

	for (j = 0; j < x->ncols && j < SCHEMA_IDX_COLS; j++)
		if (x->fn[j])
			return 1;
	return x->npred > 0;
}

void schema_idx_unbuilt(const struct schema *s, const struct index_spec *x, const char *engine,
                        int where_built, char *buf, size_t len)
{
	size_t n = 0;
	int j;

	if (len)
		buf[0] = 0;
	for (j = 0; j < x->ncols && j < SCHEMA_IDX_COLS && n < len; j++)
		if (x->fn[j] > IDX_FN_NONE && x->fn[j] < IDX_FN_COUNT)
			n += (size_t)snprintf(
			    buf + n, len - n,
			    "%sindex %s: %s(%s) is built on %s itself (%s has no "
			    "expression indexes; idxlab's text values are digits and "
			    "lower-case letters: the same keys' order and length)",
			    n ? "; " : "", x->name, schema_idx_fn_words[x->fn[j]],
			    s->cols[x->cols[j]].name, s->cols[x->cols[j]].name, engine);
	if (x->npred && !where_built && n < len)
		snprintf(buf + n, len - n,
		         "%sindex %s: its WHERE is left out on %s (it builds no partial index of "
		         "that WHERE): every row enters it",
		         n ? "; " : "", x->name, engine);
}

int schema_idx_mongo_term(const struct pred_term *m)
{
	return m->op != PRED_NE && m->op != PRED_NULL;
}
