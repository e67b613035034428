/* tmpdir.c - making, sweeping and removing idxlab's throwaway directories.
 *
 * Whose is a leftover: the sweep must never remove what a live idxlab uses
 * nor what is not idxlab's, so it goes by what only idxlab writes. A dir
 * counts as a dead idxlab's only if it is a real directory (lstat: a symlink
 * named like one is skipped, never followed), owned by us (or by the extra
 * user the caller names), and its owner.pid names a process that does not
 * exist (kill(pid, 0) fails with ESRCH; EPERM means someone's process lives
 * there). owner.pid is written right after mkdtemp, so a dir without one is
 * either being made or was left by an idxlab killed in between: it is
 * removed only once it is a minute old. A recycled pid keeps a leftover
 * until that process ends; that errs on the safe side. owner.pid also
 * names the PID namespace and the boot its pid belongs to ("PID
 * pid:[INODE] BOOT_ID"): a TMPDIR shared with a container, or another boot,
 * holds dirs whose pid means nothing here, and those are never judged dead.
 *
 * The sweep runs as root over a TMPDIR others can write, on dirs another
 * account (the server's) owns and can change while we look: every leftover
 * is opened once as a dir fd (O_NOFOLLOW), judged through that fd (owner,
 * owner.pid), and removed through it (fstree.h): what is swapped for a link
 * or another dir meanwhile is left alone, and nothing outside is reached.
 *
 * TMPDIR is resolved with realpath(): the dirs' paths are absolute, which a
 * server's socket and messages need, and the sweep does not depend on the
 * current directory. */
#include "tmpdir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../evlog.h"
#include "../probes/proc.h"
#include "../fstree.h"
#include "hurry.h"

#define NO_OWNER_GRACE_S 60 /* a dir without owner.pid may be being made */

/* ---- shared file helpers ---------------------------------------------- */

int tmpdir_join(char *buf, size_t n, const char *a, const char *b)
{
	int len = snprintf(buf, n, "%s/%s", a, b);

	return len < 0 || (size_t)len >= n ? -1 : 0;
}

int tmpdir_refuse_dangling(const char *path, struct err *e)
{
	char to[PATH_MAX];
	struct stat st;
	ssize_t n;

	if (lstat(path, &st) < 0 || !S_ISLNK(st.st_mode) || stat(path, &st) == 0 || errno != ENOENT)
		return 0;
	n = readlink(path, to, sizeof to - 1);
	to[n < 0 ? 0 : n] = 0;
	return err_set(e, ERR_USAGE,
	               "%s is a symbolic link to %s, which does not exist; idxlab does not "
	               "create a link's target - give --dsn the target's own name or a new "
	               "name",
	               path, to);
}

int tmpdir_write_file(const char *path, const char *text)
{
	size_t n = strlen(text);
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644), saved;
	ssize_t w;

	if (fd < 0)
		return -1;
	w = write(fd, text, n);
	saved = w < 0 ? errno : (size_t)w < n ? ENOSPC : 0;
	if (close(fd) < 0 && !saved)
		saved = errno;
	errno = saved;
	return saved ? -1 : 0;
}

static pid_t parse_pid(const char *buf, ssize_t len)
{
	char *end;
	long v;

	if (len <= 0)
		return 0;
	errno = 0;
	v = strtol(buf, &end, 10);
	if (errno || end == buf || v <= 0 || v > INT_MAX)
		return 0;
	return (pid_t)v;
}

pid_t tmpdir_read_pid(const char *path)
{
	char buf[64] = "";

	return parse_pid(buf, fstree_read_path(path, buf, sizeof buf));
}

pid_t tmpdir_read_pid_at(int fd, const char *rel)
{
	char buf[64] = "";

	return parse_pid(buf, fstree_read(fd, rel, buf, sizeof buf));
}

/* The parent of path (trusted: TMPDIR, or a dir the caller names) as a dir
 * fd, and path's last component into base; -1 if path has none. */
