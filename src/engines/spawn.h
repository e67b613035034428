/* spawn.h - the one way idxlab runs another program.
 *
 * A throwaway server (the postmaster, a mongod) and its helpers (initdb,
 * pg_config, cp) are started here, so every child gets the same care:
 * - its own session (setsid): a Ctrl-C at idxlab's terminal never reaches
 *   it, and kill(-pid) reaches all it forks;
 * - PR_SET_PDEATHSIG = SIGKILL, set after any credential change (which
 *   would clear it): it dies with idxlab even on kill -9;
 * - every signal disposition back to default and an empty signal mask
 *   (idxlab ignores SIGPIPE and blocks signals in threads; they should not);
 * - as root, optionally, the credentials of another user (supplementary
 *   groups dropped, then gid, then uid) before it enters its directory;
 * - stdin /dev/null, stdout and stderr one fd of the caller's or /dev/null,
 *   and no other fd of idxlab's (close_range, else close up to 1024);
 * - a chosen environment: by default only PATH, LC_ALL=C and TZ, so nothing
 *   of the user's (PGDATA, PGOPTIONS, a locale) steers it.
 * Between fork and exec the child makes only async-signal-safe calls
 * (idxlab may be one thread of many): argv and the environment are built
 * before the fork. A failure in the child is reported through a
 * close-on-exec pipe as (step, errno), so spawn_start either returns a
 * child that has exec'd or a message saying which step failed and why.
 *
 * Also here: waiting for a child with a bound, and finding programs on
 * $PATH. Nothing here prints. */
#ifndef IDXLAB_SPAWN_H
#define IDXLAB_SPAWN_H

#include <stddef.h>
#include <sys/types.h>

#include "../err.h"

#define SPAWN_ENV_MORE 4

/* What to run and how. Zero-initialise, then set what you need. The
 * pointers are borrowed for the call to spawn_start only. */
struct spawn {
	const char *const *argv; /* argv[0] is a full path; NULL: exit 0 after the chdir */
	const char *cwd;         /* chdir here after dropping credentials; NULL: stay */
	int out;                 /* becomes stdout and stderr; -1: /dev/null */
	int inherit_env;         /* 1: our whole environment; 0: PATH, LC_ALL=C, TZ only */
	int drop;                /* run as uid/gid (we are root) */
	uid_t uid;
	gid_t gid;
	const char *user;     /* drop: their name, for messages */
	const char *drop_why; /* drop: why, "idxlab is root, PostgreSQL refuses root"; NULL */
	const char *cwd_fix;  /* drop: what to do when user cannot enter cwd; NULL */
	/* inherit_env 0: NAME=value entries added to those, at most
	 * SPAWN_ENV_MORE, NULL-terminated; NULL: none */
	const char *const *env;
};

/* Fork and exec s. The child's pid once its exec has happened, or -1 with
 * e filled ("cannot run WHAT: ..."; what names the program in messages)
 * and nothing left running (a child that failed is reaped). */
pid_t spawn_start(const struct spawn *s, const char *what, struct err *e);

/* Wait for pid (a child of ours) up to ms milliseconds (-1: for ever, 0:
 * just look); 1 with *st its wait status if it ended, else 0. A child
 * someone else reaped counts as ended once it is gone, with *st = 0. */
int spawn_reap(pid_t pid, int *st, long ms);

/* spawn_start and wait for the end: 0 if it exited with 0, else -1 with e
 * saying how it ended ("WHAT exited with status 1"). */
int spawn_run(const struct spawn *s, const char *what, struct err *e);

/* Run argv (as ourselves, the default environment) to its end and keep the
 * start of its stdout in buf (n > 0, NUL-terminated; the rest is read and
 * dropped, so the child never blocks). 0 if it exited with 0, else -1. */
int spawn_capture(const char *const *argv, char *buf, size_t n);

/* A wait status in words: "exited with status 1", "was killed by signal 9
 * (Killed)"; returns buf. */
const char *spawn_describe_status(int st, char *buf, size_t n);

/* ---- $PATH ------------------------------------------------------------ */

/* The next absolute entry of a $PATH-like list into dir (n bytes) and *pos
 * past it; 0, or -1 at the end. Relative and empty entries are skipped
 * (they would depend on our cwd), as are entries too long for dir. Start
 * with *pos = getenv("PATH") (NULL: an empty list). */
int spawn_path_next(const char **pos, char *dir, size_t n);

/* 1 if dir/name is a regular file we may execute. */
int spawn_is_exec_file(const char *dir, const char *name);

/* The full path of the first executable name on $PATH into buf; 0 or -1. */
int spawn_find_in_path(const char *name, char *buf, size_t n);

#endif
