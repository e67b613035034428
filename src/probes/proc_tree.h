/* proc_tree.h - write() and device bytes of a server and its children.
 *
 * A local database server (a PostgreSQL postmaster, a mongod) does its
 * writing in several processes, some of which come and go. proc_tree sums
 * /proc/<pid>/io over the root process and its direct children and keeps
 * the totals monotonic: a process that exits keeps the bytes it had. */
#ifndef IDXLAB_PROC_TREE_H
#define IDXLAB_PROC_TREE_H

#include <sys/types.h>

#include "proc_io.h"

#define PROC_TREE_MAX 128

struct proc_tree {
	pid_t root;
	int n;
	pid_t pid[PROC_TREE_MAX];
	struct proc_io last[PROC_TREE_MAX];
	struct proc_io gone; /* bytes of processes that exited */
};

void proc_tree_init(struct proc_tree *t, pid_t root);

/* Cumulative bytes of the tree into out. 0, or -1 when the root's io file
 * cannot be read (not local, or not ours to read). */
int proc_tree_sample(struct proc_tree *t, struct proc_io *out);

#endif
