/* hurry.c - the registry of what idxlab made, and undoing it from a signal
 * handler (see hurry.h).
 *
 * The handler may interrupt any thread, in the middle of anything, even a
 * registration: each entry has a state that goes FREE -> WRITING -> READY
 * with atomic stores, and the handler reads only READY entries, so it
 * never sees half a path. Writers take a mutex among themselves; the
 * handler takes nothing. Every call in hurry_now is a system call that
 * POSIX lists as async-signal-safe, or a raw Linux system call with no
 * library state (getdents64): no malloc, no stdio, no locks (waitid is the one not on POSIX's list: on Linux, a system call
 * like waitpid). The walk keeps one small buffer per level on the stack and goes
 * at most HURRY_DEPTH levels deep (a PostgreSQL data directory is 4). */
#include "hurry.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define HURRY_DIRS     8
#define HURRY_CHILDREN 16
#define HURRY_DEPTH    16

enum { FREE, WRITING, READY };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static struct {
	atomic_int state;
	char path[PATH_MAX];
	dev_t dev;
	ino_t ino;
} dirs[HURRY_DIRS];

static struct {
	atomic_int state;
	pid_t pid;
} children[HURRY_CHILDREN];

void hurry_add_dir(const char *path)
{
	struct stat st;
	int i;

	if (!path || path[0] != '/' || strlen(path) >= PATH_MAX || lstat(path, &st) < 0 ||
	    !S_ISDIR(st.st_mode))
		return;
	pthread_mutex_lock(&lock);
	for (i = 0; i < HURRY_DIRS; i++) {
		if (atomic_load(&dirs[i].state) != FREE)
			continue;
		atomic_store(&dirs[i].state, WRITING);
		strcpy(dirs[i].path, path);
		dirs[i].dev = st.st_dev;
		dirs[i].ino = st.st_ino;
		atomic_store(&dirs[i].state, READY);
		break;
	}
	pthread_mutex_unlock(&lock);
}

void hurry_drop_dir(const char *path)
{
	int i;

	if (!path || !path[0])
		return;
	pthread_mutex_lock(&lock);
	for (i = 0; i < HURRY_DIRS; i++)
		if (atomic_load(&dirs[i].state) == READY && strcmp(dirs[i].path, path) == 0)
			atomic_store(&dirs[i].state, FREE);
	pthread_mutex_unlock(&lock);
}

void hurry_add_child(pid_t pid)
{
	int i;

	if (pid <= 0)
		return;
	pthread_mutex_lock(&lock);
	for (i = 0; i < HURRY_CHILDREN; i++) {
		if (atomic_load(&children[i].state) != FREE)
			continue;
		atomic_store(&children[i].state, WRITING);
		children[i].pid = pid;
		atomic_store(&children[i].state, READY);
		break;
	}
	pthread_mutex_unlock(&lock);
}

void hurry_drop_child(pid_t pid)
{
	int i;

	pthread_mutex_lock(&lock);
	for (i = 0; i < HURRY_CHILDREN; i++)
		if (atomic_load(&children[i].state) == READY && children[i].pid == pid)
			atomic_store(&children[i].state, FREE);
	pthread_mutex_unlock(&lock);
}

/* ---- from the handler: async-signal-safe only ---------------------------- */

struct linux_dirent64 {
	ino_t d_ino;
	off_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* Remove what is in the directory open as fd (on device dev), depth levels
 * down already. */
static void empty_dir(int fd, dev_t dev, int depth)
{
	_Alignas(8) char buf[1024];
	int pass, removed, left;
	long n, off;

	/* Entries removed during a read may shift the rest: read again from
	 * the start until a pass removes nothing or leaves nothing. */
	for (pass = 0; pass < 8; pass++) {
		removed = left = 0;
		if (lseek(fd, 0, SEEK_SET) < 0)
			return;
		while ((n = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0) {
			for (off = 0; off < n;) {
				struct linux_dirent64 *d = (struct linux_dirent64 *)(buf + off);
				const char *name = d->d_name;
				struct stat st;
				int sub;

				off += d->d_reclen;
				if (name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2])))
					continue;
				if (d->d_type != DT_DIR && d->d_type != DT_UNKNOWN) {
					if (unlinkat(fd, name, 0) == 0)
						removed++;
					else
						left++;
					continue;
				}
				if (d->d_type == DT_UNKNOWN && unlinkat(fd, name, 0) == 0) {
					removed++;
					continue;
				}
				sub = depth < HURRY_DEPTH
				          ? openat(fd, name,
				                   O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
				          : -1;
				if (sub >= 0 && fstat(sub, &st) == 0 && st.st_dev == dev)
					empty_dir(sub, dev, depth + 1);
				if (sub >= 0)
					close(sub);
				if (unlinkat(fd, name, AT_REMOVEDIR) == 0)
					removed++;
				else
					left++;
			}
		}
		if (!removed || !left)
			return;
	}
}

