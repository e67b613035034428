/* cluster.h - a throwaway local PostgreSQL cluster for one run.
 *
 * idxlab starts its own server when no --dsn names one: a fresh temp dir
 * $TMPDIR/idxlab-pg.XXXXXX holds the data dir, the unix socket (no TCP) and
 * server.log; stopping the cluster throws all of it away. The server dies
 * with idxlab even on kill -9 (PR_SET_PDEATHSIG) and ignores a Ctrl-C meant
 * for idxlab (it runs in its own session). When idxlab runs as root the
 * server runs as user postgres (or nobody), since PostgreSQL refuses root.
 * A fresh data dir is cached in $XDG_CACHE_HOME/idxlab/pg-template-<major>
 * (default ~/.cache/idxlab) so that later starts skip initdb.
 *
 * Nothing here prints: errors go into struct err only (and the event log
 * notes the removal of a killed idxlab's leftovers, see tmpdir.h).
 *
 * Threads: call everything from one thread, and keep that thread alive while
 * the cluster runs: the kernel's parent-death signal follows the thread that
 * forked the server, so if that thread exits the server is killed. */
#ifndef IDXLAB_PG_CLUSTER_H
#define IDXLAB_PG_CLUSTER_H

#include <stdint.h>
#include <sys/types.h>

#include "../../err.h"

struct pg_cluster;

/* Start a cluster and wait until it accepts connections; shared_buffers in
 * bytes (0: the server default; less than 128 kB is raised to 128 kB). First
 * removes the leftovers of idxlab processes that died without cleaning up.
 * On failure *out is NULL, nothing is left behind, and the message says what
 * failed; when initdb or the server failed it ends with the tail of their
 * output (the last lines, joined by " | ", on one line). */
int pg_cluster_start(struct pg_cluster **out, long long shared_buffers, struct err *e);

/* libpq conninfo: "host=<socket dir> port=<port> user=idxlab dbname=postgres"
 * (user idxlab is the superuser, trust auth). Valid until pg_cluster_stop. */
const char *pg_cluster_conninfo(const struct pg_cluster *c);

/* The postmaster, or 0 when none runs (it died, or a restart failed). */
pid_t pg_cluster_pid(const struct pg_cluster *c);

/* The temp dir holding it all (data/, the socket, server.log, owner.pid).
 * Valid until pg_cluster_stop, which removes it. */
const char *pg_cluster_dir(const struct pg_cluster *c);

/* Where initdb and postgres were found (psql, pg_waldump, ... live there too). */
const char *pg_cluster_bindir(const struct pg_cluster *c);

/* The server's WAL syncs (fsync/fdatasync of files under pg_wal/) since
 * the cluster started, by what the process that made each was doing, as
 * the counter preloaded into the server (src/shim/pg_walsync.c) counted
 * them: v[PG_WALSYNC_COMMIT] a backend running COMMIT, v[PG_WALSYNC_WALWRITER]
 * the WAL writer's background flushes, v[PG_WALSYNC_OTHER] the rest (a
 * statement evicting a dirty buffer or filling the WAL buffers, the
 * checkpointer, autovacuum). 1 when counted, 0 when the counter could not
 * be installed (c NULL too). */
enum { PG_WALSYNC_COMMIT, PG_WALSYNC_WALWRITER, PG_WALSYNC_OTHER, PG_WALSYNC_COUNT };
int pg_cluster_walsync(const struct pg_cluster *c, uint64_t v[PG_WALSYNC_COUNT]);

/* Restart with a new shared_buffers (bytes, as for start): fast shutdown
 * (clients are disconnected and a checkpoint is written), then start again on
 * the same data dir and wait until it accepts connections. Connections made
 * before are gone. If the fast shutdown takes over 10 s the server is stopped
 * at once instead and the new one recovers from WAL. On failure the cluster
 * may have no server (pg_cluster_pid() is 0); pg_cluster_stop it. */
int pg_cluster_restart(struct pg_cluster *c, long long shared_buffers, struct err *e);

/* 1 while the postmaster runs, else 0 (and reaps it). */
int pg_cluster_alive(struct pg_cluster *c);

/* Stop at once (immediate shutdown: the data is thrown away; SIGKILL at
 * once for a server whose processes are stopped, after 0.3 s for one that
 * does not end), reap the server, remove the temp dir. Every wait ends by a
 * deadline: at most 0.5 s from the call in all, plus what the file system
 * takes to delete the temp dir (removal_s, may be NULL: those seconds). Safe
 * on NULL and on a half-started cluster. c is freed. 0, or -1 when some of
 * the temp dir stays (the event log says why). */
int pg_cluster_stop(struct pg_cluster *c, double *removal_s);

#endif
