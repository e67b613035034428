/* tmpdir.h - idxlab's throwaway directories, and a killed idxlab's leftovers.
 *
 * An engine that needs a place of its own (SQLite's and WiredTiger's files,
 * a throwaway PostgreSQL or MongoDB server) gets a fresh directory
 * $TMPDIR/idxlab-<kind>.XXXXXX (TMPDIR default /tmp), mode 0700, whose first
 * file is owner.pid (idxlab's pid); it removes the directory when it closes.
 * An idxlab killed with SIGKILL cannot, so before making a directory,
 * tmpdir_make() removes the leftovers of the same kind: directories whose
 * owner.pid names no live process. Never touched: a directory whose owner
 * lives, one owned by another user, one without owner.pid younger than a
 * minute (it may be being made), a symlink, or anything of another kind.
 * Each removal is reported in the event log.
 *
 * Also here, once: the small file helpers the engines share.
 * Nothing here prints; errors go into struct err. Thread-safe. */
#ifndef IDXLAB_TMPDIR_H
#define IDXLAB_TMPDIR_H

#include <stddef.h>
#include <sys/types.h>

#include "../err.h"

#define TMPDIR_PREFIX "idxlab-" /* then the kind's name, ".", six random characters */
#define TMPDIR_OWNER  "owner.pid"

/* What a kind of directory is for. Kinds are static constants. */
struct tmpdir_kind {
	const char *name; /* "sqlite": $TMPDIR/idxlab-sqlite.XXXXXX */
	const char *what; /* in messages: "the SQLite database" */
	const char *alt;  /* what else the user can do, "pass --dsn FILE"; NULL: none */
	/* Before a dead idxlab's dir is removed: stop what it left running
	 * there (a server that outlived it). dir (its path, for messages and
	 * /proc matching) and fd (the dir itself, opened without following a
	 * link: read files through it, fstree.h) are valid during the call
	 * only. NULL: nothing to do. */
	void (*clean)(const char *dir, int fd);
};

/* Sweep the leftovers of kind, then make a fresh dir of that kind and write
 * owner.pid in it; its absolute path goes into buf (n bytes). also: a
 * second user whose dirs count as ours (the user a server runs as when we
 * are root), or (uid_t)-1. On failure buf is "" and nothing is left. */
int tmpdir_make(char *buf, size_t n, const struct tmpdir_kind *kind, uid_t also, struct err *e);

/* Remove dir (made by tmpdir_make) and everything in it, then set it to "";
 * a warning goes to the event log if some of it stays. Nothing on "". */
void tmpdir_remove(char *dir);

/* tmpdir_remove, for a dir another user can change: only if it is still
 * the dir open as fd (fd < 0: as tmpdir_remove); a dir swapped in its place
 * is left alone (a warning says so). fd stays open. 0 when it is gone, -1
 * when some of it stays. */
int tmpdir_remove_same(char *dir, int fd);

/* 1 if path lies in a dir tmpdir_make names (".../idxlab-sqlite.XXXXXX/..."):
 * the test of an engine's where_own for the databases it makes there. */
int tmpdir_holds(const char *path);

/* 1 if pid is alive, its name (/proc/PID/comm) contains comm and its
 * command line contains dir: a server started in a leftover dir, not a
 * process that was given its pid later. */
int tmpdir_runs_in(pid_t pid, const char *comm, const char *dir);

/* ---- shared file helpers ---------------------------------------------- */

/* a + "/" + b into buf; -1 if it does not fit. */
int tmpdir_join(char *buf, size_t n, const char *a, const char *b);

/* 0, unless path (a --dsn) is a symbolic link whose target does not exist:
 * then -1 and a message. An engine would create the target, a place the
 * user never named. */
int tmpdir_refuse_dangling(const char *path, struct err *e);

/* Create path (it must not exist) holding text; 0 or -1 with errno set. */
int tmpdir_write_file(const char *path, const char *text);

/* The process id in a pid file, or 0 if there is none. */
pid_t tmpdir_read_pid(const char *path);
/* ... in the file rel below dir fd fd, following no link (fstree_open). */
pid_t tmpdir_read_pid_at(int fd, const char *rel);

/* When the lines do not all fit: keep the newest that fit (the oldest of
 * them cut), or join from the oldest and cut the end. */
enum tmpdir_tail_fit { TMPDIR_TAIL_NEWEST, TMPDIR_TAIL_OLDEST };

/* The last `lines` (at most 32) non-empty lines of what fd (a log open
 * for reading) holds from offset from on, each without trailing blanks,
 * joined by " | " into out (n bytes) as fit says. Only the last 4 KiB are
 * read (a partial first line skipped). "" when there is nothing, or fd < 0. */
void tmpdir_fd_tail(int fd, off_t from, int lines, enum tmpdir_tail_fit fit, char *out, size_t n);

/* tmpdir_fd_tail of dir/name (a server's log) from its start, joined from
 * the oldest; "" when there is no such file. Neither dir nor name is
 * followed if it is a symlink, and a name with other links is not read. */
void tmpdir_log_tail(const char *dir, const char *name, int lines, char *buf, size_t len);

/* rm -rf through directory fds (fstree_remove): never following symlinks,
 * at any depth or at any moment of the walk, nor crossing into other file
 * systems; removes what it can. path's parent is trusted (opened as it is).
 * 0 if path is gone afterwards, else -1 with errno. */
int tmpdir_remove_tree(const char *path);

#endif
