/* err.c - filling struct err. */
#include "err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void err_escape(const char *s, char *buf, size_t len)
{
	size_t n = 0;

	if (!len)
		return;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		char esc[5] = { c, 0 };

		if (c == '\n' || c == '\r' || c == '\t')
			snprintf(esc, sizeof esc, "\\%c", c == '\n' ? 'n' : c == '\r' ? 'r' : 't');
		else if (c < 0x20 || c == 0x7f)
			snprintf(esc, sizeof esc, "\\x%02x", c);
		if (n + strlen(esc) >= len)
			break;
		memcpy(buf + n, esc, strlen(esc));
		n += strlen(esc);
	}
	buf[n] = 0;
}

int err_set(struct err *e, enum err_class cls, const char *fmt, ...)
{
	char raw[ERR_MSG_SIZE];
	va_list ap;

	if (!e)
		return -1;
	e->cls = cls;
	va_start(ap, fmt);
	vsnprintf(raw, sizeof raw, fmt, ap);
	va_end(ap);
	err_escape(raw, e->msg, sizeof e->msg);
	return -1;
}

int err_prefix(struct err *e, const char *fmt, ...)
{
	char head[256], old[sizeof e->msg];
	va_list ap;

	if (!e)
		return -1;
	va_start(ap, fmt);
	vsnprintf(old, sizeof old, fmt, ap);
	va_end(ap);
	err_escape(old, head, sizeof head);
	memcpy(old, e->msg, sizeof old);
	/* A too-long message is cut at the end, never at the front. */
	if (snprintf(e->msg, sizeof e->msg, "%s: %.*s", head, (int)(sizeof e->msg - 1), old) < 0)
		e->msg[0] = 0;
	return -1;
}
