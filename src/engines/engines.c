/* engines.c - the table of engines built into this idxlab.
 *
 * One entry per row of ENGINE_LIST (engine_list.h). The Makefile leaves out
 * the sources of an engine whose library pkg-config cannot find; its ops,
 * referenced here as weak symbols, then stay NULL, and idxlab says "not
 * built" and which package to install. */
#include <stddef.h>
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

unsigned engine_measures(int kind)
{
	if (kind < 0 || kind >= E_COUNT || !engine_table[kind] || !engine_table[kind]->measures)
		return ~0u;
	return engine_table[kind]->measures() | 1u << C_ROWS | 1u << C_COMMITS;
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
