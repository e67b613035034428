/* schema_text.c - a spec as text, the other way from schema_file.c: the
 * names idxlab keeps for itself, a spec name made from outside text, and a
 * spec written back in the spec language (--print-config). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "schema_idx.h"
#include "schema_int.h"
#include "schema_part.h"

int schema_reserved(const char *name)
{
	static const char *const own[] = { "idxlab_t", "idxlab_t_pkey", "idxlab_meta", NULL };
	const char *p = "idxlab_t_p";
	int i;

	for (i = 0; own[i]; i++)
		if (strcmp(name, own[i]) == 0)
			return 1;
	/* a partitioned copy's partitions: idxlab_t_p0 .. (postgres/part.c) */
	if (strncmp(name, p, strlen(p)) == 0 && name[strlen(p)] &&
	    strspn(name + strlen(p), "0123456789") == strlen(name + strlen(p)))
		return 1;
	return 0;
}

void schema_name_from(const char *text, const char *prefix, char *out, size_t len)
{
	size_t o = 0;

	if (!len)
		return;
	if (!((*text >= 'a' && *text <= 'z') || (*text >= 'A' && *text <= 'Z') || *text == '_'))
		o = (size_t)snprintf(out, len, "%s", prefix);
	for (; *text && o + 1 < len; text++) {
		char c = *text;

		out[o++] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a')
		           : (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ? c
		                                                              : '_';
	}
	out[o < len ? o : len - 1] = 0;
}

void schema_order_text(const struct column *c, char *buf, size_t len)
{
	if (c->order == ORD_FEW)
		snprintf(buf, len, "few:%llu", (unsigned long long)c->n);
	else if (c->order == ORD_ZIPF && c->n != SCHEMA_ZIPF_N)
		snprintf(buf, len, "zipf:%g:%llu", c->s, (unsigned long long)c->n);
	else if (c->order == ORD_ZIPF)
		snprintf(buf, len, "zipf:%g", c->s);
	else if (c->order == ORD_LATE && c->per > 1)
		snprintf(buf, len, "late:%g%%:%g", c->late * 100, c->per);
	else if (c->order == ORD_LATE)
		snprintf(buf, len, "late:%g%%", c->late * 100);
	else if ((c->order == ORD_SEQ || c->order == ORD_DESC) && c->per > 1)
		snprintf(buf, len, "%s:%g", schema_order_words[c->order], c->per);
	else
		snprintf(buf, len, "%s",
		         c->order >= 0 && c->order < ORD_COUNT ? schema_order_words[c->order]
		                                               : "?");
}

double schema_null_percent(double share)
{
	return round(share * 1000) / 10;
}

/* A column as the spec language names it (schema_idx_name). */
static const char *col_name(int col, const void *ctx)
{
	const struct schema *s = ctx;

	return s->cols[col].name;
}

void schema_write(const struct schema *s, char *buf, size_t len)
{
	size_t n = 0;
	char t[32], o[32], t2[SCHEMA_PART_KEYS * SCHEMA_NAME_MAX + 48];
	int i, j;

#define PUT(...)                                                                                   \
	do {                                                                                       \
		if (n < len)                                                                       \
			n += (size_t)snprintf(buf + n, len - n, __VA_ARGS__);                      \
	} while (0)
	buf[0] = 0;
	PUT("table %s\n", s->name);
	schema_type_text(&s->cols[0], t, sizeof t);
	schema_order_text(&s->cols[0], o, sizeof o);
	if (s->cols[0].order == ORD_KNOB)
		PUT("id knob%s\n", s->id_unindexed ? " unindexed" : "");
	else
		PUT("id %s %s%s\n", t, o, s->id_unindexed ? " unindexed" : "");
	for (i = 1; i < s->ncols; i++) {
		schema_type_text(&s->cols[i], t, sizeof t);
		schema_order_text(&s->cols[i], o, sizeof o);
		PUT("column %s %s %s", s->cols[i].name, t, o);
		if (s->cols[i].ranged) {
			char r[96];

			schema_range_text(&s->cols[i], r, sizeof r);
			PUT(" %s", r);
		}
		if (s->cols[i].nulls > 0)
			PUT(" null:%g%%", schema_null_percent(s->cols[i].nulls));
		if (s->cols[i].gen[0])
			PUT(" generated (%s)%s", s->cols[i].gen,
			    s->cols[i].gen_stored ? " stored" : "");
		PUT("\n");
	}
	PUT("hot %s\n", s->hot[0] ? s->hot : "none");
	if (s->no_payload)
		PUT("payload none\n");
	schema_part_text(s, t2, sizeof t2);
	if (t2[0])
		PUT("%s\n", t2);
	for (i = 0; i < s->nindexes; i++) {
		const struct index_spec *x = &s->idx[i];
		char derived[SCHEMA_NAME_MAX], key[SCHEMA_NAME_MAX + 8], where[512];

		PUT("index ");
		for (j = 0; j < x->ncols; j++) {
			schema_idx_key_sql(x, j, col_name, s, key, sizeof key);
			PUT("%s%s", j ? "," : "", key);
		}
		if (x->unique)
			PUT(" unique");
		schema_idx_default_name(s, x, derived, sizeof derived);
		if (strcmp(derived, x->name) != 0)
			PUT(" name %s", x->name);
		schema_idx_where_sql(x, col_name, s, where, sizeof where);
		if (where[0])
			PUT(" where %s", where);
		PUT("\n");
	}
	if (s->without_rowid)
		PUT("without rowid\n");
	for (i = 0; i < s->nqueries && i < SCHEMA_QUERY_MAX; i++) {
		char q[SCHEMA_QUERY_TEXT];

		schema_query_text(s, &s->q[i], q, sizeof q);
		PUT("query %s%s\n", q, s->q[i].guessed ? " guessed" : "");
	}
#undef PUT
}
