/* schema_gen.c - a generated column's expression: parsed into a tree of at
 * most GEN_NODES nodes by recursive descent, and written back from the
 * tree for the spec, PostgreSQL or SQLite (schema_gen.h). The text is
 * read once per parse and nothing of it is copied out but numbers and
 * text constants of the admitted characters, and columns by number. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "schema_gen.h"

/* In the order of enum gen_fn. */
static const char *const fns[] = { "lower", "upper", "length", "abs", "coalesce" };
#define FN_COALESCE GF_COALESCE

/* A cast's words as PostgreSQL's catalog writes them, and what each
 * dialect writes (SQLite: the affinity of CAST); in the order of enum
 * gen_cast. */
static const struct {
	const char *word, *pg, *lite;
} casts[] = {
	{ "text", "text", "TEXT" },
	{ "character varying", "text", "TEXT" },
	{ "integer", "integer", "INTEGER" },
	{ "bigint", "bigint", "INTEGER" },
	{ "smallint", "smallint", "INTEGER" },
	{ "numeric", "numeric", "NUMERIC" },
};

struct gparse {
	const char *p;
	const struct schema *s;
	schema_idx_lookup *look;
	void *ctx;
	struct err *e;
	struct gnode n[GEN_NODES];
	int nn, depth;
};

static void skip(struct gparse *g)
{
	while (isspace((unsigned char)*g->p))
		g->p++;
}

/* "before WORD after": WORD the len bytes of the text at word (cut at
 * 32; err_set escapes what it holds). */
static int fail(struct gparse *g, const char *before, const char *word, int len, const char *after)
{
	return err_set(g->e, ERR_USAGE, "%s%.*s%s", before,
	               len < 0    ? 0
	               : len > 32 ? 32
	                          : len,
	               word, after);
}

static int node(struct gparse *g, enum gen_kind k)
{
	if (g->nn == GEN_NODES)
		return fail(g, "more than 48 terms", "", 0, "");
	memset(&g->n[g->nn], 0, sizeof g->n[g->nn]);
	g->n[g->nn].k = k;
	return g->nn++;
}

static int expr(struct gparse *g);

static int safe_char(char c)
{
	return isalnum((unsigned char)c) || (c && strchr(" _.:@/+-", c));
}

static int column(struct gparse *g, const char *name, int len, int quoted)
{
	int col = g->look(name, (size_t)len, quoted, g->ctx), i;

	if (col < 1 || col >= g->s->ncols)
		return col == 0 ? fail(g, "", name, len,
		                       ": the primary key is not one a generated column reads")
		                : fail(g, "no column ", name, len, "");
	if (g->s->cols[col].gen[0])
		return fail(g, "", name, len,
		            " is a generated column: one generated column does not read another");
	if ((i = node(g, G_COL)) < 0)
		return -1;
	g->n[i].which = col;
	return i;
}

