/* err.h - the error every fallible call fills in.
 *
 * Functions return 0 on success or -1 on failure; on failure they fill a
 * struct err with a class (which exit code main() will use) and a message a
 * person can act on: what failed, why, and what to do about it. */
#ifndef IDXLAB_ERR_H
#define IDXLAB_ERR_H

#include <stddef.h>

enum err_class {
	ERR_NONE = 0,
	ERR_RUNTIME = 1, /* engine error, disk full, lost server: exit 1 */
	ERR_USAGE = 2,   /* bad flag, bad config line, refused target: exit 2 */
};

#define ERR_MSG_SIZE 1024

struct err {
	enum err_class cls;
	char msg[ERR_MSG_SIZE];
};

/* A message is one line of text: err_set and err_prefix write the control
 * characters in it (from a value or a file name the user gave) escaped, as
 * err_escape does. */

/* Fill e (if not NULL) and return -1, so callers can `return err_set(...)`. */
int err_set(struct err *e, enum err_class cls, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Put `prefix: ` in front of the message already in e; returns -1. */
int err_prefix(struct err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* s into buf (len bytes, always terminated, cut if it does not fit, never
 * inside a character) with each control character written as \n, \r, \t
 * or \xHH: bytes below 0x20, DEL, the C1 controls U+0080..U+009F, and each
 * byte that is not part of valid UTF-8. The one escaping of text from
 * outside (names read from a source, file names, values) wherever it is
 * printed; escaped text passes through it unchanged. */
void err_escape(const char *s, char *buf, size_t len);

#endif
