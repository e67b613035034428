/* knobs.c - the cases of src/knobs.c: the knob table, a knob by name, its
 * checks and defaults (with knob_values.c's parse and format), what needs a
 * rebuild. */
#include <string.h>

#include "knobs.h"
#include "schema.h"
#include "unit.h"

static void test_knobs(void)
{
	struct err e = { ERR_NONE, "" };
	struct knobs k;
	long long v = -5;
	char buf[64];

	CHECK(knob_find("key-order") == K_KEY_ORDER);
	CHECK(knob_find("key_order") == K_KEY_ORDER);
	CHECK(knob_find("nope") < 0);
	CHECK(knob_parse(K_INDEXES, "8", &v, &e) == 0 && v == 8);
	CHECK(knob_parse(K_INDEXES, "9", &v, &e) == 0 && v == 9); /* a table may have 9 */
	CHECK(knob_check(K_INDEXES, 9, NULL, &e) < 0 && e.cls == ERR_USAGE); /* the default: 8 */
	CHECK(strstr(e.msg, "0..8") != NULL && strstr(e.msg, "the default table has 8 indexes"));
	CHECK(knob_parse(K_INDEXES, "-1", &v, &e) < 0);
	CHECK(knob_parse(K_INDEXES, "two", &v, &e) < 0);
	CHECK(knob_parse(K_COMMIT, "row", &v, &e) == 0 && v == 1);
	CHECK(knob_parse(K_COMMIT, "all", &v, &e) == 0 && v == COMMIT_ALL);
	CHECK(knob_parse(K_COMMIT, "1000", &v, &e) == 0 && v == 1000);
	CHECK(knob_parse(K_COMMIT, "0", &v, &e) < 0);
	CHECK(knob_parse(K_KEY_ORDER, "uuid7", &v, &e) == 0 && v == KO_UUID7);
	CHECK(knob_parse(K_KEY_ORDER, "random", &v, &e) < 0 && strstr(e.msg, "seq|rand"));
	CHECK(knob_parse(K_CACHE, "1GiB", &v, &e) == 0 && v == 1073741824LL);
	CHECK(knob_parse(K_CACHE, "1KiB", &v, &e) < 0 && strstr(e.msg, "out of range"));
	CHECK(knob_parse(K_CACHE, "lots", &v, &e) < 0 && strstr(e.msg, "not a size"));
	CHECK(knob_parse(K_PREFILL, "auto", &v, &e) == 0 && v == PREFILL_AUTO);
	CHECK(knob_parse(K_INTERVAL, "0.25", &v, &e) == 0 && v == 250);
	knob_format(K_COMMIT, 1, buf, sizeof buf);
	CHECK(strcmp(buf, "row") == 0);
	knob_format(K_COMMIT, 500, buf, sizeof buf);
	CHECK(strcmp(buf, "500") == 0);
	knob_format(K_CACHE, 2048000, buf, sizeof buf);
	CHECK(strcmp(buf, "2000KiB") == 0);
	knobs_defaults(&k);
	CHECK(k.v[K_INDEXES] == 0 && k.v[K_CACHE] == 2048000 && k.v[K_COMMIT] == COMMIT_ALL);
	CHECK(knobs_prefill(&k) == 0);
	k.v[K_OP] = OP_UPDATE;
	CHECK(knobs_prefill(&k) == k.v[K_ROWS]);
	/* Every default parses within its own range. */
	for (int i = 0; i < K_COUNT; i++)
		if (knob_table[i].kind != KNOB_STRING)
			CHECK(knob_parse(i, knob_table[i].def, &v, &e) == 0);
}

/* A change of key order between int orders, or of the index count, keeps
 * the table; a change to a uuid order (another key type), or of the
 * primary key, rebuilds it. */
static void test_need_rebuild(void)
{
	struct knobs a, b;

	knobs_defaults(&a);
	b = a;
	CHECK(!knobs_need_rebuild(&a, &b));
	b.v[K_KEY_ORDER] = KO_RAND;
	b.v[K_INDEXES] = 3;
	CHECK(!knobs_need_rebuild(&a, &b));
	b.v[K_KEY_ORDER] = KO_UUID4;
	CHECK(knobs_need_rebuild(&a, &b));
	b = a;
	b.v[K_PK] = PK_UUID7;
	CHECK(knobs_need_rebuild(&a, &b));
	/* An `unindexed` id's btree comes with any op but insert: crossing
	 * insert rebuilds, update to delete does not; on another spec the op
	 * never does. */
	{
		static struct schema u;
		struct err e = { ERR_NONE, "" };
		long long v;

		u = *schema_get(0);
		snprintf(u.name, sizeof u.name, "unit_unindexed");
		u.id_unindexed = 1;
		CHECK(schema_register(&u, &v, &e) == 0);
		b = a;
		b.v[K_OP] = OP_UPDATE;
		CHECK(!knobs_need_rebuild(&a, &b));
		a.v[K_SCHEMA] = b.v[K_SCHEMA] = v;
		CHECK(knobs_need_rebuild(&a, &b) && knobs_need_rebuild(&b, &a));
		a.v[K_OP] = OP_DELETE;
		CHECK(!knobs_need_rebuild(&a, &b));
		CHECK(schema_id_indexed(&u, &a) && schema_id_indexed(&u, NULL));
		a.v[K_OP] = OP_INSERT;
		CHECK(!schema_id_indexed(&u, &a) && schema_id_indexed(schema_get(0), &a));
	}
}

const struct unit_case unit_knobs[] = {
	{ "unit/knobs", test_knobs },
	{ "unit/need-rebuild", test_need_rebuild },
	{ NULL, NULL },
};
