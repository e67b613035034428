/* infile.c - a user's input file: opened without blocking, read in lines
 * of bounded length.
 *
 * O_NONBLOCK makes the open of a FIFO return at once (and is cleared again
 * before reading: a regular file never blocks anyway); fstat on the open
 * descriptor then says what it is, with no race against a rename. Symbolic
 * links are followed: a config file linked from a dotfiles repository is
 * common, and the target must be a regular file all the same. */
#include "infile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What a file of mode m is, for a message; NULL for a regular file. */
static const char *not_regular(mode_t m)
{
	if (S_ISREG(m))
		return NULL;
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISFIFO(m))
		return "a FIFO (named pipe)";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a file";
}

FILE *infile_open(const char *path, const char *what, struct err *e)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), saved;
	const char *kind;
	struct stat st;
	FILE *f;

	if (fd < 0) {
		err_set(e, ERR_USAGE, "cannot read %s%s%s: %s", what ? what : "", what ? " " : "",
		        path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) < 0) {
		saved = errno;
		close(fd);
		err_set(e, ERR_USAGE, "cannot read %s%s%s: %s", what ? what : "", what ? " " : "",
		        path, strerror(saved));
		return NULL;
	}
	if ((kind = not_regular(st.st_mode)) != NULL) {
		close(fd);
		err_set(e, ERR_USAGE, "cannot read %s%s%s: it is %s, not a regular file",
		        what ? what : "", what ? " " : "", path, kind);
		return NULL;
	}
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0 || !(f = fdopen(fd, "r"))) {
		saved = errno;
		close(fd);
		err_set(e, ERR_USAGE, "cannot read %s%s%s: %s", what ? what : "", what ? " " : "",
		        path, strerror(saved));
		return NULL;
	}
	return f;
}

enum infile_rc infile_getline(FILE *f, char **buf, size_t *cap, size_t max, size_t *len)
{
	size_t n = 0;
	int c = 0;

	for (;;) {
		if (n + 2 > *cap) { /* room for c and the terminator */
			size_t want = *cap < 128 ? 128 : *cap * 2;
			char *p;

			if (want > max + 2)
				want = max + 2;
			if (want <= *cap) { /* at max + 2 already */
				*len = n;
				return INFILE_LONG;
			}
			p = realloc(*buf, want);
			if (!p)
				abort();
			*buf = p;
			*cap = want;
		}
		if ((c = getc_unlocked(f)) == EOF)
			break;
		if (c != '\n' && n == max) { /* a byte past max that is no newline */
			(*buf)[n] = 0;
			*len = n;
			return INFILE_LONG;
		}
		(*buf)[n++] = (char)c;
		if (c == '\n')
			break;
	}
	(*buf)[n] = 0;
	*len = n;
	if (c == EOF && ferror(f))
		return INFILE_ERROR;
	return n > 0 ? INFILE_LINE : INFILE_EOF;
}
