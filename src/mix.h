/* mix.h - a mixed workload: ops drawn by weight (--mix; mix.c). */
#ifndef IDXLAB_MIX_H
#define IDXLAB_MIX_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "vocab.h"

/* The mix knob: "insert:80,lookup:20" (weights in whole percent adding to
 * 100; any ops, each once) or none, to its registry
 * index (0: none); written back in op order, joined by + so a config
 * file's comma list keeps it one value ("insert:80+lookup:20" is read
 * too). */
int mix_resolve(const char *text, long long *out, struct err *e);
const char *mix_label(long long v);

struct knobs;

/* The mix k runs, its weights into w (NULL: not wanted): the mix knob's,
 * else, under a write op, the read-share knob's (op:100-N, lookup:N); 0
 * (w all 0) when k runs one op alone. */
int mix_of(const struct knobs *k, unsigned char w[OP_COUNT]);

/* The ops a step under k runs, bits 1u << enum op_kind: its mix's, else
 * its op alone (vocab.h's OPS_WRITES masks the write ops among them). */
unsigned mix_ops(const struct knobs *k);

/* The mix's read op under k (lookup or range), -1: none. */
int mix_read_op(const struct knobs *k);

/* k's mix as the mix knob writes it ("insert:80+lookup:20"), in buf. */
void mix_text(const struct knobs *k, char *buf, size_t len);

/* Mix v's weights by op kind into w; 0 (w all 0) when v is none. */
int mix_weights(long long v, unsigned char w[OP_COUNT]);

/* Mix v's first write op (reads 0) or read op (reads 1); -1: none (or no
 * mix). */
int mix_op(long long v, int reads);

/* The op operation n of a step draws under weights w (they add to 100),
 * from the seed: the same seed, the same sequence. */
int mix_draw(const unsigned char w[OP_COUNT], uint64_t seed, uint64_t n);

#endif
