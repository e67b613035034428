/* engines.c - the table of engines built into this idxlab.
 *
 * Engines whose library was missing at build time are simply absent: their
 * ops are weak symbols that stay NULL. */
#include <string.h>

#include "engine.h"

extern const struct engine_ops sqlite_engine;
extern const struct engine_ops postgres_engine;
extern const struct engine_ops mongo_engine __attribute__((weak));
extern const struct engine_ops wiredtiger_engine __attribute__((weak));

const struct engine_ops *const engine_table[E_COUNT] = {
	[E_SQLITE] = &sqlite_engine,
	[E_POSTGRES] = &postgres_engine,
	[E_MONGO] = &mongo_engine,
	[E_WIREDTIGER] = &wiredtiger_engine,
};

const struct engine_ops *engine_find(const char *name)
{
	int i;

	for (i = 0; i < E_COUNT; i++)
		if (engine_table[i] && strcmp(engine_table[i]->name, name) == 0)
			return engine_table[i];
	return NULL;
}
