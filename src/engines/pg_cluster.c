/* pg_cluster.c - a throwaway local PostgreSQL cluster for one run.
 *
 * Layout: one temp dir $TMPDIR/idxlab-pg.XXXXXX holds data/ (the data dir),
 * the unix socket .s.PGSQL.5432 (no TCP: listen_addresses is empty, so the
 * port number only names the socket file), server.log (the server's stderr,
 * and initdb's output) and owner.pid (idxlab's pid). Stopping removes it all.
 *
 * Speed: initdb takes a second or two, so its result is kept as a template
 * in $XDG_CACHE_HOME/idxlab/pg-template-<major> (written to a temp name and
 * renamed, so two idxlabs never see half a template) and later runs copy it.
 * The cache is used only where no other user can change it (a template
 * planted there would be the server's data dir and config, and as root a
 * symlink there would send root's copy elsewhere: fstree_open_private).
 * Any trouble with the cache only costs the initdb, and a
 * template the server refuses (made by another build of the same major
 * version) is replaced. The major version is read from the postgres binary
 * itself: running postgres --version loads some forty libraries.
 *
 * Processes: every program (pg_config, cp, initdb, the postmaster) is
 * started by spawn.h: in its own session, so a Ctrl-C at idxlab's terminal
 * does not reach it, with PR_SET_PDEATHSIG = SIGKILL, so it dies with
 * idxlab even on kill -9, with only PATH, LC_ALL=C and TZ of our
 * environment, and a failure before its exec reported as the step that
 * failed. As root the server user (postgres, else nobody) owns the temp
 * dir and the child drops to it (spawn's drop) before it enters the dir.
 *
 * Root over the server user's tree: as root, the temp dir belongs to the
 * server user, who can rename, swap or link anything in it at any moment.
 * So the dir is opened once (before it is handed over) and everything root
 * does in it goes through that fd and fstree.h's walks, which never follow
 * a link: the template is copied in as root's own (0700) and handed over
 * only when complete; a fresh data dir is saved as a template only from
 * files the server user owns; removal checks it is still our dir. Programs
 * that must work by path (initdb, the server) run as the server user.
 *
 * Leftovers: a cluster whose idxlab was killed leaves its temp dir (and, the
 * postmaster having died by SIGKILL, a small System V shared memory segment).
 * Each start removes those of dead owners (owner.pid names no process; the
 * rules are tmpdir.c's), killing a postmaster that still runs there and
 * dropping its segment first; a dir whose owner lives is never touched.
 *
 * Stopping: SIGQUIT (immediate shutdown: the postmaster stops its children
 * and exits without a checkpoint; we throw the data away). If it is not gone
 * within 0.3 s, its children (found through /proc) and it get SIGKILL and
 * we drop its shared memory segment ourselves. Restart uses SIGINT (fast
 * shutdown, with a checkpoint) since the data must survive. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libpq-fe.h>
#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../clock.h"
#include "../evlog.h"
#include "../probes/proc.h"
#include "fstree.h"
#include "pg_cluster.h"
#include "spawn.h"
#include "tmpdir.h"

#define PGC_PORT      5432
#define MIN_MAJOR     10     /* --no-sync, the postmaster.pid layout */
#define MIN_SHARED_KB 128    /* the server's own minimum */
#define POLL_MS       10     /* readiness polling */
#define READY_MS      10000  /* start to accepting connections */
#define RECOVERY_MS   120000 /* ... after an immediate shutdown: WAL replay */
#define FAST_STOP_MS  10000  /* restart: fast shutdown writes a checkpoint */
#define QUIT_MS       300    /* stop: immediate shutdown, then SIGKILL */
#define KILL_MS       2000   /* reaping after SIGKILL */
#define SHM_WAIT_MS   1000   /* for a killed server's processes to detach */
#define TAIL_LINES    10
#define KILL_TREE_MAX 4096 /* children of a postmaster: max_connections and more */
#define TAIL_CHARS    640  /* of the 1024 in struct err */

struct pg_cluster {
	pid_t pid;  /* the postmaster; 0: none running */
	int status; /* its wait status, once reaped */
	int major;  /* server major version */
	int drop;   /* we are root: run programs as uid/gid */
	uid_t uid;
	gid_t gid;
	char user[64];  /* who the server runs as, for messages */
	int log_fd;     /* server.log, appended to; -1: not open */
	off_t log_from; /* where the output of the last program started */
	char dir[PATH_MAX];
	int dir_fd; /* dir, opened before it was handed to the server user */
	char bindir[PATH_MAX];
	char conninfo[PATH_MAX + 128];
};

/* ---- small helpers ---------------------------------------------------- */

