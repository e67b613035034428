/* compare_int.h - what the two halves of --compare share (compare.h):
 * a saved run as text records (compare_read.c), matched and judged by
 * compare.c. */
#ifndef IDXLAB_COMPARE_INT_H
#define IDXLAB_COMPARE_INT_H

#include "err.h"

/* One record as text: a line of a saved run, or a record of this run. */
struct rec {
	int line;          /* its line in the file (0: this run's) */
	int n;             /* fields */
	const char **name; /* the fields' names (interned: valid for the process' life) */
	char **val;        /* owned (a saved one's); NULL: n/a */
};

/* A saved run: its step records (record=step), in file order. */
struct saved {
	char *path;       /* owned */
	const char *flag; /* the option that named it, for messages (static) */
	struct rec *step;
	int nstep;
};

/* Read path (CSV or JSON lines written by idxlab run) into s. -1
 * (ERR_USAGE) naming flag, path:line (compare.h: compare_open). */
int saved_read(struct saved *s, const char *path, const char *flag, struct err *e);

/* Free what saved_read filled (safe on a half-read one). */
void saved_free(struct saved *s);

/* r's value of field name, or NULL (n/a, or no such field). */
const char *rec_get(const struct rec *r, const char *name);

/* r as a record again, to be written as this run's are (--compare-new in
 * CSV or JSON): a value that reads whole as a number is one (its
 * decimals as written), n/a is n/a, any other a string. */
struct record;
void rec_to_record(const struct rec *r, struct record *out);

/* name as a field name of the process' life (the same pointer for the
 * same name). */
const char *compare_intern(const char *name);

#endif
