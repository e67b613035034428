/* The mix (mix.c): its words, its canonical text, and its draws - the same
 * seed the same sequence, each op near its weight. */
#include <string.h>

#include "../../src/mix.h"
#include "unit.h"

static void test_mix_words(void)
{
	struct err e = { ERR_NONE, "" };
	long long a, b, c;
	unsigned char w[OP_COUNT];

	CHECK(mix_resolve("none", &a, &e) == 0 && a == 0 && !mix_weights(a, w));
	CHECK(mix_resolve("insert:80,lookup:20", &a, &e) == 0 && a > 0);
	CHECK(strcmp(mix_label(a), "insert:80+lookup:20") == 0);
	/* the same mix, written otherwise: the same value */
	CHECK(mix_resolve("lookup:20+insert:80", &b, &e) == 0 && b == a);
	CHECK(mix_weights(a, w) && w[OP_INSERT] == 80 && w[OP_LOOKUP] == 20 && !w[OP_UPDATE]);
	CHECK(mix_op(a, 0) == OP_INSERT && mix_op(a, 1) == OP_LOOKUP && mix_op(0, 0) == -1);
	CHECK(mix_resolve("update:50,range:50", &c, &e) == 0 && c != a && mix_op(c, 1) == OP_RANGE);
	/* bad: the weights, an op, the shape, twice */
	CHECK(mix_resolve("insert:80,lookup:30", &c, &e) < 0 && strstr(e.msg, "adds to 110"));
	CHECK(mix_resolve("insert:80,select:20", &c, &e) < 0 && strstr(e.msg, "'select'"));
	CHECK(mix_resolve("insert", &c, &e) < 0 && strstr(e.msg, "OP:PERCENT"));
	CHECK(mix_resolve("insert:0,lookup:100", &c, &e) < 0 && strstr(e.msg, "1..100"));
	CHECK(mix_resolve("insert:50,insert:50", &c, &e) < 0 && strstr(e.msg, "twice"));
	/* two write ops: the first is the step's op, both are run */
	CHECK(mix_resolve("delete:20,insert:60,update:20", &c, &e) == 0 &&
	      mix_op(c, 0) == OP_INSERT &&
	      strcmp(mix_label(c), "insert:60+update:20+delete:20") == 0);
	/* both read ops: each its own queries (reads.h) */
	CHECK(mix_resolve("lookup:50,range:50", &c, &e) == 0 && mix_op(c, 0) == -1 &&
	      mix_op(c, 1) == OP_LOOKUP);
	CHECK(mix_resolve("insert:40,lookup:30,range:30", &c, &e) == 0 &&
	      mix_op(c, 0) == OP_INSERT);
}

static void test_mix_draws(void)
{
	unsigned char w[OP_COUNT] = { 0 };
	uint64_t n, sum1 = 0, sum2 = 0, sum3 = 0;
	int reads = 0;

	w[OP_INSERT] = 80;
	w[OP_LOOKUP] = 20;
	for (n = 0; n < 20000; n++) {
		int op = mix_draw(w, 42, n);

		CHECK(op == OP_INSERT || op == OP_LOOKUP);
		reads += op == OP_LOOKUP;
		sum1 = sum1 * 31 + (uint64_t)op;
		sum2 = sum2 * 31 + (uint64_t)mix_draw(w, 42, n);
		sum3 = sum3 * 31 + (uint64_t)mix_draw(w, 43, n);
	}
	CHECK(sum1 == sum2); /* the same seed, the same sequence */
	CHECK(sum1 != sum3); /* another seed, another */
	CHECK(reads > 3600 && reads < 4400);
}

const struct unit_case unit_mix[] = {
	{ "unit/mix-words", test_mix_words },
	{ "unit/mix-draws", test_mix_draws },
	{ NULL, NULL },
};
