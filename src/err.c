/* err.c - filling struct err.
 *
 * Every message passes through redact_text() here, so none shows a
 * password (redact.h). A message is masked before it is cut to fit, so a
 * cut never leaves part of a password unmasked. */
#include "err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "redact.h"

#define RAW_MAX (4 * sizeof((struct err *)0)->msg)

int err_set(struct err *e, enum err_class cls, const char *fmt, ...)
{
	char raw[RAW_MAX];
	va_list ap;

	if (!e)
		return -1;
	e->cls = cls;
	va_start(ap, fmt);
	vsnprintf(raw, sizeof raw, fmt, ap);
	va_end(ap);
	redact_text(raw, e->msg, sizeof e->msg);
	return -1;
}

int err_prefix(struct err *e, const char *fmt, ...)
{
	char head[256], raw[RAW_MAX];
	va_list ap;

	if (!e)
		return -1;
	va_start(ap, fmt);
	vsnprintf(head, sizeof head, fmt, ap);
	va_end(ap);
	/* A too-long message is cut at the end, never at the front. */
	if (snprintf(raw, sizeof raw, "%s: %s", head, e->msg) < 0)
		raw[0] = 0;
	redact_text(raw, e->msg, sizeof e->msg);
	return -1;
}
