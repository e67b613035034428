/* tmpdir.c - the cases of src/engines/tmpdir.c: the tail of a log file and of
 * an fd. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engines/tmpdir.h"
#include "unit.h"

/* The end of a server log, for messages about a server that died. */
static void test_log_tail(void)
{
	char dir[PATH_MAX], path[PATH_MAX + 16], buf[64];
	FILE *f;

	if (!mkdtemp(tmp_path(dir, sizeof dir, "idxlab-unit.XXXXXX"))) {
		CHECK(0);
		return;
	}
	snprintf(path, sizeof path, "%s/x.log", dir);
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (!f)
		return;
	fputs("one\n\ntwo\nthree\n\n", f);
	fclose(f);
	tmpdir_log_tail(dir, "x.log", 2, buf, sizeof buf);
	CHECK(strcmp(buf, "two | three") == 0);
	tmpdir_log_tail(dir, "x.log", 9, buf, sizeof buf);
	CHECK(strcmp(buf, "one | two | three") == 0);
	tmpdir_log_tail(dir, "x.log", 9, buf, 8); /* cut to fit */
	CHECK(strlen(buf) < 8 && strncmp(buf, "one", 3) == 0);
	tmpdir_log_tail(dir, "none.log", 2, buf, sizeof buf);
	CHECK(buf[0] == 0);
	unlink(path);
	rmdir(dir);
}

/* The log tail of an open fd, from an offset, keeping the newest lines. */
static void test_fd_tail(void)
{
	static const char text[] = "old\nnew one  \n\ntwo\nthree\n";
	char path[PATH_MAX], buf[64];
	int fd = mkstemp(tmp_path(path, sizeof path, "idxlab-unit-tail.XXXXXX"));
	ssize_t w;

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	unlink(path);
	w = write(fd, text, strlen(text));
	CHECK(w == (ssize_t)strlen(text));
	tmpdir_fd_tail(fd, 4, 10, TMPDIR_TAIL_NEWEST, buf, sizeof buf);
	CHECK(strcmp(buf, "new one | two | three") == 0);
	tmpdir_fd_tail(fd, 4, 2, TMPDIR_TAIL_NEWEST, buf, sizeof buf);
	CHECK(strcmp(buf, "two | three") == 0);
	tmpdir_fd_tail(fd, 0, 10, TMPDIR_TAIL_NEWEST, buf, 12);
	CHECK(strcmp(buf, "two | three") == 0);
	tmpdir_fd_tail(fd, (off_t)strlen(text), 10, TMPDIR_TAIL_NEWEST, buf, sizeof buf);
	CHECK(buf[0] == 0);
	tmpdir_fd_tail(-1, 0, 10, TMPDIR_TAIL_NEWEST, buf, sizeof buf);
	CHECK(buf[0] == 0);
	close(fd);
}

const struct unit_case unit_engines_tmpdir[] = {
	{ "unit/log-tail", test_log_tail },
	{ "unit/fd-tail", test_fd_tail },
	{ NULL, NULL },
};
