/* schema_idx.c - expression keys and partial indexes' WHERE: parsed from
 * outside text into struct index_spec, and written back as SQL by idxlab.
 *
 * The text is cut into tokens first (names, "quoted names", numbers,
 * 'strings', operators, parentheses, commas and :: casts), then read by a
 * small recursive descent that tries a parenthesised AND list before a
 * parenthesised operand (PostgreSQL writes both: `((a > 1) AND (b IS
 * NULL))`, `(status)::text = 'x'::text`). Casts are dropped: the column's
 * type in idxlab's table decides how a constant is written. */
#include "schema_idx.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define TOK_MAX 160

enum tok_kind { T_END, T_NAME, T_QNAME, T_NUM, T_STR, T_OP, T_LP, T_RP, T_COMMA, T_CAST };

struct tok {
	enum tok_kind k;
	const char *p; /* into the text */
	size_t n;
};

struct parse {
	struct tok t[TOK_MAX];
	int nt, at;
	const struct schema *s;
	schema_idx_lookup *look;
	void *ctx;
	struct err *e;
};

static int lex(struct parse *p, const char *text)
{
	const char *c = text;

	p->nt = p->at = 0;
	for (;;) {
		struct tok *t = &p->t[p->nt];

		while (isspace((unsigned char)*c))
			c++;
		if (p->nt == TOK_MAX - 1)
			return err_set(p->e, ERR_USAGE, "more than %d words", TOK_MAX - 1);
		t->p = c;
		if (!*c) {
			t->k = T_END;
			t->n = 0;
			return 0;
		}
		if (isalpha((unsigned char)*c) || *c == '_') {
			while (isalnum((unsigned char)*c) || *c == '_' || *c == '$')
				c++;
			t->k = T_NAME;
		} else if (isdigit((unsigned char)*c)) {
			while (isalnum((unsigned char)*c) || *c == '.')
				c++;
			t->k = T_NUM;
		} else if (*c == '"' || *c == '\'') {
			char q = *c++;

			for (;; c++) {
				if (!*c)
					return err_set(p->e, ERR_USAGE, "a %s that does not end",
					               q == '"' ? "quoted name" : "'string'");
				if (*c == q && c[1] == q)
					c++;
				else if (*c == q)
					break;
			}
			c++;
			t->k = q == '"' ? T_QNAME : T_STR;
		} else if (*c == ':' && c[1] == ':') {
			c += 2;
			t->k = T_CAST;
		} else if (strchr("=<>!", *c)) {
			c += c[1] == '=' || (*c == '<' && c[1] == '>') ? 2 : 1;
			t->k = T_OP;
		} else if (*c == '-') {
			c++;
			t->k = T_OP;
		} else if (*c == '(' || *c == ')' || *c == ',') {
			t->k = *c == '(' ? T_LP : *c == ')' ? T_RP : T_COMMA;
			c++;
		} else {
			return err_set(p->e, ERR_USAGE, "'%c' is not a character idxlab reads here",
			               isprint((unsigned char)*c) ? *c : '?');
		}
		t->n = (size_t)(c - t->p);
		p->nt++;
	}
}

static const struct tok *peek(const struct parse *p)
{
	return &p->t[p->at];
}

static int is_word(const struct tok *t, const char *w)
{
	return t->k == T_NAME && t->n == strlen(w) && strncasecmp(t->p, w, t->n) == 0;
}

/* The text of a quoted token without its quotes, doubled quotes made one. */
static size_t unquote(const struct tok *t, char *out, size_t len)
{
	size_t i, o = 0;

	for (i = 1; i + 1 < t->n && o + 1 < len; i++) {
		out[o++] = t->p[i];
		if (t->p[i] == t->p[0])
			i++;
	}
	out[o] = 0;
	return o;
}

/* Skip the casts after an operand: ::text, ::character varying(20). */
static void skip_casts(struct parse *p)
{
	static const char *const stop[] = { "and", "or",   "is",      "not", "null",
		                            "asc", "desc", "collate", NULL };

	while (peek(p)->k == T_CAST) {
		p->at++;
		for (;;) {
			const struct tok *t = peek(p);
			int i;

			for (i = 0; stop[i] && !is_word(t, stop[i]); i++)
				;
			if ((t->k != T_NAME && t->k != T_QNAME) || stop[i])
				break;
			p->at++;
		}
		if (peek(p)->k == T_LP && p->t[p->at + 1].k == T_NUM && p->t[p->at + 2].k == T_RP)
			p->at += 3;
	}
}

