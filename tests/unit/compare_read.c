/* compare_read.c - the cases of src/compare_read.c: a saved run read back
 * for --compare, as a CSV reader reads it (quoted fields, quotes doubled,
 * line breaks inside quotes, blank lines) and refused, file and line
 * named, when it is not this idxlab's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare_int.h"
#include "record.h"
#include "unit.h"

/* The header of a whole record, and a row of it with record=KIND, step
 * STEP, the engine ENGINE (quoted as given) and the rest n/a. */
static size_t header(char *buf, size_t len, int drop)
{
	const struct record *all = record_all(NULL);
	size_t n = 0;
	int i;

	for (i = 0; i < all->n && n < len; i++)
		if (i != drop)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "," : "",
			                      all->f[i].name);
	if (n < len)
		n += (size_t)snprintf(buf + n, len - n, "\n");
	return n;
}

static size_t row(char *buf, size_t len, const char *kind, const char *step, const char *engine,
                  int drop)
{
	const struct record *all = record_all(NULL);
	size_t n = 0;
	int i, first = 1;

	for (i = 0; i < all->n && n < len; i++) {
		const char *name = all->f[i].name, *v = "";

		if (i == drop)
			continue;
		if (strcmp(name, "record") == 0)
			v = kind;
		else if (strcmp(name, "step") == 0)
			v = step;
		else if (strcmp(name, "engine") == 0)
			v = engine;
		n += (size_t)snprintf(buf + n, len - n, "%s%s", first ? "" : ",", v);
		first = 0;
	}
	if (n < len)
		n += (size_t)snprintf(buf + n, len - n, "\n");
	return n;
}

static void test_compare_read(void)
{
	static char text[65536];
	struct saved s;
	struct err e;
	char *path;
	size_t n;

	/* quoted fields: a comma, a doubled quote, a line break inside */
	n = header(text, sizeof text, -1);
	n += row(text + n, sizeof text - n, "run", "1", "sqlite", -1);
	n += (size_t)snprintf(text + n, sizeof text - n, "\n"); /* a blank line */
	n += row(text + n, sizeof text - n, "step", "\"1\"", "\"sq,\"\"li\nte\"", -1);
	n += row(text + n, sizeof text - n, "step", "2", "\"\"", -1);
	path = write_file(text);
	CHECK(path && saved_read(&s, path, "--compare", &e) == 0);
	CHECK(s.nstep == 2); /* the run's record is not a step's */
	if (s.nstep == 2) {
		CHECK(strcmp(rec_get(&s.step[0], "step"), "1") == 0);
		CHECK(strcmp(rec_get(&s.step[0], "engine"), "sq,\"li\nte") == 0);
		CHECK(s.step[0].line == 4 && s.step[1].line == 6);
		CHECK(rec_get(&s.step[1], "engine") == NULL); /* "" quoted: n/a too */
		CHECK(rec_get(&s.step[1], "seed") == NULL);   /* empty is n/a */
	}
	saved_free(&s);

	/* a quoted field never closed: the line its record began on */
	n = header(text, sizeof text, -1);
	n += row(text + n, sizeof text - n, "step", "1", "\"sqlite", -1);
	path = write_file(text);
	CHECK(path && saved_read(&s, path, "--compare", &e) < 0 && e.cls == ERR_USAGE);
	CHECK(strstr(e.msg, ":2: a quoted field is never closed") != NULL);
	saved_free(&s);

	/* another version's: a column missing (the knob engine), one unknown */
	n = header(text, sizeof text, 0);
	n += row(text + n, sizeof text - n, "step", "1", "sqlite", 0);
	path = write_file(text);
	CHECK(path && saved_read(&s, path, "--compare", &e) < 0);
	CHECK(strstr(e.msg, ":1: no field 'engine'") != NULL);
	saved_free(&s);
	path = write_file("engine,op,mystery\nsqlite,insert,1\n");
	CHECK(path && saved_read(&s, path, "--compare", &e) < 0);
	CHECK(strstr(e.msg, ":1: 'mystery' is not a field") != NULL);
	saved_free(&s);

	/* JSON lines: values as text, null n/a; a broken line named */
	path = write_file("{\"record\":\"step\"}\n{\"engine\": \n");
	CHECK(path && saved_read(&s, path, "--compare", &e) < 0);
	CHECK(strstr(e.msg, ":1: no field") != NULL);
	saved_free(&s);
	path = write_file("{\"engine\": \n");
	CHECK(path && saved_read(&s, path, "--compare", &e) < 0);
	CHECK(strstr(e.msg, ":1: not a JSON object") != NULL);
	saved_free(&s);
	if (path)
		unlink(path);
}

const struct unit_case unit_compare_read[] = {
	{ "unit/compare-read", test_compare_read },
	{ NULL, NULL },
};