static int has_server(const char *dir)
{
	return dir[0] == '/' && spawn_is_exec_file(dir, "initdb") &&
	       spawn_is_exec_file(dir, "postgres");
}

/* ---- running programs ------------------------------------------------- */

/* A server program of c's (initdb, postgres; NULL: only see that the user
 * can enter c's dir): run as the server's user, in c's dir, its output to
 * server.log. */
static struct spawn as_server(const struct pg_cluster *c, const char *const *argv)
{
	struct spawn s = { .argv = argv,
		           .cwd = c->dir,
		           .out = c->log_fd,
		           .drop = c->drop,
		           .uid = c->uid,
		           .gid = c->gid,
		           .user = c->user,
		           .drop_why = "idxlab is root, PostgreSQL refuses root",
		           .cwd_fix = "set TMPDIR to a directory every user can reach, e.g. "
		                      "TMPDIR=/tmp" };

	return s;
}

/* ---- finding the server ----------------------------------------------- */

static int cmp_version_desc(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

/* The newest /usr/lib/postgresql/<version>/bin holding a server. */
static int find_in_usr_lib(char *bindir, size_t n)
{
	const char *root = "/usr/lib/postgresql";
	double v[64];
	size_t nv = 0, i;
	struct dirent *de;
	char *end;
	DIR *d = opendir(root);

	if (!d)
		return -1;
	while ((de = readdir(d)) && nv < sizeof v / sizeof v[0]) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		v[nv] = strtod(de->d_name, &end); /* "15", "9.6" */
		if (*end == 0)
			nv++;
	}
	closedir(d);
	qsort(v, nv, sizeof v[0], cmp_version_desc);
	for (i = 0; i < nv; i++) {
		if (v[i] == (double)(long)v[i])
			snprintf(bindir, n, "%s/%ld/bin", root, (long)v[i]);
		else
			snprintf(bindir, n, "%s/%.1f/bin", root, v[i]);
		if (has_server(bindir))
			return 0;
	}
	return -1;
}

static int find_server(char *bindir, size_t n, struct err *e)
{
	char pg_config[PATH_MAX], out[PATH_MAX], *nl;
	const char *argv[] = { pg_config, "--bindir", NULL };
	const char *p;

	/* 1. pg_config --bindir, if that dir has both programs. */
	if (spawn_find_in_path("pg_config", pg_config, sizeof pg_config) == 0 &&
	    spawn_capture(argv, out, sizeof out) == 0) {
		nl = strchr(out, '\n');
		if (nl)
			*nl = 0;
		if (has_server(out) && strlen(out) < n) {
			memcpy(bindir, out, strlen(out) + 1);
			return 0;
		}
	}
	/* 2. $PATH. */
	for (p = getenv("PATH"); spawn_path_next(&p, bindir, n) == 0;)
		if (has_server(bindir))
			return 0;
	/* 3. Debian's layout, newest first. */
	if (find_in_usr_lib(bindir, n) == 0)
		return 0;
	bindir[0] = 0;
	return err_set(e, ERR_RUNTIME,
	               "no PostgreSQL server found (looked in `pg_config --bindir`, $PATH and "
	               "/usr/lib/postgresql/*/bin for initdb and postgres): install one, e.g. "
	               "apt-get install postgresql, or point idxlab at a server with --dsn");
}

/* The version string is in the binary ("postgres (PostgreSQL) 15.18 ..."):
 * finding it there is ten times faster than running postgres --version,
 * which loads some forty shared libraries. 0 if not found. */
static long major_from_binary(const char *path)
{
	static const char tag[] = "postgres (PostgreSQL) ";
	const char *p, *base;
	size_t left;
	struct stat st;
	long major = 0;
	void *map;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	map = fstat(fd, &st) == 0 && st.st_size > 0
	          ? mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0)
	          : MAP_FAILED;
	close(fd);
	if (map == MAP_FAILED)
		return 0;
	base = map;
	left = (size_t)st.st_size;
	while ((p = memmem(base, left, tag, sizeof tag - 1))) {
		p += sizeof tag - 1;
		left -= (size_t)(p - base);
		base = p;
		if (left > 4 && p[0] >= '1' && p[0] <= '9') {
			major = strtol(p, NULL, 10);
			break;
		}
	}
	munmap(map, (size_t)st.st_size);
	return major;
}

