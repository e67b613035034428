/* source.c - a user's SQLite file opened for --schema-from so that nothing
 * is created or written beside it.
 *
 * A plain read-only open is not enough: on a WAL-mode file SQLite opens (and
 * creates) FILE-wal and FILE-shm with O_RDWR | O_CREAT, and on a crashed WAL
 * it writes the -shm while it recovers. So the file is looked at first,
 * without SQLite, and opened one of two ways:
 *
 *  - another process has it open (it holds a lock on the file's lock bytes
 *    or the -shm's "in use" byte), or a -wal is there with its -shm (a
 *    writer that died): mode=ro&readonly_shm=1, so the -shm is opened
 *    O_RDONLY and the WAL is read through it (SQLite rebuilds the index of
 *    a dead writer's WAL in its own memory). If that fails: as below, with
 *    a note.
 *  - otherwise: as immutable (file:PATH?mode=ro&immutable=1); SQLite then
 *    opens the file itself and nothing else. Frames a dead writer left in
 *    a -wal without its -shm are not seen: a note says how many there may
 *    be (without the -shm, which of them are already in the file is not
 *    known).
 *
 * Either way the connection goes through the "idxlab-ro" VFS: the default
 * one, except that every file it opens besides the database is opened
 * read-only and never created, and that it deletes nothing.
 *
 * Links: the user names the file, so a symlink to it is followed, as
 * SQLite does (the side files are those beside the link's target, the
 * realpath). The side files are looked at with lstat and O_NOFOLLOW: one
 * that is not a regular file (a link planted in a directory others can
 * write) is not read, and the file is read as immutable. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../schema_from.h"
#include "sqlite_int.h"

#define RO_VFS_NAME "idxlab-ro"
/* SQLite's lock bytes in the database file (os_unix.c) and its -shm. */
#define LOCK_FIRST   0x40000000 /* PENDING_BYTE */
#define LOCK_LEN     (2 + 510)  /* RESERVED, then the SHARED range */
#define SHM_DMS_BYTE 128        /* held (shared) by every connection using the -shm */

static sqlite3_vfs ro_vfs, *ro_root;

static int ro_open(sqlite3_vfs *v, const char *name, sqlite3_file *f, int flags, int *out)
{
	(void)v;
	if (name) /* the database, its -wal, a journal: read, never create */
		flags = (flags & ~(SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
		                   SQLITE_OPEN_DELETEONCLOSE | SQLITE_OPEN_EXCLUSIVE)) |
		        SQLITE_OPEN_READONLY;
	return ro_root->xOpen(ro_root, name, f, flags, out);
}

static int ro_delete(sqlite3_vfs *v, const char *name, int sync)
{
	(void)v, (void)name, (void)sync;
	return SQLITE_IOERR_DELETE;
}

static int ro_register(void)
{
	if (ro_root)
		return SQLITE_OK;
	if (sqlite3_initialize() != SQLITE_OK || !(ro_root = sqlite3_vfs_find(NULL)))
		return SQLITE_ERROR;
	ro_vfs = *ro_root; /* the same methods and app data, but: */
	ro_vfs.pNext = NULL;
	ro_vfs.zName = RO_VFS_NAME;
	ro_vfs.xOpen = ro_open;
	ro_vfs.xDelete = ro_delete;
	return sqlite3_vfs_register(&ro_vfs, 0);
}

/* Percent-encode what a file: URI gives meaning to (and a path's start a
 * URI would read as an authority cannot occur: path is absolute, from
 * realpath, so it starts with exactly one slash). 0, or -1 if too long. */
static int uri_path(const char *path, char *out, size_t len)
{
	size_t n = 0;

	for (; *path; path++) {
		if (n + 4 >= len)
			return -1;
		if (*path == '?' || *path == '#' || *path == '%')
			n += (size_t)snprintf(out + n, len - n, "%%%02X", (unsigned char)*path);
		else
			out[n++] = *path;
	}
	out[n] = 0;
	return 0;
}

/* 1 if another process holds a lock on [start, start + len) of fd. */
static int locked(int fd, off_t start, off_t len)
{
	struct flock l = {
		.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = start, .l_len = len
	};

	return fcntl(fd, F_GETLK, &l) == 0 && l.l_type != F_UNLCK;
}

/* A side file: -1 absent, 0 there but not a regular file, 1 a regular file
 * (its size into *size). Never follows a link. */
static int side_file(const char *path, off_t *size)
{
	struct stat st;

	*size = 0;
	if (lstat(path, &st) < 0)
		return -1;
	if (!S_ISREG(st.st_mode))
		return 0;
	*size = st.st_size;
	return 1;
}

/* 1 if the -journal at path is hot: it starts with a journal header (a
 * persisted or truncated one that was finished does not). */
static int journal_hot(const char *path)
{
	static const unsigned char magic[8] = { 0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7 };
	unsigned char head[8];
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	int hot = fd >= 0 && pread(fd, head, sizeof head, 0) == (ssize_t)sizeof head &&
	          memcmp(head, magic, sizeof magic) == 0;

	if (fd >= 0)
		close(fd);
	return hot;
}

