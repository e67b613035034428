/* keys.h - the values a workload writes, as pure functions of (seed, row).
 *
 * Row n of a run always gets the same id and the same k1..k8 for a given
 * seed, whatever happened before: prefill, sweeps and the engines agree
 * without sharing state, and an update or delete can find row n's id again.
 * Integers are 63-bit; uuid7/uuid4 values are 16 bytes (RFC 9562 layout). */
#ifndef IDXLAB_KEYS_H
#define IDXLAB_KEYS_H

#include <stddef.h>
#include <stdint.h>

#include "vocab.h"

#define KEYS_UUID_LEN 16
#define KEYS_FEW      8 /* distinct values for key order "few" */

/* A 64-bit mix of (seed, stream, n): splitmix64 finaliser. */
uint64_t keys_hash(uint64_t seed, uint64_t stream, uint64_t n);

/* The hash behind column col's value for row n (version as below): each
 * column and version draws from a stream of its own. */
uint64_t keys_col_hash(uint64_t seed, int col, uint64_t n, uint64_t version);

/* Integer value of column col (1..8) for row n under key order ko
 * (KO_SEQ, KO_RAND, KO_FEW). `version` > 0 gives the value an update writes. */
int64_t keys_int(uint64_t seed, enum key_order ko, int col, uint64_t n, uint64_t version);

/* 16-byte value of column col for row n: uuid7 (time-ordered: a synthetic
 * millisecond clock advancing every 64 rows, then random bits) or uuid4. */
void keys_uuid(uint64_t seed, int uuid7, int col, uint64_t n, uint64_t version,
               unsigned char out[KEYS_UUID_LEN]);

/* The payload of every row: len bytes of filler ('a'..'z' repeated). */
void keys_payload(char *out, size_t len);

/* The same in a new buffer with a NUL after it; the caller frees it. */
char *keys_payload_new(size_t len);

/* A Fisher-Yates permutation of 0..n-1 for the visit order of updates and
 * deletes; the caller frees it. NULL on allocation failure. */
uint64_t *keys_shuffle(uint64_t seed, uint64_t n);

#endif
