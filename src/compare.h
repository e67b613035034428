/* compare.h - --compare FILE: this run's steps beside an earlier run's.
 *
 * FILE is what a headless run wrote with --format csv or json (a complete
 * record: not cut by --fields). Each step of this run (its record=step
 * record: under --repeat the median one) is matched to the saved step with
 * the same value in every knob column (engine included); a step no saved
 * step matches is named with the knobs in which the nearest one differs,
 * and not compared. A matched step gets, for every figure both records
 * have, its ratio new/saved and a verdict:
 *   - "better" / "worse": outside the noise, in the figure's own direction
 *     (rows/s up is better, p99 up is worse: metric_def.better);
 *     "higher" / "lower" for a figure that is neither (a size, a gauge);
 *   - "within noise": when either record carries the spread of --repeat
 *     (FIELD_min, FIELD_max), the runs' ranges overlap (one side's: the
 *     other's value lies in it); else the ratio is within
 *     COMPARE_NOISE_PCT of 1, COMPARE_SHORT_NOISE_PCT when either step
 *     took under SHORT_STEP_S (record.h).
 * What differs between the two records besides the knobs (idxlab_version,
 * cpu, kernel, fs, device, engine_version) is named in the step's note.
 *
 * Where the verdicts go: in CSV and JSON, fields appended to every record
 * after all the others (compare_fields): vs_step, vs_note, vs_noise and,
 * per figure X the record writes (all, or those --fields names), X_vs
 * (the ratio) and X_verdict; n/a on the records that are not a step's. In the text table's place, a table after
 * it (compare_write: stdout in text; diag in CSV and JSON).
 *
 * compare_read.c reads a saved run into struct saved (compare_int.h);
 * compare.c matches, judges and writes. */
#ifndef IDXLAB_COMPARE_H
#define IDXLAB_COMPARE_H

#include <stdio.h>

#include "err.h"
#include "record.h"

#define COMPARE_NOISE_PCT       10.0
#define COMPARE_SHORT_NOISE_PCT 20.0 /* a short step's rows/s moves by a fifth */

struct compare;

/* Read the saved run in path. -1 (ERR_USAGE, naming path and the line)
 * when it cannot be read, is not idxlab's CSV or JSON lines, has columns
 * this idxlab does not write or lacks one a match needs (another version's
 * output), or holds no step record. */
int compare_open(struct compare **out, const char *path, struct err *e);

/* The compare fields of record full (this run's, complete) appended to
 * out (the record about to be written: full, or its --fields selection);
 * full's step is compared when full is a step's record. */
void compare_fields(struct compare *c, const struct record *full, struct record *out);

/* A step's record (record=step), for the table compare_write writes;
 * other records are let be. r is read during the call only. */
void compare_note(struct compare *c, const struct record *r);

/* The table of the steps noted: per step its match (or why none), per
 * figure new, saved, ratio and verdict; the threshold said. */
void compare_write(struct compare *c, FILE *f);

/* --compare-new FILE: the steps of the run saved in new_path (read as
 * compare_open reads) compared with c's, the table written on out (NULL:
 * none); each step's record handed to emit too (NULL: none), as the
 * file has it, to be written as a run's (with compare_fields). -1
 * (ERR_USAGE) as compare_open, on new_path. */
typedef void compare_emit_fn(void *ctx, const struct record *r);
int compare_files(struct compare *c, const char *new_path, FILE *out, compare_emit_fn *emit,
                  void *ctx, struct err *e);

/* Safe on NULL. */
void compare_free(struct compare *c);

#endif
