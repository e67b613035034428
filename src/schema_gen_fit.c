/* schema_gen_fit.c - does a generated column's arithmetic stay within its
 * types on PostgreSQL (schema_gen.h, schema_gen_fits)?
 *
 * PostgreSQL computes int4 with int4 in int4, anything with int8 in int8
 * (numeric in numeric), and stops the statement - and with it idxlab's
 * run - with "integer out of range" or "bigint out of range" where one
 * result leaves its type, and with "numeric field overflow" where the
 * expression's value does not fit a numeric(P,S) column. idxlab knows
 * every value it will write in a column (schema_value_span: its order, its
 * in:LO..HI, the run's rows and the versions its updates reach), so the
 * arithmetic is checked before any table exists, by intervals: each
 * node's least and greatest value and the type the server gives it. The
 * first node whose interval leaves its type, or a result that leaves the
 * column's, is where the run would stop: the plan refuses it, naming the
 * column, how far it reaches from which operands, and what to do. Text,
 * booleans, dates and times are no numbers here (nothing to check). The
 * intervals hold every row's values together, so a check may refuse a
 * run that would have stopped short of its worst row; it never passes one
 * that stops. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema_gen.h"

/* The types of a node's value, the integer ones first, narrowest first
 * (an operation on two takes the wider). */
enum vt { VT_INT2, VT_INT4, VT_INT8, VT_NUM, VT_TEXT, VT_OTHER };

static const char *const vt_name[] = { "smallint", "integer", "bigint", "numeric", "text", "" };
static const long double vt_min[] = { -32768.0L, -2147483648.0L, -9223372036854775808.0L };
static const long double vt_max[] = { 32767.0L, 2147483647.0L, 9223372036854775807.0L };

struct ival {
	enum vt t;
	long double lo, hi; /* VT_INT2 .. VT_NUM */
};

struct fit {
	const struct gen_tree *t;
	const struct schema *s;
	const struct knobs *k;
	uint64_t rows;
	const uint64_t *vmax; /* per column: the versions its updates reach */
	enum vt bad;          /* the first type left (VT_OTHER: none yet) */
	long double reach;    /* how far past it */
};

static int is_num(enum vt t)
{
	return t <= VT_NUM;
}

/* v, noted as the first value past its type if it is one. */
static struct ival checked(struct fit *f, struct ival v)
{
	if (v.t <= VT_INT8 && f->bad == VT_OTHER && (v.lo < vt_min[v.t] || v.hi > vt_max[v.t])) {
		f->bad = v.t;
		f->reach = v.hi > vt_max[v.t] ? v.hi : v.lo;
	}
	return v;
}

static long double maxabs(struct ival v)
{
	return fabsl(v.lo) > fabsl(v.hi) ? fabsl(v.lo) : fabsl(v.hi);
}

static struct ival column(const struct fit *f, int col)
{
	enum col_type ct = schema_type(f->s, f->k, col);
	struct ival r = { VT_OTHER, 0, 0 };

	r.t = ct == COL_INT                      ? VT_INT4
	      : ct == COL_BIGINT                 ? VT_INT8
	      : ct == COL_NUMERIC                ? VT_NUM
	      : ct == COL_TEXT || ct == COL_UUID ? VT_TEXT
	                                         : VT_OTHER;
	if (is_num(r.t) &&
	    schema_value_span(f->s, f->k, col, f->rows, f->vmax[col], &r.lo, &r.hi) < 0)
		r.t = VT_OTHER;
	return r;
}

/* A literal as PostgreSQL types it: int4 if it fits, else int8, else
 * numeric; a decimal numeric. */
static struct ival number(const char *text)
{
	long double v = strtold(text, NULL);

	return (struct ival){ strchr(text, '.')      ? VT_NUM
		              : v <= vt_max[VT_INT4] ? VT_INT4
		              : v <= vt_max[VT_INT8] ? VT_INT8
		                                     : VT_NUM,
		              v, v };
}

static struct ival node(struct fit *f, int i);

static struct ival binary(struct fit *f, const struct gnode *x)
{
	struct ival a = node(f, x->arg[0]), b = node(f, x->arg[1]), r;
	long double p[4], m;
	int j;