static int primary(struct gparse *g)
{
	const char *w;
	int i, len;

	skip(g);
	w = g->p;
	if (*g->p == '(') {
		g->p++;
		if ((i = expr(g)) < 0)
			return -1;
		skip(g);
		if (*g->p != ')')
			return fail(g, "a ( without its )", "", 0, "");
		g->p++;
		g->n[i].paren = 1;
		return i;
	}
	if (isdigit((unsigned char)*g->p)) {
		while (isdigit((unsigned char)*g->p))
			g->p++;
		if (*g->p == '.' && isdigit((unsigned char)g->p[1]))
			for (g->p++; isdigit((unsigned char)*g->p);)
				g->p++;
		len = (int)(g->p - w);
		if (len >= SCHEMA_PRED_TEXT || (i = node(g, G_NUM)) < 0)
			return len >= SCHEMA_PRED_TEXT
			           ? fail(g, "number ", w, len, "... is too long")
			           : -1;
		snprintf(g->n[i].text, sizeof g->n[i].text, "%.*s", len, w);
		return i;
	}
	if (*g->p == '\'') {
		for (g->p++; *g->p && *g->p != '\''; g->p++)
			if (!safe_char(*g->p))
				return fail(
				    g, "'", g->p, 1,
				    "' in a text constant: idxlab takes a-z A-Z 0-9 space and "
				    "_ . : @ / + - there");
		len = (int)(g->p - w - 1);
		if (*g->p != '\'' || len >= SCHEMA_PRED_TEXT)
			return fail(g, "a text constant ", w, 12, "... not closed, or too long");
		g->p++;
		if ((i = node(g, G_STR)) < 0)
			return -1;
		snprintf(g->n[i].text, sizeof g->n[i].text, "%.*s", len, w + 1);
		return i;
	}
	if (*g->p == '"' || *g->p == '`') {
		char q = *g->p;
		const char *end = strchr(g->p + 1, q);

		if (!end)
			return fail(g, "a quoted name ", w, 12, "... not closed");
		g->p = end + 1;
		return column(g, w + 1, (int)(end - w - 1), 1);
	}
	if (isalpha((unsigned char)*g->p) || *g->p == '_') {
		size_t f;

		while (isalnum((unsigned char)*g->p) || *g->p == '_')
			g->p++;
		len = (int)(g->p - w);
		skip(g);
		if (*g->p != '(')
			return column(g, w, len, 0);
		for (f = 0; f < sizeof fns / sizeof fns[0]; f++)
			if (strlen(fns[f]) == (size_t)len &&
			    strncasecmp(fns[f], w, (size_t)len) == 0)
				break;
		if (f == sizeof fns / sizeof fns[0])
			return fail(g, "function ", w, len,
			            ": a generated column here calls lower, upper, length, abs or "
			            "coalesce");
		if ((i = node(g, G_FN)) < 0)
			return -1;
		g->n[i].which = (int)f;
		g->p++;
		do {
			int a = expr(g);

			if (a < 0)
				return -1;
			if (g->n[i].nargs == GEN_ARGS)
				return fail(g, "coalesce takes at most 4 arguments", "", 0, "");
			g->n[i].arg[g->n[i].nargs++] = a;
			skip(g);
		} while (*g->p == ',' && g->p++);
		if (*g->p != ')')
			return fail(g, "a ( without its )", "", 0, "");
		g->p++;
		if ((f == FN_COALESCE) != (g->n[i].nargs > 1))
			return fail(g, "", fns[f], (int)strlen(fns[f]),
			            f == FN_COALESCE ? " takes 2 to 4 arguments"
			                             : " takes one argument");
		return i;
	}
	return fail(g, "'", w, *w ? 1 : 0,
	            "' where a column, a number, a text constant or ( was expected");
}

static int postfix(struct gparse *g)
{
	int i = primary(g), c;

	for (skip(g); i >= 0 && g->p[0] == ':' && g->p[1] == ':'; skip(g)) {
		size_t k;

		g->p += 2;
		skip(g);
		for (k = 0; k < sizeof casts / sizeof casts[0]; k++)
			if (strncasecmp(g->p, casts[k].word, strlen(casts[k].word)) == 0 &&
			    !isalnum((unsigned char)g->p[strlen(casts[k].word)]))
				break;
		if (k == sizeof casts / sizeof casts[0])
			return fail(g, "::", g->p, (int)strcspn(g->p, " )"),
			            ": the casts here are to text, integer, bigint, smallint and "
			            "numeric");
		g->p += strlen(casts[k].word);
		if ((c = node(g, G_CAST)) < 0)
			return -1;
		g->n[c].which = (int)k;
		g->n[c].nargs = 1;
		g->n[c].arg[0] = i;
		i = c;
	}
	return i;
}

static int unary(struct gparse *g)
{
	int i, a;

	skip(g);
	if (*g->p != '-')
		return postfix(g);
	g->p++;
	if ((a = unary(g)) < 0 || (i = node(g, G_NEG)) < 0)
		return -1;
	g->n[i].nargs = 1;
	g->n[i].arg[0] = a;
	return i;
}

/* One level of binary operators: ops (its characters; '|' is ||). */
static int level(struct gparse *g, int (*next)(struct gparse *), const char *ops)
{
	int a, b, i;

	if (++g->depth > 32)
		return fail(g, "nested more than 32 deep", "", 0, "");
	a = next(g);
	for (skip(g); a >= 0 && *g->p && strchr(ops, *g->p); skip(g)) {
		char op = *g->p;

		if (op == '|' && g->p[1] != '|')
			return fail(g, "'", g->p, 1, "': the operators here are + - * / and ||");
		g->p += op == '|' ? 2 : 1;
		if ((b = next(g)) < 0 || (i = node(g, G_BIN)) < 0)
			return -1;
		g->n[i].op = op;
		g->n[i].nargs = 2;
		g->n[i].arg[0] = a;
		g->n[i].arg[1] = b;
		a = i;
	}
	g->depth--;
	return a;
}

static int mul(struct gparse *g)
{
	return level(g, unary, "*/");
}

static int add(struct gparse *g)
{
	return level(g, mul, "+-");
}

