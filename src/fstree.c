/* fstree.c - remove, chown and copy trees through directory fds.
 *
 * Each walk holds the fd of the directory it is in and names entries of it
 * only; an entry is looked at with fstatat(AT_SYMLINK_NOFOLLOW), entered
 * with openat(O_NOFOLLOW | O_DIRECTORY) and checked again on the fd it got
 * (fstat), so what is swapped between the look and the use is either a
 * link (which O_NOFOLLOW refuses) or another inode (which the check sees).
 * Depth is bounded (an fd is held per level). Entries removed while a
 * directory is read are not seen again (readdir may skip them: fine, they
 * are gone); the final rmdir tells whether all went. */
#include "fstree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#define MAX_DEPTH 64 /* a data dir is 4 deep; deeper is not ours */

int fstree_open_dir(int at, const char *name)
{
	return openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

int fstree_open(int at, const char *rel, int flags)
{
	char part[NAME_MAX + 1];
	int cur = at, next, saved;
	const char *p = rel, *slash;
	size_t len;

	for (;;) {
		while (*p == '/')
			p++;
		slash = strchr(p, '/');
		len = slash ? (size_t)(slash - p) : strlen(p);
		if (len == 0 || len > NAME_MAX || (len == 2 && p[0] == '.' && p[1] == '.')) {
			next = -1;
			errno = EINVAL; /* only plain names below at */
		} else {
			memcpy(part, p, len);
			part[len] = 0;
			next = slash ? fstree_open_dir(cur, part)
			             : openat(cur, part, flags | O_NOFOLLOW | O_CLOEXEC);
		}
		saved = errno;
		if (cur != at)
			close(cur);
		errno = saved;
		if (next < 0 || !slash)
			return next;
		cur = next;
		p = slash + 1;
	}
}

/* Can only root and we change the entries of the directory st describes
 * (last: and is it ours)? */
static int is_private(const struct stat *st, int last)
{
	uid_t me = geteuid();

	if (!S_ISDIR(st->st_mode) || (st->st_uid != 0 && st->st_uid != me))
		return 0;
	if (last)
		return st->st_uid == me && !(st->st_mode & (S_IWGRP | S_IWOTH));
	return !(st->st_mode & (S_IWGRP | S_IWOTH)) || (st->st_mode & S_ISVTX);
}

int fstree_open_private(const char *path)
{
	char part[NAME_MAX + 1];
	const char *p = path, *slash;
	struct stat st;
	size_t len;
	int fd, next, saved;

	if (path[0] != '/') {
		errno = EINVAL;
		return -1;
	}
	fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	while (fd >= 0) {
		while (*p == '/')
			p++;
		if (fstat(fd, &st) < 0 || !is_private(&st, *p == 0)) {
			saved = fstat(fd, &st) < 0 ? errno : EPERM;
			close(fd);
			errno = saved;
			return -1;
		}
		if (*p == 0)
			return fd;
		slash = strchr(p, '/');
		len = slash ? (size_t)(slash - p) : strlen(p);
		if (len > NAME_MAX) {
			close(fd);
			errno = ENAMETOOLONG;
			return -1;
		}
		memcpy(part, p, len);
		part[len] = 0;
		p += len;
		/* A link in a dir only root and we can write was put there by one
		 * of us: followed (where it leads is checked next, as the dir it
		 * opens); in a sticky one anyone may have: not. */
		next = st.st_mode & (S_IWGRP | S_IWOTH)
		           ? fstree_open_dir(fd, part)
		           : openat(fd, part, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (next < 0 && errno == ENOENT && mkdirat(fd, part, 0700) == 0)
			next = fstree_open_dir(fd, part);
		saved = next < 0 && (errno == ELOOP || errno == ENOTDIR) ? EPERM : errno;
		close(fd);
		errno = saved;
		fd = next;
	}
	return -1;
}

ssize_t fstree_read_path(const char *path, char *buf, size_t n)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

	return fd < 0 ? -1 : fstree_read_fd(fd, buf, n);
}

ssize_t fstree_read_fd(int fd, char *buf, size_t n)
{
	ssize_t got = 0, len;

	while ((size_t)got < n - 1) {
		len = read(fd, buf + got, n - 1 - (size_t)got);
		if (len < 0 && errno == EINTR)
			continue;
		if (len <= 0)
			break;
		got += len;
	}
	close(fd);
	buf[got] = 0;
	return got;
}

ssize_t fstree_read(int at, const char *rel, char *buf, size_t n)
{
	struct stat st;
	int fd = fstree_open(at, rel, O_RDONLY | O_NONBLOCK), saved;

	buf[0] = 0;
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		saved = fstat(fd, &st) < 0 ? errno : EINVAL; /* no fifo, no device */
		close(fd);
		errno = saved;
		return -1;
	}
	return fstree_read_fd(fd, buf, n);
}

