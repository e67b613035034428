/* xalloc.c - strdup and calloc that abort rather than return NULL. */
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		abort();
	return d;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		abort();
	return p;
}
