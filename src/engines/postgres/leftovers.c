/* leftovers.c - what a killed idxlab left of its throwaway cluster: the
 * temp dir's kind for tmpdir.c, the server still running there, its shared
 * memory (removed only by the rules below): the System V segment and the
 * dynamic segments in /dev/shm it names, which only a server's own shutdown
 * removes; the same for a server idxlab kills itself; and the check that
 * the socket path fits (part of the throwaway cluster, cluster.c). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libpq-fe.h>
#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <stdint.h>
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

/* ---- dynamic shared memory -------------------------------------------- */

/* A server's dynamic segments are files /dev/shm/PostgreSQL.<handle> (the
 * default dynamic_shared_memory_type, posix) that an immediate shutdown
 * removes, a SIGKILL does not. Its processes map them: /proc/<pid>/maps
 * names them, before the kill. */
#define DSM_PREFIX "/dev/shm/PostgreSQL."
#define MAPS_MAX   (256 * 1024)

static void dsm_add(struct pgc_dsm *d, unsigned long h)
{
	int i;

	for (i = 0; i < d->n; i++)
		if (d->handle[i] == h)
			return;
	if (d->n < DSM_MAX)
		d->handle[d->n++] = h;
}

/* The segments one process maps (buf: MAPS_MAX bytes of scratch). */
static void dsm_of(pid_t pid, struct pgc_dsm *d, char *buf)
{
	char *p = buf, *end;
	unsigned long h;

	if (proc_read(pid, "maps", buf, MAPS_MAX) <= 0)
		return;
	while ((p = strstr(p, DSM_PREFIX))) {
		p += strlen(DSM_PREFIX);
		h = strtoul(p, &end, 10);
		if (end > p && (*end == '\n' || *end == ' ' || !*end))
			dsm_add(d, h);
		p = end > p ? end : p;
	}
}

/* The dynamic segments a server's System V segment id names (attached
 * read-only): its control segment, whose handle the header holds, and each
 * segment in use that the control segment lists, as PostgreSQL reads them
 * back itself to clean up after a crash. Only a regular file of
 * server_uid's is read. Layouts (LP64, PostgreSQL 10 and later): the header
 * PGShmemHeader, the control segment dsm_control_header, whose items'
 * size follows from its size and maxitems. */
#define SHMEM_MAGIC       679834894   /* PGShmemHeader.magic */
#define SHMEM_DSM_CONTROL 24          /* offsetof(PGShmemHeader, dsm_control) */
#define DSM_CONTROL_MAGIC 0x9a503d32U /* dsm_control_header.magic */
#define DSM_CONTROL_ITEMS 16          /* offsetof(dsm_control_header, item) */
#define DSM_CONTROL_MAX   (4 << 20)

static void dsm_of_segment(int id, uid_t server_uid, struct pgc_dsm *d)
{
	uint32_t magic, ctl, nitems, maxitems, h, refcnt, i;
	unsigned char *buf;
	char name[64];
	struct stat st;
	size_t item;
	ssize_t got;
	void *p;
	int fd;

	p = shmat(id, NULL, SHM_RDONLY);
	if (p == (void *)-1)
		return;
	memcpy(&magic, p, sizeof magic);
	memcpy(&ctl, (const char *)p + SHMEM_DSM_CONTROL, sizeof ctl);
	shmdt(p);
	if (magic != SHMEM_MAGIC || ctl == 0)
		return;
	snprintf(name, sizeof name, "/dev/shm/PostgreSQL.%u", ctl);
	fd = open(name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != server_uid ||
	    st.st_size < DSM_CONTROL_ITEMS || st.st_size > DSM_CONTROL_MAX) {
		close(fd);
		return;
	}
	dsm_add(d, ctl);
	buf = malloc((size_t)st.st_size);
	if (!buf)
		abort();
	got = read(fd, buf, (size_t)st.st_size);
	close(fd);
	memcpy(&magic, buf, 4);
	memcpy(&nitems, buf + 4, 4);
	memcpy(&maxitems, buf + 8, 4);
	item = maxitems ? (size_t)(st.st_size - DSM_CONTROL_ITEMS) / maxitems : 0;
	if (got == st.st_size && magic == DSM_CONTROL_MAGIC && nitems <= maxitems && item >= 8 &&
	    DSM_CONTROL_ITEMS + item * maxitems == (size_t)st.st_size) {
		for (i = 0; i < nitems; i++) {
			memcpy(&h, buf + DSM_CONTROL_ITEMS + i * item, 4);
			memcpy(&refcnt, buf + DSM_CONTROL_ITEMS + i * item + 4, 4);
			if (refcnt != 0)
				dsm_add(d, h); /* (one in the main region has no file) */
		}
	}
	free(buf);
}

