/* proc_tree.c - summing /proc io over a process and its children. */
#include "proc_tree.h"

#include <string.h>

#include "proc.h"

void proc_tree_init(struct proc_tree *t, pid_t root)
{
	memset(t, 0, sizeof *t);
	t->root = root;
}

int proc_tree_sample(struct proc_tree *t, struct proc_io *out)
{
	pid_t now[PROC_TREE_MAX], kids[PROC_TREE_MAX];
	struct proc_io io[PROC_TREE_MAX];
	int n = 0, i, j, nkids;

	if (proc_io_read(t->root, &io[0]) < 0)
		return -1;
	now[n++] = t->root;
	nkids = proc_children(t->root, kids, PROC_TREE_MAX);
	for (i = 0; i < nkids && n < PROC_TREE_MAX; i++)
		if (proc_io_read(kids[i], &io[n]) == 0)
			now[n++] = kids[i];
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
