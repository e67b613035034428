/* whatif.c - the cases of src/whatif.c: the question as a verb: the spec a
 * plan's candidates and drops make (the list's order, the indexes words,
 * the slider's why). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "config.h"
#include "schema.h"
#include "whatif.h"
#include "unit.h"

static void test_whatif(void)
{
	char *argv[] = { (char *)"idxlab",
		         (char *)"--schema",
		         (char *)"users",
		         (char *)"--drop-index",
		         (char *)"idxlab_status",
		         (char *)"--add-index",
		         (char *)"email+status",
		         (char *)"--indexes",
		         (char *)"without,table,all",
		         NULL };
	struct plan p;
	struct err e = { ERR_NONE, "" };
	struct knobs k;
	const struct schema *s;
	const char *why;

	CHECK(plan_from_args(&p, 9, argv, &e) == 0);
	plan_step(&p, 0, &k);
	s = schema_of(&k);
	CHECK(s->extends && s->ntable == 6 && s->ndrop == 1 && s->nindexes == 7);
	CHECK(strcmp(s->idx[5].name, "idxlab_status") == 0);
	CHECK(strcmp(s->idx[6].name, "idxlab_add_email_status") == 0);
	/* without, table, all: 5, 6, 7 */
	CHECK(k.v[K_INDEXES] == 5);
	plan_step(&p, 1, &k);
	CHECK(k.v[K_INDEXES] == 6);
	plan_step(&p, 2, &k);
	CHECK(k.v[K_INDEXES] == 7);
	CHECK(knob_max(K_INDEXES, &k) == 7);
	why = knob_why(K_INDEXES, &k);
	CHECK(strstr(why, "the users table's 6:") != NULL);
	CHECK(strstr(why, "; --drop-index's, 6 on: (status);") != NULL);
	CHECK(strstr(why, "; then the candidates (--add-index), 7 on: (email, status);") != NULL);
	CHECK(strstr(schema_max_why(&k), "6 indexes and 1 candidate (--add-index)") != NULL);
	/* the label reads back as the table's own */
	CHECK(strcmp(schema_label(k.v[K_SCHEMA]), "users") == 0);
	plan_free(&p);
}

const struct unit_case unit_whatif[] = {
	{ "unit/whatif", test_whatif },
	{ NULL, NULL },
};
