/* xalloc.c - strdup that aborts rather than return NULL. */
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
