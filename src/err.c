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

/* The length of the valid UTF-8 sequence at s that is no control
 * character (C1, U+0080..U+009F, is one: a terminal may take U+009B as
 * CSI), else 0. */
static size_t utf8_text(const unsigned char *s)
{
	size_t n = s[0] >= 0xc2 && s[0] <= 0xdf   ? 2
	           : s[0] >= 0xe0 && s[0] <= 0xef ? 3
	           : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4
	                                          : 0;
	size_t i;

	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if ((n == 2 && s[0] == 0xc2 && s[1] < 0xa0) ||  /* C1 */
	    (n == 3 && s[0] == 0xe0 && s[1] < 0xa0) ||  /* overlong */
	    (n == 3 && s[0] == 0xed && s[1] >= 0xa0) || /* a surrogate */
	    (n == 4 && s[0] == 0xf0 && s[1] < 0x90) ||  /* overlong */
	    (n == 4 && s[0] == 0xf4 && s[1] >= 0x90))   /* past U+10FFFF */
		return 0;
	return n;
}

void err_escape(const char *s, char *buf, size_t len)
{
	size_t n = 0;

	if (!len)
		return;
	while (*s) {
		unsigned char c = (unsigned char)*s;
		size_t take = c < 0x80 ? 1 : utf8_text((const unsigned char *)s);
		char esc[5] = { (char)c, 0 };
		const char *out = esc;
		size_t w;

		if (c == '\n' || c == '\r' || c == '\t')
			snprintf(esc, sizeof esc, "\\%c", c == '\n' ? 'n' : c == '\r' ? 'r' : 't');
		else if (c < 0x20 || c == 0x7f || !take)
			snprintf(esc, sizeof esc, "\\x%02x", c);
		else
			out = s; /* printable: as it is, a whole UTF-8 sequence at once */
		w = out == s ? take : strlen(esc);
		if (n + w >= len)
			break;
		memcpy(buf + n, out, w);
		n += w;
		s += take ? take : 1;
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