static int open_parent(const char *path, char *base, size_t n)
{
	char parent[PATH_MAX];
	const char *slash = strrchr(path, '/');
	size_t plen;

	if (!slash || !slash[1] || strlen(slash + 1) >= n ||
	    (size_t)(slash - path) >= sizeof parent) {
		errno = EINVAL;
		return -1;
	}
	snprintf(base, n, "%s", slash + 1);
	plen = slash == path ? 1 : (size_t)(slash - path);
	memcpy(parent, path, plen);
	parent[plen] = 0;
	return open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

int tmpdir_remove_tree(const char *path)
{
	char base[NAME_MAX + 1];
	int at = open_parent(path, base, sizeof base), rc, saved;

	if (at < 0)
		return -1;
	rc = fstree_remove(at, base, NULL);
	saved = errno;
	close(at);
	errno = saved;
	return rc;
}

/* ---- leftovers -------------------------------------------------------- */

int tmpdir_holds(const char *path)
{
	const char *t = strstr(path, "/" TMPDIR_PREFIX);

	if (!t)
		return 0;
	for (t += 1 + strlen(TMPDIR_PREFIX); *t >= 'a' && *t <= 'z'; t++)
		;
	return *t == '.';
}

int tmpdir_runs_in(pid_t pid, const char *comm, const char *dir)
{
	char name[64], cmd[4096], where[PATH_MAX + 1];
	ssize_t len;

	if (pid <= 0)
		return 0;
	if (proc_comm(pid, name, sizeof name) < 0 || !strstr(name, comm))
		return 0;
	len = proc_cmdline(pid, cmd, sizeof cmd);
	/* dir + "/": its data dir, not a dir whose name merely starts the same. */
	snprintf(where, sizeof where, "%s/", dir);
	return len > 0 && strstr(cmd, where) != NULL;
}

/* "PID pid:[INODE] BOOT_ID\n": this process, where its pid means it. */
static void owner_line(char *buf, size_t n)
{
	char ns[64] = "-", boot[64] = "-";
	ssize_t len = readlink("/proc/self/ns/pid", ns, sizeof ns - 1);

	ns[len > 0 ? len : 1] = 0;
	if (fstree_read_path("/proc/sys/kernel/random/boot_id", boot, sizeof boot) <= 0)
		snprintf(boot, sizeof boot, "-");
	boot[strcspn(boot, "\n")] = 0;
	snprintf(buf, n, "%d %s %s\n", (int)getpid(), ns, boot);
}

/* Does owner.pid's pid (its text in line) mean a process of this PID
 * namespace and boot? An old owner.pid (a pid alone) is taken to. */
static int owner_is_here(const char *line)
{
	char mine[256], ns[64], boot[64], my_ns[64], my_boot[64];

	if (sscanf(line, "%*d %63s %63s", ns, boot) != 2)
		return 1;
	owner_line(mine, sizeof mine);
	if (sscanf(mine, "%*d %63s %63s", my_ns, my_boot) != 2)
		return 1;
	return strcmp(ns, my_ns) == 0 && strcmp(boot, my_boot) == 0;
}

/* Is the dir open as fd (st: its fstat) the leftover of a dead idxlab, and
 * ours to remove? */
static int is_leftover(int fd, const struct stat *st, uid_t also)
{
	char line[256] = "";
	pid_t owner;

	/* Only dirs we (or our server user) made: never rm -rf a stranger's. */
	if (st->st_uid != geteuid() && !(also != (uid_t)-1 && st->st_uid == also))
		return 0;
	owner = parse_pid(line, fstree_read(fd, TMPDIR_OWNER, line, sizeof line));
	if (owner > 0 && !owner_is_here(line))
		return 0; /* another container's or boot's pid: cannot tell */
	if (owner > 0 && (kill(owner, 0) == 0 || errno != ESRCH))
		return 0; /* alive (or not ours to signal) */
	if (owner <= 0 && time(NULL) - st->st_mtime < NO_OWNER_GRACE_S)
		return 0; /* being made right now? */
	return 1;
}

static void sweep(const char *parent, const struct tmpdir_kind *kind, uid_t also)
{
	char prefix[64], dir[PATH_MAX];
	struct dirent *de;
	struct stat st;
	size_t plen;
	int at, fd;
	DIR *d;

	snprintf(prefix, sizeof prefix, TMPDIR_PREFIX "%s.", kind->name);
	plen = strlen(prefix);
	at = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	d = at < 0 ? NULL : fdopendir(dup(at));
	if (!d) {
		if (at >= 0)
			close(at);
		return; /* mkdtemp will say what is wrong with it */
	}
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, prefix, plen) != 0 ||
		    tmpdir_join(dir, sizeof dir, parent, de->d_name) < 0)
			continue;
		fd = fstree_open_dir(at, de->d_name); /* a symlink is refused here */
		if (fd < 0)
			continue;
		if (fstat(fd, &st) < 0 || !is_leftover(fd, &st, also)) {
			close(fd);
			continue;
		}
		if (kind->clean)
			kind->clean(dir, fd);
		close(fd);
		if (fstree_remove(at, de->d_name, &st) == 0)
			evlog_add(EV_INFO, "removed the leftovers of a killed idxlab: %s", dir);
		else
			evlog_add(EV_WARN,
			          "could not remove the leftovers of a killed idxlab: %s: %s", dir,
			          strerror(errno));
	}
	closedir(d);
	close(at);
}

