/* spark.h - the pure pieces of the dashboard's charts (no curses here).
 *
 * Sparklines map a series onto 8 block levels (U+2581..U+2588) or, in ASCII
 * mode, onto " .:-=+*#"; a value that is not known (NAN) is a blank. Gauges
 * fill a bar in proportion to a scale: the next "nice" number (1, 2, 5 x
 * 10^k) at or above the largest value on screen (history_full_scale). */
#ifndef IDXLAB_SPARK_H
#define IDXLAB_SPARK_H

#include <stddef.h>

#define SPARK_LEVELS 8

/* The level 0..7 of v on a scale of 0..max; -1 when v is NAN or max <= 0
 * and v is 0 (nothing to draw). Any v > 0 gets at least level 0. */
int spark_level(double v, double max);

/* The glyph for a level (-1: a blank), UTF-8 or ASCII. */
const char *spark_glyph(int level, int ascii);

/* Render n values into out (UTF-8 or ASCII); returns bytes written. */
size_t spark_render(const double *vals, int n, double max, int ascii, char *out, size_t len);

/* The next nice number (1, 2, 5 x 10^k) at or above v; 0 for v <= 0. */
double spark_nice(double v);

/* The same for bytes in binary steps (1, 2, 5 ... 500 x 1024^k, then
 * 1024^(k+1)): 83 MiB -> 100 MiB, 700 KiB -> 1 MiB. */
double spark_nice_bytes(double v);

/* Cells of a gauge of width cells for v on a scale of 0..max. */
int gauge_cells(double v, double max, int width);

#endif