/* An operand: a column, fn(column) or a constant, in parentheses or not. */
struct operand {
	int col; /* > 0: a column; 0: a constant */
	enum idx_fn fn;
	int is_text, is_num, is_bool;
	long long i;
	char s[SCHEMA_PRED_TEXT + 8];
};

static int column(struct parse *p, struct operand *o)
{
	const struct tok *t = peek(p);
	char name[128];
	size_t n;

	if (t->k == T_QNAME)
		n = unquote(t, name, sizeof name);
	else
		n = (size_t)snprintf(name, sizeof name, "%.*s", (int)t->n, t->p);
	o->col = p->look(name, n < sizeof name ? n : sizeof name - 1, t->k == T_QNAME, p->ctx);
	if (o->col < 1)
		return err_set(p->e, ERR_USAGE, "%s is %s", name,
		               o->col == 0 ? "the primary key (id), which no index here takes"
		                           : "not a column of this table's spec");
	p->at++;
	return 0;
}

static int operand(struct parse *p, struct operand *o)
{
	const struct tok *t = peek(p);
	int neg = 0;

	memset(o, 0, sizeof *o);
	if (t->k == T_LP) {
		p->at++;
		if (operand(p, o) < 0)
			return -1;
		if (peek(p)->k != T_RP)
			return err_set(p->e, ERR_USAGE, "a '(' without its ')'");
		p->at++;
		skip_casts(p);
		return 0;
	}
	if (t->k == T_OP && t->n == 1 && *t->p == '-' && p->t[p->at + 1].k == T_NUM) {
		neg = 1;
		t = &p->t[++p->at];
	}
	if (t->k == T_NUM) {
		char num[32], *end;

		snprintf(num, sizeof num, "%s%.*s", neg ? "-" : "", (int)t->n, t->p);
		errno = 0;
		o->i = strtoll(num, &end, 10);
		if (*end || errno || t->n > 20)
			return err_set(p->e, ERR_USAGE,
			               "%s is not a whole number (idxlab compares with integers "
			               "and text)",
			               num);
		o->is_num = 1;
		snprintf(o->s, sizeof o->s, "%s", num);
	} else if (t->k == T_STR) {
		size_t n = unquote(t, o->s, sizeof o->s);

		if (n > SCHEMA_PRED_TEXT - 1 || strspn(o->s, SCHEMA_PRED_CHARS) != n)
			return err_set(
			    p->e, ERR_USAGE,
			    "the text constant '%.20s...' holds more than %d characters, "
			    "or one outside a-z A-Z 0-9 space _ . : @ / + -",
			    o->s, SCHEMA_PRED_TEXT - 1);
		o->is_text = 1;
	} else if ((t->k == T_NAME || t->k == T_QNAME) && p->t[p->at + 1].k == T_LP) {
		int f;

		for (f = 1; f < IDX_FN_COUNT && !is_word(t, schema_idx_fn_words[f]); f++)
			;
		if (f == IDX_FN_COUNT || t->k == T_QNAME)
			return err_set(p->e, ERR_USAGE,
			               "%.*s(...) is an expression idxlab does not rebuild (it "
			               "writes lower(COL) and upper(COL))",
			               (int)(t->n > 40 ? 40 : t->n), t->p);
		p->at += 2;
		if (operand(p, o) < 0)
			return -1;
		if (!o->col || o->fn || peek(p)->k != T_RP)
			return err_set(p->e, ERR_USAGE, "%s() takes one column: %s(email)",
			               schema_idx_fn_words[f], schema_idx_fn_words[f]);
		p->at++;
		o->fn = (enum idx_fn)f;
	} else if (is_word(t, "true") || is_word(t, "false")) {
		o->is_bool = 1;
		o->i = is_word(t, "true");
		snprintf(o->s, sizeof o->s, "%s", o->i ? "true" : "false");
		p->at++; /* a name, which the step below leaves alone */
	} else if (t->k == T_NAME || t->k == T_QNAME) {
		if (is_word(t, "null"))
			return err_set(p->e, ERR_USAGE,
			               "null: compare a column with a number or 'text', or write "
			               "COL is [not] null");
		return column(p, o) < 0 ? -1 : (skip_casts(p), 0);
	} else {
		return err_set(p->e, ERR_USAGE, "a column or a constant was expected at '%.20s'",
		               t->k == T_END ? "the end" : t->p);
	}
	if (t->k != T_NAME && t->k != T_QNAME)
		p->at++;
	skip_casts(p);
	return 0;
}