/* ---- the API ---------------------------------------------------------- */

int tmpdir_make(char *buf, size_t n, const struct tmpdir_kind *kind, uid_t also, struct err *e)
{
	const char *env = getenv("TMPDIR"), *tmp = env && *env ? env : "/tmp";
	const char *sep = kind->alt ? " or " : "", *alt = kind->alt ? kind->alt : "";
	char parent[PATH_MAX], file[PATH_MAX], pid[256];
	int len, saved;

	buf[0] = 0;
	if (!realpath(tmp, parent))
		return err_set(e, ERR_RUNTIME,
		               "cannot use TMPDIR=%s for %s: %s - set TMPDIR to a writable "
		               "directory%s%s",
		               tmp, kind->what, strerror(errno), sep, alt);
	sweep(parent, kind, also);
	len = snprintf(buf, n, "%s/" TMPDIR_PREFIX "%s.XXXXXX", parent, kind->name);
	if (len < 0 || (size_t)len >= n || !mkdtemp(buf)) {
		saved = len < 0 || (size_t)len >= n ? ENAMETOOLONG : errno;
		buf[0] = 0;
		return err_set(e, ERR_RUNTIME,
		               "cannot create a temp dir in %s for %s: %s - set TMPDIR to a "
		               "writable directory%s%s",
		               parent, kind->what, strerror(saved), sep, alt);
	}
	/* owner.pid first: from now on a sweeper can tell whose the dir is. */
	owner_line(pid, sizeof pid);
	if (tmpdir_join(file, sizeof file, buf, TMPDIR_OWNER) < 0)
		errno = ENAMETOOLONG;
	else if (tmpdir_write_file(file, pid) == 0) {
		hurry_add_dir(buf); /* a second signal removes it too */
		return 0;
	}
	saved = errno;
	tmpdir_remove_tree(buf);
	err_set(e, ERR_RUNTIME,
	        "cannot write %s/%s: %s - set TMPDIR to a writable directory with free space%s%s",
	        buf, TMPDIR_OWNER, strerror(saved), sep, alt);
	buf[0] = 0;
	return -1;
}