/* "postgres (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)" -> 15 */
static int server_major(const char *bindir, struct err *e)
{
	char path[PATH_MAX], out[256];
	const char *argv[] = { path, "--version", NULL };
	const char *p;
	long major;

	if (tmpdir_join(path, sizeof path, bindir, "postgres") < 0)
		return err_set(e, ERR_RUNTIME, "path too long: %s", bindir);
	major = major_from_binary(path);
	if (major >= MIN_MAJOR && major < 1000)
		return (int)major;
	if (spawn_capture(argv, out, sizeof out) < 0)
		return err_set(e, ERR_RUNTIME,
		               "%s/postgres --version failed: is this PostgreSQL installation "
		               "complete? Reinstall it, or point idxlab at a server with --dsn",
		               bindir);
	p = strstr(out, ") ");
	p = p ? p + 2 : out;
	major = strtol(p, NULL, 10);
	if (major <= 0)
		return err_set(e, ERR_RUNTIME,
		               "cannot tell the version of %s/postgres (it says \"%.60s\"): point "
		               "idxlab at a server with --dsn",
		               bindir, out);
	if (major < MIN_MAJOR)
		return err_set(e, ERR_RUNTIME,
		               "PostgreSQL %ld in %s is too old: idxlab needs %d or newer; install "
		               "a newer one, e.g. apt-get install postgresql",
		               major, bindir, MIN_MAJOR);
	return (int)major;
}

/* As root, pick the unprivileged user the server runs as. */
static int pick_user(struct pg_cluster *c, struct err *e)
{
	static const char *const names[] = { "postgres", "nobody" };
	struct passwd pw, *res;
	char buf[4096];
	size_t i;

	if (geteuid() != 0)
		return 0;
	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		if (getpwnam_r(names[i], &pw, buf, sizeof buf, &res) != 0 || !res ||
		    res->pw_uid == 0)
			continue;
		c->drop = 1;
		c->uid = res->pw_uid;
		c->gid = res->pw_gid;
		snprintf(c->user, sizeof c->user, "%s", names[i]);
		return 0;
	}
	return err_set(e, ERR_RUNTIME,
	               "idxlab runs as root, PostgreSQL refuses to, and there is no user postgres "
	               "or nobody to run it as: create one (useradd -r postgres) or run idxlab "
	               "as a normal user");
}

/* ---- leftovers -------------------------------------------------------- */

/* A dead server's System V segment: postmaster.pid (below the temp dir fd
 * dir) says "<pid>" on line 1 and "<shm key> <shm id>" on line 7. That file
 * is the server user's to write, so it proves nothing: the segment goes only
 * if it is the server's (owned by server_uid, made by that pid, which is
 * gone, and attached by no one); otherwise it stays and the log says why. */
/* pid has ended (gone, or a zombie no one reaped yet). */
static int proc_gone(pid_t pid)
{
	char state;

	if (kill(pid, 0) < 0 && errno == ESRCH)
		return 1;
	return proc_stat(pid, &state, NULL) == 0 && state == 'Z';
}

static void drop_shm(int dir, uid_t server_uid)
{
	char buf[1024], *line = buf, *nl, why[96];
	struct shmid_ds ds;
	long key, id, pm;
	int i, tries;

	if (fstree_read(dir, "data/postmaster.pid", buf, sizeof buf) <= 0)
		return;
	pm = strtol(buf, NULL, 10);
	for (i = 1; i < 7 && line; i++) {
		nl = strchr(line, '\n');
		line = nl ? nl + 1 : NULL;
	}
	if (!line || sscanf(line, "%ld %ld", &key, &id) != 2 || id < 0 || id > INT_MAX)
		return;
	/* A server just killed: its children take a moment to see it and detach. */
	for (tries = 0;; tries++) {
		if (shmctl((int)id, IPC_STAT, &ds) < 0 || ds.shm_perm.__key != (key_t)key)
			return; /* no such segment (any more) */
		if (tries == SHM_WAIT_MS / POLL_MS || ds.shm_perm.uid != server_uid ||
		    (ds.shm_nattch == 0 && pm > 0 && proc_gone((pid_t)pm)))
			break;
		clock_sleep_ms(POLL_MS);
	}
	if (ds.shm_perm.uid != server_uid)
		snprintf(why, sizeof why, "it belongs to uid %d, not the server's %d",
		         (int)ds.shm_perm.uid, (int)server_uid);
	else if (pm <= 0 || ds.shm_cpid != (pid_t)pm)
		snprintf(why, sizeof why, "it was made by pid %d, not by the server (pid %ld)",
		         (int)ds.shm_cpid, pm);
	else if (!proc_gone((pid_t)pm))
		snprintf(why, sizeof why, "its server (pid %ld) still runs", pm);
	else if (ds.shm_nattch != 0)
		snprintf(why, sizeof why, "%lu processes still use it",
		         (unsigned long)ds.shm_nattch);
	else if (shmctl((int)id, IPC_RMID, NULL) == 0)
		return;
	else
		snprintf(why, sizeof why, "%s", strerror(errno));
	evlog_add(EV_WARN, "left the System V shared memory segment %ld (key %ld) alone: %s", id,
	          key, why);
}

