/* unit.h - what the unit test files share: a file's table of cases, CHECK,
 * and the helpers main.c keeps. tests/unit/ mirrors src/: the cases of
 * src/ui/history.c are in tests/unit/ui/history.c; main.c says how a new
 * file is wired. */
#ifndef IDXLAB_TEST_UNIT_H
#define IDXLAB_TEST_UNIT_H

#include <stddef.h>
#include <stdio.h>

/* One case: its name as PASS/FAIL/SKIP lines print it ("unit/knobs") and
 * its function. Each file ends in a table of its own, named unit_ and its
 * path under tests/unit/ with / as _ (tests/unit/ui/history.c:
 * unit_ui_history), ending with { NULL, NULL }. */
struct unit_case {
	const char *name;
	void (*fn)(void);
};

/* main.c: the checks failed in the running case; the fixtures dir
 * (argv[1], tests/fixtures by default). */
extern int failed_checks;
extern const char *fixtures;

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			printf("  check failed at %s:%d: %s\n", __FILE__, __LINE__, #cond);        \
			failed_checks++;                                                           \
		}                                                                                  \
	} while (0)

/* The running case cannot run here (an engine not built): it prints SKIP
 * with why, unless a check failed too (then FAIL). */
void unit_skip(const char *why);

/* NAME under $TMPDIR (/tmp when unset or empty), where the shell tests
 * write too; a TMPDIR too long for OUT fails a check and leaves "". */
char *tmp_path(char *out, size_t len, const char *name);
/* TEXT written to a file of its own under $TMPDIR (the same path each
 * call: unlink it when done); its path, or NULL. */
char *write_file(const char *text);
/* Fixture file NAME (in the fixtures dir) into buf, NUL-terminated; 0 or -1. */
int read_fixture(const char *name, char *buf, size_t len);

#endif
