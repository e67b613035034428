/* main.c - the unit tests' runner: every case of every file below, or only
 * those named on the command line. tests/unit/ mirrors src/: the cases of
 * src/X.c live in tests/unit/X.c (src/ui/history.c: tests/unit/ui/history.c).
 *
 * A NEW FILE IS ONE LINE HERE. Write tests/unit/<path>.c (the path of the
 * src/ file it tests) ending in its table of cases, named unit_ and <path>
 * with / as _ (unit.h: tests/unit/ui/history.c ends in unit_ui_history[]),
 * then add its line to UNIT_FILES below: X(ui_history, "ui/history.c").
 * Nothing else: the Makefile compiles every .c under tests/unit/, the case
 * unit/wired fails while a file there is not in UNIT_FILES, and
 * unit/mirrors-src while one has no src/ file of its path.
 *
 *   build/tests/unit [FIXTURES [CASE|FILE ...]]
 *
 * FIXTURES: the fixtures dir (tests/fixtures by default). CASE: a case's
 * name, with or without its "unit/" (unit/knobs, knobs); FILE: a file's
 * path under tests/unit/ (ui/history.c), its cases all; none: every case.
 * A name that is neither: exit 2, the names listed. Prints PASS NAME, FAIL
 * NAME: why, or SKIP NAME: why per case (tests/run.sh tallies them), then a
 * line of totals; exits 1 if a case failed. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"

#define UNIT_FILES(X)                                                                              \
	X(answer, "answer.c")                                                                      \
	X(baseline, "baseline.c")                                                                  \
	X(compare, "compare.c")                                                                    \
	X(compare_read, "compare_read.c")                                                          \
	X(config, "config.c")                                                                      \
	X(demo, "demo.c")                                                                          \
	X(engines_engines, "engines/engines.c")                                                    \
	X(engines_mongo_doc, "engines/mongo/doc.c")                                                \
	X(engines_mongo_status, "engines/mongo/status.c")                                          \
	X(engines_rowset, "engines/rowset.c")                                                      \
	X(engines_spawn, "engines/spawn.c")                                                        \
	X(engines_tmpdir, "engines/tmpdir.c")                                                      \
	X(engines_txn, "engines/txn.c")                                                            \
	X(err, "err.c")                                                                            \
	X(evlog, "evlog.c")                                                                        \
	X(fstree, "fstree.c")                                                                      \
	X(keys, "keys.c")                                                                          \
	X(knob_values, "knob_values.c")                                                            \
	X(knobs, "knobs.c")                                                                        \
	X(metrics, "metrics.c")                                                                    \
	X(mix, "mix.c")                                                                            \
	X(probes_proc_io, "probes/proc_io.c")                                                      \
	X(recording, "recording.c")                                                                \
	X(redact, "redact.c")                                                                      \
	X(schema, "schema.c")                                                                      \
	X(schema_file, "schema_file.c")                                                            \
	X(schema_from_order, "schema_from_order.c")                                                \
	X(schema_gen_fit, "schema_gen_fit.c")                                                      \
	X(schema_idx, "schema_idx.c")                                                              \
	X(schema_key, "schema_key.c")                                                              \
	X(schema_order, "schema_order.c")                                                          \
	X(schema_query_file, "schema_query_file.c")                                                \
	X(schema_type, "schema_type.c")                                                            \
	X(spread, "spread.c")                                                                      \
	X(textfit, "textfit.c")                                                                    \
	X(ui_ab, "ui/ab.c")                                                                        \
	X(ui_feed_replay, "ui/feed_replay.c")                                                      \
	X(ui_history, "ui/history.c")                                                              \
	X(ui_input, "ui/input.c")                                                                  \
	X(ui_label, "ui/label.c")                                                                  \
	X(ui_layout, "ui/layout.c")                                                                \
	X(ui_presenter, "ui/presenter.c")                                                          \
	X(ui_spark, "ui/spark.c")                                                                  \
	X(units, "units.c")                                                                        \
	X(whatif, "whatif.c")                                                                      \
	X(main, "main.c")

#define UNIT_DECLARE(id, path) extern const struct unit_case unit_##id[];
UNIT_FILES(UNIT_DECLARE)

#define UNIT_ROW(id, path) { path, unit_##id },
static const struct {
	const char *path; /* under tests/unit/ */
	const struct unit_case *cases;
} files[] = { UNIT_FILES(UNIT_ROW) };
#define NFILES (sizeof files / sizeof files[0])

int failed_checks;
const char *fixtures = "tests/fixtures";
static const char *skipped; /* unit_skip's why, for the running case */

void unit_skip(const char *why)
{
	skipped = why;
}

char *tmp_path(char *out, size_t len, const char *name)
{
	const char *dir = getenv("TMPDIR");

	if (!dir || !*dir)
		dir = "/tmp";
	if ((size_t)snprintf(out, len, "%s/%s", dir, name) >= len) {
		CHECK(0);
		out[0] = '\0';
	}
	return out;
}

char *write_file(const char *text)
{
	static char path[PATH_MAX];
	char name[64];
	FILE *f;

	snprintf(name, sizeof name, "idxlab-unit-%d.conf", (int)getpid());
	tmp_path(path, sizeof path, name);
	f = fopen(path, "w");
	if (!f)
		return NULL;
	fputs(text, f);
	fclose(f);
	return path;
}

int read_fixture(const char *name, char *buf, size_t len)
{
	char path[512];
	size_t n;
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", fixtures, name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	buf[n] = 0;
	fclose(f);
	return 0;
}