/* Who the data dir below dir fd belongs to (the server ran as its owner),
 * or (uid_t)-1. */
static uid_t data_owner(int dir)
{
	struct stat st;

	return fstatat(dir, "data", &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode)
	           ? st.st_uid
	           : (uid_t)-1;
}

/* Before tmpdir.c removes a dead idxlab's temp dir: its server, should it
 * still run (only if that pid runs a postgres in dir), and its shared
 * memory. */
static void clean_leftover(const char *dir, int fd)
{
	pid_t pm = tmpdir_read_pid_at(fd, "data/postmaster.pid");

	if (tmpdir_runs_in(pm, "postgres", dir) && kill(pm, SIGKILL) == 0) {
		evlog_add(EV_INFO,
		          "killed the PostgreSQL server (pid %d) left running by a killed idxlab "
		          "in %s",
		          (int)pm, dir);
	}
	drop_shm(fd, data_owner(fd));
}

static const struct tmpdir_kind pg_tmpdir = {
	.name = "pg", /* idxlab-pg.XXXXXX, as ever */
	.what = "the PostgreSQL server",
	.alt = "point idxlab at a server with --dsn",
	.clean = clean_leftover,
};

/* The server's socket, c->dir/.s.PGSQL.<port>, must fit a sockaddr_un. */
static int check_socket_path(const struct pg_cluster *c, struct err *e)
{
	static const char sock[] = "/.s.PGSQL.99999";
	size_t room = sizeof(((struct sockaddr_un *)0)->sun_path) - 1;
	size_t len = strlen(c->dir) + strlen(sock);
	const char *base = strrchr(c->dir, '/');
	size_t parent = base ? (size_t)(base - c->dir) : 0;

	if (len <= room)
		return 0;
	return err_set(e, ERR_RUNTIME,
	               "TMPDIR=%.*s is too long to hold the server's unix socket (at most %zu "
	               "characters): set TMPDIR to a shorter path, e.g. TMPDIR=/tmp",
	               (int)parent, c->dir, room > len - parent ? room - (len - parent) : 0);
}

/* ---- the server log --------------------------------------------------- */

/* The last lines the latest program wrote to server.log, joined by " | ";
 * "(empty)" if none. */
static const char *log_tail(const struct pg_cluster *c, char *out, size_t n)
{
	tmpdir_fd_tail(c ? c->log_fd : -1, c ? c->log_from : 0, TAIL_LINES, TMPDIR_TAIL_NEWEST, out,
	               n);
	if (!out[0])
		snprintf(out, n, "(empty)");
	return out;
}

/* ---- the data dir ----------------------------------------------------- */

/* $XDG_CACHE_HOME/idxlab, else ~/.cache/idxlab; -1 if neither is usable. */
static int cache_dir(char *buf, size_t n)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	struct passwd pw, *res;
	char pwbuf[4096];
	int len;

	if (xdg && xdg[0] == '/') {
		len = snprintf(buf, n, "%s/idxlab", xdg);
	} else {
		if (!home || home[0] != '/') {
			if (getpwuid_r(geteuid(), &pw, pwbuf, sizeof pwbuf, &res) != 0 || !res ||
			    !res->pw_dir || res->pw_dir[0] != '/')
				return -1;
			home = res->pw_dir;
		}
		len = snprintf(buf, n, "%s/.cache/idxlab", home);
	}
	return len < 0 || (size_t)len >= n ? -1 : 0;
}

/* The cache dir (made if need be) as a dir fd, or -1: only where no other
 * user can change it (as root, another user's dir on the way could swap in
 * a template of theirs, or send root's copy elsewhere). say: put a refusal
 * in the event log. */
static int cache_open(int say)
{
	char dir[PATH_MAX];
	int fd;

	if (cache_dir(dir, sizeof dir) < 0)
		return -1;
	fd = fstree_open_private(dir);
	if (fd < 0 && errno == EPERM && say)
		evlog_add(EV_WARN,
		          "the PostgreSQL template cache %s is not used: another user can change "
		          "it or a directory on its way (each run makes its data dir with initdb; "
		          "set XDG_CACHE_HOME to a directory of your own)",
		          dir);
	return fd;
}

/* Hand the tree open as fd to the server user (as root): its entries
 * first, the top last, so the user cannot enter before it is all theirs. */
static int hand_over(const struct pg_cluster *c, int fd)
{
	return c->drop ? fstree_chown(fd, c->uid, c->gid) : 0;
}

/* Copy the cached template into data (below our dir fd); 0, or -1 if there
 * is none (or it is not usable) and initdb must run. The copy is ours
 * (0700) until it is complete, then handed over. */
