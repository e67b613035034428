/* server.c - the throwaway mongod, when no server is named.
 *
 * A mongod from $PATH on a free 127.0.0.1 port, no auth, in a temp dir
 * $TMPDIR/idxlab-mongo.XXXXXX (tmpdir.h: data/, mongod.log, mongod.pid),
 * started through spawn.h: it is killed and its dir removed when the engine
 * closes, and it dies with idxlab even on kill -9 (PR_SET_PDEATHSIG). The
 * dir a killed idxlab leaves is removed by the next start, which also kills
 * its mongod should it still run. */
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../evlog.h"
#include "../spawn.h"
#include "../tmpdir.h"
#include "internal.h"

/* A TCP port nobody listens on now. */
static int free_port(void)
{
	struct sockaddr_in a;
	socklen_t len = sizeof a;
	int fd = socket(AF_INET, SOCK_STREAM, 0), port = -1;

	if (fd < 0)
		return -1;
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)&a, sizeof a) == 0 &&
	    getsockname(fd, (struct sockaddr *)&a, &len) == 0)
		port = ntohs(a.sin_port);
	close(fd);
	return port;
}

static int port_open(int port)
{
	struct sockaddr_in a;
	int fd = socket(AF_INET, SOCK_STREAM, 0), ok;

	if (fd < 0)
		return 0;
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	a.sin_port = htons((uint16_t)port);
	ok = connect(fd, (struct sockaddr *)&a, sizeof a) == 0;
	close(fd);
	return ok;
}

/* A killed idxlab's mongod, should it have outlived it (it normally dies
 * with idxlab): only if that pid still runs a mongod in dir. */
static void clean_leftover(const char *dir, int fd)
{
	pid_t pid = tmpdir_read_pid_at(fd, MONGOD_PID);

	if (tmpdir_runs_in(pid, "mongod", dir) && kill(pid, SIGKILL) == 0)
		evlog_add(EV_INFO, "killed mongod (pid %d), left running by a killed idxlab in %s",
		          (int)pid, dir);
}

static const struct tmpdir_kind mongo_tmpdir = {
	.name = "mongo",
	.what = "a throwaway mongod",
	.alt = "point idxlab at a server with --dsn",
	.clean = clean_leftover,
};

/* 1 while the throwaway mongod runs; reaps it when it has exited. */
int mongod_alive(struct engine *en)
{
	int st;

	if (en->mongod <= 0)
		return 0;
	if (spawn_reap(en->mongod, &st, 0)) {
		en->mongod = 0;
		en->mongod_died = 1;
		return 0;
	}
	return 1;
}

/* Kill it (its data is thrown away anyway), reap it, remove its dir. */
void mongod_stop(struct engine *en)
{
	int st;

	if (en->mongod > 0) {
		kill(-en->mongod, SIGKILL); /* its session and process group */
		kill(en->mongod, SIGKILL);
		spawn_reap(en->mongod, &st, -1);
		en->mongod = 0;
	}
	tmpdir_remove(en->mongod_dir);
}

/* Start mongod (bin) on a free port; *port gets it. */
int mongod_start(struct engine *en, const char *bin, int *port, struct err *e)
{
	char data[PATH_MAX + 8], logp[PATH_MAX + 16], pidf[PATH_MAX + 16], portbuf[16];
	char tail[512], pidtext[32], what[PATH_MAX + 32];
	const char *argv[20];
	/* Our environment: a mongod may be configured through it. */
	struct spawn s = { .argv = argv, .out = -1, .inherit_env = 1 };
	int i, n = 0;

	if (tmpdir_make(en->mongod_dir, sizeof en->mongod_dir, &mongo_tmpdir, (uid_t)-1, e) < 0)
		return -1;
	snprintf(data, sizeof data, "%s/data", en->mongod_dir);
	snprintf(pidf, sizeof pidf, "%s/" MONGOD_PID, en->mongod_dir);
	snprintf(logp, sizeof logp, "%s/mongod.log", en->mongod_dir);
	if (mkdir(data, 0700) < 0)
		return err_set(e, ERR_RUNTIME, "cannot make %s: %s", data, strerror(errno));
	*port = free_port();
	if (*port <= 0)
		return err_set(e, ERR_RUNTIME, "no free TCP port on 127.0.0.1 for a mongod");
	snprintf(portbuf, sizeof portbuf, "%d", *port);
	argv[n++] = bin;
	argv[n++] = "--dbpath";
	argv[n++] = data;
	argv[n++] = "--port";
	argv[n++] = portbuf;
	argv[n++] = "--bind_ip";
	argv[n++] = "127.0.0.1";
	argv[n++] = "--nounixsocket";
	argv[n++] = "--logpath";
	argv[n++] = logp;
	argv[n++] = "--wiredTigerCacheSizeGB";
	argv[n++] = "0.25"; /* the least it takes; setup sets the cache knob */
	argv[n++] = "--setParameter";
	argv[n++] = "diagnosticDataCollectionEnabled=false";
	argv[n] = NULL;
	/* Its own session keeps a Ctrl-C meant for idxlab away; the death
	 * signal takes it down with idxlab (spawn.h). */
	snprintf(what, sizeof what, "the throwaway mongod (%s)", bin);
	en->mongod = spawn_start(&s, what, e);
	if (en->mongod < 0) {
		en->mongod = 0;
		return -1;
	}
	/* For the sweep, should idxlab be killed and this mongod outlive it. */
	snprintf(pidtext, sizeof pidtext, "%d\n", (int)en->mongod);
	(void)tmpdir_write_file(pidf, pidtext);
	for (i = 0; i < START_TIMEOUT * 20; i++) {
		if (!mongod_alive(en)) {
			tmpdir_log_tail(en->mongod_dir, "mongod.log", 2, tail, sizeof tail);
			return err_set(e, ERR_RUNTIME,
			               "the throwaway mongod (%s) exited while starting%s%s - try "
			               "running it by hand, or use --dsn",
			               bin, tail[0] ? "; its log ends: " : "", tail);
		}
		if (port_open(*port))
			return 0;
		if (en->stop && atomic_load(en->stop))
			return err_set(e, ERR_RUNTIME, "stopped while mongod was starting");
		usleep(50000);
	}
	tmpdir_log_tail(en->mongod_dir, "mongod.log", 2, tail, sizeof tail);
	return err_set(e, ERR_RUNTIME,
	               "the throwaway mongod (%s) did not listen on 127.0.0.1:%d within %d s; "
	               "its log ends: %s",
	               bin, *port, START_TIMEOUT, tail[0] ? tail : "(empty)");
}

/* The throwaway server is gone: say so with the end of its log, quoted now
 * since its directory goes at exit. */
int mongod_died(struct engine *en, struct err *e, const char *what, const char *why)
{
	char tail[512];

	tmpdir_log_tail(en->mongod_dir, "mongod.log", 2, tail, sizeof tail);
	return err_set(e, ERR_RUNTIME,
	               "%s%sthe throwaway mongod died%s%s - it was killed or crashed; its log "
	               "ends: %s",
	               what, *what ? ": " : "", why ? ": " : "", why ? why : "",
	               tail[0] ? tail : "(empty)");
}

int mongod_check(struct engine *en, struct err *e)
{
	if (en->mongod_dir[0] && !mongod_alive(en))
		return mongod_died(en, e, "", NULL);
	return 0;
}
