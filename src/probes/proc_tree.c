/* proc_tree.c - summing /proc io over a process and its children. */
#include "proc_tree.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void proc_tree_init(struct proc_tree *t, pid_t root)
{
	memset(t, 0, sizeof *t);
	t->root = root;
}

/* The parent pid from /proc/<pid>/stat, or -1. */
static pid_t parent_of(pid_t pid)
{
	char path[64], buf[512], *p;
	FILE *f;
	int ppid = -1;

	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fgets(buf, sizeof buf, f) && (p = strrchr(buf, ')')) != NULL)
		if (sscanf(p + 1, " %*c %d", &ppid) != 1)
			ppid = -1;
	fclose(f);
	return ppid;
}

int proc_tree_sample(struct proc_tree *t, struct proc_io *out)
{
	pid_t now[PROC_TREE_MAX];
	struct proc_io io[PROC_TREE_MAX];
	int n = 0, i, j;
	struct dirent *de;
	DIR *d;

	if (proc_io_read(t->root, &io[0]) < 0)
		return -1;
	now[n++] = t->root;
	d = opendir("/proc");
	while (d && (de = readdir(d)) && n < PROC_TREE_MAX) {
		pid_t pid = (pid_t)atoi(de->d_name);

		if (pid > 0 && pid != t->root && parent_of(pid) == t->root &&
		    proc_io_read(pid, &io[n]) == 0)
			now[n++] = pid;
	}
	if (d)
		closedir(d);
	/* Processes that are gone keep what they wrote. */
	for (i = 0; i < t->n; i++) {
		for (j = 0; j < n && now[j] != t->pid[i]; j++)
			;
		if (j == n) {
			t->gone.wchar += t->last[i].wchar;
			t->gone.write_bytes += t->last[i].write_bytes;
		}
	}
	t->n = n;
	memcpy(t->pid, now, sizeof now[0] * (size_t)n);
	memcpy(t->last, io, sizeof io[0] * (size_t)n);
	*out = t->gone;
	for (i = 0; i < n; i++) {
		out->wchar += io[i].wchar;
		out->write_bytes += io[i].write_bytes;
	}
	return 0;
}