	if (x->op == '|')
		return (struct ival){ VT_TEXT, 0, 0 };
	if (!is_num(a.t) || !is_num(b.t))
		return (struct ival){ VT_OTHER, 0, 0 };
	r.t = a.t > b.t ? a.t : b.t;
	switch (x->op) {
	case '+':
		r.lo = a.lo + b.lo;
		r.hi = a.hi + b.hi;
		break;
	case '-':
		r.lo = a.lo - b.hi;
		r.hi = a.hi - b.lo;
		break;
	case '*':
		p[0] = a.lo * b.lo;
		p[1] = a.lo * b.hi;
		p[2] = a.hi * b.lo;
		p[3] = a.hi * b.hi;
		r.lo = r.hi = p[0];
		for (j = 1; j < 4; j++) {
			r.lo = p[j] < r.lo ? p[j] : r.lo;
			r.hi = p[j] > r.hi ? p[j] : r.hi;
		}
		break;
	default: /* '/', by NULLIF(b, 0): an integer's |b| is 1 or more */
		m = b.lo > 0 ? b.lo : b.hi < 0 ? -b.hi : r.t == VT_NUM ? 0 : 1;
		if (r.t != VT_NUM && m < 1)
			m = 1;
		r.hi = m > 0 ? maxabs(a) / m : HUGE_VALL;
		r.lo = -r.hi;
		break;
	}
	return checked(f, r);
}

static struct ival function(struct fit *f, const struct gnode *x)
{
	struct ival a = node(f, x->arg[0]), r = a, b;
	int j;

	switch (x->which) {
	case GF_LENGTH: /* of idxlab's text: at most every node's longest */
		return (struct ival){ VT_INT4, 0, (long double)SCHEMA_TEXT_MAX * GEN_NODES };
	case GF_ABS:
		if (!is_num(a.t))
			return a;
		r.lo = a.lo >= 0 ? a.lo : a.hi <= 0 ? -a.hi : 0;
		r.hi = maxabs(a);
		return checked(f, r);
	case GF_COALESCE:
		for (j = 1; j < x->nargs; j++) {
			b = node(f, x->arg[j]);
			if (!is_num(r.t) || !is_num(b.t)) {
				r.t = r.t == VT_TEXT || b.t == VT_TEXT ? VT_TEXT : VT_OTHER;
				continue;
			}
			r.t = b.t > r.t ? b.t : r.t;
			r.lo = b.lo < r.lo ? b.lo : r.lo;
			r.hi = b.hi > r.hi ? b.hi : r.hi;
		}
		return r;
	default: /* lower, upper */
		return (struct ival){ VT_TEXT, 0, 0 };
	}
}

static struct ival cast(struct fit *f, const struct gnode *x)
{
	static const enum vt to[] = {
		[GC_TEXT] = VT_TEXT,   [GC_VARCHAR] = VT_TEXT,  [GC_INTEGER] = VT_INT4,
		[GC_BIGINT] = VT_INT8, [GC_SMALLINT] = VT_INT2, [GC_NUMERIC] = VT_NUM
	};
	struct ival a = node(f, x->arg[0]);
	enum vt t = to[x->which];

	if (t == VT_TEXT)
		return (struct ival){ VT_TEXT, 0, 0 };
	if (!is_num(a.t)) /* text read as a number: no bound known, none checked */
		return (struct ival){ t == VT_NUM ? VT_NUM : VT_OTHER, 0, 0 };
	return checked(f, (struct ival){ t, t == VT_NUM ? a.lo : roundl(a.lo),
	                                 t == VT_NUM ? a.hi : roundl(a.hi) });
}

static struct ival node(struct fit *f, int i)
{
	const struct gnode *x = &f->t->n[i];
	struct ival a;

	switch (x->k) {
	case G_COL:
		return column(f, x->which);
	case G_NUM:
		return number(x->text);
	case G_NEG:
		a = node(f, x->arg[0]);
		return is_num(a.t) ? checked(f, (struct ival){ a.t, -a.hi, -a.lo }) : a;
	case G_BIN:
		return binary(f, x);
	case G_FN:
		return function(f, x);
	case G_CAST:
		return cast(f, x);
	default: /* G_STR */
		return (struct ival){ VT_TEXT, 0, 0 };
	}
}

