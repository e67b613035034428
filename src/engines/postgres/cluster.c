/* cluster.c - a throwaway local PostgreSQL cluster for one run.
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
 * within 0.3 s, or cannot act on it at all (a process of it is stopped:
 * SIGSTOP, a debugger), its children (found through /proc) and it get
 * SIGKILL and we drop its shared memory ourselves (the System V segment and
 * the dynamic segments in /dev/shm). Every wait of a stop is a deadline from
 * the stop's start, not a sum of waits: the stop ends within STOP_MS however
 * loaded the machine, beside the file system's time to delete the dir.
 * Restart uses SIGINT (fast shutdown, with a checkpoint) since the data must
 * survive.
 *
 * This file owns the running of programs, the server (boot, readiness,
 * stop) and the API; find.c finds the binaries and the user, leftovers.c
 * removes what killed idxlabs left, template.c makes the data dir. */
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

#include "../../clock.h"
#include "../../evlog.h"
#include "../../probes/proc.h"
#include "../../fstree.h"
#include "../spawn.h"
#include "../tmpdir.h"
#include "cluster_int.h"

/* ---- running programs ------------------------------------------------- */

/* A server program of c's (initdb, postgres; NULL: only see that the user
 * can enter c's dir): run as the server's user, in c's dir, its output to
 * server.log. */
struct spawn pgc_as_server(const struct pg_cluster *c, const char *const *argv)
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

/* ---- the server log --------------------------------------------------- */

/* The last lines the latest program wrote to server.log, joined by " | ";
 * "(empty)" if none. */
const char *pgc_log_tail(const struct pg_cluster *c, char *out, size_t n)
{
	tmpdir_fd_tail(c ? c->log_fd : -1, c ? c->log_from : 0, TAIL_LINES, TMPDIR_TAIL_NEWEST, out,
	               n);
	if (!out[0])
		snprintf(out, n, "(empty)");
	return out;
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
			               pgc_log_tail(c, tail, sizeof tail));
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
			               pgc_log_tail(c, tail, sizeof tail));
		clock_sleep_ms(POLL_MS);
	}
}

/* pg_stat_statements is installed with this server (Debian: the server
 * package; elsewhere contrib): 1, and stats.c reads the workload's own
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
	const char *argv[48] = { NULL }, *env[3] = { NULL };
	int n = 0, len;
	struct spawn s = pgc_as_server(c, argv);
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
	/* the WAL sync counter (walsync.c) reads the title, counts fdatasync */
	SET("update_process_title=on");
	SET("wal_sync_method=fdatasync");
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
	/* The WAL sync counter, once the data dir is made (its files take no
	 * room the data dir needs: a full disk is said as such, above). */
	if (!c->walsync && !c->ws_tried) {
		c->ws_tried = 1;
		pgc_walsync_install(c);
	}
	if (c->walsync) {
		env[0] = c->ws_preload;
		env[1] = c->ws_counts;
		s.env = env;
	}

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

/* pid or one of its children is stopped (SIGSTOP, a debugger): it cannot
 * act on a shutdown signal, nor the postmaster finish one, until continued. */
static int tree_stopped(pid_t pid)
{
	pid_t child[KILL_TREE_MAX];
	int n = proc_children(pid, child, KILL_TREE_MAX), i;
	char st;

	if (proc_stat(pid, &st, NULL) == 0 && (st == 'T' || st == 't'))
		return 1;
	for (i = 0; i < n; i++)
		if (proc_stat(child[i], &st, NULL) == 0 && (st == 'T' || st == 't'))
			return 1;
	return 0;
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
	pgc_drop_shm(c->dir_fd, c->drop ? c->uid : geteuid());
	data = fstree_open_dir(c->dir_fd, "data");
	if (data >= 0) {
		unlinkat(data, "postmaster.pid", 0);
		close(data);
	}
}

/* Wait for the postmaster until the monotonic time until_ns; 1 once reaped. */
static int reap_until(struct pg_cluster *c, uint64_t until_ns)
{
	uint64_t now = clock_now_ns();
	int st;

	if (c->pid <= 0)
		return 1;
	if (!spawn_reap(c->pid, &st, now < until_ns ? (long)((until_ns - now) / 1000000) : 0))
		return 0;
	c->pid = 0;
	c->status = st;
	return 1;
}