static int data_from_template(const struct pg_cluster *c)
{
	char name[64], ver[32];
	struct stat st;
	int cache = cache_open(1), from, data, rc = -1, saved;

	snprintf(name, sizeof name, "pg-template-%d", c->major);
	from = cache < 0 ? -1 : fstree_open_dir(cache, name);
	if (cache >= 0)
		close(cache);
	errno = 0;
	if (from < 0)
		return -1;
	if (fstree_read(from, "PG_VERSION", ver, sizeof ver) > 0 && atoi(ver) == c->major &&
	    fstree_copy(from, c->dir_fd, "data", (uid_t)-1) == 0) {
		/* Ours now (a "data" someone else made fails the copy: EEXIST),
		 * and still ours when reopened (the dir around it is not). */
		data = fstree_open_dir(c->dir_fd, "data");
		rc = data >= 0 && fstat(data, &st) == 0 && st.st_uid == geteuid() &&
		             fchmod(data, 0700) == 0 && hand_over(c, data) == 0
		         ? 0
		         : -1;
		if (data >= 0)
			close(data);
		saved = errno;
		if (rc < 0)
			fstree_remove(c->dir_fd, "data", NULL);
		errno = saved;
	}
	saved = errno;
	close(from);
	errno = saved;
	return rc;
}

/* Put the fresh initdb'd data dir into the cache, replacing a template the
 * server refused if replace; any trouble: no cache. As root, only files the
 * server user owns are copied (it could have put anything there), and the
 * template is root's own. Readers copying from a template while it is
 * replaced fail their copy and run initdb. */
static void template_save(const struct pg_cluster *c, int replace)
{
	char name[64], tmp[96], old[96], prefix[72];
	struct dirent *de;
	const char *rest;
	int at, data;
	DIR *d;

	if ((at = cache_open(0)) < 0)
		return;
	snprintf(name, sizeof name, "pg-template-%d", c->major);
	/* Left by idxlabs killed while saving: pg-template-N.{tmp,old}.<pid> */
	snprintf(prefix, sizeof prefix, "%s.", name);
	d = fdopendir(dup(at));
	while (d && (de = readdir(d))) {
		rest = de->d_name + strlen(prefix);
		if (strncmp(de->d_name, prefix, strlen(prefix)) != 0 ||
		    (strncmp(rest, "tmp.", 4) != 0 && strncmp(rest, "old.", 4) != 0))
			continue;
		if (kill((pid_t)atoi(rest + 4), 0) < 0 && errno == ESRCH)
			fstree_remove(at, de->d_name, NULL);
	}
	if (d)
		closedir(d);
	snprintf(tmp, sizeof tmp, "%s.tmp.%d", name, (int)getpid());
	snprintf(old, sizeof old, "%s.old.%d", name, (int)getpid());
	fstree_remove(at, tmp, NULL);
	data = fstree_open_dir(c->dir_fd, "data");
	if (data >= 0 && fstree_copy(data, at, tmp, c->drop ? c->uid : (uid_t)-1) == 0) {
		if (replace && renameat(at, name, at, old) == 0)
			fstree_remove(at, old, NULL);
		if (renameat(at, tmp, at, name) < 0)
			fstree_remove(at, tmp, NULL); /* another idxlab was first: fine */
	}
	if (data >= 0)
		close(data);
	close(at);
}

/* A template made by another build of this major version (other block or
 * segment size...) is refused: "database files are incompatible with
 * server". Worth one more try with initdb, unlike a bad setting. */
static int template_refused(const struct pg_cluster *c)
{
	char tail[TAIL_CHARS];

	log_tail(c, tail, sizeof tail);
	return strstr(tail, "incompatible with server") || strstr(tail, "control file") ||
	       strstr(tail, "pg_control") || strstr(tail, "checkpoint record");
}

/* The data dir did not fit in TMPDIR: say that first, and where. */
static int disk_full(const struct pg_cluster *c, struct err *e)
{
	const char *slash = strrchr(c->dir, '/');

	return err_set(e, ERR_RUNTIME,
	               "cannot create the PostgreSQL data dir in %.*s: the disk is full (No space "
	               "left on device) - free space there (a fresh data dir needs about 40 MB), "
	               "set TMPDIR to a directory with room, or point idxlab at a server with "
	               "--dsn",
	               slash ? (int)(slash - c->dir) : (int)strlen(c->dir), c->dir);
}