static int fit_constant(struct parse *p, struct pred_term *m, const struct operand *c)
{
	const struct column *col = &p->s->cols[m->col];

	if (col->type == COL_BOOL || c->is_bool) {
		if (col->type != COL_BOOL || (m->op != PRED_EQ && m->op != PRED_NE) ||
		    (!c->is_bool && !(c->is_num && (c->i == 0 || c->i == 1))))
			return err_set(
			    p->e, ERR_USAGE,
			    col->type == COL_BOOL
			        ? "%s is a boolean: write %s, not %s, %s = true or %s <> true"
			        : "%s is no boolean: compare it with a number or 'text'",
			    col->name, col->name, col->name, col->name, col->name);
		m->is_bool = 1;
		m->i = c->i != 0;
		return 0;
	}
	if (col->type == COL_TEXT) {
		m->is_text = 1;
		/* a number on a text column: text (operand() kept it short) */
		snprintf(m->s, sizeof m->s, "%.*s", (int)sizeof m->s - 1, c->s);
		return 0;
	}
	if (col->type != COL_INT && col->type != COL_BIGINT)
		return err_set(p->e, ERR_USAGE,
		               "%s is a %s column here: idxlab rebuilds only `is [not] null` on it",
		               col->name, col->type == COL_UUID ? "uuid" : "timestamp");
	if (c->is_text) {
		char *end;

		errno = 0;
		m->i = strtoll(c->s, &end, 10);
		if (!*c->s || *end || errno)
			return err_set(p->e, ERR_USAGE,
			               "%s is a number here, compared with the text '%s'",
			               col->name, c->s);
		return 0;
	}
	m->i = c->i;
	return 0;
}

static int term(struct parse *p, struct index_spec *x);

/* Does t end a term (the end, AND, or a closing parenthesis)? */
static int ends_term(const struct tok *t)
{
	return t->k == T_END || t->k == T_RP || is_word(t, "and");
}

/* A boolean column alone ("active", PostgreSQL's and SQLite's own way to
 * write a partial index on a flag) or after NOT: COL = true / COL = false. */
static int bool_term(struct parse *p, struct index_spec *x, int negated)
{
	struct operand a;
	struct pred_term *m;

	p->at += negated;
	if (operand(p, &a) < 0)
		return -1;
	if (a.col < 1 || a.fn || p->s->cols[a.col].type != COL_BOOL || !ends_term(peek(p)))
		return err_set(p->e, ERR_USAGE,
		               "NOT is followed by a boolean column alone (not active); for "
		               "anything else write COL op CONSTANT");
	if (x->npred == SCHEMA_PRED_MAX)
		return err_set(p->e, ERR_USAGE, "more than %d terms", SCHEMA_PRED_MAX);
	m = &x->pred[x->npred++];
	memset(m, 0, sizeof *m);
	m->col = a.col;
	m->op = PRED_EQ;
	m->is_bool = 1;
	m->i = !negated;
	return 0;
}

/* term (and term)* */
static int and_list(struct parse *p, struct index_spec *x)
{
	if (term(p, x) < 0)
		return -1;
	while (is_word(peek(p), "and")) {
		p->at++;
		if (term(p, x) < 0)
			return -1;
	}
	if (is_word(peek(p), "or"))
		return err_set(p->e, ERR_USAGE, "an OR: idxlab rebuilds terms joined by AND only");
	return 0;
}

