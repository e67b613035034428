/* infile.h - opening and reading a file the user named as input.
 *
 * Config files, demos, spec files and recordings are named by the user and
 * may be anything: a FIFO (its open blocks until a writer comes), a device
 * (/dev/zero never ends and has no newline), a directory. infile_open()
 * opens without blocking and takes only a regular file (a symbolic link to
 * one is fine); infile_getline() reads a line of at most a given length, so
 * no file makes idxlab wait or grow without limit. */
#ifndef IDXLAB_INFILE_H
#define IDXLAB_INFILE_H

#include <stdio.h>

#include "err.h"

/* path opened to read, or NULL with e filled (ERR_USAGE: "cannot read
 * [WHAT ]PATH: it is a directory, not a regular file", or the system's
 * reason; what may be NULL). The caller fcloses it. */
FILE *infile_open(const char *path, const char *what, struct err *e);

enum infile_rc {
	INFILE_EOF = 0,    /* no more lines */
	INFILE_LINE = 1,   /* *buf holds a line */
	INFILE_LONG = -1,  /* the line has more than max bytes (its newline aside) */
	INFILE_ERROR = -2, /* a read error: errno says which */
};

/* The next line of f into *buf (grown as getline does, never past max + 2
 * bytes; the caller frees it), its newline kept, NUL-terminated; *len its
 * length, NUL bytes in it included. */
enum infile_rc infile_getline(FILE *f, char **buf, size_t *cap, size_t max, size_t *len);

#endif