/* ARG names file PATH (ui/history.c, tests/unit/ui/history.c). */
static int names_file(const char *arg, const char *path)
{
	if (strncmp(arg, "tests/unit/", 11) == 0)
		arg += 11;
	return strcmp(arg, path) == 0;
}

/* ARG names case NAME (unit/knobs, knobs). */
static int names_case(const char *arg, const char *name)
{
	return strcmp(arg, name) == 0 ||
	       (strncmp(name, "unit/", 5) == 0 && strcmp(arg, name + 5) == 0);
}

/* Which of args[0..n) select case c of file f: 1 if one does (or none is
 * given); each one that selects anything is marked in used. */
static int selected(char **args, int n, int *used, size_t f, const struct unit_case *c)
{
	int i, hit = n == 0;

	for (i = 0; i < n; i++)
		if (names_file(args[i], files[f].path) || names_case(args[i], c->name)) {
			used[i] = 1;
			hit = 1;
		}
	return hit;
}

/* The names a command line may give, for a name that was none of them. */
static void list_names(void)
{
	const struct unit_case *c;
	size_t f;

	fprintf(stderr, "the files (tests/unit/) and their cases:\n");
	for (f = 0; f < NFILES; f++) {
		fprintf(stderr, "  %s:", files[f].path);
		for (c = files[f].cases; c->name; c++)
			fprintf(stderr, " %s", c->name);
		fprintf(stderr, "\n");
	}
}

/* Two cases of one name would read as one in the runner's tally. */
static int names_unique(void)
{
	const struct unit_case *a, *b;
	size_t f, g;

	for (f = 0; f < NFILES; f++)
		for (a = files[f].cases; a->name; a++)
			for (g = f; g < NFILES; g++)
				for (b = g == f ? a + 1 : files[g].cases; b->name; b++)
					if (strcmp(a->name, b->name) == 0) {
						fprintf(stderr,
						        "unit: two cases named %s (in %s and %s): "
						        "rename one\n",
						        a->name, files[f].path, files[g].path);
						return 0;
					}
	return 1;
}

/* Every .c under tests/unit/ (UNIT_PATHS: the Makefile's list) is a line
 * of UNIT_FILES: a file left out would compile and never run. */
static void test_wired(void)
{
#ifdef UNIT_PATHS
	const char *p = UNIT_PATHS, *end;
	size_t f, n;
	int found, seen = 0;

	for (; *p; p = *end ? end + 1 : end) {
		end = p + strcspn(p, " ");
		n = (size_t)(end - p);
		if (n > 11 && strncmp(p, "tests/unit/", 11) == 0) {
			p += 11;
			n -= 11;
		}
		if (!n)
			continue;
		seen++;
		for (f = 0, found = 0; f < NFILES; f++)
			found |= strlen(files[f].path) == n && strncmp(files[f].path, p, n) == 0;
		if (!found) {
			printf("  tests/unit/%.*s: not in UNIT_FILES (the top of tests/unit/main.c "
			       "says how to add it)\n",
			       (int)n, p);
			failed_checks++;
		}
	}
	CHECK(seen == (int)NFILES);
#else
	unit_skip("built without UNIT_PATHS (the Makefile gives the list of tests/unit/*.c)");
#endif
}

/* Every file of UNIT_FILES (but this one) tests the src/ file of its path:
 * one renamed or moved in src/ moves its tests along. The tree is the
 * fixtures dir's grandparent, as for unit/man-keys. */
static void test_mirrors_src(void)
{
	char path[PATH_MAX];
	size_t f;

	for (f = 0; f < NFILES; f++) {
		if (strcmp(files[f].path, "main.c") == 0)
			continue;
		snprintf(path, sizeof path, "%s/../../src/%s", fixtures, files[f].path);
		if (access(path, F_OK) != 0) {
			printf("  tests/unit/%s: no src/%s to test (move it with its file)\n",
			       files[f].path, files[f].path);
			failed_checks++;
		}
	}
}

const struct unit_case unit_main[] = {
	{ "unit/wired", test_wired },
	{ "unit/mirrors-src", test_mirrors_src },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	int passed = 0, failed = 0, nskipped = 0, nargs = argc > 2 ? argc - 2 : 0, i, *used;
	const struct unit_case *c;
	size_t f;

	if (argc > 1)
		fixtures = argv[1];
	if (!names_unique())
		return 2;
	used = calloc((size_t)nargs + 1, sizeof *used);
	if (!used)
		return 2;
	for (f = 0; f < NFILES; f++)
		for (c = files[f].cases; c->name; c++)
			selected(argv + 2, nargs, used, f, c);
	for (i = 0; i < nargs; i++)
		if (!used[i]) {
			fprintf(stderr, "unit: '%s' is no case's name nor a file of tests/unit/\n",
			        argv[2 + i]);
			list_names();
			free(used);
			return 2;
		}
	for (f = 0; f < NFILES; f++)
		for (c = files[f].cases; c->name; c++) {
			if (!selected(argv + 2, nargs, used, f, c))
				continue;
			failed_checks = 0;
			skipped = NULL;
			c->fn();
			if (failed_checks) {
				printf("FAIL %s: %d checks failed\n", c->name, failed_checks);
				failed++;
			} else if (skipped) {
				printf("SKIP %s: %s\n", c->name, skipped);
				nskipped++;
			} else {
				printf("PASS %s\n", c->name);
				passed++;
			}
		}
	free(used);
	printf("unit: %d passed, %d failed, %d skipped\n", passed, failed, nskipped);
	return failed ? 1 : 0;
}
