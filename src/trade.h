/* trade.h - the trade in one sweep (issue 22): under a mix (--mix), the
 * step whose mix costs least per 1,000 operations, said after the records:
 *
 *   cheapest: indexes 1 - 22.9 ms per 1,000 operations (writes 0.016
 *   ms/row, queries 0.030 ms); indexes 0: 7532 ms, 6: 28.6 ms
 *
 * The steps compared are a mix's finished steps ("record" "step") that
 * differ in the indexes knob only; any other difference keeps them apart
 * (each group its own line). */
#ifndef IDXLAB_TRADE_H
#define IDXLAB_TRADE_H

#include <stdio.h>

#include "knobs.h"
#include "record.h"

struct trade;

struct trade *trade_new(void);
void trade_free(struct trade *t); /* safe on NULL */

/* A record on knobs k: a mix's finished step is kept, others not. */
void trade_note(struct trade *t, const struct record *r, const struct knobs *k);

/* The cheapest lines on out (a group of two steps or more); how many. */
int trade_write(const struct trade *t, FILE *out);

#endif
