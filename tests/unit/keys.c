/* keys.c - the cases of src/keys.c: the key generator (ints, uuids, the
 * shuffle). */
#include <stdlib.h>
#include <string.h>

#include "keys.h"
#include "unit.h"

static void test_keys(void)
{
	unsigned char a[KEYS_UUID_LEN], b[KEYS_UUID_LEN];
	uint64_t *s, i, sum = 0;
	int sorted = 1;

	CHECK(keys_int(1, KO_RAND, 1, 42, 0) == keys_int(1, KO_RAND, 1, 42, 0));
	CHECK(keys_int(1, KO_RAND, 1, 42, 0) != keys_int(2, KO_RAND, 1, 42, 0));
	CHECK(keys_int(1, KO_RAND, 1, 42, 0) != keys_int(1, KO_RAND, 2, 42, 0));
	CHECK(keys_int(1, KO_RAND, 1, 42, 0) != keys_int(1, KO_RAND, 1, 42, 1));
	CHECK(keys_int(1, KO_SEQ, 1, 5, 0) < keys_int(1, KO_SEQ, 1, 6, 0));
	CHECK(keys_int(1, KO_FEW, 3, 99, 0) >= 0 && keys_int(1, KO_FEW, 3, 99, 0) < KEYS_FEW);
	keys_uuid(1, 1, 0, 100, 0, a);
	keys_uuid(1, 1, 0, 100000, 0, b);
	CHECK(memcmp(a, b, KEYS_UUID_LEN) < 0); /* uuid7: later rows sort later */
	CHECK((a[6] >> 4) == 7 && (a[8] >> 6) == 2);
	keys_uuid(1, 0, 0, 100, 0, a);
	CHECK((a[6] >> 4) == 4 && (a[8] >> 6) == 2);
	s = keys_shuffle(7, 1000);
	CHECK(s != NULL);
	if (!s)
		return;
	for (i = 0; i < 1000; i++) {
		sum += s[i];
		if (i && s[i] < s[i - 1])
			sorted = 0;
	}
	CHECK(sum == 999 * 1000 / 2 && !sorted);
	free(s);
}

const struct unit_case unit_keys[] = {
	{ "unit/keys", test_keys },
	{ NULL, NULL },
};