/* Remove the registered directory path if it still is (dev, ino). */
static void remove_dir(const char *path, dev_t dev, ino_t ino)
{
	char parent[PATH_MAX];
	const char *slash = strrchr(path, '/'), *base = slash + 1;
	size_t plen = slash == path ? 1 : (size_t)(slash - path);
	struct stat st;
	int at, fd;

	memcpy(parent, path, plen);
	parent[plen] = 0;
	at = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (at < 0)
		return;
	fd = openat(at, base, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0 && fstat(fd, &st) == 0 && st.st_dev == dev && st.st_ino == ino) {
		empty_dir(fd, dev, 0);
		unlinkat(at, base, AT_REMOVEDIR);
	}
	if (fd >= 0)
		close(fd);
	close(at);
}

/* "/proc/" + n + "/stat" into buf (32 bytes). */
static void stat_path(char *buf, long n)
{
	char digits[24];
	int i = 0, j = 0;

	do
		digits[i++] = (char)('0' + n % 10);
	while ((n /= 10) > 0);
	memcpy(buf, "/proc/", 6);
	j = 6;
	while (i > 0)
		buf[j++] = digits[--i];
	memcpy(buf + j, "/stat", 6);
}

/* Send sig to every process whose parent is pid (a postmaster's backends lead
 * sessions of their own: its group does not hold them). /proc is read
 * with system calls only. */
static void kill_children(pid_t pid, int sig)
{
	_Alignas(8) char buf[1024];
	char path[32], st[512];
	int proc = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC), fd;
	long n, off, child, ppid;
	ssize_t len;

	if (proc < 0)
		return;
	while ((n = syscall(SYS_getdents64, proc, buf, sizeof buf)) > 0) {
		for (off = 0; off < n;) {
			struct linux_dirent64 *d = (struct linux_dirent64 *)(buf + off);
			const char *c = d->d_name, *paren;

			off += d->d_reclen;
			for (child = 0; *c >= '0' && *c <= '9'; c++)
				child = child * 10 + (*c - '0');
			if (*c || child <= 0 || child == pid)
				continue;
			stat_path(path, child);
			if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
				continue;
			len = read(fd, st, sizeof st - 1);
			close(fd);
			if (len <= 0)
				continue;
			st[len] = 0;
			/* "PID (comm) S PPID ...": comm may hold anything, even ')' */
			for (paren = NULL, c = st; *c; c++)
				if (*c == ')')
					paren = c;
			if (!paren || paren[1] != ' ' || !paren[2] || paren[3] != ' ')
				continue;
			for (ppid = 0, c = paren + 4; *c >= '0' && *c <= '9'; c++)
				ppid = ppid * 10 + (*c - '0');
			if (ppid == pid)
				kill((pid_t)child, sig);
		}
	}
	close(proc);
}

/* Is child pid still ours (running, or a zombie): its pid not another's? */
static int ours(pid_t pid)
{
	siginfo_t si;

	memset(&si, 0, sizeof si);
	return waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0;
}

/* Is pid a PostgreSQL server (/proc/PID/comm)? */
static int is_postgres(pid_t pid)
{
	char path[32], comm[32];
	ssize_t n;
	int fd;

	stat_path(path, pid);
	memcpy(path + strlen(path) - 4, "comm", 5);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	n = read(fd, comm, sizeof comm - 1);
	close(fd);
	return n == 9 && memcmp(comm, "postgres\n", 9) == 0;
}

/* Wait up to rounds x 10 ms for every registered child to be reaped. */
static void reap(int rounds)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	int i, st, waiting;

	while (rounds-- > 0) {
		waiting = 0;
		for (i = 0; i < HURRY_CHILDREN; i++)
			if (atomic_load(&children[i].state) == READY && ours(children[i].pid) &&
			    waitpid(children[i].pid, &st, WNOHANG) == 0)
				waiting = 1;
		if (!waiting)
			return;
		nanosleep(&tick, NULL);
	}
}

void hurry_now(void)
{
	int i, quit = 0;

	/* A PostgreSQL server gets 0.3 s for an immediate shutdown (SIGQUIT),
	 * which drops its shared memory (System V and /dev/shm) on the way
	 * out; its processes are woken for it (a stopped server is one reason
	 * to hurry). */
	for (i = 0; i < HURRY_CHILDREN; i++) {
		pid_t pid = children[i].pid;

		if (atomic_load(&children[i].state) != READY || !ours(pid) || !is_postgres(pid))
			continue;
		kill(pid, SIGCONT);
		kill_children(pid, SIGCONT);
		kill(pid, SIGQUIT);
		quit = 1;
	}
	if (quit)
		reap(30);
	for (i = 0; i < HURRY_CHILDREN; i++) {
		pid_t pid = children[i].pid;

		if (atomic_load(&children[i].state) != READY || !ours(pid))
			continue;
		kill(pid, SIGSTOP); /* forks no more while its children go */
		kill_children(pid, SIGKILL);
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
	}
	/* Reaped, so that nothing of theirs writes in the directories any
	 * more; a second at most (a process in uninterruptible sleep). */
	reap(100);
	for (i = 0; i < HURRY_DIRS; i++)
		if (atomic_load(&dirs[i].state) == READY)
			remove_dir(dirs[i].path, dirs[i].dev, dirs[i].ino);
}