void pgc_dsm_list(pid_t pm, struct pgc_dsm *d)
{
	pid_t child[KILL_TREE_MAX];
	char *buf = malloc(MAPS_MAX);
	int n, i;

	d->n = 0;
	if (!buf)
		abort();
	n = proc_children(pm, child, KILL_TREE_MAX);
	dsm_of(pm, d, buf);
	for (i = 0; i < n; i++)
		dsm_of(child[i], d, buf);
	free(buf);
}

void pgc_dsm_drop(const struct pgc_dsm *d, uid_t server_uid)
{
	char name[64];
	struct stat st;
	int dir, i;

	if (d->n == 0 || (dir = open("/dev/shm", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return;
	for (i = 0; i < d->n; i++) {
		snprintf(name, sizeof name, "PostgreSQL.%lu", d->handle[i]);
		if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
		    st.st_uid == server_uid && unlinkat(dir, name, 0) < 0)
			evlog_add(EV_WARN, "could not remove /dev/shm/%s of the stopped server: %s",
			          name, strerror(errno));
	}
	close(dir);
}

/* postmaster.pid below dir: the postmaster's pid and its segment's key and
 * id; 0, or -1 when it says none. */
static int pidfile_shm(int dir, long *pm, long *key, long *id)
{
	char buf[1024], *line = buf, *nl;
	int i;

	if (fstree_read(dir, "data/postmaster.pid", buf, sizeof buf) <= 0)
		return -1;
	*pm = strtol(buf, NULL, 10);
	for (i = 1; i < 7 && line; i++) {
		nl = strchr(line, '\n');
		line = nl ? nl + 1 : NULL;
	}
	if (!line || sscanf(line, "%ld %ld", key, id) != 2 || *id < 0 || *id > INT_MAX)
		return -1;
	return 0;
}

void pgc_drop_shm(int dir, uid_t server_uid)
{
	char why[96];
	struct shmid_ds ds;
	long key, id, pm;
	int tries;

	if (pidfile_shm(dir, &pm, &key, &id) < 0)
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
	else {
		/* The dead server's: its dynamic segments go with it. */
		struct pgc_dsm dsm = { 0 };

		dsm_of_segment((int)id, server_uid, &dsm);
		if (shmctl((int)id, IPC_RMID, NULL) == 0) {
			pgc_dsm_drop(&dsm, server_uid);
			return;
		}
		snprintf(why, sizeof why, "%s", strerror(errno));
	}
	evlog_add(EV_WARN, "left the System V shared memory segment %ld (key %ld) alone: %s", id,
	          key, why);
}

void pgc_drop_shm_of(int dir, uid_t server_uid, pid_t pm, struct pgc_dsm *dsm)
{
	struct shmid_ds ds;
	long key, id, pid;

	if (pidfile_shm(dir, &pid, &key, &id) < 0 || pid != (long)pm)
		return; /* it wrote none (yet): none to drop, or the log of the stop says */
	if (shmctl((int)id, IPC_STAT, &ds) < 0 || ds.shm_perm.__key != (key_t)key ||
	    ds.shm_perm.uid != server_uid || ds.shm_cpid != pm)
		return; /* not its segment: left alone */
	dsm_of_segment((int)id, server_uid, dsm);
	if (shmctl((int)id, IPC_RMID, NULL) < 0)
		evlog_add(EV_WARN,
		          "left the System V shared memory segment %ld (key %ld) alone: %s", id,
		          key, strerror(errno));
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
	struct pgc_dsm dsm = { 0 };

	if (tmpdir_runs_in(pm, "postgres", dir)) {
		pgc_dsm_list(pm, &dsm); /* its dynamic segments, while it maps them */
		if (kill(pm, SIGKILL) == 0)
			evlog_add(EV_INFO,
			          "killed the PostgreSQL server (pid %d) left running by a killed "
			          "idxlab in %s",
			          (int)pm, dir);
		else
			dsm.n = 0;
	}
	pgc_drop_shm(fd, data_owner(fd));
	pgc_dsm_drop(&dsm, data_owner(fd));
}

const struct tmpdir_kind pgc_tmpdir = {
	.name = "pg", /* idxlab-pg.XXXXXX, as ever */
	.what = "the PostgreSQL server",
	.alt = "point idxlab at a server with --dsn",
	.clean = clean_leftover,
};

/* The server's socket, c->dir/.s.PGSQL.<port>, must fit a sockaddr_un. */
int pgc_check_socket_path(const struct pg_cluster *c, struct err *e)
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
