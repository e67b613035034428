/* dsn_file.c - a --dsn FILE: whose it is, and one idxlab at a time on it.
 *
 * FILE must be new or a file idxlab made: it carries an idxlab_meta table
 * with created_by = idxlab. A foreign file is inspected through an
 * immutable read-only URI, so it is never modified, not even by a
 * hot-journal rollback. One idxlab at a time works on a --dsn file: it
 * holds an flock on FILE-idxlab-lock (holding its pid) from before it reads
 * FILE until it has closed it, and removes it then; a second idxlab is told
 * who has the file, and the kernel drops the lock of a killed one. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../evlog.h"
#include "sqlite_int.h"

/* Percent-encode the characters a file: URI gives meaning to. */
static void uri_path(const char *path, char *out, size_t len)
{
	size_t n = 0;

	for (; *path && n + 4 < len; path++) {
		if (*path == '?' || *path == '#' || *path == '%')
			n += (size_t)snprintf(out + n, len - n, "%%%02X", (unsigned char)*path);
		else
			out[n++] = *path;
	}
	out[n] = 0;
}

int sqlite_dsn_check(const char *path, struct err *e)
{
	static const char magic[16] = "SQLite format 3";
	char head[16], uri[PATH_MAX * 3 + 64], enc[PATH_MAX * 3];
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	int ours = 0;
	FILE *f;
	size_t n;

	f = fopen(path, "rb");
	if (!f)
		return err_set(e, ERR_RUNTIME, "cannot read %s: %s", path, strerror(errno));
	n = fread(head, 1, sizeof head, f);
	fclose(f);
	if (n != sizeof head || memcmp(head, magic, sizeof magic) != 0)
		return err_set(e, ERR_USAGE,
		               "%s exists and is not an SQLite database idxlab created; idxlab "
		               "leaves it untouched - give --dsn a new file name",
		               path);
	uri_path(path, enc, sizeof enc);
	snprintf(uri, sizeof uri, "file:%s?mode=ro&immutable=1", enc);
	/* Look for the marker table before asking it, so a foreign file gives
	 * no SQL error in the log. */
	if (sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(db,
	                       "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = "
	                       "'idxlab_meta'",
	                       -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW) {
		sqlite3_finalize(st);
		st = NULL;
		if (sqlite3_prepare_v2(db, "SELECT value FROM idxlab_meta WHERE key = 'created_by'",
		                       -1, &st, NULL) == SQLITE_OK &&
		    sqlite3_step(st) == SQLITE_ROW) {
			const unsigned char *v = sqlite3_column_text(st, 0);

			ours = v && strcmp((const char *)v, "idxlab") == 0;
		}
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	if (!ours)
		return err_set(e, ERR_USAGE,
		               "%s is an SQLite database idxlab did not create (no idxlab_meta "
		               "marker); idxlab never touches it - give --dsn a new file name",
		               path);
	return 0;
}

/* The lock file beside a --dsn FILE: FILE-idxlab-lock. */
static void lock_path(const struct engine *en, char *out, size_t len)
{
	snprintf(out, len, "%s-idxlab-lock", en->path);
}

/* Take the --dsn file's lock: 0, or -1 when another idxlab has it (or the
 * lock file cannot be made). Retries when the holder removed the file
 * between our open and our flock (we would hold a lock on nothing). */
int sqlite_dsn_lock(struct engine *en, struct err *e)
{
	char lp[PATH_MAX + 16];
	struct stat a, b;
	int tries;

	lock_path(en, lp, sizeof lp);
	for (tries = 0; tries < 10; tries++) {
		int fd = open(lp, O_RDWR | O_CREAT | O_CLOEXEC, 0644);

		if (fd < 0)
			return err_set(
			    e, ERR_RUNTIME,
			    "cannot write %s: cannot create its lock file %s: %s - choose "
			    "a writable place with --dsn FILE",
			    en->path, lp, strerror(errno));
		if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
			char buf[32] = "", who[48] = "";
			long pid;

			if (errno != EWOULDBLOCK) {
				evlog_add(
				    EV_WARN,
				    "sqlite: cannot lock %s (%s): a second idxlab on %s would "
				    "not be stopped",
				    lp, strerror(errno), en->path);
				en->lock_fd = fd; /* removed at close all the same */
				return 0;
			}
			pid = read(fd, buf, sizeof buf - 1) > 0 ? strtol(buf, NULL, 10) : 0;
			close(fd);
			if (pid > 0)
				snprintf(who, sizeof who, " (pid %ld)", pid);
			return err_set(
			    e, ERR_RUNTIME,
			    "%s is in use by another idxlab%s: wait for it to end, or give "
			    "--dsn another file name",
			    en->path, who);
		}
		if (fstat(fd, &a) == 0 && stat(lp, &b) == 0 && a.st_dev == b.st_dev &&
		    a.st_ino == b.st_ino) {
			char pid[32];
			int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());

			if (ftruncate(fd, 0) < 0 || write(fd, pid, (size_t)n) != n)
				evlog_add(EV_WARN, "sqlite: cannot write idxlab's pid into %s", lp);
			en->lock_fd = fd;
			return 0;
		}
		close(fd);
	}
	return err_set(e, ERR_RUNTIME, "cannot lock %s: its lock file %s keeps changing", en->path,
	               lp);
}

/* Remove the lock file while still holding the lock, then let go. */
void sqlite_dsn_unlock(struct engine *en)
{
	char lp[PATH_MAX + 16];

	if (en->lock_fd < 0)
		return;
	lock_path(en, lp, sizeof lp);
	(void)unlink(lp);
	close(en->lock_fd);
	en->lock_fd = -1;
}