static int expr(struct gparse *g)
{
	int i = level(g, add, "|"), j;

	/* a || b + c is (a || b) + c on SQLite, a || (b + c) on PostgreSQL */
	for (j = i; j >= 0 && g->n[j].k == G_BIN && g->n[j].op == '|' && !g->n[j].paren;
	     j = g->n[j].arg[0]) {
		const struct gnode *l = &g->n[g->n[j].arg[0]], *r = &g->n[g->n[j].arg[1]];

		if ((l->k == G_BIN && l->op != '|' && !l->paren) || (r->k == G_BIN && !r->paren))
			return fail(g, "|| beside + - * / without parentheses", "", 0,
			            ": the engines rank them differently; write (a + b) || c");
	}
	return i;
}

/* ---- writing ------------------------------------------------------------- */

struct gout {
	char *buf;
	size_t len, n;
	enum gen_dialect d;
	schema_idx_name *name;
	const void *nctx;
};

__attribute__((format(printf, 2, 3))) static void put(struct gout *o, const char *fmt, ...)
{
	va_list ap;
	int w;

	if (o->n >= o->len)
		return;
	va_start(ap, fmt);
	w = vsnprintf(o->buf + o->n, o->len - o->n, fmt, ap);
	va_end(ap);
	o->n = w < 0 ? o->len : o->n + (size_t)w;
}

static void write_node(const struct gparse *g, int i, struct gout *o)
{
	const struct gnode *x = &g->n[i];
	int a;

	switch (x->k) {
	case G_COL:
		put(o, "%s", o->name(x->which, o->nctx));
		break;
	case G_NUM:
		put(o, "%s", x->text);
		break;
	case G_STR:
		put(o, "'%s'", x->text);
		break;
	case G_NEG:
		put(o, "(-");
		write_node(g, x->arg[0], o);
		put(o, ")");
		break;
	case G_BIN:
		put(o, "(");
		write_node(g, x->arg[0], o);
		put(o, x->op == '|' ? " || " : " %c ", x->op);
		if (x->op == '/' && o->d == GEN_PG)
			put(o, "NULLIF(");
		write_node(g, x->arg[1], o);
		put(o, "%s)", x->op == '/' && o->d == GEN_PG ? ", 0)" : "");
		break;
	case G_FN:
		put(o, "%s(", fns[x->which]);
		for (a = 0; a < x->nargs; a++) {
			put(o, "%s", a ? ", " : "");
			write_node(g, x->arg[a], o);
		}
		put(o, ")");
		break;
	case G_CAST:
		put(o, o->d == GEN_SQLITE ? "CAST(" : "(");
		write_node(g, x->arg[0], o);
		if (o->d == GEN_SQLITE)
			put(o, " AS %s)", casts[x->which].lite);
		else
			put(o, ")::%s", casts[x->which].pg);
		break;
	}
}

static const char *spec_name(int col, const void *ctx)
{
	const struct schema *s = ctx;

	return s->cols[col].name;
}

/* text parsed whole into g: its root node, or -1 and why. */
static int parse_all(struct gparse *g, const struct schema *s, const char *text,
                     schema_idx_lookup *look, void *ctx, struct err *e)
{
	int root;

	memset(g, 0, sizeof *g);
	g->p = text;
	g->s = s;
	g->look = look;
	g->ctx = ctx;
	g->e = e;
	if ((root = expr(g)) < 0)
		return -1;
	skip(g);
	if (*g->p)
		return fail(g, "'", g->p, (int)strcspn(g->p, " "), "' after the expression");
	return root;
}

int schema_gen_tree(const struct schema *s, int col, struct gen_tree *t, struct err *e)
{
	static _Thread_local struct gparse g;

	if ((t->root = parse_all(&g, s, s->cols[col].gen, schema_idx_spec_col, (void *)s, e)) < 0)
		return -1;
	memcpy(t->n, g.n, sizeof t->n);
	t->nn = g.nn;
	return 0;
}

static int parse_write(const struct schema *s, const char *text, schema_idx_lookup *look, void *ctx,
                       struct gout *o, struct err *e)
{
	static _Thread_local struct gparse g;
	int root;

	if ((root = parse_all(&g, s, text, look, ctx, e)) < 0)
		return -1;
	o->n = 0;
	o->buf[0] = 0;
	write_node(&g, root, o);
	if (g.n[root].k == G_BIN && o->n >= 2 && o->n < o->len) {
		memmove(o->buf, o->buf + 1, o->n - 2); /* the () around it hold it */
		o->buf[o->n -= 2] = 0;
	}
	if (o->n >= o->len)
		return err_set(e, ERR_USAGE, "the expression is longer than %zu characters here",
		               o->len - 1);
	return 0;
}

