/* input.c - the cases of src/ui/input.c: every key of the binding table has
 * its heading in the man page. */
#include <stdio.h>
#include <string.h>

#include "ui/input.h"
#include "unit.h"

/* A man page heading line (.B, .BR, .RB ...) as groff prints it. */
static void man_render(const char *line, char *out, size_t len)
{
	int alternate = line[2] != ' ', quoted = 0;
	size_t n = 0;
	const char *p = strchr(line, ' ');

	for (p = p ? p + 1 : ""; *p && n + 1 < len; p++) {
		if (*p == '"') {
			quoted = !quoted;
		} else if (*p == ' ' && !quoted) {
			if (!alternate)
				out[n++] = ' ';
		} else if (p[0] == '\\' && p[1] == '-') {
			out[n++] = '-';
			p++;
		} else if (p[0] == '\\' && p[1] == '&') {
			p++;
		} else {
			out[n++] = *p;
		}
	}
	out[n] = 0;
}

/* Every key of the dashboard's binding table has a heading in the man
 * page's DASHBOARD section, named as the table names it. */
static void test_man_keys(void)
{
	char path[1024], line[512], heads[64][128];
	int nheads = 0, in = 0, next = 0;
	size_t i, j;
	FILE *f;

	snprintf(path, sizeof path, "%s/../../man/idxlab.1", fixtures);
	f = fopen(path, "r");
	CHECK(f != NULL);
	if (!f)
		return;
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = 0;
		if (strncmp(line, ".SH ", 4) == 0)
			in = strcmp(line, ".SH DASHBOARD") == 0;
		if (in && next && nheads < 64)
			man_render(line, heads[nheads++], sizeof heads[0]);
		next = in && strcmp(line, ".TP") == 0;
	}
	fclose(f);
	CHECK(nheads >= 10);
	for (i = 0; i < input_nbindings; i++) {
		const char *names = input_bindings[i].names;
		int found = 0;

		if (!names)
			continue;
		for (j = 0; j < (size_t)nheads; j++)
			found |= strcmp(heads[j], names) == 0;
		if (!found)
			printf("  the man page's DASHBOARD section has no heading '%s'\n", names);
		CHECK(found);
	}
}

const struct unit_case unit_ui_input[] = {
	{ "unit/man-keys", test_man_keys },
	{ NULL, NULL },
};
