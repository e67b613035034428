/* find.c - where the PostgreSQL server binaries are, their major version,
 * and the user the server runs as when idxlab is root (part of the throwaway
 * cluster, cluster.c). */
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

static int has_server(const char *dir)
{
	return dir[0] == '/' && spawn_is_exec_file(dir, "initdb") &&
	       spawn_is_exec_file(dir, "postgres");
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

int pgc_find_server(char *bindir, size_t n, struct err *e)
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
int pgc_server_major(const char *bindir, struct err *e)
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
int pgc_pick_user(struct pg_cluster *c, struct err *e)
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
