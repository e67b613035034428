/* spawn.c - the cases of src/engines/spawn.c (and probes/proc.c's reading of
 * the child): the launcher. */
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engines/spawn.h"
#include "probes/proc.h"
#include "unit.h"

/* The launcher: a failed exec is reported with its errno, not as a child
 * that "exited 127"; the child gets default signal dispositions (idxlab
 * ignores SIGPIPE), only fds 0-2 of ours, and the default environment. */
static void test_spawn(void)
{
	const char *nothere[] = { "/nonexistent/idxlab-prog", NULL };
	const char *sig[] = { "/bin/sh", "-c", "grep SigIgn /proc/self/status", NULL };
	const char *fds[] = { "/bin/sh", "-c", "ls /proc/self/fd | wc -l", NULL };
	const char *env[] = { "/bin/sh", "-c", "echo \"${IDXLAB_UNIT_ENV:-unset} $LC_ALL\"", NULL };
	struct spawn s = { .argv = nothere, .out = -1 };
	struct err e = { ERR_NONE, "" };
	char buf[256], dir[PATH_MAX];
	const char *pos;
	int leak = open("/dev/null", O_RDONLY), st = -1, rc;
	unsigned long long ign;
	pid_t pid;

	CHECK(spawn_start(&s, "the test program", &e) < 0 &&
	      strstr(e.msg, "cannot run the test program: No such file or directory"));
	signal(SIGPIPE, SIG_IGN);
	/* SIGPIPE (bit 13) only: what idxlab's own ancestors ignored, such as
	 * glibc's signals 32 and 33 that sigaction() cannot reset, may stay. */
	rc = spawn_capture(sig, buf, sizeof buf);
	ign = strstr(buf, "SigIgn:\t") ? strtoull(strstr(buf, "SigIgn:\t") + 8, NULL, 16) : ~0ULL;
	CHECK(rc == 0 && !(ign & 1ULL << (SIGPIPE - 1)));
	if (rc != 0 || ign & 1ULL << (SIGPIPE - 1))
		printf("  capture: %d, \"%s\"\n", rc, buf);
	signal(SIGPIPE, SIG_DFL);
	/* 0, 1, 2 and the dir ls reads: not `leak` (no close-on-exec) */
	rc = spawn_capture(fds, buf, sizeof buf);
	CHECK(leak > 2 && rc == 0 && atoi(buf) == 4);
	if (rc != 0 || atoi(buf) != 4)
		printf("  capture: %d, \"%s\"\n", rc, buf);
	close(leak);
	setenv("IDXLAB_UNIT_ENV", "set", 1);
	CHECK(spawn_capture(env, buf, sizeof buf) == 0 && strcmp(buf, "unset C\n") == 0);
	unsetenv("IDXLAB_UNIT_ENV");
	CHECK(spawn_run(&s, "it", &e) < 0);
	s.argv = sig;
	CHECK(spawn_run(&s, "it", &e) == 0);
	/* A child that ends is reaped within the bound; a live one is not. */
	s.argv = (const char *[]){ "/bin/sleep", "30", NULL };
	pid = spawn_start(&s, "sleep", &e);
	CHECK(pid > 0 && spawn_reap(pid, &st, 0) == 0);
	/* its own session: it leads its process group */
	CHECK(pid > 0 && getpgid(pid) == pid && getsid(pid) == pid);
	CHECK(proc_comm(pid, buf, sizeof buf) == 0 && strcmp(buf, "sleep") == 0);
	CHECK(proc_cmdline(pid, buf, sizeof buf) > 0 && strcmp(buf, "/bin/sleep 30 ") == 0);
	CHECK(proc_ppid(pid) == getpid());
	{
		pid_t kids[8];
		int n = proc_children(getpid(), kids, 8), i, found = 0;

		for (i = 0; i < n; i++)
			found |= kids[i] == pid;
		CHECK(found);
	}
	if (pid > 0)
		kill(pid, SIGKILL);
	CHECK(pid > 0 && spawn_reap(pid, &st, 5000) == 1 && WIFSIGNALED(st));
	CHECK(proc_comm(pid, buf, sizeof buf) < 0);
	spawn_describe_status(st, buf, sizeof buf);
	CHECK(strcmp(buf, "was killed by signal 9 (Killed)") == 0);
	/* $PATH: absolute entries only */
	pos = "rel:/usr/bin::/bin";
	CHECK(spawn_path_next(&pos, dir, sizeof dir) == 0 && strcmp(dir, "/usr/bin") == 0);
	CHECK(spawn_path_next(&pos, dir, sizeof dir) == 0 && strcmp(dir, "/bin") == 0);
	CHECK(spawn_path_next(&pos, dir, sizeof dir) < 0);
	CHECK(spawn_is_exec_file("/bin", "sh") && !spawn_is_exec_file("/", "bin"));
}

const struct unit_case unit_engines_spawn[] = {
	{ "unit/spawn-proc", test_spawn },
	{ NULL, NULL },
};