static int run_initdb(struct pg_cluster *c, const char *data, struct err *e)
{
	char prog[PATH_MAX], tail[TAIL_CHARS], why[256];
	const char *argv[] = { prog, "-D",   data,         "-U",        "idxlab", "--auth=trust",
		               "-E", "UTF8", "--locale=C", "--no-sync", NULL };
	struct spawn s = as_server(c, argv);

	if (tmpdir_join(prog, sizeof prog, c->bindir, "initdb") < 0)
		return err_set(e, ERR_RUNTIME, "path too long: %s", c->bindir);
	c->log_from = lseek(c->log_fd, 0, SEEK_END);
	if (spawn_run(&s, prog, e) == 0)
		return 0;
	if (strstr(log_tail(c, tail, sizeof tail), "No space left on device"))
		return disk_full(c, e);
	snprintf(why, sizeof why, "%.250s", e ? e->msg : "initdb failed");
	return err_set(e, ERR_RUNTIME, "cannot create the PostgreSQL data dir: %s; its output: %s",
	               why, log_tail(c, tail, sizeof tail));
}

/* ---- the server ------------------------------------------------------- */

/* A value for a libpq conninfo: quoted when it has to be. */
static void conninfo_value(char *out, size_t n, const char *v)
{
	size_t o = 0;

	if (*v && !strpbrk(v, " \t\n'\\")) {
		snprintf(out, n, "%s", v);
		return;
	}
	out[o++] = '\'';
	for (; *v && o + 3 < n; v++) {
		if (*v == '\'' || *v == '\\')
			out[o++] = '\\';
		out[o++] = *v;
	}
	out[o++] = '\'';
	out[o] = 0;
}

/* unix_socket_directories is a comma-separated list: quote our one dir. */
static void list_item(char *out, size_t n, const char *v)
{
	size_t o = 0;

	out[o++] = '"';
	for (; *v && o + 3 < n; v++) {
		if (*v == '"')
			out[o++] = '"';
		out[o++] = *v;
	}
	out[o++] = '"';
	out[o] = 0;
}

/* Line 8 of postmaster.pid says "ready" once our postmaster accepts
 * connections (PostgreSQL 10 and later). */
static int pidfile_ready(const struct pg_cluster *c)
{
	char buf[1024], *line = buf, *nl;
	int i;

	if (fstree_read(c->dir_fd, "data/postmaster.pid", buf, sizeof buf) <= 0 ||
	    atoi(buf) != c->pid)
		return 0;
	for (i = 1; i < 8 && line; i++) {
		nl = strchr(line, '\n');
		line = nl ? nl + 1 : NULL;
	}
	return line && strncmp(line, "ready", 5) == 0;
}

/* Wait until the server accepts connections; on failure say why. Each ping
 * costs the server a process, so ping when postmaster.pid says "ready" (and
 * now and then regardless, in case it never does). */
static int wait_ready(struct pg_cluster *c, long ms, struct err *e)
{
	long long until = clock_now_ms() + ms;
	char how[96], tail[TAIL_CHARS];
	int st, tick;

	for (tick = 1;; tick++) {
		if (spawn_reap(c->pid, &st, 0)) {
			c->pid = 0;
			c->status = st;
			return err_set(e, ERR_RUNTIME,
			               "the PostgreSQL %d server (%s/postgres) %s while starting; "
			               "server log: %s",
			               c->major, c->bindir,
			               spawn_describe_status(st, how, sizeof how),
			               log_tail(c, tail, sizeof tail));
		}
		switch (pidfile_ready(c) || tick % 10 == 0 ? PQping(c->conninfo) : PQPING_REJECT) {
		case PQPING_OK:
			return 0;
		case PQPING_NO_ATTEMPT:
			return err_set(e, ERR_RUNTIME, "bad connection string for the server: %s",
			               c->conninfo);
		default:
			break;
		}
		if (clock_now_ms() >= until)
			return err_set(e, ERR_RUNTIME,
			               "the PostgreSQL %d server (%s/postgres) did not accept "
			               "connections within %ld s; server log: %s",
			               c->major, c->bindir, ms / 1000,
			               log_tail(c, tail, sizeof tail));
		clock_sleep_ms(POLL_MS);
	}
}

/* pg_stat_statements is installed with this server (Debian: the server
 * package; elsewhere contrib): 1, and postgres.c reads the workload's own
 * buffer writes from it. Its library must be preloaded at start. */
static int has_stat_statements(const struct pg_cluster *c)
{
	char pg_config[PATH_MAX], lib[PATH_MAX], *nl;
	const char *argv[] = { pg_config, "--pkglibdir", NULL };
	struct stat st;

	if (tmpdir_join(pg_config, sizeof pg_config, c->bindir, "pg_config") < 0 ||
	    !spawn_is_exec_file(c->bindir, "pg_config") || spawn_capture(argv, lib, sizeof lib) < 0)
		return 0;
	nl = strchr(lib, '\n');
	if (nl)
		*nl = 0;
	return tmpdir_join(pg_config, sizeof pg_config, lib, "pg_stat_statements.so") == 0 &&
	       stat(pg_config, &st) == 0 && S_ISREG(st.st_mode);
}

