/* fstree.c - the cases of src/fstree.c: links copied and removed as
 * links. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fstree.h"
#include "unit.h"

/* fstree: a link inside a tree is copied and removed as a link, never
 * followed; a path through a link is refused. */
static void test_fstree(void)
{
	char top[PATH_MAX], path[PATH_MAX + 16], buf[64];
	struct stat st;
	int at, src, fd;

	if (!mkdtemp(tmp_path(top, sizeof top, "idxlab-unit-fstree.XXXXXX"))) {
		CHECK(0);
		return;
	}
	at = open(top, O_RDONLY | O_DIRECTORY);
	CHECK(mkdirat(at, "outside", 0700) == 0 && mkdirat(at, "tree", 0700) == 0 &&
	      mkdirat(at, "tree/sub", 0700) == 0);
	fd = openat(at, "outside/keep", O_WRONLY | O_CREAT, 0600);
	CHECK(fd >= 0 && write(fd, "kept", 4) == 4);
	close(fd);
	fd = openat(at, "tree/sub/file", O_WRONLY | O_CREAT, 0640);
	CHECK(fd >= 0 && write(fd, "data", 4) == 4);
	close(fd);
	snprintf(path, sizeof path, "%s/outside", top);
	CHECK(symlinkat(path, at, "tree/sub/link") == 0);

	CHECK(fstree_read(at, "tree/sub/file", buf, sizeof buf) == 4 && strcmp(buf, "data") == 0);
	CHECK(fstree_read(at, "tree/sub/link/keep", buf, sizeof buf) < 0); /* through a link */
	CHECK(fstree_open(at, "tree/../outside/keep", O_RDONLY) < 0);      /* no .. */
	src = fstree_open_dir(at, "tree");
	CHECK(src >= 0 && fstree_copy(src, at, "copy", (uid_t)-1) == 0);
	CHECK(fstree_read(at, "copy/sub/file", buf, sizeof buf) == 4 && strcmp(buf, "data") == 0);
	CHECK(fstatat(at, "copy/sub/file", &st, 0) == 0 && (st.st_mode & 0777) == 0640);
	CHECK(fstatat(at, "copy/sub/link", &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode));
	CHECK(fstree_copy(src, at, "copy", (uid_t)-1) < 0 && errno == EEXIST);
	CHECK(fstree_copy(src, at, "copy2", getuid() + 1) < 0 && errno == EPERM);
	CHECK(fstatat(at, "copy2", &st, 0) < 0); /* a failed copy leaves nothing */
	close(src);
	fstatat(at, "tree", &st, 0);
	CHECK(fstree_remove(at, "copy", &st) < 0 && errno == EXDEV); /* not that dir */
	CHECK(fstree_remove(at, "copy", NULL) == 0 && fstree_remove(at, "tree", &st) == 0);
	CHECK(fstree_read(at, "outside/keep", buf, sizeof buf) == 4); /* untouched */
	CHECK(fstree_remove(at, "outside", NULL) == 0);
	close(at);
	CHECK(rmdir(top) == 0);
}

const struct unit_case unit_fstree[] = {
	{ "unit/fstree", test_fstree },
	{ NULL, NULL },
};