/* 1 if a connection has the -shm at path in use (holds its DMS byte). */
static int shm_in_use(const char *path)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	int in_use;

	if (fd < 0)
		return 0;
	in_use = locked(fd, SHM_DMS_BYTE, 1);
	close(fd);
	return in_use;
}

static int try_open(const char *uri, sqlite3 **db)
{
	*db = NULL;
	if (sqlite3_open_v2(uri, db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX,
	                    RO_VFS_NAME) != SQLITE_OK)
		return -1;
	sqlite3_busy_timeout(*db, 2000);
	sqlite3_exec(*db, "PRAGMA query_only = 1; PRAGMA temp_store = MEMORY", NULL, NULL, NULL);
	/* The open is lazy: read the schema now, so that a failure shows here. */
	return sqlite3_exec(*db, "SELECT count(*) FROM sqlite_schema", NULL, NULL, NULL) ==
	               SQLITE_OK
	           ? 0
	           : -1;
}

int sqlite_source_open(const char *source, sqlite3 **out, char *notes, size_t nlen, struct err *e)
{
	char real[PATH_MAX], side[PATH_MAX + 16], enc[PATH_MAX * 3 + 1], uri[PATH_MAX * 3 + 64];
	unsigned char head[100];
	off_t wal_size = 0, shm_size = 0, jrnl_size = 0;
	int fd, wal, shm, jrnl, jrnl_hot, busy, rc;
	long page;
	struct stat st;
	sqlite3 *db = NULL;

	*out = NULL;
	if (!realpath(source, real))
		return err_set(e, ERR_USAGE, "sqlite: cannot open it: %s", strerror(errno));
	fd = open(real, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    pread(fd, head, sizeof head, 0) != (ssize_t)sizeof head) {
		rc = err_set(e, ERR_USAGE, "sqlite: cannot read it: %s",
		             fd < 0 ? strerror(errno) : "not a regular SQLite file");
		if (fd >= 0)
			close(fd);
		return rc;
	}
	busy = locked(fd, LOCK_FIRST, LOCK_LEN);
	close(fd); /* before SQLite opens it: a close drops the process's locks */
	page = head[16] << 8 | head[17];
	page = page == 1 ? 65536 : page;
	snprintf(side, sizeof side, "%s-wal", real);
	wal = side_file(side, &wal_size);
	snprintf(side, sizeof side, "%s-journal", real);
	jrnl = side_file(side, &jrnl_size);
	jrnl_hot = jrnl == 1 && jrnl_size > 0 && journal_hot(side);
	snprintf(side, sizeof side, "%s-shm", real);
	shm = side_file(side, &shm_size);
	busy = busy || (shm == 1 && shm_in_use(side));
	if (uri_path(real, enc, sizeof enc) < 0)
		return err_set(e, ERR_USAGE, "sqlite: its path is too long");
	if (ro_register() != SQLITE_OK)
		return err_set(e, ERR_RUNTIME, "sqlite: cannot register its read-only VFS");

	/* Someone has it open, or a WAL with its index: read it as they see it. */
	if (wal != 0 && shm != 0 && jrnl != 0 && (busy || (wal == 1 && shm == 1))) {
		snprintf(uri, sizeof uri, "file:%s?mode=ro&readonly_shm=1", enc);
		if (try_open(uri, &db) == 0) {
			if (busy)
				shape_note(notes, nlen, "read while another process had it open%s",
				           wal == 1 ? " (its WAL too, through its -shm)" : "");
			*out = db;
			return 0;
		}
		shape_note(notes, nlen, "could not read it as %s: %s; read as the file is",
		           busy ? "the process that has it open sees it" : "its WAL says",
		           sqlite3_errmsg(db));
		sqlite3_close(db);
	}
	snprintf(uri, sizeof uri, "file:%s?mode=ro&immutable=1", enc);
	if (try_open(uri, &db) < 0) {
		rc = err_set(e, ERR_USAGE, "sqlite: cannot read it: %s",
		             db ? sqlite3_errmsg(db) : "out of memory");
		sqlite3_close(db);
		return rc;
	}
	if (wal == 1 && wal_size > 32 && page >= 512)
		shape_note(notes, nlen,
		           "its WAL was left without its -shm, with up to %lld frame%s (%lld "
		           "bytes) that may not be in the file yet: not seen, as idxlab writes "
		           "nothing beside it (open the file once with sqlite3 to move them in)",
		           (long long)((wal_size - 32) / (24 + page)),
		           (wal_size - 32) / (24 + page) == 1 ? "" : "s", (long long)wal_size);
	if (wal == 0 || shm == 0 || jrnl == 0)
		shape_note(notes, nlen,
		           "a -wal, -shm or -journal beside it is not a regular file: "
		           "not read");
	if (jrnl_hot)
		shape_note(notes, nlen,
		           "a -journal a writer that did not finish left beside it was not rolled "
		           "back: read as the file is");
	*out = db;
	return 0;
}
