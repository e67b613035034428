/* config.c - the cases of src/config.c: config files and the command line into
 * a plan. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "unit.h"

static int load(const char *text, struct plan *p, struct err *e)
{
	char *path = write_file(text);
	char *argv[] = { (char *)"idxlab", (char *)"run", (char *)"-c", path, NULL };
	int rc = plan_from_args(p, 4, argv, e);

	unlink(path);
	return rc;
}

static void test_config(void)
{
	struct plan p;
	struct err e = { ERR_NONE, "" };
	struct knobs k;

	CHECK(load("# a comment\n\nindexes = 0,1,3 # three steps\nkey-order=seq,rand\n"
	           "cache = 1GiB\ndsn = /tmp/x#y.db\n",
	           &p, &e) == 0);
	CHECK(p.steps == 6);
	CHECK(p.n[K_INDEXES] == 3 && p.vals[K_INDEXES][2] == 3);
	CHECK(strcmp(p.dsn, "/tmp/x#y.db") == 0);
	plan_step(&p, 0, &k);
	CHECK(k.v[K_INDEXES] == 0 && k.v[K_KEY_ORDER] == KO_SEQ);
	plan_step(&p, 1, &k);
	CHECK(k.v[K_INDEXES] == 0 && k.v[K_KEY_ORDER] == KO_RAND);
	plan_step(&p, 5, &k);
	CHECK(k.v[K_INDEXES] == 3 && k.v[K_KEY_ORDER] == KO_RAND && k.v[K_CACHE] == 1073741824LL);
	plan_free(&p);

	CHECK(load("indexes = 1\n\nindexs = 2\n", &p, &e) < 0 && e.cls == ERR_USAGE);
	CHECK(strstr(e.msg, ":3: unknown key 'indexs'") && strstr(e.msg, "did you mean 'indexes'"));
	plan_free(&p);
	CHECK(load("rows = 10\nindexes = 9\n", &p, &e) < 0);
	CHECK(strstr(e.msg, ":2: indexes: 9 is out of range (valid: 0..8)") != NULL);
	plan_free(&p);
	CHECK(load("just words\n", &p, &e) < 0 && strstr(e.msg, ":1: expected 'key = value'"));
	plan_free(&p);
	CHECK(load("format = csv,json\n", &p, &e) < 0 && strstr(e.msg, "not a list"));
	plan_free(&p);
	CHECK(load("op = delete\nrows = 10\nprefill = 5\n", &p, &e) < 0 &&
	      strstr(e.msg, "exceeds prefill"));
	plan_free(&p);
	/* An empty list item is refused, not skipped. */
	CHECK(load("rows = 10\nindexes = 1,,2\n", &p, &e) < 0 &&
	      strstr(e.msg, ":2: indexes: an empty item in the list '1,,2'"));
	plan_free(&p);
	CHECK(load("indexes = ,1\n", &p, &e) < 0 && strstr(e.msg, "an empty item"));
	plan_free(&p);
	CHECK(load("indexes = 1,2\n", &p, &e) == 0 && p.n[K_INDEXES] == 2);
	plan_free(&p);
	/* A control character: refused in a dsn, escaped in every message. */
	CHECK(load("dsn = /tmp/a\033b.db\n", &p, &e) < 0 && strstr(e.msg, "'/tmp/a\\x1bb.db'") &&
	      strstr(e.msg, "control character") && !strchr(e.msg, '\033'));
	plan_free(&p);
	CHECK(load("key-order = seq\rx\n", &p, &e) < 0 && strstr(e.msg, "'seq\\rx' is not one of"));
	plan_free(&p);
	{
		/* A NUL byte is said as such, not as a line too long. */
		char *path = write_file("");
		FILE *f = fopen(path, "w");
		char *argv[] = { (char *)"idxlab", (char *)"-c", path, NULL };

		fwrite("rows = 5\nindexes = 1\0\n", 1, 22, f);
		fclose(f);
		CHECK(plan_from_args(&p, 3, argv, &e) < 0 && strstr(e.msg, ":2: a NUL byte") &&
		      !strstr(e.msg, "too long"));
		plan_free(&p);
		unlink(path);
	}
	{
		char *argv[] = { (char *)"idxlab", (char *)"run", (char *)"-c",
			         (char *)"/nonexistent/idxlab.conf", NULL };

		CHECK(plan_from_args(&p, 4, argv, &e) < 0 && strstr(e.msg, "cannot read config"));
		plan_free(&p);
	}
	{
		/* The command line overrides the file. */
		char *path = write_file("indexes = 4\nrows = 7\n");
		char *argv[] = { (char *)"idxlab",      (char *)"-c",      path,
			         (char *)"--indexes=2", (char *)"--bogus", NULL };

		CHECK(plan_from_args(&p, 4, argv, &e) == 0);
		CHECK(p.vals[K_INDEXES][0] == 2 && p.vals[K_ROWS][0] == 7);
		plan_free(&p);
		CHECK(plan_from_args(&p, 5, argv, &e) < 0 &&
		      strstr(e.msg, "unknown option '--bogus'"));
		plan_free(&p);
		unlink(path);
	}
}

const struct unit_case unit_config[] = {
	{ "unit/config", test_config },
	{ NULL, NULL },
};
