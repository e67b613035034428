/* proc.c - /proc/<pid> files, read without following links.
 *
 * /proc/<pid>/stat is "pid (comm) state ppid ...", where comm may hold
 * spaces and parentheses: the fields after it are found from the LAST ')'. */
#include "proc.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../fstree.h"

ssize_t proc_read(pid_t pid, const char *file, char *buf, size_t n)
{
	char path[128];

	if (pid)
		snprintf(path, sizeof path, "/proc/%d/%s", (int)pid, file);
	else
		snprintf(path, sizeof path, "/proc/self/%s", file);
	return fstree_read_path(path, buf, n); /* O_NOFOLLOW, O_NONBLOCK */
}

int proc_comm(pid_t pid, char *buf, size_t n)
{
	ssize_t len = proc_read(pid, "comm", buf, n);

	if (len <= 0)
		return -1;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

int proc_stat(pid_t pid, char *state, pid_t *ppid)
{
	char buf[512], st;
	const char *p;
	int pp;

	if (proc_read(pid, "stat", buf, sizeof buf) <= 0 || !(p = strrchr(buf, ')')))
		return -1;
	if (sscanf(p + 1, " %c %d", &st, &pp) != 2)
		return -1;
	if (state)
		*state = st;
	if (ppid)
		*ppid = (pid_t)pp;
	return 0;
}

pid_t proc_ppid(pid_t pid)
{
	pid_t pp;

	return proc_stat(pid, NULL, &pp) == 0 ? pp : -1;
}

int proc_children(pid_t pid, pid_t *out, int max)
{
	struct dirent *de;
	DIR *d = opendir("/proc");
	long child;
	char *end;
	int n = 0;

	while (d && n < max && (de = readdir(d))) {
		child = strtol(de->d_name, &end, 10);
		if (*end || child <= 0 || (pid_t)child == pid)
			continue;
		if (proc_ppid((pid_t)child) == pid)
			out[n++] = (pid_t)child;
	}
	if (d)
		closedir(d);
	return n;
}

ssize_t proc_cmdline(pid_t pid, char *buf, size_t n)
{
	ssize_t len = proc_read(pid, "cmdline", buf, n), i;

	for (i = 0; i < len; i++)
		if (buf[i] == 0)
			buf[i] = ' '; /* arguments are NUL-separated */
	return len;
}
