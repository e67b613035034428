/* cluster_int.h - what the throwaway cluster's files share (private to
 * cluster.c, find.c, leftovers.c and template.c; the public face is
 * cluster.h): its settings, struct pg_cluster, and the calls between them.
 *
 *   cluster.c    running programs, the server log, boot/stop, the API
 *   find.c       the binaries, the major version, the server user
 *   leftovers.c  a killed idxlab's temp dir, server and shared memory
 *   template.c   the data dir: the template cache, initdb, the hand-over
 *   walsync.c    the WAL sync counter preloaded into the server */
#ifndef IDXLAB_PG_CLUSTER_INT_H
#define IDXLAB_PG_CLUSTER_INT_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../../err.h"
#include "../spawn.h"
#include "../tmpdir.h"
#include "cluster.h"

#define PGC_PORT      5432
#define MIN_MAJOR     10     /* --no-sync, the postmaster.pid layout */
#define MIN_SHARED_KB 128    /* the server's own minimum */
#define POLL_MS       10     /* readiness polling */
#define READY_MS      10000  /* start to accepting connections */
#define RECOVERY_MS   120000 /* ... after an immediate shutdown: WAL replay */
#define FAST_STOP_MS  10000  /* restart: fast shutdown writes a checkpoint */
#define QUIT_MS       300    /* stop: immediate shutdown, then SIGKILL */
#define STOP_MS       500    /* stop: all of it, the reaping after SIGKILL too */
#define DSM_MAX       64     /* dynamic shared memory segments of a server */
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
	/* walsync.c: the preloaded WAL sync counter's counts, mapped (NULL:
	 * none), and the server's environment entries that load it */
	const uint64_t *walsync;
	int ws_tried; /* pgc_walsync_install ran (once: its files are O_EXCL) */
	char ws_preload[PATH_MAX + 32];
	char ws_counts[PATH_MAX + 32];
};
/* cluster.c */
struct spawn pgc_as_server(const struct pg_cluster *c, const char *const *argv);
const char *pgc_log_tail(const struct pg_cluster *c, char *out, size_t n);

/* find.c */
int pgc_find_server(char *bindir, size_t n, struct err *e);
int pgc_server_major(const char *bindir, struct err *e);
int pgc_pick_user(struct pg_cluster *c, struct err *e);

/* leftovers.c */
extern const struct tmpdir_kind pgc_tmpdir;
/* A server's dynamic shared memory segments (/dev/shm/PostgreSQL.<n>):
 * pgc_dsm_list: those pm and its children map, listed while they run (or
 * are stopped); pgc_dsm_drop: removed once they are killed (only regular
 * files of server_uid's). */
struct pgc_dsm {
	int n;
	unsigned long handle[DSM_MAX];
};
void pgc_dsm_list(pid_t pm, struct pgc_dsm *d);
void pgc_dsm_drop(const struct pgc_dsm *d, uid_t server_uid);
/* A dead server's System V segment, and the dynamic segments it names
 * (the rules are in leftovers.c). */
void pgc_drop_shm(int dir, uid_t server_uid);
/* The System V segment of postmaster pm, our child not yet reaped (so its
 * pid is still its own) and just killed: removed at once, still attached or
 * not (the kernel frees it at the last detach); the dynamic segments it
 * names are added to dsm, for pgc_dsm_drop. */
void pgc_drop_shm_of(int dir, uid_t server_uid, pid_t pm, struct pgc_dsm *dsm);
int pgc_check_socket_path(const struct pg_cluster *c, struct err *e);

/* walsync.c: write the counter into c's dir and map its counts (on any
 * failure c->walsync stays NULL); unmap them. */
void pgc_walsync_install(struct pg_cluster *c);
void pgc_walsync_drop(struct pg_cluster *c);

/* template.c */
int pgc_hand_over(const struct pg_cluster *c, int fd);
int pgc_data_from_template(const struct pg_cluster *c);
void pgc_template_save(const struct pg_cluster *c, int replace);
int pgc_template_refused(const struct pg_cluster *c);
int pgc_disk_full(const struct pg_cluster *c, struct err *e);
int pgc_run_initdb(struct pg_cluster *c, const char *data, struct err *e);

#endif
