/* conf_line.h - idxlab's line syntax, shared by config files, demo
 * scripts and table spec files (conf_line.c): a file read line by line,
 * `key = value` lines, and "did you mean". Below the plan: the readers of
 * demos and specs include this, not config.h. */
#ifndef IDXLAB_CONF_LINE_H
#define IDXLAB_CONF_LINE_H

#include "err.h"

/* Read a file of idxlab's line syntax: `#` starts a comment at the start of
 * a line or after whitespace; blank lines are skipped; fn gets each other
 * line, trimmed, and its number. An error of fn is prefixed "path:line".
 * Only a regular file is read (infile.h: a FIFO, a device or a directory is
 * refused at once), and no line longer than CONFIG_LINE_MAX bytes. */
#define CONFIG_LINE_MAX 8191 /* a derived spec's notes (4096 bytes) fit on one comment line */
typedef int config_line_fn(char *line, int lineno, void *ctx, struct err *e);
int config_read(const char *path, config_line_fn *fn, void *ctx, struct err *e);

/* The word nth(0, ctx), nth(1, ctx), ... (until NULL) closest to word, for
 * "did you mean"; NULL when none is close. */
const char *config_closest(const char *word, const char *(*nth)(int i, const void *ctx),
                           const void *ctx);

#endif
