/* xalloc.h - allocation that cannot fail.
 *
 * Out of memory, these abort(): the dashboard's SIGABRT handler restores
 * the terminal first, so the shell is left usable. For small copies whose
 * failure nobody could act on; callers free what they get with free(). */
#ifndef IDXLAB_XALLOC_H
#define IDXLAB_XALLOC_H

#include <stddef.h>

/* A malloc'd copy of s (not NULL); the caller frees it. */
char *xstrdup(const char *s);

/* calloc(n, size), never NULL; the caller frees it. */
void *xcalloc(size_t n, size_t size);

#endif
