/* err.c - filling struct err. */
#include "err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "redact.h"

/* Every message passes here: none may show a password (redact.h). */
static void scrub(struct err *e)
{
	char raw[sizeof e->msg];

	memcpy(raw, e->msg, sizeof raw);
	redact_text(raw, e->msg, sizeof e->msg);
}

int err_set(struct err *e, enum err_class cls, const char *fmt, ...)
{
	va_list ap;

	if (!e)
		return -1;
	e->cls = cls;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof e->msg, fmt, ap);
	va_end(ap);
	scrub(e);
	return -1;
}

int err_prefix(struct err *e, const char *fmt, ...)
{
	char head[256], old[sizeof e->msg];
	va_list ap;

	if (!e)
		return -1;
	va_start(ap, fmt);
	vsnprintf(head, sizeof head, fmt, ap);
	va_end(ap);
	memcpy(old, e->msg, sizeof old);
	/* A too-long message is cut at the end, never at the front. */
	if (snprintf(e->msg, sizeof e->msg, "%s: %.*s", head, (int)(sizeof e->msg - 1), old) < 0)
		e->msg[0] = 0;
	scrub(e);
	return -1;
}
