/* fstree.h - file trees walked through directory fds, never through a link.
 *
 * idxlab often runs as root over trees another account can write: the
 * throwaway PostgreSQL server's dir belongs to user postgres, and TMPDIR is
 * usually world-writable. A walk by path (nftw, cp -a, rm -rf) resolves
 * every component again at each step, so swapping a directory for a
 * symlink in the middle of the walk sends root somewhere else. Every walk
 * here holds an fd to the directory it is in and names only entries of
 * that directory: openat(O_NOFOLLOW | O_DIRECTORY), fstatat and fchownat
 * with AT_SYMLINK_NOFOLLOW, unlinkat. A symlink met anywhere is handled as
 * the link itself (removed, copied as a link, chowned as a link), never
 * followed; a file system mounted below the top is never entered.
 *
 * All functions return 0 or -1 with errno set (the first error met; a walk
 * goes on past errors where that makes sense and says so). Thread-safe: no
 * global state, no chdir. */
#ifndef IDXLAB_FSTREE_H
#define IDXLAB_FSTREE_H

#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

/* openat(at, name) as a directory: O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
 * O_CLOEXEC. The fd, or -1 (ELOOP or ENOTDIR when name is a symlink). */
int fstree_open_dir(int at, const char *name);

/* Open rel ("a/b/c") below dir fd at, following no symlink at any
 * component; flags as for openat (O_NOFOLLOW and O_CLOEXEC are added).
 * The fd, or -1. */
int fstree_open(int at, const char *rel, int flags);

/* mkdir -p path (absolute; what it makes is 0700) and open it as a dir fd,
 * only where no other user can change what the path leads to: every
 * directory on the way belongs to root or to us and, when others may write
 * it, is sticky (/tmp), and a symlink is followed only from a directory no
 * one else can write; the last is ours, and writable by us alone. The fd,
 * or -1 with errno (EPERM: someone else could change it, or it is no
 * directory). */
int fstree_open_private(const char *path);

/* Read the start of rel below at (fstree_open, a regular file only) into
 * buf (n > 0, NUL-terminated); bytes read or -1. */
ssize_t fstree_read(int at, const char *rel, char *buf, size_t n);

/* Read fd (open for reading) until its end or until buf (n > 0) is full,
 * NUL-terminated, and close fd; bytes read. The one read loop of the small
 * file readers (fstree_read, fstree_read_path, probes/proc.h). */
ssize_t fstree_read_fd(int fd, char *buf, size_t n);

/* Read the start of a small file by path (trusted components: /proc,
 * TMPDIR) into buf (n > 0, NUL-terminated); bytes read or -1. A symlink as
 * the last component is refused (ELOOP); O_NONBLOCK, so a FIFO planted
 * there does not hang the reader. */
ssize_t fstree_read_path(const char *path, char *buf, size_t n);

/* rm -rf of the entry name in dir fd at: everything below it (what can be
 * removed; other file systems are not entered) and then the entry. same:
 * NULL, or the directory must be this one (st_dev, st_ino): a directory
 * that was swapped since the caller looked at it is left alone (EXDEV).
 * 0 if the entry is gone afterwards. */
int fstree_remove(int at, const char *name, const struct stat *same);

/* chown -R of dir fd dir (its entries first, dir itself last, so another
 * user cannot enter before the walk is done). */
int fstree_chown(int dir, uid_t uid, gid_t gid);

/* cp -R of dir fd from into a new directory name in dir fd at (it must not
 * exist): directories, regular files (content and permission bits, never
 * set-id bits) and symlinks (as links). Anything else, and with owner !=
 * (uid_t)-1 any entry not owned by owner, fails the copy (EPERM), so a tree
 * another user can write yields nothing of a third party's. The copy is
 * made by and belongs to the caller, mode 0700 until it is complete. On
 * failure what was copied is removed. */
int fstree_copy(int from, int at, const char *name, uid_t owner);

#endif
