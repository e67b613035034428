/* unit.h - what the unit test files share: CHECK and the cases each adds. */
#ifndef IDXLAB_TEST_UNIT_H
#define IDXLAB_TEST_UNIT_H

#include <stddef.h>
#include <stdio.h>

extern int failed_checks;
extern const char *fixtures;

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			printf("  check failed at %s:%d: %s\n", __FILE__, __LINE__, #cond);        \
			failed_checks++;                                                           \
		}                                                                                  \
	} while (0)

/* unit.c: NAME under $TMPDIR (/tmp when unset or empty), where the shell
 * tests write too; a TMPDIR too long for OUT fails a check and leaves "". */
char *tmp_path(char *out, size_t len, const char *name);

/* unit_schema.c */
void test_schema(void);
void test_schema_files(void);

/* unit_row.c */
void test_row(void);
/* unit_own_index.c */
void test_own_index(void);
/* unit_orders.c */
void test_orders(void);

/* unit_presenter.c */
void test_presenter(void);
void test_demo_back(void);
/* unit_replay.c */
void test_replay_seek(void);
void test_replay_seek_long(void);
void test_history_rewind(void);
void test_replay_seek_events_once(void);
/* unit_whatif.c */
void test_whatif(void);
void test_answer(void);
/* unit_screen.c */
void test_textfit(void);
/* unit_repeat.c */
void test_spread(void);

#endif