static int term(struct parse *p, struct index_spec *x)
{
	static const struct {
		const char *w;
		enum pred_op op, flipped;
	} ops[] = {
		{ "=", PRED_EQ, PRED_EQ },  { "==", PRED_EQ, PRED_EQ }, { "<>", PRED_NE, PRED_NE },
		{ "!=", PRED_NE, PRED_NE }, { "<", PRED_LT, PRED_GT },  { "<=", PRED_LE, PRED_GE },
		{ ">", PRED_GT, PRED_LT },  { ">=", PRED_GE, PRED_LE },
	};
	struct operand a, b;
	struct pred_term *m;
	const struct tok *t;
	size_t k;
	int start;

	if (peek(p)->k == T_LP) { /* ( and_list ), else an operand in parentheses */
		int at = p->at, had = x->npred;
		struct err saved = *p->e;

		p->at++;
		if (and_list(p, x) == 0 && peek(p)->k == T_RP) {
			p->at++;
			return 0;
		}
		p->at = at;
		x->npred = had;
		*p->e = saved;
	}
	if (is_word(peek(p), "not") && p->t[p->at + 1].k != T_END)
		return bool_term(p, x, 1);
	start = p->at;
	if (operand(p, &a) < 0)
		return -1;
	if (a.col > 0 && !a.fn && p->s->cols[a.col].type == COL_BOOL && ends_term(peek(p))) {
		p->at = start;
		return bool_term(p, x, 0);
	}
	if (x->npred == SCHEMA_PRED_MAX)
		return err_set(p->e, ERR_USAGE, "more than %d terms", SCHEMA_PRED_MAX);
	m = &x->pred[x->npred];
	memset(m, 0, sizeof *m);
	t = peek(p);
	if (is_word(t, "is")) {
		p->at++;
		m->op = is_word(peek(p), "not") ? PRED_NOT_NULL : PRED_NULL;
		p->at += m->op == PRED_NOT_NULL;
		if (!is_word(peek(p), "null"))
			return err_set(p->e, ERR_USAGE, "IS is followed by [NOT] NULL");
		p->at++;
		if (a.col < 1 || a.fn)
			return err_set(p->e, ERR_USAGE, "IS [NOT] NULL tests a column");
		m->col = a.col;
		x->npred++;
		return 0;
	}
	for (k = 0; k < sizeof ops / sizeof ops[0]; k++)
		if (t->k == T_OP && t->n == strlen(ops[k].w) && strncmp(t->p, ops[k].w, t->n) == 0)
			break;
	if (k == sizeof ops / sizeof ops[0])
		return err_set(p->e, ERR_USAGE,
		               "write COL op CONSTANT (op: = <> < <= > >=) or COL is [not] null, "
		               "joined by and (at '%.20s')",
		               t->k == T_END ? "the end" : t->p);
	p->at++;
	if (operand(p, &b) < 0)
		return -1;
	if ((a.col > 0) == (b.col > 0) || a.fn || b.fn)
		return err_set(p->e, ERR_USAGE,
		               "a term compares one column (not a function of one) with a "
		               "constant");
	m->op = a.col > 0 ? ops[k].op : ops[k].flipped;
	m->col = a.col > 0 ? a.col : b.col;
	if (fit_constant(p, m, a.col > 0 ? &b : &a) < 0)
		return -1;
	x->npred++;
	return 0;
}

int schema_idx_spec_col(const char *name, size_t len, int quoted, void *ctx)
{
	const struct schema *s = ctx;
	int i;

	for (i = 0; i < s->ncols; i++)
		if (strlen(s->cols[i].name) == len &&
		    (quoted ? strncmp : strncasecmp)(s->cols[i].name, name, len) == 0)
			return i;
	return -1;
}

int schema_idx_parse_where(const struct schema *s, const char *text, schema_idx_lookup *look,
                           void *ctx, struct index_spec *x, struct err *e)
{
	static _Thread_local struct parse p;

	p.s = s;
	p.look = look;
	p.ctx = ctx;
	p.e = e;
	x->npred = 0;
	if (lex(&p, text) < 0)
		return -1;
	if (peek(&p)->k == T_END)
		return err_set(e, ERR_USAGE, "an empty WHERE");
	if (and_list(&p, x) < 0)
		return -1;
	if (peek(&p)->k != T_END)
		return err_set(e, ERR_USAGE, "'%.20s' after the last term", peek(&p)->p);
	return 0;
}

int schema_idx_parse_keys(const struct schema *s, const char *text, schema_idx_lookup *look,
                          void *ctx, struct index_spec *x, struct err *e)
{
	static _Thread_local struct parse p;

	p.s = s;
	p.look = look;
	p.ctx = ctx;
	p.e = e;
	x->ncols = 0;
	if (lex(&p, text) < 0)
		return -1;
	for (;;) {
		struct operand o;

		if (operand(&p, &o) < 0)
			return -1;
		if (o.col < 1)
			return err_set(e, ERR_USAGE, "a key is a column or lower(COL), upper(COL)");
		if (o.fn && s->cols[o.col].type != COL_TEXT)
			return err_set(e, ERR_USAGE, "%s(%s): %s is not a text column here",
			               schema_idx_fn_words[o.fn], s->cols[o.col].name,
			               s->cols[o.col].name);
		if (is_word(peek(&p), "collate"))
			return err_set(e, ERR_USAGE,
			               "a key with a COLLATE (idxlab compares bytes)");
		if (is_word(peek(&p), "asc") || is_word(peek(&p), "desc"))
			p.at++; /* the same btree either way */
		if (x->ncols == SCHEMA_IDX_COLS)
			return err_set(e, ERR_USAGE, "more than %d keys", SCHEMA_IDX_COLS);
		x->fn[x->ncols] = (unsigned char)o.fn;
		x->cols[x->ncols++] = o.col;
		if (peek(&p)->k == T_END)
			return 0;
		if (peek(&p)->k != T_COMMA)
			return err_set(e, ERR_USAGE, "'%.20s' after a key", peek(&p)->p);
		p.at++;
	}
}
