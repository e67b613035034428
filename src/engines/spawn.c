/* spawn.c - fork and exec with the care spawn.h lists.
 *
 * The child's steps run in a fixed order, each undoing one thing it
 * inherited: the session first (a Ctrl-C can no longer reach it), the
 * signal dispositions and mask, the credentials, then the death signal
 * (a credential change clears it) and a check that idxlab did not die
 * before it was set; then the directory (as the new user: can it enter?),
 * the fds, exec. A failed step is written to the error pipe as (step,
 * errno) and the child exits 127; the parent reads the pipe until it
 * closes on exec, so a spawn either ran the program or says why not. */
#include "spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../clock.h"
#include "hurry.h"
#include "tmpdir.h"

enum child_step {
	CS_NONE,
	CS_SETSID,
	CS_SETGROUPS,
	CS_SETGID,
	CS_SETUID,
	CS_PDEATHSIG,
	CS_ORPHAN,
	CS_CHDIR,
	CS_FDS,
	CS_EXEC,
};

static const char *const child_step_name[] = {
	[CS_NONE] = "start",
	[CS_SETSID] = "start a session (setsid)",
	[CS_SETGROUPS] = "drop supplementary groups (setgroups)",
	[CS_SETGID] = "switch group (setgid)",
	[CS_SETUID] = "switch user (setuid)",
	[CS_PDEATHSIG] = "set its parent-death signal (prctl)",
	[CS_ORPHAN] = "start: idxlab went away",
	[CS_CHDIR] = "enter its directory",
	[CS_FDS] = "set up its output",
	[CS_EXEC] = "run it (exec)",
};

struct child_report {
	int step;
	int err;
};

/* The environment of every child: nothing of ours (no PGDATA, PGOPTIONS, a
 * locale we do not control) but the search path and the time zone. */
struct child_env {
	char path[PATH_MAX + 8];
	char tz[256];
	char *envp[4 + SPAWN_ENV_MORE];
};

static void child_env_build(struct child_env *ce, const char *const *more)
{
	const char *path = getenv("PATH"), *tz = getenv("TZ");
	int n = 0;

	snprintf(ce->path, sizeof ce->path, "PATH=%s", path && *path ? path : "/usr/bin:/bin");
	ce->envp[n++] = ce->path;
	ce->envp[n++] = (char *)"LC_ALL=C";
	if (tz && *tz && strlen(tz) < sizeof ce->tz - 4) {
		snprintf(ce->tz, sizeof ce->tz, "TZ=%s", tz);
		ce->envp[n++] = ce->tz;
	}
	for (int i = 0; more && more[i] && i < SPAWN_ENV_MORE; i++)
		ce->envp[n++] = (char *)more[i];
	ce->envp[n] = NULL;
}

static void child_fail(int rep, enum child_step step, int err)
{
	struct child_report r = { step, err };
	ssize_t w = write(rep, &r, sizeof r);

	(void)w;
	_exit(127);
}

/* After fork: async-signal-safe calls only. Never returns. */
static void child_run(const struct spawn *s, char *const envp[], const sigset_t *none, pid_t parent,
                      int devnull, int rep)
{
	struct sigaction dfl;
	int in, out, r, sig;

	/* Own session first, so that a Ctrl-C can no longer reach us. */
	if (setsid() < 0)
		child_fail(rep, CS_SETSID, errno);
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	for (sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			sigaction(sig, &dfl, NULL); /* idxlab ignores SIGPIPE; they should not */
	sigprocmask(SIG_SETMASK, none, NULL);
	if (s->drop) {
		if (setgroups(0, NULL) < 0)
			child_fail(rep, CS_SETGROUPS, errno);
		if (setgid(s->gid) < 0)
			child_fail(rep, CS_SETGID, errno);
		if (setuid(s->uid) < 0)
			child_fail(rep, CS_SETUID, errno);
	}
	/* After the credential change, which would clear it. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
		child_fail(rep, CS_PDEATHSIG, errno);
	if (getppid() != parent)
		child_fail(rep, CS_ORPHAN, ESRCH);
	if (s->cwd && chdir(s->cwd) < 0)
		child_fail(rep, CS_CHDIR, errno);
	if (!s->argv)
		_exit(0);
	/* Lift our fds above 2 before placing them, whatever their numbers. */
	in = fcntl(devnull, F_DUPFD_CLOEXEC, 10);
	out = fcntl(s->out >= 0 ? s->out : devnull, F_DUPFD_CLOEXEC, 10);
	r = fcntl(rep, F_DUPFD_CLOEXEC, 10);
	if (in < 0 || out < 0 || r < 0)
		child_fail(rep, CS_FDS, errno);
	rep = r;
	if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0 || dup2(rep, 3) < 0)
		child_fail(rep, CS_FDS, errno);
	rep = 3;
	if (fcntl(rep, F_SETFD, FD_CLOEXEC) < 0)
		child_fail(rep, CS_FDS, errno);
#ifdef SYS_close_range
	if (syscall(SYS_close_range, 4U, ~0U, 0U) < 0)
#endif
		for (r = 4; r < 1024; r++)
			close(r);
	execve(s->argv[0], (char *const *)s->argv, envp);
	child_fail(rep, CS_EXEC, errno);
}

