/* bare_args.h - what the bare loops of bench/ share: their command line,
 * parsed with idxlab's own knob parser so both sides take the same strings,
 * their signals, their result line and the clock. */
#ifndef IDXLAB_BARE_ARGS_H
#define IDXLAB_BARE_ARGS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "knobs.h"

struct bare_opt {
	const char *opt; /* "--rows" */
	int knob;        /* the knob whose syntax and range it takes */
};

/* Parse "--opt value" pairs of argv into k (the caller sets its defaults);
 * text/csv output only. -h/--help prints usage to
 * stdout and exits 0. 0, or 2 after saying why on stderr. prog names the
 * program in messages. */
int bare_parse_args(const char *prog, int argc, char **argv, const struct bare_opt *opts,
                    size_t nopts, struct knobs *k, void (*usage)(FILE *));

/* A loop of integer keys only: 0, or 2 after saying so (--key-order). */
int bare_integer_keys(const char *prog, const struct knobs *k);

/* Send SIGINT, SIGTERM and SIGHUP to handler. */
void bare_on_signals(void (*handler)(int));

/* The result on stdout: "ROWS SECONDS", or CSV with rate columns. */
void bare_print(int csv, uint64_t rows, double seconds);

/* CLOCK_MONOTONIC in ns. */
uint64_t bare_now_ns(void);

#endif
