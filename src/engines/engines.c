/* engines.c - the table of engines built into this idxlab. */
#include <string.h>

#include "engine.h"

extern const struct engine_ops sqlite_engine;
extern const struct engine_ops postgres_engine;

const struct engine_ops *const engine_table[] = {
	&sqlite_engine,
	&postgres_engine,
	NULL,
};

const struct engine_ops *engine_find(const char *name)
{
	int i;

	for (i = 0; engine_table[i]; i++)
		if (strcmp(engine_table[i]->name, name) == 0)
			return engine_table[i];
	return NULL;
}
