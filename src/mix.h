/* mix.h - a mixed workload: ops drawn by weight (--mix; mix.c). */
#ifndef IDXLAB_MIX_H
#define IDXLAB_MIX_H

#include <stdint.h>

#include "err.h"
#include "vocab.h"

/* The mix knob: "insert:80,lookup:20" (weights in whole percent adding to
 * 100; one write op and one read op at most) or none, to its registry
 * index (0: none); written back in op order, joined by + so a config
 * file's comma list keeps it one value ("insert:80+lookup:20" is read
 * too). */
int mix_resolve(const char *text, long long *out, struct err *e);
const char *mix_label(long long v);

/* Mix v's weights by op kind into w; 0 (w all 0) when v is none. */
int mix_weights(long long v, unsigned char w[OP_COUNT]);

/* Mix v's write op (reads 0) or read op (reads 1); -1: none (or no mix). */
int mix_op(long long v, int reads);

/* The op operation n of a step draws under weights w (they add to 100),
 * from the seed: the same seed, the same sequence. */
int mix_draw(const unsigned char w[OP_COUNT], uint64_t seed, uint64_t n);

#endif
