/* units.h - the one place that parses and formats quantities.
 *
 * Sizes are parsed with the suffixes KiB, MiB, GiB, TiB (also K, M, G, T and
 * kB, MB, GB, TB, which mean the same, as in PostgreSQL: 1024-based),
 * case-insensitive, and formatted back exactly with the binary names
 * ("2MB" is 2MiB; "2000KiB" stays 2000KiB). Counts (rows) take decimal
 * k, M, G and an exponent (100k, 1.5M, 1e6). Human formatting (1.2k,
 * 3.4 MiB, 870 us) serves the dashboard. */
#ifndef IDXLAB_UNITS_H
#define IDXLAB_UNITS_H

#include <stddef.h>

/* Parse "123", "64KiB", "2MiB", "1.5GiB", "10MB" (= 10MiB) into bytes. 0
 * or -1. */
int units_parse_size(const char *s, long long *out);

/* Parse a decimal number of seconds ("0.5", "2") into milliseconds. 0, -1,
 * or -2 for a number above 0 that reads 0 ms (0.0004: finer than a ms). */
int units_parse_seconds(const char *s, long long *ms);

/* Strict integer parse (whole string, base 10, no overflow). 0 or -1. */
int units_parse_int(const char *s, long long *out);

/* A whole count: an integer, or with a decimal suffix k, M, G (any case)
 * or an exponent: "100k", "1.5M", "1e6". Not negative; 0 or -1. */
int units_parse_count(const char *s, long long *out);

/* Format bytes exactly with the largest binary unit that divides them. */
void units_format_size(long long bytes, char *buf, size_t len);

/* Format a value compactly for a screen: 999, 1.2k, 34k, 5.6M (unit "")
 * or 512 B, 3.4 KiB, 1.2 MiB (unit "B"), or 870 us, 1.3 ms, 2.0 s (unit "s",
 * value in seconds). */
void units_human(double v, const char *unit, char *buf, size_t len);

#endif
