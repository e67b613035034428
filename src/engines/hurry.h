/* hurry.h - what idxlab made, undone at once from a signal handler.
 *
 * One Ctrl-C (SIGTERM, SIGQUIT) stops idxlab in order: the step's partial
 * result, the engine closed, its server stopped and its directory removed.
 * A deliberate second one (main.c: more than a second after the first)
 * ends idxlab at once, from the handler, and even then nothing is to be
 * left. So what the orderly stop would undo is registered here as it is
 * made: the throwaway directories (tmpdir_make) and the children
 * (spawn_start, each the leader of its own process group), and
 * hurry_now() undoes it with async-signal-safe calls only.
 *
 * hurry_now(): every registered child's process group is sent SIGKILL
 * (only while the child is still ours, unreaped: its pid cannot have been
 * given to another process) and the children are reaped, up to a second;
 * then every registered directory is removed through directory fds:
 * never following a link, never entering another file system, and only
 * if the path still names the very directory registered (st_dev,
 * st_ino). It does not return an error: what it cannot remove stays for
 * the next run's sweep (tmpdir.h).
 *
 * Registration is thread-safe and never fails (past the table's size an
 * entry is simply not kept: the orderly stop still removes it). */
#ifndef IDXLAB_HURRY_H
#define IDXLAB_HURRY_H

#include <sys/types.h>

/* path: an absolute directory just made (its own, not a link). */
void hurry_add_dir(const char *path);
/* Before the orderly removal of path: nothing of it for hurry_now. */
void hurry_drop_dir(const char *path);

/* pid: a child that leads its own process group (spawn.h: setsid). */
void hurry_add_child(pid_t pid);
/* Once pid is reaped. */
void hurry_drop_child(pid_t pid);

/* Kill the children, remove the directories (see above). Async-signal-safe. */
void hurry_now(void);

#endif
