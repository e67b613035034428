/* proc.h - the one reader of /proc/<pid>: a process's name, state, parent,
 * children and command line.
 *
 * idxlab looks at processes to find a server's (a postmaster and its
 * backends, a mongod) for their io, to kill a server's children, and to
 * tell whether a leftover's recorded pid still runs its server. Every file
 * is opened without following a link as its last component, without
 * blocking, and read to its end or the buffer's; a process that is gone
 * (or not ours to read) is a -1, never an error message: callers decide
 * what that means. Nothing here prints or allocates. Thread-safe. */
#ifndef IDXLAB_PROC_H
#define IDXLAB_PROC_H

#include <stddef.h>
#include <sys/types.h>

/* /proc/<pid>/<file> (pid 0: /proc/self/<file>; file may have slashes,
 * "task/12/io") into buf (n > 0, always NUL-terminated): bytes read, or -1. */
ssize_t proc_read(pid_t pid, const char *file, char *buf, size_t n);

/* The name of pid (/proc/<pid>/comm, without its newline) into buf; 0 or -1. */
int proc_comm(pid_t pid, char *buf, size_t n);

/* From /proc/<pid>/stat: its state letter ('R', 'S', 'Z' for a zombie...)
 * and its parent's pid (either pointer may be NULL); 0 or -1. */
int proc_stat(pid_t pid, char *state, pid_t *ppid);

/* The parent of pid, or -1 if pid cannot be read. */
pid_t proc_ppid(pid_t pid);

/* The pids of pid's direct children (those /proc lists now) into out, at
 * most max; how many. */
int proc_children(pid_t pid, pid_t *out, int max);

/* The command line of pid, its arguments joined by spaces, into buf (n > 0,
 * NUL-terminated): its length, or -1 (0: a kernel thread or a zombie). */
ssize_t proc_cmdline(pid_t pid, char *buf, size_t n);

#endif