pid_t spawn_start(const struct spawn *s, const char *what, struct err *e)
{
	struct child_env ce = { .path = "" };
	struct child_report r;
	sigset_t none;
	pid_t parent = getpid(), pid;
	int devnull, pfd[2], st;
	ssize_t n;

	child_env_build(&ce, s->env);
	sigemptyset(&none);
	devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (devnull < 0)
		return err_set(e, ERR_RUNTIME, "cannot run %s: cannot open /dev/null: %s", what,
		               strerror(errno));
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		err_set(e, ERR_RUNTIME, "cannot run %s: pipe: %s", what, strerror(errno));
		close(devnull);
		return -1;
	}
	pid = fork();
	if (pid == 0)
		child_run(s, s->inherit_env ? environ : ce.envp, &none, parent, devnull, pfd[1]);
	close(pfd[1]);
	close(devnull);
	if (pid < 0) {
		err_set(e, ERR_RUNTIME, "cannot run %s: fork: %s", what, strerror(errno));
		close(pfd[0]);
		return -1;
	}
	do
		n = read(pfd[0], &r, sizeof r);
	while (n < 0 && errno == EINTR);
	close(pfd[0]);
	if (n != (ssize_t)sizeof r) {
		hurry_add_child(pid); /* a second signal kills it at once */
		return pid;           /* the pipe closed on exec */
	}
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (r.step < CS_NONE || r.step > CS_EXEC)
		r.step = CS_NONE;
	if (r.step == CS_CHDIR && s->drop)
		return err_set(e, ERR_RUNTIME,
		               "cannot run %s as user %s%s%s%s: %s cannot enter %s (%s)%s%s", what,
		               s->user, s->drop_why ? " (" : "", s->drop_why ? s->drop_why : "",
		               s->drop_why ? ")" : "", s->user, s->cwd, strerror(r.err),
		               s->cwd_fix ? ": " : "", s->cwd_fix ? s->cwd_fix : "");
	if (r.step == CS_EXEC)
		return err_set(e, ERR_RUNTIME, "cannot run %s: %s", what, strerror(r.err));
	return err_set(e, ERR_RUNTIME, "cannot run %s: cannot %s: %s", what,
	               child_step_name[r.step], strerror(r.err));
}

int spawn_reap(pid_t pid, int *st, long ms)
{
	long long until = clock_now_ms() + ms;
	pid_t r;

	for (;;) {
		r = waitpid(pid, st, ms < 0 ? 0 : WNOHANG);
		if (r == pid) {
			hurry_drop_child(pid);
			return 1;
		}
		if (r < 0 && errno == EINTR)
			continue;
		/* Someone else reaped it (SIGCHLD ignored?): go by kill(0). */
		if (r < 0 && errno == ECHILD && kill(pid, 0) < 0 && errno == ESRCH) {
			hurry_drop_child(pid);
			*st = 0;
			return 1;
		}
		if (ms >= 0 && clock_now_ms() >= until)
			return 0;
		clock_sleep_ms(1);
	}
}

int spawn_run(const struct spawn *s, const char *what, struct err *e)
{
	char how[96];
	pid_t pid = spawn_start(s, what, e);
	int st;

	if (pid < 0)
		return -1;
	spawn_reap(pid, &st, -1);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	return err_set(e, ERR_RUNTIME, "%s %s", what, spawn_describe_status(st, how, sizeof how));
}

int spawn_capture(const char *const *argv, char *buf, size_t n)
{
	struct spawn s = { .argv = argv, .out = -1 };
	struct err e;
	ssize_t len;
	size_t got = 0;
	char sink[256];
	int pfd[2], st;
	pid_t pid;

	buf[0] = 0;
	if (pipe2(pfd, O_CLOEXEC) < 0)
		return -1;
	s.out = pfd[1];
	pid = spawn_start(&s, argv[0], &e);
	close(pfd[1]);
	if (pid < 0) {
		close(pfd[0]);
		return -1;
	}
	for (;;) {
		if (got < n - 1)
			len = read(pfd[0], buf + got, n - 1 - got);
		else
			len = read(pfd[0], sink, sizeof sink); /* drain: never block the child */
		if (len < 0 && errno == EINTR)
			continue;
		if (len <= 0)
			break;
		if (got < n - 1)
			got += (size_t)len;
	}
	close(pfd[0]);
	buf[got] = 0;
	spawn_reap(pid, &st, -1);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

const char *spawn_describe_status(int st, char *buf, size_t n)
{
	if (WIFEXITED(st))
		snprintf(buf, n, "exited with status %d", WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		snprintf(buf, n, "was killed by signal %d (%s)", WTERMSIG(st),
		         strsignal(WTERMSIG(st)));
	else
		snprintf(buf, n, "stopped (wait status %#x)", (unsigned)st);
	return buf;
}

/* ---- $PATH ------------------------------------------------------------ */

int spawn_is_exec_file(const char *dir, const char *name)
{
	char path[PATH_MAX];
	struct stat st;

	if (tmpdir_join(path, sizeof path, dir, name) < 0 || stat(path, &st) < 0)
		return 0;
	return S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

int spawn_path_next(const char **pos, char *dir, size_t n)
{
	const char *p = *pos, *end;
	size_t len;

	for (; p && *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, ':');
		len = (size_t)(end - p);
		if (len == 0 || len >= n || *p != '/')
			continue; /* relative entries would depend on our cwd */
		memcpy(dir, p, len);
		dir[len] = 0;
		*pos = *end ? end + 1 : end;
		return 0;
	}
	*pos = p;
	return -1;
}

int spawn_find_in_path(const char *name, char *buf, size_t n)
{
	const char *pos = getenv("PATH");
	char dir[PATH_MAX];

	while (spawn_path_next(&pos, dir, sizeof dir) == 0)
		if (spawn_is_exec_file(dir, name))
			return tmpdir_join(buf, n, dir, name);
	return -1;
}
