/* schema_key.c - the cases of src/schema_key.c: a `without rowid` spec
 * loads, writes back, refuses a key it cannot keep its rows in (file:line),
 * and is kept in its key only under op insert with the key built. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "knobs.h"
#include "schema.h"
#include "unit.h"

/* text as a spec file of its own (the registry keeps a path's first
 * load): 0 and its registry index in *v, or -1 and e; its path in path. */
static int load_text(const char *text, long long *v, struct err *e, char *path, size_t len)
{
	int fd = mkstemp(tmp_path(path, len, "idxlab-unit-keyXXXXXX")), rc;

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
		if (fd >= 0)
			close(fd);
		return err_set(e, ERR_RUNTIME, "cannot write %s", path);
	}
	close(fd);
	rc = schema_load(path, v, e);
	unlink(path);
	return rc;
}

static void test_without_rowid(void)
{
	static const char good[] = "id bigint seq unindexed\n"
	                           "without rowid\n"
	                           "column region text(2) few:4\n"
	                           "column code text(16) rand\n"
	                           "column qty int rand\n"
	                           "index region,code unique\n"
	                           "index qty\n";
	static char text[SCHEMA_TEXT_SIZE];
	const struct schema *s;
	struct knobs k;
	struct err e = { ERR_NONE, "" };
	char path[4096];
	long long v = -1;

	CHECK(load_text(good, &v, &e, path, sizeof path) == 0);
	if (!(s = schema_get(v))) {
		printf("  %s\n", e.msg);
		failed_checks++;
		return;
	}
	CHECK(s->without_rowid && s->id_unindexed && s->nindexes == 2);
	schema_write(s, text, sizeof text);
	CHECK(strstr(text, "\nwithout rowid\n") != NULL);
	/* kept in its key: op insert with the key built, nothing else */
	knobs_defaults(&k);
	k.v[K_SCHEMA] = v;
	k.v[K_OP] = OP_INSERT;
	k.v[K_INDEXES] = 1;
	CHECK(schema_clustered(s, &k));
	k.v[K_INDEXES] = 0;
	CHECK(!schema_clustered(s, &k));
	k.v[K_INDEXES] = 2;
	k.v[K_OP] = OP_UPDATE;
	CHECK(!schema_clustered(s, &k) && schema_id_indexed(s, &k));
	k.v[K_OP] = OP_INSERT;
	CHECK(schema_clustered(s, &k) && !schema_clustered(schema_get(0), &k));
	/* a struct made elsewhere is checked as a file is */
	{
		static struct schema c;

		c = *s;
		c.id_unindexed = 0;
		CHECK(schema_key_check(&c, &e) < 0 && strstr(e.msg, "write unindexed last"));
		c = *s;
		c.idx[0].unique = 0;
		CHECK(schema_key_check(&c, &e) < 0 && strstr(e.msg, "say unique"));
		c = *s;
		c.cols[c.idx[0].cols[1]].nulls = 0.1;
		CHECK(schema_key_check(&c, &e) < 0 && strstr(e.msg, "never NULL"));
		c = *s;
		c.without_rowid = 0;
		c.nindexes = 0;
		CHECK(schema_key_check(&c, &e) == 0);
	}
}

/* Each refusal names the `without rowid` line (file:line) and what to write. */
static void test_without_rowid_refused(void)
{
	static const struct {
		const char *text, *want;
	} bad[] = {
		{ "id bigint seq\nwithout rowid\ncolumn a bigint seq\nindex a unique\n",
		  ":2: without rowid: the rows are kept in the first index's key" },
		{ "id bigint seq unindexed\ncolumn a bigint seq\nwithout rowid\n",
		  ":3: without rowid: no index to keep the rows in" },
		{ "id bigint seq unindexed\ncolumn a bigint seq\nindex a\nwithout rowid\n",
		  ":4: without rowid: the first index (idxlab_a) is the table's primary key: say "
		  "unique" },
		{ "id bigint seq unindexed\nwithout rowid\ncolumn a text(20) rand\nindex lower(a) "
		  "unique\n",
		  ":2: without rowid: the first index (idxlab_lower_a) is the table's primary key: "
		  "plain columns" },
		{ "id bigint seq unindexed\nwithout rowid\ncolumn a bigint seq\ncolumn b int few:3 "
		  "null:5%\nindex a,b unique\n",
		  ":2: without rowid: b is a column of the key (idxlab_a_b) and has NULLs" },
		{ "id bigint seq unindexed\nwithout rowids\n",
		  ":2: 'without rowids': write without rowid" },
		{ "id bigint seq unindexed\nwithout\n", ":2: 'without ': write without rowid" },
	};
	size_t i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct err e = { ERR_NONE, "" };
		char path[4096];
		long long v = -1;

		CHECK(load_text(bad[i].text, &v, &e, path, sizeof path) < 0);
		if (!strstr(e.msg, bad[i].want) || !strstr(e.msg, path)) {
			printf("  spec %zu: got '%s', want '%s'\n", i, e.msg, bad[i].want);
			failed_checks++;
		}
	}
}

const struct unit_case unit_schema_key[] = {
	{ "unit/without-rowid", test_without_rowid },
	{ "unit/without-rowid-refused", test_without_rowid_refused },
	{ NULL, NULL },
};