/* Stop the postmaster at once, from t0 (the stop's start): the data is
 * thrown away. An immediate shutdown when it can act on one (the postmaster
 * then removes its own shared memory); if it cannot (a process of it is
 * stopped: SIGSTOP, a debugger) or has not ended by t0 + QUIT_MS, the tree
 * gets SIGKILL and we remove its shared memory ourselves: the dynamic
 * segments its processes map (read before the kill, while they map them)
 * and the System V segment, while the postmaster is our unreaped child and
 * its pid still its own. A killed postmaster may not be reaped yet
 * (reap_until): its exit is the kernel's work meanwhile. */
static void kill_server(struct pg_cluster *c, uint64_t t0)
{
	uid_t uid = c->drop ? c->uid : geteuid();
	struct pgc_dsm dsm;
	pid_t pm = c->pid;

	if (pm <= 0)
		return;
	if (!tree_stopped(pm)) {
		kill(pm, SIGQUIT);
		if (reap_until(c, t0 + QUIT_MS * 1000000ULL))
			return;
	}
	pgc_dsm_list(pm, &dsm);
	kill_tree(pm);
	pgc_drop_shm_of(c->dir_fd, uid, pm, &dsm);
	pgc_dsm_drop(&dsm, uid);
}

/* kill_server, then wait until t0 + STOP_MS for it to be reaped (one stuck
 * in D state stays a zombie until idxlab exits). */
static void halt_now(struct pg_cluster *c, uint64_t t0)
{
	kill_server(c, t0);
	if (reap_until(c, t0 + STOP_MS * 1000000ULL))
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
	if (pgc_pick_user(c, e) < 0 ||
	    tmpdir_make(c->dir, sizeof c->dir, &pgc_tmpdir, c->drop ? c->uid : (uid_t)-1, e) < 0 ||
	    pgc_check_socket_path(c, e) < 0)
		goto fail;
	if (pgc_find_server(c->bindir, sizeof c->bindir, e) < 0)
		goto fail;
	c->major = pgc_server_major(c->bindir, e);
	if (c->major < 0)
		goto fail;
	if ((c->dir_fd = fstree_open_dir(AT_FDCWD, c->dir)) < 0 ||
	    (c->log_fd =
	         openat(c->dir_fd, "server.log",
	                O_RDWR | O_CREAT | O_EXCL | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0600)) < 0) {
		err_set(e, ERR_RUNTIME, "cannot create %s/server.log: %s", c->dir, strerror(errno));
		goto fail;
	}
	if (pgc_hand_over(c, c->dir_fd) < 0) {
		err_set(e, ERR_RUNTIME,
		        "cannot hand %s to user %s, who runs the PostgreSQL server: %s: set TMPDIR "
		        "to a local directory (chown must work there)",
		        c->dir, c->user, strerror(errno));
		goto fail;
	}
	if (c->drop) {
		/* Can the server user reach it? Find out now, not after a copy. */
		struct spawn probe = pgc_as_server(c, NULL);
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
	if (pgc_data_from_template(c) == 0) {
		if (boot(c, shared_buffers, READY_MS, e) == 0) {
			*out = c;
			return 0;
		}
		if (c->pid > 0 || !pgc_template_refused(c))
			goto fail;
		fstree_remove(c->dir_fd, "data", NULL);
		if (pgc_run_initdb(c, data, e) < 0)
			goto fail;
		pgc_template_save(c, 1);
	} else {
		if (errno == ENOSPC) {
			pgc_disk_full(c, e);
			goto fail;
		}
		if (pgc_run_initdb(c, data, e) < 0)
			goto fail;
		pgc_template_save(c, 0);
	}
	if (boot(c, shared_buffers, READY_MS, e) < 0)
		goto fail;
	*out = c;
	return 0;
fail:
	pg_cluster_stop(c, NULL);
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
		halt_now(c, clock_now_ns());
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

int pg_cluster_stop(struct pg_cluster *c, double *removal_s)
{
	uint64_t t0 = clock_now_ns(), t1;
	int rc;

	if (removal_s)
		*removal_s = 0;
	if (!c)
		return 0;
	if (c->pid > 0)
		kill_server(c, t0);
	else
		forget_dead_server(c); /* in case it died by SIGKILL earlier */
	if (c->log_fd >= 0)
		close(c->log_fd);
	pgc_walsync_drop(c);
	/* The dir goes while the kernel ends a killed server's processes (what
	 * they had open goes with them); then it is reaped by the deadline. */
	t1 = clock_now_ns();
	rc = tmpdir_remove_same(c->dir, c->dir_fd);
	if (removal_s)
		*removal_s = (double)(clock_now_ns() - t1) / 1e9;
	(void)reap_until(c, t0 + STOP_MS * 1000000ULL);
	if (c->dir_fd >= 0)
		close(c->dir_fd);
	free(c);
	return rc;
}
