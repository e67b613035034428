/* engines.c - the table of engines built into this idxlab.
 *
 * One entry per row of ENGINE_LIST (engine_list.h). The Makefile leaves out
 * the sources of an engine whose library pkg-config cannot find; its ops,
 * referenced here as weak symbols, then stay NULL, and idxlab says "not
 * built" and which package to install. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"

#define ENGINE_OPS_DECL(id, name, package)                                                         \
	extern const struct engine_ops name##_engine __attribute__((weak));
ENGINE_LIST(ENGINE_OPS_DECL)
#undef ENGINE_OPS_DECL

#define ENGINE_OPS_ROW(id, name, package) [E_##id] = &name##_engine,
const struct engine_ops *const engine_table[E_COUNT] = { ENGINE_LIST(ENGINE_OPS_ROW) };
#undef ENGINE_OPS_ROW

#define ENGINE_PACKAGE_ROW(id, name, package) [E_##id] = package,
static const char *const packages[E_COUNT] = { ENGINE_LIST(ENGINE_PACKAGE_ROW) };
#undef ENGINE_PACKAGE_ROW

const struct engine_ops *engine_find(const char *name)
{
	int i;

	for (i = 0; i < E_COUNT; i++)
		if (engine_table[i] && strcmp(knob_table[K_ENGINE].choices[i], name) == 0)
			return engine_table[i];
	return NULL;
}

const char *engine_package(int kind)
{
	return kind >= 0 && kind < E_COUNT ? packages[kind] : "";
}

static const struct engine_ops *built(int kind)
{
	return kind >= 0 && kind < E_COUNT ? engine_table[kind] : NULL;
}

int engine_figure(int kind)
{
	const struct engine_ops *ops = built(kind);

	return ops && ops->figure > 0 && ops->figure < M_COUNT ? ops->figure : M_WCHAR_PER_ROW;
}

const char *engine_where_shown(int kind, const char *where, int *own)
{
	const struct engine_ops *ops = built(kind);

	*own = 0;
	if (!where)
		return "";
	if (ops && ops->own_place && ops->where_own && ops->where_own(where)) {
		*own = 1;
		return ops->own_place;
	}
	return where;
}

int engine_read_source(const char *source, const char *table, struct table_shape *t, struct err *e)
{
	int i;

	for (i = 0; i < E_COUNT; i++) {
		const struct engine_ops *ops = built(i);

		if (ops && ops->reads_source && ops->reads_source(source))
			return ops->read_shape(source, table, t, e) < 0 ? -1 : i;
	}
	return -2;
}

void engine_defaults(struct knobs *k, const int *set)
{
	const struct engine_ops *ops = built((int)k->v[K_ENGINE]);
	const struct knob_default *d;

	for (d = ops ? ops->defaults : NULL; d && d->def; d++)
		if (!set || !set[d->knob])
			(void)knob_parse(d->knob, d->def, &k->v[d->knob], NULL);
}

void engine_defaults_text(int id, char *buf, size_t len)
{
	const struct knob_default *d;
	size_t n = 0;
	int i;

	if (len)
		buf[0] = 0;
	for (i = 0; i < E_COUNT; i++)
		for (d = engine_table[i] ? engine_table[i]->defaults : NULL; d && d->def && n < len;
		     d++)
			if (d->knob == id)
				n += (size_t)snprintf(buf + n, len - n, "; %s: %s",
				                      knob_table[K_ENGINE].choices[i], d->def);
}

unsigned engine_measures(int kind)
{
	const struct engine_ops *ops = built(kind);
	unsigned m;
	size_t t, i;

	if (!ops)
		return ~0u;
	/* what the step loop counts itself: rows, commits, queries, the rows
	 * they returned, and a mix's time per kind of operation */
	m = ops->measures_more | 1u << C_ROWS | 1u << C_COMMITS | 1u << C_READS |
	    1u << C_READ_ROWS | 1u << C_READ_NS | 1u << C_WRITE_NS | 1u << C_WRITES;
	for (t = 0; t < ENGINE_STATS_MAX && ops->stats[t]; t++)
		for (i = 0; i < ops->stats[t]->n; i++) {
			const struct engine_stats *s = ops->stats[t];
			enum ctr c;

			memcpy(&c, (const char *)s->rows + i * s->size + s->at, sizeof c);
			if (c != C_COUNT)
				m |= 1u << c;
		}
	return m;
}

int engine_has_knob(int kind, int id)
{
	const int *own;

	if (id < 0 || id >= K_COUNT || kind < 0 || kind >= E_COUNT)
		return 0;
	if (!(knob_table[id].flags & KF_ENGINE_OWN))
		return 1;
	if (!engine_table[kind] || !engine_table[kind]->own_knobs)
		return 0;
	for (own = engine_table[kind]->own_knobs; *own >= 0; own++)
		if (*own == id)
			return 1;
	return 0;
}