/* The entries of dir fd dir, one at a time: a DIR on a dup, so the caller
 * keeps its fd. NULL with errno on failure. */
static DIR *entries(int dir)
{
	int fd = dup(dir);
	DIR *d;

	if (fd < 0)
		return NULL;
	d = fdopendir(fd);
	if (!d)
		close(fd);
	return d;
}

static int is_dots(const char *name)
{
	return name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2]));
}

/* Open name in at as the directory st describes (same inode, same file
 * system dev); -1 with errno otherwise. */
static int enter(int at, const char *name, const struct stat *st, dev_t dev)
{
	struct stat got;
	int fd;

	if (st->st_dev != dev) {
		errno = EBUSY; /* a mount point: not ours to walk */
		return -1;
	}
	fd = fstree_open_dir(at, name);
	if (fd < 0)
		return -1;
	if (fstat(fd, &got) < 0 || got.st_dev != st->st_dev || got.st_ino != st->st_ino) {
		close(fd);
		errno = EXDEV; /* swapped since we looked */
		return -1;
	}
	return fd;
}

#define NOTE(err, e) ((err) = (err) ? (err) : (e))

/* ---- remove ----------------------------------------------------------- */

static int remove_below(int dir, dev_t dev, int depth)
{
	struct dirent *de;
	struct stat st;
	int err = 0, sub;
	DIR *d = entries(dir);

	if (!d)
		return errno;
	while ((de = readdir(d))) {
		if (is_dots(de->d_name))
			continue;
		if (fstatat(dir, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			if (errno != ENOENT)
				NOTE(err, errno);
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			if (unlinkat(dir, de->d_name, 0) < 0 && errno != ENOENT)
				NOTE(err, errno);
			continue;
		}
		if (depth >= MAX_DEPTH) {
			NOTE(err, ELOOP);
			continue;
		}
		sub = enter(dir, de->d_name, &st, dev);
		if (sub < 0) {
			/* Turned into a link or a file since the fstatat: unlink that. */
			if ((errno == ELOOP || errno == ENOTDIR) &&
			    unlinkat(dir, de->d_name, 0) == 0)
				continue;
			NOTE(err, errno);
			continue;
		}
		NOTE(err, remove_below(sub, dev, depth + 1));
		close(sub);
		if (unlinkat(dir, de->d_name, AT_REMOVEDIR) < 0 && errno != ENOENT)
			NOTE(err, errno);
	}
	closedir(d);
	return err;
}

int fstree_remove(int at, const char *name, const struct stat *same)
{
	struct stat st;
	int fd, err;

	if (fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode)) {
		if (same) {
			errno = EXDEV; /* was a directory: someone put this here */
			return -1;
		}
		return unlinkat(at, name, 0) < 0 && errno != ENOENT ? -1 : 0;
	}
	if (same && (st.st_dev != same->st_dev || st.st_ino != same->st_ino)) {
		errno = EXDEV;
		return -1;
	}
	fd = enter(at, name, &st, st.st_dev);
	if (fd < 0)
		return -1;
	err = remove_below(fd, st.st_dev, 0);
	close(fd);
	if (unlinkat(at, name, AT_REMOVEDIR) < 0 && errno != ENOENT)
		NOTE(err, errno);
	errno = err;
	return err ? -1 : 0;
}

/* ---- chown ------------------------------------------------------------ */

/* Entries first, then the directory itself, by its fd. A regular file with
 * another name elsewhere (a hard link) is not ours to hand over. */