void tmpdir_remove(char *dir)
{
	if (!dir || !dir[0])
		return;
	if (tmpdir_remove_tree(dir) < 0)
		evlog_add(EV_WARN, "could not remove %s: %s", dir, strerror(errno));
	hurry_drop_dir(dir); /* after: a second signal meanwhile finishes the job */
	dir[0] = 0;
}

int tmpdir_remove_same(char *dir, int fd)
{
	char base[NAME_MAX + 1];
	struct stat st;
	int at, rc = -1;

	if (fd < 0) {
		tmpdir_remove(dir);
		return 0;
	}
	if (!dir || !dir[0])
		return 0;
	if (fstat(fd, &st) == 0 && (at = open_parent(dir, base, sizeof base)) >= 0) {
		rc = fstree_remove(at, base, &st);
		close(at);
	}
	if (rc < 0)
		evlog_add(EV_WARN, "could not remove %s: %s", dir,
		          errno == EXDEV ? "it was replaced by something idxlab did not make: left "
		                           "alone"
		                         : strerror(errno));
	hurry_drop_dir(dir);
	dir[0] = 0;
	return rc < 0 ? -1 : 0;
}

#define TAIL_MAX_LINES 32

void tmpdir_fd_tail(int fd, off_t from, int lines, enum tmpdir_tail_fit fit, char *out, size_t n)
{
	char buf[4096], *line[TAIL_MAX_LINES], *p, *nl;
	size_t nlines = 0, i, first, len, want;
	off_t end, at;
	ssize_t got;

	out[0] = 0;
	want = lines < 1 ? 1 : lines > TAIL_MAX_LINES ? TAIL_MAX_LINES : (size_t)lines;
	end = fd < 0 ? -1 : lseek(fd, 0, SEEK_END);
	if (end <= from)
		return;
	at = end - from > (off_t)sizeof buf - 1 ? end - (off_t)sizeof buf + 1 : from;
	got = pread(fd, buf, (size_t)(end - at), at);
	if (got <= 0)
		return;
	buf[got] = 0;
	p = buf;
	if (at > from && (nl = strchr(p, '\n')))
		p = nl + 1; /* skip a partial first line */
	for (; *p; p = nl ? nl + 1 : p + strlen(p)) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = 0;
		len = strlen(p);
		while (len && (p[len - 1] == '\r' || p[len - 1] == ' ' || p[len - 1] == '\t'))
			p[--len] = 0;
		if (!len)
			continue;
		if (nlines == want)
			memmove(line, line + 1, sizeof line[0] * --nlines);
		line[nlines++] = p;
		if (!nl)
			break;
	}
	if (!nlines)
		return;
	first = 0;
	if (fit == TMPDIR_TAIL_NEWEST) {
		/* The newest lines that fit; the oldest kept one cut if need be. */
		len = strlen(line[nlines - 1]);
		for (first = nlines - 1; first > 0 && len + 3 + strlen(line[first - 1]) < n;
		     first--)
			len += 3 + strlen(line[first - 1]);
	}
	for (i = first; i < nlines; i++) {
		len = strlen(out);
		if (fit == TMPDIR_TAIL_OLDEST && len + 4 >= n)
			break; /* the rest would not show */
		snprintf(out + len, n - len, "%s%s", i > first ? " | " : "", line[i]);
	}
}

void tmpdir_log_tail(const char *dir, const char *name, int lines, char *buf, size_t len)
{
	struct stat st;
	int at, fd;

	/* dir may be the server user's now, in a sticky TMPDIR: it can be
	 * renamed and a link left in its place, or the log be a link (hard:
	 * a name elsewhere too). Read the server's own log only. */
	buf[0] = 0;
	at = fstree_open_dir(AT_FDCWD, dir);
	fd = at < 0 ? -1 : openat(at, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (at >= 0)
		close(at);
	if (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1)) {
		close(fd);
		fd = -1;
	}
	if (fd < 0)
		return;
	tmpdir_fd_tail(fd, 0, lines, TMPDIR_TAIL_OLDEST, buf, len);
	close(fd);
}