/* The columns the expression reads, with their spans: "qty 0..9.22e+18,
 * price 1..500". */
static void operands(const struct fit *f, char *buf, size_t len)
{
	size_t n = 0;
	int i, j, seen;

	buf[0] = 0;
	for (i = 0; i < f->t->nn && n < len; i++) {
		struct ival v;

		if (f->t->n[i].k != G_COL)
			continue;
		for (j = seen = 0; j < i; j++)
			seen |= f->t->n[j].k == G_COL && f->t->n[j].which == f->t->n[i].which;
		v = column(f, f->t->n[i].which);
		if (seen || !is_num(v.t))
			continue;
		n += (size_t)snprintf(buf + n, len - n, "%s%s %.3Lg..%.3Lg", n ? ", " : "",
		                      f->s->cols[f->t->n[i].which].name, v.lo, v.hi);
	}
}

/* The column's own type: numeric(P,S) holds |v| < 10^(P-S) once rounded
 * to S decimals; an int or bigint column takes an assignment cast. */
static void fits_column(struct fit *f, const struct column *c, struct ival r)
{
	long double top;

	if (!is_num(r.t) || f->bad != VT_OTHER)
		return;
	if (c->type == COL_INT || c->type == COL_BIGINT) {
		checked(f, (struct ival){ c->type == COL_INT ? VT_INT4 : VT_INT8, roundl(r.lo),
		                          roundl(r.hi) });
		return;
	}
	if (c->type != COL_NUMERIC)
		return;
	top = powl(10, c->prec - c->scale) - powl(10, -c->scale) / 2;
	if (r.hi >= top || r.lo <= -top) {
		f->bad = VT_NUM;
		f->reach = r.hi >= top ? r.hi : r.lo;
	}
}

int schema_gen_fits(const struct schema *s, const struct knobs *k, uint64_t rows, uint64_t vmax,
                    struct err *e)
{
	static _Thread_local struct gen_tree t;
	uint64_t vcol[SCHEMA_COLS_MAX] = { 0 };
	int cols[SCHEMA_COLS_MAX], n = 0, i;

	if (vmax)
		n = schema_gen_skip(s, cols, schema_op_cols(s, k->v[K_OP], cols));
	for (i = 0; i < n; i++)
		if (cols[i] > 0 && cols[i] < s->ncols)
			vcol[cols[i]] = vmax;
	for (i = 1; i < s->ncols; i++) {
		const struct column *c = &s->cols[i];
		struct fit f = { &t, s, k, rows, vcol, VT_OTHER, 0 };
		char ty[32], ops[256], reach[48], said[48];

		if (!c->gen[0] || schema_gen_tree(s, i, &t, e) < 0)
			continue; /* schema_check refused what does not parse */
		fits_column(&f, c, node(&f, t.root));
		if (f.bad == VT_OTHER)
			continue;
		schema_type_text(c, ty, sizeof ty);
		operands(&f, ops, sizeof ops);
		if (isinf(f.reach))
			snprintf(reach, sizeof reach, "has no bound (a division by values near 0)");
		else
			snprintf(reach, sizeof reach, "reaches %.3Lg", f.reach);
		if (f.bad == VT_NUM)
			snprintf(said, sizeof said, "numeric field overflow");
		else
			snprintf(said, sizeof said, "%s out of range", vt_name[f.bad]);
		return err_set(
		    e, ERR_USAGE,
		    "table %s: column %s generated (%s) %s over the values this run writes "
		    "(%s; %llu rows%s), past %s%s: PostgreSQL would stop the run with \"%s\". "
		    "Give the columns it reads their own range (in:LO..HI after the order, "
		    "as --schema-from writes a source's), or fewer --rows, or write %s as an "
		    "ordinary column (drop its generated (...))",
		    s->name, c->name, c->gen, reach, ops[0] ? ops : "its constants",
		    (unsigned long long)rows, vmax ? ", updates moving growing values up" : "",
		    f.bad == VT_NUM ? ty : vt_name[f.bad],
		    f.bad == VT_NUM ? "" : " (an operation's type on PostgreSQL)", said, c->name);
	}
	return 0;
}