static int chown_below(int dir, uid_t uid, gid_t gid, dev_t dev, int depth)
{
	struct dirent *de;
	struct stat st;
	int err = 0, sub;
	DIR *d = entries(dir);

	if (!d)
		return errno;
	while ((de = readdir(d))) {
		if (is_dots(de->d_name) || fstatat(dir, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (st.st_uid == uid && st.st_gid == gid)
			continue;
		if (S_ISDIR(st.st_mode)) {
			sub = depth < MAX_DEPTH ? enter(dir, de->d_name, &st, dev)
			                        : (errno = ELOOP, -1);
			if (sub < 0) {
				NOTE(err, errno);
				continue;
			}
			NOTE(err, chown_below(sub, uid, gid, dev, depth + 1));
			if (fchown(sub, uid, gid) < 0)
				NOTE(err, errno);
			close(sub);
		} else if (S_ISREG(st.st_mode) && st.st_nlink > 1) {
			NOTE(err, EPERM);
		} else if (fchownat(dir, de->d_name, uid, gid, AT_SYMLINK_NOFOLLOW) < 0) {
			NOTE(err, errno);
		}
	}
	closedir(d);
	return err;
}

int fstree_chown(int dir, uid_t uid, gid_t gid)
{
	struct stat st;
	int err;

	if (fstat(dir, &st) < 0)
		return -1;
	err = chown_below(dir, uid, gid, st.st_dev, 0);
	if (fchown(dir, uid, gid) < 0)
		NOTE(err, errno);
	errno = err;
	return err ? -1 : 0;
}

/* ---- copy ------------------------------------------------------------- */

static int copy_file(int from, int to, const char *name, const struct stat *st, uid_t owner)
{
	char buf[65536];
	struct stat got;
	ssize_t r, w, off;
	int in, out, err = 0;

	in = openat(from, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (in < 0)
		return errno;
	if (fstat(in, &got) < 0 || got.st_ino != st->st_ino || !S_ISREG(got.st_mode) ||
	    (owner != (uid_t)-1 && got.st_uid != owner)) {
		close(in);
		return EPERM; /* swapped since we looked */
	}
	out = openat(to, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (out < 0) {
		err = errno;
		close(in);
		return err;
	}
	while (!err && (r = read(in, buf, sizeof buf)) != 0) {
		if (r < 0) {
			if (errno != EINTR)
				err = errno;
			continue;
		}
		for (off = 0; off < r && !err; off += w > 0 ? w : 0) {
			w = write(out, buf + off, (size_t)(r - off));
			if (w < 0 && errno != EINTR)
				err = errno;
		}
	}
	if (!err && fchmod(out, got.st_mode & 0777) < 0)
		err = errno;
	if (close(out) < 0 && !err)
		err = errno;
	close(in);
	return err;
}

static int copy_below(int from, int to, uid_t owner, dev_t dev, int depth)
{
	char link[PATH_MAX];
	struct dirent *de;
	struct stat st;
	ssize_t len;
	int err = 0, src, dst;
	DIR *d = entries(from);

	if (!d)
		return errno;
	while (!err && (de = readdir(d))) {
		if (is_dots(de->d_name))
			continue;
		if (fstatat(from, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			err = errno;
		} else if (owner != (uid_t)-1 && st.st_uid != owner) {
			err = EPERM;
		} else if (S_ISREG(st.st_mode)) {
			err = copy_file(from, to, de->d_name, &st, owner);
		} else if (S_ISLNK(st.st_mode)) {
			len = readlinkat(from, de->d_name, link, sizeof link - 1);
			if (len < 0)
				err = errno;
			else if (link[len] = 0, symlinkat(link, to, de->d_name) < 0)
				err = errno;
		} else if (!S_ISDIR(st.st_mode) || depth >= MAX_DEPTH) {
			err = EPERM; /* a fifo, a device, a socket: not in a data dir */
		} else if ((src = enter(from, de->d_name, &st, dev)) < 0) {
			err = errno;
		} else {
			if (mkdirat(to, de->d_name, 0700) < 0 ||
			    (dst = fstree_open_dir(to, de->d_name)) < 0) {
				err = errno;
			} else {
				err = copy_below(src, dst, owner, dev, depth + 1);
				if (!err && fchmod(dst, st.st_mode & 0777) < 0)
					err = errno;
				close(dst);
			}
			close(src);
		}
	}
	closedir(d);
	return err;
}

int fstree_copy(int from, int at, const char *name, uid_t owner)
{
	struct stat st, made;
	int to, err;

	if (fstat(from, &st) < 0)
		return -1;
	if (owner != (uid_t)-1 && st.st_uid != owner) {
		errno = EPERM;
		return -1;
	}
	if (mkdirat(at, name, 0700) < 0)
		return -1;
	to = fstree_open_dir(at, name);
	if (to < 0 || fstat(to, &made) < 0) {
		err = errno;
		if (to >= 0)
			close(to);
		errno = err;
		return -1;
	}
	err = copy_below(from, to, owner, st.st_dev, 0);
	if (!err && fchmod(to, st.st_mode & 0777) < 0)
		err = errno;
	close(to);
	if (err) {
		fstree_remove(at, name, &made);
		errno = err;
		return -1;
	}
	return 0;
}
