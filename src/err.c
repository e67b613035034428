/* err.c - filling struct err.
 *
 * Every message passes through redact_text() here, so none shows a
 * password (redact.h), and then through err_escape(), so none holds a
 * control character (a message is one line). A message is masked before it
 * is cut to fit, so a cut never leaves part of a password unmasked. */
#include "err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "redact.h"

#define RAW_MAX (4 * ERR_MSG_SIZE)

void err_escape(const char *s, char *buf, size_t len)
{
	size_t n = 0;

	if (!len)
		return;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		char esc[5] = { (char)c, 0 };

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

/* raw, masked and escaped, cut to fit into e->msg. */
static void err_store(struct err *e, const char *raw)
{
	char masked[RAW_MAX];

	redact_text(raw, masked, sizeof masked);
	err_escape(masked, e->msg, sizeof e->msg);
}

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
	err_store(e, raw);
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
	err_store(e, raw);
	return -1;
}
