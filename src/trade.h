/* trade.h - the trade in one sweep (issue 22): under a mix (--mix), the
 * step whose mix costs least per 1,000 operations, marked in its record
 * (cheapest 1, the other steps of its sweep 0) and said after the records:
 *
 *   cheapest: indexes 1 - 22.9 ms per 1,000 operations (writes 0.016
 *   ms/row, queries 0.030 ms); indexes 0: 7532 ms, 6: 28.6 ms
 *
 * The steps compared are a mix's finished steps ("record" "step") that
 * differ in the indexes knob only; any other difference keeps them apart
 * (each group its own line). Then a line for each step (a mix's, a read
 * step's) with an index no query used, next to what writes cost there:
 *
 *   used by no query at indexes 6: idxlab_created_at, ... (5 of 6); each
 *   write pays for them: 0.0098 ms/row, against 0.0030 at indexes 1
 *   (every index used) */
#ifndef IDXLAB_TRADE_H
#define IDXLAB_TRADE_H

#include <stdio.h>

#include "config.h"
#include "knobs.h"
#include "record.h"

struct trade;

/* The trade of plan p's steps (borrowed: must outlive it). */
struct trade *trade_new(const struct plan *p);
void trade_free(struct trade *t); /* safe on NULL */

/* A record on knobs k: a mix's finished step is kept, others not. */
void trade_note(struct trade *t, const struct record *r, const struct knobs *k);

/* A report_settle function (report.h): a mix sweep's step record r (on
 * knobs k) gets its cheapest field once every step of its sweep is noted
 * (final: among those noted); any other record is ready as it is (its
 * cheapest n/a), as is a step that is no sweep's (the only one of its
 * knobs but the indexes). */
int trade_settle(void *t, struct record *r, const struct knobs *k, int final);

/* The cheapest lines on out (a group of two steps or more); how many. */
int trade_write(const struct trade *t, FILE *out);

#endif
