/* keys.c - deterministic row values. */
#include "keys.h"

#include <stdlib.h>
#include <string.h>

uint64_t keys_hash(uint64_t seed, uint64_t stream, uint64_t n)
{
	uint64_t z = seed * 0x9e3779b97f4a7c15ULL + stream * 0xbf58476d1ce4e5b9ULL + n +
	             0x94d049bb133111ebULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Streams keep columns, versions and uses independent of each other. */
static uint64_t stream_of(int col, uint64_t version)
{
	return (uint64_t)col * 1000003ULL + version * 7919ULL;
}

uint64_t keys_col_hash(uint64_t seed, int col, uint64_t n, uint64_t version)
{
	return keys_hash(seed, stream_of(col, version), n);
}

int64_t keys_int(uint64_t seed, enum key_order ko, int col, uint64_t n, uint64_t version)
{
	uint64_t h;

	/* Grows with the row (like a timestamp); an update moves it to the end.
	 * Returned before hashing: a sequential load calls this 8 times a row. */
	if (ko == KO_SEQ)
		return (int64_t)(n + version * (1ULL << 40));
	h = keys_hash(seed, stream_of(col, version), n);
	if (ko == KO_FEW)
		return (int64_t)(h % KEYS_FEW);
	return (int64_t)(h >> 1); /* KO_RAND, KO_UUID7, KO_UUID4 */
}

void keys_uuid(uint64_t seed, int uuid7, int col, uint64_t n, uint64_t version,
               unsigned char out[KEYS_UUID_LEN])
{
	uint64_t hi = keys_hash(seed, stream_of(col, version), n);
	uint64_t lo = keys_hash(seed ^ 0x5555, stream_of(col, version), n);
	int i;

	if (uuid7) {
		/* 48-bit ms clock from 2026-01-01, one tick per 64 rows. */
		uint64_t ms = 1767225600000ULL + ((n + version * (1ULL << 40)) >> 6);

		hi = (ms << 16) | (hi & 0xffff);
	}
	for (i = 0; i < 8; i++) {
		out[i] = (unsigned char)(hi >> (56 - 8 * i));
		out[8 + i] = (unsigned char)(lo >> (56 - 8 * i));
	}
	out[6] = (unsigned char)((out[6] & 0x0f) | (uuid7 ? 0x70 : 0x40));
	out[8] = (unsigned char)((out[8] & 0x3f) | 0x80);
}

uint64_t *keys_shuffle(uint64_t seed, uint64_t n)
{
	uint64_t *a = malloc(sizeof *a * (n ? n : 1)), i;

	if (!a)
		return NULL;
	for (i = 0; i < n; i++)
		a[i] = i;
	for (i = n; i > 1; i--) {
		uint64_t j = keys_hash(seed, 0xfeed, i) % i, t = a[i - 1];

		a[i - 1] = a[j];
		a[j] = t;
	}
	return a;
}

void keys_payload(char *out, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		out[i] = (char)('a' + i % 26);
}

char *keys_payload_new(size_t len)
{
	char *p = malloc(len + 1);

	if (!p)
		abort();
	keys_payload(p, len);
	p[len] = 0;
	return p;
}