int schema_gen_parse(const struct schema *s, const char *text, schema_idx_lookup *look, void *ctx,
                     char *out, size_t len, struct err *e)
{
	struct gout o = { out, len, 0, GEN_SPEC, spec_name, s };

	return parse_write(s, text, look, ctx, &o, e);
}

int schema_gen_sql(const struct schema *s, int col, enum gen_dialect d, schema_idx_name *name,
                   const void *nctx, char *buf, size_t len, struct err *e)
{
	struct gout o = { buf, len, 0, d, name, nctx };

	if (parse_write(s, s->cols[col].gen, schema_idx_spec_col, (void *)s, &o, e) < 0)
		return err_prefix(e, "column %s: generated (%s)", s->cols[col].name,
		                  s->cols[col].gen);
	return 0;
}

int schema_gen_skip(const struct schema *s, int *cols, int n)
{
	int out[SCHEMA_COLS_MAX] = { 0 }, m = 0, i, j, c, seen[SCHEMA_COLS_MAX] = { 0 };

	for (i = 0; i < n; i++)
		if (cols[i] >= 0 && cols[i] < s->ncols && !s->cols[cols[i]].gen[0])
			seen[cols[i]] = 1;
	for (i = 0; i < n; i++) {
		if (cols[i] < 0 || cols[i] >= s->ncols || !s->cols[cols[i]].gen[0]) {
			out[m++] = cols[i];
			continue;
		}
		/* the columns it reads: each name of s found in its text */
		for (c = 1; c < s->ncols; c++) {
			const char *p = s->cols[cols[i]].gen;
			size_t l = strlen(s->cols[c].name);

			if (seen[c] || s->cols[c].gen[0])
				continue;
			for (j = 0; p[j]; j++)
				if (strncmp(p + j, s->cols[c].name, l) == 0 &&
				    (j == 0 ||
				     !(isalnum((unsigned char)p[j - 1]) || p[j - 1] == '_')) &&
				    !(isalnum((unsigned char)p[j + (int)l]) ||
				      p[j + (int)l] == '_') &&
				    (j == 0 || p[j - 1] != '\''))
					break;
			if (p[j] && m < SCHEMA_COLS_MAX) {
				seen[c] = 1;
				out[m++] = c;
			}
		}
	}
	memcpy(cols, out, (size_t)m * sizeof *out);
	return m;
}

int schema_gen_words(const struct schema *s, struct column *c, char **rest, struct err *e)
{
	char *p = *rest, text[512], word[16];
	int depth = 0, quoted = 0;
	size_t n;

	while (isspace((unsigned char)*p))
		p++;
	if (*p != '(')
		return err_set(e, ERR_USAGE,
		               "%s: generated (EXPR) [stored]: the expression in parentheses, e.g. "
		               "generated (price * qty) stored",
		               c->name);
	for (n = 0; p[n]; n++) {
		if (p[n] == '\'')
			quoted = !quoted;
		else if (!quoted && p[n] == '(')
			depth++;
		else if (!quoted && p[n] == ')' && --depth == 0)
			break;
	}
	if (!p[n] || n - 1 >= sizeof text)
		return err_set(e, ERR_USAGE, "%s: generated (EXPR): a ( without its ), or too long",
		               c->name);
	snprintf(text, sizeof text, "%.*s", (int)n - 1, p + 1);
	if (schema_gen_parse(s, text, schema_idx_spec_col, (void *)s, c->gen, sizeof c->gen, e) < 0)
		return err_prefix(e, "%s: generated (%s)", c->name, text);
	p += n + 1;
	c->gen_stored = 0;
	if (sscanf(p, " %15s", word) == 1 &&
	    (strcmp(word, "stored") == 0 || strcmp(word, "virtual") == 0)) {
		c->gen_stored = word[0] == 's';
		p = strstr(p, word) + strlen(word);
	}
	*rest = p;
	return 0;
}

int schema_gen_check(const struct schema *s, int col, struct err *e)
{
	char buf[SCHEMA_GEN_MAX * 2];

	if (col == 0 || strnlen(s->cols[col].gen, SCHEMA_GEN_MAX) == SCHEMA_GEN_MAX)
		return err_set(e, ERR_USAGE, "column %d's expression is not one idxlab writes",
		               col);
	if (s->hot_col == col)
		return err_set(e, ERR_USAGE,
		               "hot %s: a generated column; op update changes a column the engine "
		               "does not compute",
		               s->cols[col].name);
	return schema_gen_sql(s, col, GEN_SPEC, spec_name, s, buf, sizeof buf, e);
}
