/* schema_file.c - the cases of src/schema_file.c: bad spec files, each
 * error naming file:line and what was meant. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "schema.h"
#include "unit.h"

/* Bad spec files: each error names file:line and what was meant. */
static void test_schema_files(void)
{
	static const struct {
		const char *text, *want;
	} bad[] = {
		{ "column a bigint seq\ncolum b int rand\n",
		  ":2: unknown line 'colum' (did you mean 'column'?)" },
		{ "column a bigin seq\n", ":1: unknown type 'bigin' (did you mean 'bigint'?)" },
		{ "column a int rnd\n", ":1: unknown value order 'rnd' (did you mean 'rand'?)" },
		{ "column email text(24) rand\nindex emial\n",
		  ":2: unknown column 'emial' (did you mean 'email'?)" },
		{ "column a text seq\n", ":1: a text column says its length" },
		{ "column a text(2) few:1000\n", "text(2) holds fewer than 1000 distinct values" },
		{ "column s int few:4\nindex s unique\n",
		  ":2: index idxlab_s: unique, but its values repeat" },
		{ "column a bigint seq\ncolumn a int rand\n",
		  ":2: a: a column of that name exists" },
		{ "column Email int rand\n", ":1: 'Email' is not a column name" },
		{ "column a int few\n", ":1: few says how many distinct values" },
		{ "column a int zipf:0\n", ":1: 'zipf:0': zipf's exponent" },
		{ "column a int uuid4\n", ":1: a: uuid4 values go in a uuid or a text(36) column" },
		{ "id int few:3\n", ":1: id int few:3: a primary key needs a value per row" },
		{ "column a int seq\nid bigint seq\n", ":2: id comes once, before the columns" },
		{ "column a int seq\nindex hot\n", ":2: index hot: hot is the column" },
		{ "column a int seq\nindex id\n",
		  ":2: index id: the primary key is indexed already" },
		{ "column a int seq extra\n", ":1: 'extra' after the order" },
		{ "column a int seq\nindex a name idxlab_meta\n",
		  ":2: name NAME: the index's name" },
		{ "column a int seq\nindex a name mine\n",
		  ":2: name NAME: the index's name, idxlab_" },
		{ "column a int seq\nhot payload\n",
		  ":2: hot payload: payload is a column of idxlab's own" },
		{ "column a varchar rand\n", ":1: a text column says its length: varchar(16)" },
		{ "column a character varying(300) rand\n",
		  ":1: 'character varying(300)': a text column says its length" },
		{ "column a int(4) rand\n", ":1: 'int(4)': int takes no length" },
		{ "column a integr rand\n", ":1: unknown type 'integr' (did you mean 'integer'?)" },
	};
	size_t i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char path[4096];
		int fd = mkstemp(tmp_path(path, sizeof path, "idxlab-unit-specXXXXXX"));
		long long v = -1;
		struct err e = { ERR_NONE, "" };

		CHECK(fd >= 0 &&
		      write(fd, bad[i].text, strlen(bad[i].text)) == (ssize_t)strlen(bad[i].text));
		close(fd);
		CHECK(schema_load(path, &v, &e) < 0);
		if (!strstr(e.msg, bad[i].want) || !strstr(e.msg, path)) {
			printf("  spec %zu: got '%s', want '%s'\n", i, e.msg, bad[i].want);
			failed_checks++;
		}
		unlink(path);
	}
	{
		long long v = -1;
		struct err e = { ERR_NONE, "" };

		CHECK(schema_load("userz", &v, &e) < 0 && strstr(e.msg, "did you mean 'users'?"));
		CHECK(schema_load("/nonexistent/x.spec", &v, &e) < 0 &&
		      strstr(e.msg, "cannot read /nonexistent/x.spec"));
	}
}

const struct unit_case unit_schema_file[] = {
	{ "unit/schema-files", test_schema_files },
	{ NULL, NULL },
};