/* Start the postmaster on our data dir and wait until it is ready. */
static int boot(struct pg_cluster *c, long long shared_buffers, long ready_ms, struct err *e)
{
	char prog[PATH_MAX], data[PATH_MAX], sock[PATH_MAX + 64], sb[64], port[16];
	const char *argv[48];
	int n = 0, len;
	struct spawn s = as_server(c, argv);
	pid_t pid;

	if (tmpdir_join(prog, sizeof prog, c->bindir, "postgres") < 0 ||
	    tmpdir_join(data, sizeof data, c->dir, "data") < 0)
		return err_set(e, ERR_RUNTIME, "path too long: %s", c->dir);
	snprintf(port, sizeof port, "%d", PGC_PORT);
	len = snprintf(sock, sizeof sock, "unix_socket_directories=");
	list_item(sock + len, sizeof sock - (size_t)len, c->dir);

	argv[n++] = prog;
	argv[n++] = "-D";
	argv[n++] = data;
	argv[n++] = "-p";
	argv[n++] = port;
#define SET(kv) (argv[n++] = "-c", argv[n++] = (kv))
	/* Logging first: a bad value further on is then reported plainly. */
	SET("log_destination=stderr");
	SET("logging_collector=off");
	SET("log_min_messages=warning");
	SET("log_line_prefix="); /* the log's tail goes into messages: keep it short */
	SET("listen_addresses=");
	SET(sock);
	SET("fsync=on");
	SET("synchronous_commit=on");
	SET("full_page_writes=on");
	SET("max_wal_size=16GB");
	SET("checkpoint_timeout=1d");
	if (c->major >= 11)
		SET("jit=off");
	if (c->major >= 14)
		SET("track_wal_io_timing=on");
	SET("track_io_timing=on");
	SET("max_connections=20");
	if (has_stat_statements(c)) {
		SET("shared_preload_libraries=pg_stat_statements");
		SET("pg_stat_statements.save=off"); /* nothing to keep: the server goes */
	}
	if (shared_buffers > 0) {
		long long kb = (shared_buffers + 512) / 1024;

		snprintf(sb, sizeof sb, "shared_buffers=%lldkB",
		         kb < MIN_SHARED_KB ? MIN_SHARED_KB : kb);
		SET(sb);
	}
#undef SET
	argv[n] = NULL;

	c->log_from = lseek(c->log_fd, 0, SEEK_END);
	pid = spawn_start(&s, prog, e);
	if (pid < 0)
		return -1;
	c->pid = pid;
	c->status = 0;
	return wait_ready(c, ready_ms, e);
}

/* SIGKILL every child of pid (found through /proc), then pid itself. */
static void kill_tree(pid_t pid)
{
	pid_t child[KILL_TREE_MAX];
	int n = proc_children(pid, child, KILL_TREE_MAX), i;

	for (i = 0; i < n; i++)
		kill(child[i], SIGKILL);
	kill(-pid, SIGKILL); /* its process group (it leads one: setsid) */
	kill(pid, SIGKILL);
}

/* Send sig and wait up to ms for the postmaster to end; 0 once reaped. */
static int halt(struct pg_cluster *c, int sig, long ms)
{
	int st;

	if (c->pid <= 0)
		return 0;
	kill(c->pid, sig);
	if (!spawn_reap(c->pid, &st, ms))
		return -1;
	c->pid = 0;
	c->status = st;
	return 0;
}

/* After a postmaster died without its own cleanup (SIGKILL): drop its
 * shared memory segment and lock file. */
static void forget_dead_server(const struct pg_cluster *c)
{
	int data;

	if (c->dir_fd < 0)
		return;
	drop_shm(c->dir_fd, c->drop ? c->uid : geteuid());
	data = fstree_open_dir(c->dir_fd, "data");
	if (data >= 0) {
		unlinkat(data, "postmaster.pid", 0);
		close(data);
	}
}

/* Whatever it takes, within about QUIT_MS: the data is thrown away. */
static void halt_now(struct pg_cluster *c)
{
	int st;

	if (c->pid <= 0 || halt(c, SIGQUIT, QUIT_MS) == 0)
		return;
	kill_tree(c->pid);
	if (spawn_reap(c->pid, &st, KILL_MS))
		c->status = st;
	else
		return; /* stuck (in D state?): it stays a zombie until idxlab exits */
	c->pid = 0;
	forget_dead_server(c);
}

/* ---- the API ---------------------------------------------------------- */

