/* template.c - the data dir: copied from the cached template (opened
 * private: fstree_open_private), else made by initdb and saved as the
 * template; handed over to the server user when complete (part of the
 * throwaway cluster, cluster.c). */
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
int pgc_hand_over(const struct pg_cluster *c, int fd)
{
	return c->drop ? fstree_chown(fd, c->uid, c->gid) : 0;
}

/* Copy the cached template into data (below our dir fd); 0, or -1 if there
 * is none (or it is not usable) and initdb must run. The copy is ours
 * (0700) until it is complete, then handed over. */
int pgc_data_from_template(const struct pg_cluster *c)
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
		             fchmod(data, 0700) == 0 && pgc_hand_over(c, data) == 0
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
void pgc_template_save(const struct pg_cluster *c, int replace)
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
int pgc_template_refused(const struct pg_cluster *c)
{
	char tail[TAIL_CHARS];

	pgc_log_tail(c, tail, sizeof tail);
	return strstr(tail, "incompatible with server") || strstr(tail, "control file") ||
	       strstr(tail, "pg_control") || strstr(tail, "checkpoint record");
}

/* The data dir did not fit in TMPDIR: say that first, and where. */
int pgc_disk_full(const struct pg_cluster *c, struct err *e)
{
	const char *slash = strrchr(c->dir, '/');

	return err_set(e, ERR_RUNTIME,
	               "cannot create the PostgreSQL data dir in %.*s: the disk is full (No space "
	               "left on device) - free space there (a fresh data dir needs about 40 MB), "
	               "set TMPDIR to a directory with room, or point idxlab at a server with "
	               "--dsn",
	               slash ? (int)(slash - c->dir) : (int)strlen(c->dir), c->dir);
}

int pgc_run_initdb(struct pg_cluster *c, const char *data, struct err *e)
{
	char prog[PATH_MAX], tail[TAIL_CHARS], why[256];
	const char *argv[] = { prog, "-D",   data,         "-U",        "idxlab", "--auth=trust",
		               "-E", "UTF8", "--locale=C", "--no-sync", NULL };
	struct spawn s = pgc_as_server(c, argv);

	if (tmpdir_join(prog, sizeof prog, c->bindir, "initdb") < 0)
		return err_set(e, ERR_RUNTIME, "path too long: %s", c->bindir);
	c->log_from = lseek(c->log_fd, 0, SEEK_END);
	if (spawn_run(&s, prog, e) == 0)
		return 0;
	if (strstr(pgc_log_tail(c, tail, sizeof tail), "No space left on device"))
		return pgc_disk_full(c, e);
	snprintf(why, sizeof why, "%.250s", e ? e->msg : "initdb failed");
	return err_set(e, ERR_RUNTIME, "cannot create the PostgreSQL data dir: %s; its output: %s",
	               why, pgc_log_tail(c, tail, sizeof tail));
}