int pg_cluster_start(struct pg_cluster **out, long long shared_buffers, struct err *e)
{
	struct pg_cluster *c;
	char data[PATH_MAX], host[PATH_MAX + 8];

	if (!out)
		return err_set(e, ERR_RUNTIME, "pg_cluster_start: no place for the result");
	*out = NULL;
	c = calloc(1, sizeof *c);
	if (!c)
		return err_set(e, ERR_RUNTIME, "out of memory");
	c->log_fd = -1;
	c->dir_fd = -1;

	/* The temp dir (a killed idxlab's, of our user or the server's, are
	 * swept first), short enough for the socket path. */
	if (pick_user(c, e) < 0 ||
	    tmpdir_make(c->dir, sizeof c->dir, &pg_tmpdir, c->drop ? c->uid : (uid_t)-1, e) < 0 ||
	    check_socket_path(c, e) < 0)
		goto fail;
	if (find_server(c->bindir, sizeof c->bindir, e) < 0)
		goto fail;
	c->major = server_major(c->bindir, e);
	if (c->major < 0)
		goto fail;
	if ((c->dir_fd = fstree_open_dir(AT_FDCWD, c->dir)) < 0 ||
	    (c->log_fd =
	         openat(c->dir_fd, "server.log",
	                O_RDWR | O_CREAT | O_EXCL | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0600)) < 0) {
		err_set(e, ERR_RUNTIME, "cannot create %s/server.log: %s", c->dir, strerror(errno));
		goto fail;
	}
	if (hand_over(c, c->dir_fd) < 0) {
		err_set(e, ERR_RUNTIME,
		        "cannot hand %s to user %s, who runs the PostgreSQL server: %s: set TMPDIR "
		        "to a local directory (chown must work there)",
		        c->dir, c->user, strerror(errno));
		goto fail;
	}
	if (c->drop) {
		/* Can the server user reach it? Find out now, not after a copy. */
		struct spawn probe = as_server(c, NULL);
		pid_t p = spawn_start(&probe, "the PostgreSQL server", e);
		int st;

		if (p < 0)
			goto fail;
		spawn_reap(p, &st, -1);
	}
	conninfo_value(host, sizeof host, c->dir);
	snprintf(c->conninfo, sizeof c->conninfo, "host=%s port=%d user=idxlab dbname=postgres",
	         host, PGC_PORT);

	/* The data dir: a copy of the cached template, else initdb (and cache it). */
	if (tmpdir_join(data, sizeof data, c->dir, "data") < 0) {
		err_set(e, ERR_RUNTIME, "path too long: %s", c->dir);
		goto fail;
	}
	if (data_from_template(c) == 0) {
		if (boot(c, shared_buffers, READY_MS, e) == 0) {
			*out = c;
			return 0;
		}
		if (c->pid > 0 || !template_refused(c))
			goto fail;
		fstree_remove(c->dir_fd, "data", NULL);
		if (run_initdb(c, data, e) < 0)
			goto fail;
		template_save(c, 1);
	} else {
		if (errno == ENOSPC) {
			disk_full(c, e);
			goto fail;
		}
		if (run_initdb(c, data, e) < 0)
			goto fail;
		template_save(c, 0);
	}
	if (boot(c, shared_buffers, READY_MS, e) < 0)
		goto fail;
	*out = c;
	return 0;
fail:
	pg_cluster_stop(c);
	return -1;
}

const char *pg_cluster_conninfo(const struct pg_cluster *c)
{
	return c ? c->conninfo : "";
}

pid_t pg_cluster_pid(const struct pg_cluster *c)
{
	return c ? c->pid : 0;
}

const char *pg_cluster_dir(const struct pg_cluster *c)
{
	return c ? c->dir : "";
}

const char *pg_cluster_bindir(const struct pg_cluster *c)
{
	return c ? c->bindir : "";
}

int pg_cluster_restart(struct pg_cluster *c, long long shared_buffers, struct err *e)
{
	long ready = READY_MS;

	if (!c)
		return err_set(e, ERR_RUNTIME, "no PostgreSQL cluster to restart");
	if (halt(c, SIGINT, FAST_STOP_MS) < 0) {
		/* Stuck in its shutdown checkpoint: stop it now, recover from WAL. */
		halt_now(c);
		ready = RECOVERY_MS;
	}
	return boot(c, shared_buffers, ready, e);
}

int pg_cluster_alive(struct pg_cluster *c)
{
	int st;

	if (!c || c->pid <= 0)
		return 0;
	if (!spawn_reap(c->pid, &st, 0))
		return 1;
	c->pid = 0;
	c->status = st;
	return 0;
}

void pg_cluster_stop(struct pg_cluster *c)
{
	if (!c)
		return;
	halt_now(c);
	if (c->pid == 0)
		forget_dead_server(c); /* in case it died by SIGKILL earlier */
	if (c->log_fd >= 0)
		close(c->log_fd);
	tmpdir_remove_same(c->dir, c->dir_fd);
	if (c->dir_fd >= 0)
		close(c->dir_fd);
	free(c);
}
